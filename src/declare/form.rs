//! Forms: labelled fields drawn for the person and declared to agents as one `fields` block
//! from the same values. Editable fields ([`Form::edit`]) follow their [`Input`]'s rules and
//! give the window its `edit_field` action (`edit_action.rs`).

use std::hash::{DefaultHasher, Hash as _, Hasher as _};

use serde_json::{Value, json};

use super::content::Cell;
use super::edit_action::{Editing, Edits};
use super::{Editable, Input, WindowUi};
use crate::protocol::{Block, FieldItem, ToolError, masked};

/// The fields of a [`WindowUi::form`]: each one a widget for the person and a field for agents,
/// from the same value.
pub struct Form<'u> {
    ui: &'u mut egui::Ui,
    edits: &'u mut Edits,
    items: Vec<FieldItem>,
    hasher: DefaultHasher,
    changed: Vec<String>,
    editable: bool,
    /// What else decides whether the app allows a widget (the window's blocking, a collapsed
    /// section).
    gate: super::widgets::Gate,
    window: &'u str,
    /// The collapsed section the form is in: its fields are read, not edited, until it opens.
    collapsed: Option<&'u str>,
    /// Drawn in the app's own layout (each label beside its widget), not in a grid.
    inline: bool,
}

impl std::fmt::Debug for Form<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Form").field("items", &self.items.len()).finish_non_exhaustive()
    }
}

