//! A press of an action, by the person or by an agent's call: the one answerable type
//! ([`Press`]) that every widget and declaration hands the app, and the [`Deferred`] answer of
//! an effect that takes time.

use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::hub::decl::ActionDecl;
use crate::hub::phase::NotKept;
use crate::hub::{ActionSpec, NoArgs, Outcome, PendingCall, UiCore, parse_args};
use crate::protocol::{ToolError, ToolResult, is_name_safe, is_reserved_app_action};

/// Declares an app-level action (`app__{name}`) for this pass ([`crate::Bridge::app_action`],
/// an app menu's item); the agent's call to it, if one arrived.
pub(crate) fn app_action<A>(core: &Arc<UiCore>, name: &str, spec: ActionSpec) -> Option<Press<A>>
where
    A: DeserializeOwned + schemars::JsonSchema + 'static,
{
    let (decl, call) = declare_action::<A>(core, None, name.to_owned(), spec)?;
    core.frame.lock().declare_app_action(decl);
    call
}

/// Declares an action (of a window, or of the app when `app_id` is `None`) and claims the
/// admitted call if it is for this action. `None` when the name is not name-safe. The name
/// comes owned, so that a window can give it in a string it reuses from pass to pass.
pub(super) fn declare_action<A>(
    core: &Arc<UiCore>,
    app_id: Option<&str>,
    name: String,
    spec: ActionSpec,
) -> Option<(ActionDecl, Option<Press<A>>)>
where
    A: DeserializeOwned + schemars::JsonSchema + 'static,
{
    if !is_name_safe(&name) {
        tracing::warn!(action = name.as_str(), "action names may hold only [A-Za-z0-9_-] (no `__`); ignored");
        return None;
    }
    if app_id.is_none() && is_reserved_app_action(&name) {
        tracing::warn!(
            action = name.as_str(),
            "app__{name} is one of the bridge's own tools; the app action is ignored"
        );
        return None;
    }
    let with_version = app_id.is_some() && !spec.hints.read_only;
    let schema = core.hub.input_schema::<A>(with_version);
    let call = claim_call::<A>(core, app_id, &name, &spec.title);
    Some((ActionDecl { name, spec, schema }, call))
}

/// The call the UI thread admitted for this action in this pass, if any, with its arguments
/// parsed (a call whose arguments do not parse is answered at once with the error).
pub(crate) fn claim_call<A: DeserializeOwned>(
    core: &Arc<UiCore>,
    app_id: Option<&str>,
    name: &str,
    title: &str,
) -> Option<Press<A>> {
    let mut frame = core.frame.lock();
    let pending = frame.claim(app_id, name, title)?;
    match parse_args::<A>(&pending.args) {
        Ok(args) => {
            drop(frame);
            Some(Press { args, answer: Some(Answer { pending, core: Arc::clone(core), answered: false }) })
        }
        Err(e) => {
            frame.reject_claimed(&pending, e);
            None
        }
    }
}

/// A press of an action in this pass: the person's click or completed gesture, or an agent's
/// call, with the action's arguments (`A`; [`NoArgs`] for a button). Every widget and
/// declaration hands the app this one type ([`WindowUi::button`](crate::WindowUi::button),
/// [`gesture`](crate::WindowUi::gesture), a table's row, a menu item, a window's close,
/// [`ForAgents::action`](crate::ForAgents::action), [`Bridge::app_action`](crate::Bridge::app_action)),
/// so one code path serves both audiences: apply it, then answer with [`ok`](Self::ok),
/// [`reply`](Self::reply), [`fail`](Self::fail), or [`handle`](Self::handle) (apply and answer in
/// one), in the same pass. The agent gets the answer once the state it caused is published; the
/// person sees the window change, and needs no answer: answering a person's press does nothing.
/// An effect that takes time (a port to open, a file to save) is answered on a later pass:
/// [`defer`](Self::defer).
///
/// An agent's press dropped without an answer is answered with `action_not_available`, saying
/// the app took the call and did not answer, and a warning is logged: the agent is never told
/// "done" for something the app did not confirm.
///
/// # Example
///
/// ```
/// use egui_mcp_bridge::{ActionSpec, Bridge, ToolError, ToolResult};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct SetQuantity {
///     quantity: u32,
/// }
///
/// let bridge = Bridge::builder().build();
/// let mut quantity = 1;
/// bridge.window("cart").title("Cart").declare(|w| {
///     if let Some(press) = w.action::<SetQuantity>("set_quantity", ActionSpec::new("Set quantity")) {
///         // The one-line form: apply, and answer with what `apply` returns.
///         press.handle(|args| {
///             if args.quantity == 0 {
///                 return Err(ToolError::invalid_field("quantity", "must be at least 1"));
///             }
///             quantity = args.quantity;
///             Ok(ToolResult::message(format!("Quantity is {quantity}")))
///         });
///     }
/// });
/// ```
///
#[doc = include_str!("../docs/press.md")]
#[must_use = "an agent may wait for this press: answer it (ok, reply, fail, handle or defer; a person's press needs none)"]
pub struct Press<A = NoArgs> {
    args: A,
    /// `None` for the person's press: nobody waits for an answer.
    answer: Option<Answer>,
}

