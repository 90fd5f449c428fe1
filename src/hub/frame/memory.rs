//! What the bridge remembers of each open window between passes.

use std::sync::Arc;

use indexmap::IndexMap;

use crate::hub::decl::{Kept, Slot, WindowDecl};
use crate::hub::phase::PassKey;
use crate::protocol::{Block, Window};

/// What the bridge remembers of an open window between passes.
#[derive(Debug)]
pub(super) struct WindowMemory {
    pub(super) version: u64,
    pub(super) content_hash: u64,
    pub(super) block_hashes: Vec<u64>,
    /// Blocks rebuilt because the content changed, until the window is published with them.
    pub(super) changed_blocks: Option<Vec<Block>>,
    /// The window as last published, and its JSON: reused by every snapshot while its header
    /// is the same, so that a publish serialises only the windows that changed.
    pub(super) published: Option<Published>,
    /// Its external id (assigned when it opened).
    pub(super) handle: Option<Arc<str>>,
    /// A dialog blocked it in the last published snapshot.
    pub(super) blocked: bool,
    /// The viewport whose pass declared it last.
    pub(super) pass: PassKey,
    /// The publish that last saw it declared (a second declaration in it is ignored; a window
    /// not seen closed).
    pub(super) seen: u64,
    /// Its missing owner was logged (once per window).
    pub(super) owner_warned: bool,
    /// What its last declaration kept for the next ([`WindowDecl::kept`]).
    pub(super) kept: Option<Kept>,
    /// Its last declaration's [`WindowDecl::fingerprint`] and its place in the list published
    /// with it: when neither changed for any window, the publish has nothing to build.
    pub(super) declared: (u64, usize),
}

/// A window as published, with its JSON (`serde_json::to_string` of it).
#[derive(Debug)]
pub(super) struct Published {
    pub(super) window: Arc<Window>,
    /// Its header's hash ([`crate::hub::decl::WindowHeader::hash_alone`]).
    pub(super) header: u64,
    pub(super) json: Arc<str>,
}

impl WindowMemory {
    /// A window first declared in the publish `seen`, by the pass of `pass`.
    pub(super) fn new(decl: &WindowDecl, pass: PassKey, seen: u64) -> Self {
        Self {
            version: 0,
            // Differs from the declared hash, so that the first publish counts as a change.
            content_hash: decl.content_hash.wrapping_add(1),
            block_hashes: Vec::new(),
            changed_blocks: None,
            published: None,
            handle: None,
            blocked: false,
            pass,
            seen,
            owner_warned: false,
            kept: decl.kept.clone(),
            declared: (0, usize::MAX),
        }
    }
}

/// The open windows' memory, by app id, in the order they opened (hashed with foldhash rather
/// than std's `SipHash`: app ids come from the app, not from agents).
///
/// A pass declares the windows in much the same order every time, so each is found by id once
/// (when its declaration starts, [`Memory::find`]) and then by its [`Slot`]: the publish walks
/// the memory in order instead of hashing every id three more times and jumping about, which
/// grew faster than the windows (cache misses) at thousands of them.
#[derive(Debug, Default)]
pub(crate) struct Memory {
    windows: IndexMap<String, WindowMemory, foldhash::fast::RandomState>,
    /// Bumped whenever windows are forgotten (the places after theirs move): a [`Slot`] taken
    /// before is then worth nothing, and the window is found by id.
    layout: u64,
}

impl Memory {
    pub(super) fn len(&self) -> usize {
        self.windows.len()
    }

    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }

    pub(super) fn contains_key(&self, app_id: &str) -> bool {
        self.windows.contains_key(app_id)
    }

    pub(super) fn get(&self, app_id: &str) -> Option<&WindowMemory> {
        self.windows.get(app_id)
    }

    /// The window's memory by id, and its slot for the lookups after.
    pub(super) fn find(&mut self, app_id: &str) -> Option<(Slot, &mut WindowMemory)> {
        let layout = self.layout;
        self.windows.get_full_mut(app_id).map(|(index, _, m)| (Slot { index, layout }, m))
    }

    /// Whether `slot` is still good: no window was forgotten since it was taken.
    pub(super) fn holds(&self, slot: Slot) -> bool {
        slot.layout == self.layout
    }

    /// [`Self::find`], at `slot` when it is still good: the declaration that brings it was
    /// this window's (the id hashed, the key read, only when it was not).
    pub(super) fn locate(&mut self, slot: Option<Slot>, app_id: &str) -> Option<(Slot, &mut WindowMemory)> {
        match slot {
            Some(s) if self.holds(s) => {
                let (id, m) = self.windows.get_index_mut(s.index)?;
                debug_assert_eq!(id.as_str(), app_id, "a slot of the same layout holds the same window");
                Some((s, m))
            }
            _ => self.find(app_id),
        }
    }

    /// The window's memory, at `slot` when it is still good, else by id.
    pub(super) fn at(&mut self, slot: Option<Slot>, app_id: &str) -> Option<&mut WindowMemory> {
        self.locate(slot, app_id).map(|(_, m)| m)
    }

    /// Remembers a window that opened: last in the order, so no slot moves.
    pub(super) fn insert(&mut self, app_id: String, memory: WindowMemory) -> Slot {
        let (index, _) = self.windows.insert_full(app_id, memory);
        Slot { index, layout: self.layout }
    }

    /// Forgets the windows `keep` says no to, keeping the others' order.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&WindowMemory) -> bool) {
        let before = self.windows.len();
        self.windows.retain(|_, m| keep(m));
        if self.windows.len() != before {
            self.layout += 1;
        }
    }
}
