//! The conversion, on trees egui itself built.

use super::*;
use crate::protocol::FieldItem;
use serde_json::{Value, json};

struct App {
    name: String,
    password: String,
    on: bool,
    speed: f32,
    baud: u32,
}

fn draw(ctx: &egui::Context, app: &mut App, described: Option<egui::Id>) -> TreeUpdate {
    let raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1200.0, 900.0))),
        ..Default::default()
    };
    let mut out = ctx.run_ui(raw, |ui| {
        egui::Panel::top("top").show(ui, |ui| {
            ui.heading("Serial monitor");
            drop(ui.button("Open file"));
        });
        egui::Window::new("Settings").show(ui.ctx(), |ui| {
            ui.label("Port settings");
            // In a grid, each label is the sibling before its input.
            egui::Grid::new("settings").show(ui, |ui| {
                for (label, value, password) in [("Name", &mut app.name, false), ("Password", &mut app.password, true)]
                {
                    ui.label(label);
                    ui.add(egui::TextEdit::singleline(value).password(password));
                    ui.end_row();
                }
            });
            ui.checkbox(&mut app.on, "Enabled");
            ui.add(egui::Slider::new(&mut app.speed, 0.0..=10.0).text("Speed"));
            egui::ComboBox::from_label("Baud").selected_text(app.baud.to_string()).show_ui(ui, |ui| {
                ui.selectable_value(&mut app.baud, 9600, "9600");
            });
            ui.add_enabled(false, egui::Button::new("Disconnect"));
            let _ = ui.button("Connect");
            egui::CollapsingHeader::new("Advanced").show(ui, |ui| ui.label("hidden"));
        });
        if let Some(id) = described {
            egui::Window::new("Described").id(id).show(ui.ctx(), |ui| ui.label("declared"));
        }
    });
    out.textures_delta.clear();
    out.platform_output.accesskit_update.expect("accesskit is enabled")
}

fn app() -> App {
    App { name: "Grace".into(), password: "hunter2".into(), on: true, speed: 3.5, baud: 9600 }
}

fn observed(described: Option<egui::Id>) -> Vec<ObservedWindow> {
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    let mut app = app();
    drop(draw(&ctx, &mut app, described));
    let tree = draw(&ctx, &mut app, described);
    let described = described.map(|id| id.accesskit_id());
    observe(&tree, &|id| Some(id) == described, &|_| false, &|_| false, true, &HashMap::new()).windows
}

fn field<'a>(w: &'a ObservedWindow, label: &str) -> &'a FieldItem {
    let Some(Block::Fields { items, .. }) = w.blocks.iter().find(|b| matches!(b, Block::Fields { .. })) else {
        panic!("no fields in {w:?}")
    };
    items.iter().find(|i| i.label == label).unwrap_or_else(|| panic!("no field {label} in {items:?}"))
}

