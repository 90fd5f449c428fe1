//! The UI side of a look at a window (`app__view_window`; the server's side and the bounds are in
//! `hub/picture.rs`): a screenshot asked of egui's integration, and the window framed in it.
//!
//! egui's integrations take the screenshot of the frame after the one whose output asked for it
//! (eframe, glow and wgpu), or of that very output (`egui_kittest` with a renderer). So the
//! framing (the window's rectangle, what to blank, its version) is made at the end of the pass
//! that asks, and made again at the end of the next kept pass of that viewport (the one eframe
//! paints); the integration's callback takes whichever was made last before it ran. Both passes
//! build egui's accessibility tree (it names password edits and the containers of what the app
//! hid). The callback only hands the image and the framing over: nothing is copied, cropped or
//! encoded on the UI thread.
//!
//! What is blanked: every password edit (AccessKit's `PasswordInput`, the app's and the
//! bridge's secret fields alike) and what the app hid from the read view
//! (`Bridge::hide_from_read_view`): the `Ui` itself inside a described window, else the whole egui
//! window or panel it is in, as the read view leaves it out. A region under the pictured window's
//! own layer is covered by the window where they overlap, and left as drawn.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use egui::accesskit::{NodeId, Role, TreeUpdate};
use parking_lot::Mutex;

use super::{BridgePlugin, key};
use crate::hub::clipped;
use crate::hub::phase::PassKey;
use crate::hub::picture::{Pixels, PxRect, Shot, ShotReply};
use crate::protocol::{ErrorCode, ToolError};

/// One pass's framing of the window: the picture's crop, what to blank, the window's version.
#[derive(Debug)]
struct Framing {
    crop: PxRect,
    blanks: Vec<PxRect>,
    version: u64,
}

/// The framing the integration's callback takes when it runs.
type FramingSlot = Arc<Mutex<Option<Result<Framing, ToolError>>>>;

/// The picture under way (one at a time: the server asks for the next only after this one).
#[derive(Debug)]
pub(super) struct PictureTask {
    key: PassKey,
    app_id: String,
    /// The window's external id.
    handle: String,
    stage: Stage,
}

#[derive(Debug)]
enum Stage {
    /// Taken at the start of a pass: the screenshot is asked for at its end.
    Taken(ShotReply),
    /// Asked for: the next kept pass of the viewport frames it again.
    Asked(FramingSlot),
}

/// egui's screenshot, as the hub's pixels (read on the server's side).
struct Screen(Arc<egui::ColorImage>);

impl Pixels for Screen {
    fn size(&self) -> [usize; 2] {
        self.0.size
    }

    fn rgb_row(&self, y: usize, x0: usize, x1: usize, out: &mut Vec<u8>) {
        let start = y * self.0.size[0];
        if let Some(row) = self.0.pixels.get(start + x0..start + x1) {
            out.extend(row.iter().flat_map(|c| [c.r(), c.g(), c.b()]));
        }
    }
}

impl BridgePlugin {
    /// Start of a pass of `viewport`: the picture under way looks at this pass if it is this
    /// viewport's; else a waiting request is taken if its window is in this viewport (and
    /// answered at once if it is not open, or the OS window is minimised), or that viewport is
    /// asked for a pass.
    pub(super) fn picture_begin(&mut self, ctx: &egui::Context, viewport: egui::ViewportId, input: &egui::RawInput) {
        let key = key(viewport);
        if let Some(task) = &self.picture {
            let abandoned = match &task.stage {
                Stage::Taken(reply) => reply.is_closed(),
                Stage::Asked(slot) => Arc::strong_count(slot) == 1, // the integration dropped it
            };
            if abandoned {
                self.picture_done(ctx);
            } else {
                if task.key == key {
                    self.look_now(ctx);
                }
                return;
            }
        }
        // The hub's slot is not held while the bookkeeping is locked (nor the other way round).
        let window = {
            let mut waiting = self.core.hub.waiting_picture();
            match waiting.as_ref() {
                None => return,
                Some(r) if r.is_abandoned() => {
                    waiting.take();
                    return;
                }
                Some(r) => r.window.clone(),
            }
        };
        let place = self.core.frame.lock().window_place(&window);
        let take = || self.core.hub.waiting_picture().take_if(|r| r.window == window);
        let (app_id, request) = match place {
            None => {
                if let Some(r) = take() {
                    let _ = r.reply.send(Err(ToolError::window_not_found(&clipped(&r.window))));
                }
                return;
            }
            Some((_, pass)) if pass != key => {
                if let Some(other) = self.known.get(&pass) {
                    ctx.send_viewport_cmd_to(*other, egui::ViewportCommand::RequestPaintWhileHidden);
                }
                return;
            }
            Some((app_id, _)) => match take() {
                Some(request) => (app_id, request),
                None => return,
            },
        };
        let minimised = input.viewports.get(&viewport).and_then(|v| v.minimized) == Some(true);
        if minimised {
            let _ = request
                .reply
                .send(Err(ToolError::window_not_shown(&clipped(&request.window), "the app's OS window is minimised")));
            return;
        }
        self.picture = Some(PictureTask { key, app_id, handle: request.window, stage: Stage::Taken(request.reply) });
        self.look_now(ctx);
    }

