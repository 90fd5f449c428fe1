//! The call state machine on its own, without egui.
use std::time::{Duration, Instant};

use serde_json::Map;
use tokio::sync::oneshot;

use super::*;
use crate::hub::action::Hints;
use crate::hub::call::{CallTarget, ClientId};
use crate::hub::snapshot::{SnapshotParts, ToolSpec};
use crate::protocol::{ErrorCode, ToolResult, Window, WindowsState};

const BUDGET: Duration = Duration::from_secs(10);

fn window(id: &str, version: u64) -> Window {
    Window {
        id: id.into(),
        title: id.into(),
        modal: false,
        owner_id: None,
        version,
        summary: String::new(),
        blocks: Vec::new(),
        read_only: false,
        undescribed: false,
    }
}

fn tool(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        title: name.into(),
        description: name.into(),
        input_schema: Arc::new(Map::new()),
        hints: Hints::default(),
        ask_person: false,
    }
}

/// A published state: these windows (all operable) and tools.
fn snapshot(windows: &[(&str, u64)], tools: &[&str]) -> Arc<Snapshot> {
    let windows: Vec<Window> = windows.iter().map(|(id, v)| window(id, *v)).collect();
    let blockers = vec![None; windows.len()];
    Arc::new(Snapshot::new(SnapshotParts {
        state: WindowsState { operable_window_ids: windows.iter().map(|w| w.id.clone()).collect(), windows },
        tools: tools.iter().map(|t| tool(t)).collect(),
        blockers,
        app_blocker: None,
        windows_revision: 1,
        tools_revision: 1,
    }))
}

struct Queue {
    tx: crossbeam_channel::Sender<Arc<PendingCall>>,
    rx: crossbeam_channel::Receiver<Arc<PendingCall>>,
}

impl Queue {
    fn new() -> Self {
        let (tx, rx) = crossbeam_channel::unbounded();
        Self { tx, rx }
    }

    fn push(&self, tool: &str, expected: Option<u64>, deadline: Instant) -> oneshot::Receiver<Outcome> {
        self.push_from(ClientId::fresh(), tool, expected, deadline)
    }

    /// A call sent by the connection `client`.
    fn push_from(
        &self,
        client: ClientId,
        tool: &str,
        expected: Option<u64>,
        deadline: Instant,
    ) -> oneshot::Receiver<Outcome> {
        let (win, action) = crate::protocol::split_tool_name(tool).expect("a tool name");
        let (reply, rx) = oneshot::channel();
        let call = PendingCall::new(CallTarget::parse(win), action.into(), Map::new(), expected, deadline, reply, None)
            .sent_by(client);
        self.tx.send(Arc::new(call)).expect("queue open");
        rx
    }
}

fn later() -> Instant {
    Instant::now() + BUDGET
}

/// The pass under way in these tests (one viewport), and another.
const P: PassKey = 1;
const OTHER: PassKey = 2;

/// Every window is declared in pass `P`, under its external id.
fn same_id(t: &CallTarget) -> (Option<String>, Option<PassKey>) {
    match t {
        CallTarget::App => (None, None),
        CallTarget::Window(h) => (Some(h.clone()), Some(P)),
    }
}

fn answer(rx: &mut oneshot::Receiver<Outcome>) -> Outcome {
    rx.try_recv().expect("answered")
}

#[test]
fn a_call_is_applied_settled_then_answered_after_the_publish() {
    let q = Queue::new();
    let before = snapshot(&[("w", 1)], &["w__go"]);
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    assert!(slot.admit(&q.rx, &before, P, false, BUDGET, same_id));
    let call = slot.claim(P, Some("w"), "go").expect("claimed by its action");
    slot.set_outcome(&call, Ok(ToolResult::message("done")));
    assert_eq!(slot.after_pass(P), AfterPass::Applied, "the applying pass is not to be published");
    assert!(rx.try_recv().is_err(), "not answered before its state is published");
    assert!(slot.is_settling());
    assert_eq!(slot.after_pass(P), AfterPass::Nothing, "the next pass applies nothing");
    let after = snapshot(&[("w", 2), ("d", 3)], &["w__go", "d__ok"]);
    slot.finish(&after);
    let r = answer(&mut rx).expect("success");
    assert_eq!(r.version, Some(2), "the version the window has now");
    assert_eq!(r.opened_window_ids, ["d"]);
    let opened: Vec<_> = r.opened_window_versions.iter().map(|(id, v)| (id.as_str(), *v)).collect();
    assert_eq!(opened, [("d", 3)], "each opened window's own version, not the called window's");
    assert_eq!(r.new_tools, ["d__ok"]);
    assert!(!slot.is_busy());
}

