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
//!   share), at most [`MAX_LOCAL_CONNECTIONS`] at a time; only a connection that has sent a
//!   line counts (a relay's probes for live instances never do), and one more is refused with a
//!   JSON-RPC error to its first request. The activity panel says when an agent
//!   attached and left. When the UI goes the socket is removed; one left by a crashed app is
//!   found stale (nobody answers on it) and removed by the next app or relay.
//! - **In the relay** ([`attach_stdio`]): the newest live instance is chosen (or the one
//!   `EGUI_MCP_BRIDGE_INSTANCE` / [`Attach::instance`] names; one named that does not run is an
//!   error), then copies bytes both ways until either side ends, and says on stderr which
//!   instance once it first answers. An instance that turns the client away (at its limit) or
//!   closes without answering ends the relay with an error, so the command exits non-zero. It holds at most a copy buffer, so a
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

/// The most connections the local endpoint serves at once. Only a connection that has sent a
/// line counts (a starting relay's probes for live instances never do); one more is refused
/// loudly: its first request is answered with a JSON-RPC error naming the limit, the app logs a
/// warning, and a relay ([`attach_stdio`]) ends with an error (`ConnectionRefused`) rather than
/// as served.
pub const MAX_LOCAL_CONNECTIONS: usize = 16;

/// The most connections the local endpoint keeps at once that have not sent a line yet (a
/// starting relay's probes for live instances, a relay whose client has not written yet). They
/// do not count against [`MAX_LOCAL_CONNECTIONS`]; one more closes the oldest of them, with a
/// warning in the log. Room for a storm: 100 relays started together hold up to 100
/// connections and 100 probes here until the app has read their first lines or seen them close.
pub const MAX_LOCAL_WAITING: usize = 256;

/// The `data.refused` of the error a connection turned away at [`MAX_LOCAL_CONNECTIONS`] is
/// answered with: how a relay knows it from the app's other errors.
const REFUSED_FULL: &str = "egui_mcp_bridge.local_endpoint_full";

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
