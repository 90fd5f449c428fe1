//! Keyboard shortcuts on any action (`WindowUi::with_shortcut`), a menu button as the app makes
//! it (`WindowUi::add_menu`: egui's `MenuButton` with its `MenuConfig`), and a menu in egui's
//! own `Popup` (`WindowUi::popup_menu`).

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge, ErrorCode};
use serde_json::json;

const SEND: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Enter);
const CLEAR: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::L);

#[derive(Default)]
struct Console {
    bridge: Option<Bridge>,
    connected: bool,
    sent: Vec<bool>,
    cleared: Vec<bool>,
    confirm: bool,
}

fn console(ui: &mut egui::Ui, s: &mut Console) {
    let Some(bridge) = s.bridge.clone() else { return };
    bridge.window("console").title("Console").ui(ui, |w, ui| {
        ui.add_enabled_ui(s.connected, |ui| {
            if let Some(press) = w.with_shortcut(SEND).button(ui, "send", ActionSpec::new("Send")).inner {
                s.sent.push(press.by_agent());
                press.ok("Sent");
            }
        });
        if let Some(press) =
            w.with_shortcut(CLEAR).action(ui, "clear", ActionSpec::new("Clear").description("Clears the log"))
        {
            s.cleared.push(press.by_agent());
            press.ok("Cleared");
        }
    });
    if s.confirm {
        bridge.window("confirm").title("Sure?").modal_of("console").ui(ui, |w, ui| {
            if w.button(ui, "yes", ActionSpec::new("Yes")).inner.is_some() {
                s.confirm = false;
            }
        });
    }
}

fn harness() -> Harness<'static, Console> {
    let bridge = Bridge::builder().build();
    Harness::new_ui_state(&bridge, console, Console { bridge: Some(bridge.clone()), ..Console::default() })
}

#[test]
fn a_shortcut_presses_a_button_and_an_action_that_has_none_for_the_person_only_while_usable() {
    let mut h = harness();
    h.run();
    // Disabled by the app: the shortcut does nothing, and agents are not offered the button.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    h.run();
    assert!(h.state().sent.is_empty(), "a disabled button is not pressed by its shortcut");
    assert!(!h.tool_names().contains(&"console__send".to_owned()));
    h.state_mut().connected = true;
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::L);
    h.run();
    assert_eq!(
        (h.state().sent.clone(), h.state().cleared.clone()),
        (vec![false], vec![false]),
        "pressed by the person"
    );
    // Agents read the shortcut, and call the same actions.
    let tools = h.snapshot().tools().to_vec();
    let clear = tools.iter().find(|t| t.name == "console__clear").expect("declared");
    assert!(clear.description.contains("Clears the log (shortcut"), "{:?}", clear.description);
    let send = tools.iter().find(|t| t.name == "console__send").expect("declared");
    assert!(send.description.contains("Shortcut"), "{:?}", send.description);
    let version = h.window("console").expect("declared").version;
    h.call("console__send", json!({"expectedVersion": version})).expect("sent");
    let version = h.window("console").expect("declared").version;
    h.call("console__clear", json!({"expectedVersion": version})).expect("cleared");
    assert_eq!((h.state().sent.clone(), h.state().cleared.clone()), (vec![false, true], vec![false, true]));
    // Blocked by its dialog: the shortcuts press nothing, and agents are refused.
    h.state_mut().confirm = true;
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::L);
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    h.run();
    assert_eq!(h.state().cleared.len(), 2, "not while blocked");
    assert_eq!(h.state().sent.len(), 2, "not while blocked");
    let e = h.call("console__clear", json!({"expectedVersion": 0})).expect_err("blocked");
    assert_eq!(e.code, ErrorCode::BlockedByModal);
}

