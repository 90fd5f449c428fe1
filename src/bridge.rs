//! [`Bridge`]: the one handle an app keeps. It wires the hub, the egui side and the server.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::hub::{ActionSpec, Hub, HubConfig};
use crate::plugin::{BridgePlugin, Call, UiBridge, WindowBuilder};
use crate::server::{ClientPolicy, ClientProfile, Compat, McpServer, TransportHandle};

/// Configures a [`Bridge`].
#[derive(Debug, Default)]
pub struct BridgeBuilder {
    config: HubConfig,
    policy: ClientPolicy,
}

impl BridgeBuilder {
    /// The server name announced to clients (your app's name, not "rmcp").
    #[must_use]
    pub fn app_name(mut self, name: impl Into<String>) -> Self {
        self.config.app_name = name.into();
        self
    }

    /// The server version announced to clients.
    #[must_use]
    pub fn app_version(mut self, version: impl Into<String>) -> Self {
        self.config.app_version = version.into();
        self
    }

    /// App-specific notes appended to the protocol's instructions text. The whole text is kept
    /// within [`crate::server::INSTRUCTIONS_MAX_BYTES`] (what Claude Code keeps), which leaves
    /// at least 440 bytes for the notes; longer notes are cut, with a warning in the log.
    #[must_use]
    pub fn instructions(mut self, notes: impl Into<String>) -> Self {
        self.config.instructions = Some(notes.into());
        self
    }

    /// How long a call may wait for the UI before it ends with `action_timeout` (default 10 s).
    #[must_use]
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.config.call_timeout = timeout;
        self
    }

    /// The longest string an agent's argument may hold, anywhere in it (default 10,000
    /// characters). A parameter whose schema has its own `maxLength` (for example from
    /// `#[schemars(length(max = 200))]`) gets that instead. Longer ones are `validation_failed`
    /// naming the parameter, before the app sees the call.
    #[must_use]
    pub fn max_string_chars(mut self, chars: usize) -> Self {
        self.config.max_string_chars = chars;
        self
    }

    /// How the server accommodates clients that cannot read resources or refresh their tool
    /// list (default [`Compat::Auto`]: by each client's `clientInfo.name`).
    #[must_use]
    pub fn compat(mut self, compat: Compat) -> Self {
        self.policy.compat = compat;
        self
    }

    /// The profile for clients that send this `clientInfo.name` (case-insensitive), instead
    /// of the built-in table's.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, ClientProfile, Compat};
    ///
    /// // An in-house agent that lists tools once: give it `app__call` and the tool list.
    /// let bridge = Bridge::builder()
    ///     .client_profile("our-agent", ClientProfile { label: "our-agent", ..ClientProfile::FROZEN })
    ///     .compat(Compat::Auto) // the default: everyone else by the built-in table
    ///     .build();
    /// # drop(bridge);
    /// ```
    #[must_use]
    pub fn client_profile(mut self, client_name: impl Into<String>, profile: ClientProfile) -> Self {
        self.policy.overrides.push((client_name.into(), profile));
        self
    }

    /// One profile for every client, whatever its name.
    #[must_use]
    pub fn client_profile_for_all(mut self, profile: ClientProfile) -> Self {
        self.policy.all = Some(profile);
        self
    }

    /// Whether the bridge serves its read-only state tool `app__read_windows` (default true).
    /// Without it, clients whose model cannot read resources cannot see the app.
    #[must_use]
    pub fn read_windows_tool(mut self, on: bool) -> Self {
        self.policy.no_read_windows = !on;
        self
    }

    /// Builds the bridge. Nothing is served until you call a `serve_*` method.
    pub fn build(self) -> Bridge {
        let hub = Arc::new(Hub::new(self.config));
        Bridge { ui: UiBridge::new(hub), policy: Arc::new(self.policy), server: Arc::new(OnceLock::new()) }
    }
}

/// An app's bridge: declare windows on it every frame, add its plugin to egui once, serve it.
#[derive(Clone, Debug)]
pub struct Bridge {
    ui: UiBridge,
    policy: Arc<ClientPolicy>,
    server: Arc<OnceLock<McpServer>>,
}

impl Bridge {
    /// Starts configuring a bridge.
    pub fn builder() -> BridgeBuilder {
        BridgeBuilder::default()
    }

    /// The shared core.
    pub fn hub(&self) -> &Arc<Hub> {
        self.ui.hub()
    }

    /// The egui side.
    pub fn ui(&self) -> &UiBridge {
        &self.ui
    }

    /// The plugin: `ctx.add_plugin(bridge.plugin())`, once.
    pub fn plugin(&self) -> BridgePlugin {
        self.ui.plugin()
    }

    /// Declares a window for this frame; see [`UiBridge::window`].
    pub fn window(&self, app_id: impl Into<String>) -> WindowBuilder {
        self.ui.window(app_id)
    }

    /// Declares an app-level action for this frame; see [`UiBridge::app_action`].
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn app_action<A>(&self, name: &str, spec: ActionSpec) -> Option<Call<A>>
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        self.ui.app_action(name, spec)
    }

    /// Whether a dialog blocks this window (as agents are told); disable it for the person too.
    pub fn is_blocked(&self, app_id: &str) -> bool {
        self.ui.is_blocked(app_id)
    }

    /// The MCP server, started on first use with its own runtime.
    pub fn server(&self) -> std::io::Result<&McpServer> {
        if let Some(s) = self.server.get() {
            return Ok(s);
        }
        let server = McpServer::with_policy(Arc::clone(self.hub()), (*self.policy).clone())?;
        Ok(self.server.get_or_init(|| server))
    }

    /// Uses an existing tokio runtime for the server (call before any `serve_*`).
    pub fn server_on(&self, runtime: tokio::runtime::Handle) -> &McpServer {
        self.server.get_or_init(|| McpServer::with_runtime(Arc::clone(self.hub()), (*self.policy).clone(), runtime))
    }

    /// Serves MCP over streamable HTTP at `http://{addr}/mcp`; see [`McpServer::serve_http`].
    pub fn serve_http(
        &self,
        addr: std::net::SocketAddr,
        options: crate::server::HttpOptions,
    ) -> std::io::Result<crate::server::HttpHandle> {
        self.server()?.serve_http(addr, options)
    }

    /// Serves MCP over stdin/stdout. stdout then carries JSON-RPC only: log to stderr.
    pub fn serve_stdio(&self) -> std::io::Result<TransportHandle> {
        Ok(self.server()?.serve_stdio())
    }
}
