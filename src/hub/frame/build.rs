//! Declarations → snapshot: what a publish builds from the live viewports' declarations, and
//! the hashes that skip building when nothing an agent could see has changed, and the publish
//! that hands the snapshot over and answers the call under way.
//!
//! A snapshot shares every unchanged window with the one before, and its JSON is spliced from
//! each window's JSON, made once per change of the window: a publish after one window changed
//! serialises that window, not the whole state.

use std::hash::{Hash as _, Hasher as _};
use std::sync::Arc;

use super::{FrameState, Published, WindowMemory};
use crate::hub::Hub;
use crate::hub::decl::{ActionDecl, WindowDecl, WindowHeader, content_hasher};
use crate::hub::snapshot::{Assembled, StateJson};
use crate::hub::{Snapshot, ToolSpec, clipped};
use crate::protocol::{Block, operability::Topology, tool_name};

impl FrameState {
    /// Publishes the union of the live viewports' declarations, then answers the call under way.
    pub(super) fn publish(&mut self, hub: &Hub) {
        // Move the declarations out (first declaration of an id wins), build, move them back.
        // Each window's memory is marked as seen by this publish: a second declaration of the
        // id finds the mark, and windows left unmarked are the ones that closed.
        self.publishes += 1;
        let now = self.publishes;
        let mut taken: Vec<(usize, usize)> = Vec::with_capacity(self.committed.len());
        let mut repeated: Vec<Vec<WindowDecl>> = Vec::new();
        let mut opened = false;
        self.app_pass = None;
        for c in &mut self.committed {
            let mut kept = 0;
            let mut twice = Vec::new();
            // Drained, not taken: the vectors keep their room for the next pass.
            for d in c.windows.drain(..) {
                match self.memory.get_mut(d.app_id.as_str()) {
                    Some(m) if m.seen == now => {
                        tracing::warn!(id = %d.app_id, "window declared twice in one frame; the second is ignored");
                        twice.push(d);
                        continue;
                    }
                    Some(m) => {
                        m.seen = now;
                        m.pass = c.key;
                        if d.kept.is_some() {
                            m.kept.clone_from(&d.kept);
                        }
                    }
                    None => {
                        self.memory.insert(d.app_id.clone(), WindowMemory::new(&d, c.key, now));
                        opened = true;
                    }
                }
                self.declared.push(d);
                kept += 1;
            }
            if !c.app_actions.is_empty() && self.app_pass.is_none() {
                self.app_pass = Some(c.key);
            }
            let actions = c.app_actions.len();
            self.app_actions.append(&mut c.app_actions);
            taken.push((kept, actions));
            repeated.push(twice);
        }
        let snapshot = self.build_snapshot(opened);
        let mut windows = self.declared.drain(..);
        let mut actions = self.app_actions.drain(..);
        for ((c, (kept, n)), twice) in self.committed.iter_mut().zip(taken).zip(repeated) {
            c.windows.extend(windows.by_ref().take(kept));
            c.windows.extend(twice);
            c.app_actions.extend(actions.by_ref().take(n));
        }
        if !Arc::ptr_eq(&snapshot, &self.last) {
            self.last = Arc::clone(&snapshot);
            hub.publish(snapshot);
        }
        // Spares beyond the open windows would be held for nothing.
        self.spare.truncate(self.memory.len());
        self.calls.finish(&self.last);
    }

