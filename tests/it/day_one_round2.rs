//! Day one, round 2 (issue 47, items 1 and 2): what a person does with the keyboard and the
//! secondary button, done by agents through the generic tools of a window the app has not
//! described. `edit_field` with `submit: true` presses Enter in the field set last (a search
//! box that runs on Enter); `press` with `secondary: true` right-clicks a control, a row or a
//! label that senses clicks, answers with the menu that opened and its items' keys, which
//! `press` then takes.

use crate::read_view::by_title;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{Bridge, ErrorCode, Input, ToolError};
use serde_json::{Value, json};

/// A plain egui file browser that describes nothing: a search box run on Enter (egui's own
/// idiom), notes on several lines, a checkbox, rows with a context menu each, a label that
/// senses clicks with one, a disabled row with one, and a button with none.
#[derive(Default)]
struct Browser {
    query: String,
    searches: Vec<String>,
    notes: String,
    wrap: bool,
    files: Vec<String>,
    opened: Vec<String>,
    deleted: Vec<String>,
    copied: u32,
    refreshes: u32,
    locked_menus: u32,
}

fn browser(ui: &mut egui::Ui, s: &mut Browser) {
    egui::Window::new("Files").default_width(400.0).show(ui.ctx(), |ui| {
        ui.horizontal(|ui| {
            ui.label("Find");
            let find = ui.text_edit_singleline(&mut s.query);
            if find.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                s.searches.push(s.query.clone());
            }
        });
        ui.label(format!("Searched {} times", s.searches.len()));
        ui.horizontal(|ui| {
            ui.label("Notes");
            ui.text_edit_multiline(&mut s.notes);
        });
        ui.checkbox(&mut s.wrap, "Wrap");
        for file in s.files.clone() {
            ui.selectable_label(false, &file).context_menu(|ui| {
                if ui.button("Open").clicked() {
                    s.opened.push(file.clone());
                    ui.close();
                }
                if ui.button("Delete").clicked() {
                    s.deleted.push(file.clone());
                    ui.close();
                }
            });
        }
        ui.add(egui::Label::new("readme.md").sense(egui::Sense::click())).context_menu(|ui| {
            if ui.button("Copy path").clicked() {
                s.copied += 1;
                ui.close();
            }
        });
        ui.add_enabled(false, egui::Button::new("locked.bin")).context_menu(|ui| {
            s.locked_menus += 1;
            ui.label("never shown");
        });
        if ui.button("Refresh").clicked() {
            s.refreshes += 1;
        }
    });
}

fn harness() -> Harness<'static, Browser> {
    let bridge = Bridge::builder().build();
    let state = Browser { files: vec!["a.txt".into(), "b.txt".into(), "c.txt".into()], ..Browser::default() };
    let mut h = Harness::builder(&bridge)
        .with_size([900.0, 700.0])
        .with_accessibility_check(false)
        .build_ui_state(browser, state);
    h.run();
    h
}

fn refused(outcome: egui_mcp_bridge::Outcome) -> ToolError {
    outcome.expect_err("the call is refused")
}

fn names_submit(e: &ToolError) -> bool {
    e.code == ErrorCode::ValidationFailed && e.fields.iter().flatten().any(|f| f.field == "submit")
}

/// Item 1: a search box run when Enter is pressed in it (`lost_focus() && key_pressed(Enter)`)
/// could not be run: a "\n" in the value becomes a space. With `submit`, Enter is pressed in it
/// as a person types it, and the answer comes after the pass that shows the search's effect.
#[test]
fn a_search_box_run_on_enter_is_operated_with_submit() {
    let mut h = harness();
    // Without submit the text is set and nothing runs, as when the person types and stops.
    h.call("ui-files__edit_field", json!({"field": "find", "value": "pears"})).expect("typed");
    let s = h.kittest().state();
    assert_eq!((s.query.as_str(), s.searches.len()), ("pears", 0));

    let v = by_title(&h, "Files").version;
    let r = h
        .call("ui-files__edit_field", json!({"field": "find", "value": "apples", "submit": true, "expectedVersion": v}))
        .expect("typed and submitted");
    let s = h.kittest().state();
    assert_eq!(s.query, "apples");
    assert_eq!(s.searches, ["apples"], "the app's Enter handler ran once, with the value set");
    let message = r.message.clone().unwrap_or_default();
    assert!(message.contains("Enter"), "the answer says Enter was pressed: {message}");
    assert!(message.contains("Searched 1 times"), "and what the window then shows: {message}");
    assert_eq!(r.result.as_ref().and_then(|r| r.pointer("/fields/find")), Some(&json!("apples")), "{r:?}");

    // Several fields at once: Enter goes to the one set last, after all are set.
    h.call("ui-files__edit_field", json!({"fields": {"wrap": true, "find": "plums"}, "submit": true}))
        .expect("set and submitted");
    let s = h.kittest().state();
    assert!(s.wrap);
    assert_eq!(s.searches, ["apples", "plums"]);
}

