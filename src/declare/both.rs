//! One description, both audiences: a window shown to the person and declared to agents by the
//! same code, so the two cannot drift (docs/design.md, "One description, both audiences").
//!
//! [`WindowBuilder::ui`] opens the `egui::Window` and does the glue every window repeats: its
//! contents disabled exactly when the bridge reports it blocked, the agent's mark (an outline
//! and an "Agent: …" line whose room is kept), a dialog kept above its owner, and the approval
//! prompt of an action that asks the person. Inside, [`WindowUi::form`] draws labelled fields
//! for the person and declares them as one `fields` block from the same values, and
//! [`WindowUi::button_ui`] is a button that is also an action, with one handler for the
//! person's click and the agent's call. The explicit declarations ([`WindowUi::fields`],
//! [`WindowUi::action`]) stay for what fits no widget.

use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::time::Duration;

use super::content::Cell;
use super::{Call, WindowBuilder, WindowResponse, WindowUi};
use crate::hub::{ActionSpec, AgentAction, NoArgs};
use crate::protocol::{Block, FieldItem, masked};

/// How long a window stays marked after the agent's call that changed it (the last part fading).
const MARK: Duration = Duration::from_secs(5);
const FADE: Duration = Duration::from_millis(1500);
const AGENT_BLUE: egui::Color32 = egui::Color32::from_rgb(90, 160, 255);

impl WindowBuilder {
    /// Declares the window and shows it to the person in an `egui::Window` of `ctx`, with
    /// `add_contents` drawing and declaring its contents at once ([`WindowUi::form`],
    /// [`WindowUi::button_ui`], or the explicit declarations next to egui widgets). The glue is
    /// done here: the contents are disabled exactly when the bridge reports the window blocked;
    /// the agent's latest call that changed it is marked for a few seconds; a dialog
    /// ([`modal_of`](Self::modal_of)) is drawn in front, above its owner while it is the top of
    /// its chain; an agent's call waiting for the person's approval is shown first.
    /// `inner` is `None` while the person has the window collapsed.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut name, mut count) = (String::from("Ada"), 0);
    /// # egui::__run_test_ctx(|ctx| {
    /// bridge.window("profile").title("Profile").summary(format!("{name}: {count}")).ui(ctx, |w, ui| {
    ///     w.form(ui, "details", |f| {
    ///         f.text_edit("Name", &mut name); // the person types; agents read "Name"
    ///         f.value("Count", count);
    ///     });
    ///     // The person's click and the agent's `profile__add_one` run the same code.
    ///     if let Some(press) = w.button_ui(ui, "add_one", ActionSpec::new("Add one")) {
    ///         count += 1;
    ///         press.ok("Added one");
    ///     }
    /// });
    /// # });
    /// ```
    pub fn ui<R>(
        self,
        ctx: &egui::Context,
        add_contents: impl FnOnce(&mut WindowUi, &mut egui::Ui) -> R,
    ) -> WindowResponse<Option<R>> {
        let app_id = self.decl.app_id.clone();
        let (title, dialog) = (self.decl.title.clone(), self.decl.owner.is_some());
        let (blocked, agent, approval) = {
            let frame = self.core.frame.lock();
            (frame.is_blocked(&app_id), frame.agent_action(&app_id).cloned(), frame.approval(&app_id))
        };
        let core = std::sync::Arc::clone(&self.core);
        let id = egui::Id::unique(("egui_mcp_bridge::window", app_id.as_str()));
        let strength = mark_strength(ctx, agent.as_ref());
        self.show(|w| {
            let mut frame = egui::Frame::window(&ctx.global_style());
            if let Some(s) = strength {
                frame = frame.stroke(egui::Stroke::new(2.5, AGENT_BLUE.gamma_multiply(s)));
            }
            let mut window = egui::Window::new(title).id(id).frame(frame);
            if dialog {
                window = window.order(egui::Order::Foreground).collapsible(false).resizable(false);
                if !blocked {
                    // The top of its chain: where the person answers it, whoever opened it.
                    ctx.move_to_top(egui::LayerId::new(egui::Order::Foreground, id));
                }
            }
            window
                .show(ctx, |ui| {
                    agent_line(ui, agent.as_ref(), strength);
                    if let Some(approval) = &approval
                        && let Some(allow) = crate::plugin::approval_prompt(ui, approval)
                    {
                        core.answer_approval(&app_id, allow);
                    }
                    ui.add_enabled_ui(!blocked, |ui| add_contents(w, ui)).inner
                })
                .and_then(|r| r.inner)
        })
    }
}

/// How strongly the agent's mark shows (1, fading to 0 over the last [`FADE`] of [`MARK`]);
/// asks for the repaints of the fade.
fn mark_strength(ctx: &egui::Context, agent: Option<&AgentAction>) -> Option<f32> {
    let left = MARK.checked_sub(agent?.at.elapsed()).filter(|d| !d.is_zero())?;
    if left > FADE {
        ctx.request_repaint_after(left.saturating_sub(FADE));
        Some(1.0)
    } else {
        ctx.request_repaint_after(Duration::from_millis(50));
        Some(left.as_secs_f32() / FADE.as_secs_f32())
    }
}

/// "Agent: …" while the mark shows; its room is kept when it does not, so nothing jumps.
fn agent_line(ui: &mut egui::Ui, agent: Option<&AgentAction>, strength: Option<f32>) {
    ui.horizontal(|ui| {
        ui.set_min_height(ui.spacing().interact_size.y);
        if let (Some(a), Some(s)) = (agent, strength) {
            let text = if a.ok { format!("Agent: {}", a.title) } else { format!("Agent: {} (refused)", a.title) };
            ui.colored_label(AGENT_BLUE.gamma_multiply(s), text);
        }
    });
}

