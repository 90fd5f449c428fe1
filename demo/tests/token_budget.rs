//! Tokens are money: the standard order task done by a lean agent over stdio (raw JSON-RPC),
//! counting every byte it receives and every request it makes, `initialize` included. The
//! regression guard counts bytes and calls, never time.
//!
//! Run as two clients: Claude Code (its model sees `structuredContent`) and one of unknown name.
//!
//! The lean agent: initialize, list tools, read the state, open the first draft, list tools
//! (the editor's), add an item, submit with the four fields, confirm, list tools (Authorize's
//! schema), authorize. It lists again only when a tool it needs has parameters it has not seen.
#![allow(clippy::unwrap_used, reason = "tests")]
#![allow(clippy::print_stdout, reason = "the test prints its figures")]

mod support;

use std::io::{BufRead as _, Write as _};

use serde_json::{Value, json};

struct Lean {
    demo: support::DemoStdio,
    next_id: u64,
    calls: usize,
    received: usize,
    /// Per request: what it was and the bytes of its answer.
    log: Vec<(String, usize)>,
}

impl Lean {
    #[expect(clippy::needless_pass_by_value, reason = "callers build the params in place with json!")]
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": &params}).to_string();
        writeln!(self.demo.stdin, "{line}").unwrap();
        self.demo.stdin.flush().unwrap();
        self.calls += 1;
        loop {
            let mut line = String::new();
            assert!(self.demo.stdout.read_line(&mut line).unwrap() > 0, "the demo ended");
            self.received += line.trim_end().len();
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                let what = match method {
                    "tools/call" => params["name"].as_str().unwrap().to_owned(),
                    m => m.to_owned(),
                };
                self.log.push((what, line.trim_end().len()));
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    fn notify(&mut self, method: &str) {
        writeln!(self.demo.stdin, "{}", json!({"jsonrpc": "2.0", "method": method})).unwrap();
        self.demo.stdin.flush().unwrap();
    }

    #[expect(clippy::needless_pass_by_value, reason = "callers build the arguments in place with json!")]
    fn call(&mut self, name: &str, arguments: Value) -> Value {
        let r = self.request("tools/call", json!({"name": name, "arguments": arguments}));
        assert_ne!(r["isError"], true, "{name}: {r}");
        r["structuredContent"].clone()
    }

    fn list_tools(&mut self) -> Vec<Value> {
        self.request("tools/list", json!({}))["tools"].as_array().unwrap().clone()
    }
}

/// The figures of one run of the standard task.
struct Figures {
    calls: usize,
    received: usize,
    list_bytes: usize,
    /// What a host gives its model of that list on every turn: each tool's name, description
    /// and input schema (title, annotations and output schema stay with the host).
    model_list_bytes: usize,
}

/// The standard task as a lean agent whose client sends this `clientInfo.name`.
fn standard_task(client: &str) -> Figures {
    let mut a = Lean { demo: support::DemoStdio::start("warn"), next_id: 0, calls: 0, received: 0, log: Vec::new() };
    a.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": client, "version": "1"}}),
    );
    a.notify("notifications/initialized");
    a.list_tools();
    let state = a.request("resources/read", json!({"uri": "app://windows"}));
    let state: Value = serde_json::from_str(state["contents"][0]["text"].as_str().unwrap()).unwrap();
    let orders = state["windows"].as_array().unwrap().iter().find(|w| w["id"] == "orders").unwrap();
    let draft = orders["blocks"][0]["rows"].as_array().unwrap().iter().find(|r| r[2] == "Draft").unwrap()[0].clone();
    let opened = a.call("orders__open_order", json!({"order": draft}));
    let editor = opened["openedWindowIds"][0].as_str().unwrap().to_owned();
    let with_editor = a.list_tools();
    let list_bytes = serde_json::to_string(&with_editor).unwrap().len();
    let model_list_bytes = with_editor
        .iter()
        .map(|t| {
            json!({"name": t["name"], "description": t["description"], "input_schema": t["inputSchema"]})
                .to_string()
                .len()
        })
        .sum::<usize>();
    let v = 1; // a window just opened is at its first version
    let r = a.call(
        &format!("{editor}__add_item"),
        json!({"product": "Green tea", "quantity": 2, "unitPrice": 4.5, "expectedVersion": v}),
    );
    let r = a.call(
        &format!("{editor}__submit"),
        json!({"recipient": "Grace Hopper", "address": "1 Main Street", "amount": 215.3, "currency": "USD", "expectedVersion": r["version"]}),
    );
    let confirm = r["openedWindowIds"][0].as_str().unwrap().to_owned();
    let r = a.call(&format!("{confirm}__confirm"), json!({}));
    let authorize = r["openedWindowIds"][0].as_str().unwrap().to_owned();
    a.list_tools(); // the agent has not seen `authorize`'s parameters
    a.call(&format!("{authorize}__authorize"), json!({"password": "1234"}));
    drop(a.demo.stdin);
    let _ = a.demo.child.wait();

    println!(
        "{client}: {} calls, {} bytes received; tool list with one editor open: {list_bytes} bytes ({model_list_bytes} for the model)",
        a.calls, a.received
    );
    for (what, bytes) in &a.log {
        println!("  {what}: {bytes}");
    }
    Figures { calls: a.calls, received: a.received, list_bytes, model_list_bytes }
}

// Regression guards, at the figures measured on 2026-12-01 (the note above each says which).
// They count bytes and calls, never time. Issue 10 asked for ≤ 10,240 bytes received and
// ≤ 2,560 bytes of tool list; PERFORMANCE.md says why neither is reachable with every tool
// entry keeping §12.3's output schema and §5.2/§5.6's title, description and annotations.

/// Claude Code: a client whose model reads the resource, re-lists on `list_changed` and sees
/// `structuredContent` on success, so each result's text is just its message (§12.3).
/// Measured: 10 calls, 13,167 bytes; the list 4,070 bytes, 2,834 of them for the model.
#[test]
fn the_lean_standard_task_fits_the_token_budget() {
    let f = standard_task("claude-code");
    assert!(f.calls <= 12, "{} calls", f.calls);
    assert!(f.received <= 13_400, "{} bytes received", f.received);
    assert!(f.list_bytes <= 4_150, "the tool list with one editor open is {} bytes", f.list_bytes);
    assert!(f.model_list_bytes <= 2_900, "the model's part of that list is {} bytes", f.model_list_bytes);
}

/// A client of unknown name: the same, but each result's text is the whole JSON again (its
/// model may see only the text). Measured: 10 calls, 13,780 bytes.
#[test]
fn the_standard_task_for_an_unknown_client() {
    let f = standard_task("lean-agent");
    assert!(f.calls <= 12, "{} calls", f.calls);
    assert!(f.received <= 14_000, "{} bytes received", f.received);
    assert!(f.list_bytes <= 4_150, "the tool list with one editor open is {} bytes", f.list_bytes);
}
