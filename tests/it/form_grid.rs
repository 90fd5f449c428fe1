//! A form's grid holding described buttons beside its fields (`Form::cell`), as an egui grid
//! mixes them: laid out as egui's own grid with the same widgets, each field and button for
//! both audiences.

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, Input};
use serde_json::json;

struct Port {
    bridge: Option<Bridge>,
    baud: u32,
    rescans: usize,
    saves: usize,
}

fn bridged(ui: &mut egui::Ui, s: &mut Port) {
    let Some(bridge) = s.bridge.clone() else { return };
    bridge.window("port").title("Port settings").ui(ui, |w, ui| {
        w.form_with(
            ui,
            "port",
            |g| g.striped(true),
            |f| {
                f.labelled(
                    |ui| ui.label("Baud"),
                    |f| {
                        f.edit("baud", &Input::integer("Baud rate", 300..=1_000_000), &mut s.baud);
                        f.cell(|w, ui| {
                            if let Some(press) = w.button(ui, "rescan", ActionSpec::new("Rescan")).inner {
                                s.rescans += 1;
                                press.ok("Rescanned");
                            }
                        });
                    },
                );
                f.cell(|w, ui| {
                    if let Some(press) = w.button(ui, "save", ActionSpec::new("Save")).inner {
                        s.saves += 1;
                        press.ok("Saved");
                    }
                });
            },
        );
    });
}

fn plain(ui: &mut egui::Ui) {
    egui::Window::new("Port settings").show(ui.ctx(), |ui| {
        egui::Grid::new("g").num_columns(2).striped(true).show(ui, |ui| {
            let label = ui.label("Baud");
            ui.horizontal(|ui| {
                let mut baud = 9600_u32;
                ui.add(egui::DragValue::new(&mut baud).range(300..=1_000_000)).labelled_by(label.id);
                let _ = ui.button("Rescan");
            });
            ui.end_row();
            let _ = ui.button("Save");
            ui.end_row();
        });
    });
}

#[test]
fn a_form_s_grid_holds_described_buttons_beside_its_fields_as_egui_s_own_grid() {
    let bridge = Bridge::builder().build();
    let state = Port { bridge: Some(bridge.clone()), baud: 9600, rescans: 0, saves: 0 };
    let mut h = Harness::new_ui_state(&bridge, bridged, state);
    let mut p = egui_kittest::Harness::new_ui(plain);
    h.run();
    p.run();
    // Where each sits, from the grid's first label: as egui's own grid lays them out.
    let from = |r: egui::Rect, origin: egui::Rect| r.min - origin.min;
    for label in ["Rescan", "Save"] {
        let ours = from(h.get_by_label(label).rect(), h.get_by_label("Baud").rect());
        let egui_s = from(p.get_by_label(label).rect(), p.get_by_label("Baud").rect());
        assert!((ours - egui_s).length() <= 0.5, "{label}: {ours:?} against egui's {egui_s:?}");
    }
    // Both audiences: the field and each button.
    h.get_by_label("Rescan").click();
    h.run();
    h.get_by_label("Save").click();
    h.run();
    let version = h.window("port").expect("declared").version;
    h.call("port__edit_field", json!({"field": "baud", "value": 115_200, "expectedVersion": version})).expect("set");
    let version = h.window("port").expect("declared").version;
    h.call("port__rescan", json!({"expectedVersion": version})).expect("rescanned");
    let version = h.window("port").expect("declared").version;
    h.call("port__save", json!({"expectedVersion": version})).expect("saved");
    assert_eq!((h.state().baud, h.state().rescans, h.state().saves), (115_200, 2, 2));
    assert!(h.undescribed().is_empty(), "{:?}", h.undescribed());
}