impl Form<'_> {
    fn row(&mut self, label: &str, add: impl FnOnce(&mut egui::Ui) -> egui::Response) -> egui::Response {
        if self.inline {
            // The label beside its widget, in whatever layout the app's `ui` has.
            return self
                .ui
                .horizontal(|ui| {
                    let l = ui.label(label);
                    add(ui).labelled_by(l.id)
                })
                .inner;
        }
        let l = self.ui.label(label);
        let response = add(self.ui).labelled_by(l.id);
        self.ui.end_row();
        response
    }

    fn declare(&mut self, item: FieldItem) {
        (&item.label, item.sensitive, &item.key, item.disabled).hash(&mut self.hasher);
        super::content::hash_value(&item.value, &mut self.hasher);
        self.items.push(item);
    }

    /// Whether the app lets the person change what is drawn now: the `ui` is enabled (the app
    /// did not disable it with `add_enabled_ui`, `ui.disable()` or a disabled parent), or only
    /// the bridge's blocking disabled it.
    fn app_enabled(&self) -> bool {
        self.gate.allows(self.ui)
    }

    /// Takes an agent's edit of `key` and refuses it: the field is drawn disabled, or is in a
    /// collapsed section.
    fn refuse_disabled(&mut self, key: &str, label: &str) {
        if let Some(call) = self.edits.take_for(key) {
            let why = match self.collapsed {
                Some(section) => {
                    format!("{label} is in the collapsed section \"{section}\": open it first with open_section")
                }
                None => format!("{label} cannot be changed now (it is disabled)"),
            };
            call.fail(ToolError::invalid_field("field", why));
        }
    }

    /// The [`edit`](Self::edit) and [`choice`](Self::choice) fields after this call are shown
    /// as values, not edited, and left out of the `edit_field` action (a submitted order, say):
    /// `if submitted { f.read_only(); }`.
    pub fn read_only(&mut self) {
        self.editable = false;
    }

    /// An editable field: the person's widget for `value` following `input`'s rules (a text
    /// edit, a drag value or slider for a number, a checkbox or switch for a `bool`, a colour
    /// button), and the field agents read by the input's label and set through
    /// `edit_field {field: key, value}` (the state names the `key`). An agent's value is checked
    /// by the same rules and, if accepted, written into `value` before the widget is drawn; the
    /// field is then listed in [`FormResponse::changed`] by its `key`, as when the person edits
    /// it. A value the rules reject (a required field left empty) is shown under the widget with
    /// the message an agent would get. Drawn in a disabled `ui` (`ui.add_enabled_ui(false, …)`),
    /// the field reads as disabled and agents cannot set it either.
    pub fn edit<V: Editable>(&mut self, key: &str, input: &Input, value: &mut V) -> egui::Response {
        if !V::fits(input) {
            misfit(self.window, key, std::any::type_name::<V>());
        }
        let input = &*V::narrow(input);
        let label = input.label();
        if !self.editable {
            let shown = agents_read(input, &value.to_value());
            let response = self.row(label, |ui| ui.label(display(&shown)));
            self.declare(FieldItem { sensitive: input.is_secret(), ..FieldItem::new(label, shown) });
            return response;
        }
        let enabled = self.app_enabled();
        if !enabled {
            self.refuse_disabled(key, label);
        } else if let Some(checked) = self.edits.multi_value(key, label) {
            value.set(&checked);
            self.changed.push(key.to_owned());
        } else if let Some(call) = self.edits.take_for(key) {
            let checked = input.check(&call.args().value).and_then(|checked| {
                let held = V::widget_holds(&checked);
                if held == checked {
                    Ok(checked)
                } else {
                    Err(format!("{label} cannot be {}: the widget holds it as {}", display(&checked), display(&held)))
                }
            });
            match checked {
                Ok(checked) => {
                    value.set(&checked);
                    self.changed.push(key.to_owned());
                    call.ok(format!("{label} updated")); // never the value: it may be a secret
                }
                Err(e) => call.fail(ToolError::invalid_field("value", e)),
            }
        }
        let current = value.to_value();
        let problem = match &current {
            Value::String(s) => input.check_text(s).err(),
            _ => None,
        };
        let response = if self.inline
            && let Some(r) = value.labelled_widget(self.ui, input)
        {
            // A checkbox with its text, as egui draws one on its own.
            r
        } else {
            self.row(label, |ui| {
                ui.vertical(|ui| {
                    let r = value.widget(ui, input);
                    if let Some(p) = &problem {
                        ui.colored_label(ui.visuals().error_fg_color, p);
                    }
                    r
                })
                .inner
            })
        };
        let response = hinted(response, input);
        if response.changed() {
            self.changed.push(key.to_owned());
        }
        let item =
            FieldItem { sensitive: input.is_secret(), ..FieldItem::new(label, agents_read(input, &value.to_value())) };
        self.declare_editable(key, input, item, enabled, (None, V::widget_holds));
        response
    }

    /// One of `options` (each a value and the text the person and agents read it by): a combo
    /// box, radio buttons or selectable labels as `input` says ([`Input::choice`]), and the field
    /// agents read as the chosen option's text and set through `edit_field` with any option's
    /// text (the schema lists them). A value that matches no option reads as `null`.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, Input};
    ///
    /// #[derive(Clone, Copy, PartialEq)]
    /// enum Parity { None, Even, Odd }
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut parity, mut baud) = (Parity::None, 9600_u32);
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("port").title("Port").ui(ui, |w, ui| {
    ///     w.form(ui, "settings", |f| {
    ///         let options = [(Parity::None, "None"), (Parity::Even, "Even"), (Parity::Odd, "Odd")];
    ///         f.choice("parity", &Input::choice("Parity").radio(), &mut parity, &options);
    ///         let bauds = [9600, 19200, 115_200].map(|b| (b, b.to_string()));
    ///         f.choice("baud", &Input::choice("Baud rate"), &mut baud, &bauds);
    ///     });
    /// });
    /// # });
    /// ```
    pub fn choice<T: PartialEq + Clone, S: AsRef<str>>(
        &mut self,
        key: &str,
        input: &Input,
        value: &mut T,
        options: &[(T, S)],
    ) -> egui::Response {
        if input.kind != super::input::Kind::Choice {
            misfit(self.window, key, "a choice of options");
        }
        let label = input.label();
        let chosen = |value: &T| options.iter().find(|(v, _)| v == value).map(|(_, t)| t.as_ref().to_owned());
        if !self.editable {
            let shown = chosen(value).map_or(Value::Null, Value::String);
            let response = self.row(label, |ui| ui.label(display(&shown)));
            self.declare(FieldItem::new(label, shown));
            return response;
        }
        let enabled = self.app_enabled();
        if !enabled {
            self.refuse_disabled(key, label);
        } else if let Some(checked) = self.edits.multi_value(key, label) {
            if let Ok(k) = pick(label, options, &checked) {
                *value = options[k].0.clone();
                self.changed.push(key.to_owned());
            }
        } else if let Some(call) = self.edits.take_for(key) {
            match pick(label, options, &call.args().value) {
                Ok(k) => {
                    *value = options[k].0.clone();
                    self.changed.push(key.to_owned());
                    call.ok(format!("{label} is {}", options[k].1.as_ref()));
                }
                Err(e) => call.fail(ToolError::invalid_field("value", e)),
            }
        }
        let response = self.row(label, |ui| choice_widget(ui, key, input, value, options));
        let response = hinted(response, input);
        if response.changed() {
            self.changed.push(key.to_owned());
        }
        let item = FieldItem::new(label, chosen(value).map_or(Value::Null, Value::String));
        let texts = options.iter().map(|(_, t)| t.as_ref().to_owned()).collect();
        self.declare_editable(key, input, item, enabled, (Some(texts), Value::clone));
        response
    }

    /// Declares an editable field: with its key while agents can set it, disabled while the app
    /// has its widget disabled.
    fn declare_editable(
        &mut self,
        key: &str,
        input: &Input,
        item: FieldItem,
        enabled: bool,
        (options, holds): (Option<Vec<String>>, Holds),
    ) {
        if enabled {
            self.declare(FieldItem { key: Some(key.to_owned()), ..item });
            let editing = Editing { key: key.to_owned(), input: input.clone(), note: None, options, holds };
            self.edits.fields.push(editing);
        } else if self.collapsed.is_some() {
            self.declare(item);
        } else {
            self.declare(FieldItem { disabled: true, ..item });
        }
    }

    /// A field the window works out from others (a total): shown to the person with `note`
    /// (what it follows), read by agents, and listed in `edit_field` so that an agent that sets
    /// it to the value it already has is answered yes; any other value is refused, saying what
    /// it follows. Nothing is set either way.
    pub fn derived(&mut self, key: &str, input: &Input, value: f64, note: &str) -> egui::Response {
        let label = input.label();
        let current = json!(value);
        if self.editable
            && let Some(call) = self.edits.take_for(key)
        {
            let same =
                input.check(&call.args().value).ok().and_then(|v| v.as_f64()).is_some_and(|v| (v - value).abs() < 1e-9);
            if same {
                call.ok(format!("{label} is {}, {note}", input.shown(value)));
            } else {
                let e = format!("{label} is {note} ({}); change that to change it", input.shown(value));
                call.fail(ToolError::invalid_field("value", e));
            }
        }
        let response = self.row(label, |ui| {
            ui.horizontal(|ui| {
                let r = ui.strong(input.shown(value));
                ui.weak(note);
                r
            })
            .inner
        });
        if self.editable {
            self.declare(FieldItem { key: Some(key.to_owned()), ..FieldItem::new(label, current) });
            let _ = self.edits.multi_value(key, label); // checked against its value already
            let note = Some((note.to_owned(), value));
            let editing =
                Editing { key: key.to_owned(), input: input.clone(), note, options: None, holds: Value::clone };
            self.edits.fields.push(editing);
        } else {
            self.declare(FieldItem::new(label, current));
        }
        response
    }

    /// A value shown, not edited; agents read it as the field `label` (a number stays a
    /// number).
    pub fn value<'a>(&mut self, label: &str, value: impl Into<Cell<'a>>) -> egui::Response {
        let value = value.into().to_value();
        let response = self.row(label, |ui| ui.label(display(&value)));
        self.declare(FieldItem::new(label, value));
        response
    }
}