    /// End of a kept pass of `viewport`, after its publish: the picture under way in it is
    /// framed, and asked of the integration (the first time) or framed again (the second).
    pub(super) fn picture_end(
        &mut self,
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        output: &mut egui::FullOutput,
    ) {
        let Some(task) = self.picture.take_if(|t| t.key == key(viewport)) else { return };
        let framing = self.framing(ctx, viewport, output, &task.app_id, &task.handle);
        match task.stage {
            Stage::Taken(reply) => {
                let framing = match framing {
                    Ok(f) => f,
                    Err(e) => {
                        let _ = reply.send(Err(e));
                        self.picture_done(ctx);
                        return;
                    }
                };
                let Some(out) = output.viewport_output.get_mut(&viewport) else {
                    let _ =
                        reply.send(Err(ToolError::window_not_shown(&clipped(&task.handle), "its viewport is closing")));
                    self.picture_done(ctx);
                    return;
                };
                let slot: FramingSlot = Arc::new(Mutex::new(Some(Ok(framing))));
                let taken = Arc::clone(&slot);
                let callback = egui::ScreenshotCallback::new(move |image| {
                    let framing = taken.lock().take();
                    let answer = match framing {
                        Some(Ok(Framing { crop, blanks, version })) => {
                            Ok(Shot { pixels: Box::new(Screen(image)), crop, blanks, version })
                        }
                        Some(Err(e)) => Err(e),
                        None => {
                            Err(ToolError::new(ErrorCode::ActionTimeout, "The picture was taken twice; call again"))
                        }
                    };
                    let _ = reply.send(answer);
                });
                out.commands.push(egui::ViewportCommand::Screenshot(callback));
                // The frame eframe takes it of.
                out.repaint_delay = std::time::Duration::ZERO;
                ctx.request_repaint_of(viewport);
                self.picture = Some(PictureTask { stage: Stage::Asked(slot), ..task });
            }
            Stage::Asked(slot) => {
                *slot.lock() = Some(framing);
                self.picture_done(ctx);
            }
        }
    }

    /// The picture under way is over (for the UI): the tree it turned on goes with it where the
    /// read view is off.
    fn picture_done(&mut self, ctx: &egui::Context) {
        self.picture = None;
        if self.core.hub.config().read_view == crate::hub::ReadView::Off {
            self.look_off(ctx);
        }
    }

