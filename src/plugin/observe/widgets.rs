//! One node of the tree as the read view reads it: an input's value (a password masked), a
//! control's state, a label; and the limits on what one window carries.

use egui::accesskit::{Node, NodeId, Role, Toggled};
use serde_json::{Value, json};

use super::{MAX_ITEMS, MAX_TEXT_CHARS};
use crate::hub::UndescribedWidget;
use crate::protocol::{Block, FieldItem, masked};

/// What one input widget holds, read from its node.
pub(super) struct Input {
    pub(super) kind: &'static str,
    pub(super) label: Option<String>,
    pub(super) value: Value,
    pub(super) sensitive: bool,
    pub(super) disabled: bool,
}

/// What a container's walk collects, in order.
#[derive(Default)]
pub(super) struct Content {
    pub(super) text: Vec<String>,
    pub(super) fields: Vec<FieldItem>,
    pub(super) controls: Vec<Value>,
    pub(super) widgets: Vec<(&'static str, String)>,
    pub(super) more: usize,
}

/// egui's window chrome: resize edges, the collapse and close buttons of the title bar.
impl Content {
    /// What was collected as blocks (taken out): `{prefix}text` (when `with_text`),
    /// `{prefix}fields` and `{prefix}controls`, each only when it holds something.
    pub(super) fn blocks(&mut self, prefix: &str, with_text: bool) -> Vec<Block> {
        let mut blocks = Vec::new();
        if with_text && !self.text.is_empty() {
            blocks.push(Block::Text { id: Some(format!("{prefix}text")), text: self.text.join("\n") });
        }
        if !self.fields.is_empty() {
            blocks.push(Block::Fields { id: Some(format!("{prefix}fields")), items: std::mem::take(&mut self.fields) });
        }
        if !self.controls.is_empty() {
            let items = std::mem::take(&mut self.controls);
            blocks.push(Block::List {
                id: Some(format!("{prefix}controls")),
                items,
                ordered: false,
                offset: None,
                total: None,
            });
        }
        blocks
    }

    /// The interactive widgets collected (taken out), as the developer's list names them.
    pub(super) fn undescribed(&mut self, window: &str) -> Vec<UndescribedWidget> {
        std::mem::take(&mut self.widgets)
            .into_iter()
            .map(|(kind, label)| UndescribedWidget { kind, label, window: window.to_owned() })
            .collect()
    }
}

pub(super) fn is_chrome(n: &Node) -> bool {
    n.role() == Role::Splitter
        || n.role() == Role::Unknown
        || (n.role() == Role::Button && matches!(n.label(), Some("Hide" | "Show" | "Close window")))
}

/// The unused label at `before` (right before an input), else at `after` (right after it).
pub(super) fn beside(
    children: &[(NodeId, &Node)],
    used: &mut [bool],
    before: Option<usize>,
    after: usize,
) -> Option<String> {
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

pub(super) fn input(n: &Node) -> Option<Input> {
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
pub(super) fn control(n: &Node) -> Option<(&'static str, Value)> {
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

pub(super) fn push_text(out: &mut Content, text: String) {
    if out.text.len() < MAX_ITEMS {
        out.text.push(text);
    } else {
        out.more += 1;
    }
}

pub(super) fn push_input(out: &mut Content, input: Input) {
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

pub(super) fn push_control(out: &mut Content, (kind, item): (&'static str, Value)) {
    let label = item.get(kind).and_then(Value::as_str).unwrap_or_default().to_owned();
    out.widgets.push((kind, label));
    if out.controls.len() < MAX_ITEMS {
        out.controls.push(item);
    } else {
        out.more += 1;
    }
}

pub(super) fn summary(c: &Content) -> String {
    let more = if c.more > 0 { format!(", and {} more items not shown", c.more) } else { String::new() };
    format!(
        "Not described by the app; read from what it draws, read-only (no tools): {} fields, {} controls{more}",
        c.fields.len(),
        c.controls.len()
    )
}

/// A label or value as the read view carries it: at most [`MAX_TEXT_CHARS`] characters.
pub(super) fn clip(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(MAX_TEXT_CHARS).collect();
    if chars.next().is_some() { format!("{head}…") } else { head }
}
