//! egui's own options on fields and forms, kept (issue 33, item 4): a text edit's rows, font,
//! colour, focus lock and layouter; a slider's orientation, smart aim, step and clamping; a form
//! in the app's own grid, a row of several widgets and any widget as a row label. Each drawn
//! with the bridge is laid out as egui's own widget with the same options (rects compared in
//! kittest), and a slider's step and clamping let an agent set exactly what egui's own slider
//! holds when the person types the same number into it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use egui::SliderClamping;
use egui::accesskit::Role;
use egui::emath::Numeric;
use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::blocks::Editable;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{Bridge, Input};
use serde_json::{Value, json};

/// How often [`big_orange`] laid text out.
static LAID_OUT: AtomicUsize = AtomicUsize::new(0);

/// A code editor's layouter: its text large and orange, as a syntax colouring lays it out.
fn big_orange(ui: &egui::Ui, text: &dyn egui::TextBuffer, wrap_width: f32) -> Arc<egui::Galley> {
    LAID_OUT.fetch_add(1, Ordering::Relaxed);
    let job = egui::text::LayoutJob::simple(
        text.as_str().to_owned(),
        egui::FontId::monospace(24.0),
        egui::Color32::ORANGE,
        wrap_width,
    );
    ui.fonts_mut(|f| f.layout_job(job))
}

fn notes() -> egui_mcp_bridge::TextInput {
    let font = egui::FontId::proportional(20.0);
    Input::text("Notes").multiline().desired_rows(7).font(font).text_color(egui::Color32::RED).lock_focus(true)
}

fn code() -> egui_mcp_bridge::TextInput {
    Input::text("Code").code().desired_rows(2).layouter(big_orange)
}

/// egui's own text edits with the same options, in a grid as the bridge's form lays one out.
fn egui_s_text_edits(ui: &mut egui::Ui, (notes, code): &mut (String, String)) {
    egui::CentralPanel::default().show(ui, |ui| {
        egui::Grid::new("edits").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
            let l = ui.label("Notes");
            let font = egui::FontId::proportional(20.0);
            let edit = egui::TextEdit::multiline(notes).desired_rows(7).font(font).text_color(egui::Color32::RED);
            ui.add(edit.lock_focus(true)).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Code");
            let mut layouter = big_orange;
            ui.add(egui::TextEdit::multiline(code).code_editor().desired_rows(2).layouter(&mut layouter))
                .labelled_by(l.id);
            ui.end_row();
        });
    });
}

/// Where the widget labelled `label` is.
fn rect<S>(h: &egui_kittest::Harness<'_, S>, label: &str) -> egui::Rect {
    h.get_by_label(label).rect()
}

/// The colours of the text `text` as painted in the last pass.
fn painted_colors(output: &egui::FullOutput, text: &str) -> Vec<egui::Color32> {
    fn walk(shape: &egui::Shape, text: &str, found: &mut Vec<egui::Color32>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, text, found)),
            egui::Shape::Text(t) if t.galley.text() == text => {
                found.extend(t.galley.job.sections.iter().map(|s| s.format.color));
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    for clipped in &output.shapes {
        walk(&clipped.shape, text, &mut found);
    }
    found
}

