//! Declarations → snapshot: what a publish builds from the live viewports' declarations, and
//! the hashes that skip building when nothing an agent could see has changed, and the publish
//! that hands the snapshot over and answers the call under way.
//!
//! A snapshot shares every unchanged window with the one before, and its JSON is made of each
//! window's JSON, made once per change of the window: a publish after one window changed
//! serialises that window, not the whole state. When only windows' content changed (the
//! usual change: a value typed, a row added), the publish does nothing for the other windows
//! ([`FrameState::content_only`]): the lists are shared in chunks, and the header hash is a sum
//! that two terms update.

use std::hash::{Hash as _, Hasher as _};
use std::sync::Arc;

use super::FrameState;
use super::memory::{Memory, Published, WindowMemory};
use crate::hub::Hub;
use crate::hub::chunked::Chunked;
use crate::hub::decl::{ActionDecl, WindowDecl, WindowHeader, content_hasher, hash_actions};
use crate::hub::snapshot::{Assembled, StateJson};
use crate::hub::{Snapshot, ToolSpec, clipped};
use crate::protocol::{Block, Window, operability::Topology, tool_name};

impl FrameState {
    /// Publishes the union of the live viewports' declarations, then answers the call under way.
    pub(super) fn publish(&mut self, hub: &Hub) {
        self.publishes += 1;
        self.app_pass = None;
        let (taken, opened, same) = self.take_declarations();
        // Every window declared as last time, at its place, none opened or closed: nothing an
        // agent could see changed but the content of those in `content_changed`, if any (the
        // usual pass, at any number of windows).
        let settled = same && !opened && self.memory.len() == self.declared.len() && self.last.windows_revision > 0;
        let snapshot = match (settled, self.content_changed.is_empty()) {
            (true, true) => Arc::clone(&self.last),
            (true, false) => self.content_only(),
            (false, _) => self.build_snapshot(opened),
        };
        self.give_back(taken);
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
        self.forget_closed();
        let topology =
            Topology::resolve(self.declared.iter().map(|d| (d.app_id.as_str(), d.modal, d.owner.as_deref())));
        let blockers = topology.blockers();
        let app_top = topology.app_modal_top();
        if opened {
            self.assign_handles();
        }
        let (handles, versions) = self.remember(&topology);
        let headers = headers(&self.declared, &handles, &versions, &topology);
        let header_hashes: Vec<u64> = headers.iter().map(WindowHeader::hash_alone).collect();
        let header_hash = (header_hashes.iter().zip(&blockers).enumerate())
            .fold(0u64, |sum, (i, (h, b))| sum.wrapping_add(header_term(i, *h, *b)));
        // §6: a change of the operable set is a tool-list change even when no tool comes or goes.
        let tools_hash = self.hash_tools(&handles, &blockers, app_top);
        let windows_changed = header_hash != self.header_hash || self.last.windows_revision == 0;
        let tools_changed = tools_hash != self.tools_hash || self.last.tools_revision == 0;
        if !windows_changed && !tools_changed {
            return Arc::clone(&self.last);
        }
        self.header_hash = header_hash;
        self.tools_hash = tools_hash;
        let (operable, windows, json) = if windows_changed {
            let operable = operable(
                &self.declared,
                (&handles, &blockers),
                &self.last,
                (&mut self.operable_json, &mut self.operable_hash),
            );
            let (windows, pieces, reblocked) =
                published(&self.declared, &mut self.memory, (&headers, &header_hashes), &blockers);
            self.reblocked |= reblocked;
            let json = StateJson::new(Arc::clone(&self.operable_json), pieces);
            (operable, Chunked::new(windows), Arc::new(json))
        } else {
            (self.last.operable.clone(), self.last.windows.clone(), Arc::clone(&self.last.json))
        };
        let tools =
            if tools_changed { self.tool_list(&handles, &blockers, app_top) } else { Arc::clone(&self.last.tools) };
        Arc::new(Snapshot::assemble(Assembled {
            operable,
            windows,
            json,
            tools,
            blockers: blockers.into(),
            app_blocker: app_top,
            windows_revision: self.last.windows_revision + u64::from(windows_changed),
            tools_revision: self.last.tools_revision + u64::from(tools_changed),
        }))
    }

