//! The smallest eframe app with an MCP bridge: one window with a counter, one dialog. The
//! README's first example, as a program.
//!
//! Run it from an MCP client (it serves stdio):
//! `cargo run -p order-demo --example hello_bridge`

use egui_mcp_bridge::{ActionSpec, Bridge, ServeHandle, Severity};

/// The arguments of an action: parsed and checked against this type before your code sees them.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    /// How much to add (doc comments become the parameter's description).
    amount: i64,
}

struct Counter {
    bridge: Bridge,
    count: i64,
    confirm_reset: bool,
    _serving: ServeHandle, // serving stops when this is dropped
}

impl eframe::App for Counter {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        // What the window shows, and what an agent may do to it, declared in every pass.
        let count = self.count;
        let shown = self.bridge.window("counter").title("Counter").summary(format!("The count is {count}")).show(|w| {
            w.fields("state", |f| f.field("Count", count));
            if let Some(call) = w.action::<Add>("add", ActionSpec::new("Add to the count")) {
                self.count += call.args().amount;
                call.ok(format!("The count is {}", self.count));
            }
            if let Some(call) = w.button("reset", ActionSpec::new("Reset").destructive()) {
                self.confirm_reset = true;
                call.ok("Asked for confirmation");
            }
        });
        // The person's view, disabled exactly when agents are told the window is blocked.
        egui::Window::new("Counter").show(&ctx, |ui| {
            ui.add_enabled_ui(!shown.blocked, |ui| {
                ui.label(format!("Count: {}", self.count));
                if ui.button("Reset").clicked() {
                    self.confirm_reset = true;
                }
            });
        });
        // A dialog owned by the counter: while it is open, the counter's tools are not listed.
        if self.confirm_reset {
            let mut reset = None;
            self.bridge.window("confirm-reset").title("Reset?").modal_of("counter").show(|d| {
                d.notice("warning", Severity::Warn, "This sets the count to 0.");
                if let Some(call) = d.button("yes", ActionSpec::new("Reset now").destructive()) {
                    reset = Some(true);
                    call.ok("Reset");
                }
            });
            egui::Window::new("Reset?").show(&ctx, |ui| {
                if ui.button("Reset now").clicked() {
                    reset = Some(true);
                }
                if ui.button("Keep").clicked() {
                    reset = Some(false);
                }
            });
            if let Some(yes) = reset {
                self.count = if yes { 0 } else { self.count };
                self.confirm_reset = false;
            }
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // stdout carries MCP over stdio: log to stderr, and never an argument an agent sends
    // (`log_filter` keeps rmcp's request dumps out whatever RUST_LOG says).
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(tracing_subscriber::EnvFilter::from_default_env())
        .with(tracing_subscriber::filter::filter_fn(egui_mcp_bridge::log_filter))
        .init();
    let bridge = Bridge::builder().app_name("counter").app_version("1.0.0").build();
    let serving = bridge.serve_stdio()?;
    eframe::run_native(
        "counter",
        eframe::NativeOptions::default(),
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            Ok(Box::new(Counter { bridge, count: 0, confirm_reset: false, _serving: serving }))
        }),
    )?;
    Ok(())
}