/// A call's answer, owed until given: dropped unanswered, it answers the agent with an error
/// (never a success the app did not give). Apart from the arguments, so that
/// [`Press::handle`] can hand them over by value.
struct Answer {
    pending: Arc<PendingCall>,
    core: Arc<UiCore>,
    answered: bool,
}

impl Answer {
    fn give(mut self, outcome: Outcome) {
        self.answered = true;
        self.core.frame.lock().set_outcome(&self.pending, outcome);
    }

    fn defer(mut self) -> Deferred {
        self.answered = true;
        let kept = self.core.frame.lock().defer(&self.pending);
        match kept {
            Ok(()) => Deferred { pending: Some((Arc::clone(&self.pending), Arc::clone(&self.core))) },
            // Too many kept already: answered with why (and logged); nobody waits for this one.
            Err(NotKept::Refused(_)) => Deferred::nobody(),
            Err(NotKept::NotClaimed) => {
                // Not the call claimed in this pass (kept from an earlier one, or answered): it
                // can no longer be kept, and gets the error of a call taken and not answered.
                let tool = self.pending.tool_name();
                tracing::warn!(tool = %tool, "defer() on a call not claimed in this pass; the agent gets an error");
                self.core.frame.lock().set_outcome(&self.pending, Err(ToolError::unanswered_by_app(&tool)));
                Deferred::nobody()
            }
        }
    }
}

impl<A: std::fmt::Debug> std::fmt::Debug for Press<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tool = self.answer.as_ref().map(|a| a.pending.tool_name());
        f.debug_struct("Press").field("agent_tool", &tool).field("args", &self.args).finish_non_exhaustive()
    }
}

impl<A> Press<A> {
    /// The person's press, with the arguments their gesture gave.
    pub(crate) fn person(args: A) -> Self {
        Self { args, answer: None }
    }

    /// The same press, its arguments turned into others, answered as before: a table row's
    /// press (its row) into the arguments of the action agents call for it, so that one
    /// handler serves both (`agent_press.or(row_press.map(|p| p.map_args(|row| …)))`).
    pub fn map_args<B>(self, f: impl FnOnce(A) -> B) -> Press<B> {
        let Self { args, answer } = self;
        Press { args: f(args), answer }
    }

    /// The arguments, whoever gave them (parsed and checked against `A`'s schema for an agent).
    pub fn args(&self) -> &A {
        &self.args
    }

    /// Whether an agent pressed it (by a call it waits on), not the person.
    pub fn by_agent(&self) -> bool {
        self.answer.is_some()
    }

    /// Answers with success or a tool error.
    pub fn reply(self, outcome: Outcome) {
        if let Some(answer) = self.answer {
            answer.give(outcome);
        }
    }

    /// Answers with success and a one-line message.
    pub fn ok(self, message: impl Into<String>) {
        self.reply(Ok(ToolResult::message(message)));
    }

    /// Answers with a tool error; nothing should have been changed.
    pub fn fail(self, error: ToolError) {
        self.reply(Err(error));
    }

    /// Applies the press with `apply`, which gets the arguments by value, and answers with what
    /// it returns: the one-line form. Returns whether `apply` succeeded (for the person's side:
    /// clear what they typed, say; show errors from the app's state, where `apply` put them).
    pub fn handle(self, apply: impl FnOnce(A) -> Outcome) -> bool {
        let Self { args, answer } = self;
        let outcome = apply(args);
        let ok = outcome.is_ok();
        if let Some(answer) = answer {
            answer.give(outcome);
        }
        ok
    }

