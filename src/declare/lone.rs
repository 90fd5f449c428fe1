//! One field on its own, where egui draws one widget in the app's row
//! (`ui.checkbox(&mut on, "Filter")`, a text edit after the app's own label): a form of that
//! field alone, drawn as egui draws the widget (no label but a checkbox's text), whose response
//! tells the app of the person's change and the agent's alike.

use super::form::Layout;
use super::{ChoiceInput, Editable, Form, Input, WindowUi};

impl WindowUi {
    /// One field on its own, where egui draws one widget (`ui.checkbox(&mut on, "Filter")`,
    /// `ui.text_edit_singleline(&mut key)` after the app's own `ui.label("Search:")`): drawn
    /// as egui draws that widget, with no label of its own but a checkbox's text (the input's
    /// label names it for agents), and declared as a form of that field alone, the `fields`
    /// block `key`. Returns the widget's response, changed by the person's edit and the
    /// agent's alike.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, Input};
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut filter = false;
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("viewer").title("Viewer").ui(ui, |w, ui| {
    ///     ui.horizontal(|ui| {
    ///         let _ = ui.button("⏪");
    ///         if w.edit(ui, "filter", &Input::checkbox("Filter"), &mut filter).changed() {
    ///             // apply the filter
    ///         }
    ///     });
    /// });
    /// # });
    /// ```
    pub fn edit<V: Editable>(&mut self, ui: &mut egui::Ui, key: &str, input: &Input, value: &mut V) -> egui::Response {
        self.lone(ui, key, |f| f.edit(key, input, value))
    }

    /// One choice on its own (a `ComboBox` or radio buttons in the app's row), drawn and
    /// declared as [`edit`](Self::edit) draws and declares one field: no label of its own (draw
    /// the app's beside it); `options` as [`Form::choice`] takes them. Returns the widget's response, changed by the person's
    /// pick and the agent's alike.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, Input};
    ///
    /// #[derive(Clone, Copy, PartialEq)]
    /// enum Unit { Bytes, Kb }
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut unit = Unit::Bytes;
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("viewer").title("Viewer").ui(ui, |w, ui| {
    ///     let units = [(Unit::Bytes, "Bytes"), (Unit::Kb, "KB")];
    ///     w.choice(ui, "unit", &Input::choice("Row size unit"), &mut unit, &units);
    /// });
    /// # });
    /// ```
    pub fn choice<T: PartialEq + Clone, S: AsRef<str>>(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        input: &ChoiceInput,
        value: &mut T,
        options: &[(T, S)],
    ) -> egui::Response {
        self.lone(ui, key, |f| f.choice(key, input, value, options))
    }

    /// A form of the one field `key` that `add` draws; its response marked changed when an
    /// agent's edit changed it.
    fn lone(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        add: impl FnOnce(&mut Form<'_>) -> egui::Response,
    ) -> egui::Response {
        let mut response = None;
        let form = self.any_form(ui, key, Layout::Alone, |f| response = Some(add(f)));
        // The form runs its fields once, so the field's response is there.
        let mut response = response.unwrap_or_else(|| ui.allocate_response(egui::Vec2::ZERO, egui::Sense::hover()));
        if form.changed.iter().any(|k| k == key) {
            response.mark_changed();
        }
        response
    }
}
