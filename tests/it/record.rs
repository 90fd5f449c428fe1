//! Recording agents' calls (`BridgeBuilder::record`) and replaying them (`Harness::replay`):
//! secrets left out of the file, the person's own press not recorded, versions carried
//! relatively, an answer the app gives later awaited, calls over MCP with their clients' names,
//! the size limit, and a cut or malformed file refused with its line.
#![allow(clippy::unwrap_used, reason = "test helpers may unwrap: a panic is a failed test")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::testing::{Harness, Replay, ReplayError};
use egui_mcp_bridge::{ActionSpec, Bridge, Deferred, ErrorCode, Input};
use serde_json::json;

use crate::common::WAIT;

/// Secrets an agent sends, each by another path; none may be in a recording.
const FIELD_SECRET: &str = "mark-rec-field-4410";
const FIELDS_SECRET: &str = "mark-rec-fields-5521";
const PARAM_SECRET: &str = "mark-rec-pin-6632";
const UNDESCRIBED_SECRET: &str = "mark-rec-undescribed-7743";
const GONE_SECRET: &str = "mark-rec-gone-8854";

#[derive(Default)]
struct Login {
    name: String,
    password: String,
    legacy_password: String,
    paid: u32,
    /// A press kept to answer two passes later (an effect that takes time).
    connecting: Option<(Deferred, u32)>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Pay {
    #[schemars(extend("writeOnly" = true))]
    pin: String,
}

/// A described window (a text field, a secret one, a deferred button, an action with a
/// `writeOnly` parameter) and a window the app has not described, with a password edit.
fn app(bridge: &Bridge, ui: &mut egui::Ui, s: &mut Login) {
    bridge.window("login").title("Login").summary(format!("{} paid {}", s.name, s.paid)).ui(ui, |w, ui| {
        w.form(ui, "f", |f| {
            f.edit("name", &Input::text("Name"), &mut s.name);
            f.edit("password", &Input::secret("Password"), &mut s.password);
        });
        if let Some(press) = w.button(ui, "connect", ActionSpec::new("Connect")).inner {
            s.connecting = Some((press.defer(), 2));
        }
        if let Some(call) = w.agents().action::<Pay>("pay", ActionSpec::new("Pay")) {
            let ok = call.args().pin == PARAM_SECRET;
            s.paid += u32::from(ok);
            call.ok(if ok { "Paid" } else { "Wrong PIN" });
        }
    });
    if let Some((d, passes)) = s.connecting.take() {
        if passes == 0 {
            d.ok(format!("Connected as {}", s.name));
        } else {
            s.connecting = Some((d, passes - 1));
        }
        ui.ctx().request_repaint();
    }
    egui::Window::new("Legacy").show(ui.ctx(), |ui| {
        let label = ui.label("Password");
        ui.add(egui::TextEdit::singleline(&mut s.legacy_password).password(true)).labelled_by(label.id);
    });
}

/// The secrets of [`record_session`], as the replay takes them.
fn with_secrets<'h, 'a>(replay: Replay<'h, 'a, Login>) -> Replay<'h, 'a, Login> {
    replay
        .secret("password", FIELD_SECRET)
        .secret("password#2", FIELDS_SECRET)
        .secret("pin", PARAM_SECRET)
        .secret("pin#2", "not-it")
        .secret("password#3", UNDESCRIBED_SECRET)
}

fn harness(bridge: &Bridge) -> Harness<'static, Login> {
    let b = bridge.clone();
    Harness::builder(bridge)
        .with_size([800.0, 600.0])
        .build_ui_state(move |ui, s: &mut Login| app(&b, ui, s), Login::default())
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("egui-mcp-record-{}-{name}.jsonl", std::process::id()))
}

/// A session: every kind of secret sent, a stale write, and a deferred press. Returns its file.
fn record_session(name: &str) -> PathBuf {
    let path = temp(name);
    let bridge = Bridge::builder().record(&path).unwrap().build();
    let mut h = harness(&bridge);
    // The person's own press is the app's, not recorded.
    h.get_by_label("Connect").click();
    h.run();
    assert!(h.state().connecting.is_none(), "the person's press was answered");
    let v = h.window("login").unwrap().version;
    let set = |f: serde_json::Value, v: u64| {
        let mut f = f;
        f["expectedVersion"] = v.into();
        f
    };
    let r = h.call("login__edit_field", set(json!({"field": "password", "value": FIELD_SECRET}), v)).unwrap();
    let v2 = r.version.unwrap();
    h.call("login__edit_field", set(json!({"fields": {"name": "Ada", "password": FIELDS_SECRET}}), v2)).unwrap();
    let stale = h.call("login__edit_field", set(json!({"field": "name", "value": "Bob"}), v2)).unwrap_err();
    assert_eq!(stale.code, ErrorCode::StaleState);
    h.call("login__pay", json!({"pin": PARAM_SECRET})).unwrap();
    h.call("login__pay", json!({"pin": "not-it"})).unwrap();
    let connected = h.call("login__connect", json!({})).unwrap();
    assert_eq!(connected.message.as_deref(), Some("Connected as Ada"));
    let legacy = h.window("ui-legacy").unwrap();
    let set = json!({"field": "password", "value": UNDESCRIBED_SECRET, "expectedVersion": legacy.version});
    h.call("ui-legacy__edit_field", set).unwrap();
    // A window the state does not have: what was sent cannot be told from a secret.
    let gone = h.call("gone__edit_field", json!({"field": "password", "value": GONE_SECRET})).unwrap_err();
    assert_eq!(gone.code, ErrorCode::WindowNotFound);
    assert!(bridge.flush_recording(WAIT), "written");
    path
}

