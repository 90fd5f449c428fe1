//! The serial monitor example (`order_demo::monitor`): a panel app with a menu bar, a settings
//! side panel, a live console, a command line and a confirmation dialog, against a pretend
//! device, serving MCP over stdio.
//!
//! ```sh
//! cargo run -p order-demo --example serial_monitor             # a window; MCP on stdio
//! cargo run -p order-demo --example serial_monitor -- --headless
//! ```

use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::passes::headless;
use order_demo::monitor::Monitor;

struct App {
    monitor: Monitor,
    _serving: egui_mcp_bridge::serve::ServeHandle,
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.monitor.ui(ui);
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // stdout carries MCP: log to stderr, never an argument an agent sends.
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(tracing_subscriber::EnvFilter::from_default_env())
        .with(tracing_subscriber::filter::filter_fn(egui_mcp_bridge::log_filter))
        .init();
    let bridge = Bridge::builder()
        .app_name("serial-monitor")
        .app_version(env!("CARGO_PKG_VERSION"))
        .instructions("A serial monitor with a pretend device. Connect from settings (it answers once the port is open), send lines from command, read them in console.")
        .build();
    let serving = bridge.serve_stdio()?;
    if std::env::args().any(|a| a == "--headless") {
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let mut monitor = Monitor::new(bridge);
        headless::run(&ctx, headless::HeadlessOptions::default(), |ui| monitor.ui(ui), || !serving.is_closed());
        return Ok(());
    }
    eframe::run_native(
        "Serial monitor",
        eframe::NativeOptions::default(),
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            Ok(Box::new(App { monitor: Monitor::new(bridge), _serving: serving }))
        }),
    )?;
    Ok(())
}
