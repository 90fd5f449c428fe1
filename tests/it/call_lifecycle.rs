//! The life of one call on the UI thread, with frames driven by hand: admission, the
//! user-first rule, precise codes for calls the UI never claims, and timeouts that are never
//! applied afterwards (docs/design.md, invariants 5–7).

use crate::common;

use std::time::Duration;

use common::{Frames, TestState, declare};
use egui_mcp_bridge::testing::{Agent, AgentCall};
use egui_mcp_bridge::{Bridge, ErrorCode, Outcome};
use serde_json::{Map, json};

/// Frames driven by hand.
type Manual = Frames<TestState>;

fn manual(timeout: Duration) -> Manual {
    Frames::new(
        Bridge::builder().call_timeout(timeout),
        TestState { notes_open: true, ..TestState::default() },
        declare,
    )
}

impl Manual {
    /// An agent's call of `tool` (no arguments), answered in the two frames that follow.
    fn call(&mut self, tool: &str) -> Outcome {
        let mut rx = self.send(tool, json!({}));
        self.frame();
        self.frame();
        done(&mut rx).unwrap_or_else(|| panic!("{tool} answered in two frames"))
    }

    fn version(&self, id: &str) -> u64 {
        self.bridge.snapshot().state().window(id).map(|w| w.version).expect("window")
    }
}

fn done(rx: &mut AgentCall) -> Option<Outcome> {
    rx.try_outcome()
}

/// One frame per call: the pass that applies it is run again at once (egui's second pass),
/// and that pass, all after the call, is published and answers it.
#[test]
fn a_call_is_applied_published_and_answered_in_one_frame() {
    let mut m = manual(Duration::from_secs(5));
    let mut rx = m.send("main__set_name", json!({"name": "Ada"}));
    assert!(done(&mut rx).is_none(), "queued, not answered");
    let passes = m.frame();
    assert_eq!(m.state.name, "Ada", "applied during the frame");
    assert_eq!(passes, 2, "the applying pass ran again within the frame");
    let r = done(&mut rx).expect("answered in the same frame").expect("success");
    assert_eq!(r.version, Some(m.version("main")), "answered with the published version");
    assert_eq!(m.bridge.snapshot().state().window("main").unwrap().summary, "Name is \"Ada\"");
    assert_eq!(m.frame(), 1, "a quiet frame is one pass");
}

/// Where egui may not run a pass again (`max_passes` 1), the next frame publishes instead.
#[test]
fn without_a_second_pass_a_call_takes_two_frames() {
    let mut m = manual(Duration::from_secs(5));
    m.ctx.options_mut(|o| o.max_passes = std::num::NonZeroUsize::MIN);
    let mut rx = m.send("main__set_name", json!({"name": "Ada"}));
    assert_eq!(m.frame(), 1);
    assert_eq!(m.state.name, "Ada", "applied during the frame");
    assert!(done(&mut rx).is_none(), "not answered before a pass after it is published");
    m.frame();
    let r = done(&mut rx).expect("answered").expect("success");
    assert_eq!(r.version, Some(m.version("main")));
}

#[test]
fn two_writes_on_one_version_cannot_both_pass() {
    let mut m = manual(Duration::from_secs(5));
    let v = m.version("main");
    let mut first = m.send("main__set_name", json!({"name": "A", "expectedVersion": v}));
    let mut second = m.send("main__set_name", json!({"name": "B", "expectedVersion": v}));
    for _ in 0..4 {
        m.frame();
    }
    let first = done(&mut first).expect("first answered");
    let second = done(&mut second).expect("second answered");
    assert!(first.is_ok(), "{first:?}");
    let error = second.expect_err("the second write meets the first one's version");
    assert_eq!((error.code, error.current_version), (ErrorCode::StaleState, Some(v + 1)));
    assert_eq!(m.state.applied, ["set_name A"]);
}

