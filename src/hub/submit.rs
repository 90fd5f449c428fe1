//! How a server task hands a call to the UI thread: checked against the last snapshot and
//! bounded, queued, the UI woken; then waited for, at most the call budget, and cancelled if
//! the client leaves before the UI took it.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};

use super::{CallTarget, ClientId, Hub, MAX_TOOL_NAME, Outcome, PendingCall, SafetyClass, check_arguments};
use crate::protocol::{ErrorCode, ToolError, split_tool_name};

/// Where a call's outcome is sent.
type Reply = tokio::sync::oneshot::Sender<Outcome>;

impl Hub {
    /// Queues a call for the UI thread without waiting for it. The ticket yields the outcome;
    /// errors that need no UI (a malformed name, a closed window) come at once.
    /// Through a dispatcher (`class`), the tool must be of that class, checked where every other
    /// rule is, against the state the call is applied to.
    /// `client` is the connection that sends it.
    pub fn submit_as(
        &self,
        client: ClientId,
        tool: &str,
        args: Map<String, Value>,
        class: Option<SafetyClass>,
    ) -> Ticket {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let Some(call) = self.checked_call(client, tool, args, class, tx) else {
            return Ticket { call: None, rx }; // refused, and answered with why
        };
        tracing::debug!(tool, "call queued");
        if self.calls_tx.send(Arc::clone(&call)).is_err() {
            call.reject(ToolError::app_ended());
        }
        if self.is_ui_gone() {
            // Nothing would take it (checked after queueing: the UI's going drains the queue
            // after it marks itself gone).
            self.reject_queued();
        }
        self.wake();
        Ticket { call: Some(call), rx }
    }

    /// The call, if nothing rules it out before the UI sees it: a malformed name or version, or
    /// what the latest snapshot already rules out (the UI re-validates anyway). Arguments are
    /// bounded here, before anything holds them longer than this call. A refused call is
    /// answered at once, through `tx`.
    fn checked_call(
        &self,
        client: ClientId,
        tool: &str,
        mut args: Map<String, Value>,
        class: Option<SafetyClass>,
        tx: Reply,
    ) -> Option<Arc<PendingCall>> {
        let parsed = parse_name(tool).and_then(|name| Ok((name, expected_version(&mut args)?)));
        let ((window, action), expected_version) = match parsed {
            Ok(parsed) => parsed,
            Err(e) => {
                let _ = tx.send(Err(e));
                return None;
            }
        };
        let call = PendingCall::new(
            CallTarget::parse(window),
            action.to_owned(),
            args,
            expected_version,
            Instant::now() + self.config.call_timeout,
            tx,
            Some(Arc::clone(&self.activity)),
        )
        .through(class)
        .sent_by(client);
        let snapshot = self.snapshot();
        let bounded = match (snapshot.tool(tool), call.args.as_object()) {
            (Some(spec), Some(args)) => check_arguments(&spec.input_schema, args, self.config.max_string_chars),
            _ => Ok(()),
        };
        // Seeded here, where the arguments are seen against the state the agent could read: a
        // secret is known by the field or parameter it is for. A call past its arguments'
        // bounds never reaches the app and is not recorded (its arguments may be as large as a
        // request).
        let seed = bounded.is_ok().then(|| self.recorder.get().map(|r| r.seed(&call, &snapshot))).flatten();
        let call = Arc::new(call.recorded(seed));
        let checked = snapshot.validate(&call).and(bounded);
        if let Err(e) = checked {
            call.reject(e);
            return None;
        }
        Some(call)
    }

    /// Submits a call and waits for its outcome, at most the call budget (plus the end of a
    /// frame that already took it).
    ///
    /// Dropping the future (the client left, its request was cancelled) cancels a call the UI
    /// has not taken yet: it is then never applied.
    pub async fn call(&self, client: ClientId, tool: &str, args: Map<String, Value>) -> Outcome {
        self.call_as(client, tool, args, None).await
    }

    /// [`Hub::call`] through the dispatcher of `class`: a tool of another class is refused
    /// with `validation_failed` naming `tool` and the dispatcher to use.
    pub async fn call_as(
        &self,
        client: ClientId,
        tool: &str,
        args: Map<String, Value>,
        class: Option<SafetyClass>,
    ) -> Outcome {
        /// Cancels the call if the future is dropped before the UI took it, and wakes the UI to
        /// record that in the activity log.
        struct CancelOnDrop<'a>(Option<Arc<PendingCall>>, &'a Hub);
        impl Drop for CancelOnDrop<'_> {
            fn drop(&mut self) {
                if let Some(call) = &self.0
                    && call.cancel(ToolError::new(
                        ErrorCode::ActionTimeout,
                        "The client left before the operation took effect",
                    ))
                {
                    self.1.wake();
                }
            }
        }
        let budget = self.config.call_timeout;
        let Ticket { call, mut rx } = self.submit_as(client, tool, args, class);
        let _guard = CancelOnDrop(call.clone(), self);
        if let Ok(outcome) = tokio::time::timeout(budget, &mut rx).await {
            return outcome.unwrap_or_else(|_| Err(ToolError::app_ended()));
        }
        // Past the budget. If the UI has not claimed the call, cancel it: it will never be applied.
        if call.as_ref().is_none_or(|c| c.cancel(ToolError::timeout(budget))) {
            tracing::warn!(tool, "call timed out before the UI took it");
            return rx.await.unwrap_or_else(|_| Err(ToolError::timeout(budget)));
        }
        // The app kept it to answer later and has not: it ends now, and its answer is dropped.
        if call.as_ref().is_some_and(|c| c.expire(c.expired(budget))) {
            tracing::debug!(tool, "a deferred call ran out of budget before the app answered");
            self.wake(); // the person's view stops saying the agent waits
            return rx.await.unwrap_or_else(|_| Err(ToolError::deferred_unfinished(budget)));
        }
        // The UI claimed it already (or its effect is under way): it is applied, so its answer
        // is waited for, one more budget. Past that the agent is told it was taken, never
        // `action_timeout` (which says it was not applied).
        match tokio::time::timeout(budget, rx).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(_)) => Err(ToolError::app_ended()),
            Err(_) => {
                tracing::warn!(tool, "the UI took a call but gave no answer within twice the call budget");
                Err(ToolError::unanswered_by_app(tool))
            }
        }
    }
}

/// The window and action a tool name is made of, or why it names no tool.
fn parse_name(tool: &str) -> Result<(&str, &str), ToolError> {
    if tool.len() > MAX_TOOL_NAME {
        return Err(ToolError::new(
            ErrorCode::ActionNotAvailable,
            format!("No tool has a name that long; tool names are at most {MAX_TOOL_NAME} bytes"),
        ));
    }
    split_tool_name(tool).ok_or_else(|| {
        ToolError::new(
            ErrorCode::ActionNotAvailable,
            format!("{tool} is not a tool of this app; tool names are {{winId}}__{{action}}"),
        )
    })
}

/// `expectedVersion`, taken out of the arguments (the action never sees it).
fn expected_version(args: &mut Map<String, Value>) -> Result<Option<u64>, ToolError> {
    match args.remove("expectedVersion") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| ToolError::invalid_field("expectedVersion", "must be a non-negative integer")),
    }
}

/// A queued call: await `rx` for its outcome.
#[derive(Debug)]
pub(crate) struct Ticket {
    /// The queued call (none when it was answered at once).
    pub call: Option<Arc<PendingCall>>,
    /// Yields the outcome.
    pub rx: tokio::sync::oneshot::Receiver<Outcome>,
}
