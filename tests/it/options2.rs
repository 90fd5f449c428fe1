//! egui's own options, kept (issue 33, item 4, round two): every `egui::Window` option through
//! `WindowBuilder::with_window`, a modal closed as egui's `Modal` closes; each drawn with the
//! bridge is laid out as egui's own with the same options (rects compared in kittest), and
//! where an agent sets a value, what the person's widget holds is what the agent's edit takes.

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::Bridge;
use egui_mcp_bridge::testing::Harness;
use serde_json::json;

/// A window's options as egui's demo gives them, for egui's own window and the bridge's alike.
type Options = fn(egui::Window<'_>) -> egui::Window<'_>;

/// The windows of egui's demo and the serial monitor whose options the bridge did not keep
/// (`about.rs`, `code_example.rs`, `misc_demo_window.rs`, `tooltips.rs`, the serial monitor's
/// "Attention!"), each pinned at one place so that both are drawn where they can be compared.
const WINDOWS: [(&str, Options); 6] = [
    ("about", |w| {
        w.fixed_pos([30.0, 40.0]).default_width(320.0).default_height(480.0).resizable([true, false]).vscroll(false)
    }),
    ("code example", |w| {
        w.fixed_pos([30.0, 40.0]).min_width(375.0).default_size([390.0, 500.0]).resizable([true, false])
    }),
    ("misc", |w| w.fixed_pos([30.0, 40.0]).vscroll(true).hscroll(true).default_height(200.0)),
    ("tooltips", |w| w.fixed_pos([-20.0, 40.0]).constrain(false).resizable(true).default_size([450.0, 300.0])),
    ("attention", |w| w.fixed_pos([800.0, 450.0]).fixed_size([400.0, 200.0]).collapsible(false)),
    ("panels", |w| w.current_pos([60.0, 70.0]).default_height(600.0).default_width(600.0).vscroll(false)),
];

/// The contents of each window: a long line of text.
fn contents(ui: &mut egui::Ui) {
    ui.label("The quick brown fox jumps over the lazy dog, again and again and again and again.");
}

/// A window keeps every egui option the app gives it with `with_window`: each of egui's demo
/// windows is drawn where egui's own with the same options is, as big (per-axis resizing,
/// default height, minimum width, scrolling both ways, unconstrained, fixed place and size).
#[test]
fn a_window_keeps_every_egui_option() {
    for (name, options) in WINDOWS {
        let bridged = move |ui: &mut egui::Ui, bridge: &mut Bridge| {
            bridge.window("w").title("Demo").with_window(options).ui(ui, |w, ui| {
                w.label(
                    ui,
                    "text",
                    "The quick brown fox jumps over the lazy dog, again and again and again and again.",
                );
            });
        };
        let plain = move |ui: &mut egui::Ui| {
            let window = egui::Window::new("Demo");
            options(window.constrain_to(ui.available_rect_before_wrap())).show(ui.ctx(), contents);
        };
        let bridge = Bridge::builder().build();
        let mut h = Harness::builder(&bridge).with_size([1300.0, 800.0]).build_ui_state(bridged, bridge.clone());
        h.run_steps(3);
        let mut p = egui_kittest::Harness::builder().with_size(egui::vec2(1300.0, 800.0)).build_ui(plain);
        p.run_steps(3);
        let (ours, egui_s) = (h.get_by_label("Demo").rect(), p.get_by_label("Demo").rect());
        assert_eq!(ours, egui_s, "{name}: where and as big as egui's own");
        assert!(h.undescribed().is_empty(), "{name}: described once: {:?}", h.undescribed());
    }
}

/// The app's modal, shown while `open`.
struct Modal {
    bridge: Bridge,
    open: bool,
    closable: bool,
    /// The close presses the app got.
    presses: usize,
}

fn modal_app(ui: &mut egui::Ui, s: &mut Modal) {
    if !s.open {
        return;
    }
    let window = s.bridge.window("user").title("Edit user").app_modal();
    let window = if s.closable { window.closable() } else { window };
    let response = window.ui(ui, |w, ui| w.label(ui, "about", "Name: Ada"));
    if let Some(press) = response.close {
        s.presses += 1;
        s.open = false;
        press.ok("closed");
    }
}

/// A closable modal closed as egui's `Modal` closes (Escape, or a click outside it) gives the
/// app one close press, as its close button would; one that is not closable stays open.
#[test]
fn a_modal_closed_by_escape_or_a_click_outside_is_the_close_press() {
    let close = |closable: bool, how: &dyn Fn(&mut Harness<'_, Modal>)| {
        let bridge = Bridge::builder().build();
        let state = Modal { bridge: bridge.clone(), open: true, closable, presses: 0 };
        let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(modal_app, state);
        h.run_steps(2);
        assert!(h.window("user").is_some(), "declared");
        how(&mut h);
        h.run_steps(3);
        (h.state().open, h.state().presses)
    };
    let escape = |h: &mut Harness<'_, Modal>| h.key_press(egui::Key::Escape);
    let outside = |h: &mut Harness<'_, Modal>| {
        h.drag_at(egui::pos2(5.0, 395.0));
        h.run_steps(1);
        h.drop_at(egui::pos2(5.0, 395.0));
    };
    assert_eq!(close(true, &escape), (false, 1), "Escape: one press");
    assert_eq!(close(true, &outside), (false, 1), "a click outside: one press");
    assert_eq!(close(false, &escape), (true, 0), "not closable: it stays");
    assert_eq!(close(false, &outside), (true, 0), "not closable: it stays");

    // The agent's close is the same press.
    let bridge = Bridge::builder().build();
    let state = Modal { bridge: bridge.clone(), open: true, closable: true, presses: 0 };
    let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(modal_app, state);
    h.run_steps(2);
    h.call("user__close", json!({})).expect("closed");
    assert_eq!((h.state().open, h.state().presses), (false, 1));
}

