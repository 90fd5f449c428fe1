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

use std::collections::VecDeque;
use std::sync::Arc;

use egui::accesskit::{self, Action, ActionData, ActionRequest, NodeId, TreeUpdate};
use serde_json::Value;

mod check;
mod combo;
mod edit;
mod passes;
mod press;
mod report;
mod secondary;

use super::observe::{Clickable, Target, TargetKind};
use crate::hub::decl::ActionDecl;
use crate::hub::phase::PassKey;
use crate::hub::{ActionSpec, Hub, Outcome, PendingCall, clipped};
use crate::protocol::{EDIT_FIELD, EditArgs, ErrorCode, MAX_EDIT_FIELDS, ToolError};
use check::parse;

/// The generic tool that presses a control.
pub(crate) const PRESS: &str = "press";

// As many fields as a read-view window's fields block lists may be named in one call.
const _: () = assert!(MAX_EDIT_FIELDS == super::observe::MAX_ITEMS);

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
            schema: hub.input_schema::<press::PressArgs>(true),
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
        PRESS => press::plan(&mut op, &parse(&call.args)?, window, targets, labels)?,
        EDIT_FIELD => edit::plan(&mut op, parse(&call.args)?, targets)?,
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
        let targets = after.as_ref().map_or(&[][..], |(t, _)| *t);
        if self.waited(targets, tree) {
            return None;
        }
        if let Some(error) = self.failed.take() {
            return Some(Err(error));
        }
        if !self.steps.is_empty() {
            self.advance_step();
            return None;
        }
        if self.press_enter(tree) {
            return None;
        }
        Some(Ok(self.report(after)))
    }

    /// What the look decides of the step it waited for: whether the call goes on with it (more
    /// input in the next pass, or another look first).
    fn waited(&mut self, targets: &[Target], tree: &TreeUpdate) -> bool {
        match self.waiting.take() {
            Some(Wait::Pick { combo, label, option }) => {
                self.pick_option(tree, combo, &label, &option);
                true
            }
            Some(Wait::Picked { combo }) => self.close_popup(tree, combo),
            Some(Wait::Secondary(wait)) => {
                let Some(click) = self.secondary.as_mut() else { return false };
                match click.looked(wait, tree, targets, &self.title, self.pressed.as_deref().unwrap_or_default()) {
                    secondary::Next::Inject(next, wait) => {
                        self.next = next;
                        self.waiting = Some(Wait::Secondary(wait));
                        self.stage = Stage::Inject;
                        true
                    }
                    secondary::Next::Look(wait) => {
                        self.waiting = Some(Wait::Secondary(wait));
                        true
                    }
                    secondary::Next::Failed(error) => {
                        self.failed = Some(error);
                        false
                    }
                    secondary::Next::Done => false,
                }
            }
            Some(Wait::Entered) => {
                if let Some(submit) = self.submit.as_mut() {
                    submit.pressed = Some(true);
                }
                false
            }
            None => false,
        }
    }

    /// With every field set: Enter into the next pass, as a person types it, if the call asked
    /// for it and egui shows the field set last focused (its Focus request went in with its
    /// value); else it is not pressed, and the answer says so. Whether it goes in.
    fn press_enter(&mut self, tree: &TreeUpdate) -> bool {
        let Some(submit) = self.submit.as_mut().filter(|s| s.pressed.is_none()) else { return false };
        if tree.focus.0 == submit.node {
            self.next = enter();
            self.waiting = Some(Wait::Entered);
            self.stage = Stage::Inject;
            return true;
        }
        submit.pressed = Some(false);
        false
    }
}
