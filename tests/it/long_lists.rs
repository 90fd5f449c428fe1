//! Long lists and logs (`WindowUi::long_list`), described once for both audiences: on a
//! 100,000-line log a person (kittest) and an agent do the same tasks (read the newest line,
//! see a new one arrive at the bottom, know how many there are). The person's pass lays out
//! only the visible rows; the agent's read of `app://windows` holds a bounded page and stays
//! within the state budget (docs/design.md), whatever the app asks; the rest is read through
//! the list's read-only page tool (§9). Tables give the newest rows too.

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_mcp_bridge::blocks::{ListOptions, TableOptions};
use egui_mcp_bridge::limits::{DEFAULT_AGENT_ITEMS, MAX_AGENT_ITEMS};
use egui_mcp_bridge::protocol::Block;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode};
use serde_json::{Value, json};

/// The state budget (docs/design.md, "Token budget"): a window holding a 100,000-line log
/// reads in less than this, its page included.
const STATE_BUDGET: usize = 16 * 1024;

/// A log of lines as a serial console writes them, about 50 characters each.
fn line(k: usize) -> String {
    format!("[{:>8.1}] temperature=21.{} humidity=40 #{k}", k as f64 / 10.0, k % 10)
}

struct Log {
    bridge: Bridge,
    lines: Vec<String>,
    options: fn() -> ListOptions<'static>,
}

fn log_app(ui: &mut egui::Ui, s: &mut Log) {
    let bridge = s.bridge.clone();
    let (lines, options) = (&s.lines, (s.options)());
    bridge.window("log").title("Log").summary(format!("{} lines", lines.len())).ui(ui, |w, ui| {
        w.long_list(ui, "lines", lines.len(), |k| lines[k].as_str(), options);
    });
}

fn log_harness(lines: usize, options: fn() -> ListOptions<'static>) -> Harness<'static, Log> {
    let bridge = Bridge::builder().build();
    let log = Log { bridge: bridge.clone(), lines: (0..lines).map(line).collect(), options };
    let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(log_app, log);
    h.run_steps(2);
    h
}

fn live_log() -> ListOptions<'static> {
    ListOptions::new()
        .newest_items(DEFAULT_AGENT_ITEMS)
        .stick_to_bottom(true)
        .page_action("read_lines", ActionSpec::new("Read lines"))
}

/// The `lines` block as the agent reads it: its items, offset and total.
fn agents_page(h: &Harness<'_, Log>) -> (Vec<String>, Option<u64>, Option<u64>) {
    let window = h.window("log").expect("declared");
    let list = window.blocks.iter().find(|b| b.id() == Some("lines")).expect("the lines block");
    let Block::List { items, offset, total, .. } = list else { panic!("a list: {list:?}") };
    let items = items.iter().map(|i| i.as_str().expect("a line").to_owned()).collect();
    (items, *offset, *total)
}

/// The lines the person's pass laid out (each a label node in egui's tree).
fn laid_out(h: &Harness<'_, Log>) -> Vec<(String, egui::Rect)> {
    h.query_all_by_label_contains("temperature=")
        .map(|n| (n.accesskit_node().value().or_else(|| n.accesskit_node().label()).unwrap_or_default(), n.rect()))
        .collect()
}

#[test]
fn a_person_and_an_agent_read_a_100000_line_log_alike_and_see_a_new_line_at_the_bottom() {
    let mut h = log_harness(100_000, live_log);

    // The agent: the newest lines, where they are, and how many there are, in a small read.
    let (items, offset, total) = agents_page(&h);
    assert_eq!(items.len(), DEFAULT_AGENT_ITEMS);
    assert_eq!(items.last(), Some(&line(99_999)), "the newest line last");
    assert_eq!((offset, total), (Some(100_000 - DEFAULT_AGENT_ITEMS as u64), Some(100_000)));
    let read = h.snapshot().json().len();
    assert!(read < STATE_BUDGET, "app://windows is {read} bytes");

    // The person: stuck to the bottom, the newest line shown; only the visible rows laid out.
    let shown = laid_out(&h);
    assert!(shown.len() < 40, "{} rows laid out of 100,000", shown.len());
    assert_eq!(shown.iter().max_by(|a, b| a.1.top().total_cmp(&b.1.top())).map(|s| s.0.clone()), Some(line(99_999)));
    assert!(h.query_by_label(&line(0)).is_none(), "the oldest line is not laid out");

    // A new line arrives: both see it at the end, and the total moves.
    h.state_mut().lines.push(line(100_000));
    h.run_steps(2);
    let (items, offset, total) = agents_page(&h);
    assert_eq!(items.last(), Some(&line(100_000)));
    assert_eq!((offset, total), (Some(100_001 - DEFAULT_AGENT_ITEMS as u64), Some(100_001)));
    let shown = laid_out(&h);
    let newest = shown.iter().find(|s| s.0 == line(100_000)).map(|s| s.1).expect("the new line is shown");
    let before = shown.iter().find(|s| s.0 == line(99_999)).map(|s| s.1).expect("the line before it too");
    assert!(newest.top() > before.top(), "at the bottom: {newest:?} under {before:?}");
    assert!(shown.iter().all(|s| s.1.top() <= newest.top()), "nothing under the newest line");
    assert!(newest.bottom() <= 400.0, "inside the window: {newest:?}");
}