/// The rectangles, circles, lines and paths painted inside `area` in the last pass, each as
/// its kind, where (relative to `origin`) and how: what a widget looks like, to compare with
/// egui's own.
fn painted_in(output: &egui::FullOutput, area: egui::Rect, origin: egui::Pos2) -> Vec<String> {
    fn walk(shape: &egui::Shape, (area, origin): (egui::Rect, egui::Pos2), found: &mut Vec<String>) {
        let inside = area.expand(4.0);
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, (area, origin), found)),
            egui::Shape::Rect(r) if inside.contains_rect(r.rect) => {
                found.push(format!("rect {:?} {:?}", r.rect.translate(-origin.to_vec2()), r.fill));
            }
            egui::Shape::Circle(c) if inside.contains(c.center) => {
                found.push(format!("circle {:?} {} {:?}", c.center - origin, c.radius, c.fill));
            }
            egui::Shape::Text(t) if inside.contains(t.pos) => {
                found.push(format!("text {:?} {:?}", t.pos - origin, t.galley.text()));
            }
            egui::Shape::LineSegment { points, stroke } if inside.contains(points[0]) => {
                found.push(format!("line {:?} {:?} {stroke:?}", points[0] - origin, points[1] - origin));
            }
            egui::Shape::Path(path) if path.points.first().is_some_and(|p| inside.contains(*p)) => {
                let points: Vec<egui::Vec2> = path.points.iter().map(|p| *p - origin).collect();
                found.push(format!("path {points:?} {:?}", path.stroke));
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    for clipped in &output.shapes {
        walk(&clipped.shape, (area, origin), &mut found);
    }
    found
}

/// The slider of egui's slider demo: filled up to its handle, a narrow rectangle for a handle.
fn demo_slider() -> egui_mcp_bridge::NumberInput {
    let shape = egui::style::HandleShape::Rect { aspect_ratio: 0.5 };
    egui_mcp_bridge::Input::number("Value", 0.0..=100.0).trailing_fill(true).handle_shape(shape)
}

