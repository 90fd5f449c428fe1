//! The input kinds real apps use, each described once (`Input` + `Form::edit` / `Form::choice`):
//! a yes/no (checkbox, switch), a choice (combo box, radio buttons), numbers of Rust's other
//! types (a `usize` slider, an `f32` drag value with a unit, a formatter), several lines of text
//! and a colour. For each: the person and the agent read the same value, a change by either
//! shows to the other, the state names the key that edits it, and a refusal names `value` in the
//! rule's words. Then what the app disables: the person cannot use it and neither can the agent,
//! and the tool list follows when the app enables it again. Property tests: `edit_field` accepts
//! exactly what each widget can hold.

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode, Input};
use proptest::prelude::*;
use serde_json::{Value, json};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Parity {
    None,
    Even,
    Odd,
}

const PARITY: [(Parity, &str); 3] = [(Parity::None, "None"), (Parity::Even, "Even"), (Parity::Odd, "Odd")];
const BAUDS: [(u32, &str); 3] = [(9600, "9600"), (19_200, "19200"), (115_200, "115200")];

struct Monitor {
    bridge: Bridge,
    timestamps: bool,
    autoscroll: bool,
    baud: u32,
    parity: Parity,
    plots: usize,
    window: f32,
    max_lines: usize,
    level: u8,
    notes: String,
    color: egui::Color32,
    port: String,
    connected: bool,
    paused: bool,
    helped: usize,
    highlight: [u8; 4],
}

fn max_lines(n: f64) -> String {
    if n == 0.0 { "∞".to_owned() } else { format!("{n}") }
}

fn level() -> egui_mcp_bridge::NumberInput {
    Input::integer("Level", -5..=300)
}

fn window() -> egui_mcp_bridge::NumberInput {
    Input::number("Window", 0.0..=60.0).decimals(1).suffix(" s")
}

fn app(ui: &mut egui::Ui, s: &mut Monitor) {
    let bridge = s.bridge.clone();
    bridge.window("monitor").title("Monitor").summary("A serial monitor").ui(ui, |w, ui| {
        w.form(ui, "settings", |f| {
            f.edit("timestamps", &Input::checkbox("Timestamps"), &mut s.timestamps);
            f.edit("autoscroll", &Input::checkbox("Autoscroll").switch(), &mut s.autoscroll);
            f.choice("baud", &Input::choice("Baud rate"), &mut s.baud, &BAUDS);
            f.choice("parity", &Input::choice("Parity").radio(), &mut s.parity, &PARITY);
            f.edit("plots", &Input::integer("Number of plots", 1..=10).slider(), &mut s.plots);
            f.edit("window", &window(), &mut s.window);
            let lines = Input::integer("Max lines", 0..=100_000).formatter(max_lines).hint("0 means no limit");
            f.edit("max_lines", &lines, &mut s.max_lines);
            f.edit("level", &level(), &mut s.level);
            f.edit("notes", &Input::text("Notes").multiline(), &mut s.notes);
            f.edit("color", &Input::color("Colour"), &mut s.color);
            f.edit("paused", &Input::checkbox("Paused").selectable(), &mut s.paused);
            f.edit("highlight", &Input::color("Highlight"), &mut s.highlight);
        });
        if let Some(press) = w.link(ui, "help", ActionSpec::new("Show help")).inner {
            s.helped += 1;
            press.ok("Help shown");
        }
        w.hyperlink(ui, "docs", "Manual", "https://example.com/manual");
        // The app disables its port controls while connected, as real apps do.
        ui.add_enabled_ui(!s.connected, |ui| {
            w.form(ui, "port", |f| {
                f.edit("port", &Input::text("Port").placeholder("e.g. /dev/ttyUSB0").width(160.0), &mut s.port);
            });
            let connect = ActionSpec::new("Connect").description("Opens the serial port");
            if let Some(press) = w.button(ui, "connect", connect).inner {
                s.connected = true;
                press.ok("Connected");
            }
        });
        ui.add_enabled_ui(s.connected, |ui| {
            if let Some(press) = w.button(ui, "disconnect", ActionSpec::new("Disconnect")).inner {
                s.connected = false;
                press.ok("Disconnected");
            }
        });
    });
}

