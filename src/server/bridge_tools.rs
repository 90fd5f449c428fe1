//! The bridge's own tools, for clients as they are (docs/design.md, "Clients as they are"):
//!
//! - `app__view_window` (`view_window.rs`): a picture of one window, read-only, listed beside
//!   `app__read_windows`.
//! - `app__read_windows`: read-only, listed on every connection at every moment (an app-level
//!   modal included: reading operates nothing). Its `result` is `app://windows` as it is now,
//!   the same snapshot and, for `operableWindowIds` and `windows`, the same bytes; unless the
//!   app chose `Compat::Off`, also `tools`: every callable tool's name, description, input
//!   schema and the dispatcher that calls it (`via`).
//! - The dispatchers, one per safety class, `{tool, arguments?}` each: `app__call_readonly`
//!   (read-only tools), `app__call` (writes that are not destructive) and
//!   `app__call_destructive`. Each is annotated as the tools it calls are, so a client that
//!   approves calls on annotations (Codex runs read-only tools, and tools neither destructive
//!   nor open-world, without asking) approves a call through a dispatcher exactly as the direct
//!   call, and refuses a tool of another class naming the right dispatcher. A call goes
//!   through exactly the path a direct call takes ([`crate::hub::Hub::call_as`]: the same queue,
//!   the same validation on the UI thread, the same result, notifications and activity
//!   record), so it never reaches what a direct call could not reach at that moment.
//!
//! Why every client gets them: whether a client's model sees tools that appear mid-task (a
//! dialog's) is a race in every client program tried (new names a request late, an
//! asynchronous refresh, or never); only the dispatcher path finished the task in all of them.

use std::sync::{Arc, LazyLock};

use rmcp::model::{CallToolResult, JsonObject, Tool};
use serde_json::{Map, Value, json};

use super::result::{call_result, wrap_result};
use super::tool_entry::to_mcp_tool;
use super::{ResultView, ServerShared};
use crate::hub::{ClientId, Hints, Outcome, SafetyClass, ToolSpec, clipped};
use crate::protocol::{APP_TARGET, ErrorCode, READ_WINDOWS_ACTION, ToolError, tool_name};

/// `app__read_windows`.
pub static READ_WINDOWS: LazyLock<String> = LazyLock::new(|| tool_name(APP_TARGET, READ_WINDOWS_ACTION));

/// The safety classes, in the order their dispatchers are listed.
pub const CLASSES: [SafetyClass; 3] = [SafetyClass::ReadOnly, SafetyClass::Write, SafetyClass::Destructive];

/// The dispatcher of a class: `app__call_readonly`, `app__call`, `app__call_destructive`.
pub fn dispatcher(class: SafetyClass) -> &'static str {
    static NAMES: LazyLock<[String; 3]> =
        LazyLock::new(|| CLASSES.map(|c| tool_name(APP_TARGET, c.dispatcher_action())));
    let i = CLASSES.iter().position(|c| *c == class).unwrap_or_default();
    &NAMES[i]
}

/// The class whose dispatcher has this name.
pub fn dispatcher_class(name: &str) -> Option<SafetyClass> {
    CLASSES.into_iter().find(|c| dispatcher(*c) == name)
}

fn schema(v: Value) -> Arc<JsonObject> {
    Arc::new(rmcp::model::object(v))
}

/// The entry of `app__read_windows`; `with_tools` on connections that get the tool list in it.
/// Its description says what a model must know even where the client drops the instructions.
pub fn read_windows_tool(with_tools: bool) -> Tool {
    static PLAIN: LazyLock<Tool> = LazyLock::new(|| entry(false));
    static WITH_TOOLS: LazyLock<Tool> = LazyLock::new(|| entry(true));
    fn entry(with_tools: bool) -> Tool {
        let description = if with_tools {
            "The app's state, read first: every window (operableWindowIds: the only ones you may operate; version: pass it as expectedVersion when writing) and every tool callable now, with inputSchema and via (its app__call… dispatcher, for one your list lacks)."
        } else {
            "The app's state, read first: every window (operableWindowIds: the only ones you may operate; version: pass it as expectedVersion when writing)."
        };
        to_mcp_tool(&ToolSpec {
            name: READ_WINDOWS.clone(),
            title: "Read windows".to_owned(),
            description: description.to_owned(),
            input_schema: schema(json!({"type": "object"})),
            hints: Hints { read_only: true, idempotent: true, ..Hints::default() },
            ask_person: false,
        })
    }
    if with_tools { WITH_TOOLS.clone() } else { PLAIN.clone() }
}

