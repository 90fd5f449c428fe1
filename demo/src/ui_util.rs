//! Small helpers shared by the demo's windows: stable egui ids, dialog ids, and the agent
//! highlight that tells the person which window an agent just acted on.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use egui::{Color32, Stroke};
use egui_mcp_bridge::AgentAction;
use parking_lot::Mutex;

/// How long a window stays marked after an agent acted on it (the last part fading out).
pub const HIGHLIGHT: Duration = Duration::from_secs(5);

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

/// The agent's last action on a window while it still shows (within [`HIGHLIGHT`]), with how
/// strongly: 1 at first, fading to 0 over the last [`FADE`]. Asks for the repaints of the fade.
fn fresh<'a>(ctx: &egui::Context, agent: Option<&'a AgentAction>) -> Option<(&'a AgentAction, f32)> {
    let a = agent?;
    let left = HIGHLIGHT.checked_sub(a.at.elapsed()).filter(|d| !d.is_zero())?;
    if left > FADE {
        ctx.request_repaint_after(left.saturating_sub(FADE));
        Some((a, 1.0))
    } else {
        ctx.request_repaint_after(Duration::from_millis(50));
        Some((a, left.as_secs_f32() / FADE.as_secs_f32()))
    }
}

/// How long the mark takes to fade out, at the end of [`HIGHLIGHT`].
const FADE: Duration = Duration::from_millis(1500);

/// The highlight's outline while the agent's last action on a window is fresh.
pub fn agent_stroke(ctx: &egui::Context, agent: Option<&AgentAction>) -> Option<Stroke> {
    fresh(ctx, agent).map(|(_, strength)| Stroke::new(2.5, AGENT_BLUE.gamma_multiply(strength)))
}

/// A window's frame: highlighted while the agent's last action on it is fresh. `agent` is what
/// the bridge returned for the window ([`egui_mcp_bridge::WindowResponse::agent_action`]).
pub fn agent_frame(ctx: &egui::Context, agent: Option<&AgentAction>) -> egui::Frame {
    let frame = egui::Frame::window(&ctx.global_style());
    match agent_stroke(ctx, agent) {
        Some(stroke) => frame.stroke(stroke),
        None => frame,
    }
}

/// A short line saying what the agent did ("Agent: Edit field"), while fresh.
pub fn agent_line(ui: &mut egui::Ui, agent: Option<&AgentAction>) {
    if let Some((a, strength)) = fresh(ui.ctx(), agent) {
        let text = if a.ok { format!("Agent: {}", a.title) } else { format!("Agent: {} (refused)", a.title) };
        ui.colored_label(AGENT_BLUE.gamma_multiply(strength), text);
    }
}

const AGENT_BLUE: Color32 = Color32::from_rgb(90, 160, 255);
