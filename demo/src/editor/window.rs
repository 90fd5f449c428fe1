//! An Order Editor window, described once: the form, the line items, Submit and its close, drawn
//! for the person and declared for agents by the same code. Every button and tool calls the
//! same model method.

use std::sync::LazyLock;

use egui_mcp_bridge::blocks::Rows;
use egui_mcp_bridge::{
    ActionSpec, Severity, WindowUi,
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

/// The title of the editor's Submit: the person's button and the agent's `submit` say the same.
const SUBMIT: &str = "Submit order";

impl Editor {
    /// Shows this editor (and its dialogs) to the person and declares it to agents.
    pub fn show(&mut self, ui: &mut egui::Ui, parts: &mut Parts<'_>) {
        let ctx = &ui.ctx().clone();
        let title = self.title(parts.orders);
        // Its close button and the agent's `close`: one press (below).
        let close = ActionSpec::new("Close editor").description("Close; asks first if there are unsaved changes");
        let window = parts.bridge.window(&self.app_id).title(&title).summary(self.summary(parts.orders));
        let shown = window.default_size([430.0, 380.0]).closable_as(close).ui(ui, |w, ui| {
            self.details_ui(w, ui);
            self.items_ui(w, ui);
            self.submit_ui(w, ui, parts);
            if let Some(press) = w.agents().button("focus", ActionSpec::new("Bring to front").idempotent()) {
                parts.bridge.focus(ctx, &self.app_id);
                press.ok(format!("{title} is in front"));
            }
        });
        if let Some(press) = shown.close {
            press.reply(Ok(self.close(parts.ids)));
        }
        self.show_dialogs(ui, parts);
    }

    /// The order's fields: what the person edits is what agents read and set (`edit_field`).
    fn details_ui(&mut self, w: &mut WindowUi, ui: &mut egui::Ui) {
        let status = match (self.submitted, self.order_index) {
            (true, _) => "Submitted",
            (false, Some(_)) => "Draft",
            (false, None) => "New",
        };
        let (d, read_only) = (&mut self.draft, self.submitted);
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
    }

    /// The line items, each with Remove (`remove_item {row}`), and the add-item row (`add_item`).
    fn items_ui(&mut self, w: &mut WindowUi, ui: &mut egui::Ui) {
        ui.separator();
        ui.strong("Line items");
        let mut options = TableOptions::new().height(90.0);
        if !self.submitted {
            let remove = ActionSpec::new("Remove line item")
                .destructive()
                .description("Remove the line item at a row (0-based)");
            options = options.row_button("Remove").row_action("remove_item", remove);
        }
        let cells =
            |it: &crate::data::LineItem, t: &mut Rows<'_>| t.row((it.product.as_str(), it.quantity, it.unit_price));
        if let Some(press) = w.table(ui, "items", &ITEM_COLUMNS, &self.draft.items, cells, options) {
            press.handle(|row| self.remove_item(row));
        }
        if self.submitted {
            return;
        }
        let add = ActionSpec::new(ADD).description(&*ADD_ITEM);
        let new = &mut self.new_item;
        if let Some(press) = w.gesture(ui, "add_item", add, |ui| add_item_row(ui, new)) {
            let by_person = !press.by_agent();
            if press.handle(|a| self.add_item(&a.product, a.quantity, a.unit_price)) && by_person {
                self.new_item.product.clear();
            }
        }
    }

    /// The errors of the last try, and Submit: the person's button and the agent's `submit`
    /// (with the values to apply first), one press.
    fn submit_ui(&mut self, w: &mut WindowUi, ui: &mut egui::Ui, parts: &mut Parts<'_>) {
        for e in &self.errors {
            w.notice(ui, &format!("error-{}", e.field), Severity::Error, &format!("{}: {}", e.field, e.error));
        }
        if self.submitted {
            w.notice(ui, "read-only", Severity::Info, "Submitted: this order is read-only.");
            return;
        }
        ui.separator();
        let spec = ActionSpec::new(SUBMIT).description("Apply the values given, validate, open Confirm order");
        let submit = w.gesture(ui, "submit", spec, |ui| ui.button(SUBMIT).clicked().then(SubmitArgs::default));
        if let Some(press) = submit {
            press.handle(|a| self.submit(a, parts.ids));
        }
    }
}

/// The title of `add_item`, and of the person's button for it.
const ADD: &str = "Add line item";

/// The person's add-item row (product, quantity, price, Add line item), labelled and checked
/// as `add_item` is (`inputs.rs`): the arguments when the person presses the button.
fn add_item_row(ui: &mut egui::Ui, new: &mut NewItemForm) -> Option<AddItemArgs> {
    ui.horizontal(|ui| {
        ui.spacing_mut().text_edit_width = 90.0; // one row: product, quantity, price, button
        let (product, quantity, unit_price) = (inputs::product(), inputs::quantity(), inputs::unit_price());
        let l = ui.label(product.label());
        new.product.widget(ui, &product).labelled_by(l.id);
        let l = ui.label(quantity.label());
        new.quantity.widget(ui, &quantity).labelled_by(l.id);
        let l = ui.label(unit_price.label());
        new.unit_price.widget(ui, &unit_price).labelled_by(l.id);
        ui.button(ADD).clicked().then(|| AddItemArgs {
            product: new.product.clone(),
            quantity: u32::try_from(new.quantity).unwrap_or(0),
            unit_price: Some(new.unit_price),
        })
    })
    .inner
}
