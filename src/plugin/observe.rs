//! The read view of what the app has not described: egui's accessibility (AccessKit) tree,
//! read after a pass, turned into read-only windows.
//!
//! egui builds the tree itself while the app draws (every widget says its role, label, value
//! and whether it is enabled), so a window the app never declared can still be read: its
//! title, its labels as text, its inputs as fields (a password's value masked here, whatever
//! egui put there), its buttons, links and sections with their state. Nothing here can act:
//! the read view has no tools, since only a described window says what an action means and
//! what the app allows.
//!
//! [`tree.rs`](tree) walks one pass's tree (its top-level containers, what each holds),
//! [`widgets.rs`](widgets) reads one node (an input's value, a control's state, a label); this
//! file turns what they found into what the plugin declares: read-only windows, blocks for what
//! declared windows hold undescribed, and the developer's list. When to look is the plugin's
//! business (`ReadPace` in `plugin/mod.rs`).

mod tree;
mod widgets;

use std::collections::{HashMap, HashSet};

use egui::accesskit::{Node, NodeId, TreeUpdate};

use crate::hub::decl::ActionDecl;
use crate::hub::frame::{ReadBlocks, ReadOnlyWindow};
use crate::hub::phase::PassKey;
use crate::hub::{UiCore, UndescribedWidget};
use crate::protocol::Block;

use tree::Tree;
pub(crate) use widgets::{Clickable, Target, TargetKind, readable};

/// What the input widgets with these node ids show in `tree` (those it holds), as the read view
/// reads them: a glimpse of a pass that is not looked at as a whole.
pub(crate) fn values_of(tree: &TreeUpdate, nodes: &[u64]) -> Vec<(u64, serde_json::Value)> {
    tree.nodes
        .iter()
        .filter(|(id, _)| nodes.contains(&id.0))
        .filter_map(|(id, n)| Some((id.0, widgets::input(n)?.value)))
        .collect()
}

/// The most fields, controls and text lines one read-only window carries; the rest is counted
/// in its summary ("and N more"), so that a huge undescribed UI cannot blow the state's budget.
pub(crate) const MAX_ITEMS: usize = 100;
/// The most characters of one label or value taken from the tree.
pub(crate) const MAX_TEXT_CHARS: usize = 200;

/// One top-level egui container (a window, a modal, a panel) the app has not described.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ObservedWindow {
    /// The container's AccessKit node id (its egui `Id`): stable while it is open.
    pub(crate) node: u64,
    /// A panel (no title of its own: titled by its first text, or its first controls, when first
    /// seen, and so while it shows).
    pub(crate) panel: bool,
    /// An `egui::Modal`: it blocks everything under it, for the person and for agents.
    pub(crate) modal: bool,
    /// Its title: the window's, or for a panel "Panel" and its first text.
    pub(crate) title: String,
    /// What it shows, for the summary.
    pub(crate) summary: String,
    /// Its content as blocks: `text` (labels), `fields` (inputs), `list` (controls).
    pub(crate) blocks: Vec<Block>,
    /// Its interactive widgets, for the developer's list of what is not described.
    pub(crate) widgets: Vec<UndescribedWidget>,
    /// What an agent may address in it: its fields' (in the order of its `fields` block),
    /// then its controls' (in the order of its `controls` list).
    pub(crate) targets: Vec<Target>,
    /// Its labels that sense clicks (read as text): what a secondary `press` may name besides.
    pub(crate) labels: Vec<Clickable>,
    /// It holds something the app made to sense clicks besides its controls (a label, a bare
    /// interaction such as a background's): `press` is listed for a secondary click on it.
    pub(crate) senses_clicks: bool,
}

/// How one look reads the tree: which container is an `egui::Modal` (egui's top modal layer),
/// when agents may operate what is read, the generic tools each window gets, and the titles
/// the last look of the viewport gave its panels (kept while they show).
pub(crate) struct LookOptions<'a> {
    pub(crate) modal: Option<u64>,
    pub(crate) tools: Option<ToolsOf<'a>>,
    pub(crate) panel_titles: Option<&'a HashMap<u64, String>>,
}

/// The most panels of one viewport whose titles are kept between looks (the rest are titled
/// afresh at each look).
const MAX_PANEL_TITLES: usize = 64;

/// The generic tools of a window with these targets.
/// (Its targets, and whether it holds something else the app made to sense clicks.)
pub(crate) type ToolsOf<'a> = &'a dyn Fn(&[Target], bool) -> Vec<ActionDecl>;

