//! The design's invariants (docs/design.md) checked on every published snapshot while random sequences of agent
//! calls, person input and app changes run against the test app (frames driven by hand).

use crate::common;

use std::collections::{HashMap, HashSet};

use common::{TestState, declare};
use egui_mcp_bridge::testing::Agent;
use egui_mcp_bridge::{Bridge, protocol::WindowsState};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

#[derive(Clone, Debug)]
enum Op {
    /// An agent calls a tool of the window at this index in the last snapshot (or `app`).
    AgentCall {
        window: usize,
        action: usize,
        arg: u8,
        with_version: bool,
    },
    /// The person types while the app changes the name (a frame with input events).
    PersonEdit(u8),
    /// The app opens or closes things on its own.
    AppToggleExtra,
    AppToggleNotes,
    AppOpenDialog,
    /// A quiet frame.
    Frame,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0usize..6, 0usize..6, any::<u8>(), any::<bool>())
            .prop_map(|(window, action, arg, with_version)| Op::AgentCall { window, action, arg, with_version }),
        1 => any::<u8>().prop_map(Op::PersonEdit),
        1 => Just(Op::AppToggleExtra),
        1 => Just(Op::AppToggleNotes),
        1 => Just(Op::AppOpenDialog),
        2 => Just(Op::Frame),
    ]
}

struct World {
    bridge: Bridge,
    ctx: egui::Context,
    state: TestState,
    seen: HashSet<String>,
    gone: HashSet<String>,
    last: WindowsState,
}

impl World {
    fn frame(&mut self, events: Vec<egui::Event>) {
        let (bridge, state) = (&self.bridge, &mut self.state);
        self.ctx
            .run_ui(egui::RawInput { events, ..Default::default() }, |_| declare(bridge, state))
            .drop_without_applying_deltas();
        self.check();
    }

    /// Every invariant that one published snapshot, and the step from the last one, must keep.
    fn check(&mut self) {
        let snapshot = self.bridge.snapshot();
        let next = snapshot.state();
        let ids: HashSet<&str> = next.windows.iter().map(|w| w.id.as_str()).collect();
        assert_eq!(ids.len(), next.windows.len(), "ids unique");
        // The JSON served, spliced from each window's, is exactly the state's.
        assert_eq!(snapshot.json(), serde_json::to_string(next).expect("serialisable"), "json is the state's");
        // 1. Self-consistent: owners, operable ids and tool winIds name windows of this snapshot.
        for w in &next.windows {
            assert!(w.owner_id.as_deref().is_none_or(|o| ids.contains(o)), "dangling owner {w:?}");
        }
        for id in &next.operable_window_ids {
            assert!(ids.contains(id.as_str()), "operable id {id} not a window");
        }
        let app_modal = next.windows.iter().any(|w| w.modal && w.owner_id.is_none());
        if app_modal {
            assert_eq!(next.operable_window_ids.len(), 1, "an app modal collapses the operable set");
        }
        // 3. Tools: only of operable windows, app tools only without an app modal.
        for t in snapshot.tools() {
            let (win, _) = egui_mcp_bridge::protocol::split_tool_name(&t.name).expect("{winId}__{action}");
            if win == "app" {
                assert!(!app_modal, "app tools hidden under an app modal: {}", t.name);
            } else {
                assert!(next.is_operable(win), "tool {} of a window that is not operable", t.name);
            }
        }
        // 4. Versions: +1 exactly when summary or blocks changed; new windows start at 1.
        let prev: HashMap<&str, _> = self.last.windows.iter().map(|w| (w.id.as_str(), w)).collect();
        for w in &next.windows {
            match prev.get(w.id.as_str()) {
                Some(p) if p.summary == w.summary && p.blocks == w.blocks => {
                    assert_eq!(w.version, p.version, "{}", w.id);
                }
                Some(p) => assert_eq!(w.version, p.version + 1, "{}: one step per change", w.id),
                None => {
                    assert_eq!(w.version, 1, "{} is new", w.id);
                    assert!(!self.gone.contains(&w.id), "id {} reused", w.id);
                }
            }
        }
        for p in &self.last.windows {
            if !ids.contains(p.id.as_str()) {
                self.gone.insert(p.id.clone());
            }
        }
        self.seen.extend(ids.iter().map(|s| (*s).to_owned()));
        self.last = next.clone();
    }
}

const ACTIONS: [&str; 6] = ["set_name", "open_dialog", "close", "open_nested", "extra", "unlock"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_on_every_published_snapshot(ops in proptest::collection::vec(op(), 1..40)) {
        let bridge = Bridge::builder().build();
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let mut world = World { bridge, ctx, state: TestState { notes_open: true, ..TestState::default() },
            seen: HashSet::new(), gone: HashSet::new(), last: WindowsState::default() };
        world.frame(vec![]);
        let mut pending = Vec::new();
        for op in ops {
            match op {
                Op::AgentCall { window, action, arg, with_version } => {
                    let target = world.last.windows.get(window).map_or("app".to_owned(), |w| w.id.clone());
                    let target = if window == 5 { "app".to_owned() } else { target };
                    let action = if target == "app" { "lock" } else { ACTIONS[action] };
                    let mut args = Map::new();
                    match action {
                        "set_name" => { args.insert("name".into(), json!(format!("n{arg}"))); }
                        "unlock" => { args.insert("pin".into(), json!(if arg % 2 == 0 { "1234" } else { "0" })); }
                        _ => {}
                    }
                    if with_version {
                        let v = world.last.window(&target).map_or(0, |w| w.version);
                        args.insert("expectedVersion".into(), Value::from(v.saturating_sub(u64::from(arg % 2))));
                    }
                    pending.push(Agent::new(&world.bridge).send(&format!("{target}__{action}"), args));
                }
                Op::PersonEdit(n) => {
                    world.state.name = format!("person {n}");
                    world.frame(vec![egui::Event::Text("x".into())]);
                }
                Op::AppToggleExtra => world.state.extra = !world.state.extra,
                Op::AppToggleNotes => world.state.notes_open = !world.state.notes_open,
                Op::AppOpenDialog => world.state.dialogs.push(format!("app-dlg-{}", world.state.applied.len() + world.seen.len())),
                Op::Frame => world.frame(vec![]),
            }
        }
        // Let every call finish: each takes at most two frames, one at a time.
        for _ in 0..(2 * pending.len() + 2) {
            world.frame(vec![]);
        }
        for mut rx in pending {
            prop_assert!(rx.try_outcome().is_some(), "every call was answered");
        }
    }
}
