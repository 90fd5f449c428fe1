//! The hidden path under a stall, on the demo: `App::logic` serves agent calls in a private
//! context while a pass is overdue (forced here: `stalled_after(0)`, the window visible), with
//! an agent about and the demo's windows open. Nothing the demo describes may then be published
//! a second time as an undescribed window (issue: "phantom read-only windows after a stall").

use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::testing::Agent;
use order_demo::OrderApp;
use serde_json::{Map, json};

fn input() -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1500.0, 950.0))),
        ..Default::default()
    }
}

/// Titles published for windows the demo did not describe.
fn undescribed(bridge: &Bridge) -> Vec<String> {
    let snapshot = bridge.snapshot();
    snapshot.state().windows.iter().filter(|w| w.undescribed).map(|w| w.title.clone()).collect()
}

#[test]
fn a_stall_served_from_logic_publishes_no_phantom_of_the_demos_windows() {
    let bridge = Bridge::builder().app_name("order-demo").build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let mut app = OrderApp::new(bridge.clone());
    let mut hidden = bridge.calls_while_hidden().stalled_after(std::time::Duration::ZERO);
    let agent = Agent::new(&bridge);
    let frame = |app: &mut OrderApp| ctx.run_ui(input(), |ui| app.ui(ui)).drop_without_applying_deltas();
    for _ in 0..3 {
        frame(&mut app);
    }
    // The agent opens the report and an editor through real passes.
    for (tool, args) in [("app__open_report", json!({})), ("app__new_order", json!({}))] {
        let Some(args) = args.as_object().cloned() else { unreachable!() };
        let mut call = agent.send(tool, args);
        for _ in 0..6 {
            frame(&mut app);
        }
        assert!(call.try_outcome().is_some_and(|o| o.is_ok()), "{tool} answered");
    }
    drop(agent.snapshot());
    for _ in 0..3 {
        frame(&mut app);
    }
    assert_eq!(undescribed(&bridge), Vec::<String>::new(), "the demo describes everything it draws");

    // A pass is overdue: the next calls are served from logic, in the private context.
    for round in 0..4 {
        let mut call = agent.send("orders__load_orders", Map::new());
        let mut passes = 0;
        let _ = ctx.run_logic(&input(), |ctx| passes = hidden.serve(ctx, |ui| app.ui(ui)));
        assert!(call.try_outcome().is_some(), "round {round}: answered from logic");
        assert!(passes <= 2, "round {round}: a stall runs the passes the call needs, not {passes}");
        assert_eq!(undescribed(&bridge), Vec::<String>::new(), "round {round}: no phantom window");
    }
}
