//! Streamable HTTP transport: rmcp's `StreamableHttpService` mounted at `/mcp` with axum.
//!
//! Safe by default for a desktop app: it binds where it is told (loopback unless the app says
//! otherwise), checks `Host` (DNS-rebinding protection) and `Origin` (a foreign web page is
//! refused), and requires a bearer token unless the app opts out on loopback (`token.rs`: the
//! generated token file and the check). Sessions stay alive while idle (a quiet agent keeps its
//! subscription).
//!
//! The request layers in front of rmcp (version leniency, in-band parse errors, requests
//! counted for a stop, a client's leaving told to its handler) are in `http_layers.rs`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::ServerShared;
use super::handler::BridgeHandler;
use super::http_layers;
use super::serving::Serving;
use super::token::{TokenCheck, TokenFile, require_token};

/// How long an idle HTTP session (no request, no message) lives by default: half an hour, not
/// rmcp's 5 minutes (a quiet agent keeps its subscription) nor a day (each holds ~50 KB).
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// Settings of [`Bridge::serve_http`](crate::Bridge::serve_http). Every limit has a default fit for a desktop
/// app on loopback; `SECURITY.md` says what each one guards against.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// The token every request needs (`Authorization: Bearer <token>`). When none is given (and
    /// `no_token` is not set), one is generated for the endpoint: 32 random bytes, written to a
    /// file only the user can read ([`HttpHandle::token_file`]), never logged.
    pub token: Option<String>,
    /// Serve without a token (default false): any process that can reach the address can then
    /// call the app. Refused for an address that is not loopback.
    pub no_token: bool,
    /// Open TCP connections at most (default 256, well under the usual 1,024 descriptors). At
    /// the cap a new connection evicts an unused one, never a session's notification stream
    /// (one per session: keep `max_sessions` well below this).
    pub max_connections: usize,
    /// A request head must arrive within this, and a keep-alive connection waiting for its next
    /// request is closed after it (default 30 s).
    pub header_timeout: Duration,
    /// Live MCP sessions at most (default 64). A new `initialize` beyond it evicts the session
    /// idle the longest; its client gets "session not found" and can initialise again.
    pub max_sessions: usize,
    /// A session with no request for this long is closed (default [`SESSION_IDLE`]); one that
    /// never sent `notifications/initialized` is closed after `header_timeout` × 2.
    pub session_idle: Duration,
    /// Where the generated token is kept across runs (see [`with_token_store`](Self::with_token_store));
    /// `None` (the default): a token per run, in a file removed when the handle is dropped.
    pub token_store: Option<std::path::PathBuf>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            token: None,
            no_token: false,
            max_connections: 256,
            header_timeout: Duration::from_secs(30),
            max_sessions: 64,
            session_idle: SESSION_IDLE,
            token_store: None,
        }
    }
}

impl HttpOptions {
    /// Requires `Authorization: Bearer <token>` on every request, with this token.
    #[must_use]
    pub fn with_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// Serves a loopback address without a token: any local process can call the app.
    #[must_use]
    pub fn without_token(mut self) -> Self {
        self.no_token = true;
        self
    }

    /// Keeps the generated token in `path` across runs, so that a client configured once with
    /// it keeps working when the app starts again: created on first use (a file only the user
    /// can read, in a private folder), reused after, never removed by the bridge. A good place
    /// is [`user_token_path`](crate::serve::user_token_path). For a new token, call
    /// [`rotate_token`](crate::serve::rotate_token) (or delete the file) before serving.
    ///
    /// ```no_run
    /// use egui_mcp_bridge::serve::{HttpOptions, user_token_path};
    ///
    /// let mut options = HttpOptions::default();
    /// if let Some(path) = user_token_path("my-app") {
    ///     options = options.with_token_store(path);
    /// }
    /// ```
    #[must_use]
    pub fn with_token_store(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.token_store = Some(path.into());
        self
    }
}

/// A running HTTP endpoint. Dropping it stops serving, as [`stop`](super::ServeHandle::stop)
/// does: keep it for as long as the app should be reachable (not `serve_http(..)?.local_addr()`
/// alone, which drops it at once).
#[must_use = "dropping the handle stops serving"]
pub struct HttpHandle {
    /// Stopping, closing and waiting, as for every transport (`HttpHandle` dereferences to it).
    serve: super::ServeHandle,
    local_addr: SocketAddr,
    sessions: Arc<super::sessions::BoundedSessions>,
    shared: Arc<ServerShared>,
    token_file: Option<TokenFile>,
}

impl std::fmt::Debug for HttpHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpHandle").field("local_addr", &self.local_addr).finish_non_exhaustive()
    }
}

/// What the server holds for its clients now (see [`HttpHandle::held`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// HTTP sessions of this endpoint: live, or closed and not yet released.
    pub sessions: usize,
    /// Connections registered for notifications, over every transport of the app.
    pub connections: usize,
}

