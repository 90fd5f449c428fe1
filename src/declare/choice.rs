//! A choice among options, for both audiences ([`Form::choice`]): a combo box, radio buttons
//! or selectable labels for the person, the chosen option's text for agents, who choose by an
//! option's text.

use serde_json::Value;

use super::check::{display, pick};
use super::form::{hinted, misfit};
use super::{ChoiceInput, Form, Input};
use crate::protocol::{FieldItem, ToolError};

impl Form<'_> {
    /// One of `options` (each a value and the text the person and agents read it by): a combo
    /// box, radio buttons or selectable labels as `input` says ([`Input::choice`]), and the field
    /// agents read as the chosen option's text and set through `edit_field` with any option's
    /// text (the schema lists them). A value that matches no option reads as `null`.
    ///
    /// ```
    /// use egui_mcp_bridge::{Bridge, Input};
    ///
    /// #[derive(Clone, Copy, PartialEq)]
    /// enum Parity { None, Even, Odd }
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut parity, mut baud) = (Parity::None, 9600_u32);
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("port").title("Port").ui(ui, |w, ui| {
    ///     w.form(ui, "settings", |f| {
    ///         let options = [(Parity::None, "None"), (Parity::Even, "Even"), (Parity::Odd, "Odd")];
    ///         f.choice("parity", &Input::choice("Parity").radio(), &mut parity, &options);
    ///         let bauds = [9600, 19200, 115_200].map(|b| (b, b.to_string()));
    ///         f.choice("baud", &Input::choice("Baud rate"), &mut baud, &bauds);
    ///     });
    /// });
    /// # });
    /// ```
    pub fn choice<T: PartialEq + Clone, S: AsRef<str>>(
        &mut self,
        key: &str,
        input: &ChoiceInput,
        value: &mut T,
        options: &[(T, S)],
    ) -> egui::Response {
        self.any_choice(key, input, value, options, &[])
    }

    /// [`choice`](Self::choice) with a tooltip on each option (`(value, text, hint)`): the
    /// person reads it over the option, agents after the option's text in `edit_field`'s
    /// description.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut theme = 0_u8;
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("look").title("Look").ui(ui, |w, ui| {
    ///     w.form(ui, "look", |f| {
    ///         let themes = [(0, "System", "Follow the system theme"), (1, "Light", "Always light"), (2, "Dark", "Always dark")];
    ///         f.choice_hinted("theme", &Input::choice("Theme").selectable(), &mut theme, &themes);
    ///     });
    /// });
    /// # });
    /// ```
    pub fn choice_hinted<T: PartialEq + Clone, S: AsRef<str>, H: AsRef<str>>(
        &mut self,
        key: &str,
        input: &ChoiceInput,
        value: &mut T,
        options: &[(T, S, H)],
    ) -> egui::Response {
        let pairs: Vec<(T, &str)> = options.iter().map(|(v, t, _)| (v.clone(), t.as_ref())).collect();
        let hints: Vec<&str> = options.iter().map(|(_, _, h)| h.as_ref()).collect();
        self.any_choice(key, input, value, &pairs, &hints)
    }

    fn any_choice<T: PartialEq + Clone, S: AsRef<str>>(
        &mut self,
        key: &str,
        input: &Input,
        value: &mut T,
        options: &[(T, S)],
        hints: &[&str],
    ) -> egui::Response {
        if input.kind != super::input::Kind::Choice {
            misfit(&self.w.state, &self.w.decl.app_id, key, "a choice of options");
        }
        let label = input.label();
        let chosen = |value: &T| options.iter().find(|(v, _)| v == value).map(|(_, t)| t.as_ref().to_owned());
        if !self.editable {
            let shown = chosen(value).map_or(Value::Null, Value::String);
            let response = self.put(label, |ui| ui.label(display(&shown)));
            self.declare(FieldItem::new(label, shown));
            return response;
        }
        let enabled = self.app_enabled();
        if !enabled {
            self.refuse_disabled(key, label);
        } else if let Some(checked) = self.w.edits.multi_value(key) {
            // Checked against the options the call was claimed by; should they have changed
            // since, the field is not set, and the answer does not name it.
            if let Ok(k) = pick(label, options, &checked) {
                *value = options[k].0.clone();
                self.w.edits.written(label);
                self.changed.push(key.to_owned());
            }
        } else if let Some(call) = self.w.edits.take_for(key) {
            match pick(label, options, call.args().value()) {
                Ok(k) => {
                    *value = options[k].0.clone();
                    self.changed.push(key.to_owned());
                    call.ok(format!("{label} is {}", options[k].1.as_ref()));
                }
                Err(e) => call.fail(ToolError::invalid_field("value", e)),
            }
        }
        let response = self.put(label, |ui| choice_widget(ui, key, input, value, (options, hints)));
        let response = hinted(response, input);
        if response.changed() {
            self.changed.push(key.to_owned());
        }
        let item = FieldItem::new(label, chosen(value).map_or(Value::Null, Value::String));
        let texts = options.iter().map(|(_, t)| t.as_ref().to_owned()).collect();
        let hints = hints.iter().map(|h| (*h).to_owned()).collect();
        self.declare_editable(key, input, item, enabled, (Some(texts), hints, Value::clone));
        response
    }
}

/// The person's widget for a choice: a combo box, radio buttons or selectable labels.
fn choice_widget<T: PartialEq + Clone, S: AsRef<str>>(
    ui: &mut egui::Ui,
    key: &str,
    input: &Input,
    value: &mut T,
    (options, hints): (&[(T, S)], &[&str]),
) -> egui::Response {
    use super::input::Widget;
    // An option's tooltip, if it has one.
    let hinted = |r: egui::Response, k: usize| match hints.get(k) {
        Some(h) if !h.is_empty() => r.on_hover_text(*h),
        _ => r,
    };
    match input.look.widget {
        Widget::Radio | Widget::Selectable => {
            let radio = input.look.widget == Widget::Radio;
            // The row's label names the group; each button keeps its own option's text.
            let buttons = |ui: &mut egui::Ui| {
                let mut changed = false;
                for (k, (v, text)) in options.iter().enumerate() {
                    let r = if radio {
                        ui.radio_value(value, v.clone(), text.as_ref())
                    } else {
                        ui.selectable_value(value, v.clone(), text.as_ref())
                    };
                    changed |= hinted(r, k).changed();
                }
                changed
            };
            // One under another (egui's `ui.vertical`), or in a row that wraps.
            let group = if input.look.vertical { ui.vertical(buttons) } else { ui.horizontal_wrapped(buttons) };
            let mut response = group.response;
            if group.inner {
                response.mark_changed();
            }
            response
        }
        _ => {
            let selected = options.iter().find(|(v, _)| v == value).map_or("", |(_, t)| t.as_ref());
            let mut changed = false;
            let mut combo = egui::ComboBox::from_id_salt(("egui_mcp_bridge::choice", key)).selected_text(selected);
            if let Some(width) = input.look.width {
                combo = combo.width(width);
            }
            let combo = combo.show_ui(ui, |ui| {
                for (k, (v, text)) in options.iter().enumerate() {
                    changed |= hinted(ui.selectable_value(value, v.clone(), text.as_ref()), k).changed();
                }
            });
            let mut response = combo.response;
            if changed {
                response.mark_changed();
            }
            response
        }
    }
}
