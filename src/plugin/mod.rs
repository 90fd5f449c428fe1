//! The egui adapter: the [`BridgePlugin`] pass hooks, a headless pass loop, and serving calls
//! while the window is hidden.
//!
//! # Model
//!
//! Everything here runs on the UI thread, inside egui passes of the root viewport:
//!
//! 1. `input_hook` (start of the pass) admits at most one queued agent call, after checking it
//!    against the last published snapshot. A pass that carries the person's input admits none,
//!    so the person's change is published first and wins (§7.1).
//! 2. During the pass the app declares each visible window with [`crate::Bridge::window`], its
//!    blocks, and its actions. Declaring the action that the admitted call is for hands the
//!    call to the app, its arguments parsed; the app applies it right there and answers.
//! 3. `output_hook` (end of the pass) turns the declarations into a snapshot, publishes it if
//!    anything changed (which makes the server notify its clients), and one frame later, once
//!    every window the call opened is declared too, resolves the call.
//!
//! Discarded passes publish nothing. Other viewports are ignored. The UI thread never waits
//! on the server: calls arrive on a channel and answers leave on one-shot channels. The server
//! wakes the UI with `RequestPaintWhileHidden`, which also works while the window is hidden.

pub mod headless;
mod hidden;

pub use hidden::{CallsWhileHidden, STALLED_AFTER};

use std::sync::Arc;

use crate::hub::UiCore;

/// The egui plugin: drains calls at the start of each root pass, publishes and resolves at its
/// end. Add it with `ctx.add_plugin(bridge.plugin())`.
pub struct BridgePlugin {
    core: Arc<UiCore>,
    viewports: Vec<egui::ViewportId>,
    /// The app's own context (wakes it, answers everything at exit), not a [`CallsWhileHidden`]'s.
    primary: bool,
    /// Added to a second context of the same bridge: does nothing (two UI threads would
    /// interleave their passes in one bookkeeping).
    inert: bool,
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

impl std::fmt::Debug for BridgePlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BridgePlugin").field("primary", &self.primary).finish_non_exhaustive()
    }
}

impl BridgePlugin {
    /// The plugin of the app's own context (`primary`), or of a [`CallsWhileHidden`] one.
    pub(crate) fn new(core: Arc<UiCore>, primary: bool) -> Self {
        Self { core, viewports: Vec::new(), primary, inert: false }
    }
}

impl egui::Plugin for BridgePlugin {
    fn debug_name(&self) -> &'static str {
        "egui_mcp_bridge"
    }

    fn setup(&mut self, ctx: &egui::Context) {
        if !self.primary {
            return;
        }
        if !self.core.claim_context() {
            tracing::error!(
                "this bridge's plugin is already installed in another egui context; this one does nothing (one bridge serves one app context)"
            );
            self.inert = true;
            return;
        }
        let ctx = ctx.clone();
        // A cycle (core → hub → waker → core) that `on_exit` breaks.
        let core = Arc::clone(&self.core);
        self.core.hub.set_waker(Some(Arc::new(move || {
            core.ask_for_pass();
            // Also forces a pass while the window is minimised or occluded.
            ctx.send_viewport_cmd_to(egui::ViewportId::ROOT, egui::ViewportCommand::RequestPaintWhileHidden);
        })));
    }

    fn input_hook(&mut self, ctx: &egui::Context, input: &mut egui::RawInput) {
        if self.inert {
            return;
        }
        self.viewports.push(input.viewport_id);
        if input.viewport_id != egui::ViewportId::ROOT {
            return;
        }
        let person = has_person_input(ctx, input);
        if self.core.frame.lock().begin_frame(&self.core.hub, person) {
            if self.primary {
                self.core.ask_for_pass();
            }
            ctx.request_repaint();
        }
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        // `ctx.will_discard()` no longer sees this pass's output here; ask the output itself.
        let discarded = output.platform_output.requested_discard()
            && output.platform_output.num_completed_passes < ctx.options(|o| o.max_passes.get());
        if self.inert || self.viewports.pop() != Some(egui::ViewportId::ROOT) || discarded {
            return;
        }
        if self.primary {
            self.core.pass_ran();
        }
        if self.core.frame.lock().end_frame(&self.core.hub) {
            if self.primary {
                self.core.ask_for_pass();
            }
            if let Some(vp) = output.viewport_output.get_mut(&egui::ViewportId::ROOT) {
                vp.repaint_delay = std::time::Duration::ZERO;
                vp.commands.push(egui::ViewportCommand::RequestPaintWhileHidden);
            }
            ctx.request_repaint();
        }
    }

    fn on_exit(&mut self, _ctx: &egui::Context) {
        if !self.primary || self.inert {
            return;
        }
        self.core.hub.set_waker(None);
        self.core.frame.lock().shutdown(&self.core.hub);
        self.core.release_context();
    }
}
