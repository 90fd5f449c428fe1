//! Your own widgets, described once: the [`Describe`] trait, shaped like egui's `Widget`, that an
//! app or a widget crate implements in one place (draw for the person, declare for agents, one
//! handler), and [`WindowUi::add`], which does the rest as it does for the bridge's own widgets:
//! it decides whether the app lets the widget be used (the gate), offers the widget's actions
//! only then, and tells the read view that what the widget drew is described.

use super::{Form, FormResponse, Press, WindowUi};
use crate::hub::ActionSpec;
use crate::protocol::windows::Severity;

/// A widget drawn for the person and declared for agents by the same code, added to a window
/// with [`WindowUi::add`] as an egui widget is with `ui.add`. Implement it for a widget of your
/// own (a star rating, a tree, a plot with a picker) in one file: `show` draws it in `ui` and
/// declares what agents read and can do with [`ForAgents`]; the person's gesture and the agent's
/// call come out as one [`Press`] ([`ForAgents::press`]), for one handler.
///
/// ```
/// use egui_mcp_bridge::{ActionSpec, Bridge, Describe, ForAgents, Press};
///
/// /// Up to five stars; the person clicks one, an agent calls `rate {stars}`.
/// struct Stars<'a>(&'a u8);
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Rate {
///     /// 1 to 5.
///     stars: u8,
/// }
///
/// impl Describe for Stars<'_> {
///     type Output = Option<Press<Rate>>;
///
///     fn show(self, ui: &mut egui::Ui, agent: &mut ForAgents<'_>) -> Self::Output {
///         agent.fields("rating", |f| f.field("Stars", f64::from(*self.0)));
///         let clicked = ui
///             .horizontal(|ui| (1..=5).find(|&n| ui.button(if n <= *self.0 { "★" } else { "☆" }).clicked()))
///             .inner;
///         agent.press("rate", ActionSpec::new("Rate"), clicked.map(|stars| Rate { stars }))
///     }
/// }
///
/// let bridge = Bridge::builder().build();
/// let mut stars = 3;
/// # egui::__run_test_ui(|ui| {
/// bridge.window("review").title("Review").ui(ui, |w, ui| {
///     if let Some(press) = w.add(ui, Stars(&stars)) {
///         press.handle(|rate| {
///             if !(1..=5).contains(&rate.stars) {
///                 return Err(egui_mcp_bridge::ToolError::invalid_field("stars", "must be 1 to 5"));
///             }
///             stars = rate.stars;
///             Ok(egui_mcp_bridge::ToolResult::message(format!("Rated {stars}")))
///         });
///     }
/// });
/// # });
/// ```
///
#[doc = include_str!("../docs/describe.md")]
pub trait Describe {
    /// What the app gets back: a press, egui's response, both, or nothing.
    type Output;

    /// Draws the widget in `ui` and declares it with `agent`. Runs in every pass the window's
    /// contents run, as egui's widgets do.
    fn show(self, ui: &mut egui::Ui, agent: &mut ForAgents<'_>) -> Self::Output;
}

/// A closure is a described widget, as a closure is an egui `Widget`, for a one-off that needs
/// no type of its own. Given to `add`, its arguments need their types written (below);
/// [`WindowUi::add_ui`] takes one without.
///
/// ```
/// use egui_mcp_bridge::{ActionSpec, Bridge, ForAgents};
///
/// let bridge = Bridge::builder().build();
/// let mut lines = vec!["boot", "ready"];
/// # egui::__run_test_ui(|ui| {
/// bridge.window("log").title("Log").ui(ui, |w, ui| {
///     let cleared = w.add(ui, |ui: &mut egui::Ui, agents: &mut ForAgents<'_>| {
///         agents.text("last", lines.last().copied().unwrap_or_default());
///         let person = ui.button("Clear").clicked().then_some(egui_mcp_bridge::NoArgs {});
///         agents.press("clear", ActionSpec::new("Clear"), person)
///     });
///     if let Some(press) = cleared {
///         lines.clear();
///         press.ok("Cleared");
///     }
/// });
/// # });
/// ```
impl<F, R> Describe for F
where
    F: FnOnce(&mut egui::Ui, &mut ForAgents<'_>) -> R,
{
    type Output = R;

    fn show(self, ui: &mut egui::Ui, agent: &mut ForAgents<'_>) -> Self::Output {
        self(ui, agent)
    }
}

/// A widget's side for agents, handed to [`Describe::show`]: its blocks and actions, offered
/// only while the app lets the widget be used.
pub struct ForAgents<'w> {
    window: &'w mut WindowUi,
    allowed: bool,
}

impl std::fmt::Debug for ForAgents<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ForAgents").field("allowed", &self.allowed).finish_non_exhaustive()
    }
}

