//! A call's round trip, headless: the demo's own `edit_field` in-process, over stdio and over
//! HTTP (the demo binary, a fresh process for each); and the throughput of serialised calls
//! with 1, 4 and 8 HTTP clients, each on its own window and all on one window (a small app of
//! 8 windows with one `set` action each).

use std::io::{BufRead as _, Write as _};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use egui_mcp_bridge::testing::Agent;
use egui_mcp_bridge::{ActionSpec, Bridge, serve::HttpOptions};
use order_demo::OrderApp;
use serde_json::{Value, json};

use crate::http_client::{request, session};
use crate::support::{DemoHttp, DemoStdio};
use crate::ui_thread;
use crate::{ms, percentile};

/// Calls per round-trip figure.
const ROUND_TRIPS: u32 = 500;

const WINDOWS: usize = 8;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Set {
    value: u64,
}

/// The app: 8 windows, each with one value and a `set` action (no version check: the bench
/// measures the path, not conflicts).
fn declare(bridge: &Bridge, values: &mut [u64; WINDOWS]) {
    for (k, value) in values.iter_mut().enumerate() {
        let _ = bridge.window(format!("w-{k}")).title(format!("Window {k}")).summary(format!("Value {value}")).declare(
            |w| {
                w.fields("state", |f| f.field("Value", *value));
                if let Some(call) = w.action::<Set>("set", ActionSpec::new("Set the value").idempotent()) {
                    *value = call.args().value;
                    call.ok("set");
                }
            },
        );
    }
}

/// The throughput bench's app on its own UI thread.
struct App {
    bridge: Bridge,
    _ui: egui_mcp_bridge::testing::HeadlessUi,
}

impl App {
    fn start() -> Self {
        let bridge = Bridge::builder().app_name("bench").build();
        let b = bridge.clone();
        let ui = ui_thread::start(&bridge, move || {
            let mut values = [0u64; WINDOWS];
            move |_ui: &mut egui::Ui| declare(&b, &mut values)
        });
        Self { bridge, _ui: ui }
    }
}

fn call_body(window: usize, value: u64) -> String {
    json!({"jsonrpc": "2.0", "id": value + 10, "method": "tools/call",
        "params": {"name": format!("w-{window}__set"), "arguments": {"value": value}}})
    .to_string()
}

/// Calls per second with `clients` HTTP clients on keep-alive connections, `calls` each.
fn throughput(addr: SocketAddr, clients: usize, calls: u64, own_window: bool) -> f64 {
    let sessions: Vec<_> = (0..clients).map(|_| session(addr)).collect();
    let start = Instant::now();
    let threads: Vec<_> = sessions
        .into_iter()
        .enumerate()
        .map(|(i, (mut stream, sid))| {
            std::thread::Builder::new()
                .name(format!("bench-client-{i}"))
                .spawn(move || {
                    let window = if own_window { i % WINDOWS } else { 0 };
                    for v in 0..calls {
                        let answer = request(&mut stream, addr, Some(&sid), &call_body(window, v), true);
                        assert!(answer.contains("\"result\""), "{answer}");
                    }
                })
                .unwrap()
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    (clients as u64 * calls) as f64 / start.elapsed().as_secs_f64()
}

/// The `edit_field` arguments of call `k`.
fn edit(k: u32) -> Value {
    json!({"field": "recipient", "value": format!("Ada {k}")})
}

/// Sorted round trips of `ROUND_TRIPS` calls made by `call`.
fn timed(mut call: impl FnMut(u32)) -> Vec<Duration> {
    for k in 0..20 {
        call(k);
    }
    let mut times: Vec<Duration> = (0..ROUND_TRIPS)
        .map(|k| {
            let start = Instant::now();
            call(k);
            start.elapsed()
        })
        .collect();
    times.sort();
    times
}

/// In-process: the demo headless on its own UI thread, the agent in this one.
fn in_process() -> Vec<Duration> {
    let bridge = Bridge::builder().app_name("order-demo").build();
    let b = bridge.clone();
    let ui = ui_thread::start(&bridge, move || {
        let mut app = OrderApp::new(b);
        move |ui: &mut egui::Ui| app.ui(ui)
    });
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let agent = Agent::new(&bridge);
    let editor = rt.block_on(agent.call("app__new_order", json!({}))).unwrap().opened_window_ids[0].clone();
    let tool = format!("{editor}__edit_field");
    let times = timed(|k| assert!(rt.block_on(agent.call(&tool, edit(k))).is_ok()));
    drop(ui);
    times
}

/// A line-delimited JSON-RPC client on the demo's stdio (the demo binary, headless, started by
/// the tests' own launcher).
pub struct StdioClient {
    demo: DemoStdio,
    id: u64,
}

impl StdioClient {
    /// The demo process's id.
    pub fn pid(&self) -> u32 {
        self.demo.child.id()
    }

    pub fn start() -> Self {
        let mut s = Self { demo: DemoStdio::start("warn"), id: 0 };
        s.request("initialize", &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}));
        writeln!(s.demo.stdin, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#).unwrap();
        s
    }

    pub fn request(&mut self, method: &str, params: &Value) -> Value {
        self.id += 1;
        let d = &mut self.demo;
        writeln!(d.stdin, "{}", json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})).unwrap();
        d.stdin.flush().unwrap();
        loop {
            let mut line = String::new();
            assert!(d.stdout.read_line(&mut line).unwrap() > 0, "the demo ended");
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == self.id {
                return v;
            }
        }
    }

    pub fn call(&mut self, tool: &str, args: &Value) -> Value {
        let v = self.request("tools/call", &json!({"name": tool, "arguments": args}));
        assert!(v["result"]["isError"] != true && v.get("error").is_none(), "{v}");
        v["result"]["structuredContent"].clone()
    }
}

