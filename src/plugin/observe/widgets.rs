//! One node of the tree as the read view reads it: an input's value (a password masked), a
//! control's state, a label a person would use; and the limits on what one window carries.

use std::borrow::Cow;

use egui::accesskit::{Action, Node, NodeId, Role, Toggled};
use serde_json::{Value, json};

use super::{MAX_ITEMS, MAX_TEXT_CHARS};
use crate::hub::UndescribedWidget;
use crate::protocol::{Block, FieldItem, masked};

/// What kind of widget an agent's generic tool acts on, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TargetKind {
    /// A text edit: set to the agent's text.
    Text,
    /// A password edit: set, never read.
    Password,
    /// A drag value, slider or spin button: set to the agent's number.
    Number,
    /// A checkbox or switch: clicked when its state is not the agent's.
    Checkbox,
    /// A radio button: clicked to select it.
    Radio,
    /// Radio buttons side by side: the one with the agent's text clicked.
    RadioGroup,
    /// A combo box: opened, then the option with the agent's text clicked.
    Combo,
    /// Something to press: a button, link, menu item, tab, selectable label, section header.
    Control,
    /// Read only: a progress bar.
    Shown,
}

/// One widget an agent may address in a window the app has not described: by its `key`
/// (unique in the window, kept for its node while the window is open), or by its label.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Target {
    /// Its AccessKit node id (its egui `Id`): where the action request goes.
    pub(crate) node: u64,
    pub(crate) kind: TargetKind,
    /// The label a person reads.
    pub(crate) label: String,
    /// Its key in the window (assigned per look, kept for its node).
    pub(crate) key: String,
    /// egui drew it disabled: neither the person nor an agent can use it now.
    pub(crate) disabled: bool,
    /// What it shows now (a password: masked).
    pub(crate) value: Value,
    /// A number's bounds, when egui gives them.
    pub(crate) range: (Option<f64>, Option<f64>),
    /// A radio group's enabled options: each button's node and text.
    pub(crate) options: Vec<(u64, String)>,
    /// A text edit of several lines (Enter there starts a new line rather than submitting).
    pub(crate) multiline: bool,
}

/// A label read as text that senses clicks (egui's labels do, to select their text, unless the
/// app turns that off): a person can right-click it, so an agent's secondary `press` can name
/// it by its text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Clickable {
    pub(crate) node: u64,
    pub(crate) text: String,
    pub(crate) disabled: bool,
}

/// The kind of a text edit of several lines, as the developer's list names it.
const MULTILINE: &str = "multi-line text input";

/// What one input widget holds, read from its node.
pub(super) struct Input {
    pub(super) kind: &'static str,
    pub(super) target: TargetKind,
    pub(super) label: Option<String>,
    /// A number's prefix or suffix (egui names a drag value by it): the name of last resort.
    pub(super) affix: Option<String>,
    /// A text edit's hint text, else the widget's tooltip: its name when nothing beside it names it.
    pub(super) hint: Option<String>,
    pub(super) value: Value,
    pub(super) sensitive: bool,
    pub(super) disabled: bool,
    pub(super) range: (Option<f64>, Option<f64>),
    /// A radio group's enabled options (see [`TargetKind::RadioGroup`]).
    pub(super) options: Vec<(u64, String)>,
}