    /// Publishes again the windows in `content_changed`, whose content alone changed since the
    /// last publish (their places, headers and actions, the other windows and the app's actions
    /// are as they were): each at its next version, serialised, in the last snapshot's lists
    /// (which share every chunk that holds none of them), with the last blocking and tools.
    fn content_only(&mut self) -> Arc<Snapshot> {
        let last = Arc::clone(&self.last);
        let mut windows = Vec::with_capacity(self.content_changed.len());
        let mut pieces = Vec::with_capacity(self.content_changed.len());
        for &i in &self.content_changed {
            let (Some(d), Some(old)) = (self.declared.get_mut(i), last.windows.get(i)) else { continue };
            let Some(mem) = self.memory.at(d.slot, d.app_id.as_str()) else { continue };
            let Some(before) = mem.published.as_ref().map(|p| p.header) else { continue };
            mem.version += 1;
            mem.content_hash = d.content_hash;
            let blocks = changed_blocks(d, mem);
            // The title, owner and the rest are as published (the window's fingerprint says so).
            let header = WindowHeader {
                id: &old.id,
                title: &d.title,
                modal: d.modal,
                owner_id: old.owner_id.as_deref(),
                version: mem.version,
                read_only: d.read_only,
                undescribed: d.undescribed,
            };
            let hash = header.hash_alone();
            let blocker = last.blockers.get(i).copied().flatten();
            self.header_hash = self
                .header_hash
                .wrapping_sub(header_term(i, before, blocker))
                .wrapping_add(header_term(i, hash, blocker));
            let window = Arc::new(header.to_window(&d.summary, blocks));
            let json: Arc<str> = serde_json::to_string(&*window).map_or_else(|_| Arc::from("{}"), Arc::from);
            mem.published = Some(Published { window: Arc::clone(&window), header: hash, json: Arc::clone(&json) });
            windows.push((i, window));
            pieces.push((i, json));
        }
        Arc::new(Snapshot::assemble(Assembled {
            operable: Arc::clone(&last.operable),
            windows: last.windows.with_replaced(windows),
            json: Arc::new(last.json.with_replaced(pieces)),
            tools: Arc::clone(&last.tools),
            blockers: Arc::clone(&last.blockers),
            app_blocker: last.app_blocker,
            windows_revision: last.windows_revision + 1,
            tools_revision: last.tools_revision,
        }))
    }

    /// Every declared window's memory was marked by this publish; any other closed: forgotten,
    /// and its handle retired (never handed out again).
    fn forget_closed(&mut self) {
        if self.memory.len() > self.declared.len() {
            let now = self.publishes;
            self.memory.retain(|m| m.seen == now);
            let memory = &mut self.memory;
            self.registry.retire_unless(|id| memory.contains_key(id));
            // The places after a forgotten window's moved.
            for d in &mut self.declared {
                d.slot = memory.find(&d.app_id).map(|(slot, _)| slot);
            }
        }
    }

    /// Each window that opened gets its handle.
    fn assign_handles(&mut self) {
        for d in &self.declared {
            if let Some(m) = self.memory.at(d.slot, d.app_id.as_str())
                && m.handle.is_none()
            {
                m.handle = Some(Arc::from(self.registry.assign(&d.app_id)));
            }
        }
    }

    /// Brings each declared window's memory up to date: its version rises when its content
    /// changed, and its blocks are rebuilt from the declared ones (an unchanged block is kept).
    /// Returns each window's handle and version.
    fn remember(&mut self, topology: &Topology) -> (Vec<Arc<str>>, Vec<u64>) {
        let mut handles = Vec::with_capacity(self.declared.len());
        let mut versions = Vec::with_capacity(self.declared.len());
        for (i, d) in self.declared.iter_mut().enumerate() {
            let Some(mem) = self.memory.at(d.slot, d.app_id.as_str()) else {
                // Unreachable: publish gave every declared window its memory.
                handles.push(Arc::from(""));
                versions.push(0);
                continue;
            };
            if topology.owner(i).is_none() {
                warn_missing_owner(d, mem);
            }
            if mem.content_hash != d.content_hash {
                mem.version += 1;
                mem.content_hash = d.content_hash;
                mem.changed_blocks = Some(changed_blocks(d, mem));
            }
            handles.push(mem.handle.clone().unwrap_or_else(|| Arc::from("")));
            versions.push(mem.version);
        }
        (handles, versions)
    }

    /// The tools of the operable windows and, unless an app-level modal is open, the app's.
    fn tool_list(&self, handles: &[Arc<str>], blockers: &[Option<usize>], app_top: Option<usize>) -> Arc<[ToolSpec]> {
        let mut tools = Vec::new();
        for (i, d) in self.declared.iter().enumerate().filter(|(i, _)| blockers[*i].is_none()) {
            tools.extend(d.actions.iter().map(|a| tool_spec(&handles[i], a)));
        }
        if app_top.is_none() {
            tools.extend(self.app_actions.iter().map(|a| tool_spec("app", a)));
        }
        tools.into()
    }

    /// The tool list's hash, from its parts (the strings are built only when it changed).
    fn hash_tools(&self, handles: &[Arc<str>], blockers: &[Option<usize>], app_top: Option<usize>) -> u64 {
        let mut tools_hasher = content_hasher();
        for (i, d) in self.declared.iter().enumerate().filter(|(i, d)| blockers[*i].is_none() && !d.read_only) {
            // The actions' own hash, found when they were taken for this publish.
            (&handles[i], d.actions_hash).hash(&mut tools_hasher);
        }
        if app_top.is_none() {
            "app".hash(&mut tools_hasher);
            hash_actions(&self.app_actions, &mut tools_hasher);
        }
        tools_hasher.finish()
    }
}

