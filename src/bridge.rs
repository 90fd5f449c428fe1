//! [`Bridge`]: the one handle an app keeps. It wires the core, the egui plugin and the server.

use std::sync::{Arc, OnceLock};

use serde::de::DeserializeOwned;

mod builder;

pub use builder::BridgeBuilder;

use crate::declare::{DeclareState, Press, WindowBuilder};
use crate::hub::{ActionSpec, ActivityRecord, AgentAction, Footprint, NoArgs, Snapshot, UiCore};
use crate::plugin::{BridgePlugin, CallsWhileHidden};
use crate::server::{ClientPolicy, LocalOptions, McpServer, ServeHandle, StdioStart};
#[cfg(feature = "http")]
use crate::server::{HttpHandle, HttpOptions};

/// An app's bridge, and all it needs: declare windows on it in every pass, add its
/// [`plugin`](Self::plugin) to egui once, serve it. Cheap to clone; every clone is the same
/// bridge.
///
/// # Threading
///
/// Declarations ([`window`](Self::window), [`app_action`](Self::app_action)) belong on the UI
/// thread, inside the app's ui code. The server runs on tokio worker threads and never touches
/// app state: agent calls reach the app only where it declares their action, in a pass of the
/// UI thread, and are answered after that pass's state is published.
///
#[doc = include_str!("docs/how_it_works.md")]
#[derive(Clone)]
pub struct Bridge {
    core: Arc<UiCore>,
    /// What the declaration layer keeps for this bridge: window places, what is made once.
    state: Arc<DeclareState>,
    policy: Arc<ClientPolicy>,
    runtime: Option<tokio::runtime::Handle>,
    local: Arc<LocalOptions>,
    server: Arc<OnceLock<McpServer>>,
}

impl std::fmt::Debug for Bridge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bridge").field("app", &self.core.hub.config().app_name).finish_non_exhaustive()
    }
}

impl Bridge {
    /// Starts configuring a bridge.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let bridge = egui_mcp_bridge::Bridge::builder()
    ///     .app_name("order-editor")
    ///     .app_version(env!("CARGO_PKG_VERSION"))
    ///     .instructions("Orders are numbered like #1042.")
    ///     .call_timeout(Duration::from_secs(5))
    ///     .build();
    /// assert!(bridge.snapshot().state().windows.is_empty(), "nothing declared yet");
    /// ```
    pub fn builder() -> BridgeBuilder {
        BridgeBuilder::default()
    }

    #[cfg(feature = "testing")]
    pub(crate) fn core(&self) -> &Arc<UiCore> {
        &self.core
    }

    #[cfg(feature = "testing")]
    pub(crate) fn declare_state(&self) -> &DeclareState {
        &self.state
    }

    /// The egui plugin: add it to the app's context once, `ctx.add_plugin(bridge.plugin())`
    /// (in eframe: in the app creator, with `cc.egui_ctx`).
    pub fn plugin(&self) -> BridgePlugin {
        BridgePlugin::new(Arc::clone(&self.core), true)
    }

    /// Declares a window for this pass. `app_id` is the app's own id for it (any string); the
    /// bridge maps it to a name-safe external id that is never reused. Finish with
    /// [`WindowBuilder::ui`] (shows and declares it) or [`WindowBuilder::declare`] (declares
    /// only).
    pub fn window(&self, app_id: impl AsRef<str>) -> WindowBuilder {
        WindowBuilder::new(Arc::clone(&self.core), Arc::clone(&self.state), app_id.as_ref())
    }

    /// Shows every window drawn with [`WindowBuilder::ui`], dialogs included, in an OS window
    /// of its own (an egui viewport) instead of inside the main window, or not, from the next
    /// pass on: set once (the builder's [`BridgeBuilder::native_windows`] sets where it starts),
    /// not in every pass. Ids, tools and behaviour are the same either way. Where egui embeds
    /// viewports (headless, tests) this changes nothing.
    pub fn set_native_windows(&self, on: bool) {
        self.state.places.lock().native = on;
    }

    /// Brings a window drawn with [`WindowBuilder::ui`] in `ctx` to the front: raises its OS
    /// window, or its layer in the main window (a `focus` action does this).
    pub fn focus(&self, ctx: &egui::Context, app_id: &str) {
        self.state.places.lock().focus(ctx, app_id);
    }

