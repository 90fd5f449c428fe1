//! Order Editor windows and the dialogs they own: Confirm order → Authorize payment, and
//! Discard changes?. Every operation is one method, called by the agent's tool and by the
//! person's button alike.

use egui::{Color32, RichText};
use egui_mcp_bridge::{ActionSpec, AgentAction, Bridge, FieldError, Severity, ToolError, ToolResult};
use serde::Deserialize;
use serde_json::Value;

use crate::data::{LineItem, Order, Status, money};
use crate::ui_util::{IdGen, agent_frame, agent_line, window_id};

/// The demo's payment password (stated in the README).
pub const PAYMENT_PASSWORD: &str = "1234";

/// The columns of an editor's line-item table.
pub const ITEM_COLUMNS: [&str; 3] = ["Product", "Quantity", "Unit price"];

/// A field that `edit_field` can set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EditableField {
    // No doc comments on the variants: schemars would turn them into a `oneOf` of documented
    // constants in the tool's input schema; a plain `enum` of names says enough.
    Recipient,
    Address,
    Amount,
    Currency,
    CardNumber,
}

impl EditableField {
    /// The label a person reads.
    pub fn label(self) -> &'static str {
        match self {
            Self::Recipient => "Recipient",
            Self::Address => "Address",
            Self::Amount => "Amount",
            Self::Currency => "Currency",
            Self::CardNumber => "Card number",
        }
    }
}

/// The rules the person's widgets enforce (text-edit lengths, drag-value ranges), and so every
/// agent write too: what a result says was set is exactly what the window then shows.
pub mod limits {
    /// Largest amount, in the order's currency.
    pub const AMOUNT_MAX: f64 = 1_000_000.0;
    /// Largest unit price of a line item.
    pub const UNIT_PRICE_MAX: f64 = 100_000.0;
    /// Largest quantity of a line item.
    pub const QUANTITY_MAX: u32 = 999;
    /// Longest recipient, in characters.
    pub const RECIPIENT_CHARS: usize = 100;
    /// Longest address, in characters.
    pub const ADDRESS_CHARS: usize = 200;
    /// Longest currency code, in characters.
    pub const CURRENCY_CHARS: usize = 3;
    /// Longest card number, in characters (digits and separators).
    pub const CARD_CHARS: usize = 23;
    /// Longest product name, in characters.
    pub const PRODUCT_CHARS: usize = 100;

    /// `Some(amount)` if it is a money value in `0..=max` with at most two decimals.
    pub fn money_in_range(amount: f64, max: f64) -> Option<f64> {
        let cents = amount * 100.0;
        (amount.is_finite() && (0.0..=max).contains(&amount) && (cents - cents.round()).abs() < 1e-6).then_some(amount)
    }
}

/// `edit_field` arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditFieldArgs {
    /// Which field.
    pub field: EditableField,
    /// A number for amount, else a string.
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

/// `submit` arguments: values to apply before validating (named as the fields they set).
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitArgs {
    #[schemars(length(max = 100))]
    pub recipient: Option<String>,
    #[schemars(length(max = 200))]
    pub address: Option<String>,
    #[schemars(range(min = 0, max = 1_000_000))]
    pub amount: Option<f64>,
    #[schemars(length(max = 3))]
    pub currency: Option<String>,
}

/// `authorize` arguments: the payment password.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuthorizeArgs {
    pub password: String,
}

/// What the editor edits: a copy of the order until it is saved.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Draft {
    /// Recipient.
    pub recipient: String,
    /// Address.
    pub address: String,
    /// Amount.
    pub amount: f64,
    /// Currency code.
    pub currency: String,
    /// Card number (secret).
    pub card_number: String,
    /// Line items.
    pub items: Vec<LineItem>,
}

/// The Authorize payment dialog, on top of Confirm order.
#[derive(Debug)]
pub struct Authorize {
    /// App id (`authorize-N`).
    pub id: String,
    /// What the person typed (never shown to agents).
    pub password: String,
    /// Shown after a wrong password.
    pub error: Option<String>,
}

