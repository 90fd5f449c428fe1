//! The Sales Report: totals, a PNG chart (a `media` block with an alt text that states the
//! numbers), and the top products, described once for the person and agents. Recomputed when
//! the orders change.

use egui::Color32;
use egui_mcp_bridge::{ActionSpec, Bridge};

use crate::chart;
use crate::data::{Order, Report, money, thousands};

/// The Sales Report window: whether it is open, and the report as last computed (for which
/// orders revision, with its chart as a data URL).
#[derive(Debug, Default)]
pub(crate) struct ReportWindow {
    pub open: bool,
    cached: Option<(u64, Report, String)>,
}

impl ReportWindow {
    pub(crate) fn show(&mut self, bridge: &Bridge, ui: &mut egui::Ui, orders: &[Order], revision: u64) {
        if !self.open {
            return;
        }
        if self.cached.as_ref().is_none_or(|c| c.0 != revision) {
            let report = Report::compute(orders);
            let chart_url = chart::data_url(&chart::bar_chart_png(&report.revenue_per_day));
            self.cached = Some((revision, report, chart_url));
        }
        let Some((_, r, chart_url)) = &self.cached else { return };
        let (today, revenue, average) = (r.orders_today, money(r.revenue_today), money(r.average_today));
        let summary = format!("Today: {today} orders, revenue {revenue}, average order {average}");
        let window = bridge.window("report").title("Sales Report").summary(summary);
        let window = window.default_size([340.0, 420.0]).closable_as(ActionSpec::new("Close report"));
        let shown = window.ui(ui, |w, ui| {
            if let Some(press) = w.button(ui, "refresh", ActionSpec::new("Refresh report").read_only()).inner {
                press.ok("The report is up to date"); // it follows the orders by itself
            }
            w.form(ui, "totals", |f| {
                f.value("Orders today", today);
                f.value("Revenue today", revenue.as_str());
                f.value("Average order", average.as_str());
            });
            ui.separator();
            ui.label("Revenue per day");
            w.media(ui, "chart", ("image/png", chart_url), &r.chart_alt(), |ui| bar_chart(ui, &r.revenue_per_day));
            ui.separator();
            ui.label("Top products");
            let top: Vec<String> =
                r.top_products.iter().map(|(p, q)| format!("{p} ({} sold)", thousands(*q))).collect();
            w.ordered_list(ui, "top-products", &top);
        });
        if let Some(press) = shown.close {
            self.open = false;
            press.ok("Sales Report closed");
        }
    }
}

/// The person's chart: the same numbers the PNG agents read shows.
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
        let [red, green, blue] = if i + 1 == values.len() { chart::TODAY } else { chart::BAR };
        painter.rect_filled(bar, 2.0, Color32::from_rgb(red, green, blue));
    }
}
