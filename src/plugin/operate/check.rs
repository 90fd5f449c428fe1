//! A generic call's arguments checked against what the last look found: the widget each name
//! stands for, and whether the value fits it (what setting it takes).

use egui::accesskit::{Action, ActionData, ActionRequest};
use serde::Deserialize;
use serde_json::Value;

use super::request;
use crate::hub::clipped;
use crate::plugin::observe::{Target, TargetKind};
use crate::protocol::{FieldError, ToolError};

/// What setting a field takes.
pub(super) enum Set {
    Nothing,
    Request(ActionRequest),
    Pick(String),
}

/// Whether `value` fits the widget, and what setting it takes.
pub(super) fn check(t: &Target, value: &Value) -> Result<Set, String> {
    let click = |node: u64| Set::Request(request(node, Action::Click, None));
    match t.kind {
        TargetKind::Text | TargetKind::Password => match value {
            Value::String(s) => {
                Ok(Set::Request(request(t.node, Action::SetValue, Some(ActionData::Value(s.as_str().into())))))
            }
            _ => Err("expects text".to_owned()),
        },
        TargetKind::Number => {
            let n = number_in_range(t, value)?;
            Ok(Set::Request(request(t.node, Action::SetValue, Some(ActionData::NumericValue(n)))))
        }
        TargetKind::Checkbox => {
            let want = value.as_bool().ok_or("expects true or false")?;
            Ok(if t.value == Value::Bool(want) { Set::Nothing } else { click(t.node) })
        }
        TargetKind::Radio => match value {
            Value::Bool(true) if t.value == Value::Bool(true) => Ok(Set::Nothing),
            Value::Bool(true) => Ok(click(t.node)),
            _ => Err("expects true (select it); to leave it, select another radio button".to_owned()),
        },
        TargetKind::RadioGroup => {
            let option = option_text(value).ok_or("expects the text of one of its options")?;
            let (node, label) = radio_option(t, &option)?;
            Ok(if t.value.as_str() == Some(label) { Set::Nothing } else { click(node) })
        }
        TargetKind::Combo => {
            let option = option_text(value).ok_or("expects the option's text")?;
            Ok(if t.value.as_str() == Some(option.as_str()) { Set::Nothing } else { Set::Pick(option) })
        }
        TargetKind::Control | TargetKind::Shown => Err("cannot be set: read it only".to_owned()),
    }
}

/// A number for a drag value or slider, within the range egui gave it.
fn number_in_range(t: &Target, value: &Value) -> Result<f64, String> {
    let n = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|n| n.is_finite())
    .ok_or("expects a number")?;
    match t.range {
        (Some(min), _) if n < min => Err(format!("must be at least {min}")),
        (_, Some(max)) if n > max => Err(format!("must be at most {max}")),
        _ => Ok(n),
    }
}

/// An option named by the agent: its text (a number or yes/no as written).
fn option_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The radio button of group `t` with the text `option` (exactly, then ignoring case).
fn radio_option<'a>(t: &'a Target, option: &str) -> Result<(u64, &'a str), String> {
    let exact = t.options.iter().find(|(_, l)| l == option);
    let found = exact.or_else(|| t.options.iter().find(|(_, l)| l.eq_ignore_ascii_case(option.trim())));
    found.map(|(node, label)| (*node, label.as_str())).ok_or_else(|| {
        let options: Vec<&str> = t.options.iter().map(|(_, l)| l.as_str()).collect();
        format!("not one of its options: {}", options.join(", "))
    })
}

pub(super) fn parse<A: for<'de> Deserialize<'de>>(args: &Value) -> Result<A, ToolError> {
    // Read in place (the arguments are not copied whole on the UI thread).
    A::deserialize(args).map_err(|e| {
        ToolError::validation(
            "The arguments do not fit the tool",
            vec![FieldError::new("arguments", clipped(&e.to_string()))],
        )
    })
}

/// Why a name found no target of the kind asked for.
pub(super) enum Miss {
    /// It is the key of a target of the other kind (a field's key given to `press`).
    OtherKind,
    /// It is the key or label of something only read (a progress bar, a text the person cannot
    /// type in).
    ReadOnly,
    /// It is the label of more than one target of the kind asked for: how many, and the first
    /// ones' keys.
    Ambiguous(usize, Vec<String>),
    Unknown,
}