/// A slider keeps egui's `trailing_fill` and `handle_shape`: it is as big as egui's own with
/// them and painted the same (its rail filled to the handle, a rectangle for a handle), and an
/// agent still sets the number.
#[test]
fn a_slider_keeps_its_fill_and_handle() {
    fn bridged(ui: &mut egui::Ui, s: &mut (Bridge, f64)) {
        let bridge = s.0.clone();
        egui::CentralPanel::default().show(ui, |ui| {
            bridge.window("s").title("Sliders").panel(ui, |w, ui| {
                w.form(ui, "f", |f| {
                    f.edit("value", &demo_slider(), &mut s.1);
                });
            });
        });
    }
    fn plain(ui: &mut egui::Ui, value: &mut f64) {
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Grid::new("f").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
                let l = ui.label("Value");
                let shape = egui::style::HandleShape::Rect { aspect_ratio: 0.5 };
                let slider = egui::Slider::new(value, 0.0..=100.0).trailing_fill(true).handle_shape(shape);
                ui.add(slider).labelled_by(l.id);
                ui.end_row();
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).with_size([500.0, 300.0]).build_ui_state(bridged, (bridge.clone(), 40.0));
    h.run_steps(2);
    let mut p = egui_kittest::Harness::builder().with_size(egui::vec2(500.0, 300.0)).build_ui_state(plain, 40.0);
    p.run_steps(2);
    let role = egui::accesskit::Role::Slider;
    let (ours, egui_s) = (h.get_by_role(role).rect(), p.get_by_role(role).rect());
    assert_eq!(ours.size(), egui_s.size(), "as big as egui's own");
    let (ours, egui_s) = (painted_in(h.output(), ours, ours.min), painted_in(p.output(), egui_s, egui_s.min));
    assert!(ours.iter().filter(|s| s.starts_with("rect")).count() >= 3, "rail, fill and handle: {ours:?}");
    let handle = "rect [[36.8 2.0] - [44.8 18.0]]";
    assert!(ours.iter().any(|s| s.starts_with(handle)), "a handle half as wide as tall: {ours:?}");
    assert_eq!(ours, egui_s, "painted as egui's own");

    h.call("s__edit_field", json!({"field": "value", "value": 75})).expect("set");
    assert_eq!(h.state().1, 75.0);
}

/// A "select all" over three items, as egui's demo has it: mixed while some are checked.
struct Checklist {
    bridge: Bridge,
    items: [bool; 3],
}

fn checklist(ui: &mut egui::Ui, s: &mut Checklist) {
    let bridge = s.bridge.clone();
    egui::CentralPanel::default().show(ui, |ui| {
        bridge.window("c").title("Checklist").panel(ui, |w, ui| {
            let mut all = s.items.iter().all(|b| *b);
            let mixed = s.items.iter().any(|b| *b) && !all;
            let input = egui_mcp_bridge::Input::checkbox("All").indeterminate(mixed);
            // Changed by the person's click or the agent's edit alike.
            if !w.form(ui, "f", |f| drop(f.edit("all", &input, &mut all))).changed.is_empty() {
                s.items = [all; 3];
            }
        });
    });
}

