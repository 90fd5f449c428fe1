//! Two bridges in one process share nothing: each keeps its own window places (whether its
//! windows have OS windows of their own, their egui ids) and its own caches (the actions' input
//! schemas, the derived `edit_field` action's schema, the fields already warned about), even
//! when both show their windows in one egui context.

use std::sync::Arc;

use egui_kittest::kittest::Queryable as _;
use egui_mcp_bridge::testing::{Harness, window_egui_id};
use egui_mcp_bridge::{ActionSpec, Bridge, Input};
use parking_lot::Mutex;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Note {
    text: String,
}

#[derive(Default)]
struct App {
    name: String,
    /// A `bool` edited with a text input: a misfit the bridge warns about, once per window and
    /// field.
    flag: bool,
    notes: Vec<String>,
}

/// The same window, `w`, on either bridge: a form (its `edit_field` action) and an action.
fn app(bridge: &Bridge, ui: &mut egui::Ui, s: &mut App) {
    bridge.window("w").title("W").ui(ui, |w, ui| {
        w.form(ui, "details", |f| {
            f.edit("name", &Input::text("Name"), &mut s.name);
            f.edit("flag", &Input::text("Flag"), &mut s.flag);
        });
        if let Some(call) = w.agents().action::<Note>("note", ActionSpec::new("Note")) {
            s.notes.push(call.args().text.clone());
            call.ok("Noted");
        }
    });
}

const MISFIT: &str = "does not fit its Input's kind";

#[test]
fn two_bridges_in_one_process_keep_their_own_places_and_caches() {
    // What is logged on this thread (the UI's, in a kittest harness).
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = Arc::clone(&lines);
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_max_level(tracing::Level::WARN)
        .with_writer(move || Line(Arc::clone(&log)))
        .finish();
    let _on_this_thread = tracing::subscriber::set_default(subscriber);

    // Only `a` shows its windows in OS windows of their own, set once; both give the person the
    // "Own window" button where it can move a window.
    let a = Bridge::builder().app_name("a").native_windows(true).own_window_buttons(true).build();
    let b = Bridge::builder().app_name("b").own_window_buttons(true).build();

    // Both show `w` in one context (the harness runs `a`'s plugin; `b`'s declarations there are
    // ignored, said once, but it shows its windows all the same).
    let (ab, bb) = (a.clone(), b.clone());
    let mut one = Harness::new_ui_state(
        &a,
        move |ui, s: &mut (App, App)| {
            app(&ab, ui, &mut s.0);
            app(&bb, ui, &mut s.1);
        },
        (App::default(), App::default()),
    );
    one.run();
    assert_eq!(
        one.query_all_by_label("Own window").count(),
        1,
        "b's window is in the main window (its button moves it out); a's is in an OS window of its own"
    );
    let (a_id, b_id) = (window_egui_id(&a, "w").expect("shown by a"), window_egui_id(&b, "w").expect("shown by b"));
    assert_ne!(a_id, b_id, "each bridge's window `w` is an egui window of its own");
    let warned = lines.lock().iter().filter(|l| l.contains(MISFIT)).count();
    assert_eq!(warned, 2, "each bridge warns about its own window's misfit field: {:?}", lines.lock());
    drop(one);

    // `b` in a context of its own, with its plugin: both have published `w`.
    let bb = b.clone();
    let mut other = Harness::new_ui_state(&b, move |ui, s: &mut App| app(&bb, ui, s), App::default());
    other.run();
    let (sa, sb) = (a.snapshot(), b.snapshot());
    for tool in ["w__note", "w__edit_field"] {
        let (ta, tb) = (sa.tool(tool).expect("published by a"), sb.tool(tool).expect("published by b"));
        assert_eq!(ta.input_schema, tb.input_schema, "{tool}: the same schema");
        assert!(!Arc::ptr_eq(&ta.input_schema, &tb.input_schema), "{tool}: each bridge made its own");
    }
}

/// One formatted event, kept whole.
struct Line(Arc<Mutex<Vec<String>>>);

impl std::io::Write for Line {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().push(String::from_utf8_lossy(buf).into_owned());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
