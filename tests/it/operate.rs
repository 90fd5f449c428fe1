//! Day one: agents operate what the app has not described, through the generic tools of each
//! window the read view publishes (`{id}__edit_field`, `{id}__press`), with every rule of a
//! described window: versions, modal chains, disabled widgets refused, per-field errors,
//! passwords written and never read.

use crate::common::controls;
use crate::read_view::by_title;
use egui_mcp_bridge::protocol::MASK;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{Bridge, ErrorCode};
use serde_json::{Value, json};

/// A plain egui app that describes nothing: a Preferences window with a grid of labelled rows
/// (a `u32` drag value with a suffix, a text edit, a checkbox without text, a combo box, a
/// password), an icon button with a tooltip, a disabled button, and a button that opens an
/// `egui::Modal`.
#[derive(Default)]
struct Prefs {
    max_files: u32,
    name: String,
    hidden: bool,
    mode: String,
    password: String,
    sort: String,
    refreshes: u32,
    confirm: bool,
    resets: u32,
}

fn prefs(ui: &mut egui::Ui, s: &mut Prefs) {
    egui::Window::new("Preferences").default_width(400.0).show(ui.ctx(), |ui| {
        egui::Grid::new("prefs").show(ui, |ui| {
            ui.label("Max files");
            ui.add(egui::DragValue::new(&mut s.max_files).suffix(" files").range(1..=1000));
            ui.end_row();
            ui.label("Name");
            ui.text_edit_singleline(&mut s.name);
            ui.end_row();
            ui.label("Show hidden");
            ui.checkbox(&mut s.hidden, "");
            ui.end_row();
            ui.label("Mode");
            egui::ComboBox::from_id_salt("mode").selected_text(s.mode.clone()).show_ui(ui, |ui| {
                for m in ["Fast", "Safe", "Slow"] {
                    ui.selectable_value(&mut s.mode, m.to_owned(), m);
                }
            });
            ui.end_row();
            ui.label("Password");
            ui.add(egui::TextEdit::singleline(&mut s.password).password(true));
            ui.end_row();
            ui.label("Sort by");
            ui.horizontal(|ui| {
                for by in ["Name", "Size", "Date"] {
                    ui.radio_value(&mut s.sort, by.to_owned(), by);
                }
            });
            ui.end_row();
        });
        if ui.button("\u{e624}").on_hover_text("Clear").clicked() {
            s.refreshes += 1;
        }
        ui.add_enabled(false, egui::Button::new("Upload"));
        if ui.button("Reset").clicked() {
            s.confirm = true;
        }
    });
    if s.confirm {
        egui::Modal::new(egui::Id::unique("confirm-reset")).show(ui.ctx(), |ui| {
            ui.label("Reset everything?");
            if ui.button("Yes").clicked() {
                s.max_files = 100;
                s.resets += 1;
                s.confirm = false;
            }
            if ui.button("No").clicked() {
                s.confirm = false;
            }
        });
    }
}

fn harness() -> Harness<'static, Prefs> {
    harness_of(&Bridge::builder().build())
}

fn harness_of(bridge: &Bridge) -> Harness<'static, Prefs> {
    let state =
        Prefs { max_files: 100, name: "files".into(), mode: "Fast".into(), sort: "Name".into(), ..Prefs::default() };
    let mut h =
        Harness::builder(bridge).with_size([900.0, 700.0]).with_accessibility_check(false).build_ui_state(prefs, state);
    h.run();
    h
}

fn error(outcome: egui_mcp_bridge::Outcome) -> egui_mcp_bridge::ToolError {
    outcome.expect_err("the call is refused")
}