impl Miss {
    pub(super) fn why(&self, targets: &[Target], control: bool) -> String {
        match (self, control) {
            (Self::OtherKind, true) => "that is a field: set it with edit_field".to_owned(),
            (Self::OtherKind, false) => "that is a control: press it with press".to_owned(),
            (Self::ReadOnly, _) => "that is only read: no agent or person sets it here".to_owned(),
            (Self::Ambiguous(count, keys), control) => format!(
                "{count} {} are labelled so; give the key of the one meant: {}",
                if control { "controls" } else { "fields" },
                keys.join(", ")
            ),
            (Self::Unknown, true) => format!("not a control of this window; its controls: {}", names(targets, true)),
            (Self::Unknown, false) => format!("not a field of this window; its fields: {}", names(targets, false)),
        }
    }
}

/// The target `name` names: its key, else its label (exactly, then ignoring case), among those
/// of the kind asked for. A key of another target is never taken for a label.
pub(super) fn find<'a>(targets: &'a [Target], name: &str, control: bool) -> Result<&'a Target, Miss> {
    let of_kind = |t: &&Target| (t.kind == TargetKind::Control) == control && t.kind != TargetKind::Shown;
    if let Some(t) = targets.iter().find(|t| t.key == name) {
        return if of_kind(&t) {
            Ok(t)
        } else if t.kind == TargetKind::Shown {
            Err(Miss::ReadOnly)
        } else {
            Err(Miss::OtherKind)
        };
    }
    let matches = named(targets.iter().filter(of_kind), name, |t| &t.label);
    // Of several with the label, the enabled ones count (a disabled one takes nothing now, and
    // carries no key to tell them apart by); several enabled ones are not guessed between.
    let enabled: Vec<&Target> = matches.iter().copied().filter(|t| !t.disabled).collect();
    match (enabled.as_slice(), matches.first()) {
        ([one], _) => Ok(one),
        ([], Some(first)) => Ok(first),
        ([], None) => {
            let shown =
                targets.iter().any(|t| t.kind == TargetKind::Shown && t.label.eq_ignore_ascii_case(name.trim()));
            Err(if shown { Miss::ReadOnly } else { Miss::Unknown })
        }
        (many, _) => {
            let keys = many.iter().take(20).map(|t| clipped(&t.key).into_owned()).collect();
            Err(Miss::Ambiguous(many.len(), keys))
        }
    }
}

/// The keys an agent can use, for an error (at most 20).
pub(super) fn names(targets: &[Target], control: bool) -> String {
    let keys: Vec<&str> = targets
        .iter()
        .filter(|t| (t.kind == TargetKind::Control) == control && t.kind != TargetKind::Shown && !t.disabled)
        .map(|t| t.key.as_str())
        .take(20)
        .collect();
    if keys.is_empty() { "none enabled now".to_owned() } else { keys.join(", ") }
}

/// The refusal of a `press` whose control names no one control.
pub(super) fn press_refused(miss: &Miss, control: &str, title: &str, targets: &[Target]) -> ToolError {
    let message = match miss {
        Miss::Ambiguous(..) => format!(
            "\"{}\" names more than one control in {title}: give the key of the one meant; nothing was pressed",
            clipped(control)
        ),
        _ => format!("{title} has no control \"{}\"", clipped(control)),
    };
    ToolError::validation(message, vec![FieldError::new("control", miss.why(targets, true))])
}

/// The items `name` names by their text (`text`): those of that very text, else those of that
/// text in any case, the name trimmed (as a person types it).
pub(super) fn named<'a, T>(
    items: impl Iterator<Item = &'a T> + Clone,
    name: &str,
    text: impl Fn(&T) -> &str,
) -> Vec<&'a T> {
    let exact: Vec<&T> = items.clone().filter(|i| text(i) == name).collect();
    if !exact.is_empty() {
        return exact;
    }
    items.filter(|i| text(i).eq_ignore_ascii_case(name.trim())).collect()
}
