//! Shared test support: a small app declared on the bridge, a UI thread that runs it headless,
//! and rmcp clients over in-process duplex pipes on both protocol lifecycles.
#![allow(clippy::unwrap_used, reason = "test helpers may unwrap: a panic is a failed test")]
#![allow(dead_code, reason = "each test binary uses a different part of it")]

use std::sync::Arc;
use std::time::Duration;

use egui_mcp_bridge::testing::{Agent, HeadlessUi};
use egui_mcp_bridge::{ActionSpec, Bridge, ToolError, ToolResult};
use parking_lot::Mutex;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
    ReadResourceRequestParams, ResourceUpdatedNotificationParam, ServerNotification, SubscribeRequestParams,
    SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use tokio::sync::mpsc;

pub const URI: &str = "app://windows";
pub const WAIT: Duration = Duration::from_secs(10);
pub const SECRET: &str = "hunter2-plaintext";
pub const UNSAFE_ID: &str = "Notes Ünïcode 1";

/// What the test app shows. Tests may change it "as the person" between frames.
#[derive(Debug, Default)]
pub struct TestState {
    pub name: String,
    pub secret: String,
    /// The modal chain on `main`, oldest first (app ids).
    pub dialogs: Vec<String>,
    /// App-level modals, oldest first.
    pub locks: Vec<String>,
    /// Whether `main` offers the `extra` action.
    pub extra: bool,
    /// Whether the `Notes Ünïcode 1` window is open.
    pub notes_open: bool,
    /// Every operation the app applied, in order.
    pub applied: Vec<String>,
    /// A window without actions: `Some(true)` when a dialog (also without actions) blocks it.
    pub bare: Option<bool>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetName {
    /// The new name.
    pub name: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetSecret {
    pub secret: String,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pin {
    pub pin: String,
}

/// Declares the test app for one frame.
pub fn declare(bridge: &Bridge, s: &mut TestState) {
    if let Some(call) = bridge.app_button("lock", ActionSpec::new("Lock")) {
        s.locks.push(format!("lock-{}", s.applied.len()));
        s.applied.push("lock".into());
        call.ok("locked");
    }
    bridge.window("main").title("Main").summary(format!("Name is {:?}", s.name)).declare(|w| {
        if let Some(call) = w.action::<SetName>("set_name", ActionSpec::new("Set name").idempotent()) {
            s.name.clone_from(&call.args().name);
            s.applied.push(format!("set_name {}", s.name));
            call.ok("name set");
        }
        if let Some(call) = w.action::<SetSecret>("set_secret", ActionSpec::new("Set secret")) {
            s.secret.clone_from(&call.args().secret);
            s.applied.push("set_secret".into());
            call.ok("secret set");
        }
        if let Some(call) = w.button("open_dialog", ActionSpec::new("Open dialog")) {
            s.dialogs.push(format!("dlg-{}", s.applied.len()));
            s.applied.push("open_dialog".into());
            call.ok("dialog open");
        }
        if let Some(call) = w.button("count", ActionSpec::new("Count").read_only()) {
            s.applied.push("count".into());
            call.reply(Ok(ToolResult::message("counted").with_result(json!({"count": 42}))));
        }
        // Takes the call and answers nothing (an app bug the bridge must not turn into success).
        drop(w.button("forget", ActionSpec::new("Forgets to answer")));
        if let Some(call) = w.button("reject", ActionSpec::new("Always rejects")) {
            call.fail(ToolError::invalid_field("name", "Cannot be empty"));
        }
        if s.extra
            && let Some(call) = w.button("extra", ActionSpec::new("Extra"))
        {
            s.applied.push("extra".into());
            call.ok("extra");
        }
        w.fields("f", |f| {
            f.field("Name", &s.name);
            f.secret("Secret", &s.secret);
        });
    });
    let mut owner = "main".to_owned();
    let mut close = None;
    for (k, id) in s.dialogs.clone().iter().enumerate() {
        bridge.window(id).title(format!("Dialog {k}")).modal_of(&owner).summary("A dialog").declare(|w| {
            if let Some(call) = w.button("close", ActionSpec::new("Close")) {
                close = Some(k);
                call.ok("closed");
            }
            if let Some(call) = w.button("open_nested", ActionSpec::new("Open nested")) {
                s.dialogs.push(format!("dlg-{}", s.applied.len()));
                s.applied.push("open_nested".into());
                call.ok("nested open");
            }
        });
        owner.clone_from(id);
    }
    if let Some(k) = close {
        s.dialogs.truncate(k);
        s.applied.push("close".into());
    }
    if s.notes_open {
        bridge.window(UNSAFE_ID).title("Notes").summary("Notes with an unsafe id").declare(|w| {
            if let Some(call) = w.button("ping", ActionSpec::new("Ping")) {
                s.applied.push("ping".into());
                call.ok("pong");
            }
        });
    }
    if let Some(blocked) = s.bare {
        bridge.window("bare").title("Bare").summary("A window without actions").declare(|_| ());
        if blocked {
            bridge
                .window("bare-dialog")
                .title("Bare dialog")
                .modal_of("bare")
                .summary("A dialog without actions")
                .declare(|_| ());
        }
    }
    let mut unlock = None;
    for (k, id) in s.locks.clone().iter().enumerate() {
        bridge.window(id).title("Locked").app_modal().summary("Locked").declare(|w| {
            if let Some(call) = w.action::<Pin>("unlock", ActionSpec::new("Unlock")) {
                if call.args().pin == "1234" {
                    unlock = Some(k);
                    call.ok("unlocked");
                } else {
                    call.fail(ToolError::invalid_field("pin", "Wrong PIN"));
                }
            }
            if let Some(call) = w.button("lock_again", ActionSpec::new("Lock again")) {
                s.locks.push(format!("lock-{}", s.applied.len()));
                s.applied.push("lock_again".into());
                call.ok("locked again");
            }
        });
    }
    if let Some(k) = unlock {
        s.locks.remove(k);
        s.applied.push("unlock".into());
    }
}

/// The test app running headless on its own UI thread.
pub struct Rig {
    pub bridge: Bridge,
    pub state: Arc<Mutex<TestState>>,
    pub ctx: egui::Context,
    /// The UI thread; dropping the rig stops and joins it.
    _ui: HeadlessUi,
}

impl Rig {
    pub fn start() -> Self {
        Self::start_with(Bridge::builder().app_name("test-app").app_version("9.9.9").instructions("Test notes."))
    }

    pub fn start_with(builder: egui_mcp_bridge::BridgeBuilder) -> Self {
        Self::start_after(builder, |_| ()).0
    }

    /// Runs `before` on the bridge before the UI thread starts (so before the first frame),
    /// then starts the app.
    pub fn start_after<T>(builder: egui_mcp_bridge::BridgeBuilder, before: impl FnOnce(&Bridge) -> T) -> (Self, T) {
        let bridge = builder.build();
        let early = before(&bridge);
        let state = Arc::new(Mutex::new(TestState { notes_open: true, ..TestState::default() }));
        let ui = {
            let (bridge, state) = (bridge.clone(), Arc::clone(&state));
            HeadlessUi::start(&bridge.clone(), "test-ui", move || {
                move |_ui: &mut egui::Ui| declare(&bridge, &mut state.lock())
            })
        };
        let ctx = ui.context().clone();
        (Self { bridge, state, ctx, _ui: ui }, early)
    }

    /// Changes the app "as the person" (not through input events), then wakes the UI.
    pub fn person(&self, f: impl FnOnce(&mut TestState)) {
        f(&mut self.state.lock());
        self.ctx.request_repaint();
    }

    /// Waits for the next publish whose state satisfies `pred`.
    pub async fn until(&self, pred: impl Fn(&egui_mcp_bridge::protocol::WindowsState) -> bool) {
        let mut rx = Agent::new(&self.bridge).watch();
        tokio::time::timeout(WAIT, rx.wait_for(|s| pred(s.state())))
            .await
            .expect("state reached in time")
            .expect("hub alive");
    }

    /// A new in-process connection subscribed to `app://windows`.
    pub async fn subscribed(&self, lifecycle: Lifecycle) -> Client {
        let client = self.connect(lifecycle).await;
        client.subscribe().await;
        client
    }

    /// Serves a new in-process connection, from a client of unknown name.
    pub async fn connect(&self, lifecycle: Lifecycle) -> Client {
        self.connect_as(lifecycle, "test-client").await
    }

    /// Serves a new in-process connection from a client that sends this `clientInfo.name`.
    pub async fn connect_as(&self, lifecycle: Lifecycle, name: &'static str) -> Client {
        // Start from a settled app: the first frame is published before any client exists.
        self.until(|s| !s.windows.is_empty()).await;
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let serving = self.bridge.serve_io("duplex", server_io).expect("serve");
        let mut client = Client::connect(client_io, lifecycle, name).await;
        client.serving = Some(serving);
        client
    }
}

/// Which MCP lifecycle a client uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifecycle {
    /// 2025-11-25: initialize, resources/subscribe, notifications on the session.
    Legacy,
    /// 2026-07-28: server/discover, subscriptions/listen.
    Modern,
}

pub const BOTH: [Lifecycle; 2] = [Lifecycle::Legacy, Lifecycle::Modern];

/// A notification the client saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    Updated(String),
    ToolsChanged,
}

#[derive(Clone)]
pub struct Recorder {
    tx: mpsc::UnboundedSender<Note>,
    /// The `clientInfo.name` it sends.
    name: &'static str,
}

impl ClientHandler for Recorder {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(ClientCapabilities::default(), Implementation::new(self.name, "0"))
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    async fn on_resource_updated(&self, params: ResourceUpdatedNotificationParam, _: NotificationContext<RoleClient>) {
        let _ = self.tx.send(Note::Updated(params.uri));
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.tx.send(Note::ToolsChanged);
    }
}

/// An rmcp client with its notifications in one channel, whatever the lifecycle.
pub struct Client {
    /// Keeps the server side of the pipe served (dropping it stops serving).
    pub serving: Option<egui_mcp_bridge::serve::ServeHandle>,
    pub lifecycle: Lifecycle,
    pub service: RunningService<RoleClient, Recorder>,
    tx: mpsc::UnboundedSender<Note>,
    pub notes: mpsc::UnboundedReceiver<Note>,
}

/// A tool result reduced to what tests check.
#[derive(Clone, Debug)]
pub struct Reply {
    pub is_error: bool,
    pub body: Value,
    pub text: String,
}

impl Reply {
    pub fn code(&self) -> &str {
        assert!(self.is_error, "expected an error, got {:?}", self.body);
        self.body["code"].as_str().unwrap_or_default()
    }