/// Where Enter would not submit, `submit` is refused naming it, and nothing is set: a field on
/// several lines (Enter there is a new line), a field set last that is not a text field, and a
/// described window (its own actions say what submitting does).
#[test]
fn submit_is_refused_where_enter_would_not_submit() {
    let mut h = harness();
    let e = refused(h.call("ui-files__edit_field", json!({"field": "notes", "value": "one", "submit": true})));
    assert!(names_submit(&e), "{e:?}");
    assert!(e.message.contains("Notes") || format!("{:?}", e.fields).contains("Notes"), "names the field: {e:?}");
    let e = refused(h.call("ui-files__edit_field", json!({"fields": {"find": "x", "wrap": true}, "submit": true})));
    assert!(names_submit(&e), "{e:?}");
    let s = h.kittest().state();
    assert_eq!((s.notes.as_str(), s.query.as_str(), s.wrap, s.searches.len()), ("", "", false, 0), "nothing set");
    // `submit: false` is what no submit is.
    h.call("ui-files__edit_field", json!({"field": "notes", "value": "two", "submit": false})).expect("set");
    assert_eq!(h.kittest().state().notes, "two");

    // A described window's edit_field refuses it too, rather than ignoring it.
    #[derive(Default)]
    struct Form {
        name: String,
    }
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let mut h = Harness::new_ui_state(
        &bridge,
        move |ui: &mut egui::Ui, s: &mut Form| {
            b.window("form").title("Form").ui(ui, |w, ui| {
                w.form(ui, "f", |f| {
                    f.edit("name", &Input::text("Name"), &mut s.name);
                });
            });
        },
        Form::default(),
    );
    h.run();
    let e = refused(h.call("form__edit_field", json!({"field": "name", "value": "Ada", "submit": true})));
    assert!(names_submit(&e), "{e:?}");
    assert_eq!(h.kittest().state().name, "", "nothing set");
    h.call("form__edit_field", json!({"field": "name", "value": "Ada"})).expect("set without submit");
}

/// The items of the menu an answer lists: (label, key).
fn menu_items(result: Option<&Value>) -> Vec<(String, String)> {
    let items = result.and_then(|r| r.pointer("/menu/items")).and_then(Value::as_array).cloned().unwrap_or_default();
    items
        .iter()
        .filter_map(|i| {
            let o = i.as_object()?;
            let key = o.get("key")?.as_str()?.to_owned();
            let label = o.iter().find(|(k, _)| *k != "key").and_then(|(_, v)| v.as_str())?.to_owned();
            Some((label, key))
        })
        .collect()
}

/// Item 2: a row's context menu, opened as a person right-clicks it; the answer names the menu
/// and its items' keys, and `press` takes one (the app's handler runs once).
#[test]
fn a_rows_context_menu_is_opened_with_secondary_and_its_item_pressed() {
    let mut h = harness();
    let v = by_title(&h, "Files").version;
    let r = h
        .call("ui-files__press", json!({"control": "b-txt", "secondary": true, "expectedVersion": v}))
        .expect("right-clicked");
    let message = r.message.clone().unwrap_or_default();
    assert!(message.contains("b.txt") && message.contains("menu"), "names the menu: {message}");
    let items = menu_items(r.result.as_ref());
    let labels: Vec<&str> = items.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, ["Open", "Delete"], "{r:?}");
    for (_, key) in &items {
        assert!(message.contains(key.as_str()), "the message gives the keys too: {message}");
    }
    assert!(h.kittest().state().deleted.is_empty() && h.kittest().state().opened.is_empty(), "nothing chosen yet");

    let delete = &items[1].1;
    h.call("ui-files__press", json!({"control": delete})).expect("chosen");
    assert_eq!(h.kittest().state().deleted, ["b.txt"], "the app's handler ran once, for the row right-clicked");
    h.run();
    assert_eq!(h.kittest().state().deleted, ["b.txt"]);
    let controls = format!("{:?}", by_title(&h, "Files").blocks);
    assert!(!controls.contains("Delete"), "the menu closed: {controls}");
}

