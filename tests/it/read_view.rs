//! The read view: what an app draws but has not described is published read-only (from egui's
//! accessibility tree), and the developer's list says what was left out.

use crate::common::{Client, Lifecycle, Note};
use egui_mcp_bridge::protocol::{Block, MASK, Window};
use egui_mcp_bridge::testing::{Harness, HeadlessUi};
use egui_mcp_bridge::{ActionSpec, Bridge, ReadView};
use serde_json::{Value, json};

/// A plain egui app, no declarations at all: a settings window and a top panel.
#[derive(Default)]
struct Plain {
    name: String,
    password: String,
    logging: bool,
    connected: bool,
    clicks: u32,
}

fn plain(ui: &mut egui::Ui, s: &mut Plain) {
    egui::Panel::top("toolbar").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label("Serial monitor");
            let _ = ui.button("Open file");
        });
    });
    egui::Window::new("Settings").show(ui.ctx(), |ui| {
        ui.label("Port settings");
        ui.horizontal(|ui| {
            ui.label("Name");
            ui.text_edit_singleline(&mut s.name);
        });
        ui.horizontal(|ui| {
            ui.label("Password");
            ui.add(egui::TextEdit::singleline(&mut s.password).password(true));
        });
        ui.checkbox(&mut s.logging, "Log to file");
        ui.add_enabled(s.connected, egui::Button::new("Disconnect"));
        if ui.button("Connect").clicked() {
            s.clicks += 1;
        }
    });
}