#[test]
fn the_persons_input_frame_goes_first_and_the_agent_gets_stale_state() {
    let mut m = manual(Duration::from_secs(5));
    let v = m.version("main");
    let mut rx = m.send("main__set_name", json!({"name": "agent", "expectedVersion": v}));
    // The person types in the same frame: the app applies the person's edit, the bridge holds
    // the agent's call back.
    m.state.name = "person".into();
    m.frame_with(vec![egui::Event::Text("n".into())]);
    assert!(m.state.applied.is_empty(), "no agent call in a frame with the person's input");
    assert_eq!(m.version("main"), v + 1, "the person's change is published first");
    m.frame();
    let e = done(&mut rx).expect("answered").expect_err("user first");
    assert_eq!((e.code, e.current_version), (ErrorCode::StaleState, Some(v + 1)));
    assert_eq!(m.state.name, "person");
}

#[test]
fn calls_the_ui_never_claims_end_with_precise_codes() {
    let mut m = manual(Duration::from_secs(5));
    m.state.extra = true;
    m.frame();
    let notes = m.bridge.external_id(common::UNSAFE_ID).expect("notes open");

    // The action disappears between the agent's read and the frame.
    let mut rx = m.send("main__extra", json!({}));
    m.state.extra = false;
    m.frame();
    assert_eq!(done(&mut rx).expect("answered").unwrap_err().code, ErrorCode::ActionNotAvailable);

    // The window closes between the agent's read and the frame.
    let mut rx = m.send(&format!("{notes}__ping"), json!({}));
    m.state.notes_open = false;
    m.frame();
    assert_eq!(done(&mut rx).expect("answered").unwrap_err().code, ErrorCode::WindowNotFound);

    // A dialog opens on the window between the agent's read and the frame: the call is
    // refused against the frame that published the dialog.
    m.state.dialogs.push("late".into());
    let mut rx = m.send("main__set_name", json!({"name": "x"}));
    m.frame_with(vec![egui::Event::Text("person".into())]);
    m.frame();
    let e = done(&mut rx).expect("answered").unwrap_err();
    assert_eq!((e.code, e.blocking_window_id.as_deref()), (ErrorCode::BlockedByModal, Some("late")));
    assert_eq!(m.state.name, "", "never applied");
}

#[test]
fn a_timed_out_call_is_never_applied_afterwards() {
    let mut m = manual(Duration::from_millis(50));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // The UI runs no frame while the call waits: it times out.
    let outcome =
        rt.block_on(Agent::new(&m.bridge).call("main__set_name", Map::from_iter([("name".into(), json!("late"))])));
    assert_eq!(outcome.unwrap_err().code, ErrorCode::ActionTimeout);
    for _ in 0..3 {
        m.frame();
    }
    assert_eq!(m.state.name, "", "a timed-out call never takes effect");
    assert!(m.state.applied.is_empty());
    // Nothing of it is left in the queue: the next call is taken at once.
    let mut next = m.send("main__set_name", json!({"name": "next"}));
    m.frame();
    m.frame();
    assert!(done(&mut next).expect("answered in two frames").is_ok());
    assert_eq!(m.state.name, "next");
}

#[test]
fn shutting_down_answers_every_waiting_call() {
    let m = manual(Duration::from_secs(5));
    let mut rx = m.send("main__set_name", json!({"name": "x"}));
    m.ctx.on_exit();
    assert_eq!(done(&mut rx).expect("answered").unwrap_err().code, ErrorCode::ActionTimeout);
}

/// A client that leaves (its request future dropped) before the UI took its call: the call is
/// cancelled and never applied.
#[test]
fn a_call_whose_client_left_is_never_applied() {
    let mut m = manual(Duration::from_secs(5));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let agent = Agent::new(&m.bridge);
    let mut args = Map::new();
    args.insert("name".into(), json!("Ghost"));
    // Poll the call once (it is queued), then drop it, as rmcp drops a cancelled request.
    rt.block_on(async {
        let call = agent.call("main__set_name", args);
        tokio::pin!(call);
        assert!(futures_poll_once(call.as_mut()).await.is_none(), "queued, waiting for the UI");
    });
    for _ in 0..3 {
        m.frame();
    }
    assert_ne!(m.state.name, "Ghost", "applied after its client left");
    let last = m.bridge.activity().pop().expect("recorded");
    assert_eq!(last.error, Some(ErrorCode::ActionTimeout), "{last:?}");
}

