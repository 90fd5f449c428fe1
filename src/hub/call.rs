//! A tool call on its way from a server task to the UI thread and back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
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

const PENDING: u8 = 0;
const CLAIMED: u8 = 1;
const CANCELLED: u8 = 2;
const DONE: u8 = 3;

/// One queued call. Exactly one party wins the move out of "pending": the UI thread by
/// claiming it (then it is applied), or anyone else by cancelling or rejecting it (then it
/// never is).
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
    state: AtomicU8,
    /// The person allowed it (an action that asks the person first).
    approved: AtomicBool,
    reply: Mutex<Option<oneshot::Sender<Outcome>>>,
    activity: Option<Arc<ActivityLog>>,
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
            state: AtomicU8::new(PENDING),
            approved: AtomicBool::new(false),
            reply: Mutex::new(Some(reply)),
            activity,
        }
    }

    /// The call made through the dispatcher of `class` (none: directly).
    #[must_use]
    pub(crate) fn through(mut self, class: Option<SafetyClass>) -> Self {
        self.class = class;
        self
    }

    /// The tool name this call was made with.
    pub fn tool_name(&self) -> String {
        crate::protocol::tool_name(self.target.as_str(), &self.action)
    }

    fn transition(&self, to: u8) -> bool {
        self.state.compare_exchange(PENDING, to, Ordering::AcqRel, Ordering::Acquire).is_ok()
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
                log.record(self.tool_name(), error, message);
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
}
