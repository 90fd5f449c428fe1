//! An app that embeds the bridge with its own `tracing` subscriber, set up as the serving guide says
//! (`EnvFilter` from `RUST_LOG`, a formatting layer, and `egui_mcp_bridge::log_filter` as a
//! global filter): the secrets an agent sends, directly, through a dispatcher and as a wrong
//! PIN, over the stdio transport and over HTTP, reach no log line at any filter.
//!
//! The subscriber is the process's global one (the bridge logs from its own threads), installed
//! once; its `EnvFilter` is reloaded per filter. Other tests of this binary may log into it
//! meanwhile: the writer keeps only lines that carry a marker, so it holds next to nothing.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use common::{Lifecycle, Rig};
use egui_mcp_bridge::serve::HttpOptions;
use parking_lot::Mutex;
use serde_json::json;
use tracing_subscriber::prelude::*;
use tracing_subscriber::{EnvFilter, Registry, reload};

/// Secrets sent by the agent, one per path; none may reach a log line.
const DIRECT: &str = "mark-direct-5105105105105100";
const DISPATCHED: &str = "mark-dispatched-2203";
const WRONG_PIN: &str = "mark-wrong-pin-4711";
const HTTP_DIRECT: &str = "mark-http-direct-0815";
const HTTP_DISPATCHED: &str = "mark-http-dispatched-9931";
const HTTP_WRONG_PIN: &str = "mark-http-pin-6502";
/// Written into the password edit of a window the app has not described.
const UNDESCRIBED: &str = "mark-undescribed-pw-3317";
const MARKERS: [&str; 7] = [DIRECT, DISPATCHED, WRONG_PIN, HTTP_DIRECT, HTTP_DISPATCHED, HTTP_WRONG_PIN, UNDESCRIBED];

/// The same filters as the demo's test: the broadest, and rmcp directives more specific than
/// any pin an app could add.
const FILTERS: [&str; 5] = ["trace", "debug", "rmcp=trace", "rmcp::service=trace", "egui_mcp_bridge=trace"];

/// The app's subscriber: what it wrote that carried a marker, and how many lines it wrote.
struct Capture {
    filter: reload::Handle<EnvFilter, Registry>,
    /// Off: `log_filter` is left out (the control that shows the capture sees a leak).
    guard_on: Arc<AtomicBool>,
    leaks: Arc<Mutex<Vec<String>>>,
    lines: Arc<AtomicUsize>,
}

/// A writer that scans each formatted event for the markers and keeps only those that carry one.
struct Scan {
    leaks: Arc<Mutex<Vec<String>>>,
    lines: Arc<AtomicUsize>,
}

