//! Tables and lists agents read, declared with one paged builder ([`Paged`]): the whole
//! block, or a page of a longer one with its offset and total (§9), and the page around a row
//! of a table the app draws itself ([`Paged::page_around`]).

use std::hash::{Hash as _, Hasher as _};
use std::ops::Range;

use super::WindowUi;
use super::content::{Items, Mode, Rows};
use crate::hub::decl::content_hasher;
use crate::protocol::Block;

impl<'w> Paged<'w, TableKind<'w>> {
    /// A table with these columns ([`ForAgents::table`](super::ForAgents::table)).
    pub(super) fn table(ui: &'w mut WindowUi, id: &'w str, columns: &'w [&'w str]) -> Self {
        Paged { ui, id, kind: TableKind { columns }, slice: None }
    }
}

impl<'w> Paged<'w, ListKind> {
    /// A list ([`ForAgents::list`](super::ForAgents::list)).
    pub(super) fn list(ui: &'w mut WindowUi, id: &'w str) -> Self {
        Paged { ui, id, kind: ListKind { ordered: false }, slice: None }
    }
}

/// The rows of a table (see [`ForAgents::table`](super::ForAgents::table)).
#[derive(Debug)]
pub struct TableKind<'w> {
    columns: &'w [&'w str],
}

/// The items of a list (see [`ForAgents::list`](super::ForAgents::list)).
#[derive(Debug)]
pub struct ListKind {
    ordered: bool,
}

/// A table or list block being declared: the one paged builder of both.
#[must_use = "give the block's contents with .rows(…) or .items(…); without it nothing is declared"]
pub struct Paged<'w, K> {
    ui: &'w mut WindowUi,
    id: &'w str,
    kind: K,
    slice: Option<(u64, u64)>,
}

impl<K: std::fmt::Debug> std::fmt::Debug for Paged<'_, K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Paged").field("id", &self.id).field("kind", &self.kind).field("slice", &self.slice).finish()
    }
}

impl<K> Paged<'_, K> {
    /// Says that the contents are a page, starting at `offset`, of `total` rows or items (§9).
    pub fn slice(mut self, offset: u64, total: u64) -> Self {
        self.slice = Some((offset, total));
        self
    }
}

