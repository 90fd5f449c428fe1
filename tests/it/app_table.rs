//! A table the app draws itself, with `egui_extras`' `TableBuilder` (as real apps do: a log
//! viewer's 10,000 rows in a panel), described once with a closure: agents read the page of rows
//! around the selected one (`Paged::page_around`) and select a row by index
//! (`ForAgents::row_press`); the person clicks a row; one handler serves both.

use egui_extras::{Column, TableBuilder};
use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::protocol::Block;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode, ForAgents};
use serde_json::json;

const ROWS: usize = 10_000;

struct Log {
    bridge: Bridge,
    lines: Vec<(String, String)>,
    selected: Option<usize>,
    scroll_to: Option<usize>,
    /// Who selected: the person's clicks and the agent's calls go through one handler.
    presses: Vec<(usize, bool)>,
}

/// The app's own table, as the log viewer draws it: selectable rows, the clicked one returned.
fn draw_table(ui: &mut egui::Ui, log: &mut Log) -> Option<usize> {
    let mut table = TableBuilder::new(ui).striped(true).sense(egui::Sense::click());
    table = table.column(Column::auto()).column(Column::remainder());
    if let Some(row) = log.scroll_to.take() {
        table = table.scroll_to_row(row, Some(egui::Align::Center));
    }
    let mut clicked = None;
    let header = |mut h: egui_extras::TableRow<'_, '_>| {
        h.col(|ui| drop(ui.strong("Time")));
        h.col(|ui| drop(ui.strong("Message")));
    };
    table.header(20.0, header).body(|body| {
        body.rows(18.0, log.lines.len(), |mut row| {
            let k = row.index();
            row.set_selected(log.selected == Some(k));
            let (time, message) = &log.lines[k];
            // Text that is not selectable, so that a click on it is the row's.
            row.col(|ui| drop(ui.add(egui::Label::new(time).selectable(false))));
            row.col(|ui| drop(ui.add(egui::Label::new(message).selectable(false))));
            if row.response().clicked() {
                clicked = Some(k);
            }
        });
    });
    clicked
}

/// Described once: the agent's page and action written beside the app's own table.
fn described(ui: &mut egui::Ui, agents: &mut ForAgents<'_>, log: &mut Log) {
    let lines = &log.lines;
    agents.table("lines", &["Time", "Message"]).page_around(lines.len(), 20, log.selected, |range, t| {
        lines[range].iter().for_each(|(time, message)| t.row((time, message)));
    });
    let clicked = draw_table(ui, log);
    let spec = ActionSpec::new("Select a line").description("row: 0-based, as the table's offset counts");
    if let Some(press) = agents.row_press("select", spec, log.lines.len(), clicked) {
        let row = *press.args();
        log.presses.push((row, press.by_agent()));
        log.selected = Some(row);
        if press.by_agent() {
            log.scroll_to = Some(row);
        }
        press.ok(format!("Line {row} is selected"));
    }
}

fn app(ui: &mut egui::Ui, log: &mut Log) {
    let bridge = log.bridge.clone();
    egui::CentralPanel::default().show(ui, |ui| {
        bridge.window("log").title("Log").panel(ui, |w, ui| w.scope(ui, |ui, a| described(ui, a, log)));
    });
}

fn harness(bridge: &Bridge) -> Harness<'static, Log> {
    let lines = (0..ROWS).map(|k| (format!("12:{:02}:{:02}", k / 60 % 60, k % 60), format!("line {k}"))).collect();
    let log = Log { bridge: bridge.clone(), lines, selected: None, scroll_to: None, presses: Vec::new() };
    Harness::builder(bridge).with_size([500.0, 400.0]).build_ui_state(app, log)
}

/// The page agents read: its first and last messages, offset and total.
fn page(h: &Harness<'_, Log>) -> (String, String, Option<u64>, Option<u64>) {
    let window = h.window("log").expect("declared");
    let Some(Block::Table { rows, offset, total, .. }) =
        window.blocks.iter().find(|b| matches!(b, Block::Table { .. }))
    else {
        panic!("the table: {:?}", window.blocks);
    };
    let message = |row: &Vec<serde_json::Value>| row[1].as_str().expect("a message").to_owned();
    (message(&rows[0]), message(&rows[rows.len() - 1]), *offset, *total)
}

#[test]
fn an_apps_own_egui_extras_table_is_read_around_its_selection_and_selected_by_either_audience() {
    let bridge = Bridge::builder().build();
    let mut h = harness(&bridge);
    h.run();
    // Nothing selected: the newest 20 of 10,000.
    assert_eq!(page(&h), ("line 9980".into(), "line 9999".into(), Some(9_980), Some(10_000)));
    // Described once: the app's table is not read again as undescribed.
    assert!(h.undescribed().is_empty(), "{:?}", h.undescribed());

    // The agent selects a row far from the person's view: the page moves to it.
    let version = h.window("log").map(|w| w.version);
    let done = h.call("log__select", json!({"row": 5_000, "expectedVersion": version})).expect("selected");
    assert_eq!(done.message.as_deref(), Some("Line 5000 is selected"));
    assert_eq!(page(&h), ("line 4990".into(), "line 5009".into(), Some(4_990), Some(10_000)));

    // The app scrolled its table to the row: the person clicks a row beside it.
    h.run();
    h.get_by_label("line 5003").click();
    h.run();
    assert_eq!(h.kittest().state().selected, Some(5_003));
    assert_eq!(page(&h).2, Some(4_993));
    assert_eq!(h.kittest().state().presses, [(5_000, true), (5_003, false)]);

    // A row that is not there is refused, naming the field, and changes nothing.
    let version = h.window("log").map(|w| w.version);
    let refused = h.call("log__select", json!({"row": ROWS, "expectedVersion": version})).expect_err("no such row");
    assert_eq!(refused.code, ErrorCode::ValidationFailed, "{refused:?}");
    assert!(format!("{refused:?}").contains("row") && format!("{refused:?}").contains("0 to 9999"), "{refused:?}");
    assert_eq!(h.kittest().state().selected, Some(5_003));
}

#[test]
fn an_apps_table_in_a_disabled_ui_is_read_and_not_offered() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let lines: Vec<(String, String)> = (0..100).map(|k| (k.to_string(), format!("line {k}"))).collect();
    let log = Log { bridge: bridge.clone(), lines, selected: Some(50), scroll_to: None, presses: Vec::new() };
    let mut h = Harness::new_ui_state(
        &bridge,
        move |ui, log: &mut Log| {
            b.window("log").title("Log").ui(ui, |w, ui| {
                ui.add_enabled_ui(false, |ui| {
                    w.scope(ui, |ui, a| described(ui, a, log));
                });
            });
        },
        log,
    );
    h.run();
    assert_eq!(page(&h), ("line 40".into(), "line 59".into(), Some(40), Some(100)));
    assert!(!h.tool_names().iter().any(|t| t == "log__select"), "{:?}", h.tool_names());
}
