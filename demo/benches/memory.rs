//! Memory and per-call time while 10,000 Order Editors are opened, edited and closed (each with
//! its "Discard changes?" dialog): RSS at the start and after, and the time per call in the first
//! and the last thousand. Run with `cargo bench -p order-demo --bench memory`. Numbers are
//! printed, never asserted (the counted bounds are `demo/tests/memory.rs`).
#![allow(clippy::print_stdout, reason = "a bench binary reports its numbers on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench binary may panic")]

use std::time::{Duration, Instant};

use egui_mcp_bridge::testing::Agent;
use egui_mcp_bridge::{Bridge, Outcome};
use order_demo::OrderApp;
use serde_json::{Value, json};

/// Resident set size in MiB, from /proc (Linux).
fn rss_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

struct Demo {
    bridge: Bridge,
    ctx: egui::Context,
    app: OrderApp,
    calls: u32,
}

impl Demo {
    fn frame(&mut self) {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
            ..Default::default()
        };
        let app = &mut self.app;
        self.ctx.run_ui(input, |ui| app.ui(ui)).drop_without_applying_deltas();
    }

    fn call(&mut self, tool: &str, args: Value) -> Outcome {
        self.calls += 1;
        let mut call = Agent::new(&self.bridge).send(tool, args);
        loop {
            if let Some(outcome) = call.try_outcome() {
                return outcome;
            }
            self.frame();
        }
    }

    fn cycle(&mut self) {
        let editor = self.call("app__new_order", json!({})).unwrap().opened_window_ids[0].clone();
        self.call(&format!("{editor}__edit_field"), json!({"field": "recipient", "value": "Ada"})).unwrap();
        let discard = self.call(&format!("{editor}__close"), json!({})).unwrap().opened_window_ids[0].clone();
        self.call(&format!("{discard}__discard"), json!({})).unwrap();
    }
}

fn timed(demo: &mut Demo, cycles: u32) -> Duration {
    let (start, calls) = (Instant::now(), demo.calls);
    for _ in 0..cycles {
        demo.cycle();
    }
    start.elapsed() / (demo.calls - calls)
}

fn main() {
    let bridge = Bridge::builder().app_name("order-demo").build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let app = OrderApp::new(bridge.clone());
    let mut demo = Demo { bridge, ctx, app, calls: 0 };
    demo.frame();
    let first = timed(&mut demo, 1_000);
    let start = rss_mib();
    timed(&mut demo, 8_000);
    let last = timed(&mut demo, 1_000);
    let end = rss_mib();
    let f = demo.bridge.footprint();
    println!("windows opened and closed: {} (editors and dialogs)", f.handles_ever - 1);
    println!("RSS after 1,000 editors: {start:.1} MiB; after 10,000: {end:.1} MiB ({:+.1} MiB)", end - start);
    println!("per call (one frame): first 1,000 editors {first:?}; last 1,000 {last:?}");
    println!("bridge footprint: {f:?}");
}
