//! A described window looks as egui's own (issue 45, item 3): with the same contents, a window
//! shown with `WindowBuilder::ui` and a panel drawn with `WindowBuilder::panel` lay them out
//! where `egui::Window` and `egui::Panel` do (positions compared in kittest, within 1 px), the
//! agent's mark is painted over them (nothing moves when it shows), and the bridge's "Own
//! window" button is there only when the app turns it on.

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::testing::Harness;
use egui_mcp_bridge::{ActionSpec, Bridge};
use serde_json::json;

/// The texts of the contents, each found by its label.
const LABELS: [&str; 3] = ["The first line of the window", "Ring", "The last line"];

/// The contents with the bridge: a text, a button (the person's and the agent's) and a text.
fn described(w: &mut egui_mcp_bridge::WindowUi, ui: &mut egui::Ui, rang: &mut usize) {
    w.label(ui, "first", LABELS[0]);
    if let Some(press) = w.button(ui, "ring", ActionSpec::new(LABELS[1])).inner {
        *rang += 1;
        press.ok("Rang");
    }
    w.label(ui, "last", LABELS[2]);
}

/// The same contents drawn with egui alone.
fn plain(ui: &mut egui::Ui) {
    ui.label(LABELS[0]);
    let _ = ui.button(LABELS[1]);
    ui.label(LABELS[2]);
}

/// The app of the tests, with the bridge.
struct App {
    bridge: Bridge,
    rang: usize,
}

/// Whether two rects are the same within 1 point, each side.
fn near(a: egui::Rect, b: egui::Rect) -> bool {
    (a.min - b.min).length() <= 1.0 && (a.max - b.max).length() <= 1.0
}

/// Each of the contents' rects, as an offset from `origin`.
fn rects<S>(h: &egui_kittest::Harness<'_, S>, origin: egui::Pos2) -> Vec<egui::Rect> {
    LABELS.iter().map(|l| h.get_by_label(l).rect().translate(-origin.to_vec2())).collect()
}

fn assert_near(ours: &[egui::Rect], egui_s: &[egui::Rect], what: &str) {
    for ((o, e), label) in ours.iter().zip(egui_s).zip(LABELS) {
        assert!(near(*o, *e), "{what}: {label:?} at {o:?}, egui's own at {e:?}");
    }
}

/// A described window lays its contents out where `egui::Window` does with the same contents
/// (no row above them), opens at egui's own size, and stays so when the agent's mark shows:
/// the mark is painted over the window, it moves nothing. With a close button too (egui's
/// `Window::open`).
#[test]
fn a_described_window_lays_its_contents_out_as_egui_s_own() {
    fn bridged(ui: &mut egui::Ui, s: &mut (App, bool)) {
        let bridge = s.0.bridge.clone();
        let window = bridge.window("w").title("Bell");
        let window = if s.1 { window.closable() } else { window };
        window.ui(ui, |w, ui| described(w, ui, &mut s.0.rang));
    }
    fn egui_s(ui: &mut egui::Ui, closable: &mut bool) {
        let mut open = true;
        let window = egui::Window::new("Bell").constrain_to(ui.available_rect_before_wrap());
        let window = if *closable { window.open(&mut open) } else { window };
        window.show(ui.ctx(), plain);
    }
    for closable in [false, true] {
        let bridge = Bridge::builder().build();
        let mut h = Harness::new_ui_state(&bridge, bridged, (App { bridge: bridge.clone(), rang: 0 }, closable));
        h.run();
        let mut p = egui_kittest::Harness::new_ui_state(egui_s, closable);
        p.run();
        let (window, egui_window) = (h.get_by_label("Bell").rect(), p.get_by_label("Bell").rect());
        assert!(
            (window.size() - egui_window.size()).length() <= 1.0,
            "as big as egui's own (closable {closable}): {window:?}, {egui_window:?}"
        );
        let ours = rects(&h, window.min);
        assert_near(&ours, &rects(&p, egui_window.min), &format!("in the window (closable {closable})"));

        h.call("w__ring", json!({})).expect("rang");
        h.step();
        assert_eq!(h.state().0.rang, 1);
        assert!(h.painted("Agent: Ring"), "the agent's mark shows");
        let marked = h.get_by_label("Bell").rect();
        assert_eq!(marked, window, "the window did not move nor grow (closable {closable})");
        assert_eq!(rects(&h, window.min), ours, "nothing moved under the mark (closable {closable})");
    }
}

/// Where the last frame painted the text `text`.
fn painted_at<S>(h: &egui_kittest::Harness<'_, S>, text: &str) -> Option<egui::Rect> {
    h.output().shapes.iter().find_map(|c| match &c.shape {
        egui::Shape::Text(t) if t.galley.text() == text => Some(egui::Rect::from_min_size(t.pos, t.galley.size())),
        _ => None,
    })
}

/// The agent's mark is painted over the window's title bar: above its contents, inside the
/// window, clear of its close button.
#[test]
fn the_agents_mark_is_painted_over_the_title_bar() {
    fn bridged(ui: &mut egui::Ui, s: &mut App) {
        let bridge = s.bridge.clone();
        bridge.window("w").title("Bell").closable().ui(ui, |w, ui| described(w, ui, &mut s.rang));
    }
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, App { bridge: bridge.clone(), rang: 0 });
    h.run();
    h.call("w__ring", json!({})).expect("rang");
    h.step();
    let mark = painted_at(&h, "Agent: Ring").expect("the mark is painted");
    let window = h.get_by_label("Bell").rect();
    let close = h.get_by_label("Close window").rect();
    let first = h.get_by_label(LABELS[0]).rect();
    assert!(window.contains_rect(mark), "inside the window: {mark:?} in {window:?}");
    assert!(mark.bottom() <= first.top(), "above the contents: {mark:?}, {first:?}");
    assert!(!mark.intersects(close), "clear of the close button: {mark:?}, {close:?}");
}