#[test]
fn the_persons_pass_admits_nothing() {
    let q = Queue::new();
    let s = snapshot(&[("w", 1)], &["w__go"]);
    let mut old = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    assert!(!slot.admit(&q.rx, &s, P, true, BUDGET, same_id), "the person goes first");
    assert_eq!(q.rx.len(), 1, "the call still waits");
    // The person's change is published (version 2): the call, based on 1, is now stale; a
    // call based on 2 is admitted after it.
    let s = snapshot(&[("w", 2)], &["w__go"]);
    let mut current = q.push("w__go", Some(2), later());
    assert!(slot.admit(&q.rx, &s, P, false, BUDGET, same_id));
    assert_eq!(answer(&mut old).unwrap_err().code, ErrorCode::StaleState);
    assert!(current.try_recv().is_err(), "admitted, not answered");
    assert!(slot.claim(P, Some("w"), "go").is_some(), "the current call is the one admitted");
}

#[test]
fn a_stale_call_is_answered_with_stale_state() {
    let q = Queue::new();
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    assert!(!slot.admit(&q.rx, &snapshot(&[("w", 3)], &["w__go"]), P, false, BUDGET, same_id));
    assert_eq!(answer(&mut rx).unwrap_err().code, ErrorCode::StaleState);
}

#[test]
fn a_call_past_its_deadline_is_never_applied() {
    let q = Queue::new();
    let mut rx = q.push("w__go", Some(1), Instant::now().checked_sub(Duration::from_millis(1)).unwrap());
    let mut slot = CallSlot::default();
    assert!(!slot.admit(&q.rx, &snapshot(&[("w", 1)], &["w__go"]), P, false, BUDGET, same_id));
    assert_eq!(answer(&mut rx).unwrap_err().code, ErrorCode::ActionTimeout);
    assert!(slot.claim(P, Some("w"), "go").is_none(), "nothing to apply");
}

#[test]
fn a_call_cancelled_after_admission_loses_the_claim() {
    let q = Queue::new();
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    let s = snapshot(&[("w", 1)], &["w__go"]);
    assert!(slot.admit(&q.rx, &s, P, false, BUDGET, same_id));
    // The server's timeout fires between admission and the app's declaration.
    let pending = Arc::clone(&slot.active.as_ref().unwrap().call);
    assert!(pending.cancel(ToolError::timeout(BUDGET)));
    assert!(slot.claim(P, Some("w"), "go").is_none(), "a cancelled call is never applied");
    assert!(!slot.is_busy());
    assert_eq!(answer(&mut rx).unwrap_err().code, ErrorCode::ActionTimeout);
}

#[test]
fn a_cancelled_call_in_the_queue_is_skipped() {
    let q = Queue::new();
    let _rx = q.push("w__go", Some(1), later());
    q.rx.try_recv().map(|c| c.cancel(ToolError::timeout(BUDGET))).unwrap();
    let mut slot = CallSlot::default();
    assert!(!slot.admit(&q.rx, &snapshot(&[("w", 1)], &["w__go"]), P, false, BUDGET, same_id));
}

#[test]
fn only_the_declared_action_of_the_target_claims() {
    let q = Queue::new();
    let _rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    assert!(slot.admit(&q.rx, &snapshot(&[("w", 1)], &["w__go"]), P, false, BUDGET, same_id));
    assert!(slot.claim(P, Some("w"), "stop").is_none(), "another action");
    assert!(slot.claim(P, Some("other"), "go").is_none(), "another window");
    assert!(slot.claim(P, None, "go").is_none(), "the app");
    assert!(slot.claim(P, Some("w"), "go").is_some());
    assert!(slot.claim(P, Some("w"), "go").is_none(), "claimed once");
}

#[test]
fn an_admitted_call_never_claimed_says_why_after_the_publish() {
    let q = Queue::new();
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    assert!(slot.admit(&q.rx, &snapshot(&[("w", 1)], &["w__go"]), P, false, BUDGET, same_id));
    assert_eq!(slot.after_pass(P), AfterPass::Nothing);
    slot.finish(&snapshot(&[], &[])); // the window closed in that pass
    assert_eq!(answer(&mut rx).unwrap_err().code, ErrorCode::WindowNotFound);
}

