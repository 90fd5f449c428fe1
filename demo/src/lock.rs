//! Session locked: an app-level modal. While it is open only it can be operated (by its
//! `unlock` tool or the person's PIN field), and the app-level tools are not listed.

use egui::Color32;
use egui_mcp_bridge::{ActionSpec, Severity, ToolError};
use serde::Deserialize;

use crate::app::OrderApp;
use crate::ui_util::window_id;
use crate::windows::Spec;

/// The PIN that unlocks the session (stated in the README).
pub const UNLOCK_PIN: &str = "1234";

/// `unlock` arguments: the session PIN.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnlockArgs {
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
    fn unlock(&mut self, pin: &str) -> Result<(), ToolError> {
        if pin == UNLOCK_PIN {
            Ok(())
        } else {
            self.error = Some("Wrong PIN".into());
            Err(ToolError::invalid_field("pin", "Wrong PIN"))
        }
    }
}

impl OrderApp {
    /// Declares and shows the lock while it is on.
    pub(crate) fn lock_modal(&mut self, ctx: &egui::Context) {
        let Some(lock) = &mut self.lock else { return };
        let mut unlocked = false;
        let error = lock.error.clone();
        let id = lock.id.clone();
        let _ = self
            .bridge
            .window(&id)
            .title("Session locked")
            .app_modal()
            .summary("The session is locked; unlock it with the PIN")
            .show(|w| {
                w.text("info", "The session is locked. Enter the PIN to unlock it.");
                if let Some(e) = &error {
                    w.notice("error-pin", Severity::Error, &format!("pin: {e}"));
                }
                let spec = ActionSpec::new("Unlock session").description("Unlock with the PIN");
                if let Some(call) = w.action::<UnlockArgs>("unlock", spec) {
                    let r = lock.unlock(&call.args().pin);
                    unlocked = r.is_ok();
                    call.reply(r.map(|()| egui_mcp_bridge::ToolResult::message("Unlocked")));
                }
            });
        if !unlocked {
            let form = |ui: &mut egui::Ui| {
                ui.set_width(280.0);
                ui.heading("Session locked");
                let l = ui.label("PIN");
                let r = ui.add(egui::TextEdit::singleline(&mut lock.pin).password(true)).labelled_by(l.id);
                if let Some(e) = &lock.error {
                    ui.colored_label(Color32::from_rgb(220, 80, 80), e);
                }
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Unlock").clicked() || enter {
                    let pin = std::mem::take(&mut lock.pin);
                    unlocked = lock.unlock(&pin).is_ok();
                }
            };
            if self.windows.native {
                let spec = Spec {
                    app_id: &id,
                    title: "Session locked",
                    agent: None,
                    pos: egui::pos2(400.0, 200.0),
                    size: egui::vec2(300.0, 150.0),
                    dialog_of: None,
                    closable: false,
                };
                let _ = self.windows.show(ctx, spec, form);
            } else {
                egui::Modal::new(window_id(ctx, &id)).show(ctx, form);
            }
        }
        if unlocked {
            self.lock = None;
        }
    }
}
