//! The app's side: declaring windows, their blocks and actions, every frame.

use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Shared;
use super::content::{Fields, List, Mode, Table, hash_value};
use super::frame::{ActionDecl, WindowDecl};
use crate::hub::{ActionSpec, Outcome, PendingCall, input_schema_for};
use crate::protocol::{Block, FieldError, Severity, ToolError, ToolResult, is_name_safe, is_reserved_app_action};

/// Arguments of an action that takes none (accepts `{}` and nothing else).
#[derive(Clone, Copy, Debug, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// A window being declared this frame. Declare its blocks and actions, then drop it (or call
/// [`WindowBuilder::finish`]); the declaration counts from then on.
pub struct WindowBuilder {
    shared: Arc<Shared>,
    decl: Option<WindowDecl>,
    prev_hashes: Vec<u64>,
    summary_hash: u64,
    blocks_hasher: DefaultHasher,
    blocked: bool,
}

impl WindowBuilder {
    pub(crate) fn new(shared: Arc<Shared>, app_id: String) -> Self {
        let (prev_hashes, blocked) = {
            let frame = shared.frame.lock();
            (frame.block_hashes(&app_id), frame.is_blocked(&app_id))
        };
        Self {
            shared,
            decl: Some(WindowDecl {
                title: app_id.clone(),
                app_id,
                modal: false,
                owner: None,
                summary: String::new(),
                content_hash: 0,
                blocks: Vec::new(),
                block_hashes: Vec::new(),
                actions: Vec::new(),
            }),
            prev_hashes,
            summary_hash: 0,
            blocks_hasher: DefaultHasher::new(),
            blocked,
        }
    }

    fn decl(&mut self) -> &mut WindowDecl {
        self.decl.as_mut().expect("a window declaration lives until finish")
    }

