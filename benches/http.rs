//! Streamable HTTP latency: a `ping` on one keep-alive connection against a `ping` on a fresh
//! connection each time, and their ratio. Without `TCP_NODELAY` the keep-alive one waits for
//! Nagle and the delayed ACK (≥ 40 ms); with it, both are within a few milliseconds.
//! Run with `cargo bench --bench http`. Numbers are printed, never asserted.
#![allow(clippy::print_stdout, reason = "a bench binary reports its numbers on stdout")]
#![allow(clippy::unwrap_used, reason = "a bench binary may panic")]

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use egui_mcp_bridge::{ActionSpec, Bridge, HttpOptions, headless};

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;
const PING: &str = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;

fn request(stream: &mut TcpStream, addr: SocketAddr, session: Option<&str>, body: &str, keep_alive: bool) -> String {
    let session = session.map(|s| format!("Mcp-Session-Id: {s}\r\n")).unwrap_or_default();
    let connection = if keep_alive { "keep-alive" } else { "close" };
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: {connection}\r\n{session}\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // Until the end of the chunked SSE body (or the close).
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        if raw.ends_with(b"0\r\n\r\n") {
            break;
        }
    }
    String::from_utf8_lossy(&raw).into_owned()
}

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
    let serving = bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default()).unwrap();
    let addr = serving.local_addr();
    let mut stream = TcpStream::connect(addr).unwrap();
    let init = request(&mut stream, addr, None, INIT, true);
    let session = init
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap();
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
