//! The union a publish reads: each live viewport's last declarations, moved in for the publish
//! and given back after, each window's memory marked as seen on the way.

use super::FrameState;
use super::memory::{Memory, WindowMemory};
use crate::hub::decl::{WindowDecl, content_hasher, hash_actions};
use crate::hub::phase::PassKey;
use std::hash::Hasher as _;

impl FrameState {
    /// Moves the declarations out of each viewport's into the union to publish (they are moved
    /// back after, [`Self::give_back`]): the first declaration of an id wins. Each window's
    /// memory is marked as seen by this publish: a second declaration of the id finds the mark,
    /// and windows left unmarked are the ones that closed. With the rest: whether a window
    /// opened, and whether every window and the app's actions were declared as in the last
    /// publish but for its content, each window at its place; the places of those whose content
    /// changed are in `content_changed`. A declaration's block hashes go back to its window's
    /// memory (for the next pass's declaration).
    ///
    /// The first viewport's list becomes the union's whole (swapped, not moved one by one): with
    /// one viewport, the usual case, no declaration moves.
    pub(super) fn take_declarations(&mut self) -> (Vec<Taken>, bool, bool) {
        let now = self.publishes;
        let mut taken = Vec::with_capacity(self.committed.len());
        let mut opened = false;
        let mut same = true;
        self.content_changed.clear();
        for c in &mut self.committed {
            let start = self.declared.len();
            let swapped = start == 0;
            if swapped {
                std::mem::swap(&mut self.declared, &mut c.windows);
            } else {
                // Appended, not taken: the vectors keep their room for the next pass.
                self.declared.append(&mut c.windows);
            }
            let mut took = Taken { windows: 0, swapped, repeated: Vec::new(), app_actions: c.app_actions.len() };
            let mut i = start;
            while let Some(d) = self.declared.get_mut(i) {
                match mark(&mut self.memory, d, (i, c.key, now)) {
                    Marked::Repeated => {
                        tracing::warn!(id = %d.app_id, "window declared twice in one frame; the second is ignored");
                        took.repeated.push(self.declared.remove(i));
                        continue;
                    }
                    Marked::Opened => opened = true,
                    Marked::Known { same: s, content_changed } => {
                        same &= s;
                        if content_changed {
                            self.content_changed.push(i);
                        }
                    }
                }
                i += 1;
            }
            took.windows = self.declared.len() - start;
            if !c.app_actions.is_empty() && self.app_pass.is_none() {
                self.app_pass = Some(c.key);
            }
            self.app_actions.append(&mut c.app_actions);
            taken.push(took);
        }
        let mut h = content_hasher();
        hash_actions(&self.app_actions, &mut h);
        let app_actions = h.finish();
        same &= std::mem::replace(&mut self.app_actions_hash, app_actions) == app_actions;
        (taken, opened, same)
    }

    /// Gives each viewport back what [`Self::take_declarations`] took, the last first (each
    /// one's windows are then the union's tail, and the first's its whole list).
    pub(super) fn give_back(&mut self, taken: Vec<Taken>) {
        let mut actions_end = self.app_actions.len();
        for (c, taken) in self.committed.iter_mut().zip(taken).rev() {
            if taken.swapped {
                std::mem::swap(&mut self.declared, &mut c.windows);
            } else {
                let at = self.declared.len() - taken.windows;
                c.windows.extend(self.declared.drain(at..));
            }
            c.windows.extend(taken.repeated);
            let at = actions_end - taken.app_actions;
            c.app_actions.extend(self.app_actions.drain(at..actions_end));
            actions_end = at;
        }
    }
}

/// What one viewport's declarations lent the union being published, to take back after.
pub(super) struct Taken {
    /// Windows moved into the union, in order.
    windows: usize,
    /// The union was empty, and the viewport's list became it.
    swapped: bool,
    /// Windows it declared again, whose first declaration (by another pass) won.
    repeated: Vec<Box<WindowDecl>>,
    /// App actions moved into the union.
    app_actions: usize,
}

/// What [`mark`] found of a declaration.
enum Marked {
    /// Its window was declared already in this publish: this declaration is ignored.
    Repeated,
    /// Its window opened.
    Opened,
    /// Its window was open: `same`, declared as in the last publish but for its content, at the
    /// same place; `content_changed`, its content did change.
    Known { same: bool, content_changed: bool },
}

/// Marks the memory of `d`'s window as seen by the publish `now` (declared by viewport `key`, at
/// place `i` of the union), making it when the window opened; hands the declaration's block
/// hashes to the memory (for the next pass's declaration).
fn mark(memory: &mut Memory, d: &mut WindowDecl, (i, key, now): (usize, PassKey, u64)) -> Marked {
    match memory.at(d.slot, d.app_id.as_str()) {
        Some(m) if m.seen == now => Marked::Repeated,
        Some(m) => {
            m.seen = now;
            m.pass = key;
            if d.kept.is_some() {
                m.kept.clone_from(&d.kept);
            }
            let declared = (d.fingerprint, i);
            let same = m.declared == declared;
            m.declared = declared;
            // A declaration kept from an earlier publish (its viewport ran no pass since)
            // brought them back then.
            if m.block_hashes.is_empty() {
                m.block_hashes = std::mem::take(&mut d.block_hashes);
            }
            Marked::Known { same, content_changed: m.content_hash != d.content_hash }
        }
        None => {
            let mut m = WindowMemory::new(d, key, now);
            m.declared = (d.fingerprint, i);
            // Copied into a vector of its own, not taken: the declaration's grew while its blocks
            // were built, among their allocations, so that at thousands of windows each
            // window's hashes were on a page of their own; made here, the windows' hashes and
            // keys lie together, in the order the windows opened, which is the order a pass
            // reads them in.
            m.block_hashes.clone_from(&d.block_hashes);
            d.slot = Some(memory.insert(d.app_id.clone(), m));
            Marked::Opened
        }
    }
}
