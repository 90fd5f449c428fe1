//! The order demo: menu, Orders, Order Editors with their dialogs, Sales Report, Session
//! locked, and the Agent activity panel. One `ui` function serves the eframe window and the
//! headless loop alike.

use egui::{Color32, RichText};
use egui_mcp_bridge::{ActionSpec, ActivityRecord, Bridge, Severity, ToolError, ToolResult};
use serde::Deserialize;
use serde_json::json;

use crate::chart;
use crate::data::{ORDER_COLUMNS, Order, Report, Status, money, seed_orders, thousands};
use crate::editor::Editor;
use crate::ui_util::{IdGen, agent_frame, agent_line, window_id};

/// The PIN that unlocks the session (stated in the README).
pub const UNLOCK_PIN: &str = "1234";

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
    /// The Order column value, such as "#10001" (the "#" is optional).
    pub order: String,
}

/// `unlock` arguments: the session PIN.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnlockArgs {
    pub pin: String,
}

/// The Session locked app-level modal.
#[derive(Debug)]
struct Lock {
    id: String,
    pin: String,
    error: Option<String>,
}

/// The Sales Report, computed when the orders change.
#[derive(Debug)]
struct ReportCache {
    orders_revision: u64,
    report: Report,
    chart_url: String,
}

/// The whole demo app.
pub struct OrderApp {
    bridge: Bridge,
    /// All orders (20,000 seeded, plus new ones).
    pub orders: Vec<Order>,
    /// Open Order Editors, oldest first.
    pub editors: Vec<Editor>,
    report_open: bool,
    lock: Option<Lock>,
    ids: IdGen,
    orders_revision: u64,
    report: Option<ReportCache>,
    status_filter: Option<Status>,
    /// Where windows may go: the screen less the panels (last frame's).
    area: egui::Rect,
    /// Editors opened so far (for cascading their windows).
    opened: usize,
    /// How agents reach this app, shown in the menu bar ("stdio", a URL).
    endpoints: String,
    /// The activity log as last shown, with its sequence number.
    activity: (u64, Vec<ActivityRecord>),
    /// Indices of the orders that pass the status filter, with what they were computed from.
    filtered: Option<(Status, u64, usize, Vec<usize>)>,
}

