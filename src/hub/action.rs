//! What an app declares about an action: title, description, hints, typed arguments.

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use serde_json::{Map, Value, json};

/// MCP tool annotations (§5.6). MCP's defaults are pessimistic (destructive, open-world); the
/// bridge states `destructiveHint` on every tool that writes, `openWorldHint` on every tool,
/// and the others where they differ from the default.
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

/// How dangerous a tool is, as clients decide whether to ask their user before a call: each
/// class has its own dispatcher (`app__call_readonly`, `app__call`, `app__call_destructive`),
/// annotated as the tools it calls are, so a client approves a call through a dispatcher
/// exactly as it would the direct call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SafetyClass {
    /// Changes nothing.
    ReadOnly,
    /// Changes state, but nothing irreversible.
    Write,
    /// Irreversible (delete, pay).
    Destructive,
}

impl SafetyClass {
    /// The class of a tool with these hints.
    pub fn of(hints: Hints) -> Self {
        if hints.read_only {
            Self::ReadOnly
        } else if hints.destructive {
            Self::Destructive
        } else {
            Self::Write
        }
    }

    /// The action of this class's dispatcher (`app__{action}`).
    pub fn dispatcher_action(self) -> &'static str {
        use crate::protocol::{CALL_ACTION, CALL_DESTRUCTIVE_ACTION, CALL_READONLY_ACTION};
        match self {
            Self::ReadOnly => CALL_READONLY_ACTION,
            Self::Write => CALL_ACTION,
            Self::Destructive => CALL_DESTRUCTIVE_ACTION,
        }
    }

    /// Its name in an error message.
    pub fn describe(self) -> &'static str {
        match self {
            Self::ReadOnly => "read-only",
            Self::Write => "a write that is not destructive",
            Self::Destructive => "destructive",
        }
    }
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
    /// An agent's call waits for the person's Allow at the window ([`ActionSpec::ask_person`]).
    pub ask_person: bool,
}

impl ActionSpec {
    /// An action with a title and no hints set.
    pub fn new(title: impl Into<Cow<'static, str>>) -> Self {
        Self { title: title.into(), description: None, hints: Hints::default(), ask_person: false }
    }

    /// An agent's call to it waits for the person at the app: the window shows what the agent
    /// wants to do, with Allow and Deny (at its top when drawn with `WindowBuilder::ui` or
    /// `panel`; where the app calls [`crate::Bridge::approval_prompt`] in one it draws itself).
    /// Allow applies it exactly as a direct call would; Deny answers `denied_by_user`; no answer
    /// within the call budget answers `action_timeout`, and nothing is applied. The person's own
    /// use of the action needs no approval (it does not go through the bridge). Off for the
    /// whole app with [`crate::BridgeBuilder::approvals`]`(false)` (no person at the app:
    /// headless, unattended).
    #[must_use]
    pub fn ask_person(mut self) -> Self {
        self.ask_person = true;
        self
    }

    /// Sets the one-line description (what it does, when to use it).
    #[must_use]
    pub fn description(mut self, description: impl Into<Cow<'static, str>>) -> Self {
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

/// Arguments of an action that takes none (accepts `{}` and nothing else).
#[derive(Clone, Copy, Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// What `expectedVersion` is, in every write's schema: what a model must know stands in the
/// tools too, for clients that drop the instructions (Copilot CLI by default).
const EXPECTED_VERSION_DOC: &str = "The window version you last saw (else stale_state)";

/// The input schemas of argument types, generated once per type by schemars and kept by the
/// bridge's [`Hub`](super::Hub) (looked up for every action in every pass, so hashed with
/// foldhash rather than std's `SipHash`). Bounded by the argument types of the program.
#[derive(Debug, Default)]
pub(crate) struct Schemas(Mutex<HashMap<SchemaKey, Schema, foldhash::fast::RandomState>>);

/// An argument type, whether its schema has `expectedVersion`, whether it has the fields' docs.
type SchemaKey = (TypeId, bool, bool);
type Schema = Arc<Map<String, Value>>;

impl Schemas {
    /// The input schema of an argument type: generated once per type, without the
    /// `$schema`/`title` noise, with an optional integer `expectedVersion` when `with_version`,
    /// and the fields' doc comments as `description`s only when `parameter_docs`.
    pub fn of<A: schemars::JsonSchema + 'static>(
        &self,
        with_version: bool,
        parameter_docs: bool,
    ) -> Arc<Map<String, Value>> {
        let key = (TypeId::of::<A>(), with_version, parameter_docs);
        if let Some(s) = self.0.lock().get(&key) {
            return Arc::clone(s);
        }
        let schema = Arc::new(input_schema_for::<A>(with_version, parameter_docs));
        self.0.lock().insert(key, Arc::clone(&schema));
        schema
    }
}

/// The input schema of an argument type, made by schemars (see [`Schemas::of`]).
fn input_schema_for<A: schemars::JsonSchema + 'static>(with_version: bool, parameter_docs: bool) -> Map<String, Value> {
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
    slim(&mut obj, parameter_docs);
    obj.insert("type".into(), json!("object"));
    if with_version {
        add_expected_version(&mut obj);
    }
    obj
}