/// What a field's widget holds of a checked value (`Editable::widget_holds`).
type Holds = fn(&Value) -> Value;

/// A type that cannot hold the input's kind (a `bool` with `Input::text`): said loudly, once
/// per window and field, naming both.
fn misfit(window: &str, key: &str, type_name: &str) {
    static WARNED: std::sync::LazyLock<parking_lot::Mutex<std::collections::HashSet<(String, String)>>> =
        std::sync::LazyLock::new(Default::default);
    let mut warned = WARNED.lock();
    if warned.len() < 1024 && warned.insert((window.to_owned(), key.to_owned())) {
        tracing::warn!(
            window,
            field = key,
            type_name,
            "this field's value type does not fit its Input's kind (a bool needs Input::checkbox, a number Input::number or Input::integer, text Input::text, a Color32 Input::color); agents cannot set it as the person can"
        );
    }
}

/// The widget's tooltip: the input's hint, for the person as agents read it.
fn hinted(response: egui::Response, input: &Input) -> egui::Response {
    match &input.look.hint {
        Some(hint) => response.on_hover_text(hint.as_ref()),
        None => response,
    }
}

/// The option an agent chose: by its exact text, or else by the one text that matches it
/// ignoring case and surrounding blanks.
pub(super) fn pick<T, S: AsRef<str>>(label: &str, options: &[(T, S)], value: &Value) -> Result<usize, String> {
    let texts = || options.iter().map(|(_, t)| t.as_ref()).collect::<Vec<_>>().join(", ");
    let Some(wanted) = value.as_str() else { return Err(format!("{label} must be one of: {}", texts())) };
    if let Some(k) = options.iter().position(|(_, t)| t.as_ref() == wanted) {
        return Ok(k);
    }
    let loose: Vec<usize> =
        (0..options.len()).filter(|&k| options[k].1.as_ref().trim().eq_ignore_ascii_case(wanted.trim())).collect();
    match loose[..] {
        [k] => Ok(k),
        _ => Err(format!("{label} must be one of: {}", texts())),
    }
}

