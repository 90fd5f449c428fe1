//! What real apps are laid out in, described once: panels that are windows
//! (`WindowBuilder::panel`, with a dialog over one), a menu bar whose items are actions
//! declared while the menu is closed (`WindowUi::menu_button`, a submenu, a keyboard shortcut), and
//! a collapsing section whose contents agents read and use while the person has it collapsed
//! (`WindowUi::collapsing`).

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode, Input};
use serde_json::{Value, json};

const SAVE: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::S);

#[derive(Default)]
struct App {
    bridge: Option<Bridge>,
    saved: usize,
    reopened: usize,
    reverted: usize,
    console: bool,
    plots: usize,
    reset: usize,
    asking: bool,
    cleared: usize,
    locked: bool,
}

fn app(ui: &mut egui::Ui, s: &mut App) {
    let Some(bridge) = s.bridge.clone() else { return };
    egui::Panel::top("menu").show(ui, |ui| {
        bridge.window("menu").title("Menu").summary("The menu bar").panel(ui, |w, ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                w.menu_button(ui, "File", |m| {
                    if let Some(press) = m.shortcut("save", ActionSpec::new("Save"), SAVE) {
                        s.saved += 1;
                        press.ok("Saved");
                    }
                    // Nothing to revert before the first save: disabled for both.
                    m.enabled(s.saved > 0);
                    if let Some(press) = m.button("revert", ActionSpec::new("Revert to saved")) {
                        s.reverted += 1;
                        press.ok("Reverted");
                    }
                    m.enabled(true);
                    m.form("view", |f| {
                        f.edit("console", &Input::checkbox("Show console"), &mut s.console);
                    });
                    m.menu("Recent", |m| {
                        if let Some(press) = m.button("reopen", ActionSpec::new("Reopen the last file")) {
                            s.reopened += 1;
                            press.ok("Reopened");
                        }
                    });
                });
            });
        });
    });
    egui::Panel::left("settings").default_size(260.0).show(ui, |ui| {
        bridge.window("settings").title("Settings").summary("Plot settings").panel(ui, |w, ui| {
            w.collapsing(ui, "Plot settings", |w, ui| {
                ui.add_enabled_ui(!s.locked, |ui| {
                    w.form(ui, "plot", |f| {
                        f.edit("plots", &Input::integer("Number of plots", 1..=10), &mut s.plots);
                    });
                    if let Some(press) = w.button(ui, "reset_plots", ActionSpec::new("Reset plots")).inner {
                        s.plots = 1;
                        s.reset += 1;
                        press.ok("Reset");
                    }
                });
            });
            if let Some(press) = w.button(ui, "clear", ActionSpec::new("Clear data")).inner {
                s.asking = true;
                press.ok("Asking first");
            }
        });
    });
    if s.asking {
        bridge.window("sure").title("Clear all data?").modal_of("settings").ui(ui, |d, ui| {
            if let Some(press) = d.button(ui, "yes", ActionSpec::new("Clear")).inner {
                s.cleared += 1;
                s.asking = false;
                press.ok("Cleared");
            }
        });
    }
}

fn harness(locked: bool) -> Harness<'static, App> {
    let bridge = Bridge::builder().build();
    let state = App { bridge: Some(bridge.clone()), plots: 3, locked, ..App::default() };
    let mut h = Harness::builder(&bridge).with_size([900.0, 600.0]).build_ui_state(app, state);
    h.run_steps(2);
    h
}

fn plots_field(h: &Harness<'_, App>) -> Value {
    let w = serde_json::to_value(h.window("settings").expect("declared")).expect("json");
    w["blocks"][0]["items"][0].clone()
}

