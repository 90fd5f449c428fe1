//! Testing an app with a person and an agent in the same test (cargo feature `testing`).
//!
//! [`Harness`] is an [`egui_kittest::Harness`] (it dereferences to one: click, type, query by
//! label as usual) with the bridge's plugin installed and an in-process [`Agent`]. The agent
//! calls tools, reads the state and the tool list, and sees the changes an MCP client would be
//! notified of, through the same queue, checks and answers as a real client, without a
//! transport. Everything is synchronous: [`Harness::call`] steps the harness until the call is
//! answered, a bounded number of passes. [`Harness::builder`] takes kittest's options (size,
//! theme, its accessibility check, …) and the bridge's; [`Harness::new_ui_state`] is its short
//! form. [`Harness::replay`] runs a recording of agents' calls (`BridgeBuilder::record`) against
//! the app again, comparing each answer: an agent's session becomes a test.
//!
//! # Example
//!
//! ```
//! use egui_mcp_bridge::testing::Harness;
//! use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode, Input};
//! use egui_kittest::kittest::Queryable as _;
//! use serde_json::json;
//!
//! /// The app: one window, described once for both. The person's text field is what agents
//! /// read and set (`profile__edit_field`); the person's button is `profile__clear`.
//! fn app(bridge: &Bridge, ui: &mut egui::Ui, name: &mut String) {
//!     bridge.window("profile").title("Profile").summary(format!("Name: {name}")).ui(ui, |w, ui| {
//!         w.form(ui, "details", |f| {
//!             f.edit("name", &Input::text("Name"), name);
//!         });
//!         if let Some(press) = w.button(ui, "clear", ActionSpec::new("Clear")).inner {
//!             name.clear();
//!             press.ok("Cleared");
//!         }
//!     });
//! }
//!
//! let bridge = Bridge::builder().build();
//! let b = bridge.clone();
//! let mut harness = Harness::new_ui_state(&bridge, move |ui, name: &mut String| app(&b, ui, name), String::new());
//!
//! // The agent reads, then types a name into the person's field.
//! let version = harness.window("profile").expect("declared").version;
//! let rename = |name: &str, version: u64| json!({"field": "name", "value": name, "expectedVersion": version});
//! let done = harness.call("profile__edit_field", rename("Ada", version));
//! assert_eq!(done.expect("renamed").version, Some(version + 1));
//! assert_eq!(harness.state(), "Ada");
//!
//! // The person clears the name; the agent's next write, based on the old version, is stale.
//! harness.get_by_label("Clear").click();
//! harness.run();
//! assert!(harness.agent_mut().changes().windows, "an MCP client would get resources/updated");
//! let stale = harness.call("profile__edit_field", rename("Bob", version + 1));
//! assert_eq!(stale.unwrap_err().code, ErrorCode::StaleState);
//! assert_eq!(harness.state(), "", "the person's change stands");
//! ```

use std::sync::Arc;

use serde_json::Value;

use crate::bridge::Bridge;
use crate::hub::{Outcome, Snapshot};
use crate::protocol::Window;

mod agent;
mod builder;
mod headless_ui;
mod replay;

pub use agent::{Agent, AgentCall, Change};
pub use builder::HarnessBuilder;
pub use egui_kittest;
pub use headless_ui::HeadlessUi;
pub use replay::{Difference, MAX_REPLAY_BYTES, Replay, ReplayError, ReplayReport};

/// How many frames [`Harness::call`] and [`Harness::wait_for_change`] step at most, unless
/// [`HarnessBuilder::with_max_call_steps`] says otherwise. A call takes one (its pass runs
/// twice: once to apply it, once to publish what it caused), two where egui may run no second
/// pass.
pub const MAX_STEPS: usize = 64;

/// An [`egui_kittest::Harness`] running the app with the bridge's plugin, and an [`Agent`] on
/// it. Dereferences to the kittest harness for the person's side.
pub struct Harness<'a, State = ()> {
    kittest: egui_kittest::Harness<'a, State>,
    agent: Agent,
    max_call_steps: usize,
}

impl<State> std::fmt::Debug for Harness<'_, State> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness").field("agent", &self.agent).finish_non_exhaustive()
    }
}

