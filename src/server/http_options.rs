//! The settings of an HTTP endpoint, read by the endpoint (`http.rs`), its listener
//! (`listener.rs`) and its sessions (`sessions.rs`).

use std::time::Duration;

/// How long an idle HTTP session (no request, no message) lives by default: half an hour, not
/// rmcp's 5 minutes (a quiet agent keeps its subscription) nor a day (each holds ~50 KB).
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// Settings of [`Bridge::serve_http`](crate::Bridge::serve_http). Every limit has a default fit for a desktop
/// app on loopback; `SECURITY.md` says what each one guards against.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// The token every request needs (`Authorization: Bearer <token>`). When none is given (and
    /// `no_token` is not set), one is generated for the endpoint: 32 random bytes, written to a
    /// file only the user can read ([`HttpHandle::token_file`](crate::serve::HttpHandle::token_file)), never logged.
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
    /// Serving fails, naming the path, when the file or its folder is not one the bridge can
    /// trust: a symbolic link, not a regular file, another user's, or longer than a token file.
    /// A token others could read is replaced by a new one.
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