#[test]
fn a_claimed_call_without_an_answer_is_an_error() {
    let q = Queue::new();
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    let s = snapshot(&[("w", 1)], &["w__go"]);
    assert!(slot.admit(&q.rx, &s, P, false, BUDGET, same_id));
    let _call = slot.claim(P, Some("w"), "go").unwrap();
    assert_eq!(slot.after_pass(P), AfterPass::Applied);
    assert_eq!(slot.after_pass(P), AfterPass::Nothing);
    slot.finish(&s);
    let e = answer(&mut rx).unwrap_err();
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    assert!(e.message.contains("did not answer"), "{}", e.message);
}

#[test]
fn rejected_arguments_are_answered_at_once_and_free_the_slot() {
    let q = Queue::new();
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    assert!(slot.admit(&q.rx, &snapshot(&[("w", 1)], &["w__go"]), P, false, BUDGET, same_id));
    let call = slot.claim(P, Some("w"), "go").unwrap();
    slot.reject_claimed(&call, ToolError::invalid_field("x", "bad"));
    assert!(!slot.is_busy());
    assert_eq!(answer(&mut rx).unwrap_err().code, ErrorCode::ValidationFailed);
}

#[test]
fn one_call_at_a_time() {
    let q = Queue::new();
    let _a = q.push("w__go", Some(1), later());
    let _b = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    let s = snapshot(&[("w", 1)], &["w__go"]);
    assert!(slot.admit(&q.rx, &s, P, false, BUDGET, same_id));
    assert!(slot.admit(&q.rx, &s, P, false, BUDGET, same_id), "still the first");
    assert_eq!(q.rx.len(), 1, "the second waits in the queue");
}

#[test]
fn shutdown_answers_with_the_apps_answer_or_an_error() {
    let q = Queue::new();
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    assert!(slot.admit(&q.rx, &snapshot(&[("w", 1)], &["w__go"]), P, false, BUDGET, same_id));
    slot.shutdown();
    assert_eq!(answer(&mut rx).unwrap_err().code, ErrorCode::ActionTimeout);
}

#[test]
fn a_call_is_armed_only_in_the_pass_of_its_window_and_rechecked_there() {
    let q = Queue::new();
    let s = snapshot(&[("w", 1)], &["w__go"]);
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    // Another viewport's pass admits it, but it is not claimable there.
    assert!(slot.admit(&q.rx, &s, OTHER, false, BUDGET, same_id));
    assert_eq!(slot.waits_for(), Some(P), "it asks for the pass of its window");
    assert!(slot.claim(OTHER, Some("w"), "go").is_none());
    assert_eq!(slot.after_pass(OTHER), AfterPass::Nothing);
    slot.finish(&s);
    assert!(rx.try_recv().is_err(), "still waiting for its own pass");
    // The person changed `w` in the other viewport meanwhile: the re-check finds it stale.
    let changed = snapshot(&[("w", 2)], &["w__go"]);
    assert!(!slot.admit(&q.rx, &changed, P, false, BUDGET, same_id));
    assert_eq!(answer(&mut rx).unwrap_err().code, ErrorCode::StaleState);
    // A current call is armed and claimed in its own pass.
    let _ok = q.push("w__go", Some(2), later());
    assert!(slot.admit(&q.rx, &changed, OTHER, false, BUDGET, same_id));
    assert!(slot.admit(&q.rx, &changed, P, false, BUDGET, same_id));
    assert_eq!(slot.waits_for(), None);
    assert!(slot.claim(P, Some("w"), "go").is_some());
}

#[test]
fn a_call_waiting_for_its_pass_still_times_out_and_frees_the_slot() {
    let q = Queue::new();
    let s = snapshot(&[("w", 1)], &["w__go"]);
    let deadline = Instant::now() + Duration::from_millis(50);
    let mut rx = q.push("w__go", Some(1), deadline);
    let mut slot = CallSlot::default();
    assert!(slot.admit(&q.rx, &s, OTHER, false, BUDGET, same_id), "admitted within 50 ms of its deadline");
    // Until the deadline is past, exactly: time passing is the one thing to wait for here.
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        std::thread::sleep(left + Duration::from_millis(1));
    }
    let mut next = q.push("w__go", Some(1), later());
    assert!(slot.admit(&q.rx, &s, P, false, BUDGET, same_id), "the next call is admitted");
    assert_eq!(answer(&mut rx).unwrap_err().code, ErrorCode::ActionTimeout, "never applied");
    assert!(slot.claim(P, Some("w"), "go").is_some());
    assert!(next.try_recv().is_err());
}