/// The fields of a [`WindowUi::form`]: each one a widget for the person and a field for agents,
/// from the same value.
pub struct Form<'u> {
    ui: &'u mut egui::Ui,
    items: Vec<FieldItem>,
    hasher: DefaultHasher,
    changed: Vec<String>,
}

impl std::fmt::Debug for Form<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Form").field("items", &self.items.len()).finish_non_exhaustive()
    }
}

impl Form<'_> {
    fn row(&mut self, label: &str, add: impl FnOnce(&mut egui::Ui) -> egui::Response) -> egui::Response {
        let l = self.ui.label(label);
        let response = add(self.ui).labelled_by(l.id);
        self.ui.end_row();
        if response.changed() {
            self.changed.push(label.to_owned());
        }
        response
    }

    fn declare(&mut self, label: &str, value: serde_json::Value, sensitive: bool) {
        (label, sensitive).hash(&mut self.hasher);
        super::content::hash_value(&value, &mut self.hasher);
        self.items.push(FieldItem { label: label.to_owned(), value, sensitive });
    }

    /// A line of text the person edits; agents read it as the field `label`.
    pub fn text_edit(&mut self, label: &str, value: &mut String) -> egui::Response {
        let response = self.row(label, |ui| ui.text_edit_singleline(value));
        self.declare(label, serde_json::Value::String(value.clone()), false);
        response
    }

    /// A secret the person types (shown as dots); agents read it masked at the source, as
    /// [`Fields::sensitive`](crate::blocks::Fields::sensitive) does: the plaintext never enters
    /// the state.
    pub fn secret(&mut self, label: &str, value: &mut String) -> egui::Response {
        let response = self.row(label, |ui| ui.add(egui::TextEdit::singleline(value).password(true)));
        self.declare(label, masked(!value.is_empty()), true);
        response
    }

    /// A value shown, not edited; agents read it as the field `label` (a number stays a
    /// number).
    pub fn value<'a>(&mut self, label: &str, value: impl Into<Cell<'a>>) -> egui::Response {
        let value = value.into().to_value();
        let shown = match &value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let response = self.row(label, |ui| ui.label(shown));
        self.declare(label, value, false);
        response
    }
}

/// What a [`WindowUi::form`] gave: which fields the person changed in this pass.
#[derive(Clone, Debug, Default)]
pub struct FormResponse {
    /// The labels of the fields the person changed.
    pub changed: Vec<String>,
}

/// A press of a [`WindowUi::button_ui`]: by the person or by an agent, handled by one code path.
#[derive(Debug)]
#[must_use = "answer the press: ok or fail (answers the agent; nothing for the person)"]
pub enum Press {
    /// The person clicked the button.
    Person,
    /// An agent called the action: answer it.
    Agent(Call<NoArgs>),
}

impl Press {
    /// Whether the person pressed it.
    pub fn by_person(&self) -> bool {
        matches!(self, Self::Person)
    }

    /// Done: the agent is answered with `message` (the person sees the window change).
    pub fn ok(self, message: impl Into<String>) {
        if let Self::Agent(call) = self {
            call.ok(message);
        }
    }

    /// Refused: the agent is answered with `error`; nothing should have changed.
    pub fn fail(self, error: crate::ToolError) {
        if let Self::Agent(call) = self {
            call.fail(error);
        }
    }
}

impl WindowUi {
    /// Labelled fields in a grid for the person, declared to agents as one `fields` block
    /// `id` from the same values ([`Form::text_edit`], [`Form::secret`], [`Form::value`]).
    pub fn form(&mut self, ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut Form<'_>)) -> FormResponse {
        let mut hasher = DefaultHasher::new();
        ("fields", id).hash(&mut hasher);
        let (items, hash, changed) = egui::Grid::new(("egui_mcp_bridge::form", id))
            .num_columns(2)
            .show(ui, |ui| {
                let mut form = Form { ui, items: Vec::new(), hasher, changed: Vec::new() };
                add(&mut form);
                (form.items, form.hasher.finish(), form.changed)
            })
            .inner;
        self.block_with_hash(hash, || Block::Fields { id: Some(id.to_owned()), items });
        FormResponse { changed }
    }

    /// A paragraph for both: drawn as a label, declared as a `text` block.
    pub fn text_ui(&mut self, ui: &mut egui::Ui, id: &str, text: &str) {
        ui.label(text);
        self.text(id, text);
    }

    /// A status line for both: drawn in the severity's colour, declared as a `notice` block.
    pub fn notice_ui(&mut self, ui: &mut egui::Ui, id: &str, severity: crate::Severity, text: &str) {
        let color = match severity {
            crate::Severity::Info => ui.visuals().text_color(),
            crate::Severity::Warn => ui.visuals().warn_fg_color,
            crate::Severity::Error => ui.visuals().error_fg_color,
            crate::Severity::Success => egui::Color32::from_rgb(80, 180, 110),
        };
        ui.colored_label(color, text);
        self.notice(id, severity, text);
    }

    /// A button that is also the action `name`: the person's click and an agent's call come
    /// out as one [`Press`], so one handler serves both. The button is drawn disabled when the
    /// window is blocked, as the action is then not offered.
    pub fn button_ui(&mut self, ui: &mut egui::Ui, name: &str, spec: ActionSpec) -> Option<Press> {
        let clicked = ui.add_enabled(!self.is_blocked(), egui::Button::new(spec.title.as_ref())).clicked();
        let call = self.button(name, spec);
        match (call, clicked) {
            (Some(call), _) => Some(Press::Agent(call)),
            (None, true) => Some(Press::Person),
            (None, false) => None,
        }
    }
}
