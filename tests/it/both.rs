//! One description, both audiences (`WindowBuilder::ui`, `WindowUi::form`,
//! `WindowUi::button`): the same code draws the person's widgets and declares the agent's
//! view, so what the person types is what the agent reads, and a button and its action share
//! one handler. Driven with the kittest harness (a person) and an agent on the same app.

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, Input};
use serde_json::{Value, json};

#[derive(Default)]
struct Profile {
    bridge: Option<Bridge>,
    name: String,
    pin: String,
    count: i64,
    asking: bool,
}

fn app(ui: &mut egui::Ui, s: &mut Profile) {
    let Some(bridge) = s.bridge.clone() else { return };
    let summary = format!("{} has counted {}", s.name, s.count);
    bridge.window("profile").title("Profile").summary(summary).ui(ui, |w, ui| {
        w.form(ui, "details", |f| {
            f.edit("name", &Input::text("Name"), &mut s.name);
            f.edit("pin", &Input::secret("PIN"), &mut s.pin);
            f.value("Count", s.count);
        });
        if let Some(press) = w.button(ui, "add_one", ActionSpec::new("Add one")).inner {
            s.count += 1;
            press.ok("Added one");
        }
        if let Some(press) = w.button(ui, "reset", ActionSpec::new("Reset").destructive()).inner {
            s.asking = true;
            press.ok("Asked for confirmation");
        }
    });
    if s.asking {
        bridge.window("sure").title("Sure?").modal_of("profile").ui(ui, |w, ui| {
            if let Some(press) = w.button(ui, "yes", ActionSpec::new("Reset now").destructive()).inner {
                s.count = 0;
                s.asking = false;
                press.ok("Reset");
            }
        });
    }
}

fn harness() -> Harness<'static, Profile> {
    let bridge = Bridge::builder().build();
    let state = Profile { bridge: Some(bridge.clone()), name: "Ada".into(), ..Profile::default() };
    Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(app, state)
}

/// The person clicks into the field labelled `label` and types `text`, a pass each.
fn type_into<S>(h: &mut Harness<'_, S>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run_steps(1);
    h.get_by_label(label).type_text(text);
    h.run_steps(1);
}

fn field(h: &Harness<'_, Profile>, label: &str) -> Value {
    let w = h.window("profile").expect("declared");
    let state = serde_json::to_value(&w).expect("json");
    let items = state["blocks"][0]["items"].as_array().expect("a fields block").clone();
    items.into_iter().find(|i| i["label"] == label).map(|i| i["value"].clone()).expect("the field")
}

#[test]
fn what_the_person_types_is_what_the_agent_reads() {
    let mut h = harness();
    assert_eq!(field(&h, "Name"), "Ada");
    assert_eq!(field(&h, "Count"), 0, "a number stays a number");
    assert_eq!(field(&h, "PIN"), "", "an empty secret");
    let before = h.window("profile").expect("declared").version;

    type_into(&mut h, "Name", " Lovelace");
    type_into(&mut h, "PIN", "4711");
    h.run_steps(1);
    let name = h.state().name.clone();
    assert!(name.contains("Lovelace") && name.contains("Ada"), "the person typed: {name:?}");
    assert_eq!(field(&h, "Name"), name.as_str(), "the agent reads what the person typed");
    assert_eq!(field(&h, "PIN"), egui_mcp_bridge::protocol::MASK, "masked at the source");
    assert!(!serde_json::to_string(&h.snapshot().state()).expect("json").contains("4711"));
    assert!(h.window("profile").expect("declared").version > before);
}

#[test]
fn a_button_and_its_action_share_one_handler() {
    let mut h = harness();
    h.get_by_label("Add one").click();
    h.run_steps(2);
    assert_eq!(h.state().count, 1, "the person's click");
    let r = h.call("profile__add_one", json!({})).expect("the agent's call");
    assert_eq!(r.message.as_deref(), Some("Added one"));
    assert_eq!(h.state().count, 2, "the same handler");
    assert_eq!(field(&h, "Count"), 2);
}

#[test]
fn a_dialog_blocks_its_owner_for_both_and_is_answered_on_top() {
    let mut h = harness();
    let r = h.call("profile__reset", json!({})).expect("opens the dialog");
    assert!(r.opened_window_ids.contains(&"sure".to_owned()), "{r:?}");
    h.run_steps(2);
    assert!(!h.tool_names().contains(&"profile__add_one".to_owned()), "blocked for the agent");
    h.get_by_label("Add one").click();
    h.run_steps(2);
    assert_eq!(h.state().count, 0, "and disabled for the person");
    let ctx = h.ctx.clone();
    let top = ctx.memory(|m| m.areas().top_layer_id(egui::Order::Foreground)).expect("a dialog on top");
    let at = h.get_by_label("Reset now").rect().center();
    assert_eq!(ctx.layer_id_at(at), Some(top), "the dialog is where the person can answer it");
    h.get_by_label("Reset now").click();
    h.run_steps(3);
    assert!(!h.state().asking, "answered by the person");
    assert!(h.tool_names().contains(&"profile__add_one".to_owned()), "the owner is operable again");
}