/// Polls a future once; `Some` if it finished.
async fn futures_poll_once<F: std::future::Future + Unpin>(mut f: F) -> Option<F::Output> {
    std::future::poll_fn(|cx| match std::pin::Pin::new(&mut f).poll(cx) {
        std::task::Poll::Ready(v) => std::task::Poll::Ready(Some(v)),
        std::task::Poll::Pending => std::task::Poll::Ready(None),
    })
    .await
}

/// An agent cannot make the app hold a string of any length: past the bridge-wide limit an
/// argument is `validation_failed` naming the parameter, before the app sees the call.
#[test]
fn an_overlong_string_argument_is_refused_before_the_app_sees_it() {
    let mut m = manual(Duration::from_secs(5));
    let mut rx = m.send("main__set_name", json!({"name": "x".repeat(2_000_000)}));
    let e = done(&mut rx).expect("answered at once").expect_err("refused");
    assert_eq!(e.code, ErrorCode::ValidationFailed);
    assert_eq!(e.fields.as_ref().map(|f| f[0].field.as_str()), Some("name"));
    assert!(e.message.len() < 200, "the value is not repeated");
    m.frame();
    assert!(m.state.name.is_empty(), "the app never saw it");
    let mut rx = m.send("main__set_name", json!({"name": "x".repeat(10_000)}));
    m.frame();
    m.frame();
    assert!(done(&mut rx).expect("answered").is_ok(), "at the limit it passes");
}

/// A tool name longer than any tool's is refused without being repeated.
#[test]
fn an_overlong_tool_name_is_refused_without_echo() {
    let m = manual(Duration::from_secs(5));
    let name = format!("{}__set_name", "w".repeat(10_000));
    let mut rx = m.send(&name, json!({}));
    let e = done(&mut rx).expect("answered at once").expect_err("refused");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    assert!(e.message.len() < 200, "{}", e.message.len());
}

/// A call the app takes and drops without an answer is answered with an error that says so,
/// never with a success the app did not give.
#[test]
fn a_dropped_unanswered_call_is_an_error_not_a_success() {
    let mut m = manual(Duration::from_secs(5));
    let e = m.call("main__forget").expect_err("not a success");
    assert_eq!(e.code, ErrorCode::ActionNotAvailable);
    assert!(e.message.contains("did not answer"), "{}", e.message);
}

/// One bridge serves one app context: its plugin in a second context does nothing, so two UI
/// threads never interleave their passes in one bookkeeping.
#[test]
fn a_second_context_with_the_same_bridge_is_inert() {
    let mut m = manual(Duration::from_secs(5));
    let other = egui::Context::default();
    other.add_plugin(m.bridge.plugin());
    let before = m.bridge.snapshot().windows_revision();
    // The other context declares a window of its own in its passes: it is never published.
    for _ in 0..3 {
        let bridge = m.bridge.clone();
        other
            .run_ui(egui::RawInput::default(), |_| {
                bridge.window("stray").title("Stray").declare(|_| ());
            })
            .drop_without_applying_deltas();
    }
    assert_eq!(m.bridge.snapshot().windows_revision(), before, "the second context published nothing");
    // The first context still serves calls.
    let mut rx = m.send("main__set_name", json!({"name": "Ada"}));
    m.frame();
    m.frame();
    assert!(done(&mut rx).expect("answered").is_ok());
}

