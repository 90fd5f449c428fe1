//! The MCP server: a hand-written rmcp handler over the [`Hub`], on its own tokio runtime.
//!
//! # Model
//!
//! - Server tasks run on tokio worker threads named `egui-mcp-server`. They never touch app
//!   state: they read the hub's latest snapshot and submit calls to the UI thread.
//! - One fan-out task watches the hub. When a published snapshot changed the windows, every
//!   session subscribed to `app://windows` gets `resources/updated`; when it changed the tool
//!   list, every connection gets `tools/list_changed`. Both happen after the publish, that is
//!   after the state took effect (§6, §8.3). Each connection delivers on its own task with
//!   coalesced pending bits, so a peer that stops reading delays nobody else.
//! - Several transports may serve at once; they share the hub, so operations stay serialised
//!   by the UI thread (§10.1).
//! - Serving lasts as long as its handle: each handle and each transport's task holds a
//!   [`Lifeline`] (the shared state, the hub, the runtime), so dropping every `Bridge` clone
//!   stops nothing. What serving cannot keep alive (the app's UI, a runtime the app gave) ends
//!   it with a line in the log and the handle closed, never in silence.
//!
//! This module knows no egui.

mod bridge_tools;
mod connections;
mod handler;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http")]
mod http_ids;
#[cfg(feature = "http")]
mod http_layers;
#[cfg(feature = "http")]
mod http_options;
mod ids;
mod instructions;
#[cfg(feature = "http")]
mod listener;
mod local;
mod malformed;
mod profile;
mod result;
mod serving;
#[cfg(feature = "http")]
mod sessions;
mod stdio;
mod stdio_start;
#[cfg(feature = "http")]
mod token;
mod tool_entry;
mod tool_search;
mod tools;
mod user_files;
mod view_window;

#[cfg(feature = "http")]
pub use http::{Held, HttpHandle};
#[cfg(feature = "http")]
pub use http_options::{HttpOptions, SESSION_IDLE};
pub use instructions::INSTRUCTIONS_MAX_BYTES;
pub(crate) use instructions::{InstructionsFor, instructions};
pub(crate) use local::LocalOptions;
pub use local::{Attach, Attached, Instance, MAX_LOCAL_CONNECTIONS, MAX_LOCAL_WAITING, attach_stdio};
pub(crate) use profile::ClientPolicy;
pub use profile::{ALWAYS_LOAD_TOOLS, ClientProfile, Compat, ResultView};
pub use serving::ServeHandle;
pub use stdio_start::StdioStart;
#[cfg(feature = "http")]
pub use token::{rotate_token, user_token_path};

use std::sync::Arc;

use parking_lot::Mutex;
use rmcp::ServiceExt as _;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};

use crate::hub::{Hub, Snapshot};
use connections::Connections;
use handler::BridgeHandler;
use serving::{Serving, TaskGuard};
use tools::ToolsCache;

/// The URI of the one resource.
pub const WINDOWS_URI: &str = "app://windows";

/// State shared by every connection.
pub(crate) struct ServerShared {
    hub: Arc<Hub>,
    /// Capabilities, identity and the instructions for a client of unknown name.
    info: ServerConfig,
    policy: ClientPolicy,
    connections: Connections,
    tools_cache: Mutex<ToolsCache>,
}

impl ServerShared {
    /// How long a stop waits for the calls under way: a call waits at most twice the budget.
    fn drain_budget(&self) -> std::time::Duration {
        self.hub.config().call_timeout * 2 + std::time::Duration::from_secs(1)
    }

    /// The instructions for a connection with this profile.
    fn instructions_for(&self, profile: &ClientProfile) -> String {
        let v = InstructionsFor {
            reads_resources: profile.reads_resources,
            dispatchers: self.policy.accommodations(),
            read_windows_tool: !self.policy.no_read_windows,
            view_window_tool: !self.policy.no_view_window,
        };
        instructions(v, self.hub.config().instructions.as_deref())
    }
}

/// Owns the runtime it created (shut down in the background on drop, so dropping is safe
/// anywhere, a worker of that runtime included), or borrows one.
struct RuntimeSlot {
    owned: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
}

impl Drop for RuntimeSlot {
    fn drop(&mut self) {
        if let Some(rt) = self.owned.take() {
            rt.shutdown_background();
        }
    }
}

