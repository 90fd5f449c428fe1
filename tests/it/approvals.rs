//! Actions that ask the person first (`ActionSpec::ask_person`, beyond spec 0.1): an agent's
//! call waits at the window for Allow or Deny, with frames run by hand.

use std::time::Duration;

use egui_mcp_bridge::protocol::MASK;
use egui_mcp_bridge::testing::{Agent, AgentCall};
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode, NoArgs, Outcome};
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
    /// The window is closed (by the person, the app, or an agent's `close`): not drawn.
    closed: bool,
}

struct App {
    bridge: Bridge,
    ctx: egui::Context,
    till: Till,
    /// How the till is shown to the person.
    shown: Shown,
    /// How soon the last frame asked for the next.
    repaint: Duration,
}

/// How a frame shows the till.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shown {
    /// Declared only (no person's view).
    Declared,
    /// As a window ([`egui_mcp_bridge::WindowBuilder::ui`]), which draws the prompt.
    Window,
    /// Declared, with the app's own call to [`Bridge::approval_prompt`].
    OwnPrompt,
}

impl App {
    fn new(approvals: bool, timeout: Duration) -> Self {
        // Without the read view, whose own pace (a look a second while an agent is about) would
        // ask for passes too: these tests read the repaints the approvals ask for.
        let bridge = Bridge::builder().call_timeout(timeout).approvals(approvals).read_view(false).build();
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let mut app = Self { bridge, ctx, till: Till::default(), shown: Shown::Declared, repaint: Duration::MAX };
        app.frame();
        app
    }

