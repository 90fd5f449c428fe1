//! The editor's fields and the rules every write to them follows: the person's widgets' rules,
//! so that what a result says was set is exactly what the window then shows.

use egui_mcp_bridge::ToolError;
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
