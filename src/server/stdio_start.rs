//! What [`crate::Bridge::serve_stdio_from_args`] did with this process's stdio: nothing (a
//! person started the app), serving a client here, or relaying it to the copy already open.

use super::{Instance, ServeHandle};

/// How an app started for stdio, or not: see [`crate::Bridge::serve_stdio_from_args`]. Keep
/// it while the app runs (it holds the stdio server), and return from `main` at once when it
/// [`relayed`](Self::relayed).
#[derive(Debug)]
#[must_use = "keep it while the app runs (it serves stdio), and return at once when it relayed"]
pub enum StdioStart {
    /// Not asked to (no `--stdio`): a person started the app. Nothing is served on stdio (the
    /// local endpoint is open, for clients to attach); open the window as usual.
    NotAsked,
    /// A client started the app with `--stdio` and no copy of it runs for this user: this
    /// process serves the client (stdout is MCP's now) and opens its window as usual.
    Serving(ServeHandle),
    /// A client started the app with `--stdio` while a copy of it runs for this user: the
    /// client was served by that copy until one of them ended. Open no window: return.
    Relayed(Instance),
}

impl StdioStart {
    /// Whether the client was served by the copy already running (then return from `main`
    /// without opening a window).
    pub fn relayed(&self) -> bool {
        matches!(self, Self::Relayed(_))
    }

    /// The stdio server, when this process serves a client.
    pub fn handle(&self) -> Option<&ServeHandle> {
        match self {
            Self::Serving(handle) => Some(handle),
            _ => None,
        }
    }
}
