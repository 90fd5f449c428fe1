//! The smallest eframe app with an MCP bridge: one window with a counter, one dialog. The
//! README's first example, as a program.
//!
//! Run it from an MCP client (it serves stdio):
//! `cargo run -p order-demo --example hello_bridge`

use egui_mcp_bridge::serve::ServeHandle;
use egui_mcp_bridge::{ActionSpec, Bridge, Severity};

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
        // One description for both audiences: the person's window, and what agents read and may
        // do, from the same code in every pass (disabled for both while the dialog is open).
        let summary = format!("The count is {}", self.count);
        self.bridge.window("counter").title("Counter").summary(summary).ui(ui, |w, ui| {
            w.form(ui, "state", |f| {
                f.value("Count", self.count);
            });
            // An action with parameters, for agents: a button would have none.
            if let Some(call) = w.agents().action::<Add>("add", ActionSpec::new("Add to the count")) {
                self.count += call.args().amount;
                call.ok(format!("The count is {}", self.count));
            }
            // A button that is also an action: one handler for the person's click and the agent.
            if let Some(press) = w.button(ui, "reset", ActionSpec::new("Reset").destructive()).inner {
                self.confirm_reset = true;
                press.ok("Asked for confirmation");
            }
        });
        // A dialog owned by the counter: while it is open, the counter's tools are not listed.
        if self.confirm_reset {
            self.bridge.window("confirm-reset").title("Reset?").modal_of("counter").ui(ui, |d, ui| {
                d.notice(ui, "warning", Severity::Warn, "This sets the count to 0.");
                if let Some(press) = d.button(ui, "yes", ActionSpec::new("Reset now").destructive()).inner {
                    self.count = 0;
                    self.confirm_reset = false;
                    press.ok("Reset");
                }
                if let Some(press) = d.button(ui, "keep", ActionSpec::new("Keep the count")).inner {
                    self.confirm_reset = false;
                    press.ok("Kept");
                }
            });
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A counter already running for this user? Serve this client from it: no second window, and
    // quitting the client leaves it open ("The app the person has open", below).
    if egui_mcp_bridge::serve::attach_stdio("counter")?.relayed() {
        return Ok(());
    }
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
