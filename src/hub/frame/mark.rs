//! The agent's mark: which one window shows what the agent's latest call did. The call's own
//! window, or, once that closed (a dialog the call answered), the nearest owner still open: the
//! window the call changed.

use super::FrameState;
use crate::hub::decl::AgentAction;

impl FrameState {
    /// Marks the call the app just answered on the window `app_id`.
    pub(super) fn mark_call(&mut self, app_id: String, action: AgentAction) {
        let chain = self.owner_chain(app_id);
        self.mark = Some((chain, action));
    }

    /// The agent's latest applied call, if it marks this window: the window it was for, or,
    /// once that closed, the nearest owner still open.
    pub fn agent_action(&self, app_id: &str) -> Option<&AgentAction> {
        let (chain, action) = self.mark.as_ref()?;
        let marked = chain.iter().find(|id| self.registry.handle_of(id).is_some())?;
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
