//! Agents operating what the app has not described: the generic tools of a read-view window,
//! `{id}__edit_field` and `{id}__press`, applied through egui's own accessibility action
//! requests (the way `egui_kittest` clicks), so that the app's code runs as for the person.
//!
//! # How one call goes
//!
//! The call is admitted and checked (`expectedVersion`, operability) like any other, against a
//! state published from a look at the very pass before: if the last look is older, the plugin
//! looks first and the call is checked against what that look published. Then, at the start of
//! a pass, the plugin claims it, checks the arguments against what the look found (every
//! invalid field named, a disabled widget refused), keeps it to answer later, and puts the
//! action requests into that pass's input. Every pass looks while the operation lasts; each
//! step's effect is read from the pass after it (a combo box: opened, then the option picked
//! from what the next look shows). The answer, with what the window then shows, is given in
//! the pass after the last step's effect, and goes out once that state is published.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use egui::accesskit::{self, Action, ActionData, ActionRequest, Node, NodeId, Role, TreeUpdate};
use serde::Deserialize;
use serde_json::Value;

mod check;
mod passes;
mod report;
mod secondary;

use super::observe::{Clickable, Target, TargetKind};
use crate::hub::decl::ActionDecl;
use crate::hub::phase::PassKey;
use crate::hub::{ActionSpec, Hub, Outcome, PendingCall, clipped};
use crate::protocol::{EDIT_FIELD, EditArgs, ErrorCode, FieldError, MAX_EDIT_FIELDS, ToolError};
use check::{Miss, Set, check, find, parse};

/// The generic tool that presses a control.
pub(crate) const PRESS: &str = "press";

// As many fields as a read-view window's fields block lists may be named in one call.
const _: () = assert!(MAX_EDIT_FIELDS == super::observe::MAX_ITEMS);

/// The arguments of `press`.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("maxProperties" = 3))]
struct PressArgs {
    /// The control's key, as its item in the window's controls list carries it (or its label);
    /// with secondary, omitted: the window's own background.
    #[serde(default)]
    control: Option<String>,
    /// A secondary (right) click instead; the answer lists the menu it opened, by key.
    #[serde(default)]
    secondary: Option<bool>,
}

/// The generic tools of a read-view window with these targets: `edit_field` while it has an
/// enabled field an agent can set, `press` while it has an enabled control or something else
/// the app made to sense clicks (`clickable`: a label, right-clicked by its text; a bare
/// interaction, such as the window's background).
/// Their effect is the app's and unknown to the bridge, so they say destructive: clients ask
/// their user.
pub(crate) fn tools(targets: &[Target], clickable: bool, hub: &Hub) -> Vec<ActionDecl> {
    let mut tools = Vec::new();
    let settable = |t: &&Target| !matches!(t.kind, TargetKind::Control | TargetKind::Shown) && !t.disabled;
    if targets.iter().any(|t| settable(&t)) {
        tools.push(ActionDecl {
            name: EDIT_FIELD.to_owned(),
            spec: ActionSpec::new("Edit fields")
                .description(
                    "Set fields of this window, which the app has not described, as the person would: {field, value} or {fields: {key: value}}, keys as its fields carry them; submit: true then presses Enter in the last",
                )
                .destructive(),
            schema: hub.input_schema::<EditArgs>(true),
        });
    }
    if clickable || targets.iter().any(|t| t.kind == TargetKind::Control && !t.disabled) {
        tools.push(ActionDecl {
            name: PRESS.to_owned(),
            spec: ActionSpec::new("Press a control")
                .description(
                    "Press a button, link, menu item, tab or section of this window, which the app has not described, as the person's click would; what it does is the app's. secondary: true right-clicks it (or a text line; no control: the window) and lists the menu opened",
                )
                .destructive(),
            schema: hub.input_schema::<PressArgs>(true),
        });
    }
    tools
}

