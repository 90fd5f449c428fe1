//! The editor's fields and their rules, written once: the person's widgets, the agent's
//! `edit_field` (derived from the form), the checks of `add_item` and `submit`, and their
//! descriptions all use these.

use egui_mcp_bridge::{Input, NumberInput, TextInput};

/// Who receives the order.
pub fn recipient() -> TextInput {
    Input::text("Recipient").char_limit(100)
}

/// Where it goes.
pub fn address() -> TextInput {
    Input::text("Address").char_limit(200)
}

/// The amount charged: the line items' total, never typed.
pub fn amount() -> NumberInput {
    Input::number("Amount", 0.0..=1_000_000.0).decimals(2)
}

/// A currency code.
pub fn currency() -> TextInput {
    Input::text("Currency").char_limit(3)
}

/// The card charged: a secret, masked for agents at the source.
pub fn card_number() -> TextInput {
    Input::secret("Card number").char_limit(23)
}

/// A line item's product.
pub fn product() -> TextInput {
    Input::text("Product").char_limit(100).required()
}

/// A line item's quantity.
pub fn quantity() -> NumberInput {
    Input::integer("Quantity", 1..=999)
}

/// A line item's unit price.
pub fn unit_price() -> NumberInput {
    Input::number("Unit price", 0.0..=100_000.0).decimals(2)
}
