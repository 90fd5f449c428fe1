//! Per-frame bookkeeping on the UI thread: which call is admitted, what the app declared,
//! and how a frame's declarations become the next published [`Snapshot`].

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};

use crate::hub::{ActionSpec, CallTarget, Hub, Outcome, PendingCall, Snapshot, ToolSpec};
use crate::protocol::{ErrorCode, HandleRegistry, ToolError, Window, WindowsState, operability::Topology, tool_name};

/// One action declared this frame.
#[derive(Debug)]
pub(crate) struct ActionDecl {
    pub name: String,
    pub spec: ActionSpec,
    pub schema: Arc<Map<String, Value>>,
}

/// One window declared this frame.
#[derive(Debug)]
pub(crate) struct WindowDecl {
    pub app_id: String,
    pub title: String,
    pub modal: bool,
    pub owner: Option<String>,
    pub summary: String,
    /// Hash of summary and blocks.
    pub content_hash: u64,
    /// Per block: `None` = the same as last frame's block at this position.
    pub blocks: Vec<Option<crate::protocol::Block>>,
    /// Per block: its hash, remembered for next frame.
    pub block_hashes: Vec<u64>,
    pub actions: Vec<ActionDecl>,
}

/// What the bridge remembers of a window between frames.
#[derive(Debug)]
struct WindowMemory {
    version: u64,
    content_hash: u64,
    block_hashes: Vec<u64>,
    blocks: Vec<crate::protocol::Block>,
}

#[derive(Debug, PartialEq, Eq)]
enum Phase {
    /// Validated against the last snapshot; the app has not taken it yet.
    Admitted,
    /// The app took it this frame and applied it.
    Claimed,
    /// Applied; one more frame runs so that everything it caused is declared and published.
    Settling,
}

#[derive(Debug)]
struct ActiveCall {
    call: Arc<PendingCall>,
    /// The app's id of the target window (`None` for app-level actions).
    app_id: Option<String>,
    phase: Phase,
    /// The snapshot the call was admitted against: the windows and tools before it.
    before: Arc<Snapshot>,
    outcome: Option<Outcome>,
}

/// The UI thread's state. Lives behind a short-held lock shared by the plugin and the app's
/// declaration calls; never held across ui code.
#[derive(Debug)]
pub(crate) struct FrameState {
    registry: HandleRegistry,
    memory: HashMap<String, WindowMemory>,
    pub declared: Vec<WindowDecl>,
    pub app_actions: Vec<ActionDecl>,
    active: Option<ActiveCall>,
    last: Arc<Snapshot>,
    header_hash: u64,
    tools_hash: u64,
}

impl Default for FrameState {
    fn default() -> Self {
        Self {
            registry: HandleRegistry::default(),
            memory: HashMap::new(),
            declared: Vec::new(),
            app_actions: Vec::new(),
            active: None,
            last: Arc::new(Snapshot::empty()),
            header_hash: 0,
            tools_hash: 0,
        }
    }
}

impl FrameState {
    /// Last frame's block hashes of a window, for the two-mode block builders.
    pub fn block_hashes(&self, app_id: &str) -> Vec<u64> {
        self.memory.get(app_id).map(|m| m.block_hashes.clone()).unwrap_or_default()
    }

    /// What the bridge keeps about windows: see [`crate::plugin::Footprint`].
    pub fn footprint(&self) -> super::Footprint {
        super::Footprint {
            open_windows: self.registry.open(),
            remembered_windows: self.memory.len(),
            handles_ever: self.registry.handles_ever(),
        }
    }

    /// Whether the window with this app id is blocked by a modal in the last snapshot.
    pub fn is_blocked(&self, app_id: &str) -> bool {
        self.registry.handle_of(app_id).is_some_and(|h| self.last.window_blocker(h).is_some())
    }

    /// Whether a call is admitted, or applied and not yet answered.
    pub fn has_active_call(&self) -> bool {
        self.active.is_some()
    }

