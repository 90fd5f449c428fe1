//! Where the demo's windows live: inside the main window (an `egui::Window` each), or each in
//! its own OS window (an egui viewport), with `--native-windows` or when the person pops one
//! out. Ids, tools and behaviour are the same either way: what a window declares does not
//! depend on where it is drawn, and the bridge publishes every viewport's windows together.

use std::collections::{HashMap, HashSet};

use egui::{Pos2, Rect, Vec2, ViewportBuilder, ViewportCommand, ViewportId};
use egui_mcp_bridge::AgentAction;

use crate::ui_util::{agent_frame, agent_line, agent_stroke, window_id};

/// How one window is shown.
#[derive(Clone, Copy, Debug)]
pub struct Spec<'a> {
    /// The window's app id.
    pub app_id: &'a str,
    /// Its title.
    pub title: &'a str,
    /// The agent's last action on it (for the highlight and the "Agent: …" line).
    pub agent: Option<&'a AgentAction>,
    /// Where it opens, relative to the main window's free area, and its size.
    pub pos: Pos2,
    /// Its size when it opens.
    pub size: Vec2,
    /// A dialog of this window: centred on it, in front, not resizable, never popped out alone.
    pub dialog_of: Option<&'a str>,
    /// Whether it has a close button.
    pub closable: bool,
}

/// What showing a window gave.
#[derive(Debug)]
pub struct Shown<R> {
    /// What the contents returned (`None` while collapsed).
    pub inner: Option<R>,
    /// The person asked to close it (its close button, or the OS window's).
    pub close: bool,
}

/// The demo's window placement and mode.
#[derive(Debug)]
pub struct Windows {
    /// `--native-windows`: every window in its own OS window.
    pub native: bool,
    /// Windows the person popped out into OS windows of their own.
    popped: HashSet<String>,
    /// Windows shown in OS windows of their own in the last pass (a dialog goes with its owner).
    in_own_window: HashSet<String>,
    /// Where each window was last seen, in the main window's points (to centre dialogs).
    rects: HashMap<String, Rect>,
    /// The top of each modal chain (by the window at its root) when it was last raised.
    tops: HashMap<String, String>,
    /// The part of the main window that windows may use (the screen less the panels).
    pub area: Rect,
}

impl Default for Windows {
    fn default() -> Self {
        Self {
            native: false,
            popped: HashSet::new(),
            in_own_window: HashSet::new(),
            rects: HashMap::new(),
            tops: HashMap::new(),
            area: Rect::from_min_size(Pos2::ZERO, egui::vec2(1280.0, 800.0)),
        }
    }
}

/// The viewport of a window shown in its own OS window.
pub fn viewport_id(app_id: &str) -> ViewportId {
    ViewportId::from_hash_of(("demo-window", app_id))
}

impl Windows {
    /// Whether the window is in its own OS window.
    pub fn is_native(&self, app_id: &str) -> bool {
        self.native || self.popped.contains(app_id) || self.in_own_window.contains(app_id)
    }

    /// Brings a window to the front: raises its OS window, or its layer in the main window.
    pub fn focus(&self, ctx: &egui::Context, app_id: &str) {
        if self.is_native(app_id) {
            ctx.send_viewport_cmd_to(viewport_id(app_id), ViewportCommand::Focus);
        } else {
            ctx.move_to_top(egui::LayerId::new(egui::Order::Middle, window_id(ctx, app_id)));
        }
    }

    /// Keeps `top`, the top of the modal chain rooted at `root`, where the person can answer
    /// it: above every other window of the main window, each pass; its OS window raised and
    /// focused once each time it becomes the top. Whoever opened it: a dialog the agent opened
    /// in a pass that left its owner out would otherwise come out under it.
    pub fn keep_on_top(&mut self, ctx: &egui::Context, root: &str, top: &str) {
        if self.is_native(top) {
            if self.tops.get(root).is_none_or(|t| t != top) {
                ctx.send_viewport_cmd_to(viewport_id(top), ViewportCommand::Focus);
            }
        } else {
            ctx.move_to_top(egui::LayerId::new(egui::Order::Foreground, window_id(ctx, top)));
        }
        self.tops.insert(root.to_owned(), top.to_owned());
    }

