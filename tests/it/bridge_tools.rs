//! The bridge's own tools for clients as they are: `app__read_windows` (the resource as a tool)
//! and the dispatchers `app__call_readonly`, `app__call`, `app__call_destructive` (any tool of
//! their safety class by name, exactly as a direct call), on every connection whatever its
//! client, unless the app chose `Compat::Off`.

#![allow(clippy::unwrap_used, reason = "tests")]

use crate::common;

use common::{BOTH, Client, Lifecycle, Note, Reply, Rig, operable};
use egui_mcp_bridge::{
    Bridge,
    serve::{ClientProfile, Compat, ResultView},
};
use serde_json::{Value, json};

fn names(tools: &[String]) -> Vec<&str> {
    tools.iter().map(String::as_str).filter(|t| t.starts_with("app__")).collect()
}

const BRIDGE_TOOLS: [&str; 6] =
    ["app__read_windows", "app__view_window", "app__call_readonly", "app__call", "app__call_destructive", "app__lock"];

/// Every connection gets the bridge's tools, whatever client it is and on both lifecycles:
/// whether a client's model sees tools that appear mid-task is a race in every real client, so
/// nothing may depend on it. The profile only shapes the instructions and results.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_connection_gets_the_state_tool_and_the_dispatchers_whatever_its_client() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        for client in [None, Some("claude-ai"), Some("Claude-Code"), Some("copilot-cli"), Some("gemini-cli-mcp-client")]
        {
            let c = match client {
                None => rig.connect(lifecycle).await,
                Some(name) => rig.connect_as(lifecycle, name).await,
            };
            assert_eq!(names(&c.tool_names().await), BRIDGE_TOOLS, "{lifecycle:?} {client:?}");
            if lifecycle == Lifecycle::Legacy {
                let instructions = c.service.peer_info().unwrap().instructions.clone().unwrap_or_default();
                assert!(instructions.contains("app__call {tool, arguments}"), "{client:?}: {instructions}");
                assert!(instructions.contains("app__call_destructive"), "{client:?}");
                // A client whose model cannot read resources is told to read through the tool.
                let via_tool = instructions.contains("call app__read_windows");
                assert_eq!(via_tool, matches!(client, Some("claude-ai" | "copilot-cli")), "{client:?}: {instructions}");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compat_on_off_and_app_overrides_win_over_the_table() {
    let on = Rig::start_with(Bridge::builder().compat(Compat::On));
    let c = on.connect_as(Lifecycle::Legacy, "claude-code").await;
    assert_eq!(names(&c.tool_names().await), BRIDGE_TOOLS, "compat on");
    let ok = c.call("main__set_name", json!({"name": "Ada"})).await;
    assert_eq!(serde_json::from_str::<Value>(&ok.text).unwrap(), ok.body, "compat on: shaped as an unknown client");
    let off = Rig::start_with(Bridge::builder().compat(Compat::Off));
    let c = off.connect_as(Lifecycle::Legacy, "claude-ai").await;
    assert_eq!(
        names(&c.tool_names().await),
        ["app__read_windows", "app__view_window", "app__lock"],
        "compat off: the spec's floor and the bridge's two reads"
    );
    let r = c.call("app__read_windows", json!({})).await;
    assert!(r.ok()["result"].get("tools").is_none(), "compat off: no tools in the state");
    let ours = ClientProfile { label: "test", reads_resources: true, sees: ResultView::Structured };
    let overridden = Rig::start_with(Bridge::builder().client_profile("test-client", ours));
    let c = overridden.connect(Lifecycle::Legacy).await;
    assert_eq!(c.call("main__set_name", json!({"name": "Ada"})).await.text, "name set", "a per-name override");
    let none = Rig::start_with(Bridge::builder().read_windows_tool(false));
    let c = none.connect(Lifecycle::Legacy).await;
    assert_eq!(names(&c.tool_names().await), BRIDGE_TOOLS[1..], "the app turned the state tool off");
    assert_eq!(c.call("app__read_windows", json!({})).await.code(), "action_not_available");
}

/// `app__read_windows` returns what `app://windows` holds, byte for byte, at every moment (an
/// app-level modal included), and the callable tools too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_windows_is_the_resource_as_a_tool_at_every_moment() {
    let rig = Rig::start();
    let spec = rig.connect(Lifecycle::Legacy).await;
    let frozen = rig.connect_as(Lifecycle::Legacy, "claude-ai").await;
    rig.person(|s| s.secret = common::SECRET.to_owned());
    rig.until(|s| s.windows.iter().any(|w| w.version > 1)).await;
    for moment in ["open", "locked"] {
        let resource = {
            let r = spec.read_raw().await;
            let v: Value = serde_json::from_str(&r).unwrap();
            v["contents"][0]["text"].as_str().unwrap().to_owned()
        };
        let r = spec.call("app__read_windows", json!({})).await;
        let inner = resource.strip_suffix('}').unwrap();
        assert!(
            r.text.starts_with(&format!("{{\"result\":{inner},\"tools\":[")),
            "{moment}: the same bytes as the resource"
        );
        assert!(!r.text.contains(common::SECRET), "masked as in the resource");
        let f = frozen.call("app__read_windows", json!({})).await;
        assert!(f.text.starts_with(&format!("{{\"result\":{inner},\"tools\":[")), "{moment}: {}", f.text);
        let listed: Vec<String> = frozen.tool_names().await;
        let in_state: Vec<&str> =
            f.ok()["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        let app_listed: Vec<&str> =
            listed.iter().map(String::as_str).filter(|t| !BRIDGE_TOOLS[..5].contains(t)).collect();
        assert_eq!(in_state, app_listed, "{moment}: every callable tool, and only those");
        assert!(f.ok()["result"]["tools"][0]["inputSchema"]["type"] == "object");
        for t in f.ok()["result"]["tools"].as_array().unwrap() {
            let via = if t["name"] == "main__count" { "app__call_readonly" } else { "app__call" };
            assert_eq!(t["via"], via, "{moment}: the dispatcher of its class: {t}");
        }
        if moment == "open" {
            spec.call("app__lock", json!({})).await.ok();
            rig.until(|s| s.windows.iter().any(|w| w.modal && w.owner_id.is_none())).await;
        }
    }
    assert!(spec.tool_names().await.contains(&"app__read_windows".to_owned()), "listed under an app-level modal");
}

/// Runs one scripted sequence on a fresh app, calling each tool directly or through `app__call`,
/// and returns every reply (body and text) plus the activity log's tool names.
async fn script(via_dispatcher: bool) -> (Vec<(bool, String)>, Vec<String>) {
    let rig = Rig::start_with(Bridge::builder().app_name("test-app").compat(Compat::On));
    let mut c = rig.subscribed(Lifecycle::Legacy).await;
    let call = async |c: &Client, tool: &str, args: Value| -> Reply {
        if via_dispatcher {
            let dispatcher = if tool == "main__count" { "app__call_readonly" } else { "app__call" };
            c.call(dispatcher, json!({"tool": tool, "arguments": args})).await
        } else {
            c.call(tool, args).await
        }
    };
    let mut out = Vec::new();
    let v = c.version("main").await;
    let steps: Vec<(&str, Value)> = vec![
        ("main__set_name", json!({"name": "Ada", "expectedVersion": v})),
        ("main__set_name", json!({"name": "Bob", "expectedVersion": v})),
        ("main__set_name", json!({})),
        ("main__set_name", json!({"name": 5})),
        ("main__reject", json!({})),
        ("main__extra", json!({})),
        ("nowhere__set_name", json!({"name": "x"})),
        ("main__count", json!({})),
        ("main__open_dialog", json!({})),
        ("main__set_name", json!({"name": "Eve"})),
    ];
    for (tool, args) in steps {
        let r = call(&c, tool, args).await;
        out.push((r.is_error, r.text.clone()));
        if tool == "main__open_dialog" {
            c.expect_note(Note::ToolsChanged).await;
        }
    }
    let dialog = operable(&c.read().await)[0].clone();
    for (tool, args) in [
        (format!("{dialog}__close"), json!({})),
        ("app__lock".to_owned(), json!({})),
        ("main__set_name".to_owned(), json!({"name": "Eve"})),
        ("app__lock".to_owned(), json!({})),
    ] {
        let r = call(&c, &tool, args).await;
        out.push((r.is_error, r.text.clone()));
    }
    let lock = operable(&c.read().await)[0].clone();
    for pin in ["0000", "1234"] {
        let r = call(&c, &format!("{lock}__unlock"), json!({"pin": pin})).await;
        out.push((r.is_error, r.text.clone()));
    }
    let activity = rig.bridge.activity().into_iter().map(|r| r.tool).collect();
    (out, activity)
}

/// `app__call` gives exactly the direct call's results and errors, byte for byte, in the same
/// situations: success, `stale_state`, `validation_failed` (naming the inner parameter),
/// `action_not_available`, `window_not_found`, `blocked_by_modal` (a dialog, and an app-level
/// modal, with `blockingWindowId`), and records the real tool name in the activity log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn app_call_answers_exactly_as_the_direct_call() {
    let (direct, direct_log) = script(false).await;
    let (dispatched, dispatched_log) = script(true).await;
    for (i, (d, x)) in direct.iter().zip(&dispatched).enumerate() {
        assert_eq!(d, x, "step {i}");
    }
    assert_eq!(direct.len(), dispatched.len());
    assert_eq!(direct_log, dispatched_log, "the person sees the real tool names");
    assert!(!direct_log.iter().any(|t| t == "app__call"), "{direct_log:?}");
    let codes: Vec<String> = direct
        .iter()
        .map(|(err, text)| {
            let v: Value = serde_json::from_str(text).unwrap();
            if *err { v["code"].as_str().unwrap().to_owned() } else { "ok".to_owned() }
        })
        .collect();
    assert_eq!(
        codes,
        [
            "ok",
            "stale_state",
            "validation_failed",
            "validation_failed",
            "validation_failed",
            "action_not_available",
            "window_not_found",
            "ok",
            "ok",
            "blocked_by_modal",
            "ok",
            "ok",
            "blocked_by_modal",
            "blocked_by_modal",
            "validation_failed",
            "ok"
        ]
    );
    let open: Value = serde_json::from_str(&direct[8].1).unwrap();
    let dialog = open["openedWindowIds"][0].as_str().unwrap();
    assert_eq!(open["newTools"], json!([format!("{dialog}__close"), format!("{dialog}__open_nested")]), "{open}");
    let blocked: Value = serde_json::from_str(&direct[9].1).unwrap();
    assert_eq!(blocked["blockingWindowId"], dialog);
    let missing: Value = serde_json::from_str(&direct[2].1).unwrap();
    assert_eq!(missing["fields"][0]["field"], "name", "the inner tool's parameter");
}

/// A dispatcher's own arguments are checked, it reaches nothing a direct call could not, and
/// it calls only tools of its safety class, naming the right dispatcher for the others (so a
/// client that approves calls on annotations approves a dispatched call as the direct one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dispatchers_refuse_bad_arguments_themselves_and_tools_of_another_class() {
    let rig = Rig::start();
    let c = rig.connect_as(Lifecycle::Legacy, "claude-ai").await;
    let r = c.call("app__call", json!({"arguments": {}})).await;
    assert_eq!((r.code(), r.body["fields"][0]["field"].as_str()), ("validation_failed", Some("tool")));
    let r = c.call("app__call", json!({"tool": "main__set_name", "arguments": "Ada"})).await;
    assert_eq!(r.body["fields"][0]["field"], "arguments");
    let r = c.call("app__call", json!({"tool": "app__call", "arguments": {"tool": "app__lock"}})).await;
    assert_eq!(r.code(), "action_not_available");
    let r = c.call("app__call_destructive", json!({"tool": "app__call_readonly"})).await;
    assert_eq!(r.code(), "action_not_available");
    for dispatcher in ["app__call", "app__call_readonly", "app__call_destructive"] {
        let r = c.call(dispatcher, json!({"tool": "app__read_windows"})).await;
        assert_eq!(r.ok()["result"]["operableWindowIds"], c.read().await["operableWindowIds"], "{dispatcher}");
    }
    // app__read_windows takes no arguments and says so, as every other tool does.
    for r in [
        c.call("app__read_windows", json!({"verbose": true})).await,
        c.call("app__call_readonly", json!({"tool": "app__read_windows", "arguments": {"verbose": true}})).await,
    ] {
        assert_eq!((r.code(), r.body["fields"][0]["field"].as_str()), ("validation_failed", Some("verbose")));
    }
    // The wrong class: refused before the app sees it, naming the dispatcher to use.
    let r = c.call("app__call", json!({"tool": "main__count"})).await;
    assert_eq!((r.code(), r.body["fields"][0]["field"].as_str()), ("validation_failed", Some("tool")));
    assert!(
        r.body["message"].as_str().unwrap().contains("read-only: call it through app__call_readonly"),
        "{:?}",
        r.body
    );
    let r = c.call("app__call_destructive", json!({"tool": "main__set_name", "arguments": {"name": "Eve"}})).await;
    assert!(r.body["message"].as_str().unwrap().contains("through app__call"), "{:?}", r.body);
    let r = c.call("app__call_readonly", json!({"tool": "app__lock"})).await;
    assert!(r.body["message"].as_str().unwrap().contains("through app__call"), "{:?}", r.body);
    assert_eq!(c.call("app__call_readonly", json!({"tool": "main__count"})).await.ok()["result"]["count"], 42);
    // With Compat::Off there is no dispatcher: the name is an ordinary unknown tool.
    let off = Rig::start_with(Bridge::builder().compat(Compat::Off));
    let bare = off.connect(Lifecycle::Legacy).await;
    assert_eq!(bare.call("app__call", json!({"tool": "app__lock"})).await.code(), "action_not_available");
    assert!(rig.state.lock().locks.is_empty() && off.state.lock().locks.is_empty(), "nothing was applied");
    assert!(!rig.state.lock().applied.iter().any(|a| a.starts_with("set_name")), "nothing was applied");
}

