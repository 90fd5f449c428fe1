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

use super::observe::{Target, TargetKind};
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
#[schemars(extend("maxProperties" = 2))]
struct PressArgs {
    /// The control's key, as its item in the window's controls list carries it (or its label).
    control: String,
}

/// The generic tools of a read-view window with these targets: `edit_field` while it has an
/// enabled field an agent can set, `press` while it has an enabled control. Their effect is
/// the app's and unknown to the bridge, so they say destructive: clients ask their user.
pub(crate) fn tools(targets: &[Target], hub: &Hub) -> Vec<ActionDecl> {
    let mut tools = Vec::new();
    let settable = |t: &&Target| !matches!(t.kind, TargetKind::Control | TargetKind::Shown) && !t.disabled;
    if targets.iter().any(|t| settable(&t)) {
        tools.push(ActionDecl {
            name: EDIT_FIELD.to_owned(),
            spec: ActionSpec::new("Edit fields")
                .description(
                    "Set fields of this window, which the app has not described, as the person would: {field, value} or {fields: {key: value}}, keys as its fields carry them",
                )
                .destructive(),
            schema: hub.input_schema::<EditArgs>(true),
        });
    }
    if targets.iter().any(|t| t.kind == TargetKind::Control && !t.disabled) {
        tools.push(ActionDecl {
            name: PRESS.to_owned(),
            spec: ActionSpec::new("Press a control")
                .description(
                    "Press a button, link, menu item, tab or section of this window, which the app has not described, as the person's click would; what it does is the app's",
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
    /// The requests of the step under way.
    next: Vec<ActionRequest>,
    /// A combo box opened by the step under way, to pick `option` from at the next look.
    picking: Option<(u64, String, String)>,
    stage: Stage,
    before: Vec<Target>,
    /// The window's text lines before the call.
    text: Vec<String>,
    wrote: Vec<Wrote>,
    pressed: Option<String>,
    /// A step failed (a combo box without the option): answered after the popup is closed.
    failed: Option<ToolError>,
}

impl std::fmt::Debug for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Operation").field("window", &self.app_id).field("stage", &self.stage).finish_non_exhaustive()
    }
}

/// Checks a claimed call's arguments against what the last look found in its window and plans
/// what to do; a refusal changes nothing.
pub(crate) fn plan(
    call: &Arc<PendingCall>,
    key: PassKey,
    app_id: &str,
    title: &str,
    targets: &[Target],
    text: Vec<String>,
) -> Result<Operation, ToolError> {
    let mut op = Operation {
        call: Arc::clone(call),
        key,
        app_id: app_id.to_owned(),
        title: title.to_owned(),
        steps: VecDeque::new(),
        next: Vec::new(),
        picking: None,
        stage: Stage::Inject,
        before: targets.to_vec(),
        text,
        wrote: Vec::new(),
        pressed: None,
        failed: None,
    };
    match call.action.as_str() {
        PRESS => {
            let args: PressArgs = parse(&call.args)?;
            let t = find(targets, &args.control, true).map_err(|miss| {
                let message = match miss {
                    Miss::Ambiguous(..) => format!(
                        "\"{}\" names more than one control in {title}: give the key of the one meant; nothing was pressed",
                        clipped(&args.control)
                    ),
                    _ => format!("{title} has no control \"{}\"", clipped(&args.control)),
                };
                ToolError::validation(message, vec![FieldError::new("control", miss.why(targets, true))])
            })?;
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

fn plan_edit(op: &mut Operation, args: EditArgs, title: &str, targets: &[Target]) -> Result<(), ToolError> {
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
    for (name, value) in asked {
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
    if !errors.is_empty() {
        let and_more = if unnamed > 0 { format!(" (and {unnamed} more not named here)") } else { String::new() };
        let message = format!("Nothing was set in {title}: fix the fields named{and_more}");
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

impl Operation {
    /// The window's app id.
    pub(crate) fn app_id(&self) -> &str {
        &self.app_id
    }

    /// Moves to the next step: its requests, or a combo box to open.
    fn advance_step(&mut self) {
        match self.steps.pop_front() {
            Some(Step::Requests(r)) => self.next = r,
            Some(Step::Pick { combo, label, option }) => {
                self.next = vec![request(combo, Action::Click, None)];
                self.picking = Some((combo, label, option));
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
            return false;
        }
        input.events.extend(self.next.drain(..).map(egui::Event::AccessKitActionRequest));
        self.stage = Stage::Injected;
        true
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
        if let Some((combo, label, option)) = self.picking.take() {
            match pick(tree, combo, &label, &option) {
                Ok(node) => {
                    self.next = vec![request(node, Action::Click, None)];
                    self.stage = Stage::Inject;
                    return None;
                }
                Err(error) => {
                    // Closed again as it was; nothing else was set.
                    self.next = vec![request(combo, Action::Click, None)];
                    self.steps.clear();
                    self.stage = Stage::Inject;
                    self.failed = Some(error);
                    return None;
                }
            }
        }
        if let Some(error) = self.failed.take() {
            return Some(Err(error));
        }
        if !self.steps.is_empty() {
            self.advance_step();
            return None;
        }
        Some(Ok(self.report(after)))
    }
}

/// The option `option` of the open combo box `combo` (labelled `label`): its node. It is the
/// option of that very text, else of that text in any case, else the one option whose text
/// starts so in any case ("HTML" for "HTML (.html)"); several that start so are not guessed
/// between: the refusal names them, as a miss names the options shown.
fn pick(tree: &TreeUpdate, combo: u64, label: &str, option: &str) -> Result<u64, ToolError> {
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
