//! Where the windows shown with [`WindowBuilder::ui`](super::WindowBuilder::ui) go: inside the
//! main window (an `egui::Window` each) or each in an OS window of its own (an immediate egui
//! viewport), and where on the screen. Ids, tools and behaviour are the same either way: what a
//! window declares does not depend on where it is drawn.
//!
//! Kept by the bridge (two bridges share nothing, even in one context), on the UI thread, for
//! the windows shown in the last pass only (a window not shown in a pass is forgotten: its
//! place, its egui id slot, its pop-out state).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use egui::{Pos2, Rect, Vec2, ViewportCommand, ViewportId};

/// How a window shown with `ui` looks beyond what agents read: its size, whether the person
/// may close it, and egui's window options the app set.
#[derive(Clone, Debug, Default)]
pub(crate) struct Look {
    pub size: Option<Vec2>,
    /// The person may close it, and agents with its `close` action, described so.
    pub closable: Option<crate::hub::ActionSpec>,
    pub resizable: Option<bool>,
    pub collapsible: Option<bool>,
    pub vscroll: Option<bool>,
    pub default_width: Option<f32>,
    pub fixed_size: Option<Vec2>,
    pub anchor: Option<(egui::Align2, Vec2)>,
    /// The "Own window" button, when the app chose for this window.
    pub own_window_button: Option<bool>,
    /// The app's own say on the `egui::Window`, last ([`WindowBuilder::with_window`](super::WindowBuilder::with_window)).
    pub window: Option<WindowOptions>,
}

/// What the app does to the `egui::Window` before it is shown: any option egui has.
#[derive(Clone)]
pub(crate) struct WindowOptions(pub std::sync::Arc<WindowFn>);

/// The app's options on an `egui::Window`, as [`WindowOptions`] holds them.
pub(crate) type WindowFn = dyn for<'a> Fn(egui::Window<'a>) -> egui::Window<'a> + Send + Sync;

impl std::fmt::Debug for WindowOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WindowOptions")
    }
}

impl Look {
    /// egui's window options the app set, on `window` (after the bridge's own: the app's word is
    /// the last).
    pub fn options<'a>(&self, mut window: egui::Window<'a>) -> egui::Window<'a> {
        if let Some(on) = self.resizable {
            window = window.resizable(on);
        }
        if let Some(on) = self.collapsible {
            window = window.collapsible(on);
        }
        if let Some(on) = self.vscroll {
            window = window.vscroll(on);
        }
        if let Some(width) = self.default_width {
            window = window.default_width(width);
        }
        if let Some(size) = self.fixed_size {
            window = window.fixed_size(size);
        }
        if let Some((align, offset)) = self.anchor {
            window = window.anchor(align, offset);
        }
        match &self.window {
            Some(options) => (options.0)(window),
            None => window,
        }
    }
}

/// What is remembered of one window shown in the last pass.
#[derive(Debug)]
struct Seen {
    /// Its egui id slot (see [`Places::egui_id`]).
    slot: u32,
    /// The root viewport's pass that last showed it.
    pass: u64,
    /// Where it was drawn, in the main window's points (OS windows: relative to
    /// [`Places::native_origin`]).
    rect: Option<Rect>,
    /// The person moved it into an OS window of its own.
    popped: bool,
    /// It was in an OS window of its own in the last pass.
    native: bool,
    /// It was the top of its modal chain in the last pass.
    top: bool,
}

/// The bridge's window places.
#[derive(Debug)]
pub(crate) struct Places {
    /// Every window in an OS window of its own.
    pub native: bool,
    /// Windows have the "Own window" button unless they say otherwise.
    pub own_window_buttons: bool,
    /// This bridge's own part of the egui ids and viewport ids of its windows: another
    /// bridge's window with the same app id, in the same context, is another egui window.
    salt: u64,
    seen: HashMap<String, Seen>,
    /// The root pass of the latest `ui` call.
    pass: u64,
    free: Vec<u32>,
    next: u32,
}

