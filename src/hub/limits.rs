//! Argument bounds checked before a call is queued, so that no client can make the app hold
//! (or lay out, every frame) a string of any length, and so that an action's declared limits
//! hold whatever the app's own code checks.
//!
//! - Every string anywhere in the arguments is at most [`super::HubConfig::max_string_chars`]
//!   characters, unless the action's schema gives that parameter its own `maxLength`.
//! - A top-level parameter's `maxLength`/`minLength`, `maximum`/`minimum` and
//!   `exclusiveMaximum`/`exclusiveMinimum` (from `#[schemars(length(..), range(..))]` on the
//!   argument type) are enforced.
//!
//! Violations are one `validation_failed` naming every parameter that breaks a bound, each with
//! what is expected; it never repeats a value.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::protocol::{FieldError, ToolError};

/// The default for [`BridgeBuilder::max_string_chars`](crate::BridgeBuilder::max_string_chars).
pub const DEFAULT_MAX_STRING_CHARS: usize = 10_000;

/// How many characters of a client's string an error or a log line repeats: names are short,
/// and a client may send megabytes where a name is expected.
pub const CLIPPED_CHARS: usize = 64;

/// A client's string as an error or a log line repeats it: its first [`CLIPPED_CHARS`]
/// characters, and `…` where it was cut.
pub fn clipped(s: &str) -> Cow<'_, str> {
    clipped_to(s, CLIPPED_CHARS)
}

/// `s`'s first `chars` characters, and `…` where it was cut.
pub fn clipped_to(s: &str, chars: usize) -> Cow<'_, str> {
    match s.char_indices().nth(chars) {
        None => Cow::Borrowed(s),
        Some((cut, _)) => Cow::Owned(format!("{}…", &s[..cut])),
    }
}

fn longest_string(v: &Value) -> usize {
    match v {
        Value::String(s) => s.chars().count(),
        Value::Array(a) => a.iter().map(longest_string).max().unwrap_or(0),
        Value::Object(o) => o.iter().map(|(k, v)| k.chars().count().max(longest_string(v))).max().unwrap_or(0),
        _ => 0,
    }
}

