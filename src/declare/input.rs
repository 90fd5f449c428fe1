//! The rules of an editable field, written once ([`Input`]): the person's widget follows them
//! ([`Editable::widget`]), the derived `edit_field` lists them ([`Input::rules`]) and an
//! agent's value is checked by them ([`Input::check`]).

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::ops::RangeInclusive;

use serde_json::{Value, json};

/// Longest text of a text field without [`Input::max_chars`].
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
/// let name = Input::text("Name").max_chars(5).required();
/// assert_eq!(name.check(&json!("")).unwrap_err(), "Name cannot be empty");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    label: Cow<'static, str>,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Text { max_chars: usize, secret: bool, required: bool },
    Number { min: f64, max: f64, decimals: Option<u8> },
}

impl Input {
    /// A line of text: no line break, at most 1,000 characters unless
    /// [`max_chars`](Self::max_chars) says.
    pub fn text(label: impl Into<Cow<'static, str>>) -> Self {
        Self { label: label.into(), kind: Kind::Text { max_chars: TEXT_CHARS, secret: false, required: false } }
    }

    /// A secret line of text: drawn as dots, read by agents masked at the source (the
    /// plaintext never enters the state), never echoed in a result.
    pub fn secret(label: impl Into<Cow<'static, str>>) -> Self {
        Self { label: label.into(), kind: Kind::Text { max_chars: TEXT_CHARS, secret: true, required: false } }
    }

    /// A number in `range` (any decimals unless [`decimals`](Self::decimals) says).
    pub fn number(label: impl Into<Cow<'static, str>>, range: RangeInclusive<f64>) -> Self {
        Self { label: label.into(), kind: Kind::Number { min: *range.start(), max: *range.end(), decimals: None } }
    }

    /// A whole number in `range`.
    #[allow(clippy::cast_precision_loss)] // field ranges are far below 2^52
    pub fn integer(label: impl Into<Cow<'static, str>>, range: RangeInclusive<i64>) -> Self {
        let (min, max) = (*range.start() as f64, *range.end() as f64);
        Self { label: label.into(), kind: Kind::Number { min, max, decimals: Some(0) } }
    }

    /// At most `n` characters (text).
    #[must_use]
    pub fn max_chars(mut self, n: usize) -> Self {
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

    /// At most `n` decimals (number): `2` for money in whole cents.
    #[must_use]
    pub fn decimals(mut self, n: u8) -> Self {
        if let Kind::Number { decimals, .. } = &mut self.kind {
            *decimals = Some(n);
        }
        self
    }

    /// The label the person reads and agents read the field by.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// A number as the person reads it: with the input's decimals (`224.30`).
    pub(super) fn shown(&self, n: f64) -> String {
        match self.kind {
            Kind::Number { decimals: Some(d), .. } => format!("{n:.*}", usize::from(d)),
            _ => num(n),
        }
    }

    pub(super) fn is_secret(&self) -> bool {
        matches!(self.kind, Kind::Text { secret: true, .. })
    }

    /// Checks a value an agent sent for this field by the field's rules: the value to set, or
    /// what is wrong (naming the field by its label). A number may come as a string holding
    /// one (`"$1,234.50"`: a leading `$` and thousands commas are ignored).
    ///
    /// # Errors
    /// The message the person's widget shows for the same value.
    pub fn check(&self, value: &Value) -> Result<Value, String> {
        let label = &self.label;
        match self.kind {
            Kind::Text { .. } => {
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
        }
    }

    /// The text rules alone: what the person's text edit shows under a value that breaks them.
    pub(super) fn check_text(&self, text: &str) -> Result<(), String> {
        let label = &self.label;
        let Kind::Text { max_chars, required, .. } = self.kind else { return Ok(()) };
        if required && text.trim().is_empty() {
            return Err(format!("{label} cannot be empty"));
        }
        if text.contains(['\n', '\r']) {
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
                Some(0) | None => String::new(),
                Some(d) => format!(", at most {d} decimals"),
            };
            return Err(format!("{} must be {} to {}{steps}", self.label, num(min), num(max)));
        }
        Ok(if decimals == Some(0) { json!(n.round() as i64) } else { json!(n) })
    }

    /// The JSON type of the field's values.
    pub(super) fn json_type(&self) -> &'static str {
        match self.kind {
            Kind::Text { .. } => "string",
            Kind::Number { decimals: Some(0), .. } => "integer",
            Kind::Number { .. } => "number",
        }
    }

