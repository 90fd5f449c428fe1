//! Effects that take time (issue 24, item 6): the app keeps a press ([`Press::defer`]) and
//! answers it on a later pass, once the effect is in place. The answer goes
//! out after the pass that gave it is published, with the window's version in that state; past
//! the call budget the agent gets `action_not_available` ("took it, not finished": never
//! `action_timeout`, since the app may still finish it) and the app's late answer is dropped; a
//! deferred call dropped unanswered is an error; the number outstanding is capped, and the cap
//! binds only the calls that would be kept, one connection at most a share of it (issue 36).

use std::time::Duration;

use std::sync::Arc;

use crate::common::{Client, Frames, Lifecycle, WAIT};

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::limits::{MAX_DEFERRED_CALLS, MAX_DEFERRED_PER_CONNECTION};
use egui_mcp_bridge::testing::{Agent, AgentCall, Harness, HeadlessUi};
use egui_mcp_bridge::{ActionSpec, Bridge, Deferred, ErrorCode, Outcome, passes::headless};
use serde_json::{Map, json};

/// A serial port that takes time to open: `connect` is answered once the port is open.
#[derive(Debug, Default)]
struct Port {
    /// The port is open (the effect).
    open: bool,
    /// The device said it is ready: the next pass opens the port and answers.
    ready: bool,
    /// The call (or the person's press) waiting for the port.
    opening: Vec<Deferred>,
    /// Drop what waits, unanswered.
    drop_waiting: bool,
    /// `ping` calls applied.
    pings: u32,
}

fn summary(p: &Port) -> String {
    match (p.open, p.opening.is_empty()) {
        (true, _) => "Port open".to_owned(),
        (false, false) => "Opening the port".to_owned(),
        (false, true) => "Port closed".to_owned(),
    }
}

/// One pass of the app. The window is declared before the code that finishes the effect, so a
/// state published from the pass that answered would still show the port opening.
fn declare(bridge: &Bridge, p: &mut Port) {
    bridge.window("port").title("Port").summary(summary(p)).declare(|w| {
        if let Some(call) = w.button("connect", ActionSpec::new("Connect")) {
            p.opening.push(call.defer());
        }
        if let Some(call) = w.button("ping", ActionSpec::new("Ping").read_only()) {
            p.pings += 1;
            call.ok("pong");
        }
        // The app's own way to finish what waits, answered at once.
        if let Some(call) = w.button("device_ready", ActionSpec::new("Device ready")) {
            p.ready = true;
            call.ok("The device is ready");
        }
    });
    finish_effect(p);
}

/// Where the app learns that the effect is in place (here, a flag the test sets).
fn finish_effect(p: &mut Port) {
    if std::mem::take(&mut p.drop_waiting) {
        p.opening.clear();
    }
    if p.ready && !p.opening.is_empty() {
        p.open = true;
        for d in p.opening.drain(..) {
            d.ok("Connected");
        }
    }
}

/// Frames driven by hand, as in `call_lifecycle`.
type Manual = Frames<Port>;

fn manual(timeout: Duration) -> Manual {
    Frames::new(Bridge::builder().call_timeout(timeout), Port::default(), declare)
}

/// The app after a frame that took the agent's `port__connect` and kept it (the port opens
/// slowly), within a 10 s budget.
fn connecting() -> (Manual, AgentCall) {
    let mut m = manual(Duration::from_secs(10));
    let call = m.call("port__connect");
    m.frame();
    (m, call)
}

impl Manual {
    fn call(&self, tool: &str) -> AgentCall {
        self.send(tool, json!({}))
    }

    fn port(&self) -> egui_mcp_bridge::protocol::Window {
        self.bridge.snapshot().state().window("port").cloned().expect("the port window is published")
    }
}