    /// The external id of an open window.
    pub fn handle_of(&self, app_id: &str) -> Option<&str> {
        self.registry.handle_of(app_id)
    }

    /// Start of a root pass. Admits at most one queued call, validated against the last
    /// published snapshot. A pass that carries the person's input admits none: the person's
    /// changes take effect and are published first, and the call is then checked against them
    /// (user-first, §7.1). Returns true when another frame is wanted.
    pub fn begin_frame(&mut self, hub: &Hub, person_input: bool) -> bool {
        self.declared.clear();
        self.app_actions.clear();
        if self.active.is_some() {
            return true;
        }
        let rx = hub.call_receiver();
        if person_input {
            return !rx.is_empty();
        }
        while let Ok(call) = rx.try_recv() {
            if !call.is_pending() {
                continue; // cancelled by its timeout
            }
            if Instant::now() > call.deadline {
                call.reject(ToolError::timeout(hub.config().call_timeout));
                continue;
            }
            if let Err(e) = self.last.validate(&call) {
                call.reject(e);
                continue;
            }
            let app_id = match &call.target {
                CallTarget::App => None,
                CallTarget::Window(h) => self.registry.app_id_of(h).map(str::to_owned),
            };
            let before = Arc::clone(&self.last);
            self.active = Some(ActiveCall { call, app_id, phase: Phase::Admitted, before, outcome: None });
            return true;
        }
        false
    }

    /// The app declares `action` on window `app_id` (`None` = app-level): hands over the
    /// admitted call if it is for exactly that, and wins the claim on it.
    pub fn claim(&mut self, app_id: Option<&str>, action: &str) -> Option<Arc<PendingCall>> {
        let active = self.active.as_mut()?;
        if active.phase != Phase::Admitted || active.app_id.as_deref() != app_id || active.call.action != action {
            return None;
        }
        if active.call.try_claim() {
            active.phase = Phase::Claimed;
            Some(Arc::clone(&active.call))
        } else {
            self.active = None; // timed out meanwhile: never applied
            None
        }
    }

    /// The app rejected the arguments before applying anything: answer at once.
    pub fn reject_claimed(&mut self, call: &Arc<PendingCall>, error: ToolError) {
        if self.active.as_ref().is_some_and(|a| Arc::ptr_eq(&a.call, call)) {
            self.active = None;
        }
        call.resolve(Err(error));
    }

    /// The app's answer to the call it applied.
    pub fn set_outcome(&mut self, call: &Arc<PendingCall>, outcome: Outcome) {
        match self.active.as_mut() {
            Some(a) if Arc::ptr_eq(&a.call, call) => a.outcome = Some(outcome),
            _ => {
                tracing::warn!(tool = %call.tool_name(), "a reply came after its frame ended; it was dropped");
            }
        }
    }

