//! One description, both audiences: a window shown to the person and declared to agents by the
//! same code, so the two cannot drift (docs/design.md, "One description, both audiences").
//!
//! [`WindowBuilder::ui`] shows the window (an `egui::Window`, an `egui::Modal` for an app-level
//! modal, or an OS window of its own: `places.rs`) and does the glue every window repeats: its
//! contents disabled exactly when the bridge reports it blocked, the agent's mark (an outline
//! and an "Agent: …" line painted over the window's edge and title bar, taking no room), a
//! dialog kept above its owner, the approval
//! prompt of an action that asks the person, and a place where the person can see it. Inside,
//! [`WindowUi`]'s widgets, named as egui's (`widgets.rs`, `table.rs`, `list.rs`, `menus.rs`,
//! `sections.rs`), draw for the person and declare for agents in one call, and forms (`form.rs`,
//! `choice.rs`) do the same for fields. What the bridge drew is noted for the read view, so that
//! only what the app drew with plain egui is read as undescribed. The declarations for agents
//! alone ([`WindowUi::agents`]: [`ForAgents::fields`](super::ForAgents::fields),
//! [`ForAgents::action`](super::ForAgents::action)) stay for what fits no widget.

use super::mark::{Band, heading_height, mark_strength, mark_text, paint_mark, title_band};
use super::places::Placed;
use super::{WindowBuilder, WindowResponse, WindowUi};
use crate::hub::AgentAction;

impl WindowBuilder {
    /// Declares the window and shows it to the person, over `parent` (the app's root `ui`, after
    /// its panels: windows are placed in what they leave free), with `add_contents` drawing and
    /// declaring its contents at once ([`WindowUi::form`], [`WindowUi::button`] and
    /// [`WindowUi`]'s other widgets, or declarations for agents alone ([`WindowUi::agents`])
    /// next to egui's own widgets). The glue is
    /// done here:
    /// - it is an `egui::Window` (an `egui::Modal` for an [`app_modal`](Self::app_modal)), or an
    ///   OS window of its own with [`BridgeBuilder::native_windows`](crate::BridgeBuilder::native_windows)
    ///   (or [`Bridge::set_native_windows`](crate::Bridge::set_native_windows)) or when the person
    ///   pops it out (its "Own window" button, when the app turns it on:
    ///   [`own_window_button`](Self::own_window_button));
    /// - its contents are laid out where `egui::Window` puts them, and it opens at egui's own
    ///   default size unless [`default_size`](Self::default_size) says otherwise;
    /// - a new window opens where it covers the least of the open ones, in the part of the main
    ///   window the app's panels leave free; a dialog ([`modal_of`](Self::modal_of)) opens over
    ///   its owner and is kept above it while it is the top of its chain;
    /// - the contents are disabled exactly when the bridge reports the window blocked;
    /// - the agent's latest call that changed it is marked for a few seconds (an outline and an
    ///   "Agent: …" line painted over the window's edge and title bar: nothing moves when it
    ///   shows or fades);
    /// - an agent's call waiting for the person's approval is shown first.
    ///
    /// `add_contents` runs at most once per pass of the app's ui, as egui's `Window::show` runs
    /// its contents, so what it returns is what it did: the response's `inner` holds it, `None`
    /// when the contents did not run (the person collapsed the window). Act on it after the
    /// window, where the app's state is free again (no flag set inside). For that the bridge runs
    /// a window in an OS window of its own in one pass of egui's (egui would otherwise run an
    /// immediate viewport's contents twice when a pass is discarded): there, an agent's call is
    /// answered after the next frame of that window instead of the same one.
    ///
    /// ```
    /// use egui_mcp_bridge::{ActionSpec, Bridge, Input};
    ///
    /// let bridge = Bridge::builder().build();
    /// let (mut name, mut count) = (String::from("Ada"), 0);
    /// # egui::__run_test_ui(|ui| {
    /// bridge.window("profile").title("Profile").summary(format!("{name}: {count}")).ui(ui, |w, ui| {
    ///     w.form(ui, "details", |f| {
    ///         // The person types; agents read "Name" and set it with `profile__edit_field`.
    ///         f.edit("name", &Input::text("Name").char_limit(40), &mut name);
    ///         f.value("Count", count);
    ///     });
    ///     // The person's click and the agent's `profile__add_one` run the same code.
    ///     if let Some(press) = w.button(ui, "add_one", ActionSpec::new("Add one")).inner {
    ///         count += 1;
    ///         press.ok("Added one");
    ///     }
    /// });
    /// # });
    /// ```
    pub fn ui<R>(
        self,
        parent: &mut egui::Ui,
        add_contents: impl FnOnce(&mut WindowUi, &mut egui::Ui) -> R,
    ) -> WindowResponse<Option<R>> {
        let ctx = &parent.ctx().clone();
        let app_id = self.decl.app_id.clone();
        let look = self.look.clone();
        let (blocked, agent, approval) = self.glue_state();
        let chrome = self.chrome(ctx, parent, blocked, agent.as_ref());
        let placed = chrome.placed;
        let (core, state) = (std::sync::Arc::clone(&self.core), std::sync::Arc::clone(&self.state));
        let mut events = FrameEvents::default();
        // An agent's call to `close`.
        let mut agent_close = None;
        // Run once: egui runs a window's contents at most once per pass (see above).
        let mut add_contents = Some(add_contents);
        let mut body = |w: &mut WindowUi, ui: &mut egui::Ui, toggle: &mut bool| {
            // The bridge's own "Own window" button, when the app turned it on: the person's alone,
            // described.
            if let Some(pop) = own_window_row(ui, &placed, toggle) {
                described_widget(w, pop);
            }
            prompts(ui, &core, &app_id, blocked, approval.as_ref());
            let inner = add_contents.take().map(|add| ui.add_enabled_ui(!blocked, |ui| add(w, ui)).inner);
            if let Some(spec) = &look.closable
                && let Some(call) = w.offer("close", spec.clone())
            {
                agent_close = Some(call);
            }
            inner
        };
        let response = if placed.native {
            self.in_viewport(ctx, parent, &chrome, &mut events, &mut body)
        } else {
            self.in_main_window(ctx, &chrome, &mut events, &mut body)
        };
        let mut places = state.places.lock();
        if let Some(rect) = events.rect {
            places.record(ctx, &app_id, rect, placed.native);
        }
        if events.toggle {
            places.toggle(&app_id);
        }
        let close = match (agent_close, events.closed && !blocked) {
            (Some(call), _) => Some(call),
            (None, true) => Some(super::Press::person(crate::hub::NoArgs {})),
            (None, false) => None,
        };
        let inner = response.inner.flatten();
        WindowResponse { inner, blocked: response.blocked, agent_action: response.agent_action, close }
    }

