//! The order-editor demo of `egui_mcp_bridge`: a multi-window app that a person and agents
//! operate together. The binary (`order-demo`) runs it in a window or headless and serves MCP.

pub mod app;
pub mod chart;
pub mod data;
pub mod editor;
mod lock;
pub mod monitor;
mod orders;
mod report;
pub mod ui_util;

pub use app::OrderApp;
