//! A window drawn straight into the app's `ui` ([`WindowBuilder::panel`]): a side, top, bottom
//! or central panel, or a part of the main window that agents should see as a window of its
//! own. The glue of `both.rs`, without a frame of its own.

use super::both::{AGENT_BLUE, mark_strength, mark_text, prompts};
use super::{WindowBuilder, WindowResponse, WindowUi};

impl WindowBuilder {
    /// Declares the window and draws its contents straight into `ui`, with no window frame of its
    /// own: for a panel (`egui::Panel` side, top, bottom or central: the window is what the
    /// panel shows), or a part of the main window that agents should see as a window of its
    /// own (a console whose live lines should not move the settings' version). The glue of
    /// [`ui`](Self::ui) is done here too: the contents disabled exactly when a dialog blocks it,
    /// the agent's mark, the approval prompt; and a dialog owned by it
    /// ([`modal_of`](Self::modal_of)) opens over it. `add_contents` runs once, and what it
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
        // The outline takes its room whether it shows or not, so that nothing moves when it does.
        let outline = strength.map_or(egui::Color32::TRANSPARENT, |s| AGENT_BLUE.gamma_multiply(s));
        let frame = egui::Frame::NONE.stroke(egui::Stroke::new(2.5, outline));
        let shown = frame.show(ui, |ui| {
            self.declare_window(|w| {
                super::both::described(w, ui);
                prompts(ui, &core, &app_id, blocked, approval.as_ref());
                ui.add_enabled_ui(!blocked, |ui| add_contents(w, ui)).inner
            })
        });
        if let (Some(a), Some(s)) = (agent.as_ref(), strength) {
            mark_over(&ctx, &app_id, shown.response.rect, &mark_text(a), s);
        }
        // Where it is, for the dialogs it owns: all of the panel, not only what its contents took.
        let rect = shown.response.rect.union(ui.max_rect().intersect(ctx.content_rect()));
        state.places.lock().inline(&ctx, &app_id, rect);
        shown.inner
    }
}

/// The "Agent: …" line of a panel, painted over its top right corner rather than laid out above
/// its contents: a panel keeps no room for it (a menu bar would grow), and a line inserted for a
/// few seconds would move every row under the person's pointer.
fn mark_over(ctx: &egui::Context, app_id: &str, rect: egui::Rect, text: &str, strength: f32) {
    let layer = egui::LayerId::new(egui::Order::Foreground, egui::Id::unique(("egui_mcp_bridge::mark", app_id)));
    let painter = ctx.layer_painter(layer);
    let style = ctx.global_style();
    let color = AGENT_BLUE.gamma_multiply(strength);
    let galley = painter.layout_no_wrap(text.to_owned(), egui::TextStyle::Small.resolve(&style), color);
    let pos = rect.right_top() + egui::vec2(-galley.size().x - 6.0, 3.0);
    let back = egui::Rect::from_min_size(pos, galley.size()).expand(2.0);
    painter.rect_filled(back, 3.0, style.visuals.panel_fill.gamma_multiply(strength));
    painter.galley(pos, galley, color);
}
