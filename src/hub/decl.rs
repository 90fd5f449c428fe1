//! What the app declared in one pass, as the core keeps it: windows, their blocks and actions.

use std::hash::{BuildHasher as _, Hash as _, Hasher as _};
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};

use super::action::ActionSpec;
use crate::protocol::{Block, Window};

/// What hashes declarations in every pass (blocks, headers, tool lists): foldhash, several
/// times faster than std's `SipHash` on the many short writes a block makes, with the same 64
/// bits. The hashes only detect change within one process, so a fixed seed is enough.
pub(crate) type ContentHasher = foldhash::quality::FoldHasher<'static>;

/// A fresh [`ContentHasher`].
pub(crate) fn content_hasher() -> ContentHasher {
    foldhash::quality::FixedState::default().build_hasher()
}

/// One action declared in this pass.
#[derive(Clone, Debug)]
pub(crate) struct ActionDecl {
    pub name: String,
    pub spec: ActionSpec,
    pub schema: Arc<Map<String, Value>>,
}

/// The same action: the same name and spec, and the very schema (schemas are made once per
/// argument type and shared).
impl PartialEq for ActionDecl {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.spec == other.spec && Arc::ptr_eq(&self.schema, &other.schema)
    }
}

/// One window declared in this pass.
#[derive(Clone, Debug)]
pub(crate) struct WindowDecl {
    pub app_id: String,
    pub title: String,
    pub modal: bool,
    /// The app id of the owner (window-level modals only).
    pub owner: Option<String>,
    pub summary: String,
    /// Hash of summary and blocks: when it changes, the version rises.
    pub content_hash: u64,
    /// Its blocks: how many, and those that are not the same as last pass's at their place.
    pub blocks: DeclaredBlocks,
    /// Per block: its hash, remembered for the next pass.
    pub block_hashes: Vec<u64>,
    pub actions: Vec<ActionDecl>,
    /// What the declaration layer keeps about the window from one declaration to the next (the
    /// rules of its editable fields), opaque here: given back by `FrameState::window_start`.
    pub kept: Option<Kept>,
    /// No tools, never operable: a window the read view publishes read-only.
    pub read_only: bool,
    /// Not described by the app: read from what it draws (the read view).
    pub undescribed: bool,
    /// Emptied strings of the actions of a declaration this one replaced, for its actions'
    /// names ([`Self::action_name`]): a pass that declares what the last one did allocates none.
    pub names: Vec<String>,
    /// Where its window's memory is, found when the declaration started: the publish then
    /// looks it up by place, not by id.
    pub slot: Option<Slot>,
    /// A hash of all of the declaration that reaches the published state beside its summary and
    /// blocks (which `content_hash` stands for): its header's parts and its actions. Equal in
    /// two passes, with the window at the same place, they publish the same window but for its
    /// content ([`Self::find_fingerprint`], when the declaration is handed in).
    pub fingerprint: u64,
    /// Its actions' hash, for the tool list's ([`Self::find_fingerprint`]).
    pub actions_hash: u64,
    /// Made in its window's first pass, among the allocations of the window's first blocks
    /// (see `FrameState::recycle`, which makes such a declaration again before it is reused).
    pub first: bool,
}

/// Where a window's memory was when its declaration started (the frame's `Memory::find`): good
/// until windows are forgotten, which the layout tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub index: usize,
    pub layout: u64,
}

/// Something the declaration layer keeps per window between passes (see [`WindowDecl::kept`]).
pub(crate) type Kept = Arc<dyn std::any::Any + Send + Sync>;

impl WindowDecl {
    /// An empty declaration, titled with its id until the app gives a title.
    pub fn new(app_id: String) -> Self {
        Self {
            title: app_id.clone(),
            app_id,
            modal: false,
            owner: None,
            summary: String::new(),
            content_hash: 0,
            blocks: DeclaredBlocks::default(),
            block_hashes: Vec::new(),
            actions: Vec::new(),
            kept: None,
            read_only: false,
            undescribed: false,
            names: Vec::new(),
            slot: None,
            fingerprint: 0,
            actions_hash: 0,
            first: false,
        }
    }

    /// Empties the declaration for another window to fill, keeping its buffers: its strings and
    /// vectors keep their room, its actions' names go to [`Self::names`].
    pub fn empty(&mut self) {
        self.app_id.clear();
        self.title.clear();
        self.modal = false;
        self.owner = None;
        self.summary.clear();
        self.content_hash = 0;
        self.blocks.clear();
        self.block_hashes.clear();
        self.names.extend(self.actions.drain(..).map(|a| a.name));
        self.kept = None;
        self.read_only = false;
        self.undescribed = false;
        self.slot = None;
        self.fingerprint = 0;
        self.actions_hash = 0;
        self.first = false;
    }

    /// Finds [`Self::fingerprint`] and [`Self::actions_hash`]: once the declaration is made,
    /// while what they hash is still in the cache (a publish reading each window's title and
    /// actions again was cache misses at thousands of windows).
    pub fn find_fingerprint(&mut self) {
        let mut actions = content_hasher();
        hash_actions(&self.actions, &mut actions);
        self.actions_hash = actions.finish();
        let mut h = content_hasher();
        let header = (&self.title, self.modal, &self.owner, self.read_only, self.undescribed);
        (header, self.actions_hash).hash(&mut h);
        self.fingerprint = h.finish();
    }

