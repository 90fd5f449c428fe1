//! A call's round trip, headless, in-process and over HTTP, and the throughput of serialised
//! calls with 1, 4 and 8 HTTP clients, each on its own window and all on one window.
//! Run with `cargo bench --bench calls`; it prints a table, asserts nothing.
#![allow(clippy::print_stdout, reason = "a bench binary reports its numbers on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench binary may panic")]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{request, session};
use egui_mcp_bridge::testing::Agent;
use egui_mcp_bridge::{ActionSpec, Bridge, HttpOptions, headless};
use serde_json::json;

mod common;

const WINDOWS: usize = 8;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Set {
    value: u64,
}

/// The app: 8 windows, each with one value and a `set` action (no version check: the bench
/// measures the path, not conflicts).
fn declare(bridge: &Bridge, values: &mut [u64; WINDOWS]) {
    for (k, value) in values.iter_mut().enumerate() {
        let _ =
            bridge.window(format!("w-{k}")).title(format!("Window {k}")).summary(format!("Value {value}")).show(|w| {
                w.fields("state", |f| f.field("Value", *value));
                if let Some(call) = w.action::<Set>("set", ActionSpec::new("Set the value").idempotent()) {
                    *value = call.args().value;
                    call.ok("set");
                }
            });
    }
}

struct App {
    bridge: Bridge,
    ctx: egui::Context,
    stop: Arc<AtomicBool>,
    ui: Option<std::thread::JoinHandle<()>>,
}

impl App {
    fn start() -> Self {
        let bridge = Bridge::builder().app_name("bench").build();
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let stop = Arc::new(AtomicBool::new(false));
        let ui = {
            let (bridge, ctx, stop) = (bridge.clone(), ctx.clone(), Arc::clone(&stop));
            std::thread::Builder::new()
                .name("bench-ui".into())
                .spawn(move || {
                    let mut values = [0u64; WINDOWS];
                    headless::run(
                        &ctx,
                        headless::HeadlessOptions::default(),
                        |_ui| declare(&bridge, &mut values),
                        || !stop.load(Ordering::Acquire),
                    );
                })
                .unwrap()
        };
        Self { bridge, ctx, stop, ui: Some(ui) }
    }
}

impl Drop for App {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        self.ctx.request_repaint();
        if let Some(ui) = self.ui.take() {
            let _ = ui.join();
        }
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

fn main() {
    let app = App::start();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let agent = Agent::new(&app.bridge);
    let n = 500u32;
    let in_process = rt.block_on(async {
        let mut published = agent.watch();
        let _ = published.wait_for(|s| s.windows_revision() > 0).await;
        assert!(agent.call("w-0__set", json!({"value": 1})).await.is_ok(), "warm-up");
        let start = Instant::now();
        for v in 0..n {
            assert!(agent.call("w-0__set", json!({"value": v})).await.is_ok());
        }
        start.elapsed() / n
    });
    let http = app.bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default()).unwrap();
    let addr = http.local_addr();
    let (mut stream, sid) = session(addr);
    let start = Instant::now();
    for v in 0..u64::from(n) {
        request(&mut stream, addr, Some(&sid), &call_body(0, v), true);
    }
    let over_http = start.elapsed() / n;
    let ms = |d: Duration| format!("{:.3} ms", d.as_secs_f64() * 1e3);
    println!("| a call's round trip, headless (one frame per call) | time |");
    println!("| --- | --- |");
    println!("| in-process (`testing::Agent`) | {} |", ms(in_process));
    println!("| HTTP, one keep-alive connection | {} |", ms(over_http));
    println!();
    println!("| HTTP clients | calls/s, each on its own window | calls/s, all on one window |");
    println!("| --- | --- | --- |");
    for clients in [1, 4, 8] {
        let own = throughput(addr, clients, 200, true);
        let one = throughput(addr, clients, 200, false);
        println!("| {clients} | {own:.0} | {one:.0} |");
    }
    drop(http);
}
