//! Admit and arm: which queued call the slot takes, and in which pass the app may claim it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{ActiveCall, CallSlot, PassKey, Phase};
use crate::hub::call::{CallTarget, PendingCall};
use crate::hub::snapshot::Snapshot;
use crate::protocol::ToolError;

impl CallSlot {
    /// Start of `pass`: admits at most one call from `queue`, validated against `last`, and arms
    /// it when `pass` is where its target is declared. Calls cancelled meanwhile are skipped;
    /// calls past their deadline and calls `last` rules out are answered with the reason. A pass
    /// with the person's input admits and arms nothing (user-first, §7.1): the person's change
    /// is published first, and the call is re-checked against it when it is armed.
    /// `locate` gives a target's app id and the pass that declares it. Returns whether a call is
    /// active.
    pub fn admit(
        &mut self,
        queue: &crossbeam_channel::Receiver<Arc<PendingCall>>,
        last: &Arc<Snapshot>,
        pass: PassKey,
        person_input: bool,
        budget: Duration,
        locate: impl Fn(&CallTarget) -> (Option<String>, Option<PassKey>),
    ) -> bool {
        loop {
            // An admitted call that can no longer be applied frees the slot.
            if let Some(a) = self.active.as_ref().filter(|a| a.phase == Phase::Admitted) {
                if !a.call.is_pending() {
                    self.active = None;
                } else if Instant::now() > a.call.deadline {
                    a.call.reject(ToolError::timeout(budget));
                    self.active = None;
                }
            }
            if person_input {
                return self.active.is_some();
            }
            if self.active.is_none() && !self.take_next(queue, last, budget, &locate) {
                return false;
            }
            let Some(a) = self.active.as_mut() else { return false };
            if a.phase != Phase::Admitted || a.armed.is_some() || a.pass.is_some_and(|p| p != pass) {
                return true;
            }
            // Armed only after a re-check: another pass may have published a change since.
            if !Arc::ptr_eq(&a.before, last) {
                if let Err(e) = last.validate(&a.call) {
                    a.call.reject(e);
                    self.active = None;
                    continue;
                }
                a.before = Arc::clone(last);
            }
            a.armed = Some(pass);
            return true;
        }
    }

    /// Takes the next call from the queue that `last` allows.
    fn take_next(
        &mut self,
        queue: &crossbeam_channel::Receiver<Arc<PendingCall>>,
        last: &Arc<Snapshot>,
        budget: Duration,
        locate: &impl Fn(&CallTarget) -> (Option<String>, Option<PassKey>),
    ) -> bool {
        // The person's allowed calls first, then the queue.
        while let Some(call) = self.approvals.next_allowed().or_else(|| queue.try_recv().ok()) {
            if !call.is_pending() {
                continue; // cancelled by its timeout or its client
            }
            if Instant::now() > call.deadline {
                call.reject(ToolError::timeout(budget));
                continue;
            }
            if let Err(e) = last.validate(&call) {
                call.reject(e);
                continue;
            }
            let (app_id, pass) = locate(&call.target);
            if self.ask_person
                && !call.is_approved()
                && let Some(tool) = last.tool(&call.tool_name()).filter(|t| t.ask_person)
            {
                self.approvals.hold(call, app_id, tool, budget);
                continue;
            }
            self.active = Some(ActiveCall {
                call,
                app_id,
                pass,
                armed: None,
                unclaimed: false,
                deferred: false,
                phase: Phase::Admitted,
                before: Arc::clone(last),
                outcome: None,
            });
            return true;
        }
        false
    }
}