/// A tri-state checkbox: while some items are checked it is painted mixed as egui's own
/// (`Checkbox::indeterminate`), agents read its `bool` with "mixed" in its rules, and their
/// `true` checks every item, as the person's click does; once not mixed, the rules say so.
#[test]
fn a_tri_state_checkbox_is_mixed_for_both() {
    fn plain(ui: &mut egui::Ui, all: &mut bool) {
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Grid::new("f").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
                let l = ui.label("All");
                ui.add(egui::Checkbox::new(all, "").indeterminate(true)).labelled_by(l.id);
                ui.end_row();
            });
        });
    }
    let bridge = Bridge::builder().build();
    let state = Checklist { bridge: bridge.clone(), items: [true, false, true] };
    let mut h = Harness::builder(&bridge).with_size([400.0, 300.0]).build_ui_state(checklist, state);
    h.run_steps(2);
    let mut p = egui_kittest::Harness::builder().with_size(egui::vec2(400.0, 300.0)).build_ui_state(plain, false);
    p.run_steps(2);
    let (ours, egui_s) = (h.get_by_label("All").rect(), p.get_by_label("All").rect());
    assert_eq!(ours.size(), egui_s.size(), "as big as egui's own");
    // From the corner of the box (where it sits in its row is rounded to pixels: a point apart).
    let boxed = |output: &egui::FullOutput, rect: egui::Rect| {
        let inner = output.shapes.iter().find_map(|c| match &c.shape {
            egui::Shape::Rect(r) if rect.contains_rect(r.rect) && r.rect.width() < rect.width() => Some(r.rect.min),
            _ => None,
        });
        // Without the widget's transparent frame, whose edge is rounded the other way.
        let mut painted = painted_in(output, rect, inner.expect("the box"));
        painted.retain(|s| !s.ends_with("#00_00_00_00"));
        painted
    };
    let (ours, egui_s) = (boxed(h.output(), ours), boxed(p.output(), egui_s));
    assert!(ours.iter().any(|s| s.starts_with("line")), "the mixed mark: {ours:?}");
    assert_eq!(ours, egui_s, "painted mixed as egui's own");

    let edit_field = |h: &Harness<'_, Checklist>| {
        let snapshot = h.snapshot();
        snapshot.tools().iter().find(|t| t.name == "c__edit_field").expect("edit_field").description.clone()
    };
    assert!(edit_field(&h).contains("all (true/false, now mixed"), "{}", edit_field(&h));
    let window = serde_json::to_value(h.window("c").expect("declared")).expect("json");
    assert_eq!(window["blocks"][0]["items"][0]["value"], json!(false), "the bool the app holds");
    h.call("c__edit_field", json!({"field": "all", "value": true})).expect("set");
    h.run_steps(2);
    assert_eq!(h.state().items, [true; 3], "every item checked");
    assert!(!edit_field(&h).contains("mixed"), "no longer mixed: {}", edit_field(&h));
}

/// Colours in floats, drawn many at a time: `xorshift` over the unit interval, with the edges.
fn unit_floats(n: usize, seed: u64) -> Vec<[f32; 4]> {
    let mut x = seed;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        #[allow(clippy::cast_precision_loss)]
        let f = (x >> 40) as f32 / (1u64 << 24) as f32;
        f
    };
    let mut values = vec![[0.0; 4], [1.0; 4], [1.0, 0.0, 0.0, 1.0], [0.5, 0.5, 0.5, 0.0], [0.2, 0.4, 0.6, 0.001]];
    while values.len() < n {
        values.push([next(), next(), next(), if values.len() % 5 == 0 { 1.0 } else { next() }]);
    }
    values
}

/// One colour type's pickers: egui's own (as the demo draws it) and how its value is written.
struct FloatColour<T> {
    input: fn() -> egui_mcp_bridge::ColorInput,
    egui_s: fn(&mut egui::Ui, &mut T),
    from: fn([f32; 4]) -> T,
    floats: fn(&T) -> Vec<f32>,
    /// The bridge's field for it.
    edit: fn(&mut egui_mcp_bridge::Form<'_>, &egui_mcp_bridge::Input, &mut T),
}

/// A colour in floats: for each of many values, what egui's own picker holds once it has shown
/// it is what the app holds after an agent writes the value as floats (to the bit, and unchanged
/// while the bridge's picker shows it), and what egui's picker holds, written by an agent, is
/// held as it is: every value the person's picker can hold is one an agent can write.
fn agent_writes_what_egui_s_picker_holds<T: Clone + Default + 'static>(colour: &FloatColour<T>) {
    let egui_s = colour.egui_s;
    let mut p = egui_kittest::Harness::builder().build_ui_state(move |ui, v: &mut T| egui_s(ui, v), T::default());
    let (input, edit) = (colour.input, colour.edit);
    let app = move |ui: &mut egui::Ui, s: &mut (Bridge, T)| {
        let bridge = s.0.clone();
        bridge.window("c").title("Colour").ui(ui, |w, ui| {
            w.form(ui, "f", |f| edit(f, &input(), &mut s.1));
        });
    };
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).build_ui_state(app, (bridge.clone(), T::default()));
    h.run_steps(2);
    let write = |h: &mut Harness<'_, (Bridge, T)>, v: &[f32]| {
        h.call("c__edit_field", json!({"field": "colour", "value": format!("{v:?}")})).expect("written");
        h.run_steps(3);
        (colour.floats)(&h.state().1)
    };
    for v in unit_floats(300, 33) {
        *p.state_mut() = (colour.from)(v);
        p.run_steps(1);
        let held = (colour.floats)(p.state());
        let ours = write(&mut h, &(colour.floats)(&(colour.from)(v)));
        assert_eq!(ours, held, "{v:?}: the app holds what egui's own picker holds");
        assert_eq!(write(&mut h, &held), held, "{v:?}: what egui's picker holds, written, is held");
    }
}

