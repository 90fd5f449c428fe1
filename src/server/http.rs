//! Streamable HTTP transport: rmcp's `StreamableHttpService` mounted at `/mcp` with axum.
//!
//! Safe by default for a desktop app: it binds where it is told (loopback unless the app says
//! otherwise), checks `Host` (DNS-rebinding protection) and `Origin` (a foreign web page is
//! refused), and requires a bearer token unless the app opts out on loopback (`token.rs`: the
//! generated token file and the check). Sessions stay alive while idle (a quiet agent keeps its
//! subscription).
//!
//! The request layers in front of rmcp (version leniency, in-band parse errors, requests
//! counted for a stop, a client's leaving told to its handler) are in `http_layers.rs`; ids
//! answered as sent, in `http_ids.rs`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::handler::BridgeHandler;
use super::http_options::HttpOptions;
use super::serving::{Serving, TaskGuard};
use super::token::{TokenCheck, TokenFile, require_token};
use super::{Lifeline, ServerShared};
use super::{http_ids, http_layers};

/// A running HTTP endpoint. Dropping it stops serving, as [`stop`](super::ServeHandle::stop)
/// does: keep it for as long as the app should be reachable (not `serve_http(..)?.local_addr()`
/// alone, which drops it at once). It alone keeps the endpoint served, whatever happens to the
/// [`Bridge`](crate::Bridge) clones; when the app's UI or the runtime is gone anyway, the
/// endpoint closes with a line in the log, and [`is_closed`](super::ServeHandle::is_closed) says
/// so (see [`ServeHandle`](super::ServeHandle)).
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

/// Binds now (so the caller learns the port at once) and serves on the server's runtime, which
/// the handle and the serving task keep alive.
pub(crate) fn serve(lifeline: &Lifeline, addr: SocketAddr, mut options: HttpOptions) -> std::io::Result<HttpHandle> {
    let (shared, runtime) = (&lifeline.shared, &lifeline.runtime.handle);
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
    let token_file = token_file(&mut options, &shared.hub.config().app_name, local_addr.port())?;
    let sessions = super::sessions::BoundedSessions::new(&options, runtime);
    let serving = Serving::new();
    let router = router(shared, &sessions, &serving, &options, local_addr);
    let listener = {
        let _in_runtime = runtime.enter();
        tokio::net::TcpListener::from_std(listener)?
    };
    let endpoint = Endpoint { local_addr, sessions: Arc::clone(&sessions), serving: Arc::clone(&serving), options };
    // Made before the task: a runtime that is shut down drops the task unpolled, and the guard
    // then says so and marks the handle closed.
    let guard = TaskGuard::new(Arc::clone(&serving), "http", lifeline.clone());
    let drain_for = shared.drain_budget();
    runtime.spawn(async move {
        let _guard = guard;
        endpoint.run(listener, router, drain_for).await;
    });
    // The app's UI gone: stop (the endpoint's task then closes everything).
    let (hub, watched) = (Arc::clone(&shared.hub), Arc::clone(&serving));
    runtime.spawn(async move { super::stop_when_ui_gone(&hub, &watched, "http").await });
    Ok(HttpHandle {
        serve: super::ServeHandle::new(serving, lifeline.clone()),
        local_addr,
        sessions,
        shared: Arc::clone(shared),
        token_file,
    })
}

/// A token unless the app gave one or opted out: generated for this endpoint (or kept in the
/// options' store), in a file; `options` then carry it.
fn token_file(options: &mut HttpOptions, app_name: &str, port: u16) -> std::io::Result<Option<TokenFile>> {
    if options.token.is_some() || options.no_token {
        return Ok(None);
    }
    let file = match &options.token_store {
        Some(path) => TokenFile::stored(path)?,
        None => TokenFile::generate(app_name, port)?,
    };
    options.token = Some(file.token.clone());
    Ok(Some(file))
}

/// DNS-rebinding protection: only these Host names are served. Binding a specific
/// non-loopback address adds that address; binding all interfaces adds nothing.
fn allowed_hosts(local_addr: SocketAddr) -> Vec<String> {
    let mut hosts = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()];
    let ip = local_addr.ip();
    if ip.is_unspecified() {
        tracing::warn!(%local_addr, "bound to every interface, but only loopback Host headers are served; bind a specific address to serve other machines");
    } else if !ip.is_loopback() {
        hosts.push(ip.to_string());
        tracing::warn!(%local_addr, "MCP over HTTP is reachable from other machines (with the token)");
    }
    hosts
}

/// rmcp's service at `/mcp`, behind the request layers (`http_layers.rs`) and the token check.
fn router(
    shared: &Arc<ServerShared>,
    sessions: &Arc<super::sessions::BoundedSessions>,
    serving: &Arc<Serving>,
    options: &HttpOptions,
    local_addr: SocketAddr,
) -> axum::Router {
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(allowed_hosts(local_addr))
        .with_allowed_origins(["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"])
        .with_sse_keep_alive(Some(Duration::from_secs(15)));
    let (factory_shared, factory_serving) = (Arc::clone(shared), Arc::clone(serving));
    // The factory runs per session and for some per-request work: keep it cheap and pure.
    let service = StreamableHttpService::new(
        move || Ok(BridgeHandler::new(Arc::clone(&factory_shared), Arc::clone(&factory_serving))),
        Arc::clone(sessions),
        config,
    );
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(http_layers::malformed_answered_in_band))
        .layer(axum::middleware::from_fn(http_ids::ids_as_sent))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(serving), http_layers::count_requests))
        .layer(axum::middleware::from_fn(http_layers::lenient_protocol_version))
        .layer(axum::middleware::from_fn(http_layers::session_end_answered_ok));
    match &options.token {
        Some(token) => router.layer(axum::middleware::from_fn_with_state(TokenCheck::new(token), require_token)),
        None => router,
    }
}

/// What the serving task owns.
struct Endpoint {
    local_addr: SocketAddr,
    sessions: Arc<super::sessions::BoundedSessions>,
    serving: Arc<Serving>,
    options: HttpOptions,
}

impl Endpoint {
    /// Serves until stopped; then answers what is under way (at most `drain_for`) and closes
    /// every session and connection.
    async fn run(self, listener: tokio::net::TcpListener, router: axum::Router, drain_for: Duration) {
        let Self { local_addr, sessions, serving, options } = self;
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
    }
}
