//! One published state of the app: what `app://windows` and `tools/list` show.

use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::{Map, Value};

use super::action::Hints;
use super::call::{CallTarget, PendingCall};
use super::chunked::Chunked;
use crate::protocol::{ToolError, Window, WindowsState};

/// One entry of `tools/list`.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    /// `{winId}__{action}`.
    pub name: String,
    /// Human-readable title: the action's title alone (the window is in the name and the state).
    pub title: String,
    /// One line on what it does.
    pub description: String,
    /// JSON Schema of the arguments (an object schema).
    pub input_schema: Arc<Map<String, Value>>,
    /// Annotations.
    pub hints: Hints,
    /// An agent's call waits for the person's approval.
    pub ask_person: bool,
}

/// An immutable, self-consistent published state of the app, with its JSON serialised once:
/// what `app://windows` and `tools/list` show. Only the UI thread makes them, after a pass.
///
/// Its windows are shared with the snapshots before and after it while they do not change, and
/// its JSON is joined from each window's JSON, made once per window version: a pass that
/// changes one window of many serialises that one. The joining is left to the first reader
/// (a server thread), so that the UI thread's publish does not copy every window's JSON.
#[derive(Debug)]
pub struct Snapshot {
    /// `operableWindowIds`: shared with the snapshot before while it is the same.
    pub(crate) operable: Arc<[String]>,
    /// `windows`, in their published order, in chunks shared with the snapshot before.
    pub(crate) windows: Chunked<Arc<Window>>,
    /// Shared with the snapshot before while the windows are the same.
    pub(crate) json: Arc<StateJson>,
    pub(crate) tools: Arc<[ToolSpec]>,
    /// For each of `windows`: the index of the window that blocks it, if any.
    pub(crate) blockers: Arc<[Option<usize>]>,
    /// The window on top of the app-level modals, if one is open.
    pub(crate) app_blocker: Option<usize>,
    pub(crate) windows_revision: u64,
    pub(crate) tools_revision: u64,
    /// The state as one owned document, made on first use of [`Snapshot::state`].
    state: OnceLock<WindowsState>,
    /// The state as a JSON value, made on first use (for tools that return the state).
    value: OnceLock<Value>,
}

/// What a [`Snapshot`] is made of, by name.
#[derive(Debug)]
pub(crate) struct SnapshotParts {
    pub state: WindowsState,
    pub tools: Vec<ToolSpec>,
    pub blockers: Vec<Option<usize>>,
    pub app_blocker: Option<usize>,
    pub windows_revision: u64,
    pub tools_revision: u64,
}

/// A [`Snapshot`] made of windows already serialised: the UI thread's publish.
#[derive(Debug)]
pub(crate) struct Assembled {
    pub operable: Arc<[String]>,
    pub windows: Chunked<Arc<Window>>,
    /// The state these windows make, as JSON ([`StateJson`]).
    pub json: Arc<StateJson>,
    pub tools: Arc<[ToolSpec]>,
    pub blockers: Arc<[Option<usize>]>,
    pub app_blocker: Option<usize>,
    pub windows_revision: u64,
    pub tools_revision: u64,
}

/// The state as serde sees a [`WindowsState`] (same fields, same order), borrowed from a
/// snapshot's windows, so that its JSON value needs no owned copy of the state.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StateView<'a> {
    operable_window_ids: &'a [String],
    windows: Vec<&'a Window>,
}

/// The state's JSON, made of each window's own JSON and joined on first read: byte for byte
/// what `serde_json::to_string(&WindowsState)` gives (compact, fields in declaration order), so
/// a window's JSON can be made once per version and shared by every snapshot until it changes.
#[derive(Debug, Default)]
pub(crate) struct StateJson {
    /// `operableWindowIds`, as JSON.
    operable: Arc<str>,
    /// Each window's JSON, in order, in chunks shared with the state before.
    windows: Chunked<Arc<str>>,
    joined: OnceLock<String>,
}

impl StateJson {
    /// A document of the operable ids `operable` (their JSON, kept from one publish to the next
    /// while they are the same) and each window's JSON (`serde_json::to_string(&Window)`).
    pub fn new(operable: Arc<str>, windows: Vec<Arc<str>>) -> Self {
        Self { operable, windows: Chunked::new(windows), joined: OnceLock::new() }
    }

    /// This document with the JSON of the windows at the places in `changes` replaced (in
    /// increasing order of place).
    pub fn with_replaced(&self, changes: impl IntoIterator<Item = (usize, Arc<str>)>) -> Self {
        Self {
            operable: Arc::clone(&self.operable),
            windows: self.windows.with_replaced(changes),
            joined: OnceLock::new(),
        }
    }

    /// A document already whole.
    fn whole(json: String) -> Self {
        Self { joined: OnceLock::from(json), ..Self::default() }
    }

    /// The whole document, joined on the first call.
    pub fn get(&self) -> &str {
        self.joined.get_or_init(|| {
            const OPEN: &str = "{\"operableWindowIds\":";
            const WINDOWS: &str = ",\"windows\":[";
            let len = self.windows.iter().map(|w| w.len() + 1).sum::<usize>();
            let mut out = String::with_capacity(OPEN.len() + self.operable.len() + WINDOWS.len() + len + 2);
            out.push_str(OPEN);
            out.push_str(&self.operable);
            out.push_str(WINDOWS);
            for (k, w) in self.windows.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                out.push_str(w);
            }
            out.push_str("]}");
            out
        })
    }

    /// Window `k`'s JSON as it is shared.
    #[cfg(test)]
    pub fn window(&self, k: usize) -> Option<&Arc<str>> {
        self.windows.get(k)
    }
}