fn monitor() -> Harness<'static, Monitor> {
    let bridge = Bridge::builder().build();
    let state = Monitor {
        bridge: bridge.clone(),
        timestamps: false,
        autoscroll: true,
        baud: 9600,
        parity: Parity::None,
        plots: 2,
        window: 12.5,
        max_lines: 0,
        level: 7,
        notes: "first\nsecond".into(),
        color: egui::Color32::from_rgb(255, 128, 0),
        port: "/dev/ttyUSB0".into(),
        connected: false,
        paused: false,
        helped: 0,
        highlight: [255, 255, 0, 128],
    };
    let mut h = Harness::builder(&bridge).with_size([700.0, 900.0]).build_ui_state(app, state);
    h.run_steps(2);
    h
}

/// The field item with this label, as the agent reads it.
fn item(h: &Harness<'_, Monitor>, label: &str) -> Value {
    let w = serde_json::to_value(h.window("monitor").expect("declared")).expect("json");
    let items =
        w["blocks"].as_array().expect("blocks").iter().flat_map(|b| b["items"].as_array().cloned().unwrap_or_default());
    items.into_iter().find(|i| i["label"] == label).expect("the field")
}

fn field(h: &Harness<'_, Monitor>, label: &str) -> Value {
    item(h, label)["value"].clone()
}

fn edit(h: &mut Harness<'_, Monitor>, key: &str, value: impl Into<Value>) -> Result<(), (String, String)> {
    match h.call("monitor__edit_field", json!({"field": key, "value": value.into()})) {
        Ok(_) => Ok(()),
        Err(e) => {
            let f = e.fields.unwrap_or_default();
            Err(f.first().map(|f| (f.field.clone(), f.error.clone())).unwrap_or((format!("{:?}", e.code), e.message)))
        }
    }
}

fn toggled(h: &Harness<'_, Monitor>, label: &str) -> Option<bool> {
    h.get_by_label(label).accesskit_node().toggled().map(|t| t == egui::accesskit::Toggled::True)
}

#[test]
fn each_input_kind_shows_the_person_and_the_agent_the_same_value() {
    let h = monitor();
    assert_eq!((field(&h, "Timestamps"), toggled(&h, "Timestamps")), (json!(false), Some(false)));
    assert_eq!((field(&h, "Autoscroll"), toggled(&h, "Autoscroll")), (json!(true), Some(true)));
    assert_eq!(field(&h, "Baud rate"), "9600");
    assert_eq!(h.get_by_label("Baud rate").value().as_deref(), Some("9600"), "the combo box shows the chosen option");
    assert_eq!(field(&h, "Parity"), "None");
    assert_eq!(toggled(&h, "None"), Some(true), "the chosen radio button");
    assert_eq!(field(&h, "Number of plots"), 2, "a usize is a whole number");
    assert_eq!(field(&h, "Window"), 12.5, "an f32 by its shortest form");
    assert_eq!(field(&h, "Max lines"), 0, "agents read the number");
    assert_eq!(h.get_by_label("Max lines").value().as_deref(), Some("∞"), "the person reads the app's formatting");
    assert_eq!(h.get_by_label("Window").value().as_deref(), Some("12.5 s"), "and the unit");
    assert_eq!(h.get_by_label("Max lines").accesskit_node().description().as_deref(), Some("0 means no limit"));
    assert_eq!(h.get_by_label("Connect").accesskit_node().description().as_deref(), Some("Opens the serial port"));
    assert_eq!(field(&h, "Notes"), "first\nsecond");
    assert_eq!(field(&h, "Colour"), "#ff8000");
    // Each editable field names the key that edits it.
    for (label, key) in [("Timestamps", "timestamps"), ("Baud rate", "baud"), ("Number of plots", "plots")] {
        assert_eq!(item(&h, label)["key"], key);
    }
    let tool = h.snapshot().tools().iter().find(|t| t.name == "monitor__edit_field").cloned().expect("derived");
    for rule in [
        "timestamps (true/false)",
        "baud (one of: 9600, 19200, 115200)",
        "parity (one of: None, Even, Odd)",
        "plots (1-10)",
        "window (0-60 s, 1 decimals)",
        "max_lines (0-100000; 0 means no limit)",
        "level (0-255)",
        "notes (lines, ≤1000 chars)",
        "color (#rrggbb or #rrggbbaa)",
    ] {
        assert!(tool.description.contains(rule), "{rule:?} in {:?}", tool.description);
    }
    let schema = serde_json::to_value(&tool.input_schema).expect("json");
    assert_eq!(schema["properties"]["value"]["type"], json!(["boolean", "number", "string"]));
}