impl<'a, State> Harness<'a, State> {
    /// A builder shaped like kittest's: its options (size, theme, steps, its accessibility
    /// check, …) and the bridge's, then [`build_ui_state`](HarnessBuilder::build_ui_state) or
    /// [`build_ui`](HarnessBuilder::build_ui).
    ///
    /// Many apps label a text input only by the label beside it in a grid's row. A person reads
    /// it so, and so does the agent, but kittest's accessibility check refuses the input: turn
    /// the check off to test such an app.
    ///
    /// ```
    /// use egui_kittest::kittest::Queryable as _;
    /// use egui_mcp_bridge::Bridge;
    /// use egui_mcp_bridge::serde_json::json;
    /// use egui_mcp_bridge::testing::Harness;
    ///
    /// fn app(ui: &mut egui::Ui, port: &mut String) {
    ///     egui::Window::new("Connection").show(ui.ctx(), |ui| {
    ///         egui::Grid::new("port").show(ui, |ui| {
    ///             ui.label("Port");
    ///             ui.text_edit_singleline(port); // no `labelled_by`: the row names it
    ///             ui.end_row();
    ///         });
    ///     });
    /// }
    ///
    /// let bridge = Bridge::builder().build();
    /// let mut harness = Harness::builder(&bridge)
    ///     .with_size([400.0, 300.0])
    ///     .with_accessibility_check(false) // on, building this harness panics
    ///     .build_ui_state(app, "COM3".to_owned());
    /// let version = harness.window("ui-connection").map(|w| w.version);
    /// let set = json!({"field": "port", "value": "COM4", "expectedVersion": version});
    /// harness.call("ui-connection__edit_field", set).expect("the agent knows the input by its row");
    /// assert_eq!(harness.state(), "COM4");
    /// assert!(harness.query_all_by_value("COM4").next().is_some(), "and the person sees it");
    /// ```
    pub fn builder(bridge: &Bridge) -> HarnessBuilder<State> {
        HarnessBuilder::new(bridge)
    }

    /// Runs `app` with `state` in a harness of kittest's default size, with the plugin: the
    /// short form of [`builder`](Self::builder).
    #[track_caller]
    pub fn new_ui_state(bridge: &Bridge, app: impl FnMut(&mut egui::Ui, &mut State) + 'a, state: State) -> Self {
        Self::builder(bridge).build_ui_state(app, state)
    }

    /// The agent.
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The agent, to ask what changed.
    pub fn agent_mut(&mut self) -> &mut Agent {
        &mut self.agent
    }

    /// Calls a tool as an agent and steps the harness until it is answered. `args` is a JSON
    /// object (`expectedVersion` included).
    ///
    /// # Panics
    ///
    /// When the call is not answered within the harness's passes ([`MAX_STEPS`] unless
    /// [`with_max_call_steps`](HarnessBuilder::with_max_call_steps) says otherwise).
    pub fn call(&mut self, tool: &str, args: impl Into<Value>) -> Outcome {
        let call = self.agent.send(tool, args);
        self.finish(call)
    }

    /// Calls a tool as an agent and steps the harness until it is answered, at most the
    /// harness's passes: `None` if it is not answered by then (the call is then cancelled, as a
    /// client that left: never applied unless the app already took it).
    pub fn try_call(&mut self, tool: &str, args: impl Into<Value>) -> Option<Outcome> {
        let mut call = self.agent.send(tool, args);
        self.step_until_answered(&mut call).0
    }

    /// Steps the harness until `call` is answered, at most the harness's passes: its answer if
    /// it came, and how many passes ran.
    pub(crate) fn step_until_answered(&mut self, call: &mut AgentCall) -> (Option<Outcome>, usize) {
        let mut passes = 0;
        loop {
            if let Some(outcome) = call.try_outcome() {
                return (Some(outcome), passes);
            }
            if passes == self.max_call_steps {
                return (None, passes);
            }
            self.kittest.step();
            passes += 1;
        }
    }

    /// Steps the harness until a call sent earlier with [`Agent::send`] is answered (so the
    /// person can act between sending and answering).
    ///
    /// # Panics
    ///
    /// When the call is not answered within the harness's passes ([`MAX_STEPS`] unless
    /// [`with_max_call_steps`](HarnessBuilder::with_max_call_steps) says otherwise).
    pub fn finish(&mut self, mut call: AgentCall) -> Outcome {
        let (outcome, passes) = self.step_until_answered(&mut call);
        outcome.unwrap_or_else(|| panic!("the call was not answered within {passes} passes"))
    }

    /// Steps the harness until something is published that the agent has not seen, and says
    /// what (the notifications an MCP client would get).
    ///
    /// # Panics
    ///
    /// When nothing changes within the harness's passes.
    pub fn wait_for_change(&mut self) -> Change {
        for _ in 0..self.max_call_steps {
            let change = self.agent.changes();
            if change.any() {
                return change;
            }
            self.kittest.step();
        }
        panic!("nothing changed within {} passes", self.max_call_steps);
    }

