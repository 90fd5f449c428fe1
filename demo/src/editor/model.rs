//! The order model: what an Order Editor edits and every operation on it, without egui.
//!
//! **The pattern to copy:** every operation is one method here, called by the agent's tool
//! (`tools.rs`) and by the person's button (`view.rs`, `dialogs.rs`) alike, so both see the same
//! rules, the same errors and the same result. A method that rejects its input changes nothing.

use egui_mcp_bridge::{FieldError, ToolError, ToolResult};
use serde_json::Value;

use super::draft::Draft;
use super::fields::{Checked, EditableField, check_field, check_given, invalid, limits, order_errors};
use crate::data::{FIRST_NUMBER, LineItem, Order, Status, money};
use crate::ui_util::IdGen;

/// The demo's payment password (stated in the README).
pub const PAYMENT_PASSWORD: &str = "1234";

/// A dialog on an editor. They form a stack (a protocol modal chain): the first is owned by
/// the editor, each later one by the one before, and only the last can be operated.
#[derive(Debug, PartialEq)]
pub enum Dialog {
    /// Confirm order (app id `confirm-N`).
    Confirm {
        /// App id.
        id: String,
    },
    /// Authorize payment, on Confirm order (app id `authorize-N`).
    Authorize {
        /// App id.
        id: String,
        /// What the person typed (never shown to agents).
        password: String,
        /// Shown after a wrong password.
        error: Option<String>,
        /// The password field was given the keyboard focus when the dialog opened.
        focused: bool,
    },
    /// Discard changes? (app id `discard-N`).
    Discard {
        /// App id.
        id: String,
    },
}

impl Dialog {
    /// The dialog's app id.
    pub fn id(&self) -> &str {
        match self {
            Self::Confirm { id } | Self::Authorize { id, .. } | Self::Discard { id } => id,
        }
    }
}

/// The "add a line item" row of the person's form.
#[derive(Debug, PartialEq)]
pub struct NewItemForm {
    /// Product name being typed.
    pub product: String,
    /// Quantity.
    pub quantity: u32,
    /// Unit price.
    pub unit_price: f64,
}

/// One Order Editor: its order's draft, its state and its dialogs.
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
    /// The dialogs on it, oldest first: the last is on top.
    pub dialogs: Vec<Dialog>,
    /// False once closed; the app drops it.
    pub open: bool,
    /// Its place in the cascade of editors (set by the app when it opens the editor).
    pub slot: usize,
    /// The person's add-item row.
    pub new_item: NewItemForm,
}

