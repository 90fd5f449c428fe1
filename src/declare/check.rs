//! An agent's value for a field, checked as the field's own widget would take it: by the input's
//! rules and what the widget holds (`check_held`), or among a choice's options (`pick`). Used by
//! a form's fields and by the `edit_field` action's check of several fields at once, so both
//! say the same.

use serde_json::Value;

use super::Input;

/// What a field's widget holds of a checked value (`Editable::widget_holds`).
pub(super) type Holds = fn(&Value) -> Value;

/// Checks an agent's value by `input`'s rules, then that the person's widget holds it as given
/// (`holds`): the value to write, or what is wrong, in the rules' words.
pub(super) fn check_held(input: &Input, holds: Holds, value: &Value) -> Result<Value, String> {
    let checked = input.check(value)?;
    let held = holds(&checked);
    if held == checked {
        Ok(checked)
    } else {
        Err(format!("{} cannot be {}: the widget holds it as {}", input.label(), display(&checked), display(&held)))
    }
}

/// The option an agent chose: by its exact text, or else by the one text that matches it
/// ignoring case and surrounding blanks.
pub(super) fn pick<T, S: AsRef<str>>(label: &str, options: &[(T, S)], value: &Value) -> Result<usize, String> {
    let texts = || options.iter().map(|(_, t)| t.as_ref()).collect::<Vec<_>>().join(", ");
    let Some(wanted) = value.as_str() else { return Err(format!("{label} must be one of: {}", texts())) };
    if let Some(k) = options.iter().position(|(_, t)| t.as_ref() == wanted) {
        return Ok(k);
    }
    let loose: Vec<usize> =
        (0..options.len()).filter(|&k| options[k].1.as_ref().trim().eq_ignore_ascii_case(wanted.trim())).collect();
    match loose[..] {
        [k] => Ok(k),
        _ => Err(format!("{label} must be one of: {}", texts())),
    }
}

/// A value as the person reads it: text as it is, numbers as JSON writes them.
pub(super) fn display(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}
