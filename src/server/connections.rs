//! Every live connection, and the fan-out of notifications to them.
//!
//! rmcp has no broadcast: each legacy session's `Peer` is registered at `initialize` with its
//! own subscription flag, and each 2026-07-28 `subscriptions/listen` stream registers its sink.
//!
//! Notifications carry no data, only "changed", so they coalesce: a broadcast sets a
//! connection's pending bits (`resources/updated`, `tools/list_changed`) and wakes that
//! connection's own delivery task, and never waits for any peer. A peer that stops reading
//! blocks only its own task; the changes meanwhile fold into the pending bits, so when it reads
//! again it catches up with at most one of each. The backlog per connection is those two bits.
//! Only a closed peer is pruned (its send fails, or its transport reports closed).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use parking_lot::Mutex;
use rmcp::RoleServer;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::{Peer, SubscriptionSink};
use tokio::sync::Notify;

use super::WINDOWS_URI;

const WINDOWS: u8 = 1;
const TOOLS: u8 = 2;

/// One connection's delivery state, shared by the registry and its delivery task.
#[derive(Default)]
struct Target {
    pending: AtomicU8,
    /// Legacy sessions: whether `resources/subscribe` was called for `app://windows`.
    /// Listeners: always true (their sink enforces the filter they asked for).
    subscribed: AtomicBool,
    closed: AtomicBool,
    wake: Notify,
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
#[derive(Default)]
pub(crate) struct Connections {
    next_id: AtomicU64,
    targets: Arc<Mutex<HashMap<u64, Arc<Target>>>>,
}

impl Connections {
    /// Registers a legacy session (call inside the server's runtime).
    pub fn add_session(&self, peer: Peer<RoleServer>) -> u64 {
        self.add(Destination::Session(peer), false)
    }

    /// Registers a `subscriptions/listen` stream (call inside the server's runtime).
    pub fn add_listener(&self, sink: SubscriptionSink) -> u64 {
        self.add(Destination::Listener(sink), true)
    }

    fn add(&self, destination: Destination, subscribed: bool) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let target = Arc::new(Target { subscribed: AtomicBool::new(subscribed), ..Target::default() });
        self.targets.lock().insert(id, Arc::clone(&target));
        let registry = Arc::clone(&self.targets);
        tokio::spawn(async move {
            loop {
                target.wake.notified().await;
                if target.closed.load(Ordering::Acquire) {
                    break;
                }
                let bits = target.pending.swap(0, Ordering::AcqRel);
                if bits != 0 && !destination.deliver(bits, target.subscribed.load(Ordering::Acquire)).await {
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

    /// Marks `resources/updated` (for subscribers) and/or `tools/list_changed` (for everyone)
    /// as pending on every connection, and wakes their delivery. Never waits on a peer.
    pub fn broadcast(&self, windows_changed: bool, tools_changed: bool) {
        let bits = (u8::from(windows_changed) * WINDOWS) | (u8::from(tools_changed) * TOOLS);
        if bits == 0 {
            return;
        }
        for t in self.targets.lock().values() {
            t.pending.fetch_or(bits, Ordering::AcqRel);
            t.wake.notify_one();
        }
    }
}