    /// `name` in a string of [`Self::names`] when there is one, so that it is not allocated again.
    pub fn action_name(&mut self, name: &str) -> String {
        let mut s = self.names.pop().unwrap_or_default();
        s.clear();
        s.push_str(name);
        s
    }
}

/// Hashes what of `actions` reaches the tool list: names, specs and (the very) schemas.
pub(crate) fn hash_actions(actions: &[ActionDecl], h: &mut ContentHasher) {
    for a in actions {
        (&a.name, &a.spec, Arc::as_ptr(&a.schema)).hash(h);
    }
}

/// A window's blocks as a pass declares them: how many, and only the ones that differ from
/// last pass's at their place (built; the others are "as last published"). A pass in which
/// nothing changed then writes a count per window, not a slot per block, and emptying the
/// declaration touches nothing (at 10,000 windows, clearing a slot per block was a tenth of
/// the bridge's pass).
#[derive(Clone, Debug, Default)]
pub(crate) struct DeclaredBlocks {
    len: usize,
    /// `(place, block)`, in the order of their places.
    changed: Vec<(usize, Block)>,
}

impl DeclaredBlocks {
    /// How many blocks were declared.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Declared none.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The next block: `None` when it is the same as last pass's at this place.
    pub fn push(&mut self, block: Option<Block>) {
        if let Some(b) = block {
            self.changed.push((self.len, b));
        }
        self.len += 1;
    }

    pub fn clear(&mut self) {
        self.len = 0;
        self.changed.clear();
    }

    /// The whole list: each declared block, or `old`'s at its place where it was the same (an
    /// empty text where `old` has none). Leaves this empty.
    pub fn take_over(&mut self, old: &[Block]) -> Vec<Block> {
        let mut changed = self.changed.drain(..).peekable();
        let blocks = (0..self.len)
            .map(|k| match changed.next_if(|(at, _)| *at == k) {
                Some((_, b)) => b,
                None => old.get(k).cloned().unwrap_or(Block::Text { id: None, text: String::new() }),
            })
            .collect();
        drop(changed);
        self.len = 0;
        blocks
    }
}

impl Extend<Option<Block>> for DeclaredBlocks {
    fn extend<I: IntoIterator<Item = Option<Block>>>(&mut self, blocks: I) {
        for b in blocks {
            self.push(b);
        }
    }
}

impl FromIterator<Option<Block>> for DeclaredBlocks {
    fn from_iter<I: IntoIterator<Item = Option<Block>>>(blocks: I) -> Self {
        let mut all = Self::default();
        all.extend(blocks);
        all
    }
}

/// A window's published header: hashed every pass to see whether the state changed (and
/// whether the window's published JSON still stands for it), and the same value turned into
/// the published [`Window`]. Both directions are checked by the compiler (a derived `Hash`,
/// a destructuring into a struct literal), so a field cannot be published without being
/// hashed, or hashed without being published.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) struct WindowHeader<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub modal: bool,
    pub owner_id: Option<&'a str>,
    pub version: u64,
    pub read_only: bool,
    pub undescribed: bool,
}

impl WindowHeader<'_> {
    /// This header's own hash: the same as the published window's when it was published with
    /// this header (and so, at this version, with the summary and blocks it stands for), which
    /// can then be published again as it is. Compared, not the window's strings: at thousands
    /// of windows, reading each published title and id again was a tenth of a publish.
    pub fn hash_alone(&self) -> u64 {
        let mut h = content_hasher();
        self.hash(&mut h);
        h.finish()
    }

    /// The published window: this header, with the summary and blocks its version stands for.
    pub fn to_window(self, summary: &str, blocks: Vec<Block>) -> Window {
        let WindowHeader { id, title, modal, owner_id, version, read_only, undescribed } = self;
        Window {
            id: id.to_owned(),
            title: title.to_owned(),
            modal,
            owner_id: owner_id.map(str::to_owned),
            version,
            summary: summary.to_owned(),
            blocks,
            read_only,
            undescribed,
        }
    }
}

/// An agent's most recent call that a window's action applied: for the person's view (a
/// highlight, an "Agent: …" line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentAction {
    /// The action's name, as in the tool name (`edit_field`).
    pub action: String,
    /// The action's title, for a person (`Edit field`).
    pub title: String,
    /// Whether the app answered with success (while [`waiting`](Self::waiting): true).
    pub ok: bool,
    /// The app took the call and will answer it on a later pass, once the effect is in place
    /// ([`crate::Deferred`]): the agent waits ("Agent: Connect (waiting)").
    pub waiting: bool,
    /// When the app answered (or took the call it answers later).
    pub at: Instant,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> Block {
        Block::Text { id: None, text: t.to_owned() }
    }

    #[test]
    fn declared_blocks_keep_the_old_ones_where_nothing_changed() {
        let mut blocks: DeclaredBlocks = [None, Some(text("b2")), None, Some(text("d2"))].into_iter().collect();
        assert_eq!(blocks.len(), 4);
        let all = blocks.take_over(&[text("a"), text("b"), text("c"), text("d"), text("e")]);
        assert_eq!(all, [text("a"), text("b2"), text("c"), text("d2")], "the fifth is no longer declared");
        assert!(blocks.is_empty(), "taken over: empty for the next pass");
        blocks.extend([None, None]);
        assert_eq!(blocks.take_over(&[text("a")]), [text("a"), text("")], "nothing old at a place: an empty text");
    }
}
