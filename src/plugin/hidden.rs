//! Serving agent calls while the window is hidden.
//!
//! While the window is minimised or occluded, eframe runs no egui pass, only `App::logic`, so
//! plugin hooks do not run. The bridge asks for a pass anyway (`RequestPaintWhileHidden`), which
//! works on X11 and Windows, but not on Wayland (egui #5136), where only `App::logic` runs,
//! about every 250 ms. [`HiddenServer`] covers that case: called from `App::logic`, it runs the
//! app's ui code in passes of a private, invisible context until the waiting calls are answered.
//! The declarations are app state, so those passes declare the same windows; what they draw is
//! thrown away. (An action that changes egui state of the real context, such as bringing a
//! window to the front, only takes effect there at the next real pass.)

use std::time::Duration;

use super::{BridgePlugin, UiBridge};

/// A call that waited this long for a pass is served from `App::logic`.
pub const STALLED_AFTER: Duration = Duration::from_millis(100);

/// At most this many passes per `App::logic` call (a call takes two).
const MAX_PASSES: usize = 16;

/// Serves calls from `App::logic` when no ui pass comes. Keep one in your app.
pub struct HiddenServer {
    bridge: UiBridge,
    shadow: egui::Context,
}

impl std::fmt::Debug for HiddenServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HiddenServer").finish_non_exhaustive()
    }
}

impl HiddenServer {
    /// A server for this bridge.
    pub fn new(bridge: &UiBridge) -> Self {
        let shadow = egui::Context::default();
        shadow.all_styles_mut(|s| s.animation_time = 0.0);
        shadow.add_plugin(BridgePlugin {
            shared: std::sync::Arc::clone(&bridge.shared),
            viewports: Vec::new(),
            primary: false,
        });
        Self { bridge: bridge.clone(), shadow }
    }

    /// Call from `App::logic` with your ui function. When calls wait and the window is hidden
    /// (or no pass has run for [`STALLED_AFTER`]), runs `ui` in invisible passes until they are
    /// answered. Returns how many passes it ran (0 when the real passes are doing the work).
    pub fn serve(&mut self, ctx: &egui::Context, mut ui: impl FnMut(&mut egui::Ui)) -> usize {
        if !self.bridge.has_pending_work() {
            return 0;
        }
        let hidden = ctx.input(|i| i.viewport().visible()) == Some(false);
        let stalled = self.bridge.since_last_pass().is_none_or(|d| d >= STALLED_AFTER);
        if !hidden && !stalled {
            return 0;
        }
        // Where the platform can, a real pass follows too.
        ctx.send_viewport_cmd(egui::ViewportCommand::RequestPaintWhileHidden);
        let mut passes = 0;
        while self.bridge.has_pending_work() && passes < MAX_PASSES {
            let size = ctx.input(|i| i.viewport().inner_rect).map_or(egui::vec2(1280.0, 800.0), |r| r.size());
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
                ..Default::default()
            };
            self.shadow.run_ui(input, &mut ui).drop_without_applying_deltas();
            passes += 1;
        }
        tracing::debug!(passes, hidden, "served agent calls while the window is hidden");
        passes
    }
}
