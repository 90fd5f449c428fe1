//! `order-demo --stdio` attaches to the order-demo already running for this user instead of
//! starting a copy: the clients share the running app, it outlives them, and with none running
//! `--stdio` serves on its own as before. Each test has a folder of endpoints of its own
//! (`EGUI_MCP_BRIDGE_DIR`), except the one under Xvfb, which runs a client configured exactly
//! as the README says.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{DEMO, DemoHttp, Xvfb, endpoint_folder, python};

const WAIT: Duration = Duration::from_secs(30);

/// An MCP client speaking newline-delimited JSON-RPC to a process it started, as a stdio client
/// does: answers by id (notifications skipped), each wait bounded.
struct LineClient {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    lines: mpsc::Receiver<Value>,
    stderr: std::thread::JoinHandle<String>,
    next_id: u64,
}

impl LineClient {
    fn start(child: Child) -> Self {
        Self::start_as(child, "order-demo")
    }

    /// A client of the app whose `serverInfo.name` is `server`.
    fn start_as(mut child: Child, server: &str) -> Self {
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (tx, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name("client-stdout".into())
            .spawn(move || {
                for line in stdout.lines().map_while(Result::ok) {
                    let message =
                        serde_json::from_str(&line).unwrap_or_else(|_| panic!("stdout carries JSON-RPC only: {line}"));
                    if tx.send(message).is_err() {
                        break;
                    }
                }
            })
            .expect("read stdout");
        let mut err = child.stderr.take().expect("stderr");
        let stderr = std::thread::Builder::new()
            .name("client-stderr".into())
            .spawn(move || {
                let mut text = String::new();
                let _ = std::io::Read::read_to_string(&mut err, &mut text);
                text
            })
            .expect("read stderr");
        let mut client = Self { child, stdin, lines, stderr, next_id: 0 };
        let init = client.request(
            "initialize",
            &json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "claude-ai", "version": "0"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], server, "{init}");
        client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{message}").expect("write");
        stdin.flush().expect("flush");
    }

    fn request(&mut self, method: &str, params: &Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.lines.recv_timeout(WAIT).expect("an answer in time");
            if message["id"] == id {
                return message;
            }
        }
    }

    fn call(&mut self, tool: &str, args: &Value) -> Value {
        let answer = self.request("tools/call", &json!({"name": tool, "arguments": args}));
        assert_ne!(answer["result"]["isError"], true, "{tool}: {answer}");
        answer["result"]["structuredContent"].clone()
    }

    fn state(&mut self) -> Value {
        let answer = self.request("resources/read", &json!({"uri": "app://windows"}));
        serde_json::from_str(answer["result"]["contents"][0]["text"].as_str().expect("text")).expect("JSON")
    }

    fn window_ids(&mut self) -> Vec<String> {
        let state = self.state();
        state["windows"]
            .as_array()
            .expect("windows")
            .iter()
            .filter_map(|w| w["id"].as_str().map(str::to_owned))
            .collect()
    }

    /// Closes stdin, as a client that quits does; waits for the process to end and returns its
    /// stderr.
    fn quit(mut self) -> String {
        drop(self.stdin.take());
        let (tx, rx) = mpsc::channel();
        let mut child = self.child;
        std::thread::Builder::new()
            .name("client-wait".into())
            .spawn(move || {
                let _ = tx.send(child.wait());
            })
            .expect("wait");
        let status = rx.recv_timeout(WAIT).expect("the process ends once its client quits").expect("status");
        assert!(status.success(), "{status}");
        self.stderr.join().expect("stderr")
    }
}

/// `order-demo ARGS` as a stdio client starts it, with this folder of endpoints and no display.
fn stdio_demo(args: &[&str], folder: &std::path::Path) -> Child {
    stdio_program(std::path::Path::new(DEMO), args, folder)
}

/// `program ARGS` as a stdio client starts it, with this folder of endpoints and no display.
fn stdio_program(program: &std::path::Path, args: &[&str], folder: &std::path::Path) -> Child {
    Command::new(program)
        .args(args)
        .env("EGUI_MCP_BRIDGE_DIR", folder)
        .env("RUST_LOG", "warn")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the program")
}

/// How many visible X windows on `x` have exactly this name.
fn windows_named(x: &Xvfb, name: &str) -> usize {
    let out = Command::new("xdotool")
        .args(["search", "--onlyvisible", "--name", &format!("^{name}$")])
        .env("DISPLAY", &x.display)
        .output()
        .expect("xdotool is needed (Debian: apt-get install xdotool)");
    String::from_utf8_lossy(&out.stdout).lines().count()
}

