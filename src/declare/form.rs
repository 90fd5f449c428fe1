//! Forms: labelled fields drawn for the person and declared to agents as one `fields` block
//! from the same values. Editable fields ([`Form::edit`]) follow their [`Input`]'s rules and
//! give the window its `edit_field` action (`edit_action.rs`). Where the fields go is in
//! `form/layout.rs`.

use std::hash::{DefaultHasher, Hash as _, Hasher as _};

use serde_json::{Value, json};

use super::check::{Holds, check_held, display};
use super::content::Cell;
use super::edit_action::Editing;
use super::state::DeclareState;
use super::{Editable, Input, WindowUi};

mod layout;
use crate::protocol::{Block, FieldItem, ToolError, masked};
pub(super) use layout::Layout;

/// The fields of a [`WindowUi::form`]: each one a widget for the person and a field for agents,
/// from the same value.
pub struct Form<'u> {
    pub(super) ui: &'u mut egui::Ui,
    /// The window the form is in: its edits, its blocking, the section it is in, and what a
    /// cell of the form draws ([`Form::cell`]).
    pub(super) w: &'u mut WindowUi,
    pub(super) items: Vec<FieldItem>,
    pub(super) hasher: DefaultHasher,
    pub(super) changed: Vec<String>,
    pub(super) editable: bool,
    /// Where each field goes: a row of the grid, beside its label in the app's layout, or
    /// beside a row's label.
    pub(super) layout: Layout,
    /// The egui ids of the widgets drawn, told to the read view once the form is declared.
    pub(super) drawn: Vec<u64>,
}

impl std::fmt::Debug for Form<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Form").field("items", &self.items.len()).finish_non_exhaustive()
    }
}

