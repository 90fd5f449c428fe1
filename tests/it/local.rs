//! The per-user local endpoint and the stdio relay, in process: clients relayed to a running app
//! share it on both lifecycles, the app says who attached and left, and what the endpoint may
//! meet (a stale socket, a planted link, another user, a 5 MiB line, a client that stops
//! reading, too many connections) is refused, replaced, skipped or contained.

#![allow(clippy::unwrap_used, reason = "tests")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::limits::{MAX_LOCAL_CONNECTIONS, MAX_LOCAL_WAITING};
use egui_mcp_bridge::serve::{Attach, Attached};
use egui_mcp_bridge::state::ConnectionEvent;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};

use crate::common::{BOTH, Client, Lifecycle, Rig, WAIT, window};

/// A fresh private folder for one test's endpoint.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("egui-mcp-local-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The test app serving its local endpoint in `dir`.
fn app_in(dir: &Path) -> (Rig, PathBuf) {
    let rig = Rig::start_with(Bridge::builder().app_name("test-app").local_endpoint_in(dir));
    let socket = rig.bridge.serve_local().expect("the local endpoint opens");
    assert_eq!(rig.bridge.local_endpoint().as_deref(), Some(socket.as_path()));
    (rig, socket)
}

/// A client of `name` relayed to the app in `dir`, as `my-app --stdio` relays its own stdio.
async fn relayed(dir: &Path, lifecycle: Lifecycle, name: &'static str) -> (Client, tokio::task::JoinHandle<Attached>) {
    let (client_io, relay_io) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(relay_io);
    let attach = Attach::new("test-app").folder(dir);
    let relay = tokio::spawn(async move { attach.relay(read, write).await.expect("relays") });
    (Client::connect(client_io, lifecycle, name).await, relay)
}

/// The activity log's connection records, oldest first.
fn connections(bridge: &Bridge) -> Vec<(ConnectionEvent, String)> {
    bridge.activity().into_iter().filter_map(|r| r.connection.map(|c| (c, r.message))).collect()
}

/// Two clients, one on each lifecycle, relayed to one running app: each sees what the other
/// did, notifications included; when one leaves, the app and the other go on, and the person's
/// activity list says who attached and who left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relayed_clients_share_the_running_app_on_both_lifecycles() {
    let dir = folder("share");
    let (rig, _socket) = app_in(&dir);
    rig.until(|s| !s.windows.is_empty()).await;
    for first in BOTH {
        let second = if first == Lifecycle::Legacy { Lifecycle::Modern } else { Lifecycle::Legacy };
        let (a, relay_a) = relayed(&dir, first, "claude-code").await;
        let (mut b, _relay_b) = relayed(&dir, second, "test-client").await;
        b.subscribe().await;
        let version = a.version("main").await;
        let name = format!("set through {first:?}");
        a.call("main__set_name", json!({"name": name, "expectedVersion": version})).await.ok();
        b.expect_note(crate::common::Note::Updated("app://windows".into())).await;
        let state = b.read().await;
        assert!(
            window(&state, "main")["summary"].as_str().unwrap().contains(&name),
            "the other client sees it: {state}"
        );
        assert_eq!(rig.state.lock().name, name, "the running app itself changed");
        // The first client goes; its relay ends, the app and the second client do not.
        drop(a);
        let attached = tokio::time::timeout(WAIT, relay_a).await.expect("the relay ends").unwrap();
        assert!(attached.relayed());
        let version = b.version("main").await;
        b.call("main__set_name", json!({"name": "after", "expectedVersion": version})).await.ok();
        assert_eq!(rig.state.lock().name, "after");
    }
    let seen = connections(&rig.bridge);
    assert!(seen.iter().filter(|(e, _)| *e == ConnectionEvent::Attached).count() >= 4, "{seen:?}");
    assert!(
        seen.contains(&(ConnectionEvent::Left, "An agent left (claude-code)".to_owned())),
        "named by its label: {seen:?}"
    );
}

/// Raw lines through a relay: what a client writes and reads, byte for byte.
struct RawRelay {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    read: BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
}