/// A dialog attached to an editor.
#[derive(Debug)]
pub enum Dialog {
    /// Confirm order, maybe with Authorize payment on top.
    Confirm {
        /// App id (`confirm-N`).
        id: String,
        /// The dialog on top, if open.
        authorize: Option<Authorize>,
    },
    /// Discard changes?
    Discard {
        /// App id (`discard-N`).
        id: String,
    },
}

/// The "add a line item" row of the person's form.
#[derive(Debug)]
struct NewItemForm {
    product: String,
    quantity: u32,
    unit_price: f64,
}

/// What an editor needs of the rest of the app while it is shown.
pub struct Parts<'a> {
    /// Where windows are declared.
    pub bridge: &'a Bridge,
    /// All orders (an authorized editor writes its order back).
    pub orders: &'a mut Vec<Order>,
    /// Rises when an order is saved (the report recomputes then).
    pub orders_revision: &'a mut u64,
    /// Dialog ids.
    pub ids: &'a mut IdGen,
    /// Where windows may go (the screen less the panels).
    pub area: egui::Rect,
}

/// One Order Editor window.
#[derive(Debug)]
pub struct Editor {
    /// App id: `order-10001`, or `order-new-N` for a new order.
    pub app_id: String,
    /// Index into the orders, once the order exists.
    pub order_index: Option<usize>,
    /// The values being edited.
    pub draft: Draft,
    /// Edited since opened or saved.
    pub dirty: bool,
    /// Errors of the last rejected submit.
    pub errors: Vec<FieldError>,
    /// Submitted: read-only from now on.
    pub submitted: bool,
    /// The dialog attached to it.
    pub dialog: Option<Dialog>,
    /// False once closed; the app drops it.
    pub open: bool,
    /// Cascade position of the window (set by the app when it opens the editor).
    pub slot: usize,
    new_item: NewItemForm,
}

fn invalid(field: &str, error: &str) -> ToolError {
    ToolError::invalid_field(field, error)
}

/// A field value that passed [`check_field`].
enum Checked {
    Amount(f64),
    Text(String),
}

/// Checks a value for a field by the person's widget's rules; errors name `param`.
fn check_field(field: EditableField, value: &Value, param: &str) -> Result<Checked, ToolError> {
    if field == EditableField::Amount {
        let amount = match value {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().trim_start_matches('$').replace(',', "").parse().ok(),
            _ => None,
        }
        .ok_or_else(|| invalid(param, "amount must be a number"))?;
        return limits::money_in_range(amount, limits::AMOUNT_MAX)
            .map(Checked::Amount)
            .ok_or_else(|| invalid(param, "amount must be $0.00 to $1,000,000.00, in whole cents"));
    }
    let Value::String(text) = value else {
        return Err(invalid(param, &format!("{} must be a string", field.label())));
    };
    let max = match field {
        EditableField::Recipient => limits::RECIPIENT_CHARS,
        EditableField::Address => limits::ADDRESS_CHARS,
        EditableField::Currency => limits::CURRENCY_CHARS,
        EditableField::CardNumber => limits::CARD_CHARS,
        EditableField::Amount => unreachable!("handled above"),
    };
    if text.chars().count() > max {
        return Err(invalid(param, &format!("{} must be at most {max} characters", field.label())));
    }
    Ok(Checked::Text(text.clone()))
}

impl Editor {
    /// An editor on an existing order.
    pub fn for_order(index: usize, order: &Order) -> Self {
        Self::new(
            format!("order-{}", order.number),
            Some(index),
            Draft {
                recipient: order.recipient.clone(),
                address: order.address.clone(),
                amount: order.amount,
                currency: order.currency.clone(),
                card_number: order.card_number.clone(),
                items: order.items.clone(),
            },
            order.status != Status::Draft,
        )
    }

    /// An editor on a new, empty order.
    pub fn new_order(n: u64) -> Self {
        Self::new(format!("order-new-{n}"), None, Draft { currency: "USD".into(), ..Draft::default() }, false)
    }