/// A dialog that the app draws before the code that applies the call (so the first pass is too
/// late to show it) is declared in the second pass of the same frame: the call, answered after
/// one frame, names it in `openedWindowIds` and its tools in `newTools`.
#[test]
fn a_dialog_drawn_before_the_applying_code_counts_after_one_frame() {
    use egui_mcp_bridge::ActionSpec;
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let mut open = false;
    let frame = |open: &mut bool| {
        let mut passes = 0;
        ctx.run_ui(egui::RawInput::default(), |_ui| {
            passes += 1;
            if *open {
                bridge.window("dlg").title("Dialog").modal_of("main").declare(|w| {
                    if let Some(call) = w.button("close", ActionSpec::new("Close")) {
                        call.ok("closed");
                    }
                });
            }
            bridge.window("main").title("Main").declare(|w| {
                if let Some(call) = w.button("open", ActionSpec::new("Open the dialog")) {
                    *open = true;
                    call.ok("opened");
                }
            });
        })
        .drop_without_applying_deltas();
        passes
    };
    frame(&mut open);
    let mut rx = Agent::new(&bridge).send("main__open", json!({}));
    assert_eq!(frame(&mut open), 2, "applied, then the pass ran again");
    let r = done(&mut rx).expect("answered in that frame").expect("success");
    assert_eq!(r.opened_window_ids, ["dlg"]);
    assert_eq!(r.new_tools, ["dlg__close"]);
    assert_eq!(bridge.snapshot().state().operable_window_ids, ["dlg"], "the published state has it");
}

/// What the agent did stays visible on the window it changed: a call that closed its own
/// dialog marks the dialog's owner, and one window is marked at a time, the latest call's.
/// (Before, the mark stayed with the closed dialog, so the changed window was left unmarked,
/// and every window kept its own last mark, several outlined at once.)
#[test]
fn the_latest_call_marks_one_window_the_nearest_still_open() {
    let mut m = manual(Duration::from_secs(5));
    assert!(m.call("main__open_dialog").is_ok());
    assert_eq!(m.bridge.agent_action("main").map(|a| a.title), Some("Open dialog".to_owned()));
    let dialog = m.state.dialogs[0].clone();
    let handle = m.bridge.external_id(&dialog).expect("the dialog is open");
    assert!(m.call(&format!("{handle}__close")).is_ok());
    assert!(m.state.dialogs.is_empty(), "closed by the call");
    assert_eq!(
        m.bridge.agent_action("main").map(|a| a.title),
        Some("Close".to_owned()),
        "the window the call changed carries its mark"
    );
    let notes = m.bridge.external_id(common::UNSAFE_ID).expect("notes open");
    assert!(m.call(&format!("{notes}__ping")).is_ok());
    assert!(m.bridge.agent_action(common::UNSAFE_ID).is_some(), "the latest call's window is marked");
    assert!(m.bridge.agent_action("main").is_none(), "one window at a time");
}

/// Misuse is loud: a dialog whose owner is misspelt becomes an app-level modal that blocks
/// every window, so the bridge says so, naming the window, once (not every frame); and a
/// declaration outside any pass, which counts for nothing, is said once too. Before, nothing
/// was logged for the first and a debug line for the second.
#[test]
fn a_misspelt_owner_and_a_declaration_outside_a_pass_are_warned_once() {
    use std::sync::Arc;
    let logged = Arc::new(parking_lot::Mutex::new(String::new()));
    let sink = Arc::clone(&logged);
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_max_level(tracing::Level::WARN)
        .with_writer(move || Sink(Arc::clone(&sink)))
        .finish();
    tracing::subscriber::with_default(subscriber, || {
        let bridge = Bridge::builder().build();
        bridge.window("stray").title("Outside").declare(|_| ());
        bridge.window("stray-2").title("Outside").declare(|_| ());
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        for _ in 0..3 {
            ctx.run_ui(egui::RawInput::default(), |_ui| {
                bridge.window("main").title("Main").declare(|_| ());
                bridge.window("dlg").title("Dialog").modal_of("mian").declare(|_| ());
            })
            .drop_without_applying_deltas();
        }
        assert!(bridge.snapshot().state().operable_window_ids.len() == 1, "the dialog blocks the app");
    });
    let text = logged.lock().clone();
    assert_eq!(text.matches("owner is not declared").count(), 1, "once, not every frame:\n{text}");
    assert!(text.contains("window=\"dlg\"") && text.contains("owner=\"mian\""), "{text}");
    assert!(text.contains("app-level modal"), "{text}");
    assert_eq!(text.matches("outside an egui pass").count(), 1, "{text}");
}

/// A writer into a shared string.
struct Sink(std::sync::Arc<parking_lot::Mutex<String>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().push_str(&String::from_utf8_lossy(buf));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