#[test]
fn a_menu_item_is_an_action_while_its_menu_is_closed() {
    let mut h = harness(false);
    assert!(h.query_by_label("Save Ctrl+S").is_none(), "the menu is closed for the person");
    let tools = h.snapshot().tools().to_vec();
    let save = tools.iter().find(|t| t.name == "menu__save").expect("declared while closed");
    assert!(save.description.contains("Shortcut"), "{:?}", save.description);
    assert!(tools.iter().any(|t| t.name == "menu__reopen"), "a submenu's item too");
    assert!(!tools.iter().any(|t| t.name == "menu__revert"), "a disabled item is not offered");
    let e = h.call("menu__revert", json!({})).expect_err("disabled");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    h.call("menu__save", json!({})).expect("the agent saves without opening File");
    h.call("menu__reopen", json!({})).expect("and reopens");
    assert_eq!((h.state().saved, h.state().reopened), (1, 1));
    h.call("menu__revert", json!({})).expect("enabled once saved");
    assert_eq!(h.state().reverted, 1);
    // A checkbox in the menu: read and set while the menu is closed.
    h.call("menu__edit_field", json!({"field": "console", "value": true})).expect("set while closed");
    assert!(h.state().console);

    // The person: through the menu (it closes after the click), and by the shortcut.
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Save Ctrl+S").click();
    h.run_steps(2);
    assert_eq!(h.state().saved, 2);
    assert!(h.query_by_label("Save Ctrl+S").is_none(), "the menu closed");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    assert_eq!(h.state().saved, 3, "the shortcut presses the item while the menu is closed");
}

#[test]
fn a_collapsed_section_is_read_and_opened_before_anything_in_it_changes() {
    let mut h = harness(false);
    assert!(h.query_by_label("Number of plots").is_none(), "collapsed for the person");
    let field = plots_field(&h);
    assert_eq!(
        (field["label"].clone(), field["value"].clone()),
        (json!("Number of plots"), json!(3)),
        "read while collapsed"
    );
    assert_eq!(field.get("key"), None, "not editable while collapsed: {field}");
    assert!(!h.tool_names().contains(&"settings__reset_plots".to_owned()), "nor its buttons");
    let open =
        h.snapshot().tools().iter().find(|t| t.name == "settings__open_section").cloned().expect("a way to open it");
    assert!(open.description.contains("Plot settings"), "{:?}", open.description);
    let e = h.call("settings__edit_field", json!({"field": "plots", "value": 7})).expect_err("collapsed");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable, "no field of the window is editable now: {e:?}");

    // The agent opens it, as the person would: the person sees it open, the agent can use it.
    let r = h.call("settings__open_section", json!({"section": "Plot settings"})).expect("opens");
    assert_eq!(r.message.as_deref(), Some("Plot settings is open"));
    h.run_steps(1);
    assert_eq!(h.get_by_label("Number of plots").value().as_deref(), Some("3"), "open for the person");
    assert_eq!(plots_field(&h)["key"], "plots");
    assert!(!h.tool_names().contains(&"settings__open_section".to_owned()), "nothing left to open");
    h.call("settings__edit_field", json!({"field": "plots", "value": 7})).expect("edited once open");
    h.call("settings__reset_plots", json!({})).expect("pressed once open");
    assert_eq!((h.state().plots, h.state().reset), (1, 1));
    assert_eq!(plots_field(&h)["value"], 1);

    // The person collapses it: read again, not editable.
    h.get_by_label("Plot settings").click();
    h.run();
    assert_eq!(plots_field(&h).get("key"), None);
    let e = h.call("settings__open_section", json!({"section": "Nope"})).expect_err("no such section");
    assert_eq!(e.code, ErrorCode::ValidationFailed);
}

#[test]
fn what_an_open_section_disables_stays_disabled_for_agents() {
    let mut h = harness(true);
    h.call("settings__open_section", json!({"section": "Plot settings"})).expect("opens");
    h.run_steps(1);
    assert_eq!(plots_field(&h)["disabled"], true);
    let e = h.call("settings__reset_plots", json!({})).expect_err("disabled");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    assert!(!h.tool_names().iter().any(|t| t == "settings__edit_field"), "no editable field");
    assert_eq!(h.state().plots, 3);
}

#[test]
fn a_panel_is_a_window_and_its_dialog_opens_over_it() {
    let mut h = harness(false);
    let r = h.call("settings__clear", json!({})).expect("asks");
    assert_eq!(r.opened_window_ids, ["sure"]);
    h.run_steps(2);
    // The panel is blocked for both: its tools are gone, its buttons disabled for the person.
    assert!(!h.tool_names().iter().any(|t| t.starts_with("settings__")));
    assert!(h.get_by_label("Clear data").accesskit_node().is_disabled());
    // The dialog is over the panel that owns it.
    let panel = h.get_by_label("Clear data").rect();
    let dialog = h.get_by_label("Clear").rect();
    assert!(
        dialog.center().x < 300.0 && (dialog.center().x - panel.center().x).abs() < 200.0,
        "{dialog:?} over {panel:?}"
    );
    h.get_by_label("Clear").click();
    h.run();
    assert_eq!(h.state().cleared, 1);
    assert!(h.tool_names().contains(&"settings__clear".to_owned()), "the panel is operable again");
}

