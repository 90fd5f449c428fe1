//! The call state machine of the UI thread: at most one agent call at a time, from admission
//! to its answer.
//!
//! ```text
//!   queue ──admit──▶ Admitted ──arm──▶ (armed) ──claim──▶ Claimed ──pass ends──▶ Settling ──publish──▶ answered
//!                       │                 └── its pass ends, never claimed ──▶ answered with why,
//!                       │                                                     against the published state
//!                       └── cancelled or past its deadline before it is armed ──▶ dropped / answered
//! ```
//!
//! - **Admit** (start of a pass): the oldest queued call still pending, not past its deadline,
//!   and valid against the last published snapshot. A pass with the person's input admits none,
//!   so the person's change is published first and the call is checked against it (§7.1). A
//!   call to an action that asks the person is held instead (`approvals.rs`) until Allow puts
//!   it back, first in line.
//! - **Arm** (start of the pass of the viewport that declares the target): the call is checked
//!   again against the state published last (another viewport's pass, the person's input in
//!   it, may have changed it), and may be claimed in this pass only.
//! - **Claim** (the app declares the action): wins the call's atomic claim, so a call that timed
//!   out meanwhile is never applied.
//! - **Settle**: the pass that applied the call is not published (its declarations may mix the
//!   states before and after); the next one is, and only then is the call answered, with the
//!   windows and tools it made new ([`answer`]).
//! - **Defer**: instead of answering, the app may keep the call to answer on a later pass
//!   ([`deferred`]). It settles as above, and once that pass is published it leaves the slot for
//!   the calls the app keeps; the slot takes the next call. Past the limit of kept calls (all of
//!   them, or the connection's share) the defer fails: the call settles answered with why.

mod admit;
mod answer;
mod deferred;

pub(crate) use deferred::MarkOf;
pub use deferred::{MAX_DEFERRED_CALLS, MAX_DEFERRED_PER_CONNECTION};

use std::sync::Arc;

use super::approvals::Approvals;
use super::call::{Outcome, PendingCall};
use super::snapshot::Snapshot;
use crate::protocol::ToolError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Validated against the last snapshot; the app has not taken it yet.
    Admitted,
    /// The app took it in this pass and applied it.
    Claimed,
    /// Applied; one more pass runs so that everything it caused is declared and published.
    Settling,
}

#[derive(Debug)]
struct ActiveCall {
    call: Arc<PendingCall>,
    /// The app's id of the target window (`None` for app-level actions).
    app_id: Option<String>,
    /// The pass (viewport) that declares the target, if known: the call is applied there.
    pass: Option<PassKey>,
    /// The pass in which the call may be claimed (armed after a re-check against the state
    /// published just before it).
    armed: Option<PassKey>,
    /// Armed in a pass that ended without claiming it: answered after the next publish.
    unclaimed: bool,
    /// The app keeps it to answer later (in [`CallSlot::deferred`] too).
    deferred: bool,
    phase: Phase,
    /// The snapshot the call was checked against last: the windows and tools before it.
    before: Arc<Snapshot>,
    outcome: Option<Outcome>,
}

/// Which pass (an egui viewport's) declarations come from: an opaque key.
pub(crate) type PassKey = u64;

/// Why the app could not keep a call to answer later.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NotKept {
    /// It is not the call claimed in this pass (answered already, or kept from an earlier one).
    NotClaimed,
    /// No room (too many kept, of all or of its connection): it is answered with this error.
    Refused(ToolError),
}

/// What the end of a pass means for the active call.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum AfterPass {
    /// The call was applied in this pass: its declarations may mix before and after, and every
    /// pass's declarations must be made again before the state is published.
    Applied,
    /// Nothing was applied in this pass.
    Nothing,
}

