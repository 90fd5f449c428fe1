//! The `edit_field` action a window gets from the editable fields of its forms
//! ([`super::Form::edit`]): `{field, value}`, with `field` one of their keys, or several at once,
//! `{fields: {key: value, …}}`. The agent's call is claimed at the window's first form and
//! handed to the field it names, which checks the value by its [`Input`] and writes it into the
//! very value the person's widget edits, in the same pass, before the widget is drawn.
//!
//! Several fields are all or nothing: every value is checked first, by the rules the window's
//! fields had in its last declaration (kept with it in the core between passes), and only if
//! all pass is each written where its field is drawn; otherwise the call is refused naming
//! every invalid field (§7.3), and nothing changes. One call, one version step. The schema and
//! description are made once per set of fields, and kept by the bridge.

use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::state::Made;
use super::{Input, Press, WindowUi};
use crate::hub::decl::ActionDecl;
use crate::hub::{ActionSpec, add_expected_version, clipped};
use crate::protocol::{EDIT_FIELD, EditArgs, FieldError, ToolError};

/// One editable field of a window, for the derived edit action.
#[derive(Clone, Debug)]
pub(super) struct Editing {
    pub key: String,
    pub input: Input,
    /// What a derived field follows ([`super::Form::derived`]), and its value.
    pub note: Option<(String, f64)>,
    /// A choice's options, by the texts agents choose by ([`super::Form::choice`]).
    pub options: Option<Vec<String>>,
    /// Each option's tooltip, in the options' order, for the description (none: empty).
    pub hints: Vec<String>,
    /// What the person's widget holds of a checked value (see `Editable::widget_holds`).
    pub holds: super::check::Holds,
}

impl std::hash::Hash for Editing {
    /// What the schema and description say: not a derived field's current value.
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (&self.key, &self.input, self.note.as_ref().map(|n| &n.0), &self.options, &self.hints).hash(h);
    }
}

impl Editing {
    /// Checks a value for this field as the field itself would: the value to write, or what is
    /// wrong.
    fn check(&self, value: &Value) -> Result<Value, String> {
        let label = self.input.label();
        if let Some((note, current)) = &self.note {
            let same =
                self.input.check(value).ok().and_then(|v| v.as_f64()).is_some_and(|v| (v - current).abs() < 1e-9);
            return if same {
                Ok(value.clone())
            } else {
                Err(format!("{label} is {note} ({}); change that to change it", self.input.shown(*current)))
            };
        }
        if let Some(options) = &self.options {
            return super::check::pick(label, &options.iter().map(|o| ((), o.as_str())).collect::<Vec<_>>(), value)
                .map(|k| Value::String(options[k].clone()));
        }
        super::check::check_held(&self.input, self.holds, value)
    }
}

/// The editable fields' rules of a window's last declaration, kept with it between passes, and
/// their hash: a pass that declares the same rules keeps the last pass's.
struct Rules(Vec<Editing>, u64);

/// Several fields set by one call, checked against the rules: each written where its field is
/// drawn.
#[derive(Debug)]
struct Multi {
    call: Press<EditArgs>,
    /// Checked values by key, taken as their fields are drawn.
    values: Map<String, Value>,
    /// The labels of the fields written, in order.
    written: Vec<String>,
}

/// A window's editable fields in this pass, and the agent's edit until a field takes it.
#[derive(Debug, Default)]
pub(crate) struct Edits {
    claimed: bool,
    call: Option<Press<EditArgs>>,
    multi: Option<Multi>,
    pub(super) fields: Vec<Editing>,
}

impl Edits {
    /// Takes the agent's edit if it is for `key`.
    pub(super) fn take_for(&mut self, key: &str) -> Option<Press<EditArgs>> {
        if self.call.as_ref().is_some_and(|c| c.args().field() == key) { self.call.take() } else { None }
    }

    /// The checked value a call setting several fields has for `key`, once; the field counts
    /// as written (in the call's answer) only once [`written`](Self::written) says so.
    pub(super) fn multi_value(&mut self, key: &str) -> Option<Value> {
        self.multi.as_mut()?.values.remove(key)
    }

