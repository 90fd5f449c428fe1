//! The bearer token of an HTTP endpoint: generated into a file only the user can read when the
//! app gives none, and checked on every request, in constant time, with a failed check answered
//! in-band (a JSON-RPC error the client shows, not a bare HTTP status).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// Largest request body read when answering a failed token check.
const MAX_AUTH_BODY: usize = 64 * 1024;

/// A token generated for one endpoint, in a file only the user can read; the file is removed
/// when the endpoint's handle is dropped.
pub(super) struct TokenFile {
    pub path: std::path::PathBuf,
    pub token: String,
}

impl TokenFile {
    /// 32 random bytes (the OS's on Unix), as hex, written to `$XDG_RUNTIME_DIR` (else the
    /// temporary directory) as `{app}-{pid}-{port}.token`, mode 0600 on Unix.
    pub fn generate(app: &str, port: u16) -> std::io::Result<Self> {
        use std::io::Write as _;
        let token = random_hex()?;
        let app: String = app.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
        let dir = std::env::var_os("XDG_RUNTIME_DIR")
            .map(std::path::PathBuf::from)
            .filter(|d| d.is_dir())
            .unwrap_or_else(std::env::temp_dir);
        let path = dir.join(format!("{app}-{}-{port}.token", std::process::id()));
        let mut open = std::fs::OpenOptions::new();
        open.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
        let mut file = open.open(&path)?;
        writeln!(file, "{token}")?;
        Ok(Self { path, token })
    }
}

impl Drop for TokenFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// 64 hex digits of randomness: the OS's on Unix, else std's randomly keyed hashers.
fn random_hex() -> std::io::Result<String> {
    use std::fmt::Write as _;
    let mut bytes = [0u8; 32];
    #[cfg(unix)]
    {
        use std::io::Read as _;
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    }
    #[cfg(not(unix))]
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        use std::hash::{BuildHasher as _, Hasher as _};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(i);
        h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos());
        chunk.copy_from_slice(&h.finish().to_le_bytes());
    }
    Ok(bytes.iter().fold(String::with_capacity(64), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    }))
}

/// What the token check holds: the token, and when a refusal was last logged.
pub(super) struct TokenCheck {
    token: Box<str>,
    refused: parking_lot::Mutex<Refusals>,
}

/// Refusals counted between two log lines, so that a flood writes one line per ten seconds.
struct Refusals {
    logged: Option<std::time::Instant>,
    since: u64,
}

impl TokenCheck {
    pub fn new(token: &str) -> Arc<Self> {
        Arc::new(Self { token: token.into(), refused: parking_lot::Mutex::new(Refusals { logged: None, since: 0 }) })
    }

    fn log_refusal(&self) {
        let mut r = self.refused.lock();
        r.since += 1;
        if r.logged.is_none_or(|t| t.elapsed() >= std::time::Duration::from_secs(10)) {
            tracing::warn!(refused = r.since, "HTTP requests without the right bearer token refused");
            *r = Refusals { logged: Some(std::time::Instant::now()), since: 0 };
        }
    }
}

/// Lets a request through only with the right bearer token; otherwise answers with a JSON-RPC
/// error (HTTP 200 for POST, so MCP clients surface the message; 401 for GET and DELETE) and
/// closes the connection, so that requests without the token hold no place among the
/// connections (a flood of them cannot crowd out the client that has it).
pub(super) async fn require_token(State(check): State<Arc<TokenCheck>>, request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim());
    if presented.is_some_and(|p| constant_time_eq(p.as_bytes(), check.token.as_bytes())) {
        return next.run(request).await;
    }
    check.log_refusal();
    let is_post = request.method() == Method::POST;
    let id = if is_post {
        let body = axum::body::to_bytes(request.into_body(), MAX_AUTH_BODY).await.unwrap_or_default();
        serde_json::from_slice::<serde_json::Value>(&body).ok().and_then(|v| v.get("id").cloned()).unwrap_or_default()
    } else {
        serde_json::Value::Null
    };
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32001, "message": "Unauthorized: this MCP server needs the header `Authorization: Bearer <token>`"}
    });
    let mut response = Response::new(Body::from(error.to_string()));
    *response.status_mut() = if is_post { StatusCode::OK } else { StatusCode::UNAUTHORIZED };
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Compares secrets without an early exit that would leak how much of them matched.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    #[test]
    fn constant_time_eq_compares() {
        assert!(super::constant_time_eq(b"abc", b"abc"));
        assert!(!super::constant_time_eq(b"abc", b"abd"));
        assert!(!super::constant_time_eq(b"abc", b"ab"));
    }

    #[test]
    fn a_generated_token_is_64_hex_digits_and_differs_each_time() {
        let (a, b) = (super::random_hex().unwrap(), super::random_hex().unwrap());
        assert!(a.len() == 64 && a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
        assert_ne!(a, b);
    }
}
