//! What real apps fold away: collapsing sections and menus.
//!
//! A collapsed section's contents run in a hidden `ui` (no space, no paint, nothing for
//! accessibility), so agents read its fields while the person has it collapsed; they change
//! nothing in it until it is open, as the person cannot either: the window's `open_section`
//! action opens it (the person sees it open), and then its fields and buttons are used as
//! anywhere else, with what the app disables in it disabled for both. A closed menu's items
//! are actions declared without being drawn: a menu item is one click for the person whatever
//! state it is in, and the app says which items are disabled ([`Menu::enabled`]).

use std::sync::Arc;

use serde_json::json;

use super::call::{Call, claim_call};
use super::{Press, WindowUi};
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
    call: Option<Call<OpenArgs>>,
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
        mut add_contents: impl FnMut(&mut WindowUi, &mut egui::Ui) -> R,
    ) -> egui::CollapsingResponse<R> {
        let heading: egui::WidgetText = heading.into();
        let title = heading.text().to_owned();
        self.claim_open();
        let opening = self.sections.call.as_ref().is_some_and(|c| c.args().section == title);
        let mut header = egui::CollapsingHeader::new(heading);
        if opening {
            header = header.open(Some(true));
        }
        let mut ran = false;
        let me = &mut *self;
        let response = header.show(ui, |ui| {
            ran = true;
            add_contents(me, ui)
        });
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
                ui.selectable_value(selected, k, *title);
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
    fn hidden_run(&mut self, ui: &mut egui::Ui, salt: &str, add: impl FnOnce(&mut WindowUi, &mut egui::Ui)) {
        let outer = self.hidden;
        if outer.is_none() {
            self.hidden = Some(self.gate().allows(ui));
        }
        let builder =
            egui::UiBuilder::new().id_salt(("egui_mcp_bridge::hidden", salt)).max_rect(ui.max_rect()).invisible();
        let mut hidden = ui.new_child(builder);
        add(self, &mut hidden);
        self.hidden = outer;
    }

    /// A menu (`ui.menu_button`: in a menu bar, or anywhere) whose items are actions declared
    /// whether the menu is open or not: an agent calls `save` without opening File. Its items
    /// are added with [`Menu::button`] and [`Menu::menu`] (a submenu). A keyboard shortcut
    /// ([`Menu::shortcut`]) presses an item for the person while the menu is closed too, and is
    /// named in the action's description.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// const SAVE: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::S);
    /// let bridge = Bridge::builder().build();
    /// let mut saved = 0;
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("editor").title("Editor").ui(ui, |w, ui| {
    ///     egui::MenuBar::new().ui(ui, |ui| {
    ///         w.menu_ui(ui, "File", |m| {
    ///             if let Some(press) = m.shortcut("save", ActionSpec::new("Save"), SAVE) {
    ///                 saved += 1;
    ///                 press.ok("Saved");
    ///             }
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn menu_ui<R>(
        &mut self,
        ui: &mut egui::Ui,
        title: impl Into<egui::WidgetText>,
        add_items: impl FnOnce(&mut Menu<'_>) -> R,
    ) -> egui::InnerResponse<R> {
        let title: egui::WidgetText = title.into();
        let salt = title.text().to_owned();
        let mut add = Some(add_items);
        let mut out = None;
        let me = &mut *self;
        let response = ui
            .menu_button(title, |ui| {
                if let Some(add) = add.take() {
                    out = Some(add(&mut Menu { owner: Owner::Window(me), ui, enabled: true }));
                }
            })
            .response;
        if let Some(add) = add.take() {
            // Closed: the items are declared; shortcuts still press them for the person.
            self.hidden_run(ui, &salt, |w, hidden| {
                out = Some(add(&mut Menu { owner: Owner::Window(w), ui: hidden, enabled: true }));
            });
        }
        egui::InnerResponse::new(out.unwrap_or_else(|| unreachable_menu()), response)
    }

    /// A context menu on `response` (right click: on a row, a button, an area), whose items are
    /// actions declared whether it is open or not, as in [`menu_ui`](Self::menu_ui).
    pub fn context_menu_ui<R>(&mut self, response: &egui::Response, add_items: impl FnOnce(&mut Menu<'_>) -> R) -> R {
        let mut add = Some(add_items);
        let mut out = None;
        let me = &mut *self;
        response.context_menu(|ui| {
            if let Some(add) = add.take() {
                out = Some(add(&mut Menu { owner: Owner::Window(me), ui, enabled: true }));
            }
        });
        if let Some(add) = add.take() {
            let salt = format!("{:?}", response.id);
            let mut ui = egui::Ui::new(
                response.ctx.clone(),
                egui::Id::unique(("egui_mcp_bridge::context", &salt)),
                egui::UiBuilder::new().layer_id(response.layer_id).max_rect(response.rect).invisible(),
            );
            let allows = response.enabled();
            let outer = self.hidden;
            self.hidden = Some(allows && outer.unwrap_or(true));
            out = Some(add(&mut Menu { owner: Owner::Window(self), ui: &mut ui, enabled: true }));
            self.hidden = outer;
        }
        out.unwrap_or_else(|| unreachable_menu())
    }
}

/// `add_items` runs exactly once: in the open menu, or else hidden.
#[cold]
fn unreachable_menu<R>() -> R {
    panic!("egui_mcp_bridge: a menu's items ran neither open nor closed")
}

/// The items of a menu ([`WindowUi::menu_ui`], [`WindowUi::context_menu_ui`]): each an action
/// declared whether the menu is open or not, drawn while it is.
pub struct Menu<'m> {
    owner: Owner<'m>,
    ui: &'m mut egui::Ui,
    enabled: bool,
}

/// Whose actions a menu's items are.
enum Owner<'m> {
    /// A window's (`menu_ui`, `context_menu_ui`).
    Window(&'m mut WindowUi),
    /// The app's (`Bridge::app_menu_ui`), with whether the closed menu's `ui` allowed use.
    App(&'m crate::Bridge, Option<bool>),
}

/// An app-level menu (`app__{name}` items): see [`crate::Bridge::app_menu_ui`].
pub(crate) fn app_menu_ui<R>(
    bridge: &crate::Bridge,
    ui: &mut egui::Ui,
    title: impl Into<egui::WidgetText>,
    add_items: impl FnOnce(&mut Menu<'_>) -> R,
) -> egui::InnerResponse<R> {
    let title: egui::WidgetText = title.into();
    let salt = title.text().to_owned();
    let mut add = Some(add_items);
    let mut out = None;
    let response = ui
        .menu_button(title, |ui| {
            if let Some(add) = add.take() {
                out = Some(add(&mut Menu { owner: Owner::App(bridge, None), ui, enabled: true }));
            }
        })
        .response;
    if let Some(add) = add.take() {
        // Closed: the items are declared; shortcuts still press them for the person.
        let allowed = super::widgets::Gate::default().allows(ui);
        let builder =
            egui::UiBuilder::new().id_salt(("egui_mcp_bridge::hidden", salt)).max_rect(ui.max_rect()).invisible();
        let mut hidden = ui.new_child(builder);
        out = Some(add(&mut Menu { owner: Owner::App(bridge, Some(allowed)), ui: &mut hidden, enabled: true }));
    }
    egui::InnerResponse::new(out.unwrap_or_else(|| unreachable_menu()), response)
}

impl std::fmt::Debug for Menu<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Menu").finish_non_exhaustive()
    }
}

impl Menu<'_> {
    /// Whether the items after this call can be used (default: yes), as egui's `add_enabled`:
    /// disabled, they are drawn greyed and are not offered to agents, open menu or closed.
    pub fn enabled(&mut self, enabled: bool) -> &mut Self {
        self.enabled = enabled;
        self
    }

    /// An item that is also the action `name` (as [`WindowUi::button_ui`]); a click closes the
    /// menu.
    pub fn button(&mut self, name: &str, spec: ActionSpec) -> Option<Press> {
        let title = spec.title.clone();
        self.add(name, spec, egui::Button::new(title.as_ref()), None)
    }

    /// Adds an item, disabled as [`enabled`](Self::enabled) says, for the open menu and the
    /// hidden one alike; presses it for the person on `shortcut`.
    fn add(
        &mut self,
        name: &str,
        spec: ActionSpec,
        button: egui::Button<'_>,
        shortcut: Option<egui::KeyboardShortcut>,
    ) -> Option<Press> {
        let enabled = self.enabled;
        let (pressed, usable) = match &mut self.owner {
            Owner::Window(w) => {
                let outer = w.hidden;
                if let Some(allowed) = outer {
                    w.hidden = Some(allowed && enabled);
                }
                let usable = enabled && w.gate().allows(self.ui) && !w.is_blocked();
                let pressed = self.ui.add_enabled_ui(enabled, |ui| w.add_button(ui, name, spec, button)).inner;
                w.hidden = outer;
                (pressed, usable)
            }
            Owner::App(bridge, hidden) => {
                let usable = enabled && hidden.unwrap_or_else(|| super::widgets::Gate::default().allows(self.ui));
                let mut response = self.ui.add_enabled(enabled, button);
                if let Some(description) = &spec.description {
                    response = response.on_hover_text(description.as_ref());
                }
                let call = if usable { bridge.app_button(name, spec) } else { None };
                let press = match (call, response.clicked()) {
                    (Some(call), _) => Some(Press::Agent(call)),
                    (None, true) => Some(Press::Person),
                    (None, false) => None,
                };
                (super::widgets::ButtonResponse { press, response }, usable)
            }
        };
        if pressed.response.clicked() {
            self.ui.close();
        }
        match (pressed.press, shortcut) {
            (Some(press), _) => Some(press),
            (None, Some(s)) if usable && self.ui.ctx().input_mut(|i| i.consume_shortcut(&s)) => Some(Press::Person),
            _ => None,
        }
    }

    /// An item with a keyboard shortcut: the item shows it, the person's shortcut presses it
    /// (while the menu is closed too, when the window could be used), and agents read it in
    /// the action's description.
    pub fn shortcut(&mut self, name: &str, spec: ActionSpec, shortcut: egui::KeyboardShortcut) -> Option<Press> {
        let text = self.ui.ctx().format_shortcut(&shortcut);
        let described = match &spec.description {
            Some(d) => format!("{d} (shortcut {text})"),
            None => format!("Shortcut {text}"),
        };
        let title = spec.title.clone();
        let spec = spec.description(described);
        self.add(name, spec, egui::Button::new(title.as_ref()).shortcut_text(text), Some(shortcut))
    }

    /// Fields in the menu (a "Show console" checkbox, a colour), as [`WindowUi::form`]: agents
    /// read and set them whether the menu is open or not, as they press its items.
    /// Only in a window's menu: fields belong to a window (an app-level menu's are left out,
    /// with a warning).
    pub fn form(&mut self, id: &str, add: impl FnOnce(&mut super::Form<'_>)) -> super::FormResponse {
        let Owner::Window(w) = &mut self.owner else {
            tracing::warn!(form = id, "an app-level menu holds actions only: put fields in a window's menu");
            return super::FormResponse::default();
        };
        let outer = w.hidden;
        if let Some(allowed) = outer {
            w.hidden = Some(allowed && self.enabled);
        }
        let response = self.ui.add_enabled_ui(self.enabled, |ui| w.form(ui, id, add)).inner;
        w.hidden = outer;
        response
    }

    /// A submenu, declared whether it is open or not.
    pub fn menu<R>(&mut self, title: impl Into<egui::WidgetText>, add_items: impl FnOnce(&mut Menu<'_>) -> R) -> R {
        match &mut self.owner {
            Owner::Window(w) => w.menu_ui(self.ui, title, add_items).inner,
            Owner::App(bridge, _) => app_menu_ui(bridge, self.ui, title, add_items).inner,
        }
    }

    /// The `ui` the menu draws in (hidden while it is closed): for egui items of the app's own.
    pub fn ui(&mut self) -> &mut egui::Ui {
        self.ui
    }
}