    fn new(app_id: String, order_index: Option<usize>, draft: Draft, submitted: bool) -> Self {
        Self {
            app_id,
            order_index,
            draft,
            dirty: false,
            errors: Vec::new(),
            submitted,
            dialog: None,
            open: true,
            new_item: NewItemForm { product: String::new(), quantity: 1, unit_price: 0.0 },
            slot: 0,
        }
    }

    /// The window title.
    pub fn title(&self, orders: &[Order]) -> String {
        match self.order_index {
            Some(i) => format!("Order Editor · #{}", orders[i].number),
            None => "Order Editor · New order".to_owned(),
        }
    }

    fn order_label(&self, orders: &[Order]) -> String {
        self.order_index.map_or_else(|| "New order".to_owned(), |i| orders[i].label())
    }

    fn summary(&self, orders: &[Order]) -> String {
        let label = self.order_label(orders);
        if self.submitted {
            return format!(
                "{label} is submitted and read-only: {} items, {} {}",
                self.draft.items.len(),
                money(self.draft.amount),
                self.draft.currency
            );
        }
        let mut missing = Vec::new();
        if self.draft.recipient.trim().is_empty() {
            missing.push("recipient");
        }
        if self.draft.items.is_empty() {
            missing.push("line items");
        }
        let state = match &self.dialog {
            Some(Dialog::Confirm { authorize: Some(_), .. }) => "; waiting for payment authorization",
            Some(Dialog::Confirm { .. }) => "; waiting for confirmation",
            Some(Dialog::Discard { .. }) => "; asking whether to discard changes",
            None if self.dirty => "; unsaved changes",
            None => "",
        };
        let missing = if missing.is_empty() { String::new() } else { format!(", missing {}", missing.join(" and ")) };
        format!(
            "Editing {label}: {} items, {} {}{missing}{state}",
            self.draft.items.len(),
            money(self.draft.amount),
            self.draft.currency
        )
    }

    fn touched(&mut self, field: &str) {
        self.dirty = true;
        self.errors.retain(|e| e.field != field);
    }

    /// Sets one field. A value of the wrong kind, or one the person's widget would not hold
    /// (out of range, too long, sub-cent amounts), is `validation_failed` naming `value`.
    pub fn edit_field(&mut self, field: EditableField, value: &Value) -> Result<ToolResult, ToolError> {
        let checked = check_field(field, value, "value")?;
        Ok(self.apply_field(field, checked))
    }

    /// Sets a field to a value [`check_field`] accepted.
    fn apply_field(&mut self, field: EditableField, value: Checked) -> ToolResult {
        let (slot, key) = match (field, value) {
            (EditableField::Amount, Checked::Amount(amount)) => {
                self.draft.amount = amount;
                self.touched("amount");
                return ToolResult::message(format!("Amount set to {}", money(amount)));
            }
            (_, Checked::Amount(_)) | (EditableField::Amount, Checked::Text(_)) => {
                unreachable!("check_field returns the kind of the field")
            }
            (EditableField::Recipient, Checked::Text(t)) => ((&mut self.draft.recipient, t), "recipient"),
            (EditableField::Address, Checked::Text(t)) => ((&mut self.draft.address, t), "address"),
            (EditableField::Currency, Checked::Text(t)) => ((&mut self.draft.currency, t), "currency"),
            (EditableField::CardNumber, Checked::Text(t)) => ((&mut self.draft.card_number, t), "card_number"),
        };
        *slot.0 = slot.1;
        self.touched(key);
        // The message never echoes a card number.
        ToolResult::message(format!("{} updated", field.label()))
    }

    /// Appends a line item.
    pub fn add_item(&mut self, product: &str, quantity: u32, unit_price: Option<f64>) -> Result<ToolResult, ToolError> {
        let product = product.trim();
        if product.is_empty() {
            return Err(invalid("product", "Cannot be empty"));
        }
        if product.chars().count() > limits::PRODUCT_CHARS {
            return Err(invalid("product", &format!("Must be at most {} characters", limits::PRODUCT_CHARS)));
        }
        if !(1..=limits::QUANTITY_MAX).contains(&quantity) {
            return Err(invalid("quantity", &format!("Must be 1 to {}", limits::QUANTITY_MAX)));
        }
        let Some(unit_price) = limits::money_in_range(unit_price.unwrap_or(0.0), limits::UNIT_PRICE_MAX) else {
            return Err(invalid("unitPrice", "Must be $0.00 to $100,000.00, in whole cents"));
        };
        self.draft.items.push(LineItem { product: product.to_owned(), quantity, unit_price });
        self.touched("items");
        Ok(ToolResult::message(format!("Added {quantity} × {product}; {} items now", self.draft.items.len())))
    }

