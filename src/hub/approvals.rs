//! Agent calls that wait for the person's approval, for actions marked
//! [`ActionSpec::ask_person`](crate::ActionSpec::ask_person) (an extension beyond spec 0.1, whose
//! §10.6 leaves permission gates out).
//!
//! A call to such an action is validated as any other when the UI thread takes it from the
//! queue, then held here instead of being admitted: still pending, so that its budget runs out
//! as any call's does (the hub cancels it, and then it is never applied). The window shows it
//! with Allow and Deny. Allow marks it approved and hands it back to admission first in line,
//! where it is checked again against the state of the moment (a window the person changed
//! meanwhile answers `stale_state`) and applied exactly as a direct call. Deny answers
//! `denied_by_user`. One call waits per window: another one for the same window is refused at
//! once, so nothing piles up behind the person.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::call::PendingCall;
use super::snapshot::ToolSpec;
use crate::protocol::{ErrorCode, ToolError};

/// How many characters of an argument the prompt shows.
const SHOWN_CHARS: usize = 80;

/// What the person is asked to approve: the action and its arguments, masked where the
/// action's schema says a parameter is a secret (`writeOnly`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approval {
    /// The action's title ("Authorize payment").
    pub title: String,
    /// Each argument as the person sees it: its name, and its value (clipped; `••••••` for a
    /// secret).
    pub arguments: Vec<(String, String)>,
    /// How long the agent still waits for the answer.
    pub time_left: Duration,
}

#[derive(Debug)]
struct Waiting {
    call: Arc<PendingCall>,
    app_id: Option<String>,
    approval: Approval,
}

/// The calls that wait for the person, and those the person allowed.
#[derive(Debug, Default)]
pub(crate) struct Approvals {
    waiting: Vec<Waiting>,
    allowed: VecDeque<Arc<PendingCall>>,
}

impl Approvals {
    /// Holds `call` (validated, to `tool`, on the window `app_id`) for the person. Another call
    /// already waiting on that window: this one is refused at once.
    pub fn hold(&mut self, call: Arc<PendingCall>, app_id: Option<String>, tool: &ToolSpec) {
        if self.waiting.iter().any(|w| w.app_id == app_id && w.call.is_pending()) {
            call.reject(ToolError::new(
                ErrorCode::ActionNotAvailable,
                "An earlier call to this window is waiting for the person's approval; call again once it is answered",
            ));
            return;
        }
        let approval = Approval {
            title: tool.title.clone(),
            arguments: shown_arguments(&call.args, &tool.input_schema),
            time_left: call.deadline.saturating_duration_since(Instant::now()),
        };
        tracing::debug!(tool = %tool.name, "a call waits for the person's approval");
        self.waiting.push(Waiting { call, app_id, approval });
    }

    /// The next call the person allowed, first in line for admission.
    pub fn next_allowed(&mut self) -> Option<Arc<PendingCall>> {
        self.allowed.pop_front()
    }

    /// Forgets calls that ended meanwhile (their budget ran out, their client left) and answers
    /// those past their deadline. Returns how long until the next deadline, if any waits.
    pub fn prune(&mut self, budget: Duration) -> Option<Duration> {
        let now = Instant::now();
        self.waiting.retain(|w| {
            if w.call.is_pending() && now > w.call.deadline {
                w.call.reject(ToolError::timeout(budget));
            }
            w.call.is_pending()
        });
        self.waiting.iter().map(|w| w.call.deadline.saturating_duration_since(now)).min()
    }

    /// What waits for the person on the window `app_id` (`None`: app-level actions).
    pub fn get(&self, app_id: Option<&str>) -> Option<Approval> {
        let w = self.waiting.iter().find(|w| w.app_id.as_deref() == app_id && w.call.is_pending())?;
        let time_left = w.call.deadline.saturating_duration_since(Instant::now());
        Some(Approval { time_left, ..w.approval.clone() })
    }

    /// The person's answer for the window `app_id`. False if nothing waits there (any more).
    pub fn answer(&mut self, app_id: Option<&str>, allow: bool) -> bool {
        let Some(k) = self.waiting.iter().position(|w| w.app_id.as_deref() == app_id) else { return false };
        let w = self.waiting.remove(k);
        if !w.call.is_pending() {
            return false; // its budget ran out first: it is never applied
        }
        if allow {
            w.call.approve();
            self.allowed.push_back(w.call);
        } else {
            w.call.reject(ToolError::new(
                ErrorCode::DeniedByUser,
                "The person at the app denied this call; nothing was applied",
            ));
        }
        true
    }
}

/// The arguments as the person sees them: secrets (`writeOnly` in the schema) masked, long
/// values clipped, `expectedVersion` left out (it was taken off before).
fn shown_arguments(args: &Value, schema: &Map<String, Value>) -> Vec<(String, String)> {
    let Value::Object(args) = args else { return Vec::new() };
    let properties = schema.get("properties").and_then(Value::as_object);
    args.iter()
        .map(|(name, value)| {
            let secret = properties
                .and_then(|p| p.get(name))
                .and_then(|p| p.get("writeOnly"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let text = match value {
                _ if secret => crate::protocol::MASK.to_owned(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (name.clone(), super::clipped_to(&text, SHOWN_CHARS).into_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn secrets_are_masked_and_long_values_clipped() {
        let schema =
            json!({"properties": {"password": {"type": "string", "writeOnly": true}, "note": {"type": "string"}}});
        let args = json!({"password": "hunter2", "note": "x".repeat(200)});
        let shown: std::collections::HashMap<_, _> =
            shown_arguments(&args, schema.as_object().unwrap()).into_iter().collect();
        assert_eq!(shown["note"].chars().count(), SHOWN_CHARS + 1);
        assert_eq!(shown["password"], crate::protocol::MASK);
    }
}
