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

/// A demo started in `cwd` with this environment, its stderr read until it serves: the demo
/// (killed on drop) and the lines it printed before its URL, the URL line included.
struct Started {
    child: std::process::Child,
    url: String,
    said: String,
}

impl Started {
    fn spawn(args: &[&str], env: &[(&str, &str)], cwd: &std::path::Path) -> Self {
        use std::io::BufRead as _;
        let mut child = std::process::Command::new(crate::support::DEMO)
            .env("EGUI_MCP_BRIDGE_DIR", crate::support::endpoint_folder())
            .args(args)
            .envs(env.iter().copied())
            .env("RUST_LOG", "warn")
            .current_dir(cwd)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start the demo");
        let mut lines = std::io::BufReader::new(child.stderr.take().expect("stderr")).lines();
        let mut said = String::new();
        // The demo prints the URL before it serves; EOF first means it died (the test fails).
        let url = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| {
                said.push_str(&l);
                said.push('\n');
                l.strip_prefix("MCP over streamable HTTP: ").map(str::to_owned)
            })
            .unwrap_or_else(|| panic!("the demo printed its URL; it said:\n{said}"));
        std::thread::Builder::new()
            .name("demo-stderr".into())
            .spawn(move || lines.map_while(Result::ok).for_each(|l| eprintln!("[demo] {l}")))
            .expect("drain stderr");
        Self { child, url, said }
    }

    /// Whether an `initialize` with this token is answered with a result.
    fn accepts(&self, token: &str) -> bool {
        use std::io::{Read as _, Write as _};
        let authority = self.url.trim_start_matches("http://").trim_end_matches("/mcp");
        let mut stream = std::net::TcpStream::connect(authority).expect("connect");
        stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).expect("timeout");
        let body = initialize().to_string();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .expect("send");
        let mut raw = String::new();
        stream.read_to_string(&mut raw).expect("the response");
        raw.contains("\"result\"")
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two demos started at once on a fresh store, a few times: both serve the token that is in
/// the file (before, in 3 of 20 trials one served a token in no file, and its clients were
/// refused until it restarted). `TokenFile`'s own test races starts 50 times in one process.
#[test]
fn two_demos_started_at_once_on_a_fresh_store_serve_the_token_in_the_file() {
    let root = std::env::temp_dir().join(format!("order-demo-token-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for trial in 0..6 {
        let state = root.join(format!("{trial}"));
        let env = [("XDG_STATE_HOME", state.to_str().expect("a UTF-8 path"))];
        let args = ["--headless", "--http", "127.0.0.1:0"];
        let starts: Vec<_> = (0..2)
            .map(|i| {
                let cwd = root.clone();
                let env = env.map(|(k, v)| (k.to_owned(), v.to_owned()));
                std::thread::Builder::new()
                    .name(format!("demo-{i}"))
                    .spawn(move || {
                        std::fs::create_dir_all(&cwd).expect("cwd");
                        let env: Vec<_> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                        Started::spawn(&args, &env, &cwd)
                    })
                    .expect("thread")
            })
            .collect();
        let demos: Vec<Started> = starts.into_iter().map(|s| s.join().expect("started")).collect();
        let token = std::fs::read_to_string(state.join("order-demo/http-token")).expect("the token file");
        let token = token.trim();
        for demo in &demos {
            assert!(demo.accepts(token), "trial {trial}: a demo refuses the token in the file");
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// A relative `XDG_STATE_HOME` is ignored, as the XDG spec says: the token goes under
/// `$HOME/.local/state`, not under wherever the demo was started.
#[test]
fn a_relative_xdg_state_home_is_ignored() {
    let root = std::env::temp_dir().join(format!("order-demo-token-relative-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (home, cwd) = (root.join("home"), root.join("cwd"));
    std::fs::create_dir_all(&home).expect("home");
    std::fs::create_dir_all(&cwd).expect("cwd");
    let env = [("XDG_STATE_HOME", "relative/state"), ("HOME", home.to_str().expect("a UTF-8 path"))];
    let demo = Started::spawn(&["--headless", "--http", "127.0.0.1:0"], &env, &cwd);
    assert!(!cwd.join("relative").exists(), "nothing made under the working folder");
    let token = std::fs::read_to_string(home.join(".local/state/order-demo/http-token")).expect("the token under HOME");
    assert!(demo.accepts(token.trim()));
    drop(demo);
    let _ = std::fs::remove_dir_all(&root);
}

/// `--rotate-token` while another demo serves the store warns that the running one keeps the
/// old token (its clients, given the new one, are refused there until it restarts).
#[test]
fn rotating_while_another_demo_serves_is_warned_about() {
    let root = std::env::temp_dir().join(format!("order-demo-token-rotate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("root");
    let env = [("XDG_STATE_HOME", root.to_str().expect("a UTF-8 path"))];
    let running = Started::spawn(&["--headless", "--http", "127.0.0.1:0"], &env, &root);
    let rotated = Started::spawn(&["--headless", "--http", "127.0.0.1:0", "--rotate-token"], &env, &root);
    assert!(
        rotated.said.contains("already running") && rotated.said.contains("old token"),
        "the rotation warns about the running demo: {}",
        rotated.said
    );
    let token = std::fs::read_to_string(root.join("order-demo/http-token")).expect("the token file");
    assert!(rotated.accepts(token.trim()));
    assert!(!token.is_empty() && !rotated.said.contains(token.trim()), "the token is never printed");
    drop((running, rotated));
    let _ = std::fs::remove_dir_all(&root);
}
