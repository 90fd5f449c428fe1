//! The smallest eframe app with an MCP bridge: one window with a counter, one dialog.
//!
//! Run it from an MCP client (it serves stdio when stdin is not a terminal):
//! `cargo run -p order-demo --example hello_bridge`

use egui_mcp_bridge::{ActionSpec, Bridge, Severity};

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
        let count = self.count;
        let shown = self.bridge.window("counter").title("Counter").summary(format!("The count is {count}")).show(|w| {
            if let Some(call) = w.action::<Add>("add", ActionSpec::new("Add to the count")) {
                self.count += call.args().amount;
                call.ok(format!("The count is {}", self.count));
            }
            if let Some(call) = w.button("reset", ActionSpec::new("Reset").destructive()) {
                self.confirm_reset = true;
                call.ok("Asked for confirmation");
            }
            w.fields("state", |f| f.field("Count", count));
        });

        // Draw it for the person, disabled exactly when agents are told it is blocked (while
        // the dialog below is open).
        egui::Window::new("Counter").show(&ctx, |ui| {
            ui.add_enabled_ui(!shown.blocked, |ui| {
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
            let mut answer = None;
            let _ = self
                .bridge
                .window("confirm-reset")
                .title("Reset?")
                .modal_of("counter")
                .summary("Reset the count to 0?")
                .show(|d| {
                    d.notice("warning", Severity::Warn, "This sets the count to 0.");
                    if let Some(call) = d.button("yes", ActionSpec::new("Reset now").destructive()) {
                        answer = Some(true);
                        call.ok("Reset");
                    }
                    if let Some(call) = d.button("no", ActionSpec::new("Keep the count")) {
                        answer = Some(false);
                        call.ok("Kept");
                    }
                });
            egui::Window::new("Reset?").show(&ctx, |ui| {
                if ui.button("Reset now").clicked() {
                    answer = Some(true);
                }
                if ui.button("Keep").clicked() {
                    answer = Some(false);
                }
            });
            match answer {
                Some(true) => {
                    self.count = 0;
                    self.confirm_reset = false;
                }
                Some(false) => self.confirm_reset = false,
                None => {}
            }
        }
    }
}

fn main() -> eframe::Result {
    // stdout is the MCP channel: logs go to stderr.
    tracing_subscriber::fmt().with_writer(std::io::stderr).init();
    let bridge = Bridge::builder().app_name("hello-bridge").build();
    // Serving stops when the handle is dropped: keep it for as long as the app runs.
    let _serving = bridge.serve_stdio().inspect_err(|e| tracing::error!(error = %e, "could not serve MCP"));
    eframe::run_native(
        "hello-bridge",
        eframe::NativeOptions::default(),
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            Ok(Box::new(Hello { bridge, count: 0, confirm_reset: false }))
        }),
    )
}
