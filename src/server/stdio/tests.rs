use serde_json::json;
use tokio::io::{AsyncBufReadExt as _, BufReader};

use super::*;

fn classify(line: &[u8]) -> Line {
    super::classify(line, &Rewritten::default())
}

fn answer(line: &str) -> Option<Value> {
    match classify(line.as_bytes()) {
        Line::Answer(v) => Some(serde_json::from_slice(&v).unwrap()),
        _ => None,
    }
}

#[test]
fn bad_lines_are_answered_without_echoing_them() {
    let a = answer(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"password":"hunter2""#).unwrap();
    assert_eq!((a["id"].clone(), a["error"]["code"].clone()), (Value::Null, json!(-32700)));
    assert!(!a.to_string().contains("hunter2"));
    let a = answer(r#"{"jsonrpc":"2.0","id":7,"result":[1,2],"error":"x","method":3}"#).unwrap();
    assert_eq!((a["id"].clone(), a["error"]["code"].clone()), (json!(7), json!(-32600)));
    assert!(matches!(classify(b"   "), Line::Skip));
}

/// rmcp drops a pending `receive` whenever another event wins its loop: a line that arrives
/// in pieces across such drops must still come out whole.
#[tokio::test]
async fn a_receive_cancelled_mid_line_loses_nothing() {
    let (client, server) = tokio::io::duplex(64);
    let (read, write) = tokio::io::split(server);
    let mut t = LineTransport::new(read, write, Serving::new());
    let (_client_read, mut client_write) = tokio::io::split(client);
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    for piece in line.as_bytes().chunks(7) {
        client_write.write_all(piece).await.unwrap();
        let cancelled = tokio::time::timeout(std::time::Duration::from_millis(5), t.receive()).await;
        assert!(cancelled.is_err(), "no message before the newline");
    }
    client_write.write_all(b"\n").await.unwrap();
    let message = tokio::time::timeout(std::time::Duration::from_secs(5), t.receive()).await.unwrap();
    assert!(matches!(message, Some(ClientJsonRpcMessage::Request(_))), "{message:?}");
}

/// A client that closed its reading end: the first failed write ends the connection.
#[tokio::test]
async fn a_failed_write_ends_the_connection() {
    let (client, server) = tokio::io::duplex(64);
    let (read, write) = tokio::io::split(server);
    let mut t = LineTransport::new(read, write, Serving::new());
    let (client_read, mut client_write) = tokio::io::split(client);
    drop(client_read);
    let note = serde_json::from_value::<ServerJsonRpcMessage>(
        json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed"}),
    )
    .unwrap();
    // The duplex fails writes once the other side is gone entirely; keep its write half so
    // only the reading side is closed for real pipes: here both go, as with a dead client.
    drop(client_write.shutdown().await);
    drop(client_write);
    assert!(t.send(note).await.is_err());
    let after = tokio::time::timeout(std::time::Duration::from_secs(5), t.receive()).await.unwrap();
    assert!(after.is_none(), "nothing is read after a failed write");
}

#[test]
fn an_id_less_request_is_dropped_and_a_real_notification_passes() {
    let call = r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":{"password":"hunter2"}}}"#;
    assert!(matches!(classify(call.as_bytes()), Line::Skip));
    let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert!(matches!(classify(note.as_bytes()), Line::Message(_)));
}

/// An id rmcp would rewrite is held while its request is under way, and released by the
/// answer, which carries it as sent.
#[tokio::test]
async fn a_rewritten_id_is_held_until_its_answer_carries_it_back() {
    let (client, server) = tokio::io::duplex(4096);
    let (read, write) = tokio::io::split(server);
    let mut t = LineTransport::new(read, write, Serving::new());
    let (client_read, mut client_write) = tokio::io::split(client);
    client_write.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1.50,\"method\":\"ping\"}\n").await.unwrap();
    let wait = std::time::Duration::from_secs(5);
    let Some(ClientJsonRpcMessage::Request(r)) = tokio::time::timeout(wait, t.receive()).await.unwrap() else {
        panic!("a request")
    };
    assert!(ids::is_placeholder(&r.id), "{:?}", r.id);
    assert_eq!(t.rewritten.lock().len(), 1);
    let answer = serde_json::from_value::<ServerJsonRpcMessage>(json!({"jsonrpc":"2.0","id":r.id,"result":{}}));
    t.send(answer.unwrap()).await.unwrap();
    let mut line = String::new();
    let mut client_read = BufReader::new(client_read);
    tokio::time::timeout(wait, client_read.read_line(&mut line)).await.unwrap().unwrap();
    assert!(line.starts_with(r#"{"jsonrpc":"2.0","id":1.50,"#), "{line}");
    assert!(t.rewritten.lock().is_empty(), "released by the answer");
}

#[test]
fn requests_with_rewritten_ids_under_way_are_capped() {
    let full = Rewritten::default();
    for n in 0..MAX_REWRITTEN {
        full.lock().insert(Placeholder(n.to_string()), Box::default());
    }
    let Line::Answer(refused) = super::classify(br#"{"jsonrpc":"2.0","id":2.5,"method":"ping"}"#, &full) else {
        panic!("answered at once")
    };
    assert!(refused.starts_with(br#"{"jsonrpc":"2.0","id":2.5,"error":{"code":-32000,"#));
    assert_eq!(full.lock().len(), MAX_REWRITTEN);
    // Ids rmcp keeps as sent need no entry and pass.
    assert!(matches!(super::classify(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#, &full), Line::Message(_)));
}

#[test]
fn a_line_too_deep_to_parse_is_answered_under_its_own_id() {
    let deep = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","id":"call-7","params":{{"name":"x","arguments":{}1{}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let answer = answer(&deep).expect("answered");
    assert_eq!(answer["id"], "call-7", "{answer}");
    assert_eq!(answer["error"]["code"], -32600);
}

/// A line over `MAX_LINE` is answered and discarded (never held whole), and the next line is
/// read as ever: the end `FramedRead` reports once after the codec's error is not the input's.
#[tokio::test]
async fn a_line_over_the_limit_is_answered_and_the_next_one_read() {
    let (client, server) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server);
    let mut t = LineTransport::new(read, write, Serving::new());
    let (client_read, mut client_write) = tokio::io::split(client);
    let writing = tokio::spawn(async move {
        let mut long = br#"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":""#.to_vec();
        long.resize(MAX_LINE + 1024, b'a');
        long.extend_from_slice(b"\"}}\n");
        client_write.write_all(&long).await.unwrap();
        client_write.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n").await.unwrap();
        client_write
    });
    let wait = std::time::Duration::from_secs(10);
    let Some(ClientJsonRpcMessage::Request(r)) = tokio::time::timeout(wait, t.receive()).await.unwrap() else {
        panic!("the next line's request")
    };
    assert_eq!(r.id, rmcp::model::NumberOrString::Number(4));
    assert!(t.lines.read_buffer().capacity() <= KEPT_BUFFER, "the long line's buffer was given back");
    let mut line = String::new();
    tokio::time::timeout(wait, BufReader::new(client_read).read_line(&mut line)).await.unwrap().unwrap();
    assert!(line.contains("-32600") && line.contains("longer"), "{line}");
    drop(writing.await.unwrap());
    let end = tokio::time::timeout(wait, t.receive()).await.unwrap();
    assert!(end.is_none(), "the input's end");
}