#[test]
fn an_undescribed_window_reads_with_the_labels_a_person_sees() {
    let h = harness();
    let w = by_title(&h, "Preferences");
    assert!(w.undescribed && !w.read_only, "{w:?}");
    let key = |k: &str| Some(k.to_owned());
    assert_eq!(
        crate::common::field_items(&w),
        [
            ("Max files".to_owned(), json!(100), key("max-files")),
            ("Name".to_owned(), json!("files"), key("name")),
            ("Show hidden".to_owned(), json!(false), key("show-hidden")),
            ("Mode".to_owned(), json!("Fast"), key("mode")),
            ("Password".to_owned(), json!(""), key("password")),
            ("Sort by".to_owned(), json!("Name"), key("sort-by")),
        ],
        "row labels, never the suffix; a u32 as an integer"
    );
    assert_eq!(
        controls(&w),
        [
            json!({"button": "Clear", "key": "clear"}),
            json!({"button": "Upload", "disabled": true}),
            json!({"button": "Reset", "key": "reset"}),
        ],
        "an icon button by its tooltip; a disabled one without a key"
    );
    let tools = h.tool_names();
    for tool in ["ui-preferences__edit_field", "ui-preferences__press"] {
        assert!(tools.contains(&tool.to_owned()), "{tool} in {tools:?}");
    }
    assert!(h.snapshot().state().operable_window_ids.contains(&w.id));
    let spec = h.snapshot().tool("ui-preferences__press").cloned().expect("listed");
    assert!(spec.hints.destructive, "the effect is the app's, unknown: clients ask their user");
}

#[test]
fn an_agent_sets_several_fields_in_one_call_and_the_window_shows_them() {
    let mut h = harness();
    let before = by_title(&h, "Preferences");
    let result = h
        .call(
            "ui-preferences__edit_field",
            json!({"fields": {"max-files": 250, "Name": "Ada", "show-hidden": true, "mode": "Safe", "sort-by": "Size"}, "expectedVersion": before.version}),
        )
        .expect("set");
    let after = by_title(&h, "Preferences");
    assert_eq!(result.version, Some(after.version));
    assert!(after.version > before.version);
    let s = h.kittest().state();
    assert_eq!(
        (s.max_files, s.name.as_str(), s.hidden, s.mode.as_str(), s.sort.as_str()),
        (250, "Ada", true, "Safe", "Size")
    );
    let values: Vec<Value> = crate::common::field_items(&after).into_iter().map(|f| f.1).take(4).collect();
    assert_eq!(values, [json!(250), json!("Ada"), json!(true), json!("Safe")]);
    assert_eq!(
        result.result,
        Some(
            json!({"fields": {"max-files": 250, "name": "Ada", "show-hidden": true, "mode": "Safe", "sort-by": "Size"}})
        ),
        "what the result says was done is what the window shows"
    );
    let message = result.message.unwrap_or_default();
    assert!(message.contains("Max files is 250") && message.contains("Mode is \"Safe\""), "{message}");
}

#[test]
fn a_press_runs_the_apps_handler_once_and_answers_after_its_effect() {
    let bridge = Bridge::builder().build();
    let mut h = harness_of(&bridge);
    let v = by_title(&h, "Preferences").version;
    let result = h.call("ui-preferences__press", json!({"control": "clear", "expectedVersion": v})).expect("pressed");
    assert_eq!(h.kittest().state().refreshes, 1, "the app's own handler ran, once");
    assert!(result.message.unwrap_or_default().starts_with("Pressed \"Clear\" in Preferences"));
    for _ in 0..3 {
        h.run();
    }
    assert_eq!(h.kittest().state().refreshes, 1, "and never again");
    let activity = bridge.activity();
    let last = activity.last().expect("the call is in the activity list");
    assert_eq!((last.tool.as_str(), last.error), ("ui-preferences__press", None));
    assert!(last.message.starts_with("Pressed \"Clear\""), "{last:?}");
}

#[test]
fn invalid_fields_are_all_named_and_nothing_is_set() {
    let mut h = harness();
    let v = by_title(&h, "Preferences").version;
    let e = error(h.call(
        "ui-preferences__edit_field",
        json!({"fields": {"name": "Bob", "max-files": "many", "colour": "red", "show-hidden": "yes", "sort-by": "Colour"}, "expectedVersion": v}),
    ));
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    let named: Vec<String> = e.fields.unwrap_or_default().into_iter().map(|f| f.field).collect();
    assert_eq!(named, ["max-files", "colour", "show-hidden", "sort-by"]);
    assert_eq!(h.kittest().state().name, "files", "all or none");
    let e =
        error(h.call("ui-preferences__edit_field", json!({"field": "max-files", "value": 5000, "expectedVersion": v})));
    assert_eq!(e.code, ErrorCode::ValidationFailed, "egui's range holds: {e:?}");
    assert_eq!(h.kittest().state().max_files, 100);
}