#[test]
fn a_change_by_either_shows_to_the_other() {
    let mut h = monitor();
    // The person.
    h.get_by_label("Timestamps").click();
    h.get_by_label("Autoscroll").click();
    h.get_by_label("Odd").click();
    h.run_steps(2);
    assert_eq!((h.state().timestamps, h.state().autoscroll, h.state().parity), (true, false, Parity::Odd));
    assert_eq!(
        (field(&h, "Timestamps"), field(&h, "Autoscroll"), field(&h, "Parity")),
        (json!(true), json!(false), json!("Odd"))
    );
    h.get_by_label("Baud rate").click();
    h.run_steps(2);
    h.get_by_label("115200").click();
    h.run_steps(2);
    assert_eq!((h.state().baud, field(&h, "Baud rate")), (115_200, json!("115200")), "chosen in the combo box");
    // The agent.
    edit(&mut h, "timestamps", json!(false)).expect("a bool");
    edit(&mut h, "autoscroll", json!("true")).expect("a bool as text");
    edit(&mut h, "baud", json!("19200")).expect("an option");
    edit(&mut h, "parity", json!("even")).expect("an option, whatever its case");
    edit(&mut h, "plots", json!(7)).expect("in range");
    edit(&mut h, "window", json!(2.5)).expect("in range");
    edit(&mut h, "notes", json!("one\ntwo\nthree")).expect("lines");
    edit(&mut h, "color", json!("#00FF0080")).expect("a colour");
    h.run_steps(1);
    let s = h.state();
    assert_eq!((s.timestamps, s.autoscroll, s.baud, s.parity), (false, true, 19_200, Parity::Even));
    assert_eq!((s.plots, s.window, s.notes.as_str()), (7, 2.5, "one\ntwo\nthree"));
    assert_eq!(s.color.to_srgba_unmultiplied(), [0, 255, 0, 128]);
    assert_eq!(
        (toggled(&h, "Timestamps"), toggled(&h, "Autoscroll"), toggled(&h, "Even")),
        (Some(false), Some(true), Some(true))
    );
    assert_eq!(h.get_by_label("Baud rate").value().as_deref(), Some("19200"), "the combo box shows the agent's choice");
    assert_eq!(field(&h, "Colour"), "#00ff0080");
}

