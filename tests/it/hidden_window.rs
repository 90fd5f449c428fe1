//! Calls are served while the window is hidden: eframe then runs only `App::logic` (no egui
//! pass, no plugin hooks), which is simulated here with `Context::run_logic`.

use crate::common;

use common::{TestState, declare};
use egui_mcp_bridge::testing::Agent;
use egui_mcp_bridge::{Bridge, passes::CallsWhileHidden};
use serde_json::{Map, json};

fn hidden_input(minimized: Option<bool>) -> egui::RawInput {
    let mut input = egui::RawInput::default();
    input.viewports.insert(
        egui::ViewportId::ROOT,
        egui::ViewportInfo { minimized, occluded: minimized.map(|_| false), ..Default::default() },
    );
    input
}

/// The test app with its plugin, one visible frame in.
fn visible_app() -> (Bridge, egui::Context, CallsWhileHidden, TestState) {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let hidden = bridge.calls_while_hidden();
    let mut state = TestState::default();
    ctx.run_ui(hidden_input(Some(false)), |_| declare(&bridge, &mut state)).drop_without_applying_deltas();
    (bridge, ctx, hidden, state)
}

/// `App::logic` with the window in this state, serving from it as the demo does.
fn logic(
    ctx: &egui::Context,
    minimized: Option<bool>,
    hidden: &mut CallsWhileHidden,
    bridge: &Bridge,
    state: &mut TestState,
) -> usize {
    let mut passes = usize::MAX;
    let _ = ctx.run_logic(&hidden_input(minimized), |ctx| {
        passes = hidden.serve(ctx, |_ui| declare(bridge, state));
    });
    passes
}

#[test]
fn a_minimised_window_serves_calls_from_app_logic() {
    let (bridge, ctx, mut hidden, mut state) = visible_app();

    let Some(json_args) = json!({"name": "while hidden"}).as_object().cloned() else { unreachable!() };
    let mut rx = Agent::new(&bridge).send("main__set_name", json_args);
    // The window is minimised: eframe calls only `App::logic`.
    let passes = logic(&ctx, Some(true), &mut hidden, &bridge, &mut state);
    assert_eq!(passes, 1, "one frame: a pass applies the call, its second pass publishes it");
    let result = rx.try_outcome().expect("answered without any pass of the real context").expect("success");
    assert_eq!(result.version, Some(2));
    assert_eq!(state.name, "while hidden");
    assert_eq!(bridge.snapshot().state().window("main").unwrap().summary, "Name is \"while hidden\"");
}

#[test]
fn a_visible_window_leaves_the_work_to_its_own_passes() {
    let (bridge, ctx, mut hidden, mut state) = visible_app();
    let mut rx = Agent::new(&bridge).send("main__set_name", Map::from_iter([("name".into(), json!("x"))]));
    let passes = logic(&ctx, Some(false), &mut hidden, &bridge, &mut state);
    assert_eq!(passes, 0, "the pass the call asked for is not overdue: no shadow passes");
    assert!(rx.try_outcome().is_none(), "not answered from logic");
    for _ in 0..2 {
        ctx.run_ui(hidden_input(Some(false)), |_| declare(&bridge, &mut state)).drop_without_applying_deltas();
    }
    assert!(rx.try_outcome().expect("answered by the real passes").is_ok());
}

#[test]
fn an_overdue_pass_is_served_from_logic_when_the_platform_cannot_say_it_is_hidden() {
    // Wayland reports neither minimised nor visible; eframe then runs only `logic`, about every
    // 250 ms. The bridge notices that the pass the call asked for never came.
    let (bridge, ctx, hidden, mut state) = visible_app();
    let mut hidden = hidden.stalled_after(std::time::Duration::ZERO);
    let mut rx = Agent::new(&bridge).send("main__set_name", Map::from_iter([("name".into(), json!("wayland"))]));
    let passes = logic(&ctx, None, &mut hidden, &bridge, &mut state);
    assert_eq!(passes, 1);
    assert!(rx.try_outcome().expect("answered from logic").is_ok());
    assert_eq!(state.name, "wayland");
    // Nothing waits any more: logic does nothing.
    assert_eq!(logic(&ctx, None, &mut hidden, &bridge, &mut state), 0);
}