/// Live data without stale writes: a console whose lines arrive every pass is a window of its
/// own (a panel), so its version moves and the settings' does not; an agent's write to the
/// settings with the version it read before the lines arrived is taken. The same lines inside
/// the settings window make that write stale: the reason for the split.
#[test]
fn live_lines_in_a_window_of_their_own_leave_the_settings_writes_fresh() {
    struct Live {
        bridge: Bridge,
        baud: u32,
        lines: Vec<String>,
        split: bool,
    }
    let app = |ui: &mut egui::Ui, s: &mut Live| {
        let bridge = s.bridge.clone();
        s.lines.push(format!("line {}", s.lines.len())); // 1 line per pass, as a port delivers them
        let last = s.lines[s.lines.len().saturating_sub(5)..].to_vec();
        egui::Panel::left("settings").show(ui, |ui| {
            bridge.window("settings").title("Settings").panel(ui, |w, ui| {
                w.form(ui, "port", |f| {
                    let bauds = [9600, 19_200].map(|b| (b, b.to_string()));
                    f.choice("baud", &Input::choice("Baud rate"), &mut s.baud, &bauds);
                });
                if !s.split {
                    w.list(ui, "lines", &last);
                }
            });
        });
        if s.split {
            egui::CentralPanel::default().show(ui, |ui| {
                let summary = format!("{} lines", s.lines.len());
                bridge.window("console").title("Console").summary(summary).panel(ui, |w, ui| {
                    w.list(ui, "lines", &last);
                });
            });
        }
    };
    for split in [true, false] {
        let bridge = Bridge::builder().build();
        let state = Live { bridge: bridge.clone(), baud: 9600, lines: Vec::new(), split };
        let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(app, state);
        h.run_steps(2);
        let read = h.window("settings").expect("declared").version;
        h.run_steps(5); // five more lines
        let write = h.call("settings__edit_field", json!({"field": "baud", "value": "19200", "expectedVersion": read}));
        if split {
            write.expect("the settings did not change: the write is fresh");
            assert_eq!(h.state().baud, 19_200);
            assert!(h.window("console").expect("declared").version > 5, "the console's version moves");
        } else {
            let e = write.expect_err("the lines moved the settings' version");
            assert_eq!(e.code, ErrorCode::StaleState);
        }
    }
}

/// Fields in the app's own layout (`inline_form`): in `ui.horizontal`, a checkbox with its text,
/// a switch and a number sit in one row as egui draws them; agents read and set them as any
/// form's.
#[test]
fn an_inline_form_lays_its_fields_out_in_the_apps_row() {
    struct Row {
        bridge: Bridge,
        grid: bool,
        axes: bool,
        points: u32,
    }
    let app = |ui: &mut egui::Ui, s: &mut Row| {
        let b = s.bridge.clone();
        b.window("plot").title("Plot").ui(ui, |w, ui| {
            ui.horizontal(|ui| {
                w.inline_form(ui, "options", |f| {
                    f.edit("grid", &Input::checkbox("Show grid"), &mut s.grid);
                    f.edit("axes", &Input::checkbox("Show axes").switch(), &mut s.axes);
                    f.edit("points", &Input::integer("Points", 10..=1000).speed(5.0), &mut s.points);
                });
            });
        });
    };
    let bridge = Bridge::builder().build();
    let state = Row { bridge: bridge.clone(), grid: false, axes: true, points: 100 };
    let mut h = Harness::builder(&bridge).with_size([700.0, 300.0]).build_ui_state(app, state);
    h.run_steps(2);
    let (grid, axes, points) =
        (h.get_by_label("Show grid").rect(), h.get_by_label("Show axes").rect(), h.get_by_label("Points").rect());
    assert!(
        (grid.center().y - axes.center().y).abs() < 4.0 && (grid.center().y - points.center().y).abs() < 4.0,
        "one row: {grid:?} {axes:?} {points:?}"
    );
    assert!(grid.right() <= axes.left() && axes.right() <= points.left() + 60.0, "left to right");
    h.get_by_label("Show grid").click();
    h.run_steps(2);
    assert!(h.state().grid, "the person's click");
    h.call("plot__edit_field", json!({"field": "points", "value": 250})).expect("the agent");
    h.call("plot__edit_field", json!({"field": "axes", "value": false})).expect("the agent");
    assert_eq!((h.state().points, h.state().axes), (250, false));
}

