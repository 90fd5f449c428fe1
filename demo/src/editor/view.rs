//! The person's view of an Order Editor: the form, the line items, Submit and Close. Every
//! button calls the same model method as the agent's tool.

use egui::{Color32, RichText};

use super::fields::limits;
use super::model::Editor;
use super::tools::{ITEM_COLUMNS, SubmitArgs};
use crate::data::money;
use crate::ui_util::IdGen;

/// The editor's contents, for the person.
pub fn contents(editor: &mut Editor, ui: &mut egui::Ui, ids: &mut IdGen) {
    let this = editor;
    let read_only = this.submitted;
    egui::Grid::new("fields").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
        let text_row = |ui: &mut egui::Ui,
                        label: &str,
                        value: &mut String,
                        key: &str,
                        (secret, max): (bool, usize),
                        editor: &mut Vec<String>| {
            let l = ui.label(label);
            if read_only {
                ui.label(if secret { "••••••".to_owned() } else { value.clone() });
            } else if ui
                .add(egui::TextEdit::singleline(value).password(secret).char_limit(max).desired_width(240.0))
                .labelled_by(l.id)
                .changed()
            {
                editor.push(key.to_owned());
            }
            ui.end_row();
        };
        let mut changed = Vec::new();
        text_row(
            ui,
            "Recipient",
            &mut this.draft.recipient,
            "recipient",
            (false, limits::RECIPIENT_CHARS),
            &mut changed,
        );
        text_row(ui, "Address", &mut this.draft.address, "address", (false, limits::ADDRESS_CHARS), &mut changed);
        // The amount is the line items' total: shown, never typed, so it cannot disagree with them.
        ui.label("Amount");
        ui.horizontal(|ui| {
            ui.strong(money(this.draft.amount()));
            ui.weak("total of the line items");
        });
        ui.end_row();
        text_row(ui, "Currency", &mut this.draft.currency, "currency", (false, limits::CURRENCY_CHARS), &mut changed);
        text_row(
            ui,
            "Card number",
            &mut this.draft.card_number,
            "card_number",
            (true, limits::CARD_CHARS),
            &mut changed,
        );
        for key in changed {
            this.touched(&key);
        }
    });
    ui.separator();
    ui.strong("Line items");
    let mut remove = None;
    egui::Grid::new("items").striped(true).num_columns(4).show(ui, |ui| {
        for h in ITEM_COLUMNS {
            ui.label(RichText::new(h).strong());
        }
        ui.end_row();
        for (row, it) in this.draft.items.iter().enumerate() {
            ui.label(&it.product);
            ui.label(it.quantity.to_string());
            ui.label(money(it.unit_price));
            if !read_only && ui.small_button("Remove").clicked() {
                remove = Some(row);
            }
            ui.end_row();
        }
    });
    if let Some(row) = remove {
        let _ = this.remove_item(row);
    }
    if !read_only {
        ui.horizontal(|ui| {
            let l = ui.label("Product");
            ui.add(
                egui::TextEdit::singleline(&mut this.new_item.product)
                    .char_limit(limits::PRODUCT_CHARS)
                    .desired_width(120.0),
            )
            .labelled_by(l.id);
            let l = ui.label("Qty");
            ui.add(egui::DragValue::new(&mut this.new_item.quantity).range(1..=limits::QUANTITY_MAX)).labelled_by(l.id);
            let l = ui.label("Price");
            ui.add(
                egui::DragValue::new(&mut this.new_item.unit_price)
                    .prefix("$")
                    .speed(0.5)
                    .fixed_decimals(2)
                    .range(0.0..=limits::UNIT_PRICE_MAX),
            )
            .labelled_by(l.id);
            if ui.button("Add item").clicked() {
                let form = &this.new_item;
                let (product, quantity, price) = (form.product.clone(), form.quantity, form.unit_price);
                if this.add_item(&product, quantity, Some(price)).is_ok() {
                    this.new_item.product.clear();
                }
            }
        });
    }
    for e in &this.errors {
        ui.colored_label(Color32::from_rgb(220, 80, 80), format!("{}: {}", e.field, e.error));
    }
    ui.separator();
    if read_only {
        ui.label(RichText::new("Submitted: this order is read-only.").italics());
    }
    ui.horizontal(|ui| {
        if !read_only && ui.button("Submit").clicked() {
            let _ = this.submit(SubmitArgs::default(), ids);
        }
        if ui.button("Close").clicked() {
            this.close(ids);
        }
    });
}
