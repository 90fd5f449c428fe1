//! Every live connection, and the fan-out of notifications to them.
//!
//! rmcp has no broadcast: each legacy session's `Peer` is registered at `initialize` with its
//! own subscription flag, and each 2026-07-28 `subscriptions/listen` stream registers its sink.
//!
//! Notifications carry no data, only "changed", so each connection keeps just the revisions
//! (windows, tools) it was last told about. A publish wakes every connection's own delivery
//! task, which compares the latest snapshot's revisions with its own and sends what differs;
//! it never waits for any peer. A peer that stops reading blocks only its own task; changes
//! meanwhile fold into one comparison, so when it reads again it catches up with at most one of
//! each. Only a closed peer is pruned (its send fails, or its transport reports closed).
//!
//! The connection that made a call is also brought up to date by the call itself
//! ([`Connections::flush`]) before its result is written, so a client that re-lists on
//! `tools/list_changed` can do so before its model's next request. Both paths hold the
//! connection's own lock while sending, so nothing is sent twice.
//!
//! A legacy session whose transport closed (its client deleted it, it was evicted or expired) is
//! pruned within [`PRUNE_EVERY`] by [`Connections::prune_closed`], so that nothing of it stays
//! (before, a session that closed while nothing changed kept its delivery task and peer for
//! the life of the server). A listener is removed when its stream ends.
//!
//! The first published state is no change: nobody could have read or listed anything before it
//! (reads and listings wait for it), so it notifies nobody.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::Mutex;
use rmcp::RoleServer;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::{Peer, SubscriptionSink};
use tokio::sync::{Notify, watch};

use super::WINDOWS_URI;
use crate::hub::Snapshot;

const WINDOWS: u8 = 1;
const TOOLS: u8 = 2;

/// How often closed sessions are looked for.
pub const PRUNE_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// The revisions of the windows and of the tool list a connection was last told about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Revisions {
    windows: u64,
    tools: u64,
}

impl Revisions {
    fn of(snapshot: &Snapshot) -> Self {
        Self { windows: snapshot.windows_revision, tools: snapshot.tools_revision }
    }

    /// What to tell a connection that was last told `self`, now that the state is at `now`.
    /// Revision 0 is the state before the first publish: moving on from it is no change.
    fn bits_to(self, now: Self) -> u8 {
        let changed = |was: u64, is: u64| was != 0 && was != is;
        (u8::from(changed(self.windows, now.windows)) * WINDOWS) | (u8::from(changed(self.tools, now.tools)) * TOOLS)
    }
}

/// One connection's delivery state, shared by the registry, its delivery task and its calls.
struct Target {
    destination: Destination,
    /// What the connection was last told; held while sending, so that sends never overlap.
    told: tokio::sync::Mutex<Revisions>,
    /// Legacy sessions: whether `resources/subscribe` was called for `app://windows`.
    /// Listeners: always true (their sink enforces the filter they asked for).
    subscribed: AtomicBool,
    closed: AtomicBool,
    wake: Notify,
}

impl Target {
    /// Tells the connection what changed since it was last told; false once the peer is gone.
    async fn catch_up(&self, now: &watch::Receiver<Arc<Snapshot>>) -> bool {
        let mut told = self.told.lock().await;
        let now = Revisions::of(&now.borrow());
        let bits = told.bits_to(now);
        *told = now;
        bits == 0 || self.destination.deliver(bits, self.subscribed.load(Ordering::Acquire)).await
    }
}

enum Destination {
    Session(Peer<RoleServer>),
    Listener(SubscriptionSink),
}

impl Destination {
    /// Sends the pending notifications; false once the peer is gone.
    async fn deliver(&self, bits: u8, subscribed: bool) -> bool {
        match self {
            Self::Session(peer) => {
                if peer.is_transport_closed() {
                    return false;
                }
                if bits & WINDOWS != 0
                    && subscribed
                    && peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(WINDOWS_URI)).await.is_err()
                {
                    return false;
                }
                bits & TOOLS == 0 || peer.notify_tool_list_changed().await.is_ok()
            }
            Self::Listener(sink) => {
                use rmcp::service::SubscriptionSendError as E;
                let alive = |r: Result<(), E>| !matches!(r, Err(E::SubscriptionClosed | E::Service(_)));
                (bits & WINDOWS == 0 || alive(sink.notify_resource_updated(WINDOWS_URI).await))
                    && (bits & TOOLS == 0 || alive(sink.notify_tool_list_changed().await))
            }
        }
    }
}

