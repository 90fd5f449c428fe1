//! Real OS windows: egui viewports. A bare context with `embed_viewports` off, driven the way
//! eframe drives one: a pass of the root, a pass of each deferred viewport with its own
//! callback, and immediate viewports nested in their parent's pass. Windows declared in any of
//! them are published in one snapshot; a call is applied in the pass of the viewport that
//! declares its window; a viewport no longer shown drops its windows.
#![allow(clippy::unwrap_used, reason = "tests may unwrap: a panic is a failed test")]

use std::sync::Arc;

use egui::{RawInput, ViewportBuilder, ViewportId};
use egui_mcp_bridge::testing::{Agent, AgentCall};
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode, Outcome};
use parking_lot::Mutex;
use serde_json::json;

#[derive(Debug, Default)]
struct State {
    /// Shown by `main` (root) and by `side` (a deferred viewport).
    label: String,
    /// Whether the deferred viewport is shown.
    side_open: bool,
    /// Whether the dialog (an immediate viewport, owned by `side`) is open.
    dialog: bool,
    /// Operations applied, and in which viewport.
    applied: Vec<String>,
    /// Whether `side`'s last declaration said it was blocked (what its person's view disables).
    side_blocked: bool,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Label {
    label: String,
}

const SIDE: &str = "side-viewport";
const DIALOG: &str = "dialog-viewport";

/// The app's root ui: `main`, the deferred `side` viewport, and the dialog's immediate viewport.
fn root_ui(ui: &mut egui::Ui, bridge: &Bridge, state: &Arc<Mutex<State>>) {
    let ctx = ui.ctx().clone();
    {
        let mut s = state.lock();
        let label = s.label.clone();
        bridge.window("main").title("Main").summary(format!("Label: {label}")).declare(|w| {
            if let Some(call) = w.action::<Label>("set_label", ActionSpec::new("Set label")) {
                s.label.clone_from(&call.args().label);
                s.applied.push(format!("main: set_label in {:?}", ctx.viewport_id()));
                call.ok("Label set");
            }
            if let Some(call) = w.button("open_side", ActionSpec::new("Open the side window")) {
                s.side_open = true;
                call.ok("Side window open");
            }
        });
    }
    if state.lock().side_open {
        let (bridge, state) = (bridge.clone(), Arc::clone(state));
        ctx.show_viewport_deferred(
            ViewportId::from_hash_of(SIDE),
            ViewportBuilder::default().with_title("Side"),
            move |ui, _class| side_ui(ui, &bridge, &state),
        );
    }
}

/// The deferred viewport's ui (its own pass).
fn side_ui(ui: &mut egui::Ui, bridge: &Bridge, state: &Arc<Mutex<State>>) {
    let ctx = ui.ctx().clone();
    let mut s = state.lock();
    let label = s.label.clone();
    let shown = bridge.window("side").title("Side").summary(format!("Side shows {label}")).declare(|w| {
        if let Some(call) = w.button("open_dialog", ActionSpec::new("Open dialog")) {
            s.dialog = true;
            s.applied.push(format!("side: open_dialog in {:?}", ctx.viewport_id()));
            call.ok("Dialog open");
        }
        if let Some(call) = w.action::<Label>("set_label", ActionSpec::new("Set label")) {
            s.label.clone_from(&call.args().label);
            s.applied.push(format!("side: set_label in {:?}", ctx.viewport_id()));
            call.ok("Label set");
        }
    });
    s.side_blocked = shown.blocked;
    if s.dialog {
        drop(s);
        ctx.show_viewport_immediate(ViewportId::from_hash_of(DIALOG), ViewportBuilder::default(), |ui, _| {
            let ctx = ui.ctx().clone();
            let mut s = state.lock();
            bridge.window("dialog").title("Dialog").modal_of("side").declare(|w| {
                if let Some(call) = w.button("close", ActionSpec::new("Close")) {
                    s.dialog = false;
                    s.applied.push(format!("dialog: close in {:?}", ctx.viewport_id()));
                    call.ok("Closed");
                }
            });
        });
    }
}

/// A bare context run as eframe runs a multi-viewport app.
struct Driver {
    /// Deferred viewports that have run a pass: a new one runs from the next frame, as an OS
    /// window takes a frame to appear.
    running: std::collections::HashSet<ViewportId>,
    ctx: egui::Context,
    bridge: Bridge,
    state: Arc<Mutex<State>>,
    agent: Agent,
}

fn input(viewport: ViewportId, person: bool) -> RawInput {
    let mut input = RawInput {
        viewport_id: viewport,
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0))),
        ..Default::default()
    };
    input.viewports.insert(viewport, egui::ViewportInfo::default());
    if person {
        input.events.push(egui::Event::Text("x".into()));
    }
    input
}