#[test]
fn a_combo_box_option_that_is_not_there_is_refused_and_the_popup_closed() {
    let mut h = harness();
    let v = by_title(&h, "Preferences").version;
    let e =
        error(h.call("ui-preferences__edit_field", json!({"field": "mode", "value": "Turbo", "expectedVersion": v})));
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    assert!(format!("{:?}", e.fields).contains("Fast, Safe, Slow"), "the options are named: {e:?}");
    assert_eq!(h.kittest().state().mode, "Fast");
    assert!(!egui::Popup::is_any_open(&h.kittest().ctx), "the popup is closed again");
}

#[test]
fn a_disabled_widget_an_old_version_and_a_blocked_window_are_refused() {
    let mut h = harness();
    let v = by_title(&h, "Preferences").version;
    let e = error(h.call("ui-preferences__press", json!({"control": "Upload", "expectedVersion": v})));
    assert_eq!(e.code, ErrorCode::ActionNotAvailable, "{e:?}");

    // The person types first: the agent's version is old.
    h.kittest().state_mut().name = "person".into();
    h.run();
    let e =
        error(h.call("ui-preferences__edit_field", json!({"field": "name", "value": "agent", "expectedVersion": v})));
    assert_eq!(e.code, ErrorCode::StaleState, "{e:?}");
    assert_eq!(h.kittest().state().name, "person");

    // Reset opens an egui::Modal: the window under it is not operable, its tools not listed.
    let v = by_title(&h, "Preferences").version;
    let opened = h.call("ui-preferences__press", json!({"control": "reset", "expectedVersion": v})).expect("pressed");
    let modal = by_title(&h, "Reset everything?");
    assert!(modal.modal && modal.undescribed, "{modal:?}");
    assert_eq!(opened.opened_window_ids, std::slice::from_ref(&modal.id));
    let state = h.snapshot().state().clone();
    assert_eq!(state.operable_window_ids, std::slice::from_ref(&modal.id), "the modal blocks the rest");
    assert!(!h.tool_names().iter().any(|t| t.starts_with("ui-preferences__")), "{:?}", h.tool_names());
    let e = error(h.call("ui-preferences__press", json!({"control": "clear"})));
    assert_ne!(e.code, ErrorCode::ValidationFailed, "refused for the modal: {e:?}");
    assert_eq!(h.kittest().state().refreshes, 0);

    let tool = format!("{}__press", modal.id);
    let done = h.call(&tool, json!({"control": "yes", "expectedVersion": modal.version})).expect("answered");
    assert!(done.message.unwrap_or_default().contains("the window closed"));
    assert_eq!((h.kittest().state().resets, h.kittest().state().confirm), (1, false));
    assert!(h.tool_names().contains(&"ui-preferences__press".to_owned()), "operable again");
}