    /// Turns this frame's declarations into a snapshot; returns the last one when nothing an
    /// agent could see has changed. `opened`: a window is declared that was not open.
    pub(super) fn build_snapshot(&mut self, opened: bool) -> Arc<Snapshot> {
        // Every declared window's memory was marked by this publish; any other closed.
        if self.memory.len() > self.declared.len() {
            let now = self.publishes;
            self.memory.retain(|_, m| m.seen == now);
            let memory = &self.memory;
            self.registry.retire_unless(|id| memory.contains_key(id));
        }

        let topology =
            Topology::resolve(self.declared.iter().map(|d| (d.app_id.as_str(), d.modal, d.owner.as_deref())));
        let blockers = topology.blockers();
        let app_top = topology.app_modal_top();

        if opened {
            for d in &self.declared {
                if let Some(m) = self.memory.get_mut(d.app_id.as_str())
                    && m.handle.is_none()
                {
                    m.handle = Some(Arc::from(self.registry.assign(&d.app_id)));
                }
            }
        }
        let (handles, versions) = self.remember(&topology);
        let headers: Vec<WindowHeader<'_>> = self
            .declared
            .iter()
            .enumerate()
            .map(|(i, d)| WindowHeader {
                id: &handles[i],
                title: &d.title,
                modal: d.modal,
                owner_id: topology.owner(i).map(|o| &*handles[o]),
                version: versions[i],
            })
            .collect();
        let mut header = content_hasher();
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

        let (operable_ids, windows, json) = if windows_changed {
            let operable_ids: Vec<String> =
                (0..handles.len()).filter(|&i| operable(i)).map(|i| handles[i].to_string()).collect();
            let mut json = StateJson::new(&operable_ids, self.last.json.len() + 256);
            let mut windows = Vec::with_capacity(headers.len());
            for (i, d) in self.declared.iter().enumerate() {
                let Some(mem) = self.memory.get_mut(d.app_id.as_str()) else { continue };
                let blocked = blockers[i].is_some();
                self.reblocked |= mem.blocked != blocked;
                mem.blocked = blocked;
                let current = mem.changed_blocks.is_none()
                    && mem.published.as_ref().is_some_and(|p| headers[i].describes(&p.window));
                if !current {
                    let blocks = mem
                        .changed_blocks
                        .take()
                        .or_else(|| mem.published.as_ref().map(|p| p.window.blocks.clone()))
                        .unwrap_or_default();
                    let window = headers[i].to_window(&d.summary, blocks);
                    let window_json = serde_json::to_string(&window).unwrap_or_else(|_| String::from("{}"));
                    mem.published = Some(Published { window: Arc::new(window), json: window_json.into() });
                }
                if let Some(p) = &mem.published {
                    windows.push(Arc::clone(&p.window));
                    json.push(&p.json);
                }
            }
            (operable_ids, windows, Arc::new(json.finish()))
        } else {
            (self.last.operable.clone(), self.last.windows.clone(), Arc::clone(&self.last.json))
        };
        let tools = if tools_changed {
            let mut tools = Vec::new();
            for (i, d) in self.declared.iter().enumerate().filter(|(i, _)| operable(*i)) {
                tools.extend(d.actions.iter().map(|a| tool_spec(&handles[i], a)));
            }
            if app_top.is_none() {
                tools.extend(self.app_actions.iter().map(|a| tool_spec("app", a)));
            }
            tools.into()
        } else {
            Arc::clone(&self.last.tools)
        };
        Arc::new(Snapshot::assemble(Assembled {
            operable: operable_ids,
            windows,
            json,
            tools,
            blockers,
            app_blocker: app_top,
            windows_revision: self.last.windows_revision + u64::from(windows_changed),
            tools_revision: self.last.tools_revision + u64::from(tools_changed),
        }))
    }

    /// Brings each declared window's memory up to date: its version rises when its content
    /// changed, and its blocks are rebuilt from the declared ones (an unchanged block is kept).
    /// Returns each window's handle and version.
    fn remember(&mut self, topology: &Topology) -> (Vec<Arc<str>>, Vec<u64>) {
        let mut handles = Vec::with_capacity(self.declared.len());
        let mut versions = Vec::with_capacity(self.declared.len());
        for (i, d) in self.declared.iter_mut().enumerate() {
            let Some(mem) = self.memory.get_mut(d.app_id.as_str()) else {
                // Unreachable: publish gave every declared window its memory.
                handles.push(Arc::from(""));
                versions.push(0);
                continue;
            };
            // A misspelt or closed owner is loud, once per window: the window is published
            // without it (a modal one then blocks the whole app).
            if let Some(owner) = d.owner.as_deref()
                && topology.owner(i).is_none()
                && !mem.owner_warned
            {
                mem.owner_warned = true;
                let (window, owner) = (clipped(&d.app_id), clipped(owner));
                if d.modal {
                    tracing::warn!(
                        window = &*window,
                        owner = &*owner,
                        "this dialog's owner is not declared in this frame (misspelt, or closed?): it is published as an app-level modal, which blocks every window"
                    );
                } else {
                    tracing::warn!(
                        window = &*window,
                        owner = &*owner,
                        "this window's owner is not declared in this frame (misspelt, or closed?): it is published without one"
                    );
                }
            }
            // The hashes come back with each new declaration (it took them). A declaration kept
            // from an earlier publish (its viewport ran no pass since) brought them back then.
            if mem.block_hashes.is_empty() {
                mem.block_hashes = std::mem::take(&mut d.block_hashes);
            }
            if mem.content_hash != d.content_hash {
                mem.version += 1;
                mem.content_hash = d.content_hash;
                let old: &[Block] = match (&mem.changed_blocks, &mem.published) {
                    (Some(blocks), _) => blocks,
                    (None, Some(p)) => &p.window.blocks,
                    (None, None) => &[],
                };
                let blocks = d
                    .blocks
                    .drain(..)
                    .enumerate()
                    .map(|(k, b)| {
                        b.or_else(|| old.get(k).cloned()).unwrap_or(Block::Text { id: None, text: String::new() })
                    })
                    .collect();
                mem.changed_blocks = Some(blocks);
            }
            handles.push(mem.handle.clone().unwrap_or_else(|| Arc::from("")));
            versions.push(mem.version);
        }
        (handles, versions)
    }

    /// The tool list's hash, from its parts (the strings are built only when it changed).
    fn hash_tools(&self, handles: &[Arc<str>], blockers: &[Option<usize>], app_top: Option<usize>) -> u64 {
        let mut tools_hasher = content_hasher();
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
