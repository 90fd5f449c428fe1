//! The rules of an editable field, written once ([`Input`]): the person's widget follows them
//! ([`Editable::widget`](super::Editable::widget), `editable.rs`), the derived `edit_field` lists them ([`Input::rules`]) and an
//! agent's value is checked by them ([`Input::check`]).
//!
//! Kinds: a line of text (or several, or code), a secret, a number (drag value or slider, of
//! any of Rust's number types, with its display), a yes/no (checkbox or switch), a choice
//! among options (combo box, radio buttons, selectable labels: `choice.rs`) and a colour.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::ops::RangeInclusive;

mod kinds;
mod look;
mod rules;
mod text_look;

pub use kinds::{AngleInput, CheckboxInput, ChoiceInput, ColorInput, NumberInput, TextInput};

pub(super) use look::Look;
use rules::num;

/// Longest text of a text field without [`TextInput::char_limit`].
pub(super) const TEXT_CHARS: usize = 1000;

/// An editable field's label and rules (kind, range, length, required), written once: the
/// person's widget follows them (a text edit's character limit, a drag value's range and
/// decimals), the derived `edit_field` tool lists them, and an agent's value is checked by
/// them ([`Input::check`]), so the person and the agent never meet different rules.
///
/// ```
/// use egui_mcp_bridge::Input;
/// use serde_json::json;
///
/// let quantity = Input::integer("Quantity", 1..=999);
/// assert!(quantity.check(&json!(3)).is_ok());
/// assert_eq!(quantity.check(&json!(0)).unwrap_err(), "Quantity must be 1 to 999");
/// let name = Input::text("Name").char_limit(5).required();
/// assert_eq!(name.check(&json!("")).unwrap_err(), "Name cannot be empty");
/// let volume = Input::number("Volume", 0.0..=11.0).slider().suffix(" dB");
/// assert_eq!(volume.rules(), "0-11 dB");
/// assert!(Input::checkbox("Timestamps").check(&json!(true)).is_ok());
/// ```
///
/// Each kind is a type of its own with the options it takes ([`TextInput`], [`NumberInput`],
/// [`CheckboxInput`], [`ChoiceInput`], [`ColorInput`], [`AngleInput`]), so an option a kind
/// cannot take does not compile, instead of being ignored:
///
/// ```compile_fail
/// use egui_mcp_bridge::Input;
///
/// // A checkbox has no character limit: a text's option.
/// let _ = Input::checkbox("x").char_limit(3);
/// ```
///
/// ```compile_fail
/// use egui_mcp_bridge::Input;
///
/// // A text is not a slider: a number's option.
/// let _ = Input::text("Name").slider();
/// ```
///
/// A kind is an `Input` wherever one is taken (it derefs to it: `f.edit(key, &Input::text(…),
/// …)`); `.into()` makes one to keep inputs of several kinds in one array or field.
///
#[doc = include_str!("../docs/inputs.md")]
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    label: Cow<'static, str>,
    pub(super) kind: Kind,
    /// How the person's widget shows the value (and the words agents read with the rules).
    pub(super) look: Look,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    Text {
        max_chars: usize,
        secret: bool,
        required: bool,
        lines: Lines,
    },
    Number {
        min: f64,
        max: f64,
        decimals: Option<u8>,
        /// A slider's step (egui's `step_by`): its values are `min` plus whole steps.
        step: Option<f64>,
        /// Whether the person's widget keeps typed values in `min..=max`: a drag value does, a
        /// slider unless it never clamps (egui's `SliderClamping::Never`, [`NumberInput::clamping`]).
        clamped: bool,
        /// What the value's type holds (set by [`Input::for_number_type`]): the bounds of a
        /// slider that never clamps.
        limits: (f64, f64),
    },
    Bool,
    /// One of the options given with the field ([`crate::Form::choice`]).
    Choice,
    /// An angle held in radians, shown to the person and agents in degrees (egui's `drag_angle`).
    Angle,
    /// `floats`: held in floats (linear RGB(A), 0-1), which agents may also write as such.
    Color {
        floats: bool,
    },
}

/// How many lines a text holds, and how it is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Lines {
    One,
    Many,
    Code,
}

/// Which widget the person gets for a kind that has several.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) enum Widget {
    /// The kind's usual one: a text edit, a drag value, a checkbox, a combo box.
    #[default]
    Usual,
    Slider,
    Switch,
    Radio,
    Selectable,
}

impl Input {
    fn new(label: impl Into<Cow<'static, str>>, kind: Kind) -> Self {
        Self { label: label.into(), kind, look: Look::default() }
    }