impl Snapshot {
    /// No windows, no tools.
    pub(crate) fn empty() -> Self {
        Self::new(SnapshotParts {
            state: WindowsState::default(),
            tools: Vec::new(),
            blockers: Vec::new(),
            app_blocker: None,
            windows_revision: 0,
            tools_revision: 0,
        })
    }

    /// A snapshot of a whole state; serialises it once.
    pub(crate) fn new(parts: SnapshotParts) -> Self {
        let SnapshotParts { state, tools, blockers, app_blocker, windows_revision, tools_revision } = parts;
        let json = serde_json::to_string(&state).unwrap_or_else(|_| String::from("{}"));
        let WindowsState { operable_window_ids, windows } = state;
        Self::assemble(Assembled {
            operable: operable_window_ids.into(),
            windows: Chunked::new(windows.into_iter().map(Arc::new).collect()),
            json: Arc::new(StateJson::whole(json)),
            tools: tools.into(),
            blockers: blockers.into(),
            app_blocker,
            windows_revision,
            tools_revision,
        })
    }

    /// A snapshot of windows already serialised.
    pub(crate) fn assemble(parts: Assembled) -> Self {
        let Assembled { operable, windows, json, tools, blockers, app_blocker, windows_revision, tools_revision } =
            parts;
        Self {
            operable,
            windows,
            json,
            tools,
            blockers,
            app_blocker,
            windows_revision,
            tools_revision,
            state: OnceLock::new(),
            value: OnceLock::new(),
        }
    }

    /// The `app://windows` document.
    ///
    /// Made on first use: the bridge itself reads the shared windows and the JSON.
    pub fn state(&self) -> &WindowsState {
        self.state.get_or_init(|| WindowsState {
            operable_window_ids: self.operable.to_vec(),
            windows: self.windows.iter().map(|w| Window::clone(w)).collect(),
        })
    }

    /// The state as compact JSON: exactly what `resources/read` serves.
    pub fn json(&self) -> &str {
        self.json.get()
    }

    /// The tools agents can call now: those of operable windows and, unless an app-level modal
    /// is open, the app's.
    pub fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }

    /// Rises by one whenever the state changes (a `resources/updated`); 0 before the first frame.
    pub fn windows_revision(&self) -> u64 {
        self.windows_revision
    }

    /// Rises by one whenever the tool list changes (a `tools/list_changed`).
    pub fn tools_revision(&self) -> u64 {
        self.tools_revision
    }

    /// The state as a JSON value, made once per snapshot. Its keys keep the order of `json`, so
    /// serialising it again gives the same bytes.
    pub(crate) fn state_value(&self) -> &Value {
        self.value.get_or_init(|| {
            let view =
                StateView { operable_window_ids: &self.operable, windows: self.windows.iter().map(|w| &**w).collect() };
            serde_json::to_value(&view).unwrap_or_default()
        })
    }

    /// The tool with this name, if listed.
    pub fn tool(&self, name: &str) -> Option<&ToolSpec> {
        self.tools.iter().find(|t| t.name == name)
    }

    fn window_index(&self, handle: &str) -> Option<usize> {
        self.windows.iter().position(|w| w.id == handle)
    }

    /// The window on top that blocks `handle` (or the app, for `app`), if any.
    pub(crate) fn blocker_of(&self, target: &CallTarget) -> Option<&Window> {
        match target {
            CallTarget::App => self.app_blocker.map(|i| &*self.windows[i]),
            CallTarget::Window(h) => self.window_blocker(h),
        }
    }

    /// The window on top that blocks the window with this external id, if any.
    pub fn window_blocker(&self, handle: &str) -> Option<&Window> {
        self.window_index(handle).and_then(|i| self.blockers[i]).map(|i| &*self.windows[i])
    }

    /// Whether this call may be applied to this state: the window exists and is operable,
    /// the action is listed, of the class of the dispatcher it came through (if any), and
    /// `expectedVersion` (for non-read-only actions) is current.
    pub(crate) fn validate(&self, call: &PendingCall) -> Result<(), ToolError> {
        let win = match &call.target {
            CallTarget::App => None,
            CallTarget::Window(h) => Some(self.window(h).ok_or_else(|| ToolError::window_not_found(h))?),
        };
        if let Some(b) = self.blocker_of(&call.target) {
            return Err(ToolError::blocked(call.target.as_str(), &b.id, &b.title));
        }
        let name = call.tool_name();
        let tool =
            self.tool(&name).ok_or_else(|| ToolError::action_not_available(call.target.as_str(), &call.action))?;
        let class = super::SafetyClass::of(tool.hints);
        if call.class.is_some_and(|through| through != class) {
            let dispatcher = crate::protocol::tool_name(crate::protocol::APP_TARGET, class.dispatcher_action());
            return Err(ToolError::invalid_field(
                "tool",
                format!("{name} is {}: call it through {dispatcher}", class.describe()),
            ));
        }
        if let (Some(win), Some(expected), false) = (win, call.expected_version, tool.hints.read_only)
            && expected != win.version
        {
            return Err(ToolError::stale(expected, win.version));
        }
        Ok(())
    }

    /// The window with this external id.
    pub fn window(&self, handle: &str) -> Option<&Window> {
        self.windows.iter().find(|w| w.id == handle).map(|w| &**w)
    }

    /// The windows, in their published order.
    pub(crate) fn windows(&self) -> impl Iterator<Item = &Window> {
        self.windows.iter().map(|w| &**w)
    }
}
