//! One tool's MCP entry: name, title, description, input schema, the shared output schema and
//! the annotations. For the app's tools (`tools.rs`) and the bridge's own (`bridge_tools.rs`).

use std::sync::Arc;

use rmcp::model::{Tool, ToolAnnotations};
use serde_json::json;

use crate::hub::ToolSpec;

/// One output schema for every tool, as §12.3 requires ("every tool that returns something
/// MUST declare an outputSchema"): a bare object. It admits the success shape (`message`,
/// `openedWindowIds`, `result`, `version`, `newTools`) and the error shape (`code`, `message`,
/// …) alike, so strict clients that check error results against it too (TypeScript SDK v1
/// hosts, the MCP Inspector) accept both. The shapes are explained once, in the instructions,
/// not in every entry: 33 bytes per tool instead of a few hundred.
fn output_schema() -> Arc<rmcp::model::JsonObject> {
    static SCHEMA: std::sync::LazyLock<Arc<rmcp::model::JsonObject>> =
        std::sync::LazyLock::new(|| Arc::new(rmcp::model::object(json!({"type": "object"}))));
    Arc::clone(&SCHEMA)
}

/// The MCP tool entry: name, title and description (§5.2), the input schema, the shared output
/// schema (§12.3), and annotations (§5.6) on every tool, stating what MCP's defaults would get
/// wrong, for clients approve calls on them (Codex runs a tool without asking only when it is
/// read-only, or neither destructive nor open-world):
///
/// - a read-only tool: `readOnlyHint: true` (MCP gives `destructiveHint` and `idempotentHint`
///   meaning only when it is false);
/// - any other tool: `destructiveHint`, true or false (the default, true, would make every
///   write look dangerous), and `idempotentHint: true` when it is (the default is false);
/// - `openWorldHint` on every tool: `false` unless the app marks the action as reaching outside
///   it. MCP's default, true, would make every action of a local app look like one that talks
///   to the world, and clients ask the person before each.
pub(super) fn to_mcp_tool(spec: &ToolSpec) -> Tool {
    let h = spec.hints;
    let mut annotations = ToolAnnotations::new();
    if h.read_only {
        annotations = annotations.read_only(true);
    } else {
        annotations = annotations.destructive(h.destructive);
        if h.idempotent {
            annotations = annotations.idempotent(true);
        }
    }
    annotations = annotations.open_world(h.open_world);
    Tool::new(spec.name.clone(), spec.description.clone(), Arc::clone(&spec.input_schema))
        .with_title(spec.title.clone())
        .with_raw_output_schema(output_schema())
        .with_annotations(annotations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::Hints;

    fn entry(hints: Hints) -> serde_json::Value {
        let spec = ToolSpec {
            name: "w__a".into(),
            title: "A".into(),
            description: "Does a".into(),
            input_schema: Arc::new(rmcp::model::object(json!({"type": "object"}))),
            hints,
            ask_person: false,
        };
        serde_json::to_value(to_mcp_tool(&spec)).unwrap_or_default()
    }

    #[test]
    fn every_entry_declares_the_output_schema_and_annotations_state_what_defaults_get_wrong() {
        let read = entry(Hints { read_only: true, idempotent: true, ..Hints::default() });
        assert_eq!(read["annotations"], json!({"readOnlyHint": true, "openWorldHint": false}));
        let write = entry(Hints::default());
        assert_eq!(write["annotations"], json!({"destructiveHint": false, "openWorldHint": false}));
        let delete = entry(Hints { destructive: true, ..Hints::default() });
        assert_eq!(
            delete["annotations"],
            json!({"destructiveHint": true, "openWorldHint": false}),
            "stated although it is the default"
        );
        let retry = entry(Hints { idempotent: true, open_world: true, ..Hints::default() });
        assert_eq!(
            retry["annotations"],
            json!({"destructiveHint": false, "idempotentHint": true, "openWorldHint": true})
        );
        for e in [read, write, delete, retry] {
            assert_eq!(e["outputSchema"], json!({"type": "object"}), "§12.3: {e}");
            assert_eq!((e["title"].as_str(), e["description"].as_str()), (Some("A"), Some("Does a")), "§5.2");
        }
    }
}