impl Drop for StdioClient {
    fn drop(&mut self) {
        let _ = self.demo.child.kill();
        let _ = self.demo.child.wait();
    }
}

fn over_stdio() -> Vec<Duration> {
    let mut demo = StdioClient::start();
    let editor = demo.call("app__new_order", &json!({}))["openedWindowIds"][0].as_str().unwrap().to_owned();
    let tool = format!("{editor}__edit_field");
    timed(|k| {
        demo.call(&tool, &edit(k));
    })
}

/// `tools/call` over a bench HTTP session; the structured result.
pub fn http_call(stream: &mut std::net::TcpStream, addr: SocketAddr, sid: &str, tool: &str, args: &Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": tool, "arguments": args}});
    let answer = request(stream, addr, Some(sid), &body.to_string(), true);
    // A JSON body, or an SSE event whose `data:` line holds it.
    let v: Value = answer
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l.trim().strip_prefix("data:").unwrap_or(l).trim()).ok())
        .find(|v| v.get("jsonrpc").is_some())
        .unwrap_or_default();
    assert!(v["result"]["isError"] != true && v.get("error").is_none(), "{answer}");
    v["result"]["structuredContent"].clone()
}

fn over_http() -> Vec<Duration> {
    let demo = DemoHttp::start(&[]);
    let host = demo.url.trim_start_matches("http://").split('/').next().unwrap();
    let addr: SocketAddr = host.parse().unwrap();
    let (mut stream, sid) = session(addr);
    let editor = http_call(&mut stream, addr, &sid, "app__new_order", &json!({}))["openedWindowIds"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let tool = format!("{editor}__edit_field");
    let times = timed(|k| {
        http_call(&mut stream, addr, &sid, &tool, &edit(k));
    });
    drop(demo);
    times
}

pub fn run() {
    println!("## Calls: the demo's `edit_field` round trip, headless ({ROUND_TRIPS} calls each)\n");
    println!("| transport | p50 | p90 | p99 | max |");
    println!("| --- | --- | --- | --- | --- |");
    for (name, times) in [
        ("in-process (`testing::Agent`)", in_process()),
        ("stdio (the demo binary, line-delimited JSON-RPC)", over_stdio()),
        ("HTTP (the demo binary, one keep-alive connection)", over_http()),
    ] {
        let p = |q| ms(percentile(&times, q));
        println!("| {name} | {} | {} | {} | {} |", p(50), p(90), p(99), p(100));
    }
    throughput_table();
}

fn throughput_table() {
    let app = App::start();
    let http =
        app.bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default().without_token()).unwrap();
    let addr = http.local_addr();
    println!("\n## Throughput of serialised calls over HTTP (an app of 8 windows, 200 calls per client)\n");
    println!("| HTTP clients | calls/s, each on its own window | calls/s, all on one window |");
    println!("| --- | --- | --- |");
    for clients in [1, 4, 8] {
        let own = throughput(addr, clients, 200, true);
        let one = throughput(addr, clients, 200, false);
        println!("| {clients} | {own:.0} | {one:.0} |");
    }
    drop(http);
    println!();
}