/// A bridge and a bare context with real viewports, its plugin added. Immediate viewports run a
/// pass nested in the parent's, with the child's own input.
fn bare_context() -> (Bridge, egui::Context) {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.set_embed_viewports(false);
    egui::Context::set_immediate_viewport_renderer(|ctx, viewport| {
        let mut ui_cb = viewport.viewport_ui_cb;
        ctx.run_ui(input(viewport.ids.this, false), |ui| ui_cb(ui)).drop_without_applying_deltas();
    });
    ctx.add_plugin(bridge.plugin());
    (bridge, ctx)
}

impl Driver {
    fn new() -> Self {
        let (bridge, ctx) = bare_context();
        let state = Arc::new(Mutex::new(State { label: "first".into(), side_open: true, ..State::default() }));
        let agent = Agent::new(&bridge);
        let mut d = Self { running: std::collections::HashSet::new(), ctx, bridge, state, agent };
        d.frame(None);
        d.frame(None);
        d
    }

    /// One frame: the root's pass, then one pass of every deferred viewport. `person` puts the
    /// person's input into that viewport's pass.
    fn frame(&mut self, person: Option<ViewportId>) {
        let (bridge, state) = (self.bridge.clone(), Arc::clone(&self.state));
        let mut out = self
            .ctx
            .run_ui(input(ViewportId::ROOT, person == Some(ViewportId::ROOT)), |ui| root_ui(ui, &bridge, &state));
        let viewports = std::mem::take(&mut out.viewport_output);
        out.drop_without_applying_deltas();
        self.running.retain(|id| viewports.contains_key(id));
        for (id, v) in viewports {
            if let Some(cb) = v.viewport_ui_cb {
                if self.running.insert(id) {
                    continue; // created in this frame: its first pass comes with the next
                }
                self.ctx.run_ui(input(id, person == Some(id)), |ui| cb(ui)).drop_without_applying_deltas();
            }
        }
    }

    /// Sends a call and runs frames until it is answered.
    fn call(&mut self, tool: &str, args: serde_json::Value) -> Outcome {
        let call = self.agent.send(tool, args);
        self.finish(call)
    }

    fn finish(&mut self, mut call: AgentCall) -> Outcome {
        for _ in 0..20 {
            if let Some(outcome) = call.try_outcome() {
                return outcome;
            }
            self.frame(None);
        }
        panic!("not answered in 20 frames");
    }

    fn ids(&self) -> Vec<String> {
        self.bridge.snapshot().state().windows.iter().map(|w| w.id.clone()).collect()
    }

    fn summary(&self, id: &str) -> String {
        self.bridge.snapshot().window(id).unwrap().summary.clone()
    }
}

#[test]
fn windows_of_every_viewport_are_published_together() {
    let d = Driver::new();
    assert_eq!(d.ids(), ["main", "side"], "the deferred viewport's window is published with the root's");
    let tools = d.agent.tool_names();
    assert!(tools.contains(&"side__open_dialog".to_owned()), "{tools:?}");
}

#[test]
fn a_call_is_applied_in_the_pass_of_its_viewport() {
    let mut d = Driver::new();
    let r = d.call("side__set_label", json!({"label": "second", "expectedVersion": 1})).unwrap();
    let side = ViewportId::from_hash_of(SIDE);
    assert_eq!(d.state.lock().applied, [format!("side: set_label in {side:?}")], "applied in the side viewport");
    assert_eq!(r.version, Some(2));
    // What the answer says is what is published: both viewports show the new label.
    assert_eq!(d.summary("side"), "Side shows second");
    assert_eq!(d.summary("main"), "Label: second", "the root's window is never published from before the call");
}

