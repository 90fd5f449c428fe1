//! The values a form field edits ([`Editable`]): text, every Rust number type, a yes/no, a
//! colour (in `editable/colour.rs`). Each gives agents its value, takes a value its [`Input`]
//! checked, and draws the person's widget by the input's rules (a switch and the number widgets
//! are here too).

use std::borrow::Cow;

use serde_json::{Value, json};

use super::input::{Input, Kind, Lines, TEXT_CHARS, Widget};

mod colour;
pub use colour::Premultiplied;

/// A value a [`Form::edit`](crate::Form::edit) field edits: text (`String`), a number (every
/// Rust number type), a yes/no (`bool`) or a colour (`egui::Color32`, `[u8; 4]`, `[u8; 3]`, and
/// in linear floats `egui::Rgba`, `[f32; 4]`, `[f32; 3]`).
pub trait Editable: sealed::Sealed {
    /// The value as agents read it.
    fn to_value(&self) -> Value;
    /// Sets it from a value [`Input::check`] accepted.
    fn set(&mut self, checked: &Value);
    /// The person's widget for it, following `input`'s rules.
    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response;
    /// Whether this type holds values of `input`'s kind.
    #[doc(hidden)]
    fn fits(input: &Input) -> bool;
    /// `input` narrowed to what this type can hold.
    #[doc(hidden)]
    fn narrow(input: &Input) -> Cow<'_, Input> {
        Cow::Borrowed(input)
    }
    /// The widget with the input's label in it (a checkbox's text), for a field drawn on its own
    /// ([`WindowUi::inline_form`](crate::WindowUi::inline_form)); `None`: a label beside it.
    #[doc(hidden)]
    fn labelled_widget(&mut self, _ui: &mut egui::Ui, _input: &Input) -> Option<egui::Response> {
        None
    }
    /// What the person's widget holds once given `checked` (a colour picker's round trip
    /// through its own colour space may change a nearly transparent colour): a value the widget
    /// would change is refused, so that what an agent set is what the window then shows.
    #[doc(hidden)]
    fn widget_holds(checked: &Value) -> Value {
        checked.clone()
    }
}

mod sealed {
    pub trait Sealed {}
}

impl sealed::Sealed for String {}
impl sealed::Sealed for bool {}

impl Editable for String {
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }

    fn set(&mut self, checked: &Value) {
        if let Value::String(s) = checked {
            self.clone_from(s);
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        let Kind::Text { max_chars, secret, lines, .. } = input.kind else {
            return ui.add(egui::TextEdit::singleline(self).char_limit(TEXT_CHARS));
        };
        let edit = match lines {
            Lines::One => egui::TextEdit::singleline(self),
            Lines::Many => egui::TextEdit::multiline(self).desired_rows(3),
            Lines::Code => egui::TextEdit::multiline(self).code_editor().desired_rows(4),
        };
        let mut edit = edit.char_limit(max_chars).password(secret);
        if let Some(text) = &input.look.placeholder {
            edit = edit.hint_text(text.as_ref());
        }
        if let Some(width) = input.look.width {
            edit = edit.desired_width(width);
        }
        // egui's own options, as the app gave them.
        let text = &input.look.text;
        if let Some(rows) = text.rows {
            edit = edit.desired_rows(rows);
        }
        if let Some(lock) = text.lock_focus {
            edit = edit.lock_focus(lock);
        }
        if let Some(font) = &text.font {
            edit = edit.font(font.clone());
        }
        edit = edit.text_color_opt(text.color);
        if let Some(align) = text.align {
            edit = edit.align(align);
        }
        if let Some(color) = text.background {
            edit = edit.background_color(color);
        }
        if let Some(margin) = text.margin {
            edit = edit.margin(margin);
        }
        if let Some(clip) = text.clip {
            edit = edit.clip_text(clip);
        }
        if let Some(options) = &text.edit {
            // The app's own options, then the field's rules again: they stay the bridge's.
            edit = (options.0)(edit).char_limit(max_chars).password(secret);
        }
        let mut layouter = text
            .layouter
            .as_ref()
            .map(|l| |ui: &egui::Ui, text: &dyn egui::TextBuffer, wrap: f32| (l.0)(ui, text, wrap));
        if let Some(layouter) = &mut layouter {
            edit = edit.layouter(layouter);
        }
        let response = match text.size {
            Some(size) => ui.add_sized(size, edit),
            None => ui.add(edit),
        };
        if lines == Lines::One && response.changed() && self.contains(['\n', '\r']) {
            // One line, as an agent's must be (egui inserts a text event holding a line break).
            self.retain(|c| c != '\n' && c != '\r');
        }
        response
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Text { .. })
    }
}