fn harness<S>(bridge: &Bridge, app: impl FnMut(&mut egui::Ui, &mut S) + 'static, state: S) -> Harness<'static, S> {
    let mut h =
        Harness::builder(bridge).with_size([900.0, 600.0]).with_accessibility_check(false).build_ui_state(app, state);
    h.run();
    h
}

/// The window titled `title` in the last published state.
pub(crate) fn by_title(h: &Harness<'_, impl Sized>, title: &str) -> Window {
    let snapshot = h.snapshot();
    snapshot
        .state()
        .windows
        .iter()
        .find(|w| w.title == title)
        .cloned()
        .unwrap_or_else(|| panic!("no window titled {title:?} in {:?}", snapshot.state()))
}

fn fields(w: &Window) -> Vec<(String, Value, bool, bool)> {
    w.blocks
        .iter()
        .filter_map(|b| match b {
            Block::Fields { items, .. } => {
                Some(items.iter().map(|i| (i.label.clone(), i.value.clone(), i.sensitive, i.disabled)))
            }
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn an_app_with_no_declarations_is_read_in_full_and_its_secrets_stay_masked() {
    let bridge = Bridge::builder().read_view(ReadView::ReadOnly).build();
    let state = Plain { name: "COM3".into(), password: "hunter2".into(), ..Plain::default() };
    let h = harness(&bridge, plain, state);

    let settings = by_title(&h, "Settings");
    assert!(settings.read_only && !settings.modal, "{settings:?}");
    assert!(settings.summary.contains("Not described by the app"), "{}", settings.summary);
    assert_eq!(
        fields(&settings),
        [
            ("Name".to_owned(), json!("COM3"), false, false),
            ("Password".to_owned(), json!(MASK), true, false),
            ("Log to file".to_owned(), json!(false), false, false),
        ]
    );
    assert_eq!(
        crate::common::controls(&settings),
        [json!({"button": "Disconnect", "disabled": true}), json!({"button": "Connect"})]
    );
    let texts: Vec<&str> = settings
        .blocks
        .iter()
        .filter_map(|b| if let Block::Text { text, .. } = b { Some(text.as_str()) } else { None })
        .collect();
    assert_eq!(texts, ["Port settings"]);

    let toolbar = by_title(&h, "Panel: Serial monitor");
    assert!(toolbar.read_only);
    assert_eq!(crate::common::controls(&toolbar), [json!({"button": "Open file"})]);

    let json = h.snapshot().json().to_owned();
    assert!(!json.contains("hunter2"), "the password never leaves: {json}");
    assert!(json.contains(r#""readOnly":true"#), "{json}");
}

#[test]
fn read_only_windows_have_no_tools_are_never_operable_and_keep_their_ids_and_versions() {
    let bridge = Bridge::builder().read_view(ReadView::ReadOnly).build();
    let mut h = harness(&bridge, plain, Plain { name: "COM3".into(), ..Plain::default() });
    let settings = by_title(&h, "Settings");
    assert_eq!(settings.id, "ui-settings");
    let state = h.snapshot().state().clone();
    assert!(
        state.operable_window_ids.is_empty(),
        "read-only windows cannot be operated: {:?}",
        state.operable_window_ids
    );
    assert!(h.tool_names().iter().all(|t| t.starts_with("app__")), "no tools of theirs: {:?}", h.tool_names());

    // Nothing changes: neither id nor version moves.
    for _ in 0..3 {
        h.run();
    }
    let again = by_title(&h, "Settings");
    assert_eq!((again.id.as_str(), again.version), (settings.id.as_str(), settings.version));

    // The person types: the version moves by one, the id stays.
    h.kittest().state_mut().name = "COM4".into();
    h.run();
    let changed = by_title(&h, "Settings");
    assert_eq!(changed.id, settings.id);
    assert_eq!(changed.version, settings.version + 1);
    assert_eq!(fields(&changed)[0].1, json!("COM4"));
}

/// The test app of `read_view_leaves_the_declared_windows_as_they_were`: a declared window with
/// an action, its modal dialog, and an undescribed window.
fn mixed(bridge: &Bridge, ui: &mut egui::Ui, dialog: &mut bool) {
    bridge.window("editor").title("Editor").summary("An editor").ui(ui, |w, ui| {
        if let Some(press) = w.button(ui, "ask", ActionSpec::new("Ask")).inner {
            *dialog = true;
            press.ok("Asked");
        }
    });
    if *dialog {
        bridge.window("question").title("Question").modal_of("editor").ui(ui, |w, ui| {
            if let Some(press) = w.button(ui, "yes", ActionSpec::new("Yes")).inner {
                *dialog = false;
                press.ok("Answered");
            }
        });
    }
    egui::Window::new("Log").show(ui.ctx(), |ui| ui.label("Started"));
}

#[test]
fn the_read_view_leaves_the_declared_windows_as_they_were() {
    let run = |read_view: ReadView| {
        let bridge = Bridge::builder().read_view(read_view).build();
        let b = bridge.clone();
        let mut h = harness(&bridge, move |ui, dialog: &mut bool| mixed(&b, ui, dialog), false);
        let mut seen = vec![(h.snapshot().state().clone(), h.tool_names())];
        let _ = h.call("editor__ask", json!({}));
        seen.push((h.snapshot().state().clone(), h.tool_names()));
        let question = bridge.external_id("question").expect("the dialog is open");
        let _ = h.call(&format!("{question}__yes"), json!({}));
        seen.push((h.snapshot().state().clone(), h.tool_names()));
        seen
    };
    let (on, off) = (run(ReadView::ReadOnly), run(ReadView::Off));
    for ((state_on, tools_on), (state_off, tools_off)) in on.iter().zip(&off) {
        assert_eq!(tools_on, tools_off, "the read view adds no tool");
        assert_eq!(state_on.operable_window_ids, state_off.operable_window_ids);
        let declared: Vec<_> = state_on.windows.iter().filter(|w| !w.read_only).collect();
        assert_eq!(declared.len(), state_off.windows.len(), "{state_on:#?}\n{state_off:#?}");
        for (a, b) in declared.iter().zip(&state_off.windows) {
            assert_eq!(a, &b, "a declared window is published as without the read view");
        }
        let read_only: Vec<&str> = state_on.windows.iter().filter(|w| w.read_only).map(|w| w.title.as_str()).collect();
        assert_eq!(read_only, ["Log"], "only the undescribed window is added");
    }
}

/// A declared window with a button the app forgot to describe, until it does.
fn counter(bridge: &Bridge, ui: &mut egui::Ui, s: &mut (u32, bool)) {
    bridge.window("counter").title("Counter").ui(ui, |w, ui| {
        if let Some(press) = w.button(ui, "add", ActionSpec::new("Add one")).inner {
            s.0 += 1;
            press.ok("Added");
        }
        if s.1 {
            if let Some(press) = w.button(ui, "reset", ActionSpec::new("Reset")).inner {
                s.0 = 0;
                press.ok("Reset");
            }
        } else if ui.button("Reset").clicked() {
            s.0 = 0;
        }
        w.form(ui, "f", |f| {
            f.value("Count", u64::from(s.0));
        });
    });
}

#[test]
fn the_harness_lists_an_undescribed_button_until_it_is_described() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let mut h = harness(&bridge, move |ui, s: &mut (u32, bool)| counter(&b, ui, s), (0, false));
    let listed: Vec<String> = h.undescribed().iter().map(ToString::to_string).collect();
    assert_eq!(listed, [r#"button "Reset" in "Counter""#]);
    assert_eq!(bridge.undescribed_widgets(), h.undescribed());

    h.kittest().state_mut().1 = true;
    h.run();
    assert_eq!(h.undescribed(), [], "described now: nothing is left out");
}

#[test]
fn an_app_can_turn_the_read_view_off_or_hide_a_panel_from_it() {
    let off = Bridge::builder().read_view(false).build();
    let h = harness(&off, plain, Plain::default());
    assert!(h.snapshot().state().windows.is_empty(), "{:?}", h.snapshot().state());

    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let h = harness(
        &bridge,
        move |ui, s: &mut Plain| {
            egui::Panel::bottom("secret").show(ui, |ui| {
                b.hide_from_read_view(ui);
                ui.label("Recovery code 1234-5678");
            });
            plain(ui, s);
        },
        Plain::default(),
    );
    let json = h.snapshot().json().to_owned();
    assert!(!json.contains("Recovery code"), "{json}");
    assert!(json.contains("Settings"), "the rest is read: {json}");
}

/// The read view's pace: no tree while no agent is about; once one is, a look at once, then at
/// most one a second, what was seen still published in the passes between.
#[test]
fn the_tree_is_built_only_while_an_agent_is_about_and_a_second_apart() {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let mut name = String::from("COM3");
    let pass = |name: &mut String| {
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1200.0, 900.0))),
            ..Default::default()
        };
        let mut out = ctx.run_ui(raw, |ui| {
            egui::Window::new("Settings").show(ui.ctx(), |ui| {
                ui.horizontal(|ui| {
                    ui.label("Name");
                    ui.text_edit_singleline(name);
                });
            });
        });
        out.textures_delta.clear();
        out.platform_output.accesskit_update.is_some()
    };
    let titles = |b: &Bridge| b.snapshot().state().windows.iter().map(|w| w.title.clone()).collect::<Vec<_>>();
    assert!(!pass(&mut name) && !pass(&mut name), "no agent: egui builds no tree");
    assert!(titles(&bridge).is_empty());

    drop(egui_mcp_bridge::testing::Agent::new(&bridge).snapshot()); // an agent reads
    assert!(pass(&mut name), "an agent came: a look at once");
    assert_eq!(titles(&bridge), ["Settings"]);
    name.push('!');
    assert!(!pass(&mut name), "within the second: no tree");
    assert_eq!(titles(&bridge), ["Settings"], "what was seen is still published");
}

/// What a declared window holds undescribed is readable in it, after its own blocks: they keep
/// their places and meaning, and the version moves only when that part changes.
#[test]
fn what_a_declared_window_holds_undescribed_is_read_after_its_own_blocks() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let mut h = harness(&bridge, move |ui, s: &mut (u32, bool)| counter(&b, ui, s), (0, false));
    let window = h.window("counter").expect("declared");
    let ids: Vec<Option<&str>> = window.blocks.iter().map(Block::id).collect();
    assert_eq!(ids, [Some("f"), Some("undescribed-controls")], "{window:?}");
    assert_eq!(crate::common::controls(&window), [json!({"button": "Reset"})]);
    assert!(!window.read_only);
    h.run();
    h.run();
    assert_eq!(h.window("counter").map(|w| w.version), Some(window.version), "no change, no new version");

    h.kittest().state_mut().1 = true; // Reset described now
    h.run();
    let described = h.window("counter").expect("declared");
    let ids: Vec<Option<&str>> = described.blocks.iter().map(Block::id).collect();
    assert_eq!(ids, [Some("f")], "{described:?}");
    assert!(h.tool_names().contains(&"counter__reset".to_owned()));
}

/// Over MCP, as a client would: an app that describes nothing, its UI on a headless loop, an
/// agent that connects and reads `app://windows` (the look is published, then notified).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_over_mcp_reads_an_app_that_describes_nothing() {
    let bridge = Bridge::builder().read_view(ReadView::ReadOnly).build();
    let _ui = HeadlessUi::start(&bridge, "plain-ui", || {
        let mut s = Plain { name: "COM3".into(), password: "hunter2".into(), ..Plain::default() };
        move |ui: &mut egui::Ui| plain(ui, &mut s)
    });
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let _serving = bridge.serve_io("duplex", server_io).expect("serve");
    let mut client = Client::connect(client_io, Lifecycle::Legacy, "test-client").await;
    client.subscribe().await;
    let mut state = client.read().await;
    // The look follows the agent's arrival: published, then notified.
    while !state.to_string().contains("ui-settings") {
        assert_eq!(client.next_note().await, Note::Updated("app://windows".into()), "{state}");
        state = client.read().await;
    }
    let settings = crate::common::window(&state, "ui-settings");
    assert_eq!(settings["readOnly"], true);
    assert_eq!(settings["blocks"][1]["items"][0], json!({"label": "Name", "value": "COM3"}));
    assert_eq!(settings["blocks"][1]["items"][1], json!({"label": "Password", "value": MASK, "sensitive": true}));
    assert!(!state.to_string().contains("hunter2"));
    assert_eq!(state["operableWindowIds"], json!([]));
    let tools = client.tool_names().await;
    assert!(tools.iter().all(|t| t.starts_with("app__")), "{tools:?}");
}

/// A declared window the person collapsed (egui then runs none of its contents) is still the
/// app's: no read-only copy of it appears beside it.
#[test]
fn a_collapsed_declared_window_is_not_read_as_an_undescribed_one() {
    use egui_kittest::kittest::Queryable as _;
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let mut h = harness(&bridge, move |ui, s: &mut (u32, bool)| counter(&b, ui, s), (0, true));
    h.kittest().get_by_label("Hide").click();
    h.run();
    let titles: Vec<String> = h.snapshot().state().windows.iter().map(|w| w.title.clone()).collect();
    assert_eq!(titles, ["Counter"], "{:?}", h.snapshot().state());
}

/// A pass that was not looked at (within the pace of one look a second) asks egui itself for
/// the pass of the next look, through egui's repaint callback: what eframe listens to (it
/// ignores the output's `repaint_delay`). Otherwise a change the app made in such a pass, with
/// no input after, was never looked at under eframe.
#[test]
fn a_pass_not_looked_at_asks_egui_for_the_next_look() {
    use std::sync::Arc;
    use std::time::Duration;
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let asked: Arc<parking_lot::Mutex<Vec<Duration>>> = Arc::default();
    let to = Arc::clone(&asked);
    ctx.set_request_repaint_callback(move |info| to.lock().push(info.delay));
    let time = std::cell::Cell::new(0.0);
    let pass = || {
        time.set(time.get() + 0.1); // the window's fade-in ends
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(900.0, 600.0))),
            time: Some(time.get()),
            ..Default::default()
        };
        let mut out = ctx.run_ui(raw, |ui| {
            egui::Window::new("Status").show(ui.ctx(), |ui| ui.label("Loading"));
        });
        out.textures_delta.clear();
    };
    for _ in 0..3 {
        pass(); // the window settles (its sizing pass), with no agent about
    }
    drop(egui_mcp_bridge::testing::Agent::new(&bridge).snapshot()); // an agent reads
    pass(); // a look
    // The passes after it, within the pace, are not looked at. While one asks for the next at
    // once (the arrival's wake-up runs two), egui runs it; the last asks for the look.
    for _ in 0..5 {
        asked.lock().clear();
        pass();
        let asked = asked.lock().clone();
        if asked.iter().any(Duration::is_zero) {
            continue;
        }
        assert!(
            asked.iter().any(|d| !d.is_zero() && *d <= Duration::from_secs(1)),
            "egui was asked for no pass within the pace (one second): {asked:?}"
        );
        return;
    }
    panic!("egui was asked for passes at once, five times over");
}

