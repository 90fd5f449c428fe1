//! Result shaping: a tool's outcome as the MCP result a client's model is shown. Used by the
//! handler for every call and by the bridge's own tools for theirs.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use super::ResultView;
use crate::hub::Outcome;

/// A tool outcome as an MCP result for a client that shows its model `sees`, with
/// `newToolSpecs` added to a success when given.
pub(super) fn call_result(outcome: &Outcome, sees: ResultView, specs: Option<Value>) -> CallToolResult {
    let (value, is_error) = match outcome {
        Ok(r) => (serde_json::to_value(r), false),
        Err(e) => (serde_json::to_value(e), true),
    };
    let mut value = value.unwrap_or_default();
    if let (Some(specs), Value::Object(o)) = (specs, &mut value) {
        o.insert("newToolSpecs".to_owned(), specs);
    }
    wrap_result(value, is_error, sees)
}

/// `structuredContent`, plus one text block that depends on what the client shows its model:
///
/// - the whole result as compact JSON (one line, lossless) where the model may see only the
///   text: clients that show `content` (Gemini CLI, claude.ai, Continue), those whose choice
///   is not known (unknown clients get it too, as MCP's "also return the serialized JSON"
///   asks), and every error (Claude Code shows the text of errors only);
/// - just the `message` where the model sees `structuredContent` on success (Claude Code,
///   Codex, `ChatGPT`): §12.3's "a single text … repeating the message". The JSON twice would
///   cost those clients half of every result's bytes and tell their models nothing.
///
/// `isError` is sent only on errors (§12.3: "omitted or false").
pub(super) fn wrap_result(value: Value, is_error: bool, sees: ResultView) -> CallToolResult {
    let message_only = !is_error && matches!(sees, ResultView::Structured | ResultView::StructuredThenTextOnError);
    let text = match value.get("message").and_then(Value::as_str) {
        Some(m) if message_only => m.to_owned(),
        None if message_only => "The result is in structuredContent.".to_owned(),
        _ => value.to_string(),
    };
    let mut result = CallToolResult::structured(value);
    result.content = vec![ContentBlock::text(text)];
    result.is_error = is_error.then_some(true);
    result
}
