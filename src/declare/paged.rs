//! Tables and lists agents read, declared with one paged builder ([`Paged`]): the whole
//! block, or a page of a longer one with its offset and total (§9), and the page around a row
//! of a table the app draws itself ([`Paged::page_around`]).

use std::hash::{Hash as _, Hasher as _};
use std::ops::Range;

use super::WindowUi;
use super::content::{Items, Mode, Rows};
use crate::hub::decl::content_hasher;
use crate::protocol::Block;

impl WindowUi {
    /// A table with these columns. Give its rows with [`Paged::rows`]; say with
    /// [`Paged::slice`] when they are a page of a longer table.
    pub fn table<'w>(&'w mut self, id: &'w str, columns: &'w [&'w str]) -> Paged<'w, TableKind<'w>> {
        Paged { ui: self, id, kind: TableKind { columns }, slice: None }
    }

    /// A list. Give its items with [`Paged::items`]; mark it [`Paged::ordered`] when the order
    /// means something, and [`Paged::slice`] when the items are a page of a longer list.
    pub fn list<'w>(&'w mut self, id: &'w str) -> Paged<'w, ListKind> {
        Paged { ui: self, id, kind: ListKind { ordered: false }, slice: None }
    }
}

/// The rows of a table (see [`WindowUi::table`]).
#[derive(Debug)]
pub struct TableKind<'w> {
    columns: &'w [&'w str],
}

/// The items of a list (see [`WindowUi::list`]).
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
        let page = page_range(total, n.min(super::MAX_AGENT_ITEMS), focus);
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

/// The `n` rows of `total` around `focus` (it sits in the middle where it can), else the last.
fn page_range(total: usize, n: usize, focus: Option<usize>) -> Range<usize> {
    let n = n.min(total);
    let start = match focus.filter(|f| *f < total) {
        Some(f) => f.saturating_sub(n / 2).min(total - n),
        None => total - n,
    };
    start..start + n
}

#[cfg(test)]
mod page_tests {
    use super::page_range;

    #[test]
    fn a_page_holds_its_focus_with_rows_on_both_sides_and_stays_in_the_table() {
        assert_eq!(page_range(10_000, 20, Some(5_000)), 4_990..5_010);
        assert_eq!(page_range(10_000, 20, Some(3)), 0..20);
        assert_eq!(page_range(10_000, 20, Some(9_999)), 9_980..10_000);
        // No focus, or one that is not a row: the newest.
        assert_eq!(page_range(10_000, 20, None), 9_980..10_000);
        assert_eq!(page_range(10_000, 20, Some(10_000)), 9_980..10_000);
        assert_eq!(page_range(5, 20, Some(2)), 0..5);
        assert_eq!(page_range(0, 20, None), 0..0);
        for focus in 0..50 {
            let page = page_range(50, 7, Some(focus));
            assert!(page.contains(&focus) && page.len() == 7, "{focus}: {page:?}");
        }
    }
}
