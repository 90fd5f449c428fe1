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
//! This file only converts a tree; which containers the app described (left out here) and
//! how the windows reach the snapshot is the plugin's and the core's business.

use std::collections::{HashMap, HashSet};

use egui::accesskit::{Node, NodeId, Role, Toggled, TreeUpdate};
use serde_json::{Value, json};

use crate::hub::frame::ReadOnlyWindow;
use crate::hub::phase::PassKey;
use crate::hub::{UiCore, UndescribedWidget};
use crate::protocol::{Block, FieldItem, masked};

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
    /// Its title: the window's, or for a panel "Panel" and its first text.
    pub(crate) title: String,
    /// What it shows, for the summary.
    pub(crate) summary: String,
    /// Its content as blocks: `text` (labels), `fields` (inputs), `list` (controls).
    pub(crate) blocks: Vec<Block>,
    /// Its interactive widgets, for the developer's list of what is not described.
    pub(crate) widgets: Vec<UndescribedWidget>,
}

/// Reads the tree of viewport `key`'s pass that is ending: a read-only window for each
/// container the app has not described, and blocks for what declared windows hold undescribed
/// (to be declared in this pass and, until the next look, in the next ones); and the list of
/// undescribed widgets.
pub(crate) fn read_undescribed(core: &UiCore, key: PassKey, tree: &TreeUpdate) -> Seen {
    let (containers, widgets, window_uis) = {
        let frame = core.frame.lock();
        let (c, w) = frame.described(key);
        let uis: HashMap<u64, String> = frame.window_uis(key).iter().cloned().collect();
        (c.iter().copied().collect::<HashSet<u64>>(), w.iter().copied().collect::<HashSet<u64>>(), uis)
    };
    let seen = observe(tree, &|id| containers.contains(&id.0), &|id| widgets.contains(&id.0), &|id| {
        window_uis.contains_key(&id.0)
    });
    core.frame.lock().set_undescribed(key, seen.undescribed);
    let inside =
        seen.inside.into_iter().filter_map(|(node, blocks)| Some((window_uis.get(&node)?.clone(), blocks))).collect();
    let mut ids = HashSet::new();
    let windows = seen
        .windows
        .into_iter()
        .map(|w| {
            let mut app_id = app_id_of(&w);
            if !ids.insert(app_id.clone()) {
                // Two undescribed windows of one title: the second told apart by its node.
                app_id = format!("{app_id}-{:06x}", w.node & 0xff_ffff);
            }
            ReadOnlyWindow::new(app_id, w.title, w.summary, w.blocks)
        })
        .collect();
    Seen { windows, inside }
}