/// The person's rows are the declared list: nothing of them is listed as left out or read a
/// second time in an `undescribed-…` block.
#[test]
fn the_agents_page_is_bounded_whatever_the_app_asks() {
    let h = log_harness(100_000, || ListOptions::new().newest_items(usize::MAX));
    let (items, offset, total) = agents_page(&h);
    assert_eq!(items.len(), MAX_AGENT_ITEMS);
    assert_eq!(items.last(), Some(&line(99_999)));
    assert_eq!((offset, total), (Some((100_000 - MAX_AGENT_ITEMS) as u64), Some(100_000)));

    let h = log_harness(100_000, || ListOptions::new().agent_items(5_000));
    let (items, offset, total) = agents_page(&h);
    assert_eq!((items.len(), items.first()), (MAX_AGENT_ITEMS, Some(&line(0))));
    assert_eq!((offset, total), (Some(0), Some(100_000)));

    let h = log_harness(100_000, ListOptions::new);
    let (items, offset) = (agents_page(&h).0, agents_page(&h).1);
    assert_eq!((items.len(), offset), (DEFAULT_AGENT_ITEMS, Some(0)), "by default, the first items");
}

#[test]
fn a_list_shorter_than_its_page_is_read_whole() {
    let h = log_harness(5, live_log);
    let (items, offset, total) = agents_page(&h);
    assert_eq!(items, (0..5).map(line).collect::<Vec<_>>());
    assert_eq!((offset, total), (None, None), "the whole list: no page to place");
}

#[test]
fn an_ordered_long_list_is_numbered_for_the_person_and_ordered_for_agents() {
    let h = log_harness(1_000, || ListOptions::new().ordered().agent_items(3));
    let window = serde_json::to_value(h.window("log").expect("declared")).expect("json");
    assert_eq!(window["blocks"][0]["ordered"], true);
    assert_eq!(window["blocks"][0]["items"][2], json!(line(2)));
    assert!(h.query_by_label(&format!("3. {}", line(2))).is_some(), "numbered from 1");
}

#[test]
fn the_rest_of_a_long_list_is_read_through_its_read_only_page_tool() {
    let mut h = log_harness(100_000, live_log);
    let tool = h.snapshot().tool("log__read_lines").cloned().expect("listed");
    assert!(tool.hints.read_only, "a read: it changes nothing");

    let page = h.call("log__read_lines", json!({"offset": 10, "limit": 3})).expect("a page");
    let result = page.result.expect("items");
    assert_eq!(result["items"], json!([line(10), line(11), line(12)]));
    assert_eq!((&result["offset"], &result["total"]), (&json!(10), &json!(100_000)));

    let default = h.call("log__read_lines", json!({})).expect("the first page").result.expect("items");
    assert_eq!(default["items"].as_array().map(Vec::len), Some(DEFAULT_AGENT_ITEMS));
    assert_eq!(default["items"][0], json!(line(0)));

    let end = h.call("log__read_lines", json!({"offset": 99_999, "limit": 50})).expect("the end");
    assert_eq!(end.result.map(|r| r["items"].clone()), Some(json!([line(99_999)])));
    let past = h.call("log__read_lines", json!({"offset": 200_000})).expect("past the end");
    assert_eq!(past.result.map(|r| (r["items"].clone(), r["total"].clone())), Some((json!([]), json!(100_000))));

    let too_many = h.call("log__read_lines", json!({"limit": MAX_AGENT_ITEMS + 1})).expect_err("bounded");
    assert_eq!(too_many.code, ErrorCode::ValidationFailed);
    assert_eq!(too_many.fields.map(|f| f[0].field.clone()), Some("limit".to_owned()));
}

#[test]
fn a_table_gives_agents_its_newest_rows() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let rows: Vec<(String, i64)> = (0..50).map(|k| (format!("reading {k}"), k)).collect();
    let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(
        move |ui, rows: &mut Vec<(String, i64)>| {
            b.window("readings").title("Readings").ui(ui, |w, ui| {
                let options = TableOptions::new().newest_rows(3);
                let _ =
                    w.table(ui, "readings", &["Reading", "Value"], rows, |r, t| t.row((r.0.as_str(), r.1)), options);
            });
        },
        rows,
    );
    h.run();
    let state = serde_json::to_value(h.window("readings").expect("declared")).expect("json");
    let table = &state["blocks"][0];
    assert_eq!(table["rows"], json!([["reading 47", 47], ["reading 48", 48], ["reading 49", 49]]));
    assert_eq!((&table["offset"], &table["total"]), (&json!(47), &json!(50)));
    assert_eq!(table.get("ordered"), None::<&Value>);
}
