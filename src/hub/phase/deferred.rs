//! Calls the app keeps to answer on a later pass, once the effect is in place (a port opened, a
//! file saved): "effects that take time".
//!
//! ```text
//!   Claimed ──defer──▶ Waiting ──the app answers in a pass──▶ AnsweredIn(pass) ──pass ends──▶ Settling ──publish──▶ answered
//!                         │    └─ the app answers between passes ──────────────────────────▶ Settling
//!                         └── its budget runs out (the UI's deadline, or the server's wait) ──▶ action_not_available
//!                                      ("took it, did not finish it": it may still take effect); the app's later answer is dropped
//! ```
//!
//! A deferred call leaves the call slot once the pass that deferred it is published, so other
//! calls go on meanwhile; each answer still takes effect on the UI thread, in a pass that is
//! run again before it is published (as the pass that applies a call is), and goes out after
//! that publish. At most [`MAX_DEFERRED_CALLS`] wait at once, at most
//! [`MAX_DEFERRED_PER_CONNECTION`] of one connection's: the limit binds only the keeping. Every
//! call is admitted as before (one that is answered at once needs no room, the app's own tool
//! that finishes the held calls included); past the limit the app's `defer` fails, and the call
//! is answered with why.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::PassKey;
use super::answer::{complete, what_is_new};
use crate::hub::call::{ClientId, Outcome, PendingCall};
use crate::hub::snapshot::Snapshot;
use crate::protocol::ToolError;

/// The most calls the app may keep to answer later at once (see [`crate::Deferred`]). While
/// this many wait, a call the app tries to keep is answered with `action_not_available` instead
/// (calls answered at once go on); each waits at most the call budget, so room comes back
/// within it.
pub const MAX_DEFERRED_CALLS: usize = 64;

/// The most of [`MAX_DEFERRED_CALLS`] one connection's calls may hold at once, so that one client
/// alone never fills them: past it, that connection's next call the app tries to keep is
/// answered with `action_not_available`, and other connections' are still kept.
pub const MAX_DEFERRED_PER_CONNECTION: usize = MAX_DEFERRED_CALLS / 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The agent waits for the app's answer.
    Waiting,
    /// Answered in this pass, which is under way: the pass is run again before it is published.
    AnsweredIn(PassKey),
    /// Answered; sent after the next publish.
    Settling,
}

/// What the app declared for the call it claimed, which its mark shows: the window's app id
/// (`None` for the app), the action and its title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MarkOf {
    pub app_id: Option<String>,
    pub action: String,
    pub title: String,
}

#[derive(Debug)]
struct Kept {
    call: Arc<PendingCall>,
    stage: Stage,
    /// The windows and tools the pass that claimed it made new, once it is published.
    claimed: Option<(Vec<String>, Vec<String>)>,
    /// The state published before the pass that answered it.
    before_answer: Option<Arc<Snapshot>>,
    outcome: Option<Outcome>,
    mark: MarkOf,
}

/// The calls kept to answer later.
#[derive(Debug, Default)]
pub(crate) struct Deferrals {
    kept: Vec<Kept>,
    /// The call budget, as the last [`Self::prune`] was given it.
    budget: Duration,
}

impl Deferrals {
    /// Whether one more call of `client` may be kept; if not, the error its agent gets.
    pub fn room_for(&self, client: ClientId) -> Result<(), ToolError> {
        if self.kept.len() >= MAX_DEFERRED_CALLS {
            return Err(ToolError::too_many_deferred(MAX_DEFERRED_CALLS));
        }
        if self.kept.iter().filter(|k| k.call.client == client).count() >= MAX_DEFERRED_PER_CONNECTION {
            return Err(ToolError::too_many_deferred_of_connection(MAX_DEFERRED_PER_CONNECTION));
        }
        Ok(())
    }

    /// The app keeps `call` (claimed, just moved to deferred) to answer later.
    pub fn keep(&mut self, call: Arc<PendingCall>, mark: MarkOf) {
        self.kept.push(Kept { call, stage: Stage::Waiting, claimed: None, before_answer: None, outcome: None, mark });
    }