#[test]
fn no_secret_is_in_a_recording_and_the_replay_takes_them_from_the_test() {
    let path = record_session("secrets");
    let text = std::fs::read_to_string(&path).unwrap();
    for secret in [FIELD_SECRET, FIELDS_SECRET, PARAM_SECRET, UNDESCRIBED_SECRET, GONE_SECRET, "not-it"] {
        assert!(!text.contains(secret), "{secret} recorded:\n{text}");
    }
    // Each different value of one field has a placeholder of its own.
    for name in ["password", "password#2", "pin", "pin#2"] {
        assert!(text.contains(&format!(r#"{{"$secret":"{name}"}}"#)), "no {name}:\n{text}");
    }
    assert_eq!(text.lines().count(), 9, "the header and the agent's eight calls, refused ones included:\n{text}");
    assert!(text.contains(r#""args":{"field":"password","value":{"$withheld":"password"}}"#), "{text}");
    assert!(text.lines().nth(6).unwrap().contains(r#""answer":{"message":"Connected as Ada""#), "{text}");

    let bridge = Bridge::builder().build();
    let mut h = harness(&bridge);
    let e = h.replay(&path).secret("password", FIELD_SECRET).run().unwrap_err();
    assert!(matches!(&e, ReplayError::Secret { line: 3, name } if name == "password#2"), "{e}");
    let report = with_secrets(h.replay(&path)).run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.calls, 8);
    let s = h.state();
    assert_eq!((s.password.as_str(), s.legacy_password.as_str(), s.paid), (FIELDS_SECRET, UNDESCRIBED_SECRET, 1));

    // Another PIN where the recording paid: the replay names that call.
    let bridge = Bridge::builder().build();
    let mut h = harness(&bridge);
    let e = h
        .replay(&path)
        .secret("password", FIELD_SECRET)
        .secret("password#2", FIELDS_SECRET)
        .secret("pin", "wrong")
        .secret("pin#2", "not-it")
        .secret("password#3", UNDESCRIBED_SECRET)
        .run()
        .unwrap_err();
    assert_eq!((e.line(), e.tool()), (5, Some("login__pay")), "{e}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn versions_are_carried_relatively() {
    let path = record_session("versions");
    // The person types first: every version of the window is higher than when recorded. A call
    // that expected the window's version then expects its version now, and the stale one is
    // stale again.
    let bridge = Bridge::builder().build();
    let mut h = harness(&bridge);
    h.state_mut().name = "Someone".into();
    h.run();
    h.state_mut().name.clear();
    h.run();
    assert!(h.window("login").unwrap().version >= 3);
    let report = with_secrets(h.replay(&path)).run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.calls, 8);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_recording_stops_at_its_size_limit_and_its_replay_fails_there() {
    let path = temp("limit");
    let bridge = Bridge::builder().record_with_limit(&path, 1024).unwrap().build();
    let mut h = harness(&bridge);
    for i in 0..20 {
        let v = h.window("login").unwrap().version;
        h.call("login__edit_field", json!({"field": "name", "value": format!("name {i}"), "expectedVersion": v}))
            .unwrap();
    }
    assert!(bridge.flush_recording(WAIT));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.len() <= 1024, "{} bytes", text.len());
    let last = text.lines().last().unwrap();
    assert!(last.starts_with(r#"{"stopped":"the recording reached its size limit of 1024 bytes"#), "{text}");
    let lines = text.lines().count();
    let e = harness(&Bridge::builder().build()).replay(&path).run().unwrap_err();
    assert!(matches!(&e, ReplayError::Line { line, why } if *line == lines && why.contains("size limit")), "{e}");

    let small = Bridge::builder().record_with_limit(&path, 1000).unwrap_err();
    assert_eq!(small.kind(), std::io::ErrorKind::InvalidInput, "{small}");
    assert!(Bridge::builder().record(Path::new("/nonexistent-folder/calls.jsonl")).is_err(), "refused at start");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_cut_or_malformed_recording_fails_with_its_line() {
    let path = record_session("malformed");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let replay = |contents: String| -> ReplayError {
        let bad = temp("malformed-copy");
        std::fs::write(&bad, contents).unwrap();
        let e = with_secrets(harness(&Bridge::builder().build()).replay(&bad)).run().unwrap_err();
        std::fs::remove_file(&bad).unwrap();
        e
    };
    // Cut in the middle of its last line (a recording the app never finished).
    let cut = text.trim_end();
    let e = replay(cut[..cut.len() - 10].to_owned());
    assert!(matches!(&e, ReplayError::Line { line: 9, why } if why.starts_with("not a recorded call")), "{e}");
    // A line that is not JSON, an empty line, another file.
    let mut bad = lines.clone();
    bad[2] = "{not json";
    assert!(matches!(replay(bad.join("\n")), ReplayError::Line { line: 3, .. }));
    let mut bad = lines.clone();
    bad[4] = "";
    assert!(matches!(replay(bad.join("\n")), ReplayError::Line { line: 5, why } if why == "an empty line"));
    let e = replay(format!("{{\"some\":\"thing\"}}\n{}", lines[1..].join("\n")));
    assert!(matches!(&e, ReplayError::Line { line: 1, .. }), "{e}");
    assert!(e.to_string().starts_with("line 1 of the recording: not a recording's first line"), "{e}");
    let e = harness(&Bridge::builder().build()).replay(temp("none")).run().unwrap_err();
    assert!(matches!(e, ReplayError::Io { .. }));
    std::fs::remove_file(&path).unwrap();
}

/// Two hundred calls in a row: each is in the file, in the order they were answered.
#[test]
fn many_calls_are_recorded_in_the_order_they_were_answered() {
    let path = temp("many");
    let bridge = Bridge::builder().record(&path).unwrap().build();
    let mut h = harness(&bridge);
    for i in 0..200 {
        let v = h.window("login").unwrap().version;
        h.call("login__edit_field", json!({"field": "name", "value": format!("n{i}"), "expectedVersion": v})).unwrap();
    }
    assert!(bridge.flush_recording(Duration::from_secs(10)));
    let text = std::fs::read_to_string(&path).unwrap();
    let names: Vec<String> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["args"]["value"].to_string())
        .collect();
    assert_eq!(names.len(), 200);
    assert!(names.iter().enumerate().all(|(i, n)| *n == format!("\"n{i}\"")), "in order");
    std::fs::remove_file(&path).unwrap();
}

/// Over MCP: two connections, one calling directly and one through the dispatcher `app__call`,
/// are recorded with their clients' names; a read of the state is not a call to the app and is
/// not recorded; an error is recorded with its code and fields.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_over_mcp_are_recorded_with_their_clients_names() {
    use crate::common::{Lifecycle, Rig};
    let path = temp("mcp");
    let rig = Rig::start_with(Bridge::builder().app_name("test-app").record(&path).unwrap());
    let alpha = rig.connect_as(Lifecycle::Legacy, "alpha-agent").await;
    let beta = rig.connect_as(Lifecycle::Modern, "beta-agent").await;
    let v = alpha.version("main").await;
    assert!(!alpha.call("main__set_name", json!({"name": "Ada", "expectedVersion": v})).await.is_error);
    let dispatched = json!({"tool": "main__set_name", "arguments": {"name": "Bob", "expectedVersion": v + 1}});
    assert!(!beta.call("app__call", dispatched).await.is_error);
    assert!(!beta.call("app__read_windows", json!({})).await.is_error);
    assert!(alpha.call("main__reject", json!({})).await.is_error);
    assert!(rig.bridge.flush_recording(WAIT));
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4, "the header and three calls:\n{text}");
    assert_eq!(lines[0]["app"], "test-app");
    let seen: Vec<(&str, &str)> =
        lines[1..].iter().map(|l| (l["client"].as_str().unwrap(), l["tool"].as_str().unwrap())).collect();
    assert_eq!(
        seen,
        [("alpha-agent", "main__set_name"), ("beta-agent", "main__set_name"), ("alpha-agent", "main__reject")]
    );
    assert_eq!(
        (lines[2]["expectedVersion"].as_u64(), lines[2]["answer"]["version"].as_u64()),
        (Some(v + 1), Some(v + 2))
    );
    assert_eq!(lines[3]["error"]["fields"][0]["field"], "name", "{text}");
    drop((alpha, beta));
    std::fs::remove_file(&path).unwrap();
}

/// A call refused for breaking its arguments' bounds (a string past the limit) never reaches
/// the app and is not recorded: its arguments, as large as a request may be, are not copied
/// into the file (they were, whole).
#[test]
fn a_call_past_its_arguments_bounds_is_not_recorded() {
    let path = temp("bounds");
    let bridge = Bridge::builder().record(&path).unwrap().build();
    let mut h = harness(&bridge);
    let long = "x".repeat(egui_mcp_bridge::limits::DEFAULT_MAX_STRING_CHARS + 1);
    let e = h.call("login__edit_field", json!({"field": "name", "value": long})).unwrap_err();
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    h.call("login__edit_field", json!({"field": "name", "value": "Ada"})).unwrap();
    assert!(bridge.flush_recording(WAIT), "written");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().count(),
        2,
        "the header and the one call that reached the app:\n{}",
        &text[..text.len().min(300)]
    );
    assert!(!text.contains("xxxxxxxxxx"), "the refused call's argument is not in the file");
    std::fs::remove_file(&path).unwrap();
}