    /// A line of text: no line break, at most 1,000 characters unless
    /// [`char_limit`](TextInput::char_limit) says.
    pub fn text(label: impl Into<Cow<'static, str>>) -> TextInput {
        TextInput(Self::new(
            label,
            Kind::Text { max_chars: TEXT_CHARS, secret: false, required: false, lines: Lines::One },
        ))
    }

    /// A secret line of text: drawn as dots, read by agents masked at the source (the
    /// plaintext never enters the state), never echoed in a result.
    pub fn secret(label: impl Into<Cow<'static, str>>) -> TextInput {
        TextInput(Self::new(
            label,
            Kind::Text { max_chars: TEXT_CHARS, secret: true, required: false, lines: Lines::One },
        ))
    }

    /// A number in `range` (any decimals unless [`decimals`](NumberInput::decimals) says), drawn as a
    /// drag value ([`slider`](NumberInput::slider) for a slider). Any of Rust's number types holds
    /// it; an integer type takes whole numbers only, within the type's own range too.
    pub fn number(label: impl Into<Cow<'static, str>>, range: RangeInclusive<f64>) -> NumberInput {
        NumberInput(Self::new(label, Kind::number(*range.start(), *range.end(), None)))
    }

    /// A whole number in `range`.
    #[allow(clippy::cast_precision_loss)] // field ranges are far below 2^52
    pub fn integer(label: impl Into<Cow<'static, str>>, range: RangeInclusive<i64>) -> NumberInput {
        let (min, max) = (*range.start() as f64, *range.end() as f64);
        NumberInput(Self::new(label, Kind::number(min, max, Some(0))))
    }

    /// Yes or no, held in a `bool`: a checkbox ([`switch`](CheckboxInput::switch) for a toggle switch).
    pub fn checkbox(label: impl Into<Cow<'static, str>>) -> CheckboxInput {
        CheckboxInput(Self::new(label, Kind::Bool))
    }

    /// One of a list of options, given with the field ([`Form::choice`](crate::Form::choice)):
    /// a combo box ([`radio`](ChoiceInput::radio) or [`selectable`](ChoiceInput::selectable) for the others).
    /// Agents choose by the option's text.
    pub fn choice(label: impl Into<Cow<'static, str>>) -> ChoiceInput {
        ChoiceInput(Self::new(label, Kind::Choice))
    }

    /// A colour, held in an `egui::Color32`, `[u8; 4]` (not premultiplied), `[u8; 3]`, or in
    /// floats (linear): `egui::Rgba`, `[f32; 4]` (not premultiplied), `[f32; 3]`; a
    /// premultiplied array as [`Premultiplied`](crate::Premultiplied): a colour button and
    /// picker, egui's for the type. Agents read and write it as `#rrggbb`, or
    /// `#rrggbbaa` when not opaque (not premultiplied); a colour in floats they may also write
    /// as its floats, `"[r, g, b, a]"` from 0 to 1, since the person's picker holds far more
    /// values than `#rrggbbaa` names. What is written is what the picker holds once it has
    /// shown it (egui's pickers go through their own colour space every frame): a byte colour
    /// the picker would change is refused, naming what it would hold; a float colour is kept as
    /// the picker holds it (a float's last bits).
    pub fn color(label: impl Into<Cow<'static, str>>) -> ColorInput {
        ColorInput(Self::new(label, Kind::Color { floats: false }))
    }

