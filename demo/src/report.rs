//! The Sales Report: totals, a PNG chart (a `media` block with an alt text that states the
//! numbers), and the top products. Recomputed when the orders change.
//!
//! In its own OS window it is a *deferred* viewport: egui runs its pass on its own, with its
//! state behind a lock (`Arc<Mutex<…>>`), and the bridge publishes what that pass declares with
//! everything else. Inside the main window the same functions draw it as an `egui::Window`.

use std::sync::Arc;

use egui::Color32;
use egui_mcp_bridge::{ActionSpec, Bridge, WindowResponse};
use parking_lot::Mutex;

use crate::app::OrderApp;
use crate::chart;
use crate::data::{Report, money, thousands};
use crate::ui_util::{agent_line, agent_stroke};
use crate::windows::{Spec, viewport_id};

/// Where the report opens (under Orders, left of the editors), and its size.
const REPORT_POS: egui::Pos2 = egui::pos2(8.0, 400.0);
const REPORT_SIZE: egui::Vec2 = egui::vec2(340.0, 400.0);

/// The report and what its window asked the app for; shared with its viewport's pass.
#[derive(Debug, Default)]
pub struct ReportState {
    /// The numbers, and the orders revision they were computed from.
    cache: Option<(u64, Report, String)>,
    /// Closed (by its tool, its button or its OS window): the app stops showing it.
    pub close: bool,
    /// Asked to recompute.
    pub refresh: bool,
    /// Asked to move between the main window and its own.
    pub toggle_window: bool,
}

/// The shared report state.
pub type SharedReport = Arc<Mutex<ReportState>>;

/// Declares the report window: its blocks and tools. `None` before the first computation.
fn declare(bridge: &Bridge, s: &mut ReportState) -> Option<WindowResponse<()>> {
    let (_, r, chart_url) = s.cache.as_ref()?;
    let summary = format!(
        "Today: {} orders, revenue {}, average order {}",
        r.orders_today,
        money(r.revenue_today),
        money(r.average_today)
    );
    let (mut refresh, mut close) = (false, false);
    let shown = bridge.window("report").title("Sales Report").summary(summary).show(|w| {
        if let Some(call) = w.button("refresh", ActionSpec::new("Refresh report").read_only()) {
            refresh = true;
            call.ok("The report is up to date");
        }
        if let Some(call) = w.button("close", ActionSpec::new("Close report")) {
            close = true;
            call.ok("Sales Report closed");
        }
        w.fields("totals", |f| {
            f.field("Orders today", r.orders_today);
            f.field("Revenue today", money(r.revenue_today).as_str());
            f.field("Average order", money(r.average_today).as_str());
        });
        w.media("chart", "image/png", chart_url, Some(&r.chart_alt()));
        w.list("top-products").ordered().items(|l| {
            for (p, q) in &r.top_products {
                l.item(format!("{p} ({} sold)", thousands(*q)).as_str());
            }
        });
    });
    s.refresh |= refresh;
    s.close |= close;
    Some(shown)
}

/// The person's view of the report.
fn contents(ui: &mut egui::Ui, s: &mut ReportState, blocked: bool) {
    let Some((_, r, _)) = &s.cache else { return };
    let mut refresh = false;
    ui.add_enabled_ui(!blocked, |ui| {
        if ui.button("Refresh").clicked() {
            refresh = true;
        }
        egui::Grid::new("report-totals").num_columns(2).show(ui, |ui| {
            ui.label("Orders today");
            ui.strong(r.orders_today.to_string());
            ui.end_row();
            ui.label("Revenue today");
            ui.strong(money(r.revenue_today));
            ui.end_row();
            ui.label("Average order");
            ui.strong(money(r.average_today));
            ui.end_row();
        });
        ui.separator();
        ui.label("Revenue per day");
        bar_chart(ui, &r.revenue_per_day);
        ui.separator();
        ui.label("Top products");
        for (i, (p, q)) in r.top_products.iter().enumerate() {
            ui.label(format!("{}. {p} ({} sold)", i + 1, thousands(*q)));
        }
    });
    s.refresh |= refresh;
}

