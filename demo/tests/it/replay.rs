//! An agent's session as a test (`BridgeBuilder::record`, `testing::Harness::replay`).
//!
//! `demo/tests/recordings/order-claude-code.jsonl` is Claude Code doing the order task against
//! `order-demo --headless --stdio --record FILE`, driven by the real-client runner's scripted
//! model (`python3 demo/tests/real_clients/run.py claude_code order <demo> <tools>` with
//! `REAL_CLIENTS_DEMO_ARGS="--record FILE"`). It is replayed against the demo's UI function in
//! the harness, and fails, naming the call, against the demo with a deliberate bug (every total
//! a cent too much). A session made over stdio now, typing secrets, records none of them and
//! replays with them given by the test.
#![allow(clippy::unwrap_used, reason = "test helpers may unwrap: a panic is a failed test")]

use crate::stdio_hygiene::{CARD, DISPATCHED_PASSWORD, PASSWORD, WRONG_PASSWORD, WRONG_PIN, agent_types_secrets};
use crate::support;

use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};

use egui_mcp_bridge::testing::{Harness, ReplayError};
use egui_mcp_bridge::{Bridge, ErrorCode};
use order_demo::OrderApp;
use serde_json::{Value, json};

/// Claude Code's order task, recorded over stdio.
fn claude_code_order() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recordings/order-claude-code.jsonl")
}

/// `app` in the harness, its bridge built as `order-demo --headless` builds its own.
fn demo(app: impl FnOnce(Bridge) -> OrderApp) -> Harness<'static, OrderApp> {
    let bridge = Bridge::builder().app_name("order-demo").approvals(false).own_window_buttons(true).build();
    let app = app(bridge.clone());
    Harness::builder(&bridge).with_size([1500.0, 950.0]).build_ui_state(|ui, app: &mut OrderApp| app.ui(ui), app)
}

#[test]
fn claude_code_s_order_task_replays_in_the_harness() {
    let mut harness = demo(OrderApp::new);
    let report = harness.replay(claude_code_order()).secret("password", "1234").run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.calls, 6, "open, edit, add an item, submit, confirm, authorize");
    #[expect(clippy::print_stdout, reason = "the replay's time, for the issue's closing note")]
    {
        println!("replayed {} calls in {} passes, {:?}", report.calls, report.passes, report.elapsed);
    }
    let order = harness.state().orders.iter().find(|o| o.label() == "#10004").unwrap();
    assert_eq!(order.recipient, "Grace Hopper", "the replay did what the session did");
}

#[test]
fn a_wrong_total_fails_the_replay_at_the_call_that_shows_it() {
    let mut harness = demo(|bridge| OrderApp::new(bridge).with_wrong_totals());
    let e = harness.replay(claude_code_order()).secret("password", "1234").run().unwrap_err();
    assert_eq!((e.line(), e.tool()), (4, Some("order-10004__add_item")), "{e}");
    let ReplayError::Differs(d) = &e else { panic!("{e}") };
    let said = |o: &egui_mcp_bridge::Outcome| o.as_ref().unwrap().message.clone().unwrap();
    assert!(said(&d.recorded).contains("total $224.30") && said(&d.replayed).contains("total $224.31"), "{e}");
    assert!(d.window.as_ref().is_some_and(|w| w.summary.contains("224.31")), "the window then: {e}");
    let text = e.to_string();
    assert!(text.starts_with("line 4: order-10004__add_item answered differently"), "{text}");
}

#[test]
fn a_missing_secret_fails_before_any_call() {
    let mut harness = demo(OrderApp::new);
    let e = harness.replay(claude_code_order()).run().unwrap_err();
    assert!(matches!(&e, ReplayError::Secret { line: 7, name } if name == "password"), "{e}");
    assert!(harness.state().editors.is_empty(), "nothing was replayed");
    let e = harness.replay(claude_code_order()).secret("password", "4321").run().unwrap_err();
    let ReplayError::Differs(d) = &e else { panic!("{e}") };
    assert_eq!((d.line, d.replayed.as_ref().map_err(|e| e.code).err()), (7, Some(ErrorCode::ValidationFailed)));
}

/// A session over stdio with `--record`: the agent types a card number, two wrong passwords
/// and the right one (one through the dispatcher) and a wrong PIN. None is in the recording,
/// each different value has a placeholder of its own, and the recording replays.
#[test]
fn a_session_over_stdio_records_no_secret_and_replays() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("replay-stdio-{}.jsonl", std::process::id()));
    let mut child = support::spawn_demo(
        &["--headless", "--stdio", "--record", path.to_str().unwrap()],
        &[("RUST_LOG", "warn")],
        &[support::Stream::In, support::Stream::Out],
    );
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut next_id = 0;
    let mut request = |method: &str, params: Value| -> Value {
        next_id += 1;
        writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})).unwrap();
        loop {
            let mut reply = String::new();
            assert!(stdout.read_line(&mut reply).unwrap() > 0, "the demo closed stdout");
            let message: Value = serde_json::from_str(&reply).unwrap();
            if message["id"] == next_id {
                return message;
            }
        }
    };
    let hello = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw-client", "version": "0"}});
    request("initialize", hello);
    agent_types_secrets(&mut request);
    drop(stdin); // the client leaves: the demo writes its last lines and exits
    assert!(child.wait().unwrap().success());

    let recording = std::fs::read_to_string(&path).unwrap();
    for secret in [CARD, WRONG_PASSWORD, DISPATCHED_PASSWORD, WRONG_PIN, &format!("\"{PASSWORD}\"")] {
        assert!(!recording.contains(secret), "{secret} is in the recording:\n{recording}");
    }
    for name in ["card_number", "password", "password#2", "password#3", "pin"] {
        assert!(recording.contains(&format!(r#"{{"$secret":"{name}"}}"#)), "no placeholder {name}:\n{recording}");
    }
    assert!(recording.lines().skip(1).all(|l| l.contains(r#""client":"raw-client""#)), "{recording}");

    let mut harness = demo(OrderApp::new);
    let report = harness
        .replay(&path)
        .secret("card_number", CARD)
        .secret("password", WRONG_PASSWORD)
        .secret("password#2", DISPATCHED_PASSWORD)
        .secret("password#3", PASSWORD)
        .secret("pin", WRONG_PIN)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.calls, recording.lines().count() - 1);
    std::fs::remove_file(&path).unwrap();
}