fn bound(schema: &Value, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

/// Checks `args` against the bounds of `schema` (an object schema) and the string limit; the
/// error names every parameter that breaks one.
pub fn check_arguments(
    schema: &Map<String, Value>,
    args: &Map<String, Value>,
    max_string: usize,
) -> Result<(), ToolError> {
    if let Some(max) = schema.get("maxProperties").and_then(Value::as_u64)
        && args.len() as u64 > max
    {
        return Err(ToolError::invalid_field("arguments", format!("at most {max} parameters")));
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    let broken = args.iter().filter_map(|(name, value)| {
        check_one(name, value, properties.and_then(|p| p.get(name)), max_string)
            .map(|e| FieldError::new(clipped(name), e))
    });
    let mut errors = NamedErrors::default();
    broken.for_each(|e| errors.add(e));
    let more = errors.unnamed();
    match errors.named() {
        [] => Ok(()),
        [one] => Err(ToolError::invalid_field(one.field.clone(), one.error.clone())),
        many => {
            let names: Vec<&str> = many.iter().map(|f| f.field.as_str()).collect();
            let and_more = if more > 0 { format!(", and {more} more") } else { String::new() };
            let message = format!("Rejected: {} are invalid{and_more}", names.join(", "));
            Err(ToolError::validation(message, errors.into_fields("arguments", "invalid parameters")))
        }
    }
}

/// A refusal's per-field errors, bounded: the first [`MAX_NAMED_ERRORS`] named, the rest
/// counted, so that an answer stays short whatever the request.
#[derive(Debug, Default)]
pub(crate) struct NamedErrors {
    named: Vec<FieldError>,
    unnamed: usize,
}

impl NamedErrors {
    /// One more error: named while there is room, else counted.
    pub(crate) fn add(&mut self, e: FieldError) {
        if self.named.len() < MAX_NAMED_ERRORS {
            self.named.push(e);
        } else {
            self.unnamed += 1;
        }
    }

    /// An error named whatever the bound (one about the call as a whole, not a field).
    pub(crate) fn add_named(&mut self, e: FieldError) {
        self.named.push(e);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.named.is_empty() && self.unnamed == 0
    }

    /// Those named.
    pub(crate) fn named(&self) -> &[FieldError] {
        &self.named
    }

    /// How many were counted, not named.
    pub(crate) fn unnamed(&self) -> usize {
        self.unnamed
    }

    /// The errors for a refusal: those named, then, if some were only counted, an entry under
    /// `field` saying how many more `what` (`"invalid parameters"`) it leaves unnamed.
    pub(crate) fn into_fields(mut self, field: &str, what: &str) -> Vec<FieldError> {
        if self.unnamed > 0 {
            self.named.push(FieldError::new(field, format!("{} more {what} not named here", self.unnamed)));
        }
        self.named
    }
}

/// The longest side of a window's picture (`app__view_window`), in pixels: a larger window is
/// scaled down to it, keeping its proportions.
pub const MAX_VIEW_SIDE: usize = 1600;

/// The most bytes of PNG one picture of a window (`app__view_window`) takes: a picture that
/// would be larger is scaled down further until it fits.
pub const MAX_VIEW_BYTES: usize = 1_000_000;

/// The least time between the end of one window picture and the start of the next, per app:
/// each takes a pass with egui's accessibility tree and a read of the screen on the UI thread,
/// so that agents cannot take more than a few a second of the person's frames.
pub const MIN_VIEW_INTERVAL: std::time::Duration = std::time::Duration::from_millis(250);

/// The longest a call of `app__view_window` waits, for its turn (one picture at a time) and for
/// the app's picture, before it is answered `action_timeout` (or the call budget, if shorter).
pub const VIEW_WINDOW_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// How many invalid parameters (or fields) one error names; the rest are counted, so that an
/// answer stays short whatever the request.
pub const MAX_NAMED_ERRORS: usize = 10;

/// What one argument breaks, if anything.
fn check_one(name: &str, value: &Value, prop: Option<&Value>, max_string: usize) -> Option<String> {
    if name.chars().count() > CLIPPED_CHARS {
        return Some("is not a parameter of this tool (names are short)".to_owned());
    }
    if let (Value::Object(entries), Some(max)) =
        (value, prop.and_then(|p| p.get("maxProperties")).and_then(Value::as_u64))
        && entries.len() as u64 > max
    {
        return Some(format!("must hold at most {max} entries"));
    }
    let max_len = prop.and_then(|p| p.get("maxLength")).and_then(Value::as_u64).map_or(max_string, |m| m as usize);
    match value {
        Value::String(s) => {
            let chars = s.chars().count();
            if chars > max_len {
                return Some(format!("must be at most {max_len} characters"));
            }
            let min = prop.and_then(|p| p.get("minLength")).and_then(Value::as_u64);
            min.filter(|min| (chars as u64) < *min).map(|min| format!("must be at least {min} characters"))
        }
        Value::Number(n) => {
            let (x, prop) = (n.as_f64()?, prop?);
            if let Some(max) = bound(prop, "maximum").filter(|m| x > *m) {
                Some(format!("must be at most {max}"))
            } else if let Some(min) = bound(prop, "minimum").filter(|m| x < *m) {
                Some(format!("must be at least {min}"))
            } else if let Some(max) = bound(prop, "exclusiveMaximum").filter(|m| x >= *m) {
                Some(format!("must be less than {max}"))
            } else {
                bound(prop, "exclusiveMinimum").filter(|m| x <= *m).map(|min| format!("must be more than {min}"))
            }
        }
        other => (longest_string(other) > max_string).then(|| format!("holds a string over {max_string} characters")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(schema: Value, args: Value) -> Option<(String, String)> {
        let (Value::Object(s), Value::Object(a)) = (schema, args) else { unreachable!() };
        check_arguments(&s, &a, 10).err().map(|e| {
            let f = &e.fields.unwrap_or_default()[0];
            (f.field.clone(), f.error.clone())
        })
    }

    #[test]
    fn a_clipped_string_keeps_its_first_characters_and_says_it_was_cut() {
        assert_eq!(clipped("short"), "short");
        let exact = "é".repeat(CLIPPED_CHARS);
        assert_eq!(clipped(&exact), exact, "no mark when nothing was cut");
        let long = format!("{exact}x");
        assert_eq!(clipped(&long), format!("{exact}…"), "cut on a character, not a byte");
        assert_eq!(clipped_to("abcdef", 3), "abc…");
    }

    #[test]
    fn an_object_past_its_max_properties_and_too_many_parameters_are_refused_in_a_few_words() {
        let schema = json!({"type": "object", "maxProperties": 2, "properties": {"fields": {"maxProperties": 3}}});
        let four: Map<String, Value> = (0..4).map(|i| (format!("k{i}"), json!(1))).collect();
        assert_eq!(
            check(schema.clone(), json!({"fields": four})),
            Some(("fields".to_owned(), "must hold at most 3 entries".to_owned()))
        );
        assert_eq!(
            check(schema, json!({"a": 1, "b": 2, "c": 3})),
            Some(("arguments".to_owned(), "at most 2 parameters".to_owned()))
        );
        // 1,000 broken parameters: the first ten named, the rest counted.
        let (Value::Object(s), Value::Object(a)) = (
            json!({"type": "object"}),
            Value::Object((0..1000).map(|i| (format!("p{i}"), json!("long string"))).collect()),
        ) else {
            unreachable!()
        };
        let e = check_arguments(&s, &a, 3).unwrap_err();
        let fields = e.fields.unwrap_or_default();
        assert_eq!(fields.len(), MAX_NAMED_ERRORS + 1, "{fields:?}");
        assert!(fields[MAX_NAMED_ERRORS].error.starts_with("990 more"), "{fields:?}");
        assert!(e.message.len() < 200, "{}", e.message);
    }

    #[test]
    fn a_long_parameter_name_is_named_clipped() {
        let name = "p".repeat(100_000);
        let (Value::Object(s), Value::Object(a)) = (json!({"type": "object"}), json!({ name.clone(): 1 })) else {
            unreachable!()
        };
        let e = check_arguments(&s, &a, 10).unwrap_err();
        assert_eq!(e.fields.unwrap_or_default()[0].field, format!("{}…", &name[..CLIPPED_CHARS]));
    }

    #[test]
    fn declared_bounds_and_the_string_limit_hold_naming_the_parameter() {
        let schema = json!({"type": "object", "properties": {
            "q": {"type": "integer", "minimum": 1, "maximum": 999},
            "name": {"type": "string", "maxLength": 20, "minLength": 1},
            "x": {}
        }});
        assert_eq!(check(schema.clone(), json!({"q": 5, "name": "abc"})), None);
        assert_eq!(check(schema.clone(), json!({"q": 1000})).unwrap().0, "q");
        assert_eq!(check(schema.clone(), json!({"q": 0})).unwrap().1, "must be at least 1");
        assert_eq!(check(schema.clone(), json!({"name": "a".repeat(15)})), None, "its own maxLength wins");
        assert_eq!(check(schema.clone(), json!({"name": ""})).unwrap().0, "name");
        assert_eq!(check(schema.clone(), json!({"x": "s".repeat(11)})).unwrap().1, "must be at most 10 characters");
        assert_eq!(check(schema.clone(), json!({"x": [{"deep": "s".repeat(11)}]})).unwrap().0, "x");
        let e = check(schema.clone(), json!({"x": "secret-but-long"})).unwrap();
        assert!(!e.1.contains("secret"), "the value is never repeated: {e:?}");
        // Every broken parameter at once, in one error.
        let (Value::Object(s), Value::Object(a)) = (schema, json!({"q": 0, "name": "", "x": "ok"})) else {
            unreachable!()
        };
        let e = check_arguments(&s, &a, 10).unwrap_err();
        let named: Vec<String> = e.fields.unwrap_or_default().into_iter().map(|f| f.field).collect();
        assert_eq!(named, ["q", "name"], "{}", e.message);
    }
}
