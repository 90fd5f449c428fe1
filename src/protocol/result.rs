//! The success object of a tool call (§5.4).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A successful tool call. There is no `ok` flag: returning it means success.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    /// What happened, in one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// Windows that the call opened (external ids), in no particular order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opened_window_ids: Vec<String>,

    /// Each opened window's version, by id (an extension of §5.4): `version` is the called
    /// window's, so the first write to a window the call opened carries this one as
    /// `expectedVersion`, without a read.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub opened_window_versions: BTreeMap<String, u64>,

    /// The tool's own structured result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,

    /// The called window's version after the call (an extension of §5.4; none for `app__…`
    /// tools): the next write to that window can carry it as `expectedVersion` without
    /// re-reading `app://windows`. Windows the call opened have theirs in
    /// `opened_window_versions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,

    /// Tools that the call made callable and that were not before, such as a dialog's (an
    /// extension of §5.4): a client that cannot refresh its tool list, or that defers tools
    /// behind a search, learns their names without re-listing. On a connection that calls
    /// through `app__call`, the server adds `newToolSpecs` next to it: each of these tools'
    /// name, description and input schema.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_tools: Vec<String>,
}

impl ToolResult {
    /// A result with a message.
    pub fn message(message: impl Into<String>) -> Self {
        Self { message: Some(message.into()), ..Self::default() }
    }

    /// Adds a structured business result.
    #[must_use]
    pub fn with_result(mut self, result: Value) -> Self {
        self.result = Some(result);
        self
    }
}
