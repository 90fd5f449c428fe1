//! How the person's widget shows a field ([`Look`]): the bridge's own choices (a slider, a
//! unit) and egui's own options on the widget, kept as the app gives them (a slider's
//! orientation, clamping, fill and handle; a text edit's, in `text_look.rs`). Only a slider's
//! clamping changes what agents may set, and it tells the rules so ([`Kind::Number`]'s
//! `clamped`).

use std::borrow::Cow;
use std::hash::{Hash, Hasher};

use egui::SliderClamping;

use super::text_look::TextLook;
use super::{CheckboxInput, ChoiceInput, ColorInput, Kind, NumberInput, Widget};

/// A value's display for the person; the unit words also go into the rules agents read.
#[derive(Clone, Debug, Default)]
pub(in crate::declare) struct Look {
    pub widget: Widget,
    pub prefix: Cow<'static, str>,
    pub suffix: Cow<'static, str>,
    pub logarithmic: bool,
    /// How the person reads a number (`0` as "∞"), where the app has its own way.
    pub formatter: Option<fn(f64) -> String>,
    /// A sentence for both: the person's tooltip, and words after the rules for agents.
    pub hint: Option<Cow<'static, str>>,
    /// Greyed text in an empty text edit (egui's `hint_text`), for the person.
    pub placeholder: Option<Cow<'static, str>>,
    /// The widget's width (a text edit's `desired_width`, a combo box's `width`).
    pub width: Option<f32>,
    /// How fast a drag value moves per point dragged.
    pub speed: Option<f64>,
    /// When a slider keeps values in its range (egui's own default: always).
    pub clamping: SliderClamping,
    /// A slider's smart aim (egui's `smart_aim`; on unless the app says).
    pub smart_aim: Option<bool>,
    /// A vertical slider.
    pub vertical: bool,
    /// A slider's rail filled up to its handle (egui's `trailing_fill`).
    pub trailing_fill: Option<bool>,
    /// A slider's handle (egui's `handle_shape`).
    pub handle_shape: Option<egui::style::HandleShape>,
    /// A checkbox drawn mixed, neither on nor off (egui's `Checkbox::indeterminate`).
    pub indeterminate: bool,
    /// How a colour picker treats alpha (egui's `color_picker::Alpha`; the bridge's own: only
    /// blending, which agents' `#rrggbbaa` can say).
    pub alpha: Option<PickerAlpha>,
    /// A text edit's options, egui's own.
    pub text: TextLook,
}

/// egui's `color_picker::Alpha`, which has no `Debug`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::declare) struct PickerAlpha(pub egui::color_picker::Alpha);

impl std::fmt::Debug for PickerAlpha {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Alpha({})", self.0 as u8)
    }
}

/// A slider's handle as it is hashed (egui's `HandleShape` is not).
fn handle_key(shape: egui::style::HandleShape) -> Option<u32> {
    match shape {
        egui::style::HandleShape::Circle => None,
        egui::style::HandleShape::Rect { aspect_ratio } => Some(aspect_ratio.to_bits()),
    }
}

impl PartialEq for Look {
    fn eq(&self, other: &Self) -> bool {
        let same_format = match (self.formatter, other.formatter) {
            (Some(a), Some(b)) => std::ptr::fn_addr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        (self.widget, &self.prefix, &self.suffix, self.logarithmic, &self.hint, &self.placeholder)
            == (other.widget, &other.prefix, &other.suffix, other.logarithmic, &other.hint, &other.placeholder)
            && (self.width, self.speed) == (other.width, other.speed)
            && (self.clamping, self.smart_aim, self.vertical) == (other.clamping, other.smart_aim, other.vertical)
            && (self.trailing_fill, self.handle_shape, self.indeterminate, self.alpha)
                == (other.trailing_fill, other.handle_shape, other.indeterminate, other.alpha)
            && self.text == other.text
            && same_format
    }
}

impl Look {
    /// Hashes what [`PartialEq`] compares, but for the functions (compared by address: an app
    /// makes a new layouter every pass).
    pub(super) fn hash_into<H: Hasher>(&self, h: &mut H) {
        (self.widget, &self.prefix, &self.suffix, self.logarithmic, &self.hint, &self.placeholder).hash(h);
        (self.width.map(f32::to_bits), self.speed.map(f64::to_bits), self.clamping, self.smart_aim, self.vertical)
            .hash(h);
        (self.trailing_fill, self.handle_shape.map(handle_key), self.indeterminate).hash(h);
        self.alpha.map(|a| a.0 as u8).hash(h);
        self.text.hash_into(h);
    }
}

// egui's own options on the person's widget.
impl NumberInput {
    /// When a slider keeps values in its range (implies [`slider`](Self::slider)), as
    /// egui's `Slider::clamping`. With `SliderClamping::Never` the person can type any number
    /// into the slider's value box (the rail still ends at the range), and an agent may set any
    /// number the value's type holds.
    ///
    /// ```
    /// use egui_mcp_bridge::Input;
    /// use serde_json::json;
    ///
    /// let zoom = Input::number("Zoom", 0.0..=4.0).clamping(egui::SliderClamping::Never);
    /// assert_eq!(zoom.check(&json!(12)).unwrap(), json!(12.0));
    /// ```
    #[must_use]
    pub fn clamping(mut self, clamping: SliderClamping) -> Self {
        if let Kind::Number { clamped, .. } = &mut self.0.kind {
            *clamped = clamping != SliderClamping::Never;
            self.0.look.clamping = clamping;
            self.0.look.widget = Widget::Slider;
        }
        self
    }

