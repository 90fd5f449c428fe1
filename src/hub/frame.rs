//! The UI thread's bookkeeping between passes: window versions and external ids, the call
//! slot, and how a pass's declarations become the next published [`Snapshot`].

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::sync::Arc;
use std::time::Instant;

use super::decl::{ActionDecl, AgentAction, WindowDecl, WindowHeader};
use super::phase::{AfterPass, CallSlot};
use super::snapshot::SnapshotParts;
use super::{Hub, Outcome, PendingCall, Snapshot, ToolSpec};
use crate::protocol::{Block, HandleRegistry, ToolError, WindowsState, operability::Topology, tool_name};

/// What the bridge remembers of an open window between passes.
#[derive(Debug)]
struct WindowMemory {
    version: u64,
    content_hash: u64,
    block_hashes: Vec<u64>,
    blocks: Vec<Block>,
    /// The agent's last applied call on it.
    agent: Option<AgentAction>,
}

/// What the bridge keeps about windows, for tests and monitoring: memory must stay flat however
/// many windows an app opens and closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// Windows open in the last published frame.
    pub open_windows: usize,
    /// Windows whose version and blocks the bridge remembers (only the open ones).
    pub remembered_windows: usize,
    /// Handles ever handed out: the one thing kept per closed window, 8 bytes each, so that no
    /// id is ever reused.
    pub handles_ever: usize,
}

/// The UI thread's state. Lives behind a short-held lock shared by the plugin and the app's
/// declaration calls; never held across ui code.
#[derive(Debug)]
pub(crate) struct FrameState {
    registry: HandleRegistry,
    memory: HashMap<String, WindowMemory>,
    pub declared: Vec<WindowDecl>,
    pub app_actions: Vec<ActionDecl>,
    calls: CallSlot,
    /// The app id and action title of the call claimed in this pass (for [`AgentAction`]).
    claimed: Option<(Option<String>, String, String)>,
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
            calls: CallSlot::default(),
            claimed: None,
            last: Arc::new(Snapshot::empty()),
            header_hash: 0,
            tools_hash: 0,
        }
    }
}

impl FrameState {
    /// Last pass's block hashes of a window, for the two-mode block builders.
    pub fn block_hashes(&self, app_id: &str) -> Vec<u64> {
        self.memory.get(app_id).map(|m| m.block_hashes.clone()).unwrap_or_default()
    }

    /// What the bridge keeps about windows.
    pub fn footprint(&self) -> Footprint {
        Footprint {
            open_windows: self.registry.open(),
            remembered_windows: self.memory.len(),
            handles_ever: self.registry.handles_ever(),
        }
    }

    /// Whether the window with this app id is blocked by a modal in the last snapshot.
    pub fn is_blocked(&self, app_id: &str) -> bool {
        self.registry.handle_of(app_id).is_some_and(|h| self.last.window_blocker(h).is_some())
    }

    /// The agent's last applied call on this window, while it is open.
    pub fn agent_action(&self, app_id: &str) -> Option<&AgentAction> {
        self.memory.get(app_id).and_then(|m| m.agent.as_ref())
    }

    /// Whether a call is admitted, or applied and not yet answered.
    pub fn has_active_call(&self) -> bool {
        self.calls.is_busy()
    }

    /// The external id of an open window.
    pub fn handle_of(&self, app_id: &str) -> Option<&str> {
        self.registry.handle_of(app_id)
    }

    /// Start of a pass. Admits at most one queued call (see [`CallSlot::admit`]); a pass that
    /// carries the person's input admits none (user-first, §7.1). Returns true when another
    /// pass is wanted.
    pub fn begin_frame(&mut self, hub: &Hub, person_input: bool) -> bool {
        self.declared.clear();
        self.app_actions.clear();
        let registry = &self.registry;
        let active = self.calls.admit(hub.call_receiver(), &self.last, person_input, hub.config().call_timeout, |h| {
            registry.app_id_of(h).map(str::to_owned)
        });
        active || (person_input && !hub.call_receiver().is_empty())
    }

