//! The walk over one pass's tree: its top-level containers, and what each holds.

use std::collections::HashMap;

use egui::accesskit::{Node, NodeId, Role};
use serde_json::Value;

use super::ObservedWindow;
use super::widgets::{
    Content, Input, TargetKind, beside, clip, control, input, is_chrome, is_symbolic, label_text, push_control,
    push_input, push_text, readable_of, row_name, row_text, senses_clicks, summary,
};

/// How a panel titled by its first text is titled: `Panel: Ready`.
const PANEL_TITLED: &str = "Panel: ";
/// The most characters of a panel's or dialog's first words its title takes.
const PANEL_TITLE_CHARS: usize = 40;

pub(super) struct Tree<'a> {
    pub(super) nodes: HashMap<NodeId, &'a Node>,
    /// Described containers and widgets: left out of what is read, with all they hold.
    pub(super) described: &'a dyn Fn(NodeId) -> bool,
    /// Agents may operate what is read (the summary says how).
    pub(super) operable: bool,
    /// The titles panels were given, by node: a panel keeps its title while it shows, whatever
    /// it comes to show (see [`Tree::panel_title`]).
    pub(super) panel_titles: &'a HashMap<u64, String>,
}

impl Tree<'_> {
    /// The top-level containers under `id`: windows, dialogs and panels, not looking inside
    /// them (a window's own panels belong to it).
    pub(super) fn top_level(&self, id: NodeId, out: &mut Vec<NodeId>) {
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
    pub(super) fn any_in(&self, id: NodeId, pred: &dyn Fn(NodeId) -> bool) -> bool {
        pred(id) || self.nodes.get(&id).is_some_and(|n| n.children().iter().any(|c| self.any_in(*c, pred)))
    }

    /// A container the app described (all of it, or a declared window inside it): the
    /// interactive widgets in it that nothing described holds, and for each declared window's
    /// contents `Ui` in it, blocks of the inputs and controls drawn there with plain egui (its
    /// plain text is left out: it is the app's decoration or what its blocks say already).
    pub(super) fn described_container(
        &self,
        id: NodeId,
        window_uis: &dyn Fn(NodeId) -> bool,
        seen: &mut super::Observation,
    ) {
        let title =
            self.nodes.get(&id).and_then(|n| readable_of(n.label())).map_or_else(|| "Panel".to_owned(), |t| clip(&t));
        let mut outside = Content::default();
        self.walk(id, &mut outside, false);
        seen.undescribed.extend(outside.undescribed(&title));
        self.inside_windows(id, window_uis, &title, seen);
    }

    /// The declared windows' contents `Ui`s under `id`, each read as in
    /// [`described_container`](Self::described_container).
    fn inside_windows(
        &self,
        id: NodeId,
        window_uis: &dyn Fn(NodeId) -> bool,
        title: &str,
        seen: &mut super::Observation,
    ) {
        if window_uis(id) {
            let mut content = Content::default();
            self.walk(id, &mut content, false);
            seen.undescribed.extend(content.undescribed(title));
            // Found, with or without blocks: a window not in the tree at all (egui's sizing pass
            // of a new window draws it unseen) keeps what the last look found.
            seen.inside.push((id.0, content.blocks("undescribed-", false)));
            return;
        }
        for child in self.nodes.get(&id).map(|n| n.children()).unwrap_or_default() {
            self.inside_windows(*child, window_uis, title, seen);
        }
    }

    /// A panel's title. Chosen when first seen, by its first text (a panel of buttons only, a
    /// menu bar, by them) and kept while it shows, so that it does not follow what the panel
    /// comes to show (the menu opened in it, the status bar's next message). Once the text it
    /// was titled by is shown there no more (a loading message, a status long gone), it is
    /// titled "Panel", and keeps that: no title rather than a stale one. (AccessKit gives a
    /// panel no bounds, so its place cannot name it.)
    fn panel_title(&self, id: NodeId, content: &Content, first_words: Option<&String>) -> String {
        let controls = || {
            let names: Vec<&str> = content.targets.iter().take(3).map(|t| t.label.as_str()).collect();
            (!names.is_empty()).then(|| names.join(", "))
        };
        let Some(kept) = self.panel_titles.get(&id.0) else {
            return match first_words.cloned().or_else(controls) {
                Some(first) => format!("{PANEL_TITLED}{}", first.chars().take(PANEL_TITLE_CHARS).collect::<String>()),
                None => "Panel".to_owned(),
            };
        };
        let Some(words) = kept.strip_prefix(PANEL_TITLED) else { return kept.clone() };
        // Its text, or the buttons it was titled by (a menu bar, a menu open in it or not; the
        // last name may be cut).
        let names: Vec<&str> = words.split(", ").collect();
        let button = |i: usize, name: &str| {
            content
                .targets
                .iter()
                .any(|t| if i + 1 == names.len() { t.label.starts_with(name) } else { t.label == name })
        };
        let shown =
            content.text.iter().any(|t| t.contains(words)) || names.iter().enumerate().all(|(i, n)| button(i, n));
        if shown { kept.clone() } else { "Panel".to_owned() }
    }

    /// The read-only window of container `id`; `root`: the viewport itself, read outside the
    /// containers it holds (they are read on their own).
    pub(super) fn window(&self, id: NodeId, root: bool) -> Option<ObservedWindow> {
        let node = self.nodes.get(&id)?;
        let mut content = Content { with_close: !root, ..Content::default() };
        self.walk(id, &mut content, root);
        let own = readable_of(node.label());
        let named = if root { Some("Main".to_owned()) } else { own.filter(|l| !is_symbolic(l)).map(|l| clip(&l)) };
        // Titled by words a person reads: never by a lone icon glyph.
        let first_words = content.text.iter().find(|t| !is_symbolic(t));
        // A window or dialog (an `egui::Modal`) without a title of words is titled by its first.
        let titled = !root && matches!(node.role(), Role::Window | Role::Dialog | Role::AlertDialog);
        let title = match (named.clone(), titled) {
            (Some(t), _) => t,
            (None, true) => {
                first_words.map_or_else(|| "Dialog".to_owned(), |t| t.chars().take(PANEL_TITLE_CHARS).collect())
            }
            (None, false) => self.panel_title(id, &content, first_words),
        };
        let summary = summary(&content, self.operable);
        let targets = std::mem::take(&mut content.targets);
        let labels = std::mem::take(&mut content.labels);
        let senses_clicks = content.senses_clicks;
        let blocks = content.blocks("", true);
        let widgets = content.undescribed(&title);
        let panel = named.is_none() && !titled;
        Some(ObservedWindow {
            node: id.0,
            panel,
            modal: false,
            title,
            summary,
            blocks,
            widgets,
            targets,
            labels,
            senses_clicks,
        })
    }

    /// The text of the label `n` is labelled by (egui's `labelled_by`, a combo box's label),
    /// marked used when it is one of `children`.
    fn labelled_by(&self, n: &Node, children: &[(NodeId, &Node)], used: &mut [bool]) -> Option<String> {
        let by = *n.labelled_by().first()?;
        let node = self.nodes.get(&by)?;
        // A label, or whatever else names it (a link to its documentation), read as shown.
        let text = label_text(node)
            .or_else(|| readable_of(node.label().or(node.value())))
            .filter(|t| !is_symbolic(t))
            .map(|t| clip(&t))?;
        if let Some(i) = children.iter().position(|(c, _)| *c == by).filter(|_| node.role() == Role::Label) {
            used[i] = true;
        }
        Some(text)
    }

    /// For each child that is a container whose first input has no name of its own (a `Grid`
    /// cell holding a `horizontal` of radio buttons), the label right before it, which names it.
    fn row_labels(
        &self,
        children: &[(NodeId, &Node)],
        inputs: &[Option<Input>],
        used: &mut [bool],
    ) -> Vec<Option<String>> {
        let mut rows = vec![None; children.len()];
        for k in 1..children.len() {
            if inputs[k].is_none() && control(children[k].1).is_none() && self.starts_unnamed(children[k].0) {
                rows[k] = beside(children, used, Some(k - 1), usize::MAX);
            }
        }
        rows
    }

    /// Names the input at `k` as a person reads it: its own label, else the row's (`row`, taken
    /// by the first unnamed input), `labelled_by`, the label beside it, and for a checkbox or
    /// radio button without text the name of its row.
    fn name_input(
        &self,
        input: &mut Input,
        k: usize,
        children: &[(NodeId, &Node)],
        used: &mut [bool],
        row: &mut Option<String>,
    ) {
        if input.label.is_none() {
            input.label = row.take();
        }
        // egui's Slider carries a SpinButton of the same value: one field.
        let spin = children.get(k + 1).is_some_and(|(_, n)| n.role() == Role::SpinButton)
            && children[k].1.role() == Role::Slider;
        if spin {
            used[k + 1] = true;
        }
        if input.label.is_none() {
            input.label = self.labelled_by(children[k].1, children, used);
        }
        if input.label.is_none() {
            // A radio group's row label is before it (after it come its other buttons); a text
            // edit its hint names is not named by what follows it on its line (a count, a unit
            // that changes with what is typed): the person reads the hint in the box.
            let hinted = input.target == TargetKind::Text && input.hint.is_some();
            let after = if input.options.is_empty() && !hinted { k + 1 + usize::from(spin) } else { usize::MAX };
            input.label = beside(children, used, k.checked_sub(1), after);
        }
        if input.label.is_none() && matches!(input.target, TargetKind::Checkbox | TargetKind::Radio) {
            input.label = row_name(children, k);
        }
        if input.label.is_none() {
            input.label = input.hint.take();
        }
    }

    /// Whether the first thing a person reads in `id` is an input without a name of its own (or
    /// a radio button, named by its option): the label before `id` then names it.
    fn starts_unnamed(&self, id: NodeId) -> bool {
        self.first_unnamed(id).unwrap_or(false)
    }

    /// See [`starts_unnamed`](Self::starts_unnamed): `None` when `id` holds nothing to read.
    fn first_unnamed(&self, id: NodeId) -> Option<bool> {
        let node = self.nodes.get(&id)?;
        node.children().iter().find_map(|child| {
            let n = self.nodes.get(child)?;
            if let Some(i) = input(n) {
                return Some(i.label.is_none() || i.target == TargetKind::Radio);
            }
            if n.role() == Role::Label || control(n).is_some() {
                return Some(false);
            }
            self.first_unnamed(*child)
        })
    }

    /// The menus open under widget `n` (its menu or context menu): their items, in order.
    fn walk_menus(&self, n: &Node, out: &mut Content, skip_containers: bool) {
        for item in n.children() {
            if self.nodes.get(item).is_some_and(|m| matches!(m.role(), Role::Menu | Role::MenuListPopup)) {
                self.walk_row(*item, out, skip_containers, None);
            }
        }
    }

    /// Collects the content under `id`, children in order; a label beside an input names it.
    pub(super) fn walk(&self, id: NodeId, out: &mut Content, skip_containers: bool) {
        self.walk_row(id, out, skip_containers, None);
    }

    /// [`walk`](Self::walk), with the label of the row this container is the value cell of (a
    /// `Grid` row: "Sort by", then the radio buttons in a `horizontal`): it names the
    /// container's first input when that has no name of its own.
    fn walk_row(&self, id: NodeId, out: &mut Content, skip_containers: bool, mut row: Option<String>) {
        let Some(node) = self.nodes.get(&id) else { return };
        let children: Vec<(NodeId, &Node)> =
            node.children().iter().filter_map(|c| self.nodes.get(c).map(|n| (*c, *n))).collect();
        let mut used = vec![false; children.len()];
        // First the inputs claim their labels, so that a label drawn before its input is not
        // taken for text.
        let mut inputs: Vec<Option<Input>> = children.iter().map(|(_, n)| input(n)).collect();
        radio_groups(&children, &mut inputs, &mut used);
        let mut rows = self.row_labels(&children, &inputs, &mut used);
        for (k, input) in inputs.iter_mut().enumerate() {
            if let Some(input) = input {
                self.name_input(input, k, &children, &mut used, &mut row);
            }
        }
        for (k, (child, n)) in children.iter().enumerate() {
            let container = matches!(n.role(), Role::Window | Role::Dialog | Role::AlertDialog | Role::Pane);
            if n.role() == Role::Unknown && !(self.described)(*child) {
                // A bare interaction (`ui.interact`, a background's own response): nothing to
                // read, but a person can right-click it, and choose from the context menu open
                // under it.
                // (Not a window's title bar: its double-click area, among the title bar's
                // chrome only.)
                let title_bar = children.iter().all(|(_, c)| is_chrome(c, false));
                out.senses_clicks |= !title_bar && senses_clicks(n);
                self.walk_menus(n, out, skip_containers);
            }
            if used[k] || is_chrome(n, out.with_close) || (self.described)(*child) || (skip_containers && container) {
                continue;
            }
            if let Some(input) = inputs[k].take() {
                push_input(out, *child, input);
            } else if let Some(mut control) = control(n) {
                if let Some(item) = control.1.as_object_mut().filter(|i| i.get(control.0) == Some(&Value::from(""))) {
                    // Only an icon, and no tooltip: the text of its row names it.
                    if let Some(text) = row_text(&children, k) {
                        item.insert(control.0.to_owned(), Value::String(text));
                    }
                }
                push_control(out, *child, control);
                // A menu open under its button: its items are pressed as the person would.
                self.walk_menus(n, out, skip_containers);
            } else if n.role() == Role::Label {
                // A label of an icon alone is no text to read.
                if let Some(text) = label_text(n) {
                    push_text(out, *child, n, clip(&text));
                }
                // Its context menu, open (a popup's node is a child of the widget it belongs to).
                self.walk_menus(n, out, skip_containers);
            } else {
                // A group, or a container nested in this one: read as part of it.
                let named = rows[k].take().or_else(|| row.take_if(|_| self.starts_unnamed(*child)));
                self.walk_row(*child, out, skip_containers, named);
            }
        }
    }
}