/// Adds the optional `expectedVersion` every window action that writes takes (spec §5.5).
pub(crate) fn add_expected_version(obj: &mut Map<String, Value>) {
    let props = obj.entry("properties").or_insert_with(|| json!({}));
    if let Value::Object(props) = props {
        props.insert("expectedVersion".into(), json!({"type": "integer", "description": EXPECTED_VERSION_DOC}));
    }
}

/// Drops, from a schema and its subschemas, what costs tokens and tells an agent nothing:
/// `format` (`uint64`…), `additionalProperties: false` (unknown arguments are rejected anyway,
/// naming them), the `null` alternative of optional properties (they are simply not
/// `required`), and, unless `docs`, `description`. It walks schema keywords only, so a
/// parameter named `format` or `description` is kept.
fn slim(schema: &mut Map<String, Value>, docs: bool) {
    schema.remove("format");
    if !docs {
        schema.remove("description");
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        schema.remove("additionalProperties");
    }
    if let Some(Value::Array(types)) = schema.get("type") {
        let non_null: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if non_null.len() == 1 {
            schema.insert("type".into(), non_null[0].clone());
        }
    }
    let sub = |v: &mut Value| {
        if let Value::Object(o) = v {
            slim(o, docs);
        }
    };
    for (key, value) in schema.iter_mut() {
        match (key.as_str(), value) {
            ("properties" | "patternProperties" | "$defs" | "definitions", Value::Object(map)) => {
                map.values_mut().for_each(sub);
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(list)) => list.iter_mut().for_each(sub),
            ("items" | "additionalProperties" | "not" | "if" | "then" | "else" | "contains", v) => sub(v),
            _ => {}
        }
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
        let s = input_schema_for::<Args>(true, false);
        assert!(s.get("$schema").is_none() && s.get("title").is_none(), "{s:?}");
        assert_eq!(s["type"], "object");
        assert_eq!(s["properties"]["expectedVersion"]["type"], "integer");
        assert_eq!(s["required"], json!(["product", "quantity"]));
        assert_eq!(s["properties"]["limit"], json!({"type": "integer", "minimum": 0}), "optional: no null, no format");
        assert_eq!(s["properties"]["expectedVersion"]["type"], "integer");
        assert!(s["properties"]["expectedVersion"]["description"].as_str().is_some_and(|d| d.contains("version")));
        assert!(s.get("additionalProperties").is_none() && s.get("description").is_none(), "{s:?}");
        let ro = input_schema_for::<Args>(false, false);
        assert!(ro["properties"].get("expectedVersion").is_none(), "read-only actions carry no version");
        assert!(s["properties"]["product"].get("description").is_none(), "docs off: no descriptions");
        let documented = input_schema_for::<Args>(true, true);
        assert_eq!(documented["properties"]["product"]["description"], "The product.", "docs on");
        assert!(documented.get("description").is_none(), "the type's own doc is never kept");
    }

    /// Parameters whose names are schema keywords.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[expect(dead_code, reason = "only the schema is used")]
    struct Keywords {
        /// The file format.
        format: String,
        description: Option<String>,
        items: Vec<Inner>,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[expect(dead_code, reason = "only the schema is used")]
    struct Inner {
        /// Inner doc.
        size: u64,
    }

    #[test]
    fn parameters_named_like_schema_keywords_are_kept() {
        let s = input_schema_for::<Keywords>(false, false);
        let props = s["properties"].as_object().unwrap();
        assert!(props.contains_key("format") && props.contains_key("description"), "{s:?}");
        assert_eq!(props["format"], json!({"type": "string"}));
        assert_eq!(s["required"], json!(["format", "items"]));
        let inner = &props["items"]["items"]["properties"]["size"];
        assert_eq!(inner, &json!({"type": "integer", "minimum": 0}), "nested: no format, no doc");
        let d = input_schema_for::<Keywords>(false, true);
        assert_eq!(d["properties"]["format"]["description"], "The file format.");
        assert_eq!(d["properties"]["items"]["items"]["properties"]["size"]["description"], "Inner doc.");
    }

    /// A schema is made once per type and kept where it was asked for: the same `Schemas` gives
    /// the same one again, another (another bridge's hub) its own.
    #[test]
    fn schemas_are_made_once_per_cache() {
        let (one, other) = (Schemas::default(), Schemas::default());
        let first = one.of::<Args>(true, false);
        assert!(Arc::ptr_eq(&first, &one.of::<Args>(true, false)), "made once");
        assert!(!Arc::ptr_eq(&first, &one.of::<Args>(false, false)), "by its options too");
        let theirs = other.of::<Args>(true, false);
        assert!(!Arc::ptr_eq(&first, &theirs) && first == theirs, "another cache makes its own, the same");
    }
}
