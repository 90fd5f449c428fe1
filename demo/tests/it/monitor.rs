//! The second example, the serial monitor (`order_demo::monitor`), shaped like real eframe apps:
//! a person drives it with kittest, and an agent over MCP (an rmcp client on an in-process
//! stream, the app running headless on its own thread) does the same tasks: change settings,
//! open a collapsed section, connect (an effect that takes time: answered once the port is
//! open), send a command and read the live console, go through the Reset dialog, clear from the
//! menu.

use std::time::Duration;

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::passes::headless;
use egui_mcp_bridge::protocol::Block;
use egui_mcp_bridge::testing::{Agent, Harness, HeadlessUi};
use order_demo::monitor::{Monitor, Parity};
use serde_json::{Value, json};

fn harness() -> Harness<'static, Monitor> {
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge)
        .with_size([1000.0, 700.0])
        .build_ui_state(|ui, m: &mut Monitor| m.ui(ui), Monitor::new(bridge.clone()));
    h.run_steps(2);
    h
}

/// Steps until `done` or 120 passes (two seconds of the harness's clock).
fn step_until(h: &mut Harness<'_, Monitor>, done: impl Fn(&Monitor) -> bool) {
    for _ in 0..120 {
        if done(h.state()) {
            return;
        }
        h.step();
    }
    assert!(done(h.state()), "not reached in 120 passes");
}

#[test]
fn a_person_sets_up_connects_sends_resets_and_clears() {
    let mut h = harness();
    // Settings: a combo box, radio buttons, a switch.
    h.get_by_label("Baud rate").click();
    h.run_steps(2);
    h.get_by_label("115200").click();
    h.get_by_label("Even").click();
    h.get_by_label("Timestamps").click();
    h.run_steps(2);
    let s = &h.state().settings;
    assert_eq!((s.baud, s.parity, s.timestamps), (115_200, Parity::Even, false));
    // The collapsed section opens for the person.
    assert!(h.query_by_label("Number of plots").is_none());
    h.get_by_label("Plot settings").click();
    h.run_steps(2);
    assert_eq!(h.get_by_label("Max lines").value().as_deref(), Some("∞"));

    // Connect takes a moment; the port controls are disabled meanwhile and after.
    assert!(h.get_by_label("Send").accesskit_node().is_disabled(), "nothing to send to yet");
    h.get_by_label("Connect").click();
    step_until(&mut h, Monitor::is_connected);
    assert!(h.get_by_label("Connect").accesskit_node().is_disabled());
    step_until(&mut h, |m| m.lines.len() >= 3);
    assert!(h.query_all_by_label_contains("temperature=").next().is_some(), "live readings on the console");

    h.get_by_label("Command").focus();
    h.run_steps(1);
    h.get_by_label("Command").type_text("ID?");
    h.run_steps(1);
    h.get_by_label("Send").click();
    step_until(&mut h, |m| m.lines.iter().any(|(_, l)| l == "< OK ID?"));
    let shown = |h: &Harness<'_, Monitor>, text: &str| h.query_all_by_label_contains(text).next().is_some();
    assert!(shown(&h, "> ID?") && shown(&h, "< OK ID?"), "the person reads the command and the reply");
    // The console is described once: the agent's page of it ends with the line the person's
    // console, stuck to the bottom, shows; nothing of it is left undescribed.
    let console = h.window("console").expect("declared");
    let ids: Vec<Option<&str>> = console.blocks.iter().map(Block::id).collect();
    assert_eq!(ids, [Some("status"), Some("lines")], "the lines are read once");
    let Some(Block::List { items, .. }) = console.blocks.get(1) else { panic!("a list: {console:?}") };
    let newest = items.last().and_then(Value::as_str).expect("a line");
    assert_eq!(h.query_all_by_label_contains(newest).count(), 1, "the person sees {newest:?}");
    assert_eq!(h.undescribed(), []);

    // The Reset dialog, over the settings panel.
    h.get_by_label("Reset settings").click();
    h.run_steps(2);
    assert!(h.state().asking_reset);
    assert!(h.get_by_label("Reset settings").accesskit_node().is_disabled(), "the panel waits for the dialog");
    h.get_by_label("Reset").click();
    h.run_steps(2);
    let s = &h.state().settings;
    assert!(!h.state().asking_reset && s.timestamps, "display settings back to their defaults");
    assert_eq!(s.baud, 115_200, "the port's stay");

    // File → Clear the console.
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Clear the console Ctrl+K").click();
    h.run_steps(1);
    assert!(h.state().lines.len() <= 1, "cleared (a reading may have come since)");
}

/// An MCP client on an in-process stream; the app headless on a thread of its own, stopped and
/// joined on drop.
struct Headless {
    // Dropped first: the UI stops before the client goes.
    _ui: HeadlessUi,
    rt: tokio::runtime::Runtime,
    client: rmcp::service::RunningService<rmcp::RoleClient, ()>,
    agent: Agent,
    _serving: egui_mcp_bridge::serve::ServeHandle,
}

impl Headless {
    fn start() -> Self {
        use rmcp::ServiceExt as _;
        let bridge = Bridge::builder().app_name("serial-monitor").build();
        let options = headless::HeadlessOptions { max_idle: Duration::from_millis(200), ..Default::default() };
        let b = bridge.clone();
        let ui = HeadlessUi::start_with(&bridge, "monitor-ui", options, move || {
            let mut monitor = Monitor::new(b);
            move |ui: &mut egui::Ui| monitor.ui(ui)
        });
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let serving = bridge.serve_io("duplex", server_io).expect("served");
        let client = rt.block_on(().serve(client_io)).expect("initialized");
        let agent = Agent::new(&bridge);
        Self { _ui: ui, rt, client, agent, _serving: serving }
    }