/// A label that senses clicks is right-clicked by its text (it has no key: it is read as text).
#[test]
fn a_labels_context_menu_is_opened_by_its_text() {
    let mut h = harness();
    let r = h.call("ui-files__press", json!({"control": "readme.md", "secondary": true})).expect("right-clicked");
    let items = menu_items(r.result.as_ref());
    assert_eq!(items.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(), ["Copy path"], "{r:?}");
    h.call("ui-files__press", json!({"control": items[0].1})).expect("chosen");
    assert_eq!(h.kittest().state().copied, 1);
}

/// What the person cannot right-click, the agent cannot: a disabled row is refused and its menu
/// never opens. A control without a menu is right-clicked and the answer says no menu opened
/// (and a right-click is not a click: its handler does not run).
#[test]
fn a_disabled_row_refuses_secondary_and_no_menu_is_said_so() {
    let mut h = harness();
    let e = refused(h.call("ui-files__press", json!({"control": "locked.bin", "secondary": true})));
    assert_eq!(e.code, ErrorCode::ActionNotAvailable, "{e:?}");
    assert_eq!(h.kittest().state().locked_menus, 0);

    let r = h.call("ui-files__press", json!({"control": "refresh", "secondary": true})).expect("right-clicked");
    let message = r.message.unwrap_or_default();
    assert!(message.contains("no menu"), "{message}");
    assert_eq!(h.kittest().state().refreshes, 0, "a secondary click is not a click");
    assert!(r.result.as_ref().and_then(|r| r.get("menu")).is_none(), "{:?}", r.result);
}

/// A right-click lands only on what the agent named: a row another window covers is refused,
/// and neither the row's menu nor anything of the window on top is touched.
#[test]
fn a_covered_row_is_not_right_clicked() {
    #[derive(Default)]
    struct Covered {
        rows: Browser,
        cover_menus: u32,
    }
    let bridge = Bridge::builder().build();
    let state = Covered {
        rows: Browser { files: vec!["a.txt".into(), "b.txt".into(), "c.txt".into()], ..Browser::default() },
        cover_menus: 0,
    };
    let mut h = Harness::builder(&bridge).with_size([900.0, 700.0]).with_accessibility_check(false).build_ui_state(
        |ui: &mut egui::Ui, s: &mut Covered| {
            browser(ui, &mut s.rows);
            // Drawn after, so on top, over the whole of Files.
            egui::Window::new("Cover").fixed_pos([0.0, 0.0]).fixed_size([880.0, 680.0]).show(ui.ctx(), |ui| {
                ui.allocate_response(ui.available_size(), egui::Sense::click()).context_menu(|ui| {
                    s.cover_menus += 1;
                    ui.label("the cover's menu");
                });
            });
        },
        state,
    );
    h.run();
    let e = refused(h.call("ui-files__press", json!({"control": "b-txt", "secondary": true})));
    assert_eq!(e.code, ErrorCode::ActionNotAvailable, "{e:?}");
    assert!(e.message.contains("nothing was right-clicked"), "{e:?}");
    h.run();
    assert_eq!(h.kittest().state().cover_menus, 0, "the window on top got no right-click");
    assert!(!format!("{:?}", by_title(&h, "Files").blocks).contains("Delete"), "no menu of the row opened");
}

/// A row scrolled out of sight is scrolled into view first, as a person scrolls to it, then
/// right-clicked.
#[test]
fn a_row_scrolled_away_is_scrolled_into_view_and_right_clicked() {
    #[derive(Default)]
    struct Long {
        deleted: Vec<usize>,
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).with_accessibility_check(false).build_ui_state(
        |ui: &mut egui::Ui, s: &mut Long| {
            egui::Window::new("Log").show(ui.ctx(), |ui| {
                egui::ScrollArea::vertical().max_height(80.0).show(ui, |ui| {
                    for k in 0..40 {
                        ui.selectable_label(false, format!("line {k}")).context_menu(|ui| {
                            if ui.button("Delete").clicked() {
                                s.deleted.push(k);
                                ui.close();
                            }
                        });
                    }
                });
            });
        },
        Long::default(),
    );
    h.run();
    let r = h.call("ui-log__press", json!({"control": "line-30", "secondary": true})).expect("right-clicked");
    let items = menu_items(r.result.as_ref());
    assert_eq!(items.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(), ["Delete"], "{r:?}");
    h.call("ui-log__press", json!({"control": items[0].1})).expect("chosen");
    assert_eq!(h.kittest().state().deleted, [30]);
}

