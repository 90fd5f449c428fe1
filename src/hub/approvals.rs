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
//!
//! The person has the call's budget less a margin ([`margin`]) to answer; then the agent is told
//! the person did not answer (`action_timeout`: nobody said no, so not `denied_by_user`), before
//! its own timer would say the UI did not take the call. The prompt counts down the seconds
//! left rounded up ([`Approval::seconds_left`]), so it never shows 0 while an answer counts. A
//! pass that carries the person's input counts as [`grace`] earlier than it began: a click made
//! on a prompt that still showed time left reaches egui a frame later, and is taken. A window
//! that closes (the person, the app, another agent's call) answers its waiting call
//! `window_not_found` at the publish that no longer has it.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::call::{CallTarget, PendingCall};
use super::snapshot::{Snapshot, ToolSpec};
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
    /// How long the person still has to answer: the call's budget less a margin (a quarter of
    /// it, at most a second) that leaves time to apply an Allow given at the last moment.
    pub time_left: Duration,
}

impl Approval {
    /// The seconds a countdown shows: [`Self::time_left`] rounded up, so it reads 0 only once
    /// an answer no longer counts (and then nothing waits any more).
    pub fn seconds_left(&self) -> u64 {
        self.time_left.as_secs() + u64::from(self.time_left.subsec_nanos() > 0)
    }
}

#[derive(Debug)]
struct Waiting {
    call: Arc<PendingCall>,
    app_id: Option<String>,
    approval: Approval,
    /// The person's answer counts until then.
    until: Instant,
}

/// The calls that wait for the person, and those the person allowed.
#[derive(Debug, Default)]
pub(crate) struct Approvals {
    waiting: Vec<Waiting>,
    allowed: VecDeque<Arc<PendingCall>>,
    /// How much earlier than now the pass last begun counts as (its grace, if it carries the
    /// person's input).
    grace: Duration,
}

/// Of a call's budget, what the person does not get to answer in: time to apply an Allow given
/// at the last moment, and to tell the agent the person did not answer before its own timer
/// says the UI did not take the call. A quarter of the budget, at most a second.
fn margin(budget: Duration) -> Duration {
    (budget / 4).min(Duration::from_secs(1))
}

/// How much earlier than its start a pass that carries the person's input counts as: the click
/// in it was made before (250 ms at the default budget, a quarter of the margin, so that an
/// Allow taken this late still has the rest of the margin to be applied).
fn grace(budget: Duration) -> Duration {
    margin(budget) / 4
}

impl Approvals {
    /// Holds `call` (validated, to `tool`, on the window `app_id`) for the person, who has its
    /// budget less the [`margin`] to answer. Another call already waiting on that window: this
    /// one is refused at once.
    pub fn hold(&mut self, call: Arc<PendingCall>, app_id: Option<String>, tool: &ToolSpec, budget: Duration) {
        if self.waiting.iter().any(|w| w.app_id == app_id && w.call.is_pending()) {
            call.reject(ToolError::new(
                ErrorCode::ActionNotAvailable,
                "An earlier call to this window is waiting for the person's approval; call again once it is answered",
            ));
            return;
        }
        let until = call.deadline.checked_sub(margin(budget)).unwrap_or(call.deadline);
        let approval = Approval {
            title: tool.title.clone(),
            arguments: shown_arguments(&call.args, &tool.input_schema),
            time_left: until.saturating_duration_since(Instant::now()),
        };
        tracing::debug!(tool = %tool.name, "a call waits for the person's approval");
        self.waiting.push(Waiting { call, app_id, approval, until });
    }

    /// The next call the person allowed, first in line for admission.
    pub fn next_allowed(&mut self) -> Option<Arc<PendingCall>> {
        self.allowed.pop_front()
    }

    /// Start of a pass (`person_input`: it carries the person's input, which counts as made up
    /// to [`grace`] before). Forgets calls that ended meanwhile (their budget ran out, their
    /// client left) and answers those the person did not answer in time. Returns how long until
    /// the next one's time is up, if any waits: a pass is due then, to answer it.
    pub fn prune(&mut self, budget: Duration, person_input: bool) -> Option<Duration> {
        self.prune_at(Instant::now(), budget, person_input)
    }

