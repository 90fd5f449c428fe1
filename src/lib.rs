#![cfg_attr(doc, doc = include_str!("../README.md"))]
//!
//! # Layers and threads
//!
//! - [`protocol`]: the wire types and rules of the MCP GUI Bridge Protocol (pure: no egui, no
//!   rmcp). Clients and [`Call::fail`] use them.
//! - The core (private): the state shared by the UI thread and the server (the latest published
//!   [`Snapshot`], the call queue) and the UI thread's bookkeeping (versions, ids, the call
//!   state machine). No egui, no rmcp.
//! - The declaration API ([`Bridge::window`], [`WindowUi`], [`Call`]) and the egui plugin
//!   ([`BridgePlugin`]): run on the UI thread, inside the app's passes.
//! - The MCP server (private, on rmcp): tokio tasks that read snapshots and queue calls; they
//!   never touch app state. The UI thread never waits on them.
//! - [`Bridge`]: the one handle that wires them together.
#![warn(missing_docs, missing_debug_implementations)]

mod bridge;
mod declare;
mod hub;
mod plugin;
pub mod protocol;
mod server;
#[cfg(feature = "testing")]
pub mod testing;

pub use bridge::{Bridge, BridgeBuilder};
pub use declare::{
    Call, Cell, Fields, Items, ListKind, Paged, Row, Rows, TableKind, WindowBuilder, WindowResponse, WindowUi,
};
pub use hub::{
    ACTIVITY_CAPACITY, ActionSpec, ActivityRecord, AgentAction, DEFAULT_MAX_STRING_CHARS, Footprint, Hints, NoArgs,
    Outcome, Snapshot, ToolSpec,
};
pub use plugin::{BridgePlugin, CallsWhileHidden, STALLED_AFTER, headless};
pub use protocol::{Block, ErrorCode, FieldError, MASK, Severity, ToolError, ToolResult, Window, WindowsState};
pub use server::{ClientProfile, Compat, INSTRUCTIONS_MAX_BYTES, ResultView, ServeHandle};
#[cfg(feature = "http")]
pub use server::{HttpHandle, HttpOptions, SESSION_IDLE};

/// The `schemars` this crate derives input schemas with: `derive(JsonSchema)` on argument
/// types must come from this major version. Without a direct dependency on it, name this one:
///
/// ```
/// use egui_mcp_bridge::schemars::{self, JsonSchema};
///
/// #[derive(serde::Deserialize, JsonSchema)]
/// #[schemars(crate = "egui_mcp_bridge::schemars")]
/// struct Rename {
///     name: String,
/// }
/// # let _ = schemars::schema_for!(Rename);
/// ```
pub use schemars;
/// The `serde_json` of [`ToolResult::with_result`] and custom blocks.
pub use serde_json;

/// The log directive that keeps rmcp's own logging to warnings and errors. rmcp logs whole
/// requests at `debug` and whole notifications at `info`, arguments included, so a password an
/// agent sends would reach your log at those levels. Add it after your `RUST_LOG` filter:
/// `EnvFilter::from_default_env().add_directive(egui_mcp_bridge::QUIET_RMCP.parse()?)`.
/// The bridge's own log lines never carry what a client sent.
pub const QUIET_RMCP: &str = "rmcp=warn";
