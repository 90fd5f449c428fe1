//! Forms: labelled fields drawn for the person and declared to agents from the same values,
//! and the rules of an editable field ([`Input`]) written once, for the person's widget, the
//! agent's edit tool's schema and the check of what an agent sends.
//!
//! A window whose forms hold editable fields ([`Form::edit`]) gets an `edit_field` action
//! derived from them: `{field, value}`, with `field` one of their keys. The agent's value is
//! checked by the field's [`Input`] and, if accepted, written into the very value the person's
//! widget edits, in the same pass, before the widget is drawn.

use std::borrow::Cow;
use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::ops::RangeInclusive;
use std::sync::{Arc, LazyLock};

use parking_lot::Mutex;
use serde_json::{Map, Value, json};

use super::content::Cell;
use super::{Call, WindowUi};
use crate::hub::decl::ActionDecl;
use crate::hub::{ActionSpec, add_expected_version};
use crate::protocol::{Block, FieldItem, ToolError, masked};

/// The name of the edit action derived from a window's editable fields.
pub(crate) const EDIT_ACTION: &str = "edit_field";

/// Longest text of a text field without [`Input::max_chars`].
const TEXT_CHARS: usize = 1000;

/// An editable field's label and rules (kind, range, length, required), written once: the
/// person's widget follows them (a text edit's character limit, a drag value's range and
/// decimals), the derived `edit_field` tool lists them, and an agent's value is checked by
/// them ([`Input::check`]), so the person and the agent never meet different rules.
///
/// ```
/// use egui_mcp_bridge::Input;
/// use serde_json::json;
///
/// let quantity = Input::integer("Quantity", 1..=999);
/// assert!(quantity.check(&json!(3)).is_ok());
/// assert_eq!(quantity.check(&json!(0)).unwrap_err(), "Quantity must be 1 to 999");
/// let name = Input::text("Name").max_chars(5).required();
/// assert_eq!(name.check(&json!("")).unwrap_err(), "Name cannot be empty");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    label: Cow<'static, str>,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Text { max_chars: usize, secret: bool, required: bool },
    Number { min: f64, max: f64, decimals: Option<u8> },
}

impl Input {
    /// A line of text: no line break, at most 1,000 characters unless
    /// [`max_chars`](Self::max_chars) says.
    pub fn text(label: impl Into<Cow<'static, str>>) -> Self {
        Self { label: label.into(), kind: Kind::Text { max_chars: TEXT_CHARS, secret: false, required: false } }
    }

    /// A secret line of text: drawn as dots, read by agents masked at the source (the
    /// plaintext never enters the state), never echoed in a result.
    pub fn secret(label: impl Into<Cow<'static, str>>) -> Self {
        Self { label: label.into(), kind: Kind::Text { max_chars: TEXT_CHARS, secret: true, required: false } }
    }

    /// A number in `range` (any decimals unless [`decimals`](Self::decimals) says).
    pub fn number(label: impl Into<Cow<'static, str>>, range: RangeInclusive<f64>) -> Self {
        Self { label: label.into(), kind: Kind::Number { min: *range.start(), max: *range.end(), decimals: None } }
    }

    /// A whole number in `range`.
    #[allow(clippy::cast_precision_loss)] // field ranges are far below 2^52
    pub fn integer(label: impl Into<Cow<'static, str>>, range: RangeInclusive<i64>) -> Self {
        let (min, max) = (*range.start() as f64, *range.end() as f64);
        Self { label: label.into(), kind: Kind::Number { min, max, decimals: Some(0) } }
    }

    /// At most `n` characters (text).
    #[must_use]
    pub fn max_chars(mut self, n: usize) -> Self {
        if let Kind::Text { max_chars, .. } = &mut self.kind {
            *max_chars = n;
        }
        self
    }

    /// Not empty (text; blanks alone count as empty).
    #[must_use]
    pub fn required(mut self) -> Self {
        if let Kind::Text { required, .. } = &mut self.kind {
            *required = true;
        }
        self
    }

    /// At most `n` decimals (number): `2` for money in whole cents.
    #[must_use]
    pub fn decimals(mut self, n: u8) -> Self {
        if let Kind::Number { decimals, .. } = &mut self.kind {
            *decimals = Some(n);
        }
        self
    }

    /// The label the person reads and agents read the field by.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// A number as the person reads it: with the input's decimals (`224.30`).
    fn shown(&self, n: f64) -> String {
        match self.kind {
            Kind::Number { decimals: Some(d), .. } => format!("{n:.*}", usize::from(d)),
            _ => num(n),
        }
    }

    fn is_secret(&self) -> bool {
        matches!(self.kind, Kind::Text { secret: true, .. })
    }