#[test]
fn refusals_name_value_in_the_rules_words_and_change_nothing() {
    let mut h = monitor();
    let refused = |h: &mut Harness<'_, Monitor>, key: &str, value: Value| edit(h, key, value).expect_err("refused");
    let value = |e: &str| ("value".to_owned(), e.to_owned());
    assert_eq!(refused(&mut h, "timestamps", json!("yes")), value("Timestamps must be true or false"));
    assert_eq!(refused(&mut h, "baud", json!("1234")), value("Baud rate must be one of: 9600, 19200, 115200"));
    assert_eq!(refused(&mut h, "parity", json!(1)), value("Parity must be one of: None, Even, Odd"));
    assert_eq!(refused(&mut h, "plots", json!(11)), value("Number of plots must be 1 to 10"));
    assert_eq!(refused(&mut h, "plots", json!(2.5)), value("Number of plots must be a whole number, 1 to 10"));
    assert_eq!(refused(&mut h, "window", json!(2.25)), value("Window must have at most 1 decimal, 0 to 60"));
    assert_eq!(refused(&mut h, "level", json!(-1)), value("Level must be 0 to 255"), "a u8 holds no -1");
    assert_eq!(refused(&mut h, "color", json!("orange")), value("Colour must be a colour as #rrggbb or #rrggbbaa"));
    let s = h.state();
    assert_eq!((s.timestamps, s.baud, s.parity, s.plots, s.level), (false, 9600, Parity::None, 2, 7));
}

#[test]
fn what_the_app_disables_neither_the_person_nor_the_agent_can_use() {
    let mut h = monitor();
    assert!(h.tool_names().contains(&"monitor__connect".to_owned()));
    assert!(!h.tool_names().contains(&"monitor__disconnect".to_owned()), "drawn disabled: not offered");
    assert_eq!(item(&h, "Port")["key"], "port");
    let e = h.call("monitor__disconnect", json!({})).expect_err("not available");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);

    // Connected: the port controls are disabled for both, in the state the call's answer follows.
    let r = h.call("monitor__connect", json!({})).expect("connects");
    assert_eq!(r.message.as_deref(), Some("Connected"));
    let tools = h.tool_names();
    assert!(
        !tools.contains(&"monitor__connect".to_owned()) && tools.contains(&"monitor__disconnect".to_owned()),
        "{tools:?}"
    );
    let port = item(&h, "Port");
    assert_eq!((port["disabled"].clone(), port.get("key")), (json!(true), None), "{port}");
    assert!(h.get_by_label("Port").accesskit_node().is_disabled(), "and for the person");
    assert_eq!(
        edit(&mut h, "port", json!("/dev/ttyACM0")),
        Err(("field".to_owned(), "Port cannot be changed now (it is disabled)".to_owned()))
    );
    assert_eq!(h.state().port, "/dev/ttyUSB0", "nothing changed");
    let e = h.call("monitor__connect", json!({})).expect_err("not available");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    h.get_by_label("Connect").click();
    h.run_steps(2);
    assert!(h.state().connected, "the person cannot press it either");

    // The person disconnects. The click comes after Connect was drawn (disabled) in that pass:
    // the bridge asks for the next pass itself, and the tool list follows without another event
    // (`run` steps only while a pass is asked for).
    h.get_by_label("Disconnect").click();
    h.run();
    assert!(!h.state().connected);
    assert!(h.tool_names().contains(&"monitor__connect".to_owned()));
    assert_eq!(item(&h, "Port")["key"], "port");
}

/// An owner whose controls the app draws disabled while a flag is set, and a dialog over it. A
/// dialog's close must republish the owner's controls at once: the owner was declared while
/// blocked (disabled by the bridge, not by the app).
#[test]
fn controls_blocked_by_a_dialog_come_back_in_the_state_that_closes_it() {
    struct S {
        bridge: Bridge,
        asking: bool,
        count: i64,
    }
    let bridge = Bridge::builder().build();
    let app = |ui: &mut egui::Ui, s: &mut S| {
        let b = s.bridge.clone();
        b.window("main").title("Main").ui(ui, |w, ui| {
            ui.add_enabled_ui(s.count < 5, |ui| {
                if let Some(press) = w.button(ui, "add", ActionSpec::new("Add")).inner {
                    s.count += 1;
                    press.ok("Added");
                }
            });
            if let Some(press) = w.button(ui, "ask", ActionSpec::new("Ask")).inner {
                s.asking = true;
                press.ok("Asking");
            }
        });
        if s.asking {
            b.window("sure").title("Sure?").modal_of("main").ui(ui, |d, ui| {
                if let Some(press) = d.button(ui, "yes", ActionSpec::new("Yes")).inner {
                    s.asking = false;
                    press.ok("Closed");
                }
            });
        }
    };
    let state = S { bridge: bridge.clone(), asking: false, count: 0 };
    let mut h = Harness::builder(&bridge).with_size([500.0, 400.0]).build_ui_state(app, state);
    h.run_steps(2);
    h.call("main__ask", json!({})).expect("opens the dialog");
    h.run_steps(2);
    assert!(h.snapshot().tools().iter().all(|t| !t.name.starts_with("main__")));
    h.call("sure__yes", json!({})).expect("closes it");
    assert!(h.tool_names().contains(&"main__add".to_owned()), "back in the state the answer followed");
}

