//! One test per line of spec §11 ("A conformant Server MUST …"), through an rmcp client in the
//! same process, on both lifecycles (2025-11-25 initialize + subscribe, 2026-07-28 listen).

use crate::common;

use common::{BOTH, Lifecycle, Note, Rig, SECRET, UNSAFE_ID, URI, operable, window};
use serde_json::{Value, json};

fn is_name_safe(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// §11 line 1: declare the capabilities of §3 (plus identity and instructions, §8.1).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c01_declares_the_capabilities_of_section_3() {
    let rig = Rig::start();
    for lifecycle in BOTH {
        let client = rig.connect(lifecycle).await;
        let info = client.service.peer_info().expect("server info");
        let caps = serde_json::to_value(&info.capabilities).unwrap();
        assert_eq!(caps["resources"]["subscribe"], true, "{lifecycle:?}: {caps}");
        assert_eq!(caps["tools"]["listChanged"], true, "{lifecycle:?}: {caps}");
        assert_eq!(info.server_info.as_ref().map(|i| i.name.as_str()), Some("test-app"), "the app's name, not rmcp's");
        assert_eq!(info.server_info.as_ref().map(|i| i.version.as_str()), Some("9.9.9"));
        let instructions = info.instructions.as_deref().unwrap_or_default();
        assert!(instructions.contains("app://windows") && instructions.contains("expectedVersion"), "{instructions}");
        assert!(instructions.ends_with("About this application: Test notes."), "app notes appended");
    }
}

/// §11 line 2: the single resource `app://windows`, inlining window content, fields per §4.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c02_provides_the_single_resource_with_section_4_fields() {
    let rig = Rig::start();
    for lifecycle in BOTH {
        let client = rig.connect(lifecycle).await;
        let list = client.service.list_all_resources().await.unwrap();
        assert_eq!(list.len(), 1, "exactly one resource");
        assert_eq!(list[0].uri, URI);
        assert_eq!(list[0].mime_type.as_deref(), Some("application/json"));

        let state = client.read().await;
        assert!(state["operableWindowIds"].is_array());
        for w in state["windows"].as_array().unwrap() {
            for key in ["id", "title", "modal", "ownerId", "version", "summary", "blocks"] {
                assert!(w.get(key).is_some(), "window lacks {key}: {w}");
            }
            assert!(w["version"].as_u64().is_some_and(|v| v >= 1));
        }
        let main = window(&state, "main");
        assert_eq!(main["summary"], "Name is \"\"");
        assert_eq!(main["blocks"][0]["type"], "fields");
        assert_eq!(main["blocks"][0]["items"][0], json!({"label": "Name", "value": ""}));

        let err = client.service.read_resource(rmcp::model::ReadResourceRequestParams::new("app://nope")).await;
        assert!(err.is_err(), "{lifecycle:?}: unknown URIs are errors");
    }
}

/// §11 line 3: `operableWindowIds` is the sole conclusion and reflects window-level and
/// app-level modals (chains, collapse, nesting).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c03_operable_ids_reflect_window_and_app_level_modals() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        let client = rig.connect(lifecycle).await;
        let notes_id =
            client.read().await["windows"].as_array().unwrap().iter().find(|w| w["title"] == "Notes").unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned();
        assert_eq!(operable(&client.read().await), ["main", notes_id.as_str()]);

        let d1 =
            client.call("main__open_dialog", json!({})).await.ok()["openedWindowIds"][0].as_str().unwrap().to_owned();
        let s = client.read().await;
        assert_eq!(operable(&s), [d1.as_str(), notes_id.as_str()], "main is blocked by its dialog");
        assert_eq!(window(&s, &d1)["ownerId"], "main");
        assert_eq!(window(&s, &d1)["modal"], true);

        let d2 = client.call(&format!("{d1}__open_nested"), json!({})).await.ok()["openedWindowIds"][0]
            .as_str()
            .unwrap()
            .to_owned();
        let s = client.read().await;
        assert_eq!(operable(&s), [d2.as_str(), notes_id.as_str()], "only the tail of the chain");
        assert_eq!(window(&s, &d2)["ownerId"], d1.as_str());

        let l1 = client.call("app__lock", json!({})).await.ok()["openedWindowIds"][0].as_str().unwrap().to_owned();
        let s = client.read().await;
        assert_eq!(operable(&s), [l1.as_str()], "an app-level modal collapses the operable set");
        assert_eq!(window(&s, &l1)["ownerId"], Value::Null);

        let l2 = client.call(&format!("{l1}__lock_again"), json!({})).await.ok()["openedWindowIds"][0]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(operable(&client.read().await), [l2.as_str()], "nested app modals: the newest is on top");
        client.call(&format!("{l2}__unlock"), json!({"pin": "1234"})).await.ok();
        assert_eq!(operable(&client.read().await), [l1.as_str()]);
        client.call(&format!("{l1}__unlock"), json!({"pin": "1234"})).await.ok();
        assert_eq!(operable(&client.read().await), [d2.as_str(), notes_id.as_str()]);
    }
}

