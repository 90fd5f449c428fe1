//! Reliability round 5 on the day-one generic tools (`{id}__press`, `{id}__edit_field` of a
//! window the app has not described): an answer says what happened and only that.

use std::time::{Duration, Instant};

use crate::read_view::by_title;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{Bridge, ErrorCode};
use serde_json::json;

/// An app whose handlers take long: past `until` (the call's budget) before they return.
#[derive(Default)]
struct Slow {
    presses: u32,
    text: String,
    until: Option<Instant>,
    /// Each press takes this long besides (an app whose handler does some work).
    each: Duration,
}

impl Slow {
    /// The app works until `until` (what a long handler does to the call's budget).
    fn work(&self) {
        if let Some(until) = self.until {
            // Time passing is what is waited for: the call's budget runs out meanwhile.
            while let Some(left) = until.checked_duration_since(Instant::now()) {
                std::thread::sleep(left);
            }
        }
    }
}

fn slow(ui: &mut egui::Ui, s: &mut Slow) {
    egui::Window::new("Slow").show(ui.ctx(), |ui| {
        if ui.button("Go").clicked() {
            s.presses += 1;
            s.work();
            std::thread::sleep(s.each); // the app's own work, not a wait of the test
        }
        ui.horizontal(|ui| {
            ui.label("Note");
            if ui.text_edit_singleline(&mut s.text).changed() {
                s.work();
            }
        });
    });
}

const BUDGET: Duration = Duration::from_millis(200);

fn slow_harness() -> Harness<'static, Slow> {
    let bridge = Bridge::builder().call_timeout(BUDGET).build();
    let mut h = Harness::builder(&bridge)
        .with_size([600.0, 400.0])
        .with_accessibility_check(false)
        .build_ui_state(slow, Slow::default());
    h.run();
    h
}

/// Issue 46, item 1: a press applied while the call's budget runs out was answered
/// `action_timeout` (the agent presses again: the app's action runs twice). Once the press is in
/// the app's input, the answer is what it did.
#[test]
fn a_generic_press_applied_as_its_budget_runs_out_is_answered_with_what_it_did() {
    let mut h = slow_harness();
    let v = by_title(&h, "Slow").version;
    h.kittest().state_mut().until = Some(Instant::now() + BUDGET + Duration::from_millis(100));
    let outcome = h.call("ui-slow__press", json!({"control": "go", "expectedVersion": v}));
    let presses = h.kittest().state().presses;
    match outcome {
        Err(e) if e.code == ErrorCode::ActionTimeout => {
            assert_eq!(presses, 0, "answered action_timeout, yet applied: {e:?}");
        }
        Err(e) => panic!("{e:?}"),
        Ok(r) => {
            assert_eq!(presses, 1);
            assert!(r.message.unwrap_or_default().starts_with("Pressed \"Go\""));
        }
    }
    assert_eq!(presses, 1, "the press went into the app's input, so it ran");
}

/// The same for `edit_field`: the window never ends showing a value whose call was answered
/// `action_timeout`.
#[test]
fn a_generic_edit_applied_as_its_budget_runs_out_is_answered_with_what_it_did() {
    let mut h = slow_harness();
    let v = by_title(&h, "Slow").version;
    h.kittest().state_mut().until = Some(Instant::now() + BUDGET + Duration::from_millis(100));
    let outcome = h.call("ui-slow__edit_field", json!({"field": "note", "value": "late", "expectedVersion": v}));
    let text = h.kittest().state().text.clone();
    match outcome {
        Err(e) if e.code == ErrorCode::ActionTimeout => {
            assert_eq!(text, "", "answered action_timeout, yet the field shows the value: {e:?}");
        }
        Err(e) => panic!("{e:?}"),
        Ok(r) => assert!(r.message.unwrap_or_default().contains("late")),
    }
    assert_eq!(text, "late");
}