/// What a container's walk collects, in order.
#[derive(Default)]
pub(super) struct Content {
    pub(super) text: Vec<String>,
    pub(super) fields: Vec<FieldItem>,
    pub(super) controls: Vec<Value>,
    /// The labels of `text` that sense clicks, in order.
    pub(super) labels: Vec<Clickable>,
    /// It holds something enabled the app made to sense clicks that is not a control: a label
    /// (`Label::sense`; egui's selectable text senses clicks too, but is not focusable) or a
    /// bare interaction (`ui.interact`, a background's own response).
    pub(super) senses_clicks: bool,
    /// The fields' and controls' targets, fields first (in the order of `fields`), each with a
    /// key from its label, unique in the content.
    pub(super) targets: Vec<Target>,
    pub(super) widgets: Vec<(&'static str, String)>,
    pub(super) more: usize,
    /// Its window's own close button (egui's title-bar ×) is read as a control: the content
    /// of a window the app has not described, which agents may close as the person does.
    pub(super) with_close: bool,
}

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

/// egui's window chrome: resize edges, the collapse and close buttons of the title bar.
pub(super) fn is_chrome(n: &Node, with_close: bool) -> bool {
    n.role() == Role::Splitter
        || n.role() == Role::Unknown
        || (n.role() == Role::Button && matches!(n.label(), Some("Hide" | "Show")))
        || (n.role() == Role::Button && n.label() == Some("Close window") && !with_close)
}

/// Whether a text names nothing a person could say: only symbols, punctuation or spaces.
pub(crate) fn is_symbolic(text: &str) -> bool {
    !text.chars().any(char::is_alphanumeric)
}

/// Whether `c` is in one of Unicode's private-use areas, where icon fonts (egui-phosphor,
/// codicons, Nerd Fonts) put their glyphs: a picture to the person, nothing to read.
pub(crate) fn is_private_use(c: char) -> bool {
    matches!(c, '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..='\u{ffffd}' | '\u{100000}'..='\u{10fffd}')
}

/// A text as the read view names things by: its icon glyphs dropped with the whitespace they
/// leave ("\u{eb28} main.rs" reads "main.rs", "Save \u{e161} now" reads "Save now"), trimmed;
/// `None` when nothing is left.
pub(crate) fn readable(text: &str) -> Option<Cow<'_, str>> {
    let text = if text.chars().any(is_private_use) {
        let mut out = String::with_capacity(text.len());
        let mut after_glyph = false;
        for c in text.chars() {
            if is_private_use(c) {
                after_glyph = true;
            } else if c.is_whitespace() && after_glyph && (out.is_empty() || out.ends_with(char::is_whitespace)) {
                // The space that set the glyph apart: one is kept between words, none at the start.
            } else {
                after_glyph = false;
                out.push(c);
            }
        }
        let trimmed = out.trim();
        if trimmed.len() == out.len() { Cow::Owned(out) } else { Cow::Owned(trimmed.to_owned()) }
    } else {
        Cow::Borrowed(text.trim())
    };
    (!text.is_empty()).then_some(text)
}

/// [`readable`] of an optional text.
pub(super) fn readable_of(text: Option<&str>) -> Option<Cow<'_, str>> {
    text.and_then(readable)
}

/// The text a label node shows, readable; `None` when nothing is.
pub(super) fn label_text(n: &Node) -> Option<Cow<'_, str>> {
    (n.role() == Role::Label).then(|| readable_of(n.value().or(n.label()))).flatten()
}

/// The text a person reads in the row of the control at `k` that has no name of its own: the
/// nearest label beside it on the same line (after it, else before it), which keeps its own
/// place as text.
pub(super) fn row_text(children: &[(NodeId, &Node)], k: usize) -> Option<String> {
    let line = |n: &Node| match (children[k].1.bounds(), n.bounds()) {
        (Some(a), Some(b)) => a.y0 < b.y1 && b.y0 < a.y1,
        _ => true,
    };
    let name = |n: &Node| label_text(n).filter(|t| !is_symbolic(t) && line(n)).map(|t| clip(&t));
    children[k + 1..].iter().chain(children[..k].iter().rev()).find_map(|(_, n)| name(n))
}

/// The unused label at `before` (right before an input), else at `after` (right after it).
pub(super) fn beside(
    children: &[(NodeId, &Node)],
    used: &mut [bool],
    before: Option<usize>,
    after: usize,
) -> Option<String> {
    let found = [before, Some(after)]
        .into_iter()
        .flatten()
        .filter(|i| *i < children.len() && !used[*i])
        .find_map(|i| label_text(children[i].1).filter(|t| !is_symbolic(t)).map(|t| (i, clip(&t))));
    let (i, text) = found?;
    used[i] = true;
    Some(text)
}

