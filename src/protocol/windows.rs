//! Wire types of the single resource `app://windows` (spec §4.2, §4.4, Appendix B).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a masked value looks like on the wire (§4.5). Its length never depends on the secret.
pub const MASK: &str = "••••••";

/// The wire value of a sensitive field (§4.5): [`MASK`] when filled in, `""` when empty. Only
/// whether it is filled in survives (an agent needs to know that a card number is missing);
/// nothing else of the secret does, not even its length.
pub(crate) fn masked(filled: bool) -> Value {
    Value::String(if filled { MASK.to_owned() } else { String::new() })
}

/// The whole `app://windows` document: topology, operability and every window's content.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowsState {
    /// The one authoritative conclusion on which windows may be operated now.
    pub operable_window_ids: Vec<String>,

    /// All windows; the order has no meaning.
    pub windows: Vec<Window>,
}

impl WindowsState {
    /// The window with this external id, if it is open.
    pub fn window(&self, id: &str) -> Option<&Window> {
        self.windows.iter().find(|w| w.id == id)
    }

    /// Whether the window with this external id is in `operableWindowIds`.
    pub fn is_operable(&self, id: &str) -> bool {
        self.operable_window_ids.iter().any(|w| w == id)
    }
}

/// One window or dialog (§4.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    /// External, name-safe id; never reused.
    pub id: String,

    /// Human-readable title.
    pub title: String,

    /// Whether this is a modal dialog.
    pub modal: bool,

    /// The owner window's id; `null` for top-level windows and app-level modals.
    pub owner_id: Option<String>,

    /// Rises by one whenever `summary` or `blocks` change (§7.1).
    pub version: u64,

    /// One sentence on what the window shows now.
    pub summary: String,

    /// The window's content, as semantic blocks.
    pub blocks: Vec<Block>,
    /// `true` for a window the bridge publishes without tools (an extension of §4.2): one the
    /// app has not described, with the read view read-only. It is never operable.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,

    /// `true` for a window the app has not described, read from what it draws (an extension of
    /// §4.2). Unless it is also `readOnly`, agents operate it with its generic tools
    /// (`edit_field` and `press`, by the keys its fields and controls carry).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undescribed: bool,
}

/// Tone of a [`Block::Notice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Neutral information.
    Info,
    /// Something needs attention.
    Warn,
    /// Something is wrong.
    Error,
    /// Something went well.
    Success,
}

impl Severity {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Info => "info",
            Self::Warn => "warn",
            Self::Error => "error",
            Self::Success => "success",
        }
    }
}

/// One item of a [`Block::Fields`] group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldItem {
    /// Human-readable label.
    pub label: String,

    /// The value; for a sensitive item this is always [`MASK`].
    pub value: Value,

    /// `true` when the value was masked at the source.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sensitive: bool,

    /// The key that edits this field through the window's `edit_field` action, present exactly
    /// while that action accepts it (an extension of §4.4: the label is for reading, the key
    /// for writing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,

    /// `true` when the app drew the field's widget disabled: neither the person nor an agent
    /// can change it now (an extension of §4.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
}

impl FieldItem {
    /// A read-only field: a label and its value.
    pub fn new(label: impl Into<String>, value: Value) -> Self {
        Self { label: label.into(), value, sensitive: false, key: None, disabled: false }
    }
}

/// The seven block primitives of §4.4. `id` is stable within its window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", rename_all_fields = "camelCase")]
pub enum Block {
    /// A paragraph.
    Text {
        /// Block id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The text.
        text: String,
    },
    /// A key-value group.
    Fields {
        /// Block id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The items.
        items: Vec<FieldItem>,
    },
    /// A table; `offset`/`total` say which slice of a larger table it holds.
    Table {
        /// Block id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// Column titles, left to right.
        columns: Vec<String>,
        /// Rows; `rows[i][j]` belongs to `columns[j]`.
        rows: Vec<Vec<Value>>,
        /// Index of the first row shown in the whole table.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offset: Option<u64>,
        /// Row count of the whole table, when truncated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<u64>,
    },
    /// A list; `offset`/`total` as for tables.
    List {
        /// Block id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The items.
        items: Vec<Value>,
        /// Numbered list.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ordered: bool,
        /// Index of the first item shown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offset: Option<u64>,
        /// Item count of the whole list, when truncated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total: Option<u64>,
    },
    /// A status line with a severity.
    Notice {
        /// Block id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// Tone.
        severity: Severity,
        /// The text.
        text: String,
    },
    /// An image or chart.
    Media {
        /// Block id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// MIME type, such as `image/png`.
        mime_type: String,
        /// Where to fetch it (`https:`, `file:` or `data:` URL).
        url: String,
        /// What it shows, for agents that do not look at images.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        alt: Option<String>,
    },
    /// Anything else.
    Custom {
        /// Block id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// The structure.
        payload: Value,
    },
}

impl Block {
    /// The block's id, if it has one.
    pub fn id(&self) -> Option<&str> {
        match self {
            Self::Text { id, .. }
            | Self::Fields { id, .. }
            | Self::Table { id, .. }
            | Self::List { id, .. }
            | Self::Notice { id, .. }
            | Self::Media { id, .. }
            | Self::Custom { id, .. } => id.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_serialise_with_spec_field_names() {
        let blocks = vec![
            Block::Table {
                id: Some("t".into()),
                columns: vec!["A".into()],
                rows: vec![vec![json!(1)]],
                offset: Some(0),
                total: Some(9),
            },
            Block::Media {
                id: None,
                mime_type: "image/png".into(),
                url: "data:image/png;base64,AA==".into(),
                alt: Some("a chart".into()),
            },
            Block::Fields {
                id: Some("f".into()),
                items: vec![FieldItem { sensitive: true, ..FieldItem::new("Card", json!(MASK)) }],
            },
            Block::List { id: None, items: vec![json!("x")], ordered: false, offset: None, total: None },
        ];
        let v = serde_json::to_value(&blocks).unwrap();
        assert_eq!(
            v,
            json!([
                {"type":"table","id":"t","columns":["A"],"rows":[[1]],"offset":0,"total":9},
                {"type":"media","mimeType":"image/png","url":"data:image/png;base64,AA==","alt":"a chart"},
                {"type":"fields","id":"f","items":[{"label":"Card","value":MASK,"sensitive":true}]},
                {"type":"list","items":["x"]}
            ])
        );
        let back: Vec<Block> = serde_json::from_value(v).unwrap();
        assert_eq!(back, blocks, "blocks must round-trip");
    }

    #[test]
    fn masking_keeps_only_whether_a_secret_is_filled_in() {
        assert_eq!(masked(true), json!(MASK));
        assert_eq!(masked(false), json!(""));
    }

    #[test]
    fn window_serialises_owner_as_null() {
        let w = Window {
            id: "w".into(),
            title: "T".into(),
            modal: false,
            owner_id: None,
            version: 1,
            summary: "s".into(),
            blocks: vec![],
            read_only: false,
            undescribed: false,
        };
        let v = serde_json::to_value(&w).unwrap();
        assert_eq!(v["ownerId"], Value::Null, "ownerId is required, null when absent");
        assert_eq!(v["blocks"], json!([]), "blocks is required even when empty");
    }
}