/// Tabs: a hidden tab's fields are read; to change them an agent shows the tab, as the person
/// does, with `open_section`; the person's click on a tab does the same.
#[test]
fn a_hidden_tab_is_read_and_shown_before_anything_in_it_changes() {
    struct Prefs {
        bridge: Bridge,
        tab: usize,
        name: String,
        dark: bool,
    }
    let app = |ui: &mut egui::Ui, s: &mut Prefs| {
        let b = s.bridge.clone();
        b.window("prefs").title("Preferences").ui(ui, |w, ui| {
            w.tabs(ui, &mut s.tab, &["Profile", "Appearance"], |w, ui, k| {
                if k == 0 {
                    w.form(ui, "profile", |f| {
                        f.edit("name", &Input::text("Name"), &mut s.name);
                    });
                } else {
                    w.form(ui, "look", |f| {
                        f.edit("dark", &Input::checkbox("Dark mode"), &mut s.dark);
                    });
                }
            });
        });
    };
    let bridge = Bridge::builder().build();
    let state = Prefs { bridge: bridge.clone(), tab: 0, name: "Ada".into(), dark: false };
    let mut h = Harness::builder(&bridge).with_size([500.0, 300.0]).build_ui_state(app, state);
    h.run_steps(2);
    let item = |h: &Harness<'_, Prefs>, block: &str| {
        let w = serde_json::to_value(h.window("prefs").expect("declared")).expect("json");
        let b = w["blocks"].as_array().expect("blocks").iter().find(|b| b["id"] == block).cloned().expect("the block");
        b["items"][0].clone()
    };
    assert!(h.query_by_label("Dark mode").is_none(), "hidden for the person");
    assert_eq!(
        (item(&h, "look")["value"].clone(), item(&h, "look").get("key").cloned()),
        (json!(false), None),
        "read, not editable"
    );
    assert_eq!(item(&h, "profile")["key"], "name");
    h.call("prefs__open_section", json!({"section": "Appearance"})).expect("shows the tab");
    h.run_steps(1);
    assert!(h.query_by_label("Dark mode").is_some() && h.query_by_label("Name").is_none(), "the person sees it too");
    h.call("prefs__edit_field", json!({"field": "dark", "value": true})).expect("editable once shown");
    assert!(h.state().dark);
    assert_eq!(item(&h, "profile").get("key"), None, "the other tab is hidden now");
    h.get_by_label("Profile").click();
    h.run_steps(2);
    assert_eq!((h.state().tab, item(&h, "profile")["key"].clone()), (0, json!("name")), "the person's click");
}

/// An app-level menu (`Bridge::app_menu_button`): its items are `app__…` actions, declared while the
/// menu is closed, one handler for the person's click and the agent's call.
#[test]
fn an_app_menus_items_are_app_actions_while_it_is_closed() {
    struct Docs {
        bridge: Bridge,
        opened: usize,
    }
    let app = |ui: &mut egui::Ui, s: &mut Docs| {
        let b = s.bridge.clone();
        egui::Panel::top("bar").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                b.app_menu_button(ui, "Documents", |m| {
                    if let Some(press) = m.button("new_document", ActionSpec::new("New document")) {
                        s.opened += 1;
                        press.ok("Opened");
                    }
                });
            });
        });
    };
    let bridge = Bridge::builder().build();
    let state = Docs { bridge: bridge.clone(), opened: 0 };
    let mut h = Harness::builder(&bridge).with_size([500.0, 300.0]).build_ui_state(app, state);
    h.run_steps(2);
    assert!(h.query_by_label("New document").is_none(), "closed for the person");
    h.call("app__new_document", json!({})).expect("the agent, menu closed");
    h.get_by_label("Documents").click();
    h.run_steps(2);
    h.get_by_label("New document").click();
    h.run_steps(2);
    assert_eq!(h.state().opened, 2);
    assert!(h.query_by_label("New document").is_none(), "the menu closed after the click");
}

