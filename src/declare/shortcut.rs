//! Keyboard shortcuts on any action, not only on menu items: the person's shortcut presses the
//! button (or the action that has no widget), agents read it in the action's description, and
//! it presses nothing while the app or the bridge disables the action.

use super::{Press, WindowUi};
use crate::hub::{ActionSpec, NoArgs};

/// The action after it, pressed for the person by a keyboard shortcut too:
/// [`WindowUi::with_shortcut`].
#[must_use = "add the action the shortcut presses: .button, .add_button or .action"]
pub struct Shortcut<'w> {
    window: &'w mut WindowUi,
    keys: egui::KeyboardShortcut,
    /// Whether the person's keys press it in this pass (see [`Shortcut::when`]).
    active: bool,
}

impl std::fmt::Debug for Shortcut<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shortcut").field("keys", &self.keys).finish_non_exhaustive()
    }
}

impl WindowUi {
    /// Binds `shortcut` to the action added next through what this returns: a button
    /// ([`Shortcut::button`], [`Shortcut::add_button`]) or an action whose person's way is the
    /// shortcut alone ([`Shortcut::action`]). The person's shortcut presses it as a click would,
    /// and not while it is disabled (by the app, the bridge's blocking, a collapsed section);
    /// agents read the shortcut in the action's description. The shortcut is egui's: consumed
    /// from the whole app's input, by the first action that takes it in a pass.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// const SEND: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Enter);
    /// const CLEAR: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::L);
    /// let bridge = Bridge::builder().build();
    /// let mut lines = vec![String::from("hello")];
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("console").title("Console").ui(ui, |w, ui| {
    ///     if let Some(press) = w.with_shortcut(SEND).button(ui, "send", ActionSpec::new("Send")).inner {
    ///         lines.push(String::from("sent"));
    ///         press.ok("Sent");
    ///     }
    ///     // No button: the shortcut is the person's way, the action the agent's.
    ///     if let Some(press) = w.with_shortcut(CLEAR).action(ui, "clear", ActionSpec::new("Clear the console")) {
    ///         lines.clear();
    ///         press.ok("Cleared");
    ///     }
    /// });
    /// # });
    /// ```
    pub fn with_shortcut(&mut self, shortcut: egui::KeyboardShortcut) -> Shortcut<'_> {
        Shortcut { window: self, keys: shortcut, active: true }
    }
}

impl Shortcut<'_> {
    /// Presses it for the person only while `active` (default: always): a key that works while
    /// a field has focus, as egui apps write `response.has_focus() && consume_key(..)` (Enter
    /// in a command line: `.when(line.lost_focus())`, since egui's single-line edit gives up
    /// its focus on Enter). Agents are offered the action whatever the focus: they have none.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// const ENTER: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::NONE, egui::Key::Enter);
    /// let bridge = Bridge::builder().build();
    /// let mut command = String::new();
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("console").title("Console").ui(ui, |w, ui| {
    ///     let line = ui.text_edit_singleline(&mut command);
    ///     # w.describes(&line);
    ///     if let Some(press) = w.with_shortcut(ENTER).when(line.lost_focus()).button(ui, "send", ActionSpec::new("Send")).inner {
    ///         press.ok("Sent");
    ///     }
    /// });
    /// # });
    /// ```
    pub fn when(mut self, active: bool) -> Self {
        self.active = active;
        self
    }

    /// The action's description with the shortcut in words ("Shortcut Ctrl+S").
    fn described(&self, ctx: &egui::Context, spec: ActionSpec) -> ActionSpec {
        let text = ctx.format_shortcut(&self.keys);
        let described = match &spec.description {
            Some(d) => format!("{d} (shortcut {text})"),
            None => format!("Shortcut {text}"),
        };
        spec.description(described)
    }

    /// Whether the person pressed the shortcut, taking it from egui's input.
    fn pressed(&self, ctx: &egui::Context) -> bool {
        self.active && ctx.input_mut(|i| i.consume_shortcut(&self.keys))
    }

    /// [`WindowUi::button`], pressed by the shortcut too.
    pub fn button(self, ui: &mut egui::Ui, name: &str, spec: ActionSpec) -> egui::InnerResponse<Option<Press>> {
        let title = spec.title.clone();
        self.add_button(ui, name, spec, egui::Button::new(title.as_ref()))
    }

    /// [`WindowUi::add_button`] (any egui button: give it `.shortcut_text(…)` to show the keys),
    /// pressed by the shortcut too.
    pub fn add_button(
        self,
        ui: &mut egui::Ui,
        name: &str,
        spec: ActionSpec,
        button: impl egui::Widget,
    ) -> egui::InnerResponse<Option<Press>> {
        let spec = self.described(ui.ctx(), spec);
        let allowed = self.window.gate().allows(ui);
        let mut shown = self.window.add_button(ui, name, spec, button);
        let usable = allowed && shown.response.enabled() && !self.window.blocked;
        if shown.inner.is_none() && usable && self.pressed(ui.ctx()) {
            shown.inner = Some(Press::person(NoArgs {}));
        }
        shown
    }

    /// An action whose person's way is the shortcut alone (a global Ctrl+L that clears a log):
    /// declared as [`ForAgents::button`](super::ForAgents::button) while `ui` allows it, pressed by the shortcut then.
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn action(self, ui: &egui::Ui, name: &str, spec: ActionSpec) -> Option<Press> {
        if !self.window.gate().allows(ui) {
            return None;
        }
        let spec = self.described(ui.ctx(), spec);
        let call = self.window.offer(name, spec);
        match call {
            Some(call) => Some(call),
            None if !self.window.blocked && self.pressed(ui.ctx()) => Some(Press::person(NoArgs {})),
            None => None,
        }
    }
}