    /// The rules in a few words ("≤100 chars, required", "1-999", "secret, ≤23 chars"), as the
    /// derived `edit_field` lists them: for the description of an explicit action whose
    /// parameters follow the same inputs. (The schema gives the type; the words are few, as
    /// every listing carries them.)
    pub fn rules(&self) -> String {
        match self.kind {
            Kind::Text { max_chars, secret, required } => {
                let secret = if secret { "secret, " } else { "" };
                let required = if required { ", required" } else { "" };
                format!("{secret}≤{max_chars} chars{required}")
            }
            Kind::Number { min, max, decimals } => {
                let d = decimals.filter(|d| *d > 0).map(|d| format!(", {d} decimals")).unwrap_or_default();
                format!("{}-{}{d}", num(min), num(max))
            }
        }
    }
}

/// A number as a person writes it in a rule: no `.0` on whole numbers.
fn num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") }
}

/// A value a [`Form::edit`](crate::Form::edit) field edits: a line of text, or a number.
pub trait Editable: sealed::Sealed {
    /// The value as agents read it.
    fn to_value(&self) -> Value;
    /// Sets it from a value [`Input::check`] accepted.
    fn set(&mut self, checked: &Value);
    /// The person's widget for it, following `input`'s rules.
    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for String {}
    impl Sealed for f64 {}
    impl Sealed for i64 {}
}

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
        let (max, secret) = match input.kind {
            Kind::Text { max_chars, secret, .. } => (max_chars, secret),
            Kind::Number { .. } => (TEXT_CHARS, false),
        };
        let response = ui.add(egui::TextEdit::singleline(self).char_limit(max).password(secret));
        if response.changed() && self.contains(['\n', '\r']) {
            // One line, as an agent's must be (egui inserts a text event holding a line break).
            self.retain(|c| c != '\n' && c != '\r');
        }
        response
    }
}

impl Editable for f64 {
    fn to_value(&self) -> Value {
        json!(self)
    }

    fn set(&mut self, checked: &Value) {
        if let Some(n) = checked.as_f64() {
            *self = n;
        }
    }

    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        let mut drag = egui::DragValue::new(self);
        if let Kind::Number { min, max, decimals } = input.kind {
            drag = drag.range(min..=max);
            if let Some(d) = decimals {
                drag = drag.fixed_decimals(usize::from(d));
            }
        }
        let response = ui.add(drag);
        if response.changed()
            && let Kind::Number { decimals: Some(d), .. } = input.kind
        {
            // A typed value holds at most the input's decimals, as an agent's must.
            let scale = 10f64.powi(i32::from(d));
            *self = (*self * scale).round() / scale;
        }
        response
    }
}

impl Editable for i64 {
    fn to_value(&self) -> Value {
        json!(self)
    }

    fn set(&mut self, checked: &Value) {
        if let Some(n) = checked.as_i64() {
            *self = n;
        }
    }

    #[allow(clippy::cast_possible_truncation)] // the range came from i64s
    fn widget(&mut self, ui: &mut egui::Ui, input: &Input) -> egui::Response {
        let mut drag = egui::DragValue::new(self);
        if let Kind::Number { min, max, .. } = input.kind {
            drag = drag.range(min as i64..=max as i64);
        }
        ui.add(drag)
    }
}

impl Hash for Input {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.label.hash(h);
        match self.kind {
            Kind::Text { max_chars, secret, required } => (0u8, max_chars, secret, required).hash(h),
            Kind::Number { min, max, decimals } => (1u8, min.to_bits(), max.to_bits(), decimals).hash(h),
        }
    }
}
