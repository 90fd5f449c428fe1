//! The client zoo: for the clients that cannot run here (desktop and editor apps: Claude
//! Desktop, VS Code, Cursor, goose, Zed), a scripted agent that behaves as that client does
//! drives the headless demo binary over stdio and must finish (a) the standard order task and
//! (b) lock → unlock. The agent programs that can run here are tested for real
//! (`real_clients.rs`).
//!
//! Each agent behaves as its client (per the clients' documentation, and what the real client
//! programs showed: none may be assumed to see tools that appear mid-task in time):
//! - it sends that client's `clientInfo.name` and protocol version (and lifecycle);
//! - it reads `app://windows` only if the client's model can read resources, else it calls
//!   `app__read_windows`;
//! - it re-lists tools only when the client does: never, or between tasks (at the next user
//!   message or reply);
//! - it calls only tools present in its own view of the tool list: directly, or through the
//!   dispatcher a result's `newToolSpecs` names for the tool (`via`);
//! - it decides only from the part of each result that client shows its model (the text, or
//!   `structuredContent`).
//!
//! Each prints its calls and the bytes it received.

#![allow(clippy::unwrap_used, reason = "tests")]
#![allow(clippy::print_stdout, reason = "each agent prints its transcript")]

use crate::support;

use std::collections::{BTreeSet, HashMap};
use std::process::Stdio;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
    ReadResourceRequestParams,
};
use rmcp::service::{ClientLifecycleMode, RunningService};
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};
use support::DEMO;

const WAIT: Duration = Duration::from_secs(20);

/// When a client re-fetches `tools/list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relist {
    /// Once, at the start, never again (Claude Desktop: new tools are discarded; Cursor, Zed).
    Never,
    /// At the next user message or reply: between the two tasks, never within one (VS Code, goose).
    BetweenTasks,
}

/// Which part of a result the client's model sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sees {
    Text,
    Structured,
}

#[derive(Clone, Debug)]
struct Behaviour {
    label: &'static str,
    client_name: &'static str,
    version: ProtocolVersion,
    /// The 2026-07-28 lifecycle (`server/discover`), as goose's auto mode lands on.
    discover: bool,
    reads_resources: bool,
    relist: Relist,
    sees: Sees,
}

#[derive(Clone)]
struct Handler {
    b: Behaviour,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(ClientCapabilities::default(), Implementation::new(self.b.client_name, "1.0"))
            .with_protocol_version(self.b.version.clone())
    }
}

/// One scripted agent and its own view of the world.
struct Agent {
    b: Behaviour,
    service: RunningService<RoleClient, Handler>,
    /// Its view of the tool list.
    tools: BTreeSet<String>,
    /// The dispatcher of each tool, as results' `newToolSpecs` named it.
    via: HashMap<String, String>,
    calls: usize,
    bytes: usize,
    _demo: tokio::process::Child,
}

/// What the model saw of one result: whether it was an error, and the JSON it read.
struct Seen {
    error: bool,
    body: Value,
}

impl Agent {
    async fn start(b: Behaviour) -> Self {
        Self::start_with(b, std::path::Path::new(DEMO), &["--headless", "--stdio"]).await
    }

    /// The agent on the server `command args` (the demo, or what a bundle's manifest says).
    async fn start_with(b: Behaviour, command: &std::path::Path, args: &[&str]) -> Self {
        let mut demo = tokio::process::Command::new(command)
            .env("EGUI_MCP_BRIDGE_DIR", crate::support::endpoint_folder())
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("start the demo");
        let io = (demo.stdout.take().unwrap(), demo.stdin.take().unwrap());
        let handler = Handler { b: b.clone() };
        let mode = if b.discover {
            ClientLifecycleMode::Discover { preferred_versions: vec![b.version.clone()] }
        } else {
            ClientLifecycleMode::Initialize
        };
        let service = tokio::time::timeout(WAIT, rmcp::serve_client_with_lifecycle(handler, io, mode))
            .await
            .expect("connected in time")
            .expect("connected");
        let label = b.label;
        let name = b.client_name;
        let mut agent =
            Self { b, service, tools: BTreeSet::new(), via: HashMap::new(), calls: 0, bytes: 0, _demo: demo };
        agent.relist().await;
        println!("[{label}] connected as {name:?}; tools: {:?}", agent.tools);
        agent
    }

