//! Your own widgets, described once: the [`Describe`] trait, shaped like egui's `Widget`, that an
//! app or a widget crate implements in one place (draw for the person, declare for agents, one
//! handler), and [`WindowUi::add`], which does the rest as it does for the bridge's own widgets:
//! it decides whether the app lets the widget be used (the gate), offers the widget's actions
//! only then, and tells the read view that what the widget drew is described.

use std::hash::{Hash as _, Hasher as _};

use super::content::{Fields, Mode, hash_value};
use super::{Form, FormResponse, ListKind, Paged, Press, TableKind, WindowUi};
use crate::hub::decl::content_hasher;
use crate::hub::{ActionSpec, NoArgs};
use crate::protocol::Block;
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
/// [`WindowUi::scope`] takes one without.
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

/// The declare-only side of a window: blocks and actions for agents alone, drawing nothing.
/// A window's is [`WindowUi::agents`] (beside what the app draws with egui's own widgets), and
/// a declare-only window's closure is handed one ([`WindowBuilder::declare`](super::WindowBuilder::declare)).
/// A described widget's, handed to [`Describe::show`], offers its actions only while the app
/// lets the widget be used ([`allowed`](Self::allowed)).
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
        if self.allowed { self.window.offer::<A>(name, spec) } else { None }
    }

    /// An action without arguments (an agent's button): [`action`](Self::action) with
    /// [`NoArgs`]. The person's button for the same action is [`WindowUi::button`].
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn button(&mut self, name: &str, spec: ActionSpec) -> Option<Press<NoArgs>> {
        self.action::<NoArgs>(name, spec)
    }

    /// A paragraph (a `text` block). Drawn for the person too: [`WindowUi::label`].
    pub fn text(&mut self, id: &str, text: &str) {
        self.window
            .block(|h| ("text", id, text).hash(h), || Block::Text { id: Some(id.to_owned()), text: text.to_owned() });
    }

    /// A status line (a `notice` block). Drawn for the person too: [`WindowUi::notice`].
    pub fn notice(&mut self, id: &str, severity: Severity, text: &str) {
        self.window.block(
            |h| ("notice", id, severity, text).hash(h),
            || Block::Notice { id: Some(id.to_owned()), severity, text: text.to_owned() },
        );
    }

    /// An image or chart (a `media` block). `alt` should state what it shows. Drawn for the
    /// person too: [`WindowUi::media`].
    pub fn media(&mut self, id: &str, mime_type: &str, url: &str, alt: Option<&str>) {
        self.window.block(
            |h| ("media", id, mime_type, url, alt).hash(h),
            || Block::Media {
                id: Some(id.to_owned()),
                mime_type: mime_type.to_owned(),
                url: url.to_owned(),
                alt: alt.map(str::to_owned),
            },
        );
    }

    /// A structure that fits no primitive (a `custom` block).
    pub fn custom(&mut self, id: &str, payload: &serde_json::Value) {
        self.window.block(
            |h| {
                ("custom", id).hash(h);
                hash_value(payload, h);
            },
            || Block::Custom { id: Some(id.to_owned()), payload: payload.clone() },
        );
    }

    /// A group of labelled values (a `fields` block), read-only. The closure is `Fn`: it runs
    /// once to hash what the block shows, and a second time only when that changed, to build
    /// it. Fields the person and agents edit: [`WindowUi::form`].
    pub fn fields(&mut self, id: &str, items: impl Fn(&mut Fields<'_>)) {
        let mut h = content_hasher();
        ("fields", id).hash(&mut h);
        items(&mut Fields { mode: Mode::Hash(&mut h) });
        self.window.block_with_hash(h.finish(), || {
            let mut out = Vec::new();
            items(&mut Fields { mode: Mode::Build(&mut out) });
            Block::Fields { id: Some(id.to_owned()), items: out }
        });
    }

    /// A list (a `list` block). Give its items with [`Paged::items`]; mark it
    /// [`Paged::ordered`] when the order means something, and [`Paged::slice`] when the items
    /// are a page of a longer list. Drawn for the person too: [`WindowUi::list`],
    /// [`WindowUi::long_list`].
    pub fn list<'a>(&'a mut self, id: &'a str) -> Paged<'a, ListKind> {
        Paged::list(self.window, id)
    }

    /// A table with these columns (a `table` block). Give its rows with [`Paged::rows`]; say
    /// with [`Paged::slice`] when they are a page of a longer table. Drawn for the person too:
    /// [`WindowUi::table`].
    pub fn table<'a>(&'a mut self, id: &'a str, columns: &'a [&'a str]) -> Paged<'a, TableKind<'a>> {
        Paged::table(self.window, id, columns)
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
    /// The window's side for agents alone: blocks ([`ForAgents::text`], [`ForAgents::fields`],
    /// [`ForAgents::table`], [`ForAgents::list`], [`ForAgents::notice`], [`ForAgents::media`],
    /// [`ForAgents::custom`]) and actions ([`ForAgents::action`], [`ForAgents::button`]) declared
    /// beside what the app draws with plain egui, drawing nothing. What both audiences see is
    /// drawn and declared by this type's own methods ([`label`](Self::label),
    /// [`button`](Self::button), [`table`](Self::table), [`form`](Self::form)…).
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut zoom = 1.0_f32;
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("view").title("View").ui(ui, |w, ui| {
    ///     // The person's slider, drawn with egui; agents read the zoom and reset it.
    ///     let slider = ui.add(egui::Slider::new(&mut zoom, 0.5..=4.0));
    ///     w.describes(&slider);
    ///     w.agents().fields("zoom", |f| f.field("Zoom", f64::from(zoom)));
    ///     if let Some(press) = w.agents().button("reset_zoom", ActionSpec::new("Reset zoom")) {
    ///         zoom = 1.0;
    ///         press.ok("Zoom reset");
    ///     }
    /// });
    /// # });
    /// ```
    pub fn agents(&mut self) -> ForAgents<'_> {
        ForAgents { window: self, allowed: true }
    }

    /// Adds a widget of the app's own, or of a widget crate, that draws for the person and
    /// declares for agents ([`Describe`]), as egui's `ui.add` adds a widget: the widget's
    /// actions are offered only while the app lets it be used (drawn in an enabled `ui`, not in
    /// a collapsed section), and what it draws is described, so the read view does not list it
    /// as undescribed. Returns what the widget's [`Describe::show`] returns.
    pub fn add<D: Describe>(&mut self, ui: &mut egui::Ui, widget: D) -> D::Output {
        self.scope(ui, |ui, agents| widget.show(ui, agents)).inner
    }

    /// [`add`](Self::add) for a closure that draws for the person and declares for agents, in
    /// a child `ui` as egui's `ui.scope` (and its `InnerResponse`): Rust infers the closure's
    /// argument types here, which it cannot for a closure given to `add`
    /// (`|ui: &mut egui::Ui, agents: &mut ForAgents<'_>|`).
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge, NoArgs};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut lines = vec!["boot", "ready"];
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("log").title("Log").ui(ui, |w, ui| {
    ///     let cleared = w.scope(ui, |ui, agents| {
    ///         agents.text("last", lines.last().copied().unwrap_or_default());
    ///         let person = ui.button("Clear").clicked().then_some(NoArgs {});
    ///         agents.press("clear", ActionSpec::new("Clear"), person)
    ///     });
    ///     if let Some(press) = cleared.inner {
    ///         lines.clear();
    ///         press.ok("Cleared");
    ///     }
    /// });
    /// # });
    /// ```
    pub fn scope<R>(
        &mut self,
        ui: &mut egui::Ui,
        add_contents: impl FnOnce(&mut egui::Ui, &mut ForAgents<'_>) -> R,
    ) -> egui::InnerResponse<R> {
        let allowed = self.gate().allows(ui);
        ui.scope(|ui| {
            // What the widget draws is the widget's: described, with all it holds.
            super::both::described_widget(self, ui.unique_id());
            add_contents(ui, &mut ForAgents { window: self, allowed })
        })
    }
}