fn controls(w: &ObservedWindow) -> Vec<Value> {
    w.blocks
        .iter()
        .find_map(|b| match b {
            Block::List { items, .. } => Some(items.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

#[test]
fn an_undescribed_window_reads_as_title_labels_values_and_buttons() {
    let windows = observed(None);
    let settings = windows.iter().find(|w| w.title == "Settings").expect("the Settings window");
    assert_eq!(field(settings, "Name").value, json!("Grace"));
    assert_eq!(field(settings, "Enabled").value, json!(true));
    assert_eq!(field(settings, "Speed").value, json!(3.5));
    assert_eq!(field(settings, "Baud").value, json!("9600"));
    let pw = field(settings, "Password");
    assert_eq!((pw.value.clone(), pw.sensitive), (json!(crate::protocol::MASK), true));
    let c = controls(settings);
    assert!(c.contains(&json!({"button": "Connect"})), "{c:?}");
    assert!(c.contains(&json!({"button": "Disconnect", "disabled": true})), "{c:?}");
    assert!(c.contains(&json!({"section": "Advanced", "open": false})), "{c:?}");
    assert!(!c.iter().any(|i| i.get("button") == Some(&json!("Hide"))), "window chrome is left out: {c:?}");
    let Some(Block::Text { text, .. }) = settings.blocks.first() else { panic!("{settings:?}") };
    assert_eq!(text, "Port settings", "labels that name an input are not repeated as text");
    assert!(windows.iter().all(|w| w.title != "Main"), "nothing is drawn outside the panel and the window");
    let panel = windows.iter().find(|w| w.title.starts_with("Panel")).expect("the top panel");
    assert_eq!(panel.title, "Panel: Serial monitor");
    assert!(controls(panel).contains(&json!({"button": "Open file"})));
    let kinds: Vec<_> = settings.widgets.iter().map(|w| (w.kind, w.label.as_str())).collect();
    assert!(kinds.contains(&("button", "Connect")) && kinds.contains(&("text input", "Name")), "{kinds:?}");
}

#[test]
fn no_password_leaves_the_tree_whatever_egui_puts_in_it() {
    let windows = observed(None);
    let json = serde_json::to_string(&windows.iter().map(|w| &w.blocks).collect::<Vec<_>>()).unwrap_or_default();
    assert!(!json.contains("hunter2"), "{json}");
}

#[test]
fn a_described_window_is_left_out() {
    let id = egui::Id::unique("described-window");
    let windows = observed(Some(id));
    assert!(windows.iter().all(|w| w.title != "Described"), "{windows:?}");
    assert!(windows.iter().any(|w| w.title == "Settings"));
}

#[test]
fn the_same_screen_reads_the_same_and_a_change_shows() {
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    let mut a = app();
    drop(draw(&ctx, &mut a, None));
    let first = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false, true, &HashMap::new()).windows;
    let again = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false, true, &HashMap::new()).windows;
    assert_eq!(first, again);
    a.name = "Ada".into();
    let changed = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false, true, &HashMap::new()).windows;
    let settings = changed.iter().find(|w| w.title == "Settings").expect("Settings");
    assert_eq!(field(settings, "Name").value, json!("Ada"));
    assert_eq!(
        first.iter().map(|w| w.node).collect::<Vec<_>>(),
        changed.iter().map(|w| w.node).collect::<Vec<_>>(),
        "node ids are stable"
    );
}

#[test]
fn icon_glyphs_are_dropped_with_the_space_they_leave() {
    let read = |t: &str| widgets::readable(t).map(std::borrow::Cow::into_owned);
    assert_eq!(read("\u{eb28} main.rs").as_deref(), Some("main.rs"));
    assert_eq!(read("main.rs \u{eb28}").as_deref(), Some("main.rs"));
    assert_eq!(read("Save \u{e161} now").as_deref(), Some("Save now"));
    assert_eq!(read("\u{f0415}\u{10fffd}New  file").as_deref(), Some("New  file"), "spaces of the app's kept");
    assert_eq!(read("  \u{e000}  "), None);
    assert_eq!(read("\u{f8ff}\u{f0000}\u{ffffd}\u{100000}\u{10fffd}"), None, "every private-use area");
    assert_eq!(read("\u{d7ff}\u{f900}\u{fffe}").as_deref(), Some("\u{d7ff}\u{f900}\u{fffe}"), "not private use: kept");
    assert!(
        matches!(widgets::readable(" plain "), Some(std::borrow::Cow::Borrowed("plain"))),
        "no copy without a glyph"
    );
}

#[test]
fn a_panel_keeps_the_title_it_was_first_seen_with() {
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    let mut a = app();
    drop(draw(&ctx, &mut a, None));
    let first = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false, true, &HashMap::new()).windows;
    let panel = first.iter().find(|w| w.panel).expect("the top panel");
    // Kept while the text it was titled by shows (here, part of its heading).
    let kept = HashMap::from([(panel.node, "Panel: monitor".to_owned())]);
    let again = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false, true, &kept).windows;
    let titles: Vec<&str> = again.iter().map(|w| w.title.as_str()).collect();
    assert!(titles.contains(&"Panel: monitor") && titles.contains(&"Settings"), "{titles:?}");
    // Once that text is gone, "Panel": no stale title, and not the text it shows now.
    let kept = HashMap::from([(panel.node, "Panel: Loading…".to_owned())]);
    let again = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false, true, &kept).windows;
    assert_eq!(again.iter().find(|w| w.panel).map(|w| w.title.as_str()), Some("Panel"));
    // And "Panel" is kept.
    let kept = HashMap::from([(panel.node, "Panel".to_owned())]);
    let again = observe(&draw(&ctx, &mut a, None), &|_| false, &|_| false, &|_| false, true, &kept).windows;
    assert_eq!(again.iter().find(|w| w.panel).map(|w| w.title.as_str()), Some("Panel"));
}
