//! Small helpers shared by the demo's windows: stable egui ids, dialog ids, and the agent
//! highlight that tells the person which window an agent just acted on.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use egui::{Color32, Stroke};

/// How long a window stays highlighted after an agent acted on it.
pub const HIGHLIGHT: Duration = Duration::from_secs(3);

/// The egui id of a protocol window (titles change, ids must not).
pub fn window_id(app_id: &str) -> egui::Id {
    egui::Id::unique(("demo-window", app_id))
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
    /// Records that an agent acted on a window.
    pub fn note(&mut self, app_id: &str, what: String) {
        self.notes.insert(app_id.to_owned(), (Instant::now(), what));
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