impl Editable for bool {
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }

    fn set(&mut self, checked: &Value) {
        if let Value::Bool(b) = checked {
            *self = *b;
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        match input.look.widget {
            Widget::Switch => switch(ui, self),
            Widget::Selectable => ui.toggle_value(self, input.label()),
            _ => ui.add(egui::Checkbox::new(self, "").indeterminate(input.look.indeterminate)),
        }
    }

    fn fits(input: &Input) -> bool {
        input.kind == Kind::Bool
    }

    fn labelled_widget(&mut self, ui: &mut egui::Ui, input: &Input) -> Option<egui::Response> {
        Some(match input.look.widget {
            Widget::Switch => {
                ui.horizontal(|ui| {
                    let r = switch(ui, self);
                    let l = ui.label(input.label());
                    r.labelled_by(l.id)
                })
                .inner
            }
            Widget::Selectable => ui.toggle_value(self, input.label()),
            _ => ui.add(egui::Checkbox::new(self, input.label()).indeterminate(input.look.indeterminate)),
        })
    }
}

/// An angle the app holds in radians, for an [`Input::angle`] field: the person sees and drags
/// it in degrees (egui's `drag_angle`), and agents read and write those degrees. A borrow, so
/// that the app's own `f32` is edited: `f.edit("angle", &Input::angle("Angle"), &mut
/// Radians(&mut self.angle))`.
#[derive(Debug)]
pub struct Radians<'a>(pub &'a mut f32);

impl sealed::Sealed for Radians<'_> {}

impl Editable for Radians<'_> {
    /// The degrees egui's `drag_angle` holds (its shortest decimal form).
    fn to_value(&self) -> Value {
        number_value(f64::from(self.0.to_degrees()), false, true)
    }

    /// As `drag_angle` takes degrees typed by the person: as an `f32`, into radians, and only
    /// when they differ from the degrees it shows.
    fn set(&mut self, checked: &Value) {
        if let Some(n) = checked.as_f64() {
            #[allow(clippy::cast_possible_truncation)] // what the degrees box holds
            let degrees = n as f32;
            if degrees != self.0.to_degrees() {
                *self.0 = degrees.to_radians();
            }
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, _input: &Input) -> egui::Response {
        ui.drag_angle(self.0)
    }

    fn fits(input: &Input) -> bool {
        input.kind == Kind::Angle
    }
}

/// A toggle switch: a checkbox drawn as a knob in a rounded track (as egui's demo draws one).
fn switch(ui: &mut egui::Ui, on: &mut bool) -> egui::Response {
    let size = ui.spacing().interact_size.y * egui::vec2(2.0, 1.0);
    let (rect, mut response) = ui.allocate_exact_size(size, egui::Sense::click());
    if response.clicked() {
        *on = !*on;
        response.mark_changed();
    }
    response.widget_info(|| egui::WidgetInfo::selected(egui::Role::Switch, ui.is_enabled(), *on, ""));
    if ui.is_rect_visible(rect) {
        let how_on = ui.ctx().animate_bool_responsive(response.id, *on);
        let visuals = ui.style().interact_selectable(&response, *on);
        let rect = rect.expand(visuals.expansion);
        let radius = 0.5 * rect.height();
        ui.painter().rect(rect, radius, visuals.bg_fill, visuals.bg_stroke, egui::StrokeKind::Inside);
        let x = egui::lerp((rect.left() + radius)..=(rect.right() - radius), how_on);
        ui.painter().circle(egui::pos2(x, rect.center().y), 0.75 * radius, visuals.bg_fill, visuals.fg_stroke);
    }
    response
}