#[test]
fn a_call_on_the_root_that_changes_another_viewport_is_answered_after_both_show_it() {
    let mut d = Driver::new();
    let call = d.agent.send("main__set_label", json!({"label": "third", "expectedVersion": 1}));
    let r = d.finish(call).unwrap();
    assert_eq!(r.version, Some(2));
    let s = d.bridge.snapshot();
    assert_eq!(s.window("side").unwrap().summary, "Side shows third", "the deferred window is current too");
    assert_eq!(s.window("main").unwrap().summary, "Label: third");
}

#[test]
fn a_dialog_in_its_own_viewport_blocks_its_owner_in_another() {
    let mut d = Driver::new();
    let opened = d.call("side__open_dialog", json!({"expectedVersion": 1})).unwrap();
    assert_eq!(opened.opened_window_ids, ["dialog"], "the immediate viewport's dialog counts as opened");
    let s = d.bridge.snapshot();
    assert_eq!(s.state().operable_window_ids, ["main", "dialog"], "side is blocked by its dialog");
    d.frame(None);
    assert!(d.state.lock().side_blocked, "the side window's response says it is blocked");
    let e = d.call("side__set_label", json!({"label": "x"})).unwrap_err();
    assert_eq!(e.code, ErrorCode::BlockedByModal);
    let dialog_pass = ViewportId::from_hash_of(DIALOG);
    d.call("dialog__close", json!({})).unwrap();
    assert!(
        d.state.lock().applied.last().unwrap().ends_with(&format!("{dialog_pass:?}")),
        "applied in the dialog's pass"
    );
    assert_eq!(d.ids(), ["main", "side"]);
    d.frame(None);
    assert!(!d.state.lock().side_blocked, "and no longer blocked");
}

/// The app shows the side viewport or not, and two frames take that in (egui drops a viewport
/// no pass showed at the end of the frame after).
fn show_side(d: &mut Driver, open: bool) {
    d.state.lock().side_open = open;
    d.frame(None);
    d.frame(None);
}

#[test]
fn a_viewport_no_longer_shown_drops_its_windows_and_their_ids_are_never_reused() {
    let mut d = Driver::new();
    show_side(&mut d, false);
    assert_eq!(d.ids(), ["main"], "the closed viewport's window is gone");
    show_side(&mut d, true);
    let ids = d.ids();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[1], "side", "a new window gets a new id: {ids:?}");
}

#[test]
fn the_persons_input_in_any_viewport_goes_first() {
    let mut d = Driver::new();
    let side = ViewportId::from_hash_of(SIDE);
    // The agent's call for `side` is queued; the person types in that viewport in the next
    // frame, changing what it shows.
    let call = d.agent.send("side__set_label", json!({"label": "agent", "expectedVersion": 1}));
    d.state.lock().label = "person".into();
    d.frame(Some(side));
    let e = d.finish(call).unwrap_err();
    assert_eq!(e.code, ErrorCode::StaleState, "checked against the person's change: {e:?}");
    assert_eq!(d.state.lock().label, "person");
    assert!(d.state.lock().applied.is_empty(), "never applied");
}

#[test]
fn a_call_that_opens_a_deferred_viewport_is_answered_with_its_windows() {
    let mut d = Driver::new();
    show_side(&mut d, false);
    assert_eq!(d.ids(), ["main"]);
    let r = d.call("main__open_side", json!({"expectedVersion": 1})).unwrap();
    assert_eq!(r.opened_window_ids.len(), 1, "the new viewport's window counts as opened: {r:?}");
    assert_eq!(d.ids().len(), 2, "and it is in the published state");
}

