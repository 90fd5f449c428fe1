//! The read view's bookkeeping, per pass: what the app described (as egui ids) and where its
//! declared windows' contents are, the read-only windows and blocks a look found, declared like
//! the app's, and the developer's list of undescribed widgets.

use std::hash::{Hash as _, Hasher as _};

use super::{FrameState, PassKey};
use crate::hub::UndescribedWidget;
use crate::hub::decl::{ContentHasher, WindowDecl, content_hasher};
use crate::protocol::Block;

impl FrameState {
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
    pub fn append_read_blocks(&mut self, key: PassKey, app_id: &str, blocks: &[Block]) {
        let Some(pass) = self.passes.iter_mut().rev().find(|p| p.key == key) else { return };
        let Some(decl) = pass.windows.iter_mut().find(|d| d.app_id == app_id) else { return };
        let mut h = content_hasher();
        decl.content_hash.hash(&mut h);
        for block in blocks {
            let hash = json_hash(block);
            hash.hash(&mut h);
            decl.block_hashes.truncate(decl.blocks.len());
            decl.block_hashes.push(hash);
            decl.blocks.push(Some(block.clone()));
        }
        decl.content_hash = h.finish();
    }

    /// A widget drawn in the pass under way that the app described (an egui id's value), with
    /// all it holds: left out of the developer's list of undescribed widgets.
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
            if !widgets.is_empty() {
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
        let mut decl = WindowDecl::new(window.app_id.clone());
        decl.title.clone_from(&window.title);
        decl.read_only = true;
        decl.block_hashes.clone_from(&window.block_hashes);
        decl.content_hash = window.content_hash;
        decl.summary.clone_from(&window.summary);
        decl.blocks = window.blocks.iter().cloned().map(Some).collect();
        self.declare_window(decl);
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
    pub blocks: Vec<Block>,
    block_hashes: Vec<u64>,
    content_hash: u64,
}

impl ReadOnlyWindow {
    pub fn new(app_id: String, title: String, summary: String, blocks: Vec<Block>) -> Self {
        let block_hashes: Vec<u64> = blocks.iter().map(json_hash).collect();
        let mut h = content_hasher();
        (&summary, &block_hashes).hash(&mut h);
        Self { app_id, title, summary, blocks, block_hashes, content_hash: h.finish() }
    }
}