/// The windows as published now and the state's JSON spliced from theirs: a window whose
/// header or blocks changed is made (and serialised) again, the others are reused. Each
/// window's memory learns whether a dialog blocks it; true with the rest when that changed for
/// any of them.
fn published(
    declared: &[Box<WindowDecl>],
    memory: &mut Memory,
    (headers, header_hashes): (&[WindowHeader<'_>], &[u64]),
    blockers: &[Option<usize>],
) -> (Vec<Arc<Window>>, Vec<Arc<str>>, bool) {
    let mut windows = Vec::with_capacity(headers.len());
    let mut json = Vec::with_capacity(headers.len());
    let mut reblocked = false;
    for (i, d) in declared.iter().enumerate() {
        let Some(mem) = memory.at(d.slot, d.app_id.as_str()) else { continue };
        let blocked = blockers[i].is_some();
        reblocked |= mem.blocked != blocked;
        mem.blocked = blocked;
        let header = header_hashes[i];
        let current = mem.changed_blocks.is_none() && mem.published.as_ref().is_some_and(|p| p.header == header);
        if !current {
            let blocks = mem
                .changed_blocks
                .take()
                .or_else(|| mem.published.as_ref().map(|p| p.window.blocks.clone()))
                .unwrap_or_default();
            let window = headers[i].to_window(&d.summary, blocks);
            let window_json = serde_json::to_string(&window).unwrap_or_else(|_| String::from("{}"));
            mem.published = Some(Published { window: Arc::new(window), header, json: window_json.into() });
        }
        if let Some(p) = &mem.published {
            windows.push(Arc::clone(&p.window));
            json.push(Arc::clone(&p.json));
        }
    }
    (windows, json, reblocked)
}

/// The operable windows' ids: the last snapshot's when they are the same (a publish after one
/// window changed then makes no string per window); when they are not, their JSON is written
/// to `json` for the state, and their hash to `hash`. Compared by hash: the last snapshot's
/// strings are not read again.
fn operable(
    declared: &[Box<WindowDecl>],
    (handles, blockers): (&[Arc<str>], &[Option<usize>]),
    last: &Snapshot,
    (json, hash): (&mut Arc<str>, &mut u64),
) -> Arc<[String]> {
    let ids = (0..handles.len()).filter(|&i| blockers[i].is_none() && !declared[i].read_only).map(|i| &*handles[i]);
    let mut h = content_hasher();
    let mut count = 0usize;
    for id in ids.clone() {
        id.hash(&mut h);
        count += 1;
    }
    count.hash(&mut h);
    let ids_hash = h.finish();
    if ids_hash == *hash && count == last.operable.len() {
        return Arc::clone(&last.operable);
    }
    let operable: Arc<[String]> = ids.map(str::to_owned).collect();
    *json = serde_json::to_string(&*operable).map_or_else(|_| Arc::from("[]"), Arc::from);
    *hash = ids_hash;
    operable
}

/// A misspelt or closed owner is loud, once per window: the window is published without it (a
/// modal one then blocks the whole app).
fn warn_missing_owner(d: &WindowDecl, mem: &mut WindowMemory) {
    let Some(owner) = d.owner.as_deref() else { return };
    if std::mem::replace(&mut mem.owner_warned, true) {
        return;
    }
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

/// The blocks of a window whose content changed: each declared one, or the one it had at that
/// place where the declaration kept it (unchanged).
fn changed_blocks(d: &mut WindowDecl, mem: &WindowMemory) -> Vec<Block> {
    let old: &[Block] = match (&mem.changed_blocks, &mem.published) {
        (Some(blocks), _) => blocks,
        (None, Some(p)) => &p.window.blocks,
        (None, None) => &[],
    };
    d.blocks.take_over(old)
}

/// Window `i`'s term of the state's header hash (a sum of terms, so that a publish that changes
/// a few windows updates it by theirs): its header's hash and its blocker.
fn header_term(i: usize, header: u64, blocker: Option<usize>) -> u64 {
    let mut h = content_hasher();
    (i, header, blocker).hash(&mut h);
    h.finish()
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

/// Each declared window's published header: its handle, version and owner's handle.
fn headers<'a>(
    declared: &'a [Box<WindowDecl>],
    handles: &'a [Arc<str>],
    versions: &[u64],
    topology: &Topology,
) -> Vec<WindowHeader<'a>> {
    declared
        .iter()
        .enumerate()
        .map(|(i, d)| WindowHeader {
            id: &handles[i],
            title: &d.title,
            modal: d.modal,
            owner_id: topology.owner(i).map(|o| &*handles[o]),
            version: versions[i],
            read_only: d.read_only,
            undescribed: d.undescribed,
        })
        .collect()
}
