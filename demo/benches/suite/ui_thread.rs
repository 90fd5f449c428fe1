//! The benches' UI thread: the app's UI on [`HeadlessUi`], once its first state is published.

use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::testing::{Agent, HeadlessUi};

/// Runs `ui` (built on the thread by `make`) in every pass, with `bridge`'s plugin; returns
/// once the first state is published. Dropping it stops and joins the thread.
pub fn start<F: FnMut(&mut egui::Ui) + 'static>(
    bridge: &Bridge,
    make: impl FnOnce() -> F + Send + 'static,
) -> HeadlessUi {
    let ui = HeadlessUi::start(bridge, "bench-ui", make);
    let agent = Agent::new(bridge);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let first = rt.block_on(async {
        tokio::time::timeout(std::time::Duration::from_secs(30), agent.watch().wait_for(|s| s.windows_revision() > 0))
            .await
            .is_ok()
    });
    assert!(first, "the UI published no state within 30 s");
    ui
}
