//! The order model's operations without egui: each is the one method that an agent's tool and
//! the person's button both call.
#![allow(clippy::unwrap_used, reason = "tests may unwrap: a panic is a failed test")]

use egui_mcp_bridge::ErrorCode;
use order_demo::data::{Status, seed_orders};
use order_demo::editor::{Dialog, Editor, PAYMENT_PASSWORD, SubmitArgs, inputs};
use order_demo::ui_util::IdGen;
use serde_json::json;

fn draft_editor() -> (Editor, Vec<order_demo::data::Order>) {
    let orders = seed_orders();
    let i = orders.iter().position(|o| o.status == Status::Draft).unwrap();
    (Editor::for_order(i, &orders[i]), orders)
}

/// The fields' rules are written once (`editor::inputs`): the person's widgets follow them, and
/// `edit_field` (derived from the form) and `submit` check an agent's values by them.
#[test]
fn the_fields_rules_are_the_inputs() {
    assert!(inputs::recipient().check(&json!("Ada")).is_ok());
    assert_eq!(inputs::currency().check(&json!("EURO")).unwrap_err(), "Currency must be at most 3 characters");
    for bad in [json!("lots"), json!(0.001), json!(2_000_000), json!(-1)] {
        assert!(inputs::amount().check(&bad).is_err(), "{bad}");
    }
    assert!(inputs::amount().check(&json!("$1,234.50")).is_ok(), "a money string is a number");
    let (mut e, _) = draft_editor();
    let mut ids = IdGen::default();
    let err = e.submit(SubmitArgs { currency: Some("EURO".into()), ..SubmitArgs::default() }, &mut ids).unwrap_err();
    assert_eq!(
        err.fields.unwrap()[0].error,
        "Currency must be at most 3 characters",
        "submit: the same rule, the same words"
    );
}

#[test]
fn line_items_are_added_and_removed_within_their_limits() {
    let (mut e, _) = draft_editor();
    let n = e.draft.items.len();
    assert!(e.add_item("Green tea", 2, Some(4.5)).is_ok());
    assert_eq!(e.draft.items.len(), n + 1);
    assert_eq!(e.add_item(" ", 1, None).unwrap_err().fields.unwrap()[0].field, "product");
    assert_eq!(e.add_item("x", 1000, None).unwrap_err().fields.unwrap()[0].field, "quantity");
    assert_eq!(e.add_item("x", 1, Some(0.005)).unwrap_err().fields.unwrap()[0].field, "unitPrice");
    assert!(e.remove_item(n).is_ok());
    assert_eq!(e.draft.items.len(), n);
    assert_eq!(e.remove_item(99).unwrap_err().fields.unwrap()[0].field, "row");
}

#[test]
fn submit_is_all_or_nothing_and_opens_confirm() {
    let (mut e, _) = draft_editor();
    let mut ids = IdGen::default();
    let before = e.draft.clone();
    let bad = SubmitArgs { recipient: Some("Ada".into()), amount: Some(-5.0), ..SubmitArgs::default() };
    let err = e.submit(bad, &mut ids).unwrap_err();
    assert_eq!(err.code, ErrorCode::ValidationFailed);
    assert_eq!(e.draft, before, "nothing of a rejected submit is applied");
    assert!(e.dialogs.is_empty());
    e.draft.items.clear();
    let err = e.submit(SubmitArgs::default(), &mut ids).unwrap_err();
    assert_eq!(err.fields.unwrap()[0].field, "items");
    assert_eq!(e.errors.len(), 1, "the errors show in the editor");
    assert!(e.add_item("Tea", 1, Some(3.0)).is_ok());
    assert!(e.submit(SubmitArgs::default(), &mut ids).is_ok());
    assert!(matches!(e.dialogs.as_slice(), [Dialog::Confirm { .. }]));
}

/// One rejected submit names every invalid field, the given values' and the order's, and the
/// editor shows each (issue 17's probe: `submit {"amount": -5}` on a new order named only
/// `amount`).
#[test]
fn a_rejected_submit_names_every_invalid_field_at_once() {
    let mut e = Editor::new_order(1);
    let mut ids = IdGen::default();
    let err = e.submit(SubmitArgs { amount: Some(-5.0), ..SubmitArgs::default() }, &mut ids).unwrap_err();
    let named: Vec<String> = err.fields.unwrap().into_iter().map(|f| f.field).collect();
    assert_eq!(named, ["amount", "recipient", "items"]);
    let shown: Vec<&str> = e.errors.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(shown, ["amount", "recipient", "items"], "the editor shows the same errors");
    assert!(e.dialogs.is_empty() && e.draft.amount() == 0.0, "nothing applied");
}