/// The name a row gives a checkbox or radio button drawn without text (a file tree's row: the
/// checkbox, then the file's name as a selectable label or button): the nearest sibling after
/// it with a name, else before it. The sibling keeps its own place.
pub(super) fn row_name(children: &[(NodeId, &Node)], k: usize) -> Option<String> {
    let name = |n: &Node| label_text(n).or_else(|| control_label(n)).filter(|t| !is_symbolic(t)).map(|t| clip(&t));
    children[k + 1..].iter().chain(children[..k].iter().rev()).find_map(|(_, n)| name(n))
}

pub(super) fn input(n: &Node) -> Option<Input> {
    let text = || Value::String(n.value().map(clip).unwrap_or_default());
    // What a combo box or colour shows is a name the app gave its option: read as one.
    let shown = || Value::String(readable_of(n.value()).map(|v| clip(&v)).unwrap_or_default());
    let number = || n.numeric_value().map_or(Value::Null, number_value);
    let toggled = || match n.toggled() {
        Some(Toggled::True) => Value::Bool(true),
        // A tri-state checkbox in its third state reads as such, not as ticked.
        Some(Toggled::Mixed) => Value::String("mixed".to_owned()),
        _ => Value::Bool(false),
    };
    let (kind, target, value, sensitive) = match n.role() {
        Role::TextInput | Role::SearchInput | Role::EmailInput | Role::PhoneNumberInput | Role::UrlInput => {
            ("text input", TargetKind::Text, text(), false)
        }
        Role::MultilineTextInput => (MULTILINE, TargetKind::Text, text(), false),
        // Whatever egui put in the node, only whether it is filled in leaves.
        Role::PasswordInput => {
            ("password input", TargetKind::Password, masked(n.value().is_some_and(|v| !v.is_empty())), true)
        }
        Role::CheckBox | Role::Switch | Role::MenuItemCheckBox => ("checkbox", TargetKind::Checkbox, toggled(), false),
        Role::RadioButton | Role::MenuItemRadio => ("radio button", TargetKind::Radio, toggled(), false),
        // A slider without a value (a range slider's track) is read, not set.
        Role::Slider if n.numeric_value().is_none() => ("slider", TargetKind::Shown, Value::Null, false),
        Role::Slider => ("slider", TargetKind::Number, number(), false),
        // A colour button: its colour is read; choosing one takes its picker.
        Role::ColorWell => ("colour", TargetKind::Shown, shown(), false),
        Role::SpinButton | Role::NumberInput => ("number input", TargetKind::Number, number(), false),
        Role::ComboBox | Role::EditableComboBox => ("combo box", TargetKind::Combo, shown(), false),
        Role::ProgressIndicator => ("progress", TargetKind::Shown, number(), false),
        _ => return None,
    };
    // A text the person cannot type in (`TextEdit::interactive(false)`, or over a `&str`):
    // egui marks it read only; it is read, and no agent sets it either.
    let target = if n.is_read_only() && matches!(target, TargetKind::Text | TargetKind::Password) {
        TargetKind::Shown
    } else {
        target
    };
    let own = readable_of(n.label());
    let tooltip = || readable_of(n.description()).map(|d| clip(&d));
    // egui names a drag value or slider by its prefix or suffix ("files" of "100 files"): that
    // is a unit, not a name; the row's label names it better.
    let shown = n.value().unwrap_or_default();
    let is_affix = |l: &str| {
        matches!(target, TargetKind::Number) && !shown.is_empty() && (shown.starts_with(l) || shown.ends_with(l))
    };
    let (label, affix) = match own {
        Some(l) if is_affix(&l) => (None, Some(clip(&l)).filter(|a| !is_symbolic(a))),
        Some(l) if is_symbolic(&l) => (tooltip(), None),
        Some(l) => (Some(clip(&l)), None),
        None => (None, None),
    };
    // A text edit's hint ("Search files..."), else a tooltip: what names it when nothing beside it does.
    let hint = readable_of(n.placeholder()).map(|h| clip(&h)).filter(|h| !is_symbolic(h)).or_else(tooltip);
    let range = (n.min_numeric_value(), n.max_numeric_value());
    Some(Input {
        kind,
        target,
        label,
        affix,
        hint,
        value,
        sensitive,
        disabled: n.is_disabled(),
        range,
        options: Vec::new(),
    })
}

