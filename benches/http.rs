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
use egui_mcp_bridge::{ActionSpec, Bridge, HttpOptions, headless};

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
                        let _ = bridge.window("main").title("Main").summary("A window").show(|w| {
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
    stop.store(true, Ordering::Release);
    ctx.request_repaint();
    ui.join().unwrap();
}
