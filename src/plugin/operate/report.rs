//! The answer to a generic call: what was done, as the window shows it after the last step's
//! effect, and what else changed in it.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::Operation;
use crate::hub::clipped;
use crate::plugin::observe::{Target, TargetKind};
use crate::protocol::{MASK, ToolResult};

/// The most characters of what changed a result tells.
const CHANGES_CHARS: usize = 600;

impl Operation {
    /// The answer: what was done, as the window now shows it, and what else changed in it.
    pub(super) fn report(&self, after: Option<(&[Target], Vec<String>)>) -> ToolResult {
        let Some((after, text)) = after else { return self.closed() };
        // Matched by key (its label's), then by node: egui's automatic ids follow positions.
        let by_key: HashMap<&str, &Target> = after.iter().map(|t| (t.key.as_str(), t)).collect();
        let by_node: HashMap<u64, &Target> = after.iter().map(|t| (t.node, t)).collect();
        let now = |key: &str, node: u64| by_key.get(key).or_else(|| by_node.get(&node)).copied();
        let shown = |t: &Target| if t.kind == TargetKind::Password { masked(&t.value) } else { t.value.clone() };
        let mut menu = None;
        let mut message = match (&self.pressed, &self.secondary) {
            (Some(label), Some(click)) => {
                let (said, json) = click.said(label, &self.title, after);
                menu = json;
                said
            }
            (Some(label), None) => format!("Pressed \"{label}\" in {}", self.title),
            (None, _) => self.what_was_set(&now),
        };
        let changed = self.also_changed(after, &text, &now, &shown);
        if !changed.is_empty() {
            message.push_str(". Also changed: ");
            message.push_str(&changed);
        }
        let glimpsed = |w: &super::Wrote| {
            let v = w.glimpsed.as_ref()?;
            Some((w.key.clone(), if w.sensitive { masked(v) } else { v.clone() }))
        };
        let fields: Map<String, Value> = self
            .wrote
            .iter()
            .filter_map(|w| now(&w.key, w.node).map(|t| (t.key.clone(), shown(t))).or_else(|| glimpsed(w)))
            .collect();
        let result = ToolResult::message(clipped_to_owned(&message, CHANGES_CHARS * 2));
        match menu {
            Some(menu) => result.with_result(menu),
            None if fields.is_empty() => result,
            None => result.with_result(json!({ "fields": fields })),
        }
    }

    /// The answer when the window closed: what was done, and that.
    fn closed(&self) -> ToolResult {
        let what = match (&self.pressed, &self.secondary) {
            (Some(p), Some(click)) => format!("Right-clicked {}", click.what(p, &self.title)),
            (Some(p), None) => format!("Pressed \"{p}\" in {}", self.title),
            (None, _) => format!("Set the fields in {}", self.title),
        };
        ToolResult::message(format!("{what}; the window closed"))
    }