impl Paged<'_, TableKind<'_>> {
    /// Declares a page of a table the app draws itself (an `egui_extras` table, a log): at most
    /// `n` of its `total` rows (never more than [`MAX_AGENT_ITEMS`](crate::limits::MAX_AGENT_ITEMS)),
    /// those around `focus` (the row the person or an agent works on, with rows on both sides),
    /// else the newest, with the page's offset and the total (§9). `rows` declares the rows of
    /// the range it is given, in order; it runs in every pass, as [`rows`](Self::rows) does.
    ///
    /// ```
    /// use egui_mcp_bridge::Bridge;
    ///
    /// let log: Vec<String> = (0..10_000).map(|i| format!("line {i}")).collect();
    /// let bridge = Bridge::builder().build();
    /// bridge.window("log").title("Log").declare(|w| {
    ///     // Rows 4,990 to 5,009 of 10,000, around the selected one.
    ///     w.table("lines", &["Line"]).page_around(log.len(), 20, Some(5_000), |range, t| {
    ///         log[range].iter().for_each(|line| t.row([line]));
    ///     });
    /// });
    /// ```
    pub fn page_around(self, total: usize, n: usize, focus: Option<usize>, rows: impl Fn(Range<usize>, &mut Rows<'_>)) {
        let page = Page::Around(n, focus).range(total);
        self.slice(page.start as u64, total as u64).rows(|t| rows(page.clone(), t));
    }

    /// Declares the table with these rows (tuples or arrays of cells, lined up with the columns).
    pub fn rows(self, rows: impl Fn(&mut Rows<'_>)) {
        let Self { ui, id, kind: TableKind { columns }, slice } = self;
        let mut h = content_hasher();
        ("table", id, columns, slice).hash(&mut h);
        rows(&mut Rows { mode: Mode::Hash(&mut h) });
        ui.block_with_hash(h.finish(), || {
            let mut out = Vec::new();
            rows(&mut Rows { mode: Mode::Build(&mut out) });
            Block::Table {
                id: Some(id.to_owned()),
                columns: columns.iter().map(|c| (*c).to_owned()).collect(),
                rows: out,
                offset: slice.map(|s| s.0),
                total: slice.map(|s| s.1),
            }
        });
    }
}

impl Paged<'_, ListKind> {
    /// Marks the list as ordered (its order means something: steps, a ranking).
    pub fn ordered(mut self) -> Self {
        self.kind.ordered = true;
        self
    }

    /// Declares the list with these items.
    pub fn items(self, items: impl Fn(&mut Items<'_>)) {
        let Self { ui, id, kind: ListKind { ordered }, slice } = self;
        let mut h = content_hasher();
        ("list", id, ordered, slice).hash(&mut h);
        items(&mut Items { mode: Mode::Hash(&mut h) });
        ui.block_with_hash(h.finish(), || {
            let mut out = Vec::new();
            items(&mut Items { mode: Mode::Build(&mut out) });
            Block::List {
                id: Some(id.to_owned()),
                items: out,
                ordered,
                offset: slice.map(|s| s.0),
                total: slice.map(|s| s.1),
            }
        });
    }
}

/// Which rows or items of a longer block agents read in the state: never more than
/// [`MAX_AGENT_ITEMS`](crate::limits::MAX_AGENT_ITEMS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Page {
    /// The first n.
    First(usize),
    /// The last n: a log's newest.
    Newest(usize),
    /// n around a row (it sits in the middle where it can), else the newest.
    Around(usize, Option<usize>),
}

impl Page {
    /// The rows or items agents read, out of `total`.
    pub(super) fn range(self, total: usize) -> Range<usize> {
        let (Self::First(n) | Self::Newest(n) | Self::Around(n, _)) = self;
        let n = n.min(super::MAX_AGENT_ITEMS).min(total);
        let start = match self {
            Self::First(_) => 0,
            Self::Around(_, Some(focus)) if focus < total => focus.saturating_sub(n / 2).min(total - n),
            Self::Newest(_) | Self::Around(..) => total - n,
        };
        start..start + n
    }
}

#[cfg(test)]
mod page_tests {
    use super::Page;
    use crate::declare::MAX_AGENT_ITEMS;

    #[test]
    fn a_page_is_bounded_and_within_the_block() {
        assert_eq!(Page::First(20).range(5), 0..5);
        assert_eq!(Page::First(20).range(100), 0..20);
        assert_eq!(Page::Newest(20).range(5), 0..5);
        assert_eq!(Page::Newest(20).range(100), 80..100);
        assert_eq!(Page::First(usize::MAX).range(100_000), 0..MAX_AGENT_ITEMS);
        assert_eq!(Page::Newest(usize::MAX).range(100_000), 100_000 - MAX_AGENT_ITEMS..100_000);
        assert_eq!(Page::Newest(0).range(0), 0..0);
    }

    #[test]
    fn a_page_holds_its_focus_with_rows_on_both_sides_and_stays_in_the_table() {
        assert_eq!(Page::Around(20, Some(5_000)).range(10_000), 4_990..5_010);
        assert_eq!(Page::Around(20, Some(3)).range(10_000), 0..20);
        assert_eq!(Page::Around(20, Some(9_999)).range(10_000), 9_980..10_000);
        // No focus, or one that is not a row: the newest.
        assert_eq!(Page::Around(20, None).range(10_000), 9_980..10_000);
        assert_eq!(Page::Around(20, Some(10_000)).range(10_000), 9_980..10_000);
        assert_eq!(Page::Around(20, Some(2)).range(5), 0..5);
        assert_eq!(Page::Around(20, None).range(0), 0..0);
        assert_eq!(Page::Around(usize::MAX, Some(50_000)).range(100_000).len(), MAX_AGENT_ITEMS);
        for focus in 0..50 {
            let page = Page::Around(7, Some(focus)).range(50);
            assert!(page.contains(&focus) && page.len() == 7, "{focus}: {page:?}");
        }
    }
}
