//! The order model: what an Order Editor edits and every operation on it, without egui.
//!
//! **The pattern to copy:** every operation is one method here, called by the agent's tool and
//! by the person's button alike (`window.rs`, `dialogs.rs`), so both meet the same rules
//! (`inputs.rs`), the same errors and the same result. A method that rejects its input changes
//! nothing.

use egui_mcp_bridge::{FieldError, Input, TextInput, ToolError, ToolResult};
use serde::Deserialize;
use serde_json::Value;

use super::draft::Draft;
use super::inputs;
use crate::data::{FIRST_NUMBER, LineItem, Order, Status, money};
use crate::ui_util::IdGen;

/// `submit` arguments: values to apply before validating (named as the fields they set). The
/// amount is the line items' total: a given amount must equal it, and it must be more than 0
/// to submit. Both are the order's own rules, checked with the rest of the order, so that one
/// answer names every invalid field.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitArgs {
    pub recipient: Option<String>,
    pub address: Option<String>,
    pub amount: Option<f64>,
    pub currency: Option<String>,
}

/// The demo's payment password (stated in the README).
pub const PAYMENT_PASSWORD: &str = "1234";

/// A dialog on an editor. They form a stack (a protocol modal chain): the first is owned by
/// the editor, each later one by the one before, and only the last can be operated.
#[derive(Debug, PartialEq)]
pub enum Dialog {
    /// Confirm order (app id `confirm-N`).
    Confirm { id: String },
    /// Authorize payment, on Confirm order (app id `authorize-N`).
    Authorize {
        id: String,
        /// What the person typed (never shown to agents).
        password: String,
        /// Shown after a wrong password.
        error: Option<String>,
        /// The password field was given the keyboard focus when the dialog opened.
        focused: bool,
    },
    /// Discard changes? (app id `discard-N`).
    Discard { id: String },
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
    pub product: String,
    pub quantity: i64,
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
            wrong_cents: 0,
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
            new_item: NewItemForm { product: String::new(), quantity: 1, unit_price: 0.0 },
        }
    }

    /// The window title.
    pub fn title(&self, orders: &[Order]) -> String {
        format!("Order Editor · {}", self.order_label(orders))
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

    /// Appends a line item, checked by the rules the person's add-item row follows.
    pub fn add_item(&mut self, product: &str, quantity: u32, unit_price: Option<f64>) -> Result<ToolResult, ToolError> {
        let (product, unit_price) = (product.trim(), unit_price.unwrap_or(0.0));
        let given: [(&str, Input, Value); 3] = [
            ("product", inputs::product().into(), Value::from(product)),
            ("quantity", inputs::quantity().into(), Value::from(quantity)),
            ("unitPrice", inputs::unit_price().into(), Value::from(unit_price)),
        ];
        let errors: Vec<FieldError> =
            given.iter().filter_map(|(key, input, v)| input.check(v).err().map(|e| FieldError::new(*key, e))).collect();
        if !errors.is_empty() {
            return Err(ToolError::validation("The line item was not added", errors));
        }
        self.draft.items.push(LineItem { product: product.to_owned(), quantity, unit_price });
        self.touched("items");
        let (n, total) = (self.draft.items.len(), money(self.draft.amount()));
        Ok(ToolResult::message(format!(
            "Added {quantity} × {product}; {n} items now, total {total} {}",
            self.draft.currency
        )))
    }

    /// Removes a line item.
    pub fn remove_item(&mut self, row: usize) -> Result<ToolResult, ToolError> {
        if row >= self.draft.items.len() {
            let e = format!("There are {} rows (0-based)", self.draft.items.len());
            return Err(ToolError::invalid_field("row", e));
        }
        let item = self.draft.items.remove(row);
        self.touched("items");
        let (n, total) = (self.draft.items.len(), money(self.draft.amount()));
        Ok(ToolResult::message(format!(
            "Removed {}; {n} items left, total {total} {}",
            item.product, self.draft.currency
        )))
    }

    /// Applies the given values, validates the whole order, and opens Confirm order.
    pub fn submit(&mut self, args: SubmitArgs, ids: &mut IdGen) -> Result<ToolResult, ToolError> {
        // Every given value is checked by its field's rules, and the whole order as it would be
        // with the valid ones, before anything is applied: a rejected submit names every
        // invalid field at once (the given values' and the order's), shows them in the editor,
        // and changes nothing else.
        let mut errors = Vec::new();
        let mut check = |key: &str, input: TextInput, v: Option<String>| {
            let v = v?;
            input.check(&Value::from(v.clone())).map_err(|e| errors.push(FieldError::new(key, e))).ok().map(|_| v)
        };
        let recipient = check("recipient", inputs::recipient(), args.recipient);
        let address = check("address", inputs::address(), args.address);
        let currency = check("currency", inputs::currency(), args.currency);
        // A given amount must be the line items' total (the amount follows them).
        let amount = self.draft.amount();
        match args.amount.map(|a| (a, inputs::amount().check(&Value::from(a)))) {
            Some((_, Err(e))) => errors.push(FieldError::new("amount", e)),
            Some((a, Ok(_))) if (a * 100.0).round() != (amount * 100.0).round() => {
                let total = money(amount);
                let e =
                    format!("The amount is the total of the line items ({total}); change the line items to change it");
                errors.push(FieldError::new("amount", e));
            }
            _ => {}
        }
        let named = |f: &str, errors: &[FieldError]| errors.iter().any(|e| e.field == f);
        if !named("recipient", &errors) && recipient.as_ref().unwrap_or(&self.draft.recipient).trim().is_empty() {
            errors.push(FieldError::new("recipient", "Cannot be empty"));
        }
        if !named("amount", &errors) && !self.draft.items.is_empty() && amount <= 0.0 {
            errors.push(FieldError::new("amount", "Must be greater than 0: give the line items a price"));
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
        let d = &mut self.draft;
        for (value, slot) in [(recipient, &mut d.recipient), (address, &mut d.address), (currency, &mut d.currency)] {
            if let Some(v) = value {
                *slot = v;
                self.dirty = true;
            }
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
            return Err(ToolError::invalid_field("password", "Wrong password"));
        }
        let index = *self.order_index.get_or_insert_with(|| {
            let number = orders.last().map_or(FIRST_NUMBER, |o| o.number + 1);
            orders.push(Order { number, customer: self.draft.recipient.clone(), ..Order::default() });
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
