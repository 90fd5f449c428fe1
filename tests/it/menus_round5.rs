//! Issue 46, item 10, on described menus: a menu whose item opens the same menu again is
//! declared to a bound (it overflowed the stack), and a disabled menu's submenus are disabled
//! for the person and for agents.

use egui_kittest::kittest::{NodeT as _, Queryable as _};
use egui_mcp_bridge::blocks::Menu;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge};

#[derive(Default)]
struct App {
    bridge: Option<Bridge>,
    items: u32,
    exports: u32,
}

/// egui's demo "Recursive" menu: an item, and the same menu again.
fn recursive(m: &mut Menu<'_>, items: &mut u32) {
    if let Some(press) = m.button("item", ActionSpec::new("Item")) {
        *items += 1;
        press.ok("Done");
    }
    m.menu("Recursive", |m| recursive(m, items));
}

fn app(ui: &mut egui::Ui, s: &mut App) {
    let Some(bridge) = s.bridge.clone() else { return };
    bridge.window("menus").title("Menus").ui(ui, |w, ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            bridge.app_menu_button(ui, "App", |m| recursive(m, &mut s.items));
            w.menu_button(ui, "Recursive", |m| recursive(m, &mut s.items));
            w.menu_button(ui, "File", |m| {
                m.enabled(false);
                m.menu("Export", |m| {
                    if let Some(press) = m.button("export_pdf", ActionSpec::new("Export as PDF")) {
                        s.exports += 1;
                        press.ok("Exported");
                    }
                });
            });
        });
    });
}

fn harness() -> Harness<'static, App> {
    let bridge = Bridge::builder().build();
    let state = App { bridge: Some(bridge.clone()), ..App::default() };
    let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(app, state);
    h.run();
    h
}

#[test]
fn a_recursive_menu_is_declared_to_a_bound_and_works() {
    let mut h = harness();
    let items = h.tool_names().iter().filter(|t| *t == "menus__item").count();
    assert_eq!(items, 1, "listed once, however deep it is declared: {:?}", h.tool_names());
    let app_items = h.tool_names().iter().filter(|t| *t == "app__item").count();
    assert_eq!(app_items, 1, "an app menu's too: {:?}", h.tool_names());
    let v = h.window("menus").map(|w| w.version);
    h.call("menus__item", serde_json::json!({"expectedVersion": v})).expect("pressed");
    assert_eq!(h.kittest().state().items, 1);
    // The person opens it three levels deep: still drawn, still declared.
    h.get_by_label("Recursive").click();
    h.run();
    for _ in 0..3 {
        h.get_all_by_label("Recursive").last().expect("a submenu button").hover();
        h.run();
    }
    assert!(h.get_all_by_label("Item").count() >= 2, "the open levels show their items");
    assert!(h.tool_names().iter().any(|t| t == "menus__item"));
}

#[test]
fn a_disabled_menus_submenus_are_disabled_for_the_person_and_agents() {
    let mut h = harness();
    assert!(!h.tool_names().iter().any(|t| t == "menus__export_pdf"), "not offered: {:?}", h.tool_names());
    h.get_by_label("File").click();
    h.run();
    assert!(h.get_by_label("Export").accesskit_node().is_disabled(), "drawn disabled");
    assert_eq!(h.kittest().state().exports, 0);
}

/// A menu bar the app has not described: View holds a checkbox that closes the menu.
#[derive(Default)]
struct Plain {
    grid: bool,
}

fn plain(ui: &mut egui::Ui, s: &mut Plain) {
    egui::Panel::top("menu").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("View", |ui| {
                // The menu closes once the person ticks it (egui's own pattern for menu items).
                if ui.checkbox(&mut s.grid, "Show grid").clicked() {
                    ui.close();
                }
            });
        });
    });
}

/// Item 10, generic tools: a checkbox in a menu, set through `edit_field`, was answered "no
/// longer shown" (the click closes the menu). It is answered with its new value.
#[test]
fn a_checkbox_in_a_menu_set_through_the_generic_tools_answers_its_new_value() {
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge)
        .with_size([600.0, 400.0])
        .with_accessibility_check(false)
        .build_ui_state(plain, Plain::default());
    h.run();
    let menu = h.snapshot().state().windows.iter().find(|w| w.title.starts_with("Panel: View")).cloned();
    let menu = menu.expect("the menu bar, titled by its menu");
    h.call(&format!("{}__press", menu.id), serde_json::json!({"control": "view"})).expect("opened");
    let set = h
        .call(&format!("{}__edit_field", menu.id), serde_json::json!({"field": "show-grid", "value": true}))
        .expect("ticked");
    assert!(h.kittest().state().grid, "the app's checkbox is ticked");
    let message = set.message.clone().unwrap_or_default();
    assert!(message.contains("Show grid is true"), "{message}");
    assert_eq!(
        set.result.as_ref().and_then(|r| r.pointer("/fields/show-grid")),
        Some(&serde_json::json!(true)),
        "{set:?}"
    );
}
