//! Declarations reuse what the last pass's left: a window's declaration takes its last block
//! hashes from the window's memory (for the two-mode block builders), and is made in a
//! declaration a pass replaced, emptied, with its strings and vectors: a pass in which nothing
//! changed allocates nothing per window.
//!
//! A replaced declaration is emptied when it is reused, not when it is replaced, and a pass's
//! list of them is kept whole: at thousands of windows each declaration is touched once a pass
//! rather than three times (emptied, moved to the spares, moved out), which is memory traffic
//! that grew faster than the windows.

use super::{FrameState, PassDecls};
use crate::hub::decl::WindowDecl;

impl FrameState {
    /// A declaration of the window `app_id`, titled with its id: an emptied one of a replaced
    /// declaration when there is one, so that its strings and vectors are not allocated again.
    pub fn window_decl(&mut self, app_id: &str) -> Box<WindowDecl> {
        let mut decl = self.spare.pop().unwrap_or_else(|| Box::new(WindowDecl::new(String::new())));
        // The spares come in the order their pass declared them: usually this window's own
        // declaration of two passes ago, whose place in the memory is still good.
        let slot = decl.slot.filter(|s| self.memory.holds(*s) && decl.app_id == app_id);
        decl.empty();
        decl.app_id.push_str(app_id);
        decl.title.push_str(app_id);
        decl.slot = slot;
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
        let Some((slot, m)) = self.memory.locate(decl.slot, decl.app_id.as_str()) else {
            decl.first = true;
            return false;
        };
        decl.slot = Some(slot);
        decl.kept.clone_from(&m.kept);
        if !m.block_hashes.is_empty() {
            // The declaration's (empty) vector goes back to the memory; the publish fills it again.
            std::mem::swap(&mut decl.block_hashes, &mut m.block_hashes);
        }
        m.blocked
    }

