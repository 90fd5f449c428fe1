//! The rules of an editable field, written once ([`Input`]): the person's widget follows them
//! ([`Editable::widget`]), the derived `edit_field` lists them ([`Input::rules`]) and an
//! agent's value is checked by them ([`Input::check`]).
//!
//! Kinds: a line of text (or several, or code), a secret, a number (drag value or slider, of
//! any of Rust's number types, with its display), a yes/no (checkbox or switch), a choice
//! among options (combo box, radio buttons, selectable labels: `form.rs`) and a colour.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::ops::RangeInclusive;

use serde_json::{Value, json};

/// Longest text of a text field without [`Input::char_limit`].
const TEXT_CHARS: usize = 1000;

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
    },
    Bool,
    /// One of the options given with the field ([`crate::Form::choice`]).
    Choice,
    Color,
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

/// A value's display for the person; the unit words also go into the rules agents read.
#[derive(Clone, Debug, Default)]
pub(super) struct Look {
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
            && same_format
    }
}

impl Input {
    fn new(label: impl Into<Cow<'static, str>>, kind: Kind) -> Self {
        Self { label: label.into(), kind, look: Look::default() }
    }

    /// A line of text: no line break, at most 1,000 characters unless
    /// [`char_limit`](Self::char_limit) says.
    pub fn text(label: impl Into<Cow<'static, str>>) -> Self {
        Self::new(label, Kind::Text { max_chars: TEXT_CHARS, secret: false, required: false, lines: Lines::One })
    }

    /// A secret line of text: drawn as dots, read by agents masked at the source (the
    /// plaintext never enters the state), never echoed in a result.
    pub fn secret(label: impl Into<Cow<'static, str>>) -> Self {
        Self::new(label, Kind::Text { max_chars: TEXT_CHARS, secret: true, required: false, lines: Lines::One })
    }

    /// A number in `range` (any decimals unless [`decimals`](Self::decimals) says), drawn as a
    /// drag value ([`slider`](Self::slider) for a slider). Any of Rust's number types holds
    /// it; an integer type takes whole numbers only, within the type's own range too.
    pub fn number(label: impl Into<Cow<'static, str>>, range: RangeInclusive<f64>) -> Self {
        Self::new(label, Kind::Number { min: *range.start(), max: *range.end(), decimals: None })
    }

    /// A whole number in `range`.
    #[allow(clippy::cast_precision_loss)] // field ranges are far below 2^52
    pub fn integer(label: impl Into<Cow<'static, str>>, range: RangeInclusive<i64>) -> Self {
        let (min, max) = (*range.start() as f64, *range.end() as f64);
        Self::new(label, Kind::Number { min, max, decimals: Some(0) })
    }

    /// Yes or no, held in a `bool`: a checkbox ([`switch`](Self::switch) for a toggle switch).
    pub fn checkbox(label: impl Into<Cow<'static, str>>) -> Self {
        Self::new(label, Kind::Bool)
    }

    /// One of a list of options, given with the field ([`Form::choice`](crate::Form::choice)):
    /// a combo box ([`radio`](Self::radio) or [`selectable`](Self::selectable) for the others).
    /// Agents choose by the option's text.
    pub fn choice(label: impl Into<Cow<'static, str>>) -> Self {
        Self::new(label, Kind::Choice)
    }

    /// A colour, held in an `egui::Color32`: a colour button and picker. Agents read and write
    /// it as `#rrggbb`, or `#rrggbbaa` when not opaque (not premultiplied).
    pub fn color(label: impl Into<Cow<'static, str>>) -> Self {
        Self::new(label, Kind::Color)
    }

    /// At most `n` characters (text), as egui's `TextEdit::char_limit`.
    #[must_use]
    pub fn char_limit(mut self, n: usize) -> Self {
        if let Kind::Text { max_chars, .. } = &mut self.kind {
            *max_chars = n;
        }
        self
    }

    /// Not empty (text; blanks alone count as empty).
    #[must_use]
    pub fn required(mut self) -> Self {
        if let Kind::Text { required, .. } = &mut self.kind {
            *required = true;
        }
        self
    }

    /// Several lines (text): a multi-line text edit; line breaks are allowed.
    #[must_use]
    pub fn multiline(mut self) -> Self {
        if let Kind::Text { lines, .. } = &mut self.kind {
            *lines = Lines::Many;
        }
        self
    }

