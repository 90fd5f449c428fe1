//! The instructions text of §8.1, sent at `initialize`, tailored to the connection's client.
//!
//! Why not the spec's recommended text verbatim: it is 2,425 characters before any app notes,
//! and clients cut it. Claude Code keeps the first 2 KB, Codex weighs the first 512 characters,
//! and a model that reads the text at all reads the start with most care. So the text below
//! condenses §8.1 and keeps every one of its rules (the state is read from one place and one
//! read gets everything; `operableWindowIds` is the sole authority; summary first, then blocks;
//! tools are `{winId}__{action}`, only of operable windows, visible means callable; focus
//! before acting; re-read after a notification your own call does not explain (its result says
//! what it changed, so a model that follows results reads once); at most one write per window
//! among calls sent together; the person acts at the same time, so
//! `expectedVersion` and `stale_state`; failures through `isError` with a code, per-field
//! `validation_failed`; large data through a window's tool), adds what this bridge returns,
//! and orders it so that:
//!
//! - the first 512 characters stand alone: read the state first (the resource, or
//!   `app__read_windows` for a client whose model cannot read resources), operate only listed
//!   tools of operable windows, carry `expectedVersion`; a client that cannot refresh its tool
//!   list is told about `app__call` there too;
//! - everything, app notes included, fits in [`INSTRUCTIONS_MAX_BYTES`]. App notes that would
//!   not fit are cut (with a warning in the log) rather than pushed past what clients keep.

/// The most the instructions take, app notes included: what Claude Code keeps.
pub const INSTRUCTIONS_MAX_BYTES: usize = 2048;

/// The part of the instructions that must stand alone (Codex weighs the first 512 characters).
#[cfg(test)]
const INSTRUCTIONS_HEAD_CHARS: usize = 512;

/// What the instructions must tell one connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstructionsFor {
    /// The client's model can read resources itself.
    pub reads_resources: bool,
    /// The connection has the dispatchers (`app__call…`) and the tool list inside
    /// `app__read_windows` (every connection, unless the app chose `Compat::Off`).
    pub dispatchers: bool,
    /// The `app__read_windows` tool is served.
    pub read_windows_tool: bool,
    /// The `app__view_window` tool is served.
    pub view_window_tool: bool,
}

const OPENING: &str = "You operate a multi-window desktop app for the user. ";

/// The first sentences: how to read the state, for each kind of client.
fn read_first(v: InstructionsFor) -> &'static str {
    match (v.reads_resources, v.read_windows_tool) {
        (_, false) => "Read the state first: the resource app://windows; one read holds every window. ",
        (true, true) => {
            "Read the state first: app://windows (the resource, or the tool app__read_windows); one read holds every window. "
        }
        (false, true) => {
            "Read the state first: call app__read_windows (the resource app://windows as a tool); one read holds every window. "
        }
    }
}

const AUTHORITY: &str = "operableWindowIds is the sole authority: operate only those windows, only with listed tools {winId}__{action}. Writes take expectedVersion = the window's version you read; the user may act at the same time: on stale_state re-read. ";

const DISPATCH_HEAD: &str = "Tools missing from your list (a dialog's): call via app__call {tool, arguments}, or app__call_destructive for destructive ones. ";

const BODY: &str = "If a tool is listed, you can call it. A window has title, modal, ownerId, version, summary (read it first) and blocks; undescribed ones: edit_field/press by key (edit_field submit:true then presses Enter; press secondary:true right-clicks, for a context menu). Call a window's focus action, if any, before acting. Your call's result says what changed; on resources/updated or tools/list_changed from others, re-read the state before deciding. Calls sent together: at most one write per window. Errors: isError, {code, message}: stale_state (currentVersion), validation_failed (fields: each wrong parameter), blocked_by_modal (blockingWindowId: answer it first), window_not_found, action_not_available, action_timeout, denied_by_user (the person said no): not applied. Large data: in a read-only tool's result. Success: {message, version?, openedWindowIds?, openedWindowVersions?, result?, newTools?}: version is the called window's version after the call (next expectedVersion), openedWindowVersions each opened one's; newTools: now callable. ";

const VIEW: &str = "For what is painted (a chart): app__view_window {windowId} gives a picture. ";

const DISPATCH_BODY: &str =
    "app__read_windows' tools and results' newToolSpecs give each tool's inputSchema and via (its dispatcher).";

const LIVE_BODY: &str = "New tools join your tool list (re-list if yours lacks them).";