    /// What an `edit_field` did: each field as the window shows it now (`now`: by key, then
    /// node), or as it showed in the pass its request went into when it is gone since; and
    /// whether Enter went in.
    fn what_was_set<'a>(&self, now: &dyn Fn(&str, u64) -> Option<&'a Target>) -> String {
        let parts: Vec<String> = self
            .wrote
            .iter()
            .map(|w| match now(&w.key, w.node) {
                Some(t) if w.sensitive => format!("{} set ({})", w.label, masked(&t.value)),
                Some(t) if !same(&w.asked, &t.value) => {
                    format!("{} shows {} (asked {})", w.label, t.value, clipped(&w.asked.to_string()))
                }
                Some(t) => format!("{} is {}", w.label, t.value),
                // Its request took effect in the pass it went into, which then closed it (a
                // menu item that closes its menu): what it showed there.
                None => match &w.glimpsed {
                    Some(v) if w.sensitive => format!("{} set ({}); it is no longer shown", w.label, masked(v)),
                    Some(v) if !same(&w.asked, v) => format!(
                        "{} showed {} (asked {}); it is no longer shown",
                        w.label,
                        v,
                        clipped(&w.asked.to_string())
                    ),
                    Some(v) => format!("{} is {v}; it is no longer shown", w.label),
                    None => format!("{} is no longer shown", w.label),
                },
            })
            .collect();
        let enter = match &self.submit {
            Some(super::Submit { label, pressed: Some(true), .. }) => format!("; Enter pressed in {label}"),
            Some(super::Submit { label, .. }) => {
                format!("; Enter not pressed: {label} did not take the keyboard focus")
            }
            None => String::new(),
        };
        format!("In {}: {}{enter}", self.title, parts.join("; "))
    }

    /// What else changed: fields and controls (see [`Self::changes`]), then up to three new
    /// text lines, clipped to [`CHANGES_CHARS`].
    fn also_changed<'a>(
        &self,
        after: &'a [Target],
        text: &[String],
        now: &dyn Fn(&str, u64) -> Option<&'a Target>,
        shown: &dyn Fn(&Target) -> Value,
    ) -> String {
        let mut changed = self.changes(after, now, shown);
        let new_lines = said_once(text.iter().filter(|l| !self.text.contains(l)).take(3).cloned().collect());
        if !new_lines.is_empty() {
            let shows = format!("shows \"{}\"", new_lines.join(" / "));
            changed = if changed.is_empty() { shows } else { format!("{changed}; {shows}") };
        }
        clipped_to_owned(&changed, CHANGES_CHARS)
    }

    /// What else changed in the window: fields' values, controls selected, opened, enabled or
    /// disabled, and fields and controls that came or went.
    fn changes<'a>(
        &self,
        after: &'a [Target],
        now: &dyn Fn(&str, u64) -> Option<&'a Target>,
        shown: &dyn Fn(&Target) -> Value,
    ) -> String {
        let written = |key: &str| self.wrote.iter().any(|w| w.key == key);
        let mut parts = Vec::new();
        for b in &self.before {
            let Some(t) = now(&b.key, b.node) else {
                parts.push(format!("{} gone", b.label));
                continue;
            };
            if t.kind == TargetKind::Control {
                let flag = |v: &Value, k: &str| v.get(k).and_then(Value::as_bool);
                if flag(&t.value, "selected") != flag(&b.value, "selected") {
                    let on = flag(&t.value, "selected") == Some(true);
                    parts.push(format!("{} {}", t.label, if on { "selected" } else { "no longer selected" }));
                }
                if flag(&t.value, "open") != flag(&b.value, "open") {
                    let on = flag(&t.value, "open") == Some(true);
                    parts.push(format!("{} {}", t.label, if on { "opened" } else { "closed" }));
                }
            } else if !written(&b.key) && t.value != b.value {
                parts.push(format!("{} is {}", t.label, shown(t)));
            }
            if t.disabled != b.disabled {
                parts.push(format!("{} {}", t.label, if t.disabled { "disabled" } else { "enabled" }));
            }
        }
        let was = |t: &Target| self.before.iter().any(|b| b.key == t.key || b.node == t.node);
        // A menu a secondary click opened is told with its keys already.
        let listed = |t: &Target| self.secondary.as_ref().is_some_and(|c| c.in_menu(t.node));
        let mut new: Vec<&str> = Vec::new();
        for t in after.iter().filter(|t| !was(t) && !listed(t) && !t.label.trim().is_empty()) {
            if new.len() == 5 {
                break;
            }
            if !new.contains(&t.label.as_str()) {
                new.push(&t.label);
            }
        }
        if !new.is_empty() {
            parts.push(format!("new: {}", new.join(", ")));
        }
        clipped_to_owned(&said_once(parts).join("; "), CHANGES_CHARS)
    }
}

/// Each change said once, none blank: two rows of one name that both went are one "x gone".
fn said_once(parts: Vec<String>) -> Vec<String> {
    let mut once: Vec<String> = Vec::with_capacity(parts.len());
    for part in parts {
        if !part.trim().is_empty() && !once.contains(&part) {
            once.push(part);
        }
    }
    once
}

fn masked(value: &Value) -> Value {
    if value.as_str().is_some_and(str::is_empty) { json!("") } else { json!(MASK) }
}

/// Whether the window shows what was asked (a number as a number, whatever its JSON form).
fn same(asked: &Value, shown: &Value) -> bool {
    match (asked, shown) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::String(a), Value::Number(b)) => a.trim().parse::<f64>().ok() == b.as_f64(),
        (Value::Number(a), Value::String(b)) => a.to_string() == *b,
        _ => asked == shown,
    }
}

fn clipped_to_owned(s: &str, chars: usize) -> String {
    crate::hub::clipped_to(s, chars).into_owned()
}