    /// What the glue needs of the last publish: whether the window is blocked, the agent's mark,
    /// and a call waiting for the person's approval.
    pub(super) fn glue_state(&self) -> (bool, Option<AgentAction>, Option<crate::hub::Approval>) {
        let frame = self.core.frame.lock();
        let app_id = &self.decl.app_id;
        (frame.is_blocked(app_id), frame.agent_action(app_id).cloned(), frame.approval(app_id))
    }

    /// How the window is shown in this pass: its place (in what the app's panels left free of
    /// `parent`), size, kind and mark.
    fn chrome(&self, ctx: &egui::Context, parent: &egui::Ui, blocked: bool, agent: Option<&AgentAction>) -> Chrome {
        let area = Some(parent.available_rect_before_wrap()).filter(egui::Rect::is_positive);
        let owner = self.decl.owner.as_deref();
        let app_modal = self.decl.modal && owner.is_none();
        let dialog = owner.is_some() || app_modal;
        // What it is placed by before egui has drawn it (egui's own default size for a window).
        let size = self.look.size.unwrap_or(if dialog { egui::vec2(300.0, 120.0) } else { egui::vec2(340.0, 420.0) });
        let mut places = self.state.places.lock();
        let button = self.look.own_window_button.unwrap_or(places.own_window_buttons);
        let placed = places.place(ctx, area, &self.decl.app_id, (size, owner), (dialog && !blocked, button));
        drop(places);
        let strength = mark_strength(ctx, agent);
        Chrome {
            placed,
            size,
            sized: self.look.size.is_some(),
            dialog,
            app_modal,
            closable: self.look.closable.is_some(),
            blocked,
            mark: agent.zip(strength).map(|(a, s)| (mark_text(a), s)),
            area,
        }
    }

    /// The OS window's title, size and place, as the window asks for them.
    fn viewport_builder(&self, c: &Chrome) -> egui::ViewportBuilder {
        let mut builder = egui::ViewportBuilder::default()
            .with_title(self.decl.title.as_str())
            .with_inner_size(c.size)
            .with_resizable(self.look.resizable.unwrap_or(!c.dialog) && self.look.fixed_size.is_none());
        if let Some(size) = self.look.fixed_size {
            builder = builder.with_inner_size(size);
        }
        if c.placed.first {
            builder = builder.with_position(c.placed.pos);
        }
        builder
    }

