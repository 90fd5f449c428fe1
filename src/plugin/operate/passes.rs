//! A generic call in the plugin's passes: claimed, checked and started at the start of a pass of
//! its window's viewport, its requests put into that pass's input, what they did glimpsed at the
//! pass's end, and each step's effect read from the look after it, which answers the call once
//! no step is left.

use std::sync::Arc;

use crate::hub::phase::NotKept;
use crate::plugin::{BridgePlugin, key, observe};
use crate::protocol::ToolError;

impl BridgePlugin {
    /// Start of a pass of `viewport`, in the read view's operate mode: the next requests of the
    /// generic call under way go into its input, and a generic call armed for it is claimed,
    /// checked and started, once the state it was checked against was read from the pass
    /// before (else this pass is looked at first, and the call checked again against that).
    pub(in crate::plugin) fn operate(
        &mut self,
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        input: &mut egui::RawInput,
    ) {
        let key = key(viewport);
        if let Some(op) = self.op.as_mut().filter(|op| op.key == key) {
            op.inject(input);
        }
        self.give_pointer_back(ctx, key, input);
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
        let window = super::Window {
            app_id: &app_id,
            title: &title,
            node: seen.nodes.get(&app_id).copied().flatten().unwrap_or_default(),
            targets,
            labels: seen.labels.get(&app_id).map_or(&[][..], Vec::as_slice),
            text: text_of(seen, &app_id),
        };
        match super::plan(&call, key, window) {
            Err(error) => frame.reject_claimed(&call, error),
            Ok(mut op) => {
                call.kept_by_bridge();
                match frame.defer(&call) {
                    Ok(()) => {
                        op.inject(input);
                        self.op = Some(op);
                    }
                    Err(NotKept::Refused(_)) => {} // answered with why: too many in progress
                    Err(NotKept::NotClaimed) => {
                        frame.reject_claimed(&call, ToolError::unanswered_by_app(&call.tool_name()));
                    }
                }
            }
        }
    }

    /// Start of a frame: the generic call under way is forgotten once it ended without its
    /// answer (its budget ran out, or its client left).
    pub(in crate::plugin) fn forget_ended_op(&mut self) {
        if self.op.as_ref().is_some_and(|op| !op.call.is_deferred()) {
            self.end_op();
        }
    }

    /// The generic call under way is over: a pointer its secondary click moved is given back to
    /// the person in the next pass.
    fn end_op(&mut self) {
        if let Some(op) = self.op.take()
            && let Some((moved, back)) = op.pointer_back()
        {
            self.pointer_back = Some((op.key, moved, back));
            self.core.ask_for_pass();
        }
    }

    /// Start of a pass of viewport `key`: the pointer a secondary click moved goes back where the
    /// person had it, unless the person moved it since (egui has it elsewhere, or this pass
    /// carries the person's own pointer).
    fn give_pointer_back(&mut self, ctx: &egui::Context, key: crate::hub::phase::PassKey, input: &mut egui::RawInput) {
        let Some((_, moved, back)) = self.pointer_back.take_if(|(k, _, _)| *k == key) else { return };
        let person_moved =
            input.events.iter().any(|e| matches!(e, egui::Event::PointerMoved(_) | egui::Event::PointerGone));
        if !person_moved && ctx.input(|i| i.pointer.latest_pos()) == Some(moved) {
            input.events.push(back);
        }
    }

    /// The end of a pass of `viewport`, its context still in it: what the generic call under
    /// way needs of egui's state there (a secondary click: whether its widget is under the
    /// pointer).
    pub(in crate::plugin) fn op_pass_drawn(&mut self, ctx: &egui::Context, viewport: egui::ViewportId) {
        if let Some(op) = self.op.as_mut().filter(|op| op.key == key(viewport)) {
            op.pass_drawn(ctx);
        }
    }

    /// A pass of `viewport` ended (kept or discarded): the generic call's requests in it are
    /// done, and the next look shows their effect.
    pub(in crate::plugin) fn op_pass_ended(&mut self, viewport: egui::ViewportId) {
        if let Some(op) = self.op.as_mut().filter(|op| op.key == key(viewport)) {
            op.pass_ended();
        }
    }

    /// The tree of a pass of `viewport` the generic call's requests went into: what its fields
    /// show there is kept for the answer.
    pub(in crate::plugin) fn op_glimpse(&mut self, viewport: egui::ViewportId, output: &egui::FullOutput) {
        if let (Some(op), Some(tree)) = (
            self.op.as_mut().filter(|op| op.key == key(viewport) && op.injected()),
            output.platform_output.accesskit_update.as_ref(),
        ) {
            op.glimpse(tree);
        }
    }

    /// A look at a pass of viewport `key`, which found `seen` in `tree`: the generic call under
    /// way there takes its next step, or, with none left, is answered with what its window now
    /// shows.
    pub(in crate::plugin) fn op_looked(
        &mut self,
        key: crate::hub::phase::PassKey,
        seen: &observe::Seen,
        tree: &egui::accesskit::TreeUpdate,
    ) {
        if let Some(op) = self.op.as_mut().filter(|op| op.key == key)
            && let Some(outcome) =
                op.looked(seen.targets.get(op.app_id()).map(|t| (t.as_slice(), text_of(seen, op.app_id()))), tree)
        {
            let call = Arc::clone(&op.call);
            self.end_op();
            self.core.frame.lock().answer_deferred(&call, outcome);
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