    /// End of a root pass that egui will not discard: publishes, then resolves. Returns true
    /// when another frame is wanted.
    ///
    /// The pass that applied a call is not published: the app may have declared part of a
    /// window before applying the call and part after, so its declarations can mix the states
    /// before and after. The next pass declares everything after the call; that one is
    /// published, and the call resolved with it.
    pub fn end_frame(&mut self, hub: &Hub) -> bool {
        if let Some(active) = self.active.as_mut().filter(|a| a.phase == Phase::Claimed) {
            active.phase = Phase::Settling;
            return true;
        }
        let snapshot = self.build_snapshot();
        if !Arc::ptr_eq(&snapshot, &self.last) {
            self.last = Arc::clone(&snapshot);
            hub.publish(snapshot);
        }
        let Some(mut active) = self.active.take() else {
            return !hub.call_receiver().is_empty();
        };
        match active.phase {
            Phase::Admitted => {
                // Never claimed: say precisely why, against the state just published.
                let error = self.last.validate(&active.call).err().unwrap_or_else(|| {
                    ToolError::action_not_available(active.call.target.as_str(), &active.call.action)
                });
                active.call.reject(error);
                !hub.call_receiver().is_empty()
            }
            Phase::Claimed => unreachable!("handled before publishing"),
            Phase::Settling => {
                let call = &active.call;
                // A claimed call always has an outcome (a dropped `Call` sets one); this is the same
                // default should one ever be missing: never a success the app did not give.
                let outcome =
                    active.outcome.take().unwrap_or_else(|| Err(super::declare::unanswered(&call.tool_name())));
                // What is new since the call was admitted: set lookups, so that resolving a
                // call stays linear in the number of windows and tools.
                let before = &active.before;
                let old_windows: HashSet<&str> = before.state.windows.iter().map(|w| w.id.as_str()).collect();
                let old_tools: HashSet<&str> = before.tools.iter().map(|t| t.name.as_str()).collect();
                let outcome = outcome.map(|mut r| {
                    r.opened_window_ids = new_names(self.last.state.windows.iter().map(|w| &w.id), &old_windows);
                    r.new_tools = new_names(self.last.tools.iter().map(|t| &t.name), &old_tools);
                    if let CallTarget::Window(h) = &call.target {
                        r.version = self.last.window(h).map(|w| w.version);
                    }
                    r
                });
                tracing::debug!(tool = %call.tool_name(), ok = outcome.is_ok(), "call resolved");
                call.resolve(outcome);
                !hub.call_receiver().is_empty()
            }
        }
    }

    /// The app is exiting: answer everything still waiting.
    pub fn shutdown(&mut self, hub: &Hub) {
        let error = || ToolError::new(ErrorCode::ActionTimeout, "The application is shutting down");
        if let Some(a) = self.active.take() {
            match a.phase {
                Phase::Admitted => a.call.reject(error()),
                Phase::Claimed | Phase::Settling => {
                    a.call.resolve(a.outcome.unwrap_or_else(|| Err(error())));
                }
            }
        }
        for call in hub.call_receiver().try_iter() {
            call.reject(error());
        }
    }