/// An endpoint is a served transport like any other: [`stop`](super::ServeHandle::stop) closes
/// the port at once and refuses new requests, answers the requests under way (calls within twice
/// the call budget), then closes every session and connection; dropping the handle does too.
impl std::ops::Deref for HttpHandle {
    type Target = super::ServeHandle;

    fn deref(&self) -> &super::ServeHandle {
        &self.serve
    }
}

impl HttpHandle {
    /// What the server holds for its clients now: a session's memory is released when it ends,
    /// whichever way (deleted, evicted, expired), within a few seconds.
    pub async fn held(&self) -> Held {
        Held { sessions: self.sessions.held().await, connections: self.shared.connections.len() }
    }

    /// The bound address (the port it picked, with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The file that holds the token generated for this endpoint (its first line), when the
    /// options gave none and did not opt out; it is removed when the handle is dropped. Tell
    /// the person its path, never its content.
    pub fn token_file(&self) -> Option<&std::path::Path> {
        self.token_file.as_ref().map(|t| t.path.as_path())
    }

    /// The MCP endpoint, such as `http://127.0.0.1:8765/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.local_addr)
    }
}

/// Binds now (so the caller learns the port at once) and serves on the runtime.
pub(crate) fn serve(
    shared: &Arc<ServerShared>,
    runtime: &tokio::runtime::Handle,
    addr: SocketAddr,
    mut options: HttpOptions,
) -> std::io::Result<HttpHandle> {
    if options.no_token && options.token.is_none() && !addr.ip().is_loopback() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "serving {addr} without a token would let other machines call the app; bind a loopback address or keep a token"
            ),
        ));
    }
    let listener = std::net::TcpListener::bind(addr)?;
    listener.set_nonblocking(true)?;
    let local_addr = listener.local_addr()?;
    // A token unless the app gave one or opted out: generated for this endpoint, in a file.
    let token_file = if options.token.is_none() && !options.no_token {
        let file = match &options.token_store {
            Some(path) => TokenFile::stored(path)?,
            None => TokenFile::generate(&shared.hub.config().app_name, local_addr.port())?,
        };
        options.token = Some(file.token.clone());
        Some(file)
    } else {
        None
    };
    // DNS-rebinding protection: only these Host names are served. Binding a specific
    // non-loopback address adds that address; binding all interfaces adds nothing.
    let mut hosts = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
    let ip = local_addr.ip();
    if ip.is_unspecified() {
        tracing::warn!(%local_addr, "bound to every interface, but only loopback Host headers are served; bind a specific address to serve other machines");
    } else if !ip.is_loopback() {
        hosts.push(ip.to_string());
        tracing::warn!(%local_addr, "MCP over HTTP is reachable from other machines (with the token)");
    }
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"])
        .with_sse_keep_alive(Some(Duration::from_secs(15)));
    let sessions = super::sessions::BoundedSessions::new(&options, runtime);
    let handle_sessions = Arc::clone(&sessions);
    let serving = Serving::new();
    let (factory_shared, factory_serving) = (Arc::clone(shared), Arc::clone(&serving));
    // The factory runs per session and for some per-request work: keep it cheap and pure.
    let service = StreamableHttpService::new(
        move || Ok(BridgeHandler::new(Arc::clone(&factory_shared), Arc::clone(&factory_serving))),
        Arc::clone(&sessions),
        config,
    );
    let mut router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(http_layers::malformed_answered_in_band))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&serving), http_layers::count_requests))
        .layer(axum::middleware::from_fn(http_layers::lenient_protocol_version))
        .layer(axum::middleware::from_fn(http_layers::session_end_answered_ok));
    if let Some(token) = options.token.clone() {
        router = router.layer(axum::middleware::from_fn_with_state(TokenCheck::new(&token), require_token));
    }
    let listener = {
        let _in_runtime = runtime.enter();
        tokio::net::TcpListener::from_std(listener)?
    };
    let (task_serving, drain_for) = (Arc::clone(&serving), shared.drain_budget());
    runtime.spawn(async move {
        let serving = task_serving;
        tracing::info!(url = %format!("http://{local_addr}/mcp"), "serving MCP over streamable HTTP");
        let connections = super::listener::serve(listener, router, &options, &serving).await;
        // Stopping: the port is closed; answer what is under way, then close everything.
        if !serving.drain(drain_for).await {
            tracing::warn!("stopping HTTP without the answers to requests still under way");
        }
        sessions.close_all().await;
        connections.close_all(options.header_timeout).await;
        tracing::info!(url = %format!("http://{local_addr}/mcp"), "stopped serving MCP over HTTP");
        serving.mark_closed();
    });
    Ok(HttpHandle {
        serve: super::ServeHandle::new(serving),
        local_addr,
        sessions: handle_sessions,
        shared: Arc::clone(shared),
        token_file,
    })
}
