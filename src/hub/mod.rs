//! The bridge core: the one state shared by the UI thread and the MCP server, and the UI
//! thread's bookkeeping (versions, ids, the call state machine, declarations → snapshot).
//!
//! # Model
//!
//! - The UI thread (the egui plugin) is the only writer. After each frame it publishes an
//!   immutable [`Snapshot`] (each window's JSON serialised once per version; the whole is
//!   joined on a reader's thread when first read) through [`Hub::publish`], which
//!   also wakes every watcher: that is how the server learns it must notify its clients.
//! - Server tasks read the latest snapshot ([`Hub::snapshot`]) and submit calls
//!   ([`Hub::call`]). A call goes onto a channel, the UI thread is woken, and the call's future
//!   completes when the UI thread resolves it after the frame that applied it was published.
//! - A call that waits past the budget ends with `action_timeout`. An atomic claim makes sure
//!   it is then never applied: the UI thread applies a call only if it wins that claim. A call
//!   the app deferred (to answer on a later pass) ends so too if the app has not answered it by
//!   then, and the app's later answer is dropped.
//!
//! - Between passes the UI thread keeps, behind [`UiCore`]'s short-held lock, what makes a
//!   snapshot out of declarations: window versions, external ids never reused ([`frame`]),
//!   and the one call under way ([`phase`]).
//!
//! # The life of one call, file by file
//!
//! 1. `server/handler.rs` (`call_tool`): the client's request; a dispatcher's goes through
//!    `server/bridge_tools.rs` to the same path. An HTTP client that leaves ends the wait
//!    (`server/http_layers.rs`, `ClientLeft`).
//! 2. `hub/submit.rs` ([`Hub::call_as`], [`Hub::submit_as`]): checked against the last snapshot
//!    (`hub/snapshot.rs`, `Snapshot::validate`) and its arguments bounded (`hub/limits.rs`),
//!    then queued as a [`PendingCall`] (`hub/call.rs`: the atomic claim) and the UI woken.
//! 3. `plugin/mod.rs` (`input_hook`) → `hub/frame.rs` (`FrameState::begin_pass`) →
//!    `hub/phase.rs` (`CallSlot::admit`): admitted and armed for the pass that declares its
//!    window; an action that asks the person waits in `hub/approvals.rs` first.
//! 4. `declare/describe.rs` (`ForAgents::action`, `WindowUi::offer` in `declare/window.rs`): the app declares the action, wins the claim,
//!    gets the parsed arguments (`hub/args.rs`) as a `Press` (`declare/press.rs`) and answers it,
//!    or keeps it to answer on a later pass (`Press::defer`, `hub/phase/deferred.rs`).
//! 5. `plugin/mod.rs` (`output_hook`) → `hub/frame.rs` (`build.rs`): the pass after it is
//!    published; the call is resolved with its version, opened windows and new tools
//!    (`hub/phase.rs`, settle).
//! 6. `server/connections.rs`: the calling connection's notifications are written, then
//!    `server/handler.rs` writes the result (`server/result.rs`, `call_result`).
//!
//! With a recording (`BridgeBuilder::record`), step 2 also takes what the call's line needs
//! (its arguments with secrets replaced, the window's version, the client's name;
//! `hub/record.rs`), and the call's one answer, wherever it is given (`PendingCall::send`),
//! hands the line to the recorder's writer thread.
//!
//! # The life of one form field, file by file
//!
//! 1. `declare/form.rs` (`WindowUi::form` → `Form::edit`): the app's field in a pass, its
//!    rules an `Input` (`declare/input.rs`, `input/rules.rs`) and its value any type that is
//!    `Editable` (`declare/editable.rs`). The window's first form claims an agent's
//!    `edit_field` call, once a pass (`declare/edit_action.rs`, `claim_edit`; several fields
//!    are checked there together, by the rules kept from the last declaration).
//! 2. Still in `Form::edit`, before the person's widget is drawn: the agent's value for this
//!    field, if any, is checked as the widget would hold it (`declare/check.rs`) and written into
//!    the app's value (`Editable::set`); then the widget is drawn (`declare/form/layout.rs`).
//! 3. `Form::declare_editable`: the field's item (label, value as agents read it, `key`,
//!    `disabled`, masked when secret) goes into the window's declaration (`hub/decl.rs`,
//!    `DeclaredBlocks`), and its key and rules into the window's list of editable fields.
//! 4. `declare/edit_action.rs` (`finish_edits`, at the window's end): the `edit_field` action
//!    is declared from that list (its schema and description made once per set of fields), and
//!    a call that named no field is refused, naming the keys.
//! 5. `hub/frame.rs` (`build.rs`): the window's blocks become a `protocol::windows::Window`,
//!    its version moves if what it shows changed, and its JSON is made once per version
//!    (`hub/snapshot.rs`, `hub/chunked.rs`): what `app://windows` serves.
//!
//! This module knows neither egui nor rmcp.