/// A text edit keeps egui's options: with rows, a font, a colour and focus lock, and a code
/// editor with a layouter, each is as big as egui's own with the same options, in the same
/// place beside its label; its text is painted in the same colour; the tab key indents in it
/// as in egui's own; and agents still read and set the text itself.
#[test]
fn a_text_edit_keeps_egui_s_options() {
    struct Edits {
        bridge: Bridge,
        notes: String,
        code: String,
    }
    fn bridged(ui: &mut egui::Ui, s: &mut Edits) {
        let bridge = s.bridge.clone();
        egui::CentralPanel::default().show(ui, |ui| {
            bridge.window("editor").title("Editor").panel(ui, |w, ui| {
                w.form(ui, "edits", |f| {
                    f.edit("notes", &notes(), &mut s.notes);
                    f.edit("code", &code(), &mut s.code);
                });
            });
        });
    }
    let bridge = Bridge::builder().build();
    let state = Edits { bridge: bridge.clone(), notes: "hello".into(), code: "let x = 1;".into() };
    let mut h = Harness::builder(&bridge).with_size([700.0, 600.0]).build_ui_state(bridged, state);
    h.run_steps(2);
    let mut p = egui_kittest::Harness::builder()
        .with_size(egui::vec2(700.0, 600.0))
        .build_ui_state(egui_s_text_edits, ("hello".to_owned(), "let x = 1;".to_owned()));
    LAID_OUT.store(0, Ordering::Relaxed);
    p.run_steps(2);
    assert!(LAID_OUT.load(Ordering::Relaxed) > 0, "egui's own calls the layouter");
    LAID_OUT.store(0, Ordering::Relaxed);
    h.run_steps(2);
    assert!(LAID_OUT.load(Ordering::Relaxed) > 0, "the bridge's calls the app's layouter");
    for label in ["Notes", "Code"] {
        let (ours, egui_s) = (h.get_by_label(label).rect(), p.get_by_label(label).rect());
        assert_eq!(ours.size(), egui_s.size(), "{label}: as big as egui's own");
    }
    let offset = rect(&h, "Code").min - rect(&h, "Notes").min;
    assert_eq!(offset, rect(&p, "Code").min - rect(&p, "Notes").min, "laid out as egui's own");
    assert_eq!(painted_colors(h.output(), "hello"), vec![egui::Color32::RED], "the app's text colour");
    assert_eq!(painted_colors(h.output(), "hello"), painted_colors(p.output(), "hello"));
    assert_eq!(painted_colors(h.output(), "let x = 1;"), vec![egui::Color32::ORANGE], "the app's layouter");

    // The tab key indents in a text edit whose focus is locked, as in egui's own.
    for (label, key) in [("Notes", 0), ("Code", 1)] {
        h.get_by_label(label).focus();
        p.get_by_label(label).focus();
        h.run_steps(1);
        p.run_steps(1);
        h.key_press(egui::Key::Tab);
        p.key_press(egui::Key::Tab);
        h.run_steps(2);
        p.run_steps(2);
        let (ours, egui_s) = if key == 0 { (&h.state().notes, &p.state().0) } else { (&h.state().code, &p.state().1) };
        assert!(ours.contains('\t'), "{label}: {ours:?}");
        assert_eq!(ours, egui_s, "{label}");
    }

    // Agents read and set the text itself.
    let version = h.window("editor").expect("declared").version;
    h.call("editor__edit_field", json!({"field": "code", "value": "fn main() {}", "expectedVersion": version}))
        .expect("set");
    assert_eq!(h.state().code, "fn main() {}");
}

/// A slider keeps egui's options: vertical and without smart aim, it is as big as egui's own,
/// and a click at the same place along its rail sets the same, exact, value (smart aim would
/// round it).
#[test]
fn a_slider_keeps_egui_s_options() {
    fn bridged(ui: &mut egui::Ui, s: &mut (Bridge, f64)) {
        let bridge = s.0.clone();
        egui::CentralPanel::default().show(ui, |ui| {
            bridge.window("mixer").title("Mixer").panel(ui, |w, ui| {
                w.form(ui, "mixer", |f| {
                    f.edit("gain", &Input::number("Gain", 0.0..=1.0).vertical().smart_aim(false), &mut s.1);
                });
            });
        });
    }
    fn plain(ui: &mut egui::Ui, gain: &mut f64) {
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Grid::new("mixer").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
                let l = ui.label("Gain");
                ui.add(egui::Slider::new(gain, 0.0..=1.0).vertical().smart_aim(false)).labelled_by(l.id);
                ui.end_row();
            });
        });
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).with_size([500.0, 500.0]).build_ui_state(bridged, (bridge.clone(), 0.0));
    h.run_steps(2);
    let mut p = egui_kittest::Harness::builder().with_size(egui::vec2(500.0, 500.0)).build_ui_state(plain, 0.0);
    p.run_steps(2);
    let (ours, egui_s) = (h.get_by_role(Role::Slider).rect(), p.get_by_role(Role::Slider).rect());
    assert_eq!(ours.size(), egui_s.size(), "as big as egui's own");
    assert!(ours.height() > ours.width(), "vertical: {ours:?}");
    let along = |rect: egui::Rect| egui::pos2(rect.center().x, rect.top() + 0.3137 * rect.height());
    h.drag_at(along(ours));
    h.run_steps(1);
    h.drop_at(along(ours));
    h.run_steps(2);
    p.drag_at(along(egui_s));
    p.run_steps(1);
    p.drop_at(along(egui_s));
    p.run_steps(2);
    let (ours, egui_s) = (h.state().1, *p.state());
    assert!(egui_s > 0.5 && egui_s < 0.8, "a click on the rail sets it: {egui_s}");
    assert_eq!(ours, egui_s, "the same exact value as egui's own");
    assert!((egui_s * 100.0).fract() != 0.0, "no smart aim: not rounded ({egui_s})");
}