    /// Code (text): several lines in a monospace code editor, tabs kept.
    #[must_use]
    pub fn code(mut self) -> Self {
        if let Kind::Text { lines, .. } = &mut self.kind {
            *lines = Lines::Code;
        }
        self
    }

    /// At most `n` decimals (number): `2` for money in whole cents.
    #[must_use]
    pub fn decimals(mut self, n: u8) -> Self {
        if let Kind::Number { decimals, .. } = &mut self.kind {
            *decimals = Some(n);
        }
        self
    }

    /// A slider instead of a drag value (number).
    #[must_use]
    pub fn slider(mut self) -> Self {
        if let Kind::Number { .. } = self.kind {
            self.look.widget = Widget::Slider;
        }
        self
    }

    /// A logarithmic slider (number; implies [`slider`](Self::slider)).
    #[must_use]
    pub fn logarithmic(mut self) -> Self {
        if let Kind::Number { .. } = self.kind {
            self.look.widget = Widget::Slider;
            self.look.logarithmic = true;
        }
        self
    }

    /// Text before the number ("$"), for the person and in the rules agents read.
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<Cow<'static, str>>) -> Self {
        self.look.prefix = prefix.into();
        self
    }

    /// Text after the number (" ms", "°"), for the person and in the rules agents read.
    #[must_use]
    pub fn suffix(mut self, suffix: impl Into<Cow<'static, str>>) -> Self {
        self.look.suffix = suffix.into();
        self
    }

    /// How the person reads a number, where the app has its own way (`0` shown as "∞"). Agents
    /// read and write the number itself; say what special values mean with [`hint`](Self::hint).
    #[must_use]
    pub fn formatter(mut self, format: fn(f64) -> String) -> Self {
        self.look.formatter = Some(format);
        self
    }

    /// A toggle switch instead of a checkbox (yes/no).
    #[must_use]
    pub fn switch(mut self) -> Self {
        if self.kind == Kind::Bool {
            self.look.widget = Widget::Switch;
        }
        self
    }

    /// Radio buttons, one per option, instead of a combo box (choice).
    #[must_use]
    pub fn radio(mut self) -> Self {
        if self.kind == Kind::Choice {
            self.look.widget = Widget::Radio;
        }
        self
    }

    /// Selectable labels side by side, one per option, instead of a combo box (choice); a
    /// selectable label that stays pressed while on (yes/no, egui's `toggle_value`).
    #[must_use]
    pub fn selectable(mut self) -> Self {
        if matches!(self.kind, Kind::Choice | Kind::Bool) {
            self.look.widget = Widget::Selectable;
        }
        self
    }

    /// A sentence on the field for both audiences: the person's tooltip on the widget, and words
    /// after the rules for agents ("0 means no limit").
    #[must_use]
    pub fn hint(mut self, hint: impl Into<Cow<'static, str>>) -> Self {
        self.look.hint = Some(hint.into());
        self
    }

    /// Greyed text the person sees in an empty text edit (egui's `hint_text`).
    #[must_use]
    pub fn placeholder(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.look.placeholder = Some(text.into());
        self
    }

    /// The widget's width in points (a text edit's `desired_width`, a combo box's `width`).
    #[must_use]
    pub fn width(mut self, points: f32) -> Self {
        self.look.width = Some(points);
        self
    }

    /// How much a drag value changes per point the person drags (egui's `speed`).
    #[must_use]
    pub fn speed(mut self, speed: f64) -> Self {
        self.look.speed = Some(speed);
        self
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
        let Kind::Number { min, max, decimals } = self.kind else { return Cow::Borrowed(self) };
        let narrowed =
            Kind::Number { min: min.max(lo), max: max.min(hi), decimals: if integral { Some(0) } else { decimals } };
        if narrowed == self.kind { Cow::Borrowed(self) } else { Cow::Owned(Self { kind: narrowed, ..self.clone() }) }
    }

    /// Checks a value an agent sent for this field by the field's rules: the value to set, or
    /// what is wrong (naming the field by its label). A number may come as a string holding
    /// one (`"$1,234.50"`: a leading `$` and thousands commas are ignored), a yes/no as
    /// `"true"` or `"false"`. A choice is checked against its options by the form that has
    /// them; here only that it is text.
    ///
    /// # Errors
    /// The message the person's widget shows for the same value.
    pub fn check(&self, value: &Value) -> Result<Value, String> {
        let label = &self.label;
        match self.kind {
            Kind::Text { .. } | Kind::Choice => {
                let Value::String(text) = value else { return Err(format!("{label} must be text")) };
                self.check_text(text)?;
                Ok(value.clone())
            }
            Kind::Number { .. } => {
                let n = match value {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().trim_start_matches('$').replace(',', "").parse::<f64>().ok(),
                    _ => None,
                }
                .ok_or_else(|| format!("{label} must be a number"))?;
                self.check_number(n)
            }
            Kind::Bool => match value {
                Value::Bool(_) => Ok(value.clone()),
                Value::String(s) if s == "true" || s == "false" => Ok(Value::Bool(s == "true")),
                _ => Err(format!("{label} must be true or false")),
            },
            Kind::Color => {
                let parsed = value.as_str().and_then(parse_color);
                parsed
                    .map(|c| Value::String(color_text(c)))
                    .ok_or_else(|| format!("{label} must be a colour as #rrggbb or #rrggbbaa"))
            }
        }
    }

    /// The text rules alone: what the person's text edit shows under a value that breaks them.
    pub(super) fn check_text(&self, text: &str) -> Result<(), String> {
        let label = &self.label;
        let Kind::Text { max_chars, required, lines, .. } = self.kind else { return Ok(()) };
        if required && text.trim().is_empty() {
            return Err(format!("{label} cannot be empty"));
        }
        if lines == Lines::One && text.contains(['\n', '\r']) {
            // The person's text edit is one line: it holds no line break.
            return Err(format!("{label} must be one line"));
        }
        if text.chars().count() > max_chars {
            return Err(format!("{label} must be at most {max_chars} characters"));
        }
        Ok(())
    }

    fn check_number(&self, n: f64) -> Result<Value, String> {
        let Kind::Number { min, max, decimals } = self.kind else { return Err(format!("{} must be text", self.label)) };
        let in_steps = decimals.is_none_or(|d| {
            let scaled = n * 10f64.powi(i32::from(d));
            (scaled - scaled.round()).abs() < 1e-6
        });
        if !n.is_finite() || !(min..=max).contains(&n) || !in_steps {
            let steps = match decimals {
                Some(0) if min.fract() == 0.0 && max.fract() == 0.0 => String::new(),
                Some(0) => ", a whole number".to_owned(),
                None => String::new(),
                Some(d) => format!(", at most {d} decimals"),
            };
            return Err(format!("{} must be {} to {}{steps}", self.label, num(min), num(max)));
        }
        Ok(if decimals == Some(0) { json!(n.round() as i64) } else { json!(n) })
    }

    /// The JSON type of the field's values.
    pub(super) fn json_type(&self) -> &'static str {
        match self.kind {
            Kind::Text { .. } | Kind::Choice | Kind::Color => "string",
            Kind::Number { decimals: Some(0), .. } => "integer",
            Kind::Number { .. } => "number",
            Kind::Bool => "boolean",
        }
    }

    /// The rules in a few words ("≤100 chars, required", "1-999", "secret, ≤23 chars"), as the
    /// derived `edit_field` lists them: for the description of an explicit action whose
    /// parameters follow the same inputs. (The schema gives the type; the words are few, as
    /// every listing carries them.)
    pub fn rules(&self) -> String {
        let rules = match self.kind {
            Kind::Text { max_chars, secret, required, lines } => {
                let secret = if secret { "secret, " } else { "" };
                let lines = match lines {
                    Lines::One => "",
                    Lines::Many => "lines, ",
                    Lines::Code => "code, ",
                };
                let required = if required { ", required" } else { "" };
                format!("{secret}{lines}≤{max_chars} chars{required}")
            }
            Kind::Number { min, max, decimals } => {
                let d = decimals.filter(|d| *d > 0).map(|d| format!(", {d} decimals")).unwrap_or_default();
                let (prefix, suffix) = (&self.look.prefix, self.look.suffix.trim_end());
                format!("{prefix}{}-{prefix}{}{suffix}{d}", num(min), num(max))
            }
            Kind::Bool => "true/false".to_owned(),
            Kind::Choice => "one of the options".to_owned(),
            Kind::Color => "#rrggbb or #rrggbbaa".to_owned(),
        };
        match &self.look.hint {
            Some(hint) => format!("{rules}; {hint}"),
            None => rules,
        }
    }
}

