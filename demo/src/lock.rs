//! Session locked: an app-level modal, described once. While it is open only it can be
//! operated (by its `unlock` tool or the person's PIN field), and the app-level tools are not
//! listed.

use egui_mcp_bridge::{ActionSpec, Bridge, Severity, ToolError, ToolResult};
use serde::Deserialize;

/// The PIN that unlocks the session (stated in the README).
pub const UNLOCK_PIN: &str = "1234";

/// `unlock` arguments: the session PIN.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnlockArgs {
    // A secret: masked wherever the call is shown, left out of recordings.
    #[schemars(extend("writeOnly" = true))]
    pub pin: String,
}

/// The Session locked modal.
#[derive(Debug)]
pub(crate) struct Lock {
    pub id: String,
    /// What the person typed.
    pin: String,
    error: Option<String>,
}

impl Lock {
    pub fn new(id: String) -> Self {
        Self { id, pin: String::new(), error: None }
    }

    /// The one operation, for the agent's tool and the person's button alike.
    fn unlock(&mut self, pin: &str) -> Result<ToolResult, ToolError> {
        if pin == UNLOCK_PIN {
            Ok(ToolResult::message("Unlocked"))
        } else {
            self.error = Some("Wrong PIN".into());
            Err(ToolError::invalid_field("pin", "Wrong PIN"))
        }
    }

    /// Shows the lock; whether it was unlocked in this pass (the app then stops showing it).
    pub(crate) fn show(&mut self, bridge: &Bridge, ui: &mut egui::Ui) -> bool {
        let window = bridge.window(self.id.clone()).title("Session locked").app_modal();
        let window = window.summary("The session is locked; unlock it with the PIN").default_size([280.0, 150.0]);
        let shown = window.ui(ui, |w, ui| {
            w.label(ui, "info", "The session is locked. Enter the PIN to unlock it.");
            // The person's PIN and Unlock (or Enter), and the agent's `unlock`: one gesture.
            let spec = ActionSpec::new("Unlock session").description("Unlock with the PIN");
            let pin = &mut self.pin;
            let unlock = w.gesture(ui, "unlock", spec, |ui| {
                let l = ui.label("PIN");
                let r = ui.add(egui::TextEdit::singleline(pin).password(true)).labelled_by(l.id);
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                (ui.button("Unlock").clicked() || enter).then(|| UnlockArgs { pin: std::mem::take(pin) })
            });
            let unlocked = unlock.is_some_and(|press| press.handle(|a| self.unlock(&a.pin)));
            if let Some(e) = self.error.clone() {
                w.notice(ui, "error-pin", Severity::Error, &format!("pin: {e}"));
            }
            unlocked
        });
        shown.inner == Some(true)
    }
}
