//! The demo binary over stdio, spoken to line by line: stdout carries JSON-RPC only, and the
//! secrets an agent types (a card number, the payment password) reach no log line even at
//! `RUST_LOG=trace`.

mod support;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const CARD: &str = "5105-1051-0510-5100";
const PASSWORD: &str = "1234";
const WRONG_PASSWORD: &str = "pw-in-no-log-0815";

#[test]
fn stdout_is_json_rpc_only_and_secrets_are_never_logged() {
    let mut demo = Command::new(support::DEMO)
        .args(["--headless", "--stdio"])
        .env("RUST_LOG", "trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the demo");
    let mut stdin = demo.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(demo.stdout.take().expect("stdout"));
    let mut stderr = demo.stderr.take().expect("stderr");
    let stderr_reader = std::thread::Builder::new()
        .name("demo-stderr".into())
        .spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        })
        .expect("read stderr");

    let mut next_id = 0;
    let mut all_stdout = Vec::new();
    let mut request = |method: &str, params: Value| -> Value {
        next_id += 1;
        let line = json!({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params});
        writeln!(stdin, "{line}").expect("send");
        loop {
            let mut reply = String::new();
            assert!(stdout.read_line(&mut reply).expect("read stdout") > 0, "the demo closed stdout");
            let message: Value =
                serde_json::from_str(&reply).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {reply:?}"));
            assert_eq!(message["jsonrpc"], "2.0", "stdout carries JSON-RPC only: {reply}");
            all_stdout.push(reply);
            if message["id"] == next_id {
                return message;
            }
        }
    };
    let call = |request: &mut dyn FnMut(&str, Value) -> Value, tool: &str, args: Value| {
        request("tools/call", json!({"name": tool, "arguments": args}))["result"]["structuredContent"].clone()
    };

    request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}),
    );
    let editor =
        call(&mut request, "app__new_order", json!({}))["openedWindowIds"][0].as_str().expect("editor").to_owned();
    call(&mut request, &format!("{editor}__edit_field"), json!({"field": "card_number", "value": CARD}));
    call(&mut request, &format!("{editor}__add_item"), json!({"product": "Tea", "quantity": 1}));
    let submitted = call(&mut request, &format!("{editor}__submit"), json!({"recipient": "Ada", "amount": 3}));
    let confirm = submitted["openedWindowIds"][0].as_str().expect("confirm").to_owned();
    let confirmed = call(&mut request, &format!("{confirm}__confirm"), json!({}));
    let authorize = confirmed["openedWindowIds"][0].as_str().expect("authorize").to_owned();
    let wrong = call(&mut request, &format!("{authorize}__authorize"), json!({"password": WRONG_PASSWORD}));
    assert_eq!(wrong["code"], "validation_failed", "{wrong}");
    let done = call(&mut request, &format!("{authorize}__authorize"), json!({"password": PASSWORD}));
    assert!(done["message"].as_str().is_some_and(|m| m.contains("submitted")), "{done}");
    let state = request("resources/read", json!({"uri": "app://windows"}));

    drop(stdin); // the client goes away: the demo exits
    let status = demo.wait().expect("the demo exits when stdin closes");
    assert!(status.success(), "{status}");
    let logs = stderr_reader.join().expect("stderr text");
    assert!(logs.contains("TRACE") || logs.contains("DEBUG"), "trace logging was on:\n{logs}");
    for secret in [CARD, WRONG_PASSWORD] {
        assert!(!logs.contains(secret), "{secret} reached a log line:\n{logs}");
        assert!(!all_stdout.iter().any(|l| l.contains(secret)), "{secret} was sent to the client");
    }
    assert!(!state.to_string().contains(CARD));
}