    /// Removes a line item.
    pub fn remove_item(&mut self, row: usize) -> Result<ToolResult, ToolError> {
        if row >= self.draft.items.len() {
            return Err(invalid("row", &format!("There are {} rows (0-based)", self.draft.items.len())));
        }
        let item = self.draft.items.remove(row);
        self.touched("items");
        Ok(ToolResult::message(format!("Removed {}; {} items left", item.product, self.draft.items.len())))
    }

    /// Applies the given values, validates the whole order, and opens Confirm order.
    pub fn submit(&mut self, args: SubmitArgs, ids: &mut IdGen) -> Result<ToolResult, ToolError> {
        let given = [
            (EditableField::Recipient, "recipient", args.recipient.map(Value::from)),
            (EditableField::Address, "address", args.address.map(Value::from)),
            (EditableField::Amount, "amount", args.amount.map(Value::from)),
            (EditableField::Currency, "currency", args.currency.map(Value::from)),
        ];
        // Every given value is checked before any is applied: a rejected submit changes nothing.
        let mut checked = Vec::new();
        let mut rejected = Vec::new();
        for (field, param, value) in given {
            if let Some(value) = value {
                match check_field(field, &value, param) {
                    Ok(c) => checked.push((field, c)),
                    Err(e) => rejected.extend(e.fields.unwrap_or_default()),
                }
            }
        }
        if !rejected.is_empty() {
            return Err(ToolError::validation("Submission rejected: invalid values given", rejected));
        }
        for (field, value) in checked {
            self.apply_field(field, value);
        }
        let mut errors = Vec::new();
        if self.draft.recipient.trim().is_empty() {
            errors.push(FieldError::new("recipient", "Cannot be empty"));
        }
        if self.draft.amount.is_nan() || self.draft.amount <= 0.0 {
            errors.push(FieldError::new("amount", "Must be greater than 0"));
        }
        if self.draft.items.is_empty() {
            errors.push(FieldError::new("items", "Add at least one line item"));
        }
        self.errors.clone_from(&errors);
        if !errors.is_empty() {
            let n = errors.len();
            return Err(ToolError::validation(
                format!("Submission rejected: {n} field{} invalid", if n == 1 { " is" } else { "s are" }),
                errors,
            ));
        }
        self.dialog = Some(Dialog::Confirm { id: ids.next("confirm"), authorize: None });
        Ok(ToolResult::message("Submitted for confirmation; the Confirm order dialog is open"))
    }

    /// Closes the editor, or asks first when there are unsaved changes.
    pub fn close(&mut self, ids: &mut IdGen) -> ToolResult {
        if self.dirty && !self.submitted {
            self.dialog = Some(Dialog::Discard { id: ids.next("discard") });
            ToolResult::message("There are unsaved changes; the Discard changes? dialog is open")
        } else {
            self.open = false;
            ToolResult::message("Editor closed")
        }
    }

    /// Confirm order → Authorize payment.
    pub fn confirm(&mut self, ids: &mut IdGen) {
        if let Some(Dialog::Confirm { authorize, .. }) = &mut self.dialog {
            *authorize = Some(Authorize { id: ids.next("authorize"), password: String::new(), error: None });
        }
    }

