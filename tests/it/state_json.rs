//! The published JSON is spliced from each window's JSON, made once per change of that window
//! (`hub/frame/build.rs`). Here it is checked, after every frame of a long sequence of changes,
//! opens and closes, against a fresh serialisation of the state the test expects: its own model
//! of every window (handle, title, owner, version, summary, blocks) and of which are operable.

use std::collections::HashMap;

use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::protocol::{Block, FieldItem, Window, WindowsState};
use serde_json::json;

/// One window of the model, and what the test expects the bridge to publish for it.
#[derive(Clone, Debug)]
struct Model {
    app_id: String,
    handle: String,
    title: String,
    summary: String,
    name: String,
    count: i64,
    text: String,
    /// A dialog of this app id (the owner's), modal.
    owner: Option<String>,
    version: u64,
}

impl Model {
    fn new(app_id: &str, handle: &str) -> Self {
        Self {
            app_id: app_id.to_owned(),
            handle: handle.to_owned(),
            title: format!("Title of {app_id}"),
            summary: format!("Summary of {app_id}"),
            name: "Ada".to_owned(),
            count: 0,
            text: "Some text".to_owned(),
            owner: None,
            version: 1,
        }
    }
}

struct World {
    bridge: Bridge,
    ctx: egui::Context,
    windows: Vec<Model>,
    /// Opened so far (for fresh ids).
    opened: usize,
    /// How many times each reopened app id was open (its handle gets that suffix).
    reopened: HashMap<String, usize>,
}

impl World {
    fn declare(&self) {
        for m in &self.windows {
            let mut b = self.bridge.window(&m.app_id).title(&m.title).summary(&m.summary);
            if let Some(owner) = &m.owner {
                b = b.modal_of(owner);
            }
            b.declare(|w| {
                w.fields("f", |f| {
                    f.field("Name", m.name.as_str());
                    f.field("Count", m.count);
                });
                w.text("t", &m.text);
            });
        }
    }

    fn frame(&self) {
        self.ctx.run_ui(egui::RawInput::default(), |_| self.declare()).drop_without_applying_deltas();
    }

    /// The state the test expects, serialised afresh.
    fn expected(&self) -> String {
        let handle_of = |app_id: &str| self.windows.iter().find(|m| m.app_id == app_id).map(|m| m.handle.clone());
        let has_dialog = |m: &Model| self.windows.iter().any(|d| d.owner.as_deref() == Some(m.app_id.as_str()));
        let state = WindowsState {
            operable_window_ids: self.windows.iter().filter(|m| !has_dialog(m)).map(|m| m.handle.clone()).collect(),
            windows: self
                .windows
                .iter()
                .map(|m| Window {
                    id: m.handle.clone(),
                    title: m.title.clone(),
                    modal: m.owner.is_some(),
                    owner_id: m.owner.as_deref().and_then(handle_of),
                    version: m.version,
                    summary: m.summary.clone(),
                    blocks: vec![
                        Block::Fields {
                            id: Some("f".into()),
                            items: vec![FieldItem::new("Name", json!(m.name)), FieldItem::new("Count", json!(m.count))],
                        },
                        Block::Text { id: Some("t".into()), text: m.text.clone() },
                    ],
                    read_only: false,
                    undescribed: false,
                })
                .collect(),
        };
        serde_json::to_string(&state).expect("serialisable")
    }

    fn check(&self, step: usize, what: &str) {
        let snapshot = self.bridge.snapshot();
        assert_eq!(snapshot.json(), self.expected(), "step {step} ({what}): the published JSON");
        assert_eq!(
            snapshot.json(),
            serde_json::to_string(snapshot.state()).expect("serialisable"),
            "step {step} ({what}): the JSON is the state's"
        );
    }

    /// Opens a top-level window with a fresh id.
    fn open(&mut self) {
        self.opened += 1;
        let id = format!("w{}", self.opened);
        self.windows.push(Model::new(&id, &id));
    }
}

