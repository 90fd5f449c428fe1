//! Streamable HTTP latency: a `ping` on one keep-alive connection against a `ping` on a fresh
//! connection each time, and their ratio. Without `TCP_NODELAY` the keep-alive one waits for
//! Nagle and the delayed ACK (≥ 40 ms); with it, both are within a few milliseconds.
//! Run with `cargo bench --bench http`. Numbers are printed, never asserted.
#![allow(clippy::print_stdout, reason = "a bench binary reports its numbers on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench binary may panic")]

use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::request;
use egui_mcp_bridge::{ActionSpec, Bridge, passes::headless, serve::HttpOptions};

mod common;

const PING: &str = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;

fn main() {
    let bridge = Bridge::builder().app_name("bench").build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let stop = Arc::new(AtomicBool::new(false));
    let ui = {
        let (bridge, ctx, stop) = (bridge.clone(), ctx.clone(), Arc::clone(&stop));
        std::thread::Builder::new()
            .name("bench-ui".into())
            .spawn(move || {
                headless::run(
                    &ctx,
                    headless::HeadlessOptions::default(),
                    |_ui| {
                        let _ = bridge.window("main").title("Main").summary("A window").declare(|w| {
                            if let Some(call) = w.button("noop", ActionSpec::new("Nothing")) {
                                call.ok("Nothing done");
                            }
                        });
                    },
                    || !stop.load(Ordering::Acquire),
                );
            })
            .unwrap()
    };
    let serving =
        bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default().without_token()).unwrap();
    let addr = serving.local_addr();
    let (mut stream, session) = common::session(addr);
    let n = 200;
    let start = Instant::now();
    for _ in 0..n {
        request(&mut stream, addr, Some(&session), PING, true);
    }
    let keep_alive = start.elapsed() / n;
    let start = Instant::now();
    for _ in 0..n {
        let mut fresh = TcpStream::connect(addr).unwrap();
        request(&mut fresh, addr, Some(&session), PING, false);
    }
    let fresh = start.elapsed() / n;
    println!("ping on a keep-alive connection: {keep_alive:?}");
    println!("ping on a fresh connection:      {fresh:?}");
    println!("keep-alive / fresh:              {:.2}", keep_alive.as_secs_f64() / fresh.as_secs_f64());
    if keep_alive > fresh + Duration::from_millis(5) {
        println!("keep-alive is slower than a fresh connection by more than 5 ms: is TCP_NODELAY set?");
    }
    drop(stream);
    sessions_memory(&bridge);
    stop.store(true, Ordering::Release);
    ctx.request_repaint();
    ui.join().unwrap();
}

/// Memory after rounds of 10,000 sessions, each ended one of three ways (deleted, abandoned
/// until evicted or expired, never initialised), once the bridge holds none of them: if ended
/// sessions were kept, resident memory would grow by each round (about 11 KB per session, so
/// ~110 MB per round, before issue 17); returned, it stays flat after the first.
fn sessions_memory(bridge: &Bridge) {
    const ROUNDS: usize = 3;
    const PER_ROUND: usize = 10_000;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let options = HttpOptions {
        session_idle: Duration::from_secs(1),
        header_timeout: Duration::from_millis(500),
        ..HttpOptions::default().without_token()
    };
    let serving = bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), options).unwrap();
    let addr = serving.local_addr();
    println!("resident memory before any session: {}", rss());
    for round in 1..=ROUNDS {
        let start = Instant::now();
        for k in 0..PER_ROUND {
            let mut stream = TcpStream::connect(addr).unwrap();
            let init = request(&mut stream, addr, None, common::INIT, false);
            let Some(session) = common::session_of(&init) else { continue };
            match k % 3 {
                0 => {
                    let mut s = TcpStream::connect(addr).unwrap();
                    common::initialized(&mut s, addr, &session);
                    let mut s = TcpStream::connect(addr).unwrap();
                    common::delete(&mut s, addr, &session);
                }
                1 => {
                    let mut s = TcpStream::connect(addr).unwrap();
                    common::initialized(&mut s, addr, &session);
                }
                _ => {}
            }
        }
        let opened = start.elapsed();
        let deadline = Instant::now() + Duration::from_secs(30);
        while rt.block_on(serving.held()) != egui_mcp_bridge::serve::Held::default() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100)); // the sweeps run every 250 ms and 2 s
        }
        println!(
            "after round {round} ({PER_ROUND} sessions in {opened:.1?}, held then {:?}): resident {}",
            rt.block_on(serving.held()),
            rss()
        );
    }
}

/// Resident memory of this process (Linux), e.g. "41.2 MB".
fn rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("VmRSS:").map(|v| v.trim().to_owned())))
        .and_then(|v| v.trim_end_matches(" kB").trim().parse::<f64>().ok())
        .map_or_else(|| "n/a (no /proc/self/status)".to_owned(), |kb| format!("{:.1} MB", kb / 1024.0))
}