    async fn relist(&mut self) {
        let tools = self.service.list_all_tools().await.expect("tools/list");
        self.bytes += serde_json::to_string(&tools).unwrap().len();
        self.tools = tools.into_iter().map(|t| t.name.to_string()).collect();
    }

    /// A new user message (or reply): clients that re-list then, do.
    async fn new_task(&mut self) {
        if self.b.relist == Relist::BetweenTasks {
            self.relist().await;
        }
    }

    /// The part of a result this client's model sees.
    fn view(&self, r: &CallToolResult) -> Seen {
        let error = r.is_error == Some(true);
        let text = || {
            let t = r.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
            serde_json::from_str(&t).unwrap_or(Value::String(t))
        };
        let body = match self.b.sees {
            Sees::Text => text(),
            Sees::Structured => r.structured_content.clone().unwrap_or_else(text),
        };
        Seen { error, body }
    }

    /// Calls a tool the way this client can: directly if it is in its list, else through the
    /// dispatcher a result named for it (`app__call` when none did), if its list has that.
    async fn call(&mut self, tool: &str, args: Value) -> Seen {
        let dispatcher = self.via.get(tool).cloned().unwrap_or_else(|| "app__call".to_owned());
        let (name, args) = if self.tools.contains(tool) {
            (tool.to_owned(), args)
        } else if self.tools.contains(&dispatcher) {
            (dispatcher, json!({"tool": tool, "arguments": args}))
        } else {
            panic!("[{}] {tool} is not in its tool list ({:?}) nor is {dispatcher}", self.b.label, self.tools)
        };
        let Value::Object(arguments) = args else { unreachable!("arguments are objects") };
        let request = CallToolRequestParams::new(name.clone()).with_arguments(arguments.clone());
        let r = tokio::time::timeout(WAIT, self.service.call_tool(request)).await.expect("answered").expect("call");
        let received = serde_json::to_string(&r).unwrap().len();
        self.calls += 1;
        self.bytes += received;
        let seen = self.view(&r);
        let outcome = if seen.error { seen.body["code"].as_str().unwrap_or("error").to_owned() } else { "ok".into() };
        let shown = if name == tool { name } else { format!("{name}→{tool}") };
        println!("[{}] {shown} {} → {outcome} ({received} bytes)", self.b.label, Value::Object(arguments));
        for spec in seen.body["newToolSpecs"].as_array().into_iter().flatten() {
            if let (Some(n), Some(via)) = (spec["name"].as_str(), spec["via"].as_str()) {
                self.via.insert(n.to_owned(), via.to_owned());
            }
        }
        seen
    }

    async fn ok(&mut self, tool: &str, args: Value) -> Value {
        let seen = self.call(tool, args).await;
        assert!(!seen.error, "[{}] {tool} failed: {}", self.b.label, seen.body);
        seen.body
    }

    /// The state as this client can read it.
    async fn state(&mut self) -> Value {
        if self.b.reads_resources {
            let r = self.service.read_resource(ReadResourceRequestParams::new("app://windows")).await.expect("read");
            let text = serde_json::to_value(&r.contents[0]).unwrap()["text"].as_str().unwrap().to_owned();
            self.bytes += text.len();
            self.calls += 1;
            println!("[{}] resources/read app://windows ({} bytes)", self.b.label, text.len());
            serde_json::from_str(&text).unwrap()
        } else {
            let body = self.ok("app__read_windows", json!({})).await;
            body["result"].clone()
        }
    }
}

fn window<'a>(state: &'a Value, id: &str) -> &'a Value {
    state["windows"].as_array().unwrap().iter().find(|w| w["id"] == id).unwrap_or_else(|| panic!("no {id}"))
}

fn field<'a>(win: &'a Value, label: &str) -> &'a Value {
    win["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["type"] == "fields")
        .flat_map(|b| b["items"].as_array().unwrap())
        .find(|i| i["label"] == label)
        .map_or(&Value::Null, |i| &i["value"])
}

