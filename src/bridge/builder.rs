//! [`BridgeBuilder`]: what an app sets once, before the bridge is built.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::Bridge;
use crate::declare::DeclareState;
use crate::hub::{DEFAULT_MAX_RECORDING_BYTES, Hub, HubConfig, ReadView, Recorder, UiCore};
use crate::protocol::recording::{Header, RECORDING_FORMAT, RECORDING_KIND};
use crate::server::{ClientPolicy, ClientProfile, Compat, LocalOptions};

/// Configures a [`Bridge`]: the app's name and notes for agents, budgets, how clients are
/// accommodated, and where the server runs.
#[derive(Debug, Default)]
pub struct BridgeBuilder {
    config: HubConfig,
    policy: ClientPolicy,
    runtime: Option<tokio::runtime::Handle>,
    local: LocalOptions,
    native_windows: bool,
    own_window_buttons: bool,
    /// The recording's file, opened, and its size limit.
    record: Option<(std::fs::File, u64)>,
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
    /// within [`crate::limits::INSTRUCTIONS_MAX_BYTES`] (what Claude Code keeps), which leaves
    /// at least 440 bytes for the notes; longer notes are cut, with a warning in the log.
    #[must_use]
    pub fn instructions(mut self, notes: impl Into<String>) -> Self {
        self.config.instructions = Some(notes.into());
        self
    }

    /// Whether actions marked [`ActionSpec::ask_person`](crate::ActionSpec::ask_person) wait
    /// for the person's approval (default on). Turn it off where no person is at the app
    /// (headless, unattended agents): such calls are then applied as any other.
    #[must_use]
    pub fn approvals(mut self, on: bool) -> Self {
        self.config.approvals = on;
        self
    }