fn rgba(ui: &mut egui::Ui, v: &mut egui::Rgba) {
    egui::color_picker::color_edit_button_rgba(ui, v, egui::color_picker::Alpha::OnlyBlend);
}

/// Colours in floats, `[f32; 4]`, `[f32; 3]` and `egui::Rgba` (egui's demo's linear colours):
/// see [`agent_writes_what_egui_s_picker_holds`].
#[test]
fn a_colour_in_floats_takes_what_egui_s_picker_holds() {
    agent_writes_what_egui_s_picker_holds(&FloatColour {
        input: || egui_mcp_bridge::Input::color("Linear"),
        egui_s: |ui, v: &mut [f32; 4]| drop(ui.color_edit_button_rgba_unmultiplied(v)),
        from: |v| v,
        floats: |v| v.to_vec(),
        edit: |f, input, v| drop(f.edit("colour", input, v)),
    });
    agent_writes_what_egui_s_picker_holds(&FloatColour {
        input: || egui_mcp_bridge::Input::color("Linear"),
        egui_s: |ui, v: &mut [f32; 3]| drop(ui.color_edit_button_rgb(v)),
        from: |[r, g, b, _]| [r, g, b],
        floats: |v| v.to_vec(),
        edit: |f, input, v| drop(f.edit("colour", input, v)),
    });
    agent_writes_what_egui_s_picker_holds(&FloatColour {
        input: || egui_mcp_bridge::Input::color("Linear"),
        egui_s: rgba,
        from: |[r, g, b, a]| egui::Rgba::from_rgba_unmultiplied(r, g, b, a),
        floats: |v| v.to_rgba_unmultiplied().to_vec(),
        edit: |f, input, v| drop(f.edit("colour", input, v)),
    });
    // Premultiplied (egui's demo's "Linear RGBA with premultiplied alpha").
    agent_writes_what_egui_s_picker_holds(&FloatColour {
        input: || egui_mcp_bridge::Input::color("Linear"),
        egui_s: |ui, v: &mut [f32; 4]| drop(ui.color_edit_button_rgba_premultiplied(v)),
        from: |[r, g, b, a]| egui::Rgba::from_rgba_unmultiplied(r, g, b, a).to_array(),
        floats: |[r, g, b, a]| egui::Rgba::from_rgba_premultiplied(*r, *g, *b, *a).to_rgba_unmultiplied().to_vec(),
        edit: |f, input, v| drop(f.edit("colour", input, &mut egui_mcp_bridge::Premultiplied(v))),
    });
}

