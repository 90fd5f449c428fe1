//! Every widget kind of "one description, both audiences": what the person sees (kittest: the
//! label, the value, whether it is enabled) and what the agent reads (the block in the state)
//! come from one call and agree; a person's change shows in the next state; an agent's change
//! through the derived `edit_field` shows in the widget; and `edit_field` takes exactly what the
//! person's widget would hold, refusing the rest with the words the widget's rules give.

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode, Input, Severity, blocks::TableOptions};
use proptest::prelude::*;
use serde_json::{Value, json};

struct Shop {
    bridge: Bridge,
    name: String,
    pin: String,
    price: f64,
    qty: i64,
    items: Vec<(String, i64)>,
    dropped: Vec<usize>,
    pressed: usize,
    read_only: bool,
}

fn name() -> egui_mcp_bridge::TextInput {
    Input::text("Name").char_limit(8)
}

fn price() -> egui_mcp_bridge::NumberInput {
    Input::number("Price", 0.0..=100.0).decimals(2)
}

fn app(ui: &mut egui::Ui, s: &mut Shop) {
    let bridge = s.bridge.clone();
    bridge.window("shop").title("Shop").summary("A shop").ui(ui, |w, ui| {
        let total = s.price * s.qty as f64;
        w.form(ui, "details", |f| {
            if s.read_only {
                f.read_only();
            }
            f.edit("name", &name(), &mut s.name);
            f.edit("pin", &Input::secret("PIN").char_limit(4), &mut s.pin);
            f.edit("price", &price(), &mut s.price);
            f.edit("qty", &Input::integer("Qty", 1..=9), &mut s.qty);
            f.derived("total", &Input::number("Total", 0.0..=1e6).decimals(2), total, "price times qty");
        });
        w.label(ui, "intro", "Welcome to the shop");
        w.notice(ui, "stock", Severity::Warn, "Stock is low");
        let drop = ActionSpec::new("Drop an item").description("Drop the item at a row (0-based)");
        let options = TableOptions::new().agent_rows(2).row_button("Drop").row_action("drop", drop).height(120.0);
        if let Some(press) =
            w.table(ui, "items", &["Item", "Qty"], &s.items, |it, t| t.row((it.0.as_str(), it.1)), options)
        {
            let row = *press.args();
            s.dropped.push(row);
            press.ok(format!("Dropped row {row}"));
        }
        w.ordered_list(ui, "tags", &["new", "sale"]);
        w.media(ui, "logo", ("image/png", "data:image/png;base64,AA=="), "A round logo", |ui| {
            ui.label("[logo]");
        });
        if let Some(press) = w.button(ui, "ring", ActionSpec::new("Ring the bell")).inner {
            s.pressed += 1;
            press.ok("Rang");
        }
    });
}

fn shop(read_only: bool) -> Harness<'static, Shop> {
    let bridge = Bridge::builder().build();
    let items = vec![("apple".to_owned(), 3), ("pear".to_owned(), 1), ("plum".to_owned(), 7)];
    let state = Shop {
        bridge: bridge.clone(),
        name: "Ada".into(),
        pin: String::new(),
        price: 2.5,
        qty: 2,
        items,
        dropped: Vec::new(),
        pressed: 0,
        read_only,
    };
    let mut h = Harness::builder(&bridge).with_size([700.0, 800.0]).build_ui_state(app, state);
    h.run_steps(2);
    h
}

fn block(h: &Harness<'_, Shop>, id: &str) -> Value {
    let w = serde_json::to_value(h.window("shop").expect("declared")).expect("json");
    w["blocks"].as_array().expect("blocks").iter().find(|b| b["id"] == id).cloned().expect("the block")
}

fn field(h: &Harness<'_, Shop>, label: &str) -> Value {
    let items = block(h, "details")["items"].clone();
    items.as_array().expect("items").iter().find(|i| i["label"] == label).map(|i| i["value"].clone()).expect("field")
}

fn widget_value(h: &Harness<'_, Shop>, label: &str) -> String {
    h.get_by_label(label).value().unwrap_or_default()
}

