//! Colours a form field edits: bytes (`egui::Color32`, `[u8; 4]`, `[u8; 3]`), linear floats
//! (`egui::Rgba`, `[f32; 4]`, `[f32; 3]`) and premultiplied arrays ([`Premultiplied`]). Agents
//! read and write each as `#rrggbbaa` (floats too for a colour in floats), and what they write is
//! what egui's picker for the type holds once it has shown it.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::super::input::{Input, Kind, color_text, parse_color, parse_floats};
use super::{Editable, sealed};

impl sealed::Sealed for egui::Color32 {}
impl sealed::Sealed for [u8; 4] {}
impl sealed::Sealed for [u8; 3] {}
impl sealed::Sealed for egui::Rgba {}
impl sealed::Sealed for [f32; 4] {}
impl sealed::Sealed for [f32; 3] {}

impl Editable for egui::Color32 {
    fn to_value(&self) -> Value {
        Value::String(color_text(self.to_srgba_unmultiplied()))
    }

    fn set(&mut self, checked: &Value) {
        if let Some([r, g, b, a]) = checked.as_str().and_then(parse_color) {
            *self = egui::Color32::from_rgba_unmultiplied(r, g, b, a);
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        egui::widgets::color_picker::color_edit_button_srgba(ui, self, alpha(input))
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Color { .. })
    }

    fn widget_holds(checked: &Value) -> Value {
        let mut c = Self::default();
        c.set(checked);
        // The picker's round trip (egui's `color_edit_button_srgba`).
        let held = Self::from(egui::ecolor::Hsva::from(c));
        held.to_value()
    }
}

/// A colour as four bytes, not premultiplied (egui's `color_edit_button_srgba_unmultiplied`).
impl Editable for [u8; 4] {
    fn to_value(&self) -> Value {
        Value::String(color_text(*self))
    }

    fn set(&mut self, checked: &Value) {
        if let Some(c) = checked.as_str().and_then(parse_color) {
            *self = c;
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, _input: &Input) -> egui::Response {
        ui.color_edit_button_srgba_unmultiplied(self)
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Color { .. })
    }

    fn widget_holds(checked: &Value) -> Value {
        let mut c = [0; 4];
        c.set(checked);
        // The picker's round trip (egui's `color_edit_button_srgba_unmultiplied`).
        let rgba = egui::Rgba::from_srgba_unmultiplied(c[0], c[1], c[2], c[3]);
        egui::Rgba::from(egui::ecolor::Hsva::from(rgba)).to_srgba_unmultiplied().to_value()
    }
}

/// An opaque colour as three bytes (egui's `color_edit_button_srgb`): agents write `#rrggbb`.
impl Editable for [u8; 3] {
    fn to_value(&self) -> Value {
        let [r, g, b] = *self;
        Value::String(color_text([r, g, b, 255]))
    }

    fn set(&mut self, checked: &Value) {
        if let Some([r, g, b, _]) = checked.as_str().and_then(parse_color) {
            *self = [r, g, b];
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, _input: &Input) -> egui::Response {
        ui.color_edit_button_srgb(self)
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Color { .. })
    }

    fn widget_holds(checked: &Value) -> Value {
        let mut c = [0; 3];
        c.set(checked);
        let held = egui::Color32::from(egui::ecolor::Hsva::from(egui::Color32::from_rgb(c[0], c[1], c[2])));
        [held.r(), held.g(), held.b()].to_value()
    }
}

/// How the input's colour picker treats alpha (the bridge's own: only blending).
fn alpha(input: &Input) -> egui::color_picker::Alpha {
    input.look.alpha.map_or(egui::color_picker::Alpha::OnlyBlend, |a| a.0)
}

/// What egui's pickers of a colour in floats hold once they have shown `rgba`: its round trip
/// through their own colour space (`color_edit_button_rgba`).
fn picker_holds(rgba: egui::Rgba) -> egui::Rgba {
    egui::Rgba::from(egui::ecolor::Hsva::from(rgba))
}

/// A checked colour (`#rrggbbaa`, or floats) as linear floats, not premultiplied.
fn checked_floats(checked: &Value) -> Option<[f32; 4]> {
    if let Some([r, g, b, a]) = checked.as_str().and_then(parse_color) {
        return Some(egui::Rgba::from_srgba_unmultiplied(r, g, b, a).to_rgba_unmultiplied());
    }
    let f = parse_floats(checked)?;
    #[allow(clippy::cast_possible_truncation)] // the picker's own precision
    Some([f[0] as f32, f[1] as f32, f[2] as f32, f.get(3).map_or(1.0, |a| *a as f32)])
}

/// What a float picker holds of a checked colour: for `#rrggbbaa`, as agents then read it (a
/// value the picker would change is refused, as for a byte colour: a nearly transparent one);
/// floats are taken as they are, and the picker holds them as it holds the person's (its round
/// trip on the next frame it shows them, to a float's last bits), so every value it holds is
/// one an agent can write.
fn float_picker_holds(checked: &Value) -> Value {
    match checked_floats(checked) {
        Some([r, g, b, a]) if checked.is_string() => {
            let held = picker_holds(egui::Rgba::from_rgba_unmultiplied(r, g, b, a));
            Value::String(color_text(held.to_srgba_unmultiplied()))
        }
        _ => checked.clone(),
    }
}

/// A colour in linear floats, premultiplied inside (egui's `color_edit_button_rgba`, with the
/// input's [`alpha`](crate::ColorInput::alpha)).
impl Editable for egui::Rgba {
    fn to_value(&self) -> Value {
        Value::String(color_text(self.to_srgba_unmultiplied()))
    }