/// One field an agent writes, for the answer.
#[derive(Clone, Debug)]
struct Wrote {
    node: u64,
    key: String,
    label: String,
    asked: Value,
    sensitive: bool,
    /// What it showed in the pass its request went into (egui's widget takes it there), for a
    /// field gone by the look after: a menu item that closed its menu.
    glimpsed: Option<Value>,
}

/// One step of an operation: requests for one pass's input, or a combo box to open and then
/// pick an option of.
#[derive(Debug)]
enum Step {
    Requests(Vec<ActionRequest>),
    Pick { combo: u64, label: String, option: String },
}

/// What the look after the step under way decides.
#[derive(Debug)]
enum Wait {
    /// A combo box was opened: the option to click is found in the look.
    Pick { combo: u64, label: String, option: String },
    /// The option was clicked: egui closes a combo box's popup on a pointer click only, so the
    /// look checks it closed and, if not, closes it as the person's click on the box would.
    Picked { combo: u64 },
    /// A secondary click under way (`operate/secondary.rs`).
    Secondary(secondary::Wait),
    /// Enter was pressed in the field being submitted: the look shows its effect.
    Entered,
}

/// Enter pressed in the field set last (`submit: true`), once the fields are set.
#[derive(Debug)]
struct Submit {
    node: u64,
    label: String,
    /// Whether Enter went in (`None`: not yet).
    pressed: Option<bool>,
}

/// Where an operation is.
#[derive(Debug, PartialEq, Eq)]
enum Stage {
    /// Requests wait for the next pass's input.
    Inject,
    /// Requests went into this pass: its own look mixes before and after; the next one counts.
    Injected,
    /// The next look shows the effect of the last step.
    AwaitLook,
}

/// A generic call under way: claimed, kept (deferred), and applied step by step.
pub(crate) struct Operation {
    pub(crate) call: Arc<PendingCall>,
    /// The viewport whose passes draw the window.
    pub(crate) key: PassKey,
    app_id: String,
    title: String,
    steps: VecDeque<Step>,
    /// The input events of the step under way (accessibility requests; a person's pointer or
    /// keys for a secondary click or Enter).
    next: Vec<egui::Event>,
    /// What the look after the step under way decides.
    waiting: Option<Wait>,
    stage: Stage,
    before: Vec<Target>,
    /// The window's text lines before the call.
    text: Vec<String>,
    wrote: Vec<Wrote>,
    pressed: Option<String>,
    /// Enter to press after the fields are set.
    submit: Option<Submit>,
    /// A secondary click's target and, once the look after it read it, the menu it opened.
    secondary: Option<secondary::Click>,
    /// A step failed (a combo box without the option): answered after the popup is closed.
    failed: Option<ToolError>,
}

impl std::fmt::Debug for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Operation").field("window", &self.app_id).field("stage", &self.stage).finish_non_exhaustive()
    }
}

/// What the last look found in a call's window.
pub(crate) struct Window<'a> {
    pub(crate) app_id: &'a str,
    pub(crate) title: &'a str,
    /// Its container's node.
    pub(crate) node: u64,
    pub(crate) targets: &'a [Target],
    /// Its labels that sense clicks.
    pub(crate) labels: &'a [Clickable],
    /// Its text lines.
    pub(crate) text: Vec<String>,
}