/// `demo/examples/hello_bridge` (the README's first example), built if a filtered test run
/// did not build it.
fn hello_bridge() -> std::path::PathBuf {
    let path = std::path::Path::new(DEMO).with_file_name("examples").join("hello_bridge");
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "-p", "order-demo", "--example", "hello_bridge"])
            .status()
            .expect("cargo");
        assert!(status.success(), "building hello_bridge");
    }
    path
}

/// Starts `hello_bridge` as a person does (no arguments) on `x`, serving its local endpoint in
/// `folder`, and waits until its socket is there.
fn open_hello_bridge(x: &Xvfb, folder: &std::path::Path) -> Child {
    let open = Command::new(hello_bridge())
        .env("DISPLAY", &x.display)
        .env("EGUI_MCP_BRIDGE_DIR", folder)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hello_bridge");
    let socket = folder.join(format!("counter.{}.sock", open.id()));
    let started = std::time::Instant::now();
    while !socket.exists() {
        assert!(started.elapsed() < WAIT, "hello_bridge, started by a person, serves its local endpoint");
        std::thread::sleep(Duration::from_millis(100));
    }
    open
}

/// Waits until `x` shows `n` windows named `name`.
fn wait_for_windows(x: &Xvfb, name: &str, n: usize) {
    let started = std::time::Instant::now();
    while windows_named(x, name) != n {
        assert!(started.elapsed() < WAIT, "{n} windows named {name:?} (now {})", windows_named(x, name));
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The same for an app built with the library by adding the README's lines: `hello_bridge`
/// (the README's first example) opened by a person in a window; the same program started as a
/// client starts it (`--stdio`) drives that one, and quitting leaves it open.
#[test]
fn an_app_with_the_readme_lines_attaches_the_same_way() {
    let x = Xvfb::start();
    let folder = endpoint_folder();
    let program = hello_bridge();
    let mut open = open_hello_bridge(&x, &folder);
    wait_for_windows(&x, "counter", 1);
    let mut agent = LineClient::start_as(stdio_program(&program, &["--stdio"], &folder), "counter");
    let state = agent.state();
    let version = state["windows"][0]["version"].as_u64().expect("a version");
    agent.call("counter__add", &json!({"amount": 2, "expectedVersion": version}));
    let mut another = LineClient::start_as(stdio_program(&program, &["--stdio"], &folder), "counter");
    let summary = another.state()["windows"][0]["summary"].as_str().unwrap_or_default().to_owned();
    assert_eq!(summary, "2 apples", "the second client sees the first one's call");
    let said = agent.quit();
    assert!(said.contains(&format!("pid {}", open.id())), "{said}");
    another.quit();
    assert_eq!(windows_named(&x, "counter"), 1, "no second window appeared");
    assert!(open.try_wait().is_ok_and(|s| s.is_none()), "quitting left the counter open");
    let _ = open.kill();
    let _ = open.wait();
}

/// Issue 45: the README's first example started twice by a person (no arguments: a launcher,
/// a terminal) opens two windows, each the person's; started with `--stdio` while they run,
/// it attaches to the newest and opens none.
#[test]
fn the_readme_example_started_twice_shows_two_windows_and_stdio_attaches_without_one() {
    let x = Xvfb::start();
    let folder = endpoint_folder();
    let mut first = open_hello_bridge(&x, &folder);
    wait_for_windows(&x, "counter", 1);
    let mut second = open_hello_bridge(&x, &folder);
    wait_for_windows(&x, "counter", 2);
    assert!(first.try_wait().is_ok_and(|s| s.is_none()), "the first one still runs");

    // Given the display, as a client on the person's desktop would: were it to start a copy
    // of its own, a third window would show.
    let client = Command::new(hello_bridge())
        .arg("--stdio")
        .env("DISPLAY", &x.display)
        .env("EGUI_MCP_BRIDGE_DIR", &folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hello_bridge --stdio");
    let mut agent = LineClient::start_as(client, "counter");
    assert!(agent.window_ids().contains(&"counter".to_owned()));
    assert_eq!(windows_named(&x, "counter"), 2, "the --stdio start opened no window");
    let said = agent.quit();
    assert!(said.contains(&format!("pid {}", second.id())), "it attached to the newest: {said}");
    for open in [&mut first, &mut second] {
        assert!(open.try_wait().is_ok_and(|s| s.is_none()), "both windows stay");
        let _ = open.kill();
        let _ = open.wait();
    }
}

/// An instance running headless; two `--stdio` processes started as a client would: both see
/// one state, their calls change the instance, and the instance outlives both.
#[test]
fn two_stdio_clients_drive_the_running_demo_and_it_outlives_both() {
    let folder = endpoint_folder();
    let folder_env = folder.to_string_lossy().into_owned();
    let mut instance = DemoHttp::spawn(
        &["--headless", "--http", "127.0.0.1:0", "--no-token"],
        &[("EGUI_MCP_BRIDGE_DIR", folder_env.as_str())],
    );
    let mut first = LineClient::start(stdio_demo(&["--stdio"], &folder));
    let mut second = LineClient::start(stdio_demo(&["--stdio"], &folder));
    let opened = first.call("orders__open_order", &json!({"order": "#10004"}));
    assert_eq!(opened["openedWindowIds"], json!(["order-10004"]), "{opened}");
    assert!(second.window_ids().contains(&"order-10004".to_owned()), "the second client sees what the first opened");
    second.call("orders__open_order", &json!({"order": "#10005"}));
    assert!(first.window_ids().contains(&"order-10005".to_owned()), "and the first what the second opened");
    let said = first.quit();
    assert!(
        said.contains(&format!("attached to the running instance, pid {}", instance.pid())),
        "stderr names it: {said}"
    );
    assert!(instance.is_running(), "the first client's quitting leaves the instance running");
    second.call("orders__load_orders", &json!({"limit": 1}));
    second.quit();
    assert!(instance.is_running(), "the instance outlives both");
    let ids = instance.window_ids();
    assert!(ids.contains(&"order-10004".to_owned()) && ids.contains(&"order-10005".to_owned()), "{ids:?}");
}

/// With none running, `--stdio` starts the demo as before, and a later `--stdio` attaches to
/// it; `--headless --stdio` is a copy of its own; `--instance` naming none is an error.
#[test]
fn with_none_running_stdio_serves_on_its_own_and_later_clients_attach_to_it() {
    let folder = endpoint_folder();
    let mut started = LineClient::start(stdio_demo(&["--stdio"], &folder));
    let pid = started.child.id();
    assert!(folder.join(format!("order-demo.{pid}.sock")).exists(), "it serves its own endpoint");
    let mut later = LineClient::start(stdio_demo(&["--stdio"], &folder));
    later.call("orders__open_order", &json!({"order": "#10004"}));
    assert!(started.window_ids().contains(&"order-10004".to_owned()), "the later client drove the started demo");

    let mut own = LineClient::start(stdio_demo(&["--headless", "--stdio"], &folder));
    assert!(!own.window_ids().contains(&"order-10004".to_owned()), "--headless --stdio is a copy of its own");
    let sockets = std::fs::read_dir(&folder).expect("folder").count();
    assert_eq!(sockets, 1, "and lets nobody attach to it");
    own.quit();

    let out = Command::new(DEMO)
        .args(["--stdio", "--instance", "4000000"])
        .env("EGUI_MCP_BRIDGE_DIR", &folder)
        .stdin(Stdio::piped())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2), "an instance named that does not run is an error");
    assert!(String::from_utf8_lossy(&out.stderr).contains("4000000"));

    let said = later.quit();
    assert!(said.contains(&format!("pid {pid}")), "{said}");
    started.quit();
}

/// Waits (bounded) for `child` to end; its status and stderr. Its stdin stays open meanwhile,
/// as a client's does: a process that serves instead of ending fails the wait.
fn ends(mut child: Child) -> (std::process::ExitStatus, String) {
    let mut err = child.stderr.take().expect("stderr");
    let stderr = std::thread::Builder::new()
        .name("child-stderr".into())
        .spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
            text
        })
        .expect("read stderr");
    let (tx, rx) = mpsc::channel();
    let pid = child.id();
    let waiter = std::thread::Builder::new()
        .name("child-wait".into())
        .spawn(move || {
            let status = child.wait();
            let _ = tx.send(());
            (child, status)
        })
        .expect("wait");
    if rx.recv_timeout(WAIT).is_err() {
        let _ = Command::new("kill").arg(pid.to_string()).status();
        let (_, status) = waiter.join().expect("waited");
        panic!("it did not end (it served instead: {status:?}): {}", stderr.join().unwrap_or_default());
    }
    let (_, status) = waiter.join().expect("waited");
    (status.expect("status"), stderr.join().expect("stderr"))
}