/// Reads the tree of viewport `key`'s pass that is ending: a read-only window for each
/// container the app has not described, and blocks for what declared windows hold undescribed
/// (to be declared in this pass and, until the next look, in the next ones); and the list of
/// undescribed widgets.
pub(crate) fn read_undescribed(core: &UiCore, key: PassKey, tree: &TreeUpdate, options: &LookOptions<'_>) -> Seen {
    let (containers, widgets, window_uis) = {
        let frame = core.frame.lock();
        let (c, w) = frame.described(key);
        let uis: HashMap<u64, String> = frame.window_uis(key).iter().cloned().collect();
        (c.iter().copied().collect::<HashSet<u64>>(), w.iter().copied().collect::<HashSet<u64>>(), uis)
    };
    let no_titles = HashMap::new();
    let seen = observe(
        tree,
        &|id| containers.contains(&id.0),
        &|id| widgets.contains(&id.0),
        &|id| window_uis.contains_key(&id.0),
        options.tools.is_some(),
        options.panel_titles.unwrap_or(&no_titles),
    );
    core.frame.lock().set_undescribed(key, seen.undescribed);
    let inside = seen
        .inside
        .into_iter()
        .filter_map(|(node, blocks)| Some((window_uis.get(&node)?.clone(), ReadBlocks::new(blocks))))
        .collect();
    // The panels shown now keep their titles; one that went is titled afresh when it is back.
    let panel_titles: HashMap<u64, String> =
        seen.windows.iter().filter(|w| w.panel).take(MAX_PANEL_TITLES).map(|w| (w.node, w.title.clone())).collect();
    let mut ids = HashSet::new();
    let mut targets = HashMap::new();
    let mut labels = HashMap::new();
    let mut nodes = HashMap::new();
    let root = tree.tree.as_ref().map(|t| t.root.0);
    let windows = seen
        .windows
        .into_iter()
        .map(|mut w| {
            let mut app_id = app_id_of(&w);
            if !ids.insert(app_id.clone()) {
                // Two undescribed windows of one title: the second told apart by its node.
                app_id = format!("{app_id}-{:06x}", w.node & 0xff_ffff);
            }
            assign_keys(&mut w.targets);
            let actions = options.tools.map(|tools| {
                apply_keys(&mut w.blocks, &w.targets);
                tools(&w.targets, w.senses_clicks)
            });
            let modal = options.modal == Some(w.node);
            nodes.insert(app_id.clone(), (Some(w.node) != root).then_some(w.node));
            let window = ReadOnlyWindow::new(app_id.clone(), w.title, w.summary, w.blocks, modal, actions);
            labels.insert(app_id.clone(), w.labels);
            targets.insert(app_id, w.targets);
            window
        })
        .collect();
    Seen { windows, inside, targets, panel_titles, nodes, labels }
}

/// Gives each target a key unique in its window, made of its label (`max-files`, then
/// `max-files-2`, ... in the order drawn): the same while the window shows the same labels.
/// (Not by node: egui's automatic ids of checkboxes and radio buttons follow their position, so
/// a widget that appears above them would hand their ids, and keys, to others.)
fn assign_keys(targets: &mut [Target]) {
    let mut taken = HashSet::new();
    for t in targets.iter_mut() {
        let base = slug(&t.label);
        let mut key = base.clone();
        let mut n = 2;
        while !taken.insert(key.clone()) {
            key = format!("{base}-{n}");
            n += 1;
        }
        t.key = key;
    }
}

/// A label as a key: lowercase words joined by `-`, at most 40 characters; `item` for none.
fn slug(label: &str) -> String {
    let words: String = label.chars().map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { ' ' }).collect();
    let mut key = String::new();
    for word in words.split_whitespace() {
        if key.len() + word.len() + 1 > 40 {
            break;
        }
        if !key.is_empty() {
            key.push('-');
        }
        key.push_str(word);
    }
    if key.is_empty() { "item".to_owned() } else { key }
}

/// Writes each target's key into the item it reads as, as a described window's editable field
/// carries its key: on the enabled ones only (a disabled one accepts nothing now).
fn apply_keys(blocks: &mut [Block], targets: &[Target]) {
    let fields = blocks.iter().find_map(|b| match b {
        Block::Fields { items, .. } => Some(items.len()),
        _ => None,
    });
    let (field_targets, control_targets) = targets.split_at(fields.unwrap_or(0).min(targets.len()));
    for block in blocks {
        match block {
            Block::Fields { items, .. } => {
                for (item, t) in items.iter_mut().zip(field_targets) {
                    item.key = (!t.disabled && t.kind != TargetKind::Shown).then(|| t.key.clone());
                }
            }
            Block::List { items, .. } => {
                for (item, t) in items.iter_mut().zip(control_targets) {
                    if let (Some(obj), false) = (item.as_object_mut(), t.disabled) {
                        obj.insert("key".to_owned(), serde_json::Value::String(t.key.clone()));
                    }
                }
            }
            _ => {}
        }
    }
}

