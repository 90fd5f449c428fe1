//! The read view's bookkeeping, per pass: what the app described (as egui ids) and where its
//! declared windows' contents are, the read-only windows and blocks a look found, declared like
//! the app's, and the developer's list of undescribed widgets.

use std::hash::{Hash as _, Hasher as _};

use super::{FrameState, PassKey};
use crate::hub::UndescribedWidget;
use crate::hub::decl::{ActionDecl, ContentHasher, WindowDecl, content_hasher};
use crate::protocol::Block;

impl FrameState {
    /// Whether this frame's passes build egui's tree for the read view (the plugin decides at
    /// the frame's start): the declaration layer notes what the app described only then.
    pub fn set_looking(&mut self, on: bool) {
        self.looking = on;
    }

    /// See [`Self::set_looking`].
    pub fn looking(&self) -> bool {
        self.looking
    }

    /// What one declared window's pass described, noted at once at its end: the `Ui` holding
    /// its contents, its egui window's own node (present while it is collapsed, when its
    /// contents are not drawn), and the widgets the bridge drew in it.
    pub fn describe_window(
        &mut self,
        app_id: &str,
        content_ui: Option<u64>,
        window_node: Option<u64>,
        widgets: &[u64],
    ) {
        if let Some(id) = content_ui {
            self.describe_window_ui(id, app_id);
        }
        if let Some(id) = window_node {
            self.describe_node(id);
        }
        if let (Some(id), Some(p)) = (window_node.or(content_ui), self.passes.last_mut()) {
            p.window_nodes.push((id, app_id.to_owned()));
        }
        if let Some(p) = self.passes.last_mut() {
            p.widgets.extend_from_slice(widgets);
        }
    }

    /// Something drawn in the pass under way that the app described (an egui id's value): the
    /// read view leaves out the window or panel that holds it.
    pub fn describe_node(&mut self, id: u64) {
        if let Some(p) = self.passes.last_mut() {
            p.described.push(id);
        }
    }

    /// The `Ui` holding the contents of the declared window `app_id` in the pass under way
    /// (an egui id's value): described (see [`Self::describe_node`]), and where the read view
    /// looks for what the app drew in that window without describing it.
    pub fn describe_window_ui(&mut self, id: u64, app_id: &str) {
        if let Some(p) = self.passes.last_mut() {
            p.described.push(id);
            p.window_uis.push((id, app_id.to_owned()));
        }
    }

    /// The `Ui`s of declared windows in the pass under way of viewport `key`, with their app ids.
    pub fn window_uis(&self, key: PassKey) -> &[(u64, String)] {
        self.passes.iter().rev().find(|p| p.key == key).map_or(&[], |p| &p.window_uis)
    }

    /// Adds to the declared window `app_id`, in the pass under way of viewport `key`, blocks
    /// the read view made of what the app drew in it without describing it: after the app's
    /// own blocks, which keep their places and meaning.
    pub fn append_read_blocks(&mut self, key: PassKey, app_id: &str, read: &ReadBlocks) {
        let Some(pass) = self.passes.iter_mut().rev().find(|p| p.key == key) else { return };
        let Some(decl) = pass.windows.iter_mut().find(|d| d.app_id == app_id) else { return };
        let mut h = content_hasher();
        (decl.content_hash, &read.hashes).hash(&mut h);
        decl.content_hash = h.finish();
        let unchanged = unchanged(&self.memory, app_id, decl.content_hash);
        decl.block_hashes.truncate(decl.blocks.len());
        decl.block_hashes.extend_from_slice(&read.hashes);
        decl.blocks.extend(read.declared(unchanged));
    }

    /// A widget drawn in the pass under way that the app described (an egui id's value), with
    /// all it holds: neither read into a window's `undescribed-…` blocks nor listed as left out.
    pub fn describe_widget(&mut self, id: u64) {
        if let Some(p) = self.passes.last_mut() {
            p.widgets.push(id);
        }
    }

    /// What the pass under way of viewport `key` described so far: containers (see
    /// [`Self::describe_node`]) and widgets (see [`Self::describe_widget`]).
    pub fn described(&self, key: PassKey) -> (&[u64], &[u64]) {
        self.passes.iter().rev().find(|p| p.key == key).map_or((&[], &[]), |p| (&p.described, &p.widgets))
    }