/// The agent's mark never moves a panel's contents: after an agent's call to a panel, its rows
/// are where they were (the "Agent: …" line and the outline are painted over the panel).
/// Before, the line was inserted above the contents for about 5 s, moving every row down by
/// its height, under the person's pointer.
#[test]
fn the_agents_mark_never_moves_a_panels_rows() {
    #[derive(Default)]
    struct Panel {
        bridge: Option<Bridge>,
        rang: usize,
    }
    fn app(ui: &mut egui::Ui, s: &mut Panel) {
        let Some(bridge) = s.bridge.clone() else { return };
        egui::Panel::left("side").show(ui, |ui| {
            bridge.window("side").title("Side").summary(format!("Rang {}", s.rang)).panel(ui, |w, ui| {
                w.label(ui, "first", "The first row");
                if let Some(press) = w.button(ui, "ring", ActionSpec::new("Ring")).inner {
                    s.rang += 1;
                    press.ok("Rang");
                }
            });
        });
    }
    let bridge = Bridge::builder().build();
    let state = Panel { bridge: Some(bridge.clone()), ..Panel::default() };
    let mut h = Harness::new_ui_state(&bridge, app, state);
    let rows = |h: &Harness<'_, Panel>| (h.get_by_label("The first row").rect(), h.get_by_label("Ring").rect());
    let before = rows(&h);
    let version = h.window("side").expect("declared").version;
    h.call("side__ring", json!({"expectedVersion": version})).expect("rang");
    assert!(bridge.agent_action("side").is_some(), "the window is marked now");
    h.run();
    assert_eq!(h.state().rang, 1);
    assert!(h.painted("Agent: Ring"), "the mark shows");
    assert_eq!(rows(&h), before, "the rows stay where the person saw them");
}

