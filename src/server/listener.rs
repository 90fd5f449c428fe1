//! The HTTP accept loop: every TCP connection bounded in number, in time and in what it can
//! hold, so that no client, however slow or hostile, exhausts the app or locks others out.
//!
//! - `TCP_NODELAY` on every connection: a keep-alive request is not held back by Nagle's
//!   algorithm and the peer's delayed ACK (≥ 40 ms per request otherwise).
//! - A header timeout: a request head must arrive within [`HttpOptions::header_timeout`], and
//!   hyper applies the same timer while a keep-alive connection waits for its next request, so
//!   an idle connection is closed after it too.
//! - A connection cap ([`HttpOptions::max_connections`]). At the cap a new connection evicts
//!   one that holds a place without using it: first the oldest that has not sent a complete
//!   request yet, else the one idle (no byte either way) the longest, if idle for a second. Only
//!   when every connection is busy is the new one refused. A flood of idle connections thus
//!   cannot lock a well-behaved client out.
//! - Each session's notification stream (its oldest open `GET`, rmcp's primary stream) is never
//!   evicted, however quiet: cutting it would lose the client's notifications without telling
//!   it. Sessions are capped (`HttpOptions::max_sessions`), so these are too; rmcp's further
//!   "shadow" streams of a session carry no notifications and are evicted like any connection.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tower::ServiceExt as _;

use super::http_options::HttpOptions;
use super::serving::Serving;

/// What the accept loop knows of one connection.
struct Conn {
    opened: Instant,
    /// A complete request head arrived on it.
    proven: AtomicBool,
    /// Milliseconds since `base` of the last byte read or written.
    last_active: Arc<AtomicU64>,
    evict: Notify,
    /// The session whose `GET` stream this connection carries now, and since when.
    stream: Mutex<Option<(Box<str>, Instant)>>,
}

/// Marks a connection as carrying a session's `GET` stream while the response lives.
struct StreamMark(Arc<Conn>);

impl StreamMark {
    /// For a `GET` of a session (a notification stream), the mark; `None` for anything else.
    fn of<B>(conn: &Arc<Conn>, request: &hyper::Request<B>) -> Option<Self> {
        if request.method() != hyper::Method::GET {
            return None;
        }
        // Session ids are rmcp's UUIDs; anything longer is no session's.
        let session = request.headers().get("mcp-session-id")?.to_str().ok().filter(|s| s.len() <= 128)?;
        *conn.stream.lock() = Some((session.into(), Instant::now()));
        Some(Self(Arc::clone(conn)))
    }
}

impl Drop for StreamMark {
    fn drop(&mut self) {
        *self.0.stream.lock() = None;
    }
}

/// A response body that keeps its connection's [`StreamMark`] until it is sent or dropped.
struct Marked {
    inner: axum::body::Body,
    _mark: StreamMark,
}

impl axum::body::HttpBody for Marked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

/// The live connections.
pub(crate) struct Registry {
    base: Instant,
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
    /// Notified whenever a connection ends.
    ended: Notify,
}

impl Registry {
    /// Asks every connection to finish its request under way and close, and waits (at most
    /// `max`) until they did.
    pub async fn close_all(&self, max: Duration) {
        let wait = async {
            loop {
                let ended = self.ended.notified();
                let conns: Vec<Arc<Conn>> = self.conns.lock().values().cloned().collect();
                if conns.is_empty() {
                    return;
                }
                for c in &conns {
                    c.evict.notify_one();
                }
                ended.await;
            }
        };
        if tokio::time::timeout(max, wait).await.is_err() {
            tracing::debug!("HTTP connections still open after a stop; dropped");
        }
    }

    fn now_ms(&self) -> u64 {
        self.base.elapsed().as_millis() as u64
    }

    /// Picks a connection to make room for a new one, or `None` when all are busy.
    fn victim(&self) -> Option<Arc<Conn>> {
        let conns = self.conns.lock();
        if let Some(c) = conns.values().filter(|c| !c.proven.load(Ordering::Acquire)).min_by_key(|c| c.opened) {
            return Some(Arc::clone(c));
        }
        // Each session's oldest open stream is the one rmcp sends its notifications on.
        let mut kept: HashMap<Box<str>, (Instant, u64)> = HashMap::new();
        for (id, c) in conns.iter() {
            if let Some((session, since)) = c.stream.lock().clone() {
                let entry = kept.entry(session).or_insert((since, *id));
                if since < entry.0 {
                    *entry = (since, *id);
                }
            }
        }
        let kept: std::collections::HashSet<u64> = kept.into_values().map(|(_, id)| id).collect();
        let now = self.now_ms();
        conns
            .iter()
            .filter(|(id, _)| !kept.contains(id))
            .map(|(_, c)| (now.saturating_sub(c.last_active.load(Ordering::Acquire)), c))
            .filter(|(idle, _)| *idle >= 1000)
            .max_by_key(|(idle, _)| *idle)
            .map(|(_, c)| Arc::clone(c))
    }
}

