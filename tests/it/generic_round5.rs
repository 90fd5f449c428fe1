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
    use std::sync::{Arc, Mutex};

    let bridge = Bridge::builder().call_timeout(BUDGET).build();
    let shared = Arc::new(Mutex::new(Slow::default()));
    let in_app = Arc::clone(&shared);
    let _ui = egui_mcp_bridge::testing::HeadlessUi::start(&bridge, "slow-ui", move || {
        let state = in_app;
        move |ui: &mut egui::Ui| slow(ui, &mut state.lock().expect("not poisoned"))
    });
    let agent = egui_mcp_bridge::testing::Agent::new(&bridge);
    let mut published = agent.watch();
    while agent.snapshot().window("ui-slow").is_none_or(|w| !w.blocks.iter().any(|b| format!("{b:?}").contains("go"))) {
        published.changed().await.expect("the UI runs");
    }
    shared.lock().expect("not poisoned").until = Some(Instant::now() + BUDGET + Duration::from_millis(100));
    let outcome = agent.call("ui-slow__press", json!({"control": "go"})).await;
    let presses = shared.lock().expect("not poisoned").presses;
    match outcome {
        Err(e) if e.code == ErrorCode::ActionTimeout => assert_eq!(presses, 0, "answered action_timeout, yet applied"),
        Err(e) => panic!("{e:?}"),
        Ok(r) => assert!(r.message.unwrap_or_default().starts_with("Pressed \"Go\"")),
    }
    assert_eq!(presses, 1);
}