    /// The title a person reads.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.decl().title = title.into();
        self
    }

    /// One sentence on what the window shows now.
    #[must_use]
    pub fn summary(mut self, summary: impl Into<String>) -> Self {
        let summary = summary.into();
        let mut h = DefaultHasher::new();
        summary.hash(&mut h);
        self.summary_hash = h.finish();
        self.decl().summary = summary;
        self
    }

    /// A window-level modal dialog attached to the window with app id `owner`: it blocks that
    /// window (and is blocked in turn by dialogs attached to it).
    #[must_use]
    pub fn modal_of(mut self, owner: impl Into<String>) -> Self {
        let d = self.decl();
        d.modal = true;
        d.owner = Some(owner.into());
        self
    }

    /// An app-level modal: while it is open, only it (or the dialogs on top of it) can be
    /// operated, and app-level actions are hidden.
    #[must_use]
    pub fn app_modal(mut self) -> Self {
        let d = self.decl();
        d.modal = true;
        d.owner = None;
        self
    }

    /// Whether a dialog blocked this window in the last published state: disable its
    /// contents for the person too, so both see the same blocking.
    pub fn is_blocked(&self) -> bool {
        self.blocked
    }

    /// Hashes a block; builds it only when it differs from last frame's block at this position.
    fn block(&mut self, hash_fn: impl FnOnce(&mut DefaultHasher), build: impl FnOnce() -> Block) {
        let mut h = DefaultHasher::new();
        hash_fn(&mut h);
        self.block_with_hash(h.finish(), build);
    }

    fn block_with_hash(&mut self, hash: u64, build: impl FnOnce() -> Block) {
        hash.hash(&mut self.blocks_hasher);
        let pos = self.decl().blocks.len();
        let same = self.prev_hashes.get(pos) == Some(&hash);
        let d = self.decl();
        d.blocks.push(if same { None } else { Some(build()) });
        d.block_hashes.push(hash);
    }

    /// A paragraph.
    pub fn text(&mut self, id: &str, text: &str) {
        self.block(|h| ("text", id, text).hash(h), || Block::Text { id: Some(id.to_owned()), text: text.to_owned() });
    }

    /// A status line.
    pub fn notice(&mut self, id: &str, severity: Severity, text: &str) {
        self.block(
            |h| ("notice", id, severity, text).hash(h),
            || Block::Notice { id: Some(id.to_owned()), severity, text: text.to_owned() },
        );
    }

    /// An image or chart. `alt` should state what it shows.
    pub fn media(&mut self, id: &str, mime_type: &str, url: &str, alt: Option<&str>) {
        self.block(
            |h| ("media", id, mime_type, url, alt).hash(h),
            || Block::Media {
                id: Some(id.to_owned()),
                mime_type: mime_type.to_owned(),
                url: url.to_owned(),
                alt: alt.map(str::to_owned),
            },
        );
    }

    /// A structure that fits no primitive.
    pub fn custom(&mut self, id: &str, payload: &Value) {
        self.block(
            |h| {
                ("custom", id).hash(h);
                hash_value(payload, h);
            },
            || Block::Custom { id: Some(id.to_owned()), payload: payload.clone() },
        );
    }

    /// A group of labelled values. `items` may run twice in a frame.
    pub fn fields(&mut self, id: &str, mut items: impl FnMut(&mut Fields<'_>)) {
        let mut h = DefaultHasher::new();
        ("fields", id).hash(&mut h);
        items(&mut Fields { mode: Mode::Hash(&mut h) });
        self.block_with_hash(h.finish(), || {
            let mut out = Vec::new();
            items(&mut Fields { mode: Mode::Build(&mut out) });
            Block::Fields { id: Some(id.to_owned()), items: out }
        });
    }

    /// A table. `rows` may run twice in a frame.
    pub fn table(&mut self, id: &str, columns: &[&str], mut rows: impl FnMut(&mut Table<'_>)) {
        let mut h = DefaultHasher::new();
        ("table", id, columns).hash(&mut h);
        let mut t = Table { mode: Mode::Hash(&mut h), offset: None, total: None };
        rows(&mut t);
        let page = (t.offset, t.total);
        page.hash(&mut h);
        self.block_with_hash(h.finish(), || {
            let mut out = Vec::new();
            let mut t = Table { mode: Mode::Build(&mut out), offset: None, total: None };
            rows(&mut t);
            let (offset, total) = (t.offset, t.total);
            Block::Table {
                id: Some(id.to_owned()),
                columns: columns.iter().map(|c| (*c).to_owned()).collect(),
                rows: out,
                offset,
                total,
            }
        });
    }

    /// A list. `items` may run twice in a frame.
    pub fn list(&mut self, id: &str, ordered: bool, mut items: impl FnMut(&mut List<'_>)) {
        let mut h = DefaultHasher::new();
        ("list", id, ordered).hash(&mut h);
        let mut l = List { mode: Mode::Hash(&mut h), offset: None, total: None };
        items(&mut l);
        let page = (l.offset, l.total);
        page.hash(&mut h);
        self.block_with_hash(h.finish(), || {
            let mut out = Vec::new();
            let mut l = List { mode: Mode::Build(&mut out), offset: None, total: None };
            items(&mut l);
            let (offset, total) = (l.offset, l.total);
            Block::List { id: Some(id.to_owned()), items: out, ordered, offset, total }
        });
    }

    /// Declares an action of this window and returns the agent's call to it, if one arrived
    /// for it this frame, with its arguments already parsed as `A`. Apply it, then answer.
    ///
    /// Ignoring the returned value drops a call the agent waits for: it is then answered with
    /// an error ([`Call`] says which), never with a success the app did not give.
    ///
    /// ```compile_fail
    /// #![deny(unused_must_use)]
    /// # use egui_mcp_bridge::{ActionSpec, Bridge, NoArgs};
    /// # let bridge = Bridge::builder().build();
    /// let mut w = bridge.window("main");
    /// w.action::<NoArgs>("submit", ActionSpec::new("Submit")); // warns: the call is ignored
    /// ```
    #[must_use = "an agent's call to this action arrives here: apply it and answer (ok, reply, fail, handle)"]
    pub fn action<A>(&mut self, name: &str, spec: ActionSpec) -> Option<Call<A>>
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        let app_id = self.decl.as_ref().map(|d| d.app_id.as_str());
        let (decl, call) = declare_action::<A>(&self.shared, app_id, name, spec)?;
        self.decl().actions.push(decl);
        call
    }

    /// Ends the declaration (dropping the builder does the same).
    pub fn finish(self) {
        drop(self);
    }
}

impl Drop for WindowBuilder {
    fn drop(&mut self) {
        if let Some(mut decl) = self.decl.take() {
            let mut h = DefaultHasher::new();
            (self.summary_hash, self.blocks_hasher.finish()).hash(&mut h);
            decl.content_hash = h.finish();
            self.shared.frame.lock().declared.push(decl);
        }
    }
}

/// Declares an action (of a window, or of the app when `app_id` is `None`) and claims the
/// admitted call if it is for this action. `None` when the name is not name-safe.
pub(crate) fn declare_action<A>(
    shared: &Arc<Shared>,
    app_id: Option<&str>,
    name: &str,
    spec: ActionSpec,
) -> Option<(ActionDecl, Option<Call<A>>)>
where
    A: DeserializeOwned + schemars::JsonSchema + 'static,
{
    if !is_name_safe(name) {
        tracing::warn!(action = name, "action names may hold only [A-Za-z0-9_-] (no `__`); ignored");
        return None;
    }
    if app_id.is_none() && is_reserved_app_action(name) {
        tracing::warn!(action = name, "app__{name} is one of the bridge's own tools; the app action is ignored");
        return None;
    }
    let with_version = app_id.is_some() && !spec.hints.read_only;
    let decl = ActionDecl { name: name.to_owned(), schema: input_schema_for::<A>(with_version), spec };
    let mut frame = shared.frame.lock();
    let Some(pending) = frame.claim(app_id, name) else {
        return Some((decl, None));
    };
    match parse_args::<A>(&pending.args) {
        Ok(args) => {
            drop(frame);
            Some((decl, Some(Call { args, pending, shared: Arc::clone(shared), answered: false })))
        }
        Err(e) => {
            frame.reject_claimed(&pending, e);
            Some((decl, None))
        }
    }
}

/// Parses arguments; a failure names the parameter (§7.3) and never echoes the value.
fn parse_args<A: DeserializeOwned>(args: &Value) -> Result<A, ToolError> {
    serde_path_to_error::deserialize::<_, A>(args).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let field = if path == "." || path.is_empty() {
            // "missing field `x`" / "unknown field `x`, expected …"
            inner.split('`').nth(1).unwrap_or("arguments").to_owned()
        } else {
            path.split(['.', '[']).next().unwrap_or(&path).to_owned()
        };
        // serde's messages quote the offending value for some errors; keep only the kind.
        let reason = inner.split(" at line").next().unwrap_or(&inner);
        // Kinds that quote the client's own string ("unknown variant `…`", "unknown field `…`",
        // "invalid value: string \"…\"") keep only what is expected.
        let quotes_input = ["invalid value", "invalid type", "unknown variant", "unknown field", "invalid length"];
        let reason = if quotes_input.iter().any(|k| reason.starts_with(k)) {
            let expected = reason.split(", expected").nth(1).map(|exp| format!("expected{exp}"));
            match (reason.starts_with("unknown field"), expected) {
                (true, Some(exp)) => format!("is not a parameter; {exp}"),
                (true, None) => "is not a parameter".to_owned(),
                (false, Some(exp)) => exp,
                (false, None) => "has the wrong type".to_owned(),
            }
        } else if reason.contains('`') || reason.contains('"') {
            "is not valid here".to_owned()
        } else {
            reason.to_owned()
        };
        ToolError::validation(format!("Invalid argument {field}: {reason}"), vec![FieldError::new(field, reason)])
    })
}

