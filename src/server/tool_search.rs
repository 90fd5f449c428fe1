//! Claude Code shows its model a search over MCP tools rather than the tools, unless a tool's
//! `_meta` says to load it: the marks every connection's tool list gets (one list for every
//! connection, as MCP 2026-07-28 requires; other clients ignore `_meta` keys they do not know).

use rmcp::model::Tool;

use crate::protocol::{APP_TARGET, split_tool_name};

/// Marks a whole list (the bridge's tools first, then the app's `app` tools) for a client that
/// defers tools (every client gets the same marks): the bridge's own always loaded (the state and the dispatchers reach every
/// tool), the app's too while they are at most [`super::profile::ALWAYS_LOAD_TOOLS`].
pub(super) fn mark_list_for_tool_search(tools: &mut [Tool], app: usize) {
    let bridge = tools.len().saturating_sub(app);
    let load_app = app <= super::profile::ALWAYS_LOAD_TOOLS;
    for (k, tool) in tools.iter_mut().enumerate() {
        mark_for_tool_search(tool, k < bridge || load_app);
    }
}

/// For a client that shows its model a tool search instead of the tools (Claude Code): whether
/// the tool is loaded in every model request anyway (`anthropic/alwaysLoad`), and the words its
/// search finds it by (`anthropic/searchHint`: the title, and the window's id for a window's
/// tool).
fn mark_for_tool_search(tool: &mut Tool, always_load: bool) {
    let title = tool.title.as_deref().unwrap_or_default();
    let window = split_tool_name(&tool.name).map(|(w, _)| w).filter(|w| *w != APP_TARGET).unwrap_or_default();
    let hint = if window.is_empty() { title.to_owned() } else { format!("{title} {window}") };
    let mut meta = serde_json::Map::new();
    meta.insert("anthropic/alwaysLoad".to_owned(), serde_json::Value::Bool(always_load));
    meta.insert("anthropic/searchHint".to_owned(), serde_json::Value::String(hint));
    tool.meta = Some(rmcp::model::MetaObject(meta));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(bridge: usize, app: usize) -> Vec<Tool> {
        let bridge = super::super::bridge_tools::call_tools().into_iter().cycle().take(bridge);
        let app = (0..app).map(|k| {
            let mut t = super::super::bridge_tools::call_tools()[0].clone();
            t.name = format!("win-{k}__act").into();
            t
        });
        bridge.chain(app).collect()
    }

    fn loaded(tools: &[Tool]) -> Vec<bool> {
        tools
            .iter()
            .map(|t| {
                t.meta.as_ref().and_then(|m| m.0.get("anthropic/alwaysLoad")) == Some(&serde_json::Value::Bool(true))
            })
            .collect()
    }

    /// Within the budget every tool is loaded; past it only the bridge's own are, and every
    /// tool still has search words (the deferred ones are found by them).
    #[test]
    fn past_the_budget_only_the_bridge_tools_are_always_loaded() {
        let mut within = list(4, ALWAYS_LOAD);
        mark_list_for_tool_search(&mut within, ALWAYS_LOAD);
        assert!(loaded(&within).iter().all(|l| *l));

        let mut past = list(4, ALWAYS_LOAD + 1);
        mark_list_for_tool_search(&mut past, ALWAYS_LOAD + 1);
        let marks = loaded(&past);
        assert!(marks[..4].iter().all(|l| *l), "the bridge's own stay loaded");
        assert!(marks[4..].iter().all(|l| !*l), "the app's are deferred");
        for t in &past {
            let hint = t.meta.as_ref().and_then(|m| m.0.get("anthropic/searchHint")).and_then(|h| h.as_str());
            assert!(hint.is_some_and(|h| !h.is_empty()), "{}", t.name);
        }
        let app_hint = past[4].meta.as_ref().and_then(|m| m.0.get("anthropic/searchHint")).and_then(|h| h.as_str());
        assert!(app_hint.is_some_and(|h| h.contains("win-0")), "a window's tool is found by its window: {app_hint:?}");
    }

    const ALWAYS_LOAD: usize = super::super::profile::ALWAYS_LOAD_TOOLS;
}