/// An instance named by `EGUI_MCP_BRIDGE_INSTANCE` that does not run fails as `--instance`
/// does (status 2, the pid named), instead of starting a copy of its own (it did).
#[test]
fn an_instance_named_by_the_environment_that_does_not_run_is_an_error() {
    let folder = endpoint_folder();
    for (args, env) in [(&["--stdio"][..], Some("4000000")), (&["--stdio", "--instance", "4000000"][..], None)] {
        let mut command = Command::new(DEMO);
        command
            .args(args)
            .env("EGUI_MCP_BRIDGE_DIR", &folder)
            .env("RUST_LOG", "warn")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match env {
            Some(pid) => command.env("EGUI_MCP_BRIDGE_INSTANCE", pid),
            None => command.env_remove("EGUI_MCP_BRIDGE_INSTANCE"),
        };
        let (status, said) = ends(command.spawn().expect("start"));
        assert_eq!(status.code(), Some(2), "{args:?} {env:?}: {said}");
        assert!(said.contains("4000000"), "{said}");
    }
}

/// A client whose relay the running demo turns away (it serves `MAX_LOCAL_CONNECTIONS` agents
/// already) is told: its `initialize` gets a JSON-RPC error naming the limit, and the command
/// exits non-zero with the reason on stderr, never saying it attached (it said "attached",
/// never answered and exited 0).
#[test]
fn a_client_turned_away_at_the_limit_gets_an_error_and_a_non_zero_exit() {
    use std::os::unix::net::UnixStream;
    let folder = endpoint_folder();
    let folder_env = folder.to_string_lossy().into_owned();
    let demo = DemoHttp::spawn(
        &["--headless", "--http", "127.0.0.1:0", "--no-token"],
        &[("EGUI_MCP_BRIDGE_DIR", &folder_env)],
    );
    let socket = folder.join(format!("order-demo.{}.sock", demo.pid()));
    let max = egui_mcp_bridge::limits::MAX_LOCAL_CONNECTIONS;
    let mut served = Vec::new();
    for n in 0..max {
        let mut s = UnixStream::connect(&socket).expect("the demo's endpoint");
        s.set_read_timeout(Some(WAIT)).expect("timeout");
        let init = json!({"jsonrpc": "2.0", "id": n, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}});
        writeln!(s, "{init}").expect("send");
        let mut line = String::new();
        BufReader::new(&mut s).read_line(&mut line).expect("an answer");
        assert!(line.contains("serverInfo"), "served: {line}");
        served.push(s);
    }
    let mut child = stdio_demo(&["--stdio"], &folder);
    let mut stdin = child.stdin.take().expect("stdin");
    let init = json!({"jsonrpc": "2.0", "id": 41, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "claude-ai", "version": "0"}}});
    writeln!(stdin, "{init}").expect("send");
    stdin.flush().expect("flush");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("client-stdout".into())
        .spawn(move || {
            let mut line = String::new();
            let _ = stdout.read_line(&mut line);
            let _ = tx.send(line);
        })
        .expect("read stdout");
    let line = rx.recv_timeout(WAIT).expect("an answer in time");
    let answer: Value = serde_json::from_str(&line).unwrap_or_else(|_| panic!("a JSON-RPC answer: {line:?}"));
    assert_eq!(answer["id"], 41, "{answer}");
    assert!(answer["error"]["message"].as_str().is_some_and(|m| m.contains(&max.to_string())), "{answer}");
    let (status, said) = ends(child);
    drop(stdin);
    assert!(!status.success() && status.code().is_some(), "a non-zero exit: {status} {said}");
    assert!(said.contains(&max.to_string()) && !said.contains("attached"), "the reason, not 'attached': {said}");
    drop(served);
}

