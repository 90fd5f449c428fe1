//! The smallest eframe app with an MCP bridge: one window with a field, a button and an action
//! with arguments. The README's first example, as a program.
//!
//! Started by a person (`cargo run -p order-demo --example hello_bridge`) it opens its window,
//! a second time too. Started by an agent's client with `--stdio` it serves that client, from
//! the copy already open if there is one (then it opens no window of its own).

use egui_mcp_bridge::{ActionSpec, Bridge, Input};
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    amount: i64, // an action's arguments are checked before your code sees them
}
struct Counter {
    bridge: Bridge,
    name: String,
    count: i64,
}
impl eframe::App for Counter {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let summary = format!("{} {}", self.count, self.name);
        self.bridge.window("counter").title("Counter").summary(summary).ui(ui, |w, ui| {
            w.label(ui, "count", &format!("Count: {}", self.count));
            w.form(ui, "what", |f| _ = f.edit("name", &Input::text("Counting").char_limit(40), &mut self.name));
            if let Some(press) = w.button(ui, "add_one", ActionSpec::new("Add one")).inner {
                self.count += 1; // the person's click and the agent's call: one handler
                press.ok(format!("{} {}", self.count, self.name));
            }
            if let Some(call) = w.agents().action::<Add>("add", ActionSpec::new("Add to the count")) {
                self.count += call.args().amount; // for agents only
                call.ok(format!("{} {}", self.count, self.name));
            }
        });
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bridge = Bridge::builder().app_name("counter").build();
    let stdio = bridge.serve_stdio_from_args()?; // `--stdio`: an agent's client started the app
    if stdio.relayed() {
        return Ok(()); // the copy already open served the client: no second window
    }
    let app = Box::new(|cc: &eframe::CreationContext<'_>| {
        cc.egui_ctx.add_plugin(bridge.plugin()); // the bridge's pass hooks
        Ok(Box::new(Counter { bridge, name: "apples".into(), count: 0 }) as _)
    });
    Ok(eframe::run_native("counter", eframe::NativeOptions::default(), app)?)
}