/// Checks a claimed call's arguments against what the last look found in its window and plans
/// what to do; a refusal changes nothing.
pub(crate) fn plan(call: &Arc<PendingCall>, key: PassKey, window: Window<'_>) -> Result<Operation, ToolError> {
    let Window { app_id, title, node: window, targets, labels, text } = window;
    let mut op = Operation {
        call: Arc::clone(call),
        key,
        app_id: app_id.to_owned(),
        title: title.to_owned(),
        steps: VecDeque::new(),
        next: Vec::new(),
        waiting: None,
        stage: Stage::Inject,
        before: targets.to_vec(),
        text,
        wrote: Vec::new(),
        pressed: None,
        submit: None,
        secondary: None,
        failed: None,
    };
    match call.action.as_str() {
        PRESS => {
            let args: PressArgs = parse(&call.args)?;
            if args.secondary == Some(true) {
                op.secondary = Some(if let Some(control) = args.control.as_deref() {
                    let (node, label) = secondary::target(targets, labels, control, title)?;
                    op.pressed = Some(label);
                    secondary::Click::new(node, false)
                } else {
                    op.pressed = Some(String::new());
                    secondary::Click::new(window, true)
                });
                op.waiting = Some(Wait::Secondary(secondary::Wait::Place { scrolled: false }));
                op.stage = Stage::AwaitLook;
                return Ok(op);
            }
            let Some(control) = args.control.as_deref() else {
                return Err(ToolError::validation(
                    format!("Name the control of {title} to press; nothing was pressed"),
                    vec![FieldError::new("control", format!("missing; its controls: {}", check::names(targets, true)))],
                ));
            };
            let t = find(targets, control, true).map_err(|miss| press_refused(&miss, control, title, targets))?;
            if t.disabled {
                return Err(ToolError::disabled(title, [clipped(&t.label)]));
            }
            op.pressed = Some(t.label.clone());
            op.steps.push_back(Step::Requests(vec![request(t.node, Action::Click, None)]));
        }
        EDIT_FIELD => plan_edit(&mut op, parse(&call.args)?, title, targets)?,
        other => {
            return Err(ToolError::new(
                ErrorCode::ActionNotAvailable,
                format!("{title} offers no action \"{}\"", clipped(other)),
            ));
        }
    }
    op.advance_step();
    Ok(op)
}

/// The refusal of a `press` whose control names no one control.
fn press_refused(miss: &Miss, control: &str, title: &str, targets: &[Target]) -> ToolError {
    let message = match miss {
        Miss::Ambiguous(..) => format!(
            "\"{}\" names more than one control in {title}: give the key of the one meant; nothing was pressed",
            clipped(control)
        ),
        _ => format!("{title} has no control \"{}\"", clipped(control)),
    };
    ToolError::validation(message, vec![FieldError::new("control", miss.why(targets, true))])
}