/// A colour in premultiplied bytes (egui's demo's "sRGBA with premultiplied alpha"): for many
/// colours written by an agent as `#rrggbbaa`, the edit is taken exactly when egui's own
/// premultiplied picker, shown the colour, still holds it (as agents then read it), and the app
/// then holds the picker's bytes exactly.
#[test]
fn a_premultiplied_colour_takes_what_egui_s_picker_holds() {
    let mut p = egui_kittest::Harness::builder()
        .build_ui_state(|ui, v: &mut [u8; 4]| drop(ui.color_edit_button_srgba_premultiplied(v)), [0; 4]);
    let app = |ui: &mut egui::Ui, s: &mut (Bridge, [u8; 4])| {
        let bridge = s.0.clone();
        bridge.window("c").title("Colour").ui(ui, |w, ui| {
            w.form(ui, "f", |f| {
                f.edit(
                    "colour",
                    &egui_mcp_bridge::Input::color("Colour"),
                    &mut egui_mcp_bridge::Premultiplied(&mut s.1),
                );
            });
        });
    };
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).build_ui_state(app, (bridge.clone(), [0; 4]));
    h.run_steps(2);
    let (mut taken, mut refused) = (0, 0);
    for v in unit_floats(300, 7) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let bytes = v.map(|f| (f * 255.0).round() as u8);
        let hex = format!("#{:02x}{:02x}{:02x}{:02x}", bytes[0], bytes[1], bytes[2], bytes[3]);
        *p.state_mut() = egui::Color32::from_rgba_unmultiplied(bytes[0], bytes[1], bytes[2], bytes[3]).to_array();
        p.run_steps(1);
        let held = *p.state();
        let holds =
            egui::Color32::from_rgba_premultiplied(held[0], held[1], held[2], held[3]).to_srgba_unmultiplied() == bytes;
        let outcome = h.call("c__edit_field", json!({"field": "colour", "value": hex}));
        h.run_steps(2);
        assert_eq!(outcome.is_ok(), holds, "{hex}: taken exactly when egui's picker holds it ({held:?})");
        if holds {
            assert_eq!(h.state().1, held, "{hex}: the picker's bytes");
            taken += 1;
        } else {
            refused += 1;
        }
    }
    assert!(taken > 100 && refused > 0, "both kinds seen: {taken} taken, {refused} refused");
}

/// The text edits of egui's demo whose options the bridge did not keep: the code editor's
/// background, the text-edit demo's alignment, a margin, no clipping; the password box's size.
fn note() -> egui_mcp_bridge::TextInput {
    let input = egui_mcp_bridge::Input::text("Note").multiline().align(egui::Align2::CENTER_CENTER);
    input.background_color(egui::Color32::DARK_BLUE).margin(8.0).clip_text(false)
}

/// Text edits keep egui's options: aligned, with a background and a margin, unclipped, and one
/// sized as `add_sized` sizes it, each is as big as egui's own with them, its text painted at
/// the same place in it on the same background; agents still read and set the text.
#[test]
fn a_text_edit_keeps_its_align_background_margin_and_size() {
    fn bridged(ui: &mut egui::Ui, s: &mut (Bridge, String, String)) {
        let bridge = s.0.clone();
        egui::CentralPanel::default().show(ui, |ui| {
            bridge.window("t").title("Texts").panel(ui, |w, ui| {
                w.form(ui, "f", |f| {
                    f.edit("note", &note(), &mut s.1);
                    f.edit("password", &egui_mcp_bridge::Input::secret("Password").size([200.0, 40.0]), &mut s.2);
                });
            });
        });
    }
    fn plain(ui: &mut egui::Ui, s: &mut (String, String)) {
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Grid::new("f").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
                let l = ui.label("Note");
                let edit = egui::TextEdit::multiline(&mut s.0).desired_rows(3).align(egui::Align2::CENTER_CENTER);
                let edit = edit.background_color(egui::Color32::DARK_BLUE).margin(8.0).clip_text(false);
                ui.add(edit.char_limit(1000)).labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Password");
                ui.add_sized([200.0, 40.0], egui::TextEdit::singleline(&mut s.1).password(true)).labelled_by(l.id);
                ui.end_row();
            });
        });
    }
    let bridge = Bridge::builder().build();
    let state = (bridge.clone(), "centred".to_owned(), "hunter2".to_owned());
    let mut h = Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(bridged, state);
    h.run_steps(2);
    let mut p = egui_kittest::Harness::builder()
        .with_size(egui::vec2(600.0, 400.0))
        .build_ui_state(plain, ("centred".to_owned(), "hunter2".to_owned()));
    p.run_steps(2);
    for label in ["Note", "Password"] {
        let (ours, egui_s) = (h.get_by_label(label).rect(), p.get_by_label(label).rect());
        assert_eq!(ours.size(), egui_s.size(), "{label}: as big as egui's own");
        let (ours, egui_s) = (painted_in(h.output(), ours, ours.min), painted_in(p.output(), egui_s, egui_s.min));
        assert!(ours.iter().any(|s| s.starts_with("text")), "{label}: {ours:?}");
        assert_eq!(ours, egui_s, "{label}: painted as egui's own");
    }
    let note_at = h.get_by_label("Note").rect();
    let painted = painted_in(h.output(), note_at, note_at.min);
    assert!(painted.iter().any(|s| s.contains("#00_00_8B_FF")), "the background: {painted:?}");
    let centred = painted.iter().find(|s| s.starts_with("text")).expect("the text");
    assert!(!centred.starts_with("text [8.0"), "centred, not at the margin: {centred}");

    h.call("t__edit_field", json!({"field": "note", "value": "set by the agent"})).expect("set");
    assert_eq!(h.state().1, "set by the agent");
}

