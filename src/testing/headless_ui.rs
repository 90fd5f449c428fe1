//! An app's UI on a thread of its own, for tests and benches that reach the app from outside.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::bridge::Bridge;
use crate::plugin::headless;

/// An app's UI run by [`headless::run`] on a thread of its own, with `bridge`'s plugin on a
/// context of its own: for tests and benches that reach the app from outside (over MCP, or
/// with an [`Agent`](super::Agent)) while its passes run as they would in a window, woken by
/// the calls. Dropping it stops the loop and joins the thread.
///
/// ```
/// use egui_mcp_bridge::testing::{Agent, HeadlessUi};
/// use egui_mcp_bridge::{ActionSpec, Bridge};
/// use serde_json::json;
///
/// let bridge = Bridge::builder().build();
/// let b = bridge.clone();
/// // The app's state is made on the UI thread, and lives there.
/// let app = HeadlessUi::start(&bridge, "counter-ui", move || {
///     let mut count = 0;
///     move |ui: &mut egui::Ui| {
///         b.window("counter").title("Counter").summary(format!("Count {count}")).ui(ui, |w, ui| {
///             if let Some(press) = w.button(ui, "add", ActionSpec::new("Add one")).inner {
///                 count += 1;
///                 press.ok("Added one");
///             }
///         });
///     }
/// });
/// let agent = Agent::new(&bridge);
/// let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
/// let done = rt.block_on(async {
///     let _ = agent.watch().wait_for(|s| s.windows_revision() > 0).await; // the first pass
///     agent.call("counter__add", json!({})).await
/// });
/// assert_eq!(done.unwrap().message.as_deref(), Some("Added one"));
/// drop(app); // stops the UI thread and waits for it
/// ```
#[derive(Debug)]
pub struct HeadlessUi {
    ctx: egui::Context,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HeadlessUi {
    /// Runs, on a thread named `name`, the ui that `make` builds there, in every pass of a new
    /// context with `bridge`'s plugin. Returns at once: the first state is published after the
    /// first pass.
    pub fn start<F: FnMut(&mut egui::Ui) + 'static>(
        bridge: &Bridge,
        name: &str,
        make: impl FnOnce() -> F + Send + 'static,
    ) -> Self {
        Self::start_with(bridge, name, headless::HeadlessOptions::default(), make)
    }

    /// [`start`](Self::start) with these options of the headless loop.
    pub fn start_with<F: FnMut(&mut egui::Ui) + 'static>(
        bridge: &Bridge,
        name: &str,
        options: headless::HeadlessOptions,
        make: impl FnOnce() -> F + Send + 'static,
    ) -> Self {
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (ctx, stop) = (ctx.clone(), Arc::clone(&stop));
            std::thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || {
                    let mut ui = make();
                    headless::run(&ctx, options, &mut ui, || !stop.load(Ordering::Acquire));
                })
                .expect("spawn the UI thread")
        };
        Self { ctx, stop, thread: Some(thread) }
    }

    /// The UI's context: [`request_repaint`](egui::Context::request_repaint) after changing
    /// the app's state from outside, as a person's input would.
    pub fn context(&self) -> &egui::Context {
        &self.ctx
    }
}

impl Drop for HeadlessUi {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        self.ctx.request_repaint();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