    /// One frame: the till window declares `pay` (asks the person) and `note` (does not).
    fn frame(&mut self) {
        let (bridge, till, shown) = (&self.bridge, &mut self.till, self.shown);
        // A second per frame, so a window's fade-in ends.
        let time = self.ctx.input(|i| i.time) + 1.0;
        let output = self.ctx.run_ui(egui::RawInput { time: Some(time), ..Default::default() }, |ui| {
            if till.closed {
                return;
            }
            let window = bridge.window("till").title("Till").summary(format!("{} payments", till.paid.len()));
            let mut contents = |w: &mut egui_mcp_bridge::ForAgents<'_>| {
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
                if let Some(call) = w.action::<NoArgs>("close", ActionSpec::new("Close")) {
                    till.closed = true;
                    call.ok("closed");
                }
            };
            match shown {
                Shown::Declared => drop(window.declare(contents)),
                Shown::Window => drop(window.ui(ui, |w, _ui| contents(&mut w.agents()))),
                Shown::OwnPrompt => {
                    drop(window.declare(contents));
                    bridge.approval_prompt(ui, "till");
                }
            }
        });
        self.repaint = output.viewport_output[&egui::ViewportId::ROOT].repaint_delay;
        output.drop_without_applying_deltas();
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

/// The prompt's countdown ("the agent waits N s more") moves on by itself: while a call waits
/// for the person, a pass that draws the prompt asks for the next within 500 ms, whether the
/// window draws it ([`egui_mcp_bridge::WindowBuilder::ui`]) or the app
/// ([`Bridge::approval_prompt`]); a pass that draws none does not (its budget is a minute).
#[test]
fn the_prompts_countdown_asks_for_the_next_pass() {
    for shown in [Shown::Window, Shown::OwnPrompt] {
        let mut app = App::new(true, Duration::from_secs(60));
        app.shown = shown;
        app.frames(5);
        assert!(app.repaint > Duration::from_secs(1), "{shown:?}: nothing to count down yet: {:?}", app.repaint);
        let mut call = app.send("till__pay", pay());
        app.frames(3);
        assert!(app.bridge.approval("till").is_some(), "{shown:?}: waits for the person");
        app.frame();
        assert!(app.repaint <= Duration::from_millis(500), "{shown:?}: the next pass in {:?}", app.repaint);
        app.shown = Shown::Declared;
        app.frame();
        assert!(app.repaint > Duration::from_secs(1), "no prompt drawn: the next pass in {:?}", app.repaint);
        assert!(outcome(&mut call).is_none());
    }
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

/// No answer: the person's time (the budget less a margin, see `Approval::time_left`) runs out,
/// and the app's run loop, still running passes, answers the agent that the person did not
/// answer (`action_timeout`, not `denied_by_user`: nobody said no), before the server's own
/// timer would say the UI did not take it.
#[test]
fn no_answer_within_the_budget_is_a_timeout_and_a_late_allow_applies_nothing() {
    let mut app = App::new(true, Duration::from_secs(1));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let agent = Agent::new(&app.bridge);
    let waiting = std::thread::scope(|s| {
        // The server's path: the call waits at most its budget.
        let handle = s.spawn(|| rt.block_on(agent.call("till__pay", pay())));
        let mut asked = false;
        while !handle.is_finished() {
            app.frame();
            asked |= app.bridge.approval("till").is_some();
            std::thread::yield_now();
        }
        assert!(asked, "the person was asked");
        handle.join().expect("the call's thread")
    });
    let e = waiting.expect_err("timed out");
    assert_eq!(e.code, ErrorCode::ActionTimeout);
    assert!(e.message.contains("person at the app did not answer"), "{}", e.message);
    assert!(!app.bridge.answer_approval("till", true), "too late: nothing waits any more");
    app.frames(3);
    assert!(app.till.paid.is_empty(), "a late Allow applies nothing");
    assert!(app.bridge.approval("till").is_none(), "the prompt is gone");
}

/// The window closes while the agent's call waits for the person (the person closes it, or the
/// app does): the agent is answered `window_not_found` at the publish that no longer has the
/// window, not at the end of its budget, and nothing is applied.
#[test]
fn a_window_closed_while_its_call_waits_answers_window_not_found_at_once() {
    let mut app = App::new(true, Duration::from_secs(30));
    let mut call = app.send("till__pay", pay());
    app.frames(2);
    assert!(app.bridge.approval("till").is_some(), "waits for the person");
    app.till.closed = true;
    app.frames(2);
    let e = outcome(&mut call).expect("answered at once").expect_err("not applied");
    assert_eq!(e.code, ErrorCode::WindowNotFound, "{}", e.message);
    assert!(e.message.contains("closed"), "{}", e.message);
    assert!(app.till.paid.is_empty());
    assert!(app.bridge.approval("till").is_none(), "the prompt is gone");
    app.till.closed = false;
    app.frames(2);
    assert!(app.bridge.approval("till").is_none(), "the window opened again asks nothing");
}

/// Another agent's call closes the window while the first agent's call waits for the person:
/// the first agent is answered `window_not_found` at once, the second with its own success.
#[test]
fn another_agents_call_closing_the_window_answers_the_waiting_call_at_once() {
    let mut app = App::new(true, Duration::from_secs(30));
    let mut waiting = app.send("till__pay", pay());
    app.frames(2);
    assert!(app.bridge.approval("till").is_some(), "waits for the person");
    let mut close = app.send("till__close", json!({}));
    app.frames(3);
    assert!(outcome(&mut close).expect("answered").is_ok(), "the other agent closed it");
    let e = outcome(&mut waiting).expect("answered at once").expect_err("not applied");
    assert_eq!(e.code, ErrorCode::WindowNotFound, "{}", e.message);
    assert!(app.till.paid.is_empty());
}

/// The app exits while a call waits for the person: the agent is answered at once ("shutting
/// down"), not at the end of its budget.
#[test]
fn the_app_exiting_answers_the_waiting_call_at_once() {
    let mut app = App::new(true, Duration::from_secs(30));
    let mut call = app.send("till__pay", pay());
    app.frames(2);
    assert!(app.bridge.approval("till").is_some(), "waits for the person");
    app.ctx.on_exit();
    let e = outcome(&mut call).expect("answered at once").expect_err("not applied");
    assert!(e.message.contains("shutting down"), "{}", e.message);
    assert!(app.till.paid.is_empty());
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
    let mut harness = Harness::builder(&bridge)
        .with_size([400.0, 300.0])
        .with_context_setup(setup)
        .with_max_call_steps(8)
        .build_ui_state(app, (bridge.clone(), Till::default()));
    assert_eq!(harness.ctx.global_style().spacing.item_spacing, spacing, "the caller's setup ran");
    assert!(harness.try_call("till__pay", pay()).is_none(), "not answered: it waits for the person");
    assert!(harness.state().1.paid.is_empty());
    harness.step();
    assert!(bridge.approval("till").is_none(), "given up, the call is cancelled: its prompt is gone");
}