/// Types `text` into the only drag value in `h` (and presses Enter).
fn type_into_drag_value<S>(h: &mut egui_kittest::Harness<'_, S>, text: &str) {
    let spin = egui::accesskit::Role::SpinButton;
    h.get_by_role(spin).click();
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.get_by_role(spin).type_text(text);
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
}

const DEGREES: [f64; 22] = [
    0.0, 45.0, 90.0, 30.0, 1.0, 0.1, 57.29578, -45.0, 360.0, 720.5, 12.345_678, 0.001, 33.333_333, 179.99, -0.5, 1e6,
    2.5, 89.9999, 271.3, 15.0, 60.0, 123.456,
];

/// An angle (egui's `drag_angle`, the demo's "An angle"): for each of many numbers of degrees,
/// what the person's typing leaves in egui's own `drag_angle` (radians) is what an agent's
/// edit with the same number leaves in the app, to the bit; agents read the degrees the widget
/// holds, and the rules say degrees.
#[test]
fn an_angle_is_degrees_for_both_and_held_as_egui_s_drag_angle() {
    let mut p = egui_kittest::Harness::builder().build_ui_state(|ui, r: &mut f32| drop(ui.drag_angle(r)), 0.0);
    let app = |ui: &mut egui::Ui, s: &mut (Bridge, f32)| {
        let bridge = s.0.clone();
        bridge.window("a").title("Angle").ui(ui, |w, ui| {
            w.form(ui, "f", |f| {
                f.edit("angle", &egui_mcp_bridge::Input::angle("An angle"), &mut egui_mcp_bridge::Radians(&mut s.1));
            });
        });
    };
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).with_size([400.0, 300.0]).build_ui_state(app, (bridge.clone(), 0.0));
    h.run_steps(2);
    let snapshot = h.snapshot();
    let edit = snapshot.tools().iter().find(|t| t.name == "a__edit_field").expect("edit_field").description.clone();
    assert!(edit.contains("angle (degrees (held in radians))"), "{edit}");
    for d in DEGREES {
        *p.state_mut() = 0.0;
        p.run_steps(2);
        type_into_drag_value(&mut p, &format!("{d}"));
        let held = *p.state();
        h.state_mut().1 = 0.0;
        h.run_steps(2);
        h.call("a__edit_field", json!({"field": "angle", "value": d})).expect("set");
        h.run_steps(2);
        assert_eq!(h.state().1.to_bits(), held.to_bits(), "{d}°: the agent's edit holds what the person's typing does");
        let read =
            serde_json::to_value(h.window("a").expect("declared")).expect("json")["blocks"][0]["items"][0]["value"]
                .as_f64()
                .expect("a number");
        #[allow(clippy::cast_possible_truncation)]
        let read = read as f32;
        assert_eq!(read.to_bits(), held.to_degrees().to_bits(), "{d}°: agents read the degrees the widget holds");
    }
    // The person's typing into the bridge's own is the same.
    h.state_mut().1 = 0.0;
    h.run_steps(2);
    type_into_drag_value(h.kittest(), "33.333333");
    *p.state_mut() = 0.0;
    p.run_steps(2);
    type_into_drag_value(&mut p, "33.333333");
    assert_eq!(h.state().1.to_bits(), p.state().to_bits());
}

