//! The egui adapter: the [`BridgePlugin`] pass hooks, a headless pass loop, and serving calls
//! while the window is hidden.
//!
//! # Model
//!
//! Everything here runs on the UI thread, inside egui passes. Every viewport (a real OS window)
//! runs passes of its own; immediate viewports nest in their parent's pass. Each pass collects
//! its viewport's declarations, and what is published is the union over all live viewports:
//!
//! 1. `input_hook` (start of a pass) admits at most one queued agent call, after checking it
//!    against the last published snapshot, and arms it if this viewport declares its window (it
//!    asks for that viewport's pass otherwise). A pass that carries the person's input, in any
//!    viewport, arms none, so the person's change is published first and wins (§7.1).
//! 2. During the pass the app declares each visible window with [`crate::Bridge::window`], its
//!    blocks, and its actions. Declaring the action that the admitted call is for hands the
//!    call to the app, its arguments parsed; the app applies it right there and answers.
//! 3. `output_hook` (end of an outermost pass) turns the live viewports' declarations into a
//!    snapshot and publishes it if anything changed (which makes the server notify its clients).
//!    After a call was applied, it waits until every live viewport has declared its windows
//!    again (asking each for a pass), so the state is never a mix of before and after, then
//!    publishes and resolves the call. The pass that applied it asks egui to run again at once
//!    (`request_discard`, in `on_end_pass`), so in one viewport a call takes one frame: applied
//!    in the first pass, published and answered after the second. A viewport that stops being
//!    shown drops its windows.
//!
//! Discarded passes publish nothing. Where egui embeds viewports (`embed_viewports()`: a bare
//! context, kittest) they are windows of the root pass and nothing of this matters. The UI thread never waits
//! on the server: calls arrive on a channel and answers leave on one-shot channels. The server
//! wakes the UI with `RequestPaintWhileHidden`, which also works while the window is hidden.

pub mod headless;
mod hidden;
mod observe;
mod operate;
mod picture;
mod read_pace;

pub use hidden::{CallsWhileHidden, STALLED_AFTER};

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::hub::UiCore;
use crate::hub::frame::PassEnd;
use crate::hub::phase::PassKey;
use read_pace::ReadPace;

/// The egui plugin: drains calls at the start of each root pass, publishes and resolves at its
/// end. Add it with `ctx.add_plugin(bridge.plugin())`.
pub struct BridgePlugin {
    core: Arc<UiCore>,
    read: ReadPace,
    /// The passes under way, innermost last (immediate viewports nest in their parent's).
    viewports: Vec<egui::ViewportId>,
    /// Every viewport seen, by the key the core knows it by.
    known: HashMap<PassKey, egui::ViewportId>,
    /// The app's own context (wakes it, answers everything at exit), not a [`CallsWhileHidden`]'s.
    primary: bool,
    /// Added to a second context of the same bridge: does nothing (two UI threads would
    /// interleave their passes in one bookkeeping).
    inert: bool,
    /// An agent's generic call on a window the app has not described, under way.
    op: Option<operate::Operation>,
    /// After a generic call's secondary click: the viewport, where the click left egui's pointer,
    /// and the event that gives the person's pointer back in its next pass.
    pointer_back: Option<(PassKey, egui::Pos2, egui::Event)>,
    /// A picture of a window (`app__view_window`) under way.
    picture: Option<picture::PictureTask>,
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

/// The core's key for a viewport.
fn key(viewport: egui::ViewportId) -> PassKey {
    viewport.0.value()
}

impl BridgePlugin {
    /// Asks egui for the passes the core wants: this viewport's again, other viewports', and a
    /// pass after a while (waiting for a viewport that may not paint).
    fn ask(&self, ctx: &egui::Context, viewport: egui::ViewportId, wanted: &PassEnd) {
        if wanted.again {
            ctx.request_repaint_of(viewport);
        }
        for other in wanted.repaint.iter().filter_map(|k| self.known.get(k)) {
            // Also paints a viewport that is minimised or occluded.
            ctx.send_viewport_cmd_to(*other, egui::ViewportCommand::RequestPaintWhileHidden);
        }
        if let Some(after) = wanted.after {
            ctx.request_repaint_after(after);
        }
    }