impl Form<'_> {
    pub(super) fn declare(&mut self, item: FieldItem) {
        (&item.label, item.sensitive, &item.key, item.disabled).hash(&mut self.hasher);
        super::content::hash_value(&item.value, &mut self.hasher);
        self.items.push(item);
    }

    /// Whether the app lets the person change what is drawn now: the `ui` is enabled (the app
    /// did not disable it with `add_enabled_ui`, `ui.disable()` or a disabled parent), or only
    /// the bridge's blocking disabled it.
    pub(super) fn app_enabled(&self) -> bool {
        self.w.gate().allows(self.ui)
    }

    /// Takes an agent's edit of `key` and refuses it: the field is drawn disabled, or is in a
    /// collapsed section.
    pub(super) fn refuse_disabled(&mut self, key: &str, label: &str) {
        if let Some(call) = self.w.edits.take_for(key) {
            let why = match self.w.sections.inside.as_deref() {
                Some(section) => {
                    format!("{label} is in the collapsed section \"{section}\": open it first with open_section")
                }
                None => format!("{label} cannot be changed now (it is disabled)"),
            };
            call.fail(ToolError::invalid_field("field", why));
        }
    }

    /// The [`edit`](Self::edit) and [`choice`](Self::choice) fields after this call are shown
    /// as values, not edited, and left out of the `edit_field` action (a submitted order, say):
    /// `if submitted { f.read_only(); }`.
    pub fn read_only(&mut self) {
        self.editable = false;
    }

    /// An editable field: the person's widget for `value` following `input`'s rules (a text
    /// edit, a drag value or slider for a number, a checkbox or switch for a `bool`, a colour
    /// button), and the field agents read by the input's label and set through
    /// `edit_field {field: key, value}` (the state names the `key`). An agent's value is checked
    /// by the same rules and, if accepted, written into `value` before the widget is drawn; the
    /// field is then listed in [`FormResponse::changed`] by its `key`, as when the person edits
    /// it. A value the rules reject (a required field left empty) is shown under the widget with
    /// the message an agent would get. Drawn in a disabled `ui` (`ui.add_enabled_ui(false, …)`),
    /// the field reads as disabled and agents cannot set it either.
    pub fn edit<V: Editable>(&mut self, key: &str, input: &Input, value: &mut V) -> egui::Response {
        if !V::fits(input) {
            misfit(&self.w.state, &self.w.decl.app_id, key, std::any::type_name::<V>());
        }
        let input = &*V::narrow(input);
        let label = input.label();
        if !self.editable {
            let shown = agents_read(input, &value.to_value());
            let response = self.put(label, |ui| ui.label(display(&shown)));
            self.declare(FieldItem { sensitive: input.is_secret(), ..FieldItem::new(label, shown) });
            return response;
        }
        let enabled = self.app_enabled();
        if enabled {
            self.take_agents_edit(key, input, value);
        } else {
            self.refuse_disabled(key, label);
        }
        let response = hinted(self.edit_widget(input, value), input);
        if response.changed() {
            self.changed.push(key.to_owned());
        }
        let item =
            FieldItem { sensitive: input.is_secret(), ..FieldItem::new(label, agents_read(input, &value.to_value())) };
        self.declare_editable(key, input, item, enabled, (None, Vec::new(), V::widget_holds));
        response
    }

    /// Declares an editable field: with its key while agents can set it, disabled while the app
    /// has its widget disabled.
    pub(super) fn declare_editable(
        &mut self,
        key: &str,
        input: &Input,
        item: FieldItem,
        enabled: bool,
        (options, hints, holds): (Option<Vec<String>>, Vec<String>, Holds),
    ) {
        if enabled {
            self.declare(FieldItem { key: Some(key.to_owned()), ..item });
            let editing = Editing { key: key.to_owned(), input: input.clone(), note: None, options, hints, holds };
            self.w.edits.fields.push(editing);
        } else if self.w.sections.inside.is_some() {
            self.declare(item);
        } else {
            self.declare(FieldItem { disabled: true, ..item });
        }
    }

    /// An agent's edit of `key` in this pass, if any, written into `value` before the widget is
    /// drawn: one of several fields checked together already, or one field checked here.
    fn take_agents_edit<V: Editable>(&mut self, key: &str, input: &Input, value: &mut V) {
        let label = input.label();
        if let Some(checked) = self.w.edits.multi_value(key) {
            value.set(&checked);
            self.w.edits.written(label);
            self.changed.push(key.to_owned());
        } else if let Some(call) = self.w.edits.take_for(key) {
            match check_held(input, V::widget_holds, call.args().value()) {
                Ok(checked) => {
                    value.set(&checked);
                    self.changed.push(key.to_owned());
                    call.ok(format!("{label} updated")); // never the value: it may be a secret
                }
                Err(e) => call.fail(ToolError::invalid_field("value", e)),
            }
        }
    }

    /// The person's widget for an editable field: with its label (beside it, or in it for an
    /// inline checkbox) and, under it, what the rules say of the value it holds.
    fn edit_widget<V: Editable>(&mut self, input: &Input, value: &mut V) -> egui::Response {
        if self.layout != Layout::Grid
            && let Some(r) = value.labelled_widget(self.ui, input)
        {
            self.drawn.push(r.id.value());
            return r; // a checkbox with its text, as egui draws one on its own
        }
        let problem = match value.to_value() {
            Value::String(s) => input.check_text(&s).err(),
            _ => None,
        };
        self.put(input.label(), |ui| {
            ui.vertical(|ui| {
                let r = value.widget(ui, input);
                if let Some(p) = &problem {
                    ui.colored_label(ui.visuals().error_fg_color, p);
                }
                r
            })
            .inner
        })
    }

    /// A field the window works out from others (a total): shown to the person with `note`
    /// (what it follows), read by agents, and listed in `edit_field` so that an agent that sets
    /// it to the value it already has is answered yes; any other value is refused, saying what
    /// it follows. Nothing is set either way.
    pub fn derived(&mut self, key: &str, input: &Input, value: f64, note: &str) -> egui::Response {
        let label = input.label();
        let current = json!(value);
        if self.editable
            && let Some(call) = self.w.edits.take_for(key)
        {
            let same = input
                .check(call.args().value())
                .ok()
                .and_then(|v| v.as_f64())
                .is_some_and(|v| (v - value).abs() < 1e-9);
            if same {
                call.ok(format!("{label} is {}, {note}", input.shown(value)));
            } else {
                let e = format!("{label} is {note} ({}); change that to change it", input.shown(value));
                call.fail(ToolError::invalid_field("value", e));
            }
        }
        let response = self.put(label, |ui| {
            ui.horizontal(|ui| {
                let r = ui.strong(input.shown(value));
                ui.weak(note);
                r
            })
            .inner
        });
        if self.editable {
            self.declare(FieldItem { key: Some(key.to_owned()), ..FieldItem::new(label, current) });
            // Checked against its value already: giving the value it has changes nothing.
            if self.w.edits.multi_value(key).is_some() {
                self.w.edits.written(label);
            }
            let note = Some((note.to_owned(), value));
            let editing = Editing {
                key: key.to_owned(),
                input: input.clone(),
                note,
                options: None,
                hints: Vec::new(),
                holds: Value::clone,
            };
            self.w.edits.fields.push(editing);
        } else {
            self.declare(FieldItem::new(label, current));
        }
        response
    }

    /// A value shown, not edited; agents read it as the field `label` (a number stays a
    /// number).
    pub fn value<'a>(&mut self, label: &str, value: impl Into<Cell<'a>>) -> egui::Response {
        let value = value.into().into_value();
        let response = self.put(label, |ui| ui.label(display(&value)));
        self.declare(FieldItem::new(label, value));
        response
    }
}