/// A slider's options as an app gives them to egui's own.
#[derive(Clone, Copy, Debug)]
struct Slide {
    range: (f64, f64),
    step: Option<f64>,
    clamping: SliderClamping,
}

impl Slide {
    fn input(self) -> egui_mcp_bridge::NumberInput {
        let input = Input::number("Gain", self.range.0..=self.range.1).clamping(self.clamping);
        match self.step {
            Some(step) => input.step_by(step),
            None => input,
        }
    }
}

/// Types `v` into the value box of the only slider in `h` (and presses Enter).
fn type_into_slider<S>(h: &mut egui_kittest::Harness<'_, S>, v: f64) {
    h.get_by_role(Role::SpinButton).click();
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.get_by_role(Role::SpinButton).type_text(&format!("{v}"));
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
}

/// What egui's own slider with these options holds when the person types each of `values`
/// into its value box, from the range's start.
fn egui_s_slider_holds<N: Numeric>(slide: Slide, values: &[f64]) -> Vec<f64> {
    let app = move |ui: &mut egui::Ui, value: &mut N| {
        let range = N::from_f64(slide.range.0)..=N::from_f64(slide.range.1);
        let mut slider = egui::Slider::new(value, range).clamping(slide.clamping).text("Gain");
        if let Some(step) = slide.step {
            slider = slider.step_by(step);
        }
        ui.add(slider);
    };
    let mut h =
        egui_kittest::Harness::builder().with_size(egui::vec2(500.0, 100.0)).build_ui_state(app, N::from_f64(0.0));
    values
        .iter()
        .map(|v| {
            *h.state_mut() = N::from_f64(slide.range.0);
            h.run_steps(2);
            type_into_slider(&mut h, *v);
            h.state().to_f64()
        })
        .collect()
}

/// The bridge's field with these options, for each of `values`: what its slider holds when the
/// person types the value into it, and what an agent's `edit_field` with the value leaves in
/// it a few passes later, or the refusal.
fn bridge_s_field_takes<N: Numeric + Editable>(slide: Slide, values: &[f64]) -> Vec<(f64, Result<f64, String>)> {
    let app = move |ui: &mut egui::Ui, s: &mut (Bridge, N)| {
        let bridge = s.0.clone();
        bridge.window("s").title("Slider").ui(ui, |w, ui| {
            w.form(ui, "f", |f| {
                f.edit("gain", &slide.input(), &mut s.1);
            });
        });
    };
    let bridge = Bridge::builder().build();
    let mut h =
        Harness::builder(&bridge).with_size([500.0, 300.0]).build_ui_state(app, (bridge.clone(), N::from_f64(0.0)));
    values
        .iter()
        .map(|v| {
            h.state_mut().1 = N::from_f64(slide.range.0);
            h.run_steps(2);
            type_into_slider(&mut h, *v);
            let typed = h.state().1.to_f64();
            h.state_mut().1 = N::from_f64(slide.range.0);
            h.run_steps(2);
            let outcome = h.call("s__edit_field", json!({"field": "gain", "value": v}));
            // Drawn again: a slider that clamps or steps what it holds would show here.
            h.run_steps(2);
            let set = outcome
                .map(|_| h.state().1.to_f64())
                .map_err(|e| e.fields.and_then(|f| f.first().map(|f| f.error.clone())).unwrap_or(e.message));
            (typed, set)
        })
        .collect()
}