impl RawRelay {
    fn start(dir: &Path, pipe: usize) -> Self {
        let (client_io, relay_io) = tokio::io::duplex(pipe);
        let (read, write) = tokio::io::split(relay_io);
        let attach = Attach::new("test-app").folder(dir);
        tokio::spawn(async move { attach.relay(read, write).await });
        let (read, write) = tokio::io::split(client_io);
        Self { write, read: BufReader::new(read) }
    }

    async fn send(&mut self, line: &[u8]) {
        self.write.write_all(line).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn answer(&mut self) -> Value {
        let mut line = String::new();
        tokio::time::timeout(WAIT, self.read.read_line(&mut line)).await.expect("an answer in time").unwrap();
        serde_json::from_str(&line).expect("a JSON line")
    }
}

fn initialize(id: u64) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}))
    .unwrap()
}

/// A 5 MiB line through the relay is refused by the app (as on stdio), and the connection
/// goes on: the relay holds no line whole, so it passes any length through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_over_four_mib_through_the_relay_is_refused_and_the_connection_goes_on() {
    let dir = folder("long");
    let (_rig, _socket) = app_in(&dir);
    let mut relay = RawRelay::start(&dir, 64 * 1024);
    let mut long = br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":""#.to_vec();
    long.resize(5 * 1024 * 1024, b'a');
    long.extend_from_slice(br#""}}"#);
    relay.send(&long).await;
    let refused = relay.answer().await;
    assert!(refused["error"]["code"].is_i64(), "refused with an error: {refused}");
    assert!(
        refused["error"]["message"].as_str().unwrap().contains("4194304")
            || refused["error"]["message"].as_str().unwrap().to_lowercase().contains("long"),
        "{refused}"
    );
    relay.send(&initialize(8)).await;
    let answer = relay.answer().await;
    assert_eq!(answer["id"], 8, "{answer}");
    assert_eq!(answer["result"]["serverInfo"]["name"], "test-app");
}

/// A relay whose client stops reading holds up nobody: the app's passes and another relayed
/// agent go on while its answers back up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_whose_client_stops_reading_stalls_neither_the_app_nor_another_agent() {
    let dir = folder("stall");
    let (rig, _socket) = app_in(&dir);
    rig.until(|s| !s.windows.is_empty()).await;
    // A pipe of 256 bytes that the client never reads: the relay, then the socket, then the
    // app's writer for that connection fill up.
    let mut stuck = RawRelay::start(&dir, 256);
    stuck.send(&initialize(1)).await;
    stuck.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    let read = br#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"app://windows"}}"#;
    // Until everything between is full: the relay's pipe, the socket, the app's writer for that
    // connection, and then its reading, so that the client's own writes are no longer taken.
    let mut full = false;
    for _ in 0..20_000 {
        if tokio::time::timeout(Duration::from_millis(200), stuck.send(read)).await.is_err() {
            full = true;
            break;
        }
    }
    assert!(full, "the stuck client's connection filled up");
    let (b, _relay_b) = relayed(&dir, Lifecycle::Legacy, "test-client").await;
    for n in 0..5 {
        let version = b.version("main").await;
        b.call("main__set_name", json!({"name": format!("go on {n}"), "expectedVersion": version})).await.ok();
    }
    assert_eq!(rig.state.lock().name, "go on 4", "the app applied every call of the other agent");
    drop(stuck);
}

/// No running instance: the relay says so at once and the app starts as before; an instance
/// named that does not run is an error, not a copy started in its place.
#[tokio::test]
async fn with_no_instance_the_relay_returns_at_once() {
    let dir = folder("none");
    let (read, write) = tokio::io::split(tokio::io::duplex(64).0);
    let attached = Attach::new("test-app").folder(&dir).relay(read, write).await.unwrap();
    assert!(!attached.relayed());
    let (read, write) = tokio::io::split(tokio::io::duplex(64).0);
    let err = Attach::new("test-app").folder(&dir).instance(Some(4_000_000)).relay(read, write).await.unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    assert!(err.to_string().contains("4000000"), "{err}");
}