/// An agent's call to an action, taken by the app this frame. Apply it, then answer with
/// [`Call::ok`], [`Call::reply`], [`Call::fail`] or [`Call::handle`] in the same frame.
///
/// Dropped without an answer, it is answered with `action_not_available`, saying the app took
/// the call and did not answer, and a warning is logged: the agent is never told "done" for
/// something the app did not confirm.
#[must_use = "answer the agent's call: ok, reply, fail or handle"]
pub struct Call<A> {
    args: A,
    pending: Arc<PendingCall>,
    shared: Arc<Shared>,
    answered: bool,
}

impl<A> Call<A> {
    /// The parsed arguments.
    pub fn args(&self) -> &A {
        &self.args
    }

    /// The parsed arguments, to take values out of.
    pub fn args_mut(&mut self) -> &mut A {
        &mut self.args
    }

    /// Answers with success or a tool error.
    pub fn reply(mut self, outcome: Outcome) {
        self.answered = true;
        self.shared.frame.lock().set_outcome(&self.pending, outcome);
    }

    /// Answers with success and a one-line message.
    pub fn ok(self, message: impl Into<String>) {
        self.reply(Ok(ToolResult::message(message)));
    }

    /// Answers with a tool error; nothing should have been changed.
    pub fn fail(self, error: ToolError) {
        self.reply(Err(error));
    }

