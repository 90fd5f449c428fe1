//! The Orders window: 20,000 orders, the first rows in the state and the rest behind the
//! read-only `load_orders`; `open_order` opens (or brings forward) an Order Editor.

use egui_mcp_bridge::{ActionSpec, ToolError, ToolResult};
use serde::Deserialize;
use serde_json::json;

use crate::app::OrderApp;
use crate::data::{ORDER_COLUMNS, Status, money, thousands};
use crate::windows::Spec;

/// Widths of the Orders columns in the person's view.
const COLUMN_WIDTHS: [f32; 4] = [64.0, 140.0, 76.0, 76.0];

/// Rows of the Orders table kept in `app://windows`; the rest is behind `load_orders` (§9).
pub const PREVIEW_ROWS: usize = 20;

/// `load_orders` arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadOrdersArgs {
    pub offset: Option<u64>,
    /// Default 100.
    #[schemars(range(min = 1, max = 1000))]
    pub limit: Option<u64>,
    /// Draft, Submitted or Shipped.
    pub status: Option<String>,
}

/// `open_order` arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenOrderArgs {
    /// As in the Order column, such as "#10001" ("#" optional).
    pub order: String,
}

/// The person's status filter, and the rows it lets through (recomputed only when the filter
/// or the orders change).
#[derive(Debug, Default)]
pub(crate) struct Filter {
    /// `None`: all orders.
    pub status: Option<Status>,
    /// What `rows` was computed from: status, orders revision, number of orders.
    computed_for: Option<(Status, u64, usize)>,
    rows: Vec<usize>,
}

impl OrderApp {
    pub(crate) fn load_orders(&self, args: &LoadOrdersArgs) -> Result<ToolResult, ToolError> {
        let limit = args.limit.unwrap_or(100);
        if !(1..=1000).contains(&limit) {
            return Err(ToolError::invalid_field("limit", "Must be between 1 and 1000"));
        }
        let status = match args.status.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None => None,
            Some("draft") => Some(Status::Draft),
            Some("submitted") => Some(Status::Submitted),
            Some("shipped") => Some(Status::Shipped),
            Some(_) => {
                return Err(ToolError::invalid_field("status", "Must be Draft, Submitted or Shipped"));
            }
        };
        let offset = args.offset.unwrap_or(0);
        let matching = self.orders.iter().filter(|o| status.is_none_or(|s| o.status == s));
        let total = matching.clone().count();
        let rows: Vec<_> = matching
            .skip(offset as usize)
            .take(limit as usize)
            .map(|o| json!([o.label(), o.customer, o.status.as_str(), o.amount]))
            .collect();
        let n = rows.len();
        Ok(ToolResult::message(format!("{n} of {total} orders from offset {offset}"))
            .with_result(json!({"rows": rows, "total": total, "offset": offset})))
    }

    pub(crate) fn find_order(&self, label: &str) -> Option<usize> {
        let n: u32 = label.trim().trim_start_matches('#').parse().ok()?;
        let first = self.orders.first()?.number;
        let i = n.checked_sub(first)? as usize;
        (self.orders.get(i)?.number == n).then_some(i)
    }

    /// Declares the Orders window, applies the agent's calls, and draws it for the person.
    pub(crate) fn orders_window(&mut self, ctx: &egui::Context) {
        let total = self.orders.len();
        let drafts = self.editors.iter().filter(|e| !e.submitted).count();
        let summary =
            format!("{} orders, {drafts} draft{} open", thousands(total as u64), if drafts == 1 { "" } else { "s" });
        let shown = self.bridge.clone().window("orders").title("Orders").summary(summary).show(|w| {
            if let Some(call) = w.action::<LoadOrdersArgs>(
                "load_orders",
                ActionSpec::new("Load orders").read_only().description("Rows of the full orders table, paged"),
            ) {
                call.handle(|a| self.load_orders(&a));
            }
            if let Some(call) = w.action::<OpenOrderArgs>(
                "open_order",
                ActionSpec::new("Open order").description("Open an order in an editor (focuses it if open)"),
            ) {
                call.handle(|a| match self.find_order(&a.order) {
                    None => Err(ToolError::invalid_field(
                        "order",
                        "No such order; use the Order column value, such as #10001",
                    )),
                    Some(i) => {
                        let opened = self.open_order(ctx, i);
                        let label = self.orders[i].label();
                        Ok(ToolResult::message(if opened {
                            format!("Opened {label}")
                        } else {
                            format!("{label} is already open; brought it to the front")
                        }))
                    }
                });
            }
            let orders = &self.orders;
            w.table("orders", &ORDER_COLUMNS).slice(0, total as u64).rows(|t| {
                for o in orders.iter().take(PREVIEW_ROWS) {
                    t.row((o.label().as_str(), o.customer.as_str(), o.status.as_str(), o.amount));
                }
            });
        });
        let blocked = shown.blocked;
        let spec = Spec {
            app_id: "orders",
            title: "Orders",
            agent: shown.agent_action.as_ref(),
            pos: egui::pos2(8.0, 8.0),
            size: egui::vec2(460.0, 380.0),
            dialog_of: None,
            closable: false,
        };
        let (orders, revision, filter) = (&self.orders, self.orders_revision, &mut self.filter);
        let open_index = self
            .windows
            .show(ctx, spec, |ui| ui.add_enabled_ui(!blocked, |ui| orders_view(ui, orders, revision, filter)).inner);
        if let Some(i) = open_index.inner.flatten() {
            self.open_order(ctx, i);
        }
    }
}