/// Checks the bridge's field against egui's own slider over `values`: the person's typing
/// holds the same in both, and the agent's edit is taken exactly when the slider holds the
/// number typed (near enough: egui's arithmetic leaves 0.30000000000000004 for 0.3), and then
/// the field holds what egui's slider holds, to the bit.
fn agent_takes_what_egui_s_slider_holds<N: Numeric + Editable>(slide: Slide, values: &[f64]) {
    let held = egui_s_slider_holds::<N>(slide, values);
    let bridged = bridge_s_field_takes::<N>(slide, values);
    for ((v, held), (typed, set)) in values.iter().zip(held).zip(bridged) {
        assert_eq!(
            typed.to_bits(),
            held.to_bits(),
            "{slide:?}: {v} typed into the bridge's slider ({typed}) and egui's own ({held})"
        );
        let holds = (held - v).abs() <= 1e-9 * v.abs().max(1.0);
        assert_eq!(set.is_ok(), holds, "{slide:?}: {v} is held as {held} by egui's slider; the agent's edit: {set:?}");
        if let Ok(set) = set {
            assert_eq!(
                set.to_bits(),
                held.to_bits(),
                "{slide:?}: {v}: the agent's edit holds {set}, egui's slider {held}"
            );
        }
    }
}

const TENS: [f64; 24] = [
    -1.0, -0.5, 0.0, 0.3, 0.5, 1.0, 2.5, 2.75, 3.0, 4.0, 7.9, 8.0, 9.5, 10.0, 10.5, 11.0, 12.0, 13.0, 16.0, 100.5, 1e9,
    0.25, 6.0, 0.1,
];

/// A slider's step, whatever its clamping: what the person can type into egui's own slider is
/// what the agent may set (on the steps from the range's start; beyond the range only when the
/// slider never clamps; a range that does not end on a step holds the step past its end).
#[test]
fn a_slider_s_step_and_clamping_take_what_egui_s_own_holds() {
    let always = SliderClamping::Always;
    for slide in [
        Slide { range: (0.0, 10.0), step: Some(0.5), clamping: always },
        Slide { range: (0.0, 10.0), step: Some(0.5), clamping: SliderClamping::Edits },
        Slide { range: (0.0, 10.0), step: Some(0.5), clamping: SliderClamping::Never },
        Slide { range: (0.0, 10.0), step: Some(4.0), clamping: always },
        Slide { range: (0.0, 10.0), step: Some(4.0), clamping: SliderClamping::Never },
        Slide { range: (0.0, 10.0), step: None, clamping: SliderClamping::Never },
    ] {
        agent_takes_what_egui_s_slider_holds::<f64>(slide, &TENS);
    }
    let tenths = [-1.1, -1.0, -0.7, -0.65, 0.0, 0.1, 0.2, 0.3, 0.35, 0.7, 0.9, 1.0, 1.2];
    agent_takes_what_egui_s_slider_holds::<f64>(
        Slide { range: (-1.0, 1.0), step: Some(0.1), clamping: always },
        &tenths,
    );
    let whole = [-5.0, 0.0, 2.5, 3.0, 5.0, 7.5, 50.0, 52.0, 100.0, 105.0, 1000.0, 1e10];
    agent_takes_what_egui_s_slider_holds::<i32>(
        Slide { range: (0.0, 100.0), step: Some(5.0), clamping: always },
        &whole,
    );
    let never = SliderClamping::Never;
    agent_takes_what_egui_s_slider_holds::<i32>(Slide { range: (0.0, 100.0), step: None, clamping: never }, &whole);
    agent_takes_what_egui_s_slider_holds::<u8>(Slide { range: (0.0, 100.0), step: Some(5.0), clamping: never }, &whole);
}

