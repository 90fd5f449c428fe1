//! The draft an Order Editor edits: a copy of the order until it is saved, and its amount,
//! which is the line items' total (never stored, so it cannot disagree with them).

use crate::data::LineItem;

/// What the editor edits: a copy of the order until it is saved.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Draft {
    /// Recipient.
    pub recipient: String,
    /// Address.
    pub address: String,
    /// Currency code.
    pub currency: String,
    /// Card number (secret).
    pub card_number: String,
    /// Line items.
    pub items: Vec<LineItem>,
    /// Cents wrongly added to the total: 0, except in the tests that show a replayed
    /// recording catching a bug ([`OrderApp::with_wrong_totals`](crate::OrderApp::with_wrong_totals)).
    pub(crate) wrong_cents: u32,
}

impl Draft {
    /// The amount charged: the total of the line items, to the cent. It is not stored, so what
    /// the editor shows, what the agent reads and what Confirm and Authorize charge are always
    /// this one number.
    pub fn amount(&self) -> f64 {
        crate::data::cents_total(&self.items) + f64::from(self.wrong_cents) / 100.0
    }
}
