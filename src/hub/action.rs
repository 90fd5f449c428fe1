//! What an app declares about an action: title, description, hints, typed arguments.

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use parking_lot::Mutex;
use serde_json::{Map, Value, json};

/// MCP tool annotations (§5.6). MCP's defaults are pessimistic (destructive, open-world), so
/// the bridge always states all four.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hints {
    /// Changes no state: the bridge neither adds nor checks `expectedVersion`.
    pub read_only: bool,
    /// Irreversible (delete, pay).
    pub destructive: bool,
    /// Calling twice equals calling once.
    pub idempotent: bool,
    /// Talks to the world outside the app.
    pub open_world: bool,
}

/// The human-facing declaration of one action. Cheap to build every frame from literals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ActionSpec {
    /// Short title, such as "Edit field".
    pub title: Cow<'static, str>,
    /// One line on what it does; the title is used when there is none.
    pub description: Option<Cow<'static, str>>,
    /// Annotations.
    pub hints: Hints,
}

impl ActionSpec {
    /// An action with a title and no hints set.
    pub fn new(title: impl Into<Cow<'static, str>>) -> Self {
        Self { title: title.into(), description: None, hints: Hints::default() }
    }

    /// Sets the one-line description.
    #[must_use]
    pub fn describe(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Marks it read-only (and idempotent).
    #[must_use]
    pub fn read_only(mut self) -> Self {
        self.hints.read_only = true;
        self.hints.idempotent = true;
        self
    }

    /// Marks it destructive.
    #[must_use]
    pub fn destructive(mut self) -> Self {
        self.hints.destructive = true;
        self
    }

    /// Marks it idempotent.
    #[must_use]
    pub fn idempotent(mut self) -> Self {
        self.hints.idempotent = true;
        self
    }

    /// Marks it as reaching outside the app.
    #[must_use]
    pub fn open_world(mut self) -> Self {
        self.hints.open_world = true;
        self
    }
}

type SchemaCache = Mutex<HashMap<(TypeId, bool), Arc<Map<String, Value>>>>;
static SCHEMAS: LazyLock<SchemaCache> = LazyLock::new(Mutex::default);

/// The input schema of an argument type: generated once per type by schemars, without the
/// `$schema`/`title` noise, with an optional integer `expectedVersion` when `with_version`.
pub fn input_schema_for<A: schemars::JsonSchema + 'static>(with_version: bool) -> Arc<Map<String, Value>> {
    let key = (TypeId::of::<A>(), with_version);
    if let Some(s) = SCHEMAS.lock().get(&key) {
        return Arc::clone(s);
    }
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<A>();
    let mut obj = match schema.to_value() {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    obj.remove("$schema");
    obj.remove("title");
    obj.remove("description"); // the type's doc comment; the tool's description says it better
    let mut whole = Value::Object(obj);
    slim(&mut whole);
    let Value::Object(mut obj) = whole else { unreachable!("slim keeps objects") };
    obj.insert("type".into(), json!("object"));
    if with_version {
        let props = obj.entry("properties").or_insert_with(|| json!({}));
        if let Value::Object(props) = props {
            props.insert("expectedVersion".into(), json!({"type": "integer"}));
        }
    }
    let schema = Arc::new(obj);
    SCHEMAS.lock().insert(key, Arc::clone(&schema));
    schema
}

/// Drops what costs tokens and tells an agent nothing: `format` (`uint64`…),
/// `additionalProperties: false` (unknown arguments are rejected anyway, naming them), and the
/// `null` alternative of optional properties (they are simply not `required`).
fn slim(v: &mut Value) {
    match v {
        Value::Object(o) => {
            o.remove("format");
            if o.get("additionalProperties") == Some(&Value::Bool(false)) {
                o.remove("additionalProperties");
            }
            if let Some(Value::Array(types)) = o.get("type") {
                let non_null: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
                if non_null.len() == 1 {
                    o.insert("type".into(), non_null[0].clone());
                }
            }
            for x in o.values_mut() {
                slim(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(slim),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arguments.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "only the schema is used")]
    struct Args {
        /// The product.
        product: String,
        quantity: u32,
        limit: Option<u64>,
    }

    #[test]
    fn schema_is_lean_and_gets_expected_version() {
        let s = input_schema_for::<Args>(true);
        assert!(s.get("$schema").is_none() && s.get("title").is_none(), "{s:?}");
        assert_eq!(s["type"], "object");
        assert_eq!(s["properties"]["expectedVersion"]["type"], "integer");
        assert_eq!(s["required"], json!(["product", "quantity"]));
        assert_eq!(s["properties"]["limit"], json!({"type": "integer", "minimum": 0}), "optional: no null, no format");
        assert_eq!(s["properties"]["expectedVersion"], json!({"type": "integer"}));
        assert!(s.get("additionalProperties").is_none() && s.get("description").is_none(), "{s:?}");
        let ro = input_schema_for::<Args>(false);
        assert!(ro["properties"].get("expectedVersion").is_none(), "read-only actions carry no version");
    }
}