    fn prune_at(&mut self, now: Instant, budget: Duration, person_input: bool) -> Option<Duration> {
        self.grace = if person_input { grace(budget) } else { Duration::ZERO };
        let clock = self.clock(now);
        self.waiting.retain(|w| {
            if w.call.is_pending() && clock >= w.until {
                w.call.reject(ToolError::unanswered_by_person(w.approval.seconds_left()));
            }
            w.call.is_pending()
        });
        self.waiting.iter().map(|w| w.until.saturating_duration_since(now)).min()
    }

    /// The instant the pass under way counts as.
    fn clock(&self, now: Instant) -> Instant {
        now.checked_sub(self.grace).unwrap_or(now)
    }

    /// After a publish: a call whose window `published` no longer has (the person, the app or
    /// another agent closed it) is answered `window_not_found` now, not when its time is up.
    pub fn forget_closed(&mut self, published: &Snapshot) {
        self.waiting.retain(|w| {
            if let CallTarget::Window(handle) = &w.call.target
                && published.window(handle).is_none()
            {
                w.call.reject(ToolError::new(
                    ErrorCode::WindowNotFound,
                    format!(
                        "Window {handle} closed while the call waited for the person's approval; nothing was applied"
                    ),
                ));
            }
            w.call.is_pending()
        });
    }

    /// The app is exiting: every held or allowed call is answered with `error`.
    pub fn shutdown(&mut self, error: &ToolError) {
        for call in self.waiting.drain(..).map(|w| w.call).chain(self.allowed.drain(..)) {
            call.reject(error.clone());
        }
    }

    /// What waits for the person on the window `app_id` (`None`: app-level actions), while the
    /// person's answer counts.
    pub fn get(&self, app_id: Option<&str>) -> Option<Approval> {
        self.get_at(app_id, Instant::now())
    }

    fn get_at(&self, app_id: Option<&str>, now: Instant) -> Option<Approval> {
        let clock = self.clock(now);
        let w = self.waiting.iter().find(|w| w.app_id.as_deref() == app_id && w.call.is_pending())?;
        (clock < w.until)
            .then(|| Approval { time_left: w.until.saturating_duration_since(clock), ..w.approval.clone() })
    }

    /// The person's answer for the window `app_id`. False if nothing waits there (any more): the
    /// call ended, or the person's time is up (then the agent is told they did not answer).
    pub fn answer(&mut self, app_id: Option<&str>, allow: bool) -> bool {
        self.answer_at(app_id, allow, Instant::now())
    }