/// What serving needs alive: the state its connections share (and through it the hub) and the
/// runtime it runs on. The server holds one, every handle holds one, and every serving task
/// holds one until it ends: serving lasts as long as its handle (and, once stopped, until its
/// calls under way are answered), whatever happens to the [`crate::Bridge`] clones.
#[derive(Clone)]
pub(crate) struct Lifeline {
    shared: Arc<ServerShared>,
    runtime: Arc<RuntimeSlot>,
}

impl Lifeline {
    /// Serves newline-delimited JSON-RPC over `read` and `write`; also returns the connection's
    /// client profile, once known.
    fn serve_lines<R, W>(
        &self,
        name: &'static str,
        read: R,
        write: W,
    ) -> (ServeHandle, Arc<std::sync::OnceLock<ClientProfile>>)
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let serving = Serving::new();
        let transport = stdio::LineTransport::new(read, write, Arc::clone(&serving));
        let handler = BridgeHandler::new(Arc::clone(&self.shared), Arc::clone(&serving));
        let profile = handler.profile_slot();
        let (shared, task_serving) = (Arc::clone(&self.shared), Arc::clone(&serving));
        let drain_for = self.shared.drain_budget();
        // Made before the task: a runtime that is shut down drops the task unpolled, and the
        // guard then says so and marks the handle closed.
        let guard = TaskGuard::new(Arc::clone(&serving), name, self.clone());
        self.runtime.handle.spawn(async move {
            let _guard = guard;
            let serving = task_serving;
            // A stop (asked for, or the app's UI gone): wait for the calls under way, then end
            // the input; rmcp then writes the answers it holds and closes.
            let stopper = {
                let (serving, shared) = (Arc::clone(&serving), Arc::clone(&shared));
                tokio::spawn(async move {
                    stop_when_ui_gone(&shared.hub, &serving, name).await;
                    if !serving.drain(drain_for).await {
                        tracing::warn!(transport = name, "stopping without the answers to calls still under way");
                    }
                    serving.end_input();
                })
            };
            match handler.serve(transport).await {
                Ok(running) => {
                    let reason = running.waiting().await;
                    tracing::info!(transport = name, ?reason, "MCP connection ended");
                }
                Err(e) => {
                    // Never the error's text: it quotes the client's first message whole.
                    tracing::warn!(transport = name, reason = init_failure(&e), "MCP connection failed to start");
                }
            }
            stopper.abort();
            serving.mark_closed();
            shared.hub.wake();
        });
        (ServeHandle::new(serving, self.clone()), profile)
    }
}

impl std::fmt::Debug for Lifeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lifeline").field("own_runtime", &self.runtime.owned.is_some()).finish_non_exhaustive()
    }
}

/// The MCP server of one app. Serve it over any number of transports at once.
pub(crate) struct McpServer {
    shared: Arc<ServerShared>,
    runtime: Arc<RuntimeSlot>,
    /// The local endpoint's socket once opened, or why it could not be.
    local: std::sync::OnceLock<Result<std::path::PathBuf, (std::io::ErrorKind, String)>>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer").finish_non_exhaustive()
    }
}