/// A socket left by an instance that is gone is found stale and removed, by the next app and by
/// the relay; one at the app's own name (a process id used again) is replaced.
#[tokio::test]
async fn stale_endpoints_are_removed_and_replaced() {
    let dir = folder("stale");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let gone = dir.join("test-app.4000001.sock");
    drop(std::os::unix::net::UnixListener::bind(&gone).unwrap());
    assert!(gone.exists(), "a socket nobody listens on");
    assert!(Attach::new("test-app").folder(&dir).instances().unwrap().is_empty());
    assert!(!gone.exists(), "the relay removed it");
    let ours = dir.join(format!("test-app.{}.sock", std::process::id()));
    drop(std::os::unix::net::UnixListener::bind(&ours).unwrap());
    let other = dir.join("test-app.4000002.sock");
    drop(std::os::unix::net::UnixListener::bind(&other).unwrap());
    let (_rig, socket) = app_in(&dir);
    assert_eq!(socket, ours);
    assert!(!other.exists(), "the app removed a stale endpoint of its kind");
    let live = Attach::new("test-app").folder(&dir).instances().unwrap();
    assert_eq!(live.len(), 1, "{live:?}");
    assert_eq!(live[0].pid, std::process::id());
}

/// A link planted under an endpoint's name is skipped, never followed or removed; a folder that
/// is a link is refused by the app and by the relay, with its path named.
#[tokio::test]
async fn planted_links_are_never_followed() {
    let dir = folder("links");
    let (_rig, socket) = app_in(&dir);
    let planted = dir.join("test-app.4000003.sock");
    std::os::unix::fs::symlink(&socket, &planted).unwrap();
    let live = Attach::new("test-app").folder(&dir).instances().unwrap();
    assert_eq!(live.iter().map(|i| i.pid).collect::<Vec<_>>(), [std::process::id()], "the link is not an instance");
    assert!(std::fs::symlink_metadata(&planted).is_ok(), "and is left where it is");

    let real = folder("links-real");
    std::fs::create_dir_all(&real).unwrap();
    let link = folder("links-folder");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let rig = Rig::start_with(Bridge::builder().app_name("test-app").local_endpoint_in(&link));
    let err = rig.bridge.serve_local().unwrap_err();
    assert!(err.to_string().contains(&*link.to_string_lossy()) && err.to_string().contains("link"), "{err}");
    let err = Attach::new("test-app").folder(&link).instances().unwrap_err();
    assert!(err.to_string().contains("link"), "{err}");
    let _ = std::fs::remove_file(&link);
}

/// `n` connections to `socket` that the app serves: each sent `initialize` and was answered.
async fn served(socket: &Path, n: usize) -> Vec<tokio::net::UnixStream> {
    let mut open = Vec::new();
    for k in 0..n {
        let mut s = tokio::net::UnixStream::connect(socket).await.unwrap();
        s.write_all(&initialize(k as u64)).await.unwrap();
        s.write_all(b"\n").await.unwrap();
        let mut line = String::new();
        let mut r = BufReader::new(&mut s);
        tokio::time::timeout(WAIT, r.read_line(&mut line)).await.unwrap().unwrap();
        assert!(line.contains("serverInfo"), "served: {line}");
        open.push(s);
    }
    open
}