    /// Shows the window in an OS window of its own, declared inside its viewport's pass: that is
    /// where calls to it are applied.
    fn in_viewport<R>(
        self,
        ctx: &egui::Context,
        parent: &mut egui::Ui,
        c: &Chrome,
        events: &mut FrameEvents,
        body: &mut impl FnMut(&mut WindowUi, &mut egui::Ui, &mut bool) -> R,
    ) -> WindowResponse<Option<R>> {
        let vp = self.state.places.lock().viewport_id(&self.decl.app_id);
        let builder = self.viewport_builder(c);
        if c.placed.became_top {
            ctx.send_viewport_cmd_to(vp, egui::ViewportCommand::Focus);
        }
        // One pass of egui's for the window's contents, so that they run once (egui would run an
        // immediate viewport's pass again when it is discarded: the Grid's sizing pass, or an
        // agent's call applied in it, which is then published after the next frame instead).
        let passes = ctx.options(|o| o.max_passes);
        ctx.options_mut(|o| o.max_passes = std::num::NonZeroUsize::MIN);
        let mut last = None;
        ctx.show_viewport_immediate(vp, builder, |ui, _class| {
            events.closed |= ui.input(|i| i.viewport().close_requested());
            events.rect = ui.input(|i| i.viewport().outer_rect);
            let frame = egui::Frame::central_panel(ui.style());
            let margin = frame.total_margin().sum();
            let toggle = &mut events.toggle;
            let show = |ui: &mut egui::Ui| {
                let r = self.clone().declare_window(|w| {
                    described(w, ui);
                    body(w, ui, toggle)
                });
                (r, ui.min_rect().size())
            };
            let shown = egui::CentralPanel::default().frame(frame).show(ui, show);
            let (r, used) = shown.inner;
            if let Some((text, strength)) = &c.mark {
                let band = Band {
                    height: ui.spacing().interact_size.y,
                    right: 0.0,
                    fill: ui.visuals().panel_fill,
                    outside: false,
                };
                paint_mark(ui.ctx(), shown.response.layer_id, shown.response.rect, text, *strength, band);
            }
            grow_to_hold(ui, used + margin);
            last = Some(r);
        });
        ctx.options_mut(|o| o.max_passes = passes);
        if events.closed {
            // The app decides: it stops showing the window, or keeps it (and asks first).
            ctx.send_viewport_cmd_to(vp, egui::ViewportCommand::CancelClose);
        }
        // egui runs an immediate viewport's contents at once; should it not, the window is shown
        // in `parent` rather than left undeclared.
        let r = last.unwrap_or_else(|| self.declare_window(|w| body(w, parent, &mut events.toggle)));
        WindowResponse { inner: Some(r.inner), blocked: r.blocked, agent_action: r.agent_action, close: None }
    }

    /// Shows the window inside the main window: an `egui::Window`, or an `egui::Modal` for an
    /// app-level modal. Declared whether or not the person has it collapsed.
    fn in_main_window<R>(
        self,
        ctx: &egui::Context,
        c: &Chrome,
        events: &mut FrameEvents,
        body: &mut impl FnMut(&mut WindowUi, &mut egui::Ui, &mut bool) -> R,
    ) -> WindowResponse<Option<R>> {
        let look = self.look.clone();
        self.declare_window(|w| {
            if c.app_modal {
                Some(show_modal(w, ctx, c, events, body))
            } else {
                show_window(w, &look, ctx, c, events, body)
            }
        })
    }
}

/// An app-level modal, as egui's `Modal`: its title as a heading, the mark over its top band,
/// closed by Escape or a click outside when closable (the person's close press).
fn show_modal<R>(
    w: &mut WindowUi,
    ctx: &egui::Context,
    c: &Chrome,
    events: &mut FrameEvents,
    body: &mut impl FnMut(&mut WindowUi, &mut egui::Ui, &mut bool) -> R,
) -> R {
    let modal = egui::Modal::new(c.placed.egui_id).show(ctx, |ui| {
        described(w, ui);
        if c.sized {
            ui.set_width(c.size.x);
        }
        ui.heading(w.decl.title.as_str());
        body(w, ui, &mut events.toggle)
    });
    events.rect = Some(modal.response.rect);
    if let Some((text, strength)) = &c.mark {
        let style = ctx.global_style();
        let frame = egui::Frame::popup(&style);
        let band = Band {
            height: heading_height(ctx) + frame.total_margin().sum().y,
            right: 0.0,
            fill: style.visuals.window_fill,
            outside: false,
        };
        paint_mark(ctx, modal.response.layer_id, modal.response.rect, text, *strength, band);
    }
    // Escape or a click outside, as egui's modal closes: the person's close press.
    events.closed = c.closable && modal.should_close();
    modal.inner
}