/// The issue's own check: with the demo open in a window, a stdio client configured exactly as
/// the README says (command `order-demo`, args `["--stdio"]`, no environment of its own; here the
/// official Python SDK, which passes a server only `HOME`, `PATH` and a few others) drives that
/// open window, no second window appears, and quitting the client leaves it open. It uses the
/// user's real folder of endpoints: every other test keeps its demos in folders of their own.
#[test]
fn a_client_configured_as_the_readme_says_drives_the_open_window_and_leaves_it_open() {
    let mut x = Xvfb::start();
    let tmp = std::env::temp_dir();
    let env = [
        ("DISPLAY", x.display.as_str()),
        ("XDG_RUNTIME_DIR", tmp.to_str().unwrap_or("/tmp")),
        ("EGUI_MCP_BRIDGE_DIR", ""),
    ];
    let mut open = DemoHttp::spawn(&["--http", "127.0.0.1:0", "--no-token"], &env);
    let windows = |x: &Xvfb| windows_named(x, "Order demo .*");
    let shown = std::time::Instant::now();
    while windows(&x) == 0 {
        if shown.elapsed() > WAIT {
            let tree = Command::new("xwininfo")
                .args(["-root", "-tree"])
                .env("DISPLAY", &x.display)
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
            panic!(
                "the demo's window appears (the demo runs: {}, Xvfb runs: {}); windows: {tree:?}",
                open.is_running(),
                x.is_running()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/attach_client.py");
    let out = Command::new(python())
        .arg(script)
        .arg(DEMO)
        .env("DISPLAY", &x.display)
        .env_remove("EGUI_MCP_BRIDGE_DIR")
        .output()
        .expect("run the Python client");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && stdout.contains("PASS attach"), "{}\n{stdout}\n{stderr}", out.status);
    assert!(stderr.contains(&format!("pid {}", open.pid())), "the relay named the open demo: {stderr}");
    assert!(open.window_ids().contains(&"order-10004".to_owned()), "the open window was driven");
    assert_eq!(windows(&x), 1, "no second window appeared");
    assert!(open.is_running(), "quitting the client left the demo open");
}

/// Several running: the newest is chosen and named on stderr, with how many more run; the
/// person picks another by its process id.
#[test]
fn the_newest_instance_is_chosen_and_another_can_be_named() {
    let folder = endpoint_folder();
    let folder_env = folder.to_string_lossy().into_owned();
    let env = [("EGUI_MCP_BRIDGE_DIR", folder_env.as_str())];
    let args = ["--headless", "--http", "127.0.0.1:0", "--no-token"];
    let older = DemoHttp::spawn(&args, &env);
    let newer = DemoHttp::spawn(&args, &env);
    let mut client = LineClient::start(stdio_demo(&["--stdio"], &folder));
    client.call("orders__open_order", &json!({"order": "#10004"}));
    let said = client.quit();
    assert!(said.contains(&format!("pid {}", newer.pid())) && said.contains("1 more running"), "{said}");
    assert!(newer.window_ids().contains(&"order-10004".to_owned()));
    assert!(!older.window_ids().contains(&"order-10004".to_owned()));
    let pid = older.pid().to_string();
    let mut client = LineClient::start(stdio_demo(&["--stdio", "--instance", &pid], &folder));
    client.call("orders__open_order", &json!({"order": "#10005"}));
    let said = client.quit();
    assert!(said.contains(&format!("pid {pid}")), "{said}");
    assert!(older.window_ids().contains(&"order-10005".to_owned()));
}

/// A demo window a client started (`--stdio`, none running) is the person's once open: when
/// that client quits, the window stays, and the next client attaches to it.
#[test]
fn a_window_a_client_started_stays_open_when_the_client_quits() {
    let x = Xvfb::start();
    let folder = endpoint_folder();
    let mut started = Command::new(DEMO)
        .arg("--stdio")
        .env("DISPLAY", &x.display)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env("EGUI_MCP_BRIDGE_DIR", &folder)
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the demo");
    // Its log, line by line: the line that says the client left is what the test waits for.
    let (tx, log) = mpsc::channel();
    let stderr = BufReader::new(started.stderr.take().expect("stderr"));
    std::thread::Builder::new()
        .name("demo-log".into())
        .spawn(move || stderr.lines().map_while(Result::ok).try_for_each(|l| tx.send(l)))
        .expect("read the log");
    let mut stdin = started.stdin.take().expect("stdin");
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "claude-ai", "version": "0"}}})
    )
    .expect("write");
    let mut stdout = BufReader::new(started.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("the answer");
    assert!(line.contains("serverInfo"), "{line}");
    let shown = std::time::Instant::now();
    while windows_named(&x, "Order demo .*") == 0 {
        assert!(shown.elapsed() < WAIT, "the demo's window appears");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(stdin); // the client quits
    loop {
        let said = log.recv_timeout(WAIT).expect("the demo says its client left");
        if said.contains("the window stays open") {
            break;
        }
    }
    assert!(started.try_wait().is_ok_and(|s| s.is_none()), "the demo still runs");
    let mut next = LineClient::start(stdio_demo(&["--stdio"], &folder));
    next.call("orders__open_order", &json!({"order": "#10004"}));
    let said = next.quit();
    assert!(said.contains(&format!("pid {}", started.id())), "the next client attached to it: {said}");
    assert_eq!(windows_named(&x, "Order demo .*"), 1);
    let _ = started.kill();
    let _ = started.wait();
}
