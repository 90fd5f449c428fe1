//! What a recording of agents' calls is made of (`BridgeBuilder::record`, replayed by
//! `testing::Harness::replay`): one JSON object a line, the first a [`Header`], then one
//! [`RecordedCall`] per answered call, and a [`Stop`] line if the recording stopped early.
//! Also the pure rules both sides share: which arguments are secrets (replaced by a
//! placeholder that names them), and when two answers are the same.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::edit_field::EDIT_FIELD;
use super::error::ToolError;
use super::result::ToolResult;
use super::windows::{Block, Window};

/// The value of `recording` in a recording's first line.
pub const RECORDING_KIND: &str = "egui_mcp_bridge";
/// The recording format this crate writes and reads.
pub const RECORDING_FORMAT: u64 = 1;
/// The key of a secret's placeholder: `{"$secret": "password"}` stands where an agent sent a
/// secret, naming the field or parameter it was for.
pub const SECRET_KEY: &str = "$secret";
/// The key of what stands for a value that cannot be told from a secret (a call to a window or
/// tool the state does not have, a field the window does not show): `{"$withheld": "field"}`.
/// A replay sends it as it stands; such a call is refused then as it was.
pub const WITHHELD_KEY: &str = "$withheld";

/// A recording's first line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    /// Always [`RECORDING_KIND`].
    pub recording: String,
    /// Always [`RECORDING_FORMAT`].
    pub format: u64,
    /// The app's name, as announced to clients.
    pub app: String,
    /// The app's version, as announced to clients.
    pub app_version: String,
}

/// One answered call: what was asked, against which version, and the answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedCall {
    /// Milliseconds since the recording began, when the call arrived.
    pub ms: u64,
    /// The connection's client (`clientInfo.name`, clipped), or `""` for an in-process agent.
    #[serde(default)]
    pub client: String,
    /// The tool called (through a dispatcher: the tool it named).
    pub tool: String,
    /// The arguments without `expectedVersion`, secrets replaced by placeholders.
    pub args: Map<String, Value>,
    /// The version of the window the agent based the call on (what it read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_version: Option<u64>,
    /// The target window's version when the call arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_version: Option<u64>,
    /// How it was answered (a success's `version` is the window's after it: what it wrote).
    #[serde(flatten)]
    pub outcome: RecordedOutcome,
}

/// A call's answer as recorded: `"answer": {…}` or `"error": {…}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RecordedOutcome {
    /// A success.
    Answer(ToolResult),
    /// An error.
    Error(ToolError),
}

impl From<Result<ToolResult, ToolError>> for RecordedOutcome {
    fn from(outcome: Result<ToolResult, ToolError>) -> Self {
        match outcome {
            Ok(r) => Self::Answer(r),
            Err(e) => Self::Error(e),
        }
    }
}

/// The last line of a recording that stopped before the app ended, and why; or a line that
/// says calls were left out. A replay refuses to go past it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stop {
    /// Why calls after this point are missing.
    pub stopped: String,
}

/// A secret's placeholder, naming the field or parameter.
pub fn secret_placeholder(name: &str) -> Value {
    json!({ SECRET_KEY: name })
}

/// The name a placeholder stands for, if `value` is one.
pub fn placeholder_name(value: &Value) -> Option<&str> {
    let map = value.as_object().filter(|m| m.len() == 1)?;
    map.get(SECRET_KEY)?.as_str()
}