    /// The person's view of what agents did, drawn into `ui` (put it in a side panel): recent
    /// calls and their outcomes, identical consecutive calls as one line, the window each call
    /// touched, and a click on a call brings that window (shown with [`WindowBuilder::ui`]) to
    /// the front. It reads the activity log only when a call finished; it declares nothing, so
    /// it never changes a window's version.
    pub fn activity_ui(&self, ui: &mut egui::Ui) {
        // The bridge's own panel: not part of the app for the read view.
        self.hide_from_read_view(ui);
        crate::declare::activity_ui(&self.core, &self.state, ui);
    }

    /// Declares an app-level action (`app__{name}`) for this pass; listed while no app-level
    /// modal is open. Returns the agent's call to it, if one arrived.
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn app_action<A>(&self, name: &str, spec: ActionSpec) -> Option<Press<A>>
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        crate::declare::app_action(&self.core, name, spec)
    }

    /// A menu of app-level actions (`app__{name}`; a menu bar's "File"), drawn for the person and
    /// declared whether the menu is open or not, as a window's
    /// [`menu_button`](crate::WindowUi::menu_button) is: its items ([`Menu::button`](crate::declare::Menu::button),
    /// [`Menu::shortcut`](crate::declare::Menu::shortcut), submenus) are the app's actions, listed
    /// while no app-level modal is open.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut documents = 0;
    /// # egui::__run_test_ui(|ui| {
    /// egui::MenuBar::new().ui(ui, |ui| {
    ///     bridge.app_menu_button(ui, "File", |m| {
    ///         if let Some(press) = m.button("new_document", ActionSpec::new("New document")) {
    ///             documents += 1;
    ///             press.ok("A new document is open");
    ///         }
    ///     });
    /// });
    /// # });
    /// ```
    pub fn app_menu_button<R>(
        &self,
        ui: &mut egui::Ui,
        title: impl Into<egui::WidgetText>,
        add_items: impl FnOnce(&mut crate::declare::Menu<'_>) -> R,
    ) -> egui::InnerResponse<R> {
        let shown = crate::declare::app_menu_button(&self.core, ui, title, add_items);
        // Described: the read view leaves out the bar that holds it.
        let mut frame = self.core.frame.lock();
        frame.describe_node(shown.response.id.value());
        frame.describe_widget(shown.response.id.value());
        drop(frame);
        shown
    }

    /// The interactive widgets the app drew but did not describe, as the read view last saw
    /// them (with [`BridgeBuilder::read_view`](crate::BridgeBuilder::read_view) on): what an
    /// agent can read but not use. Also logged at debug level when the list changes.
    pub fn undescribed_widgets(&self) -> Vec<crate::hub::UndescribedWidget> {
        self.core.frame.lock().undescribed()
    }

    /// Leaves the egui window or panel that `ui` is in out of the read view (see
    /// [`BridgeBuilder::read_view`](crate::BridgeBuilder::read_view)): for what the app
    /// describes some other way, decoration that would only cost an agent's tokens, or what
    /// agents must not read at all. A picture of a window (`app__view_window`) shows it as a
    /// flat grey area: the window or panel, or within a described window only `ui` itself.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # egui::__run_test_ui(|ui| {
    /// egui::Panel::bottom("hint").show(ui, |ui| {
    ///     bridge.hide_from_read_view(ui);
    ///     ui.weak("Tip: open an order from the Orders window.");
    /// });
    /// # });
    /// ```
    pub fn hide_from_read_view(&self, ui: &egui::Ui) {
        self.core.frame.lock().hide_from_read_view(ui.unique_id().value());
    }

    /// An app-level action without arguments: [`app_action`](Self::app_action) with [`NoArgs`].
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn app_button(&self, name: &str, spec: ActionSpec) -> Option<Press<NoArgs>> {
        self.app_action::<NoArgs>(name, spec)
    }

    /// The external id (as agents see it) of an open window.
    pub fn external_id(&self, app_id: &str) -> Option<String> {
        self.core.frame.lock().handle_of(app_id).map(str::to_owned)
    }

    /// Turns asking the person on or off while the app runs (the builder's
    /// [`BridgeBuilder::approvals`] sets where it starts): off when it turns out that no person
    /// is at the app (a window that could not open, say). Calls already waiting stay until
    /// answered or out of budget.
    pub fn set_approvals(&self, on: bool) {
        self.core.hub.set_approvals(on);
    }

    /// The agent's call that waits for the person's approval on this window (an action marked
    /// [`ActionSpec::ask_person`]), if any. [`Bridge::approval_prompt`] draws it with Allow and
    /// Deny; this is for an app that draws its own.
    pub fn approval(&self, app_id: &str) -> Option<crate::hub::Approval> {
        self.core.frame.lock().approval(app_id)
    }

    /// The person's answer to the call waiting on this window: `true` applies it exactly as a
    /// direct call would (checked again against the window as it is now), `false` answers the
    /// agent `denied_by_user` and applies nothing. Returns whether a call was waiting (its
    /// budget may have run out first: then it is never applied, whatever the answer).
    pub fn answer_approval(&self, app_id: &str, allow: bool) -> bool {
        self.core.answer_approval(app_id, allow)
    }

    /// Draws, in the window's contents, the agent's call that waits for the person on this
    /// window, if any: what the agent wants to do (the action's title, its arguments with
    /// secrets masked) and Allow and Deny buttons, which answer it. Draws nothing when no call
    /// waits. For a window the app draws itself (declared with [`WindowBuilder::declare`]): call
    /// it where the person looks first, at the top of the window. A window drawn with
    /// [`WindowBuilder::ui`] or [`WindowBuilder::panel`] has it already.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # egui::__run_test_ui(|ui| {
    /// bridge.approval_prompt(ui, "authorize-1");
    /// # });
    /// ```
    pub fn approval_prompt(&self, ui: &mut egui::Ui, app_id: &str) {
        if let Some(approval) = self.approval(app_id) {
            crate::declare::approval_prompt(ui, &self.core, app_id, &approval);
        }
    }

    /// The agent's latest applied call, if it marks this window (see
    /// [`WindowResponse::agent_action`](crate::WindowResponse::agent_action)).
    pub fn agent_action(&self, app_id: &str) -> Option<AgentAction> {
        self.core.frame.lock().agent_action(app_id).cloned()
    }

    /// Waits, at most `timeout`, until every call answered so far is written to the recording
    /// ([`BridgeBuilder::record`]) and flushed: whether it is (true when the app records
    /// nothing, or the recording stopped). Lines are written by a thread of their own, a moment
    /// after each answer; call this before reading the file (in a test, before an app exits),
    /// never on the UI thread.
    pub fn flush_recording(&self, timeout: std::time::Duration) -> bool {
        self.core.hub.flush_recording(timeout)
    }

    /// The latest published state: what agents read from `app://windows` and `tools/list`.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.core.hub.snapshot()
    }

    /// Recent agent calls and their outcomes, oldest first (at most [`ACTIVITY_CAPACITY`](crate::limits::ACTIVITY_CAPACITY)):
    /// tool names, codes and messages, never arguments. For an "Agent activity" panel.
    pub fn activity(&self) -> Vec<ActivityRecord> {
        self.core.hub.activity().recent()
    }

    /// What the bridge keeps about windows (see [`Footprint`]).
    pub fn footprint(&self) -> Footprint {
        self.core.frame.lock().footprint()
    }

    /// A helper that serves agent calls while the window is hidden, from `App::logic`.
    pub fn calls_while_hidden(&self) -> CallsWhileHidden {
        CallsWhileHidden::new(Arc::clone(&self.core))
    }

    /// The MCP server, started on first use on the builder's runtime or its own. Its handles
    /// keep it (and its own runtime) alive, not this bridge: see `server::Lifeline`.
    fn server(&self) -> std::io::Result<&McpServer> {
        if let Some(s) = self.server.get() {
            return Ok(s);
        }
        let hub = Arc::clone(&self.core.hub);
        let server = match &self.runtime {
            Some(rt) => McpServer::with_runtime(hub, (*self.policy).clone(), rt.clone()),
            None => McpServer::with_policy(hub, (*self.policy).clone())?,
        };
        Ok(self.server.get_or_init(|| server))
    }

    /// Serves MCP over streamable HTTP at `http://{addr}/mcp`; see [`HttpOptions`]. Binds at
    /// once (port 0 picks a free port: [`HttpHandle::local_addr`]). Every request needs a
    /// bearer token: the options' own, or one generated into [`HttpHandle::token_file`];
    /// [`HttpOptions::without_token`] opts out on loopback. Bind a loopback address unless other
    /// machines must reach the app. Serving stops when the handle is stopped or dropped.
    ///
    /// The handle alone keeps serving alive (the server and its runtime live as long as it
    /// does): the bridge may be dropped, once its plugin is in the app's egui context. If the
    /// app's UI goes anyway (its context and every bridge clone dropped), or a runtime given with
    /// [`BridgeBuilder::runtime`] shuts down, serving ends with a line in the log and the handle
    /// reports it closed.
    ///
    /// # Errors
    ///
    /// When the address cannot be bound (taken, not local, not permitted), a token file cannot
    /// be written, no token is wanted for an address beyond loopback, or the bridge's own
    /// runtime cannot be started.
    ///
    /// # Example
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, serve::HttpOptions};
    ///
    /// let bridge = Bridge::builder().app_name("my-app").build();
    /// let http = bridge.serve_http(([127, 0, 0, 1], 0).into(), HttpOptions::default())?;
    /// // stdout may be MCP's (stdio): tell the person on stderr, and where the token is.
    /// eprintln!("MCP at {}, token in {:?}", http.url(), http.token_file());
    /// http.stop(); // or drop it
    /// assert!(http.wait_closed(std::time::Duration::from_secs(5)));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(feature = "http")]
    pub fn serve_http(&self, addr: std::net::SocketAddr, options: HttpOptions) -> std::io::Result<HttpHandle> {
        let handle = self.server()?.serve_http(addr, options)?;
        self.open_local_endpoint();
        Ok(handle)
    }

    /// Serves MCP over stdin/stdout until stdin ends or the handle is stopped or dropped.
    /// stdout then carries JSON-RPC only: log to stderr.
    ///
    /// The handle alone keeps serving alive (the server and its runtime live as long as it
    /// does): the bridge may be moved into eframe's app creator and dropped there, once its
    /// plugin is in the app's egui context. If the app's UI goes anyway (its context and every
    /// bridge clone dropped), or a runtime given with [`BridgeBuilder::runtime`] shuts down,
    /// serving ends with a line in the log and [`ServeHandle::is_closed`] says so.
    ///
    /// # Errors
    ///
    /// When the bridge's own runtime cannot be started (no threads left).
    pub fn serve_stdio(&self) -> std::io::Result<ServeHandle> {
        let handle = self.server()?.serve_stdio();
        self.open_local_endpoint();
        Ok(handle)
    }

    /// Serves stdio the way agent programs expect, decided from the command line: only when
    /// started with `--stdio` (as a client starts an MCP server), and then by the copy of the
    /// app this user already has open, if any. Call it first in `main`, before anything writes
    /// to stdout. Started by a person (no `--stdio`), a second time too, it does nothing and the
    /// app opens its window.
    ///
    /// - No `--stdio`: opens the app's local endpoint (unless turned off), so that a client
    ///   started later with `--stdio` reaches this window, and answers [`StdioStart::NotAsked`].
    /// - `--stdio`, and a copy of the app (the same [`app_name`](BridgeBuilder::app_name)) runs
    ///   for this user with its local endpoint open: this process relays its stdin and stdout
    ///   to it until the client or the copy ends, and answers [`StdioStart::Relayed`]: return
    ///   from `main` without a window. The agent drives the window the person has open.
    /// - `--stdio` and none runs (or the local endpoint is off): serves stdio here, as
    ///   [`serve_stdio`](Self::serve_stdio), and answers [`StdioStart::Serving`]: open the
    ///   window as usual, and keep the value while the app runs.
    ///
    /// `EGUI_MCP_BRIDGE_INSTANCE=<pid>` picks the copy to attach to
    /// ([`serve::Attach::instance`](crate::serve::Attach::instance)).
    ///
    /// ```no_run
    /// let bridge = egui_mcp_bridge::Bridge::builder().app_name("my-app").build();
    /// let stdio = bridge.serve_stdio_from_args()?;
    /// if stdio.relayed() {
    ///     return Ok(()); // the copy already open served the client: no second window
    /// }
    /// // …add the plugin and run the app, keeping `stdio` alive.
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the named instance (`EGUI_MCP_BRIDGE_INSTANCE`) does not run or is not a process
    /// id (a copy is not started in its place); when the running copy turned the client away
    /// at its limit (`ConnectionRefused`: the client got its JSON-RPC error) or closed without
    /// answering (`ConnectionAborted`); or when the server's runtime cannot start. Exit
    /// non-zero with the error. Other
    /// failures to look for a running copy (its folder not private) are logged, and this
    /// process serves the client itself.
    pub fn serve_stdio_from_args(&self) -> std::io::Result<StdioStart> {
        self.serve_stdio_if(std::env::args_os().skip(1).any(|a| a == "--stdio"))
    }

    /// [`serve_stdio_from_args`](Self::serve_stdio_from_args) for an app whose own
    /// command-line parser decides whether a client asked for stdio.
    ///
    /// # Errors
    ///
    /// As [`serve_stdio_from_args`](Self::serve_stdio_from_args).
    pub fn serve_stdio_if(&self, asked: bool) -> std::io::Result<StdioStart> {
        if !asked {
            // The person's copy: a client's `--stdio` attaches to it.
            self.open_local_endpoint();
            return Ok(StdioStart::NotAsked);
        }
        if self.local.on {
            let mut attach = crate::server::Attach::new(self.core.hub.config().app_name.clone());
            if let Some(folder) = &self.local.folder {
                attach = attach.folder(folder.clone());
            }
            let named = attach.names_instance();
            match attach.stdio() {
                Ok(crate::server::Attached::Relayed(instance)) => return Ok(StdioStart::Relayed(instance)),
                Ok(crate::server::Attached::NoInstance) => {}
                // An instance was named (`EGUI_MCP_BRIDGE_INSTANCE`) that does not run, or the
                // running copy turned the client away (its limit) or closed without answering:
                // the client was not served, and a copy started here is not the one it asked for.
                Err(e)
                    if named
                        || matches!(
                            e.kind(),
                            std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::ConnectionAborted
                        ) =>
                {
                    return Err(e);
                }
                Err(e) => {
                    tracing::warn!(error = %e, "could not look for a running copy of the app; serving this client here");
                }
            }
        }
        self.serve_stdio().map(StdioStart::Serving)
    }

    /// Serves MCP on the app's per-user local endpoint (see
    /// [`BridgeBuilder::local_endpoint`]), which `serve_stdio` and `serve_http` also open: for an
    /// app that serves nothing else until a client attaches. Returns the socket's path. It lasts
    /// as long as the app's UI (then the socket is removed); a second call returns the same
    /// path. Same-user processes connect without a token; other users cannot.
    ///
    /// ```no_run
    /// let bridge = egui_mcp_bridge::Bridge::builder().app_name("my-app").build();
    /// let socket = bridge.serve_local()?;
    /// eprintln!("agents attach with `my-app --stdio` (socket {})", socket.display());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the endpoint is turned off, on Windows (Unix only), when its folder is not the user's
    /// own and private, its path is too long for a socket, or the socket cannot be bound.
    pub fn serve_local(&self) -> std::io::Result<std::path::PathBuf> {
        if !self.local.on {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "the local endpoint is turned off (BridgeBuilder::local_endpoint(false))",
            ));
        }
        self.server()?.serve_local(&self.local)
    }

    /// The local endpoint's socket, once open (see [`serve_local`](Self::serve_local)).
    pub fn local_endpoint(&self) -> Option<std::path::PathBuf> {
        self.server.get()?.local_endpoint()
    }

    /// Opens the local endpoint along with another transport, unless turned off; a failure is
    /// logged, not returned: the transport asked for serves either way.
    fn open_local_endpoint(&self) {
        if !self.local.on || cfg!(not(unix)) {
            return;
        }
        if let Err(e) = self.serve_local() {
            tracing::warn!(error = %e, "the local endpoint could not open: a client's `--stdio` will start a copy of the app instead of attaching to this one");
        }
    }

    /// Serves MCP, newline-delimited JSON-RPC, over any byte stream (for example one half of
    /// `tokio::io::duplex`), with the same guards as stdio. `name` appears in log lines. As
    /// with [`serve_stdio`](Self::serve_stdio), the handle alone keeps serving alive.
    ///
    /// # Errors
    ///
    /// When the bridge's own runtime cannot be started (no threads left).
    pub fn serve_io<S>(&self, name: &'static str, io: S) -> std::io::Result<ServeHandle>
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + 'static,
    {
        Ok(self.server()?.serve_io(name, io))
    }
}