/// A small deterministic generator (the sequence is the same in every run).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn the_spliced_state_is_a_fresh_serialisation_after_changes_opens_and_closes() {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let mut world = World { bridge, ctx, windows: Vec::new(), opened: 0, reopened: HashMap::new() };
    for _ in 0..4 {
        world.open();
    }
    world.frame();
    world.check(0, "opened four");

    let mut rng = Lcg(18);
    for step in 1..=400 {
        let n = world.windows.len();
        let k = rng.below(n.max(1));
        let what = match rng.below(10) {
            // Content: the version rises.
            0 if n > 0 => {
                world.windows[k].name = format!("Name {step}");
                world.windows[k].version += 1;
                "a field changed"
            }
            1 if n > 0 => {
                world.windows[k].count += 1;
                world.windows[k].text = format!("Text {step}");
                world.windows[k].version += 1;
                "two blocks changed"
            }
            2 if n > 0 => {
                world.windows[k].summary = format!("Summary {step}");
                world.windows[k].version += 1;
                "the summary changed"
            }
            // The header alone: the window's JSON changes, its version does not.
            3 if n > 0 => {
                world.windows[k].title = format!("Title {step}");
                "the title changed"
            }
            4 if n < 12 => {
                world.open();
                "a window opened"
            }
            // Closing a window closes its dialog too.
            5 if n > 1 => {
                let gone = world.windows.remove(k).app_id;
                world.windows.retain(|m| m.owner.as_deref() != Some(gone.as_str()));
                "a window closed"
            }
            // A dialog on a top-level window without one: its owner is no longer operable.
            6 if n > 0 => {
                let owner = world.windows[k].clone();
                let free =
                    owner.owner.is_none() && !world.windows.iter().any(|m| m.owner.as_ref() == Some(&owner.app_id));
                if free {
                    world.opened += 1;
                    let id = format!("d{}", world.opened);
                    let mut dialog = Model::new(&id, &id);
                    dialog.owner = Some(owner.app_id);
                    world.windows.push(dialog);
                }
                "a dialog opened"
            }
            // The same id declared again after it closed: a new handle, version 1.
            7 if n > 1 && world.windows[k].owner.is_none() => {
                let gone = world.windows.remove(k).app_id;
                world.windows.retain(|m| m.owner.as_deref() != Some(gone.as_str()));
                world.frame();
                world.check(step, "closed before reopening");
                let times = world.reopened.entry(gone.clone()).or_insert(1);
                *times += 1;
                let handle = format!("{gone}-{times}");
                world.windows.push(Model::new(&gone, &handle));
                "a closed id reopened"
            }
            // Reordered: the same windows in another order.
            8 if n > 1 => {
                world.windows.rotate_left(1);
                "the windows reordered"
            }
            _ => "nothing changed",
        };
        world.frame();
        world.check(step, what);
    }
}

/// A block closure runs once in a pass that changed nothing (to hash) and twice when its block
/// changed (to hash, then to build): what keeps a quiet pass cheap.
#[test]
fn a_block_is_built_only_when_it_changed() {
    let bridge = Bridge::builder().build();
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    let runs = std::cell::Cell::new(0);
    let frame = |value: i64| {
        runs.set(0);
        ctx.run_ui(egui::RawInput::default(), |_| {
            bridge.window("w").declare(|w| {
                w.text("t", "unchanged");
                w.fields("f", |f| {
                    runs.set(runs.get() + 1);
                    f.field("Value", value);
                });
            });
        })
        .drop_without_applying_deltas();
        runs.get()
    };
    assert_eq!(frame(1), 2, "a new window's block is built");
    assert_eq!(frame(1), 1, "unchanged: hashed only");
    assert_eq!(frame(1), 1, "still unchanged");
    assert_eq!(frame(2), 2, "changed: built");
    assert_eq!(frame(2), 1, "unchanged again");
    let window = bridge.snapshot().state().windows[0].clone();
    assert_eq!(window.version, 2);
    assert_eq!(
        window.blocks[1],
        Block::Fields { id: Some("f".into()), items: vec![FieldItem::new("Value", json!(2))] }
    );
}
