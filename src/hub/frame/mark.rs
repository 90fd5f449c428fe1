//! The agent's mark: which one window shows what the agent's latest call did. The call's own
//! window, or, once that closed (a dialog the call answered), the nearest owner still open: the
//! window the call changed.

use std::sync::Arc;
use std::time::Instant;

use super::{FrameState, Mark};
use crate::hub::PendingCall;
use crate::hub::decl::AgentAction;

impl FrameState {
    /// Marks the call the app just answered (or deferred) on the window `app_id`.
    pub(super) fn mark_call(&mut self, app_id: String, action: AgentAction, call: &Arc<PendingCall>) {
        let chain = self.owner_chain(app_id);
        self.mark = Some(Mark { windows: chain, action, call: Arc::downgrade(call) });
    }

    /// A deferred call ended without the app's answer (its budget ran out): if it is the one
    /// marked, the mark no longer says the agent waits.
    pub(super) fn unmark_waiting(&mut self, call: &Arc<PendingCall>) {
        if let Some(Mark { action, call: marked, .. }) = &mut self.mark
            && std::ptr::eq(marked.as_ptr(), Arc::as_ptr(call))
            && action.waiting
        {
            action.waiting = false;
            action.ok = false;
            action.at = Instant::now();
        }
    }

    /// The agent's latest applied call, if it marks this window: the window it was for, or,
    /// once that closed, the nearest owner still open.
    pub fn agent_action(&self, app_id: &str) -> Option<&AgentAction> {
        let Mark { windows, action, .. } = self.mark.as_ref()?;
        let marked = windows.iter().find(|id| self.registry.handle_of(id).is_some())?;
        (marked == app_id).then_some(action)
    }

    /// `app_id` and its owners in the last published state, nearest first.
    fn owner_chain(&self, app_id: String) -> Vec<String> {
        let last = &self.last;
        let mut chain = vec![app_id];
        while chain.len() <= last.windows.len() {
            let owner = chain
                .last()
                .and_then(|id| self.registry.handle_of(id))
                .and_then(|h| last.window(h))
                .and_then(|w| w.owner_id.as_deref())
                .and_then(|h| self.registry.app_id_of(h));
            match owner {
                Some(o) if !chain.iter().any(|c| c == o) => chain.push(o.to_owned()),
                _ => break,
            }
        }
        chain
    }
}
