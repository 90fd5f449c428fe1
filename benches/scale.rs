//! How the bridge scales with the number of windows, next to the egui pass that draws them.
//! Run with `cargo bench --bench scale`; it prints a table, asserts nothing.
//!
//! For 10, 100 and 1,000 windows of 10 blocks each (4 fields blocks of 5 items, 3 texts,
//! 2 notices, a 5-row table), per frame: the egui pass that draws them (an `egui::Window` of
//! 10 labelled rows each), and the bridge's own cost (its declarations and hooks, over an
//! empty pass) when nothing changed, and when one window changed (which publishes: a new
//! snapshot built and serialised once), plus the size of the published state. The bridge's
//! cost is measured without the drawing, so that the drawing's variance does not hide it.
#![allow(clippy::print_stdout, reason = "a bench binary reports its numbers on stdout")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use egui_mcp_bridge::{ActionSpec, Bridge, Severity};

struct App {
    windows: usize,
    /// Bumped in one window per frame when measuring changes.
    edits: u64,
    change: bool,
}

fn declare(bridge: &Bridge, app: &mut App) {
    for k in 0..app.windows {
        let id = format!("w-{k}");
        let edits = if app.change && k == 0 { app.edits } else { 0 };
        let _ = bridge.window(&id).title(format!("Window {k}")).summary("A window of the scale bench").show(|w| {
            for b in 0..4 {
                w.fields(&format!("f{b}"), |f| {
                    f.field("Name", "Ada Lovelace");
                    f.field("Address", "1 Main Street");
                    f.field("Amount", 100.0 + f64::from(b));
                    f.field("Edits", edits);
                    f.sensitive("Card", "4111 1111 1111 1111");
                });
            }
            for t in 0..3 {
                w.text(&format!("t{t}"), "Some text that describes what the window shows.");
            }
            w.notice("n0", Severity::Info, "All good");
            w.notice("n1", Severity::Warn, "Check the amount");
            w.table("items", &["Product", "Quantity", "Price"]).rows(|r| {
                for i in 0..5 {
                    r.row(("Tea", i, 4.5));
                }
            });
            if let Some(call) = w.button("touch", ActionSpec::new("Touch")) {
                call.ok("touched");
            }
        });
    }
    if app.change {
        app.edits += 1;
    }
}

/// What a person sees of the same windows: the egui pass the bridge rides on.
fn draw(ctx: &egui::Context, app: &App) {
    for k in 0..app.windows {
        egui::Window::new(format!("Window {k}")).id(egui::Id::unique(("w", k))).show(ctx, |ui| {
            for row in 0..10 {
                ui.label(format!("Row {row}: Ada Lovelace, 1 Main Street, $100.00"));
            }
        });
    }
}

/// Mean time of one frame after warm-up.
fn frame_time(windows: usize, with_bridge: bool, with_ui: bool, change: bool) -> (Duration, usize) {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    if with_bridge {
        ctx.add_plugin(bridge.plugin());
    }
    let mut app = App { windows, edits: 0, change };
    let frames = (2_000 / windows).clamp(10, 200) as u32;
    let run = |ctx: &egui::Context, app: &mut App| {
        ctx.run_ui(egui::RawInput::default(), |ui| {
            if with_ui {
                draw(ui.ctx(), app);
            }
            if with_bridge {
                declare(&bridge, app);
            }
        })
        .drop_without_applying_deltas();
    };
    for _ in 0..5 {
        run(&ctx, &mut app);
    }
    let start = Instant::now();
    for _ in 0..frames {
        run(&ctx, &mut app);
    }
    let size = bridge.snapshot().json().len();
    black_box(&app.edits);
    (start.elapsed() / frames, size)
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    println!(
        "| windows × 10 blocks | egui pass drawing them | + bridge, nothing changed | + bridge, one window changed | state JSON |"
    );
    println!("| --- | --- | --- | --- | --- |");
    let mut rows = Vec::new();
    for windows in [10, 100, 1_000] {
        let (empty, _) = frame_time(windows, false, false, false);
        let (ui, _) = frame_time(windows, false, true, false);
        let (same, _) = frame_time(windows, true, false, false);
        let (changed, size) = frame_time(windows, true, false, true);
        let quiet = same.saturating_sub(empty);
        let busy = changed.saturating_sub(empty);
        println!(
            "| {windows} | {} | {} ({:.0}% of the pass) | {} ({:.0}%) | {} KB |",
            ms(ui),
            ms(quiet),
            100.0 * quiet.as_secs_f64() / ui.as_secs_f64(),
            ms(busy),
            100.0 * busy.as_secs_f64() / ui.as_secs_f64(),
            size / 1024
        );
        rows.push((windows, quiet, busy));
    }
    // Growth from 100 to 1,000 windows: t ∝ n^k.
    let k = |a: Duration, b: Duration| (b.as_secs_f64() / a.as_secs_f64()).log10();
    println!(
        "\ngrowth from 100 to 1,000 windows: nothing changed n^{:.2}, one changed n^{:.2} (1.00 is linear)",
        k(rows[1].1, rows[2].1),
        k(rows[1].2, rows[2].2)
    );
}
