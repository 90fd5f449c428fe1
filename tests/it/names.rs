//! Names in the read view (issue 47, item 4): what a person reads names a widget, never an
//! icon font's glyph; a text edit without a label by its hint text; a panel keeps the title it
//! was first seen with; an answer's "Also changed" says each change once, in words; a combo
//! box's option is chosen by the start of its text when only one option starts so.

use egui_mcp_bridge::protocol::{Block, Window};
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{Bridge, ErrorCode};
use serde_json::{Value, json};

/// Icon-font glyphs as egui apps draw them (egui-phosphor, codicons, Nerd Font), in the three
/// private-use areas.
const SEARCH: &str = "\u{e8b6}";
const GEAR: &str = "\u{f013}";
const PIN: &str = "\u{f08d}";
const FOLDER: &str = "\u{eb28}";
const FILE: &str = "\u{f15b}";
const PLUS: &str = "\u{f0415}";
const BELL: &str = "\u{10fffd}";

const FORMATS: [&str; 5] = ["HTML (.html)", "Markdown (.md)", "PDF", "PDF/A", "Plain text (.txt)"];

/// An app drawn as real ones are: icon glyphs in buttons, rows and titles, a search box named
/// only by its hint, a menu bar and a status bar, a tree to collapse, an export format.
#[derive(Default)]
struct Explorer {
    search: String,
    status: String,
    status_bar: bool,
    settings: u32,
    created: u32,
    pinned: bool,
    bells: u32,
    collapse: bool,
    opened: Option<String>,
    format: String,
    quits: u32,
}

fn explorer(ui: &mut egui::Ui, s: &mut Explorer) {
    egui::Panel::top("menu").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                ui.label("Recent projects");
                if ui.button("Quit").clicked() {
                    s.quits += 1;
                }
            });
            ui.menu_button("View", |ui| {
                let _ = ui.button("Zoom in");
            });
        });
    });
    if s.status_bar {
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.label(&s.status);
        });
    }
    egui::Window::new(format!("{FOLDER} Explorer")).default_width(420.0).show(ui.ctx(), |ui| {
        ui.horizontal(|ui| {
            ui.label(SEARCH);
            ui.add(egui::TextEdit::singleline(&mut s.search).hint_text("Search files..."));
        });
        ui.horizontal(|ui| {
            if ui.button(GEAR).on_hover_text("Settings").clicked() {
                s.settings += 1;
            }
            if ui.button(format!("{PLUS} New file")).clicked() {
                s.created += 1;
            }
            if ui.button(BELL).clicked() {
                s.bells += 1;
            }
            if ui.button("Collapse all").clicked() {
                s.collapse = true;
            }
        });
        ui.horizontal(|ui| {
            if ui.selectable_label(s.pinned, PIN).clicked() {
                s.pinned = !s.pinned;
            }
            ui.label("Pinned only");
        });
        let collapse = std::mem::take(&mut s.collapse);
        for (folder, files) in [("src", &["main.rs", "mod.rs"][..]), ("tests", &["it.rs", "mod.rs"][..])] {
            let header = egui::CollapsingHeader::new(format!("{FOLDER} {folder}")).default_open(true);
            let header = if collapse { header.open(Some(false)) } else { header };
            header.show(ui, |ui| {
                for file in files {
                    let path = format!("{folder}/{file}");
                    let selected = s.opened.as_deref() == Some(path.as_str());
                    if ui.selectable_label(selected, format!("{FILE} {file}")).clicked() {
                        s.status = format!("Opened /home/ada/projects/explorer/{path}");
                        s.opened = Some(path);
                    }
                }
            });
        }
        egui::ComboBox::from_label("Export as").selected_text(s.format.clone()).show_ui(ui, |ui| {
            for f in FORMATS {
                ui.selectable_value(&mut s.format, f.to_owned(), f);
            }
        });
    });
}

fn harness() -> Harness<'static, Explorer> {
    let bridge = Bridge::builder().build();
    let state = Explorer { status: "Ready".into(), status_bar: true, format: "PDF".into(), ..Explorer::default() };
    let mut h = Harness::builder(&bridge)
        .with_size([900.0, 700.0])
        .with_accessibility_check(false)
        .allow_missing_glyphs() // the icon fonts are the app's; here they draw as tofu
        .build_ui_state(explorer, state);
    h.run();
    h
}

