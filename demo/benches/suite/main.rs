//! The benchmark suite of issue 10, one command: `cargo bench -p order-demo --bench suite`
//! (add a section's name, such as `-- scale`, to run only that one). It prints tables and
//! asserts nothing; PERFORMANCE.md explains each figure and keeps the last run's.
//!
//! - `scale`: per frame, the bridge's cost at 10, 100, 1,000 and 10,000 windows of 10 blocks,
//!   next to the demo's own pass with as many Order Editors open; publish + serialise and
//!   `resources/read` at those sizes, with the growth exponents; the look pass (p50, p99 and
//!   worst pass while an agent reads every 100 ms, and what the read view's looks cost a pass
//!   on average). `EGUI_MCP_BRIDGE_SCALE_SIZES=10,100,1000` runs it at those sizes only.
//! - `calls`: the demo's `edit_field` round trip in-process, over stdio and over HTTP
//!   (headless); throughput with 1, 4 and 8 HTTP clients.
//! - `window`: the same call in a real window under Xvfb: frames and time per call (skipped,
//!   with a line saying so, where Xvfb is not installed).
//! - `memory`: resident memory of the headless demo at start, after 10,000 calls, and with 100
//!   editors open.
#![allow(clippy::print_stdout, reason = "a bench binary reports its numbers on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench binary may panic")]
#![allow(clippy::cast_precision_loss, clippy::cast_possible_truncation, reason = "figures for people")]

mod calls;
#[path = "../../../benches/common/mod.rs"]
mod http_client;
mod memory;
mod scale;
#[path = "../../tests/it/support/mod.rs"]
mod support;
mod ui_thread;
mod window;

use std::time::Duration;

/// Milliseconds with three decimals.
fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// The `p`-th percentile (0–100) of sorted durations.
fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted.get((sorted.len().saturating_sub(1) * p) / 100).copied().unwrap_or_default()
}

/// Set in the environment of the child process that runs one section.
const SECTION: &str = "EGUI_MCP_BRIDGE_SUITE_SECTION";

/// The sections, in the order they run.
const SECTIONS: [(&str, fn()); 4] =
    [("scale", scale::run), ("calls", calls::run), ("window", window::run), ("memory", memory::run)];

fn main() {
    if window::is_child() {
        window::child();
        return;
    }
    // Each section runs in a fresh process of its own, so that none inherits another's memory,
    // threads or caches (the memory figures above all).
    if let Ok(name) = std::env::var(SECTION) {
        if let Some((_, run)) = SECTIONS.iter().find(|(n, _)| *n == name) {
            run();
        }
        return;
    }
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    println!("# egui_mcp_bridge bench suite ({cores} cores, release)\n");
    for (name, _) in SECTIONS.iter().filter(|(n, _)| only.is_empty() || only.iter().any(|o| o == n)) {
        let status = std::process::Command::new(std::env::current_exe().unwrap()).env(SECTION, name).status();
        if !status.as_ref().is_ok_and(std::process::ExitStatus::success) {
            println!("section {name} failed: {status:?}\n");
        }
    }
}