impl std::io::Write for Scan {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.lines.fetch_add(1, Ordering::Relaxed);
        let text = String::from_utf8_lossy(buf);
        if MARKERS.iter().any(|m| text.contains(m)) {
            let mut leaks = self.leaks.lock();
            if leaks.len() < 20 {
                leaks.push(text.chars().take(400).collect());
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn capture() -> &'static Capture {
    static CAPTURE: OnceLock<Capture> = OnceLock::new();
    CAPTURE.get_or_init(|| {
        let (filter, handle) = reload::Layer::new(EnvFilter::new("off"));
        let (leaks, lines, guard_on) = (Arc::default(), Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(true)));
        let (w_leaks, w_lines, on) = (Arc::clone(&leaks), Arc::clone(&lines), Arc::clone(&guard_on));
        // As the serving guide says: the app's filter, its formatting layer, and `log_filter` global.
        tracing_subscriber::registry()
            .with(filter)
            .with(
                tracing_subscriber::fmt::layer()
                    .with_ansi(false)
                    .with_writer(move || Scan { leaks: Arc::clone(&w_leaks), lines: Arc::clone(&w_lines) }),
            )
            .with(tracing_subscriber::filter::filter_fn(move |m| {
                !on.load(Ordering::Acquire) || egui_mcp_bridge::log_filter(m)
            }))
            .try_init()
            .expect("no other global subscriber in this test binary");
        Capture { filter: handle, guard_on, leaks, lines }
    })
}

/// Runs the agent's calls with secrets over both transports under `filter`; returns the lines
/// that carried a marker and how many lines were written.
fn run_under(filter: &str, guard_on: bool) -> (Vec<String>, usize) {
    let c = capture();
    c.guard_on.store(guard_on, Ordering::Release);
    c.filter.reload(EnvFilter::new(filter)).expect("reload the filter");
    c.leaks.lock().clear();
    c.lines.store(0, Ordering::Release);

    let rt = tokio::runtime::Runtime::new().expect("a runtime");
    let rig = Rig::start();
    rt.block_on(async {
        let client = rig.connect(Lifecycle::Legacy).await;
        client.call("main__set_secret", json!({"secret": DIRECT})).await.ok();
        let dispatched = json!({"tool": "main__set_secret", "arguments": {"secret": DISPATCHED}});
        client.call("app__call", dispatched).await.ok();
        client.call("app__lock", json!({})).await.ok();
        let state = client.read().await;
        let lock = common::operable(&state).into_iter().find(|id| id.starts_with("lock")).expect("the lock is open");
        assert_eq!(
            client.call(&format!("{lock}__unlock"), json!({"pin": WRONG_PIN})).await.code(),
            "validation_failed"
        );
        client.call(&format!("{lock}__unlock"), json!({"pin": "1234"})).await.ok();
        write_undescribed_password().await;
    });

    let served = crate::http::Served::serve(rig, HttpOptions::default().without_token());
    let session = served.session(true);
    let call = |name: &str, args: serde_json::Value| served.call(&session, name, &args);
    call("main__set_secret", json!({"secret": HTTP_DIRECT}));
    call("app__call", json!({"tool": "main__set_secret", "arguments": {"secret": HTTP_DISPATCHED}}));
    let locked = call("app__lock", json!({}));
    let lock = locked["openedWindowIds"][0].as_str().expect("the lock opened").to_owned();
    assert_eq!(call(&format!("{lock}__unlock"), json!({"pin": HTTP_WRONG_PIN}))["code"], "validation_failed");
    drop(served);

    c.filter.reload(EnvFilter::new("off")).expect("reload the filter");
    let leaks = c.leaks.lock().clone();
    (leaks, c.lines.load(Ordering::Acquire))
}

/// An app that describes nothing, with a password edit: an agent writes it through the
/// window's generic `edit_field` (the read view's), and it is written.
async fn write_undescribed_password() {
    let bridge = egui_mcp_bridge::Bridge::builder().build();
    let written = Arc::new(Mutex::new(String::new()));
    let in_app = Arc::clone(&written);
    let _ui = egui_mcp_bridge::testing::HeadlessUi::start(&bridge, "proxy-ui", move || {
        let written = in_app;
        move |ui: &mut egui::Ui| {
            egui::Window::new("Proxy").show(ui.ctx(), |ui| {
                let label = ui.label("Password");
                ui.add(egui::TextEdit::singleline(&mut *written.lock()).password(true)).labelled_by(label.id);
            });
        }
    });
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let _serving = bridge.serve_io("duplex", server_io).expect("serve");
    let mut client = common::Client::connect(client_io, Lifecycle::Legacy, "proxy-agent").await;
    client.subscribe().await;
    while !client.read().await.to_string().contains("ui-proxy") {
        client.next_note().await;
    }
    let set = client.call("ui-proxy__edit_field", json!({"field": "password", "value": UNDESCRIBED})).await;
    assert!(!set.ok().to_string().contains(UNDESCRIBED), "{:?}", set.ok());
    assert_eq!(*written.lock(), UNDESCRIBED, "the password edit holds what the agent wrote");
    assert!(!client.read().await.to_string().contains(UNDESCRIBED));
}

#[test]
fn an_apps_own_subscriber_with_log_filter_logs_no_secret_at_any_filter() {
    // The control: without `log_filter`, rmcp writes the arguments, so this capture would see
    // a leak (the test can fail).
    let (leaks, _) = run_under("rmcp::service=trace", false);
    assert!(!leaks.is_empty(), "without log_filter, rmcp logs the arguments: the capture sees them");

    for filter in FILTERS {
        let (leaks, lines) = run_under(filter, true);
        assert!(leaks.is_empty(), "RUST_LOG={filter}: a secret reached a log line:\n{}", leaks.join("\n"));
        if !filter.starts_with("rmcp") {
            assert!(lines > 10, "RUST_LOG={filter}: verbose logging was on ({lines} lines)");
        }
    }
}