/// What one look found, to declare in its pass and again until the next look.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// The read-only windows.
    pub(crate) windows: Vec<ReadOnlyWindow>,
    /// By declared window (app id) found in the tree, the blocks of what it holds undescribed.
    pub(crate) inside: Vec<(String, Vec<Block>)>,
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
/// as long as the title does; a panel's title follows its first text, so a panel is known by
/// its node instead.
fn app_id_of(w: &ObservedWindow) -> String {
    if w.title.starts_with("Panel") {
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

/// Reads one pass's tree. A container is described when `containers` says so of its node or of
/// any node inside it (the app's window, or a panel the app drew a described window into); a
/// widget is described when `widgets` says so of it or of a node holding it.
pub(crate) fn observe(
    update: &TreeUpdate,
    containers: &dyn Fn(NodeId) -> bool,
    widgets: &dyn Fn(NodeId) -> bool,
    window_uis: &dyn Fn(NodeId) -> bool,
) -> Observation {
    let nodes: HashMap<NodeId, &Node> = update.nodes.iter().map(|(id, n)| (*id, n)).collect();
    let Some(root) = update.tree.as_ref().map(|t| t.root) else { return Observation::default() };
    let tree = Tree { nodes, described: &|id| containers(id) || widgets(id) };
    let mut top = Vec::new();
    tree.top_level(root, &mut top);
    let mut seen = Observation::default();
    for id in top {
        if tree.any_in(id, containers) {
            let title = tree.nodes.get(&id).and_then(|n| n.label()).map_or_else(|| "Panel".to_owned(), clip);
            tree.undescribed_in(id, &title, widgets, &mut seen.undescribed);
            tree.inside_windows(id, window_uis, &mut seen.inside);
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

struct Tree<'a> {
    nodes: HashMap<NodeId, &'a Node>,
    /// Described containers and widgets: left out of what is read, with all they hold.
    described: &'a dyn Fn(NodeId) -> bool,
}

/// What one input widget holds, read from its node.
struct Input {
    kind: &'static str,
    label: Option<String>,
    value: Value,
    sensitive: bool,
    disabled: bool,
}

/// What a container's walk collects, in order.
#[derive(Default)]
struct Content {
    text: Vec<String>,
    fields: Vec<FieldItem>,
    controls: Vec<Value>,
    widgets: Vec<(&'static str, String)>,
    more: usize,
}

impl Tree<'_> {
    /// The top-level containers under `id`: windows, dialogs and panels, not looking inside
    /// them (a window's own panels belong to it).
    fn top_level(&self, id: NodeId, out: &mut Vec<NodeId>) {
        let Some(node) = self.nodes.get(&id) else { return };
        for child in node.children() {
            match self.nodes.get(child).map(|n| n.role()) {
                Some(Role::Window | Role::Dialog | Role::AlertDialog | Role::Pane) => out.push(*child),
                Some(_) => self.top_level(*child, out),
                None => {}
            }
        }
    }

    /// Whether `pred` holds for `id` or a node inside it.
    fn any_in(&self, id: NodeId, pred: &dyn Fn(NodeId) -> bool) -> bool {
        pred(id) || self.nodes.get(&id).is_some_and(|n| n.children().iter().any(|c| self.any_in(*c, pred)))
    }

    /// For each declared window's contents `Ui` under `id`: blocks of the inputs and controls in
    /// it that no described widget holds (its plain text is left out: it is the app's decoration
    /// or what its blocks say already).
    fn inside_windows(&self, id: NodeId, window_uis: &dyn Fn(NodeId) -> bool, out: &mut Vec<(u64, Vec<Block>)>) {
        if window_uis(id) {
            let mut content = Content::default();
            self.walk(id, &mut content, false);
            let mut blocks = Vec::new();
            if !content.fields.is_empty() {
                blocks.push(Block::Fields { id: Some("undescribed-fields".to_owned()), items: content.fields });
            }
            if !content.controls.is_empty() {
                let items = content.controls;
                blocks.push(Block::List {
                    id: Some("undescribed-controls".to_owned()),
                    items,
                    ordered: false,
                    offset: None,
                    total: None,
                });
            }
            // Found, with or without blocks: a window not in the tree at all (egui's sizing pass
            // of a new window draws it unseen) keeps what the last look found.
            out.push((id.0, blocks));
            return;
        }
        for child in self.nodes.get(&id).map(|n| n.children()).unwrap_or_default() {
            self.inside_windows(*child, window_uis, out);
        }
    }

    /// The interactive widgets under `id` (in a described container titled `window`) that no
    /// described widget holds.
    fn undescribed_in(
        &self,
        id: NodeId,
        window: &str,
        widgets: &dyn Fn(NodeId) -> bool,
        out: &mut Vec<UndescribedWidget>,
    ) {
        let Some(node) = self.nodes.get(&id) else { return };
        for child in node.children() {
            let Some(n) = self.nodes.get(child) else { continue };
            if widgets(*child) || is_chrome(n) {
                continue;
            }
            let found = input(n).map(|i| (i.kind, i.label.unwrap_or_default())).or_else(|| {
                control(n)
                    .map(|(kind, item)| (kind, item.get(kind).and_then(Value::as_str).unwrap_or_default().to_owned()))
            });
            match found {
                Some((kind, label)) => out.push(UndescribedWidget { kind, label, window: window.to_owned() }),
                None => self.undescribed_in(*child, window, widgets, out),
            }
        }
    }

    /// The read-only window of container `id`; `root`: the viewport itself, read outside the
    /// containers it holds (they are read on their own).
    fn window(&self, id: NodeId, root: bool) -> Option<ObservedWindow> {
        let node = self.nodes.get(&id)?;
        let mut content = Content::default();
        self.walk(id, &mut content, root);
        let named = if root {
            Some("Main".to_owned())
        } else {
            node.label().map(str::trim).filter(|l| !l.is_empty()).map(clip)
        };
        let title = match named {
            Some(t) => t,
            None => match content.text.first() {
                Some(first) => format!("Panel: {}", first.chars().take(40).collect::<String>()),
                None => "Panel".to_owned(),
            },
        };
        let summary = summary(&content);
        let mut blocks = Vec::new();
        if !content.text.is_empty() {
            blocks.push(Block::Text { id: Some("text".to_owned()), text: content.text.join("\n") });
        }
        if !content.fields.is_empty() {
            blocks.push(Block::Fields { id: Some("fields".to_owned()), items: content.fields });
        }
        if !content.controls.is_empty() {
            blocks.push(Block::List {
                id: Some("controls".to_owned()),
                items: content.controls,
                ordered: false,
                offset: None,
                total: None,
            });
        }
        let widgets = content
            .widgets
            .into_iter()
            .map(|(kind, label)| UndescribedWidget { kind, label, window: title.clone() })
            .collect();
        Some(ObservedWindow { node: id.0, title, summary, blocks, widgets })
    }

    /// Collects the content under `id`, children in order; a label beside an input names it.
    fn walk(&self, id: NodeId, out: &mut Content, skip_containers: bool) {
        let Some(node) = self.nodes.get(&id) else { return };
        let children: Vec<(NodeId, &Node)> =
            node.children().iter().filter_map(|c| self.nodes.get(c).map(|n| (*c, *n))).collect();
        let mut used = vec![false; children.len()];
        // First the inputs claim their labels, so that a label drawn before its input is not
        // taken for text.
        let mut inputs: Vec<Option<Input>> = children.iter().map(|(_, n)| input(n)).collect();
        for k in 0..children.len() {
            let Some(input) = inputs[k].as_mut() else { continue };
            // egui's Slider carries a SpinButton of the same value: one field.
            let spin = children.get(k + 1).is_some_and(|(_, n)| n.role() == Role::SpinButton)
                && children[k].1.role() == Role::Slider;
            if spin {
                used[k + 1] = true;
            }
            if input.label.is_none() {
                let after = k + 1 + usize::from(spin);
                input.label = beside(&children, &mut used, k.checked_sub(1), after);
            }
        }
        for (k, (child, n)) in children.iter().enumerate() {
            let container = matches!(n.role(), Role::Window | Role::Dialog | Role::AlertDialog | Role::Pane);
            if used[k] || is_chrome(n) || (self.described)(*child) || (skip_containers && container) {
                continue;
            }
            if let Some(input) = inputs[k].take() {
                push_input(out, input);
            } else if let Some(control) = control(n) {
                push_control(out, control);
            } else if n.role() == Role::Label {
                if let Some(text) = n.value().or(n.label()).map(str::trim).filter(|t| !t.is_empty()) {
                    push_text(out, clip(text));
                }
            } else {
                // A group, or a container nested in this one: read as part of it.
                self.walk(*child, out, skip_containers);
            }
        }
    }
}

/// egui's window chrome: resize edges, the collapse and close buttons of the title bar.
fn is_chrome(n: &Node) -> bool {
    n.role() == Role::Splitter
        || n.role() == Role::Unknown
        || (n.role() == Role::Button && matches!(n.label(), Some("Hide" | "Show" | "Close window")))
}

/// The unused label at `before` (right before an input), else at `after` (right after it).
fn beside(children: &[(NodeId, &Node)], used: &mut [bool], before: Option<usize>, after: usize) -> Option<String> {
    let label_at = |i: usize| {
        let n = children[i].1;
        (n.role() == Role::Label).then(|| n.value().or(n.label())).flatten().map(str::trim).filter(|t| !t.is_empty())
    };
    let found = [before, Some(after)]
        .into_iter()
        .flatten()
        .filter(|i| *i < children.len() && !used[*i])
        .find_map(|i| label_at(i).map(|t| (i, clip(t))));
    let (i, text) = found?;
    used[i] = true;
    Some(text)
}

fn input(n: &Node) -> Option<Input> {
    let text = || Value::String(n.value().map(clip).unwrap_or_default());
    let number = || n.numeric_value().map_or(Value::Null, |v| json!(v));
    let (kind, value, sensitive) = match n.role() {
        Role::TextInput | Role::SearchInput | Role::EmailInput | Role::PhoneNumberInput | Role::UrlInput => {
            ("text input", text(), false)
        }
        Role::MultilineTextInput => ("multi-line text input", text(), false),
        // Whatever egui put in the node, only whether it is filled in leaves.
        Role::PasswordInput => ("password input", masked(n.value().is_some_and(|v| !v.is_empty())), true),
        Role::CheckBox | Role::Switch | Role::MenuItemCheckBox => {
            ("checkbox", Value::Bool(n.toggled() == Some(Toggled::True)), false)
        }
        Role::RadioButton | Role::MenuItemRadio => {
            ("radio button", Value::Bool(n.toggled() == Some(Toggled::True)), false)
        }
        Role::Slider => ("slider", number(), false),
        Role::SpinButton | Role::NumberInput => ("number input", number(), false),
        Role::ComboBox | Role::EditableComboBox => ("combo box", text(), false),
        Role::ProgressIndicator => ("progress", number(), false),
        _ => return None,
    };
    let label = n.label().map(str::trim).filter(|l| !l.is_empty()).map(clip);
    Some(Input { kind, label, value, sensitive, disabled: n.is_disabled() })
}

/// A control the person can press: `{kind: label}` and its state.
fn control(n: &Node) -> Option<(&'static str, Value)> {
    let kind = match n.role() {
        Role::Button | Role::DefaultButton => "button",
        Role::Link => "link",
        Role::MenuItem => "menu item",
        Role::Tab => "tab",
        Role::DisclosureTriangle => "section",
        _ => return None,
    };
    let label = clip(n.label().or(n.value()).map(str::trim).unwrap_or_default());
    let mut item = serde_json::Map::new();
    item.insert(kind.to_owned(), Value::String(label));
    if let Some(open) = n.is_expanded().filter(|_| n.role() == Role::DisclosureTriangle) {
        item.insert("open".to_owned(), Value::Bool(open));
    }
    // A selectable button (egui's `selectable_label`, `toggle_value`) or a tab says whether it
    // is the one selected.
    if n.toggled().is_some() || n.is_selected().is_some() {
        item.insert(
            "selected".to_owned(),
            Value::Bool(n.toggled() == Some(Toggled::True) || n.is_selected() == Some(true)),
        );
    }
    if n.is_disabled() {
        item.insert("disabled".to_owned(), Value::Bool(true));
    }
    Some((kind, Value::Object(item)))
}

fn push_text(out: &mut Content, text: String) {
    if out.text.len() < MAX_ITEMS {
        out.text.push(text);
    } else {
        out.more += 1;
    }
}

fn push_input(out: &mut Content, input: Input) {
    let label = input.label.unwrap_or_default();
    out.widgets.push((input.kind, label.clone()));
    if out.fields.len() >= MAX_ITEMS {
        out.more += 1;
        return;
    }
    let mut item = FieldItem::new(if label.is_empty() { input.kind.to_owned() } else { label }, input.value);
    item.sensitive = input.sensitive;
    item.disabled = input.disabled;
    out.fields.push(item);
}

fn push_control(out: &mut Content, (kind, item): (&'static str, Value)) {
    let label = item.get(kind).and_then(Value::as_str).unwrap_or_default().to_owned();
    out.widgets.push((kind, label));
    if out.controls.len() < MAX_ITEMS {
        out.controls.push(item);
    } else {
        out.more += 1;
    }
}

fn summary(c: &Content) -> String {
    let more = if c.more > 0 { format!(", and {} more items not shown", c.more) } else { String::new() };
    format!(
        "Not described by the app; read from what it draws, read-only (no tools): {} fields, {} controls{more}",
        c.fields.len(),
        c.controls.len()
    )
}

/// A label or value as the read view carries it: at most [`MAX_TEXT_CHARS`] characters.
fn clip(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(MAX_TEXT_CHARS).collect();
    if chars.next().is_some() { format!("{head}…") } else { head }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct App {
        name: String,
        password: String,
        on: bool,
        speed: f32,
        baud: u32,
    }

    fn draw(ctx: &egui::Context, app: &mut App, described: Option<egui::Id>) -> TreeUpdate {
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1200.0, 900.0))),
            ..Default::default()
        };
        let mut out = ctx.run_ui(raw, |ui| {
            egui::Panel::top("top").show(ui, |ui| {
                ui.heading("Serial monitor");
                drop(ui.button("Open file"));
            });
            egui::Window::new("Settings").show(ui.ctx(), |ui| {
                ui.label("Port settings");
                // In a grid, each label is the sibling before its input.
                egui::Grid::new("settings").show(ui, |ui| {
                    for (label, value, password) in
                        [("Name", &mut app.name, false), ("Password", &mut app.password, true)]
                    {
                        ui.label(label);
                        ui.add(egui::TextEdit::singleline(value).password(password));
                        ui.end_row();
                    }
                });
                ui.checkbox(&mut app.on, "Enabled");
                ui.add(egui::Slider::new(&mut app.speed, 0.0..=10.0).text("Speed"));
                egui::ComboBox::from_label("Baud").selected_text(app.baud.to_string()).show_ui(ui, |ui| {
                    ui.selectable_value(&mut app.baud, 9600, "9600");
                });
                ui.add_enabled(false, egui::Button::new("Disconnect"));
                let _ = ui.button("Connect");
                egui::CollapsingHeader::new("Advanced").show(ui, |ui| ui.label("hidden"));
            });
            if let Some(id) = described {
                egui::Window::new("Described").id(id).show(ui.ctx(), |ui| ui.label("declared"));
            }
        });
        out.textures_delta.clear();
        out.platform_output.accesskit_update.expect("accesskit is enabled")
    }

    fn app() -> App {
        App { name: "Grace".into(), password: "hunter2".into(), on: true, speed: 3.5, baud: 9600 }
    }

    fn observed(described: Option<egui::Id>) -> Vec<ObservedWindow> {
        let ctx = egui::Context::default();
        ctx.enable_accesskit();
        let mut app = app();
        drop(draw(&ctx, &mut app, described));
        let tree = draw(&ctx, &mut app, described);
        let described = described.map(|id| id.accesskit_id());
        observe(&tree, &|id| Some(id) == described, &|_| false, &|_| false).windows
    }

    fn field<'a>(w: &'a ObservedWindow, label: &str) -> &'a FieldItem {
        let Some(Block::Fields { items, .. }) = w.blocks.iter().find(|b| matches!(b, Block::Fields { .. })) else {
            panic!("no fields in {w:?}")
        };
        items.iter().find(|i| i.label == label).unwrap_or_else(|| panic!("no field {label} in {items:?}"))
    }

    fn controls(w: &ObservedWindow) -> Vec<Value> {
        w.blocks
            .iter()
            .find_map(|b| match b {
                Block::List { items, .. } => Some(items.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    #[test]
    fn an_undescribed_window_reads_as_title_labels_values_and_buttons() {
        let windows = observed(None);
        let settings = windows.iter().find(|w| w.title == "Settings").expect("the Settings window");
        assert_eq!(field(settings, "Name").value, json!("Grace"));
        assert_eq!(field(settings, "Enabled").value, json!(true));
        assert_eq!(field(settings, "Speed").value, json!(3.5));
        assert_eq!(field(settings, "Baud").value, json!("9600"));
        let pw = field(settings, "Password");
        assert_eq!((pw.value.clone(), pw.sensitive), (json!(crate::protocol::MASK), true));
        let c = controls(settings);
        assert!(c.contains(&json!({"button": "Connect"})), "{c:?}");
        assert!(c.contains(&json!({"button": "Disconnect", "disabled": true})), "{c:?}");
        assert!(c.contains(&json!({"section": "Advanced", "open": false})), "{c:?}");
        assert!(!c.iter().any(|i| i.get("button") == Some(&json!("Hide"))), "window chrome is left out: {c:?}");
        let Some(Block::Text { text, .. }) = settings.blocks.first() else { panic!("{settings:?}") };
        assert_eq!(text, "Port settings", "labels that name an input are not repeated as text");
        assert!(windows.iter().all(|w| w.title != "Main"), "nothing is drawn outside the panel and the window");
        let panel = windows.iter().find(|w| w.title.starts_with("Panel")).expect("the top panel");
        assert_eq!(panel.title, "Panel: Serial monitor");
        assert!(controls(panel).contains(&json!({"button": "Open file"})));
        let kinds: Vec<_> = settings.widgets.iter().map(|w| (w.kind, w.label.as_str())).collect();
        assert!(kinds.contains(&("button", "Connect")) && kinds.contains(&("text input", "Name")), "{kinds:?}");
    }

    #[test]
    fn no_password_leaves_the_tree_whatever_egui_puts_in_it() {
        let windows = observed(None);
        let json = serde_json::to_string(&windows.iter().map(|w| &w.blocks).collect::<Vec<_>>()).unwrap_or_default();
        assert!(!json.contains("hunter2"), "{json}");
    }

    #[test]
    fn a_described_window_is_left_out() {
        let id = egui::Id::unique("described-window");
        let windows = observed(Some(id));
        assert!(windows.iter().all(|w| w.title != "Described"), "{windows:?}");
        assert!(windows.iter().any(|w| w.title == "Settings"));
    }

    #[test]
    fn the_same_screen_reads_the_same_and_a_change_shows() {
        let ctx = egui::Context::default();
        ctx.enable_accesskit();
        let mut a = app();
        drop(draw(&ctx, &mut a, None));
        let first = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false).windows;
        let again = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false).windows;
        assert_eq!(first, again);
        a.name = "Ada".into();
        let changed = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false).windows;
        let settings = changed.iter().find(|w| w.title == "Settings").expect("Settings");
        assert_eq!(field(settings, "Name").value, json!("Ada"));
        assert_eq!(
            first.iter().map(|w| w.node).collect::<Vec<_>>(),
            changed.iter().map(|w| w.node).collect::<Vec<_>>(),
            "node ids are stable"
        );
    }
}
