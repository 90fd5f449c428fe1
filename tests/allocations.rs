//! A pass in which nothing changed allocates nothing per window in the bridge (issue 37): its
//! cost then grows with what changed, not with what exists. Counted with a counting global
//! allocator (`allocation-counter`, which counts the current thread's allocations), so in a test
//! binary of its own: the crate forbids `unsafe`, and the `it` binary keeps the system's.
//!
//! Counting, not timing: the pass's allocations at 10, 100 and 1,000 windows are the same but
//! for a few that do not depend on the windows (egui's own, a vector or two per pass).

use egui_mcp_bridge::{ActionSpec, Bridge, Severity};

/// The windows' ids, titles and summaries, made before counting: what the app passes is the
/// app's own (an app that `format!`s them pays for that itself).
struct Windows {
    ids: Vec<String>,
    titles: Vec<String>,
}

impl Windows {
    fn new(n: usize) -> Self {
        Self {
            ids: (0..n).map(|k| format!("w-{k}")).collect(),
            titles: (0..n).map(|k| format!("Window {k}")).collect(),
        }
    }
}

/// The scale bench's window: 4 fields blocks, 3 texts, 2 notices, a table, one action.
fn declare(bridge: &Bridge, windows: &Windows) {
    for (id, title) in windows.ids.iter().zip(&windows.titles) {
        bridge.window(id).title(title).summary("A window of the allocation test").declare(|w| {
            for (b, block) in ["f0", "f1", "f2", "f3"].into_iter().enumerate() {
                w.fields(block, |f| {
                    f.field("Name", "Ada Lovelace");
                    f.field("Address", "1 Main Street");
                    f.field("Amount", 100.0 + b as f64);
                    f.secret("Card", "4111 1111 1111 1111");
                });
            }
            for t in ["t0", "t1", "t2"] {
                w.text(t, "Some text that describes what the window shows.");
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
}

/// The fewest allocations of a quiet pass (nothing changed) with `n` windows declared, after
/// the passes that open them and publish them.
fn quiet_pass_allocations(n: usize) -> u64 {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let windows = Windows::new(n);
    let pass = || {
        ctx.run_ui(egui::RawInput::default(), |_| declare(&bridge, &windows)).drop_without_applying_deltas();
    };
    for _ in 0..5 {
        pass();
    }
    assert_eq!(bridge.snapshot().state().windows.len(), n, "the windows are published");
    (0..5).map(|_| allocation_counter::measure(pass).count_total).min().unwrap_or_default()
}

#[test]
fn a_quiet_pass_allocates_nothing_per_window() {
    let counts: Vec<(usize, u64)> = [10, 100, 1_000].into_iter().map(|n| (n, quiet_pass_allocations(n))).collect();
    eprintln!("allocations of a quiet pass, by windows: {counts:?}");
    let (few, many) = (counts[0].1, counts[2].1);
    // Constant per pass, whatever the windows (28 at each size when written): 990 more windows
    // may cost a vector that grew, not an allocation each (before issue 37: 5 a window, 79 /
    // 529 / 5,029 a pass).
    assert!(
        many <= few + 4,
        "allocations of a quiet pass by windows declared: {counts:?} ({:.2} per window more)",
        (many as f64 - few as f64) / 990.0
    );
}
