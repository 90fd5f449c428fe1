//! The test harness's builder: kittest's options reach kittest (its accessibility check
//! included, so an app whose inputs a grid's row labels can be tested), the caller's context
//! setup runs before the plugin, and the agent's calls keep a step bound of their own.

use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_mcp_bridge::protocol::{Block, Window};
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge};
use serde_json::{Value, json};

#[derive(Default)]
struct Port {
    name: String,
    connects: u32,
}

/// A form as many apps draw it: the text input's only label is the one beside it in the grid's
/// row. A person reads it so, and so does the bridge, but it has no accessible name.
fn connection(ui: &mut egui::Ui, port: &mut Port) {
    egui::Window::new("Connection").show(ui.ctx(), |ui| {
        egui::Grid::new("port").show(ui, |ui| {
            ui.label("Port");
            ui.text_edit_singleline(&mut port.name);
            ui.end_row();
        });
        if ui.button("Connect").clicked() {
            port.connects += 1;
        }
    });
}

fn port_field(window: &Window) -> (String, Value, Option<String>) {
    let item = window
        .blocks
        .iter()
        .find_map(|b| match b {
            Block::Fields { items, .. } => items.iter().find(|i| i.label == "Port"),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Port field in {window:?}"));
    (item.label.clone(), item.value.clone(), item.key.clone())
}

#[test]
fn a_form_labelled_by_its_grid_row_is_driven_by_the_person_and_the_agent() {
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge)
        .with_size([500.0, 300.0])
        .with_accessibility_check(false)
        .build_ui_state(connection, Port::default());
    assert_eq!(h.unnamed_widgets().len(), 1, "kittest's check would refuse the port's input");

    // The person types into the input, found by its role (it has no name to be found by).
    let input = h.get_by_role(Role::TextInput);
    input.focus();
    input.type_text("COM7");
    h.run();
    assert_eq!(h.state().name, "COM7");
    let window = h.window("ui-connection").expect("read from what the app draws");
    assert_eq!(port_field(&window), ("Port".to_owned(), json!("COM7"), Some("port".to_owned())));

    // The agent writes the input by its row's label and presses Connect: the app's code runs.
    let set = json!({"field": "port", "value": "COM9", "expectedVersion": window.version});
    h.call("ui-connection__edit_field", set).expect("set by the row's label");
    h.call("ui-connection__press", json!({"control": "connect"})).expect("pressed");
    assert_eq!((h.state().name.as_str(), h.state().connects), ("COM9", 1));
    assert_eq!(h.get_by_role(Role::TextInput).accesskit_node().value().as_deref(), Some("COM9"), "the person sees it");
}

/// With kittest's check on (its default), the same app cannot even be built: this is what
/// `with_accessibility_check(false)` is for.
#[test]
#[should_panic(expected = "1 widget(s) lack accessible name")]
fn with_the_accessibility_check_on_kittest_refuses_that_form() {
    let bridge = Bridge::builder().build();
    let _ = Harness::builder(&bridge).with_size([500.0, 300.0]).build_ui_state(connection, Port::default());
}

#[test]
fn the_builders_options_reach_kittest_and_the_callers_setup_runs_with_the_plugin() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let spacing = egui::vec2(11.0, 7.0);
    let mut added = 0;
    {
        let mut h = Harness::builder(&bridge)
            .with_size([420.0, 310.0])
            .with_pixels_per_point(2.0)
            .with_theme(egui::Theme::Light)
            .map_kittest(|kittest| kittest.with_os(egui::os::OperatingSystem::Mac))
            .with_step_dt(0.5)
            .with_context_setup(move |ctx| ctx.all_styles_mut(|s| s.spacing.item_spacing = spacing))
            .build_ui(|ui| {
                b.window("counter").title("Counter").ui(ui, |w, ui| {
                    if let Some(press) = w.button(ui, "add", ActionSpec::new("Add one")).inner {
                        added += 1;
                        press.ok("Added");
                    }
                });
            });
        assert_eq!(h.ctx.content_rect().size(), egui::vec2(420.0, 310.0));
        assert!((h.ctx.pixels_per_point() - 2.0).abs() < f32::EPSILON);
        assert_eq!(h.ctx.theme(), egui::Theme::Light);
        assert_eq!(h.ctx.os(), egui::os::OperatingSystem::Mac);
        assert!((h.ctx.input(|i| i.predicted_dt) - 0.5).abs() < f32::EPSILON);
        assert_eq!(h.ctx.global_style().spacing.item_spacing, spacing, "the caller's setup ran");
        h.call("counter__add", json!({})).expect("the plugin is installed: the agent's call is answered");
        h.get_by_label("Add one").click();
        h.run();
    }
    assert_eq!(added, 2, "one from the agent, one from the person");
}

/// kittest's `with_max_steps` bounds its `run`; the agent's calls have a bound of their own.
/// (And `with_os` reaches kittest, as `map_kittest`'s does above.)
#[test]
fn kittests_step_bound_and_the_agents_are_separate() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let passes = std::cell::Cell::new(0_u32);
    let builder = Harness::builder(&bridge).with_os(egui::os::OperatingSystem::Windows);
    let mut h = builder.with_max_steps(3).with_max_call_steps(5).build_ui(|ui| {
        passes.set(passes.get() + 1);
        b.window("till").title("Till").ui(ui, |w, ui| {
            // Waits for the person's approval, which never comes.
            if let Some(press) = w.button(ui, "pay", ActionSpec::new("Pay").ask_person()).inner {
                press.ok("Paid");
            }
        });
        ui.ctx().request_repaint(); // never settles
    });
    assert_eq!(h.ctx.os(), egui::os::OperatingSystem::Windows);
    let exceeded = h.try_run().expect_err("it never settles");
    assert_eq!(exceeded.max_steps, 3);
    let before = passes.get();
    assert!(h.try_call("till__pay", json!({})).is_none(), "not answered: it waits for the person");
    assert_eq!(passes.get() - before, 5, "the agent's bound, not kittest's");
}