/// Radio buttons side by side (egui's `radio_value` in a row) are one choice: one field at the
/// first of them, named by its row's label, whose value is the selected option's text, set by
/// an option's text. A lone radio button stays a field of its own (`true` when selected).
fn radio_groups(children: &[(NodeId, &Node)], inputs: &mut [Option<Input>], used: &mut [bool]) {
    let radio: Vec<bool> = inputs.iter().map(|i| i.as_ref().is_some_and(|i| i.target == TargetKind::Radio)).collect();
    let mut k = 0;
    while k < children.len() {
        let end = (k..children.len()).find(|&j| !radio[j]).unwrap_or(children.len());
        if end - k >= 2 {
            let options: Vec<(u64, String, bool)> = (k..end)
                .filter_map(|j| {
                    let i = inputs[j].as_ref()?;
                    Some((children[j].0.0, i.label.clone().unwrap_or_default(), i.disabled))
                })
                .collect();
            let selected = (k..end).find(|&j| inputs[j].as_ref().is_some_and(|i| i.value == Value::Bool(true)));
            let value = selected.and_then(|j| inputs[j].as_ref()?.label.clone()).map_or(Value::Null, Value::String);
            let disabled = options.iter().all(|o| o.2);
            for j in k + 1..end {
                inputs[j] = None;
                used[j] = true;
            }
            if let Some(first) = inputs[k].as_mut() {
                first.kind = "radio group";
                first.target = TargetKind::RadioGroup;
                first.label = None;
                first.value = value;
                first.disabled = disabled;
                first.options = options.into_iter().filter(|o| !o.2).map(|(n, l, _)| (n, l)).collect();
            }
        }
        k = end.max(k + 1);
    }
}