    /// Checks the password, saves the order as Submitted, closes both dialogs.
    pub fn authorize(
        &mut self,
        password: &str,
        orders: &mut Vec<Order>,
        orders_revision: &mut u64,
    ) -> Result<ToolResult, ToolError> {
        if password != PAYMENT_PASSWORD {
            if let Some(Dialog::Confirm { authorize: Some(a), .. }) = &mut self.dialog {
                a.error = Some("Wrong password".to_owned());
            }
            return Err(invalid("password", "Wrong password"));
        }
        let index = *self.order_index.get_or_insert_with(|| {
            let number = orders.last().map_or(crate::data::FIRST_NUMBER, |o| o.number + 1);
            orders.push(Order {
                number,
                customer: self.draft.recipient.clone(),
                status: Status::Draft,
                amount: 0.0,
                currency: String::new(),
                recipient: String::new(),
                address: String::new(),
                card_number: String::new(),
                items: Vec::new(),
                days_ago: 0,
            });
            orders.len() - 1
        });
        let o = &mut orders[index];
        let d = &self.draft;
        o.recipient.clone_from(&d.recipient);
        o.address.clone_from(&d.address);
        o.currency.clone_from(&d.currency);
        o.card_number.clone_from(&d.card_number);
        o.items.clone_from(&d.items);
        o.amount = d.amount;
        o.status = Status::Submitted;
        o.days_ago = 0;
        *orders_revision += 1;
        self.submitted = true;
        self.dirty = false;
        self.errors.clear();
        self.dialog = None;
        Ok(ToolResult::message(format!("Payment authorized; order {} is submitted", o.label())))
    }

    /// Declares this editor and its dialogs to the bridge, applies the agent's calls, and
    /// draws them for the person.
    pub fn show(&mut self, ctx: &egui::Context, parts: &mut Parts<'_>) {
        let Parts { bridge, orders, ids, .. } = parts;
        let (bridge, ids) = (*bridge, &mut **ids);
        let title = self.title(orders);
        let summary = self.summary(orders);
        let id = self.app_id.clone();
        let shown = bridge.window(&id).title(&title).summary(summary).show(|w| {
            if !self.submitted {
                if let Some(call) = w.action::<EditFieldArgs>(
                    "edit_field",
                    ActionSpec::new("Edit field").idempotent().description("Set one field of the order"),
                ) {
                    call.handle(|a| self.edit_field(a.field, &a.value));
                }
                if let Some(call) = w.action::<AddItemArgs>("add_item", ActionSpec::new("Add line item")) {
                    call.handle(|a| self.add_item(&a.product, a.quantity, a.unit_price));
                }
                if let Some(call) = w.action::<RemoveItemArgs>(
                    "remove_item",
                    ActionSpec::new("Remove line item")
                        .destructive()
                        .description("Remove the line item at a row (0-based)"),
                ) {
                    call.handle(|a| self.remove_item(a.row));
                }
                if let Some(mut call) = w.action::<SubmitArgs>(
                    "submit",
                    ActionSpec::new("Submit order").description("Apply the values given, validate, open Confirm order"),
                ) {
                    let args = std::mem::take(call.args_mut());
                    let r = self.submit(args, ids);
                    call.reply(r);
                }
            }
            if let Some(call) = w.button(
                "close",
                ActionSpec::new("Close editor").description("Close; asks first if there are unsaved changes"),
            ) {
                call.reply(Ok(self.close(ids)));
            }
            if let Some(call) = w.button("focus", ActionSpec::new("Bring to front").idempotent()) {
                ctx.move_to_top(egui::LayerId::new(egui::Order::Middle, window_id(ctx, &id)));
                call.ok(format!("{title} is in front"));
            }
            let d = &self.draft;
            w.fields("details", |f| {
                f.field("Recipient", &d.recipient);
                f.field("Address", &d.address);
                f.field("Amount", d.amount);
                f.field("Currency", &d.currency);
                f.sensitive("Card number", &d.card_number);
                f.field(
                    "Status",
                    if self.submitted {
                        "Submitted"
                    } else if self.order_index.is_some() {
                        "Draft"
                    } else {
                        "New"
                    },
                );
            });
            w.table("items", &ITEM_COLUMNS).rows(|t| {
                for it in &d.items {
                    t.row((it.product.as_str(), it.quantity, it.unit_price));
                }
            });
            for e in &self.errors {
                w.notice(&format!("error-{}", e.field), Severity::Error, &format!("{}: {}", e.field, e.error));
            }
            if self.submitted {
                w.notice("read-only", Severity::Info, "This order is submitted; the editor is read-only");
            }
        });
        let (blocked, agent) = (shown.blocked, shown.agent_action);
        self.show_dialogs(ctx, parts);
        self.draw(ctx, &title, blocked, agent.as_ref(), parts);
    }

