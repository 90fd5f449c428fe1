//! The prompt that asks the person to approve an agent's call, drawn inside the window the
//! call is for ([`crate::Bridge::approval_prompt`]).

use crate::hub::Approval;

/// Draws `approval` with Allow and Deny; returns the person's answer this pass, if any.
pub(crate) fn approval_prompt(ui: &mut egui::Ui, approval: &Approval) -> Option<bool> {
    let accent = egui::Color32::from_rgb(0xE0, 0x8A, 0x00);
    let mut answer = None;
    egui::Frame::group(ui.style()).stroke(egui::Stroke::new(2.0, accent)).show(ui, |ui| {
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