#[test]
fn confirm_then_authorize_saves_the_order_and_closes_the_stack() {
    let (mut e, mut orders) = draft_editor();
    let mut ids = IdGen::default();
    let mut revision = 0;
    e.submit(SubmitArgs::default(), &mut ids).unwrap();
    e.confirm(&mut ids);
    assert!(matches!(e.dialogs.as_slice(), [Dialog::Confirm { .. }, Dialog::Authorize { .. }]), "a modal chain");
    assert!(e.summary(&orders).ends_with("waiting for payment authorization"));
    let err = e.authorize("wrong", &mut orders, &mut revision).unwrap_err();
    assert_eq!(err.fields.unwrap()[0].field, "password");
    assert!(matches!(e.dialogs.last(), Some(Dialog::Authorize { error: Some(_), .. })), "the dialog says so");
    assert_eq!(revision, 0);
    e.authorize(PAYMENT_PASSWORD, &mut orders, &mut revision).unwrap();
    assert!(e.submitted && e.dialogs.is_empty() && !e.dirty);
    assert_eq!(orders[e.order_index.unwrap()].status, Status::Submitted);
    assert_eq!(revision, 1);
}

#[test]
fn a_new_order_is_created_when_it_is_authorized() {
    let mut orders = seed_orders();
    let n = orders.len();
    let mut e = Editor::new_order(1);
    let (mut ids, mut revision) = (IdGen::default(), 0);
    e.add_item("Tea", 2, Some(3.0)).unwrap();
    e.submit(SubmitArgs { recipient: Some("Ada".into()), amount: Some(6.0), ..SubmitArgs::default() }, &mut ids)
        .unwrap();
    assert_eq!(e.draft.amount(), 6.0, "2 × $3.00");
    e.confirm(&mut ids);
    e.authorize(PAYMENT_PASSWORD, &mut orders, &mut revision).unwrap();
    assert_eq!(orders.len(), n + 1);
    assert_eq!(orders[n].recipient, "Ada");
    assert_eq!(orders[n].number, orders[n - 1].number + 1);
}

#[test]
fn closing_asks_first_when_there_are_unsaved_changes() {
    let (mut e, _) = draft_editor();
    let mut ids = IdGen::default();
    e.close(&mut ids);
    assert!(!e.open, "a clean editor closes at once");

    let (mut e, _) = draft_editor();
    e.draft.address = "1 Elm Street".into(); // as the person's typing (or an agent's edit) does
    e.touched("address");
    e.close(&mut ids);
    assert!(e.open && matches!(e.dialogs.as_slice(), [Dialog::Discard { .. }]));
    e.close_top_dialog(); // Keep editing
    assert!(e.open && e.dialogs.is_empty() && e.dirty);
    e.close(&mut ids);
    e.discard();
    assert!(!e.open && e.dialogs.is_empty());
}

#[test]
fn cancelling_returns_one_dialog_down_the_stack() {
    let (mut e, _) = draft_editor();
    let mut ids = IdGen::default();
    e.submit(SubmitArgs::default(), &mut ids).unwrap();
    e.confirm(&mut ids);
    e.close_top_dialog();
    assert!(matches!(e.dialogs.as_slice(), [Dialog::Confirm { .. }]), "Authorize cancelled: back to Confirm");
    e.close_top_dialog();
    assert!(e.dialogs.is_empty(), "Confirm cancelled: back to the editor");
    let ids_seen: Vec<String> = (0..2).map(|_| ids.next("x")).collect();
    assert_ne!(ids_seen[0], ids_seen[1], "dialog ids never repeat");
}

/// The amount follows the line items: adding or removing one changes what the editor shows,
/// what the agent reads and what Confirm and Authorize charge, together; an amount that is not
/// their total is refused, by `edit_field` and by `submit`. (Before, the Amount was a field of
/// its own: after adding 2 × $4.50 it still said $215.30, and that was charged.)
#[test]
fn the_amount_is_the_line_items_total_everywhere() {
    let mut orders = seed_orders();
    let (mut e, _) = draft_editor();
    let (mut ids, mut revision) = (IdGen::default(), 0);
    let before = e.draft.amount();
    e.add_item("Green tea", 2, Some(4.5)).unwrap();
    let after = e.draft.amount();
    assert_eq!((after * 100.0).round(), ((before + 9.0) * 100.0).round(), "the total follows the items");
    let err = e.submit(SubmitArgs { amount: Some(before), ..SubmitArgs::default() }, &mut ids).unwrap_err();
    assert_eq!(err.fields.unwrap()[0].field, "amount", "the old figure is refused");
    e.submit(SubmitArgs::default(), &mut ids).unwrap();
    e.confirm(&mut ids);
    let index = e.order_index.unwrap();
    e.authorize(PAYMENT_PASSWORD, &mut orders, &mut revision).unwrap();
    assert_eq!(orders[index].amount, after, "what is charged is the total");
}

/// A new order's amount is zero, not negative zero (an empty sum of `f64` is `-0.0` in Rust):
/// the agent read `-0.0` in the state and "-0.00" in an error.
#[test]
fn an_empty_order_amounts_to_zero_not_negative_zero() {
    let draft = order_demo::editor::Draft::default();
    let amount = draft.amount();
    assert!(amount == 0.0 && amount.is_sign_positive(), "{amount:?}");
    assert_eq!(serde_json::json!(amount).to_string(), "0.0");
    assert_eq!(format!("{amount:.2}"), "0.00");
}
