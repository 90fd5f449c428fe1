//! An input's rules at work: an agent's value checked by them, and the words the derived
//! `edit_field` lists them in.

use serde_json::{Value, json};

use super::{Input, Kind, Lines, color_text, parse_color, parse_floats};

impl Input {
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
            Kind::Angle => {
                let n = match value {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().trim_end_matches('°').trim().parse::<f64>().ok(),
                    _ => None,
                };
                // Any number the person can type into the degrees box (an `f32`).
                match n.filter(|n| n.is_finite() && n.abs() <= f64::from(f32::MAX)) {
                    Some(n) => Ok(json!(n)),
                    None => Err(format!("{label} must be a number of degrees")),
                }
            }
            Kind::Bool => match value {
                Value::Bool(_) => Ok(value.clone()),
                Value::String(s) if s == "true" || s == "false" => Ok(Value::Bool(s == "true")),
                _ => Err(format!("{label} must be true or false")),
            },
            Kind::Color { floats } => {
                if let Some(c) = value.as_str().and_then(parse_color) {
                    return Ok(Value::String(color_text(c)));
                }
                match parse_floats(value) {
                    Some(f) if floats => Ok(json!(f)),
                    _ if floats => {
                        Err(format!("{label} must be a colour as #rrggbb, #rrggbbaa or [r, g, b, a] from 0 to 1"))
                    }
                    _ => Err(format!("{label} must be a colour as #rrggbb or #rrggbbaa")),
                }
            }
        }
    }

    /// The text rules alone: what the person's text edit shows under a value that breaks them.
    pub(in crate::declare) fn check_text(&self, text: &str) -> Result<(), String> {
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
        let label = &self.label;
        let Kind::Number { min, decimals, step, .. } = self.kind else { return Err(format!("{label} must be text")) };
        let in_decimals = decimals.is_none_or(|d| {
            let scaled = n * 10f64.powi(i32::from(d));
            (scaled - scaled.round()).abs() < 1e-6
        });
        let (lo, hi) = self.held_range();
        let in_range = n.is_finite() && (lo..=hi).contains(&n);
        let held = match step {
            // What the person's slider holds once given `n`: `n` itself, near enough (egui's
            // arithmetic leaves 0.30000000000000004 for 0.3 in steps of 0.1), or refused. A
            // range that does not end on a step holds the step past its end (0 to 10 in steps
            // of 4 holds 12), as egui's slider does.
            Some(step) => Some(self.slider_holds(n))
                .filter(|held| n.is_finite() && self.in_limits(n) && (held - n).abs() <= 1e-6 * step.abs()),
            None => in_range.then_some(n),
        };
        match held {
            Some(held) if in_decimals => Ok(if decimals == Some(0) { json!(held.round() as i64) } else { json!(held) }),
            _ => {
                let off_step = step.is_some_and(|s| {
                    let k = (n - min) / s;
                    (k - k.round()).abs() >= 1e-6
                });
                Err(self.number_error(in_decimals, off_step && in_range))
            }
        }
    }

    /// What is wrong with a number: the rule broken first (a whole number, the decimals, the
    /// step of a number in the range), then the range.
    fn number_error(&self, in_decimals: bool, off_step: bool) -> String {
        let Kind::Number { min, decimals, step, .. } = self.kind else {
            return format!("{} must be a number", self.label);
        };
        let label = &self.label;
        let range = self.range_words();
        let decimals_word = |d: u8| if d == 1 { "1 decimal".to_owned() } else { format!("{d} decimals") };
        let with_range = |rule: String| match &range {
            Some(range) => format!("{label} must {rule}, {range}"),
            None => format!("{label} must {rule}"),
        };
        let steps = step.map(|s| format!("in steps of {} from {}", num(s), num(min)));
        match (decimals, steps) {
            (Some(0), _) if !in_decimals => with_range("be a whole number".to_owned()),
            (Some(d), _) if !in_decimals => with_range(format!("have at most {}", decimals_word(d))),
            (_, Some(steps)) if off_step => with_range(format!("be {steps}")),
            (Some(0) | None, None) => format!("{label} must be {}", range.unwrap_or_else(|| "a number".to_owned())),
            (Some(0) | None, Some(steps)) => format!("{label} must be {}, {steps}", range.unwrap_or_default()),
            (Some(d), _) => format!("{label} must be {}, at most {}", range.unwrap_or_default(), decimals_word(d)),
        }
    }

    /// Whether the person's widget keeps typed values in the input's range (a drag value
    /// always; a slider unless it never clamps).
    fn clamps(&self) -> bool {
        matches!(self.kind, Kind::Number { clamped: true, .. })
    }

    /// The numbers the person's widget holds: the input's range, or what the value's type
    /// holds for a slider that never clamps.
    fn held_range(&self) -> (f64, f64) {
        match self.kind {
            Kind::Number { limits, .. } if !self.clamps() => limits,
            Kind::Number { min, max, .. } => (min, max),
            _ => (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    fn in_limits(&self, n: f64) -> bool {
        matches!(self.kind, Kind::Number { limits: (lo, hi), .. } if (lo..=hi).contains(&n))
    }

    /// The range in an error's words ("0 to 10"), if the widget has one.
    fn range_words(&self) -> Option<String> {
        let (lo, hi) = self.held_range();
        (lo.is_finite() || hi.is_finite()).then(|| format!("{} to {}", num(lo), num(hi)))
    }

    /// What egui's slider stores when set to `n` (its `SliderCore::rounded`): pulled into the
    /// range unless it never clamps, put on the step from the range's start, rounded to the
    /// decimals.
    pub(in crate::declare) fn slider_holds(&self, n: f64) -> f64 {
        let Kind::Number { min, max, decimals, step, .. } = self.kind else { return n };
        let mut held = n;
        if self.clamps() {
            held = if min <= max { held.clamp(min, max) } else { held.clamp(max, min) };
        }
        if let Some(step) = step {
            held = min + ((held - min) / step).round() * step;
        }
        match decimals {
            // As egui's `emath::round_to_decimals` does it.
            Some(d) => format!("{held:.*}", usize::from(d)).parse().unwrap_or(held),
            None => held,
        }
    }

    /// The JSON type of the field's values.
    pub(in crate::declare) fn json_type(&self) -> &'static str {
        match self.kind {
            Kind::Text { .. } | Kind::Choice | Kind::Color { .. } => "string",
            Kind::Number { decimals: Some(0), .. } => "integer",
            Kind::Number { .. } | Kind::Angle => "number",
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
            Kind::Number { min, max, decimals, step, .. } => {
                let d = decimals.filter(|d| *d > 0).map(|d| format!(", {d} decimals")).unwrap_or_default();
                let step = step.map(|s| format!(", steps of {}", num(s))).unwrap_or_default();
                let (prefix, suffix) = (&self.look.prefix, self.look.suffix.trim_end());
                let range = format!("{prefix}{}-{prefix}{}{suffix}", num(min), num(max));
                if self.clamps() {
                    format!("{range}{step}{d}")
                } else {
                    // Typed into the slider's box, any number the type holds.
                    let any = self.range_words().map_or_else(|| "any".to_owned(), |r| r.replace(" to ", "-"));
                    format!("{any} (slider {range}){step}{d}")
                }
            }
            Kind::Angle => "degrees (held in radians)".to_owned(),
            Kind::Bool if self.look.indeterminate => {
                "true/false, now mixed (some, not all): shown as neither".to_owned()
            }
            Kind::Bool => "true/false".to_owned(),
            Kind::Choice => "one of the options".to_owned(),
            Kind::Color { floats: false } => "#rrggbb or #rrggbbaa".to_owned(),
            Kind::Color { floats: true } => "#rrggbb, #rrggbbaa or \"[r, g, b, a]\" linear 0-1".to_owned(),
        };
        match &self.look.hint {
            Some(hint) => format!("{rules}; {hint}"),
            None => rules,
        }
    }
}

/// A number as a person writes it in a rule: no `.0` on whole numbers, and the integer types'
/// own limits exactly (`i64::MAX` is 2^63 as an `f64`, which would print 9223372036854775808).
pub(super) fn num(n: f64) -> String {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    match n {
        _ if n.fract() != 0.0 || !n.is_finite() => format!("{n}"),
        TWO_63 => i64::MAX.to_string(),
        _ if n >= 2.0 * TWO_63 => u64::MAX.to_string(),
        _ if n >= 0.0 => (n as u64).to_string(),
        _ => (n as i64).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Input;

    /// The rule broken is named, and the integer types' limits are printed exactly.
    #[test]
    fn integer_errors_name_the_rule_and_exact_bounds() {
        let retries = Input::integer("Retries", -1..=i64::MAX);
        let half = retries.check(&serde_json::json!(1.5)).unwrap_err();
        assert_eq!(half, "Retries must be a whole number, -1 to 9223372036854775807");
        let below = retries.check(&serde_json::json!(-2)).unwrap_err();
        assert_eq!(below, "Retries must be -1 to 9223372036854775807");
        assert_eq!(retries.check(&serde_json::json!(i64::MAX)).unwrap(), serde_json::json!(i64::MAX));
        assert_eq!(super::num(u64::MAX as f64), "18446744073709551615");
        assert_eq!(super::num(i64::MIN as f64), "-9223372036854775808");
        let price = Input::number("Price", 0.0..=10.0).decimals(2);
        assert_eq!(price.check(&serde_json::json!(1.234)).unwrap_err(), "Price must have at most 2 decimals, 0 to 10");
        assert_eq!(price.check(&serde_json::json!(11)).unwrap_err(), "Price must be 0 to 10, at most 2 decimals");
        assert_eq!(Input::number("Gain", 0.0..=1.5).check(&serde_json::json!(2)).unwrap_err(), "Gain must be 0 to 1.5");
    }
}