    /// The field `label` of a call setting several fields was set: its answer names it.
    pub(super) fn written(&mut self, label: &str) {
        if let Some(multi) = self.multi.as_mut() {
            multi.written.push(label.to_owned());
        }
    }
}

impl WindowUi {
    /// Claims an agent's edit of this window for its forms, once per pass (at the first form).
    /// Several fields are checked here, all of them, by the rules of the window's last
    /// declaration: refused together, or kept to be written as their fields are drawn.
    pub(super) fn claim_edit(&mut self) {
        if self.edits.claimed {
            return;
        }
        self.edits.claimed = true;
        let Some(call) =
            super::press::claim_call::<EditArgs>(&self.core, Some(&self.decl.app_id), EDIT_FIELD, "Edit field")
        else {
            return;
        };
        if call.args().submit() {
            // Enter is the generic tool's, for a window the app has not described; here the
            // window's own actions say what submitting does, and take what it needs.
            call.fail(ToolError::validation(
                "Nothing was set: submit (Enter) is for windows the app has not described; set this window's fields, then call its own action that submits them",
                vec![FieldError::new("submit", "not taken by a described window's edit_field")],
            ));
            return;
        }
        let Some(fields) = call.args().fields.clone() else {
            if call.args().field().is_empty() {
                call.fail(ToolError::invalid_field("field", "give field and value, or fields {key: value, …}"));
            } else {
                self.edits.call = Some(call);
            }
            return;
        };
        if !call.args().field().is_empty() || fields.is_empty() {
            call.fail(ToolError::invalid_field(
                "fields",
                "give field and value, or a non-empty fields {key: value, …}",
            ));
            return;
        }
        let rules = self.decl.kept.as_ref().and_then(|k| k.downcast_ref::<Rules>());
        match checked_fields(rules, &fields) {
            Ok(values) => self.edits.multi = Some(Multi { call, values, written: Vec::new() }),
            Err(e) => call.fail(e),
        }
    }

    /// Declares the `edit_field` action derived from this pass's editable fields, and answers
    /// an agent's edit that named no field of them.
    pub(super) fn finish_edits(&mut self) {
        let edits = std::mem::take(&mut self.edits);
        if let Some(call) = edits.call {
            let keys: Vec<&str> = edits.fields.iter().map(|f| f.key.as_str()).collect();
            call.fail(ToolError::invalid_field("field", format!("must be one of: {}", keys.join(", "))));
        }
        if let Some(Multi { call, values, written }) = edits.multi {
            if values.is_empty() {
                call.ok(format!("{} updated", written.join(", ")));
            } else {
                // A field checked against the last declaration was not drawn editable in this one.
                let missed: Vec<&str> = values.keys().map(String::as_str).collect();
                let set = if written.is_empty() { "nothing".to_owned() } else { written.join(", ") };
                call.fail(ToolError::invalid_field(
                    "fields",
                    format!("{} could not be set (no longer editable); set: {set}", missed.join(", ")),
                ));
            }
        }
        if edits.fields.is_empty() {
            return;
        }
        let mut h = DefaultHasher::new();
        edits.fields.hash(&mut h);
        let (schema, description) = {
            // Made once per set of fields, not every pass; bounded: cleared when full.
            let mut made = self.state.edit_actions.lock();
            if made.len() > 256 {
                made.clear();
            }
            let (schema, description) = made.entry(h.finish()).or_insert_with(|| make(&edits.fields));
            (Arc::clone(schema), description.clone())
        };
        let spec = ActionSpec::new("Edit field").idempotent().description(description);
        let name = self.decl.action_name(EDIT_FIELD);
        self.decl.actions.push(ActionDecl { name, spec, schema });
        // The rules, for a call setting several fields in the next pass: the last pass's while
        // they are the same (with what the schema does not say: a derived field's value, how
        // each widget holds a value).
        for f in &edits.fields {
            (f.note.as_ref().map(|n| n.1.to_bits()), f.holds).hash(&mut h);
        }
        let hash = h.finish();
        let same = self.decl.kept.as_ref().and_then(|k| k.downcast_ref::<Rules>()).is_some_and(|r| r.1 == hash);
        if !same {
            self.decl.kept = Some(Arc::new(Rules(edits.fields, hash)));
        }
    }
}