    /// The plugin of the app's own context (`primary`), or of a [`CallsWhileHidden`] one.
    pub(crate) fn new(core: Arc<UiCore>, primary: bool) -> Self {
        Self {
            core,
            read: ReadPace::default(),
            viewports: Vec::new(),
            known: HashMap::new(),
            primary,
            inert: false,
            op: None,
            pointer_back: None,
            picture: None,
        }
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
        let viewport = input.viewport_id;
        if self.viewports.is_empty() && self.core.hub.config().read_view != crate::hub::ReadView::Off {
            self.forget_ended_op();
            self.pace_read_view(ctx);
        }
        self.viewports.push(viewport);
        self.known.insert(key(viewport), viewport);
        let person = has_person_input(ctx, input);
        let wanted = self.core.frame.lock().begin_pass(&self.core.hub, key(viewport), person);
        if wanted.again && self.primary {
            self.core.ask_for_pass();
        }
        self.ask(ctx, viewport, &wanted);
        if self.core.hub.config().read_view == crate::hub::ReadView::Operate {
            self.operate(ctx, viewport, input);
        }
        if self.primary {
            self.picture_begin(ctx, viewport, input);
        }
    }

    fn on_end_pass(&mut self, ui: &mut egui::Ui) {
        // A pass that applied a call may have declared part of the app before the call and
        // part after: egui runs it again at once (a second pass of the same frame), and that
        // one is published and answers the call. Where egui cannot (its last allowed pass, or
        // `max_passes` is 1), the next frame does instead.
        let Some(viewport) = self.viewports.last().copied() else { return };
        if !self.inert {
            self.op_pass_drawn(ui.ctx(), viewport);
        }
        let stepped = self.op.as_ref().is_some_and(|op| op.key == key(viewport) && op.injected());
        if !self.inert && (stepped || self.core.frame.lock().applied_in_pass(key(viewport))) {
            ui.ctx().request_discard("egui_mcp_bridge: an agent call was applied; publishing the pass after it");
        }
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        if self.inert {
            return;
        }
        let Some(viewport) = self.viewports.pop() else { return };
        // `ctx.will_discard()` no longer sees this pass's output here; ask the output itself.
        let discarded = output.platform_output.requested_discard()
            && output.platform_output.num_completed_passes < ctx.options(|o| o.max_passes.get());
        self.op_glimpse(viewport, output);
        if discarded {
            self.core.frame.lock().discard_pass(key(viewport));
            self.op_pass_ended(viewport);
            return;
        }
        if self.core.frame.lock().applied_in_pass(key(viewport)) {
            tracing::debug!(
                passes = output.platform_output.num_completed_passes,
                "egui runs no further pass in this frame (max_passes): the call is published and answered after the next frame"
            );
        }
        if self.primary && viewport == egui::ViewportId::ROOT {
            self.core.pass_ran();
        }
        // At the end of an outermost pass the output lists every viewport that exists now.
        let live: Option<Vec<PassKey>> =
            self.viewports.is_empty().then(|| output.viewport_output.keys().copied().map(key).collect());
        if let Some(live) = &live {
            self.known.retain(|k, _| live.contains(k));
        }
        let mut looked = false;
        if self.core.hub.config().read_view != crate::hub::ReadView::Off {
            // An `egui::Modal` open in this pass blocks everything under it.
            let modal = ctx.memory(egui::Memory::top_modal_layer).map(|layer| layer.id.value());
            looked = self.read_view(ctx, key(viewport), viewport, output, modal);
        }
        if self.op.as_ref().is_some_and(|op| op.key == key(viewport)) {
            ctx.request_repaint_of(viewport);
        }
        self.op_pass_ended(viewport);
        let wanted = self.core.frame.lock().end_pass(&self.core.hub, key(viewport), live.as_deref());
        self.picture_end(ctx, viewport, output);
        if looked {
            self.core.hub.looked(self.read.pace());
        }
        if let Some(after) = wanted.after
            && let Some(vp) = output.viewport_output.get_mut(&viewport)
        {
            vp.repaint_delay = vp.repaint_delay.min(after);
        }
        if wanted.again {
            if self.primary {
                self.core.ask_for_pass();
            }
            if let Some(vp) = output.viewport_output.get_mut(&viewport) {
                vp.repaint_delay = Duration::ZERO;
                vp.commands.push(egui::ViewportCommand::RequestPaintWhileHidden);
            }
        }
        self.ask(ctx, viewport, &wanted);
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
