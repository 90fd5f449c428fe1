//! An editor's dialogs, a modal stack: Confirm order → Authorize payment, and Discard changes?.
//! The first is owned by the editor, each later one by the one below; only the top one can be
//! operated, by the agent (its tools) or the person (its buttons), through the same model
//! methods.

use egui::Color32;
use egui_mcp_bridge::{ActionSpec, Severity, WindowUi};

use super::Parts;
use super::model::{Dialog, Editor};
use super::tools::AuthorizeArgs;
use crate::data::money;
use crate::windows::Spec;

/// What was chosen in a dialog, by the agent or the person.
#[derive(Clone, Debug, PartialEq)]
enum Choice {
    Confirm,
    Authorize(String),
    Discard,
    /// Cancel, Keep editing: the dialog on top closes.
    Back,
}

/// Declares and draws every dialog of `editor`, oldest first, and applies what was chosen.
pub fn show(ctx: &egui::Context, editor: &mut Editor, parts: &mut Parts<'_>) {
    let label = editor.order_label(parts.orders);
    let total = format!("{} {}", money(editor.draft.amount()), editor.draft.currency);
    let mut owner = editor.app_id.clone();
    let mut k = 0;
    while k < editor.dialogs.len() {
        let id = editor.dialogs[k].id().to_owned();
        let choice = show_one(ctx, editor, k, &owner, &label, &total, parts);
        if let Some(choice) = choice {
            apply(editor, choice, parts);
        }
        owner = id;
        k += 1;
    }
    // The top of the chain is where the person answers it, whoever opened it.
    if let Some(top) = editor.dialogs.last() {
        parts.windows.keep_on_top(ctx, &editor.app_id, top.id());
    }
}

/// One dialog: its declaration (tools and blocks), then the person's view.
fn show_one(
    ctx: &egui::Context,
    editor: &mut Editor,
    k: usize,
    owner: &str,
    label: &str,
    total: &str,
    parts: &mut Parts<'_>,
) -> Option<Choice> {
    let (title, summary) = match &editor.dialogs[k] {
        Dialog::Confirm { .. } => (
            "Confirm order",
            format!("Confirm {label} to {}: {} items, total {total}", editor.draft.recipient, editor.draft.items.len()),
        ),
        Dialog::Authorize { .. } => {
            ("Authorize payment", format!("Authorize the payment of {total} for {label} with the payment password"))
        }
        Dialog::Discard { .. } => {
            ("Discard changes?", format!("{label} has unsaved changes: discard them and close, or keep editing"))
        }
    };
    let id = editor.dialogs[k].id().to_owned();
    let bridge = parts.bridge;
    let shown = bridge
        .window(&id)
        .title(title)
        .modal_of(owner)
        .summary(summary)
        .show(|w| declare(w, editor, k, (label, total), parts));
    // After an agent's call the dialog is still drawn if it is still open: a window left out of
    // a pass comes back on top of the dialogs opened meanwhile (an OS window is even made anew).
    if k >= editor.dialogs.len() || editor.dialogs[k].id() != id {
        return None;
    }
    let spec = Spec {
        app_id: &id,
        title,
        agent: shown.agent_action.as_ref(),
        pos: egui::pos2(0.0, 0.0),
        size: egui::vec2(300.0, 120.0),
        dialog_of: Some(owner),
        closable: false,
    };
    let (recipient, items) = (editor.draft.recipient.clone(), editor.draft.items.len());
    let dialog = &mut editor.dialogs[k];
    parts
        .windows
        .show(ctx, spec, |ui| {
            // What the agent asks the person to allow here (the payment), above the rest.
            bridge.approval_prompt(ui, &id);
            ui.add_enabled_ui(!shown.blocked, |ui| person_view(ui, dialog, label, total, &recipient, items)).inner
        })
        .inner
        .flatten()
}

