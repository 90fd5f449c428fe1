//! The HTTP token outlives a restart: by default the demo keeps it in a per-user file (here
//! under a temporary `XDG_STATE_HOME`), private, made on first use and reused after, so a
//! client configured once connects to the next start without changes; `--rotate-token` gives a
//! new one, and the old one is refused.

use crate::support::DemoHttp;

use serde_json::{Value, json};

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
}

/// Whether an `initialize` with this token is answered with a result.
fn accepted(demo: &DemoHttp, token: &str) -> bool {
    let (_, message) = demo.post_as(Some(token), None, &initialize());
    message.is_some_and(|m| m.get("result").is_some())
}

#[test]
fn the_token_outlives_a_restart_and_rotates_on_request() {
    let state = std::env::temp_dir().join(format!("order-demo-token-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    let env = [("XDG_STATE_HOME", state.to_str().expect("a UTF-8 path"))];
    let file = state.join("order-demo/http-token");
    let read = || std::fs::read_to_string(&file).expect("the token file").trim().to_owned();
    let args = ["--headless", "--http", "127.0.0.1:0"];

    let first = DemoHttp::spawn(&args, &env);
    let token = read();
    assert_eq!(token.len(), 64, "32 random bytes as hex");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&file).expect("metadata").permissions().mode();
        assert_eq!(mode & 0o077, 0, "only the user can read it: {mode:o}");
    }
    assert!(accepted(&first, &token));
    assert!(!accepted(&first, "not-the-token"), "a wrong token is refused");
    drop(first);
    assert_eq!(read(), token, "kept when the demo ends");

    // The next start serves the same token: a client configured once connects unchanged.
    let second = DemoHttp::spawn(&args, &env);
    assert_eq!(read(), token);
    assert!(accepted(&second, &token));
    drop(second);

    // Rotation: a new token; the old one is refused.
    let rotated = DemoHttp::spawn(&["--headless", "--http", "127.0.0.1:0", "--rotate-token"], &env);
    let new = read();
    assert_ne!(new, token, "a new token");
    assert!(accepted(&rotated, &new));
    assert!(!accepted(&rotated, &token), "the old token is refused");
    drop(rotated);
    let _ = std::fs::remove_dir_all(&state);
}
