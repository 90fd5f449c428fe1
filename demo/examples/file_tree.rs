//! A file tree in a side panel, described once with `Tree`: the person expands, ticks, selects
//! and right-clicks rows; an agent reads a page of the open rows and calls `select {path}`,
//! `set_checked {path, checked}`, `expand {path}`, `count_lines {path}` with the same effect.
//! The selected file's first lines are previewed beside it.
//!
//! Run it on a folder (default: the current one) from an MCP client (it serves stdio):
//! `cargo run -p order-demo --example file_tree -- path/to/folder`

use std::path::{Path, PathBuf};

use egui_mcp_bridge::serve::ServeHandle;
use egui_mcp_bridge::{ActionSpec, Bridge, Severity, Tree, TreeEvent, TreeState};

/// The most rows read from the folder: a tree is bounded like everything else.
const MAX_ROWS: usize = 20_000;
/// Lines of the selected file previewed.
const PREVIEW_LINES: usize = 40;

/// A row of the tree: a folder or a file, by its path under the root.
struct Row {
    path: String,
    is_dir: bool,
    /// Ticked; a folder's is derived from its files (`None`: some are).
    checked: Option<bool>,
}

struct Files {
    bridge: Bridge,
    root: PathBuf,
    rows: Vec<Row>,
    tree: TreeState,
    selected: Option<String>,
    preview: String,
    status: String,
    _serving: ServeHandle,
}

/// The folder's rows, depth first, folders before files, hidden entries and `target` left out.
fn read_rows(root: &Path, under: &Path, rows: &mut Vec<Row>) {
    let Ok(entries) = std::fs::read_dir(under) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| (!e.path().is_dir(), e.file_name()));
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if rows.len() >= MAX_ROWS || name.starts_with('.') || name == "target" {
            continue;
        }
        let path = entry.path();
        let shown = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let is_dir = path.is_dir();
        rows.push(Row { path: shown, is_dir, checked: Some(false) });
        if is_dir {
            read_rows(root, &path, rows);
        }
    }
}

impl Files {
    /// Ticks or unticks a row and what is under it, then derives the folders' states.
    fn set_checked(&mut self, path: &str, on: bool) {
        let under = format!("{path}/");
        for row in &mut self.rows {
            if row.path == path || row.path.starts_with(&under) {
                row.checked = Some(on);
            }
        }
        for k in (0..self.rows.len()).rev() {
            if !self.rows[k].is_dir {
                continue;
            }
            let under = format!("{}/", self.rows[k].path);
            let files = self.rows[k + 1..].iter().take_while(|r| r.path.starts_with(&under)).filter(|r| !r.is_dir);
            let (mut all, mut any, mut some) = (true, false, false);
            for f in files {
                all &= f.checked == Some(true);
                any |= f.checked == Some(true);
                some = true;
            }
            // An empty folder keeps its own tick.
            if some {
                self.rows[k].checked = if all {
                    Some(true)
                } else if any {
                    None
                } else {
                    Some(false)
                };
            }
        }
    }

    fn select(&mut self, path: &str) {
        let text = std::fs::read_to_string(self.root.join(path)).unwrap_or_else(|_| "(not a text file)".to_owned());
        self.preview = text.lines().take(PREVIEW_LINES).collect::<Vec<_>>().join("\n");
        self.selected = Some(path.to_owned());
    }
}

impl eframe::App for Files {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let bridge = self.bridge.clone();
        egui::Panel::left("files").default_size(280.0).show(ui, |ui| {
            let ticked = self.rows.iter().filter(|r| !r.is_dir && r.checked == Some(true)).count();
            let summary = format!("{} rows, {ticked} files ticked", self.rows.len());
            bridge.window("files").title("Files").summary(summary).panel(ui, |w, ui| {
                let tree = Tree::new("tree", &self.rows, |r| r.path.as_str(), &mut self.tree)
                    .checkboxes(|r| r.checked)
                    .selected(self.selected.as_deref())
                    .row_menu("count_lines", ActionSpec::new("Count lines").read_only());
                let Some(press) = w.add(ui, tree) else { return };
                match press.args().clone() {
                    TreeEvent::Select { path } => {
                        self.select(&path);
                        press.ok(format!("Previewing {path}"));
                    }
                    TreeEvent::SetChecked { path, checked } => {
                        self.set_checked(&path, checked);
                        press.ok(if checked { "Ticked" } else { "Unticked" });
                    }
                    TreeEvent::Menu { path, .. } => {
                        let lines = std::fs::read_to_string(self.root.join(&path)).map(|t| t.lines().count());
                        self.status = match lines {
                            Ok(n) => format!("{path}: {n} lines"),
                            Err(_) => format!("{path}: not a text file"),
                        };
                        press.ok(self.status.clone());
                    }
                }
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            let title = self.selected.clone().unwrap_or_else(|| "Nothing selected".to_owned());
            bridge.window("preview").title("Preview").summary(title.clone()).panel(ui, |w, ui| {
                ui.heading(&title);
                if !self.status.is_empty() {
                    w.notice(ui, "status", Severity::Info, &self.status);
                }
                egui::ScrollArea::vertical().show(ui, |ui| {
                    w.label(ui, "first_lines", &self.preview);
                });
            });
        });
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if egui_mcp_bridge::serve::attach_stdio("file-tree")?.relayed() {
        return Ok(());
    }
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(tracing_subscriber::EnvFilter::from_default_env())
        .with(tracing_subscriber::filter::filter_fn(egui_mcp_bridge::log_filter))
        .init();
    let root = std::env::args().nth(1).map_or_else(std::env::current_dir, |p| Ok(PathBuf::from(p)))?;
    let mut rows = Vec::new();
    read_rows(&root, &root, &mut rows);
    let bridge = Bridge::builder().app_name("file-tree").app_version("1.0.0").build();
    let serving = bridge.serve_stdio()?;
    eframe::run_native(
        "file-tree",
        eframe::NativeOptions::default(),
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            let (selected, preview, status) = (None, String::new(), String::new());
            Ok(Box::new(Files {
                bridge,
                root,
                rows,
                tree: TreeState::new(),
                selected,
                preview,
                status,
                _serving: serving,
            }))
        }),
    )?;
    Ok(())
}