impl ForAgents<'_> {
    /// Whether the app lets the widget be used now: the `ui` it was added to is enabled (or
    /// disabled by the bridge's blocking, not by the app), and it is not in a collapsed section
    /// or a closed menu the app disabled. When not, its actions are not offered.
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    /// One action for both audiences: declares `name` for agents (while [`allowed`](Self::allowed))
    /// and returns an agent's call to it, else the person's gesture (`person`, the arguments
    /// their gesture gave in this pass) as a [`Press`] that answers nobody. The agent's call,
    /// when both came in one pass (the person's gesture is then dropped: the window changed
    /// under it).
    pub fn press<A>(&mut self, name: &str, spec: ActionSpec, person: Option<A>) -> Option<Press<A>>
    where
        A: serde::de::DeserializeOwned + schemars::JsonSchema + 'static,
    {
        let call = self.action::<A>(name, spec);
        self.either(call, person)
    }

    /// A row's action for both audiences, for a table the widget draws itself (an
    /// `egui_extras` table, beside [`Paged::page_around`](super::Paged::page_around)): declares
    /// `name {row}` (0-based over the `rows` rows; say so in `spec`) and returns an agent's call,
    /// a row that is not there refused per field, else the person's click on a row (`person`).
    pub fn row_press(
        &mut self,
        name: &str,
        spec: ActionSpec,
        rows: usize,
        person: Option<usize>,
    ) -> Option<Press<usize>> {
        let call = if self.allowed { self.window.agents_row(name, spec, rows) } else { None };
        self.either(call, person)
    }

    /// The agent's call, else the person's gesture while the widget may be used (or only the
    /// bridge's blocking stops it): the agent's when both came in one pass (the window changed
    /// under the person's).
    fn either<A>(&self, call: Option<Press<A>>, person: Option<A>) -> Option<Press<A>> {
        match (call, person) {
            (Some(call), _) => Some(call),
            (None, Some(args)) if self.allowed || self.window.blocked => Some(Press::person(args)),
            _ => None,
        }
    }

    /// An action for agents alone (the person's way to it is drawn by the widget some other
    /// way, or is none), offered while [`allowed`](Self::allowed).
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn action<A>(&mut self, name: &str, spec: ActionSpec) -> Option<Press<A>>
    where
        A: serde::de::DeserializeOwned + schemars::JsonSchema + 'static,
    {
        if self.allowed { self.window.action::<A>(name, spec) } else { None }
    }

    /// A paragraph (a `text` block).
    pub fn text(&mut self, id: &str, text: &str) {
        self.window.text(id, text);
    }

    /// A status line (a `notice` block).
    pub fn notice(&mut self, id: &str, severity: Severity, text: &str) {
        self.window.notice(id, severity, text);
    }

    /// Read-only fields (a `fields` block): see [`WindowUi::fields`].
    pub fn fields(&mut self, id: &str, items: impl Fn(&mut super::Fields<'_>)) {
        self.window.fields(id, items);
    }

    /// A list (a `list` block): see [`WindowUi::list`].
    pub fn list<'a>(&'a mut self, id: &'a str) -> super::Paged<'a, super::ListKind> {
        self.window.list(id)
    }

    /// A table (a `table` block): see [`WindowUi::table`].
    pub fn table<'a>(&'a mut self, id: &'a str, columns: &'a [&'a str]) -> super::Paged<'a, super::TableKind<'a>> {
        self.window.table(id, columns)
    }

    /// Fields the person and agents edit, drawn in `ui`: see [`WindowUi::form`].
    pub fn form(&mut self, ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut Form<'_>)) -> FormResponse {
        self.window.form(ui, id, add)
    }

    /// Tells the read view that a widget the widget drew outside its own `ui` (an item of a
    /// context menu or popup, which egui lays out in a layer of its own) is described.
    pub fn describes(&mut self, response: &egui::Response) {
        self.window.describes(response);
    }

    /// Another described widget inside this one (a checkbox in a tree's row, a button in a
    /// toolbar widget).
    pub fn add<D: Describe>(&mut self, ui: &mut egui::Ui, widget: D) -> D::Output {
        self.window.add(ui, widget)
    }
}

impl WindowUi {
    /// Adds a widget of the app's own, or of a widget crate, that draws for the person and
    /// declares for agents ([`Describe`]), as egui's `ui.add` adds a widget: the widget's
    /// actions are offered only while the app lets it be used (drawn in an enabled `ui`, not in
    /// a collapsed section), and what it draws is described, so the read view does not list it
    /// as undescribed. Returns what the widget's [`Describe::show`] returns.
    pub fn add<D: Describe>(&mut self, ui: &mut egui::Ui, widget: D) -> D::Output {
        let allowed = self.gate().allows(ui);
        ui.scope(|ui| {
            // What the widget draws is the widget's: described, with all it holds.
            super::both::described_widget(self, ui.unique_id());
            widget.show(ui, &mut ForAgents { window: self, allowed })
        })
        .inner
    }

    /// [`add`](Self::add) for a closure that draws for the person and declares for agents, as
    /// egui's `add_enabled_ui` takes one: Rust infers the closure's argument types here, which
    /// it cannot for a closure given to `add` (`|ui: &mut egui::Ui, agents: &mut ForAgents<'_>|`).
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge, NoArgs};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut lines = vec!["boot", "ready"];
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("log").title("Log").ui(ui, |w, ui| {
    ///     let cleared = w.add_ui(ui, |ui, agents| {
    ///         agents.text("last", lines.last().copied().unwrap_or_default());
    ///         let person = ui.button("Clear").clicked().then_some(NoArgs {});
    ///         agents.press("clear", ActionSpec::new("Clear"), person)
    ///     });
    ///     if let Some(press) = cleared {
    ///         lines.clear();
    ///         press.ok("Cleared");
    ///     }
    /// });
    /// # });
    /// ```
    pub fn add_ui<R>(
        &mut self,
        ui: &mut egui::Ui,
        add_contents: impl FnOnce(&mut egui::Ui, &mut ForAgents<'_>) -> R,
    ) -> R {
        self.add(ui, add_contents)
    }
}