    pub fn ok(&self) -> &Value {
        assert!(!self.is_error, "expected success, got {:?}", self.body);
        &self.body
    }
}

impl Client {
    /// A client of `name` on one end of an in-process pipe whose other end a bridge serves.
    pub async fn connect(io: tokio::io::DuplexStream, lifecycle: Lifecycle, name: &'static str) -> Self {
        let (tx, notes) = mpsc::unbounded_channel();
        let recorder = Recorder { tx: tx.clone(), name };
        let service = match lifecycle {
            Lifecycle::Legacy => recorder.serve(io).await.expect("initialize"),
            Lifecycle::Modern => rmcp::serve_client_with_lifecycle(
                recorder,
                io,
                rmcp::service::ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("discover"),
        };
        Self { serving: None, lifecycle, service, tx, notes }
    }

    /// Subscribes to `app://windows` and tool-list changes the way the lifecycle does it.
    pub async fn subscribe(&self) {
        match self.lifecycle {
            Lifecycle::Legacy => {
                #[expect(deprecated, reason = "the legacy lifecycle is what we test here")]
                self.service.subscribe(SubscribeRequestParams::new(URI)).await.expect("subscribe");
            }
            Lifecycle::Modern => {
                let filter = SubscriptionFilter::builder().tools_list_changed().resource_subscription(URI).build();
                let mut sub = self.service.listen(filter).await.expect("listen");
                assert_eq!(sub.acknowledged().resource_subscriptions.as_deref(), Some(&[URI.to_owned()][..]));
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    while let Ok(Some(n)) = sub.next().await {
                        let note = match n {
                            ServerNotification::ResourceUpdatedNotification(u) => Note::Updated(u.params.uri),
                            ServerNotification::ToolListChangedNotification(_) => Note::ToolsChanged,
                            _ => continue,
                        };
                        if tx.send(note).is_err() {
                            break;
                        }
                    }
                });
            }
        }
    }