/// The one tool of `seen.newTools` that performs `action`.
fn new_tool(agent: &Agent, seen: &Value, action: &str) -> String {
    seen["newTools"]
        .as_array()
        .and_then(|t| t.iter().filter_map(Value::as_str).find(|t| t.ends_with(&format!("__{action}"))))
        .unwrap_or_else(|| panic!("[{}] no {action} in newTools: {seen}", agent.b.label))
        .to_owned()
}

/// (a) Open a draft order, fill Recipient, Address, Amount, Currency, add a line item, submit,
/// confirm, authorize with the password; the editor then says Submitted.
async fn order_task(a: &mut Agent) {
    a.new_task().await;
    let state = a.state().await;
    assert!(state["operableWindowIds"].as_array().unwrap().contains(&json!("orders")));
    let page = a.ok("orders__load_orders", json!({"status": "Draft", "limit": 1})).await;
    let order = page["result"]["rows"][0][0].as_str().unwrap().to_owned();
    let opened = a.ok("orders__open_order", json!({"order": order})).await;
    let editor = opened["openedWindowIds"][0].as_str().unwrap().to_owned();
    assert!(opened["newTools"].as_array().unwrap().contains(&json!(format!("{editor}__edit_field"))), "{opened}");
    let mut version = window(&a.state().await, &editor)["version"].as_u64().unwrap();
    let edit = format!("{editor}__edit_field");
    // A wrong kind first: the error must be readable in whatever part this client shows.
    let wrong = a.call(&edit, json!({"field": "amount", "value": "lots", "expectedVersion": version})).await;
    assert!(wrong.error, "[{}] {}", a.b.label, wrong.body);
    assert_eq!(wrong.body["code"], "validation_failed", "[{}] {}", a.b.label, wrong.body);
    assert_eq!(wrong.body["fields"][0]["field"], "value");
    for (name, value) in
        [("recipient", json!("Grace Hopper")), ("address", json!("1 Navy Way")), ("currency", json!("EUR"))]
    {
        let r = a.ok(&edit, json!({"field": name, "value": value, "expectedVersion": version})).await;
        version = r["version"].as_u64().unwrap();
    }
    let r = a
        .ok(
            &format!("{editor}__add_item"),
            json!({"product": "Green tea", "quantity": 2, "unitPrice": 4.5, "expectedVersion": version}),
        )
        .await;
    version = r["version"].as_u64().unwrap();
    let submitted = a.ok(&format!("{editor}__submit"), json!({"expectedVersion": version})).await;
    let confirm = new_tool(a, &submitted, "confirm");
    let confirmed = a.ok(&confirm, json!({})).await;
    let authorize = new_tool(a, &confirmed, "authorize");
    let wrong = a.call(&authorize, json!({"password": "0000"})).await;
    assert_eq!((wrong.error, wrong.body["fields"][0]["field"].as_str()), (true, Some("password")), "{}", wrong.body);
    a.ok(&authorize, json!({"password": "1234"})).await;
    let state = a.state().await;
    let win = window(&state, &editor);
    assert_eq!(field(win, "Status"), "Submitted", "[{}] {win}", a.b.label);
    assert_eq!(field(win, "Recipient"), "Grace Hopper");
    assert_eq!(field(win, "Currency"), "EUR");
    assert_eq!(
        state["operableWindowIds"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|w| w.as_str().unwrap().starts_with("confirm-") || w.as_str().unwrap().starts_with("authorize-"))
            .count(),
        0
    );
}

/// (b) Lock the app, unlock it with the PIN.
async fn lock_task(a: &mut Agent) {
    a.new_task().await;
    let locked = a.ok("app__lock", json!({})).await;
    let lock = locked["openedWindowIds"][0].as_str().unwrap().to_owned();
    // A client whose list is frozen still shows Orders' tools: calling one is refused, naming
    // the lock. A client whose list follows no longer has them.
    if a.tools.contains("orders__load_orders") || a.tools.contains("app__call_readonly") {
        let blocked = a.call("orders__load_orders", json!({})).await;
        assert!(blocked.error, "[{}] {}", a.b.label, blocked.body);
        assert_eq!(blocked.body["blockingWindowId"], lock.as_str(), "[{}] {}", a.b.label, blocked.body);
    }
    let unlock = new_tool(a, &locked, "unlock");
    let state = a.state().await;
    assert_eq!(state["operableWindowIds"], json!([lock]));
    a.ok(&unlock, json!({"pin": "1234"})).await;
    let state = a.state().await;
    assert!(
        !state["windows"].as_array().unwrap().iter().any(|w| w["id"] == lock.as_str()),
        "[{}] still locked",
        a.b.label
    );
}