    /// The read view's list of undescribed widgets in viewport `key`'s last kept pass; logged at
    /// debug level when it changes.
    pub fn set_undescribed(&mut self, key: PassKey, widgets: Vec<UndescribedWidget>) {
        let last = self.undescribed.entry(key).or_default();
        if *last != widgets {
            if widgets.is_empty() {
                tracing::debug!("every widget drawn is described now");
            } else {
                let first: Vec<String> = widgets.iter().take(5).map(ToString::to_string).collect();
                tracing::debug!(
                    count = widgets.len(),
                    "widgets drawn but not described (agents can read them, not use them): {}{}",
                    first.join(", "),
                    if widgets.len() > 5 { ", ..." } else { "" }
                );
            }
            *last = widgets;
        }
    }

    /// Every viewport's undescribed widgets, as the read view last saw them.
    pub fn undescribed(&self) -> Vec<UndescribedWidget> {
        self.undescribed.values().flatten().cloned().collect()
    }

    /// A window the app has not described, read from what it draws: declared like the app's,
    /// with no actions, published read-only.
    pub fn declare_read_only(&mut self, window: &ReadOnlyWindow) {
        let mut decl = Box::new(WindowDecl::new(window.app_id.clone()));
        decl.title.clone_from(&window.title);
        decl.undescribed = true;
        decl.modal = window.modal;
        match &window.actions {
            Some(actions) => decl.actions.clone_from(actions),
            None => decl.read_only = true,
        }
        decl.block_hashes.clone_from(&window.read.hashes);
        decl.content_hash = window.content_hash;
        decl.summary.clone_from(&window.summary);
        let unchanged = unchanged(&self.memory, &window.app_id, window.content_hash);
        decl.blocks = window.read.declared(unchanged).collect();
        self.declare_window(decl);
    }
}

/// Whether the window `app_id` was last published with this content: its blocks are then not
/// read (the core reuses the published ones), so they need not be copied in every pass.
fn unchanged(memory: &super::memory::Memory, app_id: &str, content_hash: u64) -> bool {
    memory.get(app_id).is_some_and(|m| m.content_hash == content_hash)
}

/// Blocks the read view made, with their hashes, made once per look and declared in each pass
/// until the next.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ReadBlocks {
    pub blocks: Vec<Block>,
    hashes: Vec<u64>,
}

impl ReadBlocks {
    pub fn new(blocks: Vec<Block>) -> Self {
        let hashes = blocks.iter().map(json_hash).collect();
        Self { blocks, hashes }
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The blocks as a declaration carries them: copies, or `None` ("as last published") when
    /// the window's content is `unchanged`.
    fn declared(&self, unchanged: bool) -> impl Iterator<Item = Option<Block>> + '_ {
        self.blocks.iter().map(move |b| (!unchanged).then(|| b.clone()))
    }
}

/// A hash of a value's JSON, written straight into the hasher (no string is made).
fn json_hash(value: &Block) -> u64 {
    struct Feed<'a>(&'a mut ContentHasher);
    impl std::io::Write for Feed<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.write(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut h = content_hasher();
    // Writing into a hasher cannot fail.
    let _ = serde_json::to_writer(Feed(&mut h), value);
    h.finish()
}

/// A window the app has not described, as the read view last saw it: declared again in each
/// pass until the next look (which costs egui a pass's worth, so it is not taken in each).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ReadOnlyWindow {
    pub app_id: String,
    pub title: String,
    pub summary: String,
    pub read: ReadBlocks,
    /// An `egui::Modal`: blocks the whole app while open.
    pub modal: bool,
    /// Its generic tools, when agents may operate it (`None`: read-only).
    pub actions: Option<Vec<ActionDecl>>,
    content_hash: u64,
}

impl ReadOnlyWindow {
    pub fn new(
        app_id: String,
        title: String,
        summary: String,
        blocks: Vec<Block>,
        modal: bool,
        actions: Option<Vec<ActionDecl>>,
    ) -> Self {
        let read = ReadBlocks::new(blocks);
        let mut h = content_hasher();
        (&summary, &read.hashes).hash(&mut h);
        Self { app_id, title, summary, read, modal, actions, content_hash: h.finish() }
    }
}
