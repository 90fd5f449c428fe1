//! The tool error object of §7.4.

use serde::{Deserialize, Serialize};

/// Every error code of §7.4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// `expectedVersion` did not match; carries `currentVersion`.
    StaleState,
    /// Input validation failed; carries `fields`.
    ValidationFailed,
    /// The target window is blocked by a modal; carries `blockingWindowId`.
    BlockedByModal,
    /// The window is closed or never existed.
    WindowNotFound,
    /// The window exists but does not offer that action now.
    ActionNotAvailable,
    /// The operation did not take effect within the budget, and never will.
    ActionTimeout,
    /// The person at the app denied the call (an extension beyond spec 0.1, whose §10.6 leaves
    /// permission gates out): nothing was applied.
    DeniedByUser,
}

impl ErrorCode {
    /// The wire name, such as `stale_state`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::StaleState => "stale_state",
            Self::ValidationFailed => "validation_failed",
            Self::BlockedByModal => "blocked_by_modal",
            Self::WindowNotFound => "window_not_found",
            Self::ActionNotAvailable => "action_not_available",
            Self::ActionTimeout => "action_timeout",
            Self::DeniedByUser => "denied_by_user",
        }
    }
}

/// One invalid parameter of a `validation_failed` error (§7.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    /// The tool parameter's name.
    pub field: String,

    /// What is wrong with it. Never echoes the rejected value.
    pub error: String,
}

impl FieldError {
    /// An error for one parameter.
    pub fn new(field: impl Into<String>, error: impl Into<String>) -> Self {
        Self { field: field.into(), error: error.into() }
    }
}

/// A failed tool call: `{ code, message, … }` in `structuredContent` with `isError: true`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolError {
    /// The error code.
    pub code: ErrorCode,

    /// A human-readable explanation.
    pub message: String,

    /// The window's version now, for `stale_state`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,

    /// Per-parameter errors, for `validation_failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<FieldError>>,

    /// The window whose modal dialog blocks the target, for `blocked_by_modal`.
    /// An extension of §7.4: it tells the agent which dialog to deal with first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocking_window_id: Option<String>,
}

impl ToolError {
    /// An error with just a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), current_version: None, fields: None, blocking_window_id: None }
    }

    /// `stale_state` with the version the window has now.
    pub fn stale(expected: u64, current: u64) -> Self {
        Self {
            current_version: Some(current),
            ..Self::new(
                ErrorCode::StaleState,
                format!("The window changed: expected version {expected}, it is now {current}; re-read app://windows"),
            )
        }
    }

    /// `validation_failed` naming each invalid parameter.
    pub fn validation(message: impl Into<String>, fields: Vec<FieldError>) -> Self {
        Self { fields: Some(fields), ..Self::new(ErrorCode::ValidationFailed, message) }
    }

    /// `validation_failed` for a single parameter, with a message derived from it.
    pub fn invalid_field(field: impl Into<String>, error: impl Into<String>) -> Self {
        let field = FieldError::new(field, error);
        Self::validation(format!("Rejected: {} {}", field.field, field.error), vec![field])
    }

    /// `blocked_by_modal`, naming the dialog on top.
    pub fn blocked(window_id: &str, blocking_id: &str, blocking_title: &str) -> Self {
        Self {
            blocking_window_id: Some(blocking_id.to_owned()),
            ..Self::new(
                ErrorCode::BlockedByModal,
                format!(
                    "Window {window_id} is blocked by the dialog \"{blocking_title}\" ({blocking_id}); operate that one first"
                ),
            )
        }
    }

    /// `window_not_found`.
    pub fn window_not_found(window_id: &str) -> Self {
        Self::new(ErrorCode::WindowNotFound, format!("No open window has the id {window_id}"))
    }

    /// `action_not_available`.
    pub fn action_not_available(window_id: &str, action: &str) -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!("Window {window_id} does not offer the action {action} now; re-list tools"),
        )
    }

    /// `action_timeout`.
    pub fn timeout(after: std::time::Duration) -> Self {
        Self::new(
            ErrorCode::ActionTimeout,
            format!("The UI did not take the operation within {} ms; it was not applied", after.as_millis()),
        )
    }
}