/// The text block of a result follows what the client shows its model: the whole JSON where
/// the model may see only the text (unknown clients, Gemini CLI) and on every error; just the
/// message where it sees `structuredContent` on success (Claude Code, Codex), as §12.3 asks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_text_block_is_the_whole_result_only_where_the_model_may_see_only_the_text() {
    let rig = Rig::start();
    for (client, message_only) in
        [("test-client", false), ("gemini-cli-mcp-client", false), ("claude-code", true), ("codex-mcp-client", true)]
    {
        let c = rig.connect_as(Lifecycle::Legacy, client).await;
        let ok = c.call("main__set_name", json!({"name": "Ada"})).await;
        assert!(!ok.is_error, "{client}: {ok:?}");
        assert_eq!(ok.body["message"], "name set", "{client}");
        if message_only {
            assert_eq!(ok.text, "name set", "{client}: the message, not the JSON again");
        } else {
            assert_eq!(serde_json::from_str::<Value>(&ok.text).unwrap(), ok.body, "{client}: the whole result");
        }
        let read = c.call("app__read_windows", json!({})).await;
        assert!(read.body["result"]["windows"].is_array(), "{client}");
        if message_only {
            assert!(read.text.len() < 64, "{client}: {}", read.text);
        } else {
            assert_eq!(serde_json::from_str::<Value>(&read.text).unwrap(), read.body, "{client}");
        }
        let err = c.call("nowhere__set_name", json!({"name": "Ada"})).await;
        assert!(err.is_error, "{client}");
        assert_eq!(serde_json::from_str::<Value>(&err.text).unwrap(), err.body, "{client}: errors in full, always");
        assert_eq!(err.code(), "window_not_found", "{client}");
    }
}