/// The call is answered after the pass in which the app finished the effect, not before, with
/// the window's version in the state that shows the effect. Meanwhile the state shows the
/// operation under way, the agent's mark and the activity log say the agent is waiting.
#[test]
fn a_deferred_call_is_answered_after_the_effect_with_the_new_version() {
    let (mut m, mut call) = connecting();
    assert_eq!(m.state.opening.len(), 1, "the app took the call and kept it");
    for _ in 0..3 {
        m.frame();
        assert!(call.try_outcome().is_none(), "nothing is answered before the effect is in place");
    }
    assert_eq!(m.port().summary, "Opening the port", "the state shows the operation under way");
    let mark = m.bridge.agent_action("port").expect("the window carries the agent's mark");
    assert!(mark.waiting && mark.title == "Connect", "{mark:?}");
    let last = m.bridge.activity().pop().expect("recorded while waiting");
    assert!(last.waiting && last.tool == "port__connect" && last.error.is_none(), "{last:?}");
    let version_while_waiting = m.port().version;

    m.state.ready = true;
    assert_eq!(m.frame(), 2, "the pass that answered ran again before it was published");
    let r = call.try_outcome().expect("answered in the frame that finished the effect").expect("success");
    let published = m.port();
    assert_eq!(published.summary, "Port open", "the published state shows the effect");
    assert_eq!(r.version, Some(published.version), "the result's version is the window's in that state");
    assert!(published.version > version_while_waiting);
    assert_eq!(r.message.as_deref(), Some("Connected"));
    let mark = m.bridge.agent_action("port").expect("marked");
    assert!(!mark.waiting && mark.ok, "{mark:?}");
    let records: Vec<_> = m.bridge.activity().into_iter().filter(|r| r.tool == "port__connect").collect();
    assert_eq!(records.len(), 1, "the waiting record became the finished one: {records:?}");
    assert!(!records[0].waiting && records[0].error.is_none() && records[0].message == "Connected");
}

/// An app can finish the effect outside any pass (in `App::logic`, or a worker thread): the
/// answer goes out after the next pass is published.
#[test]
fn an_answer_given_between_passes_goes_out_after_the_next_publish() {
    let (mut m, mut call) = connecting();
    m.state.open = true;
    m.state.opening.pop().expect("kept").ok("Connected");
    assert!(call.try_outcome().is_none(), "not before the state with the effect is published");
    m.frame();
    let r = call.try_outcome().expect("answered after the next pass").expect("success");
    assert_eq!(m.port().summary, "Port open");
    assert_eq!(r.version, Some(m.port().version));
}

/// While a call is deferred, other calls are applied (one at a time, each in its own pass).
#[test]
fn other_calls_are_applied_while_one_is_deferred() {
    let (mut m, mut connect) = connecting();
    let mut ping = m.call("port__ping");
    m.frame();
    assert_eq!(ping.try_outcome().expect("answered").expect("success").message.as_deref(), Some("pong"));
    assert!(connect.try_outcome().is_none(), "still waiting for the port");
    m.state.ready = true;
    m.frame();
    assert!(connect.try_outcome().expect("answered").is_ok());
}

/// A deferred call the app never answers ends at the call budget, told the app has not finished
/// it (not `action_timeout`: the app may still finish it, and here does); the app's answer after
/// that is dropped (no panic) and never sent: the activity log keeps the error, not a success.
#[test]
fn a_deferred_call_never_answered_ends_at_its_budget_and_a_late_answer_is_dropped() {
    let mut m = manual(Duration::from_secs(1));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let agent = Agent::new(&m.bridge);
    let outcome = rt.block_on(async {
        // The server's own wait (as for an MCP client), polled once so that the call is queued.
        let call = agent.call("port__connect", Map::new());
        tokio::pin!(call);
        assert!(poll_once(call.as_mut()).await.is_none(), "queued");
        m.frame();
        assert_eq!(m.state.opening.len(), 1, "taken and kept");
        tokio::time::timeout(Duration::from_secs(10), call).await.expect("answered within the budget and a bit")
    });
    let e = outcome.expect_err("the app did not answer in time");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable, "the app may still finish it: {e:?}");
    assert!(e.message.contains("re-read"), "{}", e.message);
    assert!(!m.state.opening[0].agent_waits(), "the app can tell that nobody waits any more");
    m.frame();
    let mark = m.bridge.agent_action("port").expect("marked");
    assert!(!mark.waiting && !mark.ok, "the mark no longer says waiting: {mark:?}");

    // The app finishes later: no panic, nothing sent.
    m.state.ready = true;
    m.frame();
    m.frame();
    assert!(m.state.open, "the app's own effect still happens");
    let records: Vec<_> = m.bridge.activity().into_iter().filter(|r| r.tool == "port__connect").collect();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].error, Some(ErrorCode::ActionNotAvailable), "the late answer was not sent: {records:?}");
    // And the bridge goes on serving calls.
    let mut ping = m.call("port__ping");
    m.frame();
    assert!(ping.try_outcome().expect("answered").is_ok());
}