/// Where one window goes in this pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placed {
    pub egui_id: egui::Id,
    pub native: bool,
    /// Where it opens (absolute in the main window; for an OS window, on the screen).
    pub pos: Pos2,
    /// First shown in this pass: the place is set, not suggested (the slot's egui memory may
    /// hold an earlier window's place).
    pub first: bool,
    /// It became the top of its chain in this pass (an OS window is raised once then).
    pub became_top: bool,
    pub can_pop: bool,
    pub popped: bool,
}

impl Places {
    /// The places of a new bridge, every window in an OS window of its own if `native`.
    pub fn new(native: bool) -> Self {
        /// How many bridges were made: each one's salt.
        static BRIDGES: AtomicU64 = AtomicU64::new(0);
        let salt = BRIDGES.fetch_add(1, Ordering::Relaxed);
        Self { native, own_window_buttons: false, salt, seen: HashMap::new(), pass: 0, free: Vec::new(), next: 0 }
    }

    /// The viewport of a window shown in its own OS window.
    pub fn viewport_id(&self, app_id: &str) -> ViewportId {
        ViewportId::from_hash_of(("egui_mcp_bridge::viewport", self.salt, app_id))
    }

    /// The egui id of the slot `slot`.
    fn slot_id(&self, slot: u32) -> egui::Id {
        egui::Id::unique(("egui_mcp_bridge::window", self.salt, slot))
    }

    /// Starts the root pass `pass` if it is new: forgets the windows the last pass did not show
    /// and frees their egui id slots.
    fn begin(&mut self, pass: u64) {
        if pass == self.pass {
            return;
        }
        // An earlier pass than the last: another context (the bridge's windows shown in a new
        // one), which showed none of them yet.
        let last = if pass < self.pass { u64::MAX } else { self.pass };
        self.pass = pass;
        let free = &mut self.free;
        self.seen.retain(|_, s| {
            let keep = s.pass >= last;
            if !keep {
                free.push(s.slot);
            }
            keep
        });
    }

    /// egui keeps memory for every window id it has seen (its place, size, widget states),
    /// forever; protocol ids are never reused. So a window's egui id is a slot that a later
    /// window takes once this one is gone, and egui's memory stays bounded by the most windows
    /// open at once.
    pub fn egui_id(&mut self, ctx: &egui::Context, app_id: &str) -> egui::Id {
        self.begin(ctx.cumulative_pass_nr_for(ViewportId::ROOT));
        let slot = self.seen(app_id).slot;
        self.slot_id(slot)
    }

    /// The egui id of a window shown in the last pass.
    #[cfg(feature = "testing")]
    pub fn slot_of(&self, app_id: &str) -> Option<egui::Id> {
        self.seen.get(app_id).map(|s| self.slot_id(s.slot))
    }

    /// How many egui id slots exist.
    #[cfg(feature = "testing")]
    pub fn slots(&self) -> usize {
        self.next as usize
    }

    fn seen(&mut self, app_id: &str) -> &mut Seen {
        // The id is copied once, when the window is first seen: not in every pass.
        if !self.seen.contains_key(app_id) {
            let slot = self.free.pop().unwrap_or_else(|| {
                self.next += 1;
                self.next
            });
            let seen = Seen { slot, pass: self.pass, rect: None, popped: false, native: false, top: false };
            self.seen.insert(app_id.to_owned(), seen);
        }
        self.seen.get_mut(app_id).expect("inserted above")
    }

    /// The app ids of the windows shown in the last pass.
    pub fn app_ids(&self) -> Vec<String> {
        self.seen.keys().cloned().collect()
    }

    /// Whether the window is in an OS window of its own.
    pub fn is_native(&self, app_id: &str) -> bool {
        self.native || self.seen.get(app_id).is_some_and(|s| s.native || s.popped)
    }