/// A section keeps egui's options (`collapsing_with`): open by default, it is laid out as
/// egui's own `CollapsingHeader::default_open(true)` is, the person sees its contents on the
/// first pass, and agents can edit in it at once (nothing to open first).
#[test]
fn a_section_keeps_egui_s_options_open_by_default() {
    #[derive(Default)]
    struct Sections {
        bridge: Option<Bridge>,
        baud: i64,
    }
    fn bridged(ui: &mut egui::Ui, s: &mut Sections) {
        let Some(bridge) = s.bridge.clone() else { return };
        egui::CentralPanel::default().show(ui, |ui| {
            bridge.window("port").title("Port").panel(ui, |w, ui| {
                w.collapsing_with(
                    ui,
                    "Connection",
                    |h| h.default_open(true),
                    |w, ui| {
                        w.label(ui, "about", "The serial link");
                        w.form(ui, "link", |f| {
                            f.edit("baud", &Input::integer("Baud", 300..=115_200), &mut s.baud);
                        });
                    },
                );
            });
        });
    }
    fn plain(ui: &mut egui::Ui, baud: &mut i64) {
        egui::CentralPanel::default().show(ui, |ui| {
            egui::CollapsingHeader::new("Connection").default_open(true).show(ui, |ui| {
                ui.label("The serial link");
                egui::Grid::new("link").show(ui, |ui| {
                    let l = ui.label("Baud");
                    ui.add(egui::DragValue::new(baud)).labelled_by(l.id);
                });
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, Sections { bridge: Some(bridge.clone()), baud: 9600 });
    let mut p = egui_kittest::Harness::new_ui_state(plain, 9600_i64);
    p.run();
    // Where the contents are under the header, for the person, with and without the bridge.
    let offset = |header: egui::Rect, first: egui::Rect| first.min - header.min;
    let ours = offset(h.get_by_label("Connection").rect(), h.get_by_label("The serial link").rect());
    let egui_s = offset(p.get_by_label("Connection").rect(), p.get_by_label("The serial link").rect());
    assert_eq!(ours, egui_s, "laid out as egui's own");
    assert!(!h.tool_names().contains(&"port__open_section".to_owned()), "open: nothing to open first");
    let version = h.window("port").expect("declared").version;
    h.call("port__edit_field", json!({"field": "baud", "value": 19200, "expectedVersion": version})).expect("edited");
    assert_eq!(h.state().baud, 19200);
}

/// A window keeps egui's options: anchored at the top right, of a fixed size, neither
/// resizable nor collapsible, it is where and as wide as egui's own window with the same
/// options in the same free area (the bridge keeps windows in what the app's panels leave).
#[test]
fn a_window_keeps_egui_s_options() {
    const ANCHOR: (egui::Align2, [f32; 2]) = (egui::Align2::RIGHT_TOP, [-10.0, 10.0]);
    fn bridged(ui: &mut egui::Ui, bridge: &mut Bridge) {
        let window = bridge.window("prefs").title("Preferences").anchor(ANCHOR.0, ANCHOR.1);
        let window = window.fixed_size([220.0, 120.0]).resizable(false).collapsible(false);
        window.ui(ui, |w, ui| w.label(ui, "about", "Nothing to set yet"));
    }
    fn plain(ui: &mut egui::Ui) {
        let window = egui::Window::new("Preferences").anchor(ANCHOR.0, ANCHOR.1);
        let window = window.fixed_size([220.0, 120.0]).resizable(false).collapsible(false);
        window.constrain_to(ui.available_rect_before_wrap()).show(ui.ctx(), |ui| {
            ui.label("Nothing to set yet");
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, bridge.clone());
    h.run();
    let mut p = egui_kittest::Harness::new_ui(plain);
    p.run();
    let (ours, egui_s) = (h.get_by_label("Preferences").rect(), p.get_by_label("Preferences").rect());
    assert_eq!(
        (ours.right(), ours.top(), ours.width()),
        (egui_s.right(), egui_s.top(), egui_s.width()),
        "{ours:?} {egui_s:?}"
    );
    let (ours, egui_s) = (h.get_by_label("Nothing to set yet").rect(), p.get_by_label("Nothing to set yet").rect());
    assert_eq!(ours.left(), egui_s.left(), "the contents at the same left edge");
}

/// A menu item keeps egui's options (`Menu::add_button`: rich text, shortcut text): it is laid
/// out in the open menu as egui's own item is, and it is the action for both audiences.
#[test]
fn a_menu_item_keeps_egui_s_options() {
    fn item() -> egui::Button<'static> {
        egui::Button::new(egui::RichText::new("Save all").strong()).shortcut_text("Ctrl+Shift+S")
    }
    fn bridged(ui: &mut egui::Ui, s: &mut (Option<Bridge>, usize)) {
        let Some(bridge) = s.0.clone() else { return };
        egui::Panel::top("menu").show(ui, |ui| {
            bridge.window("menu").title("Menu").panel(ui, |w, ui| {
                egui::MenuBar::new().ui(ui, |ui| {
                    w.menu_button(ui, "File", |m| {
                        if let Some(press) = m.add_button("save_all", ActionSpec::new("Save all"), item()) {
                            s.1 += 1;
                            press.ok("Saved");
                        }
                    });
                });
            });
        });
    }
    fn plain(ui: &mut egui::Ui) {
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| ui.add(item()));
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, (Some(bridge.clone()), 0));
    let mut p = egui_kittest::Harness::new_ui(plain);
    h.get_by_label("File").click();
    h.run();
    p.get_by_label("File").click();
    p.run();
    let offset = |file: egui::Rect, item: egui::Rect| item.min - file.min;
    // The item's label holds its shortcut text, as egui's own does.
    const ITEM: &str = "Save all Ctrl+Shift+S";
    let ours = offset(h.get_by_label("File").rect(), h.get_by_label(ITEM).rect());
    let egui_s = offset(p.get_by_label("File").rect(), p.get_by_label(ITEM).rect());
    assert_eq!(ours, egui_s, "laid out as egui's own item");
    assert_eq!(h.get_by_label(ITEM).rect().size(), p.get_by_label(ITEM).rect().size());
    h.get_by_label(ITEM).click();
    h.run();
    let version = h.window("menu").expect("declared").version;
    h.call("menu__save_all", json!({"expectedVersion": version})).expect("saved");
    assert_eq!(h.state().1, 2, "the person's click and the agent's call");
}
