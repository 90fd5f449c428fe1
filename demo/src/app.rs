//! The order demo: the menu, Orders (`orders.rs`), Order Editors with their dialogs
//! (`editor/`), the Sales Report (`report.rs`), Session locked (`lock.rs`) and the Agent
//! activity panel (`activity.rs`). One `ui` function serves the eframe window and the headless
//! loop alike; where each window is drawn is `windows.rs`'s business.

use std::sync::Arc;

use egui::RichText;
use egui_mcp_bridge::{ActionSpec, ActivityRecord, Bridge};

use crate::data::{Order, seed_orders};
use crate::editor::{Editor, Parts};
use crate::lock::Lock;
use crate::orders::Filter;
use crate::report::SharedReport;
use crate::ui_util::IdGen;
use crate::windows::Windows;

pub use crate::lock::UNLOCK_PIN;
pub use crate::orders::{LoadOrdersArgs, OpenOrderArgs, PREVIEW_ROWS};

/// The whole demo app.
pub struct OrderApp {
    pub(crate) bridge: Bridge,
    /// All orders (20,000 seeded, plus new ones).
    pub orders: Vec<Order>,
    /// Open Order Editors, oldest first.
    pub editors: Vec<Editor>,
    pub(crate) report_open: bool,
    pub(crate) report: SharedReport,
    pub(crate) lock: Option<Lock>,
    pub(crate) ids: IdGen,
    /// Rises when an order is saved.
    pub(crate) orders_revision: u64,
    pub(crate) filter: Filter,
    /// Where windows are drawn (the main window or their own) and placed.
    pub(crate) windows: Windows,
    /// Editors opened so far (for cascading their windows).
    opened: usize,
    /// How agents reach this app, shown in the menu bar ("stdio", a URL).
    endpoints: String,
    /// The activity log as last shown, with its sequence number.
    pub(crate) activity: (u64, Vec<ActivityRecord>),
    /// For each record of `activity` (by its `seq`), the window it touched, as the person reads it.
    pub(crate) activity_places: std::collections::HashMap<u64, String>,
}

impl OrderApp {
    /// The app with its seeded orders; `bridge` is where its windows are declared.
    pub fn new(bridge: Bridge) -> Self {
        Self {
            bridge,
            orders: seed_orders(),
            editors: Vec::new(),
            report_open: false,
            report: Arc::default(),
            lock: None,
            ids: IdGen::default(),
            orders_revision: 0,
            filter: Filter::default(),
            windows: Windows::default(),
            opened: 0,
            endpoints: String::new(),
            activity: (0, Vec::new()),
            activity_places: std::collections::HashMap::new(),
        }
    }

    /// Shows where agents connect (for the person, in the menu bar).
    pub fn set_endpoints(&mut self, endpoints: String) {
        self.endpoints = endpoints;
    }

    /// Opens every window, dialogs included, in an OS window of its own (`--native-windows`).
    /// Where egui embeds viewports (headless, tests) this changes nothing.
    pub fn set_native_windows(&mut self, on: bool) {
        self.windows.native = on;
    }

    /// The bridge the app declares its windows on.
    pub fn bridge(&self) -> &Bridge {
        &self.bridge
    }

    /// Opens an editor on an order, or brings the open one to the front. True if opened now.
    pub fn open_order(&mut self, ctx: &egui::Context, index: usize) -> bool {
        let app_id = format!("order-{}", self.orders[index].number);
        if self.editors.iter().any(|e| e.app_id == app_id) {
            self.windows.focus(ctx, &app_id);
            return false;
        }
        let mut editor = Editor::for_order(index, &self.orders[index]);
        editor.slot = self.next_slot();
        self.editors.push(editor);
        true
    }

    fn next_slot(&mut self) -> usize {
        self.opened += 1;
        self.opened - 1
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
            self.lock = Some(Lock::new(self.ids.next("lock")));
        }
    }

    /// Opens (or brings forward) the Sales Report.
    pub fn open_report(&mut self, ctx: &egui::Context) {
        self.report_open = true;
        self.windows.focus(ctx, "report");
    }

    /// The app ids of every open window.
    pub(crate) fn open_window_ids(&self) -> Vec<String> {
        let mut ids = vec!["orders".to_owned()];
        if self.report_open {
            ids.push("report".to_owned());
        }
        for e in &self.editors {
            ids.push(e.app_id.clone());
            ids.extend(e.dialogs.iter().map(|d| d.id().to_owned()));
        }
        ids.extend(self.lock.as_ref().map(|l| l.id.clone()));
        ids
    }

    /// The whole UI, every frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.app_actions(&ctx);
        self.menu(ui);
        self.activity_panel(ui);
        if !self.windows.native {
            egui::Panel::bottom("hint").show(ui, |ui| {
                ui.weak("Open orders from the Orders window, or use the Orders menu. An agent connected over MCP sees and operates the same windows; its \"Own window\" button moves a window into an OS window of its own.");
            });
        }
        self.windows.area = egui::CentralPanel::default().show(ui, |_| ()).response.rect;
        self.orders_window(&ctx);
        for editor in &mut self.editors {
            let mut parts = Parts {
                bridge: &self.bridge,
                orders: &mut self.orders,
                orders_revision: &mut self.orders_revision,
                ids: &mut self.ids,
                windows: &mut self.windows,
            };
            editor.show(&ctx, &mut parts);
        }
        self.editors.retain(|e| e.open);
        self.report_window(&ctx);
        self.lock_modal(&ctx);
        let open = self.open_window_ids();
        self.windows.retain(|id| open.iter().any(|o| o == id));
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
}
