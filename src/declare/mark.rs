//! The agent's mark on a described window or panel: an outline along its edge and an
//! "Agent: …" line naming the agent's latest call that changed it, painted over its title bar
//! after its contents (it takes no room, so nothing under the person's pointer moves when it
//! shows or fades), shown for a few seconds and fading.

use std::time::Duration;

use crate::hub::AgentAction;

/// How long a window stays marked after the agent's call that changed it (the last part fading).
const MARK: Duration = Duration::from_secs(5);
const FADE: Duration = Duration::from_millis(1500);
pub(super) const AGENT_BLUE: egui::Color32 = egui::Color32::from_rgb(90, 160, 255);

/// How strongly the agent's mark shows (1, fading to 0 over the last [`FADE`] of [`MARK`]);
/// asks for the repaints of the fade.
pub(super) fn mark_strength(ctx: &egui::Context, agent: Option<&AgentAction>) -> Option<f32> {
    if agent?.waiting {
        return Some(1.0); // shown until the app answers
    }
    let left = MARK.checked_sub(agent?.at.elapsed()).filter(|d| !d.is_zero())?;
    if left > FADE {
        ctx.request_repaint_after(left.saturating_sub(FADE));
        Some(1.0)
    } else {
        ctx.request_repaint_after(Duration::from_millis(50));
        Some(left.as_secs_f32() / FADE.as_secs_f32())
    }
}

/// What the agent's mark says: its latest call that changed the window.
pub(super) fn mark_text(a: &AgentAction) -> String {
    match (a.waiting, a.ok) {
        (true, _) => format!("Agent: {} (waiting)", a.title),
        (false, true) => format!("Agent: {}", a.title),
        (false, false) => format!("Agent: {} (refused)", a.title),
    }
}

/// Where the agent's mark goes over a window: its "Agent: …" line in a band along its top edge
/// (its title bar) of `height`, right of which `right` points stay clear (its close button), on
/// `fill`; its outline inside the window's edge, or `outside` the rect (a panel's contents,
/// the outline then in the panel's margin, not over its contents).
#[derive(Clone, Copy)]
pub(super) struct Band {
    pub height: f32,
    pub right: f32,
    pub fill: egui::Color32,
    pub outside: bool,
}

/// The band of an `egui::Window`'s title bar (heading row and the window frame's margins), its
/// close button kept clear when it has one.
pub(super) fn title_band(ctx: &egui::Context, closable: bool) -> Band {
    let style = ctx.global_style();
    let frame = egui::Frame::window(&style);
    let heading = heading_height(ctx);
    let margin = frame.total_margin();
    Band {
        height: heading + margin.sum().y,
        right: if closable { heading + style.spacing.item_spacing.x } else { 0.0 },
        fill: style.visuals.window_fill,
        outside: false,
    }
}

/// The height of a heading row (egui's title bar row).
pub(super) fn heading_height(ctx: &egui::Context) -> f32 {
    let style = ctx.global_style();
    ctx.fonts_mut(|f| f.row_height(&egui::TextStyle::Heading.resolve(&style)))
}

/// Paints the agent's mark over `rect` (a window, a panel), in its own `layer` after its
/// contents: an outline along its edge and the "Agent: …" line at the right end of its top
/// `band`. Painted over, it takes no room: nothing under the person's pointer moves when it
/// shows or fades (a line inserted for a few seconds would move every row).
pub(super) fn paint_mark(
    ctx: &egui::Context,
    layer: egui::LayerId,
    rect: egui::Rect,
    text: &str,
    strength: f32,
    band: Band,
) {
    let painter = ctx.layer_painter(layer);
    let style = ctx.global_style();
    let color = AGENT_BLUE.gamma_multiply(strength);
    let corner = style.visuals.window_corner_radius;
    let kind = if band.outside { egui::StrokeKind::Outside } else { egui::StrokeKind::Inside };
    painter.rect_stroke(rect, corner, egui::Stroke::new(2.5, color), kind);
    let galley = painter.layout_no_wrap(text.to_owned(), egui::TextStyle::Small.resolve(&style), color);
    let inset = style.spacing.window_margin.rightf() + band.right;
    let y = rect.top() + ((band.height - galley.size().y) / 2.0).max(3.0);
    let pos = egui::pos2((rect.right() - inset - galley.size().x).max(rect.left() + 3.0), y);
    let back = egui::Rect::from_min_size(pos, galley.size()).expand(2.0);
    painter.rect_filled(back, 3.0, band.fill.gamma_multiply(strength));
    painter.galley(pos, galley, color);
}