    /// What agents get of the windows and panels the app has not described (the read view):
    /// [`ReadView::Operate`] (the default; `true`), [`ReadView::ReadOnly`], or [`ReadView::Off`]
    /// (`false`). Each such window is published with its title, its labels as text, its inputs
    /// as fields (passwords masked), its buttons, links and sections with their state, read from
    /// egui's accessibility (AccessKit) tree. Operated, it also gets two generic tools,
    /// `{id}__edit_field` and `{id}__press`, that act through egui's own accessibility requests
    /// (the app's code runs as for the person's click) under every rule of a described window:
    /// listed only while it is operable, `expectedVersion` checked, a disabled widget refused,
    /// every invalid field named, the answer after the pass that shows the effect. egui's tree
    /// costs about half a pass to build, so it is built only while an agent is about (asked
    /// anything in the last minute), at most once a second, and in every pass an agent's
    /// generic call needs; what it showed is published in the passes between.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, ReadView};
    /// let read_only = Bridge::builder().read_view(ReadView::ReadOnly).build();
    /// let off = Bridge::builder().read_view(false).build();
    /// # drop((read_only, off));
    /// ```
    #[must_use]
    pub fn read_view(mut self, mode: impl Into<ReadView>) -> Self {
        self.config.read_view = mode.into();
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

    /// How the server accommodates clients as they are (default [`Compat::Auto`]: every
    /// connection gets the bridge's state tool and dispatchers, results and instructions shaped
    /// by each client's `clientInfo.name`; [`Compat::Off`]: the spec's bare floor).
    #[must_use]
    pub fn compat(mut self, compat: Compat) -> Self {
        self.policy.compat = compat;
        self
    }

    /// The profile for clients that send this `clientInfo.name` (case-insensitive), instead
    /// of the built-in table's.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, serve::{ClientProfile, Compat, ResultView}};
    ///
    /// // An in-house agent whose model sees only `structuredContent`: results' text is just the
    /// // message, and its instructions say to read the state through `app__read_windows`.
    /// let ours = ClientProfile { label: "our-agent", reads_resources: false, sees: ResultView::Structured };
    /// let bridge = Bridge::builder()
    ///     .client_profile("our-agent", ours)
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

    /// Whether the bridge serves its read-only picture tool `app__view_window` (default true): a
    /// window as the person sees it, as a PNG, with what the app hides from the read view and
    /// every password edit blanked. Turn it off for an app whose painted content agents must
    /// not see at all.
    #[must_use]
    pub fn view_window_tool(mut self, on: bool) -> Self {
        self.policy.no_view_window = !on;
        self
    }

    /// Whether doc comments on argument fields become `description`s in the tools' input
    /// schemas (default true, as `derive(JsonSchema)` does). Turn it off to save tokens when
    /// the field names say enough: a host sends every tool's schema with every turn. Either way
    /// a struct's own doc comment is never sent (the action's description says it).
    #[must_use]
    pub fn parameter_docs(mut self, on: bool) -> Self {
        self.config.parameter_docs = on;
        self
    }

    /// Serves on this tokio runtime instead of the bridge's own (two worker threads named
    /// `egui-mcp-server`, made at the first `serve_*`). For an app that already runs tokio,
    /// and for tests.
    #[must_use]
    pub fn runtime(mut self, handle: tokio::runtime::Handle) -> Self {
        self.runtime = Some(handle);
        self
    }

    /// Whether the app serves its per-user local endpoint (default on): with the first
    /// `serve_stdio` or `serve_http` (or [`Bridge::serve_local`]), the running app listens on a
    /// socket only this user can open, named after [`app_name`](Self::app_name), and the
    /// command a stdio client runs attaches to it ([`serve::attach_stdio`](crate::serve::attach_stdio))
    /// instead of starting a second copy. Turn it off for a copy that belongs to one agent only
    /// (the demo's `--headless --stdio`). Unix only.
    ///
    /// ```
    /// let private_copy = egui_mcp_bridge::Bridge::builder().app_name("my-app").local_endpoint(false).build();
    /// # drop(private_copy);
    /// ```
    #[must_use]
    pub fn local_endpoint(mut self, on: bool) -> Self {
        self.local.on = on;
        self
    }

    /// Serves the local endpoint in this folder instead of the per-user default (for tests, or
    /// an app that keeps its instances apart); the relay must then look there too
    /// ([`serve::Attach::folder`](crate::serve::Attach::folder)). The folder is made private
    /// (0700) if missing, and refused if it is another user's or a link.
    #[must_use]
    pub fn local_endpoint_in(mut self, folder: impl Into<std::path::PathBuf>) -> Self {
        self.local.folder = Some(folder.into());
        self
    }

    /// Whether every window drawn with [`WindowBuilder::ui`](crate::WindowBuilder::ui), dialogs
    /// included, is shown in an OS window of its own (an egui viewport) instead of inside the
    /// main window (default off; a window's "Own window" button, when the app turns it on with
    /// [`own_window_buttons`](Self::own_window_buttons), lets the person move one). Ids, tools
    /// and behaviour are the same either way. Where egui embeds viewports (headless, tests) this
    /// changes nothing. [`Bridge::set_native_windows`] changes it while the app runs.
    ///
    /// ```
    /// let bridge = egui_mcp_bridge::Bridge::builder().native_windows(true).build();
    /// # drop(bridge);
    /// ```
    #[must_use]
    pub fn native_windows(mut self, on: bool) -> Self {
        self.native_windows = on;
        self
    }

    /// Whether the windows drawn with [`WindowBuilder::ui`](crate::WindowBuilder::ui) have the
    /// bridge's "Own window" button, with which the person moves one into an OS window of its
    /// own and back (default off: a described window has only what the app draws, laid out
    /// where `egui::Window` lays it out). A window's
    /// [`own_window_button`](crate::WindowBuilder::own_window_button) has the last word. The
    /// button takes a row above the window's contents.
    ///
    /// ```
    /// let bridge = egui_mcp_bridge::Bridge::builder().own_window_buttons(true).build();
    /// # drop(bridge);
    /// ```
    #[must_use]
    pub fn own_window_buttons(mut self, on: bool) -> Self {
        self.own_window_buttons = on;
        self
    }

    /// Records every tool call that reaches the app, from any connection (stdio, HTTP, a
    /// relayed client, an in-process test agent), into the file at `path` (made, or emptied; a
    /// new one readable by the user only): one JSON line each, written once the call is
    /// answered, with the tool, its arguments, the answer (the success's message and what it
    /// changed, or the error's code, message and fields), the window's version the call
    /// expected and the one it had, the client's name and the milliseconds since the recording
    /// began. Replay it in a test with
    /// [`testing::Harness::replay`](crate::testing::Harness::replay): an agent's session
    /// becomes a test.
    ///
    /// - **Secrets are never written**: a value for a field the window shows masked (a
    ///   password, a card number) or for a parameter the schema marks `writeOnly` is replaced by
    ///   a placeholder naming it, `{"$secret": "card_number"}` (`card_number#2` for a second,
    ///   different value); the replay takes the value from the test. What cannot be told from
    ///   a secret (a call to a window or tool the state does not have, a field the window does
    ///   not show: refused anyway) is withheld, `{"$withheld": "password"}`.
    /// - **What is recorded**: the calls that reach the app's queue, including those refused
    ///   there (`stale_state`, `blocked_by_modal`, …), generic tools (`{id}__edit_field`,
    ///   `{id}__press`) and answers the app gives later, in the order they are answered. The
    ///   person's own gestures are the app's, not recorded; nor are reads of the state
    ///   (`app__read_windows`, `app__view_window`), nor a call whose tool name or
    ///   `expectedVersion` is malformed (refused before it reaches the app).
    /// - **Never in the UI's way**: lines go to a writer thread of their own (`egui-mcp-recorder`)
    ///   through a queue of [`RECORDING_QUEUE`](crate::limits::RECORDING_QUEUE) calls; if it is
    ///   full, the recording stops there with a last line and a warning in the log.
    /// - **Bounded**: at most [`DEFAULT_MAX_RECORDING_BYTES`](crate::limits::DEFAULT_MAX_RECORDING_BYTES)
    ///   (16 MiB; [`record_with_limit`](Self::record_with_limit) sets another); at the limit the
    ///   recording stops with a last line that says so, and a warning in the log. A replay
    ///   refuses to go past such a line.
    ///
    /// # Errors
    ///
    /// The file cannot be made or written (refused now, not when the first call comes).
    ///
    /// ```
    /// # fn main() -> std::io::Result<()> {
    /// use egui_mcp_bridge::Bridge;
    /// let path = std::env::temp_dir().join(format!("record-doc-{}.jsonl", std::process::id()));
    /// let bridge = Bridge::builder().app_name("my-app").record(&path)?.build();
    /// // … serve it, let an agent work; then `testing::Harness::replay(&path)` in a test.
    /// # drop(bridge);
    /// let first = std::fs::read_to_string(&path)?;
    /// assert!(first.starts_with(r#"{"recording":"egui_mcp_bridge","format":1,"app":"my-app""#));
    /// assert!(Bridge::builder().record("/no/such/folder/calls.jsonl").is_err(), "refused at once");
    /// # std::fs::remove_file(&path)?;
    /// # Ok(()) }
    /// ```
    pub fn record(self, path: impl AsRef<std::path::Path>) -> std::io::Result<Self> {
        self.record_with_limit(path, DEFAULT_MAX_RECORDING_BYTES)
    }

    /// [`record`](Self::record), at most `max_bytes` (at least
    /// [`MIN_RECORDING_BYTES`](crate::limits::MIN_RECORDING_BYTES)).
    ///
    /// # Errors
    ///
    /// The file cannot be made, or `max_bytes` is below the minimum.
    pub fn record_with_limit(mut self, path: impl AsRef<std::path::Path>, max_bytes: u64) -> std::io::Result<Self> {
        self.record = Some((Recorder::open(path.as_ref(), max_bytes)?, max_bytes));
        Ok(self)
    }

    /// Builds the bridge. Nothing is served until you call a `serve_*` method.
    pub fn build(self) -> Bridge {
        let header = Header {
            recording: RECORDING_KIND.to_owned(),
            format: RECORDING_FORMAT,
            app: self.config.app_name.clone(),
            app_version: self.config.app_version.clone(),
        };
        let hub = Arc::new(Hub::new(self.config));
        if let Some((file, max_bytes)) = self.record {
            match Recorder::start(file, max_bytes, &header) {
                Ok(recorder) => hub.set_recorder(recorder),
                Err(e) => tracing::error!(error = %e, "the recording could not start; calls are not recorded"),
            }
        }
        Bridge {
            core: Arc::new(UiCore::new(hub)),
            state: Arc::new(DeclareState::new(self.native_windows, self.own_window_buttons)),
            policy: Arc::new(self.policy),
            runtime: self.runtime,
            local: Arc::new(self.local),
            server: Arc::new(OnceLock::new()),
        }
    }
}
