//! Menus whose items are declared whether the menu is open or not (a window's menu bar, a
//! context menu, the app's menu): an agent calls `save` without opening File, a keyboard
//! shortcut presses an item for the person while the menu is closed, and the app says which
//! items are disabled ([`Menu::enabled`]). A closed menu's items run in a hidden `ui`
//! (`sections.rs`), once per pass either way.

use std::sync::Arc;

use super::sections::hidden_child;
use super::{Press, WindowUi};
use crate::hub::{ActionSpec, NoArgs, UiCore};

/// Runs a menu's items once per pass: in the open menu (`run(ui, None)`), or else, closed,
/// with the title as a salt for a hidden `ui` (`run(ui, Some(title))`).
fn once_per_pass<R>(
    ui: &mut egui::Ui,
    title: impl Into<egui::WidgetText>,
    mut run: impl FnMut(&mut egui::Ui, Option<egui::Id>) -> R,
) -> egui::InnerResponse<R> {
    let mut out = None;
    let response = ui.menu_button(title, |ui| out = Some(run(ui, None))).response;
    let out = match out {
        Some(out) => out,
        // Closed: run in a hidden `ui` of its own, named after the menu's button.
        None => run(ui, Some(response.id)),
    };
    egui::InnerResponse::new(out, response)
}