/// What one look found, to declare in its pass and again until the next look.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// The read-only windows.
    pub(crate) windows: Vec<ReadOnlyWindow>,
    /// By declared window (app id) found in the tree, the blocks of what it holds undescribed.
    pub(crate) inside: Vec<(String, ReadBlocks)>,
    /// By read-only window (app id), what an agent may address in it.
    pub(crate) targets: HashMap<String, Vec<Target>>,
    /// By panel node, the title it was first seen with (see [`ObservedWindow::panel`]).
    pub(crate) panel_titles: HashMap<u64, String>,
    /// By read-only window (app id), its container's node (an egui id: its rectangle is the
    /// window's), or `None` for what is drawn straight into the viewport ("Main": all of it).
    pub(crate) nodes: HashMap<String, Option<u64>>,
    /// By read-only window (app id), its labels that sense clicks.
    pub(crate) labels: HashMap<String, Vec<Clickable>>,
}

impl Seen {
    /// A declared window of this pass (`window_uis`) that the tree did not show (egui sizes a
    /// new window in a pass drawn unseen) keeps what the `last` look found in it: what it
    /// holds did not change by not being seen, and neither does its version.
    pub(crate) fn keep_unseen(&mut self, last: Seen, window_uis: &[(u64, String)]) {
        for (app_id, blocks) in last.inside {
            let declared = window_uis.iter().any(|(_, a)| *a == app_id);
            if declared && !self.inside.iter().any(|(a, _)| *a == app_id) {
                self.inside.push((app_id, blocks));
            }
        }
    }
}

/// The app id a read-only window is declared under: `ui-` and its title's words, which stay
/// as long as the title does; a panel's title is its first text when first seen, so a panel is
/// known by its node instead (shown again, it may be titled anew).
fn app_id_of(w: &ObservedWindow) -> String {
    if w.panel {
        return format!("ui-panel-{:06x}", w.node & 0xff_ffff);
    }
    let words: String =
        w.title.chars().map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let words: Vec<&str> = words.split('-').filter(|s| !s.is_empty()).take(6).collect();
    if words.is_empty() { format!("ui-{:06x}", w.node & 0xff_ffff) } else { format!("ui-{}", words.join("-")) }
}

/// What the read view saw in one pass's tree.
#[derive(Debug, Default)]
pub(crate) struct Observation {
    /// The undescribed top-level containers, in the tree's order, then what is drawn straight
    /// into the viewport outside any of them (titled "Main").
    pub(crate) windows: Vec<ObservedWindow>,
    /// The interactive widgets drawn but not described: all of an undescribed container's, and
    /// in a described one those no described widget holds.
    pub(crate) undescribed: Vec<UndescribedWidget>,
    /// Per declared window's contents `Ui` found in the tree (its node), blocks of what the app
    /// drew there without describing it (none, often): its inputs as fields, its buttons and
    /// the like as a list.
    pub(crate) inside: Vec<(u64, Vec<Block>)>,
}

/// The nodes of one pass's tree, by id.
pub(crate) fn node_map(tree: &TreeUpdate) -> HashMap<NodeId, &Node> {
    tree.nodes.iter().map(|(id, n)| (*id, n)).collect()
}

/// Reads one pass's tree. A container is described when `containers` says so of its node or of
/// any node inside it (the app's window, or a panel the app drew a described window into); a
/// widget is described when `widgets` says so of it or of a node holding it.
pub(crate) fn observe(
    update: &TreeUpdate,
    containers: &dyn Fn(NodeId) -> bool,
    widgets: &dyn Fn(NodeId) -> bool,
    window_uis: &dyn Fn(NodeId) -> bool,
    operable: bool,
    panel_titles: &HashMap<u64, String>,
) -> Observation {
    let nodes = node_map(update);
    let Some(root) = update.tree.as_ref().map(|t| t.root) else { return Observation::default() };
    let tree = Tree { nodes, described: &|id| containers(id) || widgets(id), operable, panel_titles };
    let mut top = Vec::new();
    tree.top_level(root, &mut top);
    let mut seen = Observation::default();
    for id in top {
        if tree.any_in(id, containers) {
            tree.described_container(id, window_uis, &mut seen);
        } else if let Some(w) = tree.window(id, false) {
            seen.undescribed.extend(w.widgets.iter().cloned());
            seen.windows.push(w);
        }
    }
    if let Some(main) = tree.window(root, true).filter(|w| !w.blocks.is_empty()) {
        seen.undescribed.extend(main.widgets.iter().cloned());
        seen.windows.push(main);
    }
    seen
}

#[cfg(test)]
mod tests;
