//! The protocol layer: pure data and rules of the MCP GUI Bridge Protocol 0.1.0.
//!
//! Nothing here knows egui, rmcp or any I/O. It holds the wire types of `app://windows`
//! ([`WindowsState`], [`Window`], [`Block`]), of tool results ([`ToolResult`], [`ToolError`]),
//! the operability rules ([`operability`]), the name-safe handle registry ([`HandleRegistry`])
//! and masking ([`MASK`]). Everything else in the crate builds on these.

mod error;
mod handles;
pub mod operability;
mod result;
mod windows;

pub use error::{ErrorCode, FieldError, ToolError};
pub use handles::{
    APP_TARGET, CALL_ACTION, CALL_DESTRUCTIVE_ACTION, CALL_READONLY_ACTION, HandleRegistry, READ_WINDOWS_ACTION,
    is_name_safe, is_reserved_app_action, split_tool_name, tool_name,
};
pub use result::ToolResult;
pub use windows::{Block, FieldItem, MASK, Severity, Window, WindowsState, masked};
