#![cfg_attr(doc, doc = include_str!("../README.md"))]
//!
//! # Layers and threads
//!
//! - [`protocol`]: the wire types and rules of the MCP GUI Bridge Protocol (pure: no egui, no
//!   rmcp), for clients: the state of `app://windows` and tool names. The results and errors
//!   [`Press::fail`] and agents get ([`ToolResult`], [`ToolError`]) are defined there too, and
//!   named at the root.
//! - The core (private): the state shared by the UI thread and the server (the latest published
//!   [`Snapshot`](state::Snapshot), the call queue) and the UI thread's bookkeeping (versions,
//!   ids, the call state machine). No egui, no rmcp.
//! - The app-side egui code: the declaration API ([`Bridge::window`], [`WindowUi`], [`Press`]),
//!   the widgets that draw for the person and declare for agents at once, and the person's view
//!   of the bridge (the approval prompt, the activity panel); and, beside it, the egui plugin
//!   ([`BridgePlugin`](passes::BridgePlugin)). Both run on the UI thread, inside the app's
//!   passes, and know the core only.
//! - The MCP server (private, on rmcp): tokio tasks that read snapshots and queue calls; they
//!   never touch app state. The UI thread never waits on them.
//! - [`Bridge`]: the one handle that wires them together; nothing below it calls it.
//!
//! `docs/design.md` lists what each layer may import, and a test holds the source to it.
#![warn(missing_docs, missing_debug_implementations)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod bridge;
mod declare;
mod hub;
mod plugin;
pub mod protocol;
mod server;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;

pub use bridge::{Bridge, BridgeBuilder};
pub use declare::{
    AngleInput, CheckboxInput, ChoiceInput, ColorInput, Deferred, Describe, ForAgents, Form, Input, NumberInput,
    Premultiplied, Press, Radians, TextInput, Tree, TreeEvent, TreeState, WindowBuilder, WindowResponse, WindowUi,
};
pub use hub::{ActionSpec, NoArgs, Outcome, ReadView};
pub use protocol::error::{ErrorCode, FieldError, ToolError};
pub use protocol::result::ToolResult;
pub use protocol::windows::Severity;

/// What a window's closures are given beyond [`WindowUi`] and [`Form`]: the block builders of
/// [`ForAgents::fields`], [`ForAgents::table`] and [`ForAgents::list`] (and the type-state of a
/// table or list being built), the options of [`WindowUi::table`], what a form returns, and
/// the shortcut [`WindowUi::with_shortcut`] binds.
/// Inferred in the closures; named here for the rare signature that needs them.
pub mod blocks {
    pub use crate::declare::{
        Cell, Editable, Fields, FormResponse, Items, ListKind, ListOptions, Menu, Paged, Row, Rows, Shortcut,
        TableKind, TableOptions,
    };
}

/// What the bridge tells the app back: the published state and tool list, the activity log,
/// the agent's mark, a call waiting for the person's approval, and the bridge's footprint.
pub mod state {
    pub use crate::hub::{
        ActivityRecord, AgentAction, Approval, ConnectionEvent, Footprint, Hints, Snapshot, ToolSpec, UndescribedWidget,
    };
}

/// Serving MCP: the handles that keep a transport running, how clients are met, and (feature
/// `http`) the streamable-HTTP options.
///
#[doc = include_str!("docs/serving.md")]
///
#[doc = include_str!("docs/what_clients_get.md")]
pub mod serve {
    pub use crate::server::{
        Attach, Attached, ClientProfile, Compat, Instance, ResultView, ServeHandle, StdioStart, attach_stdio,
    };
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub use crate::server::{Held, HttpHandle, HttpOptions, rotate_token, user_token_path};
}

/// What runs the app's passes: the egui plugin ([`Bridge::plugin`]), the headless loop, and the
/// calls served while the window is hidden ([`Bridge::calls_while_hidden`]).
pub mod passes {
    pub use crate::plugin::{BridgePlugin, CallsWhileHidden, headless};
}

/// The bridge's fixed bounds and defaults (each settable one has its builder method; the whole
/// list, with what happens past each, is in `SECURITY.md`).
pub mod limits {
    pub use crate::declare::{DEFAULT_AGENT_ITEMS, DEFAULT_TREE_AGENT_ROWS, MAX_AGENT_ITEMS, MAX_CLOSED_MENU_DEPTH};
    pub use crate::hub::{
        ACTIVITY_CAPACITY, DEFAULT_MAX_RECORDING_BYTES, DEFAULT_MAX_STRING_CHARS, MAX_DEFERRED_CALLS,
        MAX_DEFERRED_PER_CONNECTION, MAX_NAMED_ERRORS, MAX_TOOL_NAME, MAX_VIEW_BYTES, MAX_VIEW_SIDE,
        MIN_RECORDING_BYTES, MIN_VIEW_INTERVAL, RECORDED_SECRETS, RECORDING_QUEUE, VIEW_WINDOW_WAIT,
    };
    pub use crate::plugin::STALLED_AFTER;
    pub use crate::protocol::MAX_EDIT_FIELDS;
    #[cfg(feature = "http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub use crate::server::SESSION_IDLE;
    pub use crate::server::{ALWAYS_LOAD_TOOLS, INSTRUCTIONS_MAX_BYTES, MAX_LOCAL_CONNECTIONS, MAX_LOCAL_WAITING};
}

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
#[doc(no_inline)]
pub use schemars;
/// The `serde_json` of [`ToolResult::with_result`] and custom blocks.
#[doc(no_inline)]
pub use serde_json;

/// Whether a log event or span may be recorded, whatever the app's filter says: everything but
/// rmcp's own, below `ERROR`. rmcp logs whole requests and responses at `debug` and `trace`
/// (arguments included: a password an agent sends), and client-chosen request ids at `warn`; a
/// directive such as `RUST_LOG=rmcp::service=trace` would override a less specific
/// `rmcp=warn`, so a filter directive cannot keep them out, a global filter can. The bridge's
/// own log lines never carry an argument a client sent, and clip the strings a client chose.
/// Add it to your subscriber as a global filter (one line; the demo does the same):
///
/// ```no_run
/// use tracing_subscriber::prelude::*;
///
/// tracing_subscriber::registry()
///     .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
///     .with(tracing_subscriber::filter::filter_fn(egui_mcp_bridge::log_filter))
///     .init();
/// ```
pub fn log_filter(metadata: &tracing::Metadata<'_>) -> bool {
    let rmcp = metadata.target() == "rmcp" || metadata.target().starts_with("rmcp::");
    !rmcp || *metadata.level() == tracing::Level::ERROR
}
