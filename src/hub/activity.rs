//! A short log of recent agent calls and their outcomes, and of agents attaching to the app
//! through its local endpoint and leaving, for the person's side of the UI (an "Agent
//! activity" panel). It holds tool names, outcome codes and client labels from the bridge's own
//! table only, never arguments or a client's own words, so secrets cannot leak into it.

use std::collections::VecDeque;
use std::time::Instant;

use parking_lot::Mutex;

use crate::protocol::ErrorCode;

/// How many records the log keeps.
pub const ACTIVITY_CAPACITY: usize = 64;

/// An agent's connection through the local endpoint began or ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionEvent {
    /// A client started the app's command (`--stdio`) and it attached to this running app.
    Attached,
    /// That client left; the app goes on.
    Left,
}

/// One finished call, or one the app took and will answer later ([`waiting`](Self::waiting)),
/// or an agent attaching or leaving ([`connection`](Self::connection)).
#[derive(Clone, Debug, PartialEq)]
pub struct ActivityRecord {
    /// Sequence number, rising by one per record.
    pub seq: u64,
    /// The tool name (empty for a connection's record).
    pub tool: String,
    /// `None` for success, else the error code.
    pub error: Option<ErrorCode>,
    /// The result's or error's message.
    pub message: String,
    /// The app took the call and will answer it on a later pass (a deferred call): the agent
    /// waits. Replaced by the finished record when it is answered or its budget runs out.
    pub waiting: bool,
    /// When it finished (or, while waiting, when the app took it).
    pub at: Instant,
    /// `Some` when this records an agent attaching or leaving, not a call.
    pub connection: Option<ConnectionEvent>,
}

/// The log; shared by the hub and every call.
#[derive(Debug, Default)]
pub struct ActivityLog {
    inner: Mutex<(u64, VecDeque<ActivityRecord>)>,
}

impl ActivityLog {
    /// A finished call; it replaces the record `waiting` (its waiting record), if still kept.
    pub(crate) fn record(&self, tool: String, error: Option<ErrorCode>, message: String, waiting: Option<u64>) {
        let mut inner = self.inner.lock();
        if let Some(seq) = waiting {
            inner.1.retain(|r| r.seq != seq);
        }
        Self::push(&mut inner, tool, error, message, false);
    }

    /// An agent attached or left; `message` says who, in the bridge's words.
    pub(crate) fn connection(&self, event: ConnectionEvent, message: String) {
        let mut inner = self.inner.lock();
        let seq = Self::push(&mut inner, String::new(), None, message, false);
        if let Some(r) = inner.1.back_mut().filter(|r| r.seq == seq) {
            r.connection = Some(event);
        }
    }

    /// A call the app took and will answer later; returns its record's sequence number.
    pub(crate) fn waiting(&self, tool: String) -> u64 {
        Self::push(&mut self.inner.lock(), tool, None, "Waiting for the app to finish".to_owned(), true)
    }

    fn push(
        inner: &mut (u64, VecDeque<ActivityRecord>),
        tool: String,
        error: Option<ErrorCode>,
        message: String,
        waiting: bool,
    ) -> u64 {
        inner.0 += 1;
        let seq = inner.0;
        if inner.1.len() == ACTIVITY_CAPACITY {
            inner.1.pop_front();
        }
        inner.1.push_back(ActivityRecord { seq, tool, error, message, waiting, at: Instant::now(), connection: None });
        seq
    }

    /// The newest records, newest last.
    pub fn recent(&self) -> Vec<ActivityRecord> {
        self.inner.lock().1.iter().cloned().collect()
    }

    /// The sequence number of the newest record (0 when empty): cheap change detection.
    pub fn last_seq(&self) -> u64 {
        self.inner.lock().0
    }
}