/// The registry of sessions and listeners.
pub(crate) struct Connections {
    next_id: AtomicU64,
    targets: Arc<Mutex<HashMap<u64, Arc<Target>>>>,
    /// The latest published snapshot.
    state: watch::Receiver<Arc<Snapshot>>,
}

impl Connections {
    pub fn new(state: watch::Receiver<Arc<Snapshot>>) -> Self {
        Self { next_id: AtomicU64::new(0), targets: Arc::default(), state }
    }

    /// Registers a legacy session (call inside the server's runtime).
    pub fn add_session(&self, peer: Peer<RoleServer>) -> u64 {
        self.add(Destination::Session(peer), false, None)
    }

    /// What the state is at now, for a stream acknowledged before it is registered.
    pub fn revisions_now(&self) -> Revisions {
        Revisions::of(&self.state.borrow())
    }

    /// Registers a `subscriptions/listen` stream (call inside the server's runtime), told of
    /// every change since `since` (the state when it was acknowledged: rmcp acknowledges a
    /// stream before the server registers it, and a change published in between would be lost).
    pub fn add_listener(&self, sink: SubscriptionSink, since: Option<Revisions>) -> u64 {
        self.add(Destination::Listener(sink), true, since)
    }

    fn add(&self, destination: Destination, subscribed: bool, since: Option<Revisions>) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let now = Revisions::of(&self.state.borrow());
        let told = since.unwrap_or(now);
        let target = Arc::new(Target {
            destination,
            told: tokio::sync::Mutex::new(told),
            subscribed: AtomicBool::new(subscribed),
            closed: AtomicBool::new(false),
            wake: Notify::new(),
        });
        self.targets.lock().insert(id, Arc::clone(&target));
        if told != now {
            // Changed since it was acknowledged: told at once.
            target.wake.notify_one();
        }
        let (registry, state) = (Arc::clone(&self.targets), self.state.clone());
        tokio::spawn(async move {
            loop {
                target.wake.notified().await;
                if target.closed.load(Ordering::Acquire) {
                    break;
                }
                if !target.catch_up(&state).await {
                    tracing::debug!(connection = id, "pruning a closed connection");
                    break;
                }
            }
            registry.lock().remove(&id);
        });
        id
    }

    pub fn set_subscribed(&self, id: u64, subscribed: bool) {
        if let Some(t) = self.targets.lock().get(&id) {
            t.subscribed.store(subscribed, Ordering::Release);
        }
    }

    /// Ends a connection's delivery (a listener whose stream ended).
    pub fn remove(&self, id: u64) {
        if let Some(t) = self.targets.lock().remove(&id) {
            t.closed.store(true, Ordering::Release);
            t.wake.notify_one();
        }
    }

    /// Removes the sessions whose transport has closed, and ends their delivery tasks.
    pub fn prune_closed(&self) {
        self.targets.lock().retain(|_, t| {
            let closed = matches!(&t.destination, Destination::Session(peer) if peer.is_transport_closed());
            if closed {
                t.closed.store(true, Ordering::Release);
                t.wake.notify_one();
            }
            !closed
        });
    }

    /// How many connections are registered (sessions and listeners).
    #[cfg(feature = "http")]
    pub fn len(&self) -> usize {
        self.targets.lock().len()
    }

    /// Wakes every connection's delivery after a publish. Never waits on a peer.
    pub fn broadcast(&self) {
        for t in self.targets.lock().values() {
            t.wake.notify_one();
        }
    }

    /// Tells these connections what changed, now, and returns once it is handed to their
    /// transports: a call's result comes after the notifications it caused.
    pub async fn flush(&self, ids: impl IntoIterator<Item = u64>) {
        let targets: Vec<Arc<Target>> = {
            let all = self.targets.lock();
            ids.into_iter().filter_map(|id| all.get(&id).cloned()).collect()
        };
        for t in targets {
            // A closed peer is pruned by its own delivery task.
            let _ = t.catch_up(&self.state).await;
        }
    }
}
