//! The per-user local endpoint: a running app serves MCP on a Unix domain socket that only its
//! user can open, and the command a stdio client runs (`my-app --stdio`) relays to it instead of
//! starting a second copy of the app.
//!
//! # Model
//!
//! - **Where**: one folder per user, the same for every process of that user whatever its
//!   environment (MCP clients start servers with a few variables only: `HOME`, `PATH`, `USER`…,
//!   so `$XDG_RUNTIME_DIR` and `$TMPDIR` cannot be the meeting point): `/run/user/{uid}/egui-mcp-bridge`
//!   on Linux where the login session made `/run/user/{uid}`, else `/tmp/egui-mcp-bridge-{uid}`
//!   (as tmux does); `EGUI_MCP_BRIDGE_DIR` (an absolute path) overrides both, and
//!   [`crate::BridgeBuilder::local_endpoint_in`] and [`Attach::folder`] name one in code. The
//!   folder is made mode 0700 and checked like the token store's: a real folder, the user's own,
//!   private. Each running app is a socket `{app}.{pid}.sock` in it.
//! - **Who may connect**: only the user. The folder keeps other users out (they cannot reach the
//!   socket at all), and the app checks each connection's peer credentials too (`SO_PEERCRED`):
//!   a process of another uid is closed at once. No token is needed: the file system is the
//!   check, as for the user's own files.
//! - **In the app**: the endpoint opens with the first `serve_stdio`, `serve_http` or
//!   [`crate::Bridge::serve_local`] (unless [`crate::BridgeBuilder::local_endpoint`] turned it
//!   off) and lasts as long as the app's UI: its accept loop runs on the server's runtime, each
//!   connection is served as stdio is (`serve_io`: bounded lines, ids echoed, its own deferred
//!   share), at most [`MAX_LOCAL_CONNECTIONS`] at a time. The activity panel says when an agent
//!   attached and left. When the UI goes the socket is removed; one left by a crashed app is
//!   found stale (nobody answers on it) and removed by the next app or relay.
//! - **In the relay** ([`attach_stdio`]): the newest live instance is chosen (or the one
//!   `EGUI_MCP_BRIDGE_INSTANCE` / [`Attach::instance`] names), the relay says on stderr which,
//!   then copies bytes both ways until either side ends. It holds at most a copy buffer, so a
//!   line of any length passes through to the app, which refuses one over 4 MiB as stdio does; a
//!   client that stops reading stops the relay reading, and the app's writer for that one
//!   connection waits while its other agents and the person go on.
//!
//! Unix only: on Windows (named pipes need an ACL, which takes `unsafe` code this crate does not
//! have) no endpoint opens, and [`attach_stdio`] finds no instance, so the app starts as before.

#[cfg(unix)]
mod endpoint;
mod folder;
mod relay;

#[cfg(unix)]
pub(crate) use endpoint::open;
pub use folder::Instance;
pub use relay::{Attach, Attached, attach_stdio};

/// The most connections the local endpoint serves at once; one more is closed at once, with a
/// warning in the log.
pub const MAX_LOCAL_CONNECTIONS: usize = 16;

/// Where a bridge serves its local endpoint: on or off, and in which folder.
#[derive(Clone, Debug)]
pub(crate) struct LocalOptions {
    pub on: bool,
    /// `None`: the per-user default ([`folder::default_folder`]).
    pub folder: Option<std::path::PathBuf>,
}

impl Default for LocalOptions {
    fn default() -> Self {
        Self { on: true, folder: None }
    }
}
