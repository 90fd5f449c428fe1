//! The prompt that asks the person to approve an agent's call, drawn inside the window the
//! call is for: by [`WindowBuilder::ui`](crate::WindowBuilder::ui) and
//! [`WindowBuilder::panel`](crate::WindowBuilder::panel), or where the app puts it
//! ([`crate::Bridge::approval_prompt`]).

use std::time::Duration;

use crate::hub::{Approval, UiCore};

/// How often the prompt is drawn again while it waits, so its countdown moves on by itself.
const COUNTDOWN: Duration = Duration::from_millis(500);

/// Draws `approval`, the call waiting on `app_id`, with Allow and Deny, and passes the person's
/// answer on; while none comes, asks for the pass that shows the countdown's next step.
pub(crate) fn approval_prompt(ui: &mut egui::Ui, core: &UiCore, app_id: &str, approval: &Approval) {
    match ask(ui, core, approval) {
        Some(allow) => {
            core.answer_approval(app_id, allow);
        }
        None => ui.ctx().request_repaint_after(COUNTDOWN),
    }
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
            ui.weak(format!("the agent waits {} s more", approval.time_left.as_secs()));
        });
    });
    answer
}
