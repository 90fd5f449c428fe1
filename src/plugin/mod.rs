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

pub use hidden::{CallsWhileHidden, STALLED_AFTER};

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use crate::hub::frame::PassEnd;
use crate::hub::phase::{NotKept, PassKey};
use crate::hub::{READ_VIEW_EVERY, UiCore};

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
        if self.viewports.is_empty() && self.core.hub.config().read_view != crate::ReadView::Off {
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
        if self.core.hub.config().read_view == crate::ReadView::Operate {
            self.operate(ctx, viewport, input);
        }
    }

    fn on_end_pass(&mut self, ui: &mut egui::Ui) {
        // A pass that applied a call may have declared part of the app before the call and
        // part after: egui runs it again at once (a second pass of the same frame), and that
        // one is published and answers the call. Where egui cannot (its last allowed pass, or
        // `max_passes` is 1), the next frame does instead.
        let Some(viewport) = self.viewports.last().copied() else { return };
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
        if self.core.hub.config().read_view != crate::ReadView::Off {
            // An `egui::Modal` open in this pass blocks everything under it.
            let modal = ctx.memory(egui::Memory::top_modal_layer).map(|layer| layer.id.value());
            looked = self.read_view(ctx, key(viewport), viewport, output, modal);
        }
        if self.op.as_ref().is_some_and(|op| op.key == key(viewport)) {
            ctx.request_repaint_of(viewport);
        }
        self.op_pass_ended(viewport);
        let wanted = self.core.frame.lock().end_pass(&self.core.hub, key(viewport), live.as_deref());
        if looked {
            self.core.hub.looked();
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

/// When the read view last looked, and whether egui's tree is ours to turn on and off.
#[derive(Default)]
struct ReadPace {
    /// The last pass that built the tree for the read view.
    last: Option<std::time::Instant>,
    /// This frame's passes build the tree for the read view.
    building: bool,
    /// The tree is on because the bridge turned it on (and so may turn it off).
    ours: bool,
    /// Something else turned egui's tree on (a screen reader through eframe, a test harness)
    /// while the bridge had it off: the bridge never turns it off again. (egui says nothing of
    /// who turned it on, so one turned on while the bridge had it on goes unnoticed, and is
    /// turned off with the bridge's.)
    external: bool,
    /// An agent is about but this frame was not looked at: a look follows within the pace
    /// (asked of egui at the pass's end).
    behind: bool,
    /// Per viewport, what the last look found.
    seen: HashMap<PassKey, observe::Seen>,
    /// The viewports whose last kept pass was looked at: a state published from it is fresh
    /// enough to check an agent's generic call against.
    fresh: HashSet<PassKey>,
}

impl BridgePlugin {
    /// At the start of a frame: whether its passes build egui's accessibility tree for the read
    /// view (an agent is about and the last look is a pace old), and the tree turned on or off
    /// to match, unless something else turned it on.
    fn pace_read_view(&mut self, ctx: &egui::Context) {
        let every_pass = self.core.read_view_every_pass.load(std::sync::atomic::Ordering::Acquire);
        if self.op.as_ref().is_some_and(|op| !op.call.is_deferred()) {
            self.op = None; // its budget ran out, or its client left
        }
        let wanted = every_pass || self.core.hub.agent_about();
        // While an agent's generic call is under way, every pass is looked at.
        let due = every_pass || self.op.is_some() || self.read.last.is_none_or(|t| t.elapsed() >= READ_VIEW_EVERY);
        self.read.building = (wanted && due) || self.op.is_some();
        self.read.behind = wanted && !self.read.building;
        self.core.frame.lock().set_looking(self.read.building);
        if self.read.building && !self.read.ours && !self.read.external {
            ctx.enable_accesskit();
            self.read.ours = true;
        } else if !self.read.building && self.read.ours && !self.read.external {
            ctx.disable_accesskit();
            self.read.ours = false;
        }
    }

    /// At the end of a kept pass: a look at its tree when this frame builds it, else the last
    /// look's windows declared again; and a look asked for within the pace when one is due.
    /// True when this outermost pass looked (its end publishes the look).
    ///
    /// The look a pass that was not looked at asks for is a repaint egui is asked for
    /// (`request_repaint_after_for`): eframe's integrations ignore the output's
    /// `repaint_delay` (they listen to egui's repaint callback instead), and a pass of the app
    /// without input, a background job's result drawn, would otherwise be seen only at the next
    /// input.
    fn read_view(
        &mut self,
        ctx: &egui::Context,
        key: PassKey,
        viewport: egui::ViewportId,
        output: &mut egui::FullOutput,
        modal: Option<u64>,
    ) -> bool {
        let mut looked_outermost = false;
        let tree = output.platform_output.accesskit_update.as_ref();
        if tree.is_some() && !self.read.ours {
            self.read.external = true;
        }
        if let Some(tree) = tree.filter(|_| self.read.building) {
            let operate = self.core.hub.config().read_view == crate::ReadView::Operate;
            let docs = self.core.hub.config().parameter_docs;
            let tools = move |targets: &[observe::Target]| operate::tools(targets, docs);
            let options = observe::LookOptions { modal, tools: operate.then_some(&tools as observe::ToolsOf<'_>) };
            let last = self.read.seen.remove(&key);
            let mut seen = observe::read_undescribed(&self.core, key, tree, &options);
            if let Some(last) = last {
                seen.keep_unseen(last, self.core.frame.lock().window_uis(key));
            }
            if let Some(op) = self.op.as_mut().filter(|op| op.key == key)
                && let Some(outcome) =
                    op.looked(seen.targets.get(op.app_id()).map(|t| (t.as_slice(), text_of(&seen, op.app_id()))), tree)
            {
                let call = Arc::clone(&op.call);
                self.op = None;
                self.core.frame.lock().answer_deferred(&call, outcome);
            }
            self.read.seen.insert(key, seen);
            self.read.fresh.insert(key);
            if self.viewports.is_empty() {
                self.read.last = Some(std::time::Instant::now());
                looked_outermost = true;
            }
        } else {
            self.read.fresh.remove(&key);
        }
        if let Some(seen) = self.read.seen.get(&key) {
            let mut frame = self.core.frame.lock();
            for window in &seen.windows {
                frame.declare_read_only(window);
            }
            for (app_id, read) in seen.inside.iter().filter(|(_, r)| !r.is_empty()) {
                frame.append_read_blocks(key, app_id, read);
            }
        }
        if self.read.behind
            && self.viewports.is_empty()
            && let Some(vp) = output.viewport_output.get_mut(&viewport)
        {
            let waited = self.read.last.map_or(Duration::ZERO, |t| t.elapsed());
            let due_in = READ_VIEW_EVERY.saturating_sub(waited);
            vp.repaint_delay = vp.repaint_delay.min(due_in);
            ctx.request_repaint_after_for(due_in, viewport);
        }
        looked_outermost
    }
}

impl BridgePlugin {
    /// Start of a pass of `viewport`, in the read view's operate mode: the next requests of the
    /// generic call under way go into its input, and a generic call armed for it is claimed,
    /// checked and started, once the state it was checked against was read from the pass
    /// before (else this pass is looked at first, and the call checked again against that).
    fn operate(&mut self, ctx: &egui::Context, viewport: egui::ViewportId, input: &mut egui::RawInput) {
        let key = key(viewport);
        if let Some(op) = self.op.as_mut().filter(|op| op.key == key) {
            op.inject(input);
        }
        let mut frame = self.core.frame.lock();
        let Some((app_id, action)) = frame.armed_for(key) else { return };
        let Some(seen) = self.read.seen.get(&key) else { return };
        let Some(targets) = seen.targets.get(&app_id) else { return }; // a described window's
        if self.op.is_some() || !self.read.fresh.contains(&key) {
            // One generic call at a time; and a look first, to check the call against.
            frame.disarm(key);
            drop(frame);
            self.look_now(ctx);
            ctx.request_repaint_of(viewport);
            return;
        }
        let title = seen.windows.iter().find(|w| w.app_id == app_id).map_or_else(String::new, |w| w.title.clone());
        let Some(call) = frame.claim(Some(&app_id), &action, &title) else { return };
        match operate::plan(&call, key, &app_id, &title, targets, text_of(seen, &app_id)) {
            Err(error) => frame.reject_claimed(&call, error),
            Ok(mut op) => {
                match frame.defer(&call) {
                    Ok(()) => {
                        op.inject(input);
                        self.op = Some(op);
                    }
                    Err(NotKept::Refused(_)) => {} // answered with why: too many in progress
                    Err(NotKept::NotClaimed) => {
                        frame.reject_claimed(&call, crate::hub::phase::unanswered(&call.tool_name()));
                    }
                }
            }
        }
    }

    /// This pass is looked at, whatever the pace (set at its start, before the app draws).
    fn look_now(&mut self, ctx: &egui::Context) {
        self.read.building = true;
        self.read.behind = false;
        self.core.frame.lock().set_looking(true);
        if !self.read.ours && !self.read.external {
            ctx.enable_accesskit();
            self.read.ours = true;
        }
    }

    /// A pass of `viewport` ended (kept or discarded): the generic call's requests in it are
    /// done, and the next look shows their effect.
    fn op_pass_ended(&mut self, viewport: egui::ViewportId) {
        if let Some(op) = self.op.as_mut().filter(|op| op.key == key(viewport)) {
            op.pass_ended();
        }
    }
}

/// The text lines the last look read in the read-view window `app_id`.
fn text_of(seen: &observe::Seen, app_id: &str) -> Vec<String> {
    let window = seen.windows.iter().find(|w| w.app_id == app_id);
    let text = window.and_then(|w| {
        w.read.blocks.iter().find_map(|b| match b {
            crate::protocol::Block::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
    });
    text.map(|t| t.lines().map(str::to_owned).collect()).unwrap_or_default()
}