/// §11 line 4: `tools/list` holds only the available operations of operable windows, and
/// `tools/list_changed` is sent when that changes (both lifecycles).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c04_tools_list_only_operable_and_list_changed_is_sent() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        let mut client = rig.subscribed(lifecycle).await;
        let tools = client.tool_names().await;
        assert!(tools.contains(&"main__set_name".to_owned()) && tools.contains(&"app__lock".to_owned()), "{tools:?}");
        assert!(!tools.contains(&"main__extra".to_owned()));

        // Action-level: one operation appears alone.
        rig.person(|s| s.extra = true);
        client.expect_note(Note::ToolsChanged).await;
        assert!(client.tool_names().await.contains(&"main__extra".to_owned()), "{lifecycle:?}");

        // Window-level: a dialog hides the whole group of its owner.
        let d =
            client.call("main__open_dialog", json!({})).await.ok()["openedWindowIds"][0].as_str().unwrap().to_owned();
        client.expect_note(Note::ToolsChanged).await;
        let tools = client.tool_names().await;
        assert!(tools.iter().all(|t| !t.starts_with("main__")), "{lifecycle:?}: {tools:?}");
        assert!(tools.contains(&format!("{d}__close")));

        // App-level modal: only its tools, no app tools (the bridge's read-only
        // `app__read_windows` and `app__view_window` stay: reading operates nothing; so do the dispatchers, which call
        // only what is callable: docs/design.md, invariant 3).
        client.call("app__lock", json!({})).await.ok();
        client.expect_note(Note::ToolsChanged).await;
        let tools = client.tool_names().await;
        let bridge_own = |t: &str| ["app__read_windows", "app__view_window"].contains(&t) || t.starts_with("app__call");
        assert!(tools.iter().all(|t| t.starts_with("lock-") || bridge_own(t)), "{lifecycle:?}: {tools:?}");
        assert!(tools.iter().any(|t| t.starts_with("lock-")) && tools.contains(&"app__read_windows".to_owned()));
    }
}

/// §11 line 5: tool names are `{winId}__{action}` with `[A-Za-z0-9_-]` only; unsafe window
/// ids map to one handle used in every id field and tool name (§12.4).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c05_tool_names_follow_the_pattern_with_safe_characters() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        let client = rig.connect(lifecycle).await;
        let state = client.read().await;
        let ids: Vec<&str> = state["windows"].as_array().unwrap().iter().map(|w| w["id"].as_str().unwrap()).collect();
        assert!(!ids.contains(&UNSAFE_ID), "the app's unsafe id never appears");
        let notes = state["windows"].as_array().unwrap().iter().find(|w| w["title"] == "Notes").unwrap();
        let handle = notes["id"].as_str().unwrap();
        assert!(is_name_safe(handle) && !handle.contains("__"), "{handle}");
        assert!(operable(&state).contains(&handle.to_owned()), "the same handle in operableWindowIds");
        for name in client.tool_names().await {
            let (win, action) = name.split_once("__").expect("{winId}__{action}");
            assert!(is_name_safe(win) && is_name_safe(action), "{name}");
            assert!(win == "app" || ids.contains(&win), "{name}: every winId is a window of the snapshot");
        }
        assert_eq!(client.call(&format!("{handle}__ping"), json!({})).await.ok()["message"], "pong");
    }
}

