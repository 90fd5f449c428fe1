//! A combo box set through `edit_field`, as a person sets it: opened by a click, the option
//! found in the look after and clicked, and the popup closed again if egui left it open (it
//! closes on a pointer click only, not on an accessibility click).

use egui::accesskit::{Action, NodeId, Role, TreeUpdate};

use super::{Operation, Stage, Wait, event};
use crate::hub::clipped;
use crate::protocol::{FieldError, ToolError};

impl Operation {
    /// The look after combo box `combo` was opened: its option `option` is clicked, or, with no
    /// such option, the popup is closed again and the call fails, nothing after it set.
    pub(super) fn pick_option(&mut self, tree: &TreeUpdate, combo: u64, label: &str, option: &str) {
        match pick(tree, combo, label, option) {
            Ok(node) => {
                self.next = vec![event(node, Action::Click)];
                self.waiting = Some(Wait::Picked { combo });
            }
            Err(error) => {
                self.next = vec![event(combo, Action::Click)];
                self.steps.clear();
                self.submit = None;
                self.failed = Some(error);
            }
        }
        self.stage = Stage::Inject;
    }

    /// The look after the option was clicked: whether the popup still shows, and is closed now
    /// as the person's click on the box would.
    pub(super) fn close_popup(&mut self, tree: &TreeUpdate, combo: u64) -> bool {
        if options_of(tree, combo).is_empty() {
            return false;
        }
        self.next = vec![event(combo, Action::Click)];
        self.stage = Stage::Inject;
        true
    }
}

/// The options shown in combo box `combo`'s open popup (none when it is closed), by node, read
/// as the combo box's value is.
fn options_of(tree: &TreeUpdate, combo: u64) -> Vec<(u64, String)> {
    let nodes = crate::plugin::observe::node_map(tree);
    let mut options = Vec::new();
    let mut stack = vec![NodeId(combo)];
    while let Some(id) = stack.pop() {
        let Some(n) = nodes.get(&id) else { continue };
        if id.0 != combo && matches!(n.role(), Role::Button | Role::ListBoxOption | Role::MenuItem | Role::RadioButton)
        {
            // Read as the combo box's value is: an icon glyph in it is no part of its name.
            if let Some(text) = crate::plugin::observe::readable(n.label().or(n.value()).unwrap_or_default()) {
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
