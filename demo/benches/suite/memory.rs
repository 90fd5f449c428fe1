//! Resident memory of the headless demo (in this process: the demo's state, egui, the bridge)
//! at start, after 10,000 calls (2,500 editors opened, edited and closed, each with its
//! "Discard changes?" dialog), and with 100 editors open; and the time per call in the first
//! and the last thousand. The counted bounds are `demo/tests/memory.rs`.

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

/// Mean time per call over `cycles` cycles of 4 calls.
fn timed(demo: &mut Demo, cycles: u32) -> Duration {
    let (start, calls) = (Instant::now(), demo.calls);
    for _ in 0..cycles {
        demo.cycle();
    }
    start.elapsed() / (demo.calls - calls)
}

pub fn run() {
    let bridge = Bridge::builder().app_name("order-demo").build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let app = OrderApp::new(bridge.clone());
    let mut demo = Demo { bridge, ctx, app, calls: 0 };
    demo.frame();
    let at_start = rss_mib();
    let first = timed(&mut demo, 250);
    timed(&mut demo, 2_000);
    let last = timed(&mut demo, 250);
    let after_calls = rss_mib();
    assert_eq!(demo.calls, 10_000, "2,500 cycles of 4 calls");
    for _ in 0..100 {
        let _ = demo.call("app__new_order", json!({})).unwrap();
    }
    let with_editors = rss_mib();
    let f = demo.bridge.footprint();
    println!("## Memory: resident set of the headless demo\n");
    println!("| moment | RSS |");
    println!("| --- | --- |");
    println!("| at start (first frame done) | {at_start:.1} MiB |");
    println!(
        "| after 10,000 calls (2,500 editors and their dialogs opened and closed) | {after_calls:.1} MiB ({:+.1}) |",
        after_calls - at_start
    );
    println!("| then with 100 editors open | {with_editors:.1} MiB ({:+.1}) |", with_editors - after_calls);
    println!(
        "\nper call (one frame each, 4-call cycles): first 1,000 calls {}, last 1,000 {}; bridge footprint {f:?}\n",
        crate::ms(first),
        crate::ms(last)
    );
}
