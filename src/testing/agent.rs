//! [`Agent`]: an agent inside the test process, through the same queue, checks and answers as
//! an MCP client, without a transport.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::{Map, Value};

use crate::bridge::Bridge;
use crate::hub::{ClientId, Outcome, PendingCall, Snapshot, Ticket, UiCore};
use crate::protocol::{ErrorCode, ToolError};

/// What changed since the agent last asked: the notifications an MCP client would have got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// The state changed (`notifications/resources/updated` for `app://windows`).
    pub windows: bool,
    /// The tool list changed (`notifications/tools/list_changed`).
    pub tools: bool,
}

impl Change {
    /// Whether anything changed.
    pub fn any(self) -> bool {
        self.windows || self.tools
    }
}

/// An agent inside the test process. It calls tools exactly as the MCP server does for a
/// client (same checks, same queue, same answers), so what passes here passes over MCP. Each
/// agent is a connection of its own: what one connection may hold
/// ([`MAX_DEFERRED_PER_CONNECTION`](crate::limits::MAX_DEFERRED_PER_CONNECTION)) is per agent.
#[derive(Debug)]
pub struct Agent {
    pub(super) core: Arc<UiCore>,
    seen: (u64, u64),
    /// Its calls come from one connection of their own, as one MCP client's do.
    client: ClientId,
}

impl Agent {
    /// An agent for this bridge. It has seen nothing yet: the first [`changes`](Self::changes)
    /// reports whatever was published.
    pub fn new(bridge: &Bridge) -> Self {
        Self { core: Arc::clone(bridge.core()), seen: (0, 0), client: ClientId::fresh() }
    }

    /// Sends a call without waiting: the UI takes it in a coming pass. `args` is a JSON object
    /// (`expectedVersion` included); anything else is answered as `validation_failed`.
    pub fn send(&self, tool: &str, args: impl Into<Value>) -> AgentCall {
        let args = match args.into() {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            _ => {
                let (tx, rx) = tokio::sync::oneshot::channel();
                let _ = tx.send(Err(ToolError::invalid_field("arguments", "must be an object")));
                return AgentCall { ticket: Ticket { call: None, rx } };
            }
        };
        self.core.hub.agent_active();
        AgentCall { ticket: self.core.hub.submit_as(self.client, tool, args, None) }
    }

    /// Calls a tool and waits for its answer, as the server does for a client: at most the call
    /// budget. A UI thread must be running passes (a headless loop, or an app's window).
    pub async fn call(&self, tool: &str, args: impl Into<Value>) -> Outcome {
        self.core.hub.agent_active();
        match args.into() {
            Value::Object(map) => self.core.hub.call(self.client, tool, map).await,
            Value::Null => self.core.hub.call(self.client, tool, Map::new()).await,
            _ => Err(ToolError::invalid_field("arguments", "must be an object")),
        }
    }

    /// The latest published state. Reading it counts as an agent being about, as a server's
    /// read does (the read view is built while one is).
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.core.hub.agent_active();
        self.core.hub.snapshot()
    }

    /// The names of the tools listed now.
    pub fn tool_names(&self) -> Vec<String> {
        self.snapshot().tools().iter().map(|t| t.name.clone()).collect()
    }

    /// What changed since the last call of this (or since the agent was made).
    pub fn changes(&mut self) -> Change {
        let s = self.snapshot();
        let now = (s.windows_revision(), s.tools_revision());
        let change = Change { windows: now.0 != self.seen.0, tools: now.1 != self.seen.1 };
        self.seen = now;
        change
    }

    /// Calls (of any client, this agent or another) queued for the UI thread, plus the one it
    /// works on, if any: to see that a call reached the app.
    pub fn pending_calls(&self) -> usize {
        self.core.pending_calls()
    }

    /// A receiver of every publish (coalesced to the latest), for async tests.
    pub fn watch(&self) -> tokio::sync::watch::Receiver<Arc<Snapshot>> {
        self.core.hub.watch()
    }
}

/// A call sent with [`Agent::send`]. Await it, or poll [`try_outcome`](Self::try_outcome)
/// between passes. Dropping it before the UI took the call cancels the call (as a client that
/// leaves does): it is then never applied.
#[derive(Debug)]
#[must_use = "dropping an AgentCall cancels the call"]
pub struct AgentCall {
    ticket: Ticket,
}

impl AgentCall {
    /// The answer, if it came.
    pub fn try_outcome(&mut self) -> Option<Outcome> {
        match self.ticket.rx.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(tokio::sync::oneshot::error::TryRecvError::Empty) => None,
            Err(tokio::sync::oneshot::error::TryRecvError::Closed) => Some(Err(ToolError::app_ended())),
        }
    }

    fn pending(&self) -> Option<&Arc<PendingCall>> {
        self.ticket.call.as_ref()
    }
}

impl Future for AgentCall {
    type Output = Outcome;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Outcome> {
        Pin::new(&mut self.ticket.rx).poll(cx).map(|r| r.unwrap_or_else(|_| Err(ToolError::app_ended())))
    }
}

impl Drop for AgentCall {
    fn drop(&mut self) {
        if let Some(call) = self.pending() {
            call.cancel(ToolError::new(ErrorCode::ActionTimeout, "The test dropped the call"));
        }
    }
}
