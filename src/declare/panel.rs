//! A window drawn straight into the app's `ui` ([`WindowBuilder::panel`]): a side, top, bottom
//! or central panel, or a part of the main window that agents should see as a window of its
//! own. The glue of `both.rs`, without a frame of its own.

use super::both::prompts;
use super::mark::{Band, mark_strength, mark_text, paint_mark};
use super::{WindowBuilder, WindowResponse, WindowUi};

impl WindowBuilder {
    /// Declares the window and draws its contents straight into `ui`, with no window frame of its
    /// own: for a panel (`egui::Panel` side, top, bottom or central: the window is what the
    /// panel shows), or a part of the main window that agents should see as a window of its
    /// own (a console whose live lines should not move the settings' version). The glue of
    /// [`ui`](Self::ui) is done here too: the contents disabled exactly when a dialog blocks it,
    /// the agent's mark (an outline and an "Agent: …" line painted over the panel, taking no
    /// room: its contents are where egui puts them), the approval prompt; and a dialog owned by
    /// it ([`modal_of`](Self::modal_of)) opens over it. `add_contents` runs once, and what it
    /// returns is the response's `inner`.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge, Input};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut dark = false;
    /// # egui::__run_test_ui(|ui| {
    /// egui::Panel::left("settings").show(ui, |ui| {
    ///     bridge.window("settings").title("Settings").summary("The app's settings").panel(ui, |w, ui| {
    ///         w.form(ui, "look", |f| {
    ///             f.edit("dark", &Input::checkbox("Dark mode"), &mut dark);
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn panel<R>(
        self,
        ui: &mut egui::Ui,
        add_contents: impl FnOnce(&mut WindowUi, &mut egui::Ui) -> R,
    ) -> WindowResponse<R> {
        let ctx = ui.ctx().clone();
        let app_id = self.decl.app_id.clone();
        let (blocked, agent, approval) = self.glue_state();
        let strength = mark_strength(&ctx, agent.as_ref());
        let (core, state) = (std::sync::Arc::clone(&self.core), std::sync::Arc::clone(&self.state));
        // A scope, not a frame: the contents are laid out where egui puts them in `ui`.
        let shown = ui.scope(|ui| {
            self.declare_window(|w| {
                super::both::described(w, ui);
                prompts(ui, &core, &app_id, blocked, approval.as_ref());
                ui.add_enabled_ui(!blocked, |ui| add_contents(w, ui)).inner
            })
        });
        // Where it is, for the dialogs it owns and the mark: all of the panel, not only what its
        // contents took.
        let rect = shown.response.rect.union(ui.max_rect().intersect(ctx.content_rect()));
        if let (Some(a), Some(s)) = (agent.as_ref(), strength) {
            let band =
                Band { height: ui.spacing().interact_size.y, right: 0.0, fill: ui.visuals().panel_fill, outside: true };
            paint_mark(&ctx, ui.layer_id(), rect, &mark_text(a), s, band);
        }
        state.places.lock().inline(&ctx, &app_id, rect);
        core.frame.lock().panel_rect(&app_id, [rect.min.x, rect.min.y, rect.max.x, rect.max.y]);
        shown.inner
    }
}
