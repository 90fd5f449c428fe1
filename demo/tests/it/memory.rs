//! Memory stays flat however many windows are opened and closed: what the bridge, the demo and
//! egui keep per window is bounded by the windows open at once (plus 8 bytes per handle ever
//! handed out, so that none is reused). Counted here; the RSS figures are in the bench suite
//! (`cargo bench -p order-demo --bench suite -- memory`).

#![allow(clippy::unwrap_used, reason = "tests")]

use crate::support;

use serde_json::json;
use support::InProcessDemo;

fn cycle(demo: &mut InProcessDemo) {
    let opened = demo.call("app__new_order", json!({})).unwrap();
    let editor = opened.opened_window_ids[0].clone();
    demo.call(&format!("{editor}__edit_field"), json!({"field": "recipient", "value": "Ada"})).unwrap();
    assert_eq!(demo.editor(&editor).draft.recipient, "Ada");
    let closing = demo.call(&format!("{editor}__close"), json!({})).unwrap();
    let discard = closing.opened_window_ids[0].clone(); // unsaved changes: "Discard changes?"
    demo.call(&format!("{discard}__discard"), json!({})).unwrap();
    assert!(demo.state().editors.is_empty(), "the editor is closed");
}

#[test]
fn opening_and_closing_windows_keeps_memory_flat() {
    let mut demo = InProcessDemo::new();
    for _ in 0..50 {
        cycle(&mut demo);
    }
    let egui_entries = demo.ctx.memory(|m| m.data.len());
    let slots = egui_mcp_bridge::testing::window_slots(demo.bridge());
    for _ in 0..150 {
        cycle(&mut demo);
    }
    let footprint = demo.bridge().footprint();
    assert_eq!(footprint.open_windows, 1, "only Orders is open: {footprint:?}");
    assert_eq!(footprint.remembered_windows, 1, "nothing kept of closed windows: {footprint:?}");
    assert_eq!(footprint.handles_ever, 1 + 200 * 2, "one handle per window ever opened: {footprint:?}");
    let slots_after = egui_mcp_bridge::testing::window_slots(demo.bridge());
    assert_eq!(
        slots_after, slots,
        "egui window ids are reused: {slots} slots after 50 cycles, {slots_after} after 200"
    );
    assert!(slots_after <= 4, "at most Orders, an editor and its dialog at once: {slots_after}");
    let egui_after = demo.ctx.memory(|m| m.data.len());
    assert!(egui_after <= egui_entries + 8, "egui's per-id memory grew from {egui_entries} to {egui_after}");
}
