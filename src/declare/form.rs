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
}

impl std::fmt::Debug for Form<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Form").field("items", &self.items.len()).finish_non_exhaustive()
    }
}

impl Form<'_> {
    fn row(&mut self, label: &str, add: impl FnOnce(&mut egui::Ui) -> egui::Response) -> egui::Response {
        let l = self.ui.label(label);
        let response = add(self.ui).labelled_by(l.id);
        self.ui.end_row();
        response
    }

    fn declare(&mut self, label: &str, value: Value, sensitive: bool) {
        (label, sensitive).hash(&mut self.hasher);
        super::content::hash_value(&value, &mut self.hasher);
        self.items.push(FieldItem { label: label.to_owned(), value, sensitive });
    }

    /// Whether the [`edit`](Self::edit) fields after this call can be edited (default: yes).
    /// Not editable, they are drawn as values and left out of the `edit_field` action (a
    /// submitted order, say).
    pub fn set_editable(&mut self, editable: bool) {
        self.editable = editable;
    }

    /// An editable field: the person's widget for `value` (a text edit, or a drag value for a
    /// number) following `input`'s rules, and the field agents read by the input's label and
    /// set through `edit_field {field: key, value}`. An agent's value is checked by the same
    /// rules and, if accepted, written into `value` before the widget is drawn; the field is then
    /// listed in [`FormResponse::changed`] by its `key`, as when the person edits it. A value the
    /// rules reject (a required field left empty) is shown under the widget with the message
    /// an agent would get.
    pub fn edit<V: Editable>(&mut self, key: &str, input: &Input, value: &mut V) -> egui::Response {
        let label = input.label();
        if !self.editable {
            let shown = agents_read(input, &value.to_value());
            let response = self.row(label, |ui| ui.label(display(&shown)));
            self.declare(label, shown, input.is_secret());
            return response;
        }
        if let Some(call) = self.edits.take_for(key) {
            match input.check(&call.args().value) {
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
        let response = self.row(label, |ui| {
            ui.vertical(|ui| {
                let r = value.widget(ui, input);
                if let Some(p) = &problem {
                    ui.colored_label(ui.visuals().error_fg_color, p);
                }
                r
            })
            .inner
        });
        if response.changed() {
            self.changed.push(key.to_owned());
        }
        self.declare(label, agents_read(input, &value.to_value()), input.is_secret());
        self.edits.fields.push(Editing { key: key.to_owned(), input: input.clone(), note: None });
        response
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
        self.declare(label, current, false);
        if self.editable {
            self.edits.fields.push(Editing { key: key.to_owned(), input: input.clone(), note: Some(note.to_owned()) });
        }
        response
    }

    /// A line of text the person edits; agents read it as the field `label` (and cannot set it:
    /// give it an [`Input`] with [`edit`](Self::edit) for that).
    pub fn text_edit(&mut self, label: &str, value: &mut String) -> egui::Response {
        let response = self.row(label, |ui| ui.text_edit_singleline(value));
        if response.changed() {
            self.changed.push(label.to_owned());
        }
        self.declare(label, Value::String(value.clone()), false);
        response
    }

    /// A secret the person types (shown as dots); agents read it masked at the source, as
    /// [`Fields::sensitive`](crate::blocks::Fields::sensitive) does: the plaintext never enters
    /// the state.
    pub fn secret(&mut self, label: &str, value: &mut String) -> egui::Response {
        let response = self.row(label, |ui| ui.add(egui::TextEdit::singleline(value).password(true)));
        if response.changed() {
            self.changed.push(label.to_owned());
        }
        self.declare(label, masked(!value.is_empty()), true);
        response
    }

    /// A value shown, not edited; agents read it as the field `label` (a number stays a
    /// number).
    pub fn value<'a>(&mut self, label: &str, value: impl Into<Cell<'a>>) -> egui::Response {
        let value = value.into().to_value();
        let response = self.row(label, |ui| ui.label(display(&value)));
        self.declare(label, value, false);
        response
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
    /// The fields the person or an agent changed: by key for [`Form::edit`], by label for
    /// [`Form::text_edit`] and [`Form::secret`].
    pub changed: Vec<String>,
}

impl WindowUi {
    /// Labelled fields in a grid for the person, declared to agents as one `fields` block
    /// `id` from the same values ([`Form::edit`], [`Form::derived`], [`Form::value`],
    /// [`Form::text_edit`], [`Form::secret`]). Editable fields give the window its
    /// `edit_field` action.
    pub fn form(&mut self, ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut Form<'_>)) -> FormResponse {
        self.claim_edit();
        let mut hasher = DefaultHasher::new();
        ("fields", id).hash(&mut hasher);
        let edits = &mut self.edits;
        let (items, hash, changed) = egui::Grid::new(("egui_mcp_bridge::form", id))
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                let mut form = Form { ui, edits, items: Vec::new(), hasher, changed: Vec::new(), editable: true };
                add(&mut form);
                (form.items, form.hasher.finish(), form.changed)
            })
            .inner;
        self.block_with_hash(hash, || Block::Fields { id: Some(id.to_owned()), items });
        FormResponse { changed }
    }
}
