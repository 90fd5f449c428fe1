#![cfg_attr(doc, doc = include_str!("../README.md"))]
//!
//! # Layers
//!
//! - [`protocol`]: pure wire types and rules (no egui, no rmcp).
//! - [`hub`]: the bridge core shared by the UI thread and the server (no egui, no rmcp).
//! - [`plugin`]: the egui plugin and the declaration API (no rmcp).
//! - [`server`]: the MCP server on rmcp (no egui).
//! - [`Bridge`]: wires them together.

mod bridge;
pub mod hub;
pub mod plugin;
pub mod protocol;
pub mod server;

pub use bridge::{Bridge, BridgeBuilder};
pub use hub::{ActionSpec, Hints, Hub, HubConfig, Outcome};
pub use plugin::{
    BridgePlugin, Call, Cell, Fields, Footprint, HiddenServer, List, NoArgs, Table, UiBridge, WindowBuilder, headless,
};
pub use protocol::{Block, ErrorCode, FieldError, MASK, Severity, ToolError, ToolResult, Window, WindowsState};
/// The log directive that keeps rmcp's own logging to warnings and errors. rmcp logs whole
/// requests at `debug` and whole notifications at `info`, arguments included, so a password an
/// agent sends would reach your log at those levels. Add it after your `RUST_LOG` filter:
/// `EnvFilter::from_default_env().add_directive(egui_mcp_bridge::QUIET_RMCP.parse()?)`.
/// The bridge's own log lines never carry what a client sent.
pub const QUIET_RMCP: &str = "rmcp=warn";

pub use server::{ClientProfile, Compat, HttpHandle, HttpOptions, McpServer, ResultView, TransportHandle};
