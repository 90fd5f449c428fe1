//! Declarations reuse what the last pass's left: a window's declaration takes its last block
//! hashes from the window's memory (for the two-mode block builders), and the emptied vectors
//! of declarations a pass replaced, so that a pass allocates and frees little.

use super::{FrameState, PassDecls};
use crate::hub::decl::{ActionDecl, WindowDecl};
use crate::protocol::Block;

/// The emptied vectors of a declaration its viewport replaced, for the next one to fill.
#[derive(Debug)]
pub(super) struct Spare {
    pub blocks: Vec<Option<Block>>,
    pub block_hashes: Vec<u64>,
    pub actions: Vec<ActionDecl>,
}

impl FrameState {
    /// What declaring a window needs of its memory, in one lookup: last pass's block hashes
    /// (into `decl.block_hashes`), for the two-mode block builders; returns whether it is
    /// blocked ([`Self::is_blocked`]). The declaration also gets emptied vectors of a replaced
    /// one to fill, when there are any.
    ///
    /// The hashes are taken, not copied: the declaration brings its own back at the publish. A
    /// second declaration before that (a pass egui discards, a window declared twice) finds
    /// none and builds its blocks, which costs time and changes nothing.
    pub fn window_start(&mut self, decl: &mut WindowDecl) -> bool {
        if let Some(spare) = self.spare.pop() {
            (decl.blocks, decl.block_hashes, decl.actions) = (spare.blocks, spare.block_hashes, spare.actions);
        }
        let Some(m) = self.memory.get_mut(decl.app_id.as_str()) else { return false };
        decl.kept.clone_from(&m.kept);
        if !m.block_hashes.is_empty() {
            // The spare's (empty) vector goes back to the memory; the publish fills it again.
            std::mem::swap(&mut decl.block_hashes, &mut m.block_hashes);
        }
        m.blocked
    }

    /// Keeps the vectors of declarations a pass replaced, emptied, for the next pass to fill
    /// (see [`Self::window_start`]): a pass then allocates and frees less. At most one per open
    /// window is kept.
    pub(super) fn recycle(&mut self, old: PassDecls) {
        for mut d in old.windows {
            if self.spare.len() >= self.memory.len() {
                break;
            }
            d.blocks.clear();
            d.block_hashes.clear();
            d.actions.clear();
            self.spare.push(Spare { blocks: d.blocks, block_hashes: d.block_hashes, actions: d.actions });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::{Hub, HubConfig};

    /// One pass of viewport 1 that declares windows `ids`, each with one text block.
    fn pass(frame: &mut FrameState, hub: &Hub, ids: impl IntoIterator<Item = usize>) {
        frame.begin_pass(hub, 1, false);
        for k in ids {
            let mut decl = WindowDecl::new(format!("w{k}"));
            frame.window_start(&mut decl);
            // As `WindowUi` does: last pass's hash replaced by this one.
            decl.block_hashes = vec![k as u64];
            decl.blocks.push(Some(Block::Text { id: None, text: format!("{k}") }));
            decl.content_hash = k as u64;
            frame.declare_window(decl);
        }
        frame.end_pass(hub, 1, Some(&[1]));
    }

    #[test]
    fn spare_vectors_are_bounded_by_the_open_windows() {
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        pass(&mut frame, &hub, 0..100);
        pass(&mut frame, &hub, 0..100);
        assert!(frame.spare.len() <= 100, "{} spares for 100 windows", frame.spare.len());
        pass(&mut frame, &hub, 0..3);
        assert_eq!(frame.memory.len(), 3);
        assert!(frame.spare.len() <= 3, "{} spares kept for 3 open windows", frame.spare.len());
        pass(&mut frame, &hub, 0..0);
        assert!(frame.spare.is_empty() && frame.memory.is_empty(), "nothing kept once every window closed");
    }

    #[test]
    fn a_declaration_gets_last_passes_block_hashes() {
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        pass(&mut frame, &hub, 0..2);
        pass(&mut frame, &hub, 0..2);
        let mut decl = WindowDecl::new("w1".to_owned());
        frame.window_start(&mut decl);
        assert_eq!(decl.block_hashes, vec![1], "its hashes, not a spare's leftovers");
        assert!(decl.blocks.is_empty() && decl.actions.is_empty(), "spares come emptied");
    }
}
