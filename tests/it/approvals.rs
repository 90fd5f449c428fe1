//! Actions that ask the person first (`ActionSpec::ask_person`, beyond spec 0.1): an agent's
//! call waits at the window for Allow or Deny, with frames run by hand.

use std::time::Duration;

use egui_mcp_bridge::limits::MASK;
use egui_mcp_bridge::testing::{Agent, AgentCall};
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode, Outcome};
use serde_json::json;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Pay {
    /// Cents.
    amount: u32,
    #[schemars(extend("writeOnly" = true))]
    password: String,
}

#[derive(Debug, Default)]
struct Till {
    paid: Vec<u32>,
    note: String,
}

struct App {
    bridge: Bridge,
    ctx: egui::Context,
    till: Till,
}

impl App {
    fn new(approvals: bool, timeout: Duration) -> Self {
        let bridge = Bridge::builder().call_timeout(timeout).approvals(approvals).build();
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let mut app = Self { bridge, ctx, till: Till::default() };
        app.frame();
        app
    }

    /// One frame: the till window declares `pay` (asks the person) and `note` (does not).
    fn frame(&mut self) {
        let (bridge, till) = (&self.bridge, &mut self.till);
        self.ctx
            .run_ui(egui::RawInput::default(), |_ui| {
                let _ =
                    bridge.window("till").title("Till").summary(format!("{} payments", till.paid.len())).declare(|w| {
                        let pay = ActionSpec::new("Pay").destructive().ask_person();
                        if let Some(call) = w.action::<Pay>("pay", pay) {
                            assert!(!call.args().password.is_empty(), "the app gets the secret itself");
                            till.paid.push(call.args().amount);
                            call.ok("paid");
                        }
                        if let Some(call) = w.action::<Note>("note", ActionSpec::new("Note")) {
                            till.note.clone_from(&call.args().text);
                            call.ok("noted");
                        }
                    });
            })
            .drop_without_applying_deltas();
    }

    fn send(&self, tool: &str, args: serde_json::Value) -> AgentCall {
        Agent::new(&self.bridge).send(tool, args)
    }