#[test]
fn a_password_is_written_and_never_read() {
    let bridge = Bridge::builder().build();
    let mut h = harness_of(&bridge);
    let v = by_title(&h, "Preferences").version;
    let secret = "mark-undescribed-pw-7781";
    let result = h
        .call("ui-preferences__edit_field", json!({"field": "password", "value": secret, "expectedVersion": v}))
        .expect("written");
    assert_eq!(h.kittest().state().password, secret, "the person's field holds it");
    let result = serde_json::to_string(&result).unwrap_or_default();
    assert!(!result.contains(secret) && result.contains(MASK), "{result}");
    let state = h.snapshot().json().to_owned();
    assert!(!state.contains(secret), "{state}");
    assert!(state.contains(&format!(r#""label":"Password","value":"{MASK}","sensitive":true"#)), "{state}");
    let activity = format!("{:?}", bridge.activity());
    assert!(activity.contains("ui-preferences__edit_field") && !activity.contains(secret), "{activity}");
}

/// Over MCP, on a UI that keeps the read view's pace (a look a second at most, not every pass
/// as the harness does): the first call is checked against a look of the pass before it, the
/// press runs the app's handler once, and an old version is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_a_paced_ui_looks_before_it_applies() {
    use crate::common::{Client, Lifecycle};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    let bridge = Bridge::builder().build();
    let presses = Arc::new(AtomicU32::new(0));
    let in_app = Arc::clone(&presses);
    let _ui = egui_mcp_bridge::testing::HeadlessUi::start(&bridge, "paced-ui", move || {
        let presses = in_app;
        move |ui: &mut egui::Ui| {
            egui::Window::new("Job").show(ui.ctx(), |ui| {
                ui.label(format!("Ran {} times", presses.load(Ordering::Acquire)));
                if ui.button("Run").clicked() {
                    presses.fetch_add(1, Ordering::AcqRel);
                }
            });
        }
    });
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let _serving = bridge.serve_io("duplex", server_io).expect("serve");
    let mut client = Client::connect(client_io, Lifecycle::Legacy, "paced-agent").await;
    client.subscribe().await;
    while !client.read().await.to_string().contains("ui-job") {
        client.next_note().await;
    }
    let version = client.version("ui-job").await;
    let ran = client.call("ui-job__press", json!({"control": "run", "expectedVersion": version})).await;
    let message = ran.ok()["message"].as_str().unwrap_or_default().to_owned();
    assert_eq!(presses.load(Ordering::Acquire), 1, "the app's handler ran once");
    assert!(message.contains("Ran 1 times"), "what changed is told: {message}");
    let after = client.version("ui-job").await;
    assert_eq!(ran.ok()["version"], json!(after), "answered with the version that shows it");
    let stale = client.call("ui-job__press", json!({"control": "run", "expectedVersion": version})).await;
    assert_eq!(stale.code(), "stale_state");
    assert_eq!(presses.load(Ordering::Acquire), 1);
}

/// What a real app (egui's own demo) showed: a row named by a link to its documentation, a
/// menu bar, checkboxes below a widget that comes and goes (egui's automatic ids follow
/// positions), a link labelled like a checkbox.
#[derive(Default)]
struct Gallery {
    steps: bool,
    alpha: bool,
    beta: bool,
    text: String,
    news: u32,
    notes_closed: bool,
}

fn gallery(ui: &mut egui::Ui, s: &mut Gallery) {
    egui::Panel::top("menu").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("New").clicked() {
                    s.news += 1;
                }
            });
        });
    });
    egui::Window::new("Gallery").show(ui.ctx(), |ui| {
        egui::Grid::new("gallery").show(ui, |ui| {
            let link = ui.link("Text");
            ui.text_edit_singleline(&mut s.text).labelled_by(link.id);
            ui.end_row();
        });
        ui.checkbox(&mut s.steps, "Use steps");
        if s.steps {
            let mut step = 1.0;
            ui.add(egui::DragValue::new(&mut step));
            ui.checkbox(&mut s.steps, "Exact steps");
        }
        ui.checkbox(&mut s.alpha, "Alpha");
        ui.checkbox(&mut s.beta, "Beta");
        let _ = ui.link("Beta");
    });
    let mut open = !s.notes_closed;
    egui::Window::new("Notes").open(&mut open).show(ui.ctx(), |ui| ui.label("Nothing yet"));
    s.notes_closed = !open;
}

fn gallery_harness() -> Harness<'static, Gallery> {
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge)
        .with_size([900.0, 700.0])
        .with_accessibility_check(false)
        .build_ui_state(gallery, Gallery::default());
    h.run();
    h
}

#[test]
fn a_field_set_to_what_it_shows_is_answered_and_the_next_call_goes_on() {
    let mut h = harness();
    let done = h.call(
        "ui-preferences__edit_field",
        json!({"fields": {"show-hidden": false, "mode": "Fast", "sort-by": "Name"}}),
    );
    assert!(done.is_ok(), "{done:?}");
    let next = h.call("ui-preferences__press", json!({"control": "clear"}));
    assert!(next.is_ok(), "{next:?}");
    assert_eq!(h.kittest().state().refreshes, 1);
}

#[test]
fn keys_follow_labels_not_positions() {
    let mut h = gallery_harness();
    h.call("ui-gallery__edit_field", json!({"field": "use-steps", "value": true})).expect("ticked");
    // Widgets appeared above Alpha and Beta: their keys still name them.
    h.call("ui-gallery__edit_field", json!({"field": "beta", "value": true})).expect("ticked");
    let s = h.kittest().state();
    assert!(s.beta && !s.alpha, "Beta, and only Beta: alpha {} beta {}", s.alpha, s.beta);
}

#[test]
fn a_fields_key_is_never_taken_for_a_controls_label() {
    let mut h = gallery_harness();
    let e = error(h.call("ui-gallery__press", json!({"control": "beta"})));
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    assert!(format!("{:?}", e.fields).contains("set it with edit_field"), "{e:?}");
    assert!(!h.kittest().state().beta);
}