/// Whatever a client does with its tool list, a result that made tools callable also holds
/// `newToolSpecs`: each new tool's name, description, input schema and dispatcher (as
/// `app__read_windows` lists them), so its model needs no read to call them. `Compat::Off`
/// gives the names only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_give_the_new_tools_parameters_and_their_dispatcher() {
    let rig = Rig::start();
    let desktop = rig.connect_as(Lifecycle::Legacy, "claude-ai").await;
    let code = rig.connect_as(Lifecycle::Modern, "claude-code").await;
    let open = desktop.call("app__call", json!({"tool": "main__open_dialog", "arguments": {}})).await;
    let dialog = open.ok()["openedWindowIds"][0].as_str().unwrap().to_owned();
    assert_eq!(open.ok()["openedWindowVersions"], json!({&dialog: 1}), "the opened window's own version");
    let names = open.ok()["newTools"].clone();
    assert_eq!(names, json!([format!("{dialog}__close"), format!("{dialog}__open_nested")]));
    let in_state = desktop.call("app__read_windows", json!({})).await.ok()["result"]["tools"].clone();
    let listed: Vec<&Value> =
        in_state.as_array().unwrap().iter().filter(|t| names.as_array().unwrap().contains(&t["name"])).collect();
    assert_eq!(open.ok()["newToolSpecs"], json!(listed), "the same entries as app__read_windows lists");
    assert!(open.ok()["newToolSpecs"][0]["inputSchema"]["type"] == "object");
    assert_eq!(open.ok()["newToolSpecs"][0]["via"], "app__call");
    let direct = code.call(&format!("{dialog}__open_nested"), json!({})).await;
    assert!(direct.ok()["newToolSpecs"].is_array(), "a direct call, a client that re-lists: {:?}", direct.body);
    let off = Rig::start_with(Bridge::builder().compat(Compat::Off));
    let bare = off.connect(Lifecycle::Legacy).await;
    let open = bare.call("main__open_dialog", json!({})).await;
    assert!(open.ok().get("newTools").is_some(), "{:?}", open.body);
    assert!(open.ok().get("newToolSpecs").is_none(), "compat off: names only");
}

