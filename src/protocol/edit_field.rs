//! The one `edit_field` tool's arguments: `{field, value}`, or several fields at once,
//! `{fields: {key: value, …}}`. A described window's `edit_field` (derived from its editable
//! fields, in `declare/edit_action.rs`) and the generic one of a window the app has not
//! described (`plugin/operate.rs`) read them as this one type; each checks them against its own
//! fields. `submit` (Enter pressed in the field set last) is the generic tool's: a described
//! window refuses it, naming it (its own actions say what submitting does).

use serde::Deserialize;
use serde_json::{Map, Value};

/// The name of the action that sets a window's fields: a described window's, derived from its
/// editable fields, and the generic one of a window the app has not described.
pub(crate) const EDIT_FIELD: &str = "edit_field";

/// The most fields one `edit_field` call of a window the app has not described may name: as
/// many as such a window's fields block lists. A call naming more is refused with
/// `validation_failed` before the UI sees it, so that its check never holds up a pass.
pub const MAX_EDIT_FIELDS: usize = 100;

/// The arguments of `edit_field`: one field, or several at once.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("maxProperties" = 5))]
pub(crate) struct EditArgs {
    /// The field's key, as its item in the window's fields block carries it (or its label).
    #[serde(default)]
    pub field: Option<String>,
    /// Its new value: text, a number, true or false for a checkbox, true to select a radio
    /// button, or the option's text for a combo box.
    #[serde(default)]
    pub value: Option<Value>,
    /// Several fields at once, key to value: all set, or none when one is invalid.
    #[serde(default)]
    #[schemars(extend("maxProperties" = MAX_EDIT_FIELDS))]
    pub fields: Option<Map<String, Value>>,
    /// Then press Enter in the field set last, as a person does (a search box run on Enter).
    #[serde(default)]
    pub submit: Option<bool>,
}

impl EditArgs {
    /// The one field named (empty when none is, or when `field` is JSON `null`).
    pub(crate) fn field(&self) -> &str {
        self.field.as_deref().unwrap_or_default()
    }

    /// Whether Enter is to be pressed in the field set last (`submit: true`).
    pub(crate) fn submit(&self) -> bool {
        self.submit == Some(true)
    }

    /// The one field's value (`null` when none is given).
    pub(crate) fn value(&self) -> &Value {
        self.value.as_ref().unwrap_or(&Value::Null)
    }
}
