//! The protocol layer: pure data and rules of the MCP GUI Bridge Protocol 0.1.0.
//!
//! Nothing here knows egui, rmcp or any I/O. Public here: the wire types of `app://windows`
//! ([`WindowsState`], [`Window`], [`Block`], [`FieldItem`]), tool names, what a secret reads
//! as ([`MASK`]), and the bound on one `edit_field` call ([`MAX_EDIT_FIELDS`]; its arguments,
//! `edit_field.rs`, are read as one type by every window's `edit_field`). Results and errors ([`ToolResult`], [`ToolError`]) and a notice's
//! [`Severity`](windows::Severity) are defined here and reached from the crate's root. The crate's own bookkeeping stays inside it: the
//! operability rules (`operability.rs`), the name-safe handle registry (`handles.rs`), masking,
//! and what a recording of calls is made of (`recording.rs`).
//! Everything else in the crate builds on these.

mod edit_field;
pub(crate) mod error;
mod handles;
pub(crate) mod operability;
pub(crate) mod recording;
pub(crate) mod result;
pub(crate) mod windows;

pub use edit_field::MAX_EDIT_FIELDS;
pub(crate) use edit_field::{EDIT_FIELD, EditArgs};
pub(crate) use error::{ErrorCode, FieldError, ToolError};
pub(crate) use handles::HandleRegistry;
pub use handles::{
    APP_TARGET, CALL_ACTION, CALL_DESTRUCTIVE_ACTION, CALL_READONLY_ACTION, READ_WINDOWS_ACTION, VIEW_WINDOW_ACTION,
    is_name_safe, is_reserved_app_action, split_tool_name, tool_name,
};
pub use recording::SECRET_KEY;
pub(crate) use result::ToolResult;
pub(crate) use windows::masked;
pub use windows::{Block, FieldItem, MASK, Window, WindowsState};
