//! What decides whether the app lets the person use a widget now, beyond its own `ui`: the
//! bridge's blocking, a closed menu or collapsed section drawn hidden, egui's own passes. What
//! the app disables is disabled for agents too; what the bridge or egui disables is not the
//! app's choice.

/// What decides whether the app lets the person use a widget now, beyond its `ui`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Gate {
    /// The window is blocked: its contents are disabled by the bridge, not by the app (the
    /// window is not operable anyway).
    pub blocked: bool,
    /// Inside a closed menu, drawn hidden: whether the menu's own `ui` allowed use (the hidden
    /// `ui` is disabled by egui, not by the app; the items say for themselves).
    pub hidden: Option<bool>,
    /// Inside a collapsed section: readable, not usable until it is opened.
    pub collapsed: bool,
}

impl Gate {
    /// Whether the app lets the person use what is drawn in `ui` now: `ui` is enabled, or what
    /// disabled it was not the app (the bridge's blocking, a collapsed section's hiding, egui's
    /// sizing pass of a window shown for the first time, a pass egui discards). A widget the
    /// app disabled (`add_enabled_ui(false, …)`, `ui.disable()`, `set_invisible`, a disabled
    /// parent) is disabled for agents too.
    pub fn allows(self, ui: &egui::Ui) -> bool {
        if self.collapsed {
            return false;
        }
        if self.blocked {
            return true;
        }
        if let Some(section) = self.hidden {
            return section;
        }
        ui.is_enabled() || ui.is_sizing_pass() || ui.ctx().will_discard()
    }
}