/// Item 1 through the server's wait (as an MCP client's call is waited for): a press whose effect
/// is under way when the budget runs out is not ended with `action_timeout`; its answer is waited
/// for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_server_a_generic_press_applied_as_its_budget_runs_out_is_answered_with_what_it_did() {
    use parking_lot::Mutex;
    use std::sync::Arc;

    let bridge = Bridge::builder().call_timeout(BUDGET).build();
    let shared = Arc::new(Mutex::new(Slow::default()));
    let in_app = Arc::clone(&shared);
    let _ui = egui_mcp_bridge::testing::HeadlessUi::start(&bridge, "slow-ui", move || {
        let state = in_app;
        move |ui: &mut egui::Ui| slow(ui, &mut state.lock())
    });
    let agent = egui_mcp_bridge::testing::Agent::new(&bridge);
    let mut published = agent.watch();
    while agent.snapshot().window("ui-slow").is_none_or(|w| !w.blocks.iter().any(|b| format!("{b:?}").contains("go"))) {
        published.changed().await.expect("the UI runs");
    }
    shared.lock().until = Some(Instant::now() + BUDGET + Duration::from_millis(100));
    let outcome = agent.call("ui-slow__press", json!({"control": "go"})).await;
    let presses = shared.lock().presses;
    match outcome {
        Err(e) if e.code == ErrorCode::ActionTimeout => assert_eq!(presses, 0, "answered action_timeout, yet applied"),
        Err(e) => panic!("{e:?}"),
        Ok(r) => assert!(r.message.unwrap_or_default().starts_with("Pressed \"Go\"")),
    }
    assert_eq!(presses, 1);
}

/// A window with a text field the person cannot type in (`interactive(false)`), one they can,
/// two buttons that share a label, and a window whose only text field is read only.
#[derive(Default)]
struct Record {
    shown: String,
    name: String,
    deleted: [u32; 2],
    note: String,
    cities: [String; 2],
}

fn record(ui: &mut egui::Ui, s: &mut Record) {
    egui::Window::new("Record").show(ui.ctx(), |ui| {
        ui.horizontal(|ui| {
            ui.label("Read only");
            ui.add(egui::TextEdit::singleline(&mut s.shown).interactive(false));
        });
        ui.horizontal(|ui| {
            ui.label("Name");
            ui.text_edit_singleline(&mut s.name);
        });
        for d in &mut s.deleted {
            if ui.button("Delete").clicked() {
                *d += 1;
            }
        }
    });
    egui::Window::new("Cities").default_pos([400.0, 250.0]).show(ui.ctx(), |ui| {
        for city in &mut s.cities {
            ui.horizontal(|ui| {
                ui.label("City");
                ui.text_edit_singleline(city);
            });
        }
    });
    egui::Window::new("Note").default_pos([400.0, 20.0]).show(ui.ctx(), |ui| {
        ui.horizontal(|ui| {
            ui.label("Note");
            ui.add(egui::TextEdit::multiline(&mut s.note).interactive(false));
        });
        ui.label("Shown only");
    });
}

fn record_harness() -> Harness<'static, Record> {
    let bridge = Bridge::builder().build();
    let state = Record { shown: "Fixed".into(), note: "Kept".into(), ..Record::default() };
    let mut h = Harness::builder(&bridge)
        .with_size([800.0, 500.0])
        .with_accessibility_check(false)
        .build_ui_state(record, state);
    h.run();
    h
}