fn plan_edit(op: &mut Operation, args: EditArgs, title: &str, targets: &[Target]) -> Result<(), ToolError> {
    let submit = args.submit();
    let mut asked: Vec<(String, Value)> = Vec::new();
    match (args.field, args.value, args.fields) {
        (Some(field), Some(value), None) => asked.push((field, value)),
        (None, None, Some(fields)) if !fields.is_empty() => asked.extend(fields),
        _ => {
            return Err(ToolError::validation(
                "Give {field, value} or {fields: {key: value, ...}}",
                vec![FieldError::new("fields", "either field and value, or a non-empty fields object")],
            ));
        }
    }
    if asked.len() > MAX_EDIT_FIELDS {
        // (Refused before the UI sees it when the tool is listed; this is the UI's own bound.)
        return Err(ToolError::invalid_field("fields", format!("must hold at most {MAX_EDIT_FIELDS} entries")));
    }
    // The first errors are named and the rest counted, so that the answer stays short.
    let mut errors = Vec::new();
    let mut unnamed = 0_usize;
    let mut unknown = false;
    let mut error = |e: FieldError| {
        if errors.len() < crate::hub::MAX_NAMED_ERRORS {
            errors.push(e);
        } else {
            unnamed += 1;
        }
    };
    let mut off = Vec::new();
    let mut direct = Vec::new();
    let mut last = None;
    for (name, value) in asked {
        last = None;
        let t = match find(targets, &name, false) {
            Ok(t) => t,
            Err(Miss::Unknown) => {
                // The window's fields are listed once, with the first unknown name.
                let why =
                    if unknown { "not a field of this window".to_owned() } else { Miss::Unknown.why(targets, false) };
                unknown = true;
                error(FieldError::new(clipped(&name), why));
                continue;
            }
            Err(miss) => {
                error(FieldError::new(clipped(&name), miss.why(targets, false)));
                continue;
            }
        };
        last = Some(t);
        if t.disabled {
            if !off.iter().any(|o: &&Target| o.node == t.node) {
                off.push(t);
            }
            continue;
        }
        match check(t, &value) {
            Err(why) => error(FieldError::new(t.key.clone(), why)),
            Ok(Set::Nothing) => {}
            Ok(Set::Request(r)) => direct.push(r),
            Ok(Set::Pick(option)) => {
                op.steps.push_back(Step::Pick { combo: t.node, label: t.label.clone(), option });
            }
        }
        op.wrote.push(Wrote {
            node: t.node,
            key: t.key.clone(),
            label: t.label.clone(),
            asked: value,
            sensitive: t.kind == TargetKind::Password,
            glimpsed: None,
        });
    }
    if !off.is_empty() {
        return Err(ToolError::disabled(title, off.iter().map(|t| clipped(&t.label))));
    }
    if submit {
        // Enter goes to the field set last, which must be one where Enter submits (an unknown
        // name there is named already).
        match last {
            Some(t) if matches!(t.kind, TargetKind::Text | TargetKind::Password) && !t.multiline => {
                direct.push(request(t.node, Action::Focus, None));
                op.submit = Some(Submit { node: t.node, label: t.label.clone(), pressed: None });
            }
            Some(t) => {
                let why = if t.multiline {
                    format!("Enter in {} (several lines) starts a new line: set it without submit", clipped(&t.label))
                } else {
                    format!(
                        "Enter goes to the field set last, which must be a one-line text; {} is not",
                        clipped(&t.label)
                    )
                };
                errors.push(FieldError::new("submit", why));
            }
            None => {}
        }
    }
    if !errors.is_empty() {
        let and_more = if unnamed > 0 { format!(" (and {unnamed} more not named here)") } else { String::new() };
        let message = match errors.as_slice() {
            [only] if only.field == "submit" => format!("Nothing was set in {title}: {}", only.error),
            _ => format!("Nothing was set in {title}: fix the fields named{and_more}"),
        };
        if unnamed > 0 {
            errors.push(FieldError::new("fields", format!("{unnamed} more invalid or unknown fields not named here")));
        }
        return Err(ToolError::validation(message, errors));
    }
    // The combo boxes first (each takes two passes: open, pick), so that an option that is not
    // there stops the call before anything else is set.
    if !direct.is_empty() {
        op.steps.push_back(Step::Requests(direct));
    }
    Ok(())
}

fn request(node: u64, action: Action, data: Option<ActionData>) -> ActionRequest {
    ActionRequest { action, target_tree: accesskit::TreeId::ROOT, target_node: NodeId(node), data }
}

/// An accessibility request as an input event.
fn event(node: u64, action: Action) -> egui::Event {
    egui::Event::AccessKitActionRequest(request(node, action, None))
}

/// Enter pressed and released, as a person types it.
fn enter() -> Vec<egui::Event> {
    [true, false]
        .into_iter()
        .map(|pressed| egui::Event::Key {
            key: egui::Key::Enter,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        })
        .collect()
}

impl Operation {
    /// The window's app id.
    pub(crate) fn app_id(&self) -> &str {
        &self.app_id
    }

    /// Moves to the next step: its requests, or a combo box to open.
    fn advance_step(&mut self) {
        match self.steps.pop_front() {
            Some(Step::Requests(r)) => self.next = r.into_iter().map(egui::Event::AccessKitActionRequest).collect(),
            Some(Step::Pick { combo, label, option }) => {
                self.next = vec![event(combo, Action::Click)];
                self.waiting = Some(Wait::Pick { combo, label, option });
            }
            None => {}
        }
        // Nothing to put in a pass (every field already shows its value): the next look answers.
        self.stage = if self.next.is_empty() { Stage::AwaitLook } else { Stage::Inject };
    }