mod action;
mod activity;
mod agents;
mod approvals;
mod args;
mod call;
mod chunked;
pub(crate) mod decl;
pub(crate) mod frame;
pub(crate) mod limits;
pub(crate) mod phase;
pub(crate) mod picture;
mod record;
mod snapshot;
mod submit;
mod ui_core;
mod undescribed;

pub(crate) use action::add_expected_version;
pub use action::{ActionSpec, Hints, NoArgs, SafetyClass};
pub(crate) use activity::ActivityLog;
pub use activity::{ACTIVITY_CAPACITY, ActivityRecord, ConnectionEvent};
use agents::Looks;
pub use agents::{READ_VIEW_EVERY, ReadView};
pub use approvals::Approval;
pub(crate) use args::parse_args;
pub use call::Outcome;
pub(crate) use call::{CallTarget, ClientId, PendingCall};
pub use decl::AgentAction;
pub use frame::Footprint;
pub use limits::{
    DEFAULT_MAX_STRING_CHARS, MAX_NAMED_ERRORS, MAX_VIEW_BYTES, MAX_VIEW_SIDE, MIN_VIEW_INTERVAL, VIEW_WINDOW_WAIT,
};
pub(crate) use limits::{check_arguments, clipped, clipped_to};
pub use phase::{MAX_DEFERRED_CALLS, MAX_DEFERRED_PER_CONNECTION};
pub(crate) use record::Recorder;
pub use record::{DEFAULT_MAX_RECORDING_BYTES, MIN_RECORDING_BYTES, RECORDED_SECRETS, RECORDING_QUEUE};
pub use snapshot::{Snapshot, ToolSpec};
#[cfg(feature = "testing")]
pub(crate) use submit::Ticket;
pub(crate) use ui_core::UiCore;
pub use undescribed::UndescribedWidget;

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::watch;

/// The longest tool name looked up, in bytes (MCP's own limit for names is 128 characters,
/// which its allowed characters make bytes); a longer one is refused without being repeated in
/// the error or any log line.
pub const MAX_TOOL_NAME: usize = 128;

/// How the UI thread is woken; installed by the plugin.
pub(crate) type Waker = Arc<dyn Fn() + Send + Sync>;

/// Static facts about the application and the bridge's budgets.
#[derive(Clone, Debug)]
pub(crate) struct HubConfig {
    /// Server name announced at `initialize`.
    pub app_name: String,
    /// Server version announced at `initialize`.
    pub app_version: String,
    /// App-specific notes appended to the protocol's instructions text.
    pub instructions: Option<String>,
    /// How long a call may wait for the UI before it ends with `action_timeout`.
    pub call_timeout: Duration,
    /// The longest string an argument may hold, anywhere in it, unless the action's schema
    /// gives the parameter its own `maxLength` (default [`DEFAULT_MAX_STRING_CHARS`]).
    pub max_string_chars: usize,
    /// Whether doc comments on argument fields become `description`s in input schemas.
    pub parameter_docs: bool,
    /// Whether actions marked [`ActionSpec::ask_person`] wait for the person's approval.
    pub approvals: bool,
    /// Whether windows the app has not described are published, read from egui's
    /// accessibility tree (the read view), and whether agents may operate them.
    pub read_view: ReadView,
}

