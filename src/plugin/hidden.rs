//! Serving agent calls while the window is hidden.
//!
//! While the window is minimised or occluded, eframe runs no egui pass, only `App::logic`, so
//! plugin hooks do not run. The bridge asks for a pass anyway (`RequestPaintWhileHidden`), which
//! works on X11 and Windows, but not on Wayland (egui #5136), where only `App::logic` runs,
//! about every 250 ms. [`CallsWhileHidden`] covers that case: called from `App::logic`, it runs the
//! app's ui code in passes of a private, invisible context until the waiting calls are answered.
//! The declarations are app state, so those passes declare the same windows; what they draw is
//! thrown away. (An action that changes egui state of the real context, such as bringing a
//! window to the front, only takes effect there at the next real pass.) While a real pass is
//! under way (eframe calls `App::logic` inside it, before `App::ui`), nothing runs here: that
//! pass serves the calls.

use std::time::Duration;

use std::sync::Arc;

use super::BridgePlugin;
use crate::hub::UiCore;

/// When a pass asked for agent calls has not run for this long, they are served from
/// `App::logic`. eframe runs `logic` at once before a pass it is about to run, so a visible
/// window is never mistaken for a stalled one.
pub const STALLED_AFTER: Duration = Duration::from_millis(100);

/// At most this many frames per `App::logic` call (a call takes one, two where egui may run
/// no second pass).
const MAX_PASSES: usize = 16;

/// Serves agent calls while the app's window is hidden (minimised, occluded, or on Wayland
/// behind other windows), when egui runs no pass. Make one with
/// [`Bridge::calls_while_hidden`](crate::Bridge::calls_while_hidden), keep it in your app, and
/// call [`serve`](Self::serve) from `App::logic` with your ui function.
///
/// # Example
///
/// ```
/// use egui_mcp_bridge::{ActionSpec, Bridge, passes::CallsWhileHidden};
///
/// struct App {
///     bridge: Bridge,
///     while_hidden: CallsWhileHidden,
///     count: u32,
/// }
///
/// /// The app's ui: the same function for real passes and hidden ones.
/// fn ui(bridge: &Bridge, count: &mut u32, ui: &mut egui::Ui) {
///     bridge.window("main").title("Main").summary(format!("Count {count}")).declare(|w| {
///         if let Some(call) = w.button("increment", ActionSpec::new("Add one")) {
///             *count += 1;
///             call.ok("Added one");
///         }
///     });
///     ui.label(format!("Count {count}"));
/// }
///
/// impl App {
///     /// Call from `eframe::App::logic`, which eframe runs even while the window is hidden.
///     fn logic(&mut self, ctx: &egui::Context) {
///         let (bridge, count) = (&self.bridge, &mut self.count);
///         self.while_hidden.serve(ctx, |u| ui(bridge, count, u));
///     }
/// }
///
/// let bridge = Bridge::builder().build();
/// let mut app = App { while_hidden: bridge.calls_while_hidden(), bridge, count: 0 };
/// app.logic(&egui::Context::default()); // nothing waits: no pass runs
/// ```
pub struct CallsWhileHidden {
    core: Arc<UiCore>,
    shadow: egui::Context,
    stalled_after: Duration,
}

impl std::fmt::Debug for CallsWhileHidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallsWhileHidden").field("stalled_after", &self.stalled_after).finish_non_exhaustive()
    }
}

impl CallsWhileHidden {
    pub(crate) fn new(core: Arc<UiCore>) -> Self {
        let shadow = egui::Context::default();
        shadow.all_styles_mut(|s| s.animation_time = 0.0);
        shadow.add_plugin(BridgePlugin::new(Arc::clone(&core), false));
        Self { core, shadow, stalled_after: STALLED_AFTER }
    }

    /// Changes [`STALLED_AFTER`] for this server.
    #[must_use]
    pub fn stalled_after(mut self, after: Duration) -> Self {
        self.stalled_after = after;
        self
    }

    /// Call from `App::logic` with your ui function. When calls wait and the window is hidden
    /// (or the pass they asked for is [`STALLED_AFTER`] overdue, as on Wayland, where a hidden
    /// window does not say it is hidden), runs `ui` in invisible passes until they are answered.
    /// Returns how many frames it ran (0 when the real passes are doing the work).
    pub fn serve(&mut self, ctx: &egui::Context, mut ui: impl FnMut(&mut egui::Ui)) -> usize {
        if !self.core.has_pending_work() {
            return 0;
        }
        // eframe runs `App::logic` inside the real pass, before `App::ui`: that pass does the
        // work. Private passes nested in it could not be published before it ends (so they
        // would run to the cap for nothing), and would change its bookkeeping midway.
        if self.core.frame.lock().in_pass() {
            return 0;
        }
        let hidden = ctx.input(|i| i.viewport().visible()) == Some(false);
        let stalled = self.core.pass_overdue().is_some_and(|d| d >= self.stalled_after);
        if !hidden && !stalled {
            return 0;
        }
        // Where the platform can, a real pass follows too.
        ctx.send_viewport_cmd(egui::ViewportCommand::RequestPaintWhileHidden);
        let mut passes = 0;
        while self.core.has_pending_work() && passes < MAX_PASSES {
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
