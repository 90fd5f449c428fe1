//! What a [`Tree`](crate::Tree) hands the app and keeps in it: the rows' state that is the
//! tree's own ([`TreeState`]) and what the person or an agent did to a row ([`TreeEvent`]).

use std::collections::HashSet;

/// What of a tree the person and agents changed that is the tree's own, not the app's data:
/// which rows are open, where the person's view should go, and where agents last worked (their
/// page of rows is read around it). Keep one per tree in the app's state.
#[derive(Clone, Debug, Default)]
pub struct TreeState {
    pub(super) open: HashSet<String>,
    pub(super) scroll_to: Option<String>,
    pub(super) focus: Option<String>,
}

impl TreeState {
    /// Every row closed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the row `path` shows its rows.
    pub fn is_open(&self, path: &str) -> bool {
        self.open.contains(path)
    }

    /// Opens or closes the row `path`.
    pub fn set_open(&mut self, path: &str, open: bool) {
        if open {
            self.open.insert(path.to_owned());
        } else {
            self.open.remove(path);
        }
    }

    /// Opens every row above `path` and scrolls the person's view to it.
    pub fn reveal(&mut self, path: &str, separator: char) {
        let mut end = 0;
        while let Some(k) = path[end..].find(separator) {
            end += k;
            self.open.insert(path[..end].to_owned());
            end += separator.len_utf8();
        }
        self.scroll_to = Some(path.to_owned());
        self.focus = Some(path.to_owned());
    }
}

/// What the person or an agent did to a [`Tree`](crate::Tree)'s row, for the app to apply: one handler for
/// both, as [`Press`](crate::Press) is for a button. (Opening and closing rows the tree does itself.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeEvent {
    /// Select the row (the person clicked its name; an agent called `select {path}`).
    Select {
        /// The row's path.
        path: String,
    },
    /// Check or uncheck the row (its checkbox; `set_checked {path, checked}`). A mixed row
    /// clicked by the person is checked.
    SetChecked {
        /// The row's path.
        path: String,
        /// Its new state.
        checked: bool,
    },
    /// One of the rows' menu items ([`Tree::row_menu`](crate::Tree::row_menu)), on the row.
    Menu {
        /// The item's action name.
        item: String,
        /// The row's path.
        path: String,
    },
}