fn private_use(c: char) -> bool {
    matches!(c, '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..='\u{ffffd}' | '\u{100000}'..='\u{10fffd}')
}

/// The whole `app://windows` JSON holds no private-use character.
fn assert_no_glyph(h: &Harness<'_, Explorer>) {
    let json = h.snapshot().json().to_owned();
    let found: Vec<String> = json.chars().filter(|c| private_use(*c)).map(|c| format!("U+{:X}", c as u32)).collect();
    assert!(found.is_empty(), "private-use glyphs {found:?} in the read: {json}");
}

fn explorer_window(h: &Harness<'_, Explorer>) -> Window {
    h.window("ui-explorer").unwrap_or_else(|| panic!("no ui-explorer in {}", h.snapshot().json()))
}

fn texts(w: &Window) -> Vec<String> {
    w.blocks.iter().filter_map(|b| if let Block::Text { text, .. } = b { Some(text.clone()) } else { None }).collect()
}

/// The undescribed panel whose read holds `what`.
fn panel_holding<S>(h: &Harness<'_, S>, what: &str) -> Window {
    let snapshot = h.snapshot();
    snapshot
        .state()
        .windows
        .iter()
        .find(|w| w.id.starts_with("ui-panel-") && serde_json::to_string(w).is_ok_and(|j| j.contains(what)))
        .cloned()
        .unwrap_or_else(|| panic!("no panel holding {what:?} in {}", snapshot.json()))
}

#[test]
fn a_text_edit_without_a_label_is_named_by_its_hint_and_no_glyph_is_read_anywhere() {
    let mut h = harness();
    assert_no_glyph(&h);
    let w = explorer_window(&h);
    assert_eq!(w.title, "Explorer", "the title's glyph dropped");
    let fields = crate::common::field_items(&w);
    assert_eq!(fields[0], ("Search files...".to_owned(), json!(""), Some("search-files".to_owned())), "{fields:?}");
    assert_eq!(fields[1].0, "Export as", "{fields:?}");
    let controls = crate::common::controls(&w);
    let named: Vec<(String, String)> = controls
        .iter()
        .filter_map(|c| {
            let (kind, name) = c.as_object()?.iter().find(|(k, _)| *k != "key" && *k != "selected" && *k != "open")?;
            Some((format!("{kind}: {}", name.as_str()?), c.get("key")?.as_str()?.to_owned()))
        })
        .collect();
    let expect = |name: &str, key: &str| (name.to_owned(), key.to_owned());
    assert_eq!(
        named,
        [
            expect("button: Settings", "settings"),
            expect("button: New file", "new-file"),
            expect("button: button 3", "button-3"),
            expect("button: Collapse all", "collapse-all"),
            expect("button: Pinned only", "pinned-only"),
            expect("section: src", "src"),
            expect("button: main.rs", "main-rs"),
            expect("button: mod.rs", "mod-rs"),
            expect("section: tests", "tests"),
            expect("button: it.rs", "it-rs"),
            expect("button: mod.rs", "mod-rs-2"),
        ],
        "{controls:?}"
    );
    assert!(texts(&w).iter().all(|t| !t.trim().is_empty()), "no blank text line: {:?}", texts(&w));

    // The hint names the field while it holds text too; the agent sets it by that name.
    let v = w.version;
    h.call("ui-explorer__edit_field", json!({"field": "search-files", "value": "main", "expectedVersion": v}))
        .expect("set by its hint's key");
    assert_eq!(h.kittest().state().search, "main");
    assert_eq!(fields_of(&h)[0].0, "Search files...");

    // The glyph-only controls are pressed by the names they read as.
    for (control, count) in [("settings", 1), ("button-3", 1), ("pinned-only", 1)] {
        h.call("ui-explorer__press", json!({"control": control})).expect(control);
        let s = h.kittest().state();
        let counted = match control {
            "settings" => s.settings,
            "button-3" => s.bells,
            _ => u32::from(s.pinned),
        };
        assert_eq!(counted, count, "{control}");
    }
    // The menu bar, its menu open: still no glyph anywhere.
    let menu = panel_holding(&h, "\"File\"");
    h.call(&format!("{}__press", menu.id), json!({"control": "file"})).expect("the menu opens");
    assert_no_glyph(&h);
}

fn fields_of(h: &Harness<'_, Explorer>) -> Vec<(String, Value, Option<String>)> {
    crate::common::field_items(&explorer_window(h))
}

#[test]
fn a_panels_title_is_chosen_once_while_it_shows_and_does_not_follow_its_content() {
    let mut h = harness();
    let status = panel_holding(&h, "Ready");
    assert_eq!(status.title, "Panel: Ready");
    let menu = panel_holding(&h, "\"File\"");
    let menu_title = menu.title.clone();
    assert_eq!(menu_title, "Panel: File, View");

    // The status bar's message changes to a file's full path: its title does not follow it. The
    // text it was titled by is gone ("Ready" would mislead: a loading message titled a real
    // app's main panel all session), so it is titled "Panel", once, and keeps that.
    h.call("ui-explorer__press", json!({"control": "main-rs"})).expect("opened");
    assert_eq!(h.kittest().state().status, "Opened /home/ada/projects/explorer/src/main.rs");
    let again = h.window(&status.id).expect("the status bar still shows, under the same id");
    assert_eq!(again.title, "Panel", "{again:?}");
    assert!(serde_json::to_string(&again).is_ok_and(|j| j.contains("explorer/src/main.rs")), "{again:?}");
    h.call("ui-explorer__press", json!({"control": "it-rs"})).expect("opened");
    assert_eq!(h.window(&status.id).expect("the status bar").title, "Panel", "kept");

    // The menu bar with its File menu open (a label first in it): its title stays.
    h.call(&format!("{}__press", menu.id), json!({"control": "file"})).expect("the menu opens");
    let open = h.window(&menu.id).expect("the menu bar");
    assert!(serde_json::to_string(&open).is_ok_and(|j| j.contains("Recent projects")), "the menu is read: {open:?}");
    assert_eq!(open.title, menu_title, "{open:?}");

    // Gone, then shown again: titled afresh by what it shows then.
    h.kittest().state_mut().status_bar = false;
    h.run();
    assert!(h.window(&status.id).is_none(), "the status bar is gone");
    h.kittest().state_mut().status_bar = true;
    h.run();
    let back = panel_holding(&h, "explorer/tests/it.rs");
    assert_eq!(back.title, "Panel: Opened /home/ada/projects/explorer/tests", "{back:?}");
}

#[test]
fn also_changed_names_each_change_once_and_none_blank() {
    let mut h = harness();
    let v = explorer_window(&h).version;
    let done = h.call("ui-explorer__press", json!({"control": "collapse-all", "expectedVersion": v})).expect("pressed");
    let message = done.message.unwrap_or_default();
    let (_, changed) =
        message.split_once("Also changed: ").unwrap_or_else(|| panic!("nothing else changed? {message}"));
    let entries: Vec<&str> = changed.split("; ").collect();
    for e in &entries {
        assert_eq!(entries.iter().filter(|x| *x == e).count(), 1, "{e:?} twice in {message:?}");
        assert!(!e.trim().is_empty() && !e.starts_with(' '), "a blank entry in {message:?}");
        assert!(!e.chars().any(private_use), "a glyph in {message:?}");
    }
    // Two rows read "mod.rs" (one in each folder): both went, said once.
    for said in ["src closed", "tests closed", "main.rs gone", "mod.rs gone", "it.rs gone"] {
        assert!(entries.iter().any(|e| e.contains(said)), "{said:?} not in {message:?}");
    }
}

#[test]
fn a_combo_box_option_is_chosen_by_the_unique_start_of_its_text() {
    let mut h = harness();
    let set = |h: &mut Harness<'_, Explorer>, value: &str| {
        let v = explorer_window(h).version;
        h.call("ui-explorer__edit_field", json!({"field": "export-as", "value": value, "expectedVersion": v}))
    };
    set(&mut h, "HTML").expect("the one option starting so");
    assert_eq!(h.kittest().state().format, "HTML (.html)");
    // Picked as a person picks: the popup is closed once the option is chosen (egui closes it
    // on a pointer click only, and an option clicked through AccessKit left it open), so the next
    // call's click opens it rather than closing it.
    assert!(!egui::Popup::is_any_open(&h.kittest().ctx), "the popup is closed after the pick");
    set(&mut h, "markdown").expect("case-insensitive");
    assert_eq!(h.kittest().state().format, "Markdown (.md)");
    set(&mut h, "pdf").expect("an option of that very text wins over those starting so");
    assert_eq!(h.kittest().state().format, "PDF");
    set(&mut h, "PDF/A").expect("exact");
    assert_eq!(h.kittest().state().format, "PDF/A");

    let e = set(&mut h, "p").expect_err("three options start so");
    assert_eq!(e.code, ErrorCode::ValidationFailed, "{e:?}");
    let said = format!("{} {:?}", e.message, e.fields);
    assert!(said.contains("PDF, PDF/A, Plain text (.txt)"), "the options that match are named: {said}");
    assert!(!said.contains("HTML"), "only those that match: {said}");
    assert_eq!(h.kittest().state().format, "PDF/A", "nothing chosen");
    assert!(!egui::Popup::is_any_open(&h.kittest().ctx), "the popup is closed again");

    let e = set(&mut h, "Word").expect_err("no option starts so");
    assert!(format!("{:?}", e.fields).contains("HTML (.html), Markdown (.md), PDF, PDF/A, Plain text (.txt)"), "{e:?}");
}

