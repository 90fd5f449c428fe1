//! A frame loop without a window: the same ui code, driven by a bare [`egui::Context`].
//!
//! It sleeps until something asks for a repaint (an agent call wakes it through the plugin's
//! waker) or the ui's own repaint delay runs out, so an idle headless app costs nothing.

use std::time::{Duration, Instant};

/// Settings of [`run`].
#[derive(Clone, Copy, Debug)]
pub struct HeadlessOptions {
    /// The size of the pretend screen, in points.
    pub screen_size: egui::Vec2,
    /// The longest sleep between frames when nothing asks for one.
    pub max_idle: Duration,
}

impl Default for HeadlessOptions {
    fn default() -> Self {
        Self { screen_size: egui::vec2(1280.0, 800.0), max_idle: Duration::from_secs(1) }
    }
}

/// Runs `ui` in frames until `keep_running` returns false. Installs the context's repaint
/// callback (there is only one per context), and calls `ctx.on_exit()` at the end so that
/// pending agent calls are answered. Call `ctx.request_repaint()` after changing what
/// `keep_running` reads, to end the wait at once.
pub fn run(
    ctx: &egui::Context,
    options: HeadlessOptions,
    mut ui: impl FnMut(&mut egui::Ui),
    mut keep_running: impl FnMut() -> bool,
) {
    let (wake_tx, wake_rx) = crossbeam_channel::unbounded::<()>();
    ctx.set_request_repaint_callback(move |_| {
        let _ = wake_tx.send(());
    });
    let start = Instant::now();
    while keep_running() {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, options.screen_size)),
            time: Some(start.elapsed().as_secs_f64()),
            ..Default::default()
        };
        let out = ctx.run_ui(input, &mut ui);
        let delay = out
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .map_or(options.max_idle, |v| v.repaint_delay)
            .min(options.max_idle);
        out.drop_without_applying_deltas();
        if !delay.is_zero() {
            let _ = wake_rx.recv_timeout(delay);
        }
        while wake_rx.try_recv().is_ok() {}
    }
    ctx.on_exit();
}
