//! Small helpers shared by the demo's windows: stable egui ids, dialog ids, and the agent
//! highlight that tells the person which window an agent just acted on.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use egui::{Color32, Stroke};

/// How long a window stays highlighted after an agent acted on it.
pub const HIGHLIGHT: Duration = Duration::from_secs(3);

/// egui keeps memory for every window id it has seen (its place in the area order, position,
/// size, the states of the widgets in it), forever: egui 0.37 cannot forget one. Protocol ids
/// are never reused, so a window's egui id is a slot that a later window reuses once this one
/// is gone, and egui's memory stays bounded by the most windows open at once.
#[derive(Debug, Default)]
struct Slots {
    /// App id → (slot, the pass that last asked for it).
    by_app: HashMap<String, (u32, u64)>,
    free: Vec<u32>,
    next: u32,
}

fn slots(ctx: &egui::Context) -> Arc<Mutex<Slots>> {
    ctx.data_mut(|d| d.get_temp_mut_or_default::<Arc<Mutex<Slots>>>(egui::Id::unique("demo-window-slots")).clone())
}

/// The egui id of a protocol window (titles change, ids must not): stable while the window is
/// shown every pass, reused after it is gone.
pub fn window_id(ctx: &egui::Context, app_id: &str) -> egui::Id {
    let pass = ctx.cumulative_pass_nr();
    let slots = slots(ctx);
    let mut s = slots.lock();
    let slot = if let Some(entry) = s.by_app.get_mut(app_id) {
        entry.1 = pass;
        entry.0
    } else {
        let slot = s.free.pop().unwrap_or_else(|| {
            s.next += 1;
            s.next
        });
        s.by_app.insert(app_id.to_owned(), (slot, pass));
        slot
    };
    egui::Id::unique(("demo-window", slot))
}

/// Frees the slots of windows not shown in this pass; call at the end of each pass.
pub fn recycle_window_ids(ctx: &egui::Context) {
    let pass = ctx.cumulative_pass_nr();
    let slots = slots(ctx);
    let mut s = slots.lock();
    let Slots { by_app, free, .. } = &mut *s;
    by_app.retain(|_, (slot, last)| {
        let keep = *last == pass;
        if !keep {
            free.push(*slot);
        }
        keep
    });
}

/// How many window slots exist (the most windows ever open at once), for tests.
pub fn window_slots(ctx: &egui::Context) -> usize {
    let slots = slots(ctx);
    let s = slots.lock();
    s.next as usize
}

/// Hands out dialog ids (`confirm-1`, `lock-2`, …) that are never reused.
#[derive(Debug, Default)]
pub struct IdGen {
    next: u64,
}

impl IdGen {
    /// The next id with this prefix.
    pub fn next(&mut self, prefix: &str) -> String {
        format!("{prefix}-{}", self.number())
    }

    /// The next number (shared with [`IdGen::next`], so ids never repeat across prefixes).
    pub fn number(&mut self) -> u64 {
        self.next += 1;
        self.next
    }
}

/// What the agent last did to each window, for the person's eyes only (never declared).
#[derive(Debug, Default)]
pub struct AgentNotes {
    notes: HashMap<String, (Instant, String)>,
}

impl AgentNotes {
    /// Records that an agent acted on a window (and forgets notes too old to show).
    pub fn note(&mut self, app_id: &str, what: String) {
        self.notes.retain(|_, (at, _)| at.elapsed() < HIGHLIGHT);
        self.notes.insert(app_id.to_owned(), (Instant::now(), what));
    }

    /// How many notes are kept (at most the windows acted on in the last [`HIGHLIGHT`]).
    pub fn len(&self) -> usize {
        self.notes.len()
    }

    /// Whether no note is kept.
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
    }

    fn active(&self, app_id: &str) -> Option<(Duration, &str)> {
        let (at, what) = self.notes.get(app_id)?;
        let age = at.elapsed();
        HIGHLIGHT.checked_sub(age).filter(|left| !left.is_zero()).map(|left| (left, what.as_str()))
    }

    /// The window frame: highlighted while an agent note is fresh.
    pub fn frame(&self, ctx: &egui::Context, app_id: &str) -> egui::Frame {
        let frame = egui::Frame::window(&ctx.global_style());
        match self.active(app_id) {
            Some((left, _)) => {
                ctx.request_repaint_after(left);
                frame.stroke(Stroke::new(2.5, Color32::from_rgb(90, 160, 255)))
            }
            None => frame,
        }
    }

    /// A short line saying what the agent did, while fresh.
    pub fn line(&self, ui: &mut egui::Ui, app_id: &str) {
        if let Some((_, what)) = self.active(app_id) {
            ui.colored_label(Color32::from_rgb(90, 160, 255), format!("Agent: {what}"));
        }
    }
}