/// The report in its own OS window: a deferred viewport's pass, declaring and drawing.
fn own_window_pass(ui: &mut egui::Ui, bridge: &Bridge, shared: &SharedReport, can_go_back: bool) {
    let mut s = shared.lock();
    if ui.input(|i| i.viewport().close_requested()) {
        s.close = true;
    }
    if s.close {
        return; // closed: the app stops showing it at its next pass
    }
    let Some(shown) = declare(bridge, &mut s) else { return };
    let mut frame = egui::Frame::central_panel(ui.style());
    if let Some(stroke) = agent_stroke(ui.ctx(), shown.agent_action.as_ref()) {
        frame = frame.stroke(stroke);
    }
    egui::CentralPanel::default().frame(frame).show(ui, |ui| {
        ui.horizontal(|ui| {
            agent_line(ui, shown.agent_action.as_ref());
            if can_go_back && ui.small_button("Back into the main window").clicked() {
                s.toggle_window = true;
            }
        });
        contents(ui, &mut s, shown.blocked);
    });
}

impl OrderApp {
    /// Declares and shows the Sales Report while it is open; applies what it asked for.
    pub(crate) fn report_window(&mut self, ctx: &egui::Context) {
        if !self.report_open {
            return;
        }
        let shared = Arc::clone(&self.report);
        {
            let mut s = shared.lock();
            // Closed in its own window's pass: not shown again, so its viewport (and window) go.
            if s.close {
                s.close = false;
                self.report_open = false;
                return;
            }
            if s.refresh || s.cache.as_ref().is_none_or(|c| c.0 != self.orders_revision) {
                let report = Report::compute(&self.orders);
                let chart_url = chart::data_url(&chart::bar_chart_png(&report.revenue_per_day));
                s.cache = Some((self.orders_revision, report, chart_url));
                s.refresh = false;
            }
        }
        if self.windows.is_native("report") {
            let (bridge, shared, back) = (self.bridge.clone(), Arc::clone(&shared), !self.windows.native);
            let offset = REPORT_POS.to_vec2();
            let builder = egui::ViewportBuilder::default()
                .with_title("Sales Report")
                .with_inner_size(REPORT_SIZE)
                .with_position(self.windows.native_origin(ctx) + offset);
            ctx.show_viewport_deferred(viewport_id("report"), builder, move |ui, _class| {
                own_window_pass(ui, &bridge, &shared, back);
            });
        } else {
            let mut s = shared.lock();
            if let Some(shown) = declare(&self.bridge, &mut s) {
                let spec = Spec {
                    app_id: "report",
                    title: "Sales Report",
                    agent: shown.agent_action.as_ref(),
                    pos: REPORT_POS,
                    size: REPORT_SIZE,
                    dialog_of: None,
                    closable: true,
                };
                let window = self.windows.show(ctx, spec, |ui| contents(ui, &mut s, shown.blocked));
                s.close |= window.close;
            }
        }
        let mut s = shared.lock();
        if s.toggle_window {
            s.toggle_window = false;
            self.windows.toggle("report");
        }
        if s.close {
            s.close = false;
            self.report_open = false;
        }
    }
}

/// Draws the revenue bars for the person (the agent gets the PNG).
fn bar_chart(ui: &mut egui::Ui, values: &[f64]) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(280.0, 120.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let max = values.iter().copied().fold(1.0f64, f64::max);
    let slot = rect.width() / values.len().max(1) as f32;
    for (i, v) in values.iter().enumerate() {
        let h = (v / max) as f32 * (rect.height() - 4.0);
        let x = rect.left() + i as f32 * slot;
        let bar = egui::Rect::from_min_max(
            egui::pos2(x + slot * 0.15, rect.bottom() - h),
            egui::pos2(x + slot * 0.85, rect.bottom()),
        );
        let color =
            if i + 1 == values.len() { Color32::from_rgb(52, 168, 83) } else { Color32::from_rgb(66, 133, 244) };
        painter.rect_filled(bar, 2.0, color);
    }
}