/// `args` with every secret replaced by its placeholder: for `edit_field`, the values of the
/// fields `window` shows masked (named by key or label); for any other tool, the parameters
/// its `schema` marks `writeOnly`. `name_of(name, value)` says what the placeholder of the
/// secret `value` for `name` names (the recorder tells different values apart).
///
/// What cannot be told (the window or the tool is not in the state, so the call is refused;
/// a field the window does not have) is withheld too: `{"$withheld": "name"}`, which a replay
/// sends as it stands.
pub fn redact(
    action: &str,
    args: &Map<String, Value>,
    window: Option<&Window>,
    schema: Option<&Map<String, Value>>,
    name_of: &mut dyn FnMut(&str, &Value) -> String,
) -> Map<String, Value> {
    let mut out = args.clone();
    if action == EDIT_FIELD {
        let fields = window.map(window_fields);
        // What stands for the value sent for the field named `asked`.
        let mut hide =
            |asked: &str, value: &mut Value| match fields.as_ref().map(|f| f.iter().find(|i| names(i, asked))) {
                Some(Some(item)) if item.2 => *value = secret_placeholder(&name_of(&item.0, value)),
                Some(Some(_)) => {}
                None | Some(None) => *value = withheld(asked),
            };
        let field = args.get("field").and_then(Value::as_str).unwrap_or_default().to_owned();
        if let Some(value) = out.get_mut("value") {
            hide(&field, value);
        }
        if let Some(Value::Object(fields)) = out.get_mut("fields") {
            for (key, value) in fields.iter_mut() {
                hide(key, value);
            }
        }
        return out;
    }
    let Some(schema) = schema else {
        for (name, value) in &mut out {
            *value = withheld(name);
        }
        return out;
    };
    let properties = schema.get("properties").and_then(Value::as_object);
    for (name, value) in &mut out {
        let write_only = properties
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("writeOnly"))
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if write_only {
            *value = secret_placeholder(&name_of(name, value));
        }
    }
    out
}

/// What stands for a value that may be a secret but cannot be told: never filled by a replay.
pub fn withheld(name: &str) -> Value {
    json!({ WITHHELD_KEY: name })
}

/// Whether `asked` names the field `(key, label, _)` (as `edit_field` takes it: by its key or
/// its label, case and spaces aside).
fn names((key, label, _): &(String, String, bool), asked: &str) -> bool {
    let asked = asked.trim();
    asked.eq_ignore_ascii_case(key) || asked.eq_ignore_ascii_case(label.trim())
}

/// The window's fields: (the name a placeholder gives, its label, whether it is masked).
fn window_fields(window: &Window) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for block in &window.blocks {
        if let Block::Fields { items, .. } = block {
            for item in items {
                out.push((item.key.clone().unwrap_or_else(|| item.label.clone()), item.label.clone(), item.sensitive));
            }
        }
    }
    out
}

/// Where the changes a generic answer lists begin.
const ALSO_CHANGED: &str = ". Also changed: ";

/// Whether two answers' messages say the same: equal, except that what a generic answer says
/// "also changed" is compared as a set (its order follows egui's tree).
pub fn same_message(a: &str, b: &str) -> bool {
    fn split(m: &str) -> (&str, BTreeSet<&str>) {
        match m.split_once(ALSO_CHANGED) {
            Some((head, rest)) => (head, rest.split("; ").collect()),
            None => (m, BTreeSet::new()),
        }
    }
    a == b || split(a) == split(b)
}