    /// Applies the call with `apply` and answers with what it returns: the one-line form.
    pub fn handle(self, apply: impl FnOnce(&A) -> Outcome) {
        let outcome = apply(&self.args);
        self.reply(outcome);
    }
}

/// The answer to a call that the app took and dropped without answering.
pub(crate) fn unanswered(tool: &str) -> ToolError {
    ToolError::new(
        crate::protocol::ErrorCode::ActionNotAvailable,
        format!("The app took the call to {tool} but did not answer it; re-read the state to see what happened"),
    )
}

impl<A> Drop for Call<A> {
    fn drop(&mut self) {
        if !self.answered {
            let tool = self.pending.tool_name();
            tracing::warn!(tool = %tool, "a call was dropped without an answer; the agent gets an error");
            self.shared.frame.lock().set_outcome(&self.pending, Err(unanswered(&tool)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "only parsing is tested")]
    struct Add {
        product: String,
        quantity: u32,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Small,
        Large,
    }

    #[derive(Debug, serde::Deserialize)]
    #[expect(dead_code, reason = "only parsing is tested")]
    struct Pick {
        kind: Kind,
    }

    #[test]
    fn bad_arguments_name_the_parameter() {
        let e = parse_args::<Add>(&json!({"product": "x", "quantity": "secret-ish"})).unwrap_err();
        assert_eq!(e.fields.as_ref().unwrap()[0].field, "quantity");
        assert!(!e.message.contains("secret-ish"), "the value is not echoed: {}", e.message);
        let e = parse_args::<Add>(&json!({"quantity": 1})).unwrap_err();
        assert_eq!(e.fields.unwrap()[0].field, "product");
        let e = parse_args::<Add>(&json!({"product": "x", "quantity": 1, "bogus": 1})).unwrap_err();
        assert_eq!(e.fields.unwrap()[0].field, "bogus");
        let e = parse_args::<Pick>(&json!({"kind": "hunter2-secretish"})).unwrap_err();
        assert_eq!(e.fields.as_ref().unwrap()[0].field, "kind");
        assert!(!format!("{e:?}").contains("hunter2"), "an unknown variant is not echoed: {e:?}");
        assert_eq!(e.fields.unwrap()[0].error, "expected `small` or `large`", "it says what is expected");
        assert!(parse_args::<NoArgs>(&json!({})).is_ok());
    }
}
