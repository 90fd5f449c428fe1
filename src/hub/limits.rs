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

use serde_json::{Map, Value};

use crate::protocol::{FieldError, ToolError};

/// The default for [`BridgeBuilder::max_string_chars`](crate::BridgeBuilder::max_string_chars).
pub const DEFAULT_MAX_STRING_CHARS: usize = 10_000;

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
    let properties = schema.get("properties").and_then(Value::as_object);
    let broken: Vec<FieldError> = args
        .iter()
        .filter_map(|(name, value)| {
            let param: String = name.chars().take(64).collect();
            check_one(name, value, properties.and_then(|p| p.get(name)), max_string).map(|e| FieldError::new(param, e))
        })
        .collect();
    match broken.as_slice() {
        [] => Ok(()),
        [one] => Err(ToolError::invalid_field(one.field.clone(), one.error.clone())),
        many => {
            let names: Vec<&str> = many.iter().map(|f| f.field.as_str()).collect();
            Err(ToolError::validation(format!("Rejected: {} are invalid", names.join(", ")), broken))
        }
    }
}

/// What one argument breaks, if anything.
fn check_one(name: &str, value: &Value, prop: Option<&Value>, max_string: usize) -> Option<String> {
    if name.chars().count() > 64 {
        return Some("is not a parameter of this tool (names are short)".to_owned());
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