/// The person's widget for a choice: a combo box, radio buttons or selectable labels.
fn choice_widget<T: PartialEq + Clone, S: AsRef<str>>(
    ui: &mut egui::Ui,
    key: &str,
    input: &Input,
    value: &mut T,
    options: &[(T, S)],
) -> egui::Response {
    use super::input::Widget;
    match input.look.widget {
        Widget::Radio | Widget::Selectable => {
            let radio = input.look.widget == Widget::Radio;
            // The row's label names the group; each button keeps its own option's text.
            let group = ui.horizontal_wrapped(|ui| {
                let mut changed = false;
                for (v, text) in options {
                    changed |= if radio {
                        ui.radio_value(value, v.clone(), text.as_ref()).changed()
                    } else {
                        ui.selectable_value(value, v.clone(), text.as_ref()).changed()
                    };
                }
                changed
            });
            let mut response = group.response;
            if group.inner {
                response.mark_changed();
            }
            response
        }
        _ => {
            let selected = options.iter().find(|(v, _)| v == value).map_or("", |(_, t)| t.as_ref());
            let mut changed = false;
            let mut combo = egui::ComboBox::from_id_salt(("egui_mcp_bridge::choice", key)).selected_text(selected);
            if let Some(width) = input.look.width {
                combo = combo.width(width);
            }
            let combo = combo.show_ui(ui, |ui| {
                for (v, text) in options {
                    changed |= ui.selectable_value(value, v.clone(), text.as_ref()).changed();
                }
            });
            let mut response = combo.response;
            if changed {
                response.mark_changed();
            }
            response
        }
    }
}

/// A field's value as agents read it: a secret masked at the source (only whether it is filled).
fn agents_read(input: &Input, value: &Value) -> Value {
    if input.is_secret() { masked(!value.as_str().is_some_and(str::is_empty)) } else { value.clone() }
}

/// A value as the person reads it: text as it is, numbers as JSON writes them.
pub(super) fn display(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// What a [`WindowUi::form`] gave: which fields changed in this pass.
#[derive(Clone, Debug, Default)]
pub struct FormResponse {
    /// The keys of the fields the person or an agent changed.
    pub changed: Vec<String>,
}

impl WindowUi {
    /// Labelled fields in a grid for the person, declared to agents as one `fields` block
    /// `id` from the same values ([`Form::edit`], [`Form::choice`], [`Form::derived`],
    /// [`Form::value`]). Editable fields give the window its `edit_field` action.
    pub fn form(&mut self, ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut Form<'_>)) -> FormResponse {
        let grid = egui::Grid::new(("egui_mcp_bridge::form", id)).num_columns(2).spacing([12.0, 6.0]);
        grid.show(ui, |ui| self.any_form(ui, id, false, add)).inner
    }

    /// Fields in the app's own layout, as egui draws them one by one: each label beside its
    /// widget (a checkbox's text in it), following `ui`'s layout, so that in `ui.horizontal`
    /// they sit in one row. Declared as [`form`](Self::form) declares them.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, Input};
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut grid, mut axes) = (true, false);
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("plot").title("Plot").ui(ui, |w, ui| {
    ///     ui.horizontal(|ui| {
    ///         w.inline_form(ui, "options", |f| {
    ///             f.edit("grid", &Input::checkbox("Show grid"), &mut grid);
    ///             f.edit("axes", &Input::checkbox("Show axes"), &mut axes);
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn inline_form(&mut self, ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut Form<'_>)) -> FormResponse {
        self.any_form(ui, id, true, add)
    }

    fn any_form(&mut self, ui: &mut egui::Ui, id: &str, inline: bool, add: impl FnOnce(&mut Form<'_>)) -> FormResponse {
        self.claim_edit();
        let mut hasher = DefaultHasher::new();
        ("fields", id).hash(&mut hasher);
        let (gate, window, collapsed) = (self.gate(), self.decl.app_id.as_str(), self.sections.inside.as_deref());
        let edits = &mut self.edits;
        let mut form = Form {
            ui,
            edits,
            items: Vec::new(),
            hasher,
            changed: Vec::new(),
            editable: true,
            gate,
            window,
            collapsed,
            inline,
        };
        add(&mut form);
        let (items, hash, changed) = (form.items, form.hasher.finish(), form.changed);
        self.block_with_hash(hash, || Block::Fields { id: Some(id.to_owned()), items });
        FormResponse { changed }
    }
}