/// A gesture with arguments (a PIN field and Unlock) and the agent's `unlock {pin}`: the same
/// typed arguments, one handler; a wrong PIN is refused for both; drawn disabled, it is not
/// offered.
#[test]
fn a_gesture_and_its_action_give_the_same_arguments_to_one_handler() {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Unlock {
        pin: String,
    }
    #[derive(Default)]
    struct Lock {
        bridge: Option<Bridge>,
        typed: String,
        unlocked: usize,
        wrong: usize,
        frozen: bool,
    }
    let app = |ui: &mut egui::Ui, s: &mut Lock| {
        let Some(bridge) = s.bridge.clone() else { return };
        bridge.window("lock").title("Lock").ui(ui, |w, ui| {
            ui.add_enabled_ui(!s.frozen, |ui| {
                let typed = &mut s.typed;
                let gesture = w.gesture(ui, "unlock", ActionSpec::new("Unlock"), |ui| {
                    let l = ui.label("PIN");
                    ui.add(egui::TextEdit::singleline(typed)).labelled_by(l.id);
                    ui.button("Unlock").clicked().then(|| Unlock { pin: std::mem::take(typed) })
                });
                if let Some(gesture) = gesture {
                    gesture.handle(|a| {
                        if a.pin == "1234" {
                            s.unlocked += 1;
                            Ok(egui_mcp_bridge::ToolResult::message("Unlocked"))
                        } else {
                            s.wrong += 1;
                            Err(egui_mcp_bridge::ToolError::invalid_field("pin", "Wrong PIN"))
                        }
                    });
                }
            });
        });
    };
    let bridge = Bridge::builder().build();
    let state = Lock { bridge: Some(bridge.clone()), ..Lock::default() };
    let mut h = Harness::builder(&bridge).with_size([400.0, 300.0]).build_ui_state(app, state);
    h.run_steps(2);
    // The person.
    type_into(&mut h, "PIN", "1234");
    h.get_by_label("Unlock").click();
    h.run_steps(2);
    assert_eq!((h.state().unlocked, h.state().typed.as_str()), (1, ""));
    // The agent: the schema is the arguments', a wrong PIN is refused by the same handler.
    let tool = h.snapshot().tools().iter().find(|t| t.name == "lock__unlock").cloned().expect("offered");
    assert!(serde_json::to_value(&tool.input_schema).expect("json")["properties"]["pin"].is_object());
    h.call("lock__unlock", json!({"pin": "1234"})).expect("unlocked");
    let e = h.call("lock__unlock", json!({"pin": "0000"})).expect_err("wrong");
    assert_eq!(e.fields.expect("per field")[0].error, "Wrong PIN");
    assert_eq!((h.state().unlocked, h.state().wrong), (2, 1));
    // Drawn disabled: not offered.
    h.state_mut().frozen = true;
    h.run_steps(2);
    assert!(!h.tool_names().contains(&"lock__unlock".to_owned()));
}

/// A gesture whose effect takes time: `defer` gives the arguments and a `Deferred`; the agent's
/// call is answered on a later pass, once the effect is in place; the person's needs no answer.
#[test]
fn a_deferred_gesture_is_answered_once_its_effect_is_in_place() {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Save {
        name: String,
    }
    #[derive(Default)]
    struct Saver {
        bridge: Option<Bridge>,
        saving: Option<(String, egui_mcp_bridge::Deferred, u32)>,
        saved: Vec<String>,
    }
    let app = |ui: &mut egui::Ui, s: &mut Saver| {
        let Some(bridge) = s.bridge.clone() else { return };
        // The pretend disk takes three passes.
        if let Some((name, deferred, passes)) = s.saving.take() {
            if passes == 0 {
                s.saved.push(name);
                deferred.ok("Saved");
            } else {
                s.saving = Some((name, deferred, passes - 1));
                ui.ctx().request_repaint();
            }
        }
        bridge.window("file").title("File").summary(format!("{} saved", s.saved.len())).ui(ui, |w, ui| {
            let save = w.gesture(ui, "save", ActionSpec::new("Save as"), |ui| {
                ui.button("Save as report").clicked().then(|| Save { name: "report".into() })
            });
            if let Some(gesture) = save {
                let (args, deferred) = gesture.defer_with_args();
                s.saving = Some((args.name, deferred, 3));
            }
        });
    };
    let bridge = Bridge::builder().build();
    let state = Saver { bridge: Some(bridge.clone()), ..Saver::default() };
    let mut h = Harness::builder(&bridge).with_size([400.0, 300.0]).build_ui_state(app, state);
    h.run_steps(2);
    let r = h.call("file__save", json!({"name": "notes"})).expect("answered after the save");
    assert_eq!(r.message.as_deref(), Some("Saved"));
    assert_eq!(h.state().saved, ["notes"], "answered once the effect was in place");
    assert_eq!(r.version, h.window("file").map(|w| w.version), "with the state that shows it");
    h.get_by_label("Save as report").click();
    h.run_steps(6);
    assert_eq!(h.state().saved, ["notes", "report"], "the person's, answered to nobody");
}