    /// Keeps the declarations a pass replaced for the next pass to fill (see
    /// [`Self::window_decl`], which empties them), and an emptied list for the next pass's: a
    /// pass then allocates and frees less. At most one declaration per open window is kept.
    pub(super) fn recycle(&mut self, mut old: PassDecls) {
        if self.spare.is_empty() {
            // The whole list becomes the spares (nothing is moved), the spares' emptied list
            // the next pass's.
            std::mem::swap(&mut self.spare, &mut old.windows);
            // Taken from the end: in the order they were declared (see `window_decl`).
            self.spare.reverse();
            // Declarations made in their windows' first pass were made among the allocations of
            // those windows' blocks: at thousands of windows, a page or more apart, against a
            // few hundred bytes for those made after, so that every other pass (the two lists
            // of declarations take turns) was slower. Made again here, one after the other,
            // once; the old ones are freed after, so that the new are not made in their places.
            // Only those: a pass after one in which windows opened reads each declaration once.
            if old.firsts > 0 {
                let mut replaced = Vec::with_capacity(old.firsts);
                for d in &mut self.spare {
                    if d.first {
                        let again = Box::new(WindowDecl { first: false, ..(**d).clone() });
                        replaced.push(std::mem::replace(d, again));
                    }
                }
                drop(replaced);
            }
        } else {
            let room = self.memory.len().saturating_sub(self.spare.len());
            self.spare.extend(old.windows.drain(..).take(room));
            old.windows.clear();
        }
        self.spare.truncate(self.memory.len());
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
    use crate::hub::decl::ActionDecl;
    use crate::hub::{Hub, HubConfig, Snapshot};
    use crate::protocol::Block;

    /// One pass of viewport 1 that declares windows `ids`, each with one text block.
    fn pass(frame: &mut FrameState, hub: &Hub, ids: impl IntoIterator<Item = usize>) {
        pass_edited(frame, hub, ids, 0);
    }

    /// [`pass`], with window 0's text at its `edits`-th version.
    fn pass_edited(frame: &mut FrameState, hub: &Hub, ids: impl IntoIterator<Item = usize>, edits: u64) {
        pass_with(frame, hub, ids, edits, |_, _| {});
    }

    /// [`pass_edited`], each declaration then changed by `change` (given the window's number).
    fn pass_with(
        frame: &mut FrameState,
        hub: &Hub,
        ids: impl IntoIterator<Item = usize>,
        edits: u64,
        change: impl Fn(usize, &mut WindowDecl),
    ) {
        pass_and_app(frame, hub, (ids, edits, change), &[]);
    }

    /// [`pass_with`], with the app's actions `app` declared too.
    fn pass_and_app(
        frame: &mut FrameState,
        hub: &Hub,
        (ids, edits, change): (impl IntoIterator<Item = usize>, u64, impl Fn(usize, &mut WindowDecl)),
        app: &[ActionDecl],
    ) {
        frame.begin_pass(hub, 1, false);
        for a in app {
            frame.declare_app_action(a.clone());
        }
        for k in ids {
            let mut decl = frame.window_decl(&format!("w{k}"));
            frame.window_start(&mut decl);
            let content = k as u64 + if k == 0 { 1_000 * edits } else { 0 };
            // As `WindowUi` does: last pass's hash replaced by this one.
            decl.block_hashes = vec![content];
            decl.blocks.push(Some(Block::Text { id: None, text: format!("{content}") }));
            decl.content_hash = content;
            change(k, &mut decl);
            frame.declare_window(decl);
        }
        frame.end_pass(hub, 1, Some(&[1]));
    }

    #[test]
    fn a_publish_after_one_window_changed_shares_the_ids_and_the_other_windows_json() {
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        pass(&mut frame, &hub, 0..3);
        let before = Arc::clone(&frame.last);
        pass_edited(&mut frame, &hub, 0..3, 1);
        assert!(!Arc::ptr_eq(&before, &frame.last), "window 0 changed: a new state");
        assert!(Arc::ptr_eq(&before.operable, &frame.last.operable), "the same operable ids, not new strings");
        let piece = |s: &Snapshot, k| s.json.window(k).map(Arc::clone).expect("three windows");
        assert!(!Arc::ptr_eq(&piece(&before, 0), &piece(&frame.last, 0)), "window 0 serialised again");
        for k in 1..3 {
            assert!(Arc::ptr_eq(&piece(&before, k), &piece(&frame.last, k)), "window {k}'s JSON shared, not copied");
        }
        pass_edited(&mut frame, &hub, 0..3, 3);
        let state: serde_json::Value = serde_json::from_str(frame.last.json()).expect("the state is JSON");
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
        assert!(decl.blocks.is_empty() && decl.actions.is_empty() && decl.slot.is_some(), "spares come emptied");
        assert_eq!((decl.app_id.as_str(), decl.title.as_str(), decl.summary.as_str()), ("w1", "w1", ""));
    }

    #[test]
    fn a_window_gets_its_own_declaration_of_two_passes_ago_with_its_place() {
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        for _ in 0..3 {
            pass(&mut frame, &hub, 0..3);
        }
        frame.begin_pass(&hub, 1, false);
        let own = frame.window_decl("w0");
        assert_eq!(own.slot.map(|s| s.index), Some(0), "w0's own declaration: its place kept, not looked up");
        let other = frame.window_decl("w7");
        assert_eq!(other.slot, None, "w1's declaration given to w7: no place, so w7 is looked up by id");
        let mut w1 = frame.window_decl("w1");
        assert_eq!(w1.slot, None, "w2's declaration: no place");
        frame.window_start(&mut w1);
        assert_eq!(w1.slot.map(|s| s.index), Some(1), "found by id");
        assert_eq!(w1.block_hashes, vec![1], "w1's hashes");
    }

    #[test]
    fn a_declaration_made_in_its_windows_first_pass_is_made_again_before_it_is_reused() {
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        pass(&mut frame, &hub, 0..2);
        let first: Vec<*const WindowDecl> = frame.committed[0].windows.iter().map(|d| &raw const **d).collect();
        assert!(frame.committed[0].windows.iter().all(|d| d.first), "made in their windows' first pass");
        pass(&mut frame, &hub, 0..2);
        assert!(frame.committed[0].windows.iter().all(|d| !d.first), "the second pass's are not");
        assert_eq!(frame.spare.len(), 2);
        for d in &frame.spare {
            assert!(!first.contains(&&raw const **d), "the first pass's declarations were made again");
            assert!(!d.first);
        }
        pass(&mut frame, &hub, 0..2);
        let state: serde_json::Value = serde_json::from_str(frame.last.json()).expect("the state is JSON");
        assert_eq!(state["windows"][1]["blocks"][0]["text"], "1", "{state}");
        // A window opening beside them: its declaration alone is made again.
        pass(&mut frame, &hub, 0..3);
        let before: Vec<*const WindowDecl> = frame.committed[0].windows.iter().map(|d| &raw const **d).collect();
        pass(&mut frame, &hub, 0..3);
        let spares: Vec<*const WindowDecl> = frame.spare.iter().rev().map(|d| &raw const **d).collect();
        assert_eq!(spares[..2], before[..2], "the open windows' declarations are kept as they are");
        assert_ne!(spares[2], before[2], "the new window's is made again");
    }

    #[test]
    fn windows_closing_before_others_leave_the_others_found_at_their_new_places() {
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        pass(&mut frame, &hub, 0..5);
        pass(&mut frame, &hub, 0..5);
        let version = |frame: &FrameState, id: &str| frame.memory.get(id).map(|m| m.version);
        assert_eq!(version(&frame, "w4"), Some(1));
        // Windows 1 and 3 close: the places of 2 and 4 move, while their declarations (made
        // in passes before) hold the places they had.
        pass(&mut frame, &hub, [0, 2, 4]);
        pass_edited(&mut frame, &hub, [0, 2, 4], 1);
        pass_edited(&mut frame, &hub, [0, 2, 4], 1);
        assert_eq!(frame.memory.len(), 3);
        assert_eq!((version(&frame, "w0"), version(&frame, "w2"), version(&frame, "w4")), (Some(2), Some(1), Some(1)));
        let state: serde_json::Value = serde_json::from_str(frame.last.json()).expect("the state is JSON");
        let ids: Vec<&str> =
            state["windows"].as_array().into_iter().flatten().filter_map(|w| w["title"].as_str()).collect();
        assert_eq!(ids, ["w0", "w2", "w4"], "{state}");
        assert_eq!(state["windows"][2]["blocks"][0]["text"], "4", "{state}");
        // A window opening now is found at its place from the next pass on.
        pass_edited(&mut frame, &hub, [0, 2, 4, 7], 1);
        pass_edited(&mut frame, &hub, [0, 2, 4, 7], 1);
        assert_eq!(version(&frame, "w7"), Some(1));
    }

    #[test]
    fn a_publish_builds_nothing_only_while_every_window_is_declared_as_before() {
        use crate::hub::ActionSpec;
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        pass(&mut frame, &hub, 0..3);
        let quiet = Arc::clone(&frame.last);
        pass(&mut frame, &hub, 0..3);
        assert!(Arc::ptr_eq(&quiet, &frame.last), "nothing changed: the same state");
        let titles = |s: &Snapshot| s.windows.iter().map(|w| w.title.clone()).collect::<Vec<_>>();
        // Each of these is seen, though no window's content changed.
        pass_with(&mut frame, &hub, 0..3, 0, |k, d| {
            if k == 1 {
                d.title = "Renamed".into();
            }
        });
        assert_eq!(titles(&frame.last), ["w0", "Renamed", "w2"]);
        pass(&mut frame, &hub, [2, 0, 1]);
        assert_eq!(titles(&frame.last), ["w2", "w0", "w1"], "the order as declared");
        let schema = Arc::new(serde_json::Map::new());
        let touch = |_: usize, d: &mut WindowDecl| {
            let spec = ActionSpec::new("Touch");
            d.actions.push(ActionDecl { name: "touch".into(), spec, schema: Arc::clone(&schema) });
        };
        pass_with(&mut frame, &hub, [2, 0, 1], 0, touch);
        assert_eq!(frame.last.tools.len(), 3, "each window's new action is a tool");
        let before = Arc::clone(&frame.last);
        pass_with(&mut frame, &hub, [2, 0, 1], 0, touch);
        assert!(Arc::ptr_eq(&before, &frame.last), "declared as before: the same state");
        let quit = || ActionDecl { name: "quit".into(), spec: ActionSpec::new("Quit"), schema: Arc::clone(&schema) };
        pass_and_app(&mut frame, &hub, ([2, 0, 1], 0, touch), &[quit()]);
        assert_eq!(frame.last.tools.len(), 4, "the windows as before, and the app's new action");
        pass_with(&mut frame, &hub, [2, 0, 1], 0, |k, d| {
            touch(k, d);
            d.modal = k == 1;
        });
        assert_eq!(frame.last.tools.len(), 1, "a window-less modal blocks the others: only its tool");
        pass_and_app(&mut frame, &hub, ([], 0, |_, _: &mut WindowDecl| {}), &[quit()]);
        assert!(frame.last.windows.is_empty(), "every window closed");
        assert_eq!(frame.last.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["app__quit"]);
    }

    #[test]
    fn a_publish_after_content_alone_changed_shares_the_rest_and_keeps_the_header_hash_exact() {
        use crate::hub::ActionSpec;
        let hub = Hub::new(HubConfig::default());
        let mut frame = FrameState::default();
        pass(&mut frame, &hub, 0..200);
        pass(&mut frame, &hub, 0..200);
        let before = Arc::clone(&frame.last);
        pass_edited(&mut frame, &hub, 0..200, 1);
        let after = Arc::clone(&frame.last);
        assert_eq!(after.windows_revision, before.windows_revision + 1);
        assert_eq!(after.tools_revision, before.tools_revision);
        assert_eq!((after.windows[0].version, after.windows[1].version), (2, 1), "window 0 at its next version");
        assert!(after.windows.shares_chunk(&before.windows, 1), "windows 64–127 are shared, not copied");
        assert!(!after.windows.shares_chunk(&before.windows, 0), "window 0's chunk is new");
        let state: serde_json::Value = serde_json::from_str(after.json()).expect("the state is JSON");
        assert_eq!(state["windows"][0]["blocks"][0]["text"], "1000", "{}", &state["windows"][0]);
        assert_eq!(after.json(), serde_json::to_string(after.state()).expect("a state"), "its JSON is its windows'");
        // A publish that builds everything again (the app's actions changed) finds the windows'
        // header hash as the content-only publish left it: their revision does not move.
        let quit = ActionDecl { name: "quit".into(), spec: ActionSpec::new("Quit"), schema: Arc::default() };
        pass_and_app(&mut frame, &hub, (0..200, 1, |_, _: &mut WindowDecl| {}), &[quit]);
        assert_eq!(frame.last.tools_revision, after.tools_revision + 1, "the app's new action");
        assert_eq!(frame.last.windows_revision, after.windows_revision, "no window changed");
    }
}
