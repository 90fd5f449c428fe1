//! A described window's egui options (size, resizing, scrolling, anchoring, closing, egui's
//! own `Window` options, the "Own window" button): kept on the [`WindowBuilder`] and applied by
//! `both.rs` as egui's `Window` applies them, so that the window looks as the app's own.

use super::WindowBuilder;

impl WindowBuilder {
    /// The size the window opens with (egui's `Window::default_size`; default: what egui's own
    /// `Window` opens with, the same contents taking the same room). In an OS window of its own,
    /// its inner size (default 340 × 420 points, egui's default outer size; a dialog 300 × 120;
    /// grown to hold its contents).
    pub fn default_size(mut self, size: impl Into<egui::Vec2>) -> Self {
        self.look.size = Some(size.into());
        self
    }

    /// Whether the person can resize it (egui's `Window::resizable`; default: yes, a dialog no).
    /// In an OS window of its own, whether that window can be resized.
    pub fn resizable(mut self, resizable: bool) -> Self {
        self.look.resizable = Some(resizable);
        self
    }

    /// Whether the person can collapse it to its title bar (egui's `Window::collapsible`;
    /// default: yes, a dialog no). Agents read a collapsed window all the same.
    pub fn collapsible(mut self, collapsible: bool) -> Self {
        self.look.collapsible = Some(collapsible);
        self
    }

    /// Contents taller than the window scroll (egui's `Window::vscroll`).
    pub fn vscroll(mut self, vscroll: bool) -> Self {
        self.look.vscroll = Some(vscroll);
        self
    }

    /// The width it opens with (egui's `Window::default_width`), its height from its contents.
    pub fn default_width(mut self, width: f32) -> Self {
        self.look.default_width = Some(width);
        self
    }

    /// A size the person cannot change (egui's `Window::fixed_size`); an OS window of its own
    /// gets it as its inner size, not resizable.
    pub fn fixed_size(mut self, size: impl Into<egui::Vec2>) -> Self {
        self.look.fixed_size = Some(size.into());
        self
    }

    /// Keeps it at a corner or edge of the main window (egui's `Window::anchor`), instead of the
    /// place the bridge picks: a Preferences dialog in the centre, a palette at the top right.
    /// Inside the main window only.
    pub fn anchor(mut self, align: egui::Align2, offset: impl Into<egui::Vec2>) -> Self {
        self.look.anchor = Some((align, offset.into()));
        self
    }

    /// Every other option of egui's `Window` (`default_height`, `min_width`, per-axis
    /// `resizable([true, false])`, `hscroll`, `constrain(false)`, `fixed_pos`, `title_bar`,
    /// `frame`…): `options` gets the `egui::Window` as the bridge set it up and returns it as the
    /// app wants it. It runs last, after the bridge's choices and the options above, so the app's
    /// word is the last, and an option can undo what the bridge does: `fixed_pos`, `current_pos`
    /// and `anchor` replace the bridge's placement (where it covers the least, a dialog over its
    /// owner; `default_pos` does not, as the bridge sets where a window opens); `constrain(false)` and `constrain_to` let it leave
    /// what the app's panels leave free; `frame` replaces egui's window frame (the agent's mark is
    /// painted over it all the same);
    /// `order` a dialog's place above its owner; `id` the egui id its place is kept in;
    /// `title_bar(false)` its close button (the `close` action stays for agents); `enabled(false)`
    /// disables it for both (egui runs its contents in a disabled `ui`, so agents are offered
    /// none of its widgets). Not run for an [`app_modal`](Self::app_modal) (an
    /// `egui::Modal`) nor in an OS window of its own, where only [`resizable`](Self::resizable)
    /// and [`fixed_size`](Self::fixed_size) apply.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # egui::__run_test_ui(|ui| {
    /// bridge
    ///     .window("about")
    ///     .title("About")
    ///     .default_width(320.0)
    ///     .with_window(|w| w.default_height(480.0).resizable([true, false]).hscroll(true))
    ///     .ui(ui, |w, ui| w.label(ui, "about", "A demo"));
    /// # });
    /// ```
    pub fn with_window(
        mut self,
        options: impl for<'a> Fn(egui::Window<'a>) -> egui::Window<'a> + Send + Sync + 'static,
    ) -> Self {
        self.look.window = Some(super::places::WindowOptions(std::sync::Arc::new(options)));
        self
    }

    /// Whether the window has the bridge's "Own window" button, that lets the person move it
    /// into an OS window of its own and back (default: the bridge's
    /// [`BridgeBuilder::own_window_buttons`](crate::BridgeBuilder::own_window_buttons), off). The
    /// button sits in a row above the contents, so turning it on moves them down by that row;
    /// off, the window's contents are laid out where `egui::Window` puts them. A dialog never
    /// has it (it goes where its owner is), nor a window when every window has its own
    /// ([`BridgeBuilder::native_windows`](crate::BridgeBuilder::native_windows)). Turned off
    /// while the window is in an OS window of its own, it moves back into the main window.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("chart").title("Chart").own_window_button(true).ui(ui, |w, ui| w.label(ui, "chart", "…"));
    /// # });
    /// ```
    pub fn own_window_button(mut self, on: bool) -> Self {
        self.look.own_window_button = Some(on);
        self
    }

    /// Gives the window a close button (and lets its OS window be closed; an
    /// [`app_modal`](Self::app_modal) is closed by Escape or a click outside it, as egui's
    /// `Modal`) and declares its
    /// `close` action ("Close"): the person's close and the agent's call come back as one
    /// [`Press`](crate::Press) in [`WindowResponse::close`](super::WindowResponse::close), for the app to stop showing it (and
    /// answer "closed") or to ask first (and answer what it did).
    pub fn closable(self) -> Self {
        self.closable_as(crate::hub::ActionSpec::new("Close"))
    }

    /// [`closable`](Self::closable), with the `close` action described by `spec` ("Close editor",
    /// "asks first if there are unsaved changes").
    pub fn closable_as(mut self, spec: crate::hub::ActionSpec) -> Self {
        self.look.closable = Some(spec);
        self
    }
}