/// A window's own background where the app gives it a menu (egui's `container_context_menu` on
/// the window's response, or a click-sensing background behind its widgets, which lists `press`
/// in a window without controls), right-clicked with `secondary` and no control; a window
/// without one says no menu opened.
#[test]
fn a_windows_background_menu_is_opened_with_secondary_and_no_control() {
    #[derive(Default)]
    struct Boards {
        notes: u32,
        pasted: u32,
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).with_size([900.0, 700.0]).with_accessibility_check(false).build_ui_state(
        |ui: &mut egui::Ui, s: &mut Boards| {
            let board = egui::Window::new("Board").default_pos([10.0, 10.0]).default_size([300.0, 200.0]).show(
                ui.ctx(),
                |ui| {
                    ui.label("Right-click to add a note");
                    ui.allocate_space(egui::vec2(280.0, 150.0));
                    let _ = ui.button("Clear");
                },
            );
            if let Some(board) = board {
                board.response.container_context_menu(|ui| {
                    if ui.button("Add note").clicked() {
                        s.notes += 1;
                        ui.close();
                    }
                });
            }
            egui::Window::new("Canvas").default_pos([450.0, 10.0]).default_size([300.0, 200.0]).show(ui.ctx(), |ui| {
                let background = ui.interact(ui.max_rect(), ui.scope_id().with("background"), egui::Sense::click());
                ui.label("Nothing here yet");
                background.context_menu(|ui| {
                    if ui.button("Paste").clicked() {
                        s.pasted += 1;
                        ui.close();
                    }
                });
            });
            egui::Window::new("Plain").default_pos([10.0, 400.0]).show(ui.ctx(), |ui| {
                ui.label("No menu here");
                ui.allocate_space(egui::vec2(200.0, 80.0));
                let _ = ui.button("Ok");
            });
        },
        Boards::default(),
    );
    h.run();
    for (window, item) in [("ui-board", "Add note"), ("ui-canvas", "Paste")] {
        let r = h.call(&format!("{window}__press"), json!({"secondary": true})).expect("right-clicked");
        let message = r.message.clone().unwrap_or_default();
        assert!(message.contains("background"), "{message}");
        let items = menu_items(r.result.as_ref());
        assert_eq!(items.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(), [item], "{r:?}");
        h.call(&format!("{window}__press"), json!({"control": items[0].1})).expect("chosen");
    }
    assert_eq!((h.kittest().state().notes, h.kittest().state().pasted), (1, 1), "each handler ran once");
    let r = h.call("ui-plain__press", json!({"secondary": true})).expect("right-clicked");
    assert!(r.message.unwrap_or_default().contains("no menu opened"));
    // Without secondary, a control is named.
    let e = refused(h.call("ui-plain__press", json!({})));
    assert!(e.code == ErrorCode::ValidationFailed && format!("{:?}", e.fields).contains("control"), "{e:?}");
}

/// The pointer an agent's right-click moved goes back where the person's was once the call is
/// answered: no hover, highlight or tooltip is left at the row the agent clicked. Where the
/// person had no pointer over the window, egui is told the pointer is gone; where the person
/// moved it in the meantime, it is left where the person put it.
#[test]
fn a_right_click_gives_the_person_s_pointer_back() {
    let pointer = |h: &mut Harness<'_, Browser>| h.kittest().ctx.input(|i| i.pointer.latest_pos());

    // No pointer over the window before: none after.
    let mut h = harness();
    assert_eq!(pointer(&mut h), None);
    h.call("ui-files__press", json!({"control": "b-txt", "secondary": true})).expect("right-clicked");
    h.run();
    assert_eq!(pointer(&mut h), None, "the agent's pointer is gone once answered");

    // The person's pointer somewhere: back there after.
    let mut h = harness();
    let person = egui::pos2(880.0, 690.0);
    h.kittest().event(egui::Event::PointerMoved(person));
    h.run();
    assert_eq!(pointer(&mut h), Some(person));
    let r = h.call("ui-files__press", json!({"control": "readme.md", "secondary": true})).expect("right-clicked");
    assert_eq!(menu_items(r.result.as_ref()).len(), 1, "the menu opened: {r:?}");
    h.run();
    assert_eq!(pointer(&mut h), Some(person), "the person's pointer is where it was");
    let controls = format!("{:?}", by_title(&h, "Files").blocks);
    assert!(controls.contains("Copy path"), "the menu the agent opened stays open: {controls}");

    // The person moves the pointer as the call is answered: it stays where the person put it.
    let mut h = harness();
    h.call("ui-files__press", json!({"control": "a-txt", "secondary": true})).expect("right-clicked");
    let moved = egui::pos2(870.0, 650.0);
    h.kittest().event(egui::Event::PointerMoved(moved));
    h.run();
    assert_eq!(pointer(&mut h), Some(moved), "the person's move wins");
}