/// The full text for one connection: the protocol's part, then the app's own notes, at most
/// [`INSTRUCTIONS_MAX_BYTES`] in all.
pub fn instructions(v: InstructionsFor, app_notes: Option<&str>) -> String {
    let mut text = String::with_capacity(INSTRUCTIONS_MAX_BYTES);
    text.push_str(OPENING);
    text.push_str(read_first(v));
    text.push_str(AUTHORITY);
    if v.dispatchers {
        text.push_str(DISPATCH_HEAD);
    }
    text.push_str(BODY);
    if v.view_window_tool {
        text.push_str(VIEW);
    }
    text.push_str(if v.dispatchers { DISPATCH_BODY } else { LIVE_BODY });
    let Some(notes) = app_notes.map(str::trim).filter(|n| !n.is_empty()) else { return text };
    text.push_str("\n\nAbout this application: ");
    let room = INSTRUCTIONS_MAX_BYTES.saturating_sub(text.len());
    if notes.len() <= room {
        text.push_str(notes);
    } else {
        let ellipsis = "...";
        let mut cut = room.saturating_sub(ellipsis.len());
        while !notes.is_char_boundary(cut) {
            cut -= 1;
        }
        tracing::warn!(
            notes = notes.len(),
            room,
            "the app's instruction notes do not fit in {INSTRUCTIONS_MAX_BYTES} bytes; they were cut"
        );
        text.push_str(&notes[..cut]);
        text.push_str(ellipsis);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The most bytes of app notes that fit after every variant's protocol part.
    fn notes_budget() -> usize {
        all_variants().map(|v| INSTRUCTIONS_MAX_BYTES - instructions(v, Some("x")).len() + 1).min().unwrap_or_default()
    }

    fn all_variants() -> impl Iterator<Item = InstructionsFor> {
        (0..16u8).map(|bits| InstructionsFor {
            reads_resources: bits & 1 != 0,
            dispatchers: bits & 2 != 0,
            read_windows_tool: bits & 4 != 0,
            view_window_tool: bits & 8 != 0,
        })
    }

    /// One phrase per rule of §8.1 (and of this bridge), each of which must survive a 2 KB cut.
    const RULES: &[&str] = &[
        "app://windows",
        "one read holds every window",
        "operableWindowIds is the sole authority",
        "only with listed tools",
        "{winId}__{action}",
        "If a tool is listed, you can call it",
        "summary (read it first)",
        "blocks",
        "focus action, if any, before acting",
        "re-read the state before deciding",
        "at most one write per window",
        "undescribed ones: edit_field/press by key",
        "submit:true then presses Enter",
        "secondary:true right-clicks",
        "the user may act at the same time",
        "expectedVersion",
        "stale_state",
        "isError",
        "validation_failed (fields",
        "blocked_by_modal (blockingWindowId",
        "Large data",
        "version is the called window's version after the call",
        "openedWindowVersions",
        "newTools",
    ];

    const NOTES: &str = "An order editor. Orders lists 20,000 orders (load_orders pages through them); open_order opens an Order Editor; submit -> Confirm order -> Authorize payment (password 1234) submits it. app__lock shows an app-level Session locked dialog (PIN 1234).";

    #[test]
    fn every_variant_keeps_every_rule_and_the_notes_in_2048_bytes() {
        for v in all_variants() {
            let text = instructions(v, Some(NOTES));
            assert!(text.len() <= INSTRUCTIONS_MAX_BYTES, "{v:?}: {} bytes", text.len());
            for rule in RULES {
                assert!(text.contains(rule), "{v:?} lacks {rule:?}");
            }
            assert!(text.ends_with(NOTES), "{v:?}: the app notes are whole");
            if v.dispatchers {
                assert!(text.contains("app__call"), "{v:?}");
            }
            assert_eq!(text.contains("app__view_window {windowId}"), v.view_window_tool, "{v:?}");
        }
        // 441 before app__view_window's sentence (issue 47), 371 with it, 275 with submit and
        // secondary.
        assert!(notes_budget() >= 270, "room for app notes: {}", notes_budget());
    }

    #[test]
    fn the_first_512_characters_stand_alone() {
        for v in all_variants() {
            let text = instructions(v, None);
            let head: String = text.chars().take(INSTRUCTIONS_HEAD_CHARS).collect();
            let state = if v.reads_resources || !v.read_windows_tool { "app://windows" } else { "app__read_windows" };
            for must in [
                state,
                "Read the state first",
                "operableWindowIds is the sole authority",
                "only with listed tools",
                "expectedVersion",
                "stale_state",
            ] {
                assert!(head.contains(must), "{v:?}: the head lacks {must:?}: {head}");
            }
            if v.dispatchers {
                assert!(head.contains("app__call {tool, arguments}"), "{v:?}: {head}");
                assert!(head.contains("app__call_destructive"), "{v:?}: {head}");
            }
        }
    }

    #[test]
    fn notes_too_long_are_cut_at_a_character_boundary() {
        let notes = "é".repeat(2000);
        let v = InstructionsFor {
            reads_resources: false,
            dispatchers: true,
            read_windows_tool: true,
            view_window_tool: true,
        };
        let text = instructions(v, Some(&notes));
        assert!(text.len() <= INSTRUCTIONS_MAX_BYTES && text.ends_with("..."), "{}", text.len());
    }
}
