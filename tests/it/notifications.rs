//! Notifications: the ones a call caused come before its result on the calling connection, none
//! is sent for a change that did not happen (the first frame after a handshake included), and
//! the fan-out under a client that stops reading: nobody else waits for it, its notifications
//! coalesce while it is paused, and it is not pruned while alive.

#![allow(clippy::unwrap_used, reason = "tests")]

use crate::common;

use std::time::Duration;

use common::{Lifecycle, Note, Rig, WAIT};
use egui_mcp_bridge::Bridge;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

/// A stdio-like client over a small pipe, speaking raw JSON-RPC so that the test decides when
/// it reads.
struct RawClient {
    reader: BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    _serving: egui_mcp_bridge::serve::ServeHandle,
}

impl RawClient {
    async fn send(&mut self, line: &str) {
        self.writer.write_all(line.as_bytes()).await.unwrap();
        self.writer.write_all(b"\n").await.unwrap();
    }

    async fn line(&mut self, wait: Duration) -> Option<String> {
        let mut line = String::new();
        match tokio::time::timeout(wait, self.reader.read_line(&mut line)).await {
            Ok(Ok(n)) if n > 0 => Some(line),
            _ => None,
        }
    }

    /// Reads until the response with this id (notifications before it are skipped).
    async fn response(&mut self, id: u32) -> String {
        self.until_response(id).await.1
    }

    /// Reads until the response with this id: the methods of the notifications before it, and
    /// the response.
    async fn until_response(&mut self, id: u32) -> (Vec<String>, String) {
        let mut before = Vec::new();
        loop {
            let line = self.line(WAIT).await.expect("a response in time");
            if line.contains(&format!("\"id\":{id}")) {
                return (before, line);
            }
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            before.push(v["method"].as_str().unwrap_or("(not a notification)").to_owned());
        }
    }

    fn connect(bridge: &egui_mcp_bridge::Bridge, pipe: usize) -> Self {
        let (server_io, client_io) = tokio::io::duplex(pipe);
        let serving = bridge.serve_io("duplex", server_io).expect("serve");
        let (read, writer) = tokio::io::split(client_io);
        RawClient { reader: BufReader::new(read), writer, _serving: serving }
    }

    async fn handshake(&mut self, name: &str) {
        let init = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"{name}","version":"0"}}}}}}"#
        );
        self.send(&init).await;
        self.response(1).await;
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
        self.send(r#"{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"app://windows"}}"#).await;
        self.response(2).await;
    }

    async fn call(&mut self, id: u32, tool: &str, args: &str) -> (Vec<String>, String) {
        self.send(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{args}}}}}"#
        ))
        .await;
        self.until_response(id).await
    }
}

const UPDATED: &str = "notifications/resources/updated";
const TOOLS_CHANGED: &str = "notifications/tools/list_changed";

/// On the calling connection, the `resources/updated` and `tools/list_changed` a call caused
/// are written before its result, so a client that re-lists can do so before its model's next
/// request; a call that changed no tool causes no `tools/list_changed`. A client that connected
/// before the app's first frame is not told the first frame is a change: it had listed nothing
/// before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_calls_notifications_come_before_its_result_and_only_for_real_changes() {
    let (rig, mut c) = Rig::start_after(Bridge::builder(), |bridge| RawClient::connect(bridge, 1 << 20));
    c.handshake("early").await; // answered before the first frame, or just after it
    c.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#).await;
    let (before_list, _) = c.until_response(3).await;
    assert!(!before_list.contains(&TOOLS_CHANGED.to_owned()), "{before_list:?}");

    let (before, result) = c.call(4, "main__set_name", r#"{"name":"Ada"}"#).await;
    assert!(result.contains("name set"), "{result}");
    assert_eq!(before, [UPDATED], "the window changed, the tools did not (nor did the first frame change them)");

    let (before, result) = c.call(5, "main__open_dialog", "{}").await;
    assert!(result.contains("openedWindowIds"), "{result}");
    assert!(before.contains(&UPDATED.to_owned()) && before.contains(&TOOLS_CHANGED.to_owned()), "{before:?}");

    let (before, result) = c.call(6, "app__call", r#"{"tool":"app__lock"}"#).await;
    assert!(result.contains("openedWindowIds"), "{result}");
    assert!(before.contains(&TOOLS_CHANGED.to_owned()), "through the dispatcher too: {before:?}");
    drop(rig);
}

/// Waits at most `bound` for the client's next `resources/updated` (other notes skipped).
async fn updated_within(client: &mut common::Client, bound: Duration) -> Result<(), tokio::time::error::Elapsed> {
    tokio::time::timeout(bound, async { while client.next_note().await != Note::Updated(common::URI.to_owned()) {} })
        .await
}

async fn paused_client(rig: &Rig) -> RawClient {
    // 1 KiB of pipe: a dozen notifications fill it.
    let mut c = RawClient::connect(&rig.bridge, 1024);
    c.handshake("paused").await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_subscriber_delays_nobody_coalesces_and_catches_up() {
    let rig = Rig::start();
    let mut paused = paused_client(&rig).await;
    let mut good = rig.subscribed(Lifecycle::Legacy).await;

    // The paused client reads nothing from here on. Each change must still reach the good
    // client promptly: a fan-out that waited on the paused peer (5 s per send before) would
    // miss this bound once the paused pipe is full.
    const CHANGES: usize = 40;
    for k in 0..CHANGES {
        rig.person(|s| s.name = format!("name {k}"));
        let note = updated_within(&mut good, Duration::from_secs(2)).await;
        assert!(note.is_ok(), "change {k}: the good client waited on the paused one");
    }

    // It reads again: what piled up in its pipe, then at most one coalesced update.
    let mut updated = 0;
    while let Some(line) = paused.line(Duration::from_millis(500)).await {
        if line.contains("notifications/resources/updated") {
            updated += 1;
        }
    }
    assert!(updated >= 1, "it caught up with the changes");
    assert!(updated < CHANGES, "{updated} updates for {CHANGES} changes: they were not coalesced");

    // Alive, so not pruned: the next change reaches it.
    rig.person(|s| s.name = "after".to_owned());
    let mut got = false;
    while let Some(line) = paused.line(WAIT).await {
        if line.contains("notifications/resources/updated") {
            got = true;
            break;
        }
    }
    assert!(got, "the paused client was pruned though alive");
}

/// Over HTTP, a subscribed session that opens no stream to read its notifications on (rmcp
/// holds 16 for it, then its sends wait) delays nobody else either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_subscriber_that_never_reads_delays_nobody() {
    let served = crate::http::Served::open();
    let (addr, host) = (served.addr, served.host.clone());
    tokio::task::spawn_blocking(move || {
        let session = crate::http::init_session(addr, &host, true);
        let subscribe = r#"{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"app://windows"}}"#;
        crate::http::post(addr, &host, &[("Mcp-Session-Id", &session)], subscribe);
    })
    .await
    .unwrap();
    let rig = &served.rig;
    let mut good = rig.subscribed(Lifecycle::Legacy).await;
    for k in 0..40 {
        rig.person(|s| s.name = format!("http {k}"));
        let note = updated_within(&mut good, Duration::from_secs(2)).await;
        assert!(note.is_ok(), "change {k}: the good client waited on the quiet HTTP session");
    }
}