    /// Turns this frame's declarations into a snapshot; returns the last one when nothing an
    /// agent could see has changed.
    fn build_snapshot(&mut self) -> Arc<Snapshot> {
        // One declaration per id: the first wins.
        let mut seen: HashSet<&str> = HashSet::with_capacity(self.declared.len());
        let repeated: Vec<usize> =
            (0..self.declared.len()).filter(|&i| !seen.insert(self.declared[i].app_id.as_str())).collect();
        self.registry.retire_unless(|id| seen.contains(id));
        self.memory.retain(|id, _| seen.contains(id.as_str()));
        for i in repeated.into_iter().rev() {
            let d = self.declared.remove(i);
            tracing::warn!(id = %d.app_id, "window declared twice in one frame; the second is ignored");
        }

        let topology =
            Topology::resolve(self.declared.iter().map(|d| (d.app_id.as_str(), d.modal, d.owner.as_deref())));
        let blockers = topology.blockers();
        let app_top = topology.app_modal_top();

        let mut header = DefaultHasher::new();
        for d in &self.declared {
            self.registry.assign(&d.app_id);
        }
        for (i, d) in self.declared.iter_mut().enumerate() {
            if !self.memory.contains_key(&d.app_id) {
                let new = WindowMemory {
                    version: 0,
                    content_hash: d.content_hash.wrapping_add(1),
                    block_hashes: Vec::new(),
                    blocks: Vec::new(),
                };
                self.memory.insert(d.app_id.clone(), new);
            }
            let Some(mem) = self.memory.get_mut(&d.app_id) else { continue };
            if mem.content_hash != d.content_hash {
                mem.version += 1;
                mem.content_hash = d.content_hash;
                mem.block_hashes = std::mem::take(&mut d.block_hashes);
                let old = std::mem::take(&mut mem.blocks);
                mem.blocks = d
                    .blocks
                    .drain(..)
                    .enumerate()
                    .map(|(k, b)| {
                        b.or_else(|| old.get(k).cloned())
                            .unwrap_or(crate::protocol::Block::Text { id: None, text: String::new() })
                    })
                    .collect();
            }
            let handle = self.registry.handle_of(&d.app_id).unwrap_or_default();
            (handle, mem.version, &d.title, d.modal, topology.owner(i), blockers[i]).hash(&mut header);
        }
        let header_hash = header.finish();
        let handles: Vec<&str> =
            self.declared.iter().map(|d| self.registry.handle_of(&d.app_id).unwrap_or_default()).collect();

        // Tools: hashed from their parts; the strings are built only when they changed.
        // §6: a change of the operable set is a tool-list change even when no tool comes or goes.
        let mut tools_hasher = DefaultHasher::new();
        let operable = |i: usize| blockers[i].is_none();
        for (i, d) in self.declared.iter().enumerate().filter(|(i, _)| operable(*i)) {
            handles[i].hash(&mut tools_hasher);
            for a in &d.actions {
                (&handles[i], &d.title, &a.name, &a.spec, Arc::as_ptr(&a.schema)).hash(&mut tools_hasher);
            }
        }
        if app_top.is_none() {
            for a in &self.app_actions {
                ("app", &a.name, &a.spec, Arc::as_ptr(&a.schema)).hash(&mut tools_hasher);
            }
        }
        let tools_hash = tools_hasher.finish();

        let windows_changed = header_hash != self.header_hash || self.last.windows_revision == 0;
        let tools_changed = tools_hash != self.tools_hash || self.last.tools_revision == 0;
        if !windows_changed && !tools_changed {
            return Arc::clone(&self.last);
        }
        self.header_hash = header_hash;
        self.tools_hash = tools_hash;

        let state = if windows_changed {
            WindowsState {
                operable_window_ids: (0..handles.len())
                    .filter(|&i| operable(i))
                    .map(|i| handles[i].to_owned())
                    .collect(),
                windows: self
                    .declared
                    .iter()
                    .enumerate()
                    .map(|(i, d)| {
                        let mem = &self.memory[&d.app_id];
                        Window {
                            id: handles[i].to_owned(),
                            title: d.title.clone(),
                            modal: d.modal,
                            owner_id: topology.owner(i).map(|o| handles[o].to_owned()),
                            version: mem.version,
                            summary: d.summary.clone(),
                            blocks: mem.blocks.clone(),
                        }
                    })
                    .collect(),
            }
        } else {
            self.last.state.clone()
        };
        let tools = if tools_changed {
            let mut tools = Vec::new();
            for (i, d) in self.declared.iter().enumerate().filter(|(i, _)| operable(*i)) {
                tools.extend(d.actions.iter().map(|a| tool_spec(handles[i], Some(&d.title), a)));
            }
            if app_top.is_none() {
                tools.extend(self.app_actions.iter().map(|a| tool_spec("app", None, a)));
            }
            tools
        } else {
            self.last.tools.clone()
        };
        Arc::new(Snapshot::new(
            state,
            tools,
            blockers,
            app_top,
            self.last.windows_revision + u64::from(windows_changed),
            self.last.tools_revision + u64::from(tools_changed),
        ))
    }
}

/// The names not in `old`, in order.
fn new_names<'a>(names: impl Iterator<Item = &'a String>, old: &HashSet<&str>) -> Vec<String> {
    names.filter(|n| !old.contains(n.as_str())).cloned().collect()
}

fn tool_spec(handle: &str, window_title: Option<&str>, a: &ActionDecl) -> ToolSpec {
    let title = match window_title {
        Some(w) => format!("{} · {w}", a.spec.title),
        None => a.spec.title.to_string(),
    };
    ToolSpec {
        name: tool_name(handle, &a.name),
        description: a.spec.description.as_deref().unwrap_or(&a.spec.title).to_owned(),
        title,
        input_schema: Arc::clone(&a.schema),
        hints: a.spec.hints,
    }
}