async fn run(b: Behaviour) {
    let label = b.label;
    let mut agent = Agent::start(b).await;
    order_task(&mut agent).await;
    lock_task(&mut agent).await;
    println!("[{label}] done: {} calls, {} bytes received", agent.calls, agent.bytes);
}

const V1125: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// Claude Desktop, as its documentation, issue threads and source show it.
fn claude_desktop(label: &'static str) -> Behaviour {
    Behaviour {
        label,
        client_name: "claude-ai",
        version: V1125,
        discover: false,
        reads_resources: false,
        relist: Relist::Never,
        sees: Sees::Text,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_desktop_never_reads_resources_never_relists_and_sees_the_text() {
    run(claude_desktop("Claude Desktop")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vscode_reads_no_resources_and_relists_only_between_tasks() {
    run(Behaviour {
        label: "VS Code",
        client_name: "Visual Studio Code",
        version: V1125,
        discover: false,
        reads_resources: false,
        relist: Relist::BetweenTasks,
        sees: Sees::Text,
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn goose_on_2026_07_28_reads_and_relists_at_the_next_reply() {
    run(Behaviour {
        label: "goose",
        client_name: "goose",
        version: ProtocolVersion::V_2026_07_28,
        discover: true,
        reads_resources: true,
        relist: Relist::BetweenTasks,
        sees: Sees::Structured,
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cursor_reads_no_resources_and_never_relists() {
    run(Behaviour {
        label: "Cursor",
        client_name: "cursor-vscode",
        version: V1125,
        discover: false,
        reads_resources: false,
        relist: Relist::Never,
        sees: Sees::Text,
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zed_reads_no_resources_and_never_relists() {
    run(Behaviour {
        label: "Zed",
        client_name: "Zed",
        version: V1125,
        discover: false,
        reads_resources: false,
        relist: Relist::Never,
        sees: Sees::Text,
    })
    .await;
}

/// The demo's MCP Bundle (`scripts/bundle`), as Claude Desktop installs it: the official CLI
/// validates and packs it (the script stops on a failed `mcpb validate`), and, unpacked with
/// that CLI, its server started exactly as the manifest's `mcp_config` says (`${__dirname}`
/// the unpacked folder) finishes the standard tasks driven as Claude Desktop drives a server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundle_validates_and_its_server_runs_as_its_manifest_says() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
    let out = std::process::Command::new(root.join("scripts/bundle"))
        .env("ORDER_DEMO_BINARY", DEMO)
        .current_dir(root)
        .output()
        .expect("run scripts/bundle");
    assert!(out.status.success(), "scripts/bundle failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let bundle = root.join(String::from_utf8_lossy(&out.stdout).trim());
    assert!(bundle.extension().is_some_and(|e| e == "mcpb"), "{}", bundle.display());
    let unpacked = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bundle-unpacked");
    let _ = std::fs::remove_dir_all(&unpacked);
    let mcpb = root.join("target/tmp/mcpb/node_modules/.bin/mcpb");
    let status = std::process::Command::new(&mcpb).arg("unpack").arg(&bundle).arg(&unpacked).status().expect("mcpb");
    assert!(status.success(), "mcpb unpack failed");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(unpacked.join("manifest.json")).expect("manifest"))
            .expect("json");
    let config = &manifest["server"]["mcp_config"];
    let dir = unpacked.to_str().expect("a UTF-8 path");
    let command = config["command"].as_str().expect("a command").replace("${__dirname}", dir);
    let args: Vec<String> = config["args"]
        .as_array()
        .expect("args")
        .iter()
        .map(|a| a.as_str().expect("text").replace("${__dirname}", dir))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let b = claude_desktop("Claude Desktop (bundle)");
    let mut agent = Agent::start_with(b, std::path::Path::new(&command), &args).await;
    for tool in ["app__read_windows", "app__call", "orders__open_order", "app__lock"] {
        assert!(agent.tools.contains(tool), "{tool} in {:?}", agent.tools);
    }
    order_task(&mut agent).await;
    lock_task(&mut agent).await;
}