    /// The app declares `action` (titled `title`) on window `app_id` (`None` = app-level): hands
    /// over the admitted call if it is for exactly that, and wins the claim on it.
    pub fn claim(&mut self, app_id: Option<&str>, action: &str, title: &str) -> Option<Arc<PendingCall>> {
        let call = self.calls.claim(app_id, action)?;
        self.claimed = Some((app_id.map(str::to_owned), action.to_owned(), title.to_owned()));
        Some(call)
    }

    /// The app rejected the arguments before applying anything: answer at once.
    pub fn reject_claimed(&mut self, call: &Arc<PendingCall>, error: ToolError) {
        self.claimed = None;
        self.calls.reject_claimed(call, error);
    }

    /// The app's answer to the call it applied.
    pub fn set_outcome(&mut self, call: &Arc<PendingCall>, outcome: Outcome) {
        if let Some((Some(app_id), action, title)) = self.claimed.take()
            && let Some(mem) = self.memory.get_mut(&app_id)
        {
            mem.agent = Some(AgentAction { action, title, ok: outcome.is_ok(), at: Instant::now() });
        }
        self.calls.set_outcome(call, outcome);
    }

    /// End of a pass that egui will not discard: publishes, then answers. Returns true when
    /// another pass is wanted. The pass that applied a call is not published (see
    /// [`super::phase`]); the next one is.
    pub fn end_frame(&mut self, hub: &Hub) -> bool {
        if self.calls.after_pass() == AfterPass::Settle {
            return true;
        }
        let snapshot = self.build_snapshot();
        if !Arc::ptr_eq(&snapshot, &self.last) {
            self.last = Arc::clone(&snapshot);
            hub.publish(snapshot);
        }
        self.calls.finish(&self.last);
        !hub.call_receiver().is_empty()
    }

    /// The app is exiting: answer everything still waiting.
    pub fn shutdown(&mut self, hub: &Hub) {
        self.calls.shutdown();
        for call in hub.call_receiver().try_iter() {
            call.reject(super::phase::shutting_down());
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

        for d in &self.declared {
            self.registry.assign(&d.app_id);
        }
        for d in &mut self.declared {
            let mem = self.memory.entry(d.app_id.clone()).or_insert_with(|| WindowMemory {
                version: 0,
                content_hash: d.content_hash.wrapping_add(1),
                block_hashes: Vec::new(),
                blocks: Vec::new(),
                agent: None,
            });
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
                        b.or_else(|| old.get(k).cloned()).unwrap_or(Block::Text { id: None, text: String::new() })
                    })
                    .collect();
            }
        }
        let handles: Vec<&str> =
            self.declared.iter().map(|d| self.registry.handle_of(&d.app_id).unwrap_or_default()).collect();
        let headers: Vec<WindowHeader<'_>> = self
            .declared
            .iter()
            .enumerate()
            .map(|(i, d)| WindowHeader {
                id: handles[i],
                title: &d.title,
                modal: d.modal,
                owner_id: topology.owner(i).map(|o| handles[o]),
                version: self.memory.get(&d.app_id).map_or(0, |m| m.version),
            })
            .collect();
        let mut header = DefaultHasher::new();
        (&headers, &blockers).hash(&mut header);
        let header_hash = header.finish();

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
                        let blocks = self.memory.get(&d.app_id).map_or(&[][..], |m| &m.blocks[..]);
                        headers[i].to_window(&d.summary, blocks)
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
        Arc::new(Snapshot::new(SnapshotParts {
            state,
            tools,
            blockers,
            app_blocker: app_top,
            windows_revision: self.last.windows_revision + u64::from(windows_changed),
            tools_revision: self.last.tools_revision + u64::from(tools_changed),
        }))
    }
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
