//! The call under way as the app's declarations meet it: claimed by the action it is for,
//! answered, rejected or kept to answer later, or waiting for the person's approval; and,
//! once applied, the wait for every viewport to declare after it. Each applied call marks a
//! window (`mark.rs`).

use std::sync::Arc;
use std::time::Instant;

use super::{FrameState, NEW_VIEWPORT_WAIT, PassEnd, SETTLE_WAIT, Settling};
use crate::hub::decl::AgentAction;
use crate::hub::phase::{MarkOf, NotKept, PassKey};
use crate::hub::{Outcome, PendingCall};
use crate::protocol::ToolError;

impl FrameState {
    /// The app declares `action` (titled `title`) on window `app_id` (`None` = app-level): hands
    /// over the call armed for this pass if it is for exactly that, and wins the claim on it.
    pub fn claim(&mut self, app_id: Option<&str>, action: &str, title: &str) -> Option<Arc<PendingCall>> {
        let pass = self.passes.last()?.key;
        let call = self.calls.claim(pass, app_id, action)?;
        self.claimed =
            Some(MarkOf { app_id: app_id.map(str::to_owned), action: action.to_owned(), title: title.to_owned() });
        Some(call)
    }

    /// The window (app id) and action of the call armed for the pass of `key` under way, not yet
    /// claimed: the plugin claims one for a window the app has not described itself.
    pub fn armed_for(&self, key: PassKey) -> Option<(String, String)> {
        self.calls.armed_for(key).map(|(w, a)| (w.to_owned(), a.to_owned()))
    }

    /// The call armed for the pass of `key` is checked again and armed in a later pass.
    pub fn disarm(&mut self, key: PassKey) {
        self.calls.disarm(key);
    }

    /// The app rejected the arguments before applying anything: answer at once.
    pub fn reject_claimed(&mut self, call: &Arc<PendingCall>, error: ToolError) {
        self.claimed = None;
        self.calls.reject_claimed(call, error);
    }

    /// The app's answer to the call it applied.
    pub fn set_outcome(&mut self, call: &Arc<PendingCall>, outcome: Outcome) {
        if let Some(MarkOf { app_id: Some(app_id), action, title }) = self.claimed.take() {
            let action = AgentAction { action, title, ok: outcome.is_ok(), waiting: false, at: Instant::now() };
            self.mark_call(app_id, action, call);
        }
        self.calls.set_outcome(call, outcome);
    }

    /// The app keeps the call it claimed in this pass, to answer on a later pass. Nothing is kept
    /// if it is not that call (it was answered, or its pass ended); nor past the limit of kept
    /// calls, when the call is answered here with the error (`NotKept::Refused`), never lost.
    pub fn defer(&mut self, call: &Arc<PendingCall>) -> Result<(), NotKept> {
        let Some(claimed) = self.claimed.clone() else { return Err(NotKept::NotClaimed) };
        match self.calls.defer(call, claimed.clone()) {
            Ok(()) => {}
            Err(NotKept::Refused(error)) => {
                // The tool is one the app declared (the claim matched it), not a client's string.
                tracing::warn!(tool = %call.tool_name(), "too many operations in progress to keep a call; it fails");
                self.set_outcome(call, Err(error.clone()));
                return Err(NotKept::Refused(error));
            }
            Err(NotKept::NotClaimed) => return Err(NotKept::NotClaimed),
        }
        self.claimed = None;
        let MarkOf { app_id, action, title } = claimed;
        if let Some(app_id) = app_id {
            self.mark_call(app_id, AgentAction { action, title, ok: true, waiting: true, at: Instant::now() }, call);
        }
        Ok(())
    }

    /// The app's answer to a call it deferred, in the pass under way or between passes. It goes
    /// out after the next publish; a pass given it is run again first, so that the published
    /// state is all after it. False if it came too late (its budget ran out): then it is dropped.
    pub fn answer_deferred(&mut self, call: &Arc<PendingCall>, outcome: Outcome) -> bool {
        let pass = self.passes.last().map(|p| p.key);
        let ok = outcome.is_ok();
        let Some(MarkOf { app_id, action, title }) = self.calls.deferred.answer(call, outcome, pass, &self.last) else {
            return false;
        };
        if let Some(app_id) = app_id {
            self.mark_call(app_id, AgentAction { action, title, ok, waiting: false, at: Instant::now() }, call);
        }
        if pass.is_none() {
            // Between passes: every viewport declares again before the state is published.
            self.settling = Some(Settling { after: self.epoch, since: Instant::now() });
        }
        true
    }

    /// Whether the call under way was applied, or a deferred call answered, in the pass of `key`
    /// under way: the plugin then asks egui to run that pass again at once (one-frame calls).
    pub fn applied_in_pass(&self, key: PassKey) -> bool {
        self.passes.last().is_some_and(|p| p.key == key)
            && (self.calls.claimed_in(key) || self.calls.deferred.answered_in(key))
    }

    /// The agent's call waiting for the person's approval on the window `app_id`, if any.
    pub fn approval(&self, app_id: &str) -> Option<crate::hub::Approval> {
        self.calls.approvals.get(Some(app_id))
    }

    /// The person's answer to the call waiting on the window `app_id`. False if none waits.
    pub fn answer_approval(&mut self, app_id: &str, allow: bool) -> bool {
        self.calls.approvals.answer(Some(app_id), allow)
    }

    /// Whether a call is admitted, or applied and not yet answered (a deferred call the app
    /// answered included; one it has not answered yet is not work for the UI).
    pub fn has_active_call(&self) -> bool {
        self.calls.is_busy() || self.calls.deferred.unsent()
    }

    /// Whether the state must wait for the call applied last to settle: every live viewport
    /// declares after it (those that did before it, and those that have not run a pass yet,
    /// one the call just opened), within [`SETTLE_WAIT`] and [`NEW_VIEWPORT_WAIT`]; `wanted`
    /// then asks for their passes. Past those waits it is published as they last declared.
    pub(super) fn still_settling(&mut self, key: PassKey, wanted: &mut PassEnd) -> bool {
        let Some(settling) = &self.settling else { return false };
        let stale: Vec<PassKey> = self.committed.iter().filter(|c| c.began <= settling.after).map(|c| c.key).collect();
        let new: Vec<PassKey> =
            self.live.iter().copied().filter(|k| !self.committed.iter().any(|c| c.key == *k)).collect();
        let waited = settling.since.elapsed();
        let wait_stale = !stale.is_empty() && waited < SETTLE_WAIT;
        let wait_new = !new.is_empty() && waited < NEW_VIEWPORT_WAIT;
        if wait_stale || wait_new {
            wanted.again = stale.contains(&key);
            wanted.repaint = stale.into_iter().chain(new).filter(|k| *k != key).collect();
            let wait = if wait_stale { SETTLE_WAIT } else { NEW_VIEWPORT_WAIT }.saturating_sub(waited);
            wanted.after = Some(wanted.after.map_or(wait, |due| due.min(wait)));
            return true;
        }
        if !stale.is_empty() || !new.is_empty() {
            tracing::warn!(
                viewports = stale.len() + new.len(),
                "a viewport ran no pass since the call was applied; publishing its windows as it last declared them"
            );
        }
        self.settling = None;
        false
    }
}