    fn show_dialogs(&mut self, ctx: &egui::Context, parts: &mut Parts<'_>) {
        let orders = &*parts.orders;
        let (bridge, ids, area) = (parts.bridge, &mut *parts.ids, parts.area);
        let label = self.order_label(orders);
        let total = format!("{} {}", money(self.draft.amount), self.draft.currency);
        match &mut self.dialog {
            None => {}
            Some(Dialog::Discard { id }) => {
                let id = id.clone();
                let mut choice = None;
                let shown = bridge
                    .window(&id)
                    .title("Discard changes?")
                    .modal_of(&self.app_id)
                    .summary(format!("{label} has unsaved changes: discard them and close, or keep editing"))
                    .show(|w| {
                        w.text("question", &format!("{label} has unsaved changes. Discard them and close the editor?"));
                        if let Some(call) = w.button("discard", ActionSpec::new("Discard changes").destructive()) {
                            choice = Some(true);
                            call.ok("Changes discarded; editor closed");
                        }
                        if let Some(call) = w.button("keep_editing", ActionSpec::new("Keep editing")) {
                            choice = Some(false);
                            call.ok("Back to the editor");
                        }
                    });
                let person = dialog_window(ctx, area, &id, "Discard changes?", shown.agent_action.as_ref(), |ui| {
                    ui.label(format!("{label} has unsaved changes."));
                    ui.horizontal(|ui| {
                        if ui.button("Discard").clicked() {
                            return Some(true);
                        }
                        if ui.button("Keep editing").clicked() {
                            return Some(false);
                        }
                        None
                    })
                    .inner
                });
                match choice.or(person) {
                    Some(true) => {
                        self.dialog = None;
                        self.open = false;
                    }
                    Some(false) => self.dialog = None,
                    None => {}
                }
            }
            Some(Dialog::Confirm { id, authorize }) => {
                let confirm_id = id.clone();
                let mut action = None;
                let summary = format!(
                    "Confirm {label} to {}: {} items, total {total}",
                    self.draft.recipient,
                    self.draft.items.len()
                );
                let draft = &self.draft;
                let shown =
                    bridge.window(&confirm_id).title("Confirm order").modal_of(&self.app_id).summary(summary).show(
                        |w| {
                            w.fields("order", |f| {
                                f.field("Order", label.as_str());
                                f.field("Recipient", &draft.recipient);
                                f.field("Items", draft.items.len());
                                f.field("Total", total.as_str());
                            });
                            if let Some(call) = w.button(
                                "confirm",
                                ActionSpec::new("Confirm order").description("Confirm, then authorize the payment"),
                            ) {
                                action = Some("confirm");
                                call.ok("Confirmed; the Authorize payment dialog is open");
                            }
                            if let Some(call) = w.button("cancel", ActionSpec::new("Cancel")) {
                                action = Some("cancel");
                                call.ok("Confirmation cancelled; back to the editor");
                            }
                        },
                    );
                let has_authorize = authorize.is_some();
                let person =
                    dialog_window(ctx, area, &confirm_id, "Confirm order", shown.agent_action.as_ref(), |ui| {
                        ui.add_enabled_ui(!has_authorize, |ui| {
                            ui.label(format!("{label} to {}", self.draft.recipient));
                            ui.label(format!("{} items, total {total}", self.draft.items.len()));
                            ui.horizontal(|ui| {
                                if ui.button("Confirm").clicked() {
                                    return Some("confirm");
                                }
                                if ui.button("Cancel").clicked() {
                                    return Some("cancel");
                                }
                                None
                            })
                            .inner
                        })
                        .inner
                    });
                match action.or(person) {
                    Some("confirm") => self.confirm(ids),
                    Some(_) => self.dialog = None,
                    None => self.show_authorize(ctx, &confirm_id, &label, parts),
                }
            }
        }
    }