/// §11 line 6: `stale_state` for conflicting writes with `expectedVersion`; runtime validation
/// for blocked or invalidated writes, with every code of §7.4 that a call can meet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c06_stale_state_and_runtime_validation() {
    let rig = Rig::start();
    for lifecycle in BOTH {
        let client = rig.connect(lifecycle).await;
        let v = client.version("main").await;
        let name = format!("Ada {lifecycle:?}");
        let r = client.call("main__set_name", json!({"name": name, "expectedVersion": v})).await;
        assert_eq!(r.ok()["version"], v + 1, "success carries the new version");
        let r = client.call("main__set_name", json!({"name": "Bob", "expectedVersion": v})).await;
        assert_eq!(r.code(), "stale_state");
        assert_eq!(r.body["currentVersion"], v + 1);
        assert_eq!(
            window(&client.read().await, "main")["summary"],
            format!("Name is {name:?}"),
            "the stale write was not applied"
        );

        let r = client.call("main__set_name", json!({"name": 5})).await;
        assert_eq!((r.code(), r.body["fields"][0]["field"].as_str()), ("validation_failed", Some("name")));
        let r = client.call("main__set_name", json!({"name": "x", "expectedVersion": "seven"})).await;
        assert_eq!((r.code(), r.body["fields"][0]["field"].as_str()), ("validation_failed", Some("expectedVersion")));
        let r = client.call("main__reject", json!({})).await;
        assert_eq!(r.body["fields"], json!([{"field": "name", "error": "Cannot be empty"}]), "app-level field errors");

        let r = client.call("main__extra", json!({})).await;
        assert_eq!(r.code(), "action_not_available");
        let r = client.call("gone-window__close", json!({})).await;
        assert_eq!(r.code(), "window_not_found");
        let r = client.call("no-separator", json!({})).await;
        assert_eq!(r.code(), "action_not_available");

        let d =
            client.call("main__open_dialog", json!({})).await.ok()["openedWindowIds"][0].as_str().unwrap().to_owned();
        let r = client.call("main__set_name", json!({"name": "blocked"})).await;
        assert_eq!(r.code(), "blocked_by_modal");
        assert_eq!(r.body["blockingWindowId"], d.as_str(), "names the dialog on top");
        client.call(&format!("{d}__close"), json!({})).await.ok();
        let r = client.call(&format!("{d}__close"), json!({})).await;
        assert_eq!(r.code(), "window_not_found", "a closed dialog's tools fail at runtime");
        assert!(r.text.contains("window_not_found"), "the text mirror repeats the error: {}", r.text);
    }
}

/// §11 line 7: notifications only after the state took effect, mapped per §6: a data change
/// is `resources/updated` alone; an operable-set change adds `tools/list_changed`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c07_notifications_after_the_state_took_effect_mapped_per_section_6() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        let mut client = rig.subscribed(lifecycle).await;
        let v = client.version("main").await;
        // A person's data change: updated only.
        rig.person(|s| s.name = "by person".into());
        assert_eq!(client.next_note().await, Note::Updated(URI.into()), "{lifecycle:?}");
        let s = client.read().await;
        assert_eq!(window(&s, "main")["summary"], "Name is \"by person\"", "the state had taken effect when notified");
        assert_eq!(window(&s, "main")["version"], v + 1);

        // An agent's data change: updated only, then a dialog: updated + list_changed.
        client.call("main__set_name", json!({"name": "agent"})).await.ok();
        assert_eq!(client.next_note().await, Note::Updated(URI.into()));
        client.call("main__open_dialog", json!({})).await.ok();
        let mut got = vec![client.next_note().await, client.next_note().await];
        got.sort_by_key(|n| matches!(n, Note::ToolsChanged));
        assert_eq!(got, [Note::Updated(URI.into()), Note::ToolsChanged], "{lifecycle:?}: exactly the §6 pair");
        // The operable set changes while no tool comes or goes: still a tool-list change (§6).
        let tools = client.tool_names().await;
        for bare_blocked in [false, true] {
            rig.person(|s| s.bare = Some(bare_blocked));
            let mut got = vec![client.next_note().await, client.next_note().await];
            got.sort_by_key(|n| matches!(n, Note::ToolsChanged));
            assert_eq!(got, [Note::Updated(URI.into()), Note::ToolsChanged], "{lifecycle:?}: operable set changed");
            assert_eq!(client.tool_names().await, tools, "the same tools, a different operable set");
        }
        // A read-only call changes nothing and notifies nothing: the next note is the close's.
        let d = operable(&client.read().await)[0].clone();
        client.call(&format!("{d}__close"), json!({})).await.ok();
        client.call("main__count", json!({})).await.ok();
        rig.person(|s| s.name = "marker".into());
        let mut notes = Vec::new();
        loop {
            let n = client.next_note().await;
            notes.push(n.clone());
            if client.read().await["windows"][0]["summary"] == "Name is \"marker\""
                && n == Note::Updated(URI.into())
                && notes.len() >= 3
            {
                break;
            }
            assert!(notes.len() <= 3, "{lifecycle:?}: unexpected notifications {notes:?}");
        }
    }
}

