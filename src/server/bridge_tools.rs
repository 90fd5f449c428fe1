//! The bridge's own tools, for clients as they are (DESIGN.md, "Clients as they are"):
//!
//! - `app__read_windows`: read-only, listed on every connection at every moment (an app-level
//!   modal included: reading operates nothing). Its `result` is `app://windows` as it is now,
//!   the same snapshot and, for `operableWindowIds` and `windows`, the same bytes; on
//!   connections that cannot refresh their tool list, also `tools`: every callable tool's name,
//!   description and input schema.
//! - `app__call { tool, arguments? }`: listed only on connections whose client cannot refresh
//!   its tool list. It calls `tool` through exactly the path a direct call takes
//!   ([`crate::Hub::call`]: the same queue, the same validation on the UI thread, the same
//!   result, notifications and activity record), so it never reaches what a direct call could
//!   not reach at that moment.

use std::sync::{Arc, LazyLock};

use rmcp::model::{CallToolResult, JsonObject, Tool};
use serde_json::{Map, Value, json};

use super::{ResultView, ServerShared, to_mcp_tool};
use crate::hub::{Hints, Outcome, ToolSpec};
use crate::protocol::{CALL_ACTION, ErrorCode, READ_WINDOWS_ACTION, ToolError, tool_name};

/// `app__read_windows`.
pub static READ_WINDOWS: LazyLock<String> =
    LazyLock::new(|| tool_name(crate::protocol::APP_TARGET, READ_WINDOWS_ACTION));
/// `app__call`.
pub static CALL: LazyLock<String> = LazyLock::new(|| tool_name(crate::protocol::APP_TARGET, CALL_ACTION));

fn schema(v: Value) -> Arc<JsonObject> {
    Arc::new(rmcp::model::object(v))
}

/// The entry of `app__read_windows`; `with_tools` on connections that get the tool list in it.
pub fn read_windows_tool(with_tools: bool) -> Tool {
    static PLAIN: LazyLock<Tool> = LazyLock::new(|| entry(false));
    static WITH_TOOLS: LazyLock<Tool> = LazyLock::new(|| entry(true));
    fn entry(with_tools: bool) -> Tool {
        let description = if with_tools {
            "Every window now, as app://windows (operableWindowIds, windows), plus tools: each callable tool with its inputSchema. Read it first and after each change."
        } else {
            "Every window now, as app://windows (operableWindowIds, windows). Read it first and after each change."
        };
        to_mcp_tool(&ToolSpec {
            name: READ_WINDOWS.clone(),
            title: "Read windows".to_owned(),
            description: description.to_owned(),
            input_schema: schema(json!({"type": "object"})),
            hints: Hints { read_only: true, idempotent: true, ..Hints::default() },
        })
    }
    if with_tools { WITH_TOOLS.clone() } else { PLAIN.clone() }
}

/// The entry of `app__call`.
pub fn call_tool() -> Tool {
    static TOOL: LazyLock<Tool> = LazyLock::new(|| {
        to_mcp_tool(&ToolSpec {
            name: CALL.clone(),
            title: "Call a tool".to_owned(),
            description: "Call any tool by name, also one your list lacks (a result's newTools, app__read_windows' tools): the same checks, result and errors as a direct call.".to_owned(),
            input_schema: schema(json!({
                "type": "object",
                "properties": {
                    "tool": {"type": "string", "description": "Such as orders__open_order"},
                    "arguments": {"type": "object"}
                },
                "required": ["tool"]
            })),
            hints: Hints { destructive: true, ..Hints::default() },
        })
    });
    TOOL.clone()
}

/// `app__read_windows`' result: `{"result": {operableWindowIds, windows, tools?}}`.
pub async fn read_windows(shared: &ServerShared, with_tools: bool, sees: ResultView) -> CallToolResult {
    shared.hub.first_frame().await;
    let snapshot = shared.hub.snapshot();
    let mut state = snapshot.state_value().clone();
    if with_tools && let Value::Object(o) = &mut state {
        o.insert("tools".to_owned(), shared.compact_tools(&snapshot).as_ref().clone());
    }
    super::handler::wrap_result(json!({ "result": state }), false, sees)
}

/// Why `app__call`'s own arguments are unusable, naming the parameter; `None` when they are fine.
fn parse_dispatch(args: &Map<String, Value>) -> Result<(&str, Map<String, Value>), ToolError> {
    if let Some(unknown) = args.keys().find(|k| *k != "tool" && *k != "arguments") {
        let key: String = unknown.chars().take(64).collect();
        return Err(ToolError::invalid_field(key, "is not a parameter of app__call (tool, arguments)"));
    }
    let tool = match args.get("tool") {
        Some(Value::String(t)) if !t.is_empty() => t.as_str(),
        _ => return Err(ToolError::invalid_field("tool", "must be a tool name, such as orders__open_order")),
    };
    let arguments = match args.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(o)) => o.clone(),
        Some(_) => return Err(ToolError::invalid_field("arguments", "must be an object of the tool's arguments")),
    };
    Ok((tool, arguments))
}

/// What `app__call` does with its arguments: the inner tool's own outcome.
pub enum Dispatch {
    /// The call went the direct way; this is its outcome.
    Outcome(String, Outcome),
    /// The inner tool is `app__read_windows`.
    ReadWindows,
}

/// Runs `app__call`: the inner call goes through [`crate::Hub::call`], exactly as a direct one
/// (`app__read_windows` included when the app turned it off: then it is no tool at all).
pub async fn dispatch(shared: &ServerShared, args: &Map<String, Value>) -> Dispatch {
    let (tool, arguments) = match parse_dispatch(args) {
        Ok(x) => x,
        Err(e) => return Dispatch::Outcome(CALL.clone(), Err(e)),
    };
    if tool == READ_WINDOWS.as_str() && !shared.policy.no_read_windows {
        return Dispatch::ReadWindows;
    }
    if tool == CALL.as_str() {
        let e = ToolError::new(ErrorCode::ActionNotAvailable, "app__call cannot call app__call; name the tool itself");
        return Dispatch::Outcome(CALL.clone(), Err(e));
    }
    shared.hub.first_frame().await;
    let outcome = shared.hub.call(tool, arguments).await;
    Dispatch::Outcome(tool.to_owned(), outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatch_arguments_are_checked_naming_the_parameter() {
        let field = |v: Value| {
            let Value::Object(o) = v else { unreachable!() };
            parse_dispatch(&o).err().map(|e| e.fields.unwrap_or_default()[0].field.clone())
        };
        assert_eq!(field(json!({})), Some("tool".into()));
        assert_eq!(field(json!({"tool": 3})), Some("tool".into()));
        assert_eq!(field(json!({"tool": "a__b", "arguments": [1]})), Some("arguments".into()));
        assert_eq!(field(json!({"tool": "a__b", "extra": 1})), Some("extra".into()));
        assert_eq!(field(json!({"tool": "a__b", "arguments": {"x": 1}})), None);
        assert_eq!(field(json!({"tool": "a__b", "arguments": null})), None);
    }
}
