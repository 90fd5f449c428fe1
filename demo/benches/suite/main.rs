//! The benchmark suite of issue 10, one command: `cargo bench -p order-demo --bench suite`
//! (add a section's name, such as `-- scale`, to run only that one). It prints tables and
//! asserts nothing; PERFORMANCE.md explains each figure and keeps the last run's.
//!
//! - `scale`: per frame, the bridge's cost at 10, 100 and 1,000 windows of 10 blocks, next to
//!   the demo's own pass with as many Order Editors open; publish + serialise and
//!   `resources/read` at those sizes, with the growth exponent.
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

fn main() {
    if window::is_child() {
        window::child();
        return;
    }
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    println!("# egui_mcp_bridge bench suite ({cores} cores, release)\n");
    if wanted("scale") {
        scale::run();
    }
    if wanted("calls") {
        calls::run();
    }
    if wanted("window") {
        window::run();
    }
    if wanted("memory") {
        memory::run();
    }
}