    /// Keeps the press, to answer it on a later pass once the effect is in place (a port opened,
    /// a file saved, a reply received): start the operation now, keep the [`Deferred`] in the
    /// app's state, and answer it with [`Deferred::ok`], [`Deferred::reply`] or
    /// [`Deferred::fail`] when the operation is done. The agent's call returns then, as the
    /// protocol asks (§5.4: a tool returns once the operation has taken effect), after the pass
    /// that answered is published: its `version`, `openedWindowIds` and `newTools` describe the
    /// state with the effect. Meanwhile the window's mark and the activity log say the agent
    /// waits, and other calls go on. A person's press gives a `Deferred` that answers nobody, so
    /// one code path serves both.
    ///
    /// Within the call budget ([`call_timeout`](crate::BridgeBuilder::call_timeout), 10 s by
    /// default) only: past it the agent gets `action_not_available` saying the app took the
    /// operation and has not finished it (never `action_timeout`, which says a call never takes
    /// effect: the app may still finish it; the agent re-reads the state to see), and the app's
    /// later answer is dropped. At most
    /// [`MAX_DEFERRED_CALLS`](crate::limits::MAX_DEFERRED_CALLS) calls wait at once, at most
    /// [`MAX_DEFERRED_PER_CONNECTION`](crate::limits::MAX_DEFERRED_PER_CONNECTION) of one
    /// connection's; past that the call is not kept: the agent is answered with
    /// `action_not_available` saying the app has too many operations in progress, a warning is
    /// logged, and the `Deferred` returned waits for nobody ([`Deferred::agent_waits`] is false:
    /// the app may stop the operation). A `Deferred` dropped unanswered answers the agent with an
    /// error, never a success.
    ///
    /// # Example
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge, Deferred};
    ///
    /// /// The app's state: the call waiting for the port, and the port.
    /// #[derive(Default)]
    /// struct Port {
    ///     connecting: Option<Deferred>,
    ///     open: bool,
    /// }
    ///
    /// fn ui(bridge: &Bridge, port: &mut Port, port_is_ready: bool) {
    ///     bridge.window("port").title("Port").declare(|w| {
    ///         if let Some(press) = w.button("connect", ActionSpec::new("Connect")) {
    ///             // Start opening the port here, then keep the press.
    ///             port.connecting = Some(press.defer());
    ///         }
    ///     });
    ///     // A later pass: the port is open, the agent is answered.
    ///     if port_is_ready && let Some(connecting) = port.connecting.take() {
    ///         port.open = true;
    ///         connecting.ok("Connected");
    ///     }
    /// }
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut port = Port::default();
    /// ui(&bridge, &mut port, false);
    /// ```
    pub fn defer(self) -> Deferred {
        self.answer.map_or_else(Deferred::nobody, Answer::defer)
    }

    /// [`defer`](Self::defer), keeping the arguments: for an operation that starts with them.
    pub fn defer_with_args(self) -> (A, Deferred) {
        let Self { args, answer } = self;
        (args, answer.map_or_else(Deferred::nobody, Answer::defer))
    }
}

/// A press the app keeps to answer on a later pass, once the effect is in place
/// ([`Press::defer`]). Keep it in the app's state; answer it with
/// [`ok`](Self::ok), [`reply`](Self::reply) or [`fail`](Self::fail), from the app's ui code or
/// `App::logic` (any thread may). The answer goes out after the next published pass, which
/// shows the effect.
///
/// Dropped without an answer, it answers the agent with `action_not_available`, saying the app
/// did not answer, and a warning is logged. An answer after the call budget ran out is dropped
/// (logged at debug): the agent was already told the app had not finished it. A person's press defers to nobody,
/// as does a call past the limit of kept calls (answered at once with the error): its answer
/// does nothing.
#[must_use = "keep it in the app's state and answer it once the effect is in place: ok, reply or fail"]
pub struct Deferred {
    /// `None` for a person's press, or a call that could not be kept.
    pending: Option<(Arc<PendingCall>, Arc<UiCore>)>,
}

impl std::fmt::Debug for Deferred {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tool = self.pending.as_ref().map(|(p, _)| p.tool_name());
        f.debug_struct("Deferred").field("tool", &tool).finish()
    }
}

impl Deferred {
    /// One that answers nobody (the person pressed the button).
    pub(crate) fn nobody() -> Self {
        Self { pending: None }
    }

    /// Whether an agent still waits for this answer: false for a person's press, for a call that
    /// could not be kept (too many operations in progress: the agent was told), and once the
    /// call's budget ran out (the app may then stop an operation nobody waits for).
    pub fn agent_waits(&self) -> bool {
        self.pending.as_ref().is_some_and(|(p, _)| p.is_deferred())
    }

    /// Answers with success or a tool error.
    pub fn reply(mut self, outcome: Outcome) {
        self.give(outcome);
    }

    /// Answers with success and a one-line message: the operation is done.
    pub fn ok(self, message: impl Into<String>) {
        self.reply(Ok(ToolResult::message(message)));
    }

    /// Answers with a tool error: the operation failed.
    pub fn fail(self, error: ToolError) {
        self.reply(Err(error));
    }

    fn give(&mut self, outcome: Outcome) {
        let Some((pending, core)) = self.pending.take() else { return };
        let taken = core.frame.lock().answer_deferred(&pending, outcome);
        if taken {
            core.hub.wake(); // between passes, a pass publishes it; in one, harmless
        } else {
            tracing::debug!(tool = %pending.tool_name(), "a deferred call was answered after its budget ran out; the answer is dropped");
        }
    }
}

impl Drop for Deferred {
    fn drop(&mut self) {
        // One whose budget ran out is done with already.
        if let Some((pending, _)) = self.pending.as_ref().filter(|(p, _)| p.is_deferred()) {
            let tool = pending.tool_name();
            tracing::warn!(tool = %tool, "a deferred call was dropped without an answer; the agent gets an error");
            self.give(Err(ToolError::deferred_dropped(&tool)));
        }
    }
}

impl Drop for Answer {
    fn drop(&mut self) {
        if !self.answered {
            let tool = self.pending.tool_name();
            tracing::warn!(tool = %tool, "a call was dropped without an answer; the agent gets an error");
            self.core.frame.lock().set_outcome(&self.pending, Err(ToolError::unanswered_by_app(&tool)));
        }
    }
}
