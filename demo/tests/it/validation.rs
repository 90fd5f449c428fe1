//! One rejected call names every invalid field at once, whichever layer finds them, and the
//! window the person sees shows the same errors: `submit {"amount": -5}` on a new, empty order
//! names `amount`, `recipient` and `items` (issue 17's probe named only `amount`, because a
//! schema bound rejected it before the order was looked at), directly and through the
//! dispatcher, over the demo's real stdio server.

use std::io::{BufRead as _, Write as _};

use serde_json::{Value, json};

use crate::support;

#[test]
fn a_rejected_submit_names_every_invalid_field_and_the_editor_shows_them() {
    let mut demo = support::DemoStdio::start("warn");
    let mut next = 0;
    let mut request = |method: &str, params: Value| -> Value {
        next += 1;
        writeln!(demo.stdin, "{}", json!({"jsonrpc": "2.0", "id": next, "method": method, "params": params})).unwrap();
        loop {
            let mut line = String::new();
            assert!(demo.stdout.read_line(&mut line).unwrap() > 0, "the demo closed stdout");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == next {
                return message;
            }
        }
    };
    let init =
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "v", "version": "0"}});
    request("initialize", init);
    let call = |request: &mut dyn FnMut(&str, Value) -> Value, name: &str, args: Value| {
        request("tools/call", json!({"name": name, "arguments": args}))["result"]["structuredContent"].clone()
    };
    let opened = call(&mut request, "app__new_order", json!({}));
    let editor = opened["openedWindowIds"][0].as_str().unwrap().to_owned();
    let submit = format!("{editor}__submit");
    for answer in [
        call(&mut request, &submit, json!({"amount": -5})),
        call(&mut request, "app__call", json!({"tool": submit, "arguments": {"amount": -5}})),
    ] {
        assert_eq!(answer["code"], "validation_failed", "{answer}");
        let mut named: Vec<&str> =
            answer["fields"].as_array().unwrap().iter().map(|f| f["field"].as_str().unwrap()).collect();
        named.sort_unstable();
        assert_eq!(named, ["amount", "items", "recipient"], "{answer}");
    }
    let state = request("resources/read", json!({"uri": "app://windows"}));
    let state: Value = serde_json::from_str(state["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    let window = state["windows"].as_array().unwrap().iter().find(|w| w["id"] == editor.as_str()).unwrap();
    let mut shown: Vec<&str> = window["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["type"] == "notice" && b["severity"] == "error")
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    shown.sort_unstable();
    assert_eq!(shown, ["error-amount", "error-items", "error-recipient"], "the editor shows each: {window}");
}