/// With no client waiting on the server side (an in-process agent's call), the UI itself ends a
/// deferred call at its deadline: an idle headless app wakes for it, with no other event.
#[test]
fn an_idle_app_ends_a_deferred_call_at_its_deadline() {
    let bridge = Bridge::builder().call_timeout(Duration::from_secs(1)).build();
    let port = std::sync::Arc::new(parking_lot::Mutex::new(Port::default()));
    // Idle for a minute unless something asks for a pass: the deadline must.
    let options = headless::HeadlessOptions { max_idle: Duration::from_secs(60), ..Default::default() };
    let ui = {
        let (bridge, port) = (bridge.clone(), std::sync::Arc::clone(&port));
        HeadlessUi::start_with(&bridge.clone(), "deferred-test-ui", options, move || {
            move |_ui: &mut egui::Ui| declare(&bridge, &mut port.lock())
        })
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let agent = Agent::new(&bridge);
    let outcome = rt.block_on(async {
        let mut watch = agent.watch();
        tokio::time::timeout(Duration::from_secs(10), watch.wait_for(|s| s.state().window("port").is_some()))
            .await
            .expect("the first publish")
            .expect("the app runs");
        let call = agent.send("port__connect", json!({}));
        tokio::time::timeout(Duration::from_secs(10), call).await.expect("the UI answered at the deadline")
    });
    assert_eq!(outcome.expect_err("never answered by the app").code, ErrorCode::ActionNotAvailable);
    drop(ui);
    assert_eq!(port.lock().opening.len(), 1, "the app still holds its Deferred");
}

/// A deferred call dropped without an answer is answered with an error saying so, never with a
/// success.
#[test]
fn a_deferred_call_dropped_unanswered_is_an_error_not_a_success() {
    let (mut m, mut call) = connecting();
    m.state.drop_waiting = true;
    m.frame();
    let e = call.try_outcome().expect("answered").expect_err("not a success");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    assert!(e.message.contains("did not answer"), "{}", e.message);
    assert!(!m.bridge.agent_action("port").expect("marked").waiting);
}

/// Keeps `n` `port__connect` calls of `agent`, a frame each: all taken and still waiting.
fn hold(m: &mut Manual, agent: &Agent, n: usize) -> Vec<AgentCall> {
    let mut held = Vec::new();
    for _ in 0..n {
        let mut call = agent.send("port__connect", json!({}));
        m.frame();
        assert!(call.try_outcome().is_none(), "kept: {:?}", call.try_outcome());
        held.push(call);
    }
    held
}

/// The app's `Deferred`s an agent still waits for.
fn waiting(m: &Manual) -> usize {
    m.state.opening.iter().filter(|d| d.agent_waits()).count()
}

/// Clients that hold every deferred slot keep nobody off the calls that would not be kept: a
/// read-only tool, and the app's own tool that finishes the held calls, go through (before, both
/// were refused with "64 operations still in progress").
#[test]
fn at_the_deferred_limit_calls_that_are_not_kept_go_through() {
    let mut m = manual(Duration::from_secs(30));
    let (a, b) = (Agent::new(&m.bridge), Agent::new(&m.bridge));
    let mut held = hold(&mut m, &a, MAX_DEFERRED_PER_CONNECTION);
    held.extend(hold(&mut m, &b, MAX_DEFERRED_CALLS - MAX_DEFERRED_PER_CONNECTION));
    assert_eq!(waiting(&m), MAX_DEFERRED_CALLS, "every slot is held");

    let other = Agent::new(&m.bridge);
    let mut ping = other.send("port__ping", json!({}));
    m.frame();
    let r = ping.try_outcome().expect("answered").expect("a read-only call is not kept: admitted");
    assert_eq!(r.message.as_deref(), Some("pong"));
    assert_eq!(m.state.pings, 1);

    let mut ready = other.send("port__device_ready", json!({}));
    m.frame();
    assert!(ready.try_outcome().expect("answered").is_ok(), "a call answered at once is admitted");
    let answered: Vec<Outcome> = held.iter_mut().filter_map(AgentCall::try_outcome).collect();
    assert_eq!(answered.len(), MAX_DEFERRED_CALLS, "the app's own tool finished every held call");
    assert!(answered.iter().all(Result::is_ok));
    assert_eq!(m.port().summary, "Port open");
}

/// Past the limit only the call the app tries to keep is refused, once the app takes it: the
/// agent gets `action_not_available` saying the app has too many operations in progress (never a
/// success), the app's `Deferred` says nobody waits, and the window's mark shows it failed. Room
/// comes back when one is answered.
#[test]
fn past_the_deferred_limit_only_the_call_that_would_be_kept_is_refused() {
    let mut m = manual(Duration::from_secs(30));
    let (a, b) = (Agent::new(&m.bridge), Agent::new(&m.bridge));
    let mut held = hold(&mut m, &a, MAX_DEFERRED_PER_CONNECTION);
    held.extend(hold(&mut m, &b, MAX_DEFERRED_CALLS - MAX_DEFERRED_PER_CONNECTION));

    let other = Agent::new(&m.bridge);
    let mut refused = other.send("port__connect", json!({}));
    m.frame();
    let e = refused.try_outcome().expect("answered after the pass that took it").expect_err("refused");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    assert!(e.message.contains("too many operations in progress"), "{}", e.message);
    assert!(e.message.contains(&MAX_DEFERRED_CALLS.to_string()), "{}", e.message);
    assert_eq!(m.state.opening.len(), MAX_DEFERRED_CALLS + 1, "the app took it and tried to keep it");
    assert!(!m.state.opening.last().expect("kept").agent_waits(), "the app can tell nobody waits for it");
    assert_eq!(waiting(&m), MAX_DEFERRED_CALLS, "nothing more is kept");
    let mark = m.bridge.agent_action("port").expect("marked");
    assert!(!mark.ok && !mark.waiting, "the person sees it failed: {mark:?}");
    let last = m.bridge.activity().pop().expect("recorded");
    assert_eq!(last.error, Some(ErrorCode::ActionNotAvailable), "{last:?}");

    // One answered: room for the next.
    let first = m.state.opening.iter().position(Deferred::agent_waits).expect("one waits");
    m.state.opening.remove(first).ok("Connected");
    m.frame();
    let mut next = other.send("port__connect", json!({}));
    m.frame();
    assert!(next.try_outcome().is_none(), "kept again");
    assert_eq!(waiting(&m), MAX_DEFERRED_CALLS);
    m.state.ready = true;
    m.frame();
    held.push(next);
    let answered: Vec<Outcome> = held.iter_mut().filter_map(AgentCall::try_outcome).collect();
    assert_eq!(answered.len(), MAX_DEFERRED_CALLS + 1);
    assert!(answered.iter().all(Result::is_ok));
}

/// One connection holds at most [`MAX_DEFERRED_PER_CONNECTION`] deferred calls: its next is
/// refused, saying so, while another connection's is still kept.
#[test]
fn one_connection_cannot_hold_every_deferred_slot() {
    let mut m = manual(Duration::from_secs(30));
    let greedy = Agent::new(&m.bridge);
    let mut held = hold(&mut m, &greedy, MAX_DEFERRED_PER_CONNECTION);
    let mut more = greedy.send("port__connect", json!({}));
    m.frame();
    let e = more.try_outcome().expect("answered").expect_err("past its share");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    assert!(e.message.contains("This connection has too many operations in progress"), "{}", e.message);
    assert!(e.message.contains(&MAX_DEFERRED_PER_CONNECTION.to_string()), "{}", e.message);
    assert_eq!(waiting(&m), MAX_DEFERRED_PER_CONNECTION);

    let other = Agent::new(&m.bridge);
    let mut kept = other.send("port__connect", json!({}));
    m.frame();
    assert!(kept.try_outcome().is_none(), "another connection still finds room");
    assert_eq!(waiting(&m), MAX_DEFERRED_PER_CONNECTION + 1);
    m.state.ready = true;
    m.frame();
    held.push(kept);
    let answered: Vec<Outcome> = held.iter_mut().filter_map(AgentCall::try_outcome).collect();
    assert_eq!(answered.len(), MAX_DEFERRED_PER_CONNECTION + 1);
    assert!(answered.iter().all(Result::is_ok));
}

/// Over MCP the share is each connection's: the server gives every connection its own id. One
/// client's call past its share is refused, another client's is kept, and all kept are answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_mcp_each_connection_has_its_own_share() {
    let bridge = Bridge::builder().call_timeout(Duration::from_secs(30)).build();
    let port = Arc::new(parking_lot::Mutex::new(Port::default()));
    let ui = {
        let (bridge, port) = (bridge.clone(), Arc::clone(&port));
        HeadlessUi::start(&bridge.clone(), "deferred-share-ui", move || {
            move |_ui: &mut egui::Ui| {
                let mut p = port.lock();
                declare(&bridge, &mut p);
                // How many calls the app keeps for an agent, for the test to wait on.
                let held = p.opening.iter().filter(|d| d.agent_waits()).count();
                bridge.window("held").title("Held").summary(format!("{held} held")).declare(|_| ());
            }
        })
    };
    let mut watch = Agent::new(&bridge).watch();
    held(&mut watch, 0).await;
    let connect = |name: &'static str| {
        let bridge = bridge.clone();
        async move {
            let (server_io, client_io) = tokio::io::duplex(1 << 20);
            let serving = bridge.serve_io("duplex", server_io).expect("serve");
            let mut client = Client::connect(client_io, Lifecycle::Legacy, name).await;
            client.serving = Some(serving);
            Arc::new(client)
        }
    };
    let (greedy, other) = (connect("greedy").await, connect("other").await);

    let (tx, mut answers) = tokio::sync::mpsc::unbounded_channel();
    for _ in 0..=MAX_DEFERRED_PER_CONNECTION {
        let (client, tx) = (Arc::clone(&greedy), tx.clone());
        tokio::spawn(async move { tx.send(client.call("port__connect", json!({})).await) });
    }
    let refused = tokio::time::timeout(WAIT, answers.recv()).await.expect("one answered").expect("sent");
    assert_eq!(refused.code(), "action_not_available");
    assert!(refused.text.contains("This connection has too many operations in progress"), "{}", refused.text);
    held(&mut watch, MAX_DEFERRED_PER_CONNECTION).await;

    let (client, kept_tx) = (Arc::clone(&other), tx.clone());
    tokio::spawn(async move { kept_tx.send(client.call("port__connect", json!({})).await) });
    held(&mut watch, MAX_DEFERRED_PER_CONNECTION + 1).await;
    assert!(answers.try_recv().is_err(), "nothing else answered yet");

    port.lock().ready = true;
    ui.context().request_repaint();
    for _ in 0..=MAX_DEFERRED_PER_CONNECTION {
        let r = tokio::time::timeout(WAIT, answers.recv()).await.expect("answered").expect("sent");
        assert_eq!(r.ok()["message"], "Connected", "{r:?}");
    }
}

