//! The bearer token of an HTTP endpoint: generated into a file only the user can read when the
//! app gives none, and checked on every request, in constant time, with a failed check answered
//! in-band (a JSON-RPC error the client shows, not a bare HTTP status).

mod store;

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// Largest request body read when answering a failed token check.
const MAX_AUTH_BODY: usize = 64 * 1024;

/// A token generated for one endpoint, in a file only the user can read; the file is removed
/// when the endpoint's handle is dropped, unless it is a store kept across runs.
pub(super) struct TokenFile {
    pub path: std::path::PathBuf,
    pub token: String,
    /// Kept across runs ([`TokenFile::stored`]): not removed on drop.
    keep: bool,
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
            .filter(|d| d.is_absolute() && d.is_dir())
            .unwrap_or_else(std::env::temp_dir);
        let path = dir.join(format!("{app}-{}-{port}.token", std::process::id()));
        // A leftover of a process that had this id goes (a link itself, not what it names);
        // the new file is made, never opened through a link or over another user's file.
        let _ = std::fs::remove_file(&path);
        let named = |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut file = crate::server::user_files::create_private(&path).map_err(named)?;
        writeln!(file, "{token}").map_err(named)?;
        Ok(Self { path, token, keep: false })
    }

    /// The token kept in `path` across runs: the one there (its first line, 64 hex digits), or
    /// a new one written there, in a file only the user can read, in a folder only the user can
    /// open. It trusts nothing it did not make: see [`store`].
    pub fn stored(path: &std::path::Path) -> std::io::Result<Self> {
        let token = store::load(path)?;
        Ok(Self { path: path.to_owned(), token, keep: true })
    }
}

/// Replaces the token kept in `path` with a new one (the next start serves it; clients
/// configured with the old one are refused, and an app already serving from `path` keeps the
/// old one until it restarts). See [`crate::serve::HttpOptions::with_token_store`].
pub fn rotate_token(path: &std::path::Path) -> std::io::Result<()> {
    store::rotate(path, &random_hex()?)
}

/// Where an app keeps its HTTP token across runs, per user: `$XDG_STATE_HOME/{app}/http-token`
/// (else `~/.local/state/…`) on Linux and other Unix, `~/Library/Application Support/{app}/…` on
/// macOS, `%APPDATA%\{app}\…` on Windows; `None` when the platform says no home. A relative
/// `XDG_STATE_HOME` is ignored, as the XDG spec says (it would put the token wherever the app
/// was started).
pub fn user_token_path(app: &str) -> Option<std::path::PathBuf> {
    token_path_in(app, |name| std::env::var_os(name))
}

/// [`user_token_path`] with the environment given, for tests (setting variables is unsafe).
fn token_path_in(app: &str, env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<std::path::PathBuf> {
    let app: String = app.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
    let base = if cfg!(windows) {
        var("APPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library/Application Support"))
    } else {
        var("XDG_STATE_HOME").filter(|d| d.is_absolute()).or_else(|| var("HOME").map(|h| h.join(".local/state")))
    }?;
    Some(base.join(app).join("http-token"))
}

impl Drop for TokenFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
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
    // The id as sent, byte for byte (as on every other path): never read into a number and
    // written again, which would round `419087.31351648643` or `18446744073709551617`.
    let body = if is_post {
        axum::body::to_bytes(request.into_body(), MAX_AUTH_BODY).await.unwrap_or_default()
    } else {
        axum::body::Bytes::new()
    };
    let error = super::ids::error_answer(
        super::ids::Id::of(&body),
        -32001,
        "Unauthorized: this MCP server needs the header `Authorization: Bearer <token>`",
    );
    let mut response = Response::new(Body::from(error));
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
mod tests;