/// A deferred call leaves the slot once the pass that kept it is published, and is answered
/// after the publish of the pass that answered it: with the window's version then, and what its
/// claim and its answer opened (not what opened meanwhile for other reasons).
#[test]
fn a_deferred_call_is_answered_with_what_its_claim_and_its_answer_opened() {
    let q = Queue::new();
    let mut rx = q.push("w__go", Some(1), later());
    let mut slot = CallSlot::default();
    assert!(slot.admit(&q.rx, &snapshot(&[("w", 1)], &["w__go"]), P, false, BUDGET, same_id));
    let call = slot.claim(P, Some("w"), "go").expect("claimed");
    let mark = MarkOf { app_id: Some("w".into()), action: "go".into(), title: "Go".into() };
    assert!(slot.defer(&call, mark).is_ok());
    assert_eq!(slot.after_pass(P), AfterPass::Applied, "the pass that kept it is run again first");
    // The claim opened a progress dialog.
    slot.finish(&snapshot(&[("w", 2), ("p", 1)], &["w__go", "p__cancel"]));
    assert!(!slot.is_busy(), "the slot takes the next call meanwhile");
    assert!(rx.try_recv().is_err(), "not answered before the app answers");
    // Something else opened a window meanwhile; then the app answers, in pass P.
    let meanwhile = snapshot(&[("w", 2), ("p", 1), ("x", 1)], &["w__go", "p__cancel", "x__ok"]);
    assert!(slot.deferred.answer(&call, Ok(ToolResult::message("done")), Some(P), &meanwhile).is_some());
    assert!(slot.deferred.answered_in(P) && slot.deferred.unsent());
    assert!(slot.deferred.settle(P));
    slot.finish(&snapshot(&[("w", 3), ("p", 1), ("x", 1), ("r", 1)], &["w__go", "p__cancel", "x__ok", "r__ok"]));
    let r = answer(&mut rx).expect("success");
    assert_eq!(r.version, Some(3), "the window's version in the state published after the answer");
    assert_eq!(r.opened_window_ids, ["p", "r"]);
    assert_eq!(r.new_tools, ["p__cancel", "r__ok"]);
    assert!(!slot.deferred.unsent());
}

/// Admits the next call of `q` in pass `P`, claims it as `w__go` and tries to keep it; a call
/// not kept is answered as the frame does, with the error. Then the pass ends and is published.
fn try_keep(slot: &mut CallSlot, q: &Queue, s: &Arc<Snapshot>) -> Result<(), NotKept> {
    assert!(slot.admit(&q.rx, s, P, false, BUDGET, same_id), "admitted whatever is kept");
    let call = slot.claim(P, Some("w"), "go").expect("claimed");
    let mark = MarkOf { app_id: Some("w".into()), action: "go".into(), title: "Go".into() };
    let kept = slot.defer(&call, mark);
    if let Err(NotKept::Refused(e)) = &kept {
        slot.set_outcome(&call, Err(e.clone()));
    }
    assert_eq!(slot.after_pass(P), AfterPass::Applied);
    slot.finish(s);
    kept
}

/// The limit binds the keeping, not the admission: past one connection's share its call is not
/// kept (answered with why, not lost), another's is; past the whole limit nobody's is.
#[test]
fn kept_calls_are_bounded_per_connection_and_in_all() {
    let (q, s) = (Queue::new(), snapshot(&[("w", 1)], &["w__go"]));
    let mut slot = CallSlot::default();
    let (greedy, other) = (ClientId::fresh(), ClientId::fresh());
    let mut held = Vec::new();
    for _ in 0..MAX_DEFERRED_PER_CONNECTION {
        held.push(q.push_from(greedy, "w__go", None, later()));
        assert_eq!(try_keep(&mut slot, &q, &s), Ok(()));
    }
    let mut refused = q.push_from(greedy, "w__go", None, later());
    let Err(NotKept::Refused(e)) = try_keep(&mut slot, &q, &s) else { panic!("past its share: not kept") };
    assert!(e.message.starts_with("This connection has too many operations in progress"), "{}", e.message);
    assert_eq!(answer(&mut refused).expect_err("answered with why").message, e.message);
    for _ in 0..MAX_DEFERRED_CALLS - MAX_DEFERRED_PER_CONNECTION {
        held.push(q.push_from(other, "w__go", None, later()));
        assert_eq!(try_keep(&mut slot, &q, &s), Ok(()), "another connection's is kept");
    }
    let mut refused = q.push("w__go", None, later());
    let Err(NotKept::Refused(e)) = try_keep(&mut slot, &q, &s) else { panic!("past the limit: not kept") };
    assert!(e.message.starts_with("The app has too many operations in progress"), "{}", e.message);
    assert_eq!(answer(&mut refused).expect_err("answered").code, ErrorCode::ActionNotAvailable);
    assert!(held.iter_mut().all(|rx| rx.try_recv().is_err()), "the kept ones still wait");
}