    /// Brings a window to the front: raises its OS window, or its layer in the main window.
    pub fn focus(&mut self, ctx: &egui::Context, app_id: &str) {
        if self.is_native(app_id) {
            ctx.send_viewport_cmd_to(self.viewport_id(app_id), ViewportCommand::Focus);
        } else {
            let id = self.egui_id(ctx, app_id);
            ctx.move_to_top(egui::LayerId::new(egui::Order::Middle, id));
        }
    }

    /// Moves a window between the main window and an OS window of its own.
    pub fn toggle(&mut self, app_id: &str) {
        if let Some(s) = self.seen.get_mut(app_id) {
            s.popped = !s.popped;
        }
    }

    /// Where a window goes in this pass. `area`: where it may go in the main window (default:
    /// all of it); `owner`: the window a dialog is over; `top`: whether it is the top of its
    /// modal chain now; `button`: whether it has the "Own window" button (without it, a window
    /// the person popped out goes back into the main window).
    pub fn place(
        &mut self,
        ctx: &egui::Context,
        area: Option<Rect>,
        app_id: &str,
        (size, owner): (Vec2, Option<&str>),
        (top, button): (bool, bool),
    ) -> Placed {
        let egui_id = self.egui_id(ctx, app_id);
        let can_pop = button && owner.is_none() && !self.native;
        if !can_pop && let Some(seen) = self.seen.get_mut(app_id) {
            seen.popped = false;
        }
        let native = match owner {
            Some(owner) => self.is_native(owner),
            None => self.native || self.seen.get(app_id).is_some_and(|s| s.popped),
        };
        let owner_rect = owner.and_then(|o| self.seen.get(o)).and_then(|s| s.rect);
        let first = self.seen.get(app_id).is_none_or(|s| s.rect.is_none());
        // A dialog opens over its owner; a new window where it covers the least of the windows
        // already open (never exactly on one); a window already shown stays where it is. (The
        // open windows are looked at only for a new one: every pass, that would be quadratic.)
        let pos = match (owner_rect, self.seen.get(app_id).and_then(|s| s.rect)) {
            (Some(owner), None) => owner.center() - size / 2.0,
            (_, Some(rect)) => rect.min,
            (None, None) => {
                let open = self
                    .seen
                    .iter()
                    .filter(|(id, s)| id.as_str() != app_id && s.native == native)
                    .filter_map(|(_, s)| s.rect);
                // The monitor the main window is on, as the platform tells it (a common size when
                // it does not).
                let monitor = ctx.input(|i| i.viewport().monitor_size).unwrap_or(egui::vec2(1600.0, 900.0));
                let screen = Rect::from_min_size(Pos2::ZERO, monitor);
                let area = if native { screen } else { area.unwrap_or_else(|| ctx.content_rect()) };
                new_spot(area, open, size, self.seen.len())
            }
        };
        let origin = self.native_origin(ctx);
        let pass = self.pass;
        let seen = self.seen(app_id);
        let became_top = top && !seen.top;
        (seen.pass, seen.native, seen.top) = (pass, native, top);
        let popped = seen.popped;
        let pos = if native { origin + pos.to_vec2() } else { pos };
        Placed { egui_id, native, pos, first, became_top, can_pop, popped }
    }

    /// A window drawn straight into the app's `ui` (a panel) in this pass, at `rect`: kept like
    /// the others so that its dialogs open over it.
    pub fn inline(&mut self, ctx: &egui::Context, app_id: &str, rect: Rect) {
        self.begin(ctx.cumulative_pass_nr_for(ViewportId::ROOT));
        let pass = self.pass;
        let seen = self.seen(app_id);
        (seen.pass, seen.rect, seen.native) = (pass, Some(rect), false);
    }

    /// Where a window was drawn in this pass (absolute: main-window points or the screen).
    pub fn record(&mut self, ctx: &egui::Context, app_id: &str, rect: Rect, native: bool) {
        let rect = if native { rect.translate(-self.native_origin(ctx).to_vec2()) } else { rect };
        if let Some(s) = self.seen.get_mut(app_id) {
            s.rect = Some(rect);
        }
    }

