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
    // Each repaint request, as the instant it asks for: now, or after its delay. A request for
    // later must not end the wait now, or a ui that asks for a repaint in 3 s every frame (an
    // animation's end, a highlight's fade) spins a core.
    let (wake_tx, wake_rx) = crossbeam_channel::unbounded::<Instant>();
    ctx.set_request_repaint_callback(move |info| {
        let _ = wake_tx.send(Instant::now() + info.delay);
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
        let mut wake_at = Instant::now() + delay;
        loop {
            wake_at = wake_rx.try_iter().fold(wake_at, Instant::min);
            let now = Instant::now();
            if wake_at <= now {
                break;
            }
            match wake_rx.recv_timeout(wake_at - now) {
                Ok(at) => wake_at = wake_at.min(at),
                Err(_) => break,
            }
        }
    }
    ctx.on_exit();
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// A ui that asks for a repaint in 10 s every frame runs no frame sooner than that (here:
    /// `max_idle`), instead of spinning. The loop runs for a fixed stretch and counts frames.
    #[test]
    fn a_repaint_asked_for_later_does_not_spin_the_loop() {
        let ctx = egui::Context::default();
        let frames = Cell::new(0u32);
        let until = Instant::now() + Duration::from_millis(300);
        let options = HeadlessOptions { max_idle: Duration::from_millis(100), ..HeadlessOptions::default() };
        run(
            &ctx,
            options,
            |ui| {
                frames.set(frames.get() + 1);
                ui.ctx().request_repaint_after(Duration::from_secs(10));
            },
            || Instant::now() < until,
        );
        // 300 ms at one frame per 100 ms: 3 or 4 frames (a spinning loop runs thousands).
        assert!(frames.get() <= 6, "{} frames in 300 ms", frames.get());
    }

    /// Five frames that each ask for the next at once take less than one `max_idle`; a loop
    /// that waited for it instead stops after the first wait and fails, within two seconds.
    #[test]
    fn a_repaint_asked_for_now_runs_a_frame_at_once() {
        const MAX_IDLE: Duration = Duration::from_secs(1);
        let ctx = egui::Context::default();
        let frames = Cell::new(0u32);
        let started = Instant::now();
        run(
            &ctx,
            HeadlessOptions { max_idle: MAX_IDLE, ..HeadlessOptions::default() },
            |ui| {
                frames.set(frames.get() + 1);
                ui.ctx().request_repaint();
            },
            || frames.get() < 5 && started.elapsed() < MAX_IDLE,
        );
        assert_eq!(frames.get(), 5, "{} frames in {:?}: the loop waited for max_idle", frames.get(), started.elapsed());
    }
}
