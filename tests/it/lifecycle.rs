//! Stopping a transport: the call under way is answered, later calls are refused, and then the
//! connection (stdio, a byte stream) or the endpoint with its sessions (HTTP) closes. Dropping
//! a handle stops it too.

use crate::common;

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::{Lifecycle, Rig, WAIT};
use egui_mcp_bridge::serve::HttpOptions;
use egui_mcp_bridge::testing::Agent;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

/// Waits (at most [`WAIT`]) until a call reached the app: queued for the UI or under way
/// there. A queued call wakes the UI, so each request for a pass (`woken`, from
/// [`common::repaint_requests`] taken before the call was sent) is the moment to look again.
fn until_a_call_is_pending(agent: &Agent, woken: &std::sync::mpsc::Receiver<()>) {
    let deadline = Instant::now() + WAIT;
    while agent.pending_calls() == 0 {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(woken.recv_timeout(left).is_ok(), "the call never reached the app (nothing woke the UI in {WAIT:?})");
    }
}

fn set_name(name: &str) -> CallToolRequestParams {
    let Value::Object(args) = json!({"name": name}) else { unreachable!() };
    CallToolRequestParams::new("main__set_name").with_arguments(args)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(clippy::await_holding_lock, reason = "holding the UI's state is the point: the call must wait in the app")]
async fn stopping_a_connection_answers_the_call_under_way_then_closes() {
    let rig = Rig::start();
    let client = rig.connect(Lifecycle::Legacy).await;
    let agent = Agent::new(&rig.bridge);
    // The person's UI is busy (its state is held): the agent's call waits in the app.
    let held = rig.state.lock();
    let woken = common::repaint_requests(&rig.ctx);
    let peer = client.service.peer().clone();
    let under_way = tokio::spawn(async move { peer.call_tool(set_name("before the stop")).await });
    until_a_call_is_pending(&agent, &woken);

    let serving = client.serving.as_ref().expect("served");
    serving.stop();
    let refused = client.service.call_tool(set_name("after the stop")).await;
    assert!(refused.is_err(), "a call after the stop is refused: {refused:?}");
    assert!(!serving.is_closed(), "still open while a call is under way");

    drop(held);
    let answered = tokio::time::timeout(WAIT, under_way).await.expect("answered in time").unwrap().unwrap();
    assert_ne!(answered.is_error, Some(true), "the call under way succeeded: {answered:?}");
    tokio::time::timeout(WAIT, serving.closed()).await.expect("closed after answering");
    assert_eq!(rig.state.lock().name, "before the stop", "applied once, and the refused call never");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_handle_closes_the_connection() {
    let rig = Rig::start();
    let mut client = rig.connect(Lifecycle::Legacy).await;
    assert!(client.service.list_all_tools().await.is_ok());
    drop(client.serving.take());
    let ended = tokio::time::timeout(WAIT, client.service.waiting()).await;
    assert!(ended.is_ok(), "the client saw the connection end");
}

fn http_request(addr: SocketAddr, head: &str, body: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(WAIT)).expect("timeout");
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{head}\r\n{body}",
        addr.port(),
        body.len()
    );
    stream.write_all(req.as_bytes()).expect("send");
    stream
}

/// Reads until `needle` shows up or the stream ends; returns what was read and whether it ended.
fn read_until(stream: &mut TcpStream, needle: &str) -> (String, bool) {
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&raw).into_owned(), true),
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e) => panic!("read failed (timed out?): {e}; got {}", String::from_utf8_lossy(&raw)),
        }
        let text = String::from_utf8_lossy(&raw);
        if text.contains(needle) {
            return (text.into_owned(), false);
        }
    }
}

#[test]
fn stopping_http_answers_the_call_under_way_and_ends_every_session() {
    let rig = Rig::start();
    let agent = Agent::new(&rig.bridge);
    let http =
        rig.bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default().without_token()).unwrap();
    let addr = http.local_addr();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let (head, _) = read_until(&mut http_request(addr, "Connection: close\r\n", init), "\"result\"");
    let session = common::session_id(&head);
    let sid = format!("Mcp-Session-Id: {session}\r\n");
    let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let _ = read_until(&mut http_request(addr, &format!("{sid}Connection: close\r\n"), note), "202");
    // The session's notification stream (GET), open until the session ends.
    let mut events = TcpStream::connect(addr).unwrap();
    events.set_read_timeout(Some(WAIT)).unwrap();
    let get = format!("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: text/event-stream\r\n{sid}\r\n", addr.port());
    events.write_all(get.as_bytes()).unwrap();
    let _ = read_until(&mut events, "\r\n\r\n");

    // A call under way while the person's UI is busy.
    let held = rig.state.lock();
    let woken = common::repaint_requests(&rig.ctx);
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"main__set_name","arguments":{"name":"over http"}}}"#;
    let mut pending = http_request(addr, &sid, call);
    until_a_call_is_pending(&agent, &woken);
    http.stop();
    drop(held);
    let (answer, cut) = read_until(&mut pending, "\"result\"");
    assert!(!cut && !answer.contains("\"isError\":true"), "answered with success, not cut: {answer}");
    assert!(http.wait_closed(WAIT), "closed after answering");
    let (_, ended) = read_until(&mut events, "\u{0}never");
    assert!(ended, "the session's stream ended");
    assert!(TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_err(), "the port is closed");
    assert_eq!(rig.state.lock().name, "over http");
}