impl McpServer {
    /// A server with its own runtime and this client policy.
    pub fn with_policy(hub: Arc<Hub>, policy: ClientPolicy) -> std::io::Result<Self> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("egui-mcp-server")
            .enable_all()
            .build()?;
        let handle = rt.handle().clone();
        Ok(Self::start(hub, policy, RuntimeSlot { owned: Some(rt), handle }))
    }

    /// A server on an existing runtime (tests, or an app that already runs tokio).
    pub fn with_runtime(hub: Arc<Hub>, policy: ClientPolicy, handle: tokio::runtime::Handle) -> Self {
        Self::start(hub, policy, RuntimeSlot { owned: None, handle })
    }

    fn start(hub: Arc<Hub>, policy: ClientPolicy, runtime: RuntimeSlot) -> Self {
        let config = hub.config();
        let info = ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_resources()
                .enable_resources_subscribe()
                .build(),
        )
        .with_server_info(Implementation::new(config.app_name.clone(), config.app_version.clone()));
        let connections = Connections::new(hub.watch());
        let mut shared =
            ServerShared { hub, info, policy, connections, tools_cache: Mutex::new(ToolsCache::default()) };
        let unknown = shared.policy.profile_for(None);
        shared.info.instructions = Some(shared.instructions_for(&unknown));
        let shared = Arc::new(shared);
        runtime.handle.spawn(fan_out(Arc::clone(&shared)));
        Self { shared, runtime: Arc::new(runtime), local: std::sync::OnceLock::new() }
    }

    /// What a handle and a serving task hold to keep serving alive.
    fn lifeline(&self) -> Lifeline {
        Lifeline { shared: Arc::clone(&self.shared), runtime: Arc::clone(&self.runtime) }
    }

    /// Serves MCP over this process's stdin/stdout until stdin closes, stdout fails, or the
    /// handle stops it.
    pub fn serve_stdio(&self) -> ServeHandle {
        self.serve_lines("stdio", tokio::io::stdin(), tokio::io::stdout())
    }

    /// Serves MCP, newline-delimited JSON-RPC, over any byte stream, with the same guards as
    /// stdio: bounded lines, parse errors answered, nothing a client sent logged, the
    /// connection ended when a write fails.
    pub fn serve_io<S>(&self, name: &'static str, io: S) -> ServeHandle
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + 'static,
    {
        let (read, write) = tokio::io::split(io);
        self.serve_lines(name, read, write)
    }

    fn serve_lines<R, W>(&self, name: &'static str, read: R, write: W) -> ServeHandle
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        self.lifeline().serve_lines(name, read, write).0
    }

    /// Opens the local endpoint (see [`local`]) once: later calls return where it is, or the
    /// error it met.
    #[cfg(unix)]
    pub fn serve_local(&self, options: &LocalOptions) -> std::io::Result<std::path::PathBuf> {
        let opened =
            self.local.get_or_init(|| local::open(&self.lifeline(), options).map_err(|e| (e.kind(), e.to_string())));
        opened.clone().map_err(|(kind, text)| std::io::Error::new(kind, text))
    }

    /// The local endpoint's socket, once open.
    pub fn local_endpoint(&self) -> Option<std::path::PathBuf> {
        self.local.get()?.as_ref().ok().cloned()
    }

    #[cfg(not(unix))]
    pub fn serve_local(&self, _options: &LocalOptions) -> std::io::Result<std::path::PathBuf> {
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "the local endpoint is Unix only"))
    }

    /// Serves MCP over streamable HTTP at `http://{addr}/mcp`. Binds at once; port 0 picks a
    /// free port (see [`HttpHandle::local_addr`]). Bind a loopback address unless you mean to
    /// reach the app from other machines, and then set a token.
    #[cfg(feature = "http")]
    pub fn serve_http(&self, addr: std::net::SocketAddr, options: HttpOptions) -> std::io::Result<HttpHandle> {
        http::serve(&self.lifeline(), addr, options)
    }
}

/// Returns once a stop was asked for, or the app's UI is gone (then it asks for the stop, and
/// says why in the log): with no UI left, no call can be answered any more.
async fn stop_when_ui_gone(hub: &Hub, serving: &Serving, transport: &'static str) {
    tokio::select! {
        () = serving.stopped() => {}
        exited = hub.ui_gone() => {
            if exited {
                tracing::info!(transport, "the app exited and its UI is gone; serving MCP stops");
            } else {
                tracing::error!(
                    transport,
                    "the app's UI is gone (its egui context and every Bridge clone were dropped): no call can be answered any more; serving MCP stops"
                );
            }
            serving.request_stop();
        }
    }
}

/// What went wrong at the start of a connection, without anything the client sent.
fn init_failure(e: &rmcp::service::ServerInitializeError) -> &'static str {
    use rmcp::service::ServerInitializeError as E;
    match e {
        E::ExpectedInitializeRequest(_) => "the first message was not initialize",
        E::ConnectionClosed(_) => "the connection closed before initialize",
        E::UnexpectedInitializeResponse(_) => "unexpected initialize response",
        E::InitializeFailed(_) => "initialize failed",
        E::TransportError { .. } => "the transport failed",
        E::Cancelled => "cancelled",
        _ => "the handshake failed",
    }
}

/// Wakes every connection's delivery after each publish that changed the windows or the tool
/// list (each connection then compares revisions itself), and prunes closed sessions every
/// [`connections::PRUNE_EVERY`]. Each connection delivers on its own task, so no peer can hold
/// this loop up.
async fn fan_out(shared: Arc<ServerShared>) {
    let mut rx = shared.hub.watch();
    let revisions = |s: &Snapshot| (s.windows_revision, s.tools_revision);
    let mut last = revisions(&rx.borrow_and_update());
    let mut prune = tokio::time::interval(connections::PRUNE_EVERY);
    prune.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            changed = rx.changed() => {
                if changed.is_err() {
                    return;
                }
                let now = revisions(&rx.borrow_and_update());
                if now != last {
                    last = now;
                    shared.connections.broadcast();
                }
            }
            _ = prune.tick() => shared.connections.prune_closed(),
        }
    }
}
