//! `view-window-app`: a small eframe app (glow) whose one window an agent understands only by
//! looking at it, with what it must not see beside and inside it, serving MCP over stdio. It is
//! the app of `tests/it/view_window_eframe.rs` (`app__view_window` in a real window).
//!
//! - A side panel hidden from the read view (`Bridge::hide_from_read_view`), painted magenta.
//! - The central panel, described as the window `chart` ("Sales by month"): a bar chart the app
//!   paints, a panel of notes hidden from the read view (painted magenta too) and a password
//!   edit holding a password.
//!
//! Once the first pass has run it prints `view-window-app ready` on stderr.
//! `cargo run -p order-demo --bin view-window-app` (an MCP client starts it, over stdio).

use egui_mcp_bridge::Bridge;

/// What the agent must never see: the hidden panels' paint.
const MAGENTA: egui::Color32 = egui::Color32::from_rgb(255, 0, 255);

/// The chart's bars, by month.
const SALES: [(f32, egui::Color32); 6] = [
    (0.4, egui::Color32::from_rgb(30, 144, 255)),
    (0.7, egui::Color32::from_rgb(255, 165, 0)),
    (0.55, egui::Color32::from_rgb(46, 139, 87)),
    (0.9, egui::Color32::from_rgb(220, 20, 60)),
    (0.3, egui::Color32::from_rgb(106, 90, 205)),
    (0.8, egui::Color32::from_rgb(255, 215, 0)),
];

struct App {
    bridge: Bridge,
    password: String,
    ready: bool,
    /// Serving lasts as long as this handle.
    _serving: egui_mcp_bridge::serve::ServeHandle,
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let (bridge, password) = (&self.bridge, &mut self.password);
        egui::Panel::left("keys").exact_size(120.0).show(ui, |ui| {
            bridge.hide_from_read_view(ui);
            ui.painter().rect_filled(ui.max_rect(), 0.0, MAGENTA);
            ui.label("API key: 1234");
        });
        egui::CentralPanel::default().show(ui, |ui| {
            bridge.window("chart").title("Chart").summary("Sales by month, as bars").panel(ui, |_, ui| {
                egui::Panel::right("notes").exact_size(110.0).show(ui, |ui| {
                    bridge.hide_from_read_view(ui);
                    ui.painter().rect_filled(ui.max_rect(), 0.0, MAGENTA);
                    ui.label("Private notes");
                });
                ui.horizontal(|ui| {
                    let label = ui.label("Password");
                    ui.add(egui::TextEdit::singleline(password).password(true)).labelled_by(label.id);
                });
                let size = egui::vec2(ui.available_width(), 180.0);
                let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
                let width = rect.width() / SALES.len() as f32;
                for (k, (share, colour)) in SALES.iter().enumerate() {
                    let left = rect.left() + width * k as f32;
                    let bar = egui::Rect::from_min_max(
                        egui::pos2(left + 4.0, rect.bottom() - rect.height() * share),
                        egui::pos2(left + width - 4.0, rect.bottom()),
                    );
                    ui.painter().rect_filled(bar, 0.0, *colour);
                }
            });
        });
        if !self.ready {
            self.ready = true;
            eprintln!("view-window-app ready");
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(tracing_subscriber::EnvFilter::from_default_env())
        .with(tracing_subscriber::filter::filter_fn(egui_mcp_bridge::log_filter))
        .init();
    let bridge = Bridge::builder().app_name("view-window-app").build();
    let serving = bridge.serve_stdio()?;
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([640.0, 420.0]),
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "view-window-app",
        options,
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            Ok(Box::new(App { bridge, password: "hunter2".to_owned(), ready: false, _serving: serving }))
        }),
    )?;
    Ok(())
}