    /// The pass that deferred `call` is published: `before` is the state before its claim.
    pub fn claim_published(&mut self, call: &Arc<PendingCall>, before: &Snapshot, published: &Snapshot) {
        if let Some(k) = self.kept.iter_mut().find(|k| Arc::ptr_eq(&k.call, call)) {
            k.claimed = Some(what_is_new(before, published));
        }
    }

    /// The app answers `call` in `pass` (`None`: between passes), `last` being the state
    /// published last. Returns what the call marks if the answer is taken; `None` if it came too
    /// late (the budget ran out, or the app is exiting), when it is dropped.
    pub fn answer(
        &mut self,
        call: &Arc<PendingCall>,
        outcome: Outcome,
        pass: Option<PassKey>,
        last: &Arc<Snapshot>,
    ) -> Option<MarkOf> {
        let at = self.kept.iter().position(|k| Arc::ptr_eq(&k.call, call));
        if !call.take_back() {
            if let Some(at) = at {
                self.kept.swap_remove(at);
            }
            return None;
        }
        let Some(k) = at.and_then(|at| self.kept.get_mut(at)) else {
            // Not kept (cannot happen: taken back means it was deferred here): answer as is.
            call.resolve(outcome);
            return None;
        };
        k.outcome = Some(outcome);
        k.before_answer = Some(Arc::clone(last));
        k.stage = pass.map_or(Stage::Settling, Stage::AnsweredIn);
        Some(k.mark.clone())
    }

    /// Whether a kept call was answered in `pass`, which is under way.
    pub fn answered_in(&self, pass: PassKey) -> bool {
        self.kept.iter().any(|k| k.stage == Stage::AnsweredIn(pass))
    }

    /// `pass` ended (or is run again): what was answered in it settles. Returns whether any was.
    pub fn settle(&mut self, pass: PassKey) -> bool {
        let mut any = false;
        for k in self.kept.iter_mut().filter(|k| k.stage == Stage::AnsweredIn(pass)) {
            k.stage = Stage::Settling;
            any = true;
        }
        any
    }

    /// Whether an answer waits for its publish.
    pub fn unsent(&self) -> bool {
        self.kept.iter().any(|k| k.stage != Stage::Waiting)
    }

    /// After the publish of `published`: sends the settled answers, with what the operation made
    /// new (in the pass that claimed it, and in the pass that answered it, as far as it is still
    /// there) and the window's version now.
    pub fn finish(&mut self, published: &Snapshot) {
        let mut k = 0;
        while k < self.kept.len() {
            if self.kept[k].stage != Stage::Settling {
                k += 1;
                continue;
            }
            let kept = self.kept.swap_remove(k);
            let outcome = kept.outcome.unwrap_or_else(|| Err(ToolError::deferred_dropped(&kept.call.tool_name())));
            let (mut windows, mut tools) = kept.claimed.unwrap_or_default();
            windows.retain(|w| published.window(w).is_some());
            tools.retain(|t| published.tool(t).is_some());
            if let Some(before) = &kept.before_answer {
                let (w, t) = what_is_new(before, published);
                windows.extend(w.into_iter().filter(|w| !windows.contains(w)).collect::<Vec<_>>());
                tools.extend(t.into_iter().filter(|t| !tools.contains(t)).collect::<Vec<_>>());
            }
            let outcome = complete(outcome, &kept.call, published, windows, tools);
            tracing::debug!(tool = %kept.call.tool_name(), ok = outcome.is_ok(), "deferred call resolved");
            kept.call.resolve(outcome);
        }
    }

    /// Start of a pass: ends the kept calls past their deadline with
    /// [`ToolError::deferred_unfinished`] (unless their effect is under way: then only their
    /// answer ends them), and forgets those that ended meanwhile (the server's wait ran out).
    /// Returns when the next one is due, to wake for it, and the calls that ended (their marks).
    pub fn prune(&mut self, budget: Duration) -> (Option<Duration>, Vec<Arc<PendingCall>>) {
        self.budget = budget;
        let now = Instant::now();
        let mut ended = Vec::new();
        self.kept.retain(|k| {
            if k.stage != Stage::Waiting {
                return true;
            }
            if now > k.call.deadline && !k.call.expire(k.call.expired(budget)) && now > k.call.deadline + budget {
                // Its effect was under way and no answer came within a second budget (its
                // viewport stopped running passes): ended, saying so, never `action_timeout`.
                if k.call.take_back() {
                    k.call.resolve(Err(ToolError::no_effect_seen(&k.call.tool_name())));
                }
            }
            let waiting = k.call.is_deferred();
            if !waiting {
                ended.push(Arc::clone(&k.call));
            }
            waiting
        });
        (self.due(), ended)
    }