/// A UI thread whose passes take a while, as a big app's do: the arrival's look is not yet
/// published when the first read comes.
fn slow_plain() -> impl FnMut(&mut egui::Ui) {
    let mut s = Plain { name: "COM3".into(), ..Plain::default() };
    move |ui: &mut egui::Ui| {
        std::thread::sleep(std::time::Duration::from_millis(40));
        plain(ui, &mut s);
    }
}

/// The first read of the state after an agent arrives, as the resource or as the tool, waits
/// (bounded) for the read view's first look: it already holds the windows the app has not
/// described.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_read_after_an_agent_arrives_holds_the_undescribed_windows() {
    for (lifecycle, as_tool) in [(Lifecycle::Legacy, false), (Lifecycle::Modern, false), (Lifecycle::Legacy, true)] {
        let bridge = Bridge::builder().build();
        let _ui = HeadlessUi::start(&bridge, "slow-ui", slow_plain);
        // The app has drawn before any agent came (watching is not asking).
        let mut published = egui_mcp_bridge::testing::Agent::new(&bridge).watch();
        let first = tokio::time::timeout(crate::common::WAIT, published.wait_for(|s| s.windows_revision() > 0));
        assert!(first.await.is_ok_and(|r| r.is_ok()), "the app's first pass");
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let _serving = bridge.serve_io("duplex", server_io).expect("serve");
        let client = Client::connect(client_io, lifecycle, "test-client").await;
        let state = if as_tool {
            client.call("app__read_windows", json!({})).await.ok()["result"].clone()
        } else {
            client.read().await
        };
        assert!(
            state.to_string().contains("ui-settings"),
            "{lifecycle:?}, as the tool: {as_tool}: the first read holds no Settings window: {state}"
        );
    }
}