/// One of egui's panels (`egui::Panel::left`…).
type Side = fn(&'static str) -> egui::Panel;

/// Where a described panel's contents are, with the same contents in egui's own panel.
fn panel_rects(side: Side, marked: bool) -> (Vec<egui::Rect>, Vec<egui::Rect>) {
    let bridged = move |ui: &mut egui::Ui, s: &mut App| {
        let bridge = s.bridge.clone();
        side("side").show(ui, |ui| {
            bridge.window("side").title("Side").panel(ui, |w, ui| described(w, ui, &mut s.rang));
        });
    };
    let egui_s = move |ui: &mut egui::Ui| {
        side("side").show(ui, plain);
    };
    let bridge = Bridge::builder().build();
    let mut h = Harness::new_ui_state(&bridge, bridged, App { bridge: bridge.clone(), rang: 0 });
    h.run();
    if marked {
        h.call("side__ring", json!({})).expect("rang");
        h.step();
        assert!(h.painted("Agent: Ring"), "the agent's mark shows");
    }
    let mut p = egui_kittest::Harness::new_ui(egui_s);
    p.run();
    (rects(&h, egui::Pos2::ZERO), rects(&p, egui::Pos2::ZERO))
}

/// A described panel's contents are where egui puts them in its own panel (no frame around
/// them), on every side, with the agent's mark showing or not.
#[test]
fn a_described_panel_lays_its_contents_out_as_egui_s_own() {
    let sides: [(&str, Side); 3] =
        [("left", egui::Panel::left), ("top", egui::Panel::top), ("right", egui::Panel::right)];
    for (name, side) in sides {
        for marked in [false, true] {
            let (ours, egui_s) = panel_rects(side, marked);
            assert_near(&ours, &egui_s, &format!("{name} panel, marked: {marked}"));
        }
    }
}

/// The bridge's "Own window" button is not on a described window unless the app turns it on,
/// for one window (`own_window_button`) or for all (`own_window_buttons`), and then it moves
/// the window into an OS window of its own and back (embedded here, as in every headless run).
#[test]
fn no_own_window_button_unless_the_app_turns_it_on() {
    fn app(ui: &mut egui::Ui, s: &mut (Bridge, Option<bool>)) {
        let mut window = s.0.window("w").title("Bell");
        if let Some(on) = s.1 {
            window = window.own_window_button(on);
        }
        window.ui(ui, |w, ui| w.label(ui, "first", LABELS[0]));
    }
    // How many buttons the window has, and how tall it is.
    let shown = |bridge: &Bridge, on: Option<bool>| {
        let mut h = Harness::new_ui_state(bridge, app, (bridge.clone(), on));
        h.run();
        (h.query_all_by_label("Own window").count(), h.get_by_label("Bell").rect().height())
    };
    let count = |bridge: &Bridge, on: Option<bool>| shown(bridge, on).0;
    let plain = Bridge::builder().build();
    assert_eq!(count(&plain, None), 0, "none by default");
    assert_eq!(count(&plain, Some(true)), 1, "the window's own choice");
    let all = Bridge::builder().own_window_buttons(true).build();
    assert_eq!(count(&all, None), 1, "the bridge's choice for every window");
    assert_eq!(count(&all, Some(false)), 0, "the window's choice is the last word");
    let (without, with) = (shown(&plain, None).1, shown(&plain, Some(true)).1);
    let row = egui::Style::default().spacing.interact_size.y + egui::Style::default().spacing.item_spacing.y;
    assert!(with <= without + row + 1.0, "the button takes one row: {without} without it, {with} with it");

    let mut h = Harness::new_ui_state(&plain, app, (plain.clone(), Some(true)));
    h.run();
    h.get_by_label("Own window").click();
    h.run_steps(3);
    assert!(h.query_by_label("Back into the main window").is_some(), "popped out");
    h.state_mut().1 = Some(false);
    h.run_steps(3);
    assert!(h.query_by_label("Back into the main window").is_none(), "turned off: back in the main window");
    assert!(h.query_by_label("Own window").is_none());
    h.state_mut().1 = Some(true);
    h.run_steps(3);
    assert!(h.query_by_label("Own window").is_some(), "and it stays there");
}

/// In an OS window of its own (embedded in the harness, as where egui embeds viewports) and in
/// an app-level modal (an `egui::Modal`), the agent's mark is painted over the window too:
/// nothing moves when it shows.
#[test]
fn the_agents_mark_moves_nothing_in_an_os_window_nor_a_modal() {
    fn bridged(ui: &mut egui::Ui, s: &mut (App, bool)) {
        let bridge = s.0.bridge.clone();
        let window = bridge.window("w").title("Bell");
        let window = if s.1 { window.app_modal() } else { window };
        window.ui(ui, |w, ui| described(w, ui, &mut s.0.rang));
    }
    for (native, modal) in [(true, false), (false, true)] {
        let bridge = Bridge::builder().native_windows(native).build();
        let mut h = Harness::new_ui_state(&bridge, bridged, (App { bridge: bridge.clone(), rang: 0 }, modal));
        h.run();
        let before = rects(&h, egui::Pos2::ZERO);
        h.call("w__ring", json!({})).expect("rang");
        h.step();
        assert_eq!(h.state().0.rang, 1);
        assert!(h.painted("Agent: Ring"), "the agent's mark shows (native {native}, modal {modal})");
        assert_eq!(
            rects(&h, egui::Pos2::ZERO),
            before,
            "nothing moved under the mark (native {native}, modal {modal})"
        );
    }
}