    fn frames(&mut self, n: usize) {
        for _ in 0..n {
            self.frame();
        }
    }
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Note {
    text: String,
}

fn pay() -> serde_json::Value {
    json!({"amount": 500, "password": "hunter2"})
}

fn outcome(call: &mut AgentCall) -> Option<Outcome> {
    call.try_outcome()
}

#[test]
fn allow_applies_the_call_as_a_direct_call_would() {
    let mut app = App::new(true, Duration::from_secs(30));
    let mut call = app.send("till__pay", pay());
    app.frames(3);
    assert!(outcome(&mut call).is_none(), "waits for the person");
    assert!(app.till.paid.is_empty(), "nothing applied before Allow");
    let asked = app.bridge.approval("till").expect("the window asks the person");
    assert_eq!(asked.title, "Pay");
    assert_eq!(asked.arguments, vec![("amount".into(), "500".into()), ("password".into(), MASK.into())]);
    // Meanwhile another window's calls, and this window's other actions, go on.
    let mut note = app.send("till__note", json!({"text": "meanwhile"}));
    app.frames(2);
    assert!(outcome(&mut note).expect("answered").is_ok());
    assert!(app.bridge.answer_approval("till", true));
    app.frames(2);
    let r = outcome(&mut call).expect("answered after Allow").expect("success");
    assert_eq!(app.till.paid, [500]);
    let version = app.bridge.snapshot().state().window("till").map(|w| w.version);
    assert_eq!(r.version, version, "answered with the window's new version");
    assert!(app.bridge.approval("till").is_none(), "the prompt is gone");
}

#[test]
fn deny_answers_denied_by_user_and_changes_nothing() {
    let mut app = App::new(true, Duration::from_secs(30));
    let before = app.bridge.snapshot().state().window("till").map(|w| w.version);
    let mut call = app.send("till__pay", pay());
    app.frames(2);
    assert!(app.bridge.answer_approval("till", false));
    app.frames(2);
    let e = outcome(&mut call).expect("answered").expect_err("denied");
    assert_eq!(e.code, ErrorCode::DeniedByUser);
    assert_eq!(serde_json::to_value(e.code).unwrap(), "denied_by_user");
    assert!(app.till.paid.is_empty());
    assert_eq!(app.bridge.snapshot().state().window("till").map(|w| w.version), before, "nothing changed");
}

#[test]
fn no_answer_within_the_budget_is_a_timeout_and_a_late_allow_applies_nothing() {
    let mut app = App::new(true, Duration::from_millis(200));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let agent = Agent::new(&app.bridge);
    // The server's path: the call waits its budget, then is cancelled.
    let waiting = std::thread::scope(|s| {
        let handle = s.spawn(|| rt.block_on(agent.call("till__pay", pay())));
        while app.bridge.approval("till").is_none() && !handle.is_finished() {
            app.frame();
            std::thread::yield_now();
        }
        handle.join().expect("the call's thread")
    });
    assert_eq!(waiting.expect_err("timed out").code, ErrorCode::ActionTimeout);
    assert!(!app.bridge.answer_approval("till", true), "too late: nothing waits any more");
    app.frames(3);
    assert!(app.till.paid.is_empty(), "a late Allow applies nothing");
    assert!(app.bridge.approval("till").is_none(), "the prompt is gone");
}

#[test]
fn a_second_call_to_the_window_while_one_waits_is_refused() {
    let mut app = App::new(true, Duration::from_secs(30));
    let _first = app.send("till__pay", pay());
    app.frames(2);
    let mut second = app.send("till__pay", json!({"amount": 7, "password": "x"}));
    app.frames(2);
    let e = outcome(&mut second).expect("answered at once").expect_err("refused");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    assert!(e.message.contains("waiting for the person"), "{}", e.message);
}

#[test]
fn with_approvals_off_the_call_is_applied_at_once() {
    let mut app = App::new(false, Duration::from_secs(30));
    let mut call = app.send("till__pay", pay());
    app.frames(2);
    assert!(outcome(&mut call).expect("answered").is_ok());
    assert_eq!(app.till.paid, [500]);
}

/// The test harness keeps a context setup of the caller's (kittest keeps one: the bridge's
/// plugin no longer replaces it), and `try_call` gives up after the harness's passes instead of
/// panicking: here the call waits for the person, who never answers.
#[test]
fn the_harness_keeps_the_callers_setup_and_try_call_gives_up() {
    use egui_mcp_bridge::testing::Harness;
    let bridge = Bridge::builder().build();
    let spacing = egui::vec2(13.0, 13.0);
    let setup = move |ctx: &egui::Context| ctx.all_styles_mut(|s| s.spacing.item_spacing = spacing);
    let app = |_ui: &mut egui::Ui, till: &mut (Bridge, Till)| {
        let (bridge, till) = (&till.0, &mut till.1);
        bridge.window("till").title("Till").declare(|w| {
            if let Some(call) = w.action::<Pay>("pay", ActionSpec::new("Pay").ask_person()) {
                till.paid.push(call.args().amount);
                call.ok("paid");
            }
        });
    };
    let builder = egui_kittest::Harness::builder().with_size([400.0, 300.0]);
    let mut harness = Harness::from_builder_with_setup(&bridge, builder, setup, app, (bridge.clone(), Till::default()))
        .with_max_steps(8);
    assert_eq!(harness.ctx.global_style().spacing.item_spacing, spacing, "the caller's setup ran");
    assert!(harness.try_call("till__pay", pay()).is_none(), "not answered: it waits for the person");
    assert!(harness.state().1.paid.is_empty());
    harness.step();
    assert!(bridge.approval("till").is_none(), "given up, the call is cancelled: its prompt is gone");
}