/// The person's view: the filter and the rows (virtualised). Returns the order to open.
fn orders_view(ui: &mut egui::Ui, orders: &[crate::data::Order], revision: u64, f: &mut Filter) -> Option<usize> {
    let total = orders.len();
    let mut open_index = None;
    ui.horizontal(|ui| {
        ui.label(format!("{} orders", thousands(total as u64)));
        ui.separator();
        for (label, value) in [
            ("All", None),
            ("Drafts", Some(Status::Draft)),
            ("Submitted", Some(Status::Submitted)),
            ("Shipped", Some(Status::Shipped)),
        ] {
            ui.selectable_value(&mut f.status, value, label);
        }
    });
    ui.separator();
    if let Some(s) = f.status
        && f.computed_for != Some((s, revision, total))
    {
        f.rows = (0..total).filter(|&i| orders[i].status == s).collect();
        f.computed_for = Some((s, revision, total));
    }
    let count = if f.status.is_none() { total } else { f.rows.len() };
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 8.0;
    let cell = |ui: &mut egui::Ui, width: f32, text: egui::RichText| {
        ui.add_sized([width, row_height], egui::Label::new(text).truncate());
    };
    ui.horizontal(|ui| {
        for (title, width) in ORDER_COLUMNS.iter().zip(COLUMN_WIDTHS) {
            cell(ui, width, egui::RichText::new(*title).strong());
        }
    });
    ui.separator();
    // Whole rows only: the list ends on a row's edge, never half a row.
    let pitch = row_height + ui.spacing().item_spacing.y;
    let whole = (ui.available_height() / pitch).floor().max(3.0) * pitch;
    egui::ScrollArea::vertical().auto_shrink([false, false]).max_height(whole).show_rows(
        ui,
        row_height,
        count,
        |ui, range| {
            for k in range {
                let i = if f.status.is_none() { k } else { f.rows[k] };
                let o = &orders[i];
                ui.horizontal(|ui| {
                    let texts = [o.label(), o.customer.clone(), o.status.as_str().to_owned(), money(o.amount)];
                    for (text, width) in texts.into_iter().zip(COLUMN_WIDTHS) {
                        cell(ui, width, egui::RichText::new(text));
                    }
                    let verb = if o.status == Status::Draft { "Edit" } else { "View" };
                    if ui.small_button(verb).on_hover_text(format!("Open {} in an editor", o.label())).clicked() {
                        open_index = Some(i);
                    }
                });
            }
        },
    );
    open_index
}
