//! The demo binary, headless, driven by a real MCP client that we did not write: the official
//! Python SDK (`mcp` 2.3.0, see `tests/interop/python_client.py`), over stdio and over HTTP.
//! The venv is made under the target directory on first use.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::{DEMO, DemoHttp, python};

fn run(scenario: &str, transport: &str, target: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/python_client.py");
    let out = Command::new(python())
        .arg(script)
        .args([scenario, transport, target])
        .env("EGUI_MCP_BRIDGE_DIR", support::endpoint_folder())
        .output()
        .expect("run the Python client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "Python client ({scenario} over {transport}) failed: {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(stdout.contains(&format!("PASS {scenario}")), "no PASS line:\n{stdout}");
    eprintln!("{stdout}");
}

#[test]
fn python_sdk_over_stdio_runs_the_whole_order_task() {
    run("legacy", "stdio", DEMO);
}

#[test]
fn python_sdk_auto_mode_over_stdio_lands_on_2026_07_28_and_listens() {
    run("modern", "stdio", DEMO);
}

#[test]
fn python_sdk_over_stdio_lock_large_data_and_report_png() {
    run("lock_report", "stdio", DEMO);
}

#[test]
fn python_sdk_over_stdio_remove_focus_discard_and_cancel_dialogs() {
    run("dialogs", "stdio", DEMO);
}

#[test]
fn stdio_and_http_at_once_share_one_ui() {
    run("both_transports", "stdio", DEMO);
}

#[test]
fn started_from_a_terminal_without_display_it_serves_http_headless() {
    run("terminal", "stdio", DEMO);
}

#[test]
fn python_sdk_over_http_runs_the_whole_order_task() {
    let demo = DemoHttp::start(&[]);
    run("legacy", "http", &demo.url);
}

#[test]
fn python_sdk_auto_mode_over_http_lands_on_2026_07_28_and_listens() {
    let demo = DemoHttp::start(&[]);
    run("modern", "http", &demo.url);
}

#[test]
fn python_sdk_over_http_lock_large_data_and_report_png() {
    let demo = DemoHttp::start(&[]);
    run("lock_report", "http", &demo.url);
}

#[test]
fn two_http_clients_see_each_other_and_race_on_one_version() {
    let demo = DemoHttp::start(&[]);
    run("two_clients", "http", &demo.url);
}

/// 8 clients on keep-alive HTTP connections, 1,000 conflicting writes each on one window: 0 lost
/// updates, every loser answered `stale_state`.
#[test]
fn eight_http_clients_racing_a_thousand_writes_each_lose_no_update() {
    let demo = DemoHttp::start(&[]);
    run("stress", "http", &demo.url);
}