#[test]
fn each_widget_shows_the_person_and_the_agent_the_same_thing() {
    let h = shop(false);
    // Fields: the widget's value is the field's.
    assert_eq!(widget_value(&h, "Name"), "Ada");
    assert_eq!(field(&h, "Name"), "Ada");
    assert_eq!(field(&h, "PIN"), "", "an empty secret");
    assert_eq!(field(&h, "Price"), 2.5);
    assert_eq!(field(&h, "Qty"), 2, "a whole number stays one");
    assert_eq!(field(&h, "Total"), 5.0);
    assert!(h.query_by_label("5.00").is_some(), "the person reads the derived total with its decimals");
    assert!(!h.get_by_label("Name").accesskit_node().is_disabled(), "editable");
    // Text, notice, list, media: the same words.
    assert!(h.query_by_label("Welcome to the shop").is_some());
    assert_eq!(block(&h, "intro")["text"], "Welcome to the shop");
    assert!(h.query_by_label("Stock is low").is_some());
    assert_eq!(block(&h, "stock")["severity"], "warn");
    assert!(h.query_by_label("1. new").is_some() && h.query_by_label("2. sale").is_some());
    let tags = block(&h, "tags");
    assert_eq!((tags["items"].clone(), tags["ordered"].clone()), (json!(["new", "sale"]), json!(true)));
    assert!(h.query_by_label("[logo]").is_some());
    let logo = block(&h, "logo");
    assert_eq!(
        (logo["url"].as_str(), logo["alt"].as_str()),
        (Some("data:image/png;base64,AA=="), Some("A round logo"))
    );
    // The table: the person sees every row, the agent the first two and the total.
    for item in ["apple", "pear", "plum"] {
        assert!(h.query_by_label(item).is_some(), "the person sees {item}");
    }
    let items = block(&h, "items");
    assert_eq!(items["rows"], json!([["apple", 3], ["pear", 1]]));
    assert_eq!((items["offset"].clone(), items["total"].clone()), (json!(0), json!(3)));
    assert_eq!(h.query_all_by_label("Drop").count(), 3, "a button per row for the person");
}

#[test]
fn a_change_by_either_shows_to_the_other() {
    let mut h = shop(false);
    // The person types: the agent reads it.
    h.get_by_label("Name").focus();
    h.run_steps(1);
    h.get_by_label("Name").type_text("!");
    h.run_steps(2);
    assert_eq!(field(&h, "Name"), "Ada!");
    // The agent edits: the person's widgets show it, the derived total follows.
    let r = h.call("shop__edit_field", json!({"field": "name", "value": "Grace"})).expect("accepted");
    assert_eq!(r.message.as_deref(), Some("Name updated"));
    h.run_steps(1);
    assert_eq!(widget_value(&h, "Name"), "Grace");
    h.call("shop__edit_field", json!({"field": "qty", "value": 4})).expect("accepted");
    h.run_steps(1);
    assert_eq!(h.state().qty, 4);
    assert_eq!(field(&h, "Total"), 10.0);
    assert!(h.query_by_label("10.00").is_some(), "the person sees the new total");
    // A secret: set, masked for the agent, never echoed.
    let r = h.call("shop__edit_field", json!({"field": "pin", "value": "4711"})).expect("accepted");
    assert!(!format!("{r:?}").contains("4711"));
    assert_eq!(field(&h, "PIN"), egui_mcp_bridge::protocol::MASK);
    assert_eq!(h.state().pin, "4711");
    // A row's button, and a button that is an action.
    h.get_all_by_label("Drop").nth(1).expect("a row").click();
    h.run_steps(1);
    assert_eq!(h.state().dropped, [1]);
    // The row's button as an action: any row of all of them (the agent read two of three).
    let r = h.call("shop__drop", json!({"row": 2})).expect("a row past the agent's page");
    assert_eq!(r.message.as_deref(), Some("Dropped row 2"));
    let e = h.call("shop__drop", json!({"row": 3})).expect_err("no such row");
    assert_eq!((e.fields.expect("per field")[0].error.as_str()), "must be 0 to 2");
    assert_eq!(h.state().dropped, [1, 2], "one handler for the person's click and the agent's call");
    h.call("shop__ring", json!({})).expect("rang");
    h.get_by_label("Ring the bell").click();
    h.run_steps(1);
    assert_eq!(h.state().pressed, 2, "one handler for the agent's call and the person's click");
}

#[test]
fn the_edit_tool_lists_exactly_the_editable_fields_and_their_rules() {
    let h = shop(false);
    let tool = h.snapshot().tools().iter().find(|t| t.name == "shop__edit_field").cloned().expect("derived");
    let schema = serde_json::to_value(&tool.input_schema).expect("json");
    assert_eq!(schema["properties"]["field"]["enum"], json!(["name", "pin", "price", "qty", "total"]));
    assert_eq!(schema["properties"]["value"]["type"], json!(["number", "string"]));
    assert_eq!(schema["properties"]["fields"]["type"], "object", "several at once");
    assert!(schema.get("required").is_none(), "one field or several: neither pair is required alone");
    let description = tool.description.clone();
    for rule in [
        "name (≤8 chars)",
        "pin (secret, ≤4 chars)",
        "price (0-100, 2 decimals)",
        "qty (1-9)",
        "total (= price times qty)",
    ] {
        assert!(description.contains(rule), "{rule:?} in {description:?}");
    }
    // Not editable (an order once submitted): no edit tool, and the person's fields are labels.
    let h = shop(true);
    assert!(!h.tool_names().contains(&"shop__edit_field".to_owned()));
    assert!(h.query_by_label("Ada").is_some());
    assert_eq!(field(&h, "Name"), "Ada");
}

