//! Widgets that draw for the person and declare for agents in one call, inside a window shown
//! with [`WindowBuilder::ui`](super::WindowBuilder::ui): a button that is also an action
//! ([`Press`]), text, notices, tables (paged for agents, scrolled for the person), lists and
//! media. Fields are in `form.rs`.

use super::content::{Mode, Rows};
use super::form::display;
use super::{Call, WindowUi};
use crate::hub::{ActionSpec, NoArgs};

/// A press of a [`WindowUi::button_ui`]: by the person or by an agent, handled by one code path.
#[derive(Debug)]
#[must_use = "answer the press: ok or fail (answers the agent; nothing for the person)"]
pub enum Press {
    /// The person clicked the button.
    Person,
    /// An agent called the action: answer it.
    Agent(Call<NoArgs>),
}

impl Press {
    /// Whether the person pressed it.
    pub fn by_person(&self) -> bool {
        matches!(self, Self::Person)
    }

    /// Done: the agent is answered with `message` (the person sees the window change).
    pub fn ok(self, message: impl Into<String>) {
        if let Self::Agent(call) = self {
            call.ok(message);
        }
    }

    /// Answered with `outcome`, the result of the one operation the button and the action
    /// share (the person sees the window change either way).
    pub fn reply(self, outcome: crate::Outcome) {
        if let Self::Agent(call) = self {
            call.reply(outcome);
        }
    }

    /// Refused: the agent is answered with `error`; nothing should have changed.
    pub fn fail(self, error: crate::ToolError) {
        if let Self::Agent(call) = self {
            call.fail(error);
        }
    }

    /// Answered later, once the effect is in place (see [`Call::defer`]): keep the
    /// [`Deferred`](crate::Deferred) and answer it then. A person's press gives one that answers
    /// nobody, so one code path serves both.
    pub fn defer(self) -> crate::Deferred {
        match self {
            Self::Agent(call) => call.defer(),
            Self::Person => crate::Deferred::nobody(),
        }
    }
}

/// An action with arguments done by the person's gesture or an agent's call
/// ([`WindowUi::gesture_ui`]): the same typed arguments either way, for one handler.
#[derive(Debug)]
#[must_use = "handle the gesture: .handle(|args| …) (answers the agent; the person sees the window change)"]
pub enum Gesture<A> {
    /// The person completed the gesture, with these arguments.
    Person(A),
    /// An agent called the action: its arguments are checked against `A`'s schema already.
    Agent(Call<A>),
}

impl<A> Gesture<A> {
    /// Answered later, once the effect is in place (see [`Call::defer`]): the arguments to start
    /// the operation with, and the [`Deferred`](crate::Deferred) to answer it by (one that
    /// answers nobody for the person's gesture).
    pub fn defer(self) -> (A, crate::Deferred) {
        match self {
            Self::Person(args) => (args, crate::Deferred::nobody()),
            Self::Agent(call) => call.defer_with_args(),
        }
    }

    /// The arguments, whoever gave them.
    pub fn args(&self) -> &A {
        match self {
            Self::Person(args) => args,
            Self::Agent(call) => call.args(),
        }
    }

    /// Applies the arguments with `apply`, the one operation the gesture and the action share:
    /// the agent is answered with what it returns; for the person, it comes back to show (an
    /// error under the widgets, say).
    pub fn handle(self, apply: impl FnOnce(A) -> crate::Outcome) -> Option<crate::Outcome> {
        match self {
            Self::Person(args) => Some(apply(args)),
            Self::Agent(call) => {
                call.handle(apply);
                None
            }
        }
    }
}

/// What [`WindowUi::button_ui`] gives: the press, by the person or an agent, and egui's response
/// to the person's button (for a tooltip of the person's alone, or a context menu).
#[derive(Debug)]
#[must_use = "a press arrives in .press: handle it and answer (ok, reply, fail)"]
pub struct ButtonResponse {
    /// The button was pressed in this pass, by the person or by an agent's call.
    pub press: Option<Press>,
    /// The person's button.
    pub response: egui::Response,
}