    fn set(&mut self, checked: &Value) {
        if let Some([r, g, b, a]) = checked_floats(checked) {
            *self = Self::from_rgba_unmultiplied(r, g, b, a);
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        egui::widgets::color_picker::color_edit_button_rgba(ui, self, alpha(input))
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Color { .. })
    }

    fn narrow(input: &Input) -> Cow<'_, Input> {
        input.for_float_color()
    }

    fn widget_holds(checked: &Value) -> Value {
        float_picker_holds(checked)
    }
}

/// A colour as four linear floats, not premultiplied (egui's
/// `color_edit_button_rgba_unmultiplied`).
impl Editable for [f32; 4] {
    fn to_value(&self) -> Value {
        let [r, g, b, a] = *self;
        Value::String(color_text(egui::Rgba::from_rgba_unmultiplied(r, g, b, a).to_srgba_unmultiplied()))
    }

    fn set(&mut self, checked: &Value) {
        if let Some([r, g, b, a]) = checked_floats(checked) {
            *self = [r, g, b, a];
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, _input: &Input) -> egui::Response {
        ui.color_edit_button_rgba_unmultiplied(self)
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Color { .. })
    }

    fn narrow(input: &Input) -> Cow<'_, Input> {
        input.for_float_color()
    }

    fn widget_holds(checked: &Value) -> Value {
        float_picker_holds(checked)
    }
}

/// An opaque colour as three linear floats (egui's `color_edit_button_rgb`): an alpha other
/// than 1 is refused.
impl Editable for [f32; 3] {
    fn to_value(&self) -> Value {
        let [r, g, b] = *self;
        Value::String(color_text(egui::Rgba::from_rgb(r, g, b).to_srgba_unmultiplied()))
    }

    fn set(&mut self, checked: &Value) {
        if let Some([r, g, b, _]) = checked_floats(checked) {
            *self = [r, g, b];
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, _input: &Input) -> egui::Response {
        ui.color_edit_button_rgb(self)
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Color { .. })
    }

    fn narrow(input: &Input) -> Cow<'_, Input> {
        input.for_float_color()
    }

    fn widget_holds(checked: &Value) -> Value {
        match checked_floats(checked) {
            // An alpha: held opaque.
            Some([r, g, b, a]) if a != 1.0 => match checked {
                Value::String(_) => Value::String(color_text(egui::Rgba::from_rgb(r, g, b).to_srgba_unmultiplied())),
                _ => json!([r, g, b, 1.0]),
            },
            _ => float_picker_holds(checked),
        }
    }
}

/// A colour the app holds premultiplied, `[u8; 4]` (sRGBA) or `[f32; 4]` (linear), for an
/// [`Input::color`] field: egui's `color_edit_button_srgba_premultiplied` or
/// `color_edit_button_rgba_premultiplied` (whose picker also offers additive colours). Agents
/// read and write it not premultiplied, as for any colour (`#rrggbbaa`; the floats too for
/// `[f32; 4]`); an additive colour the person picks reads as transparent. A borrow, so that
/// the app's own array is edited.
///
/// ```
/// # let bridge = egui_mcp_bridge::Bridge::builder().build();
/// # let mut tint = [64_u8, 0, 0, 128];
/// use egui_mcp_bridge::{Input, Premultiplied};
///
/// # egui::__run_test_ui(|ui| {
/// bridge.window("paint").title("Paint").ui(ui, |w, ui| {
///     w.form(ui, "paint", |f| {
///         // Agents read #80000080: red at half alpha, not premultiplied.
///         f.edit("tint", &Input::color("Tint"), &mut Premultiplied(&mut tint));
///     });
/// });
/// # });
/// ```
#[derive(Debug)]
pub struct Premultiplied<'a, T>(pub &'a mut T);

impl sealed::Sealed for Premultiplied<'_, [u8; 4]> {}
impl sealed::Sealed for Premultiplied<'_, [f32; 4]> {}

/// As an `egui::Color32`, which is premultiplied sRGBA: the same picker, the same round trip.
impl Editable for Premultiplied<'_, [u8; 4]> {
    fn to_value(&self) -> Value {
        let [r, g, b, a] = *self.0;
        egui::Color32::from_rgba_premultiplied(r, g, b, a).to_value()
    }

    fn set(&mut self, checked: &Value) {
        let mut c = egui::Color32::default();
        c.set(checked);
        *self.0 = c.to_array();
    }

    fn widget(&mut self, ui: &mut egui::Ui, _input: &Input) -> egui::Response {
        ui.color_edit_button_srgba_premultiplied(self.0)
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Color { .. })
    }

    fn widget_holds(checked: &Value) -> Value {
        egui::Color32::widget_holds(checked)
    }
}

impl Editable for Premultiplied<'_, [f32; 4]> {
    fn to_value(&self) -> Value {
        let [r, g, b, a] = *self.0;
        egui::Rgba::from_rgba_premultiplied(r, g, b, a).to_value()
    }

    fn set(&mut self, checked: &Value) {
        let mut c = egui::Rgba::default();
        c.set(checked);
        *self.0 = c.to_array();
    }

    fn widget(&mut self, ui: &mut egui::Ui, _input: &Input) -> egui::Response {
        ui.color_edit_button_rgba_premultiplied(self.0)
    }

    fn fits(input: &Input) -> bool {
        matches!(input.kind, Kind::Color { .. })
    }

    fn narrow(input: &Input) -> Cow<'_, Input> {
        input.for_float_color()
    }

    fn widget_holds(checked: &Value) -> Value {
        float_picker_holds(checked)
    }
}
