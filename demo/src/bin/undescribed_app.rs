//! `undescribed-app`: a small eframe app (glow) that describes nothing to the bridge, so agents
//! see it only through the read view, serving MCP over stdio. It is the app of
//! `tests/it/read_view_eframe.rs`: a person's app that notices a background job finishing in its
//! own pass, with no input.
//!
//! It shows one window, "Project", with a name to type and a Rename button an agent operates
//! through the window's generic tools (`ui-project__edit_field`, `ui-project__press`), in the
//! real run loop, a search box run on Enter (`submit`) and a file row with a context menu
//! (`secondary`). The `Bridge` is moved into eframe's app creator and dropped there: only the
//! serving handle is kept, as the README's shape allows. Once the first pass has run it prints
//! `undescribed-app ready; trigger: ADDR` on stderr; each line sent to that loopback TCP address
//! changes what it shows, as a background job would, without any input:
//!
//! - `open NAME`: a job finishes with the project NAME opened; the app picks the result up from
//!   a channel in its next pass, after the job called `request_repaint` once (as real apps do).
//! - `quietly NOTE`: the app's state changes with no pass asked for at all (a shared value
//!   written from another thread); it shows at the next pass, whatever runs it.
//!
//! `cargo run -p order-demo --bin undescribed-app` (an MCP client starts it, over stdio).

use std::io::BufRead as _;
use std::sync::Arc;

use egui_mcp_bridge::Bridge;
use parking_lot::Mutex;

struct App {
    /// Results of finished jobs, picked up in the app's pass.
    jobs: crossbeam_channel::Receiver<String>,
    project: String,
    /// The name the person (or an agent) types, and how often Rename was pressed.
    name: String,
    renames: u32,
    /// Picked from a combo box (an agent opens it and picks, in two passes).
    kind: &'static str,
    /// A search box run when Enter is pressed in it, and what it last searched for.
    find: String,
    searched: Option<String>,
    /// A file row whose context menu deletes it.
    deleted: bool,
    /// Written by another thread, read in each pass.
    note: Arc<Mutex<String>>,
    /// The trigger's address, printed in the first pass.
    trigger: Option<std::net::SocketAddr>,
    /// Serving lasts as long as this handle, whatever became of the bridge.
    _serving: egui_mcp_bridge::serve::ServeHandle,
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        for project in self.jobs.try_iter() {
            self.project = format!("Project {project} opened");
        }
        let note = self.note.lock().clone();
        egui::Window::new("Project").show(ui.ctx(), |ui| {
            ui.label(&self.project);
            ui.label(format!("Note: {note}"));
            ui.horizontal(|ui| {
                let label = ui.label("Name");
                ui.text_edit_singleline(&mut self.name).labelled_by(label.id);
            });
            egui::ComboBox::from_label("Kind").selected_text(self.kind).show_ui(ui, |ui| {
                for kind in ["Draft", "Final"] {
                    ui.selectable_value(&mut self.kind, kind, kind);
                }
            });
            if ui.button("Rename").clicked() {
                self.renames += 1;
                self.project = format!("Project {} (renamed {} times)", self.name, self.renames);
            }
            ui.horizontal(|ui| {
                let label = ui.label("Find");
                let find = ui.text_edit_singleline(&mut self.find).labelled_by(label.id);
                if find.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    self.searched = Some(self.find.clone());
                }
            });
            if let Some(searched) = &self.searched {
                ui.label(format!("Searched for {searched}"));
            }
            if self.deleted {
                ui.label("notes.txt deleted");
            } else {
                ui.selectable_label(false, "notes.txt").context_menu(|ui| {
                    if ui.button("Delete").clicked() {
                        self.deleted = true;
                        ui.close();
                    }
                });
            }
        });
        if let Some(addr) = self.trigger.take() {
            eprintln!("undescribed-app ready; trigger: {addr}");
        }
    }
}

/// Serves the trigger: each line from a connection is one job's result or one quiet change.
fn serve_trigger(
    listener: &std::net::TcpListener,
    ctx: &egui::Context,
    jobs: &crossbeam_channel::Sender<String>,
    note: &Mutex<String>,
) {
    for stream in listener.incoming().map_while(Result::ok) {
        for line in std::io::BufReader::new(stream).lines().map_while(Result::ok) {
            if let Some(name) = line.strip_prefix("open ") {
                if jobs.send(name.to_owned()).is_err() {
                    return;
                }
                ctx.request_repaint();
            } else if let Some(text) = line.strip_prefix("quietly ") {
                text.clone_into(&mut note.lock());
            } else {
                tracing::warn!("unknown trigger line ({} bytes)", line.len());
            }
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(tracing_subscriber::EnvFilter::from_default_env())
        .with(tracing_subscriber::filter::filter_fn(egui_mcp_bridge::log_filter))
        .init();
    let bridge = Bridge::builder().app_name("undescribed-app").build();
    let serving = bridge.serve_stdio()?;
    let listener = std::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))?;
    let trigger = listener.local_addr()?;
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([480.0, 320.0]),
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "undescribed-app",
        options,
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            let (tx, jobs) = crossbeam_channel::unbounded();
            let note = Arc::new(Mutex::new("none".to_owned()));
            let (ctx, shared) = (cc.egui_ctx.clone(), Arc::clone(&note));
            std::thread::Builder::new()
                .name("trigger".into())
                .spawn(move || serve_trigger(&listener, &ctx, &tx, &shared))?;
            Ok(Box::new(App {
                jobs,
                project: "No project open".to_owned(),
                name: String::new(),
                renames: 0,
                kind: "Draft",
                find: String::new(),
                searched: None,
                deleted: false,
                note,
                trigger: Some(trigger),
                _serving: serving,
            }))
        }),
    )?;
    Ok(())
}