impl Editor {
    /// An editor on an existing order.
    pub fn for_order(index: usize, order: &Order) -> Self {
        let draft = Draft {
            recipient: order.recipient.clone(),
            address: order.address.clone(),
            currency: order.currency.clone(),
            card_number: order.card_number.clone(),
            items: order.items.clone(),
        };
        Self::new(format!("order-{}", order.number), Some(index), draft, order.status != Status::Draft)
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
            dialogs: Vec::new(),
            open: true,
            slot: 0,
            new_item: NewItemForm { product: String::new(), quantity: 1, unit_price: 0.0 },
        }
    }

    /// The window title.
    pub fn title(&self, orders: &[Order]) -> String {
        match self.order_index {
            Some(i) => format!("Order Editor · #{}", orders[i].number),
            None => "Order Editor · New order".to_owned(),
        }
    }

    /// `#10001`, or "New order".
    pub fn order_label(&self, orders: &[Order]) -> String {
        self.order_index.map_or_else(|| "New order".to_owned(), |i| orders[i].label())
    }

    /// The one-line summary agents read.
    pub fn summary(&self, orders: &[Order]) -> String {
        let label = self.order_label(orders);
        let (n, amount, currency) = (self.draft.items.len(), money(self.draft.amount()), &self.draft.currency);
        if self.submitted {
            return format!("{label} is submitted and read-only: {n} items, {amount} {currency}");
        }
        let mut missing = Vec::new();
        if self.draft.recipient.trim().is_empty() {
            missing.push("recipient");
        }
        if self.draft.items.is_empty() {
            missing.push("line items");
        }
        let state = match self.dialogs.last() {
            Some(Dialog::Authorize { .. }) => "; waiting for payment authorization",
            Some(Dialog::Confirm { .. }) => "; waiting for confirmation",
            Some(Dialog::Discard { .. }) => "; asking whether to discard changes",
            None if self.dirty => "; unsaved changes",
            None => "",
        };
        let missing = if missing.is_empty() { String::new() } else { format!(", missing {}", missing.join(" and ")) };
        format!("Editing {label}: {n} items, {amount} {currency}{missing}{state}")
    }

    /// The person (or an agent) changed `field`: the draft is dirty, its old error is gone.
    pub fn touched(&mut self, field: &str) {
        self.dirty = true;
        self.errors.retain(|e| e.field != field);
    }

    /// Sets one field. A value of the wrong kind, or one the person's widget would not hold
    /// (out of range, too long, sub-cent amounts), is `validation_failed` naming `value`.
    pub fn edit_field(&mut self, field: EditableField, value: &Value) -> Result<ToolResult, ToolError> {
        let checked = check_field(field, value, "value")?;
        if let Some(e) = self.amount_error(&checked, "value") {
            return Err(ToolError::validation("The amount follows the line items", vec![e]));
        }
        Ok(self.apply_field(field, checked))
    }

    /// A given amount must be the line items' total (the amount follows them).
    fn amount_error(&self, value: &Checked, param: &str) -> Option<FieldError> {
        let Checked::Amount(given) = value else { return None };
        let total = self.draft.amount();
        ((given * 100.0).round() != (total * 100.0).round()).then(|| {
            FieldError::new(
                param,
                format!(
                    "The amount is the total of the line items ({}); change the line items to change it",
                    money(total)
                ),
            )
        })
    }

    /// Sets a field to a value [`check_field`] accepted.
    fn apply_field(&mut self, field: EditableField, value: Checked) -> ToolResult {
        self.draft.set(field, value);
        self.touched(field.key());
        match field {
            EditableField::Amount => {
                ToolResult::message(format!("Amount is {}, the total of the line items", money(self.draft.amount())))
            }
            // The message never echoes a card number.
            _ => ToolResult::message(format!("{} updated", field.label())),
        }
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
    pub fn submit(&mut self, args: crate::editor::tools::SubmitArgs, ids: &mut IdGen) -> Result<ToolResult, ToolError> {
        let given = [
            (EditableField::Recipient, args.recipient.map(Value::from)),
            (EditableField::Address, args.address.map(Value::from)),
            (EditableField::Amount, args.amount.map(Value::from)),
            (EditableField::Currency, args.currency.map(Value::from)),
        ];
        // Every given value is checked, and the whole order as it would be with the valid ones,
        // before anything is applied: a rejected submit names every invalid field at once (the
        // given values' and the order's), shows them in the editor, and changes nothing else.
        let (checked, mut errors) = check_given(given);
        errors.extend(checked.iter().filter_map(|(_, value)| self.amount_error(value, "amount")));
        let mut trial = self.draft.clone();
        for (field, value) in &checked {
            trial.set(*field, value.clone());
        }
        errors.extend(order_errors(&trial.recipient, trial.amount(), trial.items.len(), &errors));
        self.errors.clone_from(&errors);
        if !errors.is_empty() {
            let n = errors.len();
            return Err(ToolError::validation(
                format!("Submission rejected: {n} field{} invalid", if n == 1 { " is" } else { "s are" }),
                errors,
            ));
        }
        for (field, value) in checked {
            self.apply_field(field, value);
        }
        self.dialogs.push(Dialog::Confirm { id: ids.next("confirm") });
        Ok(ToolResult::message("Submitted for confirmation; the Confirm order dialog is open"))
    }

    /// Closes the editor, or asks first when there are unsaved changes.
    pub fn close(&mut self, ids: &mut IdGen) -> ToolResult {
        if self.dirty && !self.submitted {
            self.dialogs.push(Dialog::Discard { id: ids.next("discard") });
            ToolResult::message("There are unsaved changes; the Discard changes? dialog is open")
        } else {
            self.open = false;
            ToolResult::message("Editor closed")
        }
    }

    /// Discard changes? → discard: the editor closes, its changes are lost.
    pub fn discard(&mut self) -> ToolResult {
        self.dialogs.clear();
        self.open = false;
        ToolResult::message("Changes discarded; editor closed")
    }

    /// Closes the dialog on top (Keep editing, Cancel): back to the one below, or the editor.
    pub fn close_top_dialog(&mut self) {
        self.dialogs.pop();
    }

    /// Confirm order → Authorize payment.
    pub fn confirm(&mut self, ids: &mut IdGen) -> ToolResult {
        self.dialogs.push(Dialog::Authorize {
            id: ids.next("authorize"),
            password: String::new(),
            error: None,
            focused: false,
        });
        ToolResult::message("Confirmed; the Authorize payment dialog is open")
    }

    /// Checks the password, saves the order as Submitted, closes both dialogs.
    pub fn authorize(
        &mut self,
        password: &str,
        orders: &mut Vec<Order>,
        orders_revision: &mut u64,
    ) -> Result<ToolResult, ToolError> {
        if password != PAYMENT_PASSWORD {
            if let Some(Dialog::Authorize { error, password, .. }) = self.dialogs.last_mut() {
                *error = Some("Wrong password".to_owned());
                password.clear(); // typed again from scratch, not appended to the wrong one
            }
            return Err(invalid("password", "Wrong password"));
        }
        let index = *self.order_index.get_or_insert_with(|| {
            let number = orders.last().map_or(FIRST_NUMBER, |o| o.number + 1);
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
        o.amount = d.amount();
        o.status = Status::Submitted;
        o.days_ago = 0;
        *orders_revision += 1;
        self.submitted = true;
        self.dirty = false;
        self.errors.clear();
        self.dialogs.clear();
        Ok(ToolResult::message(format!("Payment authorized; order {} is submitted", o.label())))
    }
}
