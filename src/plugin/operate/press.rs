//! Planning a `press` on a read-view window: a click on the control it names (the name must
//! name one enabled control), or a secondary click on it or on the window's own background,
//! which the looks after it carry out (`operate/secondary.rs`).

use egui::accesskit::Action;
use serde::Deserialize;

use super::check::{self, find};
use super::{Operation, Step, Wait, request, secondary};
use crate::hub::clipped;
use crate::plugin::observe::{Clickable, Target};
use crate::protocol::{FieldError, ToolError};

/// The arguments of `press`.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("maxProperties" = 3))]
pub(super) struct PressArgs {
    /// The control's key, as its item in the window's controls list carries it (or its label);
    /// with secondary, omitted: the window's own background.
    #[serde(default)]
    pub(super) control: Option<String>,
    /// A secondary (right) click instead; the answer lists the menu it opened, by key.
    #[serde(default)]
    pub(super) secondary: Option<bool>,
}

/// Plans a `press`: a click on the control it names (a disabled one refused), or a secondary
/// click on it or on the window's own background (`window`, its container's node), which the
/// looks after it carry out (`operate/secondary.rs`).
pub(super) fn plan(
    op: &mut Operation,
    args: &PressArgs,
    window: u64,
    targets: &[Target],
    labels: &[Clickable],
) -> Result<(), ToolError> {
    let title = op.title.as_str();
    if args.secondary == Some(true) {
        let (click, label) = match args.control.as_deref() {
            Some(control) => {
                let (node, label) = secondary::target(targets, labels, control, title)?;
                (secondary::Click::new(node, false), label)
            }
            None => (secondary::Click::new(window, true), String::new()),
        };
        op.secondary = Some(click);
        op.pressed = Some(label);
        op.waiting = Some(Wait::Secondary(secondary::Wait::Place { scrolled: false }));
        return Ok(());
    }
    let Some(control) = args.control.as_deref() else {
        return Err(ToolError::validation(
            format!("Name the control of {title} to press; nothing was pressed"),
            vec![FieldError::new("control", format!("missing; its controls: {}", check::names(targets, true)))],
        ));
    };
    let t = find(targets, control, true).map_err(|miss| check::press_refused(&miss, control, title, targets))?;
    if t.disabled {
        return Err(ToolError::disabled(title, [clipped(&t.label)]));
    }
    op.pressed = Some(t.label.clone());
    op.steps.push_back(Step::Requests(vec![request(t.node, Action::Click, None)]));
    Ok(())
}