/// The entries of the three dispatchers, each annotated as the tools of its class.
pub fn call_tools() -> [Tool; 3] {
    static TOOLS: LazyLock<[Tool; 3]> = LazyLock::new(|| CLASSES.map(entry));
    fn entry(class: SafetyClass) -> Tool {
        let (title, which, hints) = match class {
            SafetyClass::ReadOnly => {
                ("Call a read-only tool", "a read-only tool", Hints { read_only: true, ..Hints::default() })
            }
            SafetyClass::Write => ("Call a tool", "a non-destructive tool", Hints::default()),
            SafetyClass::Destructive => {
                ("Call a destructive tool", "a destructive tool", Hints { destructive: true, ..Hints::default() })
            }
        };
        to_mcp_tool(&ToolSpec {
            name: dispatcher(class).to_owned(),
            title: title.to_owned(),
            description: format!(
                "Calls {which} by name (its via names this dispatcher), also one your list lacks, with a direct call's checks."
            ),
            input_schema: schema(json!({
                "type": "object",
                "properties": {
                    "tool": {"type": "string"},
                    "arguments": {"type": "object", "description": "The tool's own, expectedVersion included"}
                },
                "required": ["tool"]
            })),
            hints,
            ask_person: false,
        })
    }
    TOOLS.clone()
}

/// `app__read_windows`' result: `{"result": {operableWindowIds, windows, tools?}}`.
pub async fn read_windows(
    shared: &ServerShared,
    with_tools: bool,
    sees: ResultView,
    args: &Map<String, Value>,
) -> CallToolResult {
    // It takes no arguments, and says so as every other tool does about one it does not take.
    if let Some(unknown) = args.keys().next() {
        let e = ToolError::invalid_field(
            clipped(unknown),
            format!("is not a parameter of {} (it takes none)", *READ_WINDOWS),
        );
        return call_result(&Err(e), sees, None);
    }
    shared.hub.first_frame().await;
    shared.hub.look_for_read().await;
    let snapshot = shared.hub.snapshot();
    let mut state = snapshot.state_value().clone();
    if with_tools && let Value::Object(o) = &mut state {
        o.insert("tools".to_owned(), shared.compact_tools(&snapshot).as_ref().clone());
    }
    wrap_result(json!({ "result": state }), false, sees)
}

/// Why a dispatcher's own arguments are unusable, naming the parameter.
fn parse_dispatch<'a>(me: &str, args: &'a Map<String, Value>) -> Result<(&'a str, Map<String, Value>), ToolError> {
    if let Some(unknown) = args.keys().find(|k| *k != "tool" && *k != "arguments") {
        return Err(ToolError::invalid_field(
            clipped(unknown),
            format!("is not a parameter of {me} (tool, arguments)"),
        ));
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

/// What a dispatcher does with its arguments: the inner tool's own outcome.
pub enum Dispatch {
    /// The call went the direct way; this is its outcome (boxed: a result is large).
    Outcome(String, Box<Outcome>),
    /// The inner tool is `app__read_windows`, with these arguments.
    ReadWindows(Map<String, Value>),
    /// The inner tool is `app__view_window`, with these arguments.
    ViewWindow(Map<String, Value>),
}

/// Runs a dispatcher of `class`: the inner call goes through [`crate::hub::Hub::call_as`],
/// exactly as a direct one, and is refused if the tool is of another class
/// (`app__read_windows` and `app__view_window` are served through any of them: reading changes
/// nothing).
pub async fn dispatch(
    shared: &ServerShared,
    client: ClientId,
    class: SafetyClass,
    args: &Map<String, Value>,
) -> Dispatch {
    let me = dispatcher(class);
    let (tool, arguments) = match parse_dispatch(me, args) {
        Ok(x) => x,
        Err(e) => return Dispatch::Outcome(me.to_owned(), Box::new(Err(e))),
    };
    if tool == READ_WINDOWS.as_str() && !shared.policy.no_read_windows {
        return Dispatch::ReadWindows(arguments);
    }
    if tool == super::view_window::VIEW_WINDOW.as_str() && !shared.policy.no_view_window {
        return Dispatch::ViewWindow(arguments);
    }
    if dispatcher_class(tool).is_some() {
        let e = ToolError::new(
            ErrorCode::ActionNotAvailable,
            format!("{me} cannot call a dispatcher; name the tool itself"),
        );
        return Dispatch::Outcome(me.to_owned(), Box::new(Err(e)));
    }
    shared.hub.first_frame().await;
    let outcome = shared.hub.call_as(client, tool, arguments, Some(class)).await;
    Dispatch::Outcome(tool.to_owned(), Box::new(outcome))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatch_arguments_are_checked_naming_the_parameter() {
        let field = |v: Value| {
            let Value::Object(o) = v else { unreachable!() };
            parse_dispatch("app__call", &o).err().map(|e| e.fields.unwrap_or_default()[0].field.clone())
        };
        assert_eq!(field(json!({})), Some("tool".into()));
        assert_eq!(field(json!({"tool": 3})), Some("tool".into()));
        assert_eq!(field(json!({"tool": "a__b", "arguments": [1]})), Some("arguments".into()));
        assert_eq!(field(json!({"tool": "a__b", "extra": 1})), Some("extra".into()));
        assert_eq!(field(json!({"tool": "a__b", "arguments": {"x": 1}})), None);
        assert_eq!(field(json!({"tool": "a__b", "arguments": null})), None);
    }
}