impl Default for HubConfig {
    fn default() -> Self {
        Self {
            app_name: "egui app".to_owned(),
            app_version: "0.0.0".to_owned(),
            instructions: None,
            call_timeout: Duration::from_secs(10),
            max_string_chars: DEFAULT_MAX_STRING_CHARS,
            parameter_docs: true,
            approvals: true,
            read_view: ReadView::Operate,
        }
    }
}

/// The shared state: latest snapshot, call queue, wake-up hook.
pub(crate) struct Hub {
    config: HubConfig,
    snapshot: watch::Sender<Arc<Snapshot>>,
    calls_tx: crossbeam_channel::Sender<Arc<PendingCall>>,
    calls_rx: crossbeam_channel::Receiver<Arc<PendingCall>>,
    waker: Mutex<Option<Waker>>,
    activity: Arc<ActivityLog>,
    /// Whether calls to actions that ask the person wait for them (set from the config, and
    /// by the app when it learns whether a person is there).
    approvals: std::sync::atomic::AtomicBool,
    /// When an agent last initialized, listed tools, read the state or called (milliseconds
    /// since `born`, 0 = never): the read view
    /// is built only while agents are about.
    agent_seen: std::sync::atomic::AtomicU64,
    /// The read view's looks at egui's tree that were published, and when the last was.
    looks: watch::Sender<Looks>,
    /// How many looks were published when an agent last arrived (after a quiet
    /// [`AGENT_AWAY`](agents::AGENT_AWAY)): until one more is, reads wait for it ([`Hub::look_for_read`]).
    looks_at_arrival: std::sync::atomic::AtomicU64,
    born: std::time::Instant,
    /// `Some` once the UI side is gone for good ([`UiCore`] dropped: every `Bridge` clone and
    /// the plugin): whether the app exited first (its context's `on_exit` ran).
    ui_gone: watch::Sender<Option<bool>>,
    /// The input schemas of the actions' argument types, made once per type for this bridge.
    schemas: action::Schemas,
    /// Pictures of windows (`app__view_window`): whose turn, and the request for the UI.
    pictures: picture::Pictures,
    /// Where every answered call is recorded, if the app records them.
    recorder: std::sync::OnceLock<Arc<Recorder>>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub").field("config", &self.config).finish_non_exhaustive()
    }
}

impl Hub {
    /// A hub with an empty snapshot.
    pub fn new(config: HubConfig) -> Self {
        let (calls_tx, calls_rx) = crossbeam_channel::unbounded();
        Self {
            snapshot: watch::Sender::new(Arc::new(Snapshot::empty())),
            calls_tx,
            calls_rx,
            waker: Mutex::new(None),
            activity: Arc::default(),
            approvals: std::sync::atomic::AtomicBool::new(config.approvals),
            agent_seen: std::sync::atomic::AtomicU64::new(0),
            looks: watch::Sender::new(Looks::default()),
            looks_at_arrival: std::sync::atomic::AtomicU64::new(0),
            born: std::time::Instant::now(),
            ui_gone: watch::Sender::new(None),
            schemas: action::Schemas::default(),
            pictures: picture::Pictures::default(),
            recorder: std::sync::OnceLock::new(),
            config,
        }
    }

    /// The UI side is gone for good (`exited`: after the app's exit): nothing will answer a call
    /// again. Calls queued now, and any submitted from now on, end with "shutting down".
    pub fn set_ui_gone(&self, exited: bool) {
        self.ui_gone.send_replace(Some(exited));
        self.reject_queued();
    }

    /// Whether the UI side is gone for good.
    pub fn is_ui_gone(&self) -> bool {
        self.ui_gone.borrow().is_some()
    }