/// The one call the UI thread works on.
#[derive(Debug, Default)]
pub(crate) struct CallSlot {
    active: Option<ActiveCall>,
    /// Calls to actions that ask the person first, and those the person allowed.
    pub approvals: Approvals,
    /// Whether such calls wait for the person (off: applied as any other).
    pub ask_person: bool,
    /// Calls the app keeps to answer on a later pass.
    pub deferred: deferred::Deferrals,
}

impl CallSlot {
    /// Whether a call is admitted, or applied and not yet answered.
    pub fn is_busy(&self) -> bool {
        self.active.is_some()
    }

    /// Whether a call was applied and waits for its state to be published.
    #[cfg(test)]
    pub fn is_settling(&self) -> bool {
        self.active.as_ref().is_some_and(|a| a.phase == Phase::Settling)
    }

    /// The pass an admitted call waits for (to ask for it), if not the one under way.
    pub fn waits_for(&self) -> Option<PassKey> {
        self.active.as_ref().filter(|a| a.phase == Phase::Admitted && a.armed.is_none()).and_then(|a| a.pass)
    }

    /// The window (app id) and action of the call armed for `pass` and not yet claimed.
    pub fn armed_for(&self, pass: PassKey) -> Option<(&str, &str)> {
        let a = self.active.as_ref().filter(|a| a.phase == Phase::Admitted && a.armed == Some(pass))?;
        Some((a.app_id.as_deref()?, a.call.action.as_str()))
    }

    /// The call armed for `pass` may not be claimed in it after all (the state it was checked
    /// against is not fresh enough): it is checked again and armed in a later pass.
    pub fn disarm(&mut self, pass: PassKey) {
        if let Some(a) = self.active.as_mut().filter(|a| a.phase == Phase::Admitted && a.armed == Some(pass)) {
            a.armed = None;
        }
    }

    /// The app declares `action` on window `app_id` (`None` = app-level) in `pass`: hands over
    /// the call armed for this pass if it is for exactly that, and wins the claim on it.
    pub fn claim(&mut self, pass: PassKey, app_id: Option<&str>, action: &str) -> Option<Arc<PendingCall>> {
        let active = self.active.as_mut()?;
        if active.phase != Phase::Admitted
            || active.armed != Some(pass)
            || active.app_id.as_deref() != app_id
            || active.call.action != action
        {
            return None;
        }
        if active.call.try_claim() {
            active.phase = Phase::Claimed;
            Some(Arc::clone(&active.call))
        } else {
            self.active = None; // timed out meanwhile: never applied
            None
        }
    }

    /// The app rejected the arguments before applying anything: answer at once.
    pub fn reject_claimed(&mut self, call: &Arc<PendingCall>, error: ToolError) {
        if self.active.as_ref().is_some_and(|a| Arc::ptr_eq(&a.call, call)) {
            self.active = None;
        }
        call.resolve(Err(error));
    }

    /// The app keeps the call it claimed in this pass to answer later; `mark` is what it marks.
    /// Nothing is kept if it is not the call claimed in this pass, or if there is no room (then
    /// the caller answers it with the error).
    pub fn defer(&mut self, call: &Arc<PendingCall>, mark: MarkOf) -> Result<(), NotKept> {
        let Some(a) = self.active.as_mut().filter(|a| Arc::ptr_eq(&a.call, call) && a.phase == Phase::Claimed) else {
            return Err(NotKept::NotClaimed);
        };
        if a.deferred {
            return Err(NotKept::NotClaimed);
        }
        self.deferred.room_for(call.client).map_err(NotKept::Refused)?;
        if !call.defer() {
            return Err(NotKept::NotClaimed);
        }
        a.deferred = true;
        self.deferred.keep(Arc::clone(call), mark);
        Ok(())
    }

    /// The app's answer to the call it applied. Kept until the state it caused is published.
    pub fn set_outcome(&mut self, call: &Arc<PendingCall>, outcome: Outcome) {
        match self.active.as_mut() {
            Some(a) if Arc::ptr_eq(&a.call, call) => a.outcome = Some(outcome),
            _ => {
                tracing::warn!(tool = %call.tool_name(), "a reply came after its frame ended; it was dropped");
            }
        }
    }