#[test]
fn the_edit_tool_refuses_what_the_widget_would_not_hold_in_the_rules_words() {
    let mut h = shop(false);
    let refused = |h: &mut Harness<'_, Shop>, field: &str, value: Value| {
        let e = h.call("shop__edit_field", json!({"field": field, "value": value})).expect_err("refused");
        assert_eq!(e.code, ErrorCode::ValidationFailed);
        let f = e.fields.expect("names a parameter");
        (f[0].field.clone(), f[0].error.clone())
    };
    assert_eq!(
        refused(&mut h, "name", json!("Augustus Ada")),
        ("value".into(), "Name must be at most 8 characters".into())
    );
    assert_eq!(refused(&mut h, "qty", json!(0)), ("value".into(), "Qty must be 1 to 9".into()));
    assert_eq!(
        refused(&mut h, "price", json!(1.234)),
        ("value".into(), "Price must have at most 2 decimals, 0 to 100".into())
    );
    assert_eq!(refused(&mut h, "price", json!("cheap")), ("value".into(), "Price must be a number".into()));
    assert_eq!(refused(&mut h, "name", json!(7)), ("value".into(), "Name must be text".into()));
    let (param, error) = refused(&mut h, "colour", json!("red"));
    assert_eq!((param.as_str(), error.as_str()), ("field", "must be one of: name, pin, price, qty, total"));
    let (param, error) = refused(&mut h, "total", json!(6));
    assert_eq!(param, "value");
    assert!(error.contains("price times qty") && error.contains("5.00"), "{error}");
    assert!(h.call("shop__edit_field", json!({"field": "total", "value": 5})).is_ok(), "its own value is fine");
    assert_eq!((h.state().name.as_str(), h.state().qty, h.state().price), ("Ada", 2, 2.5), "nothing changed");
}

/// What the person's text edit holds after typing `text` into it, emptied first.
fn typed_into_name(text: &str) -> String {
    let mut h = shop(false);
    h.state_mut().name.clear();
    h.run_steps(1);
    h.get_by_label("Name").focus();
    h.run_steps(1);
    h.get_by_label("Name").type_text(text);
    h.run_steps(2);
    h.state().name.clone()
}

/// What the person's drag value holds after typing `text` into it and pressing Enter.
fn typed_into_price(text: &str) -> f64 {
    let mut h = shop(false);
    h.get_by_label("Price").click();
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.get_by_label("Price").type_text(text);
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    h.state().price
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The agent's value is accepted exactly when the person could type it into the widget.
    #[test]
    fn the_edit_tool_accepts_exactly_what_the_text_widget_holds(text in "[a-zA-Zéßü .\\-\n\t]{0,12}") {
        let widget_holds = typed_into_name(&text) == text;
        let mut h = shop(false);
        let accepted = h.call("shop__edit_field", json!({"field": "name", "value": text})).is_ok();
        prop_assert_eq!(accepted, widget_holds, "{:?}", text);
        prop_assert_eq!(accepted, name().check(&json!(text)).is_ok());
    }

    #[test]
    fn the_edit_tool_accepts_exactly_what_the_number_widget_holds(cents in -2_000i64..12_000, extra in prop::sample::select(vec![0.0, 0.001, 0.004])) {
        let value = cents as f64 / 100.0 + extra;
        let text = format!("{value}");
        let held = typed_into_price(&text);
        let widget_holds = (held - value).abs() < 1e-9;
        let mut h = shop(false);
        let accepted = h.call("shop__edit_field", json!({"field": "price", "value": value})).is_ok();
        prop_assert_eq!(accepted, widget_holds, "{} held as {}", text, held);
    }
}