/// A package list's filter (ecargo's): a text edit named only by its hint, and after it on its
/// line a count that changes with what the filter lets through.
#[derive(Default)]
struct Packages {
    filter: String,
}

const PACKAGES: [&str; 5] = ["anyhow", "regex", "serde", "serde_json", "thiserror"];

fn packages(ui: &mut egui::Ui, s: &mut Packages) {
    egui::Window::new("Packages").show(ui.ctx(), |ui| {
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut s.filter).hint_text("Filter"));
            let shown = PACKAGES.iter().filter(|p| p.contains(s.filter.as_str())).count();
            ui.label(format!("{shown}/{} packages", PACKAGES.len()));
        });
    });
}

#[test]
fn a_text_edit_its_hint_names_is_not_named_by_the_label_after_it() {
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(packages, Packages::default());
    h.run();
    let field = |h: &Harness<'_, Packages>| {
        let w = h.window("ui-packages").unwrap_or_else(|| panic!("no ui-packages in {}", h.snapshot().json()));
        let fields = crate::common::field_items(&w);
        assert_eq!(fields.len(), 1, "{fields:?}");
        (fields[0].clone(), w.version)
    };
    let ((label, _, key), v) = field(&h);
    assert_eq!(
        (label.as_str(), key.as_deref()),
        ("Filter", Some("filter")),
        "its hint names it, not the count after it"
    );
    h.call("ui-packages__edit_field", json!({"field": "filter", "value": "serde", "expectedVersion": v})).expect("set");
    assert_eq!(h.kittest().state().filter, "serde");
    let ((label, value, key), _) = field(&h);
    assert_eq!(
        (label.as_str(), value, key.as_deref()),
        ("Filter", json!("serde"), Some("filter")),
        "the name and key stay while the count beside it changes"
    );
    let w = h.window("ui-packages").expect("the window");
    assert!(texts(&w).iter().any(|t| t.contains("2/5 packages")), "the count is read as text: {:?}", texts(&w));
}

/// A panel of buttons only is titled by its first three, cut to 40 characters: the title is
/// kept while those buttons show, though the last name in it is cut (it was lost at the second
/// look, the cut name matching no button).
#[test]
fn a_panel_titled_by_long_button_names_keeps_its_title() {
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).with_size([900.0, 400.0]).with_accessibility_check(false).build_ui_state(
        |ui, (): &mut ()| {
            egui::Panel::top("tools").show(ui, |ui| {
                ui.horizontal(|ui| {
                    for name in ["Open the project folder", "Save everything now", "Export as HTML"] {
                        let _ = ui.button(name);
                    }
                });
            });
        },
        (),
    );
    h.run();
    let first = panel_holding(&h, "Export as HTML");
    assert_eq!(first.title, "Panel: Open the project folder, Save everything", "{first:?}");
    for _ in 0..3 {
        h.run();
        h.call(&format!("{}__press", first.id), json!({"control": "export-as-html"})).expect("pressed");
    }
    assert_eq!(h.window(&first.id).expect("the panel").title, first.title);
}
