//! What the app drew but did not describe: the developer's list, kept by the core from the
//! read view's last look at each viewport.

/// An interactive widget the app drew but did not describe (no widget of `WindowUi`, form field,
/// menu item or section of the bridge drew it): agents can read it in the read view, but not
/// use it. Listed by [`crate::Bridge::undescribed_widgets`] (and, with the feature `testing`,
/// `testing::Harness::undescribed`), and logged at debug level when the list changes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UndescribedWidget {
    /// Its kind, in egui's words: `button`, `checkbox`, `text input`, `link`, `section`, ...
    pub kind: &'static str,
    /// Its label, or the label beside it; empty when it has none.
    pub label: String,
    /// The title of the window or panel it is in.
    pub window: String,
}

impl std::fmt::Display for UndescribedWidget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {:?} in {:?}", self.kind, self.label, self.window)
    }
}
