//! Tokens are money: the standard order task done by a lean agent over stdio (raw JSON-RPC),
//! counting every byte it receives and every request it makes, `initialize` included. The
//! regression guard counts bytes and calls, never time.
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

#[test]
fn the_lean_standard_task_fits_the_token_budget() {
    let mut a = Lean { demo: support::DemoStdio::start("warn"), next_id: 0, calls: 0, received: 0, log: Vec::new() };
    a.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "lean-agent", "version": "1"}}),
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
        "lean standard task: {} calls, {} bytes received; tool list with one editor open: {list_bytes} bytes",
        a.calls, a.received
    );
    for (what, bytes) in &a.log {
        println!("  {what}: {bytes}");
    }
    // Regression guards at the figures measured on 2026-12-01 (10 calls, 13,981 bytes, 3,995
    // bytes for the list), after tool titles stopped repeating the window's title and the bare
    // output schema went. Issue 10's targets (≤ 12 calls: met; ≤ 10 KB received and ≤ 2.5 KB
    // for the list: not yet) need cuts that touch §5.2/§5.6's SHOULDs; see the note.
    assert!(a.calls <= 12, "{} calls", a.calls);
    assert!(a.received <= 14_200, "{} bytes received", a.received);
    assert!(list_bytes <= 4_100, "the tool list with one editor open is {list_bytes} bytes");
}