/// An agent's edit of a stepped or unclamped slider is refused in the rule's words, and the
/// rules listed in `edit_field` say the step and what may be typed.
#[test]
fn a_slider_s_step_and_clamping_are_the_agent_s_rules() {
    let gain = Input::number("Gain", 0.0..=10.0).step_by(0.5);
    assert_eq!(gain.check(&json!(0.3)).unwrap_err(), "Gain must be in steps of 0.5 from 0, 0 to 10");
    assert_eq!(gain.check(&json!(11)).unwrap_err(), "Gain must be 0 to 10, in steps of 0.5 from 0");
    assert_eq!(gain.check(&json!(2.5)).unwrap(), json!(2.5));
    assert_eq!(gain.rules(), "0-10, steps of 0.5");
    let zoom = Input::number("Zoom", 0.0..=4.0).clamping(SliderClamping::Never).step_by(0.5);
    assert_eq!(zoom.check(&json!(40)).unwrap(), json!(40.0), "typed beyond the rail");
    assert_eq!(zoom.check(&json!(40.2)).unwrap_err(), "Zoom must be in steps of 0.5 from 0");
    assert_eq!(zoom.rules(), "any (slider 0-4), steps of 0.5");
    let edits = Input::number("Zoom", 0.0..=4.0).clamping(SliderClamping::Edits);
    assert_eq!(edits.check(&json!(5)).unwrap_err(), "Zoom must be 0 to 4", "edits are clamped");

    let app = |ui: &mut egui::Ui, s: &mut (Bridge, f64, u8)| {
        let bridge = s.0.clone();
        bridge.window("s").title("Slider").ui(ui, |w, ui| {
            w.form(ui, "f", |f| {
                f.edit("gain", &Input::number("Gain", 0.0..=10.0).step_by(0.5), &mut s.1);
                let level = Input::integer("Level", 0..=10).clamping(SliderClamping::Never);
                f.edit("level", &level, &mut s.2);
            });
        });
    };
    let bridge = Bridge::builder().build();
    let mut h = Harness::builder(&bridge).with_size([500.0, 300.0]).build_ui_state(app, (bridge.clone(), 1.0, 1));
    h.run_steps(2);
    let snapshot = h.snapshot();
    let tools = snapshot.tools();
    let edit = tools.iter().find(|t| t.name == "s__edit_field").expect("edit_field");
    let description = &edit.description;
    assert!(description.contains("gain (0-10, steps of 0.5)"), "{description}");
    assert!(description.contains("level (0-255 (slider 0-10))"), "{description}");
    let refused = h.call("s__edit_field", json!({"field": "gain", "value": 0.3})).expect_err("off the steps");
    let field = refused.fields.expect("per field");
    assert_eq!(
        (field[0].field.as_str(), field[0].error.as_str()),
        ("value", "Gain must be in steps of 0.5 from 0, 0 to 10")
    );
    assert_eq!(h.state().1, 1.0, "nothing set");
    h.call("s__edit_field", json!({"field": "level", "value": 200})).expect("typed beyond the rail");
    assert_eq!(h.state().2, 200);
    let refused = h.call("s__edit_field", json!({"field": "level", "value": 300})).expect_err("beyond a u8");
    assert_eq!(refused.fields.expect("per field")[0].error, "Level must be 0 to 255");
    let refused = h.call("s__edit_field", json!({"fields": {"gain": 2.7, "level": 3}})).expect_err("all or none");
    assert_eq!(refused.fields.expect("per field")[0].error, "Gain must be in steps of 0.5 from 0, 0 to 10");
    assert_eq!((h.state().1, h.state().2), (1.0, 200), "nothing set");
}