fn field_keys(w: &egui_mcp_bridge::protocol::Window) -> Vec<(String, Option<String>)> {
    w.blocks
        .iter()
        .filter_map(|b| match b {
            egui_mcp_bridge::protocol::Block::Fields { items, .. } => {
                Some(items.iter().map(|i| (i.label.clone(), i.key.clone())))
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// Issue 46, item 2: a `TextEdit` with `interactive(false)` was offered as a field, and
/// `edit_field` on it answered success while nothing was set. The person cannot type there, so
/// the agent cannot either, and is told so.
#[test]
fn a_text_edit_the_person_cannot_type_in_is_read_not_offered() {
    let mut h = record_harness();
    let w = by_title(&h, "Record");
    assert_eq!(
        field_keys(&w),
        [("Read only".to_owned(), None), ("Name".to_owned(), Some("name".to_owned()))],
        "read, without a key"
    );
    assert!(!h.tool_names().iter().any(|t| t.starts_with("ui-note__")), "nothing to set or press in Note");
    let e = h
        .call("ui-record__edit_field", json!({"field": "Read only", "value": "Changed", "expectedVersion": w.version}))
        .expect_err("refused");
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    assert!(format!("{e:?}").contains("only read"), "{e:?}");
    assert_eq!(h.kittest().state().shown, "Fixed");
    let w = by_title(&h, "Record");
    h.call("ui-record__edit_field", json!({"field": "name", "value": "Ada", "expectedVersion": w.version}))
        .expect("the field the person can type in is set");
    assert_eq!(h.kittest().state().name, "Ada");
}

/// Issue 46, item 3: pressing by a label two controls share pressed the first silently. It is
/// refused, naming both keys; pressing by key still works.
#[test]
fn a_label_two_controls_share_is_refused_naming_both_keys() {
    let mut h = record_harness();
    let v = by_title(&h, "Record").version;
    let e = h.call("ui-record__press", json!({"control": "Delete", "expectedVersion": v})).expect_err("ambiguous");
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    let said = format!("{} {:?}", e.message, e.fields);
    assert!(said.contains("\"delete\"") || said.contains("delete,"), "{said}");
    assert!(said.contains("delete-2"), "{said}");
    assert_eq!(h.kittest().state().deleted, [0, 0], "nothing pressed");
    h.call("ui-record__press", json!({"control": "delete-2", "expectedVersion": v})).expect("by key");
    assert_eq!(h.kittest().state().deleted, [0, 1]);

    // The same for fields: two rows labelled "City".
    let e = h.call("ui-cities__edit_field", json!({"field": "City", "value": "Oslo"})).expect_err("ambiguous");
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    let said = format!("{} {:?}", e.message, e.fields);
    assert!(said.contains("city, city-2"), "{said}");
    assert_eq!(h.kittest().state().cities, [String::new(), String::new()], "nothing set");
    h.call("ui-cities__edit_field", json!({"field": "city-2", "value": "Oslo"})).expect("by key");
    assert_eq!(h.kittest().state().cities[1], "Oslo");
}

/// Issue 46, item 8: `edit_field` with many unknown keys answered about 27 times the request
/// (each key named with the window's whole field list). The answer names the first unknown keys
/// and counts the rest, whatever the request.
#[test]
fn an_edit_field_answer_is_bounded_whatever_the_request() {
    let mut h = record_harness();
    let v = by_title(&h, "Record").version;
    let unknown: serde_json::Map<String, serde_json::Value> =
        (0..60).map(|i| (format!("no-such-field-{i}"), json!("x"))).collect();
    let e =
        h.call("ui-record__edit_field", json!({"fields": unknown, "expectedVersion": v})).expect_err("unknown fields");
    let answer = serde_json::to_string(&e).expect("serialises");
    assert!(answer.len() < 2_000, "{} bytes: {answer}", answer.len());
    assert!(answer.contains("no-such-field-0"), "the first named: {answer}");
    let fields = e.fields.unwrap_or_default();
    assert!(fields.len() <= 11, "{fields:?}");
    assert!(answer.contains("50 more"), "the rest counted: {answer}");
    assert_eq!(h.kittest().state().name, "", "nothing set");
}

/// Item 8: a request with more fields than a window can show is refused before the UI sees it
/// (its validation never runs in a pass), and its answer is as short.
#[test]
fn an_edit_field_request_with_more_fields_than_a_window_shows_never_reaches_the_ui() {
    let h = record_harness();
    let v = by_title(&h, "Record").version;
    let many: serde_json::Map<String, serde_json::Value> =
        (0..200_000).map(|i| (format!("k{i}"), json!("x"))).collect();
    let mut call = h.agent().send("ui-record__edit_field", json!({"fields": many, "expectedVersion": v}));
    let e = call.try_outcome().expect("answered without a pass").expect_err("refused");
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    let answer = serde_json::to_string(&e).expect("serialises");
    assert!(answer.len() < 1_000, "{} bytes: {answer}", answer.len());
    assert!(answer.contains("100"), "the bound is said: {answer}");
}

/// A described window whose `start` the app keeps to answer later ([`egui_mcp_bridge::Press::defer`]).
#[derive(Default)]
struct Job {
    bridge: Option<Bridge>,
    waiting: Vec<egui_mcp_bridge::Deferred>,
    finish: bool,
    done: u32,
}

fn job(ui: &mut egui::Ui, s: &mut Job) {
    let Some(bridge) = s.bridge.clone() else { return };
    bridge.window("job").title("Job").ui(ui, |w, ui| {
        if let Some(press) = w.button(ui, "start", egui_mcp_bridge::ActionSpec::new("Start")).inner {
            s.waiting.push(press.defer());
        }
    });
    if s.finish {
        for d in s.waiting.drain(..) {
            s.done += 1; // the effect happens whether anyone still waits
            d.ok("Done");
        }
    }
}

/// Item 1, the deferred path: a call the app keeps and has not finished when the budget runs
/// out may still be finished (the app holds it): it is not answered `action_timeout`, which says
/// it never takes effect.
#[test]
fn a_kept_call_past_its_budget_is_not_answered_action_timeout_when_the_app_may_still_finish_it() {
    let bridge = Bridge::builder().call_timeout(BUDGET).build();
    let state = Job { bridge: Some(bridge.clone()), ..Job::default() };
    let mut h = Harness::builder(&bridge).with_size([400.0, 300.0]).build_ui_state(job, state);
    h.run();
    let v = h.window("job").map(|w| w.version);
    let sent = Instant::now();
    let mut call = h.agent().send("job__start", json!({"expectedVersion": v}));
    for _ in 0..4 {
        h.kittest().step();
    }
    assert_eq!(h.kittest().state().waiting.len(), 1, "taken and kept");
    // Time passing is what is waited for: the budget runs out.
    while let Some(left) = (sent + BUDGET + Duration::from_millis(20)).checked_duration_since(Instant::now()) {
        std::thread::sleep(left);
    }
    let mut outcome = None;
    for _ in 0..8 {
        outcome = call.try_outcome();
        if outcome.is_some() {
            break;
        }
        h.kittest().step();
    }
    let e = outcome.expect("answered at its budget").expect_err("not finished");
    h.kittest().state_mut().finish = true;
    h.run();
    assert_eq!(h.kittest().state().done, 1, "the app finished it later");
    assert_ne!(e.code, ErrorCode::ActionTimeout, "answered action_timeout, yet applied later: {e:?}");
    assert!(e.message.contains("re-read"), "{}", e.message);
}

/// Item 1, the described path through the server's wait: a call the UI claimed and applied, whose
/// answer comes past twice the budget (the app's handler is slow), is not answered
/// `action_timeout`: it was applied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_described_call_applied_but_answered_late_is_never_answered_action_timeout() {
    use parking_lot::Mutex;
    use std::sync::Arc;

    let bridge = Bridge::builder().call_timeout(BUDGET).build();
    let shared = Arc::new(Mutex::new(Slow::default()));
    let (in_app, b) = (Arc::clone(&shared), bridge.clone());
    let _ui = egui_mcp_bridge::testing::HeadlessUi::start(&bridge, "late-ui", move || {
        let (state, bridge) = (in_app, b);
        move |ui: &mut egui::Ui| {
            bridge.window("late").title("Late").ui(ui, |w, ui| {
                if let Some(press) = w.button(ui, "go", egui_mcp_bridge::ActionSpec::new("Go")).inner {
                    let mut s = state.lock();
                    s.presses += 1;
                    s.work();
                    press.ok("Went");
                }
            });
        }
    });
    let agent = egui_mcp_bridge::testing::Agent::new(&bridge);
    let mut published = agent.watch();
    while agent.snapshot().window("late").is_none() {
        published.changed().await.expect("the UI runs");
    }
    shared.lock().until = Some(Instant::now() + BUDGET * 2 + Duration::from_millis(150));
    let outcome = agent.call("late__go", json!({})).await;
    let presses = shared.lock().presses;
    match outcome {
        Err(e) if e.code == ErrorCode::ActionTimeout => assert_eq!(presses, 0, "answered action_timeout, yet applied"),
        Err(e) => assert!(e.message.contains("took the call"), "{e:?}"),
        Ok(r) => assert_eq!(r.message.as_deref(), Some("Went")),
    }
    assert_eq!(presses, 1);
}

/// Item 1 through a dispatcher (`app__call_destructive`, as a client that sees only the bridge's
/// tools calls): the generic press applied as its budget runs out is answered with what it did.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn through_a_dispatcher_a_generic_press_applied_as_its_budget_runs_out_is_answered_with_what_it_did() {
    use crate::common::{Client, Lifecycle};
    use parking_lot::Mutex;
    use std::sync::Arc;

    let bridge = Bridge::builder().call_timeout(BUDGET).build();
    let shared = Arc::new(Mutex::new(Slow::default()));
    let in_app = Arc::clone(&shared);
    let _ui = egui_mcp_bridge::testing::HeadlessUi::start(&bridge, "slow-dispatch-ui", move || {
        let state = in_app;
        move |ui: &mut egui::Ui| slow(ui, &mut state.lock())
    });
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let _serving = bridge.serve_io("duplex", server_io).expect("serve");
    let mut client = Client::connect(client_io, Lifecycle::Legacy, "dispatching-agent").await;
    client.subscribe().await;
    while !client.read().await.to_string().contains("\"go\"") {
        client.next_note().await;
    }
    shared.lock().until = Some(Instant::now() + BUDGET + Duration::from_millis(100));
    let args = json!({"tool": "ui-slow__press", "arguments": {"control": "go"}});
    let reply = client.call("app__call_destructive", args).await;
    let presses = shared.lock().presses;
    if reply.is_error {
        assert_ne!(reply.code(), "action_timeout", "answered action_timeout, yet applied {presses} times");
    }
    assert_eq!(presses, 1);
    assert!(!reply.is_error, "{:?}", reply.body);
}

/// Item 1 as the probe found it: many generic presses sent at once with a short budget. Every
/// press the app ran was answered as applied; every one answered `action_timeout` never ran.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_generic_presses_at_once_run_exactly_those_not_answered_action_timeout() {
    use parking_lot::Mutex;
    use std::sync::Arc;

    const CALLS: usize = 60;
    let bridge = Bridge::builder().call_timeout(Duration::from_millis(300)).build();
    let shared = Arc::new(Mutex::new(Slow { each: Duration::from_millis(20), ..Slow::default() }));
    let in_app = Arc::clone(&shared);
    let _ui = egui_mcp_bridge::testing::HeadlessUi::start(&bridge, "many-presses-ui", move || {
        let state = in_app;
        move |ui: &mut egui::Ui| slow(ui, &mut state.lock())
    });
    let agent = Arc::new(egui_mcp_bridge::testing::Agent::new(&bridge));
    let mut published = agent.watch();
    while !agent.tool_names().iter().any(|t| t == "ui-slow__press") {
        published.changed().await.expect("the UI runs");
    }
    let calls: Vec<_> = (0..CALLS)
        .map(|_| {
            let agent = Arc::clone(&agent);
            tokio::spawn(async move { agent.call("ui-slow__press", json!({"control": "go"})).await })
        })
        .collect();
    let mut timeouts = 0;
    for call in calls {
        match call.await.expect("the call's task") {
            Err(e) if e.code == ErrorCode::ActionTimeout => timeouts += 1,
            _ => {}
        }
    }
    let presses = shared.lock().presses as usize;
    assert_eq!(presses, CALLS - timeouts, "{timeouts} answered action_timeout, {presses} ran");
}

/// A described form of 30 text fields (`f0` … `f29`).
#[derive(Default)]
struct Wide {
    bridge: Option<Bridge>,
    values: Vec<String>,
}

fn wide(ui: &mut egui::Ui, s: &mut Wide) {
    let Some(bridge) = s.bridge.clone() else { return };
    bridge.window("wide").title("Wide").ui(ui, |w, ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            w.form(ui, "wide", |f| {
                for (k, v) in s.values.iter_mut().enumerate() {
                    f.edit(&format!("f{k}"), &egui_mcp_bridge::Input::text(format!("Field {k}")), v);
                }
            });
        });
    });
}

