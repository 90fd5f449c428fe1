//! The agent's side of an Order Editor: its tools' argument types, and what the editor window
//! declares in every pass (its blocks, and its actions, each answered by one model method).

use egui_mcp_bridge::{ActionSpec, Severity, WindowUi};
use serde::Deserialize;
use serde_json::Value;

use super::fields::EditableField;
use super::model::Editor;
use crate::ui_util::IdGen;

/// The columns of an editor's line-item table.
pub const ITEM_COLUMNS: [&str; 3] = ["Product", "Quantity", "Unit price"];

/// `edit_field` arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditFieldArgs {
    pub field: EditableField,
    /// A string; for amount a number, which must be the line items' total (the amount follows them).
    pub value: Value,
}

/// `add_item` arguments. The names and ranges say what each is, so the fields carry no doc
/// comments (each would become a `description`, paid for at every `tools/list`; the struct's
/// own doc is never sent).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AddItemArgs {
    #[schemars(length(min = 1, max = 100))]
    pub product: String,
    #[schemars(range(min = 1, max = 999))]
    pub quantity: u32,
    #[schemars(range(min = 0, max = 100_000))]
    pub unit_price: Option<f64>,
}

/// `remove_item` arguments: the 0-based row of the line-item table (the tool's description
/// says so).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveItemArgs {
    pub row: usize,
}

/// `submit` arguments: values to apply before validating (named as the fields they set). The
/// amount is the line items' total: a given amount must equal it, and it must be more than 0
/// to submit. Both are the order's own rules, checked with the rest of the order, so that one
/// answer names every invalid field; a schema bound would reject it alone, before the order is
/// looked at.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitArgs {
    #[schemars(length(max = 100))]
    pub recipient: Option<String>,
    #[schemars(length(max = 200))]
    pub address: Option<String>,
    pub amount: Option<f64>,
    #[schemars(length(max = 3))]
    pub currency: Option<String>,
}

/// `authorize` arguments: the payment password.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuthorizeArgs {
    // A secret: masked wherever the call is shown to the person. (A doc comment would become
    // a description, sent with every listing.)
    #[schemars(extend("writeOnly" = true))]
    pub password: String,
}

/// Declares the editor window's actions and blocks; applies an agent's call where its action
/// is declared. `focus` brings the window to the front (in whichever OS window it lives).
pub fn declare(w: &mut WindowUi, editor: &mut Editor, ids: &mut IdGen, title: &str, focus: impl FnOnce()) {
    if !editor.submitted {
        if let Some(call) = w.action::<EditFieldArgs>(
            "edit_field",
            ActionSpec::new("Edit field").idempotent().description("Set one field of the order"),
        ) {
            call.handle(|a| editor.edit_field(a.field, &a.value));
        }
        if let Some(call) = w.action::<AddItemArgs>("add_item", ActionSpec::new("Add line item")) {
            call.handle(|a| editor.add_item(&a.product, a.quantity, a.unit_price));
        }
        if let Some(call) = w.action::<RemoveItemArgs>(
            "remove_item",
            ActionSpec::new("Remove line item").destructive().description("Remove the line item at a row (0-based)"),
        ) {
            call.handle(|a| editor.remove_item(a.row));
        }
        if let Some(call) = w.action::<SubmitArgs>(
            "submit",
            ActionSpec::new("Submit order").description("Apply the values given, validate, open Confirm order"),
        ) {
            call.handle(|a| editor.submit(a, ids));
        }
    }
    if let Some(call) =
        w.button("close", ActionSpec::new("Close editor").description("Close; asks first if there are unsaved changes"))
    {
        call.reply(Ok(editor.close(ids)));
    }
    if let Some(call) = w.button("focus", ActionSpec::new("Bring to front").idempotent()) {
        focus();
        call.ok(format!("{title} is in front"));
    }
    let d = &editor.draft;
    let status = if editor.submitted {
        "Submitted"
    } else if editor.order_index.is_some() {
        "Draft"
    } else {
        "New"
    };
    w.fields("details", |f| {
        f.field("Recipient", &d.recipient);
        f.field("Address", &d.address);
        f.field("Amount", d.amount());
        f.field("Currency", &d.currency);
        f.sensitive("Card number", &d.card_number);
        f.field("Status", status);
    });
    w.table("items", &ITEM_COLUMNS).rows(|t| {
        for it in &d.items {
            t.row((it.product.as_str(), it.quantity, it.unit_price));
        }
    });
    for e in &editor.errors {
        w.notice(&format!("error-{}", e.field), Severity::Error, &format!("{}: {}", e.field, e.error));
    }
    if editor.submitted {
        w.notice("read-only", Severity::Info, "This order is submitted; the editor is read-only");
    }
}
