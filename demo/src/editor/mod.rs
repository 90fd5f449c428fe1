//! Order Editor windows and the dialogs they own.
//!
//! - `model.rs`: the order model and every operation on it, egui-free and unit-tested;
//! - `fields.rs`: the fields and the rules every write follows;
//! - `tools.rs`: the agent's side (argument types, the editor window's declaration);
//! - `dialogs.rs`: the modal stack (Confirm order → Authorize payment, Discard changes?);
//! - `view.rs`: the person's form.

mod dialogs;
mod draft;
pub mod fields;
pub mod model;
pub mod tools;
mod view;

pub use draft::Draft;
pub use fields::{EditableField, limits};
pub use model::{Dialog, Editor, PAYMENT_PASSWORD};
pub use tools::{AddItemArgs, AuthorizeArgs, EditFieldArgs, ITEM_COLUMNS, RemoveItemArgs, SubmitArgs};

use egui::RichText;
use egui_mcp_bridge::Bridge;

use crate::data::Order;
use crate::ui_util::IdGen;
use crate::windows::{Spec, Windows};

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
    /// Where windows go.
    pub windows: &'a mut Windows,
}

/// Where the editor in cascade slot `slot` opens: right of Orders, a step down per slot.
fn place(slot: usize) -> egui::Pos2 {
    let step = 28.0 * (slot % 6) as f32;
    egui::pos2(480.0 + step, 8.0 + step)
}

impl Editor {
    /// Declares this editor and its dialogs to the bridge, applies the agent's calls, and
    /// draws them for the person.
    pub fn show(&mut self, ctx: &egui::Context, parts: &mut Parts<'_>) {
        let title = self.title(parts.orders);
        let summary = self.summary(parts.orders);
        let id = self.app_id.clone();
        let windows = &*parts.windows;
        let ids = &mut *parts.ids;
        let shown = parts.bridge.window(&id).title(&title).summary(summary).show(|w| {
            tools::declare(w, self, ids, &title, || windows.focus(ctx, &id));
        });
        // The window first, so that its dialogs can be centred on it.
        let spec = Spec {
            app_id: &id,
            title: &title,
            agent: shown.agent_action.as_ref(),
            pos: place(self.slot),
            size: egui::vec2(420.0, 420.0),
            dialog_of: None,
            closable: true,
        };
        let blocked = shown.blocked;
        let ids = &mut *parts.ids;
        let window = parts.windows.show(ctx, spec, |ui| {
            if blocked {
                ui.label(RichText::new("Waiting for the dialog on top to be answered.").italics());
            }
            ui.add_enabled_ui(!blocked, |ui| view::contents(self, ui, ids));
        });
        if window.close && !blocked {
            self.close(parts.ids);
        }
        dialogs::show(ctx, self, parts);
    }
}
