//! Random and mutated JSON-RPC frames against the demo binary, over stdio and over HTTP: it never
//! panics, keeps answering, and its stdout carries JSON-RPC only.
//!
//! `FUZZ_FRAMES` sets the number of frames per transport (2,000 by default here); the long run
//! of SECURITY.md is `FUZZ_FRAMES=1000000 cargo test --release -p order-demo --test it frame_fuzz`.

#![allow(clippy::unwrap_used, reason = "tests")]

use crate::support;

use std::fmt::Write as _;
use std::io::{BufRead as _, Read as _, Write as _};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};
use support::DemoHttp;

/// xorshift64*: deterministic, seeded, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn corpus() -> Vec<Value> {
    vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "app://windows"}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "orders__load_orders", "arguments": {"limit": 2}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "app__new_order", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "order-new-1__edit_field", "arguments": {"field": "amount", "value": 12}}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "app__call", "arguments": {"tool": "app__lock"}}}),
        json!({"jsonrpc": "2.0", "id": 7, "method": "resources/subscribe", "params": {"uri": "app://windows"}}),
        json!({"jsonrpc": "2.0", "id": 8, "method": "ping"}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "app__read_windows"}}),
    ]
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.next() as i64),
        3 => json!(f64::from(rng.below(1_000_000) as u32) / 7.0),
        4 => json!("x".repeat(rng.below(300))),
        5 => json!(["é", "\u{0}", "\u{ffff}", "__", "a__b"][rng.below(5)]),
        6 => Value::Array((0..rng.below(4)).map(|_| random_value(rng, depth + 1)).collect()),
        _ => {
            let keys = ["id", "method", "params", "name", "arguments", "jsonrpc", "uri", "tool", "x"];
            Value::Object(
                (0..rng.below(4))
                    .map(|_| (keys[rng.below(keys.len())].to_owned(), random_value(rng, depth + 1)))
                    .collect(),
            )
        }
    }
}

/// One frame: a valid message, mutated at the JSON level or the byte level, or noise.
fn frame(rng: &mut Rng, corpus: &[Value]) -> Vec<u8> {
    let mut v = corpus[rng.below(corpus.len())].clone();
    match rng.below(6) {
        0 => {
            // Replace or add a random field somewhere.
            let keys = ["id", "method", "params", "jsonrpc"];
            v[keys[rng.below(keys.len())]] = random_value(rng, 0);
        }
        1 => {
            if let Some(p) = v.get_mut("params") {
                p["arguments"] = random_value(rng, 0);
            }
        }
        2 => {
            v.as_object_mut().unwrap().remove("id");
        }
        3 => return (0..rng.below(200)).map(|_| rng.next() as u8).filter(|b| *b != b'\n').collect(),
        _ => {}
    }
    let mut bytes = serde_json::to_vec(&v).unwrap();
    if rng.below(3) == 0 && !bytes.is_empty() {
        // Byte-level damage: truncate, or flip one byte.
        if rng.below(2) == 0 {
            bytes.truncate(rng.below(bytes.len()));
        } else {
            let i = rng.below(bytes.len());
            bytes[i] = (rng.next() as u8).max(1);
        }
        bytes.retain(|b| *b != b'\n');
    }
    bytes
}

fn frames() -> usize {
    std::env::var("FUZZ_FRAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(2000)
}

#[test]
fn random_frames_over_stdio_never_break_the_server_or_stdout() {
    let support::DemoStdio { child: mut demo, mut stdin, stdout, stderr: errors } = support::DemoStdio::start("error");
    let reader = std::thread::Builder::new()
        .name("demo-stdout".into())
        .spawn(move || {
            let mut lines = Vec::new();
            for line in stdout.lines() {
                let line = line.unwrap();
                let done = line.contains(r#""id":"final""#);
                lines.push(line);
                if done {
                    break;
                }
            }
            lines
        })
        .unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "0"}}});
    writeln!(stdin, "{init}").unwrap();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#).unwrap();
    let corpus = corpus();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for _ in 0..frames() {
        let mut f = frame(&mut rng, &corpus);
        f.push(b'\n');
        stdin.write_all(&f).unwrap();
    }
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":"final","method":"ping"}}"#).unwrap();
    let lines = reader.join().unwrap();
    drop(stdin);
    let status = demo.wait().unwrap();
    let errors = errors.join().unwrap();
    assert!(status.success(), "{status}: {errors}");
    assert!(!errors.contains("panicked"), "a panic: {errors}");
    for line in &lines {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("stdout not JSON ({e}): {line}"));
        assert_eq!(v["jsonrpc"], "2.0", "{line}");
    }
    assert!(lines.last().unwrap().contains(r#""result":{}"#), "the final ping was answered: {:?}", lines.last());
}

fn post(addr: &str, body: &[u8], session: Option<&str>) -> Option<u16> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(s) = session {
        let _ = write!(head, "Mcp-Session-Id: {s}\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body).ok()?;
    let mut first = [0u8; 12];
    stream.read_exact(&mut first).ok()?;
    std::str::from_utf8(&first[9..12]).ok()?.parse().ok()
}

#[test]
fn random_frames_over_http_never_break_the_server() {
    let demo = DemoHttp::start(&[]);
    let addr = demo.url.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let corpus = corpus();
    let mut rng = Rng(0x5eed_1234_abcd_0002);
    let n = frames() / 4; // a connection each: fewer, slower
    for _ in 0..n {
        let f = frame(&mut rng, &corpus);
        let status = post(&addr, &f, if rng.below(2) == 0 { Some("no-such-session") } else { None });
        assert!(status.is_some_and(|s| s < 500), "a frame got {status:?}: {}", String::from_utf8_lossy(&f));
    }
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "after", "version": "0"}}});
    assert_eq!(post(&addr, init.to_string().as_bytes(), None), Some(200), "still serving after the fuzz");
}