    /// A slider's smart aim (implies [`slider`](Self::slider)), as egui's
    /// `Slider::smart_aim`: on, dragging prefers round numbers; off, it takes the exact value
    /// under the pointer.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut ratio = 0.5_f64;
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("mix").title("Mix").ui(ui, |w, ui| {
    ///     w.form(ui, "mix", |f| {
    ///         f.edit("ratio", &Input::number("Ratio", 0.0..=1.0).smart_aim(false), &mut ratio);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn smart_aim(mut self, on: bool) -> Self {
        self.0.look.smart_aim = Some(on);
        self.0.look.widget = Widget::Slider;
        self
    }

    /// A vertical slider (implies [`slider`](Self::slider)), as egui's `Slider::vertical`.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut level = 3_u8;
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("mixer").title("Mixer").ui(ui, |w, ui| {
    ///     w.form(ui, "channel", |f| {
    ///         f.edit("level", &Input::integer("Level", 0..=10).vertical(), &mut level);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn vertical(mut self) -> Self {
        self.0.look.vertical = true;
        self.0.look.widget = Widget::Slider;
        self
    }

    /// A slider's rail filled from its start up to the handle (implies
    /// [`slider`](Self::slider)), as egui's `Slider::trailing_fill`: how much of the range is
    /// used, at a glance. Agents read and set the number the same either way.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut volume = 0.7_f32;
    /// use egui::style::HandleShape;
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("mixer").title("Mixer").ui(ui, |w, ui| {
    ///     w.form(ui, "mixer", |f| {
    ///         let input = Input::number("Volume", 0.0..=1.0).trailing_fill(true);
    ///         f.edit("volume", &input.handle_shape(HandleShape::Rect { aspect_ratio: 0.5 }), &mut volume);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn trailing_fill(mut self, fill: bool) -> Self {
        self.0.look.trailing_fill = Some(fill);
        self.0.look.widget = Widget::Slider;
        self
    }

    /// A slider's handle (implies [`slider`](Self::slider)), as egui's
    /// `Slider::handle_shape`: a circle, or a rectangle of an aspect ratio (see
    /// [`trailing_fill`](Self::trailing_fill)).
    #[must_use]
    pub fn handle_shape(mut self, shape: egui::style::HandleShape) -> Self {
        self.0.look.handle_shape = Some(shape);
        self.0.look.widget = Widget::Slider;
        self
    }
}

impl CheckboxInput {
    /// A tri-state checkbox, as egui's `Checkbox::indeterminate`: while `mixed` (a
    /// "select all" over some of its items) it is drawn neither on nor off, and agents read the
    /// `bool` the app holds with "now mixed" in the field's rules. Agents set it `true` or
    /// `false`, as the person's click does.
    ///
    /// ```
    /// use egui_mcp_bridge::Input;
    ///
    /// let items = [true, false, true];
    /// let all = Input::checkbox("All").indeterminate(items.iter().any(|b| *b) && !items.iter().all(|b| *b));
    /// assert_eq!(all.rules(), "true/false, now mixed (some, not all): shown as neither");
    /// ```
    #[must_use]
    pub fn indeterminate(mut self, mixed: bool) -> Self {
        self.0.look.indeterminate = mixed;
        self
    }
}

impl ChoiceInput {
    /// Its radio buttons or selectable labels one under another (egui's `ui.vertical`)
    /// instead of in a row that wraps.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut size = 1;
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("shirt").title("Shirt").ui(ui, |w, ui| {
    ///     w.form(ui, "shirt", |f| {
    ///         let sizes = [(0, "Small"), (1, "Medium"), (2, "Large")];
    ///         f.choice("size", &Input::choice("Size").radio().vertical(), &mut size, &sizes);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn vertical(mut self) -> Self {
        self.0.look.vertical = true;
        self
    }
}

impl ColorInput {
    /// How the colour picker treats alpha, as egui's `color_picker::Alpha`: `Opaque`
    /// shows no alpha, `BlendOrAdditive` also offers additive colours (the bridge's own:
    /// `OnlyBlend`). For an `egui::Color32` or an `egui::Rgba`. An additive colour is one the
    /// person can pick and agents read as transparent (`#rrggbbaa` names none).
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut fill = egui::Color32::LIGHT_BLUE;
    /// use egui::color_picker::Alpha;
    /// use egui_mcp_bridge::Input;
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("shape").title("Shape").ui(ui, |w, ui| {
    ///     w.form(ui, "shape", |f| {
    ///         f.edit("fill", &Input::color("Fill").alpha(Alpha::BlendOrAdditive), &mut fill);
    ///     });
    /// });
    /// # });
    /// ```
    #[must_use]
    pub fn alpha(mut self, alpha: egui::color_picker::Alpha) -> Self {
        self.0.look.alpha = Some(PickerAlpha(alpha));
        self
    }
}