/// A form keeps the app's grid: striped, spaced and with a minimum column width as the app
/// says, a row of two checkboxes and a row labelled by rich text, it is laid out as egui's own
/// `Grid` with the same options and widgets; agents read each field by its input's label and
/// set it.
#[test]
fn a_form_keeps_the_app_s_grid() {
    #[derive(Clone, Default)]
    struct Values {
        name: String,
        grid: bool,
        axes: bool,
        width: u32,
        height: u32,
    }
    fn grid(grid: egui::Grid) -> egui::Grid {
        grid.striped(true).spacing([20.0, 9.0]).min_col_width(90.0)
    }
    fn bridged(ui: &mut egui::Ui, s: &mut (Bridge, Values)) {
        let (bridge, v) = (s.0.clone(), &mut s.1);
        egui::CentralPanel::default().show(ui, |ui| {
            bridge.window("plot").title("Plot").panel(ui, |w, ui| {
                w.form_with(ui, "plot", grid, |f| {
                    f.edit("name", &Input::text("Name"), &mut v.name);
                    f.row(|f| {
                        f.edit("grid", &Input::checkbox("Show grid"), &mut v.grid);
                        f.edit("axes", &Input::checkbox("Show axes"), &mut v.axes);
                    });
                    f.labelled(
                        |ui| ui.label(egui::RichText::new("Size").strong()),
                        |f| {
                            f.edit("width", &Input::integer("Width", 1..=4096), &mut v.width);
                            f.edit("height", &Input::integer("Height", 1..=4096), &mut v.height);
                        },
                    );
                });
            });
        });
    }
    fn plain(ui: &mut egui::Ui, v: &mut Values) {
        egui::CentralPanel::default().show(ui, |ui| {
            grid(egui::Grid::new("plot").num_columns(2)).show(ui, |ui| {
                let l = ui.label("Name");
                ui.text_edit_singleline(&mut v.name).labelled_by(l.id);
                ui.end_row();
                ui.checkbox(&mut v.grid, "Show grid");
                ui.checkbox(&mut v.axes, "Show axes");
                ui.end_row();
                let l = ui.label(egui::RichText::new("Size").strong());
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut v.width).range(1..=4096)).labelled_by(l.id);
                    ui.add(egui::DragValue::new(&mut v.height).range(1..=4096)).labelled_by(l.id);
                });
                ui.end_row();
            });
        });
    }
    let values = Values { name: "Sales".into(), grid: true, axes: false, width: 640, height: 480 };
    let bridge = Bridge::builder().build();
    let mut h =
        Harness::builder(&bridge).with_size([600.0, 400.0]).build_ui_state(bridged, (bridge.clone(), values.clone()));
    h.run_steps(2);
    let mut p = egui_kittest::Harness::builder().with_size(egui::vec2(600.0, 400.0)).build_ui_state(plain, values);
    p.run_steps(2);
    let (ours_at, egui_s_at) = (rect(&h, "Name").min, rect(&p, "Name").min);
    // Each widget by its label ("Size": the two drag values the rich text names).
    fn placed<S>(h: &egui_kittest::Harness<'_, S>, label: &str, origin: egui::Pos2) -> Vec<(egui::Vec2, egui::Vec2)> {
        h.get_all_by_label(label).map(|n| (n.rect().min - origin, n.rect().size())).collect()
    }
    for label in ["Name", "Show grid", "Show axes", "Size"] {
        let (ours, egui_s) = (placed(&h, label, ours_at), placed(&p, label, egui_s_at));
        assert_eq!(ours, egui_s, "{label}: laid out as egui's own");
    }
    assert_eq!(placed(&h, "Size", ours_at).len(), 2, "the row's label names both drag values");

    // Agents read each field by its input's label, and set it.
    let window = serde_json::to_value(h.window("plot").expect("declared")).expect("json");
    let items: Vec<Value> = window["blocks"][0]["items"].as_array().expect("items").clone();
    let labels: Vec<&str> = items.iter().filter_map(|i| i["label"].as_str()).collect();
    assert_eq!(labels, ["Name", "Show grid", "Show axes", "Width", "Height"]);
    h.call("plot__edit_field", json!({"fields": {"axes": true, "height": 720}})).expect("set");
    assert!(h.state().1.axes);
    assert_eq!(h.state().1.height, 720);
    assert!(h.undescribed().is_empty(), "every widget described once: {:?}", h.undescribed());
}