impl WindowUi {
    /// An action with arguments whose person's gesture gives the same arguments (a PIN field and
    /// Unlock, a product, a quantity and Add): `draw` draws the person's widgets and returns the
    /// arguments when the person completes the gesture; an agent's call to `name` comes with
    /// them parsed and checked against `A`. Both come out as one [`Gesture`] for one handler.
    /// Drawn in a `ui` the app disabled, the action is not offered either.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge, ToolError, ToolResult};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Unlock {
    ///     /// The four-digit PIN.
    ///     pin: String,
    /// }
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut typed, mut locked) = (String::new(), true);
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("lock").title("Locked").ui(ui, |w, ui| {
    ///     let unlock = w.gesture_ui(ui, "unlock", ActionSpec::new("Unlock"), |ui| {
    ///         ui.add(egui::TextEdit::singleline(&mut typed).password(true));
    ///         ui.button("Unlock").clicked().then(|| Unlock { pin: typed.clone() })
    ///     });
    ///     if let Some(gesture) = unlock {
    ///         let _ = gesture.handle(|args| {
    ///             if args.pin != "1234" {
    ///                 return Err(ToolError::invalid_field("pin", "Wrong PIN"));
    ///             }
    ///             locked = false;
    ///             Ok(ToolResult::message("Unlocked"))
    ///         });
    ///     }
    /// });
    /// # });
    /// ```
    pub fn gesture_ui<A>(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        spec: ActionSpec,
        draw: impl FnOnce(&mut egui::Ui) -> Option<A>,
    ) -> Option<Gesture<A>>
    where
        A: serde::de::DeserializeOwned + schemars::JsonSchema + 'static,
    {
        let enabled = self.gate().allows(ui);
        let call = if enabled { self.action::<A>(name, spec) } else { None };
        let person = draw(ui);
        match (call, person) {
            (Some(call), _) => Some(Gesture::Agent(call)),
            (None, Some(args)) if enabled || self.blocked => Some(Gesture::Person(args)),
            _ => None,
        }
    }

    /// A link that does something in the app (egui's `ui.link`): drawn as a link, and the action
    /// `name` for agents, one handler for both (as [`button_ui`](Self::button_ui)).
    pub fn link_ui(&mut self, ui: &mut egui::Ui, name: &str, spec: ActionSpec) -> ButtonResponse {
        let title = spec.title.clone();
        self.add_button(ui, name, spec, egui::Link::new(title.as_ref()))
    }

    /// A link to a web page for both: the person's hyperlink opens it in the browser; agents read
    /// it as the `text` block `id`, "text: url" (an agent does not open the person's browser).
    pub fn hyperlink_ui(&mut self, ui: &mut egui::Ui, id: &str, text: &str, url: &str) -> egui::Response {
        let response = ui.hyperlink_to(text, url);
        self.text(id, &format!("{text}: {url}"));
        response
    }

    /// A paragraph for both: drawn as a label, declared as a `text` block.
    pub fn text_ui(&mut self, ui: &mut egui::Ui, id: &str, text: &str) {
        ui.label(text);
        self.text(id, text);
    }

    /// A status line for both: drawn in the severity's colour, declared as a `notice` block.
    pub fn notice_ui(&mut self, ui: &mut egui::Ui, id: &str, severity: crate::Severity, text: &str) {
        let color = match severity {
            crate::Severity::Info => ui.visuals().text_color(),
            crate::Severity::Warn => ui.visuals().warn_fg_color,
            crate::Severity::Error => ui.visuals().error_fg_color,
            crate::Severity::Success => egui::Color32::from_rgb(80, 180, 110),
        };
        ui.colored_label(color, text);
        self.notice(id, severity, text);
    }

    /// A button that is also the action `name`: the person's click and an agent's call come
    /// out as one [`Press`] (in [`ButtonResponse::press`]), so one handler serves both. The
    /// button reads the action's title; its tooltip is the action's description, so both
    /// audiences read the same words. It is drawn disabled when the window is blocked, as the
    /// action is then not offered; drawn in a `ui` the app disabled (`ui.add_enabled_ui(false,
    /// …)`, `ui.disable()`), it is disabled for agents too: the action is not listed, and a call
    /// to it is refused as not available.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut connected, mut log) = (false, Vec::new());
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("port").title("Port").ui(ui, |w, ui| {
    ///     ui.add_enabled_ui(!connected, |ui| {
    ///         let spec = ActionSpec::new("Connect").description("Opens the serial port");
    ///         if let Some(press) = w.button_ui(ui, "connect", spec).press {
    ///             connected = true;
    ///             press.ok("Connected");
    ///         }
    ///     });
    ///     // Any egui button: an icon, small, an image; the response for more of egui.
    ///     let clear = w.add_button(ui, "clear", ActionSpec::new("Clear the log"), egui::Button::new("🗑").small());
    ///     if let Some(press) = clear.press {
    ///         log.clear();
    ///         press.ok("Cleared");
    ///     }
    ///     # let _: &Vec<String> = &log;
    /// });
    /// # });
    /// ```
    pub fn button_ui(&mut self, ui: &mut egui::Ui, name: &str, spec: ActionSpec) -> ButtonResponse {
        let title = spec.title.clone();
        self.add_button(ui, name, spec, egui::Button::new(title.as_ref()))
    }

    /// [`button_ui`](Self::button_ui) with the person's button as the app makes it (an icon or
    /// image, rich text, small, a shortcut's text): any `egui::Button`, or any widget whose
    /// click is the press (`egui::Link`, an `egui::Image` that senses clicks). Agents read the
    /// action's title and description, so give the words an icon stands for there.
    pub fn add_button(
        &mut self,
        ui: &mut egui::Ui,
        name: &str,
        spec: ActionSpec,
        button: impl egui::Widget,
    ) -> ButtonResponse {
        let enabled = self.gate().allows(ui);
        let mut response = ui.add_enabled(!self.blocked, button);
        if let Some(description) = &spec.description {
            response = response.on_hover_text(description.as_ref());
        }
        // Disabled by the app: not offered to agents (§5.1: an unavailable action is hidden).
        let call = if enabled { self.button(name, spec) } else { None };
        let press = match (call, response.clicked()) {
            (Some(call), _) => Some(Press::Agent(call)),
            (None, true) => Some(Press::Person),
            (None, false) => None,
        };
        ButtonResponse { press, response }
    }

    /// A table for both: the person sees every row of `rows` (scrolled, drawn only where
    /// visible, each with an optional button), agents read it as the `table` block `id`, with at
    /// most [`TableOptions::agent_rows`] rows and the total (the rest belongs behind a read-only
    /// tool, §9). `cells` gives one row's cells, lined up with `columns`
    /// (`|order, t| t.row((order.id.as_str(), order.total))`). With
    /// [`TableOptions::row_action`], each row's button is also an action `{row}` for agents
    /// (0-based, over all the rows): the person's click and the agent's call come out as one
    /// [`RowPress`]. Returns the row pressed in this pass.
    pub fn table_ui<T>(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        columns: &[&str],
        rows: &[T],
        cells: impl Fn(&T, &mut Rows<'_>),
        mut options: TableOptions<'_>,
    ) -> Option<RowPress> {
        let agent = match options.row_action.take() {
            Some((name, spec)) if self.gate().allows(ui) => self.agents_row(name, spec, rows.len()),
            _ => None,
        };
        let limit = options.agent_rows.unwrap_or(usize::MAX);
        let table = self.table(id, columns);
        let table = if rows.len() > limit { table.slice(0, rows.len() as u64) } else { table };
        table.rows(|t| {
            for r in rows.iter().take(limit) {
                cells(r, t);
            }
        });
        let clicked = draw_table(ui, id, columns, rows, &cells, &options);
        agent.or_else(|| clicked.map(|row| RowPress { row, press: Press::Person }))
    }

    /// Declares a table's row action and takes an agent's call to it, refusing a row that is not
    /// there.
    fn agents_row(&mut self, name: &str, spec: ActionSpec, rows: usize) -> Option<RowPress> {
        let call = self.action::<RowArgs>(name, spec)?;
        let row = call.args().row;
        if row >= rows {
            let range = if rows == 0 { "there are no rows".to_owned() } else { format!("must be 0 to {}", rows - 1) };
            call.fail(crate::ToolError::invalid_field("row", range));
            return None;
        }
        Some(RowPress { row, press: Press::Agent(call.map_args(|_| NoArgs {})) })
    }

    /// A list for both: bullets for the person, the `list` block `id` for agents.
    pub fn list_ui<S: AsRef<str>>(&mut self, ui: &mut egui::Ui, id: &str, items: &[S]) {
        self.any_list_ui(ui, id, false, items);
    }

    /// A list whose order means something (steps, a ranking): numbered lines for the person, an
    /// ordered `list` block `id` for agents.
    pub fn ordered_list_ui<S: AsRef<str>>(&mut self, ui: &mut egui::Ui, id: &str, items: &[S]) {
        self.any_list_ui(ui, id, true, items);
    }

    fn any_list_ui<S: AsRef<str>>(&mut self, ui: &mut egui::Ui, id: &str, ordered: bool, items: &[S]) {
        for (k, item) in items.iter().enumerate() {
            if ordered {
                ui.label(format!("{}. {}", k + 1, item.as_ref()));
            } else {
                ui.label(format!("• {}", item.as_ref()));
            }
        }
        let list = self.list(id);
        let list = if ordered { list.ordered() } else { list };
        list.items(|l| {
            for item in items {
                l.item(item.as_ref());
            }
        });
    }

    /// A picture for both: `draw` paints it for the person, agents read the `media` block `id`
    /// (its `url`, such as a `data:image/png;base64,…` of the same picture, and an `alt` text
    /// that states what it shows).
    pub fn media_ui(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        (mime_type, url): (&str, &str),
        alt: &str,
        draw: impl FnOnce(&mut egui::Ui),
    ) {
        draw(ui);
        self.media(id, mime_type, url, Some(alt));
    }
}

/// What decides whether the app lets the person use a widget now, beyond its `ui`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Gate {
    /// The window is blocked: its contents are disabled by the bridge, not by the app (the
    /// window is not operable anyway).
    pub blocked: bool,
    /// Inside a closed menu, drawn hidden: whether the menu's own `ui` allowed use (the hidden
    /// `ui` is disabled by egui, not by the app; the items say for themselves).
    pub hidden: Option<bool>,
    /// Inside a collapsed section: readable, not usable until it is opened.
    pub collapsed: bool,
}

impl Gate {
    /// Whether the app lets the person use what is drawn in `ui` now: `ui` is enabled, or what
    /// disabled it was not the app (the bridge's blocking, a collapsed section's hiding, egui's
    /// sizing pass of a window shown for the first time, a pass egui discards). A widget the
    /// app disabled (`add_enabled_ui(false, …)`, `ui.disable()`, `set_invisible`, a disabled
    /// parent) is disabled for agents too.
    pub fn allows(self, ui: &egui::Ui) -> bool {
        if self.collapsed {
            return false;
        }
        if self.blocked {
            return true;
        }
        if let Some(section) = self.hidden {
            return section;
        }
        ui.is_enabled() || ui.is_sizing_pass() || ui.ctx().will_discard()
    }
}

/// A cell as the person reads it: a number in whole cents with two decimals (`215.30`, as
/// money is written), any other as JSON writes it.
fn shown_cell(value: &serde_json::Value) -> String {
    match value.as_f64() {
        Some(f) if value.is_f64() && f.fract() != 0.0 && ((f * 100.0).round() - f * 100.0).abs() < 1e-6 => {
            format!("{f:.2}")
        }
        _ => display(value),
    }
}

/// A row's button pressed in a [`WindowUi::table_ui`]: by the person, or by an agent's call to
/// the table's row action.
#[derive(Debug)]
#[must_use = "a row was pressed: handle it and answer the press (ok, reply, fail)"]
pub struct RowPress {
    /// The row, 0-based over all the rows.
    pub row: usize,
    /// Who pressed it; answer it as any [`Press`].
    pub press: Press,
}

/// The arguments of a table's row action: the row, 0-based over all the rows (the action's
/// description says so; a parameter description would repeat it in every listing).
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RowArgs {
    row: usize,
}

/// How a [`WindowUi::table_ui`] shows its rows, built as egui's widgets are:
/// `TableOptions::new().agent_rows(20).row_button("Open")`.
#[derive(Clone, Debug, Default)]
pub struct TableOptions<'a> {
    agent_rows: Option<usize>,
    row_button: Option<&'a str>,
    row_action: Option<(&'a str, ActionSpec)>,
    height: Option<f32>,
}

impl<'a> TableOptions<'a> {
    /// All rows for agents, no row button, the height left in the window.
    pub fn new() -> Self {
        Self::default()
    }

    /// The most rows agents read in the state (default: all); the total says how many there are.
    #[must_use]
    pub fn agent_rows(mut self, n: usize) -> Self {
        self.agent_rows = Some(n);
        self
    }

    /// A button at the end of each of the person's rows ("Open", "Remove").
    #[must_use]
    pub fn row_button(mut self, text: &'a str) -> Self {
        self.row_button = Some(text);
        self
    }

    /// The row button as an action for agents too: `name {row}`, described by `spec` (say that
    /// rows are 0-based, as the state's rows are listed).
    #[must_use]
    pub fn row_action(mut self, name: &'a str, spec: ActionSpec) -> Self {
        self.row_action = Some((name, spec));
        self
    }

    /// The height of the person's scrolled rows (default: what is left of the window).
    #[must_use]
    pub fn height(mut self, height: f32) -> Self {
        self.height = Some(height);
        self
    }
}

/// The person's table: a header, then the rows in a scroll area that lays out only the visible
/// ones (20,000 rows cost what 20 do), whole rows only.
fn draw_table<T>(
    ui: &mut egui::Ui,
    id: &str,
    columns: &[&str],
    rows: &[T],
    cells: &impl Fn(&T, &mut Rows<'_>),
    options: &TableOptions<'_>,
) -> Option<usize> {
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let spacing = ui.spacing().item_spacing.x;
    // The row button's width (its text and padding), and the scroll bar's room: the rows fit the
    // window as it is, so that they never widen it.
    let button = options.row_button.map_or(0.0, |b| {
        let font = egui::TextStyle::Button.resolve(ui.style());
        let text = ui.painter().layout_no_wrap(b.to_owned(), font, egui::Color32::WHITE).size().x;
        text + 2.0 * ui.spacing().button_padding.x + spacing
    });
    let n = columns.len().max(1) as f32;
    let room = ui.available_width() - button - ui.spacing().scroll.bar_width - 2.0 * spacing;
    let width = (room / n - spacing).max(40.0);
    // Text starts at the left of its column, a number ends at the right of it.
    let cell = |ui: &mut egui::Ui, text: egui::RichText, number: bool| {
        let layout = if number {
            egui::Layout::right_to_left(egui::Align::Center)
        } else {
            egui::Layout::left_to_right(egui::Align::Center)
        };
        ui.allocate_ui_with_layout(egui::vec2(width, row_height), layout, |ui| {
            ui.set_min_width(width);
            ui.add(egui::Label::new(text).truncate());
        });
    };
    ui.horizontal(|ui| {
        for c in columns {
            cell(ui, egui::RichText::new(*c).strong(), false);
        }
    });
    ui.separator();
    let pitch = row_height + ui.spacing().item_spacing.y;
    let height = options.height.unwrap_or_else(|| ui.available_height());
    let whole = (height / pitch).floor().max(3.0) * pitch;
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .id_salt(("egui_mcp_bridge::table", id))
        .auto_shrink([false, true])
        .max_height(whole)
        .show_rows(ui, row_height, rows.len(), |ui, range| {
            for k in range {
                let mut built = Vec::new();
                cells(&rows[k], &mut Rows { mode: Mode::Build(&mut built) });
                ui.horizontal(|ui| {
                    for value in built.iter().flatten() {
                        cell(ui, egui::RichText::new(shown_cell(value)), value.is_number());
                    }
                    if let Some(b) = options.row_button
                        && ui.small_button(b).clicked()
                    {
                        clicked = Some(k);
                    }
                });
            }
        });
    clicked
}