/// `tools/list` is the same for every connection (MCP 2026-07-28: it must not vary per
/// connection): Claude Code shows its model a tool search instead of MCP tools unless a tool
/// says `_meta["anthropic/alwaysLoad"]: true`, so every tool says so (the app's while they are
/// at most `ALWAYS_LOAD_TOOLS`), with search words, on every client's list; other clients
/// ignore `_meta` keys they do not know.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_client_gets_the_same_tool_list() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        let mut lists = Vec::new();
        for name in ["claude-code", "codex-mcp-client", "some-client"] {
            let client = rig.connect_as(lifecycle, name).await;
            let tools = client.service.list_all_tools().await.expect("tools/list");
            assert!(tools.len() >= 5, "{tools:?}");
            for t in &tools {
                let meta = serde_json::to_value(&t.meta).unwrap();
                assert_eq!(meta["anthropic/alwaysLoad"], true, "{lifecycle:?} {name} {}: {meta}", t.name);
                assert!(meta["anthropic/searchHint"].as_str().is_some_and(|h| !h.is_empty()), "{}: {meta}", t.name);
            }
            lists.push(serde_json::to_value(&tools).unwrap());
        }
        assert!(lists.windows(2).all(|w| w[0] == w[1]), "{lifecycle:?}: one list for every client: {lists:?}");
    }
}