/// A number as a person reads it: a whole number without a fraction (a `u32` reads `100`, not
/// `100.0`).
fn number_value(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 { json!(v as i64) } else { json!(v) }
}

/// The name of a control: its label, or its tooltip when the label is only an icon (an icon
/// glyph alone is no name: without a tooltip the row's text or its place names it).
fn control_label(n: &Node) -> Option<Cow<'_, str>> {
    let own = readable_of(n.label().or(n.value()));
    match own {
        Some(l) if is_symbolic(&l) => readable_of(n.description()).or(Some(l)),
        other => other.or_else(|| readable_of(n.description())),
    }
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
    let label = control_label(n).map(|l| clip(&l)).unwrap_or_default();
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

/// Whether the app made `n` sense clicks (a click-sensing widget is focusable; egui's
/// selectable text is not).
pub(super) fn senses_clicks(n: &Node) -> bool {
    n.supports_action(Action::Click) && n.supports_action(Action::Focus) && !n.is_disabled()
}

pub(super) fn push_text(out: &mut Content, node: NodeId, n: &Node, text: String) {
    if out.text.len() < MAX_ITEMS {
        if n.supports_action(Action::Click) {
            out.labels.push(Clickable { node: node.0, text: text.clone(), disabled: n.is_disabled() });
            out.senses_clicks |= senses_clicks(n);
        }
        out.text.push(text);
    } else {
        out.more += 1;
    }
}

pub(super) fn push_input(out: &mut Content, node: NodeId, input: Input) {
    let label = input.label.or(input.affix).unwrap_or_default();
    out.widgets.push((input.kind, label.clone()));
    if out.fields.len() >= MAX_ITEMS {
        out.more += 1;
        return;
    }
    // Nothing names it: its kind and its place among the window's fields ("text input 3").
    let label = if label.is_empty() { format!("{} {}", input.kind, out.fields.len() + 1) } else { label };
    let mut item = FieldItem::new(label.clone(), input.value.clone());
    item.sensitive = input.sensitive;
    item.disabled = input.disabled;
    out.fields.push(item);
    let at = out.fields.len() - 1;
    out.targets.insert(
        at,
        Target {
            node: node.0,
            kind: input.target,
            label,
            key: String::new(),
            disabled: input.disabled,
            value: input.value,
            range: input.range,
            options: input.options,
            multiline: input.kind == MULTILINE,
        },
    );
}

pub(super) fn push_control(out: &mut Content, node: NodeId, (kind, mut item): (&'static str, Value)) {
    if let Some(obj) = item.as_object_mut().filter(|o| o.get(kind).and_then(Value::as_str).is_none_or(str::is_empty)) {
        // Nothing names it: its kind and its place among the window's controls ("button 4").
        obj.insert(kind.to_owned(), Value::String(format!("{kind} {}", out.controls.len() + 1)));
    }
    let label = item.get(kind).and_then(Value::as_str).unwrap_or_default().to_owned();
    out.widgets.push((kind, label.clone()));
    if out.controls.len() < MAX_ITEMS {
        let disabled = item.get("disabled").is_some();
        // Its state, to tell what a press changed: selected, open.
        let state: serde_json::Map<String, Value> =
            ["selected", "open"].iter().filter_map(|k| Some(((*k).to_owned(), item.get(*k)?.clone()))).collect();
        out.controls.push(item);
        out.targets.push(Target {
            node: node.0,
            kind: TargetKind::Control,
            label,
            key: String::new(),
            disabled,
            value: if state.is_empty() { Value::Null } else { Value::Object(state) },
            range: (None, None),
            options: Vec::new(),
            multiline: false,
        });
    } else {
        out.more += 1;
    }
}

pub(super) fn summary(c: &Content, operable: bool) -> String {
    let more = if c.more > 0 { format!(", and {} more items not shown", c.more) } else { String::new() };
    let how = if operable { "operable through edit_field and press by key" } else { "read-only (no tools)" };
    format!(
        "Not described by the app; read from what it draws, {how}: {} fields, {} controls{more}",
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