    /// Start of a pass of its viewport: the requests of the step under way go into its input.
    /// Returns whether any did (the pass is then run again, and the one after looks).
    ///
    /// The first requests move the call to "applying" first: from then on its budget does not
    /// end it (it is answered with what it did); if the budget ended it already (the agent was
    /// answered), nothing goes in, now or later.
    pub(crate) fn inject(&mut self, input: &mut egui::RawInput) -> bool {
        if self.stage != Stage::Inject || self.next.is_empty() {
            return false;
        }
        if !self.call.start_applying() {
            self.next.clear();
            self.steps.clear();
            self.waiting = None;
            self.submit = None;
            return false;
        }
        input.events.append(&mut self.next);
        self.stage = Stage::Injected;
        true
    }

    /// The end of a pass of its viewport (egui's context still in it): a secondary click notes
    /// where the person's pointer is before it moves it, and whether egui saw its widget under
    /// the pointer.
    pub(crate) fn pass_drawn(&mut self, ctx: &egui::Context) {
        if let Some(click) = self.secondary.as_mut() {
            click.note_person(ctx);
        }
        if let (Some(Wait::Secondary(secondary::Wait::Over { pos, .. })), Some(click)) =
            (&self.waiting, self.secondary.as_mut())
        {
            click.pass_drawn(ctx, *pos);
        }
    }

    /// Once a secondary click moved egui's pointer: where to, and the event that gives the
    /// person's pointer back, for the pass after the call ends.
    pub(crate) fn pointer_back(&self) -> Option<(egui::Pos2, egui::Event)> {
        self.secondary.as_ref()?.pointer_back()
    }

    /// Whether the requests went into the pass under way.
    pub(crate) fn injected(&self) -> bool {
        self.stage == Stage::Injected
    }

    /// The tree of the pass the requests went into (kept or not): what the written fields show
    /// there, in case the look after finds them gone (the click closed their menu).
    pub(crate) fn glimpse(&mut self, tree: &TreeUpdate) {
        if self.stage != Stage::Injected || self.wrote.is_empty() {
            return;
        }
        let nodes: Vec<u64> = self.wrote.iter().map(|w| w.node).collect();
        for (node, value) in super::observe::values_of(tree, &nodes) {
            if let Some(w) = self.wrote.iter_mut().find(|w| w.node == node) {
                w.glimpsed = Some(value);
            }
        }
    }

    /// End of a pass of its viewport (kept or not): a pass with the requests is over.
    pub(crate) fn pass_ended(&mut self) {
        if self.stage == Stage::Injected {
            self.stage = Stage::AwaitLook;
        }
    }

    /// A look after the step's effect, with the window's `targets` as it found them (`None`:
    /// the window is gone) and the whole tree: the next step, or the answer when none is left.
    pub(crate) fn looked(&mut self, after: Option<(&[Target], Vec<String>)>, tree: &TreeUpdate) -> Option<Outcome> {
        if self.stage != Stage::AwaitLook {
            return None;
        }
        match self.waiting.take() {
            Some(Wait::Pick { combo, label, option }) => {
                match pick(tree, combo, &label, &option) {
                    Ok(node) => {
                        self.next = vec![event(node, Action::Click)];
                        self.waiting = Some(Wait::Picked { combo });
                    }
                    Err(error) => {
                        // Closed again as it was; nothing else was set.
                        self.next = vec![event(combo, Action::Click)];
                        self.steps.clear();
                        self.submit = None;
                        self.failed = Some(error);
                    }
                }
                self.stage = Stage::Inject;
                return None;
            }
            Some(Wait::Picked { combo }) if !options_of(tree, combo).is_empty() => {
                self.next = vec![event(combo, Action::Click)];
                self.stage = Stage::Inject;
                return None;
            }
            Some(Wait::Secondary(wait)) => {
                let click = self.secondary.as_mut()?;
                let targets = after.as_ref().map_or(&[][..], |(t, _)| *t);
                match click.looked(wait, tree, targets, &self.title, self.pressed.as_deref().unwrap_or_default()) {
                    secondary::Next::Inject(next, wait) => {
                        self.next = next;
                        self.waiting = Some(Wait::Secondary(wait));
                        self.stage = Stage::Inject;
                        return None;
                    }
                    secondary::Next::Look(wait) => {
                        self.waiting = Some(Wait::Secondary(wait));
                        return None;
                    }
                    secondary::Next::Failed(error) => self.failed = Some(error),
                    secondary::Next::Done => {}
                }
            }
            Some(Wait::Entered) => {
                if let Some(submit) = self.submit.as_mut() {
                    submit.pressed = Some(true);
                }
            }
            Some(Wait::Picked { .. }) | None => {}
        }
        if let Some(error) = self.failed.take() {
            return Some(Err(error));
        }
        if !self.steps.is_empty() {
            self.advance_step();
            return None;
        }
        if let Some(submit) = self.submit.as_mut().filter(|s| s.pressed.is_none()) {
            // The fields are set and the last one focused (its Focus request went in with its
            // value): Enter goes into the next pass, as a person types it, if egui shows it
            // focused; else it is not pressed, and the answer says so.
            if tree.focus.0 == submit.node {
                self.next = enter();
                self.waiting = Some(Wait::Entered);
                self.stage = Stage::Inject;
                return None;
            }
            submit.pressed = Some(false);
        }
        Some(Ok(self.report(after)))
    }
}