    /// Checks a value an agent sent for this field by the field's rules: the value to set, or
    /// what is wrong (naming the field by its label). A number may come as a string holding
    /// one (`"$1,234.50"`: a leading `$` and thousands commas are ignored).
    ///
    /// # Errors
    /// The message the person's widget shows for the same value.
    pub fn check(&self, value: &Value) -> Result<Value, String> {
        let label = &self.label;
        match self.kind {
            Kind::Text { .. } => {
                let Value::String(text) = value else { return Err(format!("{label} must be text")) };
                self.check_text(text)?;
                Ok(value.clone())
            }
            Kind::Number { .. } => {
                let n = match value {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().trim_start_matches('$').replace(',', "").parse::<f64>().ok(),
                    _ => None,
                }
                .ok_or_else(|| format!("{label} must be a number"))?;
                self.check_number(n)
            }
        }
    }

    /// The text rules alone: what the person's text edit shows under a value that breaks them.
    fn check_text(&self, text: &str) -> Result<(), String> {
        let label = &self.label;
        let Kind::Text { max_chars, required, .. } = self.kind else { return Ok(()) };
        if required && text.trim().is_empty() {
            return Err(format!("{label} cannot be empty"));
        }
        if text.contains(['\n', '\r']) {
            // The person's text edit is one line: it holds no line break.
            return Err(format!("{label} must be one line"));
        }
        if text.chars().count() > max_chars {
            return Err(format!("{label} must be at most {max_chars} characters"));
        }
        Ok(())
    }

    fn check_number(&self, n: f64) -> Result<Value, String> {
        let Kind::Number { min, max, decimals } = self.kind else { return Err(format!("{} must be text", self.label)) };
        let in_steps = decimals.is_none_or(|d| {
            let scaled = n * 10f64.powi(i32::from(d));
            (scaled - scaled.round()).abs() < 1e-6
        });
        if !n.is_finite() || !(min..=max).contains(&n) || !in_steps {
            let steps = match decimals {
                Some(0) | None => String::new(),
                Some(d) => format!(", at most {d} decimals"),
            };
            return Err(format!("{} must be {} to {}{steps}", self.label, num(min), num(max)));
        }
        Ok(if decimals == Some(0) { json!(n.round() as i64) } else { json!(n) })
    }

    /// The JSON type of the field's values.
    fn json_type(&self) -> &'static str {
        match self.kind {
            Kind::Text { .. } => "string",
            Kind::Number { decimals: Some(0), .. } => "integer",
            Kind::Number { .. } => "number",
        }
    }

    /// The rules in a few words ("≤100 chars, required", "1-999", "secret, ≤23 chars"), as the
    /// derived `edit_field` lists them: for the description of an explicit action whose
    /// parameters follow the same inputs. (The schema gives the type; the words are few, as
    /// every listing carries them.)
    pub fn rules(&self) -> String {
        match self.kind {
            Kind::Text { max_chars, secret, required } => {
                let secret = if secret { "secret, " } else { "" };
                let required = if required { ", required" } else { "" };
                format!("{secret}≤{max_chars} chars{required}")
            }
            Kind::Number { min, max, decimals } => {
                let d = decimals.filter(|d| *d > 0).map(|d| format!(", {d} decimals")).unwrap_or_default();
                format!("{}-{}{d}", num(min), num(max))
            }
        }
    }
}

/// A number as a person writes it in a rule: no `.0` on whole numbers.
fn num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") }
}

/// A value a [`Form::edit`] field edits: a line of text, or a number.
pub trait Editable: sealed::Sealed {
    /// The value as agents read it.
    fn to_value(&self) -> Value;
    /// Sets it from a value [`Input::check`] accepted.
    fn set(&mut self, checked: &Value);
    /// The person's widget for it, following `input`'s rules.
    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for String {}
    impl Sealed for f64 {}
    impl Sealed for i64 {}
}

impl Editable for String {
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }

    fn set(&mut self, checked: &Value) {
        if let Value::String(s) = checked {
            self.clone_from(s);
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        let (max, secret) = match input.kind {
            Kind::Text { max_chars, secret, .. } => (max_chars, secret),
            Kind::Number { .. } => (TEXT_CHARS, false),
        };
        let response = ui.add(egui::TextEdit::singleline(self).char_limit(max).password(secret));
        if response.changed() && self.contains(['\n', '\r']) {
            // One line, as an agent's must be (egui inserts a text event holding a line break).
            self.retain(|c| c != '\n' && c != '\r');
        }
        response
    }
}

impl Editable for f64 {
    fn to_value(&self) -> Value {
        json!(self)
    }

    fn set(&mut self, checked: &Value) {
        if let Some(n) = checked.as_f64() {
            *self = n;
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        let mut drag = egui::DragValue::new(self);
        if let Kind::Number { min, max, decimals } = input.kind {
            drag = drag.range(min..=max);
            if let Some(d) = decimals {
                drag = drag.fixed_decimals(usize::from(d));
            }
        }
        let response = ui.add(drag);
        if response.changed()
            && let Kind::Number { decimals: Some(d), .. } = input.kind
        {
            // A typed value holds at most the input's decimals, as an agent's must.
            let scale = 10f64.powi(i32::from(d));
            *self = (*self * scale).round() / scale;
        }
        response
    }
}

impl Editable for i64 {
    fn to_value(&self) -> Value {
        json!(self)
    }