/// A number as a person writes it in a rule: no `.0` on whole numbers.
fn num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") }
}

/// `#rrggbb` or `#rrggbbaa` (any case), not premultiplied.
fn parse_color(text: &str) -> Option<[u8; 4]> {
    let hex = text.trim().strip_prefix('#')?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
        return None;
    }
    let byte = |k: usize| u8::from_str_radix(&hex[k..k + 2], 16).ok();
    let alpha = if hex.len() == 8 { byte(6)? } else { 255 };
    Some([byte(0)?, byte(2)?, byte(4)?, alpha])
}

/// A colour as agents read it: `#rrggbb` when opaque, else `#rrggbbaa`.
fn color_text([r, g, b, a]: [u8; 4]) -> String {
    if a == 255 { format!("#{r:02x}{g:02x}{b:02x}") } else { format!("#{r:02x}{g:02x}{b:02x}{a:02x}") }
}

/// A value a [`Form::edit`](crate::Form::edit) field edits: text (`String`), a number (every
/// Rust number type), a yes/no (`bool`) or a colour (`egui::Color32`).
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
impl sealed::Sealed for egui::Color32 {}
impl sealed::Sealed for [u8; 4] {}
impl sealed::Sealed for [u8; 3] {}

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
        let response = ui.add(edit);
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
            _ => ui.checkbox(self, ""),
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
            _ => ui.checkbox(self, input.label()),
        })
    }
}

