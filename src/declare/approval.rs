//! The prompt that asks the person to approve an agent's call, drawn inside the window the
//! call is for: by [`WindowBuilder::ui`](crate::WindowBuilder::ui) and
//! [`WindowBuilder::panel`](crate::WindowBuilder::panel), or where the app puts it
//! ([`crate::Bridge::approval_prompt`]).

use std::time::Duration;

use crate::hub::{Approval, UiCore};

/// At most this long between two passes that draw the prompt while it waits.
const COUNTDOWN: Duration = Duration::from_millis(500);

/// Draws `approval`, the call waiting on `app_id`, with Allow and Deny, and passes the person's
/// answer on; while none comes, asks for the pass that shows the countdown's next step.
pub(crate) fn approval_prompt(ui: &mut egui::Ui, core: &UiCore, app_id: &str, approval: &Approval) {
    match ask(ui, core, approval) {
        Some(allow) => {
            core.answer_approval(app_id, allow);
        }
        None => ui.ctx().request_repaint_after(next_step(approval.time_left)),
    }
}

/// How long until the countdown's number changes (at the last step: the prompt goes), so that
/// the number on screen is never one the person no longer has.
fn next_step(time_left: Duration) -> Duration {
    let into_second = Duration::from_nanos(u64::from(time_left.subsec_nanos()));
    let step = if into_second.is_zero() { Duration::from_secs(1) } else { into_second };
    step.min(time_left.max(Duration::from_millis(1))).min(COUNTDOWN)
}

/// Draws the prompt; returns the person's answer in this pass, if any.
fn ask(ui: &mut egui::Ui, core: &UiCore, approval: &Approval) -> Option<bool> {
    let accent = egui::Color32::from_rgb(0xE0, 0x8A, 0x00);
    let mut answer = None;
    egui::Frame::group(ui.style()).stroke(egui::Stroke::new(2.0, accent)).show(ui, |ui| {
        // Allow and Deny are the person's alone: described, so never read or listed as left out.
        core.frame.lock().describe_widget(ui.unique_id().value());
        ui.label(egui::RichText::new(format!("The agent asks to: {}", approval.title)).strong().color(accent));
        for (name, value) in &approval.arguments {
            ui.horizontal(|ui| {
                ui.weak(format!("{name}:"));
                ui.label(value);
            });
        }
        ui.horizontal(|ui| {
            if ui.button("Allow").on_hover_text("Do it, as if you had").clicked() {
                answer = Some(true);
            }
            if ui.button("Deny").on_hover_text("The agent is told you said no; nothing is done").clicked() {
                answer = Some(false);
            }
            // Rounded up: it never reads 0 while an answer still counts.
            ui.weak(format!("answer within {} s", approval.seconds_left()));
        });
    });
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number shown changes when the seconds left, rounded up, do; at the last step the
    /// prompt goes when the person's time is up.
    #[test]
    fn the_next_step_comes_when_the_number_changes() {
        let ms = Duration::from_millis;
        assert_eq!(next_step(ms(8_300)), ms(300), "9 s becomes 8 s in 300 ms");
        assert_eq!(next_step(ms(300)), ms(300), "1 s: the prompt goes in 300 ms");
        assert_eq!(next_step(ms(8_000)), COUNTDOWN, "at most the countdown's pace");
        assert_eq!(next_step(Duration::ZERO), ms(1));
    }
}
