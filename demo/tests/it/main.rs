//! The demo's integration tests, in one test binary: one module per concern, sharing the demo
//! as a child process and the client environments (`support`). One binary links the demo's
//! dependencies once instead of once per file.
//!
//! - In process: `order_model` (the model without egui), `person_and_agent` (kittest),
//!   `agent_fuzz`, `memory`, and `monitor` (the second example, a serial monitor: a person with
//!   kittest, an agent over MCP).
//! - The demo binary over stdio and HTTP: `stdio_hygiene`, `frame_fuzz`, `token_budget`,
//!   `token_store` (the HTTP token kept across restarts),
//!   `client_zoo` (emulated clients that cannot run here), `native_windows` (under Xvfb),
//!   `read_view_eframe` (an app that describes nothing, in an eframe window under Xvfb),
//!   `view_window_eframe` (`app__view_window` in an eframe window under Xvfb: the picture
//!   decoded, a hidden panel blanked; minimised, refused),
//!   `attach` (`--stdio` attaching to the demo already running, one case under Xvfb).
//! - Real clients we did not write: `interop` (the Python SDK), `node_clients` (the Inspector,
//!   the conformance suite, the TypeScript SDK), `real_clients` (the agent programs people run,
//!   each with a scripted model), and `replay` (Claude Code's order task, recorded, replayed in
//!   the harness as a test).

mod support;

mod agent_fuzz;
mod attach;
mod client_zoo;
mod frame_fuzz;
mod hidden_stall;
mod interop;
mod memory;
mod monitor;
mod native_windows;
mod node_clients;
mod order_model;
mod person_and_agent;
mod read_view_eframe;
mod real_clients;
mod replay;
mod stdio_hygiene;
mod token_budget;
mod token_store;
mod validation;
mod view_window_eframe;
