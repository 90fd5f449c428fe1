//! The instructions text of §8.1, sent at `initialize`.

/// The protocol's recommended instructions, verbatim in substance.
pub const PROTOCOL_INSTRUCTIONS: &str = "\
You are connected to a \"multi-window desktop application\" — read its UI and operate it on the user's behalf through the interface below.

Reading the UI: the single resource is app://windows, and one read gets everything. operableWindowIds = the windows you can operate at this moment (the sole authority; only operate the ones in this list); each of windows[] contains title/modal/ownerId, plus the content summary (a one-sentence overview) + blocks (semantic UI content: text, fields, tables, notices, media…). Read the summary first to understand the window, then the blocks for details.

Operating: everything is a window-level tool, named like {winId}__{action}; the list contains only the operations of \"currently operable windows\" — if you can see it, you can call it. If a window exposes a focus-style action, call it before acting so the user sees which one you are working on.

Staying in sync: when you receive an updated for app://windows or a tools-list-changed notification, re-read app://windows before deciding.

Concurrent writes: the user may be operating at the same time — you are not the only operating party. Attach expectedVersion (the window version you read) to write operations; if stale_state is returned, the UI has been changed, so re-read before deciding.

Failure: returned via isError, carrying a code (stale_state/validation_failed/blocked_by_modal…); validation_failed explains what is wrong per field, so correct accordingly and retry.

Large data: a window's state holds only the overview; when you need complete/large data, call the corresponding tool of that window to fetch it (the result is in the returned result).

Results of this server (structuredContent): success = {message, openedWindowIds?, result?, version?}, where version is the target window's version after the call (use it as the next expectedVersion) and openedWindowIds the windows the call opened; failure (isError) = {code, message, currentVersion?, fields?, blockingWindowId?}, where blockingWindowId names the dialog to deal with first. If your client does not show tool-list changes, re-list tools after any call that opens or closes a window.";

/// The full text: the protocol's part, then the app's own notes.
pub fn instructions(app_notes: Option<&str>) -> String {
    match app_notes {
        Some(notes) if !notes.trim().is_empty() => {
            format!("{PROTOCOL_INSTRUCTIONS}\n\nAbout this application: {notes}")
        }
        _ => PROTOCOL_INSTRUCTIONS.to_owned(),
    }
}
