//! Planning an `edit_field` on a read-view window: each field it names checked against what the
//! last look found (the first invalid ones named, the rest counted, so that the answer stays
//! short), then the steps that set them: combo boxes first, then the other fields' requests in
//! one pass, with Enter to follow where `submit` asks for it.

use serde_json::Value;

use super::check::{Miss, Set, check, find};
use super::{Operation, Step, Submit, Wrote, request};
use crate::hub::clipped;
use crate::hub::limits::NamedErrors;
use crate::plugin::observe::{Target, TargetKind};
use crate::protocol::{EditArgs, FieldError, MAX_EDIT_FIELDS, ToolError};
use egui::accesskit::Action;

/// Checks `args` against the window's `targets` and plans the steps that set them; a refusal
/// names every field it can (or the disabled ones) and plans nothing that runs.
pub(super) fn plan(op: &mut Operation, args: EditArgs, targets: &[Target]) -> Result<(), ToolError> {
    let submit = args.submit();
    let asked = asked(args)?;
    let title = op.title.clone();
    let mut errors = Errors::default();
    let mut off: Vec<&Target> = Vec::new();
    let mut direct = Vec::new();
    let mut last = None;
    for (name, value) in asked {
        last = None;
        let t = match find(targets, &name, false) {
            Ok(t) => t,
            Err(miss) => {
                errors.miss(&name, &miss, targets);
                continue;
            }
        };
        last = Some(t);
        if t.disabled {
            if !off.iter().any(|o| o.node == t.node) {
                off.push(t);
            }
            continue;
        }
        match check(t, &value) {
            Err(why) => errors.add(FieldError::new(t.key.clone(), why)),
            Ok(Set::Nothing) => {}
            Ok(Set::Request(r)) => direct.push(r),
            Ok(Set::Pick(option)) => op.steps.push_back(Step::Pick { combo: t.node, label: t.label.clone(), option }),
        }
        op.wrote.push(Wrote::of(t, value));
    }
    if !off.is_empty() {
        return Err(ToolError::disabled(&title, off.iter().map(|t| clipped(&t.label))));
    }
    // Enter goes to the field set last (an unknown name there is named already).
    if submit && let Some(t) = last {
        match submit_to(t) {
            Ok(()) => {
                direct.push(request(t.node, Action::Focus, None));
                op.submit = Some(Submit { node: t.node, label: t.label.clone(), pressed: None });
            }
            Err(why) => errors.always(why),
        }
    }
    errors.into_result(&title)?;
    // The combo boxes first (each takes two passes: open, pick), so that an option that is not
    // there stops the call before anything else is set.
    if !direct.is_empty() {
        op.steps.push_back(Step::Requests(direct));
    }
    Ok(())
}

/// The fields asked for, in order: `{field, value}` or a non-empty `{fields}`, at most
/// [`MAX_EDIT_FIELDS`].
fn asked(args: EditArgs) -> Result<Vec<(String, Value)>, ToolError> {
    let asked: Vec<(String, Value)> = match (args.field, args.value, args.fields) {
        (Some(field), Some(value), None) => vec![(field, value)],
        (None, None, Some(fields)) if !fields.is_empty() => fields.into_iter().collect(),
        _ => {
            return Err(ToolError::validation(
                "Give {field, value} or {fields: {key: value, ...}}",
                vec![FieldError::new("fields", "either field and value, or a non-empty fields object")],
            ));
        }
    };
    if asked.len() > MAX_EDIT_FIELDS {
        // (Refused before the UI sees it when the tool is listed; this is the UI's own bound.)
        return Err(ToolError::invalid_field("fields", format!("must hold at most {MAX_EDIT_FIELDS} entries")));
    }
    Ok(asked)
}

/// Whether Enter may go to `t`, the field set last: a one-line text (else why not, for the
/// `submit` parameter).
fn submit_to(t: &Target) -> Result<(), FieldError> {
    if matches!(t.kind, TargetKind::Text | TargetKind::Password) && !t.multiline {
        return Ok(());
    }
    let why = if t.multiline {
        format!("Enter in {} (several lines) starts a new line: set it without submit", clipped(&t.label))
    } else {
        format!("Enter goes to the field set last, which must be a one-line text; {} is not", clipped(&t.label))
    };
    Err(FieldError::new("submit", why))
}

impl Wrote {
    /// Field `t`, asked to show `value`.
    fn of(t: &Target, value: Value) -> Self {
        Self {
            node: t.node,
            key: t.key.clone(),
            label: t.label.clone(),
            asked: value,
            sensitive: t.kind == TargetKind::Password,
            glimpsed: None,
        }
    }
}

/// A refusal's per-field errors (bounded, [`NamedErrors`]), the window's fields listed once,
/// with the first unknown name.
#[derive(Default)]
struct Errors {
    errors: NamedErrors,
    unknown_listed: bool,
}

impl Errors {
    fn add(&mut self, e: FieldError) {
        self.errors.add(e);
    }

    /// An error named whatever the bound (the one about `submit`).
    fn always(&mut self, e: FieldError) {
        self.errors.add_named(e);
    }

    /// `name` names no one field of the window.
    fn miss(&mut self, name: &str, miss: &Miss, targets: &[Target]) {
        let why = match miss {
            Miss::Unknown if self.unknown_listed => "not a field of this window".to_owned(),
            _ => miss.why(targets, false),
        };
        self.unknown_listed |= matches!(miss, Miss::Unknown);
        self.add(FieldError::new(clipped(name), why));
    }

    /// The refusal, if any error was found.
    fn into_result(self, title: &str) -> Result<(), ToolError> {
        let errors = self.errors;
        if errors.is_empty() {
            return Ok(());
        }
        let unnamed = errors.unnamed();
        let and_more = if unnamed > 0 { format!(" (and {unnamed} more not named here)") } else { String::new() };
        let message = match errors.named() {
            [only] if only.field == "submit" => format!("Nothing was set in {title}: {}", only.error),
            _ => format!("Nothing was set in {title}: fix the fields named{and_more}"),
        };
        Err(ToolError::validation(message, errors.into_fields("fields", "invalid or unknown fields")))
    }
}
