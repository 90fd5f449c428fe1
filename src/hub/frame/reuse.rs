//! Declarations reuse what the last pass's left: a window's declaration takes its last block
//! hashes from the window's memory (for the two-mode block builders), and is made in a
//! declaration a pass replaced, emptied, with its strings and vectors: a pass in which nothing
//! changed allocates nothing per window.

use super::{FrameState, PassDecls};
use crate::hub::decl::WindowDecl;

impl FrameState {
    /// A declaration of the window `app_id`, titled with its id: an emptied one of a replaced
    /// declaration when there is one, so that its strings and vectors are not allocated again.
    pub fn window_decl(&mut self, app_id: &str) -> WindowDecl {
        let mut decl = self.spare.pop().unwrap_or_else(|| WindowDecl::new(String::new()));
        decl.app_id.push_str(app_id);
        decl.title.push_str(app_id);
        decl
    }

    /// What declaring a window needs of its memory, in one lookup: last pass's block hashes
    /// (into `decl.block_hashes`), for the two-mode block builders; returns whether it is
    /// blocked ([`Self::is_blocked`]).
    ///
    /// The hashes are taken, not copied: the declaration brings its own back at the publish. A
    /// second declaration before that (a pass egui discards, a window declared twice) finds
    /// none and builds its blocks, which costs time and changes nothing.
    pub fn window_start(&mut self, decl: &mut WindowDecl) -> bool {
        let Some(m) = self.memory.get_mut(decl.app_id.as_str()) else { return false };
        decl.kept.clone_from(&m.kept);
        if !m.block_hashes.is_empty() {
            // The declaration's (empty) vector goes back to the memory; the publish fills it again.
            std::mem::swap(&mut decl.block_hashes, &mut m.block_hashes);
        }
        m.blocked
    }

    /// Keeps the declarations a pass replaced, emptied, for the next pass to fill (see
    /// [`Self::window_decl`]), and their list for the next pass's: a pass then allocates and
    /// frees less. At most one declaration per open window is kept.
    pub(super) fn recycle(&mut self, mut old: PassDecls) {
        let room = self.memory.len().saturating_sub(self.spare.len());
        for mut d in old.windows.drain(..).take(room) {
            d.empty();
            self.spare.push(d);
        }
        // The emptied list too, unless most windows closed (it would hold room for nothing).
        if old.windows.capacity() <= 2 * self.memory.len().max(16) {
            self.spare_list = old.windows;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::hub::{Hub, HubConfig};
    use crate::protocol::Block;

    /// One pass of viewport 1 that declares windows `ids`, each with one text block.
    fn pass(frame: &mut FrameState, hub: &Hub, ids: impl IntoIterator<Item = usize>) {
        pass_edited(frame, hub, ids, 0);
    }

    /// [`pass`], with window 0's text at its `edits`-th version.
    fn pass_edited(frame: &mut FrameState, hub: &Hub, ids: impl IntoIterator<Item = usize>, edits: u64) {
        frame.begin_pass(hub, 1, false);
        for k in ids {
            let mut decl = frame.window_decl(&format!("w{k}"));
            frame.window_start(&mut decl);
            let content = k as u64 + if k == 0 { 1_000 * edits } else { 0 };
            // As `WindowUi` does: last pass's hash replaced by this one.
            decl.block_hashes = vec![content];
            decl.blocks.push(Some(Block::Text { id: None, text: format!("{content}") }));
            decl.content_hash = content;
            frame.declare_window(decl);
        }
        frame.end_pass(hub, 1, Some(&[1]));
    }

    #[test]
    fn a_publish_after_one_window_changed_shares_the_ids_and_reuses_the_states_room() {
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        pass(&mut frame, &hub, 0..3);
        let before = Arc::clone(&frame.last);
        pass_edited(&mut frame, &hub, 0..3, 1);
        assert!(!Arc::ptr_eq(&before, &frame.last), "window 0 changed: a new state");
        assert!(Arc::ptr_eq(&before.operable, &frame.last.operable), "the same operable ids, not new strings");
        drop(before);
        // The state replaced now is no one's: its JSON's room is kept for the next.
        pass_edited(&mut frame, &hub, 0..3, 2);
        assert!(frame.json_buffer.is_empty() && frame.json_buffer.capacity() >= frame.last.json.len());
        pass_edited(&mut frame, &hub, 0..3, 3);
        let state: serde_json::Value = serde_json::from_str(&frame.last.json).expect("the state is JSON");
        assert_eq!(state["operableWindowIds"].as_array().map(Vec::len), Some(3), "{state}");
        assert_eq!(state["windows"][0]["blocks"][0]["text"], "3000", "{state}");
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
        let mut decl = frame.window_decl("w1");
        frame.window_start(&mut decl);
        assert_eq!(decl.block_hashes, vec![1], "its hashes, not a spare's leftovers");
        assert!(decl.blocks.is_empty() && decl.actions.is_empty(), "spares come emptied");
        assert_eq!((decl.app_id.as_str(), decl.title.as_str(), decl.summary.as_str()), ("w1", "w1", ""));
    }
}