    /// Resolves once the UI side is gone for good: whether the app exited first.
    pub async fn ui_gone(&self) -> bool {
        let mut rx = self.ui_gone.subscribe();
        match rx.wait_for(Option::is_some).await {
            Ok(gone) => gone.unwrap_or(false),
            // The hub itself is going: so is everything that waits on it.
            Err(_) => false,
        }
    }

    /// Answers every queued call with "shutting down".
    pub fn reject_queued(&self) {
        for call in self.calls_rx.try_iter() {
            call.reject(crate::protocol::ToolError::app_exiting());
        }
        self.reject_picture();
    }

    /// Milliseconds since the hub was made: what `agent_seen` holds (0 is "never").
    fn millis(&self) -> u64 {
        u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether calls to actions that ask the person wait for their approval.
    pub fn approvals(&self) -> bool {
        self.approvals.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Turns the waiting for the person's approval on or off.
    pub fn set_approvals(&self, on: bool) {
        self.approvals.store(on, std::sync::atomic::Ordering::Release);
        self.wake();
    }

    /// Records every call answered from now on (set once, when the bridge is built).
    pub fn set_recorder(&self, recorder: Arc<Recorder>) {
        let _ = self.recorder.set(recorder);
    }

    /// Waits, at most `timeout`, until every call answered so far is written to the
    /// recording: whether it is (true without a recording).
    pub fn flush_recording(&self, timeout: Duration) -> bool {
        self.recorder.get().is_none_or(|r| r.flush(timeout))
    }

    /// The connection `client` said which client it is: a recording names it so.
    pub fn name_client(&self, client: ClientId, name: &str) {
        if let Some(r) = self.recorder.get() {
            r.name_client(client, name);
        }
    }

    /// The configuration.
    pub fn config(&self) -> &HubConfig {
        &self.config
    }

    /// The input schema of the argument type `A` (made once per type, kept by this hub), with
    /// an optional integer `expectedVersion` when `with_version`, the fields' doc comments as
    /// `description`s when the config's `parameter_docs` says so.
    pub fn input_schema<A: schemars::JsonSchema + 'static>(
        &self,
        with_version: bool,
    ) -> Arc<serde_json::Map<String, serde_json::Value>> {
        self.schemas.of::<A>(with_version, self.config.parameter_docs)
    }

    /// Recent calls and their outcomes (tool names and codes only).
    pub fn activity(&self) -> &ActivityLog {
        &self.activity
    }

    /// The latest published snapshot.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.snapshot.borrow())
    }

    /// Waits (at most the call budget) until the UI published its first frame, so that a client
    /// that connects while the app starts up does not see an empty app.
    pub async fn first_frame(&self) {
        let mut rx = self.snapshot.subscribe();
        let first = rx.wait_for(|s| s.windows_revision > 0);
        if tokio::time::timeout(self.config.call_timeout, first).await.is_err() {
            tracing::warn!("the UI has not published a frame yet; answering with an empty state");
        }
    }

    /// A receiver that sees every published snapshot (coalesced: only the latest counts).
    pub fn watch(&self) -> watch::Receiver<Arc<Snapshot>> {
        self.snapshot.subscribe()
    }

    /// Publishes a new snapshot. Called by the UI thread after a frame, never blocks.
    pub fn publish(&self, snapshot: Arc<Snapshot>) {
        self.snapshot.send_replace(snapshot);
    }

    /// Installs the function that wakes the UI thread.
    pub fn set_waker(&self, waker: Option<Waker>) {
        *self.waker.lock() = waker;
    }

    /// Wakes the UI thread (if a plugin is installed).
    pub fn wake(&self) {
        let waker = self.waker.lock().clone();
        if let Some(wake) = waker {
            wake();
        }
    }

    /// The UI side of the call queue.
    pub fn call_receiver(&self) -> &crossbeam_channel::Receiver<Arc<PendingCall>> {
        &self.calls_rx
    }

    /// Number of calls waiting for the UI thread.
    pub fn queued_calls(&self) -> usize {
        self.calls_rx.len()
    }
}

#[cfg(test)]
mod tests;