/// §11 line 8: operations are serialised and notifications reach every connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c08_serialised_operations_and_broadcast_to_all_connections() {
    let rig = Rig::start();
    let mut a = rig.connect(Lifecycle::Legacy).await;
    let mut b = rig.connect(Lifecycle::Modern).await;
    a.subscribe().await;
    b.subscribe().await;
    let v = a.version("main").await;
    let (ra, rb) = tokio::join!(
        a.call("main__set_name", json!({"name": "from A", "expectedVersion": v})),
        b.call("main__set_name", json!({"name": "from B", "expectedVersion": v})),
    );
    let oks = [&ra, &rb].iter().filter(|r| !r.is_error).count();
    assert_eq!(oks, 1, "exactly one of two writes on the same version passes: {ra:?} {rb:?}");
    let loser = if ra.is_error { &ra } else { &rb };
    assert_eq!(loser.code(), "stale_state");
    assert_eq!(loser.body["currentVersion"], v + 1);
    assert_eq!(a.next_note().await, Note::Updated(URI.into()), "connection A notified");
    assert_eq!(b.next_note().await, Note::Updated(URI.into()), "connection B notified");
    let applied = rig.state.lock().applied.clone();
    assert_eq!(applied.iter().filter(|x| x.starts_with("set_name")).count(), 1, "{applied:?}");
}

/// §11 line 9: sensitive values are masked before exposure: not in the resource, not in
/// results, not in errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c09_sensitive_values_are_masked_at_the_source() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        let client = rig.connect(lifecycle).await;
        let r = client.call("main__set_secret", json!({"secret": SECRET})).await;
        assert!(!serde_json::to_string(&r.body).unwrap().contains(SECRET) && !r.text.contains(SECRET));
        let raw = client.read_raw().await;
        assert!(!raw.contains(SECRET), "plaintext leaked: {raw}");
        let s = client.read().await;
        let item = &window(&s, "main")["blocks"][0]["items"][1];
        assert_eq!(item, &json!({"label": "Secret", "value": egui_mcp_bridge::protocol::MASK, "sensitive": true}));
        let r = client.call("main__set_secret", json!({"secret": 12})).await;
        assert!(!r.text.contains("12") || r.code() == "validation_failed");
        let activity = format!("{:?}", rig.bridge.activity());
        assert!(!activity.contains(SECRET), "the activity log holds no arguments");
    }
}

/// §11 line 10: ids are unique and never reused, versions are 64-bit and monotonic (§10.3,
/// §10.5), and a read-only action changes no version.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c10_ids_never_reused_and_versions_monotonic() {
    for lifecycle in BOTH {
        let rig = Rig::start();
        let client = rig.connect(lifecycle).await;
        let v0 = client.version("main").await;
        client.call("main__count", json!({})).await.ok();
        assert_eq!(client.version("main").await, v0, "read-only: no version change");
        let r = client.call("main__count", json!({})).await;
        assert_eq!(r.ok()["result"], json!({"count": 42}));
        for (i, name) in ["a", "b", "c"].iter().enumerate() {
            let r = client.call("main__set_name", json!({"name": name})).await;
            assert_eq!(r.ok()["version"], v0 + 1 + i as u64, "one step per change");
        }
        client.call("main__set_name", json!({"name": "c"})).await.ok();
        assert_eq!(client.version("main").await, v0 + 3, "an idempotent write that changes nothing bumps nothing");

        // The app closes the notes window and later declares the same app id again.
        let first = operable(&client.read().await)[1].clone();
        rig.person(|s| s.notes_open = false);
        rig.until(|s| s.windows.len() == 1).await;
        rig.person(|s| s.notes_open = true);
        rig.until(|s| s.windows.len() == 2).await;
        let second = operable(&client.read().await)[1].clone();
        assert_ne!(first, second, "a closed id is never handed out again");
        assert_eq!(window(&client.read().await, &second)["version"], 1);
        let r = client.call(&format!("{first}__ping"), json!({})).await;
        assert_eq!(r.code(), "window_not_found", "the old id stays dead");
    }
}