/// A choice's options one under another (`Input::vertical`), each with its tooltip
/// (`Form::choice_hinted`): laid out as egui's own radio buttons in `ui.vertical`, the tooltips
/// shown to the person and read by agents in `edit_field`'s description.
#[test]
fn a_choice_keeps_egui_s_column_and_each_option_s_tooltip() {
    const THEMES: [(u8, &str, &str); 3] =
        [(0, "System", "Follow the system theme"), (1, "Light", "Always light"), (2, "Dark", "Always dark")];
    fn bridged(ui: &mut egui::Ui, s: &mut (Option<Bridge>, u8)) {
        let Some(bridge) = s.0.clone() else { return };
        bridge.window("look").title("Look").ui(ui, |w, ui| {
            w.inline_form(ui, "look", |f| {
                f.choice_hinted("theme", &Input::choice("Theme").radio().vertical(), &mut s.1, &THEMES);
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, (Some(bridge.clone()), 0));
    let mut p = egui_kittest::Harness::new_ui_state(
        |ui, theme: &mut u8| {
            egui::Window::new("Look").show(ui.ctx(), |ui| {
                ui.horizontal(|ui| {
                    let _ = ui.label("Theme");
                    ui.vertical(|ui| {
                        for (v, text, hint) in THEMES {
                            ui.radio_value(theme, v, text).on_hover_text(hint);
                        }
                    });
                });
            });
        },
        0,
    );
    h.run();
    p.run();
    let from = |r: egui::Rect, origin: egui::Rect| r.min - origin.min;
    for (_, text, _) in THEMES {
        let ours = from(h.get_by_label(text).rect(), h.get_by_label("System").rect());
        let egui_s = from(p.get_by_label(text).rect(), p.get_by_label("System").rect());
        assert_eq!(ours, egui_s, "{text} placed as egui's own column");
    }
    assert!(h.get_by_label("Dark").rect().top() > h.get_by_label("Light").rect().bottom(), "one under another");
    // The person's tooltip.
    h.get_by_label("Light").hover();
    h.run();
    assert!(h.query_by_label("Always light").is_some(), "the option's tooltip");
    // The agent's description names each option with its hint, and the agent chooses by text.
    let tools = h.snapshot().tools().to_vec();
    let edit = tools.iter().find(|t| t.name == "look__edit_field").expect("declared");
    assert!(edit.description.contains("Light (Always light)"), "{:?}", edit.description);
    let version = h.window("look").expect("declared").version;
    h.call("look__edit_field", json!({"field": "theme", "value": "Dark", "expectedVersion": version})).expect("set");
    assert_eq!(h.state().1, 2);
}

/// One field on its own (`WindowUi::edit`), where an app draws `ui.checkbox` in a row of
/// buttons: laid out as egui's own checkbox, its response changed by the person's click and by
/// an agent's edit alike.
#[test]
fn a_lone_field_is_drawn_as_egui_s_own_and_changed_by_either() {
    fn bridged(ui: &mut egui::Ui, s: &mut (Option<Bridge>, bool, usize)) {
        let Some(bridge) = s.0.clone() else { return };
        bridge.window("viewer").title("Viewer").ui(ui, |w, ui| {
            ui.horizontal(|ui| {
                let _ = ui.label("Nav:");
                if w.edit(ui, "filter", &Input::checkbox("Filter"), &mut s.1).changed() {
                    s.2 += 1;
                }
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, (Some(bridge.clone()), false, 0));
    let mut p = egui_kittest::Harness::new_ui_state(
        |ui, on: &mut bool| {
            egui::Window::new("Viewer").show(ui.ctx(), |ui| {
                ui.horizontal(|ui| {
                    let _ = ui.label("Nav:");
                    ui.checkbox(on, "Filter");
                });
            });
        },
        false,
    );
    h.run();
    p.run();
    let ours = h.get_by_label("Filter").rect().min - h.get_by_label("Nav:").rect().min;
    let egui_s = p.get_by_label("Filter").rect().min - p.get_by_label("Nav:").rect().min;
    assert_eq!(ours, egui_s, "beside the label as egui's own checkbox");
    h.get_by_label("Filter").click();
    h.run();
    assert_eq!((h.state().1, h.state().2), (true, 1), "the person's click");
    let version = h.window("viewer").expect("declared").version;
    h.call("viewer__edit_field", json!({"field": "filter", "value": false, "expectedVersion": version})).expect("set");
    assert_eq!((h.state().1, h.state().2), (false, 2), "the agent's edit changes the response too");
}

/// A lone text edit after the app's own label and a lone combo box (`WindowUi::edit`,
/// `WindowUi::choice`) are drawn as egui draws `ui.text_edit_singleline` and a `ComboBox`:
/// without a label of their own (the input's label names them for agents only), so the row is
/// laid out as the app's own.
#[test]
fn a_lone_text_edit_and_choice_add_no_label_of_their_own() {
    type State = (Option<Bridge>, String, u8);
    const UNITS: [(u8, &str); 2] = [(0, "Bytes"), (1, "KB")];
    fn bridged(ui: &mut egui::Ui, s: &mut State) {
        let Some(bridge) = s.0.clone() else { return };
        bridge.window("viewer").title("Viewer").ui(ui, |w, ui| {
            ui.horizontal(|ui| {
                let _ = ui.label("Search:");
                let _ = w.edit(ui, "key", &Input::text("Search key"), &mut s.1);
                let _ = w.choice(ui, "unit", &Input::choice("Unit"), &mut s.2, &UNITS);
                let _ = ui.label("End");
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, (Some(bridge.clone()), "error".into(), 0));
    // egui's own unlabelled text edit and combo box have no accessible name: kittest's check
    // is off for them (ours are named by their inputs' labels, and pass it).
    let mut p = egui_kittest::Harness::builder().with_accessibility_check(false).build_ui_state(
        |ui, s: &mut (String, u8)| {
            egui::Window::new("Viewer").show(ui.ctx(), |ui| {
                ui.horizontal(|ui| {
                    let _ = ui.label("Search:");
                    ui.text_edit_singleline(&mut s.0);
                    egui::ComboBox::from_id_salt("unit").selected_text(UNITS[usize::from(s.1)].1).show_ui(ui, |ui| {
                        for (v, text) in UNITS {
                            ui.selectable_value(&mut s.1, v, text);
                        }
                    });
                    let _ = ui.label("End");
                });
            });
        },
        ("error".to_owned(), 0),
    );
    h.run();
    p.run();
    // Named by their inputs' labels for a screen reader, which no label on screen shows.
    use egui_kittest::kittest::NodeT as _;
    assert_eq!(h.get_by_label("Search key").accesskit_node().role(), egui::accesskit::Role::TextInput);
    assert_eq!(h.get_by_label("Unit").accesskit_node().role(), egui::accesskit::Role::ComboBox);
    let ours = h.get_by_label("End").rect().min - h.get_by_label("Search:").rect().min;
    let egui_s = p.get_by_label("End").rect().min - p.get_by_label("Search:").rect().min;
    assert_eq!(ours, egui_s, "the row laid out as egui's own");
    // Agents read and write both by their inputs' labels.
    let version = h.window("viewer").expect("declared").version;
    let set = json!({"fields": {"key": "timeout", "unit": "KB"}, "expectedVersion": version});
    h.call("viewer__edit_field", set).expect("set");
    assert_eq!((h.state().1.as_str(), h.state().2), ("timeout", 1));
    let state = h.snapshot().json().to_owned();
    assert!(state.contains(r#""label":"Search key","value":"timeout""#), "{state}");
}