    fn set(&mut self, checked: &Value) {
        if let Some(n) = checked.as_i64() {
            *self = n;
        }
    }

    #[allow(clippy::cast_possible_truncation)] // the range came from i64s
    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        let mut drag = egui::DragValue::new(self);
        if let Kind::Number { min, max, .. } = input.kind {
            drag = drag.range(min as i64..=max as i64);
        }
        ui.add(drag)
    }
}

/// `edit_field`'s arguments.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EditArgs {
    field: String,
    value: Value,
}

/// One editable field of a window, for the derived edit action.
#[derive(Debug, Hash)]
struct Editing {
    key: String,
    json_type: &'static str,
    rules: String,
    note: Option<String>,
}

/// A window's editable fields in this pass, and the agent's edit until a field takes it.
#[derive(Debug, Default)]
pub(crate) struct Edits {
    claimed: bool,
    call: Option<Call<EditArgs>>,
    fields: Vec<Editing>,
}

impl Edits {
    /// Takes the agent's edit if it is for `key`.
    fn take_for(&mut self, key: &str) -> Option<Call<EditArgs>> {
        if self.call.as_ref().is_some_and(|c| c.args().field == key) { self.call.take() } else { None }
    }
}

/// The schemas of derived edit actions, by the fields they list (bounded: cleared when full).
type Schema = Arc<Map<String, Value>>;
static SCHEMAS: LazyLock<Mutex<std::collections::HashMap<u64, Schema>>> = LazyLock::new(Mutex::default);

impl WindowUi {
    /// Declares the `edit_field` action derived from this pass's editable fields, and answers
    /// an agent's edit that named no field of them.
    pub(super) fn finish_edits(&mut self) {
        let edits = std::mem::take(&mut self.edits);
        if let Some(call) = edits.call {
            let keys: Vec<&str> = edits.fields.iter().map(|f| f.key.as_str()).collect();
            call.fail(ToolError::invalid_field("field", format!("must be one of: {}", keys.join(", "))));
        }
        if edits.fields.is_empty() {
            return;
        }
        let mut h = DefaultHasher::new();
        edits.fields.hash(&mut h);
        let hash = h.finish();
        let schema = {
            let mut cache = SCHEMAS.lock();
            if cache.len() > 256 {
                cache.clear();
            }
            Arc::clone(cache.entry(hash).or_insert_with(|| Arc::new(edit_schema(&edits.fields))))
        };
        let description = edits
            .fields
            .iter()
            .map(|f| match &f.note {
                Some(note) => format!("{} (= {note})", f.key),
                None => format!("{} ({})", f.key, f.rules),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let spec = ActionSpec::new("Edit field").idempotent().description(format!("Set one field: {description}"));
        self.decl.actions.push(ActionDecl { name: EDIT_ACTION.to_owned(), schema, spec });
    }
}

fn edit_schema(fields: &[Editing]) -> Map<String, Value> {
    let keys: Vec<&str> = fields.iter().map(|f| f.key.as_str()).collect();
    let mut types: Vec<&str> = fields.iter().map(|f| f.json_type).collect();
    types.sort_unstable();
    types.dedup();
    if types.contains(&"number") {
        types.retain(|t| *t != "integer");
    }
    let value = if types.len() == 1 { json!({"type": types[0]}) } else { json!({"type": types}) };
    let mut obj = match json!({
        "type": "object",
        "properties": {"field": {"type": "string", "enum": keys}, "value": value},
        "required": ["field", "value"],
    }) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    add_expected_version(&mut obj);
    obj
}

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
            let shown = if input.is_secret() {
                masked(!value.to_value().as_str().is_some_and(str::is_empty))
            } else {
                value.to_value()
            };
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
        let shown =
            if input.is_secret() { masked(!current.as_str().is_some_and(str::is_empty)) } else { value.to_value() };
        self.declare(label, shown, input.is_secret());
        self.edits.fields.push(Editing {
            key: key.to_owned(),
            json_type: input.json_type(),
            rules: input.rules(),
            note: None,
        });
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
            self.edits.fields.push(Editing {
                key: key.to_owned(),
                json_type: input.json_type(),
                rules: input.rules(),
                note: Some(note.to_owned()),
            });
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
        if !self.edits.claimed {
            self.edits.claimed = true;
            let title = "Edit field";
            self.edits.call =
                super::call::claim_call::<EditArgs>(&self.core, Some(&self.decl.app_id), EDIT_ACTION, title);
        }
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