#[test]
fn a_row_named_by_a_link_and_a_menus_items_are_read_and_operated() {
    let mut h = gallery_harness();
    let w = by_title(&h, "Gallery");
    assert!(
        crate::common::field_items(&w).iter().any(|f| f.0 == "Text" && f.2.as_deref() == Some("text")),
        "{:?}",
        crate::common::field_items(&w)
    );
    h.call("ui-gallery__edit_field", json!({"field": "text", "value": "hello"})).expect("typed");
    assert_eq!(h.kittest().state().text, "hello");

    let menu = h.snapshot().state().windows.iter().find(|w| w.title.starts_with("Panel: File")).cloned();
    let menu = menu.expect("the menu bar, titled by its menus");
    let open = h.call(&format!("{}__press", menu.id), json!({"control": "file"})).expect("opened");
    assert!(open.message.unwrap_or_default().contains("new: New"), "the menu's items appear");
    h.call(&format!("{}__press", menu.id), json!({"control": "new"})).expect("pressed");
    assert_eq!(h.kittest().state().news, 1);
}

/// A form egui draws alone: a one-line text edit with a character limit and a bounded drag
/// value, for the property tests against egui's own widgets.
#[derive(Default)]
struct Plain {
    name: String,
    level: f64,
}

fn plain_form(ui: &mut egui::Ui, s: &mut Plain) {
    egui::Window::new("Form").show(ui.ctx(), |ui| {
        egui::Grid::new("form").show(ui, |ui| {
            ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut s.name).char_limit(20));
            ui.end_row();
            ui.label("Level");
            ui.add(egui::DragValue::new(&mut s.level).range(-50.0..=50.0));
            ui.end_row();
        });
    });
}

fn plain_harness() -> Harness<'static, Plain> {
    let mut h = Harness::builder(&Bridge::builder().build())
        .with_size([600.0, 400.0])
        .with_accessibility_check(false)
        .build_ui_state(plain_form, Plain::default());
    h.run();
    h
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 40, ..proptest::prelude::ProptestConfig::default() })]

    /// egui's text edit decides what it holds (its character limit, one line): the result
    /// always says what it then holds, and says it differs exactly when it does.
    #[test]
    fn an_undescribed_text_edit_holds_what_the_result_says(text in "[a-zA-Zé .\\-\n]{0,30}") {
        let mut h = plain_harness();
        let r = h.call("ui-form__edit_field", json!({"field": "name", "value": text})).expect("text is accepted");
        let held = h.kittest().state().name.clone();
        proptest::prop_assert_eq!(r.result.as_ref().map(|v| v["fields"]["name"].clone()), Some(json!(held)));
        let differs = r.message.as_deref().unwrap_or_default().contains("(asked");
        proptest::prop_assert_eq!(differs, held != text, "{:?} held as {:?}", text, held);
        proptest::prop_assert_eq!(held == text, !text.contains('\n') && text.chars().count() <= 20);
    }

    /// egui's drag value keeps its range: a number in it is accepted and held exactly, one
    /// outside it is refused and nothing changes.
    #[test]
    fn an_undescribed_drag_value_accepts_exactly_its_range(value in -100.0f64..100.0) {
        let mut h = plain_harness();
        let r = h.call("ui-form__edit_field", json!({"field": "level", "value": value}));
        let held = h.kittest().state().level;
        if (-50.0..=50.0).contains(&value) {
            proptest::prop_assert!(r.is_ok(), "{:?}", r);
            proptest::prop_assert_eq!(held, value);
        } else {
            proptest::prop_assert_eq!(r.map_err(|e| e.code), Err(ErrorCode::ValidationFailed));
            proptest::prop_assert_eq!(held, 0.0);
        }
    }
}

/// A window the app has not described is closed with its own title-bar button, as the person
/// closes it.
#[test]
fn an_undescribed_window_is_closed_with_its_close_button() {
    let mut h = gallery_harness();
    let notes = by_title(&h, "Notes");
    assert!(controls(&notes).contains(&json!({"button": "Close window", "key": "close-window"})), "{notes:?}");
    let closed = h.call("ui-notes__press", json!({"control": "close-window"})).expect("pressed");
    assert!(closed.message.unwrap_or_default().contains("the window closed"));
    assert!(h.kittest().state().notes_closed);
    assert!(h.window("ui-notes").is_none());
}
