//! The smallest eframe app with an MCP bridge: one window with a counter, one dialog.
//!
//! Run it from an MCP client (it serves stdio when stdin is not a terminal):
//! `cargo run -p order-demo --example hello_bridge`

use egui_mcp_bridge::{ActionSpec, Bridge, NoArgs, Severity};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    /// How much to add.
    amount: i64,
}

struct Hello {
    bridge: Bridge,
    count: i64,
    confirm_reset: bool,
}

impl eframe::App for Hello {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();

        // Declare the window every frame: what it shows, and what an agent may do to it.
        let mut w = self.bridge.window("counter").title("Counter").summary(format!("The count is {}", self.count));
        if let Some(call) = w.action::<Add>("add", ActionSpec::new("Add to the count")) {
            self.count += call.args().amount;
            call.ok(format!("The count is {}", self.count));
        }
        if let Some(call) = w.action::<NoArgs>("reset", ActionSpec::new("Reset").destructive()) {
            self.confirm_reset = true;
            call.ok("Asked for confirmation");
        }
        w.fields("state", |f| f.field("Count", self.count));
        let blocked = w.is_blocked(); // true while the dialog below is open
        drop(w);

        // Draw it for the person, disabled exactly when agents are told it is blocked.
        egui::Window::new("Counter").show(&ctx, |ui| {
            ui.add_enabled_ui(!blocked, |ui| {
                ui.label(format!("Count: {}", self.count));
                if ui.button("+1").clicked() {
                    self.count += 1;
                }
                if ui.button("Reset").clicked() {
                    self.confirm_reset = true;
                }
            });
        });

        // A window-level modal dialog owned by the counter.
        if self.confirm_reset {
            let mut d = self
                .bridge
                .window("confirm-reset")
                .title("Reset?")
                .modal_of("counter")
                .summary("Reset the count to 0?");
            d.notice("warning", Severity::Warn, "This sets the count to 0.");
            let yes = d.action::<NoArgs>("yes", ActionSpec::new("Reset now").destructive()).map(|c| c.ok("Reset"));
            let no = d.action::<NoArgs>("no", ActionSpec::new("Keep the count")).map(|c| c.ok("Kept"));
            drop(d);
            egui::Window::new("Reset?").show(&ctx, |ui| {
                if ui.button("Reset now").clicked() || yes.is_some() {
                    self.count = 0;
                    self.confirm_reset = false;
                }
                if ui.button("Keep").clicked() || no.is_some() {
                    self.confirm_reset = false;
                }
            });
        }
    }
}

fn main() -> eframe::Result {
    // stdout is the MCP channel: logs go to stderr.
    tracing_subscriber::fmt().with_writer(std::io::stderr).init();
    let bridge = Bridge::builder().app_name("hello-bridge").build();
    if let Err(e) = bridge.serve_stdio() {
        tracing::error!(error = %e, "could not serve MCP");
    }
    eframe::run_native(
        "hello-bridge",
        eframe::NativeOptions::default(),
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            Ok(Box::new(Hello { bridge, count: 0, confirm_reset: false }))
        }),
    )
}
