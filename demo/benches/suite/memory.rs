//! Resident memory of the headless demo, the binary as an MCP client starts it
//! (`order-demo --headless --stdio`: the demo, egui, the bridge and its server), read from
//! /proc: at start, after 10,000 calls over stdio (2,500 editors opened, edited and closed,
//! each with its "Discard changes?" dialog), and with 100 editors open; and the time per call
//! in the first and the last thousand. The counted bounds are `demo/tests/memory.rs`.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::calls::StdioClient;

/// The resident set of process `pid` in MiB (Linux; 0 where /proc is not).
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

/// One editor opened, edited, closed and its dialog answered: 4 calls.
fn cycle(demo: &mut StdioClient) {
    let editor = demo.call("app__new_order", &json!({}))["openedWindowIds"][0].as_str().unwrap().to_owned();
    demo.call(&format!("{editor}__edit_field"), &json!({"field": "recipient", "value": "Ada"}));
    let closed = demo.call(&format!("{editor}__close"), &json!({}));
    let discard = closed["openedWindowIds"][0].as_str().unwrap().to_owned();
    demo.call(&format!("{discard}__discard"), &json!({}));
}

/// Mean time per call over `cycles` cycles.
fn timed(demo: &mut StdioClient, cycles: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..cycles {
        cycle(demo);
    }
    start.elapsed() / (4 * cycles)
}

pub fn run() {
    let mut demo = StdioClient::start();
    // Its first frame is done once a call is answered.
    demo.request("tools/list", &json!({}));
    let at_start = rss_mib(demo.pid());
    let first = timed(&mut demo, 250);
    timed(&mut demo, 2_000);
    let last = timed(&mut demo, 250);
    let after_calls = rss_mib(demo.pid());
    for _ in 0..100 {
        demo.call("app__new_order", &json!({}));
    }
    let with_editors = rss_mib(demo.pid());
    println!("## Memory: resident set of the headless demo (`order-demo --headless --stdio`)\n");
    println!("| moment | RSS |");
    println!("| --- | --- |");
    println!("| at start (served its first request) | {at_start:.1} MiB |");
    println!(
        "| after 10,000 calls (2,500 editors and their dialogs opened and closed) | {after_calls:.1} MiB ({:+.1}) |",
        after_calls - at_start
    );
    println!("| then with 100 editors open | {with_editors:.1} MiB ({:+.1}) |", with_editors - after_calls);
    println!(
        "\nper call over stdio (4-call cycles): first 1,000 calls {}, last 1,000 {}\n",
        crate::ms(first),
        crate::ms(last)
    );
}
