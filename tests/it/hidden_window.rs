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

/// A described window and an undescribed one, drawn by the same ui function in real passes and
/// in the hidden path's passes.
fn described_and_plain(bridge: &Bridge, count: &mut u32, ui: &mut egui::Ui) {
    bridge.window("editor").title("Editor").summary(format!("Count {count}")).ui(ui, |w, ui| {
        if let Some(press) = w.button(ui, "add", egui_mcp_bridge::ActionSpec::new("Add one")).inner {
            *count += 1;
            press.ok("Added");
        }
    });
    egui::Window::new("Log").show(ui.ctx(), |ui| ui.label("Started"));
}

/// eframe runs `App::logic` inside the real pass, before `App::ui`: a call served from there
/// while that pass is under way ran the app's UI in the private context in the middle of it.
/// Its passes could not be published (a pass was under way), so it ran 16 of them, and its read
/// view's pace turned the real pass's noting of what the app describes off, so the real look
/// read every described window as undescribed (a phantom). Forced here: a pass overdue
/// (`stalled_after(0)`), the private context's last look a moment old, the real one due.
#[test]
fn a_stall_served_from_logic_inside_a_real_pass_leaves_the_work_to_it() {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let mut hidden = bridge.calls_while_hidden().stalled_after(std::time::Duration::ZERO);
    let mut count = 0;
    let agent = Agent::new(&bridge);
    // Real frames before any agent: nothing is looked at.
    for _ in 0..2 {
        ctx.run_ui(hidden_input(Some(false)), |ui| described_and_plain(&bridge, &mut count, ui))
            .drop_without_applying_deltas();
    }
    // The first call is served from logic outside a pass (Wayland's hidden window).
    let mut first = agent.send("editor__add", Map::new());
    let _ = ctx.run_logic(&hidden_input(None), |ctx| {
        hidden.serve(ctx, |ui| described_and_plain(&bridge, &mut count, ui));
    });
    assert!(first.try_outcome().expect("answered from logic").is_ok());

    // The next one while a real frame runs: logic first, inside the pass, as eframe does.
    let mut second = agent.send("editor__add", Map::new());
    let mut passes = Vec::new();
    for _ in 0..3 {
        ctx.run_ui(hidden_input(Some(false)), |ui| {
            passes.push(hidden.serve(ui.ctx(), |u| described_and_plain(&bridge, &mut count, u)));
            described_and_plain(&bridge, &mut count, ui);
        })
        .drop_without_applying_deltas();
    }
    assert!(second.try_outcome().expect("answered by the real passes").is_ok());
    assert_eq!(count, 2);
    let snapshot = bridge.snapshot();
    let titles: Vec<(&str, bool)> =
        snapshot.state().windows.iter().map(|w| (w.title.as_str(), w.undescribed)).collect();
    assert!(!titles.contains(&("Editor", true)), "no phantom of the described window: {titles:?}");
    assert!(passes.iter().all(|p| *p == 0), "no private passes inside a real one: {passes:?}");
}
