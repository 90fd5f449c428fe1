//! An Order Editor window, described once: the form, the line items, Submit and Close, drawn
//! for the person and declared for agents by the same code. Every button and tool calls the
//! same model method.

use std::sync::LazyLock;

use egui_mcp_bridge::blocks::Rows;
use egui_mcp_bridge::{
    ActionSpec, Severity,
    blocks::{Editable as _, TableOptions},
};
use serde::Deserialize;

use super::Parts;
use super::inputs;
use super::model::{Editor, NewItemForm, SubmitArgs};

/// The columns of an editor's line-item table.
pub const ITEM_COLUMNS: [&str; 3] = ["Product", "Quantity", "Unit price"];

/// `add_item` arguments; their rules are the add-item row's (`inputs.rs`), checked by the model
/// and listed in the tool's description.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AddItemArgs {
    pub product: String,
    pub quantity: u32,
    pub unit_price: Option<f64>,
}

static ADD_ITEM: LazyLock<String> = LazyLock::new(|| {
    let (p, q, u) = (inputs::product().rules(), inputs::quantity().rules(), inputs::unit_price().rules());
    format!("Append a line item: product ({p}), quantity ({q}), unitPrice ({u}, default 0)")
});

impl Editor {
    /// Shows this editor (and its dialogs) to the person and declares it to agents.
    pub fn show(&mut self, ui: &mut egui::Ui, parts: &mut Parts<'_>) {
        let ctx = &ui.ctx().clone();
        let (title, summary) = (self.title(parts.orders), self.summary(parts.orders));
        let id = self.app_id.clone();
        // Its close button and the agent's `close`: one handler (below).
        let close = ActionSpec::new("Close editor").description("Close; asks first if there are unsaved changes");
        let window = parts.bridge.window(&id).title(&title).summary(summary).default_size([430.0, 380.0]);
        let window = window.closable_as(close);
        let shown = window.ui(ui, |w, ui| {
            let read_only = self.submitted;
            let status = match (self.submitted, self.order_index) {
                (true, _) => "Submitted",
                (false, Some(_)) => "Draft",
                (false, None) => "New",
            };
            let d = &mut self.draft;
            let form = w.form(ui, "details", |f| {
                if read_only {
                    f.read_only();
                }
                f.edit("recipient", &inputs::recipient(), &mut d.recipient);
                f.edit("address", &inputs::address(), &mut d.address);
                f.derived("amount", &inputs::amount(), d.amount(), "the total of the line items");
                f.edit("currency", &inputs::currency(), &mut d.currency);
                f.edit("card_number", &inputs::card_number(), &mut d.card_number);
                f.value("Status", status);
            });
            for key in form.changed {
                self.touched(&key);
            }
            ui.separator();
            ui.strong("Line items");
            let mut options = TableOptions::new().height(90.0);
            if !read_only {
                // The person's Remove on a row and the agent's `remove_item {row}`: one handler.
                let remove = ActionSpec::new("Remove line item")
                    .destructive()
                    .description("Remove the line item at a row (0-based)");
                options = options.row_button("Remove").row_action("remove_item", remove);
            }
            let cells =
                |it: &crate::data::LineItem, t: &mut Rows<'_>| t.row((it.product.as_str(), it.quantity, it.unit_price));
            if let Some(press) = w.table_ui(ui, "items", &ITEM_COLUMNS, &self.draft.items, cells, options) {
                press.handle(|row| self.remove_item(row));
            }
            if !read_only {
                // The person's add-item row and the agent's `add_item`: the same arguments, one handler.
                let add = ActionSpec::new("Add line item").description(&*ADD_ITEM);
                let new = &mut self.new_item;
                if let Some(press) = w.gesture_ui(ui, "add_item", add, |ui| add_item_row(ui, new)) {
                    let by_person = !press.by_agent();
                    if press.handle(|a| self.add_item(&a.product, a.quantity, a.unit_price)) && by_person {
                        self.new_item.product.clear();
                    }
                }
                let submit =
                    ActionSpec::new("Submit order").description("Apply the values given, validate, open Confirm order");
                if let Some(call) = w.action::<SubmitArgs>("submit", submit) {
                    call.handle(|a| self.submit(a, parts.ids));
                }
            }
            for e in &self.errors {
                w.notice_ui(ui, &format!("error-{}", e.field), Severity::Error, &format!("{}: {}", e.field, e.error));
            }
            if read_only {
                w.notice_ui(ui, "read-only", Severity::Info, "Submitted: this order is read-only.");
            }
            ui.separator();
            ui.horizontal(|ui| {
                // The person's ways to `submit` (declared above, with its values) and `close`.
                if !read_only {
                    let submit = ui.button("Submit");
                    w.describes(&submit);
                    if submit.clicked() {
                        let _ = self.submit(SubmitArgs::default(), parts.ids);
                    }
                }
                let close = ui.button("Close editor");
                w.describes(&close);
                if close.clicked() {
                    let _ = self.close(parts.ids); // as the window's close button
                }
            });
            if let Some(call) = w.button("focus", ActionSpec::new("Bring to front").idempotent()) {
                parts.bridge.focus(ctx, &id);
                call.ok(format!("{title} is in front"));
            }
        });
        if let Some(press) = shown.close {
            press.reply(Ok(self.close(parts.ids)));
        }
        self.show_dialogs(ui, parts);
    }
}

/// The person's add-item row (product, quantity, price, Add item), by the same rules as
/// `add_item` (`inputs.rs`): the arguments when the person presses Add item.
fn add_item_row(ui: &mut egui::Ui, new: &mut NewItemForm) -> Option<AddItemArgs> {
    ui.horizontal(|ui| {
        ui.spacing_mut().text_edit_width = 120.0; // one row: product, quantity, price, button
        let l = ui.label("Product");
        new.product.widget(ui, &inputs::product()).labelled_by(l.id);
        let l = ui.label("Qty");
        new.quantity.widget(ui, &inputs::quantity()).labelled_by(l.id);
        let l = ui.label("Price");
        new.unit_price.widget(ui, &inputs::unit_price()).labelled_by(l.id);
        ui.button("Add item").clicked().then(|| AddItemArgs {
            product: new.product.clone(),
            quantity: u32::try_from(new.quantity).unwrap_or(0),
            unit_price: Some(new.unit_price),
        })
    })
    .inner
}