/// What the person's `u8` drag value holds after typing `text` and pressing Enter.
fn typed_into(label: &str, text: &str) -> Monitor {
    let mut h = monitor();
    h.get_by_label(label).click();
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.get_by_label(label).type_text(text);
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    let s = h.state();
    Monitor { bridge: s.bridge.clone(), port: s.port.clone(), notes: s.notes.clone(), ..*s }
}

/// What the person's multi-line text edit holds after typing `text` into it, emptied first: a
/// line break with the Enter key, as a person types one (egui takes a lone "\n" text event for
/// no text).
fn typed_into_notes(text: &str) -> String {
    let mut h = monitor();
    h.state_mut().notes.clear();
    h.run_steps(1);
    h.get_by_label("Notes").focus();
    h.run_steps(1);
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            h.key_press(egui::Key::Enter);
            h.run_steps(1);
        }
        if !line.is_empty() {
            h.get_by_label("Notes").type_text(line);
            h.run_steps(1);
        }
    }
    h.run_steps(1);
    h.state().notes.clone()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Several lines: the agent's text is taken exactly when the person could type it.
    #[test]
    fn the_edit_tool_accepts_exactly_what_a_multiline_widget_holds(text in "[a-zé .\n\t]{0,12}") {
        let widget_holds = typed_into_notes(&text) == text;
        let mut h = monitor();
        let accepted = edit(&mut h, "notes", json!(text)).is_ok();
        prop_assert_eq!(accepted, widget_holds, "{:?}", text);
        if accepted {
            prop_assert_eq!(&h.state().notes, &text);
        }
    }

    /// A `u8` field whose input allows -5 to 300: the widget holds 0 to 255, and so does the edit.
    #[test]
    fn the_edit_tool_accepts_exactly_what_an_u8_widget_holds(n in -20i64..320) {
        let held = typed_into("Level", &n.to_string()).level;
        let widget_holds = i64::from(held) == n;
        let mut h = monitor();
        let accepted = edit(&mut h, "level", json!(n)).is_ok();
        prop_assert_eq!(accepted, widget_holds, "{} held as {}", n, held);
        if accepted {
            prop_assert_eq!(i64::from(h.state().level), n);
        }
    }

    /// An `f32` field with one decimal and a unit: typed with or without the unit.
    #[test]
    fn the_edit_tool_accepts_exactly_what_an_f32_widget_holds(tenths in -30i64..640, extra in prop::sample::select(vec![0.0, 0.05])) {
        let value = tenths as f64 / 10.0 + extra;
        let held = typed_into("Window", &format!("{value}")).window;
        let widget_holds = held == value as f32;
        let mut h = monitor();
        let accepted = edit(&mut h, "window", json!(value)).is_ok();
        prop_assert_eq!(accepted, widget_holds, "{} held as {}", value, held);
        prop_assert_eq!(accepted, window().check(&json!(value)).is_ok() && (0.0..=60.0).contains(&value));
    }

    /// A choice: exactly its options (by text, whatever the case), nothing else.
    #[test]
    fn the_edit_tool_accepts_exactly_the_options(text in prop::sample::select(vec!["9600", "19200", "115200", "4800", "", "96OO", " 9600 "])) {
        let mut h = monitor();
        let accepted = edit(&mut h, "baud", json!(text)).is_ok();
        let option = BAUDS.iter().find(|(_, t)| t.eq_ignore_ascii_case(text.trim()));
        prop_assert_eq!(accepted, option.is_some(), "{:?}", text);
        if let Some((baud, _)) = option {
            prop_assert_eq!(h.state().baud, *baud);
        }
    }

    /// A colour in four bytes, alpha not premultiplied: egui's picker changes some nearly
    /// transparent colours on its way through its own colour space. The agent's edit is taken
    /// exactly when the picker holds the colour as it is, and then reads back the same.
    #[test]
    fn the_edit_tool_accepts_exactly_the_colours_the_picker_holds(rgba in any::<[u8; 4]>(), low_alpha in any::<bool>()) {
        let rgba = if low_alpha { [rgba[0], rgba[1], rgba[2], rgba[3] % 4] } else { rgba };
        let text = if rgba[3] == 255 {
            format!("#{:02x}{:02x}{:02x}", rgba[0], rgba[1], rgba[2])
        } else {
            format!("#{:02x}{:02x}{:02x}{:02x}", rgba[0], rgba[1], rgba[2], rgba[3])
        };
        // What the person's picker holds: the app's value drawn once by egui.
        let mut h = monitor();
        h.state_mut().highlight = rgba;
        h.run_steps(1);
        let held = h.state().highlight;
        let mut h = monitor();
        let accepted = edit(&mut h, "highlight", json!(text)).is_ok();
        prop_assert_eq!(accepted, held == rgba, "{} held as {:?}", text, held);
        if accepted {
            h.run_steps(1);
            prop_assert_eq!(field(&h, "Highlight"), json!(text));
            prop_assert_eq!(h.state().highlight, rgba);
        }
    }

    /// A colour: what the agent sets reads back the same, and the picker holds it.
    #[test]
    fn a_colour_set_by_the_agent_reads_back_the_same(rgb in any::<[u8; 3]>()) {
        let text = format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
        let mut h = monitor();
        prop_assert!(edit(&mut h, "color", json!(text)).is_ok());
        h.run_steps(1);
        prop_assert_eq!(field(&h, "Colour"), json!(text));
        prop_assert_eq!(h.state().color, egui::Color32::from_rgb(rgb[0], rgb[1], rgb[2]));
    }
}

