//! The egui side: the [`BridgePlugin`] frame hooks and the declaration API.
//!
//! # Model
//!
//! Everything here runs on the UI thread, inside egui passes of the root viewport:
//!
//! 1. `input_hook` (start of the pass) admits at most one queued agent call, after checking it
//!    against the last published snapshot. A pass that carries the person's input admits none,
//!    so the person's change is published first and wins (§7.1).
//! 2. During the pass the app declares each visible window with [`UiBridge::window`], its
//!    blocks, and its actions. Declaring the action that the admitted call is for hands the
//!    call to the app, its arguments parsed; the app applies it right there and answers.
//! 3. `output_hook` (end of the pass) turns the declarations into a snapshot, publishes it if
//!    anything changed (which makes the server notify its clients), and one frame later, once
//!    every window the call opened is declared too, resolves the call.
//!
//! Discarded passes publish nothing. Other viewports are ignored. The UI thread never waits
//! on the server: calls arrive on a channel and answers leave on one-shot channels. The server
//! wakes the UI with `RequestPaintWhileHidden`, which also works while the window is hidden.

mod content;
mod declare;
mod frame;
pub mod headless;
mod hidden;

pub use content::{Cell, Fields, List, Table};
pub use declare::{Call, NoArgs, WindowBuilder};
pub use hidden::{HiddenServer, STALLED_AFTER};

use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use serde::de::DeserializeOwned;

use crate::hub::{ActionSpec, Hub};
use frame::FrameState;

pub(crate) struct Shared {
    hub: Arc<Hub>,
    frame: Mutex<FrameState>,
    /// Since when a pass of the app's real context has been asked for (for a call) and not run.
    pass_asked: Mutex<Option<Instant>>,
}

impl Shared {
    /// Notes that a pass is wanted for agent calls (the earliest outstanding ask counts).
    fn ask_for_pass(&self) {
        self.pass_asked.lock().get_or_insert_with(Instant::now);
    }
}

/// What the bridge keeps about windows, for tests and monitoring: memory must stay flat however
/// many windows an app opens and closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// Windows open in the last published frame.
    pub open_windows: usize,
    /// Windows whose version and blocks the bridge remembers (only the open ones).
    pub remembered_windows: usize,
    /// Handles ever handed out: the one thing kept per closed window, 8 bytes each, so that no
    /// id is ever reused.
    pub handles_ever: usize,
}

/// The app's handle for declaring windows and actions. Cheap to clone.
#[derive(Clone)]
pub struct UiBridge {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for UiBridge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UiBridge").finish_non_exhaustive()
    }
}

impl UiBridge {
    /// A UI side for this hub.
    pub fn new(hub: Arc<Hub>) -> Self {
        Self {
            shared: Arc::new(Shared { hub, frame: Mutex::new(FrameState::default()), pass_asked: Mutex::new(None) }),
        }
    }

    /// The shared core.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.shared.hub
    }

    /// The plugin to add to the egui context (`ctx.add_plugin(bridge.plugin())`).
    pub fn plugin(&self) -> BridgePlugin {
        BridgePlugin { shared: Arc::clone(&self.shared), viewports: Vec::new(), primary: true }
    }

    /// Whether a call is queued or under way (applied, not yet answered).
    pub fn has_pending_work(&self) -> bool {
        self.shared.hub.queued_calls() > 0 || self.shared.frame.lock().has_active_call()
    }

    /// How long a pass that agent calls need has been asked for without running (`None`: no
    /// pass is outstanding). Long means the platform runs no passes now (a hidden window).
    pub fn pass_overdue(&self) -> Option<Duration> {
        self.shared.pass_asked.lock().map(|t| t.elapsed())
    }

    /// Declares a window for this frame. `app_id` is the app's own id for it; the bridge maps
    /// it to a name-safe external id that is never reused.
    pub fn window(&self, app_id: impl Into<String>) -> WindowBuilder {
        WindowBuilder::new(Arc::clone(&self.shared), app_id.into())
    }

    /// Declares an app-level action (`app__{name}`) for this frame; listed while no app-level
    /// modal is open. Returns the agent's call to it, if one arrived.
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn app_action<A>(&self, name: &str, spec: ActionSpec) -> Option<Call<A>>
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        let (decl, call) = declare::declare_action::<A>(&self.shared, None, name, spec)?;
        self.shared.frame.lock().app_actions.push(decl);
        call
    }

    /// Whether a dialog blocked the window with this app id in the last published state.
    pub fn is_blocked(&self, app_id: &str) -> bool {
        self.shared.frame.lock().is_blocked(app_id)
    }

    /// What the bridge keeps about windows (see [`Footprint`]).
    pub fn footprint(&self) -> Footprint {
        self.shared.frame.lock().footprint()
    }

    /// The external id (as agents see it) of an open window.
    pub fn external_id(&self, app_id: &str) -> Option<String> {
        self.shared.frame.lock().handle_of(app_id).map(str::to_owned)
    }
}