impl OrderApp {
    /// The app with its seeded orders; `bridge` is where its windows are declared.
    pub fn new(bridge: Bridge) -> Self {
        Self {
            bridge,
            orders: seed_orders(),
            editors: Vec::new(),
            report_open: false,
            lock: None,
            ids: IdGen::default(),
            orders_revision: 0,
            report: None,
            status_filter: None,
            area: egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0)),
            opened: 0,
            endpoints: String::new(),
            activity: (0, Vec::new()),
            filtered: None,
        }
    }

    /// Shows where agents connect (for the person, in the menu bar).
    pub fn set_endpoints(&mut self, endpoints: String) {
        self.endpoints = endpoints;
    }

    /// The bridge the app declares its windows on.
    pub fn bridge(&self) -> &Bridge {
        &self.bridge
    }

    /// Opens an editor on an order (or focuses the open one). Returns the editor's app id and
    /// whether it was opened just now.
    pub fn open_order(&mut self, ctx: &egui::Context, index: usize) -> (String, bool) {
        let app_id = format!("order-{}", self.orders[index].number);
        if self.editors.iter().any(|e| e.app_id == app_id) {
            ctx.move_to_top(egui::LayerId::new(egui::Order::Middle, window_id(ctx, &app_id)));
            return (app_id, false);
        }
        let mut editor = Editor::for_order(index, &self.orders[index]);
        editor.slot = self.next_slot();
        self.editors.push(editor);
        (app_id, true)
    }

    fn next_slot(&mut self) -> usize {
        self.opened += 1;
        (self.opened - 1) % 8
    }

    /// Opens an editor on a new order.
    pub fn new_order(&mut self) -> String {
        let mut editor = Editor::new_order(self.ids.number());
        editor.slot = self.next_slot();
        let id = editor.app_id.clone();
        self.editors.push(editor);
        id
    }

    /// Shows the app-level Session locked modal.
    pub fn lock(&mut self) {
        if self.lock.is_none() {
            self.lock = Some(Lock { id: self.ids.next("lock"), pin: String::new(), error: None });
        }
    }

    /// Opens (or brings forward) the Sales Report.
    pub fn open_report(&mut self, ctx: &egui::Context) {
        self.report_open = true;
        ctx.move_to_top(egui::LayerId::new(egui::Order::Middle, window_id(ctx, "report")));
    }

    fn find_order(&self, label: &str) -> Option<usize> {
        let n: u32 = label.trim().trim_start_matches('#').parse().ok()?;
        let first = self.orders.first()?.number;
        let i = n.checked_sub(first)? as usize;
        (self.orders.get(i)?.number == n).then_some(i)
    }

    /// The whole UI, every frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.app_actions(&ctx);
        self.menu(ui);
        self.activity_panel(ui);
        self.area = egui::CentralPanel::default().show(ui, |ui| {
            ui.weak("Open orders from the Orders window, or use the Orders menu. An agent connected over MCP sees and operates the same windows.");
        })
        .response
        .rect;
        self.orders_window(&ctx);
        for editor in &mut self.editors {
            let mut ctx_parts = crate::editor::Parts {
                bridge: &self.bridge,
                orders: &mut self.orders,
                orders_revision: &mut self.orders_revision,
                ids: &mut self.ids,
                area: self.area,
            };
            editor.show(&ctx, &mut ctx_parts);
        }
        self.editors.retain(|e| e.open);
        self.report_window(&ctx);
        self.lock_modal(&ctx);
        crate::ui_util::recycle_window_ids(&ctx);
    }

    /// What the app keeps per window beyond the open ones, for tests: egui window slots ever
    /// made (the most windows open at once).
    pub fn retained(ctx: &egui::Context) -> usize {
        crate::ui_util::window_slots(ctx)
    }

    fn app_actions(&mut self, ctx: &egui::Context) {
        if let Some(call) =
            self.bridge.app_button("new_order", ActionSpec::new("New order").description("Open an empty Order Editor"))
        {
            self.new_order();
            call.ok("Opened a new Order Editor");
        }
        if let Some(call) = self.bridge.app_button(
            "open_report",
            ActionSpec::new("Open sales report")
                .idempotent()
                .description("Open the Sales Report, or bring it to the front"),
        ) {
            self.open_report(ctx);
            call.ok("The Sales Report is open");
        }
        if let Some(call) = self.bridge.app_button(
            "lock",
            ActionSpec::new("Lock session")
                .idempotent()
                .description("Show the Session locked dialog; unlocking needs the PIN"),
        ) {
            self.lock();
            call.ok("The session is locked");
        }
    }

    fn menu(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("Orders", |ui| {
                    if ui.button("New order").clicked() {
                        self.new_order();
                    }
                    if ui.button("Sales report").clicked() {
                        self.open_report(&ctx);
                    }
                    ui.separator();
                    if ui.button("Lock session").clicked() {
                        self.lock();
                    }
                });
                ui.separator();
                ui.label(RichText::new("Order demo").strong());
                ui.weak("· egui_mcp_bridge");
                if !self.endpoints.is_empty() {
                    ui.separator();
                    ui.weak(format!("MCP: {}", self.endpoints)).on_hover_text("Where agents connect to this app");
                }
            });
        });
    }

    fn activity_panel(&mut self, ui: &mut egui::Ui) {
        egui::Panel::right("activity").default_size(260.0).show(ui, |ui| {
            ui.heading("Agent activity");
            ui.weak("Recent calls from MCP clients");
            ui.separator();
            // Copied only when a call finished since the last frame.
            let seq = self.bridge.activity_seq();
            if seq != self.activity.0 {
                self.activity = (seq, self.bridge.activity());
            }
            let recent = &self.activity.1;
            if recent.is_empty() {
                ui.weak("No agent calls yet.");
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                for r in recent.iter().rev() {
                    let (mark, color) = match r.error {
                        None => ("ok", Color32::from_rgb(80, 180, 110)),
                        Some(code) => (code.as_str(), Color32::from_rgb(230, 120, 90)),
                    };
                    ui.horizontal_wrapped(|ui| {
                        ui.monospace(&r.tool);
                        ui.colored_label(color, mark);
                    });
                    if !r.message.is_empty() {
                        ui.weak(&r.message);
                    }
                    ui.add_space(4.0);
                }
            });
        });
    }

    fn drafts_open(&self) -> usize {
        self.editors.iter().filter(|e| !e.submitted).count()
    }

    fn load_orders(&self, args: &LoadOrdersArgs) -> Result<ToolResult, ToolError> {
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

    fn orders_window(&mut self, ctx: &egui::Context) {
        let total = self.orders.len();
        let drafts = self.drafts_open();
        let summary =
            format!("{} orders, {drafts} draft{} open", thousands(total as u64), if drafts == 1 { "" } else { "s" });
        let shown = self.bridge.window("orders").title("Orders").summary(summary).show(|w| {
            if let Some(call) = w.action::<LoadOrdersArgs>(
                "load_orders",
                ActionSpec::new("Load orders").read_only().description("Rows of the full orders table, paged"),
            ) {
                call.handle(|a| self.load_orders(a));
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
                        let (_, opened) = self.open_order(ctx, i);
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
        let (blocked, agent) = (shown.blocked, shown.agent_action);

        let mut open_index = None;
        let frame = agent_frame(ctx, agent.as_ref());
        let filter = &mut self.status_filter;
        let (filtered, revision) = (&mut self.filtered, self.orders_revision);
        let orders = &self.orders;
        egui::Window::new("Orders")
            .id(window_id(ctx, "orders"))
            .frame(frame)
            .default_pos(self.area.left_top() + egui::vec2(8.0, 8.0))
            .constrain_to(self.area)
            .default_size([460.0, 520.0])
            .show(ctx, |ui| {
                agent_line(ui, agent.as_ref());
                ui.add_enabled_ui(!blocked, |ui| {
                    ui.horizontal(|ui| {
                        ui.label(format!("{} orders", thousands(total as u64)));
                        ui.separator();
                        for (label, value) in [
                            ("All", None),
                            ("Drafts", Some(Status::Draft)),
                            ("Submitted", Some(Status::Submitted)),
                            ("Shipped", Some(Status::Shipped)),
                        ] {
                            ui.selectable_value(filter, value, label);
                        }
                    });
                    ui.separator();
                    // Recomputed only when the filter or the orders change, not every frame.
                    if let Some(s) = *filter
                        && filtered.as_ref().is_none_or(|f| (f.0, f.1, f.2) != (s, revision, orders.len()))
                    {
                        let indices = (0..orders.len()).filter(|&i| orders[i].status == s).collect();
                        *filtered = Some((s, revision, orders.len(), indices));
                    }
                    let visible: &[usize] = filtered.as_ref().map_or(&[], |f| &f.3);
                    let count = if filter.is_none() { orders.len() } else { visible.len() };
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
                    egui::ScrollArea::vertical().auto_shrink([false, false]).show_rows(
                        ui,
                        row_height,
                        count,
                        |ui, range| {
                            for k in range {
                                let i = if filter.is_none() { k } else { visible[k] };
                                let o = &orders[i];
                                ui.horizontal(|ui| {
                                    let texts =
                                        [o.label(), o.customer.clone(), o.status.as_str().to_owned(), money(o.amount)];
                                    for (text, width) in texts.into_iter().zip(COLUMN_WIDTHS) {
                                        cell(ui, width, egui::RichText::new(text));
                                    }
                                    let verb = if o.status == Status::Draft { "Edit" } else { "View" };
                                    if ui
                                        .small_button(verb)
                                        .on_hover_text(format!("Open {} in an editor", o.label()))
                                        .clicked()
                                    {
                                        open_index = Some(i);
                                    }
                                });
                            }
                        },
                    );
                });
            });
        if let Some(i) = open_index {
            self.open_order(ctx, i);
        }
    }

    fn refresh_report(&mut self) {
        self.report = None;
    }

    fn report_window(&mut self, ctx: &egui::Context) {
        if !self.report_open {
            return;
        }
        if self.report.as_ref().is_none_or(|r| r.orders_revision != self.orders_revision) {
            let report = Report::compute(&self.orders);
            let chart_url = chart::data_url(&chart::bar_chart_png(&report.revenue_per_day));
            self.report = Some(ReportCache { orders_revision: self.orders_revision, report, chart_url });
        }
        let Some(cache) = &self.report else { return };
        let r = &cache.report;
        let summary = format!(
            "Today: {} orders, revenue {}, average order {}",
            r.orders_today,
            money(r.revenue_today),
            money(r.average_today)
        );
        let mut close = false;
        let mut refresh = false;
        let shown = self.bridge.window("report").title("Sales Report").summary(summary).show(|w| {
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
            w.media("chart", "image/png", &cache.chart_url, Some(&r.chart_alt()));
            w.list("top-products").ordered().items(|l| {
                for (p, q) in &r.top_products {
                    l.item(format!("{p} ({} sold)", thousands(*q)).as_str());
                }
            });
        });
        let (blocked, agent) = (shown.blocked, shown.agent_action);
        let mut open = !close;
        egui::Window::new("Sales Report")
            .id(window_id(ctx, "report"))
            .open(&mut open)
            .frame(agent_frame(ctx, agent.as_ref()))
            .default_pos(self.area.left_top() + egui::vec2(470.0, 330.0))
            .constrain_to(self.area)
            .show(ctx, |ui| {
                agent_line(ui, agent.as_ref());
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
            });
        self.report_open = open;
        if refresh {
            self.refresh_report();
        }
    }

    fn lock_modal(&mut self, ctx: &egui::Context) {
        let Some(lock) = &mut self.lock else { return };
        let mut unlocked = false;
        let error = lock.error.clone();
        let mut wrong = false;
        let _ = self
            .bridge
            .window(&lock.id)
            .title("Session locked")
            .app_modal()
            .summary("The session is locked; unlock it with the PIN")
            .show(|w| {
                w.text("info", "The session is locked. Enter the PIN to unlock it.");
                if let Some(e) = &error {
                    w.notice("error-pin", Severity::Error, &format!("pin: {e}"));
                }
                if let Some(call) = w.action::<UnlockArgs>(
                    "unlock",
                    ActionSpec::new("Unlock session").description("Unlock with the PIN"),
                ) {
                    if call.args().pin == UNLOCK_PIN {
                        unlocked = true;
                        call.ok("Unlocked");
                    } else {
                        wrong = true;
                        call.fail(ToolError::invalid_field("pin", "Wrong PIN"));
                    }
                }
            });
        if wrong {
            lock.error = Some("Wrong PIN".into());
        }
        if !unlocked {
            egui::Modal::new(window_id(ctx, &lock.id)).show(ctx, |ui| {
                ui.set_width(280.0);
                ui.heading("Session locked");
                let l = ui.label("PIN");
                let r = ui.add(egui::TextEdit::singleline(&mut lock.pin).password(true)).labelled_by(l.id);
                if let Some(e) = &lock.error {
                    ui.colored_label(Color32::from_rgb(220, 80, 80), e);
                }
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Unlock").clicked() || enter {
                    if lock.pin == UNLOCK_PIN {
                        unlocked = true;
                    } else {
                        lock.error = Some("Wrong PIN".into());
                        lock.pin.clear();
                    }
                }
            });
        }
        if unlocked {
            self.lock = None;
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