/// The bridge's own errors, for the situations only it knows (a call the app took and never
/// answered, the app exiting, a kept call past its budget): each says what became of the call.
/// What they need of the layers above (a limit, a clipped label) is given to them.
impl ToolError {
    /// The app took the call to `tool` and gave no answer: an error, never a success the app
    /// did not give.
    pub(crate) fn unanswered_by_app(tool: &str) -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!("The app took the call to {tool} but did not answer it; re-read the state to see what happened"),
        )
    }

    /// The person did not answer the approval prompt in time (`seconds`, as its countdown
    /// showed): `action_timeout`, for it is never applied, saying that nobody answered rather
    /// than that the UI was stuck.
    pub(crate) fn unanswered_by_person(seconds: u64) -> Self {
        Self::new(
            ErrorCode::ActionTimeout,
            format!(
                "The person at the app did not answer the approval prompt within {seconds} s; nothing was applied. Call again when they can answer"
            ),
        )
    }

    /// No picture of a window can be had: the UI dropped the request unanswered, which only an
    /// integration that takes no screenshots does (a headless run, a harness without a renderer).
    pub(crate) fn no_picture_renderer() -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            "No picture can be had here: the app runs without a renderer that takes screenshots (a headless run, or a test harness without one); read the window's blocks instead",
        )
    }

    /// A window with nothing on screen to picture (`handle` as agents see it, clipped), and why.
    pub(crate) fn window_not_shown(handle: &str, why: &str) -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!("Window {handle} is not shown ({why}): no picture of it now; its blocks still read"),
        )
    }

    /// The app is exiting: a call it still holds and never applied (admitted, waiting for the
    /// person, or kept without an answer) is answered on the way out.
    pub(crate) fn app_exiting() -> Self {
        Self::new(ErrorCode::ActionTimeout, "The application is shutting down")
    }

    /// The app is gone: its UI side ended before the call took effect (the call could not be
    /// queued, or its reply was dropped unsent).
    pub(crate) fn app_ended() -> Self {
        Self::new(ErrorCode::ActionTimeout, "The application ended before the operation took effect")
    }

    /// A deferred call's budget ran out before the app answered. Not `action_timeout`, which says
    /// the call never takes effect: the app took it and may still finish it.
    pub(crate) fn deferred_unfinished(budget: std::time::Duration) -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!(
                "The app took the operation but did not finish it within {} ms; it may still finish it, so re-read the state before trying again",
                budget.as_millis()
            ),
        )
    }

    /// A deferred call the app dropped without an answer.
    pub(crate) fn deferred_dropped(tool: &str) -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!(
                "The app took the call to {tool} to answer later, but did not answer it; re-read the state to see what happened"
            ),
        )
    }

    /// A call whose requests went into the app's input, and whose effect no look showed within
    /// twice the budget.
    pub(crate) fn no_effect_seen(tool: &str) -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!(
                "The call to {tool} was applied (its input went to the app), but no pass showed its effect in time; re-read the state to see what happened"
            ),
        )
    }

    /// A call the app could not keep: it keeps as many deferred calls as it may (`max`).
    pub(crate) fn too_many_deferred(max: usize) -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!(
                "The app has too many operations in progress ({max}, the most it keeps) to finish this one later; it may have started it, so re-read the state, and try again once one has finished (each ends within the call budget)"
            ),
        )
    }

    /// A call the app could not keep: its connection holds its whole share of the deferred calls
    /// (`max`).
    pub(crate) fn too_many_deferred_of_connection(max: usize) -> Self {
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!(
                "This connection has too many operations in progress ({max}, the most one connection may have) for the app to finish this one later; it may have started it, so re-read the state, and try again once one of yours has finished (each ends within the call budget)"
            ),
        )
    }

    /// A generic call on widgets the app drew disabled (their `labels`, clipped), in the window
    /// `title`: nothing was done.
    pub(crate) fn disabled<L: std::fmt::Display>(title: &str, labels: impl IntoIterator<Item = L>) -> Self {
        let labels: Vec<String> = labels.into_iter().map(|l| format!("\"{l}\"")).collect();
        Self::new(
            ErrorCode::ActionNotAvailable,
            format!("{} disabled in {title} now: the app does not allow it; nothing was done", labels.join(", ")),
        )
    }

    /// A tree's `path` that names none of its rows.
    pub(crate) fn not_a_row() -> Self {
        Self::invalid_field("path", "is not a row of the tree")
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stale_state_carries_current_version() {
        let v = serde_json::to_value(ToolError::stale(3, 5)).unwrap();
        assert_eq!(v["code"], "stale_state");
        assert_eq!(v["currentVersion"], 5);
        assert!(v.get("fields").is_none(), "no fields on stale_state: {v}");
    }

    #[test]
    fn validation_failed_lists_fields() {
        let e = ToolError::validation("2 invalid", vec![FieldError::new("recipient", "Cannot be empty")]);
        assert_eq!(
            serde_json::to_value(e).unwrap(),
            json!({"code":"validation_failed","message":"2 invalid","fields":[{"field":"recipient","error":"Cannot be empty"}]})
        );
    }

    #[test]
    fn every_code_has_its_wire_name() {
        for code in [
            ErrorCode::StaleState,
            ErrorCode::ValidationFailed,
            ErrorCode::BlockedByModal,
            ErrorCode::WindowNotFound,
            ErrorCode::ActionNotAvailable,
            ErrorCode::ActionTimeout,
        ] {
            assert_eq!(serde_json::to_value(code).unwrap(), json!(code.as_str()));
        }
    }
}