/// An `egui::Window` with the app's options (`look`) and where the bridge places it; a dialog
/// kept in front, at the top of its chain; the mark over its title bar.
fn show_window<R>(
    w: &mut WindowUi,
    look: &super::places::Look,
    ctx: &egui::Context,
    c: &Chrome,
    events: &mut FrameEvents,
    body: &mut impl FnMut(&mut WindowUi, &mut egui::Ui, &mut bool) -> R,
) -> Option<R> {
    let mut open = true;
    let mut window = egui::Window::new(w.decl.title.as_str()).id(c.placed.egui_id);
    if c.sized {
        window = window.default_size(c.size);
    }
    if let Some(area) = c.area {
        window = window.constrain_to(area);
    }
    window = if c.placed.first { window.current_pos(c.placed.pos) } else { window.default_pos(c.placed.pos) };
    if c.closable {
        window = window.open(&mut open);
    }
    if c.dialog {
        window = window.order(egui::Order::Foreground).collapsible(false).resizable(false);
        if c.placed.became_top || !c.blocked {
            // The top of its chain: where the person answers it, whoever opened it.
            ctx.move_to_top(egui::LayerId::new(egui::Order::Foreground, c.placed.egui_id));
        }
    }
    window = look.options(window);
    let shown = window.show(ctx, |ui| {
        described(w, ui);
        body(w, ui, &mut events.toggle)
    });
    // Described even while collapsed, when egui runs no contents for it.
    w.described.window_node = Some(c.placed.egui_id.value());
    events.closed = !open;
    shown.and_then(|r| {
        events.rect = Some(r.response.rect);
        if let Some((text, strength)) = &c.mark {
            paint_mark(ctx, r.response.layer_id, r.response.rect, text, *strength, title_band(ctx, c.closable));
        }
        r.inner
    })
}
/// How a window is shown in this pass: where, how big, what kind, how marked.
struct Chrome {
    placed: Placed,
    /// The size it opens with (an OS window's), or is placed by.
    size: egui::Vec2,
    /// The app gave that size.
    sized: bool,
    dialog: bool,
    app_modal: bool,
    closable: bool,
    blocked: bool,
    /// The agent's mark and how strongly it shows, while it does.
    mark: Option<(String, f32)>,
    /// Where it may go in the main window.
    area: Option<egui::Rect>,
}

/// An OS window grows to hold its contents, `needed` with its margin (a dialog's size is fixed
/// for the person); it never shrinks by itself.
fn grow_to_hold(ui: &egui::Ui, needed: egui::Vec2) {
    if let Some(has) = ui.input(|i| i.viewport().inner_rect).map(|r| r.size())
        && (needed.x > has.x + 1.0 || needed.y > has.y + 1.0)
    {
        ui.ctx().send_viewport_cmd(egui::ViewportCommand::InnerSize(needed.max(has)));
    }
}

/// What happened to a window's frame in this pass.
#[derive(Default)]
struct FrameEvents {
    /// The person closed it.
    closed: bool,
    /// The person asked to move it into an OS window of its own, or back.
    toggle: bool,
    /// Where it was drawn.
    rect: Option<egui::Rect>,
}

/// What a window says above its contents: that it waits for the dialog on top, and an agent's
/// call waiting for the person's approval (Allow, Deny, and its countdown).
pub(super) fn prompts(
    ui: &mut egui::Ui,
    core: &crate::hub::UiCore,
    app_id: &str,
    blocked: bool,
    approval: Option<&crate::hub::Approval>,
) {
    if blocked {
        ui.label(egui::RichText::new("Waiting for the dialog on top to be answered.").italics());
    }
    if let Some(approval) = approval {
        super::approval::approval_prompt(ui, core, app_id, approval);
    }
}

/// The row above a window's contents with the button that moves it into an OS window of its own
/// or back, when the app turned it on ([`WindowBuilder::own_window_button`]): its id, when drawn.
fn own_window_row(ui: &mut egui::Ui, placed: &Placed, toggle: &mut bool) -> Option<egui::Id> {
    if !placed.can_pop {
        return None;
    }
    let label = if placed.popped { "Back into the main window" } else { "Own window" };
    let row = ui.horizontal(|ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let button = ui.small_button(label).on_hover_text("Show this window in its own OS window, or back");
            *toggle |= button.clicked();
            button.id
        })
        .inner
    });
    Some(row.inner)
}

/// Tells the read view that the app described what `ui` holds (a window's contents), so the
/// egui window or panel around it is not read as an undescribed one.
pub(super) fn described(w: &mut WindowUi, ui: &egui::Ui) {
    w.described.content_ui = Some(ui.unique_id().value());
}

/// Tells the read view that this widget (and what it holds) is described: it is neither read
/// into the window's `undescribed-…` blocks nor listed as left out.
pub(super) fn described_widget(w: &mut WindowUi, id: egui::Id) {
    w.described.widget(id.value());
}