/// Whether a replayed answer matches the recorded one: both successes with the same message,
/// or both errors with the same code and the same fields (names and messages, as sets).
pub fn same_answer(recorded: &RecordedOutcome, replayed: &Result<ToolResult, ToolError>) -> bool {
    match (recorded, replayed) {
        (RecordedOutcome::Answer(a), Ok(b)) => {
            same_message(a.message.as_deref().unwrap_or_default(), b.message.as_deref().unwrap_or_default())
        }
        (RecordedOutcome::Error(a), Err(b)) => {
            let fields = |e: &ToolError| -> BTreeSet<(String, String)> {
                e.fields.iter().flatten().map(|f| (f.field.clone(), f.error.clone())).collect()
            };
            a.code == b.code && fields(a) == fields(b)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{ErrorCode, FieldError, FieldItem};

    /// `redact` reads `edit_field`'s arguments by name: they are `EditArgs`'s, so that a
    /// renamed parameter cannot slip a secret past it.
    #[test]
    fn redact_reads_edit_field_s_parameters_by_their_names() {
        let schema = serde_json::to_value(schemars::schema_for!(crate::protocol::EditArgs)).unwrap();
        let properties = schema["properties"].as_object().unwrap();
        for name in ["field", "value", "fields"] {
            assert!(properties.contains_key(name), "EditArgs has no {name}: {properties:?}");
        }
    }

    fn window() -> Window {
        let mut w: Window = serde_json::from_value(json!({
            "id": "login", "title": "Login", "modal": false, "ownerId": null, "version": 1, "summary": "", "blocks": []
        }))
        .unwrap();
        w.blocks.push(Block::Fields {
            id: None,
            items: vec![
                FieldItem { key: Some("user".into()), ..FieldItem::new("User", json!("ada")) },
                FieldItem { key: Some("pw".into()), sensitive: true, ..FieldItem::new("Password", json!("")) },
            ],
        });
        w
    }

    #[test]
    fn secrets_become_placeholders_naming_their_field() {
        let w = window();
        let name_of = &mut |name: &str, _: &Value| name.to_owned();
        let one = json!({"field": "Password", "value": "hunter2"});
        let r = redact(EDIT_FIELD, one.as_object().unwrap(), Some(&w), None, name_of);
        assert_eq!(Value::Object(r), json!({"field": "Password", "value": {"$secret": "pw"}}));
        let many = json!({"fields": {"user": "bob", "pw": "hunter2"}});
        let r = redact(EDIT_FIELD, many.as_object().unwrap(), Some(&w), None, name_of);
        assert_eq!(Value::Object(r), json!({"fields": {"user": "bob", "pw": {"$secret": "pw"}}}));
        let schema = json!({"properties": {"pin": {"type": "string", "writeOnly": true}, "n": {}}});
        let args = json!({"pin": "1234", "n": 2});
        let r = redact("authorize", args.as_object().unwrap(), None, schema.as_object(), name_of);
        assert_eq!(Value::Object(r), json!({"pin": {"$secret": "pin"}, "n": 2}));
        // What cannot be told is withheld: a field the window does not show, a window or a tool
        // the state does not have.
        let typo = json!({"fields": {"user": "bob", "pasword": "hunter2"}});
        let r = redact(EDIT_FIELD, typo.as_object().unwrap(), Some(&w), None, name_of);
        assert_eq!(Value::Object(r), json!({"fields": {"user": "bob", "pasword": {"$withheld": "pasword"}}}));
        let r = redact(EDIT_FIELD, one.as_object().unwrap(), None, None, name_of);
        assert_eq!(Value::Object(r), json!({"field": "Password", "value": {"$withheld": "Password"}}));
        let r = redact("authorize", args.as_object().unwrap(), None, None, name_of);
        assert_eq!(Value::Object(r), json!({"pin": {"$withheld": "pin"}, "n": {"$withheld": "n"}}));
        assert_eq!(placeholder_name(&json!({"$secret": "pin"})), Some("pin"));
        assert_eq!(placeholder_name(&json!({"$secret": "pin", "x": 1})), None);
    }

    #[test]
    fn answers_compare_by_message_and_by_code_and_fields() {
        assert!(same_message("Set x. Also changed: a is 1; b gone", "Set x. Also changed: b gone; a is 1"));
        assert!(!same_message("Set x. Also changed: a is 1", "Set x. Also changed: a is 2"));
        assert!(!same_message("Set x", "Set y"));
        let ok = RecordedOutcome::Answer(ToolResult::message("Done"));
        assert!(same_answer(&ok, &Ok(ToolResult::message("Done"))));
        assert!(!same_answer(&ok, &Ok(ToolResult::message("Done!"))));
        assert!(!same_answer(&ok, &Err(ToolError::new(ErrorCode::StaleState, "Done"))));
        let fields =
            |f: &[&str]| ToolError::validation("bad", f.iter().map(|f| FieldError::new(*f, "required")).collect());
        let rec = RecordedOutcome::Error(fields(&["a", "b"]));
        assert!(same_answer(&rec, &Err(fields(&["b", "a"]))));
        assert!(!same_answer(&rec, &Err(fields(&["a"]))));
    }

    #[test]
    fn a_call_line_reads_back() {
        let line = RecordedCall {
            ms: 5,
            client: "claude-code".into(),
            tool: "w__go".into(),
            args: Map::new(),
            expected_version: Some(3),
            window_version: Some(3),
            outcome: RecordedOutcome::Answer(ToolResult::message("went")),
        };
        let text = serde_json::to_string(&line).unwrap();
        assert!(text.contains(r#""answer":{"message":"went"}"#), "{text}");
        assert_eq!(serde_json::from_str::<RecordedCall>(&text).unwrap(), line);
    }
}