/// Numbers of every Rust number type: a drag value or a slider within the input's range and the
/// type's, with the input's decimals and display; an integer type holds whole numbers only.
macro_rules! editable_number {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}

        impl Editable for $t {
            fn to_value(&self) -> Value {
                number_value(egui::emath::Numeric::to_f64(*self), <$t as egui::emath::Numeric>::INTEGRAL, std::mem::size_of::<$t>() == 4)
            }

            fn set(&mut self, checked: &Value) {
                if let Some(n) = checked.as_f64() {
                    *self = <$t as egui::emath::Numeric>::from_f64(n);
                }
            }

            fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
                number_widget(ui, self, input)
            }

            fn fits(input: &Input) -> bool {
                matches!(input.kind, Kind::Number { .. })
            }

            fn narrow(input: &Input) -> Cow<'_, Input> {
                use egui::emath::Numeric as _;
                input.for_number_type(<$t>::INTEGRAL, (<$t>::MIN.to_f64(), <$t>::MAX.to_f64()))
            }
        }
    )*};
}
editable_number!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64);

/// A number as agents read it: whole numbers as integers, an `f32` by its shortest decimal
/// form (`0.1`, not `0.10000000149011612`).
fn number_value(n: f64, integral: bool, single: bool) -> Value {
    if integral {
        return if n < 0.0 { json!(n as i64) } else { json!(n as u64) };
    }
    if single {
        let short = format!("{}", n as f32).parse::<f64>().unwrap_or(n);
        return json!(short);
    }
    json!(n)
}

fn number_widget<N: egui::emath::Numeric>(ui: &mut egui::Ui, value: &mut N, input: &Input) -> egui::Response {
    let Kind::Number { min, max, decimals, step, .. } = input.kind else {
        return ui.add(egui::DragValue::new(value));
    };
    let (lo, hi) = (N::from_f64(min.max(N::MIN.to_f64())), N::from_f64(max.min(N::MAX.to_f64())));
    let look = &input.look;
    let decimals = if N::INTEGRAL { Some(0) } else { decimals.map(usize::from) };
    let response = if look.widget == Widget::Slider {
        let mut slider = egui::Slider::new(value, lo..=hi)
            .prefix(look.prefix.as_ref())
            .suffix(look.suffix.as_ref())
            .logarithmic(look.logarithmic)
            .clamping(look.clamping);
        if let Some(d) = decimals {
            slider = slider.fixed_decimals(d).step_by(10f64.powi(-(d as i32)));
        }
        // egui's own options, as the app gave them (its step after the decimals' own).
        if let Some(step) = step {
            slider = slider.step_by(step);
        }
        if let Some(on) = look.smart_aim {
            slider = slider.smart_aim(on);
        }
        if look.vertical {
            slider = slider.vertical();
        }
        if let Some(fill) = look.trailing_fill {
            slider = slider.trailing_fill(fill);
        }
        if let Some(shape) = look.handle_shape {
            slider = slider.handle_shape(shape);
        }
        if let Some(format) = look.formatter {
            slider = slider.custom_formatter(move |n, _| format(n));
        }
        ui.add(slider)
    } else {
        let mut drag =
            egui::DragValue::new(value).range(lo..=hi).prefix(look.prefix.as_ref()).suffix(look.suffix.as_ref());
        if let Some(speed) = look.speed {
            drag = drag.speed(speed);
        }
        if let Some(d) = decimals {
            drag = drag.fixed_decimals(d);
        }
        if let Some(format) = look.formatter {
            drag = drag.custom_formatter(move |n, _| format(n));
        }
        ui.add(drag)
    };
    if response.changed()
        && let Some(d) = decimals.filter(|d| *d > 0)
    {
        // A typed value holds at most the input's decimals, as an agent's must.
        let scale = 10f64.powi(d as i32);
        *value = N::from_f64((value.to_f64() * scale).round() / scale);
    }
    response
}