    /// Where a new window of `size` opens: of the places on a grid over the free area, starting
    /// at `preferred`, the first that overlaps the open windows least (never exactly on one).
    /// In the main window's points (absolute), or relative to the native origin for an OS window.
    fn free_spot(&self, app_id: &str, size: Vec2, preferred: Pos2, native: bool) -> Pos2 {
        let (area, offset) = if native {
            (Rect::from_min_size(Pos2::ZERO, egui::vec2(1600.0, 900.0)), Vec2::ZERO)
        } else {
            (self.area, self.area.min.to_vec2())
        };
        let open: Vec<Rect> = self.rects.iter().filter(|(id, _)| id.as_str() != app_id).map(|(_, r)| *r).collect();
        // A place where the window does not fit is pushed back into the area over the others.
        let overlap = |min: Pos2| {
            let r = Rect::from_min_size(min, size);
            if !area.contains_rect(r) {
                return f32::INFINITY;
            }
            open.iter().map(|o| o.intersect(r)).filter(Rect::is_positive).map(|i| i.area()).sum::<f32>()
        };
        let start = preferred + offset;
        let mut best = (overlap(start), start);
        let step = 40.0;
        let (cols, rows) =
            (((area.width() - size.x) / step).max(0.0) as usize, ((area.height() - size.y) / step).max(0.0) as usize);
        for row in 0..=rows {
            for col in 0..=cols {
                if best.0 == 0.0 {
                    break;
                }
                let min = area.min + egui::vec2(col as f32 * step, row as f32 * step);
                let o = overlap(min);
                if o < best.0 {
                    best = (o, min);
                }
            }
        }
        best.1
    }

    /// Where positions of windows in OS windows of their own count from: right of the main
    /// window with `--native-windows` (it keeps only the menu and the activity panel, so
    /// nothing hides behind it), else the main window's free area (a popped-out window opens
    /// where it was).
    pub fn native_origin(&self, ctx: &egui::Context) -> Pos2 {
        let main = ctx.input_for(ViewportId::ROOT, |i| i.viewport().outer_rect);
        match main {
            Some(r) if self.native => r.right_top() + egui::vec2(8.0, 0.0),
            Some(r) => r.min + self.area.min.to_vec2(),
            None => Pos2::ZERO,
        }
    }

    /// Moves a window between the main window and an OS window of its own.
    pub fn toggle(&mut self, app_id: &str) {
        if !self.popped.remove(app_id) {
            self.popped.insert(app_id.to_owned());
        }
    }

    /// Where a window was last seen.
    pub fn rect(&self, app_id: &str) -> Option<Rect> {
        self.rects.get(app_id).copied()
    }

    /// Forgets the windows not in `open` (their places and pop-out state).
    pub fn retain(&mut self, open: impl Fn(&str) -> bool) {
        self.popped.retain(|id| open(id));
        self.in_own_window.retain(|id| open(id));
        self.rects.retain(|id, _| open(id));
        self.tops.retain(|root, top| open(root) && open(top));
    }

    /// Shows a window with `add` as its contents, in the main window or in its own.
    pub fn show<R>(&mut self, ctx: &egui::Context, spec: Spec<'_>, add: impl FnOnce(&mut egui::Ui) -> R) -> Shown<R> {
        let native = match spec.dialog_of {
            Some(owner) => self.is_native(owner),
            None => self.native || self.popped.contains(spec.app_id),
        };
        if native {
            self.in_own_window.insert(spec.app_id.to_owned());
        } else {
            self.in_own_window.remove(spec.app_id);
        }
        // Where it opens: a dialog over its owner; a new window where it covers the least of
        // the windows already open (never exactly on top of one), starting from its own place.
        let first = !self.rects.contains_key(spec.app_id);
        let pos = match spec.dialog_of.and_then(|o| self.rect(o)) {
            Some(owner) => owner.center() - spec.size / 2.0,
            None if first => self.free_spot(spec.app_id, spec.size, spec.pos, native),
            None if native => spec.pos,
            None => self.area.min + spec.pos.to_vec2(),
        };
        let can_pop = spec.dialog_of.is_none() && !self.native;
        let mut toggle = false;
        let shown = if native {
            self.show_native(ctx, spec, pos, can_pop, &mut toggle, add)
        } else {
            self.show_embedded(ctx, spec, (pos, first), can_pop, &mut toggle, add)
        };
        if toggle {
            self.toggle(spec.app_id);
        }
        shown
    }

