//! What real apps fold away: collapsing sections and tabs (menus are in `menus.rs`).
//!
//! A collapsed section's or hidden tab's contents run in a hidden `ui` (no space, no paint,
//! nothing for accessibility), so agents read their fields while the person cannot see them;
//! they change nothing in them until they are shown, as the person cannot either: the window's
//! `open_section` action shows them (the person sees it), and then their fields and buttons are
//! used as anywhere else, with what the app disables in them disabled for both.

use std::sync::Arc;

use serde_json::json;

use super::WindowUi;
use super::press::{Press, claim_call};
use crate::hub::decl::ActionDecl;
use crate::hub::{ActionSpec, add_expected_version};
use crate::protocol::ToolError;

/// The action that opens a collapsed section.
const OPEN_SECTION: &str = "open_section";

/// `open_section`'s arguments.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OpenArgs {
    section: String,
}

/// A window's collapsed sections in this pass, and an agent's call to open one until the
/// section takes it.
#[derive(Debug, Default)]
pub(crate) struct Sections {
    claimed: bool,
    call: Option<Press<OpenArgs>>,
    collapsed: Vec<String>,
    /// The collapsed section whose contents are being declared.
    pub(super) inside: Option<String>,
}

impl WindowUi {
    /// A collapsing section (`egui::CollapsingHeader`) whose contents agents read while the
    /// person has it collapsed. To change anything in it an agent opens it first, as the person
    /// does, with the window's `open_section {section}` action (the heading's text); open, its
    /// fields and buttons are used as anywhere else. The contents run once per pass: drawn when
    /// open, in a hidden `ui` when collapsed (egui's `body_returned` is `None` then).
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, Input};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut plots = 2_usize;
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("monitor").title("Monitor").ui(ui, |w, ui| {
    ///     w.collapsing(ui, "Plot settings", |w, ui| {
    ///         w.form(ui, "plot", |f| {
    ///             f.edit("plots", &Input::integer("Number of plots", 1..=10).slider(), &mut plots);
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn collapsing<R>(
        &mut self,
        ui: &mut egui::Ui,
        heading: impl Into<egui::WidgetText>,
        add_contents: impl FnMut(&mut WindowUi, &mut egui::Ui) -> R,
    ) -> egui::CollapsingResponse<R> {
        self.collapsing_with(ui, heading, |header| header, add_contents)
    }

    /// [`collapsing`](Self::collapsing) with egui's own options on its header: `options` gets the
    /// `egui::CollapsingHeader` and returns it configured (`default_open(true)`, an icon, an id
    /// salt, no background), so every option egui has is kept. Agents read the section the
    /// same way; their `open_section` opens it whatever the options say.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("monitor").title("Monitor").ui(ui, |w, ui| {
    ///     w.collapsing_with(ui, "Connection", |h| h.default_open(true), |w, ui| {
    ///         w.label(ui, "port", "COM7, 9600 baud");
    ///     });
    /// });
    /// # });
    /// ```
    pub fn collapsing_with<R>(
        &mut self,
        ui: &mut egui::Ui,
        heading: impl Into<egui::WidgetText>,
        options: impl FnOnce(egui::CollapsingHeader) -> egui::CollapsingHeader,
        mut add_contents: impl FnMut(&mut WindowUi, &mut egui::Ui) -> R,
    ) -> egui::CollapsingResponse<R> {
        let heading: egui::WidgetText = heading.into();
        let title = heading.text().to_owned();
        self.claim_open();
        let opening = self.sections.call.as_ref().is_some_and(|c| c.args().section == title);
        let mut header = options(egui::CollapsingHeader::new(heading));
        if opening {
            header = header.open(Some(true));
        }
        let mut ran = false;
        let me = &mut *self;
        let response = header.show(ui, |ui| {
            ran = true;
            add_contents(me, ui)
        });
        super::both::described_widget(self, response.header_response.id);
        if opening && let Some(call) = self.sections.call.take() {
            call.ok(format!("{title} is open"));
        }
        if !ran && self.sections.inside.is_none() {
            self.sections.collapsed.push(title.clone());
            self.sections.inside = Some(title.clone());
            self.hidden_run(ui, &title, |w, ui| {
                let _ = add_contents(w, ui);
            });
            self.sections.inside = None;
        } else if !ran {
            // A section collapsed inside a collapsed one: read with it.
            self.hidden_run(ui, &title, |w, ui| {
                let _ = add_contents(w, ui);
            });
        }
        response
    }

    /// Tabs (selectable labels in a row, as apps draw them) whose contents stay declared while
    /// another tab is shown: agents read a hidden tab's fields, and change what is in it once it
    /// is shown, by the person's click or by the window's `open_section {section}` action (the
    /// tab's title), exactly as a collapsed section. `add_contents` draws tab `k` of `titles`;
    /// it runs for each tab every pass (hidden for all but the selected one).
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, Input};
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut tab, mut name, mut dark) = (0, String::from("Ada"), false);
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("prefs").title("Preferences").ui(ui, |w, ui| {
    ///     w.tabs(ui, &mut tab, &["Profile", "Appearance"], |w, ui, k| match k {
    ///         0 => {
    ///             w.form(ui, "profile", |f| {
    ///                 f.edit("name", &Input::text("Name"), &mut name);
    ///             });
    ///         }
    ///         _ => {
    ///             w.form(ui, "look", |f| {
    ///                 f.edit("dark", &Input::checkbox("Dark mode"), &mut dark);
    ///             });
    ///         }
    ///     });
    /// });
    /// # });
    /// ```
    pub fn tabs(
        &mut self,
        ui: &mut egui::Ui,
        selected: &mut usize,
        titles: &[&str],
        mut add_contents: impl FnMut(&mut WindowUi, &mut egui::Ui, usize),
    ) {
        self.claim_open();
        if let Some(k) = self.sections.call.as_ref().and_then(|c| titles.iter().position(|t| *t == c.args().section))
            && let Some(call) = self.sections.call.take()
        {
            *selected = k;
            call.ok(format!("{} is shown", titles[k]));
        }
        ui.horizontal(|ui| {
            for (k, title) in titles.iter().enumerate() {
                let tab = ui.selectable_value(selected, k, *title);
                super::both::described_widget(self, tab.id);
            }
        });
        ui.separator();
        for (k, title) in titles.iter().enumerate() {
            if k == *selected {
                add_contents(self, ui, k);
            } else if self.sections.inside.is_none() {
                self.sections.collapsed.push((*title).to_owned());
                self.sections.inside = Some((*title).to_owned());
                self.hidden_run(ui, title, |w, ui| add_contents(w, ui, k));
                self.sections.inside = None;
            } else {
                self.hidden_run(ui, title, |w, ui| add_contents(w, ui, k));
            }
        }
    }

    /// Claims an agent's call to open a section of this window, once per pass.
    fn claim_open(&mut self) {
        if !self.sections.claimed {
            self.sections.claimed = true;
            self.sections.call =
                claim_call::<OpenArgs>(&self.core, Some(&self.decl.app_id), OPEN_SECTION, "Open section");
        }
    }

    /// Declares `open_section` over this pass's collapsed sections, and answers a call that named
    /// none of them.
    pub(super) fn finish_sections(&mut self) {
        let sections = std::mem::take(&mut self.sections);
        if let Some(call) = sections.call {
            let open = if sections.collapsed.is_empty() { "none".to_owned() } else { sections.collapsed.join(", ") };
            call.fail(ToolError::invalid_field(
                "section",
                format!("must be a collapsed section or hidden tab: {open}"),
            ));
        }
        if sections.collapsed.is_empty() || self.gate().collapsed {
            return;
        }
        let mut schema = match json!({
            "type": "object",
            "properties": {"section": {"type": "string", "enum": sections.collapsed}},
            "required": ["section"],
        }) {
            serde_json::Value::Object(o) => o,
            _ => serde_json::Map::new(),
        };
        add_expected_version(&mut schema);
        let description = format!(
            "Open a collapsed section or show a tab, as the person would, to change what is in it (its fields are read while hidden): {}",
            sections.collapsed.join(", ")
        );
        let spec = ActionSpec::new("Open section").idempotent().description(description);
        self.decl.actions.push(ActionDecl { name: OPEN_SECTION.to_owned(), schema: Arc::new(schema), spec });
    }

    /// Runs `add` in a `ui` the person does not see (collapsed, or a closed menu): no space taken,
    /// nothing painted, nothing for accessibility; declarations count as usual, and what the
    /// enclosing `ui` disables stays disabled.
    pub(super) fn hidden_run(
        &mut self,
        ui: &mut egui::Ui,
        salt: impl std::hash::Hash + std::fmt::Debug,
        add: impl FnOnce(&mut WindowUi, &mut egui::Ui),
    ) {
        let outer = self.hidden;
        if outer.is_none() {
            self.hidden = Some(self.gate().allows(ui));
        }
        add(self, &mut hidden_child(ui, salt));
        self.hidden = outer;
    }
}

/// A `ui` the person does not see, where `ui` is: no space taken in it, nothing painted,
/// nothing for accessibility (and disabled by egui: see `Gate`).
pub(super) fn hidden_child(ui: &mut egui::Ui, salt: impl std::hash::Hash + std::fmt::Debug) -> egui::Ui {
    let builder = egui::UiBuilder::new().id_salt(("egui_mcp_bridge::hidden", salt)).max_rect(ui.max_rect()).invisible();
    ui.new_child(builder)
}
