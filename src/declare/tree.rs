//! A tree for both audiences, built on [`Describe`]: rows by path with expanders, a checkbox
//! each (tri-state), a selection and a context menu per row; only the rows in view are laid out
//! for the person, and agents read a bounded page of the open rows with the total and act by
//! path, with tool names that do not depend on the data.

use serde_json::json;

use super::{Cell, Describe, ForAgents, Press};

mod state;
use crate::hub::ActionSpec;
use crate::protocol::{ToolError, ToolResult};
pub use state::{TreeEvent, TreeState};

/// Rows of a [`Tree`](crate::Tree) agents read in the state when the app does not say
/// ([`Tree::agent_rows`](crate::Tree::agent_rows)).
pub const DEFAULT_TREE_AGENT_ROWS: usize = 100;
/// The most rows under one row an `expand` answer lists.
const EXPAND_LISTS: usize = 50;

/// A row's check, from the app's row.
type CheckOf<'a, T> = Box<dyn Fn(&T) -> Option<bool> + 'a>;

/// A tree of rows by path (`src`, `src/main.rs`) for both audiences, added with
/// [`WindowUi::add`](super::WindowUi::add). The app's rows come in order, each after its
/// parent and its parent's earlier rows (depth first, as a file tree lists them); a row whose
/// next row is under it is a folder. For the person: an expander, a checkbox (with
/// [`checkboxes`](Self::checkboxes): checked, unchecked or mixed), the name, selectable, a
/// context menu; only the rows in view are laid out (which rows are open is worked out over all
/// of them in each pass: about 15 µs per 1,000 rows in a release build). For agents:
/// the `table` block `id` of the open rows (`path`, `row`: folder open / closed or item,
/// `checked`, `selected`), at most [`agent_rows`](Self::agent_rows) of them around where the
/// person or an agent last worked, with the total; and the actions `select {path}`,
/// `set_checked {path, checked}`, `expand {path}` (answered with the rows under it),
/// `collapse {path}` and each menu item `{path}`. A path that is not a row is refused, per
/// field.
///
/// ```
/// use egui_mcp_bridge::{ActionSpec, Bridge, Tree, TreeEvent, TreeState};
///
/// let bridge = Bridge::builder().build();
/// let files = ["src", "src/lib.rs", "src/main.rs", "README.md"];
/// let mut checked = vec![false; files.len()];
/// let (mut state, mut selected) = (TreeState::new(), None::<String>);
/// # egui::__run_test_ui(|ui| {
/// bridge.window("files").title("Files").ui(ui, |w, ui| {
///     let tree = Tree::new("tree", &files, |f| *f, &mut state)
///         .checkboxes(|f| Some(checked[files.iter().position(|g| g == f).unwrap_or(0)]))
///         .selected(selected.as_deref())
///         .row_menu("delete", ActionSpec::new("Delete"));
///     if let Some(press) = w.add(ui, tree) {
///         match press.args().clone() {
///             TreeEvent::Select { path } => selected = Some(path),
///             TreeEvent::SetChecked { path, checked: on } => {
///                 for (k, f) in files.iter().enumerate() {
///                     if *f == path || f.starts_with(&format!("{path}/")) {
///                         checked[k] = on;
///                     }
///                 }
///             }
///             TreeEvent::Menu { path, .. } => {
///                 let error = egui_mcp_bridge::ToolError::invalid_field("path", format!("{path} is read-only"));
///                 return press.fail(error);
///             }
///         }
///         press.ok("Done");
///     }
/// });
/// # });
/// ```
pub struct Tree<'a, T> {
    id: &'a str,
    rows: &'a [T],
    path: Box<dyn Fn(&T) -> &str + 'a>,
    checked: Option<CheckOf<'a, T>>,
    selected: Option<&'a str>,
    menu: Vec<(&'a str, ActionSpec)>,
    state: &'a mut TreeState,
    agent_rows: usize,
    separator: char,
    height: Option<f32>,
}

impl<T> std::fmt::Debug for Tree<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree").field("id", &self.id).field("rows", &self.rows.len()).finish_non_exhaustive()
    }
}

impl<'a, T> Tree<'a, T> {
    /// The tree `id` of `rows`, each named by `path` (parts separated by `/`), its open rows in
    /// `state`.
    pub fn new(id: &'a str, rows: &'a [T], path: impl Fn(&T) -> &str + 'a, state: &'a mut TreeState) -> Self {
        Self {
            id,
            rows,
            path: Box::new(path),
            checked: None,
            selected: None,
            menu: Vec::new(),
            state,
            agent_rows: DEFAULT_TREE_AGENT_ROWS,
            separator: '/',
            height: None,
        }
    }

