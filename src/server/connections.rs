//! Every live connection, and the fan-out of notifications to them.
//!
//! rmcp has no broadcast: each legacy session's `Peer` is registered at `initialize` with its
//! own subscription flag, and each 2026-07-28 `subscriptions/listen` stream registers its sink.
//! A broadcast snapshots the targets under the lock, sends to all of them concurrently with a
//! timeout each (a stuck client cannot stall the others), then prunes the dead ones.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use rmcp::RoleServer;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::{Peer, SubscriptionSink};

use super::WINDOWS_URI;

const SEND_TIMEOUT: Duration = Duration::from_secs(5);

struct Session {
    id: u64,
    peer: Peer<RoleServer>,
    subscribed: bool,
}

struct Listener {
    id: u64,
    sink: SubscriptionSink,
}

/// The registry of sessions and listeners.
#[derive(Default)]
pub(crate) struct Connections {
    next_id: AtomicU64,
    sessions: Mutex<Vec<Session>>,
    listeners: Mutex<Vec<Listener>>,
}

impl Connections {
    pub fn add_session(&self, peer: Peer<RoleServer>) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.sessions.lock().push(Session { id, peer, subscribed: false });
        id
    }

    pub fn set_subscribed(&self, session: u64, subscribed: bool) {
        if let Some(s) = self.sessions.lock().iter_mut().find(|s| s.id == session) {
            s.subscribed = subscribed;
        }
    }

    pub fn add_listener(&self, sink: SubscriptionSink) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.listeners.lock().push(Listener { id, sink });
        id
    }

    pub fn remove_listener(&self, id: u64) {
        self.listeners.lock().retain(|l| l.id != id);
    }

    /// Sends `resources/updated` (to subscribers) and/or `tools/list_changed` (to everyone).
    pub async fn broadcast(&self, windows_changed: bool, tools_changed: bool) {
        let sessions: Vec<_> =
            self.sessions.lock().iter().map(|s| (s.id, s.peer.clone(), s.subscribed && windows_changed)).collect();
        let listeners: Vec<_> = self.listeners.lock().iter().map(|l| (l.id, l.sink.clone())).collect();
        let mut sends = tokio::task::JoinSet::new();
        for (id, peer, updated) in sessions {
            sends.spawn(async move {
                let ok = tokio::time::timeout(SEND_TIMEOUT, async {
                    if peer.is_transport_closed() {
                        return false;
                    }
                    if updated
                        && peer
                            .notify_resource_updated(ResourceUpdatedNotificationParam::new(WINDOWS_URI))
                            .await
                            .is_err()
                    {
                        return false;
                    }
                    !tools_changed || peer.notify_tool_list_changed().await.is_ok()
                })
                .await
                .unwrap_or(false);
                (true, id, ok)
            });
        }
        for (id, sink) in listeners {
            sends.spawn(async move {
                use rmcp::service::SubscriptionSendError as E;
                let alive = |r: Result<(), E>| !matches!(r, Err(E::SubscriptionClosed | E::Service(_)));
                let ok = tokio::time::timeout(SEND_TIMEOUT, async {
                    (!windows_changed || alive(sink.notify_resource_updated(WINDOWS_URI).await))
                        && (!tools_changed || alive(sink.notify_tool_list_changed().await))
                })
                .await
                .unwrap_or(false);
                (false, id, ok)
            });
        }
        let mut dead_sessions = Vec::new();
        let mut dead_listeners = Vec::new();
        while let Some(Ok((is_session, id, ok))) = sends.join_next().await {
            if !ok {
                if is_session {
                    dead_sessions.push(id);
                } else {
                    dead_listeners.push(id);
                }
            }
        }
        if !dead_sessions.is_empty() {
            tracing::debug!(count = dead_sessions.len(), "pruning closed sessions");
            self.sessions.lock().retain(|s| !dead_sessions.contains(&s.id));
        }
        if !dead_listeners.is_empty() {
            self.listeners.lock().retain(|l| !dead_listeners.contains(&l.id));
        }
    }
}
