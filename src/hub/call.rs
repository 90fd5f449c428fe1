//! A tool call on its way from a server task to the UI thread and back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use parking_lot::Mutex;
use serde_json::{Map, Value};
use tokio::sync::oneshot;

use super::SafetyClass;
use super::activity::ActivityLog;
use crate::protocol::{APP_TARGET, ToolError, ToolResult};

/// What a call ends with.
pub type Outcome = Result<ToolResult, ToolError>;

/// Whom a call is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallTarget {
    /// An app-level action (`app__…`).
    App,
    /// A window, by external handle.
    Window(String),
}

impl CallTarget {
    /// Reads the `{winId}` part of a tool name.
    pub fn parse(window: &str) -> Self {
        if window == APP_TARGET { Self::App } else { Self::Window(window.to_owned()) }
    }

    /// The `{winId}` part of the tool name.
    pub fn as_str(&self) -> &str {
        match self {
            Self::App => APP_TARGET,
            Self::Window(h) => h,
        }
    }
}

/// Which connection sent a call (an MCP client's, or an in-process agent's): an opaque id, so
/// that what all clients share (the calls the app keeps, [`super::MAX_DEFERRED_PER_CONNECTION`])
/// is shared per connection. The hub knows nothing else of the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientId(u64);

impl ClientId {
    /// An id no connection had before.
    pub fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Self(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// What is told of a call's answer besides its caller: the recording's line of it
/// (`hub/record.rs`), once, whoever answers it.
pub(crate) trait Recorded: Send + Sync + std::fmt::Debug {
    /// `call` was answered with `outcome`.
    fn answered(&self, call: &PendingCall, outcome: &Outcome);
}

const PENDING: u8 = 0;
const CLAIMED: u8 = 1;
const CANCELLED: u8 = 2;
const DONE: u8 = 3;
/// Claimed, and kept by the app to answer on a later pass.
const DEFERRED: u8 = 4;
/// Kept, and its effect is under way (a generic call's requests went into the app's input): its
/// budget no longer ends it, for it is applied; only its answer does.
const APPLYING: u8 = 5;

/// One queued call. Exactly one party wins the move out of "pending": the UI thread by
/// claiming it (then it is applied), or anyone else by cancelling or rejecting it (then it
/// never is). A claimed call the app defers moves on to "deferred", and out of it exactly once:
/// back to "claimed" when the app answers in time, or to "done" when its budget runs out (then
/// the app's answer is never sent). A deferred call whose effect the bridge itself starts (a
/// generic call's requests) moves to "applying" first, and out of it only by the answer: a call
/// answered `action_timeout` is never applied.
#[derive(Debug)]
pub struct PendingCall {
    /// Window or app.
    pub target: CallTarget,
    /// The action part of the tool name.
    pub action: String,
    /// Arguments without `expectedVersion` (always a JSON object).
    pub args: Value,
    /// The version the agent based the call on.
    pub expected_version: Option<u64>,
    /// Past this instant the UI must not apply the call.
    pub deadline: Instant,
    /// Made through a dispatcher: the tool must be of this class.
    pub class: Option<SafetyClass>,
    /// The connection that sent it.
    pub client: ClientId,
    state: AtomicU8,
    /// The person allowed it (an action that asks the person first).
    approved: AtomicBool,
    /// Kept by the bridge itself, which applies it (a generic call): until its requests go in
    /// ([`Self::start_applying`]) nothing of it is applied.
    by_bridge: AtomicBool,
    reply: Mutex<Option<oneshot::Sender<Outcome>>>,
    activity: Option<Arc<ActivityLog>>,
    /// The activity record that says the agent waits (0: none), replaced by the outcome.
    waiting_record: AtomicU64,
    /// Told of its answer besides the caller: its line in the recording, if the app records
    /// calls.
    record: Option<Box<dyn Recorded>>,
}

impl PendingCall {
    pub(crate) fn new(
        target: CallTarget,
        action: String,
        args: Map<String, Value>,
        expected_version: Option<u64>,
        deadline: Instant,
        reply: oneshot::Sender<Outcome>,
        activity: Option<Arc<ActivityLog>>,
    ) -> Self {
        Self {
            target,
            action,
            args: Value::Object(args),
            expected_version,
            deadline,
            class: None,
            client: ClientId(0),
            state: AtomicU8::new(PENDING),
            approved: AtomicBool::new(false),
            by_bridge: AtomicBool::new(false),
            reply: Mutex::new(Some(reply)),
            activity,
            waiting_record: AtomicU64::new(0),
            record: None,
        }
    }

    /// The call is recorded with its answer (`hub/record.rs`).
    #[must_use]
    pub(crate) fn recorded(mut self, seed: Option<Box<dyn Recorded>>) -> Self {
        self.record = seed;
        self
    }

    /// The call made through the dispatcher of `class` (none: directly).
    #[must_use]
    pub(crate) fn through(mut self, class: Option<SafetyClass>) -> Self {
        self.class = class;
        self
    }

    /// The call sent by the connection `client` (unset: id 0, the crate's own unit tests).
    #[must_use]
    pub(crate) fn sent_by(mut self, client: ClientId) -> Self {
        self.client = client;
        self
    }

    /// The tool name this call was made with.
    pub fn tool_name(&self) -> String {
        crate::protocol::tool_name(self.target.as_str(), &self.action)
    }

    fn transition(&self, to: u8) -> bool {
        self.change(PENDING, to)
    }

    fn change(&self, from: u8, to: u8) -> bool {
        self.state.compare_exchange(from, to, Ordering::AcqRel, Ordering::Acquire).is_ok()
    }

    /// Whether the person allowed it.
    pub fn is_approved(&self) -> bool {
        self.approved.load(Ordering::Acquire)
    }

    /// The person allowed it: it is applied as a direct call would be.
    pub fn approve(&self) {
        self.approved.store(true, Ordering::Release);
    }

    /// Still waiting to be claimed, cancelled or rejected.
    pub fn is_pending(&self) -> bool {
        self.state.load(Ordering::Acquire) == PENDING
    }

    /// The UI takes the call to apply it. False if it was cancelled meanwhile.
    pub fn try_claim(&self) -> bool {
        self.transition(CLAIMED)
    }

    /// Cancels a call that nobody claimed yet, answering it with `error`. False if it is
    /// already claimed or answered.
    pub fn cancel(&self, error: ToolError) -> bool {
        let won = self.transition(CANCELLED);
        if won {
            self.send(Err(error));
        }
        won
    }

    /// Answers a call that was never applied with an error (if it is still pending).
    pub fn reject(&self, error: ToolError) {
        if self.transition(DONE) {
            self.send(Err(error));
        }
    }

    /// The app keeps the claimed call to answer it on a later pass; the activity log says the
    /// agent waits. False if it was not claimed (or already deferred).
    pub fn defer(&self) -> bool {
        if !self.change(CLAIMED, DEFERRED) {
            return false;
        }
        if let Some(log) = &self.activity {
            let seq = log.waiting(self.tool_name());
            self.waiting_record.store(seq, Ordering::Release);
        }
        true
    }

    /// Whether the app keeps it and the agent still waits for the answer (its effect under way
    /// or not).
    pub fn is_deferred(&self) -> bool {
        matches!(self.state.load(Ordering::Acquire), DEFERRED | APPLYING)
    }

    /// The bridge keeps it and applies it itself (a generic call), not the app.
    pub fn kept_by_bridge(&self) {
        self.by_bridge.store(true, Ordering::Release);
    }

    /// The error a kept call gets when its budget runs out first: `action_timeout` for one the
    /// bridge applies (nothing of it was, nor will be), else
    /// [`deferred_unfinished`](ToolError::deferred_unfinished) (the app holds it and may still
    /// finish it).
    pub fn expired(&self, budget: std::time::Duration) -> ToolError {
        if self.by_bridge.load(Ordering::Acquire) {
            ToolError::timeout(budget)
        } else {
            ToolError::deferred_unfinished(budget)
        }
    }

    /// Whether its budget may still end it: kept, and nothing of it applied yet.
    pub fn may_expire(&self) -> bool {
        self.state.load(Ordering::Acquire) == DEFERRED
    }

    /// A kept call's effect starts now (the bridge puts its requests into the app's input): from
    /// here on it is answered with what it did, never `action_timeout`. False if its budget ran
    /// out first (the agent was answered): then nothing of it may be applied.
    pub fn start_applying(&self) -> bool {
        self.change(DEFERRED, APPLYING) || self.state.load(Ordering::Acquire) == APPLYING
    }

    /// The app answers a deferred call: it is claimed again, to be resolved after the publish.
    /// False if its budget ran out first (the agent was told it did not finish; the answer is
    /// not sent).
    pub fn take_back(&self) -> bool {
        self.change(DEFERRED, CLAIMED) || self.change(APPLYING, CLAIMED)
    }

    /// Ends a deferred call that the app has not answered, with `error` (its budget ran out, or
    /// the app is exiting). False if the app answered first or it already ended.
    pub fn expire(&self, error: ToolError) -> bool {
        let won = self.change(DEFERRED, DONE);
        if won {
            self.send(Err(error));
        }
        won
    }

    /// Answers a claimed call.
    pub fn resolve(&self, outcome: Outcome) {
        self.state.store(DONE, Ordering::Release);
        self.send(outcome);
    }

    fn send(&self, outcome: Outcome) {
        if let Some(tx) = self.reply.lock().take() {
            if let Some(log) = &self.activity {
                let (error, message) = match &outcome {
                    Ok(r) => (None, r.message.clone().unwrap_or_default()),
                    Err(e) => (Some(e.code), e.message.clone()),
                };
                let waiting = self.waiting_record.load(Ordering::Acquire);
                log.record(self.tool_name(), error, message, (waiting != 0).then_some(waiting));
            }
            if let Some(record) = &self.record {
                record.answered(self, &outcome);
            }
            let _ = tx.send(outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call() -> (PendingCall, oneshot::Receiver<Outcome>) {
        let (tx, rx) = oneshot::channel();
        (PendingCall::new(CallTarget::App, "x".into(), Map::new(), None, Instant::now(), tx, None), rx)
    }

    #[test]
    fn a_cancelled_call_cannot_be_claimed() {
        let (c, _rx) = call();
        assert!(c.cancel(ToolError::timeout(std::time::Duration::ZERO)));
        assert!(!c.try_claim(), "cancelled calls are never applied");
    }

    #[test]
    fn a_claimed_call_cannot_be_cancelled_or_rejected() {
        let (c, mut rx) = call();
        assert!(c.try_claim());
        assert!(!c.cancel(ToolError::timeout(std::time::Duration::ZERO)));
        c.reject(ToolError::window_not_found("w"));
        assert!(rx.try_recv().is_err(), "reject must not answer a claimed call");
        c.resolve(Ok(ToolResult::message("ok")));
        assert_eq!(rx.try_recv().unwrap().unwrap().message.as_deref(), Some("ok"));
    }

    #[test]
    fn a_deferred_call_ends_once_by_the_answer_or_by_its_budget() {
        let (c, mut rx) = call();
        assert!(!c.defer(), "only a claimed call can be deferred");
        assert!(c.try_claim() && c.defer());
        assert!(!c.cancel(ToolError::timeout(std::time::Duration::ZERO)), "taken: not cancelled");
        assert!(c.expire(ToolError::timeout(std::time::Duration::ZERO)));
        assert!(!c.take_back(), "the app's answer after the budget is not sent");
        assert!(rx.try_recv().unwrap().is_err());

        let (c, _rx) = call();
        assert!(c.try_claim() && c.defer() && c.take_back());
        assert!(!c.expire(ToolError::timeout(std::time::Duration::ZERO)), "answered in time: no timeout");
    }

    #[test]
    fn a_kept_call_whose_effect_started_is_never_ended_by_its_budget() {
        let (c, mut rx) = call();
        assert!(c.try_claim() && c.defer() && c.start_applying() && c.start_applying());
        assert!(c.is_deferred() && !c.may_expire());
        assert!(!c.expire(ToolError::timeout(std::time::Duration::ZERO)), "applied: no action_timeout");
        assert!(rx.try_recv().is_err());
        assert!(c.take_back(), "its answer is taken");

        let (c, _rx) = call();
        assert!(c.try_claim() && c.defer() && c.expire(ToolError::timeout(std::time::Duration::ZERO)));
        assert!(!c.start_applying(), "answered action_timeout: nothing of it is applied");
    }
}
