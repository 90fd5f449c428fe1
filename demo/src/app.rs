//! The order demo: the menu, Orders (`orders.rs`), Order Editors with their dialogs
//! (`editor/`), the Sales Report (`report.rs`), Session locked (`lock.rs`) and the bridge's
//! Agent activity panel. One `ui` function serves the eframe window and the headless loop
//! alike; where each window is drawn (inside the main window or in its own) is the bridge's
//! business (`WindowBuilder::ui`).

use egui::RichText;
use egui_mcp_bridge::{ActionSpec, Bridge, Outcome, ToolError, ToolResult};

use crate::data::{Order, seed_orders};
use crate::editor::{Editor, Parts};
use crate::lock::Lock;
use crate::orders::{OrdersWindow, find_order};
use crate::report::ReportWindow;
use crate::ui_util::IdGen;

pub use crate::lock::UNLOCK_PIN;
pub use crate::orders::{LoadOrdersArgs, OpenOrderArgs, PREVIEW_ROWS};

/// The whole demo app.
pub struct OrderApp {
    pub(crate) bridge: Bridge,
    /// All orders (20,000 seeded, plus new ones).
    pub orders: Vec<Order>,
    /// Open Order Editors, oldest first.
    pub editors: Vec<Editor>,
    report: ReportWindow,
    lock: Option<Lock>,
    ids: IdGen,
    /// Rises when an order is saved.
    orders_revision: u64,
    orders_window: OrdersWindow,
    /// Every window in an OS window of its own (`--native-windows`).
    native: bool,
    /// How agents reach this app, shown in the menu bar ("stdio", a URL).
    endpoints: String,
    /// Cents wrongly added to every editor's total: 0, except in tests ([`Self::with_wrong_totals`]).
    wrong_cents: u32,
}

impl OrderApp {
    /// The app with its seeded orders; `bridge` is where its windows are declared.
    pub fn new(bridge: Bridge) -> Self {
        Self {
            bridge,
            orders: seed_orders(),
            editors: Vec::new(),
            report: ReportWindow::default(),
            lock: None,
            ids: IdGen::default(),
            orders_revision: 0,
            orders_window: OrdersWindow::default(),
            native: false,
            endpoints: String::new(),
            wrong_cents: 0,
        }
    }

    /// The app with a deliberate bug, for tests only (the binary never sets it): every Order
    /// Editor's total is one cent too much. A replayed recording of an agent's session catches
    /// it, naming the first call whose answer says another total (`demo/tests/it/replay.rs`).
    #[doc(hidden)]
    #[must_use]
    pub fn with_wrong_totals(mut self) -> Self {
        self.wrong_cents = 1;
        self
    }

    /// Shows where agents connect (for the person, in the menu bar).
    pub fn set_endpoints(&mut self, endpoints: String) {
        self.endpoints = endpoints;
    }

    /// Opens every window, dialogs included, in an OS window of its own (`--native-windows`),
    /// and lays the main window out for it; set once, at the start. Where egui embeds viewports
    /// (headless, tests) the windows stay inside the main one.
    pub fn set_native_windows(&mut self, on: bool) {
        self.native = on;
        self.bridge.set_native_windows(on);
    }

    /// The bridge the app declares its windows on.
    pub fn bridge(&self) -> &Bridge {
        &self.bridge
    }

    /// Opens the order labelled `label` (`#10001`) in an editor, or brings its editor to the front.
    fn open_order(&mut self, ctx: &egui::Context, label: &str) -> Outcome {
        let no_such = || ToolError::invalid_field("order", "No such order; use the Order column value, such as #10001");
        let i = find_order(&self.orders, label).ok_or_else(no_such)?;
        let (label, app_id) = (self.orders[i].label(), format!("order-{}", self.orders[i].number));
        if self.editors.iter().any(|e| e.app_id == app_id) {
            self.bridge.focus(ctx, &app_id);
            return Ok(ToolResult::message(format!("{label} is already open; brought it to the front")));
        }
        let mut editor = Editor::for_order(i, &self.orders[i]);
        editor.draft.wrong_cents = self.wrong_cents;
        self.editors.push(editor);
        Ok(ToolResult::message(format!("Opened {label}")))
    }

    /// Opens an editor on a new order.
    pub fn new_order(&mut self) -> String {
        let mut editor = Editor::new_order(self.ids.number());
        editor.draft.wrong_cents = self.wrong_cents;
        let id = editor.app_id.clone();
        self.editors.push(editor);
        id
    }

    /// Shows the app-level Session locked modal.
    pub fn lock(&mut self) {
        if self.lock.is_none() {
            self.lock = Some(Lock::new(self.ids.next("lock")));
        }
    }

    /// Opens (or brings forward) the Sales Report.
    pub fn open_report(&mut self, ctx: &egui::Context) {
        self.report.open = true;
        self.bridge.focus(ctx, "report");
    }

    /// The whole UI, every frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.menu(ui);
        // With every window in an OS window of its own, the main window is this panel.
        let width = if self.native { ui.available_width() } else { 260.0 };
        egui::Panel::right("activity").default_size(width).show(ui, |ui| self.bridge.activity_ui(ui));
        if !self.native {
            egui::Panel::bottom("hint").show(ui, |ui| {
                // A tip for the person; the instructions tell agents more.
                self.bridge.hide_from_read_view(ui);
                ui.weak("Open orders from the Orders window, or use the Orders menu. An agent connected over MCP sees and operates the same windows; its \"Own window\" button moves a window into an OS window of its own.");
            });
        }
        let drafts = self.editors.iter().filter(|e| !e.submitted).count();
        if let Some(press) = self.orders_window.show(&self.bridge, ui, &self.orders, (self.orders_revision, drafts)) {
            let ctx = ui.ctx().clone();
            press.handle(|a| self.open_order(&ctx, &a.order));
        }
        for editor in &mut self.editors {
            let mut parts = Parts {
                bridge: &self.bridge,
                orders: &mut self.orders,
                orders_revision: &mut self.orders_revision,
                ids: &mut self.ids,
            };
            editor.show(ui, &mut parts);
        }
        self.editors.retain(|e| e.open);
        self.report.show(&self.bridge, ui, &self.orders, self.orders_revision);
        if self.lock.as_mut().is_some_and(|lock| lock.show(&self.bridge, ui)) {
            self.lock = None;
        }
    }

    /// The menu bar: the Orders menu's items are the app-level actions (`app__new_order`,
    /// `app__open_report`, `app__lock`), described once for the person and agents.
    fn menu(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let bridge = self.bridge.clone();
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                bridge.app_menu_button(ui, "Orders", |m| {
                    let new = ActionSpec::new("New order").description("Open an empty Order Editor");
                    if let Some(press) = m.button("new_order", new) {
                        self.new_order();
                        press.ok("Opened a new Order Editor");
                    }
                    let report = ActionSpec::new("Open sales report")
                        .idempotent()
                        .description("Open the Sales Report, or bring it to the front");
                    if let Some(press) = m.button("open_report", report) {
                        self.open_report(&ctx);
                        press.ok("The Sales Report is open");
                    }
                    m.ui().separator();
                    let lock = ActionSpec::new("Lock session")
                        .idempotent()
                        .description("Show the Session locked dialog; unlocking needs the PIN");
                    if let Some(press) = m.button("lock", lock) {
                        self.lock();
                        press.ok("The session is locked");
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
}