    /// The next notification (bounded wait).
    pub async fn next_note(&mut self) -> Note {
        tokio::time::timeout(WAIT, self.notes.recv()).await.expect("a notification in time").expect("channel open")
    }

    /// Waits until `note` arrives, skipping others.
    pub async fn expect_note(&mut self, note: Note) {
        loop {
            if self.next_note().await == note {
                return;
            }
        }
    }

    pub async fn read(&self) -> Value {
        let r = self.service.read_resource(ReadResourceRequestParams::new(URI)).await.expect("read");
        assert_eq!(r.contents.len(), 1, "one content");
        let v = serde_json::to_value(&r.contents[0]).expect("json");
        assert_eq!(v["mimeType"], "application/json");
        serde_json::from_str(v["text"].as_str().expect("text content")).expect("valid JSON")
    }

    pub async fn read_raw(&self) -> String {
        let r = self.service.read_resource(ReadResourceRequestParams::new(URI)).await.expect("read");
        serde_json::to_string(&r).expect("json")
    }

    pub async fn tool_names(&self) -> Vec<String> {
        let tools = self.service.list_all_tools().await.expect("tools/list");
        tools.into_iter().map(|t| t.name.to_string()).collect()
    }

    pub async fn call(&self, name: &str, args: Value) -> Reply {
        let Value::Object(args) = args else { panic!("arguments must be an object") };
        let r = tokio::time::timeout(
            WAIT,
            self.service.call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(args)),
        )
        .await
        .expect("call answered in time")
        .expect("tools/call");
        let text = r.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
        Reply { is_error: r.is_error == Some(true), body: r.structured_content.unwrap_or(Value::Null), text }
    }

    /// The version of a window (by external id) in a fresh read.
    pub async fn version(&self, id: &str) -> u64 {
        let s = self.read().await;
        window(&s, id)["version"].as_u64().expect("version")
    }
}

