//! The answer of every call, built from the snapshot published after its effect: what the call
//! made new there (windows and tools) and the target window's version in it. A call answered
//! at once and a call the app kept ([`super::deferred`]) are answered alike.

use std::collections::HashSet;

use crate::hub::call::{CallTarget, Outcome, PendingCall};
use crate::hub::snapshot::Snapshot;

/// The windows and tools of `published` that `before` did not have, in order.
pub(super) fn what_is_new(before: &Snapshot, published: &Snapshot) -> (Vec<String>, Vec<String>) {
    // Set lookups, so that answering a call stays linear in the number of windows and tools.
    let old_windows: HashSet<&str> = before.windows().map(|w| w.id.as_str()).collect();
    let old_tools: HashSet<&str> = before.tools.iter().map(|t| t.name.as_str()).collect();
    let windows = new_names(published.windows().map(|w| &w.id), &old_windows);
    (windows, new_names(published.tools.iter().map(|t| &t.name), &old_tools))
}

/// A success completed with what the call made new and the target window's version in
/// `published`.
pub(super) fn complete(
    outcome: Outcome,
    call: &PendingCall,
    published: &Snapshot,
    windows: Vec<String>,
    tools: Vec<String>,
) -> Outcome {
    outcome.map(|mut r| {
        for id in windows {
            if let Some(w) = published.window(&id) {
                r.opened_window_versions.insert(id.clone(), w.version);
            }
            r.opened_window_ids.push(id);
        }
        r.new_tools = tools;
        if let CallTarget::Window(h) = &call.target {
            r.version = published.window(h).map(|w| w.version);
        }
        r
    })
}

/// The names not in `old`, in order.
fn new_names<'a>(names: impl Iterator<Item = &'a String>, old: &HashSet<&str>) -> Vec<String> {
    names.filter(|n| !old.contains(n.as_str())).cloned().collect()
}
