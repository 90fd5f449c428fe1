//! The Orders window: 20,000 orders, the first rows in the state and the rest behind the
//! read-only `load_orders`; `open_order` opens (or brings forward) an Order Editor.

use egui_mcp_bridge::blocks::Rows;
use egui_mcp_bridge::{ActionSpec, Bridge, Press, ToolError, ToolResult, blocks::TableOptions};
use serde::Deserialize;
use serde_json::json;

use crate::data::{ORDER_COLUMNS, Order, Status, thousands};

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

/// The Orders window: the person's status filter (agents read the rows it lets through), and
/// those rows (recomputed only when the filter or the orders change).
#[derive(Debug, Default)]
pub(crate) struct OrdersWindow {
    /// `None`: all orders.
    pub status: Option<Status>,
    /// What `rows` was computed from: status, orders revision, number of orders.
    computed_for: Option<(Option<Status>, u64, usize)>,
    rows: Vec<usize>,
}

/// `load_orders`: a page of the orders, by status.
fn load_orders(orders: &[Order], args: &LoadOrdersArgs) -> Result<ToolResult, ToolError> {
    let limit = args.limit.unwrap_or(100);
    if !(1..=1000).contains(&limit) {
        return Err(ToolError::invalid_field("limit", "Must be between 1 and 1000"));
    }
    // One of the statuses the person's filters offer, in any case.
    let named = |name: &String| FILTERS.iter().find_map(|&(_, s)| s.filter(|s| s.as_str().eq_ignore_ascii_case(name)));
    let invalid = || ToolError::invalid_field("status", "Must be Draft, Submitted or Shipped");
    let status = args.status.as_ref().map(|s| named(s).ok_or_else(invalid)).transpose()?;
    let offset = args.offset.unwrap_or(0);
    let matching = orders.iter().filter(|o| status.is_none_or(|s| o.status == s));
    let total = matching.clone().count();
    let rows: Vec<_> = matching
        .skip(offset as usize)
        .take(limit as usize)
        .map(|o| json!([o.label(), o.customer, o.status.as_str(), o.amount]))
        .collect();
    Ok(ToolResult::message(format!("{} of {total} orders from offset {offset}", rows.len()))
        .with_result(json!({"rows": rows, "total": total, "offset": offset})))
}

/// The index of the order labelled `label` (`#10001`, `#` optional).
pub(crate) fn find_order(orders: &[Order], label: &str) -> Option<usize> {
    let n: u32 = label.trim().trim_start_matches('#').parse().ok()?;
    let i = n.checked_sub(orders.first()?.number)? as usize;
    (orders.get(i)?.number == n).then_some(i)
}

impl OrdersWindow {
    /// The Orders window, described once: the status filter and the orders table the person
    /// sees are what agents read (the first rows, and the total). Returns the press that opens
    /// an order (the person's Open on a row, or the agent's `open_order`), for the app.
    pub(crate) fn show(
        &mut self,
        bridge: &Bridge,
        ui: &mut egui::Ui,
        orders: &[Order],
        (revision, drafts): (u64, usize),
    ) -> Option<Press<OpenOrderArgs>> {
        let total = orders.len();
        let summary =
            format!("{} orders, {drafts} draft{} open", thousands(total as u64), if drafts == 1 { "" } else { "s" });
        let window = bridge.window("orders").title("Orders").summary(summary).default_size([470.0, 390.0]);
        let shown = window.ui(ui, |w, ui| {
            let read = ActionSpec::new("Load orders").read_only().description("Rows of the full orders table, paged");
            if let Some(press) = w.agents().action::<LoadOrdersArgs>("load_orders", read) {
                press.handle(|a| load_orders(orders, &a));
            }
            let open = ActionSpec::new("Open order").description("Open an order in an editor (focuses it if open)");
            let agent_open = w.agents().action::<OpenOrderArgs>("open_order", open);
            let f = self;
            ui.horizontal(|ui| {
                ui.label(format!("{} orders", thousands(total as u64)));
                ui.separator();
                // The person's view of the table: agents filter with `load_orders {status}`, and
                // the table's rows and total say which filter is on.
                for (label, value) in FILTERS {
                    w.describes(&ui.selectable_value(&mut f.status, value, label));
                }
            });
            if f.computed_for != Some((f.status, revision, total)) {
                f.rows = (0..total).filter(|&i| f.status.is_none_or(|s| orders[i].status == s)).collect();
                f.computed_for = Some((f.status, revision, total));
            }
            let options = TableOptions::new().agent_rows(PREVIEW_ROWS).row_button("Open");
            let cells = |&i: &usize, t: &mut Rows<'_>| {
                let o = &orders[i];
                t.row((o.label().as_str(), o.customer.as_str(), o.status.as_str(), o.amount));
            };
            // The person's Open on a row is `open_order` with that row's order: one press.
            let row = w.table(ui, "orders", &ORDER_COLUMNS, &f.rows, cells, options);
            let by_person = row.map(|p| p.map_args(|row| OpenOrderArgs { order: orders[f.rows[row]].label() }));
            agent_open.or(by_person)
        });
        shown.inner.flatten()
    }
}

/// The person's status filters.
const FILTERS: [(&str, Option<Status>); 4] = [
    ("All", None),
    ("Drafts", Some(Status::Draft)),
    ("Submitted", Some(Status::Submitted)),
    ("Shipped", Some(Status::Shipped)),
];