    /// Whether the call was claimed (applied) in `pass`, which has not ended yet.
    pub fn claimed_in(&self, pass: PassKey) -> bool {
        self.active.as_ref().is_some_and(|a| a.phase == Phase::Claimed && a.armed == Some(pass))
    }

    /// `pass` is discarded (egui runs it again at once): a call applied in it settles, and the
    /// pass that runs again declares everything after it. Returns whether one did.
    pub fn settle_if_claimed(&mut self, pass: PassKey) -> bool {
        match self.active.as_mut() {
            Some(a) if a.phase == Phase::Claimed && a.armed == Some(pass) => {
                a.phase = Phase::Settling;
                true
            }
            _ => false,
        }
    }

    /// End of `pass` (one egui keeps): whether the call was applied in it. A call armed in it
    /// and not claimed is answered after the next publish, with the reason.
    pub fn after_pass(&mut self, pass: PassKey) -> AfterPass {
        let Some(a) = self.active.as_mut().filter(|a| a.armed == Some(pass)) else { return AfterPass::Nothing };
        match a.phase {
            Phase::Claimed => {
                a.phase = Phase::Settling;
                AfterPass::Applied
            }
            Phase::Admitted => {
                a.unclaimed = true;
                AfterPass::Nothing
            }
            Phase::Settling => AfterPass::Nothing,
        }
    }

    /// After the publish: answers the active call against `published`, the state just
    /// published. A call never claimed gets the precise reason it could not be applied; a
    /// claimed one gets the app's answer, with the windows and tools it made new and the
    /// window's version, or an error if the app gave none. A call waiting for the person on a
    /// window `published` no longer has is answered `window_not_found`.
    pub fn finish(&mut self, published: &Snapshot) {
        self.finish_active(published);
        self.deferred.finish(published);
        self.approvals.forget_closed(published);
    }

    fn finish_active(&mut self, published: &Snapshot) {
        if self.active.as_ref().is_some_and(|a| a.phase == Phase::Admitted && !a.unclaimed) {
            return; // waits for the pass of its target
        }
        let Some(mut active) = self.active.take() else { return };
        let call = &active.call;
        match active.phase {
            Phase::Admitted => {
                let error = published
                    .validate(call)
                    .err()
                    .unwrap_or_else(|| ToolError::action_not_available(call.target.as_str(), &call.action));
                call.reject(error);
            }
            Phase::Claimed => {
                // Still in the pass that applies it (a nested pass ended): answered later.
                self.active = Some(active);
            }
            Phase::Settling if active.deferred => {
                // Kept by the app: what its pass made new counts for the answer to come.
                self.deferred.claim_published(call, &active.before, published);
            }
            Phase::Settling => {
                let outcome =
                    active.outcome.take().unwrap_or_else(|| Err(ToolError::unanswered_by_app(&call.tool_name())));
                let (windows, tools) = answer::what_is_new(&active.before, published);
                let outcome = answer::complete(outcome, call, published, windows, tools);
                tracing::debug!(tool = %call.tool_name(), ok = outcome.is_ok(), "call resolved");
                call.resolve(outcome);
            }
        }
    }

    /// The app is exiting: answers the active call (with the app's answer if it gave one), and
    /// those waiting for the person.
    pub fn shutdown(&mut self) {
        if let Some(a) = self.active.take() {
            match a.phase {
                Phase::Admitted => a.call.reject(ToolError::app_exiting()),
                Phase::Claimed | Phase::Settling if a.deferred => {}
                Phase::Claimed | Phase::Settling => {
                    a.call.resolve(a.outcome.unwrap_or_else(|| Err(ToolError::app_exiting())));
                }
            }
        }
        self.deferred.shutdown();
        self.approvals.shutdown(&ToolError::app_exiting());
    }
}

#[cfg(test)]
mod tests;
