//! The bridge's own tools for clients as they are: `app__read_windows` (the resource as a tool)
//! and `app__call` (any tool by name, exactly as a direct call), chosen per connection by the
//! client's profile.

#![allow(clippy::unwrap_used, reason = "tests")]

mod common;

use common::{BOTH, Client, Lifecycle, Note, Reply, Rig, operable};
use egui_mcp_bridge::{Bridge, ClientProfile, Compat};
use serde_json::{Value, json};

fn names(tools: &[String]) -> Vec<&str> {
    tools.iter().map(String::as_str).filter(|t| t.starts_with("app__")).collect()
}

/// Which bridge tools each kind of client is given, on both lifecycles.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_decides_which_bridge_tools_a_connection_gets() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        let spec = rig.connect(lifecycle).await;
        assert_eq!(names(&spec.tool_names().await), ["app__read_windows", "app__lock"], "{lifecycle:?}: baseline");
        let desktop = rig.connect_as(lifecycle, "claude-ai").await;
        assert_eq!(
            names(&desktop.tool_names().await),
            ["app__read_windows", "app__call", "app__lock"],
            "{lifecycle:?}"
        );
        let code = rig.connect_as(lifecycle, "Claude-Code").await;
        assert_eq!(names(&code.tool_names().await), ["app__read_windows", "app__lock"], "{lifecycle:?}");
        // The frozen-list client's instructions tell it about the dispatcher; the others' do not.
        if lifecycle == Lifecycle::Legacy {
            let instructions = |c: &Client| c.service.peer_info().unwrap().instructions.clone().unwrap_or_default();
            assert!(instructions(&desktop).contains("app__call {tool, arguments}"));
            assert!(
                instructions(&desktop).starts_with("You operate")
                    && instructions(&desktop).contains("call app__read_windows")
            );
            assert!(!instructions(&code).contains("app__call") && !instructions(&spec).contains("app__call"));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compat_on_off_and_app_overrides_win_over_the_table() {
    let on = Rig::start_with(Bridge::builder().compat(Compat::On));
    let c = on.connect(Lifecycle::Legacy).await;
    assert!(c.tool_names().await.contains(&"app__call".to_owned()), "compat on: every connection");
    let off = Rig::start_with(Bridge::builder().compat(Compat::Off));
    let c = off.connect_as(Lifecycle::Legacy, "claude-ai").await;
    assert_eq!(names(&c.tool_names().await), ["app__read_windows", "app__lock"], "compat off: none");
    let r = c.call("app__read_windows", json!({})).await;
    assert!(r.ok()["result"].get("tools").is_none(), "compat off: no tools in the state");
    let overridden = Rig::start_with(Bridge::builder().client_profile("test-client", ClientProfile::FROZEN));
    let c = overridden.connect(Lifecycle::Legacy).await;
    assert!(c.tool_names().await.contains(&"app__call".to_owned()), "a per-name override");
    let none = Rig::start_with(Bridge::builder().read_windows_tool(false).compat(Compat::On));
    let c = none.connect(Lifecycle::Legacy).await;
    assert_eq!(names(&c.tool_names().await), ["app__call", "app__lock"], "the app turned the state tool off");
    assert_eq!(c.call("app__read_windows", json!({})).await.code(), "action_not_available");
}

/// `app__read_windows` returns what `app://windows` holds, byte for byte, at every moment (an
/// app-level modal included), and on frozen-list connections the callable tools too.
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
        assert_eq!(r.text, format!("{{\"result\":{inner}}}}}"), "{moment}: the same bytes as the resource");
        assert!(!r.text.contains(common::SECRET), "masked as in the resource");
        let f = frozen.call("app__read_windows", json!({})).await;
        assert!(f.text.starts_with(&format!("{{\"result\":{inner},\"tools\":[")), "{moment}: {}", f.text);
        let listed: Vec<String> = frozen.tool_names().await;
        let in_state: Vec<&str> =
            f.ok()["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        let app_listed: Vec<&str> =
            listed.iter().map(String::as_str).filter(|t| *t != "app__read_windows" && *t != "app__call").collect();
        assert_eq!(in_state, app_listed, "{moment}: every callable tool, and only those");
        assert!(f.ok()["result"]["tools"][0]["inputSchema"]["type"] == "object");
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
    let mut c = rig.connect(Lifecycle::Legacy).await;
    c.subscribe().await;
    let call = async |c: &Client, tool: &str, args: Value| -> Reply {
        if via_dispatcher {
            c.call("app__call", json!({"tool": tool, "arguments": args})).await
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

/// The dispatcher's own arguments are checked, and it reaches nothing a direct call could not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn app_call_refuses_bad_arguments_and_itself() {
    let rig = Rig::start();
    let c = rig.connect_as(Lifecycle::Legacy, "claude-ai").await;
    let r = c.call("app__call", json!({"arguments": {}})).await;
    assert_eq!((r.code(), r.body["fields"][0]["field"].as_str()), ("validation_failed", Some("tool")));
    let r = c.call("app__call", json!({"tool": "main__set_name", "arguments": "Ada"})).await;
    assert_eq!(r.body["fields"][0]["field"], "arguments");
    let r = c.call("app__call", json!({"tool": "app__call", "arguments": {"tool": "app__lock"}})).await;
    assert_eq!(r.code(), "action_not_available");
    let r = c.call("app__call", json!({"tool": "app__read_windows"})).await;
    assert_eq!(r.ok()["result"]["operableWindowIds"], c.read().await["operableWindowIds"]);
    // A spec-baseline connection has no dispatcher: the name is an ordinary unknown tool.
    let spec = rig.connect(Lifecycle::Legacy).await;
    assert_eq!(spec.call("app__call", json!({"tool": "app__lock"})).await.code(), "action_not_available");
    assert!(rig.state.lock().locks.is_empty(), "nothing was applied");
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

/// A connection that calls through `app__call` cannot see a new dialog's parameters in its tool
/// list: a result that made tools callable also holds `newToolSpecs`, each new tool's name,
/// description and input schema (as `app__read_windows` lists them), so it needs no read to
/// call them. Connections that re-list get the names only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frozen_list_connections_get_the_new_tools_parameters_in_the_result() {
    let rig = Rig::start();
    let frozen = rig.connect_as(Lifecycle::Legacy, "claude-ai").await;
    let live = rig.connect_as(Lifecycle::Legacy, "claude-code").await;
    let open = frozen.call("app__call", json!({"tool": "main__open_dialog", "arguments": {}})).await;
    let dialog = open.ok()["openedWindowIds"][0].as_str().unwrap().to_owned();
    let names = open.ok()["newTools"].clone();
    assert_eq!(names, json!([format!("{dialog}__close"), format!("{dialog}__open_nested")]));
    let in_state = frozen.call("app__read_windows", json!({})).await.ok()["result"]["tools"].clone();
    let listed: Vec<&Value> =
        in_state.as_array().unwrap().iter().filter(|t| names.as_array().unwrap().contains(&t["name"])).collect();
    assert_eq!(open.ok()["newToolSpecs"], json!(listed), "the same entries as app__read_windows lists");
    assert!(open.ok()["newToolSpecs"][0]["inputSchema"]["type"] == "object");
    let direct = frozen.call(&format!("{dialog}__open_nested"), json!({})).await;
    assert!(direct.ok()["newToolSpecs"].is_array(), "a direct call on that connection too: {:?}", direct.body);
    let nested = direct.ok()["openedWindowIds"][0].as_str().unwrap().to_owned();
    let closed = live.call(&format!("{nested}__close"), json!({})).await;
    assert!(closed.ok().get("newTools").is_some(), "{:?}", closed.body);
    assert!(closed.ok().get("newToolSpecs").is_none(), "a connection that re-lists gets names only");
}