/// Item 8 on a described window's `edit_field`: each unknown key was named with every field of
/// the window. The answer names the first ten, counts the rest, lists the fields once; a call
/// naming more fields than the window has is refused before the UI sees it.
#[test]
fn a_described_edit_field_answer_is_bounded_whatever_the_request() {
    let bridge = Bridge::builder().build();
    let state = Wide { bridge: Some(bridge.clone()), values: vec![String::new(); 30] };
    let mut h =
        Harness::builder(&bridge).with_size([500.0, 600.0]).with_accessibility_check(false).build_ui_state(wide, state);
    h.run();
    let v = h.window("wide").map(|w| w.version);
    let unknown: serde_json::Map<String, serde_json::Value> =
        (0..30).map(|i| (format!("no-such-field-{i}"), json!("x"))).collect();
    let e = h.call("wide__edit_field", json!({"fields": unknown, "expectedVersion": v})).expect_err("unknown fields");
    let answer = serde_json::to_string(&e).expect("serialises");
    assert!(answer.len() < 2_000, "{} bytes: {answer}", answer.len());
    assert!(answer.contains("20 more"), "the rest counted: {answer}");
    assert!(h.kittest().state().values.iter().all(String::is_empty), "nothing set");

    let many: serde_json::Map<String, serde_json::Value> = (0..31).map(|i| (format!("k{i}"), json!("x"))).collect();
    let mut call = h.agent().send("wide__edit_field", json!({"fields": many, "expectedVersion": v}));
    let e = call.try_outcome().expect("answered without a pass").expect_err("refused");
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
}