/// The first `tools/list` after an agent arrives waits (bounded) for the read view's first look,
/// as the first read does: it already holds the generic tools of the windows the app has not
/// described, for a client that lists once and ignores `tools/list_changed`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_tool_list_after_an_agent_arrives_holds_the_generic_tools() {
    for lifecycle in [Lifecycle::Legacy, Lifecycle::Modern] {
        let bridge = Bridge::builder().build();
        let _ui = HeadlessUi::start(&bridge, "slow-ui", slow_plain);
        let mut published = egui_mcp_bridge::testing::Agent::new(&bridge).watch();
        let first = tokio::time::timeout(crate::common::WAIT, published.wait_for(|s| s.windows_revision() > 0));
        assert!(first.await.is_ok_and(|r| r.is_ok()), "the app's first pass");
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let _serving = bridge.serve_io("duplex", server_io).expect("serve");
        let client = Client::connect(client_io, lifecycle, "test-client").await;
        let names = client.tool_names().await;
        assert!(
            names.iter().any(|n| n == "ui-settings__edit_field") && names.iter().any(|n| n == "ui-settings__press"),
            "{lifecycle:?}: the first tool list holds no generic tool of the Settings window: {names:?}"
        );
    }
}

/// A state that changed with no pass at all (nothing asked egui for one) cannot be looked at
/// until a pass runs: an agent's read wakes the app for a look once the last look is a pace
/// old, and a later read shows it. The UI's loop here runs no pass of its own for a minute.
/// "Within about a second" is checked with slack (3 s): a correctness bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_s_reads_wake_the_app_for_a_look() {
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    let bridge = Bridge::builder().build();
    let name = Arc::new(parking_lot::Mutex::new(String::from("COM3")));
    let shared = Arc::clone(&name);
    let options =
        egui_mcp_bridge::passes::headless::HeadlessOptions { max_idle: Duration::from_secs(60), ..Default::default() };
    let _ui = HeadlessUi::start_with(&bridge, "quiet-ui", options, move || {
        let mut s = Plain::default();
        move |ui: &mut egui::Ui| {
            s.name.clone_from(&shared.lock());
            plain(ui, &mut s);
        }
    });
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let _serving = bridge.serve_io("duplex", server_io).expect("serve");
    let client = Client::connect(client_io, Lifecycle::Legacy, "test-client").await;
    let name_read = |state: &Value| {
        let windows = state["windows"].as_array().cloned().unwrap_or_default();
        let settings = windows.into_iter().find(|w| w["id"] == "ui-settings").unwrap_or_default();
        settings["blocks"][1]["items"][0]["value"].clone()
    };
    // Three times: the first read (the arrival's look), then two changes; the first may be
    // seen by the look the pace asks for after the arrival's, after which the app runs no
    // pass until something asks.
    for (k, next) in ["COM3", "COM4", "COM5"].into_iter().enumerate() {
        if k > 0 {
            next.clone_into(&mut name.lock());
        }
        let changed = Instant::now();
        loop {
            let state = client.read().await;
            if name_read(&state) == json!(next) {
                break;
            }
            assert!(changed.elapsed() < Duration::from_secs(3), "reads did not show {next}: {state}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}
