//! An editor's dialogs, a modal stack: Confirm order → Authorize payment, and Discard changes?.
//! The first is owned by the editor, each later one by the one below; only the top one can be
//! operated, by the agent (its tools) or the person (its buttons), through the same model
//! methods. Each is described once: `WindowBuilder::ui` draws it and declares it.

use egui_mcp_bridge::{ActionSpec, Severity, WindowUi};
use serde::Deserialize;

use super::Parts;
use super::inputs;
use super::model::{Dialog, Editor};
use crate::data::money;

/// `authorize` arguments: the payment password.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuthorizeArgs {
    // A secret: masked wherever the call is shown to the person. (A doc comment would become
    // a description, sent with every listing.)
    #[schemars(extend("writeOnly" = true))]
    pub password: String,
}

impl Editor {
    /// Shows every dialog of this editor, oldest first, each owned by the one before.
    pub(super) fn show_dialogs(&mut self, ui: &mut egui::Ui, parts: &mut Parts<'_>) {
        let label = self.order_label(parts.orders);
        let total = format!("{} {}", money(self.draft.amount()), self.draft.currency);
        let mut owner = self.app_id.clone();
        let mut k = 0;
        while k < self.dialogs.len() {
            let id = self.dialogs[k].id().to_owned();
            let (title, summary) = match &self.dialogs[k] {
                Dialog::Confirm { .. } => {
                    let (to, n) = (&self.draft.recipient, self.draft.items.len());
                    ("Confirm order", format!("Confirm {label} to {to}: {n} items, total {total}"))
                }
                Dialog::Authorize { .. } => (
                    "Authorize payment",
                    format!("Authorize the payment of {total} for {label} with the payment password"),
                ),
                Dialog::Discard { .. } => (
                    "Discard changes?",
                    format!("{label} has unsaved changes: discard them and close, or keep editing"),
                ),
            };
            let window = parts.bridge.window(&id).title(title).modal_of(&owner).summary(summary);
            window.ui(ui, |w, ui| {
                // An OS window's contents may run again after a call closed this dialog.
                if self.dialogs.get(k).is_some_and(|d| d.id() == id) {
                    self.dialog(w, ui, k, (&label, &total), parts);
                }
            });
            owner = id;
            k += 1;
        }
    }

    /// One dialog's contents: what it shows and its buttons, each also a tool.
    fn dialog(
        &mut self,
        w: &mut WindowUi,
        ui: &mut egui::Ui,
        k: usize,
        (label, total): (&str, &str),
        parts: &mut Parts<'_>,
    ) {
        // What it shows, then its two buttons, yes and no: (tool, spec) of each.
        let ((yes, yes_spec), (no, no_spec)) = match &self.dialogs[k] {
            Dialog::Confirm { .. } => {
                let d = &self.draft;
                w.form(ui, "order", |f| {
                    f.value("Order", label);
                    f.value("Recipient", &d.recipient);
                    f.value("Items", d.items.len());
                    f.value("Total", total);
                });
                let confirm = ActionSpec::new("Confirm").description("Confirm, then authorize the payment");
                (("confirm", confirm), ("cancel", ActionSpec::new("Cancel")))
            }
            Dialog::Authorize { .. } => return self.authorize_dialog(w, ui, k, total, parts),
            Dialog::Discard { .. } => {
                w.label(ui, "question", &format!("{label} has unsaved changes. Discard them and close the editor?"));
                let discard = ActionSpec::new("Discard changes").destructive();
                (("discard", discard), ("keep_editing", ActionSpec::new("Keep editing")))
            }
        };
        let (yes, no) = ui.horizontal(|ui| (w.button(ui, yes, yes_spec).inner, w.button(ui, no, no_spec).inner)).inner;
        let confirm = matches!(self.dialogs[k], Dialog::Confirm { .. });
        if let Some(press) = yes {
            press.reply(Ok(if confirm { self.confirm(parts.ids) } else { self.discard() }));
        } else if let Some(press) = no {
            self.close_top_dialog();
            press.ok(if confirm { "Confirmation cancelled; back to the editor" } else { "Back to the editor" });
        }
    }

    /// Authorize payment: the amount and card, the person's password field, `authorize`.
    fn authorize_dialog(&mut self, w: &mut WindowUi, ui: &mut egui::Ui, k: usize, total: &str, parts: &mut Parts<'_>) {
        let mut card = self.draft.card_number.clone();
        w.form(ui, "payment", |f| {
            f.value("Amount", total);
            f.read_only();
            f.edit("card_number", &inputs::card_number(), &mut card);
        });
        let Dialog::Authorize { password, error, focused, .. } = &mut self.dialogs[k] else { return };
        if let Some(e) = error.clone() {
            w.notice(ui, "error-password", Severity::Error, &format!("password: {e}"));
        }
        let spec = ActionSpec::new("Authorize payment")
            .destructive()
            .ask_person()
            .description("Charge the card and submit the order (needs the payment password)");
        // The person's password and Authorize (or Enter), and the agent's `authorize
        // {password}`: one gesture, one press.
        let (authorize, cancel) = ui
            .horizontal(|ui| {
                let authorize = w.gesture(ui, "authorize", spec, |ui| {
                    let l = ui.label("Payment password");
                    let field = egui::TextEdit::singleline(password).password(true).desired_width(110.0);
                    let r = ui.add(field).labelled_by(l.id);
                    if !std::mem::replace(focused, true) && ui.memory(|m| m.focused().is_none()) {
                        r.request_focus(); // ready for typing when it opens, unless the person types elsewhere
                    }
                    let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    (ui.button("Authorize").clicked() || enter).then(|| AuthorizeArgs { password: password.clone() })
                });
                (authorize, w.button(ui, "cancel", ActionSpec::new("Cancel")).inner)
            })
            .inner;
        if let Some(press) = authorize {
            press.handle(|a| self.authorize(&a.password, parts.orders, parts.orders_revision));
        } else if let Some(press) = cancel {
            self.close_top_dialog();
            press.ok("Authorization cancelled; back to Confirm order");
        }
    }
}