    fn answer_at(&mut self, app_id: Option<&str>, allow: bool, now: Instant) -> bool {
        let clock = self.clock(now);
        let Some(k) = self.waiting.iter().position(|w| w.app_id.as_deref() == app_id) else { return false };
        let w = self.waiting.remove(k);
        if !w.call.is_pending() {
            return false; // its budget ran out first: it is never applied
        }
        if clock >= w.until {
            w.call.reject(ToolError::unanswered_by_person(w.approval.seconds_left()));
            return false;
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
    use tokio::sync::oneshot;

    use super::*;
    use crate::hub::Outcome;
    use crate::hub::action::Hints;

    const BUDGET: Duration = Duration::from_secs(10);

    fn pay() -> ToolSpec {
        ToolSpec {
            name: "till__pay".into(),
            title: "Pay".into(),
            description: "Pay".into(),
            input_schema: Arc::new(Map::new()),
            hints: Hints::default(),
            ask_person: true,
        }
    }

    /// A call held for the person with the default budget from `start`; its answer, and the
    /// instant the person's time is up.
    fn held(approvals: &mut Approvals, start: Instant) -> (Arc<PendingCall>, oneshot::Receiver<Outcome>, Instant) {
        let (reply, rx) = oneshot::channel();
        let target = CallTarget::Window("till".into());
        let deadline = start + BUDGET;
        let call = Arc::new(PendingCall::new(target, "pay".into(), Map::new(), None, deadline, reply, None));
        approvals.hold(Arc::clone(&call), Some("till".into()), &pay(), BUDGET);
        (call, rx, deadline.checked_sub(margin(BUDGET)).expect("after the clock's start"))
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_countdown_rounds_up() {
        let shown = |left| Approval { title: String::new(), arguments: Vec::new(), time_left: left }.seconds_left();
        assert_eq!(shown(Duration::ZERO), 0);
        assert_eq!(shown(Duration::from_nanos(1)), 1);
        assert_eq!(shown(ms(999)), 1);
        assert_eq!(shown(ms(1000)), 1);
        assert_eq!(shown(ms(1001)), 2);
        assert_eq!(shown(ms(8_400)), 9);
    }

    /// At every moment around the end of the person's time, with and without the person's input
    /// in the pass: the prompt is there exactly while Allow is taken, and then shows at least 1 s.
    #[test]
    fn the_prompt_never_shows_0_while_allow_counts_and_is_gone_when_it_does_not() {
        let start = Instant::now();
        let grace = i64::try_from(grace(BUDGET).as_millis()).expect("small");
        let mut seen_late_allow = false;
        for person_input in [false, true] {
            for offset in [-3000, -1001, -1000, -999, -1, 0, 1, 100, grace - 1, grace, grace + 1, 2000] {
                let at = |until: Instant| {
                    let by = ms(offset.unsigned_abs());
                    if offset < 0 { until.checked_sub(by).expect("after the clock's start") } else { until + by }
                };
                // The prompt drawn in that pass.
                let mut approvals = Approvals::default();
                let (_call, _rx, until) = held(&mut approvals, start);
                approvals.prune_at(at(until), BUDGET, person_input);
                let shown = approvals.get_at(Some("till"), at(until));
                // The person's Allow in that pass.
                let mut approvals = Approvals::default();
                let (call, _rx, until) = held(&mut approvals, start);
                approvals.prune_at(at(until), BUDGET, person_input);
                let taken = approvals.answer_at(Some("till"), true, at(until));
                assert_eq!(shown.is_some(), taken, "{offset} ms, input {person_input}: shown exactly while taken");
                assert_eq!(taken, approvals.next_allowed().is_some_and(|c| Arc::ptr_eq(&c, &call)));
                if let Some(shown) = shown {
                    assert!(shown.seconds_left() >= 1, "{offset} ms, input {person_input}: shows {shown:?}");
                    assert!(Duration::from_secs(shown.seconds_left()) >= shown.time_left);
                }
                assert_eq!(taken, offset < 0 || (person_input && offset < grace), "{offset} ms, input {person_input}");
                seen_late_allow |= taken && offset > 0;
            }
        }
        assert!(seen_late_allow, "an Allow made in time, in a pass a little after, counts");
    }

    /// An Allow clicked at the last moment, in a pass that begins just after the person's time is
    /// up, is taken and left time to be applied; the same pass without the person's input ends
    /// the wait, and the agent is told the person did not answer, before its budget runs out.
    #[test]
    fn an_allow_at_the_last_moment_counts_and_no_answer_says_so() {
        let start = Instant::now();
        let mut approvals = Approvals::default();
        let (call, _rx, until) = held(&mut approvals, start);
        let late = until + grace(BUDGET) / 2;
        assert_eq!(approvals.prune_at(late, BUDGET, true), Some(Duration::ZERO), "a pass is due at once");
        assert!(approvals.answer_at(Some("till"), true, late), "the click was made in time");
        let allowed = approvals.next_allowed().expect("first in line");
        assert!(Arc::ptr_eq(&allowed, &call) && call.is_approved() && call.is_pending());
        assert!(call.deadline > late + margin(BUDGET) / 2, "time left to apply it");

        let mut approvals = Approvals::default();
        let (call, mut rx, until) = held(&mut approvals, start);
        assert_eq!(
            approvals.prune_at(until.checked_sub(ms(1)).expect("after the clock's start"), BUDGET, false),
            Some(ms(1)),
            "a pass when the time is up"
        );
        assert!(call.is_pending(), "still the person's time");
        approvals.prune_at(until, BUDGET, false);
        let e = rx.try_recv().expect("answered").expect_err("not applied");
        assert_eq!(e.code, ErrorCode::ActionTimeout);
        assert!(e.message.contains("person at the app did not answer"), "{}", e.message);
        assert!(call.deadline > until, "answered before the agent's own budget runs out");
        assert!(approvals.get_at(Some("till"), until).is_none(), "the prompt is gone");
        assert!(!approvals.answer_at(Some("till"), true, until));
    }

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