    /// How long until the next waiting call's budget runs out (a little past it, so that the
    /// pass then finds it passed).
    pub fn due(&self) -> Option<Duration> {
        // One whose effect is under way is not ended by its budget, only a budget later.
        let waiting = self.kept.iter().filter(|k| k.stage == Stage::Waiting);
        let next =
            waiting.map(|k| if k.call.may_expire() { k.call.deadline } else { k.call.deadline + self.budget }).min()?;
        Some(next.saturating_duration_since(Instant::now()) + Duration::from_millis(1))
    }

    /// The app is exiting: answered calls get their answer, waiting ones an error.
    pub fn shutdown(&mut self) {
        for k in self.kept.drain(..) {
            match k.outcome {
                Some(outcome) => k.call.resolve(outcome),
                None => {
                    if !k.call.expire(ToolError::app_exiting()) && k.call.take_back() {
                        // Its effect was under way: not `action_timeout`, which says it was not.
                        k.call.resolve(Err(ToolError::deferred_dropped(&k.call.tool_name())));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::hub::call::CallTarget;
    use crate::protocol::ErrorCode;

    fn kept_call(deadline: Instant) -> (Arc<PendingCall>, tokio::sync::oneshot::Receiver<Outcome>) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let call =
            Arc::new(PendingCall::new(CallTarget::parse("w"), "press".into(), Map::new(), None, deadline, tx, None));
        assert!(call.try_claim() && call.defer());
        (call, rx)
    }

    fn mark() -> MarkOf {
        MarkOf { app_id: Some("w".into()), action: "press".into(), title: "Press".into() }
    }

    #[test]
    fn a_call_whose_effect_started_ends_a_budget_past_its_deadline_and_never_with_action_timeout() {
        let budget = Duration::from_millis(40);
        let mut d = Deferrals::default();
        // Past its deadline, not yet a budget past it: kept, and a pass asked for then.
        let (call, mut rx) = kept_call(Instant::now().checked_sub(Duration::from_millis(1)).expect("clock"));
        assert!(call.start_applying());
        d.keep(Arc::clone(&call), mark());
        let (due, ended) = d.prune(budget);
        assert!(ended.is_empty() && rx.try_recv().is_err(), "applied: not ended by its budget");
        assert!(due.is_some_and(|due| due <= budget + Duration::from_millis(1)), "{due:?}");
        // A budget past its deadline.
        let (late, mut late_rx) = kept_call(Instant::now().checked_sub(budget * 2).expect("clock"));
        assert!(late.start_applying());
        d.keep(Arc::clone(&late), mark());
        let (_, ended) = d.prune(budget);
        assert_eq!(ended.len(), 1);
        let e = late_rx.try_recv().expect("answered").expect_err("no effect seen");
        assert_eq!(e.code, ErrorCode::ActionNotAvailable, "{e:?}");
        // One whose effect never started ends at its deadline, as before: the app's may still
        // finish (not `action_timeout`); the bridge's never will (`action_timeout`).
        let (idle, mut idle_rx) = kept_call(Instant::now().checked_sub(Duration::from_millis(1)).expect("clock"));
        d.keep(Arc::clone(&idle), mark());
        let (generic, mut generic_rx) = kept_call(Instant::now().checked_sub(Duration::from_millis(1)).expect("clock"));
        generic.kept_by_bridge();
        d.keep(Arc::clone(&generic), mark());
        let (_, ended) = d.prune(budget);
        assert_eq!(ended.len(), 2);
        let e = idle_rx.try_recv().expect("answered").expect_err("not finished");
        assert_eq!(e.code, ErrorCode::ActionNotAvailable, "{e:?}");
        let e = generic_rx.try_recv().expect("answered").expect_err("never applied");
        assert_eq!(e.code, ErrorCode::ActionTimeout, "{e:?}");
        assert!(!generic.start_applying(), "and never will be");
    }
}