/// Serves `router` on `listener` until `serving` is stopped (or the runtime ends); then closes
/// the listener and returns the connections still open.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    options: &HttpOptions,
    serving: &Serving,
) -> Arc<Registry> {
    let registry = Arc::new(Registry { base: Instant::now(), conns: Mutex::new(HashMap::new()), ended: Notify::new() });
    let mut next_id = 0u64;
    let mut refused_logged = Instant::now().checked_sub(Duration::from_secs(60)).unwrap_or_else(Instant::now);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = serving.stopped() => break,
        };
        let (stream, _peer) = match accepted {
            Ok(s) => s,
            Err(e) => {
                // Out of descriptors or a reset before accept: wait a little, keep serving.
                tracing::warn!(error = %e, "accepting an HTTP connection failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let count = registry.conns.lock().len();
        if count >= options.max_connections {
            if let Some(victim) = registry.victim() {
                // Out of the registry now, so that the next accept sees the room at once.
                registry.conns.lock().retain(|_, c| !Arc::ptr_eq(c, &victim));
                victim.evict.notify_one();
            } else {
                if refused_logged.elapsed() > Duration::from_secs(10) {
                    tracing::warn!(max = options.max_connections, "HTTP connection cap reached; refusing connections");
                    refused_logged = Instant::now();
                }
                drop(stream);
                continue;
            }
        }
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "TCP_NODELAY not set");
        }
        next_id += 1;
        let id = next_id;
        let conn = Arc::new(Conn {
            opened: Instant::now(),
            proven: AtomicBool::new(false),
            last_active: Arc::new(AtomicU64::new(registry.now_ms())),
            evict: Notify::new(),
            stream: Mutex::new(None),
        });
        registry.conns.lock().insert(id, Arc::clone(&conn));
        let io = Activity { inner: stream, last_active: Arc::clone(&conn.last_active), base: registry.base };
        tokio::spawn(serve_connection(io, conn, id, router.clone(), Arc::clone(&registry), options.header_timeout));
    }
    drop(listener);
    registry
}

/// Serves one connection until it ends or is evicted (then it finishes the request under way,
/// within the header timeout), and takes it out of the registry.
async fn serve_connection(
    io: Activity,
    conn: Arc<Conn>,
    id: u64,
    router: axum::Router,
    registry: Arc<Registry>,
    header_timeout: Duration,
) {
    let this = Arc::clone(&conn);
    let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
        this.proven.store(true, Ordering::Release);
        let mark = StreamMark::of(&this, &request);
        let response = router.clone().oneshot(request.map(axum::body::Body::new));
        async move {
            let response = response.await?;
            Ok::<_, std::convert::Infallible>(match mark {
                Some(mark) => response.map(|inner| axum::body::Body::new(Marked { inner, _mark: mark })),
                None => response,
            })
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(header_timeout).keep_alive(true);
    let connection = builder.serve_connection(hyper_util::rt::TokioIo::new(io), service);
    tokio::pin!(connection);
    tokio::select! {
        result = connection.as_mut() => {
            if let Err(e) = result {
                tracing::debug!(error = %e, "HTTP connection ended with an error");
            }
        }
        () = conn.evict.notified() => {
            tracing::debug!("HTTP connection evicted (to make room, or a stop)");
            connection.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(header_timeout, connection).await;
        }
    }
    registry.conns.lock().remove(&id);
    registry.ended.notify_waiters();
}

/// A TCP stream that notes when a byte last went either way.
struct Activity {
    inner: tokio::net::TcpStream,
    last_active: Arc<AtomicU64>,
    base: Instant,
}

impl Activity {
    fn touch(&self) {
        self.last_active.store(self.base.elapsed().as_millis() as u64, Ordering::Release);
    }
}

impl AsyncRead for Activity {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.touch();
        }
        poll
    }
}

impl AsyncWrite for Activity {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        poll
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