#[test]
fn toggles_links_and_hyperlinks_are_described_once() {
    let mut h = monitor();
    // A selectable label that stays pressed (egui's toggle_value).
    assert_eq!(field(&h, "Paused"), false);
    h.get_all_by_label("Paused").last().expect("the toggle").click();
    h.run_steps(2);
    assert_eq!((h.state().paused, field(&h, "Paused")), (true, json!(true)));
    edit(&mut h, "paused", false).expect("the agent");
    assert!(!h.state().paused);
    // A link that does something: one handler for the click and the call.
    h.get_by_label("Show help").click();
    h.run_steps(2);
    h.call("monitor__help", json!({})).expect("the agent");
    assert_eq!(h.state().helped, 2);
    // A hyperlink: the agent reads where it goes.
    let w = serde_json::to_value(h.window("monitor").expect("declared")).expect("json");
    let docs = w["blocks"].as_array().expect("blocks").iter().find(|b| b["id"] == "docs").cloned().expect("declared");
    assert_eq!(docs["text"], "Manual: https://example.com/manual");
    assert!(h.query_by_label("Manual").is_some());
    // The person's styling options: a text edit's placeholder (shown while it is empty).
    h.state_mut().port.clear();
    h.run_steps(1);
    assert_eq!(h.get_by_label("Port").accesskit_node().placeholder(), Some("e.g. /dev/ttyUSB0"));
}