/// Waits (bounded) for a published state in which the app keeps `n` calls for agents.
async fn held(watch: &mut tokio::sync::watch::Receiver<Arc<egui_mcp_bridge::state::Snapshot>>, n: usize) {
    let summary = format!("{n} held");
    let pending = watch.wait_for(|s| s.state().window("held").is_some_and(|w| w.summary == summary));
    tokio::time::timeout(WAIT, pending).await.expect("held in time").expect("the app runs");
}

/// The person's press and the agent's call share one handler: a person's press defers to
/// nobody, an agent's is answered once the effect is in place (kittest and the state agree).
#[test]
fn a_button_press_defers_for_the_agent_and_for_nobody_when_the_person_pressed() {
    struct App {
        bridge: Bridge,
        port: Port,
    }
    let bridge = Bridge::builder().build();
    let app = |ui: &mut egui::Ui, a: &mut App| {
        finish_effect(&mut a.port);
        let bridge = a.bridge.clone();
        bridge.window("port").title("Port").summary(summary(&a.port)).ui(ui, |w, ui| {
            ui.label(summary(&a.port));
            if let Some(press) = w.button(ui, "connect", ActionSpec::new("Connect")).inner {
                a.port.opening.push(press.defer());
            }
        });
    };
    let mut h = Harness::new_ui_state(&bridge, app, App { bridge: bridge.clone(), port: Port::default() });

    h.get_by_label("Connect").click();
    h.run();
    assert_eq!(h.state().port.opening.len(), 1);
    assert!(!h.state().port.opening[0].agent_waits(), "the person's press answers nobody");
    h.state_mut().port.ready = true;
    h.run();
    assert!(h.state().port.open);
    h.get_by_label("Port open");
    assert!(h.snapshot().state().window("port").expect("published").summary == "Port open");
    assert!(bridge.activity().is_empty(), "no agent call was recorded");

    h.state_mut().port.open = false;
    h.state_mut().port.ready = false;
    h.run();
    let call = h.agent().send("port__connect", json!({}));
    for _ in 0..3 {
        h.step();
    }
    assert_eq!(h.state().port.opening.len(), 1);
    assert!(h.state().port.opening[0].agent_waits());
    assert!(h.painted("Agent: Connect (waiting)"), "the window's mark says the agent waits");
    h.state_mut().port.ready = true;
    let r = h.finish(call).expect("answered after the effect");
    assert_eq!(r.version, h.window("port").map(|w| w.version));
    assert_eq!(h.window("port").expect("published").summary, "Port open");
}

/// A `Deferred` may be answered from a worker thread (it is `Send`).
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Deferred>();
};

/// Polls a future once; `Some` if it finished.
async fn poll_once<F: std::future::Future + Unpin>(mut f: F) -> Option<F::Output> {
    std::future::poll_fn(|cx| match std::pin::Pin::new(&mut f).poll(cx) {
        std::task::Poll::Ready(v) => std::task::Poll::Ready(Some(v)),
        std::task::Poll::Pending => std::task::Poll::Ready(None),
    })
    .await
}