/// The options shown in combo box `combo`'s open popup (none when it is closed), by node, read
/// as the combo box's value is.
fn options_of(tree: &TreeUpdate, combo: u64) -> Vec<(u64, String)> {
    let nodes: HashMap<NodeId, &Node> = tree.nodes.iter().map(|(id, n)| (*id, n)).collect();
    let mut options = Vec::new();
    let mut stack = vec![NodeId(combo)];
    while let Some(id) = stack.pop() {
        let Some(n) = nodes.get(&id) else { continue };
        if id.0 != combo && matches!(n.role(), Role::Button | Role::ListBoxOption | Role::MenuItem | Role::RadioButton)
        {
            // Read as the combo box's value is: an icon glyph in it is no part of its name.
            if let Some(text) = super::observe::readable(n.label().or(n.value()).unwrap_or_default()) {
                options.push((id.0, text.into_owned()));
            }
            continue;
        }
        stack.extend(n.children().iter().rev());
    }
    options
}

/// The option `option` of the open combo box `combo` (labelled `label`): its node. It is the
/// option of that very text, else of that text in any case, else the one option whose text
/// starts so in any case ("HTML" for "HTML (.html)"); several that start so are not guessed
/// between: the refusal names them, as a miss names the options shown.
fn pick(tree: &TreeUpdate, combo: u64, label: &str, option: &str) -> Result<u64, ToolError> {
    let options = options_of(tree, combo);
    let asked = option.trim().to_lowercase();
    let exact = options.iter().find(|(_, l)| l == option);
    let loose = || options.iter().find(|(_, l)| l.to_lowercase() == asked);
    if let Some((node, _)) = exact.or_else(loose) {
        return Ok(*node);
    }
    let starting: Vec<&(u64, String)> = options.iter().filter(|(_, l)| l.to_lowercase().starts_with(&asked)).collect();
    let listed = |shown: &[&(u64, String)]| {
        let names: Vec<String> = shown.iter().take(20).map(|(_, l)| clipped(l).into_owned()).collect();
        if names.is_empty() { "none were shown".to_owned() } else { names.join(", ") }
    };
    let (message, why) = match starting.as_slice() {
        [(node, _)] => return Ok(*node),
        [] => (
            format!("{label} has no option \"{}\"", clipped(option)),
            format!("not one of its options: {}", listed(&options.iter().collect::<Vec<_>>())),
        ),
        many => (
            format!("\"{}\" starts {} options of {label}", clipped(option), many.len()),
            format!("more than one option starts so; give more of its text: {}", listed(many)),
        ),
    };
    Err(ToolError::validation(
        format!("{message}; nothing after it was set"),
        vec![FieldError::new(clipped(label), why)],
    ))
}
