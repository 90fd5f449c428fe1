//! Which windows may be operated (§2, §10.2): computed in this one place, from `modal` and
//! the owner relation only.
//!
//! - A window is blocked while a modal dialog is attached to it (`ownerId` = that window).
//!   Following the newest modal child again and again leads to the *top* of its modal chain.
//! - A modal with no owner is an app-level modal. While one exists, the operable set collapses
//!   to the top of the newest app-level modal's chain; app modals nest by declaration order.
//! - Declaration order stands for stacking order: a later dialog is on top of an earlier one.
//!
//! Apps declare owners by id, so a declaration can name a missing owner or form a cycle.
//! [`Topology::resolve`] repairs both before anything else sees them: a dangling owner becomes
//! `None`, and a cycle is cut at the window that closes it. The published snapshot then states
//! the repaired owners, so what an agent reads and what the bridge enforces are the same.

/// Owner relation and modality of the windows of one frame, by index in declaration order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Topology {
    owner: Vec<Option<usize>>,
    modal: Vec<bool>,
}

impl Topology {
    /// Builds the topology from declared `(id, modal, owner id)` triples, repairing dangling
    /// owners and cycles. Ids are expected to be unique; for a repeated id, the first counts.
    pub fn resolve<'a>(windows: impl IntoIterator<Item = (&'a str, bool, Option<&'a str>)>) -> Self {
        let windows: Vec<_> = windows.into_iter().collect();
        let modal = windows.iter().map(|(_, m, _)| *m).collect();
        // Most frames name no owner at all: then no index of the ids is needed.
        if windows.iter().all(|(_, _, o)| o.is_none()) {
            return Self::from_indices(vec![None; windows.len()], modal);
        }
        let index: std::collections::HashMap<&str, usize> =
            windows.iter().enumerate().rev().map(|(i, (id, _, _))| (*id, i)).collect();
        let owner = windows.iter().map(|(_, _, o)| o.and_then(|o| index.get(o).copied())).collect();
        Self::from_indices(owner, modal)
    }

    /// Builds the topology from owner indices (out-of-range ones count as dangling).
    pub fn from_indices(mut owner: Vec<Option<usize>>, modal: Vec<bool>) -> Self {
        assert_eq!(owner.len(), modal.len(), "one owner entry per window");
        let n = owner.len();
        for o in &mut owner {
            if o.is_some_and(|i| i >= n) {
                *o = None;
            }
        }
        // Cut cycles: walk each owner chain, stamping nodes with the walk's start.
        const UNSEEN: usize = usize::MAX;
        let mut stamp = vec![UNSEEN; n];
        for start in 0..n {
            let mut i = start;
            while stamp[i] == UNSEEN {
                stamp[i] = start;
                match owner[i] {
                    Some(next) if stamp[next] == start => {
                        owner[i] = None; // `i` closes a cycle: cut here.
                        break;
                    }
                    Some(next) => i = next,
                    None => break,
                }
            }
        }
        Self { owner, modal }
    }

    /// Number of windows.
    pub fn len(&self) -> usize {
        self.owner.len()
    }

    /// The repaired owner of window `i`.
    pub fn owner(&self, i: usize) -> Option<usize> {
        self.owner[i]
    }

    /// The newest modal dialog attached to window `i`.
    fn newest_modal_child(&self, i: usize) -> Option<usize> {
        (0..self.len()).rev().find(|&j| self.modal[j] && self.owner[j] == Some(i))
    }

    /// The top of the modal chain that starts at `i` (`i` itself when nothing is attached).
    fn chain_top(&self, mut i: usize) -> usize {
        while let Some(child) = self.newest_modal_child(i) {
            i = child;
        }
        i
    }

    /// The top of the newest app-level modal's chain, if an app-level modal is open.
    pub fn app_modal_top(&self) -> Option<usize> {
        (0..self.len()).rev().find(|&j| self.modal[j] && self.owner[j].is_none()).map(|j| self.chain_top(j))
    }

    /// For each window: `None` when it is operable, else the window on top that blocks it.
    pub fn blockers(&self) -> Vec<Option<usize>> {
        if let Some(top) = self.app_modal_top() {
            return (0..self.len()).map(|i| (i != top).then_some(top)).collect();
        }
        let mut has_modal_child = vec![false; self.len()];
        for j in 0..self.len() {
            if let (true, Some(o)) = (self.modal[j], self.owner[j]) {
                has_modal_child[o] = true;
            }
        }
        (0..self.len()).map(|i| has_modal_child[i].then(|| self.chain_top(i))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn operable_ids<'a>(ids: &[&'a str], t: &Topology) -> Vec<&'a str> {
        t.blockers().iter().zip(ids).filter(|(b, _)| b.is_none()).map(|(_, id)| *id).collect()
    }

    #[test]
    fn spec_example_a_chain_and_c() {
        let decl = [
            ("A", false, None),
            ("B", false, None),
            ("D1", true, Some("B")),
            ("D2", true, Some("D1")),
            ("C", false, None),
        ];
        let t = Topology::resolve(decl);
        let ids: Vec<_> = decl.iter().map(|d| d.0).collect();
        assert_eq!(operable_ids(&ids, &t), ["A", "D2", "C"]);
        assert_eq!(t.blockers()[1], Some(3), "B is blocked by the chain's top D2");
    }

    #[test]
    fn app_modal_collapses_and_nests() {
        let decl = [
            ("A", false, None),
            ("L1", true, None),
            ("D", true, Some("A")),
            ("L2", true, None),
            ("L2c", true, Some("L2")),
        ];
        let t = Topology::resolve(decl);
        let ids: Vec<_> = decl.iter().map(|d| d.0).collect();
        assert_eq!(operable_ids(&ids, &t), ["L2c"], "only the top of the newest app modal");
    }

    #[test]
    fn dangling_owner_and_cycles_are_repaired() {
        let t = Topology::resolve([("X", true, Some("gone")), ("Y", false, None)]);
        assert_eq!(t.owner(0), None, "dangling owner dropped: X becomes an app-level modal");
        let ids = ["X", "Y"];
        assert_eq!(operable_ids(&ids, &t), ["X"]);

        let t = Topology::resolve([("P", true, Some("Q")), ("Q", true, Some("P")), ("R", false, None)]);
        assert_eq!(t.owner(0), Some(1));
        assert_eq!(t.owner(1), None, "the window that closes the cycle loses its owner");
        assert_eq!(operable_ids(&["P", "Q", "R"], &t), ["P"]);

        let t = Topology::resolve([("S", true, Some("S"))]);
        assert_eq!(t.owner(0), None, "a self-owner is a cycle too");
    }

    /// The reference model: the spec's definition, written as plainly as possible.
    fn reference(owner: &[Option<usize>], modal: &[bool]) -> Vec<bool> {
        let n = owner.len();
        let is_app_modal = |j: usize| modal[j] && owner[j].is_none();
        let top_of = |start: usize| {
            let mut cur = start;
            loop {
                let mut next = None;
                for j in 0..n {
                    if modal[j] && owner[j] == Some(cur) {
                        next = Some(j); // keep the newest
                    }
                }
                match next {
                    Some(j) => cur = j,
                    None => return cur,
                }
            }
        };
        let mut newest_app_modal = None;
        for j in 0..n {
            if is_app_modal(j) {
                newest_app_modal = Some(j);
            }
        }
        if let Some(m) = newest_app_modal {
            let top = top_of(m);
            return (0..n).map(|i| i == top).collect();
        }
        // Operable = the top of each modal chain, plus every window without a modal attached.
        (0..n).map(|i| !(0..n).any(|j| modal[j] && owner[j] == Some(i))).collect()
    }

    /// Random forests: each window's owner, if any, was declared before it.
    fn forest() -> impl Strategy<Value = (Vec<Option<usize>>, Vec<bool>)> {
        (1usize..14).prop_flat_map(|n| {
            let owners: Vec<_> = (0..n)
                .map(|i| if i == 0 { Just(None).boxed() } else { proptest::option::weighted(0.6, 0..i).boxed() })
                .collect();
            (owners, proptest::collection::vec(proptest::bool::weighted(0.4), n))
        })
    }

    proptest! {
        #[test]
        fn matches_the_reference_model((owner, modal) in forest()) {
            let t = Topology::from_indices(owner.clone(), modal.clone());
            prop_assert_eq!(&t.owner, &owner, "a forest needs no repair");
            let ours: Vec<bool> = t.blockers().iter().map(Option::is_none).collect();
            prop_assert_eq!(ours, reference(&owner, &modal));
        }

        #[test]
        fn blockers_are_operable_and_app_modal_means_one(owner in proptest::collection::vec(proptest::option::of(0usize..16), 0..14), seed in any::<u64>()) {
            let modal: Vec<bool> = (0..owner.len()).map(|i| (seed >> (i % 64)) & 1 == 1).collect();
            let t = Topology::from_indices(owner, modal.clone());
            let blockers = t.blockers();
            for b in blockers.iter().flatten() {
                prop_assert!(blockers[*b].is_none(), "a blocker must itself be operable");
            }
            if t.app_modal_top().is_some() {
                prop_assert_eq!(blockers.iter().filter(|b| b.is_none()).count(), 1);
            }
            // The repaired owners form a forest: every chain ends.
            for start in 0..t.len() {
                let mut i = start;
                let mut steps = 0;
                while let Some(o) = t.owner(i) { i = o; steps += 1; prop_assert!(steps <= t.len(), "cycle left"); }
            }
        }
    }
}
