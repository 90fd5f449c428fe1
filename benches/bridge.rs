//! Measures the bridge's per-frame cost and a call's round trip (DESIGN.md budgets).
//! Run with `cargo bench --bench bridge`. Numbers are printed, never asserted.
#![allow(clippy::print_stdout, reason = "a bench binary reports its numbers on stdout")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use egui_mcp_bridge::blocks::ListOptions;
use egui_mcp_bridge::testing::{Agent, HeadlessUi};
use egui_mcp_bridge::{ActionSpec, Bridge, Tree, TreeState};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Edit {
    field: String,
    value: String,
}

struct Orders {
    rows: Vec<(String, String, &'static str, f64)>,
    edits: u64,
}

/// About the demo's content: a 20-row table and three editors with fields, items and actions.
fn declare(bridge: &Bridge, app: &mut Orders) {
    let rows = &app.rows;
    let _ = bridge.window("orders").title("Orders").summary("20,000 orders, 3 drafts open").declare(|w| {
        let _ = w.button("load_orders", ActionSpec::new("Load orders").read_only());
        w.table("orders", &["Order", "Customer", "Status", "Amount"]).slice(0, 20_000).rows(|t| {
            for (o, c, s, a) in rows {
                t.row((o.as_str(), c.as_str(), *s, *a));
            }
        });
    });
    for k in 0..3 {
        let id = format!("order-{k}");
        let _ = bridge.window(&id).title("Order Editor").summary("Editing an order").declare(|w| {
            if let Some(call) = w.action::<Edit>("edit_field", ActionSpec::new("Edit field")) {
                black_box((&call.args().field, &call.args().value));
                app.edits += 1;
                call.ok("edited");
            }
            if let Some(call) = w.button("submit", ActionSpec::new("Submit")) {
                call.ok("submitted");
            }
            if let Some(call) = w.button("close", ActionSpec::new("Close")) {
                call.ok("closed");
            }
            w.fields("details", |f| {
                f.field("Recipient", "Ada Lovelace");
                f.field("Address", "1 Main Street");
                f.field("Amount", 100.0);
                f.secret("Card number", "4111 1111 1111 1111");
            });
            let edits = format!("edit {}", app.edits);
            w.table("items", &["Product", "Quantity", "Unit price"]).rows(|t| {
                t.row(("Tea", 2, 4.5));
                t.row((edits.as_str(), 1, 9.0));
            });
        });
    }
}

fn per_frame(frames: u32, with_bridge: bool) -> Duration {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    if with_bridge {
        ctx.add_plugin(bridge.plugin());
    }
    let mut app = Orders {
        rows: (0..20).map(|i| (format!("#{}", 10_001 + i), "Ada Lovelace".to_owned(), "Draft", 12.5)).collect(),
        edits: 0,
    };
    let mut run = |ctx: &egui::Context| {
        ctx.run_ui(egui::RawInput::default(), |_ui| {
            if with_bridge {
                declare(&bridge, &mut app);
            }
        })
        .drop_without_applying_deltas();
    };
    for _ in 0..20 {
        run(&ctx);
    }
    let start = Instant::now();
    for _ in 0..frames {
        run(&ctx);
    }
    start.elapsed() / frames
}

/// The person's pass over a live log of `lines` lines in a window, stuck to the bottom, agents
/// reading its newest 200 (`long_list`): only the visible rows are laid out, so 100,000 lines
/// should cost what 20 do.
fn log_pass(frames: u32, lines: usize) -> Duration {
    let bridge = Bridge::builder().build();
    let log: Vec<String> =
        (0..lines).map(|k| format!("[{:.1}] temperature=21.{} #{k}", k as f64 / 10.0, k % 10)).collect();
    window_pass(&bridge, frames, |ui| {
        bridge.window("log").title("Log").ui(ui, |w, ui| {
            let options = ListOptions::new().newest_items(200).stick_to_bottom(true);
            w.long_list(ui, "lines", log.len(), |k| log[k].as_str(), options);
        });
    })
}

/// The mean time of one pass of `app` in a 1000 × 700 screen, with `bridge`'s plugin, after 20
/// passes of warm-up.
fn window_pass(bridge: &Bridge, frames: u32, mut app: impl FnMut(&mut egui::Ui)) -> Duration {
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let raw = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1000.0, 700.0))),
        ..Default::default()
    };
    let mut run = || ctx.run_ui(raw(), &mut app).drop_without_applying_deltas();
    for _ in 0..20 {
        run();
    }
    let start = Instant::now();
    for _ in 0..frames {
        run();
    }
    start.elapsed() / frames
}

/// The person's pass over a file tree of `folders` × 10 folders × 99 files, two folders open,
/// in a window (`Tree`): only the rows in view are laid out, but which rows are open is found
/// over all of them every pass, so 10,010 rows cost more than 110 do, not 100 times more.
fn tree_pass(frames: u32, folders: usize) -> Duration {
    let bridge = Bridge::builder().build();
    let mut paths = Vec::new();
    for d in 0..folders {
        paths.push(format!("d{d}"));
        for s in 0..10 {
            paths.push(format!("d{d}/s{s}"));
            for f in 0..99 {
                paths.push(format!("d{d}/s{s}/f{f:02}.txt"));
            }
        }
    }
    let mut state = TreeState::new();
    state.set_open("d0", true);
    state.set_open("d0/s0", true);
    window_pass(&bridge, frames, |ui| {
        bridge.window("files").title("Files").ui(ui, |w, ui| {
            let tree = Tree::new("tree", &paths, String::as_str, &mut state).checkboxes(|_| Some(false));
            black_box(w.add(ui, tree).is_some());
        });
    })
}

fn round_trip(calls: u32) -> Duration {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let ui = HeadlessUi::start(&bridge, "bench-ui", move || {
        let mut app = Orders { rows: Vec::new(), edits: 0 };
        move |_ui: &mut egui::Ui| declare(&b, &mut app)
    });
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let agent = Agent::new(&bridge);
    let elapsed = rt.block_on(async {
        let args = json!({"field": "recipient", "value": "x"});
        let mut published = agent.watch();
        let _ = published.wait_for(|s| s.windows_revision() > 0).await;
        assert!(agent.call("order-0__edit_field", args.clone()).await.is_ok(), "warm-up call");
        let start = Instant::now();
        for _ in 0..calls {
            assert!(agent.call("order-0__edit_field", args.clone()).await.is_ok());
        }
        start.elapsed() / calls
    });
    drop(ui);
    elapsed
}

fn main() {
    let frames = 2_000;
    let base = per_frame(frames, false);
    let with = per_frame(frames, true);
    println!("egui pass without the bridge:        {base:?} per frame");
    println!("egui pass with the bridge (no change): {with:?} per frame");
    println!("bridge cost per unchanged frame:       {:?}", with.saturating_sub(base));
    println!("call round trip, headless, in-process: {:?}", round_trip(500));
    println!("a log of 20 lines, the person's pass:      {:?} per frame", log_pass(frames, 20));
    println!("a log of 100,000 lines, the person's pass: {:?} per frame", log_pass(frames, 100_000));
    println!("a tree of 1,001 rows, the person's pass:   {:?} per frame", tree_pass(frames, 1));
    println!("a tree of 10,010 rows, the person's pass:  {:?} per frame", tree_pass(frames, 10));
}
