//! The person's view of what agents did ([`crate::Bridge::activity_ui`]): recent calls and
//! their outcomes (or "waiting" while the app finishes a deferred one), identical consecutive calls as one line, the window each call touched, and a
//! click on a call brings that window to the front.

use std::collections::HashMap;

use super::state::{Copied, DeclareState};
use crate::hub::{ActivityRecord, UiCore};
use crate::protocol::split_tool_name;

/// Consecutive records of the same tool with the same outcome, shown as one line.
#[derive(Debug, PartialEq)]
pub(crate) struct Group<'a> {
    /// The newest record of the group.
    pub last: &'a ActivityRecord,
    /// How many calls it stands for.
    pub count: usize,
}

/// Groups identical consecutive calls (same tool, same outcome code), newest first.
pub(crate) fn groups(records: &[ActivityRecord]) -> Vec<Group<'_>> {
    let mut out: Vec<Group<'_>> = Vec::new();
    for r in records.iter().rev() {
        match out.last_mut() {
            Some(g)
                if r.connection.is_none()
                    && g.last.tool == r.tool
                    && g.last.error == r.error
                    && g.last.waiting == r.waiting =>
            {
                g.count += 1;
            }
            _ => out.push(Group { last: r, count: 1 }),
        }
    }
    out
}

impl Copied {
    fn refresh(&mut self, core: &UiCore) {
        let seq = core.hub.activity().last_seq();
        if seq == self.seq {
            return;
        }
        self.seq = seq;
        self.records = core.hub.activity().recent();
        let snapshot = core.hub.snapshot();
        let titles: HashMap<&str, &str> = snapshot.windows().map(|w| (w.id.as_str(), w.title.as_str())).collect();
        self.places = self
            .records
            .iter()
            .map(|r| {
                let handle = split_tool_name(&r.tool).map_or("", |(h, _)| h);
                let place = match titles.get(handle) {
                    Some(title) => format!("in {title}"),
                    None if handle == "app" => "the app".to_owned(),
                    None => format!("in {handle} (closed)"),
                };
                (r.seq, place)
            })
            .collect();
    }
}

/// Draws the activity list into `ui` (the app puts it in a side panel, say).
pub(crate) fn activity_ui(core: &UiCore, state: &DeclareState, ui: &mut egui::Ui) {
    let ctx = ui.ctx().clone();
    let mut copied = state.activity.lock();
    copied.refresh(core);
    ui.heading("Agent activity");
    ui.weak("Recent calls from MCP clients; click one to bring its window to the front");
    ui.separator();
    if copied.records.is_empty() {
        ui.weak("No agent calls yet.");
    }
    let mut clicked = None;
    egui::ScrollArea::vertical().show(ui, |ui| {
        for g in groups(&copied.records) {
            if g.last.connection.is_some() {
                ui.weak(&g.last.message);
                ui.add_space(4.0);
                continue;
            }
            let (mark, color) = match g.last.error {
                None if g.last.waiting => ("waiting", ui.visuals().text_color()),
                None => ("ok", crate::declare::SUCCESS_GREEN),
                Some(code) => (code.as_str(), egui::Color32::from_rgb(230, 120, 90)),
            };
            let row = ui.horizontal_wrapped(|ui| {
                let text = egui::RichText::new(&g.last.tool).monospace();
                let tool = ui.add(egui::Label::new(text).sense(egui::Sense::click()));
                ui.colored_label(color, mark);
                if g.count > 1 {
                    ui.weak(format!("×{}", g.count));
                }
                tool
            });
            if row.inner.on_hover_text("Bring its window to the front").clicked() {
                clicked = Some(g.last.tool.clone());
            }
            if let Some(place) = copied.places.get(&g.last.seq) {
                ui.weak(place);
            }
            if !g.last.message.is_empty() {
                ui.weak(&g.last.message);
            }
            ui.add_space(4.0);
        }
    });
    let handle = clicked.as_deref().and_then(split_tool_name).map(|(h, _)| h);
    if let Some(handle) = handle {
        let app_ids = state.places.lock().app_ids();
        let app_id = app_ids.into_iter().find(|id| core.frame.lock().handle_of(id) == Some(handle));
        if let Some(app_id) = app_id {
            state.places.lock().focus(&ctx, &app_id);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::protocol::ErrorCode;

    fn record(seq: u64, tool: &str, error: Option<ErrorCode>) -> ActivityRecord {
        ActivityRecord {
            seq,
            tool: tool.into(),
            error,
            message: String::new(),
            waiting: false,
            at: Instant::now(),
            connection: None,
        }
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

    #[test]
    fn agents_attaching_and_leaving_are_a_line_each() {
        let connection = |seq, event| ActivityRecord { connection: Some(event), ..record(seq, "", None) };
        let log = [
            connection(1, crate::hub::ConnectionEvent::Attached),
            connection(2, crate::hub::ConnectionEvent::Attached),
            connection(3, crate::hub::ConnectionEvent::Left),
        ];
        assert_eq!(groups(&log).len(), 3, "two agents attached: two lines");
    }
}
