//! The Agent activity panel: recent calls and their outcomes, identical consecutive calls
//! grouped, and a click on a call brings its window to the front.

use egui::Color32;
use egui_mcp_bridge::ActivityRecord;

use crate::app::OrderApp;

/// Consecutive records of the same tool with the same outcome, shown as one line.
#[derive(Debug, PartialEq)]
pub struct Group<'a> {
    /// The newest record of the group.
    pub last: &'a ActivityRecord,
    /// How many calls it stands for.
    pub count: usize,
}

/// Groups identical consecutive calls (same tool, same outcome code), newest first.
pub fn groups(records: &[ActivityRecord]) -> Vec<Group<'_>> {
    let mut out: Vec<Group<'_>> = Vec::new();
    for r in records.iter().rev() {
        match out.last_mut() {
            Some(g) if g.last.tool == r.tool && g.last.error == r.error => g.count += 1,
            _ => out.push(Group { last: r, count: 1 }),
        }
    }
    out
}

/// Which window each record's call touched, by the title the person sees, as the state is when
/// the records are copied (only when a call finished, not every frame).
fn places(records: &[ActivityRecord], snapshot: &egui_mcp_bridge::Snapshot) -> std::collections::HashMap<u64, String> {
    let titles: std::collections::HashMap<&str, &str> =
        snapshot.state().windows.iter().map(|w| (w.id.as_str(), w.title.as_str())).collect();
    records
        .iter()
        .map(|r| {
            let handle = r.tool.split_once("__").map_or("", |(h, _)| h);
            let place = match titles.get(handle) {
                Some(title) => format!("in {title}"),
                None if handle == "app" => "the app".to_owned(),
                None => format!("in {handle} (closed)"),
            };
            (r.seq, place)
        })
        .collect()
}

impl OrderApp {
    /// The app id of the open window a tool belongs to, if any.
    fn window_of_tool(&self, tool: &str) -> Option<String> {
        let (handle, _) = tool.split_once("__")?;
        self.open_window_ids().into_iter().find(|id| self.bridge.external_id(id).as_deref() == Some(handle))
    }

    pub(crate) fn activity_panel(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        // With every window in an OS window of its own, the main window is this panel.
        let width = if self.windows.native { ui.available_width() } else { 260.0 };
        egui::Panel::right("activity").default_size(width).show(ui, |ui| {
            ui.heading("Agent activity");
            ui.weak("Recent calls from MCP clients; click one to bring its window to the front");
            ui.separator();
            // Copied only when a call finished since the last frame.
            let seq = self.bridge.activity_seq();
            if seq != self.activity.0 {
                self.activity = (seq, self.bridge.activity());
                self.activity_places = places(&self.activity.1, &self.bridge.snapshot());
            }
            if self.activity.1.is_empty() {
                ui.weak("No agent calls yet.");
            }
            let mut clicked = None;
            egui::ScrollArea::vertical().show(ui, |ui| {
                for g in groups(&self.activity.1) {
                    let (mark, color) = match g.last.error {
                        None => ("ok", Color32::from_rgb(80, 180, 110)),
                        Some(code) => (code.as_str(), Color32::from_rgb(230, 120, 90)),
                    };
                    let row = ui.horizontal_wrapped(|ui| {
                        let tool = ui.add(
                            egui::Label::new(egui::RichText::new(&g.last.tool).monospace()).sense(egui::Sense::click()),
                        );
                        ui.colored_label(color, mark);
                        if g.count > 1 {
                            ui.weak(format!("×{}", g.count));
                        }
                        tool
                    });
                    if row.inner.on_hover_text("Bring its window to the front").clicked() {
                        clicked = Some(g.last.tool.clone());
                    }
                    if let Some(place) = self.activity_places.get(&g.last.seq) {
                        ui.weak(place);
                    }
                    if !g.last.message.is_empty() {
                        ui.weak(&g.last.message);
                    }
                    ui.add_space(4.0);
                }
            });
            if let Some(id) = clicked.and_then(|tool| self.window_of_tool(&tool)) {
                self.windows.focus(&ctx, &id);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use egui_mcp_bridge::ErrorCode;

    use super::*;

    fn record(seq: u64, tool: &str, error: Option<ErrorCode>) -> ActivityRecord {
        ActivityRecord { seq, tool: tool.into(), error, message: String::new(), at: Instant::now() }
    }

    #[test]
    fn identical_consecutive_calls_are_one_line() {
        let mut log: Vec<ActivityRecord> = (0..100).map(|i| record(i, "order-1__edit_field", None)).collect();
        log.push(record(100, "order-1__edit_field", Some(ErrorCode::ValidationFailed)));
        log.push(record(101, "order-1__submit", None));
        let g = groups(&log);
        let lines: Vec<(&str, usize)> = g.iter().map(|g| (g.last.tool.as_str(), g.count)).collect();
        assert_eq!(lines, [("order-1__submit", 1), ("order-1__edit_field", 1), ("order-1__edit_field", 100)]);
        assert_eq!(g[2].last.seq, 99, "a group shows its newest call");
    }
}
