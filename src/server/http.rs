//! Streamable HTTP transport: rmcp's `StreamableHttpService` mounted at `/mcp` with axum.
//!
//! Safe by default for a desktop app: it binds where it is told (loopback unless the app says
//! otherwise), checks `Host` (DNS-rebinding protection) and `Origin` (a foreign web page is
//! refused), and requires a bearer token unless the app opts out on loopback (`token.rs`: the
//! generated token file and the check). Sessions stay alive while idle (a quiet agent keeps its
//! subscription).
//!
//! Lenient about `MCP-Protocol-Version` where real clients need it (docs/design.md, "Clients as they
//! are"): a valid `initialize` is answered whatever version its header names (VS Code falls
//! back to legacy SSE on an HTTP 400), and a request of an initialised session is served
//! whatever supported version its header names (Claude Code sends its own default after
//! negotiating an older one, claude-code#92835). The header is then dropped before rmcp sees
//! it: the body (`initialize`) or the session decides the version.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::ServerShared;
use super::handler::BridgeHandler;
use super::serving::{InFlight, Serving};
use super::token::{TokenCheck, TokenFile, require_token};

/// How long an idle HTTP session (no request, no message) lives by default: half an hour, not
/// rmcp's 5 minutes (a quiet agent keeps its subscription) nor a day (each holds ~50 KB).
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// Largest request body the version leniency reads (rmcp's own limit).
const MAX_BODY: usize = 4 * 1024 * 1024;

const PROTOCOL_VERSION: &str = "mcp-protocol-version";
const SESSION_ID: &str = "mcp-session-id";

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
        let file = TokenFile::generate(&shared.hub.config().app_name, local_addr.port())?;
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
        .layer(axum::middleware::from_fn(malformed_answered_in_band))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&serving), count_requests))
        .layer(axum::middleware::from_fn(lenient_protocol_version))
        .layer(axum::middleware::from_fn(session_end_answered_ok));
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

/// A session `DELETE` answered `200 OK`, as the SDKs expect (rmcp answers `202 Accepted`, on
/// which the official Python SDK warns "Session termination failed: 202" at the end of every
/// session): the session is closed by then, so the request is done, not merely accepted.
async fn session_end_answered_ok(request: Request, next: Next) -> Response {
    let delete = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::OK;
    }
    response
}

/// Counts each POST until its response is sent, so that a stop answers it first; refuses new
/// ones once stopping. (A GET is a long-lived notification stream: a stop ends it.)
async fn count_requests(State(serving): State<Arc<Serving>>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let Some(under_way) = serving.begin() else {
        let mut response = Response::new(Body::from(
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"The server is stopping"}}"#,
        ));
        *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        return response;
    };
    // The request's handler learns that its client left when this is dropped: with the
    // response body once it is sent or abandoned, or with this future if hyper drops it.
    let (connected, left) = tokio::sync::watch::channel(());
    let mut request = request;
    request.extensions_mut().insert(ClientLeft(left));
    let response = next.run(request).await;
    response.map(|body| {
        Body::from_stream(Guarded { inner: body.into_data_stream(), _under_way: under_way, _connected: connected })
    })
}

/// Resolves when the HTTP client of a request has gone: its response was sent, or its
/// connection closed first. rmcp passes the HTTP request's parts to the handler, so a tool call
/// finds it there (`BridgeHandler::call_tool`) and stops waiting for a call whose client left:
/// the call is then cancelled unless the UI already took it (docs/design.md, "A client that
/// leaves").
#[derive(Clone, Debug)]
pub(crate) struct ClientLeft(tokio::sync::watch::Receiver<()>);

impl ClientLeft {
    /// The one a request of this HTTP request's parts carries, if any.
    pub fn of(parts: &axum::http::request::Parts) -> Option<Self> {
        parts.extensions.get::<Self>().cloned()
    }

    /// Waits until the client has gone.
    pub async fn wait(mut self) {
        while self.0.changed().await.is_ok() {}
    }
}

/// A response body that holds its request's place among those under way until it is sent, and
/// tells the handler when its client has gone.
struct Guarded {
    inner: axum::body::BodyDataStream,
    _under_way: InFlight,
    _connected: tokio::sync::watch::Sender<()>,
}

impl futures_core::Stream for Guarded {
    type Item = Result<axum::body::Bytes, axum::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::pin::Pin::new(&mut self.inner).poll_next(cx)
    }
}

/// A POST body that is not a message rmcp reads is answered in JSON-RPC, under the request's
/// own id where it can be read (HTTP 200), else with id `null` (HTTP 400); rmcp answers every
/// such body with a bare 415, which leaves a caller waiting for its id (a `tools/call` whose
/// arguments are nested deeper than the parser's 128 levels, say).
async fn malformed_answered_in_band(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        let mut response = Response::new(Body::from("Payload Too Large"));
        *response.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
        return response;
    };
    let response = next.run(Request::from_parts(parts, Body::from(bytes.clone()))).await;
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    // A 415 for a body that parses is about its Content-Type: rmcp's answer stands.
    let Err(e) = serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(&bytes) else {
        return response;
    };
    let (id, code, message) = super::malformed::answer(&bytes, &e);
    tracing::debug!(bytes = bytes.len(), code, "a body that cannot be parsed was answered with an error");
    let status = if id.is_null() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    let mut response = Response::new(Body::from(answer.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// Drops the `MCP-Protocol-Version` header where rmcp would refuse a request that real clients
/// send: on `initialize` (the body names the version) and, when the value is a supported version,
/// on requests of an initialised session (the session has its version).
async fn lenient_protocol_version(request: Request, next: Next) -> Response {
    if request.method() != Method::POST || !request.headers().contains_key(PROTOCOL_VERSION) {
        return next.run(request).await;
    }
    if request.headers().contains_key(SESSION_ID) {
        let supported = request
            .headers()
            .get(PROTOCOL_VERSION)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| rmcp::model::ProtocolVersion::KNOWN_VERSIONS.iter().any(|k| k.as_str() == v));
        let mut request = request;
        if supported {
            request.headers_mut().remove(PROTOCOL_VERSION);
        }
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        let mut response = Response::new(Body::from("Payload Too Large"));
        *response.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
        return response;
    };
    if is_initialize(&bytes) {
        parts.headers.remove(PROTOCOL_VERSION);
    }
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

/// Whether a request body is one JSON-RPC `initialize` request.
fn is_initialize(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe<'a> {
        #[serde(borrow)]
        method: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_slice::<Probe<'_>>(body).ok().and_then(|m| m.method).is_some_and(|m| m == "initialize")
}

#[cfg(test)]
mod tests {
    #[test]
    fn initialize_is_recognised_by_its_method_only() {
        assert!(super::is_initialize(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#));
        assert!(!super::is_initialize(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"initialize"}}"#
        ));
        assert!(!super::is_initialize(b"not json"));
    }
}
