//! The editor's fields and the rules every write to them follows: the person's widgets' rules,
//! so that what a result says was set is exactly what the window then shows.

use egui_mcp_bridge::{FieldError, ToolError};
use serde::Deserialize;
use serde_json::Value;

// A field that `edit_field` can set. (A `//` comment: schemars would send a doc comment as
// the `field` parameter's description in every listing, and the enum says it.)
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
    /// Its parameter name, as `edit_field` takes it and errors name it.
    pub fn key(self) -> &'static str {
        match self {
            Self::Recipient => "recipient",
            Self::Address => "address",
            Self::Amount => "amount",
            Self::Currency => "currency",
            Self::CardNumber => "card_number",
        }
    }

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

pub(crate) fn invalid(field: &str, error: &str) -> ToolError {
    ToolError::invalid_field(field, error)
}

/// A field value that passed [`check_field`].
#[derive(Clone)]
pub(crate) enum Checked {
    Amount(f64),
    Text(String),
}

/// Checks a value for a field by the person's widget's rules; errors name `param`.
pub(crate) fn check_field(field: EditableField, value: &Value, param: &str) -> Result<Checked, ToolError> {
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

/// Checks the values given for some fields (each named by its key): the accepted ones, and an
/// error for every other.
pub(crate) fn check_given(
    given: impl IntoIterator<Item = (EditableField, Option<Value>)>,
) -> (Vec<(EditableField, Checked)>, Vec<FieldError>) {
    let (mut checked, mut errors) = (Vec::new(), Vec::new());
    for (field, value) in given {
        match value.map(|v| check_field(field, &v, field.key())) {
            Some(Ok(c)) => checked.push((field, c)),
            Some(Err(e)) => errors.extend(e.fields.unwrap_or_default()),
            None => {}
        }
    }
    (checked, errors)
}

/// What an order needs to be submitted, for the fields not already named in `known`: a
/// recipient, at least one line item, and an amount (their total) over 0. With no line items,
/// `items` alone says it: the amount is their total.
pub(crate) fn order_errors(recipient: &str, amount: f64, items: usize, known: &[FieldError]) -> Vec<FieldError> {
    let named = |f: &str| known.iter().any(|e| e.field == f);
    let mut errors = Vec::new();
    if !named("recipient") && recipient.trim().is_empty() {
        errors.push(FieldError::new("recipient", "Cannot be empty"));
    }
    if !named("amount") && items > 0 && (amount.is_nan() || amount <= 0.0) {
        errors.push(FieldError::new("amount", "Must be greater than 0: give the line items a price"));
    }
    if items == 0 {
        errors.push(FieldError::new("items", "Add at least one line item"));
    }
    errors
}
