//! Serving lasts as long as its handle: the README's `main` with the `Bridge` moved into the
//! app creator and dropped there (the app keeps only the handle) is still served, over a byte
//! stream and over HTTP. And when what the server needs is gone anyway (the app's UI, or a
//! runtime given with `BridgeBuilder::runtime`), the handle says it is closed.

use crate::common;

use std::net::SocketAddr;
use std::sync::mpsc;

use common::{Client, Lifecycle, Note, WAIT};
use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::serve::HttpOptions;
use egui_mcp_bridge::testing::{Agent, HeadlessUi};
use serde_json::json;

/// What the app draws: plain egui, described to agents by the read view alone (the app keeps
/// no `Bridge` to describe anything with).
fn greeting(ui: &mut egui::Ui) {
    egui::Window::new("Greeting").show(ui.ctx(), |ui| {
        ui.label("Hello from the app");
    });
}

/// The README's `main` in the shape of the report: `serve` gets the bridge, then the bridge is
/// moved into the app creator, which adds the plugin and drops the bridge; the app keeps only
/// what `serve` returned. Returns once the last `Bridge` clone is gone, with what the UI
/// publishes (a receiver only: it keeps nothing of the bridge alive).
fn main_without_the_bridge<H>(serve: impl FnOnce(&Bridge) -> H) -> (H, HeadlessUi, Published) {
    let bridge = Bridge::builder().app_name("moved-away").build();
    let published = Agent::new(&bridge).watch();
    let serving = serve(&bridge);
    let (dropped_tx, dropped) = mpsc::channel();
    let for_the_plugin = bridge.clone();
    // `start` adds the plugin, as the creator's `cc.egui_ctx.add_plugin(bridge.plugin())` does.
    let ui = HeadlessUi::start(&for_the_plugin, "moved-away-ui", move || {
        drop(bridge); // the creator returns the app; the Bridge it was given goes
        let _ = dropped_tx.send(());
        greeting
    });
    drop(for_the_plugin);
    dropped.recv_timeout(WAIT).expect("the app creator ran");
    (serving, ui, published)
}

type Published = tokio::sync::watch::Receiver<std::sync::Arc<egui_mcp_bridge::state::Snapshot>>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_io_keeps_serving_with_the_bridge_moved_away_and_dropped() {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let (serving, _ui, mut published) =
        main_without_the_bridge(|bridge| bridge.serve_io("duplex", server_io).expect("serve"));
    // The UI's first pass is published (by the plugin alone: no Bridge is left), so that every
    // change after the client connects is notified.
    let first = published.wait_for(|s| s.windows_revision() > 0);
    tokio::time::timeout(WAIT, first).await.expect("published in time").expect("the hub is there");
    let mut client = tokio::time::timeout(WAIT, Client::connect(client_io, Lifecycle::Legacy, "test-client"))
        .await
        .expect("in time");
    client.subscribe().await;
    // A request after the handshake, with no Bridge left: answered, with what the UI shows.
    let mut state = tokio::time::timeout(WAIT, client.read()).await.expect("the read is answered");
    while !state.to_string().contains("Hello from the app") {
        assert_eq!(client.next_note().await, Note::Updated(common::URI.into()), "{state}");
        state = tokio::time::timeout(WAIT, client.read()).await.expect("the read is answered");
    }
    assert!(!serving.is_closed(), "still serving");
    // The handle was all that kept it: dropping it still closes the connection (and its task,
    // the last to hold the server's runtime, lets go of it from that runtime's own thread).
    drop(serving);
    tokio::time::timeout(WAIT, client.service.waiting()).await.expect("the connection closed").expect("ended");
}

#[test]
fn serve_http_keeps_serving_with_the_bridge_moved_away_and_dropped() {
    let (http, _ui, _) = main_without_the_bridge(|bridge| {
        bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default().without_token()).expect("bind")
    });
    let (addr, host) = (http.local_addr(), format!("127.0.0.1:{}", http.local_addr().port()));
    let session = crate::http::init_session(addr, &host, true);
    let read = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": common::URI}});
    let r = crate::http::post(addr, &host, &[("Mcp-Session-Id", &session)], &read.to_string());
    assert_eq!(r.status, 200, "{}", r.head);
    let answer = crate::http::message(&r.body);
    assert!(answer["result"]["contents"][0]["text"].is_string(), "{answer}");
    assert!(!http.is_closed(), "still serving");
}

/// The app's UI went away (its context and every `Bridge` clone with it): nothing can answer a
/// call any more, and the handle says so instead of serving on in silence.
#[test]
fn a_handle_whose_ui_is_gone_reports_itself_closed() {
    let (server_io, _client_io) = tokio::io::duplex(1 << 20);
    let (serving, ui, _) = main_without_the_bridge(|bridge| bridge.serve_io("duplex", server_io).expect("serve"));
    assert!(!serving.is_closed());
    drop(ui);
    assert!(serving.wait_closed(WAIT), "closed once the UI is gone");

    let (http, ui, _) = main_without_the_bridge(|bridge| {
        bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default().without_token()).expect("bind")
    });
    drop(ui);
    assert!(http.wait_closed(WAIT), "closed once the UI is gone");
}

/// A runtime given with `BridgeBuilder::runtime` shut down: the handles say they are closed.
#[test]
fn a_handle_whose_runtime_shut_down_reports_itself_closed() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("app-runtime")
        .enable_all()
        .build()
        .expect("a runtime");
    let bridge = Bridge::builder().runtime(rt.handle().clone()).build();
    let (server_io, _client_io) = tokio::io::duplex(1 << 20);
    let serving = bridge.serve_io("duplex", server_io).expect("serve");
    let http =
        bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default().without_token()).expect("bind");
    assert!(!serving.is_closed() && !http.is_closed());
    drop(rt);
    assert!(serving.wait_closed(WAIT), "the byte stream's handle is closed");
    assert!(http.wait_closed(WAIT), "the endpoint's handle is closed");
    // Serving again on the dead runtime: closed at once, not a handle that never answers.
    let (server_io, _client_io) = tokio::io::duplex(1 << 20);
    let late = bridge.serve_io("duplex", server_io).expect("serve");
    assert!(late.wait_closed(WAIT), "closed");
}
