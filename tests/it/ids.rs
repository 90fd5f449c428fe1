//! Request ids come back exactly as the client wrote them, over stdio and HTTP (JSON-RPC 2.0:
//! the response's id is the request's): a float, an integer too large for 64 bits, `1e400`, a
//! string with a lone surrogate escaped. An id that is no string or number is answered
//! `-32600` with id `null` on both transports.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

use crate::common::Rig;
use crate::http::{Served, message};

/// Ids rmcp cannot hold as they are written, and ordinary ones (which must not change either).
const IDS: [&str; 9] = [
    "-30011.973201588262",
    "18446744073709551617",
    "1e400",
    r#""\ud800""#,
    "1.0",
    r#""\u0041b""#,
    "7",
    r#""call-3""#,
    "-9223372036854775808",
];

const INVALID_IDS: [&str; 4] = ["true", "{}", "[]", "null"];

const WAIT: Duration = Duration::from_secs(10);

fn ping(id: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#)
}

/// The answer's id exactly as sent: its text follows `"id":` right after `"jsonrpc":"2.0",`,
/// and `then` (`result` or `error`) follows it. A mismatch is kept in `wrong`, so that one run
/// shows every id that fails.
fn check_echoed(wrong: &mut Vec<String>, answer: &str, id: &str, then: &str) {
    if !answer.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"{then}":"#)) {
        wrong.push(format!("id {id} came back as: {answer}"));
    }
}

fn check_invalid_request(wrong: &mut Vec<String>, answer: Option<Value>, id: &str) {
    let Some(answer) = answer else { return wrong.push(format!("id {id}: no answer")) };
    if (&answer["id"], &answer["error"]["code"]) != (&Value::Null, &serde_json::json!(-32600)) {
        wrong.push(format!("id {id}: answered {answer}"));
    }
}

struct Lines {
    read: BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
}

impl Lines {
    async fn send(&mut self, line: &str) {
        self.write.write_all(format!("{line}\n").as_bytes()).await.expect("write");
    }

    /// The next line, or `None` when none comes within `wait`.
    async fn next(&mut self, wait: Duration) -> Option<String> {
        let mut line = String::new();
        tokio::time::timeout(wait, self.read.read_line(&mut line)).await.ok()?.expect("read");
        Some(line.trim_end().to_owned())
    }

    async fn ask(&mut self, line: &str) -> String {
        self.send(line).await;
        self.next(WAIT).await.expect("an answer in time")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_are_echoed_as_sent_over_stdio() {
    let rig = Rig::start();
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let _serving = rig.bridge.serve_io("duplex", server_io).expect("serve");
    let (read, write) = tokio::io::split(client_io);
    let mut lines = Lines { read: BufReader::new(read), write };
    let mut wrong = Vec::new();
    let init = r#"{"jsonrpc":"2.0","id":1.0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    check_echoed(&mut wrong, &lines.ask(init).await, "1.0", "result");
    lines.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    for id in IDS {
        check_echoed(&mut wrong, &lines.ask(&ping(id)).await, id, "result");
    }
    // Not a message this server knows, still answered under its id as written.
    let unknown = r#"{"jsonrpc":"2.0","id":-30011.973201588262,"method":7}"#;
    check_echoed(&mut wrong, &lines.ask(unknown).await, "-30011.973201588262", "error");
    for id in INVALID_IDS {
        lines.send(&ping(id)).await;
        // An answer comes at once or not at all (the ping after it is answered at once).
        let answer = lines.next(Duration::from_secs(1)).await;
        check_invalid_request(&mut wrong, answer.and_then(|a| serde_json::from_str(&a).ok()), id);
    }
    // And the connection still serves.
    check_echoed(&mut wrong, &lines.ask(&ping("8")).await, "8", "result");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn ids_are_echoed_as_sent_over_http() {
    let app = Served::open();
    let session = app.session(true);
    let mut wrong = Vec::new();
    for id in IDS {
        let r = app.post(&[("Mcp-Session-Id", &session)], &ping(id));
        let start = r.body.find('{').unwrap_or(r.body.len());
        check_echoed(&mut wrong, &r.body[start..], id, "result");
    }
    // Answered by our own layer (a JSON body, not an SSE event): the id as written too.
    let unknown = r#"{"jsonrpc":"2.0","id":-30011.973201588262,"method":7}"#;
    let r = app.post(&[("Mcp-Session-Id", &session)], unknown);
    check_echoed(&mut wrong, &r.body[r.body.find('{').unwrap_or(r.body.len())..], "-30011.973201588262", "error");
    for id in INVALID_IDS {
        let r = app.post(&[("Mcp-Session-Id", &session)], &ping(id));
        check_invalid_request(&mut wrong, r.body.contains('{').then(|| message(&r.body)), id);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