    /// A checkbox on each row: `Some(checked)`, or `None` for mixed (some rows under it
    /// checked).
    #[must_use]
    pub fn checkboxes(mut self, checked: impl Fn(&T) -> Option<bool> + 'a) -> Self {
        self.checked = Some(Box::new(checked));
        self
    }

    /// The selected row, highlighted.
    #[must_use]
    pub fn selected(mut self, path: Option<&'a str>) -> Self {
        self.selected = path;
        self
    }

    /// An item of every row's context menu, and the action `name {path}` for agents.
    #[must_use]
    pub fn row_menu(mut self, name: &'a str, spec: ActionSpec) -> Self {
        self.menu.push((name, spec));
        self
    }

    /// The most rows agents read in the state (default [`DEFAULT_TREE_AGENT_ROWS`]); the total
    /// says how many rows are open.
    #[must_use]
    pub fn agent_rows(mut self, n: usize) -> Self {
        self.agent_rows = n;
        self
    }

    /// What separates a path's parts (default `/`).
    #[must_use]
    pub fn separator(mut self, separator: char) -> Self {
        self.separator = separator;
        self
    }

    /// The height of the person's scrolled rows (default: what is left).
    #[must_use]
    pub fn height(mut self, height: f32) -> Self {
        self.height = Some(height);
        self
    }

    fn path_of(&self, k: usize) -> &str {
        (self.path)(&self.rows[k])
    }

    /// Whether row `k` has rows under it (the next row is under it).
    fn is_folder(&self, k: usize) -> bool {
        let (path, sep) = (self.path_of(k), self.separator);
        self.rows.get(k + 1).is_some_and(|next| {
            let next = (self.path)(next);
            next.len() > path.len() && next.starts_with(path) && next[path.len()..].starts_with(sep)
        })
    }

    fn depth(&self, k: usize) -> usize {
        self.path_of(k).matches(self.separator).count()
    }

    /// The rows shown: each row whose rows above are all open.
    fn open_rows(&self) -> Vec<usize> {
        let mut shown = Vec::new();
        let mut closed_at: Option<usize> = None;
        for k in 0..self.rows.len() {
            let depth = self.depth(k);
            if let Some(d) = closed_at {
                if depth > d {
                    continue;
                }
                closed_at = None;
            }
            shown.push(k);
            if self.is_folder(k) && !self.state.is_open(self.path_of(k)) {
                closed_at = Some(depth);
            }
        }
        shown
    }

    fn find(&self, path: &str) -> Option<usize> {
        (0..self.rows.len()).find(|&k| self.path_of(k) == path)
    }

    fn checked_word(&self, k: usize) -> Option<&'static str> {
        self.checked.as_ref().map(|c| match c(&self.rows[k]) {
            Some(true) => "yes",
            Some(false) => "no",
            None => "mixed",
        })
    }

    /// An agent's `expand` or `collapse`: done here, answered with what the person sees.
    fn open_by_agent(&mut self, press: Press<PathArgs>, open: bool) {
        let path = press.args().path.clone();
        let Some(k) = self.find(&path) else {
            return press.fail(ToolError::not_a_row());
        };
        if !self.is_folder(k) {
            return press.fail(ToolError::invalid_field("path", "has no rows under it"));
        }
        self.state.set_open(&path, open);
        self.state.focus = Some(path.clone());
        if !open {
            return press.ok("Collapsed");
        }
        let depth = self.depth(k);
        let under: Vec<usize> = ((k + 1)..self.rows.len()).take_while(|&j| self.depth(j) > depth).collect();
        let children: Vec<&str> =
            under.iter().filter(|&&j| self.depth(j) == depth + 1).map(|&j| self.path_of(j)).collect();
        let listed: Vec<&str> = children.iter().take(EXPAND_LISTS).copied().collect();
        let message = format!("Expanded: {} rows directly under it", children.len());
        press.reply(Ok(ToolResult::message(message).with_result(json!({
            "rows": listed,
            "total": children.len(),
        }))));
    }
}

/// The arguments of the tree's actions on a row.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct PathArgs {
    /// The row's path, as the tree's table lists it.
    path: String,
}

/// The arguments of `set_checked`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct CheckArgs {
    /// The row's path, as the tree's table lists it.
    path: String,
    /// Checked or not.
    checked: bool,
}

impl<T> Describe for Tree<'_, T> {
    type Output = Option<Press<TreeEvent>>;

    fn show(mut self, ui: &mut egui::Ui, agent: &mut ForAgents<'_>) -> Self::Output {
        // Opening and closing are the tree's own: done before the rows are laid out.
        self.open_or_close_by_agent(agent);
        let shown = self.open_rows();
        let person = self.rows_ui(ui, agent, &shown);
        self.declare_page(agent, &shown);
        // The app's events: an agent's call first (it waits), else the person's.
        let mut presses = self.presses(agent, person);
        let at = presses.iter().position(Press::by_agent).unwrap_or(0);
        if presses.is_empty() {
            return None;
        }
        self.settle(presses.swap_remove(at))
    }
}