/// One call fills a form: several fields at once, one version step, all or nothing; every
/// invalid field is named (§7.3) and nothing changes.
#[test]
fn the_edit_tool_sets_several_fields_at_once_all_or_none() {
    let mut h = shop(false);
    let v = h.window("shop").expect("declared").version;
    let r = h
        .call("shop__edit_field", json!({"fields": {"name": "Grace", "qty": 4, "price": 3.25}, "expectedVersion": v}))
        .expect("all valid");
    assert_eq!(r.version, Some(v + 1), "one version step");
    assert_eq!(r.message.as_deref(), Some("Name, Price, Qty updated"));
    assert_eq!((h.state().name.as_str(), h.state().qty, h.state().price), ("Grace", 4, 3.25));
    h.run_steps(1);
    assert_eq!(widget_value(&h, "Name"), "Grace", "the person's widgets show it");
    assert_eq!(field(&h, "Total"), 13.0);

    // Two invalid fields and a valid one: refused together, each named, nothing set.
    let e = h
        .call("shop__edit_field", json!({"fields": {"name": "Augustus Ada", "qty": 0, "price": 1.0}}))
        .expect_err("refused");
    assert_eq!(e.code, ErrorCode::ValidationFailed);
    let mut named: Vec<(String, String)> =
        e.fields.expect("per field").into_iter().map(|f| (f.field, f.error)).collect();
    named.sort();
    assert_eq!(
        named,
        [
            ("name".to_owned(), "Name must be at most 8 characters".to_owned()),
            ("qty".to_owned(), "Qty must be 1 to 9".to_owned())
        ]
    );
    assert_eq!((h.state().name.as_str(), h.state().qty, h.state().price), ("Grace", 4, 3.25), "nothing changed");
    // A derived field confirms its value; an unknown key is named; both forms at once are refused.
    h.call("shop__edit_field", json!({"fields": {"total": 13, "qty": 4}})).expect("the total it has");
    let e = h.call("shop__edit_field", json!({"fields": {"colour": "red"}})).expect_err("unknown");
    assert_eq!(e.fields.expect("per field")[0].field, "colour");
    let e = h.call("shop__edit_field", json!({"field": "qty", "value": 2, "fields": {"qty": 3}})).expect_err("both");
    assert_eq!(e.code, ErrorCode::ValidationFailed);
    // The one-field form keeps working.
    h.call("shop__edit_field", json!({"field": "qty", "value": 2})).expect("one field");
    assert_eq!(h.state().qty, 2);
}

/// Where a string is taken, an owned one is too (`Into<Cell>` from `String`): a value made on
/// the spot (`format!`) is declared and shown without a binding to borrow from.
#[test]
fn an_owned_string_is_a_value_as_a_borrowed_one_is() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let mut h = Harness::new_ui_state(
        &bridge,
        move |ui, count: &mut u32| {
            b.window("w").title("W").ui(ui, |w, ui| {
                w.form(ui, "f", |f| {
                    f.value("Count", format!("{count} items"));
                });
                w.agents().fields("more", |f| f.field("Twice", format!("{} items", *count * 2)));
            });
        },
        3,
    );
    h.run();
    assert!(h.query_by_label("3 items").is_some(), "the person reads it");
    let state = serde_json::to_value(h.window("w").expect("declared")).expect("json");
    assert_eq!(state["blocks"][0]["items"][0]["value"], "3 items", "{state}");
    assert_eq!(state["blocks"][1]["items"][0]["value"], "6 items", "{state}");
}

/// A link's text may be rich: the person reads it styled, agents read its words and the URL.
#[test]
fn a_rich_text_link_is_read_by_its_words() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let mut h = Harness::builder(&bridge).build_ui(move |ui| {
        b.window("w").title("W").ui(ui, |w, ui| {
            let text = egui::RichText::new("The manual").strong();
            w.hyperlink(ui, "manual", text, "https://example.org/manual");
        });
    });
    h.run();
    assert!(h.query_by_label("The manual").is_some());
    let state = serde_json::to_value(h.window("w").expect("declared")).expect("json");
    assert_eq!(state["blocks"][0]["text"], "The manual: https://example.org/manual", "{state}");
}

/// Several fields in one call are checked by the rules of the window's last declaration, which
/// the bridge keeps while they are the same: a derived total that changed since is checked at
/// its new value, not the one it had when the rules were first made.
#[test]
fn several_fields_are_checked_against_a_derived_value_as_it_is_now() {
    let mut h = shop(false);
    // Quiet passes: the rules are the same, and kept.
    h.run_steps(3);
    h.call("shop__edit_field", json!({"field": "qty", "value": 4})).expect("accepted");
    h.run_steps(3);
    assert_eq!(field(&h, "Total"), 10.0);
    // The total as it is now is confirmed with another field; the old total is refused.
    let stale = h.call("shop__edit_field", json!({"fields": {"total": 5.0, "name": "Bo"}}));
    assert!(stale.is_err(), "{stale:?}");
    h.call("shop__edit_field", json!({"fields": {"total": 10.0, "name": "Bo"}})).expect("the total as it is");
    assert_eq!(h.state().name, "Bo");
}