impl WindowUi {
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
    ///         w.menu_button(ui, "File", |m| {
    ///             if let Some(press) = m.shortcut("save", ActionSpec::new("Save"), SAVE) {
    ///                 saved += 1;
    ///                 press.ok("Saved");
    ///             }
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn menu_button<R>(
        &mut self,
        ui: &mut egui::Ui,
        title: impl Into<egui::WidgetText>,
        add_items: impl FnOnce(&mut Menu<'_>) -> R,
    ) -> egui::InnerResponse<R> {
        let mut add = Some(add_items);
        let shown = once_per_pass(ui, title, |ui, closed| {
            let add = add.take().unwrap_or_else(|| unreachable_menu());
            match closed {
                None => add(&mut Menu { owner: Owner::Window(self), ui, enabled: true, closed: 0 }),
                // Closed: the items are declared; shortcuts still press them for the person.
                Some(salt) => {
                    let mut out = None;
                    self.hidden_run(ui, salt, |w, hidden| {
                        out = Some(add(&mut Menu { owner: Owner::Window(w), ui: hidden, enabled: true, closed: 1 }));
                    });
                    out.unwrap_or_else(|| unreachable_menu())
                }
            }
        });
        super::both::described_widget(self, shown.response.id);
        shown
    }

    /// [`menu_button`](Self::menu_button) with the menu button as the app makes it: egui's own
    /// `MenuButton`, so every option it has is kept (a `MenuConfig`: how the menu closes, its
    /// style; a button with an icon or rich text).
    ///
    /// ```
    /// use egui::containers::menu::{MenuButton, MenuConfig};
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut wrap = false;
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("editor").title("Editor").ui(ui, |w, ui| {
    ///     // Stays open while the person ticks items: egui's close behaviour, kept.
    ///     let config = MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    ///     w.add_menu(ui, MenuButton::new("View").config(config), |m| {
    ///         m.form("view", |f| {
    ///             f.edit("wrap", &egui_mcp_bridge::Input::checkbox("Wrap lines"), &mut wrap);
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn add_menu<R>(
        &mut self,
        ui: &mut egui::Ui,
        menu: egui::containers::menu::MenuButton<'_>,
        add_items: impl FnOnce(&mut Menu<'_>) -> R,
    ) -> egui::InnerResponse<R> {
        let mut add = Some(add_items);
        let mut out = None;
        let (response, _) = menu.ui(ui, |ui| {
            if let Some(add) = add.take() {
                out = Some(add(&mut Menu { owner: Owner::Window(&mut *self), ui, enabled: true, closed: 0 }));
            }
        });
        if let Some(add) = add.take() {
            // Closed: the items are declared; shortcuts still press them for the person.
            let salt = response.id;
            self.hidden_run(ui, salt, |w, hidden| {
                out = Some(add(&mut Menu { owner: Owner::Window(w), ui: hidden, enabled: true, closed: 1 }));
            });
        }
        super::both::described_widget(self, response.id);
        egui::InnerResponse::new(out.unwrap_or_else(|| unreachable_menu()), response)
    }

    /// A menu in egui's own `Popup` (`Popup::menu(&response)` opened by a click on a button,
    /// `Popup::context_menu(&response)` by a right click, with every option egui's popups take:
    /// where it opens, its gap, how it closes, its id), whose items are actions declared whether
    /// it is open or not, as in [`menu_button`](Self::menu_button). `ui` is where the popup's button is.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut copies = 0;
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("share").title("Share").ui(ui, |w, ui| {
    ///     let button = ui.button("Share…");
    ///     let popup = egui::Popup::menu(&button).gap(4.0).align(egui::RectAlign::BOTTOM_START);
    ///     w.popup_menu(ui, popup, |m| {
    ///         if let Some(press) = m.button("copy_link", ActionSpec::new("Copy link")) {
    ///             copies += 1;
    ///             press.ok("Copied");
    ///         }
    ///     });
    /// });
    /// # });
    /// ```
    pub fn popup_menu<R>(
        &mut self,
        ui: &mut egui::Ui,
        popup: egui::Popup<'_>,
        add_items: impl FnOnce(&mut Menu<'_>) -> R,
    ) -> R {
        let salt = popup.get_id();
        let mut add = Some(add_items);
        let mut out = None;
        let me = &mut *self;
        popup.show(|ui| {
            if let Some(add) = add.take() {
                out = Some(add(&mut Menu { owner: Owner::Window(&mut *me), ui, enabled: true, closed: 0 }));
            }
        });
        if let Some(add) = add.take() {
            // Closed: the items are declared; shortcuts still press them for the person.
            self.hidden_run(ui, salt, |w, hidden| {
                out = Some(add(&mut Menu { owner: Owner::Window(w), ui: hidden, enabled: true, closed: 1 }));
            });
        }
        out.unwrap_or_else(|| unreachable_menu())
    }

    /// A context menu on `response` (right click: on a row, a button, an area), whose items are
    /// actions declared whether it is open or not, as in [`menu_button`](Self::menu_button).
    pub fn context_menu<R>(&mut self, response: &egui::Response, add_items: impl FnOnce(&mut Menu<'_>) -> R) -> R {
        let mut add = Some(add_items);
        let mut out = None;
        let me = &mut *self;
        response.context_menu(|ui| {
            if let Some(add) = add.take() {
                out = Some(add(&mut Menu { owner: Owner::Window(me), ui, enabled: true, closed: 0 }));
            }
        });
        if let Some(add) = add.take() {
            let salt = response.id;
            let mut ui = egui::Ui::new(
                response.ctx.clone(),
                egui::Id::unique(("egui_mcp_bridge::context", &salt)),
                egui::UiBuilder::new().layer_id(response.layer_id).max_rect(response.rect).invisible(),
            );
            let allows = response.enabled();
            let outer = self.hidden;
            self.hidden = Some(allows && outer.unwrap_or(true));
            out = Some(add(&mut Menu { owner: Owner::Window(self), ui: &mut ui, enabled: true, closed: 1 }));
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

/// The items of a menu ([`WindowUi::menu_button`], [`WindowUi::context_menu`]): each an action
/// declared whether the menu is open or not, drawn while it is.
pub struct Menu<'m> {
    owner: Owner<'m>,
    ui: &'m mut egui::Ui,
    enabled: bool,
    /// How many closed menus it is in, counted up from the nearest open one (0: it is open).
    closed: usize,
}

/// How many levels of closed submenus are declared below the deepest open menu (a closed menu
/// counts as one). Deeper ones are drawn as the person opens them, and declared then: a menu
/// whose item opens the same menu again (egui's demo "Recursive") is declared as deep as the
/// person opens it, plus this many closed levels, and never recurses without end.
pub const MAX_CLOSED_MENU_DEPTH: usize = 8;

/// Whose actions a menu's items are.
enum Owner<'m> {
    /// A window's (`menu_button`, `context_menu`).
    Window(&'m mut WindowUi),
    /// The app's (`Bridge::app_menu_button`), with whether the closed menu's `ui` allowed use.
    App(&'m Arc<UiCore>, Option<bool>),
}

/// An app-level menu (`app__{name}` items): see [`crate::Bridge::app_menu_button`].
pub(crate) fn app_menu_button<R>(
    core: &Arc<UiCore>,
    ui: &mut egui::Ui,
    title: impl Into<egui::WidgetText>,
    add_items: impl FnOnce(&mut Menu<'_>) -> R,
) -> egui::InnerResponse<R> {
    let mut add = Some(add_items);
    once_per_pass(ui, title, |ui, closed| {
        let add = add.take().unwrap_or_else(|| unreachable_menu());
        match closed {
            None => add(&mut Menu { owner: Owner::App(core, None), ui, enabled: true, closed: 0 }),
            // Closed: the items are declared; shortcuts still press them for the person.
            Some(salt) => {
                let allowed = super::gate::Gate::default().allows(ui);
                let hidden = &mut hidden_child(ui, salt);
                add(&mut Menu { owner: Owner::App(core, Some(allowed)), ui: hidden, enabled: true, closed: 1 })
            }
        }
    })
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

    /// An item that is also the action `name` (as [`WindowUi::button`]); a click closes the
    /// menu.
    pub fn button(&mut self, name: &str, spec: ActionSpec) -> Option<Press> {
        let title = spec.title.clone();
        self.add(name, spec, egui::Button::new(title.as_ref()), None)
    }

    /// [`button`](Self::button) with the person's item as the app makes it: any `egui::Button`
    /// (an icon or image, rich text, its shortcut text on the right), so every option egui's
    /// menu items have is kept. Agents read the action's title and description: give the words
    /// an icon stands for there.
    ///
    /// ```
    /// # use egui_mcp_bridge::{ActionSpec, Bridge};
    /// # let bridge = Bridge::builder().build();
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("editor").title("Editor").ui(ui, |w, ui| {
    ///     w.menu_button(ui, "File", |m| {
    ///         let item = egui::Button::new(egui::RichText::new("Save all").strong()).shortcut_text("Ctrl+Shift+S");
    ///         if let Some(press) = m.add_button("save_all", ActionSpec::new("Save all"), item) {
    ///             press.ok("Saved");
    ///         }
    ///     });
    /// });
    /// # });
    /// ```
    pub fn add_button(&mut self, name: &str, spec: ActionSpec, button: egui::Button<'_>) -> Option<Press> {
        self.add(name, spec, button, None)
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
                let usable = enabled && w.gate().allows(self.ui) && !w.blocked;
                let pressed = if w.decl.actions.iter().any(|a| a.name == name) {
                    // Declared already in this pass, by the same item a level up (a menu that
                    // holds itself): drawn for the person, the one action listed once.
                    let response = self.ui.add_enabled(enabled && !w.blocked, button);
                    super::both::described_widget(w, response.id);
                    let press = (usable && response.clicked()).then(|| Press::person(NoArgs {}));
                    egui::InnerResponse::new(press, response)
                } else {
                    self.ui.add_enabled_ui(enabled, |ui| w.add_button(ui, name, spec, button)).inner
                };
                w.hidden = outer;
                (pressed, usable)
            }
            Owner::App(core, hidden) => {
                let usable = enabled && hidden.unwrap_or_else(|| super::gate::Gate::default().allows(self.ui));
                let mut response = self.ui.add_enabled(enabled, button);
                let declared = {
                    let mut frame = core.frame.lock();
                    frame.describe_widget(response.id.value());
                    // Declared a level up already (a menu that holds itself): listed once.
                    frame.declared_app_action(name)
                };
                if let Some(description) = &spec.description {
                    response = response.on_hover_text(description.as_ref());
                }
                let call =
                    if usable && !declared { super::press::app_action::<NoArgs>(core, name, spec) } else { None };
                let press = match (call, response.clicked()) {
                    (Some(call), _) => Some(call),
                    (None, true) => Some(Press::person(NoArgs {})),
                    (None, false) => None,
                };
                (egui::InnerResponse::new(press, response), usable)
            }
        };
        // Whether a click closes the menu is egui's menu config's (by default it does).
        match (pressed.inner, shortcut) {
            (Some(press), _) => Some(press),
            (None, Some(s)) if usable && self.ui.ctx().input_mut(|i| i.consume_shortcut(&s)) => {
                Some(Press::person(NoArgs {}))
            }
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

    /// A submenu, declared whether it is open or not, and disabled with the items around it
    /// ([`enabled`](Self::enabled)): drawn greyed, its items not offered to agents.
    ///
    /// `None` when its items did not run: it is closed, [`MAX_CLOSED_MENU_DEPTH`] levels of
    /// closed menus deep (a menu that holds itself); the person opening it runs them.
    pub fn menu<R>(
        &mut self,
        title: impl Into<egui::WidgetText>,
        add_items: impl FnOnce(&mut Menu<'_>) -> R,
    ) -> Option<R> {
        let title = title.into();
        self.submenu(|ui, open| ui.menu_button(title, |ui| open(ui)).response, add_items)
    }

    /// [`menu`](Self::menu) with the submenu's button as the app makes it: egui's own
    /// `SubMenuButton` (an image beside the text, its own `Button`, a `MenuConfig` for the
    /// submenu), so every option it has is kept.
    ///
    /// ```
    /// use egui::containers::menu::SubMenuButton;
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("editor").title("Editor").ui(ui, |w, ui| {
    ///     w.menu_button(ui, "File", |m| {
    ///         let recent = SubMenuButton::from_button(egui::Button::new("🕘 Open recent").right_text(SubMenuButton::arrow_atom(None)));
    ///         m.add_menu(recent, |m| {
    ///             if let Some(press) = m.button("open_last", ActionSpec::new("Open the last file")) {
    ///                 press.ok("Opened");
    ///             }
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn add_menu<R>(
        &mut self,
        submenu: egui::containers::menu::SubMenuButton<'_>,
        add_items: impl FnOnce(&mut Menu<'_>) -> R,
    ) -> Option<R> {
        self.submenu(|ui, open| submenu.ui(ui, |ui| open(ui)).0, add_items)
    }

    /// A submenu drawn by `draw` (its button, and `open` run in it while it is open), disabled
    /// as this menu's items are; closed, its items run hidden, down to the depth bound.
    fn submenu<R>(
        &mut self,
        draw: impl FnOnce(&mut egui::Ui, &mut dyn FnMut(&mut egui::Ui)) -> egui::Response,
        add_items: impl FnOnce(&mut Menu<'_>) -> R,
    ) -> Option<R> {
        let (enabled, closed) = (self.enabled, self.closed);
        let mut add = Some(add_items);
        let mut out = None;
        let response = match &mut self.owner {
            Owner::Window(w) => {
                let mut open = |ui: &mut egui::Ui| {
                    if let Some(add) = add.take() {
                        out = Some(add(&mut Menu { owner: Owner::Window(w), ui, enabled, closed: 0 }));
                    }
                };
                self.ui.add_enabled_ui(enabled, |ui| draw(ui, &mut open)).inner
            }
            Owner::App(core, hidden) => {
                let (core, hidden) = (*core, *hidden);
                let mut open = |ui: &mut egui::Ui| {
                    if let Some(add) = add.take() {
                        out = Some(add(&mut Menu { owner: Owner::App(core, hidden), ui, enabled, closed: 0 }));
                    }
                };
                self.ui.add_enabled_ui(enabled, |ui| draw(ui, &mut open)).inner
            }
        };
        if let Some(add) = add.take() {
            if closed >= MAX_CLOSED_MENU_DEPTH {
                // A menu that holds itself: the person opens it level by level, and each open
                // level declares the next ones.
                tracing::debug!(depth = closed, "a closed submenu this deep is declared once opened");
            } else {
                // Closed: the items are declared; shortcuts still press them for the person.
                let salt = response.id;
                match &mut self.owner {
                    Owner::Window(w) => w.hidden_run(self.ui, salt, |w, hidden| {
                        out = Some(add(&mut Menu { owner: Owner::Window(w), ui: hidden, enabled, closed: closed + 1 }));
                    }),
                    Owner::App(core, hidden) => {
                        let allowed = hidden.unwrap_or_else(|| super::gate::Gate::default().allows(self.ui));
                        let ui = &mut hidden_child(self.ui, salt);
                        let owner = Owner::App(core, Some(allowed));
                        out = Some(add(&mut Menu { owner, ui, enabled, closed: closed + 1 }));
                    }
                }
            }
        }
        match &mut self.owner {
            Owner::Window(w) => super::both::described_widget(w, response.id),
            Owner::App(core, _) => core.frame.lock().describe_widget(response.id.value()),
        }
        out
    }

    /// The `ui` the menu draws in (hidden while it is closed): for egui items of the app's own.
    pub fn ui(&mut self) -> &mut egui::Ui {
        self.ui
    }
}