/// The one press type in each of its uses: a button, a gesture with arguments, a table's row
/// and a menu item each hand the app a `Press`, which one generic handler answers whoever
/// pressed; the person's presses need no answer, the agent's get the handler's.
#[test]
fn one_press_type_for_a_button_a_gesture_a_row_and_a_menu_item() {
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    struct Say {
        #[expect(dead_code, reason = "read through Debug, in the log")]
        word: String,
    }
    #[derive(Default)]
    struct Presses {
        bridge: Option<Bridge>,
        log: Vec<String>,
    }
    /// One handler for every kind of press: its arguments, who pressed, one answer.
    fn record<A: std::fmt::Debug>(log: &mut Vec<String>, what: &str, press: egui_mcp_bridge::Press<A>) {
        let who = if press.by_agent() { "agent" } else { "person" };
        log.push(format!("{what} {:?} by {who}", press.args()));
        press.ok(format!("{what} done"));
    }
    fn app(ui: &mut egui::Ui, s: &mut Presses) {
        let Some(bridge) = s.bridge.clone() else { return };
        let log = &mut s.log;
        bridge.window("w").title("Presses").ui(ui, |w, ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                w.menu_button(ui, "File", |m| {
                    if let Some(press) = m.button("save", ActionSpec::new("Save")) {
                        record(log, "save", press);
                    }
                });
            });
            if let Some(press) = w.button(ui, "ring", ActionSpec::new("Ring")).inner {
                record(log, "ring", press);
            }
            let say = w.gesture(ui, "say", ActionSpec::new("Say a word"), |ui| {
                ui.button("Say hi").clicked().then(|| Say { word: "hi".into() })
            });
            if let Some(press) = say {
                record(log, "say", press);
            }
            let rows = egui_mcp_bridge::blocks::TableOptions::new()
                .row_button("Pick")
                .row_action("pick", ActionSpec::new("Pick a row").description("Pick the row (0-based)"));
            let picked = w.table(ui, "rows", &["Name"], &["first", "second"], |r, t| t.row((*r,)), rows);
            if let Some(press) = picked {
                record(log, "pick", press);
            }
        });
    }
    let bridge = Bridge::builder().build();
    let state = Presses { bridge: Some(bridge.clone()), ..Presses::default() };
    let mut h = Harness::new_ui_state(&bridge, app, state);
    // The person: each kind once.
    h.get_by_label("Ring").click();
    h.run();
    h.get_by_label("Say hi").click();
    h.run();
    h.get_all_by_label("Pick").nth(1).expect("the second row's button").click();
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Save").click();
    h.run();
    // The agent: each kind once, answered by the same handler.
    for (tool, args, message) in [
        ("w__ring", json!({}), "ring done"),
        ("w__say", json!({"word": "bye"}), "say done"),
        ("w__pick", json!({"row": 0}), "pick done"),
        ("w__save", json!({}), "save done"),
    ] {
        let mut args = args;
        args["expectedVersion"] = json!(h.window("w").expect("declared").version);
        let done = h.call(tool, args).unwrap_or_else(|e| panic!("{tool}: {e:?}"));
        assert_eq!(done.message.as_deref(), Some(message));
    }
    assert_eq!(
        h.state().log,
        [
            "ring NoArgs by person",
            "say Say { word: \"hi\" } by person",
            "pick 1 by person",
            "save NoArgs by person",
            "ring NoArgs by agent",
            "say Say { word: \"bye\" } by agent",
            "pick 0 by agent",
            "save NoArgs by agent",
        ]
    );
}