/// A type that cannot hold the input's kind (a `bool` with `Input::text`): said loudly, once
/// per window and field of the bridge, naming both.
pub(super) fn misfit(state: &DeclareState, window: &str, key: &str, type_name: &str) {
    let mut warned = state.misfits.lock();
    if warned.len() < 1024 && warned.insert((window.to_owned(), key.to_owned())) {
        tracing::warn!(
            window,
            field = key,
            type_name,
            "this field's value type does not fit its Input's kind (a bool needs Input::checkbox, a number Input::number or Input::integer, text Input::text, a Color32 Input::color); agents cannot set it as the person can"
        );
    }
}

/// The widget's tooltip: the input's hint, for the person as agents read it.
pub(super) fn hinted(response: egui::Response, input: &Input) -> egui::Response {
    match &input.look.hint {
        Some(hint) => response.on_hover_text(hint.as_ref()),
        None => response,
    }
}

/// A field's value as agents read it: a secret masked at the source (only whether it is filled).
fn agents_read(input: &Input, value: &Value) -> Value {
    if input.is_secret() { masked(!value.as_str().is_some_and(str::is_empty)) } else { value.clone() }
}

/// What a [`WindowUi::form`] gave: which fields changed in this pass.
#[derive(Clone, Debug, Default)]
pub struct FormResponse {
    /// The keys of the fields the person or an agent changed.
    pub changed: Vec<String>,
}

impl WindowUi {
    /// Labelled fields in a grid for the person, declared to agents as one `fields` block
    /// `id` from the same values ([`Form::edit`], [`Form::choice`], [`Form::derived`],
    /// [`Form::value`]). Editable fields give the window its `edit_field` action. Each field
    /// is a row of two columns, its label and its widget ([`Form::row`] and
    /// [`Form::labelled`] for others); 12 by 6 points apart ([`form_with`](Self::form_with)
    /// for egui's own grid, as the app sets it).
    pub fn form(&mut self, ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut Form<'_>)) -> FormResponse {
        self.form_with(ui, id, |grid| grid.spacing([12.0, 6.0]), add)
    }

    /// [`form`](Self::form) in egui's own grid as the app sets it: `grid` gets an
    /// `egui::Grid` of two columns, spaced as the app's style says, and returns it configured
    /// (`striped`, `spacing`, `min_col_width`…), so every option egui has is kept.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let (mut name, mut admin) = (String::new(), false);
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("user").title("User").ui(ui, |w, ui| {
    ///     w.form_with(ui, "user", |g| g.striped(true).min_col_width(120.0), |f| {
    ///         f.edit("name", &Input::text("Name"), &mut name);
    ///         f.edit("admin", &Input::checkbox("Administrator"), &mut admin);
    ///     });
    /// });
    /// # });
    /// ```
    pub fn form_with(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        grid: impl FnOnce(egui::Grid) -> egui::Grid,
        add: impl FnOnce(&mut Form<'_>),
    ) -> FormResponse {
        let grid = grid(egui::Grid::new(("egui_mcp_bridge::form", id)).num_columns(2));
        grid.show(ui, |ui| self.any_form(ui, id, Layout::Grid, add)).inner
    }

    /// Fields in the app's own layout, as egui draws them one by one: each label beside its
    /// widget (a checkbox's text in it), following `ui`'s layout, so that in `ui.horizontal`
    /// they sit in one row. Declared as [`form`](Self::form) declares them.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, Input};
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut grid, mut axes) = (true, false);
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("plot").title("Plot").ui(ui, |w, ui| {
    ///     ui.horizontal(|ui| {
    ///         w.inline_form(ui, "options", |f| {
    ///             f.edit("grid", &Input::checkbox("Show grid"), &mut grid);
    ///             f.edit("axes", &Input::checkbox("Show axes"), &mut axes);
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn inline_form(&mut self, ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut Form<'_>)) -> FormResponse {
        self.any_form(ui, id, Layout::Inline, add)
    }

    pub(super) fn any_form(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        layout: Layout,
        add: impl FnOnce(&mut Form<'_>),
    ) -> FormResponse {
        self.claim_edit();
        let mut hasher = DefaultHasher::new();
        ("fields", id).hash(&mut hasher);
        let mut form = Form {
            ui,
            w: &mut *self,
            items: Vec::new(),
            hasher,
            changed: Vec::new(),
            editable: true,
            layout,
            drawn: Vec::new(),
        };
        add(&mut form);
        let (items, hash, changed, drawn) = (form.items, form.hasher.finish(), form.changed, form.drawn);
        let mut frame = self.core.frame.lock();
        for id in drawn {
            frame.describe_widget(id);
        }
        drop(frame);
        self.block_with_hash(hash, || Block::Fields { id: Some(id.to_owned()), items });
        FormResponse { changed }
    }
}
