//! Declarations → snapshot: what a publish builds from the live viewports' declarations, and
//! the hashes that skip building when nothing an agent could see has changed.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::sync::Arc;

use super::{FrameState, WindowMemory};
use crate::hub::decl::{ActionDecl, WindowHeader};
use crate::hub::snapshot::SnapshotParts;
use crate::hub::{Snapshot, ToolSpec};
use crate::protocol::{Block, WindowsState, operability::Topology, tool_name};

impl FrameState {
    /// Turns this frame's declarations into a snapshot; returns the last one when nothing an
    /// agent could see has changed.
    pub(super) fn build_snapshot(&mut self) -> Arc<Snapshot> {
        let seen: HashSet<&str> = self.declared.iter().map(|d| d.app_id.as_str()).collect();
        self.registry.retire_unless(|id| seen.contains(id));
        self.memory.retain(|id, _| seen.contains(id.as_str()));

        let topology =
            Topology::resolve(self.declared.iter().map(|d| (d.app_id.as_str(), d.modal, d.owner.as_deref())));
        let blockers = topology.blockers();
        let app_top = topology.app_modal_top();

        for d in &self.declared {
            self.registry.assign(&d.app_id);
        }
        self.remember(&topology);
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

        // §6: a change of the operable set is a tool-list change even when no tool comes or goes.
        let operable = |i: usize| blockers[i].is_none();
        let tools_hash = self.hash_tools(&handles, &blockers, app_top);

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
                tools.extend(d.actions.iter().map(|a| tool_spec(handles[i], a)));
            }
            if app_top.is_none() {
                tools.extend(self.app_actions.iter().map(|a| tool_spec("app", a)));
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

    /// Brings each declared window's memory up to date: its version rises when its content
    /// changed, and its blocks are rebuilt from the declared ones (an unchanged block is kept).
    fn remember(&mut self, topology: &Topology) {
        for (i, d) in self.declared.iter_mut().enumerate() {
            let mem = self.memory.entry(d.app_id.clone()).or_insert_with(|| WindowMemory {
                version: 0,
                content_hash: d.content_hash.wrapping_add(1),
                block_hashes: Vec::new(),
                blocks: Vec::new(),
                owner_warned: false,
            });
            // A misspelt or closed owner is loud, once per window: the window is published
            // without it (a modal one then blocks the whole app).
            if let Some(owner) = d.owner.as_deref()
                && topology.owner(i).is_none()
                && !mem.owner_warned
            {
                mem.owner_warned = true;
                let clip = |s: &str| s.chars().take(64).collect::<String>();
                let (window, owner) = (clip(&d.app_id), clip(owner));
                if d.modal {
                    tracing::warn!(
                        window,
                        owner,
                        "this dialog's owner is not declared in this frame (misspelt, or closed?): it is published as an app-level modal, which blocks every window"
                    );
                } else {
                    tracing::warn!(
                        window,
                        owner,
                        "this window's owner is not declared in this frame (misspelt, or closed?): it is published without one"
                    );
                }
            }
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
    }

    /// The tool list's hash, from its parts (the strings are built only when it changed).
    fn hash_tools(&self, handles: &[&str], blockers: &[Option<usize>], app_top: Option<usize>) -> u64 {
        let mut tools_hasher = DefaultHasher::new();
        for (i, d) in self.declared.iter().enumerate().filter(|(i, _)| blockers[*i].is_none()) {
            handles[i].hash(&mut tools_hasher);
            for a in &d.actions {
                (&handles[i], &a.name, &a.spec, Arc::as_ptr(&a.schema)).hash(&mut tools_hasher);
            }
        }
        if app_top.is_none() {
            for a in &self.app_actions {
                ("app", &a.name, &a.spec, Arc::as_ptr(&a.schema)).hash(&mut tools_hasher);
            }
        }
        tools_hasher.finish()
    }
}

/// A tool entry. Its title is the action's title alone (§5.2's human-readable title): the
/// window is in the name and in the state, and a host sends every entry with every turn, so
/// repeating the window's title on each of its tools costs bytes and says nothing new.
fn tool_spec(handle: &str, a: &ActionDecl) -> ToolSpec {
    ToolSpec {
        name: tool_name(handle, &a.name),
        description: a.spec.description.as_deref().unwrap_or(&a.spec.title).to_owned(),
        title: a.spec.title.to_string(),
        input_schema: Arc::clone(&a.schema),
        hints: a.spec.hints,
        ask_person: a.spec.ask_person,
    }
}
