//! `scripts/census.py`, the census of `docs/census.md`, runs and judges by its rules: its own
//! self-test passes, and on a made-up app a widget with an option the API does not keep is a
//! "no" naming that option, while the same widget with kept options is a "yes". Needs
//! `python3` (as `scripts/test` does for the SDK tests); no network.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/census.py")
}

fn run(args: &[&str]) -> Output {
    Command::new("python3")
        .arg(script())
        .args(args)
        .output()
        .expect("python3 runs scripts/census.py (the tests need python3, as scripts/test says)")
}

#[test]
fn the_census_script_passes_its_self_test() {
    let out = run(&["--self-test"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "census.py --self-test failed:\n{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("checks passed") && !stdout.contains("expected"), "{stdout}");
}

/// A text edit with a `prefix` (not kept) is a "no" that names it; a slider with a suffix and
/// a checkbox with a tooltip (kept) are "yes"; a slider with `step_by` is a "yes" on main and a
/// "no" that names the options branch without it.
#[test]
fn a_site_with_an_option_not_kept_is_a_no_naming_it() {
    let dir = std::env::temp_dir().join(format!("egui_mcp_bridge-census-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let app = r#"
fn ui(&mut self, ui: &mut egui::Ui) {
    ui.add(egui::TextEdit::multiline(&mut self.a).prefix("$"));
    ui.add(egui::Slider::new(&mut self.b, 0.0..=1.0).suffix(" dB"));
    ui.checkbox(&mut self.c, "On").on_hover_text("A tooltip");
    ui.add(egui::Slider::new(&mut self.d, 0.0..=1.0).step_by(0.5));
}
"#;
    std::fs::write(dir.join("app.rs"), app).expect("the fixture written");
    let out = run(&["--list", &format!("fixture={}", dir.display())]);
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "census.py --list failed:\n{}", String::from_utf8_lossy(&out.stderr));
    // Columns: app, file:line, kind, verdicts (at 5a0931d / at b97b4a2, before the options and
    // lists branches / on main), options, containers, source, why not on main, why not at
    // b97b4a2.
    let site = |line: usize| -> Vec<String> {
        stdout
            .lines()
            .map(|l| l.split('\t').map(str::to_owned).collect::<Vec<_>>())
            .find(|c| c.get(1).map(String::as_str) == Some(&format!("app.rs:{line}")))
            .unwrap_or_else(|| panic!("no site on line {line} in:\n{stdout}"))
    };
    let prefix = site(3);
    assert_eq!((prefix[2].as_str(), prefix[3].as_str()), ("text_multi", "no / no / no"));
    assert!(prefix[7].contains("prefix"), "the reason names the option: {prefix:?}");
    assert_eq!(site(4)[3], "yes / yes / yes", "a suffix is kept: {:?}", site(4));
    assert_eq!((site(5)[2].as_str(), site(5)[3].as_str()), ("checkbox", "yes / yes / yes"));
    let step = site(6);
    assert_eq!(step[3], "no / no / yes", "step_by is kept since the options branch: {step:?}");
    assert!(step[8].contains("step_by") && step[8].contains("options branch"), "{step:?}");
    assert_eq!(stdout.lines().count(), 4, "four sites, no more:\n{stdout}");
}