    /// A tool call's structured result, or its error object.
    fn call(&self, tool: &str, arguments: Value) -> Result<Value, Value> {
        let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
        let params = rmcp::model::CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let r = self.rt.block_on(self.client.call_tool(params)).expect("answered");
        let body = r.structured_content.clone().unwrap_or(Value::Null);
        if r.is_error == Some(true) { Err(body) } else { Ok(body) }
    }

    fn tools(&self) -> Vec<String> {
        let tools = self.rt.block_on(self.client.list_all_tools()).expect("listed");
        tools.into_iter().map(|t| t.name.to_string()).collect()
    }

    /// `app://windows`, read as the client reads it.
    fn state(&self) -> Value {
        let params = rmcp::model::ReadResourceRequestParams::new("app://windows");
        let r = self.rt.block_on(self.client.read_resource(params)).expect("read");
        let v = serde_json::to_value(&r.contents[0]).expect("json");
        serde_json::from_str(v["text"].as_str().expect("text content")).expect("valid JSON")
    }

    fn window(&self, id: &str) -> Value {
        let state = self.state();
        state["windows"].as_array().expect("windows").iter().find(|w| w["id"] == id).cloned().unwrap_or(Value::Null)
    }

    /// Waits (bounded: 5 s) for a published state in which `done` holds, on the bridge's own
    /// publish notifications: no sleeps.
    fn wait_for(&self, done: impl Fn(&Value) -> bool) -> Value {
        let mut watch = self.agent.watch();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            let state = self.state();
            if done(&state) {
                return state;
            }
            let changed = self.rt.block_on(async { tokio::time::timeout_at(deadline, watch.changed()).await });
            assert!(matches!(changed, Ok(Ok(()))), "not reached in 5 s: {state}");
        }
    }
}

fn lines(state: &Value) -> Vec<String> {
    let console = state["windows"].as_array().expect("windows").iter().find(|w| w["id"] == "console").cloned();
    let blocks = console.map_or(Value::Null, |c| c["blocks"].clone());
    let list = blocks.as_array().into_iter().flatten().find(|b| b["id"] == "lines").cloned().unwrap_or(Value::Null);
    list["items"].as_array().into_iter().flatten().filter_map(|i| i.as_str().map(str::to_owned)).collect()
}

#[test]
fn an_agent_over_mcp_does_the_same_tasks() {
    let app = Headless::start();
    let tools = app.tools();
    for tool in ["settings__edit_field", "settings__connect", "settings__open_section", "settings__reset_settings"] {
        assert!(tools.contains(&tool.to_owned()), "{tool} in {tools:?}");
    }
    assert!(!tools.iter().any(|t| t == "command__send" || t == "settings__disconnect"), "not connected: {tools:?}");
    assert!(!tools.contains(&"menu__clear".to_owned()), "nothing to clear yet");

    // Settings, by the keys the state names.
    let settings = app.window("settings");
    let keys: Vec<&str> = settings["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .flat_map(|b| b["items"].as_array().into_iter().flatten())
        .filter_map(|i| i["key"].as_str())
        .collect();
    assert!(
        keys.contains(&"baud") && keys.contains(&"parity") && !keys.contains(&"plots"),
        "plots is collapsed: {keys:?}"
    );
    let v = settings["version"].as_u64().expect("version");
    app.call("settings__edit_field", json!({"field": "baud", "value": "115200", "expectedVersion": v})).expect("baud");
    app.call("settings__edit_field", json!({"field": "parity", "value": "Even"})).expect("parity");
    app.call("settings__open_section", json!({"section": "Plot settings"})).expect("opened");
    app.call("settings__edit_field", json!({"field": "plots", "value": 3})).expect("plots, once open");

    // Connect answers once the port is open, with the state that shows it.
    let r = app.call("settings__connect", json!({})).expect("connected");
    assert_eq!(r["message"], "Connected to /dev/ttyUSB0 at 115200 baud");
    let settings = app.window("settings");
    assert_eq!(r["version"], settings["version"], "the result's version is the state's with the port open");
    assert!(settings["summary"].as_str().expect("summary").contains("connected"), "{settings}");
    let tools = app.tools();
    assert!(
        tools.contains(&"command__send".to_owned()) && !tools.contains(&"settings__connect".to_owned()),
        "{tools:?}"
    );

    // A command, and the live console: the reply and readings arrive.
    let before = app.window("settings")["version"].clone();
    app.call("command__send", json!({"command": "ID?"})).expect("sent");
    let replied = |s: &Value| lines(s).iter().any(|l| l.ends_with("< OK ID?"));
    let read = |s: &Value| lines(s).iter().any(|l| l.contains("temperature="));
    app.wait_for(|s| replied(s) && read(s));
    assert_eq!(app.window("settings")["version"], before, "the console's lines leave the settings' version");

    // The Reset dialog, over the settings.
    let r = app.call("settings__reset_settings", json!({})).expect("asks");
    assert_eq!(r["openedWindowIds"], json!(["reset"]));
    let e = app.call("settings__disconnect", json!({})).expect_err("blocked by the dialog");
    assert_eq!(e["code"], "blocked_by_modal");
    app.call("reset__reset", json!({})).expect("reset");
    assert!(app.window("reset").is_null(), "the dialog closed");

    // File → Clear the console, then disconnect.
    app.call("menu__clear", json!({})).expect("cleared");
    app.call("settings__disconnect", json!({})).expect("disconnected");
    let state = app.state();
    assert!(lines(&state).len() <= 1, "{:?}", lines(&state));
}
