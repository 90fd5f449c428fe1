//! A headless UI thread for the benches: the bridge's plugin on a plain context, the app's UI
//! run by `headless::run` until dropped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use egui_mcp_bridge::testing::Agent;
use egui_mcp_bridge::{Bridge, passes::headless};

/// The UI thread; dropping it stops and joins it.
pub struct UiThread {
    ctx: egui::Context,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl UiThread {
    /// Runs `ui` (built on the thread by `make`) in every pass, with `bridge`'s plugin; returns
    /// once the first state is published.
    pub fn start<F: FnMut(&mut egui::Ui) + 'static>(
        bridge: &Bridge,
        make: impl FnOnce() -> F + Send + 'static,
    ) -> Self {
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (ctx, stop) = (ctx.clone(), Arc::clone(&stop));
            std::thread::Builder::new()
                .name("bench-ui".into())
                .spawn(move || {
                    let mut ui = make();
                    headless::run(&ctx, headless::HeadlessOptions::default(), &mut ui, || {
                        !stop.load(Ordering::Acquire)
                    });
                })
                .unwrap()
        };
        let agent = Agent::new(bridge);
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let _ = agent.watch().wait_for(|s| s.windows_revision() > 0).await;
        });
        Self { ctx, stop, thread: Some(thread) }
    }
}

impl Drop for UiThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        self.ctx.request_repaint();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