/// A menu button as the app makes it keeps egui's options: laid out as egui's own, and a
/// `MenuConfig` that keeps the menu open while the person ticks an item holds.
#[test]
fn a_menu_keeps_egui_s_menu_config() {
    use egui::containers::menu::{MenuButton, MenuConfig};
    fn config() -> MenuConfig {
        MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
    }
    fn bridged(ui: &mut egui::Ui, s: &mut (Option<Bridge>, bool, usize)) {
        let Some(bridge) = s.0.clone() else { return };
        bridge.window("view").title("View").ui(ui, |w, ui| {
            w.add_menu(ui, MenuButton::new("Options").config(config()), |m| {
                m.form("view", |f| {
                    f.edit("wrap", &egui_mcp_bridge::Input::checkbox("Wrap lines"), &mut s.1);
                });
                if let Some(press) = m.button("zoom", ActionSpec::new("Zoom in")) {
                    s.2 += 1;
                    press.ok("Zoomed");
                }
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, (Some(bridge.clone()), false, 0));
    let mut p = egui_kittest::Harness::new_ui_state(
        |ui, wrap: &mut bool| {
            egui::Window::new("View").show(ui.ctx(), |ui| {
                MenuButton::new("Options").config(config()).ui(ui, |ui| {
                    ui.checkbox(wrap, "Wrap lines");
                    let _ = ui.button("Zoom in");
                });
            });
        },
        false,
    );
    // Agents use it closed.
    let version = h.window("view").expect("declared").version;
    h.call("view__zoom", json!({"expectedVersion": version})).expect("zoomed while closed");
    assert_eq!(h.state().2, 1);
    // The person opens it; ticking an item leaves it open, as egui's own with that config.
    h.get_by_label("Options").click();
    h.run();
    p.get_by_label("Options").click();
    p.run();
    let offset = |button: egui::Rect, item: egui::Rect| item.min - button.min;
    let ours = offset(h.get_by_label("Options").rect(), h.get_by_label("Zoom in").rect());
    let egui_s = offset(p.get_by_label("Options").rect(), p.get_by_label("Zoom in").rect());
    // egui rounds a popup's place to whole pixels from its button's (the bridge's window keeps
    // room for the agent's outline, which moves the button by a fraction): half a point at most.
    assert!((ours - egui_s).length() <= 0.5, "laid out as egui's own menu: {ours:?} {egui_s:?}");
    h.get_by_label("Zoom in").click();
    h.run();
    p.get_by_label("Zoom in").click();
    p.run();
    assert_eq!(h.state().2, 2, "the person's click is the action too");
    assert!(p.query_by_label("Zoom in").is_some(), "egui's own stays open with CloseOnClickOutside");
    assert!(h.query_by_label("Zoom in").is_some(), "so does the bridge's");
    h.get_by_label("Wrap lines").click();
    h.run();
    assert!(h.state().1, "and the person ticks an item in it");
    assert!(h.query_by_label("Zoom in").is_some(), "still open");
}

/// A menu in egui's own `Popup` (opened by a click on a button, with egui's options) is laid
/// out as egui's own, and its items are actions while it is closed.
#[test]
fn a_popup_menu_keeps_egui_s_popup_options() {
    fn popup(response: &egui::Response) -> egui::Popup<'_> {
        egui::Popup::menu(response).gap(12.0).align(egui::RectAlign::RIGHT_START).id(egui::Id::unique("share"))
    }
    fn bridged(ui: &mut egui::Ui, s: &mut (Option<Bridge>, usize)) {
        let Some(bridge) = s.0.clone() else { return };
        bridge.window("share").title("Sharing").ui(ui, |w, ui| {
            let button = ui.button("Share…");
            w.popup_menu(ui, popup(&button), |m| {
                if let Some(press) = m.button("copy_link", ActionSpec::new("Copy link")) {
                    s.1 += 1;
                    press.ok("Copied");
                }
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, (Some(bridge.clone()), 0));
    let mut p = egui_kittest::Harness::new_ui(|ui| {
        egui::Window::new("Sharing").show(ui.ctx(), |ui| {
            let button = ui.button("Share…");
            popup(&button).show(|ui| ui.button("Copy link"));
        });
    });
    let version = h.window("share").expect("declared").version;
    h.call("share__copy_link", json!({"expectedVersion": version})).expect("copied while closed");
    assert!(h.query_by_label("Copy link").is_none(), "closed for the person");
    h.get_by_label("Share…").click();
    h.run();
    p.get_by_label("Share…").click();
    p.run();
    let offset = |button: egui::Rect, item: egui::Rect| item.min - button.min;
    let ours = offset(h.get_by_label("Share…").rect(), h.get_by_label("Copy link").rect());
    let egui_s = offset(p.get_by_label("Share…").rect(), p.get_by_label("Copy link").rect());
    // egui rounds a popup's place to whole pixels (see above): half a point at most.
    assert!((ours - egui_s).length() <= 0.5, "beside the button, 12 points off, as egui's own: {ours:?} {egui_s:?}");
    assert!(ours.x > 12.0, "to the right of the button: {ours:?}");
    h.get_by_label("Copy link").click();
    h.run();
    assert_eq!(h.state().1, 2, "the agent's call and the person's click");
    assert!(h.query_by_label("Copy link").is_none(), "closed by the click, as egui's menus are");
}

/// A submenu whose button the app makes (egui's `SubMenuButton`: its own button, a
/// `MenuConfig`) is laid out as egui's own, and its items are actions while it is closed.
#[test]
fn a_submenu_keeps_egui_s_submenu_button() {
    use egui::containers::menu::{MenuConfig, SubMenuButton};
    fn submenu() -> SubMenuButton<'static> {
        let button =
            egui::Button::new(egui::RichText::new("Open recent").italics()).right_text(SubMenuButton::arrow_atom(None));
        SubMenuButton::from_button(button)
            .config(MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside))
    }
    fn bridged(ui: &mut egui::Ui, s: &mut (Option<Bridge>, usize)) {
        let Some(bridge) = s.0.clone() else { return };
        bridge.window("files").title("Files").ui(ui, |w, ui| {
            w.menu_button(ui, "File", |m| {
                m.add_menu(submenu(), |m| {
                    if let Some(press) = m.button("open_last", ActionSpec::new("Open the last file")) {
                        s.1 += 1;
                        press.ok("Opened");
                    }
                });
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, (Some(bridge.clone()), 0));
    let mut p = egui_kittest::Harness::new_ui(|ui| {
        egui::Window::new("Files").show(ui.ctx(), |ui| {
            ui.menu_button("File", |ui| {
                submenu().ui(ui, |ui| ui.button("Open the last file"));
            });
        });
    });
    let version = h.window("files").expect("declared").version;
    h.call("files__open_last", json!({"expectedVersion": version})).expect("opened while closed");
    h.get_by_label("File").click();
    h.run();
    p.get_by_label("File").click();
    p.run();
    let ours = h.get_by_label("Open recent").rect().min - h.get_by_label("File").rect().min;
    let egui_s = p.get_by_label("Open recent").rect().min - p.get_by_label("File").rect().min;
    assert!((ours - egui_s).length() <= 0.5, "laid out as egui's own: {ours:?} {egui_s:?}");
    assert_eq!(h.get_by_label("Open recent").rect().size(), p.get_by_label("Open recent").rect().size());
    h.get_by_label("Open recent").click();
    h.run();
    h.get_by_label("Open the last file").click();
    h.run();
    assert_eq!(h.state().1, 2, "the agent's call and the person's click");
}

/// A key that presses an action only while a field has focus (`Shortcut::when`), as the serial
/// monitor's command line sends on Enter: Enter elsewhere presses nothing.
#[test]
fn a_shortcut_can_work_only_while_a_field_has_focus() {
    const ENTER: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::NONE, egui::Key::Enter);
    fn app(ui: &mut egui::Ui, s: &mut (Option<Bridge>, String, Vec<String>)) {
        let Some(bridge) = s.0.clone() else { return };
        bridge.window("console").title("Console").ui(ui, |w, ui| {
            let line = ui.add(egui::TextEdit::singleline(&mut s.1).hint_text("Command"));
            w.describes(&line);
            let send = w.with_shortcut(ENTER).when(line.lost_focus()).button(ui, "send", ActionSpec::new("Send"));
            if let Some(press) = send.inner {
                s.2.push(std::mem::take(&mut s.1));
                press.ok("Sent");
            }
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, app, (Some(bridge.clone()), String::new(), Vec::new()));
    h.run();
    // Enter with no field focused: nothing.
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(h.state().2.is_empty(), "Enter outside the command line presses nothing");
    // Typed in the field, Enter sends.
    h.get_by_role(egui::accesskit::Role::TextInput).focus();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput).type_text("reset");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.run();
    assert_eq!(h.state().2, ["reset"], "Enter in the command line sends it");
    let send = h.snapshot().tools().iter().find(|t| t.name == "console__send").cloned().expect("offered to agents");
    assert!(send.description.contains("Shortcut"), "{:?}", send.description);
}