/// A window shown with `WindowBuilder::ui` in an OS window of its own (native windows): it is
/// declared in its immediate viewport's pass, where calls to it are applied; one that closes it
/// is answered once the state without it is published.
#[test]
fn a_native_window_shown_with_ui_is_declared_and_closed_in_its_own_viewport() {
    let (bridge, ctx) = bare_context();
    bridge.set_native_windows(true);
    let agent = Agent::new(&bridge);
    let open = Arc::new(Mutex::new((true, 0)));
    let frame = |ctx: &egui::Context| {
        native_frame(ctx, &bridge, &open, |bridge, ui, o| {
            bridge.window("main").title("Main").ui(ui, |w, ui| {
                if let Some(press) = w.button(ui, "bump", ActionSpec::new("Bump")).inner {
                    o.1 += 1;
                    press.ok("Bumped");
                }
            });
            if o.0 {
                // The state changes inside the closure: egui may run it again in the same pass.
                let mut close = false;
                bridge.window("panel").title("Panel").ui(ui, |w, ui| {
                    if let Some(press) = w.button(ui, "close", ActionSpec::new("Close")).inner {
                        close = true;
                        press.ok("Closed");
                    }
                });
                o.0 = !close;
            }
        });
    };
    frame(&ctx);
    frame(&ctx);
    assert_eq!(ids(&bridge), ["main", "panel"]);
    let mut call = agent.send("main__bump", json!({}));
    for _ in 0..20 {
        if call.try_outcome().is_some() {
            break;
        }
        frame(&ctx);
    }
    assert_eq!(open.lock().1, 1, "applied in its viewport's pass");
    let outcome = outcome_within(agent.send("panel__close", json!({})), 20, || frame(&ctx));
    assert!(outcome.expect("answered").is_ok());
    assert_eq!(ids(&bridge), ["main"], "answered once the state without it is published");
}

/// `.closable()` declares `close`: in an OS window of its own, the agent's call is claimed in the
/// window's viewport pass and comes back as `WindowResponse::close` after it, in the root pass;
/// answered there, it is answered once the state without the window is published.
#[test]
fn a_closable_native_windows_close_is_answered_from_its_response() {
    let (bridge, ctx) = bare_context();
    bridge.set_native_windows(true);
    let agent = Agent::new(&bridge);
    let open = Arc::new(Mutex::new(true));
    let frame = |ctx: &egui::Context| {
        native_frame(ctx, &bridge, &open, |bridge, ui, o| {
            bridge.window("main").title("Main").ui(ui, |_, _| {});
            if *o {
                let shown = bridge.window("panel").title("Panel").closable().ui(ui, |_, ui| {
                    ui.label("A panel");
                });
                if let Some(press) = shown.close {
                    *o = false;
                    press.ok("Closed");
                }
            }
        });
    };
    frame(&ctx);
    frame(&ctx);
    assert_eq!(ids(&bridge), ["main", "panel"]);
    assert!(bridge.snapshot().tools().iter().any(|t| t.name == "panel__close"), "declared by closable()");
    let outcome = outcome_within(agent.send("panel__close", json!({})), 20, || frame(&ctx));
    assert_eq!(outcome.expect("answered").expect("closed").message.as_deref(), Some("Closed"));
    assert_eq!(ids(&bridge), ["main"], "answered once the state without it is published");
}

/// One frame of `ctx`'s root: `app` shows the app, its state behind `state`.
fn native_frame<T: Send + 'static>(
    ctx: &egui::Context,
    bridge: &Bridge,
    state: &Arc<Mutex<T>>,
    app: fn(&Bridge, &mut egui::Ui, &mut T),
) {
    let (bridge, state) = (bridge.clone(), Arc::clone(state));
    ctx.run_ui(input(ViewportId::ROOT, false), move |ui| {
        app(&bridge, ui, &mut state.lock());
    })
    .drop_without_applying_deltas();
}

/// The ids of the windows in the published state.
fn ids(bridge: &Bridge) -> Vec<String> {
    bridge.snapshot().state().windows.iter().map(|w| w.id.clone()).collect()
}

/// The call's outcome, running `frame` until it comes, at most `frames` times.
fn outcome_within(mut call: AgentCall, frames: usize, mut frame: impl FnMut()) -> Option<Outcome> {
    for _ in 0..frames {
        if let Some(outcome) = call.try_outcome() {
            return Some(outcome);
        }
        frame();
    }
    call.try_outcome()
}