impl<T> Tree<'_, T> {
    /// An agent's `expand` or `collapse`, done and answered here.
    fn open_or_close_by_agent(&mut self, agent: &mut ForAgents<'_>) {
        let id = self.id;
        let expand = ActionSpec::new("Expand a row")
            .description(format!("Shows the rows under a row of the {id} table; answers with them"));
        if let Some(press) = agent.action::<PathArgs>("expand", expand) {
            self.open_by_agent(press, true);
        }
        let collapse =
            ActionSpec::new("Collapse a row").description(format!("Hides the rows under a row of the {id} table"));
        if let Some(press) = agent.action::<PathArgs>("collapse", collapse) {
            self.open_by_agent(press, false);
        }
    }

    /// The tree's actions for the app, each the agent's call or the person's gesture of this pass.
    fn presses(&mut self, agent: &mut ForAgents<'_>, person: Option<TreeEvent>) -> Vec<Press<TreeEvent>> {
        let id = self.id;
        let (mut select, mut check, mut item) = (None, None, None);
        match person {
            Some(TreeEvent::Select { path }) => select = Some(PathArgs { path }),
            Some(TreeEvent::SetChecked { path, checked }) => check = Some(CheckArgs { path, checked }),
            Some(TreeEvent::Menu { item: name, path }) => item = Some((name, PathArgs { path })),
            None => {}
        }
        let mut presses = Vec::new();
        let spec = ActionSpec::new("Select a row").description(format!("Selects a row of the {id} table by its path"));
        presses.extend(
            agent.press("select", spec, select).map(|p| p.map_args(|a: PathArgs| TreeEvent::Select { path: a.path })),
        );
        if self.checked.is_some() {
            let spec =
                ActionSpec::new("Check a row").description(format!("Checks or unchecks a row of the {id} table"));
            let press = agent.press("set_checked", spec, check);
            presses.extend(
                press.map(|p| p.map_args(|a: CheckArgs| TreeEvent::SetChecked { path: a.path, checked: a.checked })),
            );
        }
        for (name, spec) in std::mem::take(&mut self.menu) {
            let mine = item.take_if(|(n, _)| n == name).map(|(_, args)| args);
            let description = spec.description.clone().map_or_else(
                || format!("On a row of the {id} table, by its path"),
                |d| format!("{d} (on a row of the {id} table, by its path)"),
            );
            let press = agent.press(name, spec.description(description), mine);
            presses.extend(
                press.map(|p| p.map_args(|a: PathArgs| TreeEvent::Menu { item: name.to_owned(), path: a.path })),
            );
        }
        presses
    }

    /// The press handed to the app: an agent's row must be a row (the person's always is); where
    /// it happened becomes the agents' page, and a row an agent selected is shown to the person.
    fn settle(&mut self, press: Press<TreeEvent>) -> Option<Press<TreeEvent>> {
        let path = match press.args() {
            TreeEvent::Select { path } | TreeEvent::SetChecked { path, .. } | TreeEvent::Menu { path, .. } => path,
        };
        if self.find(path).is_none() {
            press.fail(ToolError::not_a_row());
            return None;
        }
        if matches!(press.args(), TreeEvent::Select { .. }) && press.by_agent() {
            self.state.reveal(path, self.separator);
        } else {
            self.state.focus = Some(path.clone());
        }
        Some(press)
    }

    /// The agents' page: the open rows around where the person or an agent last worked.
    fn declare_page(&self, agent: &mut ForAgents<'_>, shown: &[usize]) {
        let total = shown.len();
        let n = self.agent_rows.min(total);
        let focus = self.state.focus.as_deref().and_then(|f| shown.iter().position(|&k| self.path_of(k) == f));
        let start = focus.map_or(0, |at| at.saturating_sub(n / 4).min(total - n));
        let page = &shown[start..start + n];
        let mut columns = vec!["path", "row"];
        if self.checked.is_some() {
            columns.push("checked");
        }
        columns.push("selected");
        let table = agent.table(self.id, &columns);
        let table = if n < total { table.slice(start as u64, total as u64) } else { table };
        table.rows(|t| {
            for &k in page {
                let path = self.path_of(k);
                let row = match (self.is_folder(k), self.state.is_open(path)) {
                    (true, true) => "folder, open",
                    (true, false) => "folder, closed",
                    (false, _) => "item",
                };
                let selected = self.selected == Some(path);
                match self.checked_word(k) {
                    Some(c) => t.row([Cell::from(path), row.into(), c.into(), selected.into()]),
                    None => t.row([Cell::from(path), row.into(), selected.into()]),
                }
            }
        });
    }

    /// The person's rows, only those in view laid out; returns what the person did.
    fn rows_ui(&mut self, ui: &mut egui::Ui, agent: &mut ForAgents<'_>, shown: &[usize]) -> Option<TreeEvent> {
        let row_height = ui.spacing().interact_size.y;
        let mut area =
            egui::ScrollArea::vertical().id_salt(("egui_mcp_bridge::tree", self.id)).auto_shrink([false, true]);
        if let Some(height) = self.height {
            area = area.max_height(height);
        }
        if let Some(target) = self.state.scroll_to.take()
            && let Some(at) = shown.iter().position(|&k| self.path_of(k) == target)
        {
            let spacing = ui.spacing().item_spacing.y;
            area = area.vertical_scroll_offset((at as f32 * (row_height + spacing) - 3.0 * row_height).max(0.0));
        }
        let mut event = None;
        let mut toggled = None;
        area.show_rows(ui, row_height, shown.len(), |ui, range| {
            for &k in &shown[range] {
                let (row_toggled, row_event) = ui.horizontal(|ui| self.row_ui(ui, agent, k, row_height)).inner;
                if row_toggled.is_some() {
                    toggled = row_toggled;
                }
                if row_event.is_some() {
                    event = row_event;
                }
            }
        });
        if let Some((path, open)) = toggled {
            self.state.set_open(&path, open);
            self.state.focus = Some(path);
        }
        event
    }

    /// One row for the person: its expander, its checkbox, its name (selectable, with the rows'
    /// context menu). Returns a row opened or closed, and what the person did to it.
    fn row_ui(
        &self,
        ui: &mut egui::Ui,
        agent: &mut ForAgents<'_>,
        k: usize,
        row_height: f32,
    ) -> (Option<(String, bool)>, Option<TreeEvent>) {
        let path = self.path_of(k);
        let mut event = None;
        ui.set_min_height(row_height);
        ui.add_space(ui.spacing().indent * self.depth(k) as f32);
        let toggled = self.expander_ui(ui, k, row_height);
        if let Some(checked) = &self.checked {
            let state = checked(&self.rows[k]);
            let mut on = state.unwrap_or(false);
            let r = ui.add(egui::Checkbox::without_text(&mut on).indeterminate(state.is_none()));
            r.widget_info(|| {
                egui::WidgetInfo::selected(egui::Role::CheckBox, true, state == Some(true), format!("Check {path}"))
            });
            if r.clicked() {
                event = Some(TreeEvent::SetChecked { path: path.to_owned(), checked: state != Some(true) });
            }
        }
        let name = path.rsplit(self.separator).next().unwrap_or(path);
        let label = ui.selectable_label(self.selected == Some(path), name);
        if label.clicked() {
            event = Some(TreeEvent::Select { path: path.to_owned() });
        }
        if !self.menu.is_empty() {
            label.context_menu(|ui| {
                for (name, spec) in &self.menu {
                    let item = ui.button(spec.title.as_ref());
                    agent.describes(&item);
                    if item.clicked() {
                        event = Some(TreeEvent::Menu { item: (*name).to_owned(), path: path.to_owned() });
                        ui.close();
                    }
                }
            });
        }
        (toggled, event)
    }

    /// The expander's slot, on every row so that names line up under their folder: egui's own
    /// triangle (as its collapsing headers draw it) on a folder. Returns the row opened or closed.
    fn expander_ui(&self, ui: &mut egui::Ui, k: usize, row_height: f32) -> Option<(String, bool)> {
        let icon = ui.spacing().icon_width;
        let folder = self.is_folder(k);
        let sense = if folder { egui::Sense::click() } else { egui::Sense::hover() };
        let (_, expander) = ui.allocate_exact_size(egui::vec2(icon, row_height), sense);
        if !folder {
            return None;
        }
        let path = self.path_of(k);
        let open = self.state.is_open(path);
        let what = if open { "Collapse" } else { "Expand" };
        let mut shape = expander.clone();
        shape.rect = egui::Rect::from_center_size(expander.rect.center(), egui::Vec2::splat(icon));
        egui::collapsing_header::paint_default_icon(ui, if open { 1.0 } else { 0.0 }, &shape);
        let expander = expander.on_hover_text(what);
        // Read as what it does to which row (a screen reader's, a test's words).
        expander.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, format!("{what} {path}")));
        expander.clicked().then(|| (path.to_owned(), !open))
    }
}
