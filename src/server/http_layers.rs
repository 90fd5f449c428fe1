//! The HTTP request layers in front of rmcp's service, each an axum middleware.
//!
//! Lenient about `MCP-Protocol-Version` where real clients need it (docs/design.md, "Clients as they
//! are"): a valid `initialize` is answered whatever version its header names (VS Code falls
//! back to legacy SSE on an HTTP 400), and a request of an initialised session is served
//! whatever supported version its header names (Claude Code sends its own default after
//! negotiating an older one, claude-code#92835). The header is then dropped before rmcp sees
//! it: the body (`initialize`) or the session decides the version.
//!
//! The others: a session `DELETE` answered 200; each POST counted until its response is sent
//! (a stop answers it first) and its handler told when its client has gone; a body rmcp cannot
//! parse answered in JSON-RPC, under its own id where it can be read.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use super::serving::{InFlight, Serving};

/// Largest request body read here (rmcp's own limit).
const MAX_BODY: usize = 4 * 1024 * 1024;

const PROTOCOL_VERSION: &str = "mcp-protocol-version";
const SESSION_ID: &str = "mcp-session-id";

/// A session `DELETE` answered `200 OK`, as the SDKs expect (rmcp answers `202 Accepted`, on
/// which the official Python SDK warns "Session termination failed: 202" at the end of every
/// session): the session is closed by then, so the request is done, not merely accepted.
pub(super) async fn session_end_answered_ok(request: Request, next: Next) -> Response {
    let delete = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::OK;
    }
    response
}

/// Counts each POST until its response is sent, so that a stop answers it first; refuses new
/// ones once stopping. (A GET is a long-lived notification stream: a stop ends it.)
pub(super) async fn count_requests(State(serving): State<Arc<Serving>>, request: Request, next: Next) -> Response {
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

/// A request's body read whole, at most [`MAX_BODY`] (rmcp's own limit): the layers that look
/// into a body read it here; past the limit, the answer is 413.
pub(super) async fn read_body(body: Body) -> Result<axum::body::Bytes, Response> {
    axum::body::to_bytes(body, MAX_BODY).await.map_err(|_| {
        let mut response = Response::new(Body::from("Payload Too Large"));
        *response.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
        response
    })
}

/// A POST body that is not a message rmcp reads is answered in JSON-RPC, under the request's
/// own id where it can be read (HTTP 200), else with id `null` (HTTP 400); rmcp answers every
/// such body with a bare 415, which leaves a caller waiting for its id (a `tools/call` whose
/// arguments are nested deeper than the parser's 128 levels, say).
pub(super) async fn malformed_answered_in_band(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(body).await {
        Ok(bytes) => bytes,
        Err(too_large) => return too_large,
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
    let status = if matches!(id, super::ids::Id::Valid(_)) { StatusCode::OK } else { StatusCode::BAD_REQUEST };
    let mut response = Response::new(Body::from(super::ids::error_answer(id, code, message)));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// Drops the `MCP-Protocol-Version` header where rmcp would refuse a request that real clients
/// send: on `initialize` (the body names the version) and, when the value is a supported version,
/// on requests of an initialised session (the session has its version).
pub(super) async fn lenient_protocol_version(request: Request, next: Next) -> Response {
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
    let bytes = match read_body(body).await {
        Ok(bytes) => bytes,
        Err(too_large) => return too_large,
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