/// A connection beyond [`MAX_LOCAL_CONNECTIONS`] is refused loudly: its `initialize` is answered
/// with a JSON-RPC error under its id as sent, naming the limit, and the connection closed; the
/// ones served go on, and once one leaves there is room again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_limit_are_refused_with_an_error() {
    let dir = folder("limit");
    let (_rig, socket) = app_in(&dir);
    let mut open = served(&socket, MAX_LOCAL_CONNECTIONS).await;
    let mut extra = tokio::net::UnixStream::connect(&socket).await.unwrap();
    let init = br#"{"jsonrpc":"2.0","id":419087.31351648643,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    extra.write_all(init).await.unwrap();
    extra.write_all(b"\n").await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(WAIT, extra.read_to_string(&mut answer)).await.expect("answered, then closed").unwrap();
    assert!(answer.contains(r#""id":419087.31351648643,"#), "its id as sent: {answer}");
    let error: Value = serde_json::from_str(answer.trim()).expect("one JSON line");
    assert!(error["error"]["code"].is_i64(), "{error}");
    assert!(error["error"]["message"].as_str().unwrap().contains(&MAX_LOCAL_CONNECTIONS.to_string()), "{error}");
    drop(open.pop());
    // Room again once one left (its end is seen by the app's reader first).
    let served = async {
        loop {
            let mut s = tokio::net::UnixStream::connect(&socket).await.unwrap();
            let _ = s.write_all(&initialize(100)).await;
            let _ = s.write_all(b"\n").await;
            let mut line = String::new();
            let _ = BufReader::new(&mut s).read_line(&mut line).await;
            if line.contains("serverInfo") {
                return line;
            }
            tokio::task::yield_now().await;
        }
    };
    assert!(tokio::time::timeout(WAIT, served).await.expect("room again").contains("serverInfo"));
}

/// A relay turned away at the limit is loud: its client's `initialize` gets the app's JSON-RPC
/// error, and the relay ends with an error naming the limit (the stdio command then exits
/// non-zero with it), not as if it had been served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_turned_away_at_the_limit_says_so() {
    let dir = folder("limit-relay");
    let (_rig, socket) = app_in(&dir);
    let _open = served(&socket, MAX_LOCAL_CONNECTIONS).await;
    let (client_io, relay_io) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(relay_io);
    let relay = tokio::spawn(Attach::new("test-app").folder(&dir).relay(read, write));
    let (client_read, mut client_write) = tokio::io::split(client_io);
    client_write.write_all(&initialize(5)).await.unwrap();
    client_write.write_all(b"\n").await.unwrap();
    let mut line = String::new();
    tokio::time::timeout(WAIT, BufReader::new(client_read).read_line(&mut line)).await.unwrap().unwrap();
    let answer: Value = serde_json::from_str(&line).expect("a JSON-RPC answer");
    assert_eq!(answer["id"], 5, "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains(&MAX_LOCAL_CONNECTIONS.to_string()), "{answer}");
    let err = tokio::time::timeout(WAIT, relay).await.expect("the relay ends").unwrap().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::ConnectionRefused, "{err}");
    assert!(err.to_string().contains(&MAX_LOCAL_CONNECTIONS.to_string()), "{err}");
}

/// 100 relays started together (the issue's probe: 84 of them printed "attached", were never
/// answered and exited 0): every client is either served or answered with the limit's error,
/// and exactly the limit's number are served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relays_started_together_are_each_served_or_told() {
    let dir = folder("many");
    let (_rig, _socket) = app_in(&dir);
    let mut relays = Vec::new();
    for n in 0..100 {
        let (client_io, relay_io) = tokio::io::duplex(64 * 1024);
        let (read, write) = tokio::io::split(relay_io);
        let relay = tokio::spawn(Attach::new("test-app").folder(&dir).relay(read, write));
        let (client_read, mut client_write) = tokio::io::split(client_io);
        client_write.write_all(&initialize(n as u64)).await.unwrap();
        client_write.write_all(b"\n").await.unwrap();
        relays.push((n, relay, BufReader::new(client_read), client_write));
    }
    let (mut served, mut refused, mut kept) = (0, 0, Vec::new());
    for (n, relay, mut read, write) in relays {
        let mut line = String::new();
        tokio::time::timeout(WAIT, read.read_line(&mut line)).await.expect("every client is answered").unwrap();
        assert!(!line.is_empty(), "relay {n} ended unanswered: {:?}", tokio::time::timeout(WAIT, relay).await);
        let answer: Value = serde_json::from_str(&line).expect("a JSON-RPC answer");
        assert_eq!(answer["id"], n, "{answer}");
        if answer["result"]["serverInfo"]["name"] == "test-app" {
            served += 1;
            kept.push((relay, write));
        } else {
            let err = tokio::time::timeout(WAIT, relay).await.expect("a refused relay ends").unwrap().unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::ConnectionRefused, "{err}");
            refused += 1;
        }
    }
    assert_eq!((served, refused), (MAX_LOCAL_CONNECTIONS, 100 - MAX_LOCAL_CONNECTIONS));
}

