//! The app's tools as MCP lists them: their entries (`tool_entry.rs`) converted once per change
//! of the tool list, and the compact form that `app__read_windows` and `newToolSpecs` give.

use std::sync::Arc;

use rmcp::model::Tool;
use serde_json::json;

use super::tool_entry::to_mcp_tool;
use super::{ServerShared, bridge_tools};
use crate::hub::Snapshot;

/// The app's tools of one snapshot, converted once per change.
#[derive(Default)]
pub(super) struct ToolsCache {
    revision: u64,
    /// As MCP tool entries, for `tools/list`.
    entries: Arc<Vec<Tool>>,
    /// As `app__read_windows` lists them: name, description, inputSchema and the dispatcher
    /// that calls it (made on first use).
    compact: Option<Arc<serde_json::Value>>,
}

impl ServerShared {
    fn cache(&self, snapshot: &Snapshot) -> parking_lot::MutexGuard<'_, ToolsCache> {
        let mut cache = self.tools_cache.lock();
        if cache.revision != snapshot.tools_revision || snapshot.tools_revision == 0 {
            *cache = ToolsCache {
                revision: snapshot.tools_revision,
                entries: Arc::new(snapshot.tools.iter().map(to_mcp_tool).collect()),
                compact: None,
            };
        }
        cache
    }

    /// The MCP tool list of the app in the latest snapshot (without the bridge's own tools).
    pub(super) fn tools(&self) -> Arc<Vec<Tool>> {
        Arc::clone(&self.cache(&self.hub.snapshot()).entries)
    }

    /// The callable tools of `snapshot` in `app__read_windows`' compact form.
    pub(super) fn compact_tools(&self, snapshot: &Snapshot) -> Arc<serde_json::Value> {
        let mut cache = self.cache(snapshot);
        let made = cache.compact.get_or_insert_with(|| {
            Arc::new(serde_json::Value::Array(
                snapshot
                    .tools
                    .iter()
                    .map(|t| {
                        let via = bridge_tools::dispatcher(crate::hub::SafetyClass::of(t.hints));
                        let schema = without_version_doc(&t.input_schema);
                        json!({"name": t.name, "description": t.description, "inputSchema": schema, "via": via})
                    })
                    .collect(),
            ))
        });
        Arc::clone(made)
    }

    /// `newToolSpecs` for a result that made these tools callable: their entries of
    /// `app__read_windows`' `tools`, from the state published with the result (a tool gone
    /// again since is left out).
    pub(super) fn tool_specs(&self, names: &[String]) -> serde_json::Value {
        let all = self.compact_tools(&self.hub.snapshot());
        let entries = all.as_array().map(Vec::as_slice).unwrap_or_default();
        serde_json::Value::Array(
            names.iter().filter_map(|n| entries.iter().find(|e| e["name"] == n.as_str()).cloned()).collect(),
        )
    }
}

/// An input schema as the compact tool list gives it: `expectedVersion` without its
/// description, which every write tool's entry would repeat and the instructions and the tool
/// list already give (each spec in a result stays in the conversation for every later turn).
fn without_version_doc(schema: &rmcp::model::JsonObject) -> serde_json::Value {
    let mut schema = schema.clone();
    if let Some(serde_json::Value::Object(version)) =
        schema.get_mut("properties").and_then(|p| p.get_mut("expectedVersion"))
    {
        version.remove("description");
    }
    serde_json::Value::Object(schema)
}