/// The egui plugin: drains calls at the start of each root pass, publishes and resolves at its
/// end. Add it with `ctx.add_plugin(bridge.plugin())`.
pub struct BridgePlugin {
    shared: Arc<Shared>,
    viewports: Vec<egui::ViewportId>,
    /// The app's own context (wakes it, answers everything at exit), not a [`HiddenServer`]'s.
    primary: bool,
}

/// Whether this pass carries input from the person that can change what a window shows.
fn has_person_input(ctx: &egui::Context, input: &egui::RawInput) -> bool {
    use egui::Event;
    let dragging = ctx.input(|i| i.pointer.any_down());
    input.events.iter().any(|e| match e {
        Event::PointerMoved(_) | Event::MouseMoved(_) => dragging,
        Event::PointerButton { .. }
        | Event::Key { .. }
        | Event::Text(_)
        | Event::Paste(_)
        | Event::MiddleClickPaste { .. }
        | Event::Cut
        | Event::Copy
        | Event::MouseWheel { .. }
        | Event::Touch { .. }
        | Event::Ime(_)
        | Event::AccessKitActionRequest(_) => true,
        _ => false,
    })
}

impl egui::Plugin for BridgePlugin {
    fn debug_name(&self) -> &'static str {
        "egui_mcp_bridge"
    }

    fn setup(&mut self, ctx: &egui::Context) {
        if !self.primary {
            return;
        }
        let ctx = ctx.clone();
        // A cycle (shared → hub → waker → shared) that `on_exit` breaks.
        let shared = Arc::clone(&self.shared);
        self.shared.hub.set_waker(Some(Arc::new(move || {
            shared.ask_for_pass();
            // Also forces a pass while the window is minimised or occluded.
            ctx.send_viewport_cmd_to(egui::ViewportId::ROOT, egui::ViewportCommand::RequestPaintWhileHidden);
        })));
    }

    fn input_hook(&mut self, ctx: &egui::Context, input: &mut egui::RawInput) {
        self.viewports.push(input.viewport_id);
        if input.viewport_id != egui::ViewportId::ROOT {
            return;
        }
        let person = has_person_input(ctx, input);
        if self.shared.frame.lock().begin_frame(&self.shared.hub, person) {
            if self.primary {
                self.shared.ask_for_pass();
            }
            ctx.request_repaint();
        }
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        // `ctx.will_discard()` no longer sees this pass's output here; ask the output itself.
        let discarded = output.platform_output.requested_discard()
            && output.platform_output.num_completed_passes < ctx.options(|o| o.max_passes.get());
        if self.viewports.pop() != Some(egui::ViewportId::ROOT) || discarded {
            return;
        }
        if self.primary {
            *self.shared.pass_asked.lock() = None;
        }
        if self.shared.frame.lock().end_frame(&self.shared.hub) {
            if self.primary {
                self.shared.ask_for_pass();
            }
            if let Some(vp) = output.viewport_output.get_mut(&egui::ViewportId::ROOT) {
                vp.repaint_delay = std::time::Duration::ZERO;
                vp.commands.push(egui::ViewportCommand::RequestPaintWhileHidden);
            }
            ctx.request_repaint();
        }
    }

    fn on_exit(&mut self, _ctx: &egui::Context) {
        if !self.primary {
            return;
        }
        self.shared.hub.set_waker(None);
        self.shared.frame.lock().shutdown(&self.shared.hub);
    }
}