/// A window the app disables with egui's own `enabled(false)` (through `with_window`) is
/// disabled for agents too: its contents run in egui's disabled `ui`, so its buttons and
/// fields are read but not offered, and a call is refused as for any widget the app disabled.
#[test]
fn a_window_disabled_with_egui_s_enabled_false_is_disabled_for_agents_too() {
    fn app(ui: &mut egui::Ui, s: &mut (Bridge, bool, String, usize)) {
        let (bridge, enabled) = (s.0.clone(), s.1);
        bridge.window("w").title("Demo").with_window(move |w| w.enabled(enabled)).ui(ui, |w, ui| {
            w.form(ui, "f", |f| {
                f.edit("name", &egui_mcp_bridge::Input::text("Name"), &mut s.2);
            });
            if let Some(press) = w.button(ui, "go", egui_mcp_bridge::ActionSpec::new("Go")).inner {
                s.3 += 1;
                press.ok("Gone");
            }
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, app, (bridge.clone(), false, "Ada".to_owned(), 0));
    h.run();
    let tools = h.tool_names();
    assert!(!tools.iter().any(|t| t == "w__go" || t == "w__edit_field"), "{tools:?}");
    let state = h.snapshot().json().to_owned();
    assert!(state.contains(r#""label":"Name","value":"Ada""#), "still read: {state}");
    // The person cannot press it either.
    h.get_by_label("Go").click();
    h.run();
    assert_eq!(h.state().3, 0);
    // Enabled again, both can.
    h.state_mut().1 = true;
    h.run();
    let version = h.window("w").expect("declared").version;
    h.call("w__go", json!({"expectedVersion": version})).expect("offered again");
    assert_eq!(h.state().3, 1);
}

/// Any other option of egui's `TextEdit` through `TextInput::text_edit`: the field is laid out as
/// egui's own with that option (a minimum size), and the field's rules stay the bridge's: an
/// app's looser character limit there does not let the person type more than an agent may set.
#[test]
fn a_text_edit_takes_egui_s_own_options_and_keeps_the_field_s_rules() {
    fn code() -> egui_mcp_bridge::TextInput {
        egui_mcp_bridge::Input::text("Code")
            .char_limit(3)
            .text_edit(|te| te.min_size(egui::vec2(300.0, 50.0)).char_limit(100))
    }
    fn bridged(ui: &mut egui::Ui, s: &mut (Bridge, String)) {
        let bridge = s.0.clone();
        egui::CentralPanel::default().show(ui, |ui| {
            bridge.window("t").title("Texts").panel(ui, |w, ui| {
                w.form(ui, "f", |f| {
                    f.edit("code", &code(), &mut s.1);
                });
            });
        });
    }
    fn plain(ui: &mut egui::Ui, s: &mut String) {
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Grid::new("f").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
                let l = ui.label("Code");
                let edit = egui::TextEdit::singleline(s).min_size(egui::vec2(300.0, 50.0)).char_limit(3);
                ui.add(edit).labelled_by(l.id);
                ui.end_row();
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h =
        Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(bridged, (bridge.clone(), String::new()));
    h.run_steps(2);
    let mut p =
        egui_kittest::Harness::builder().with_size(egui::vec2(600.0, 400.0)).build_ui_state(plain, String::new());
    p.run_steps(2);
    let (ours, egui_s) = (h.get_by_label("Code").rect(), p.get_by_label("Code").rect());
    assert_eq!(ours.size(), egui_s.size(), "as big as egui's own with the same option");

    h.get_by_label("Code").focus();
    h.run_steps(1);
    h.get_by_label("Code").type_text("abcdef");
    h.run_steps(2);
    assert_eq!(h.state().1, "abc", "the field's own limit, not the looser one given to egui");
    let err = h.call("t__edit_field", json!({"field": "code", "value": "abcd"})).expect_err("over the limit");
    assert!(format!("{err:?}").contains('3'), "{err:?}");
}