    fn show_embedded<R>(
        &mut self,
        ctx: &egui::Context,
        spec: Spec<'_>,
        (pos, first): (Pos2, bool),
        can_pop: bool,
        toggle: &mut bool,
        add: impl FnOnce(&mut egui::Ui) -> R,
    ) -> Shown<R> {
        let mut open = true;
        let mut window = egui::Window::new(spec.title)
            .id(window_id(ctx, spec.app_id))
            .frame(agent_frame(ctx, spec.agent))
            .constrain_to(self.area)
            .default_size(spec.size);
        // Its egui id may have served a window before (ids are reused slots), whose place egui
        // remembers: the first time, the place is set, not suggested.
        window = if first { window.current_pos(pos) } else { window.default_pos(pos) };
        if spec.closable {
            window = window.open(&mut open);
        }
        if spec.dialog_of.is_some() {
            window = window.order(egui::Order::Foreground).collapsible(false).resizable(false);
        }
        let response = window.show(ctx, |ui| {
            header(ui, spec.agent, can_pop.then_some((toggle, "Own window")));
            add(ui)
        });
        let inner = response.and_then(|r| {
            self.rects.insert(spec.app_id.to_owned(), r.response.rect);
            r.inner
        });
        Shown { inner, close: !open }
    }

    fn show_native<R>(
        &mut self,
        ctx: &egui::Context,
        spec: Spec<'_>,
        pos: Pos2,
        can_pop: bool,
        toggle: &mut bool,
        add: impl FnOnce(&mut egui::Ui) -> R,
    ) -> Shown<R> {
        let origin = self.native_origin(ctx);
        let viewport = viewport_id(spec.app_id);
        let builder = ViewportBuilder::default()
            .with_title(spec.title)
            .with_inner_size(spec.size)
            .with_position(origin + pos.to_vec2())
            .with_resizable(spec.dialog_of.is_none());
        let mut close = false;
        let mut rect = None;
        // Called exactly once (an immediate viewport's ui runs at once), but typed `FnMut`.
        let mut add = Some(add);
        let inner = ctx.show_viewport_immediate(viewport, builder, |ui, _class| {
            close = ui.input(|i| i.viewport().close_requested());
            rect = ui.input(|i| i.viewport().outer_rect);
            let mut frame = egui::Frame::central_panel(ui.style());
            if let Some(stroke) = agent_stroke(ui.ctx(), spec.agent) {
                frame = frame.stroke(stroke);
            }
            egui::CentralPanel::default()
                .frame(frame)
                .show(ui, |ui| {
                    header(ui, spec.agent, can_pop.then_some((toggle, "Back into the main window")));
                    add.take().map(|add| add(ui))
                })
                .inner
        });
        if close {
            // The app decides: it stops showing the window, or keeps it (a Discard changes? first).
            ctx.send_viewport_cmd_to(viewport, ViewportCommand::CancelClose);
        }
        if let Some(r) = rect {
            self.rects.insert(spec.app_id.to_owned(), r.translate(-origin.to_vec2()));
        }
        Shown { inner, close }
    }
}

/// The line above a window's contents: what the agent just did, and the pop-out toggle.
fn header(ui: &mut egui::Ui, agent: Option<&AgentAction>, pop: Option<(&mut bool, &str)>) {
    if let Some((toggle, label)) = pop {
        ui.horizontal(|ui| {
            agent_line(ui, agent);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.small_button(label).on_hover_text("Show this window in its own OS window, or back").clicked() {
                    *toggle = true;
                }
            });
        });
    } else {
        // The line's room is kept when it is empty: the contents do not jump when it appears.
        ui.horizontal(|ui| {
            ui.set_min_height(ui.spacing().interact_size.y);
            agent_line(ui, agent);
        });
    }
}