    /// The latest published state, as an agent reads it.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.agent.snapshot()
    }

    /// A published window, by its external id (for the app's own id, see
    /// [`Bridge::external_id`]).
    pub fn window(&self, id: &str) -> Option<Window> {
        self.snapshot().window(id).cloned()
    }

    /// The names of the tools listed now.
    pub fn tool_names(&self) -> Vec<String> {
        self.agent.tool_names()
    }

    /// The interactive widgets drawn in the last pass but not described (see
    /// [`Bridge::undescribed_widgets`]): assert it is empty to know the app left nothing out.
    ///
    /// ```
    /// use egui_mcp_bridge::testing::Harness;
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    ///
    /// let bridge = Bridge::builder().build();
    /// let b = bridge.clone();
    /// let mut harness = Harness::new_ui_state(&bridge, move |ui, count: &mut u32| {
    ///     b.window("counter").title("Counter").ui(ui, |w, ui| {
    ///         if let Some(press) = w.button(ui, "add", ActionSpec::new("Add one")).inner {
    ///             *count += 1;
    ///             press.ok("Added");
    ///         }
    ///         if ui.button("Reset").clicked() {
    ///             *count = 0; // drawn, but not described: agents can read it, not press it
    ///         }
    ///     });
    /// }, 0);
    /// harness.run();
    /// let left_out: Vec<String> = harness.undescribed().iter().map(|w| w.label.clone()).collect();
    /// assert_eq!(left_out, ["Reset"]);
    /// ```
    pub fn undescribed(&self) -> Vec<crate::hub::UndescribedWidget> {
        self.agent.core.frame.lock().undescribed()
    }

    /// Whether the last frame painted the text `text` (a whole text shape): for what is painted
    /// rather than laid out as a widget, which kittest's queries do not see, such as the
    /// agent's mark over a window ("Agent: Add one").
    ///
    /// ```
    /// use egui_mcp_bridge::testing::Harness;
    /// use egui_mcp_bridge::{ActionSpec, Bridge};
    /// use serde_json::json;
    ///
    /// let bridge = Bridge::builder().build();
    /// let b = bridge.clone();
    /// let mut harness = Harness::new_ui_state(&bridge, move |ui, count: &mut u32| {
    ///     b.window("counter").title("Counter").ui(ui, |w, ui| {
    ///         if let Some(press) = w.button(ui, "add", ActionSpec::new("Add one")).inner {
    ///             *count += 1;
    ///             press.ok("Added");
    ///         }
    ///     });
    /// }, 0);
    /// harness.run();
    /// assert!(!harness.painted("Agent: Add one"));
    /// harness.call("counter__add", json!({})).expect("added");
    /// harness.step();
    /// assert!(harness.painted("Agent: Add one"), "the window shows what the agent did");
    /// ```
    pub fn painted(&self, text: &str) -> bool {
        fn holds(shape: &egui::Shape, text: &str) -> bool {
            match shape {
                egui::Shape::Text(t) => t.galley.text() == text,
                egui::Shape::Vec(shapes) => shapes.iter().any(|s| holds(s, text)),
                _ => false,
            }
        }
        self.kittest.output().shapes.iter().any(|c| holds(&c.shape, text))
    }

    /// The kittest harness.
    pub fn kittest(&mut self) -> &mut egui_kittest::Harness<'a, State> {
        &mut self.kittest
    }
}

impl<'a, State> std::ops::Deref for Harness<'a, State> {
    type Target = egui_kittest::Harness<'a, State>;

    fn deref(&self) -> &Self::Target {
        &self.kittest
    }
}

impl<State> std::ops::DerefMut for Harness<'_, State> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.kittest
    }
}

/// The egui id of the window `app_id` that `bridge` showed with
/// [`WindowBuilder::ui`](crate::WindowBuilder::ui) in its last pass (its `egui::Window`'s area,
/// its layer in `Order::Foreground` for a dialog), for tests that look at where egui drew it.
pub fn window_egui_id(bridge: &Bridge, app_id: &str) -> Option<egui::Id> {
    bridge.declare_state().places.lock().slot_of(app_id)
}

/// How many egui window ids the windows that `bridge` showed with `ui` have used (the most
/// windows open at once: ids are reused), for tests that check egui's memory stays bounded.
pub fn window_slots(bridge: &Bridge) -> usize {
    bridge.declare_state().places.lock().slots()
}
