//! The `edit_field` action a window gets from the editable fields of its forms
//! ([`super::Form::edit`]): `{field, value}`, with `field` one of their keys. The agent's call is
//! claimed at the window's first form and handed to the field it names, which checks the value
//! by its [`Input`] and writes it into the very value the person's widget edits, in the same
//! pass, before the widget is drawn. The schema and description are made once per set of fields.

use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::sync::{Arc, LazyLock};

use parking_lot::Mutex;
use serde_json::{Map, Value, json};

use super::{Call, Input, WindowUi};
use crate::hub::decl::ActionDecl;
use crate::hub::{ActionSpec, add_expected_version};
use crate::protocol::ToolError;

/// The name of the edit action derived from a window's editable fields.
pub(crate) const EDIT_ACTION: &str = "edit_field";

/// `edit_field`'s arguments.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EditArgs {
    pub field: String,
    pub value: Value,
}

/// One editable field of a window, for the derived edit action.
#[derive(Debug, Hash)]
pub(super) struct Editing {
    pub key: String,
    pub input: Input,
    /// What a derived field follows ([`super::Form::derived`]).
    pub note: Option<String>,
    /// A choice's options, by the texts agents choose by ([`super::Form::choice`]).
    pub options: Option<Vec<String>>,
}

/// A window's editable fields in this pass, and the agent's edit until a field takes it.
#[derive(Debug, Default)]
pub(crate) struct Edits {
    claimed: bool,
    call: Option<Call<EditArgs>>,
    pub(super) fields: Vec<Editing>,
}

impl Edits {
    /// Takes the agent's edit if it is for `key`.
    pub(super) fn take_for(&mut self, key: &str) -> Option<Call<EditArgs>> {
        if self.call.as_ref().is_some_and(|c| c.args().field == key) { self.call.take() } else { None }
    }
}

/// A derived action's schema and description, by the fields it lists (made once per set of
/// fields, not every pass; bounded: cleared when full).
type Made = (Arc<Map<String, Value>>, String);
static MADE: LazyLock<Mutex<std::collections::HashMap<u64, Made>>> = LazyLock::new(Mutex::default);

impl WindowUi {
    /// Claims an agent's edit of this window for its forms, once per pass (at the first form).
    pub(super) fn claim_edit(&mut self) {
        if !self.edits.claimed {
            self.edits.claimed = true;
            let call =
                super::call::claim_call::<EditArgs>(&self.core, Some(&self.decl.app_id), EDIT_ACTION, "Edit field");
            self.edits.call = call;
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
        if edits.fields.is_empty() {
            return;
        }
        let mut h = DefaultHasher::new();
        edits.fields.hash(&mut h);
        let (schema, description) = {
            let mut made = MADE.lock();
            if made.len() > 256 {
                made.clear();
            }
            let (schema, description) = made.entry(h.finish()).or_insert_with(|| make(&edits.fields));
            (Arc::clone(schema), description.clone())
        };
        let spec = ActionSpec::new("Edit field").idempotent().description(description);
        self.decl.actions.push(ActionDecl { name: EDIT_ACTION.to_owned(), schema, spec });
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
        "properties": {"field": {"type": "string", "enum": keys}, "value": value},
        "required": ["field", "value"],
    }) {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    add_expected_version(&mut schema);
    let listed: Vec<String> = fields
        .iter()
        .map(|f| match (&f.note, &f.options) {
            (Some(note), _) => format!("{} (= {note})", f.key),
            (None, Some(options)) => format!("{} (one of: {})", f.key, listed_options(options)),
            (None, None) => format!("{} ({})", f.key, f.input.rules()),
        })
        .collect();
    (Arc::new(schema), format!("Set one field: {}", listed.join(", ")))
}

/// Most options a description lists; the refusal of any other names them all.
const LISTED_OPTIONS: usize = 40;

/// A choice's options as a description lists them: the first [`LISTED_OPTIONS`], then how many
/// more there are.
fn listed_options(options: &[String]) -> String {
    let mut listed = options.iter().take(LISTED_OPTIONS).map(String::as_str).collect::<Vec<_>>().join(", ");
    if options.len() > LISTED_OPTIONS {
        listed = format!("{listed} and {} more", options.len() - LISTED_OPTIONS);
    }
    listed
}
