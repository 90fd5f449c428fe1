//! HTTP sessions, bounded: rmcp's `LocalSessionManager` behind a cap and two evictions.
//!
//! - At most [`HttpOptions::max_sessions`] live at once: a new `initialize` beyond the cap
//!   closes one session, chosen so that a flood of new sessions (a local process opening them
//!   as fast as it can) cannot take a session that is in use: first one that never finished
//!   initialising, then one that never made a request after it, and only then the one idle the
//!   longest (no request, message or stream opened); the oldest first within each kind.
//! - A session that never sent `notifications/initialized` is closed after twice the header
//!   timeout; one that made no request for [`HttpOptions::session_idle`] is closed here (rmcp
//!   ends its worker then, but keeps its entry until the session is closed: that was a leak of
//!   every expired session).
//!
//! An evicted client gets the protocol's answer to an unknown session (HTTP 404, "Session not
//! found") and can initialise again.

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use futures_core::Stream;
use parking_lot::Mutex;
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};

use super::http_options::HttpOptions;

#[derive(Clone, Copy)]
struct Tracked {
    created: Instant,
    last_used: Instant,
    initialized: bool,
    /// It made a request after initialising (a call, a read, a listing, a ping).
    used: bool,
}

impl Tracked {
    /// The order in which sessions are evicted beyond the cap: the smallest first.
    fn eviction_rank(&self) -> (bool, bool, Instant) {
        (self.initialized, self.used, self.last_used)
    }
}

/// The session manager the HTTP transport uses.
pub(crate) struct BoundedSessions {
    inner: LocalSessionManager,
    tracked: Mutex<HashMap<SessionId, Tracked>>,
    max: usize,
    init_deadline: Duration,
    idle: Duration,
}

impl BoundedSessions {
    /// A manager with these limits; its sweeper runs on `runtime` while the manager lives.
    pub fn new(options: &HttpOptions, runtime: &tokio::runtime::Handle) -> Arc<Self> {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(options.session_idle);
        let this = Arc::new(Self {
            inner,
            tracked: Mutex::new(HashMap::new()),
            max: options.max_sessions.max(1),
            init_deadline: options.header_timeout * 2,
            idle: options.session_idle,
        });
        let sweep_every = (options.header_timeout / 2).clamp(Duration::from_millis(100), Duration::from_secs(10));
        runtime.spawn(sweep(Arc::downgrade(&this), sweep_every));
        this
    }

    fn touch(&self, id: &SessionId) {
        if let Some(t) = self.tracked.lock().get_mut(id) {
            t.last_used = Instant::now();
        }
    }

    /// The sessions held: tracked here, or still in rmcp's map.
    pub async fn held(&self) -> usize {
        let tracked = self.tracked.lock().len();
        tracked.max(self.inner.sessions.read().await.len())
    }

    /// Closes every session (a stop): their notification streams end.
    pub async fn close_all(&self) {
        let ids: Vec<SessionId> = self.tracked.lock().keys().cloned().collect();
        self.evict(ids, "the server stops").await;
    }

    async fn evict(&self, ids: Vec<SessionId>, why: &'static str) {
        for id in ids {
            tracing::debug!(why, "closing an HTTP session");
            self.tracked.lock().remove(&id);
            let _ = self.inner.close_session(&id).await;
        }
    }
}

/// Closes sessions that never finished initialising, and forgets the ones rmcp expired.
async fn sweep(this: Weak<BoundedSessions>, every: Duration) {
    loop {
        tokio::time::sleep(every).await;
        let Some(this) = this.upgrade() else { return };
        let stale: Vec<SessionId> = this
            .tracked
            .lock()
            .iter()
            .filter(|(_, t)| !t.initialized && t.created.elapsed() > this.init_deadline)
            .map(|(id, _)| Arc::clone(id))
            .collect();
        this.evict(stale, "never initialised").await;
        let expired: Vec<SessionId> = this
            .tracked
            .lock()
            .iter()
            .filter(|(_, t)| t.last_used.elapsed() > this.idle)
            .map(|(id, _)| Arc::clone(id))
            .collect();
        this.evict(expired, "idle past the session idle time").await;
        let ids: Vec<SessionId> = this.tracked.lock().keys().cloned().collect();
        for id in ids {
            if !this.inner.has_session(&id).await.unwrap_or(false) {
                this.tracked.lock().remove(&id);
            }
        }
    }
}

impl SessionManager for BoundedSessions {
    type Error = <LocalSessionManager as SessionManager>::Error;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let over: Vec<SessionId> = {
            let tracked = self.tracked.lock();
            let mut by_idle: Vec<(&SessionId, &Tracked)> = tracked.iter().collect();
            by_idle.sort_by_key(|(_, t)| t.eviction_rank());
            let excess = (tracked.len() + 1).saturating_sub(self.max);
            by_idle.into_iter().take(excess).map(|(id, _)| Arc::clone(id)).collect()
        };
        self.evict(over, "session cap reached; unused or idle the longest").await;
        let (id, transport) = self.inner.create_session().await?;
        let now = Instant::now();
        self.tracked
            .lock()
            .insert(Arc::clone(&id), Tracked { created: now, last_used: now, initialized: false, used: false });
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.tracked.lock().remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        if let Some(t) = self.tracked.lock().get_mut(id) {
            t.used |= t.initialized;
        }
        self.touch(id);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<(), Self::Error> {
        if let ClientJsonRpcMessage::Notification(n) = &message
            && matches!(n.notification, ClientNotification::InitializedNotification(_))
            && let Some(t) = self.tracked.lock().get_mut(id)
        {
            t.initialized = true;
        }
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }
}