/// The dialog's tools and blocks. An agent's call is applied by the model method the person's
/// button calls too, and answered with its result. Returns whether one was applied.
fn declare(
    w: &mut WindowUi,
    editor: &mut Editor,
    k: usize,
    (label, total): (&str, &str),
    parts: &mut Parts<'_>,
) -> bool {
    let error = match &editor.dialogs[k] {
        Dialog::Authorize { error, .. } => error.clone(),
        _ => None,
    };
    match &editor.dialogs[k] {
        Dialog::Confirm { .. } => {
            w.fields("order", |f| {
                f.field("Order", label);
                f.field("Recipient", &editor.draft.recipient);
                f.field("Items", editor.draft.items.len());
                f.field("Total", total);
            });
            let confirm = ActionSpec::new("Confirm order").description("Confirm, then authorize the payment");
            if let Some(call) = w.button("confirm", confirm) {
                call.reply(Ok(editor.confirm(parts.ids)));
                return true;
            }
            if let Some(call) = w.button("cancel", ActionSpec::new("Cancel")) {
                editor.close_top_dialog();
                call.ok("Confirmation cancelled; back to the editor");
                return true;
            }
        }
        Dialog::Authorize { .. } => {
            w.fields("payment", |f| {
                f.field("Amount", total);
                f.sensitive("Card number", &editor.draft.card_number);
            });
            if let Some(e) = &error {
                w.notice("error-password", Severity::Error, &format!("password: {e}"));
            }
            let spec = ActionSpec::new("Authorize payment")
                .destructive()
                .ask_person()
                .description("Charge the card and submit the order (needs the payment password)");
            if let Some(call) = w.action::<AuthorizeArgs>("authorize", spec) {
                call.handle(|a| editor.authorize(&a.password, parts.orders, parts.orders_revision));
                return true;
            }
            if let Some(call) = w.button("cancel", ActionSpec::new("Cancel")) {
                editor.close_top_dialog();
                call.ok("Authorization cancelled; back to Confirm order");
                return true;
            }
        }
        Dialog::Discard { .. } => {
            w.text("question", &format!("{label} has unsaved changes. Discard them and close the editor?"));
            if let Some(call) = w.button("discard", ActionSpec::new("Discard changes").destructive()) {
                call.reply(Ok(editor.discard()));
                return true;
            }
            if let Some(call) = w.button("keep_editing", ActionSpec::new("Keep editing")) {
                editor.close_top_dialog();
                call.ok("Back to the editor");
                return true;
            }
        }
    }
    false
}

/// The person's view of one dialog; returns the person's choice.
fn person_view(
    ui: &mut egui::Ui,
    dialog: &mut Dialog,
    label: &str,
    total: &str,
    recipient: &str,
    items: usize,
) -> Option<Choice> {
    match dialog {
        Dialog::Confirm { .. } => {
            ui.label(format!("{label} to {recipient}"));
            ui.label(format!("{items} items, total {total}"));
            buttons(ui, ("Confirm", Choice::Confirm), ("Cancel", Choice::Back))
        }
        Dialog::Authorize { password, error, focused, .. } => {
            ui.label(format!("Charge {total} for {label}"));
            let l = ui.label("Payment password");
            let r = ui.add(egui::TextEdit::singleline(password).password(true)).labelled_by(l.id);
            // Ready for typing when it opens, unless the person is typing somewhere else.
            if !*focused {
                *focused = true;
                if ui.memory(|m| m.focused().is_none()) {
                    r.request_focus();
                }
            }
            if let Some(e) = error {
                ui.colored_label(Color32::from_rgb(220, 80, 80), e.as_str());
            }
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let typed = password.clone();
            let choice = buttons(ui, ("Authorize", Choice::Authorize(typed.clone())), ("Cancel", Choice::Back));
            if enter { Some(Choice::Authorize(typed)) } else { choice }
        }
        Dialog::Discard { .. } => {
            ui.label(format!("{label} has unsaved changes."));
            buttons(ui, ("Discard", Choice::Discard), ("Keep editing", Choice::Back))
        }
    }
}

fn buttons(ui: &mut egui::Ui, yes: (&str, Choice), no: (&str, Choice)) -> Option<Choice> {
    ui.horizontal(|ui| {
        if ui.button(yes.0).clicked() {
            return Some(yes.1);
        }
        if ui.button(no.0).clicked() {
            return Some(no.1);
        }
        None
    })
    .inner
}

/// Applies a choice through the editor's model methods.
fn apply(editor: &mut Editor, choice: Choice, parts: &mut Parts<'_>) {
    match choice {
        Choice::Confirm => {
            let _ = editor.confirm(parts.ids);
        }
        Choice::Authorize(password) => {
            let _ = editor.authorize(&password, parts.orders, parts.orders_revision);
        }
        Choice::Discard => {
            let _ = editor.discard();
        }
        Choice::Back => editor.close_top_dialog(),
    }
}