    /// An angle, held in radians in an `f32` given as [`Radians`](crate::Radians), drawn as
    /// egui's `drag_angle` draws it: in degrees. Agents read and write the degrees the person
    /// sees (the rules say so), and an agent's value is held exactly as egui's `drag_angle`
    /// holds the same number typed by the person.
    ///
    /// ```
    /// # let bridge = egui_mcp_bridge::Bridge::builder().build();
    /// # let mut heading = std::f32::consts::FRAC_PI_2;
    /// use egui_mcp_bridge::{Input, Radians};
    ///
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("compass").title("Compass").ui(ui, |w, ui| {
    ///     w.form(ui, "compass", |f| {
    ///         // The person drags "90°"; agents read 90 and write 45 for a quarter of that turn.
    ///         f.edit("heading", &Input::angle("Heading"), &mut Radians(&mut heading));
    ///     });
    /// });
    /// # });
    /// assert_eq!(Input::angle("Heading").rules(), "degrees (held in radians)");
    /// ```
    pub fn angle(label: impl Into<Cow<'static, str>>) -> AngleInput {
        AngleInput(Self::new(label, Kind::Angle))
    }

    /// The label the person reads and agents read the field by.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// A number as the person reads it: with the input's decimals (`224.30`).
    pub(super) fn shown(&self, n: f64) -> String {
        if let Some(format) = self.look.formatter {
            return format(n);
        }
        let n = match self.kind {
            Kind::Number { decimals: Some(d), .. } => format!("{n:.*}", usize::from(d)),
            _ => num(n),
        };
        format!("{}{n}{}", self.look.prefix, self.look.suffix)
    }

    pub(super) fn is_secret(&self) -> bool {
        matches!(self.kind, Kind::Text { secret: true, .. })
    }

    /// The same input for a value of a number type that holds whole numbers only, or a range
    /// narrower than the input's: what the widget of that type can hold is what is checked.
    pub(super) fn for_number_type(&self, integral: bool, (lo, hi): (f64, f64)) -> Cow<'_, Self> {
        let Kind::Number { min, max, decimals, step, clamped, limits } = self.kind else { return Cow::Borrowed(self) };
        let narrowed = Kind::Number {
            min: min.max(lo),
            max: max.min(hi),
            decimals: if integral { Some(0) } else { decimals },
            step,
            clamped,
            limits: (limits.0.max(lo), limits.1.min(hi)),
        };
        if narrowed == self.kind { Cow::Borrowed(self) } else { Cow::Owned(Self { kind: narrowed, ..self.clone() }) }
    }
}

impl TextInput {
    /// At most `n` characters, as egui's `TextEdit::char_limit`.
    #[must_use]
    pub fn char_limit(mut self, n: usize) -> Self {
        if let Kind::Text { max_chars, .. } = &mut self.0.kind {
            *max_chars = n;
        }
        self
    }

    /// Not empty (blanks alone count as empty).
    #[must_use]
    pub fn required(mut self) -> Self {
        if let Kind::Text { required, .. } = &mut self.0.kind {
            *required = true;
        }
        self
    }

    /// Several lines: a multi-line text edit; line breaks are allowed.
    #[must_use]
    pub fn multiline(mut self) -> Self {
        if let Kind::Text { lines, .. } = &mut self.0.kind {
            *lines = Lines::Many;
        }
        self
    }

    /// Code: several lines in a monospace code editor, tabs kept.
    #[must_use]
    pub fn code(mut self) -> Self {
        if let Kind::Text { lines, .. } = &mut self.0.kind {
            *lines = Lines::Code;
        }
        self
    }

    /// Greyed text the person sees in an empty text edit (egui's `hint_text`).
    #[must_use]
    pub fn placeholder(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.0.look.placeholder = Some(text.into());
        self
    }

    /// The text edit's width in points (egui's `TextEdit::desired_width`).
    #[must_use]
    pub fn width(mut self, points: f32) -> Self {
        self.0.look.width = Some(points);
        self
    }
}

impl NumberInput {
    /// At most `n` decimals: `2` for money in whole cents.
    #[must_use]
    pub fn decimals(mut self, n: u8) -> Self {
        if let Kind::Number { decimals, .. } = &mut self.0.kind {
            *decimals = Some(n);
        }
        self
    }

    /// A slider instead of a drag value.
    #[must_use]
    pub fn slider(mut self) -> Self {
        self.0.look.widget = Widget::Slider;
        self
    }

    /// A logarithmic slider (implies [`slider`](Self::slider)).
    #[must_use]
    pub fn logarithmic(mut self) -> Self {
        self.0.look.widget = Widget::Slider;
        self.0.look.logarithmic = true;
        self
    }

    /// Text before the number ("$"), for the person and in the rules agents read.
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<Cow<'static, str>>) -> Self {
        self.0.look.prefix = prefix.into();
        self
    }

    /// Text after the number (" ms", "°"), for the person and in the rules agents read.
    #[must_use]
    pub fn suffix(mut self, suffix: impl Into<Cow<'static, str>>) -> Self {
        self.0.look.suffix = suffix.into();
        self
    }

    /// How the person reads a number, where the app has its own way (`0` shown as "∞"). Agents
    /// read and write the number itself; say what special values mean with [`hint`](Self::hint).
    #[must_use]
    pub fn formatter(mut self, format: fn(f64) -> String) -> Self {
        self.0.look.formatter = Some(format);
        self
    }

    /// How much a drag value changes per point the person drags (egui's `speed`).
    #[must_use]
    pub fn speed(mut self, speed: f64) -> Self {
        self.0.look.speed = Some(speed);
        self
    }

