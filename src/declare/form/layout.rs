//! Where a form's fields go ([`Layout`]): rows of its grid, several in a row, beside a label
//! the app drew, in the app's own layout or alone; and cells of the grid holding other
//! described widgets.

use std::hash::DefaultHasher;

use super::Form;
use crate::declare::WindowUi;
use crate::protocol::FieldItem;

/// What a form's fields declare, carried into a cell of the form and back.
struct Carried {
    items: Vec<FieldItem>,
    hasher: DefaultHasher,
    changed: Vec<String>,
    drawn: Vec<u64>,
    editable: bool,
}

/// Where a form's fields go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::declare) enum Layout {
    /// A row of the form's grid each: the label, then the widget.
    Grid,
    /// Each label beside its widget (a checkbox's text in it), in the app's layout: an
    /// [`WindowUi::inline_form`], or a grid's cells in [`Form::row`].
    Inline,
    /// The widget alone, named by a row's label the app drew ([`Form::labelled`]).
    Beside(egui::Id),
    /// The widget alone, as egui draws one without a label (a checkbox's text in it): a lone
    /// field ([`WindowUi::edit`]), whose label, if any, the app draws.
    Alone,
}

impl Form<'_> {
    /// A field's widget `add`, with its label where the layout puts it.
    pub(in crate::declare) fn put(
        &mut self,
        label: &str,
        add: impl FnOnce(&mut egui::Ui) -> egui::Response,
    ) -> egui::Response {
        let response = match self.layout {
            Layout::Inline => {
                // The label beside its widget, in whatever layout the app's `ui` has.
                self.ui
                    .horizontal(|ui| {
                        let l = ui.label(label);
                        add(ui).labelled_by(l.id)
                    })
                    .inner
            }
            Layout::Beside(row_label) => add(self.ui).labelled_by(row_label),
            Layout::Alone => {
                let response = add(self.ui);
                // Named, for a screen reader, by the input's label it does not draw.
                let ctx = self.ui.ctx();
                ctx.accesskit_node_builder(response.id, |node| {
                    if node.label().is_none() {
                        node.set_label(label);
                    }
                });
                response
            }
            Layout::Grid => {
                let l = self.ui.label(label);
                let response = add(self.ui).labelled_by(l.id);
                self.ui.end_row();
                response
            }
        };
        self.drawn.push(response.id.value());
        response
    }

    /// Several fields in one row of the form's grid, each in a cell of its own with its label
    /// beside it (a checkbox's text in it), as egui draws `ui.checkbox(..); ui.checkbox(..);
    /// ui.end_row()`. Agents read each by its input's label, as ever.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let (mut grid, mut axes) = (true, false);
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("plot").title("Plot").ui(ui, |w, ui| {
    ///     w.form(ui, "options", |f| {
    ///         f.row(|f| {
    ///             f.edit("grid", &Input::checkbox("Show grid"), &mut grid);
    ///             f.edit("axes", &Input::checkbox("Show axes"), &mut axes);
    ///         });
    ///     });
    /// });
    /// # });
    /// ```
    pub fn row<R>(&mut self, fields: impl FnOnce(&mut Self) -> R) -> R {
        let layout = std::mem::replace(&mut self.layout, Layout::Inline);
        let inner = fields(self);
        self.layout = layout;
        if layout == Layout::Grid {
            self.ui.end_row();
        }
        inner
    }

    /// A row whose label is any widget the app draws (`label`: rich text, an icon, a help
    /// button), and whose fields follow it side by side, each its widget alone, named by that
    /// label (a checkbox keeps its own text). Agents read each field by its input's label, as
    /// ever.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let (mut width, mut height) = (640_u32, 480_u32);
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("image").title("Image").ui(ui, |w, ui| {
    ///     w.form(ui, "size", |f| {
    ///         f.labelled(
    ///             |ui| ui.label(egui::RichText::new("Size").strong()),
    ///             |f| {
    ///                 f.edit("width", &Input::integer("Width", 1..=8192), &mut width);
    ///                 f.edit("height", &Input::integer("Height", 1..=8192), &mut height);
    ///             },
    ///         );
    ///     });
    /// });
    /// # });
    /// ```
    pub fn labelled<R>(
        &mut self,
        label: impl FnOnce(&mut egui::Ui) -> egui::Response,
        fields: impl FnOnce(&mut Form<'_>) -> R,
    ) -> R {
        let grid = self.layout == Layout::Grid;
        // The fields are this form's, drawn in a cell: what they declare is carried there and
        // back.
        let carried = Carried {
            items: std::mem::take(&mut self.items),
            hasher: self.hasher.clone(),
            changed: std::mem::take(&mut self.changed),
            drawn: std::mem::take(&mut self.drawn),
            editable: self.editable,
        };
        let w = &mut *self.w;
        let ui = &mut *self.ui;
        // In a grid the label is a cell of its own; elsewhere it leads the fields.
        let mut label = Some(label);
        let label_cell = if grid { label.take().map(|label| label(ui).id) } else { None };
        let (inner, carried) = ui
            .horizontal(|ui| {
                let label_id = label_cell.or_else(|| label.take().map(|label| label(ui).id)).unwrap_or(egui::Id::NULL);
                let mut form = Form {
                    ui,
                    w,
                    items: carried.items,
                    hasher: carried.hasher,
                    changed: carried.changed,
                    editable: carried.editable,
                    layout: Layout::Beside(label_id),
                    drawn: carried.drawn,
                };
                let inner = fields(&mut form);
                let Form { items, hasher, changed, drawn, editable, .. } = form;
                (inner, Carried { items, hasher, changed, drawn, editable })
            })
            .inner;
        (self.items, self.hasher, self.changed, self.drawn) =
            (carried.items, carried.hasher, carried.changed, carried.drawn);
        self.editable = carried.editable;
        if grid {
            self.ui.end_row();
        }
        inner
    }

    /// A cell of the form holding anything else the window draws: a described button, link,
    /// section, list or widget of your own beside the fields (`|w, ui| w.button(ui, "test",
    /// spec)`), as an egui grid mixes them. In the form's grid it is a row of its own (its
    /// widget in the first column, as egui's `ui.button(..); ui.end_row()`); in
    /// [`row`](Self::row) or [`labelled`](Self::labelled), a cell of that row. What it declares
    /// is its own (a button's action, a list's block), beside the form's fields.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut port = String::from("/dev/ttyUSB0");
    /// use egui_mcp_bridge::{ActionSpec, Input};
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("port").title("Port").ui(ui, |w, ui| {
    ///     w.form(ui, "port", |f| {
    ///         f.labelled(
    ///             |ui| ui.label("Device"),
    ///             |f| {
    ///                 f.edit("port", &Input::text("Device"), &mut port);
    ///                 f.cell(|w, ui| {
    ///                     if let Some(press) = w.button(ui, "rescan", ActionSpec::new("Rescan")).inner {
    ///                         press.ok("Rescanned");
    ///                     }
    ///                 });
    ///             },
    ///         );
    ///     });
    /// });
    /// # });
    /// ```
    pub fn cell<R>(&mut self, add: impl FnOnce(&mut WindowUi, &mut egui::Ui) -> R) -> R {
        let inner = add(self.w, self.ui);
        if self.layout == Layout::Grid {
            self.ui.end_row();
        }
        inner
    }
}