/// Only connections that serve count against the limit: connections that have sent nothing
/// yet (a starting relay's probes for live instances, before the app has seen them close) do
/// not, so with 15 agents served and probes still open, the 16th agent is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probes_do_not_count_against_the_limit() {
    let dir = folder("probes");
    let (_rig, socket) = app_in(&dir);
    let _open = served(&socket, MAX_LOCAL_CONNECTIONS - 1).await;
    let mut probes = Vec::new();
    for _ in 0..4 {
        probes.push(tokio::net::UnixStream::connect(&socket).await.unwrap());
    }
    let (client, _relay) = relayed(&dir, Lifecycle::Legacy, "test-client").await;
    client.read().await;
    drop(probes);
}

/// Connections that send nothing are bounded apart from the served ones: past
/// [`MAX_LOCAL_WAITING`] the oldest is closed, and an agent is still served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_send_nothing_are_bounded_oldest_closed_first() {
    let dir = folder("waiting");
    let (_rig, socket) = app_in(&dir);
    let mut oldest = tokio::net::UnixStream::connect(&socket).await.unwrap();
    let mut idle = Vec::new();
    for _ in 0..MAX_LOCAL_WAITING {
        idle.push(tokio::net::UnixStream::connect(&socket).await.unwrap());
    }
    let mut rest = Vec::new();
    let n = tokio::time::timeout(WAIT, oldest.read_to_end(&mut rest)).await.expect("the oldest is closed").unwrap();
    assert_eq!(n, 0, "closed unanswered");
    let (client, _relay) = relayed(&dir, Lifecycle::Legacy, "test-client").await;
    client.read().await;
    drop(idle);
}

/// Another user cannot reach the endpoint: the folder keeps them out, and if the folder is
/// opened to them the app still closes their connection unanswered (peer credentials). Only
/// root can act as another user, so only as root is this checked (CI's container is root).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_user_is_refused() {
    let dir = folder("user");
    let (_rig, socket) = app_in(&dir);
    let as_nobody = |socket: &Path| {
        // Connects, sends an initialize, and says what came back.
        let script = format!(
            r#"
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
try:
    s.connect({path:?})
except OSError as e:
    print("refused", e.errno); sys.exit(0)
try:
    s.sendall({line:?}.encode() + b"\n")
    print("answered" if s.recv(100) else "closed")
except (ConnectionResetError, BrokenPipeError):
    print("closed")
"#,
            path = socket.to_string_lossy(),
            line = String::from_utf8(initialize(1)).unwrap()
        );
        std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", &script])
            .output()
    };
    let is_root = std::fs::metadata("/proc/self").is_ok_and(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0);
    let Some(out) = as_nobody(&socket).ok().filter(|_| is_root) else {
        eprintln!("not root, or no setpriv or /usr/bin/python3: cannot act as another user, nothing to check");
        return;
    };
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with("refused 13"),
        "the private folder keeps them out (EACCES): {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The folder opened to everyone by mistake: the app still refuses them.
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = as_nobody(&socket).unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        said.trim(),
        "closed",
        "connected, then closed unanswered: {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The endpoint lasts as long as the app's UI: when it is gone, so is the socket.
#[tokio::test]
async fn the_socket_goes_with_the_app() {
    let dir = folder("goes");
    let (rig, socket) = app_in(&dir);
    assert!(socket.exists());
    drop(rig);
    let gone = async {
        while std::fs::symlink_metadata(&socket).is_ok() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(WAIT, gone).await.expect("the socket is removed when the UI is gone");
}

/// Turned off, no endpoint opens, and serving says why.
#[test]
fn turned_off_it_does_not_open() {
    let bridge = Bridge::builder().app_name("test-app").local_endpoint(false).build();
    let err = bridge.serve_local().unwrap_err();
    assert!(err.to_string().contains("local_endpoint(false)"), "{err}");
    assert!(bridge.local_endpoint().is_none());
}