impl Editable for egui::Color32 {
    fn to_value(&self) -> Value {
        Value::String(color_text(self.to_srgba_unmultiplied()))
    }

    fn set(&mut self, checked: &Value) {
        if let Some([r, g, b, a]) = checked.as_str().and_then(parse_color) {
            *self = egui::Color32::from_rgba_unmultiplied(r, g, b, a);
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, _input: &Input) -> egui::Response {
        egui::widgets::color_picker::color_edit_button_srgba(ui, self, egui::widgets::color_picker::Alpha::OnlyBlend)
    }

    fn fits(input: &Input) -> bool {
        input.kind == Kind::Color
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
        input.kind == Kind::Color
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
        input.kind == Kind::Color
    }

    fn widget_holds(checked: &Value) -> Value {
        let mut c = [0; 3];
        c.set(checked);
        let held = egui::Color32::from(egui::ecolor::Hsva::from(egui::Color32::from_rgb(c[0], c[1], c[2])));
        [held.r(), held.g(), held.b()].to_value()
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
    let Kind::Number { min, max, decimals } = input.kind else { return ui.add(egui::DragValue::new(value)) };
    let (lo, hi) = (N::from_f64(min.max(N::MIN.to_f64())), N::from_f64(max.min(N::MAX.to_f64())));
    let look = &input.look;
    let decimals = if N::INTEGRAL { Some(0) } else { decimals.map(usize::from) };
    let response = if look.widget == Widget::Slider {
        let mut slider = egui::Slider::new(value, lo..=hi)
            .prefix(look.prefix.as_ref())
            .suffix(look.suffix.as_ref())
            .logarithmic(look.logarithmic);
        if let Some(d) = decimals {
            slider = slider.fixed_decimals(d).step_by(10f64.powi(-(d as i32)));
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

impl Hash for Input {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.label.hash(h);
        match self.kind {
            Kind::Text { max_chars, secret, required, lines } => (0u8, max_chars, secret, required, lines).hash(h),
            Kind::Number { min, max, decimals } => (1u8, min.to_bits(), max.to_bits(), decimals).hash(h),
            Kind::Bool => 2u8.hash(h),
            Kind::Choice => 3u8.hash(h),
            Kind::Color => 4u8.hash(h),
        }
        let look = &self.look;
        (look.widget, &look.prefix, &look.suffix, look.logarithmic, &look.hint, &look.placeholder).hash(h);
        (look.width.map(f32::to_bits), look.speed.map(f64::to_bits)).hash(h);
    }
}