/// The window with this external id in a parsed `app://windows`.
pub fn window<'a>(state: &'a Value, id: &str) -> &'a Value {
    state["windows"]
        .as_array()
        .and_then(|ws| ws.iter().find(|w| w["id"] == id))
        .unwrap_or_else(|| panic!("no window {id} in {state}"))
}

pub fn operable(state: &Value) -> Vec<String> {
    state["operableWindowIds"]
        .as_array()
        .expect("operableWindowIds")
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_owned())
        .collect()
}

/// An app whose frames the test runs by hand, on the test's thread: the bridge's plugin on a
/// context of its own, the app's state, and the code that declares it. Which pass applies a
/// call is then known.
pub struct Frames<S> {
    pub bridge: Bridge,
    pub ctx: egui::Context,
    pub state: S,
    declare: fn(&Bridge, &mut S),
}

impl<S> Frames<S> {
    /// The app, after its first frame.
    pub fn new(builder: egui_mcp_bridge::BridgeBuilder, state: S, declare: fn(&Bridge, &mut S)) -> Self {
        let bridge = builder.build();
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let mut app = Self { bridge, ctx, state, declare };
        app.frame();
        app
    }

    /// One frame without input; returns how many passes egui ran in it.
    pub fn frame(&mut self) -> usize {
        self.frame_with(Vec::new())
    }

    /// One frame with these input events (the person's); returns how many passes egui ran.
    pub fn frame_with(&mut self, events: Vec<egui::Event>) -> usize {
        let input = egui::RawInput { events, ..Default::default() };
        let (bridge, state, declare) = (&self.bridge, &mut self.state, self.declare);
        let mut passes = 0;
        self.ctx
            .run_ui(input, |_ui| {
                passes += 1;
                declare(bridge, state);
            })
            .drop_without_applying_deltas();
        passes
    }

    /// An agent's call, sent now and answered by the frames to come.
    pub fn send(&self, tool: &str, args: Value) -> egui_mcp_bridge::testing::AgentCall {
        Agent::new(&self.bridge).send(tool, args)
    }
}

/// Every request for an immediate pass of `ctx` (the bridge waking the UI for a call among
/// them), from now on: something to wait on, with a bound, instead of polling.
pub fn repaint_requests(ctx: &egui::Context) -> std::sync::mpsc::Receiver<()> {
    let (tx, requests) = std::sync::mpsc::channel();
    ctx.set_repaint_observer(move |info| {
        if info.delay.is_zero() {
            let _ = tx.send(());
        }
    });
    requests
}

/// The `Mcp-Session-Id` of a raw HTTP answer's head.
pub fn session_id(head: &str) -> String {
    head.lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("mcp-session-id"))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("a session id in {head}"))
}

/// A read-view window's fields as (label, value, key).
pub fn field_items(w: &egui_mcp_bridge::protocol::Window) -> Vec<(String, Value, Option<String>)> {
    use egui_mcp_bridge::protocol::Block;
    w.blocks
        .iter()
        .filter_map(|b| match b {
            Block::Fields { items, .. } => {
                Some(items.iter().map(|i| (i.label.clone(), i.value.clone(), i.key.clone())))
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// Every control item of a window's lists.
pub fn controls(w: &egui_mcp_bridge::protocol::Window) -> Vec<Value> {
    use egui_mcp_bridge::protocol::Block;
    w.blocks
        .iter()
        .filter_map(|b| match b {
            Block::List { items, .. } => Some(items.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}