    /// A slider's step (implies [`slider`](Self::slider)), as egui's `Slider::step_by`:
    /// the person's slider holds the range's start plus whole steps, and so does an agent's edit
    /// (another value is refused, naming the step). `0` means none, as in egui.
    ///
    /// ```
    /// use egui_mcp_bridge::Input;
    /// use serde_json::json;
    ///
    /// let gain = Input::number("Gain", 0.0..=10.0).step_by(0.5);
    /// assert_eq!(gain.check(&json!(2.5)).unwrap(), json!(2.5));
    /// assert_eq!(gain.check(&json!(0.3)).unwrap_err(), "Gain must be in steps of 0.5 from 0, 0 to 10");
    /// ```
    #[must_use]
    pub fn step_by(mut self, step: f64) -> Self {
        if let Kind::Number { step: s, .. } = &mut self.0.kind {
            *s = (step != 0.0 && step.is_finite()).then_some(step);
            self.0.look.widget = Widget::Slider;
        }
        self
    }
}

impl CheckboxInput {
    /// A toggle switch instead of a checkbox.
    #[must_use]
    pub fn switch(mut self) -> Self {
        self.0.look.widget = Widget::Switch;
        self
    }

    /// A selectable label that stays pressed while on, instead of a checkbox (egui's
    /// `toggle_value`).
    #[must_use]
    pub fn selectable(mut self) -> Self {
        self.0.look.widget = Widget::Selectable;
        self
    }
}

impl ChoiceInput {
    /// Radio buttons, one per option, instead of a combo box.
    #[must_use]
    pub fn radio(mut self) -> Self {
        self.0.look.widget = Widget::Radio;
        self
    }

    /// Selectable labels side by side, one per option, instead of a combo box.
    #[must_use]
    pub fn selectable(mut self) -> Self {
        self.0.look.widget = Widget::Selectable;
        self
    }

    /// The combo box's width in points (egui's `ComboBox::width`).
    #[must_use]
    pub fn width(mut self, points: f32) -> Self {
        self.0.look.width = Some(points);
        self
    }
}

impl Input {
    /// The same input for a colour held in floats, which agents may also write as floats.
    pub(super) fn for_float_color(&self) -> Cow<'_, Self> {
        match self.kind {
            Kind::Color { floats: false } => Cow::Owned(Self { kind: Kind::Color { floats: true }, ..self.clone() }),
            _ => Cow::Borrowed(self),
        }
    }
}

/// `#rrggbb` or `#rrggbbaa` (any case), not premultiplied.
pub(super) fn parse_color(text: &str) -> Option<[u8; 4]> {
    let hex = text.trim().strip_prefix('#')?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
        return None;
    }
    let byte = |k: usize| u8::from_str_radix(&hex[k..k + 2], 16).ok();
    let alpha = if hex.len() == 8 { byte(6)? } else { 255 };
    Some([byte(0)?, byte(2)?, byte(4)?, alpha])
}

/// A colour in floats as an agent writes it: `"[r, g, b, a]"` or `"[r, g, b]"` (brackets and
/// commas optional), or a JSON array of them, each from 0 to 1.
pub(super) fn parse_floats(value: &serde_json::Value) -> Option<Vec<f64>> {
    let floats: Vec<f64> = match value {
        serde_json::Value::Array(items) => items.iter().map(serde_json::Value::as_f64).collect::<Option<_>>()?,
        serde_json::Value::String(text) => text
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split([',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().ok())
            .collect::<Option<_>>()?,
        _ => return None,
    };
    let in_range = floats.iter().all(|f| (0.0..=1.0).contains(f));
    ((floats.len() == 3 || floats.len() == 4) && in_range).then_some(floats)
}

/// A colour as agents read it: `#rrggbb` when opaque, else `#rrggbbaa`.
pub(super) fn color_text([r, g, b, a]: [u8; 4]) -> String {
    if a == 255 { format!("#{r:02x}{g:02x}{b:02x}") } else { format!("#{r:02x}{g:02x}{b:02x}{a:02x}") }
}

impl Hash for Input {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.label.hash(h);
        match self.kind {
            Kind::Text { max_chars, secret, required, lines } => (0u8, max_chars, secret, required, lines).hash(h),
            Kind::Number { min, max, decimals, step, clamped, limits } => {
                (1u8, min.to_bits(), max.to_bits(), decimals, step.map(f64::to_bits), clamped).hash(h);
                (limits.0.to_bits(), limits.1.to_bits()).hash(h);
            }
            Kind::Bool => 2u8.hash(h),
            Kind::Choice => 3u8.hash(h),
            Kind::Color { floats } => (4u8, floats).hash(h),
            Kind::Angle => 5u8.hash(h),
        }
        self.look.hash_into(h);
    }
}

impl Kind {
    /// A number in `min..=max`, drawn as egui's widgets are by default (a slider clamps always).
    fn number(min: f64, max: f64, decimals: Option<u8>) -> Self {
        let limits = (f64::NEG_INFINITY, f64::INFINITY);
        Self::Number { min, max, decimals, step: None, clamped: true, limits }
    }
}