    /// Where places of OS windows count from: right of the main window when every window has
    /// its own (the main window keeps only the app's panels, so nothing hides behind it), else
    /// the main window's free area (a popped-out window opens where it was).
    fn native_origin(&self, ctx: &egui::Context) -> Pos2 {
        let main = ctx.input_for(ViewportId::ROOT, |i| i.viewport().outer_rect);
        match main {
            Some(r) if self.native => r.right_top() + egui::vec2(8.0, 0.0),
            Some(r) => r.min,
            None => Pos2::ZERO,
        }
    }
}

/// Of the places on a 40-point grid over `area`, the first that overlaps `open` least (a place
/// where the window does not fit counts as covering everything).
/// Beyond this many windows open, a new window cascades from the top left (each one a step
/// further than the one before) instead of going where it covers the least of them: that
/// search checks every spot of a 40-point grid against every open window, so opening 10,000
/// windows took minutes, and with that many open every spot covers some.
const SEARCH_AMONG: usize = 64;

/// Where a new window of `size` goes in `area`, `open` being the windows already there and
/// `count` how many windows the bridge has placed so far (which step of the cascade).
fn new_spot(area: Rect, open: impl Iterator<Item = Rect> + Clone, size: Vec2, count: usize) -> Pos2 {
    if open.clone().nth(SEARCH_AMONG).is_some() {
        let step = 24.0;
        let room = ((area.width() - size.x).min(area.height() - size.y) - 8.0).max(0.0);
        let fit = (room / step) as usize + 1;
        let k = (count % fit) as f32;
        area.min + egui::vec2(8.0, 8.0) + egui::vec2(k * step, k * step)
    } else {
        free_spot(area, &open.collect::<Vec<_>>(), size)
    }
}

fn free_spot(area: Rect, open: &[Rect], size: Vec2) -> Pos2 {
    let overlap = |min: Pos2| {
        let r = Rect::from_min_size(min, size);
        if !area.contains_rect(r) {
            return f32::INFINITY;
        }
        open.iter().map(|o| o.intersect(r)).filter(Rect::is_positive).map(|i| i.area()).sum::<f32>()
    };
    let step = 40.0;
    let (cols, rows) =
        (((area.width() - size.x) / step).max(0.0) as u32, ((area.height() - size.y) / step).max(0.0) as u32);
    let mut best = (f32::INFINITY, area.min + egui::vec2(8.0, 8.0));
    for row in 0..=rows {
        for col in 0..=cols {
            let min = area.min + egui::vec2(col as f32 * step, row as f32 * step) + egui::vec2(8.0, 8.0);
            let o = overlap(min);
            if o < best.0 {
                best = (o, min);
            }
            if best.0 == 0.0 {
                return best.1;
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_window_goes_where_it_covers_least_and_among_many_cascades() {
        let area = Rect::from_min_size(Pos2::ZERO, egui::vec2(1000.0, 800.0));
        let size = egui::vec2(300.0, 200.0);
        // One window at the top left: the next goes beside it, covering none of it.
        let first = Rect::from_min_size(egui::pos2(8.0, 8.0), size);
        let spot = new_spot(area, [first].into_iter(), size, 1);
        assert!(!Rect::from_min_size(spot, size).intersects(first), "{spot:?} covers {first:?}");
        // Past SEARCH_AMONG open windows (every spot covered), each new one a step further.
        let many = vec![Rect::from_min_size(Pos2::ZERO, area.size()); SEARCH_AMONG + 1];
        let (a, b) = (new_spot(area, many.iter().copied(), size, 100), new_spot(area, many.iter().copied(), size, 101));
        assert_eq!(b - a, egui::vec2(24.0, 24.0));
        for k in 0..1_000 {
            let spot = Rect::from_min_size(new_spot(area, many.iter().copied(), size, k), size);
            assert!(area.contains_rect(spot), "{spot:?} outside {area:?} at {k}");
        }
    }
}