    fn show_authorize(&mut self, ctx: &egui::Context, confirm_id: &str, label: &str, parts: &mut Parts<'_>) {
        let (bridge, area) = (parts.bridge, parts.area);
        let Some(Dialog::Confirm { authorize: Some(auth), .. }) = &mut self.dialog else {
            return;
        };
        let auth_id = auth.id.clone();
        let amount = format!("{} {}", money(self.draft.amount), self.draft.currency);
        let card = &self.draft.card_number;
        let error = auth.error.as_deref();
        let mut authorize_call = None;
        let mut cancel_call = None;
        let shown = bridge
            .window(&auth_id)
            .title("Authorize payment")
            .modal_of(confirm_id)
            .summary(format!("Authorize the payment of {amount} for {label} with the payment password"))
            .show(|w| {
                w.fields("payment", |f| {
                    f.field("Amount", amount.as_str());
                    f.sensitive("Card number", card);
                });
                if let Some(e) = error {
                    w.notice("error-password", Severity::Error, &format!("password: {e}"));
                }
                authorize_call = w.action::<AuthorizeArgs>(
                    "authorize",
                    ActionSpec::new("Authorize payment")
                        .destructive()
                        .description("Charge the card and submit the order (needs the payment password)"),
                );
                cancel_call = w.button("cancel", ActionSpec::new("Cancel"));
            });
        if let Some(call) = authorize_call {
            let password = call.args().password.clone();
            let r = self.authorize(&password, parts.orders, parts.orders_revision);
            call.reply(r);
            return;
        }
        if let Some(call) = cancel_call {
            if let Some(Dialog::Confirm { authorize, .. }) = &mut self.dialog {
                *authorize = None;
            }
            call.ok("Authorization cancelled; back to Confirm order");
            return;
        }
        let mut typed = std::mem::take(&mut auth.password);
        let error = auth.error.clone();
        let person = dialog_window(ctx, area, &auth_id, "Authorize payment", shown.agent_action.as_ref(), |ui| {
            ui.label(format!("Charge {amount} for {label}"));
            let l = ui.label("Payment password");
            let r = ui.add(egui::TextEdit::singleline(&mut typed).password(true)).labelled_by(l.id);
            if let Some(e) = &error {
                ui.colored_label(Color32::from_rgb(220, 80, 80), e);
            }
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                if ui.button("Authorize").clicked() || enter {
                    return Some(true);
                }
                if ui.button("Cancel").clicked() {
                    return Some(false);
                }
                None
            })
            .inner
        });
        if let Some(Dialog::Confirm { authorize: Some(auth), .. }) = &mut self.dialog {
            auth.password = typed;
        }
        match person {
            Some(true) => {
                let password = match &mut self.dialog {
                    Some(Dialog::Confirm { authorize: Some(a), .. }) => std::mem::take(&mut a.password),
                    _ => String::new(),
                };
                let _ = self.authorize(&password, parts.orders, parts.orders_revision);
            }
            Some(false) => {
                if let Some(Dialog::Confirm { authorize, .. }) = &mut self.dialog {
                    *authorize = None;
                }
            }
            None => {}
        }
    }

    /// The person's view of the editor.
    fn draw(
        &mut self,
        ctx: &egui::Context,
        title: &str,
        blocked: bool,
        agent: Option<&AgentAction>,
        parts: &mut Parts<'_>,
    ) {
        let (ids, area) = (&mut *parts.ids, parts.area);
        let mut open = true;
        let id = self.app_id.clone();
        let frame = agent_frame(ctx, agent);
        let step = 30.0 * self.slot as f32;
        egui::Window::new(title)
            .id(window_id(ctx, &id))
            .open(&mut open)
            .frame(frame)
            .default_width(420.0)
            .default_pos(area.left_top() + egui::vec2(470.0 + step, 8.0 + step))
            .constrain_to(area)
            .show(ctx, |ui| {
                agent_line(ui, agent);
                if blocked {
                    ui.label(RichText::new("Waiting for the dialog on top to be answered.").italics());
                }
                ui.add_enabled_ui(!blocked, |ui| self.contents(ui, ids));
            });
        if !open && !blocked {
            self.close(ids);
        }
    }

    fn contents(&mut self, ui: &mut egui::Ui, ids: &mut IdGen) {
        let read_only = self.submitted;
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
                &mut self.draft.recipient,
                "recipient",
                (false, limits::RECIPIENT_CHARS),
                &mut changed,
            );
            text_row(ui, "Address", &mut self.draft.address, "address", (false, limits::ADDRESS_CHARS), &mut changed);
            let l = ui.label("Amount");
            if read_only {
                ui.label(money(self.draft.amount));
            } else if ui
                .add(
                    egui::DragValue::new(&mut self.draft.amount)
                        .speed(1.0)
                        .prefix("$")
                        .fixed_decimals(2)
                        .range(0.0..=limits::AMOUNT_MAX),
                )
                .labelled_by(l.id)
                .changed()
            {
                changed.push("amount".to_owned());
            }
            ui.end_row();
            text_row(
                ui,
                "Currency",
                &mut self.draft.currency,
                "currency",
                (false, limits::CURRENCY_CHARS),
                &mut changed,
            );
            text_row(
                ui,
                "Card number",
                &mut self.draft.card_number,
                "card_number",
                (true, limits::CARD_CHARS),
                &mut changed,
            );
            for key in changed {
                self.touched(&key);
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
            for (row, it) in self.draft.items.iter().enumerate() {
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
            let _ = self.remove_item(row);
        }
        if !read_only {
            ui.horizontal(|ui| {
                let l = ui.label("Product");
                ui.add(
                    egui::TextEdit::singleline(&mut self.new_item.product)
                        .char_limit(limits::PRODUCT_CHARS)
                        .desired_width(120.0),
                )
                .labelled_by(l.id);
                let l = ui.label("Qty");
                ui.add(egui::DragValue::new(&mut self.new_item.quantity).range(1..=limits::QUANTITY_MAX))
                    .labelled_by(l.id);
                let l = ui.label("Price");
                ui.add(
                    egui::DragValue::new(&mut self.new_item.unit_price)
                        .prefix("$")
                        .speed(0.5)
                        .fixed_decimals(2)
                        .range(0.0..=limits::UNIT_PRICE_MAX),
                )
                .labelled_by(l.id);
                if ui.button("Add item").clicked() {
                    let form = &self.new_item;
                    let (product, quantity, price) = (form.product.clone(), form.quantity, form.unit_price);
                    if self.add_item(&product, quantity, Some(price)).is_ok() {
                        self.new_item.product.clear();
                    }
                }
            });
        }
        for e in &self.errors {
            ui.colored_label(Color32::from_rgb(220, 80, 80), format!("{}: {}", e.field, e.error));
        }
        ui.separator();
        if read_only {
            ui.label(RichText::new("Submitted: this order is read-only.").italics());
        }
        ui.horizontal(|ui| {
            if !read_only && ui.button("Submit").clicked() {
                let _ = self.submit(SubmitArgs::default(), ids);
            }
            if ui.button("Close").clicked() {
                self.close(ids);
            }
        });
    }
}

/// Draws a dialog as a window in front of the others; returns what `body` returns.
fn dialog_window<R>(
    ctx: &egui::Context,
    area: egui::Rect,
    id: &str,
    title: &str,
    agent: Option<&AgentAction>,
    body: impl FnOnce(&mut egui::Ui) -> Option<R>,
) -> Option<R> {
    egui::Window::new(title)
        .id(window_id(ctx, id))
        .order(egui::Order::Foreground)
        .collapsible(false)
        .resizable(false)
        .frame(agent_frame(ctx, agent))
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(area.center())
        .constrain_to(area)
        .show(ctx, |ui| {
            agent_line(ui, agent);
            body(ui)
        })
        .and_then(|r| r.inner.flatten())
}
