//! Order Editor windows and the dialogs they own.
//!
//! - `model.rs`: the order model and every operation on it, egui-free and unit-tested;
//! - `draft.rs`: what an editor edits, and its amount (the line items' total);
//! - `inputs.rs`: the fields' rules, written once;
//! - `window.rs`: the editor window, described once for the person and agents;
//! - `dialogs.rs`: the modal stack (Confirm order → Authorize payment, Discard changes?).

mod dialogs;
mod draft;
pub mod inputs;
pub mod model;
mod window;

pub use dialogs::AuthorizeArgs;
pub use draft::Draft;
pub use model::{Dialog, Editor, PAYMENT_PASSWORD, SubmitArgs};
pub use window::{AddItemArgs, ITEM_COLUMNS};

use egui_mcp_bridge::Bridge;

use crate::data::Order;
use crate::ui_util::IdGen;

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
}
