//! Random arguments for the demo's editor tools, from an agent, in-process: every call ends in
//! success or `validation_failed` naming a parameter, and after each success what the result
//! says was set is exactly what the window's state then shows and what the app's own draft holds
//! (no silent rewrite by a widget's range, no saturated money, no clamped length); a refused call
//! changes neither.
//!
//! `PROPTEST_CASES` sets the number of calls (256 by default here); the long run of SECURITY.md
//! is `PROPTEST_CASES=1000000 cargo test --release -p order-demo --test it agent_fuzz`.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::cell::RefCell;

use crate::support;

use egui_mcp_bridge::ErrorCode;
use egui_mcp_bridge::protocol::{Block, Window};
use order_demo::data::LineItem;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value, json};
use support::InProcessDemo;

/// The value the window shows for the field labelled `label`, as the agent reads it.
fn shown<'a>(window: &'a Window, label: &str) -> &'a Value {
    let Block::Fields { items, .. } = &window.blocks[0] else { panic!("the fields come first: {window:?}") };
    items.iter().find(|i| i.label == label).map(|i| &i.value).unwrap()
}

/// The line items' rows the window shows.
fn rows(window: &Window) -> &[Vec<Value>] {
    let Block::Table { rows, .. } = &window.blocks[1] else { panic!("the line items come second: {window:?}") };
    rows
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<f64>().prop_map(|f| json!(f)),
        (-2_000_000.0..2_000_000.0f64).prop_map(|f| json!(f)),
        (0u32..2_000_000).prop_map(|n| json!(n)),
        (0u32..200_000_000).prop_map(|c| json!(f64::from(c) / 100.0)),
        "[0-9]{1,8}(\\.[0-9]{1,3})?".prop_map(Value::from),
        ".{0,260}".prop_map(Value::from),
        (9_000usize..12_000).prop_map(|n| Value::from("x".repeat(n))),
        any::<bool>().prop_map(Value::from),
        Just(Value::Null),
        Just(json!([1, "two", {"three": 3}])),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    Edit { field: String, value: Value },
    Add { product: String, quantity: i64, unit_price: Option<f64> },
    Remove { row: i64 },
}

fn op() -> impl Strategy<Value = Op> {
    let field = prop_oneof![
        Just("recipient".to_owned()),
        Just("address".to_owned()),
        Just("amount".to_owned()),
        Just("currency".to_owned()),
        Just("card_number".to_owned()),
        "[a-z_]{1,12}",
    ];
    prop_oneof![
        4 => (field, value()).prop_map(|(field, value)| Op::Edit { field, value }),
        2 => (".{0,120}", -5i64..1500, proptest::option::of(prop_oneof![-10.0..200_000.0f64, (0u32..20_000_000).prop_map(|c| f64::from(c) / 100.0)]))
            .prop_map(|(product, quantity, unit_price)| Op::Add { product, quantity, unit_price }),
        1 => (-2i64..12).prop_map(|row| Op::Remove { row }),
    ]
}

#[test]
fn random_editor_arguments_are_applied_exactly_or_rejected_naming_a_parameter() {
    let demo = RefCell::new(InProcessDemo::new());
    let editor = {
        let mut d = demo.borrow_mut();
        let opened = d.call("app__new_order", json!({})).unwrap();
        opened.opened_window_ids[0].clone()
    };
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    runner
        .run(&op(), |op| {
            let mut d = demo.borrow_mut();
            let (tool, args) = match &op {
                Op::Edit { field, value } => ("edit_field", json!({"field": field, "value": value})),
                Op::Add { product, quantity, unit_price } => {
                    let mut a = Map::new();
                    a.insert("product".into(), json!(product));
                    a.insert("quantity".into(), json!(quantity));
                    if let Some(p) = unit_price {
                        a.insert("unitPrice".into(), json!(p));
                    }
                    ("add_item", Value::Object(a))
                }
                Op::Remove { row } => ("remove_item", json!({"row": row})),
            };
            let (before, drafted) = (d.shown(&editor), d.editor(&editor).draft.clone());
            let outcome = d.call(&format!("{editor}__{tool}"), args);
            let after = d.shown(&editor);
            let draft = &d.editor(&editor).draft;
            match outcome {
                Err(e) => {
                    prop_assert_eq!(e.code, ErrorCode::ValidationFailed, "{:?}: {}", op, e.message);
                    let fields = e.fields.clone().unwrap_or_default();
                    prop_assert!(!fields.is_empty(), "validation_failed names a parameter: {}", e.message);
                    prop_assert_eq!(&before.blocks, &after.blocks, "a rejected call changed the window");
                    prop_assert_eq!(&drafted, draft, "a rejected call changed the app's draft");
                }
                Ok(r) => match op {
                    Op::Edit { field, value } => {
                        let text = value.as_str();
                        let (shown_ok, held) = match field.as_str() {
                            "recipient" => (*shown(&after, "Recipient") == value, text == Some(&draft.recipient)),
                            "address" => (*shown(&after, "Address") == value, text == Some(&draft.address)),
                            "currency" => (*shown(&after, "Currency") == value, text == Some(&draft.currency)),
                            // Masked at the source: the mask when filled in, "" when emptied.
                            "card_number" => {
                                let filled = text.is_some_and(|v| !v.is_empty());
                                let mask = if filled { egui_mcp_bridge::protocol::MASK } else { "" };
                                (*shown(&after, "Card number") == mask, text == Some(&draft.card_number))
                            }
                            "amount" => {
                                let amount = shown(&after, "Amount").as_f64().unwrap();
                                let said = r.message.as_deref()
                                    == Some(format!("Amount is {amount:.2}, the total of the line items").as_str());
                                let asked = number(&value);
                                (said && (amount - asked).abs() < 1e-9, (draft.amount() - asked).abs() < 1e-9)
                            }
                            other => panic!("{other} was accepted"),
                        };
                        prop_assert!(
                            shown_ok,
                            "{} = {} answered {:?} but the window shows {:?}",
                            field,
                            value,
                            r.message,
                            after.blocks[0]
                        );
                        prop_assert!(
                            held,
                            "{} = {} answered {:?} but the draft is {:?}",
                            field,
                            value,
                            r.message,
                            draft
                        );
                    }
                    Op::Add { product, quantity, unit_price } => {
                        let expected = vec![json!(product.trim()), json!(quantity), json!(unit_price.unwrap_or(0.0))];
                        prop_assert_eq!(rows(&after).last(), Some(&expected), "answered {:?}", r.message);
                        let item = LineItem {
                            product: product.trim().to_owned(),
                            quantity: u32::try_from(quantity).unwrap(),
                            unit_price: unit_price.unwrap_or(0.0),
                        };
                        prop_assert_eq!(draft.items.last(), Some(&item), "answered {:?}", r.message);
                    }
                    Op::Remove { row } => {
                        prop_assert_eq!(rows(&after).len() + 1, rows(&before).len(), "removed row {}", row);
                        let mut left = drafted.items.clone();
                        left.remove(usize::try_from(row).unwrap());
                        prop_assert_eq!(&draft.items, &left, "removed row {}", row);
                    }
                },
            }
            Ok(())
        })
        .unwrap();
}

fn number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => s.trim().trim_start_matches('$').replace(',', "").parse().unwrap(),
        _ => f64::NAN,
    }
}