    /// The window `app_id` as drawn in the pass of `viewport` that just ended: its rectangle in
    /// the screenshot's pixels, what to blank there, and its version as published.
    fn framing(
        &self,
        ctx: &egui::Context,
        viewport: egui::ViewportId,
        output: &egui::FullOutput,
        app_id: &str,
        handle: &str,
    ) -> Result<Framing, ToolError> {
        let key = key(viewport);
        let nodes = self.core.frame.lock().picture_nodes(key, app_id);
        // The window's own egui id: a described window's, else the read view's (`None`: all
        // that is drawn straight into the viewport).
        let window = match nodes.window {
            Some(id) => Some(id),
            None => match self.read.seen.get(&key).and_then(|s| s.nodes.get(app_id)) {
                Some(node) => *node,
                None => {
                    return Err(ToolError::window_not_shown(
                        &clipped(handle),
                        "the app declares it without drawing it",
                    ));
                }
            },
        };
        let tree = output.platform_output.accesskit_update.as_ref();
        let mut hidden: Vec<u64> = nodes.hidden.clone();
        if let Some(tree) = tree {
            hidden.extend(hidden_containers(tree, &nodes.hidden, &nodes.window_uis));
        }
        let passwords = tree.map(password_edits).unwrap_or_default();
        let wanted: HashSet<u64> =
            window.into_iter().chain(hidden.iter().copied()).chain(passwords.iter().copied()).collect();
        let rects = widget_rects(ctx, viewport, &wanted);
        let screen = ctx.input_for(viewport, egui::InputState::viewport_rect);
        let (crop, window_layer) = match window {
            None => (screen, None),
            Some(id) => match rects.get(&id) {
                Some((layer, rect, _)) => {
                    // A described panel: all of it, whatever its contents take.
                    let whole = nodes.rect.map_or(*rect, |[x0, y0, x1, y1]| {
                        egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1))
                    });
                    (whole.intersect(screen), Some(*layer))
                }
                None => {
                    return Err(ToolError::window_not_shown(&clipped(handle), "egui drew nothing of it in this pass"));
                }
            },
        };
        if !crop.is_positive() {
            return Err(ToolError::window_not_shown(&clipped(handle), "it is outside the app's OS window"));
        }
        let order: Vec<egui::LayerId> = ctx.memory(|m| m.layer_ids().collect());
        let rank = |l: egui::LayerId| (l.order, order.iter().position(|o| *o == l).map_or(-1, |p| p as i64));
        let blanks: Vec<egui::Rect> = hidden
            .iter()
            .chain(&passwords)
            .filter_map(|id| rects.get(id))
            // Under the pictured window's own layer, the window covers it within its crop.
            .filter(|(layer, _, _)| window_layer.is_none_or(|w| rank(w) <= rank(*layer)))
            .map(|(_, _, shown)| shown.intersect(crop))
            .filter(egui::Rect::is_positive)
            .collect();
        let version = self.core.hub.snapshot().window(handle).map(|w| w.version);
        let Some(version) = version else { return Err(ToolError::window_not_found(&clipped(handle))) };
        let ppp = ctx.input_for(viewport, egui::InputState::pixels_per_point);
        let px = |r: egui::Rect| [r.min.x * ppp, r.min.y * ppp, r.max.x * ppp, r.max.y * ppp];
        Ok(Framing { crop: px(crop), blanks: blanks.into_iter().map(px).collect(), version })
    }
}

/// The `PasswordInput` nodes of a pass's tree.
fn password_edits(tree: &TreeUpdate) -> Vec<u64> {
    tree.nodes.iter().filter(|(_, n)| n.role() == Role::PasswordInput).map(|(id, _)| id.0).collect()
}

/// For each hidden `Ui` that no declared window's contents hold, the top-level egui window or
/// panel it is in (the read view leaves all of it out).
fn hidden_containers(tree: &TreeUpdate, hidden: &[u64], window_uis: &[u64]) -> Vec<u64> {
    if hidden.is_empty() {
        return Vec::new();
    }
    let roles: HashMap<NodeId, Role> = tree.nodes.iter().map(|(id, n)| (*id, n.role())).collect();
    let parents: HashMap<NodeId, NodeId> =
        tree.nodes.iter().flat_map(|(id, n)| n.children().iter().map(move |c| (*c, *id))).collect();
    let container =
        |role: Option<&Role>| matches!(role, Some(Role::Window | Role::Dialog | Role::AlertDialog | Role::Pane));
    let mut found = Vec::new();
    for h in hidden {
        let mut node = NodeId(*h);
        let mut outermost = None;
        let mut in_described = false;
        // Up to the root (a tree has no cycles; the bound keeps a malformed one finite).
        for _ in 0..=roles.len() {
            in_described |= window_uis.contains(&node.0);
            if container(roles.get(&node)) {
                outermost = Some(node.0);
            }
            let Some(parent) = parents.get(&node) else { break };
            node = *parent;
        }
        if let (Some(c), false) = (outermost, in_described) {
            found.push(c);
        }
    }
    found
}

/// The rectangles of these egui ids in the pass of `viewport` that just ended: each one's layer,
/// its whole rectangle and what of it is shown (within its clip), in screen points.
fn widget_rects(
    ctx: &egui::Context,
    viewport: egui::ViewportId,
    wanted: &HashSet<u64>,
) -> HashMap<u64, (egui::LayerId, egui::Rect, egui::Rect)> {
    let found: Vec<(u64, egui::LayerId, egui::Rect, egui::Rect)> = ctx.viewport_for(viewport, |v| {
        v.prev_pass
            .widgets
            .layers()
            .flat_map(|(layer, rects)| rects.iter().map(move |w| (layer, w)))
            .filter(|(_, w)| wanted.contains(&w.id.value()))
            .map(|(layer, w)| (w.id.value(), *layer, w.rect, w.interact_rect))
            .collect()
    });
    found
        .into_iter()
        .map(|(id, layer, rect, shown)| {
            let global = ctx.layer_transform_to_global(layer);
            let to_screen = |r: egui::Rect| global.map_or(r, |t| t * r);
            (id, (layer, to_screen(rect), to_screen(shown)))
        })
        .collect()
}