/// The schema and the description of an edit action over `fields`.
fn make(fields: &[Editing]) -> Made {
    let keys: Vec<&str> = fields.iter().map(|f| f.key.as_str()).collect();
    let mut types: Vec<&str> = fields.iter().map(|f| f.input.json_type()).collect();
    types.sort_unstable();
    types.dedup();
    if types.contains(&"number") {
        types.retain(|t| *t != "integer");
    }
    let value = if types.len() == 1 { json!({"type": types[0]}) } else { json!({"type": types}) };
    let mut schema = match json!({
        "type": "object",
        "properties": {
            "field": {"type": "string", "enum": keys},
            "value": value,
            // Each key names one field: a call naming more is refused before it is queued.
            "fields": {"type": "object", "maxProperties": keys.len()},
        },
    }) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    add_expected_version(&mut schema);
    let listed: Vec<String> = fields
        .iter()
        .map(|f| match (&f.note, &f.options) {
            (Some((note, _)), _) => format!("{} (= {note})", f.key),
            (None, Some(options)) => format!("{} (one of: {})", f.key, listed_options(options, &f.hints)),
            (None, None) => format!("{} ({})", f.key, f.input.rules()),
        })
        .collect();
    (
        Arc::new(schema),
        format!("Set {{field, value}} or {{fields: {{field: value…}}}}, all or none: {}", listed.join(", ")),
    )
}

/// Most options a description lists; the refusal of any other names them all.
const LISTED_OPTIONS: usize = 40;

/// A choice's options as a description lists them: the first [`LISTED_OPTIONS`], then how many
/// more there are.
fn listed_options(options: &[String], hints: &[String]) -> String {
    let listed: Vec<String> = options
        .iter()
        .take(LISTED_OPTIONS)
        .enumerate()
        .map(|(k, o)| match hints.get(k).filter(|h| !h.is_empty()) {
            Some(hint) => format!("{o} ({hint})"),
            None => o.clone(),
        })
        .collect();
    let mut listed = listed.join(", ");
    if options.len() > LISTED_OPTIONS {
        listed = format!("{listed} and {} more", options.len() - LISTED_OPTIONS);
    }
    listed
}

/// Several fields of one `edit_field`, checked by the rules of the window's last declaration:
/// their values as the fields take them, or a refusal naming the first invalid ones (the
/// window's keys listed once) and counting the rest.
fn checked_fields(rules: Option<&Rules>, fields: &Map<String, Value>) -> Result<Map<String, Value>, ToolError> {
    let mut values = Map::new();
    let mut errors = crate::hub::limits::NamedErrors::default();
    let mut unknown = false;
    for (key, value) in fields {
        let rule = rules.and_then(|r| r.0.iter().find(|e| e.key == *key));
        match rule.map(|r| r.check(value)) {
            Some(Ok(checked)) => {
                values.insert(key.clone(), checked);
            }
            Some(Err(e)) => errors.add(FieldError::new(clipped(key), e)),
            None => {
                let why = if unknown {
                    "not a field".to_owned()
                } else {
                    let keys: Vec<&str> =
                        rules.map(|r| r.0.iter().map(|e| e.key.as_str()).collect()).unwrap_or_default();
                    format!("not a field; one of: {}", keys.join(", "))
                };
                unknown = true;
                errors.add(FieldError::new(clipped(key), why));
            }
        }
    }
    if errors.is_empty() {
        return Ok(values);
    }
    let n = errors.named().len() + errors.unnamed();
    let message = format!("Nothing was set: {n} of the fields {}", if n == 1 { "is invalid" } else { "are invalid" });
    Err(ToolError::validation(message, errors.into_fields("fields", "invalid or unknown fields")))
}
