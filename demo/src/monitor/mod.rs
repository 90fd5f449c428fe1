//! The second example: a serial monitor shaped like real eframe apps (a menu bar, a settings
//! side panel with a combo box, radio buttons, switches, a slider and a collapsing section, a
//! console with live lines, a command line, a confirmation dialog, and a Connect that takes a
//! moment), every part described once with `egui_mcp_bridge`. `demo/examples/serial_monitor.rs`
//! runs it in a window or headless and serves MCP; `demo/tests/it/monitor.rs` drives it as a
//! person and as an agent.
//!
//! Windows (agents read them in `app://windows`): `menu` (the menu bar), `settings` (the side
//! panel; its `reset` dialog), `console` (the live lines: a window of its own, so that its lines
//! never make a write to the settings stale) and `command` (the command line).

pub mod device;

use std::collections::VecDeque;
use std::time::Duration;

use egui_mcp_bridge::blocks::ListOptions;
use egui_mcp_bridge::{ActionSpec, Bridge, Deferred, Input, Severity, ToolError, ToolResult};
use serde::Deserialize;

use device::{Device, PORTS};

/// The baud rates offered.
pub const BAUDS: [u32; 5] = [9600, 19_200, 38_400, 57_600, 115_200];
/// The console keeps at most this many lines when Max lines is 0 (no limit of the person's).
pub const MOST_LINES: usize = 10_000;
/// Lines of the console agents read in the state (the count is in its summary).
pub const AGENT_LINES: usize = 20;
const CLEAR: egui::KeyboardShortcut = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::K);

/// A serial line's parity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    /// No parity bit.
    None,
    /// Even parity.
    Even,
    /// Odd parity.
    Odd,
}

const PARITY: [(Parity, &str); 3] = [(Parity::None, "None"), (Parity::Even, "Even"), (Parity::Odd, "Odd")];

/// What the person (or an agent) set.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The device's port.
    pub port: String,
    /// Its baud rate.
    pub baud: u32,
    /// Its parity.
    pub parity: Parity,
    /// Console lines start with the time they arrived.
    pub timestamps: bool,
    /// The console shows the newest lines.
    pub autoscroll: bool,
    /// How many plots the readings are drawn in.
    pub plots: usize,
    /// The plots' time window, in seconds.
    pub window: f32,
    /// The most lines the console keeps (0: no limit).
    pub max_lines: usize,
    /// The plots' colour.
    pub color: egui::Color32,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            port: PORTS[0].to_owned(),
            baud: 9600,
            parity: Parity::None,
            timestamps: true,
            autoscroll: true,
            plots: 1,
            window: 10.0,
            max_lines: 0,
            color: egui::Color32::from_rgb(90, 160, 255),
        }
    }
}

/// `send` arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendArgs {
    /// The line to send to the device.
    pub command: String,
}

/// The serial monitor.
#[derive(Debug)]
pub struct Monitor {
    bridge: Bridge,
    /// The settings.
    pub settings: Settings,
    /// The console: each line with the time it arrived.
    pub lines: VecDeque<(f64, String)>,
    device: Device,
    /// An agent's Connect, answered once the port is open.
    connecting: Option<Deferred>,
    /// The Reset settings? dialog is open.
    pub asking_reset: bool,
    typed: String,
}

impl Monitor {
    /// A monitor, not connected, with the default settings.
    pub fn new(bridge: Bridge) -> Self {
        Self {
            bridge,
            settings: Settings::default(),
            lines: VecDeque::new(),
            device: Device::default(),
            connecting: None,
            asking_reset: false,
            typed: String::new(),
        }
    }

    /// Whether the port is open.
    pub fn is_connected(&self) -> bool {
        self.device.is_open()
    }

    /// The whole app, in the main window's `ui`.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let now = ui.input(|i| i.time);
        self.poll(ui.ctx(), now);
        let bridge = self.bridge.clone();
        egui::Panel::top("menu").show(ui, |ui| {
            bridge.window("menu").title("Menu").summary("The menu bar").panel(ui, |w, ui| self.menu(w, ui));
        });
        egui::Panel::left("settings").default_size(300.0).show(ui, |ui| {
            let summary = format!("{} at {} baud, {}", self.settings.port, self.settings.baud, self.status());
            bridge
                .window("settings")
                .title("Settings")
                .summary(summary)
                .panel(ui, |w, ui| self.settings_ui(w, ui, now));
        });
        egui::Panel::bottom("command").show(ui, |ui| {
            let summary = if self.is_connected() { "Send a line to the device" } else { "Connect to send" };
            bridge.window("command").title("Command line").summary(summary).panel(ui, |w, ui| self.command(w, ui, now));
        });
        egui::CentralPanel::default().show(ui, |ui| {
            let summary = format!("{} lines received; {}", self.lines.len(), self.status());
            bridge.window("console").title("Console").summary(summary).panel(ui, |w, ui| self.console(w, ui));
        });
        if self.asking_reset {
            let dialog = bridge.window("reset").title("Reset settings?").modal_of("settings");
            dialog.summary("Asks before resetting the display and plot settings").ui(ui, |d, ui| {
                d.label(ui, "question", "Reset the display and plot settings to their defaults?");
                ui.horizontal(|ui| {
                    if let Some(press) = d.button(ui, "reset", ActionSpec::new("Reset").destructive()).inner {
                        let port = (self.settings.port.clone(), self.settings.baud, self.settings.parity);
                        self.settings = Settings { port: port.0, baud: port.1, parity: port.2, ..Settings::default() };
                        self.asking_reset = false;
                        press.ok("Display and plot settings reset");
                    }
                    if let Some(press) = d.button(ui, "keep", ActionSpec::new("Keep them")).inner {
                        self.asking_reset = false;
                        press.ok("Settings kept");
                    }
                });
            });
        }
    }

    /// What the device did since the last pass: the port opened (an agent's Connect is answered
    /// then), lines arrived.
    fn poll(&mut self, ctx: &egui::Context, now: f64) {
        let (opened, lines, next) = self.device.poll(now);
        if opened && let Some(connecting) = self.connecting.take() {
            let s = &self.settings;
            connecting.ok(format!("Connected to {} at {} baud", s.port, s.baud));
        }
        for line in lines {
            self.push_line(now, line);
        }
        if let Some(seconds) = next {
            ctx.request_repaint_after(Duration::from_secs_f64(seconds.max(0.0)));
        }
    }

    fn push_line(&mut self, now: f64, line: String) {
        self.lines.push_back((now, line));
        let keep = if self.settings.max_lines == 0 { MOST_LINES } else { self.settings.max_lines.min(MOST_LINES) };
        while self.lines.len() > keep {
            self.lines.pop_front();
        }
    }

    fn status(&self) -> String {
        if self.device.is_open() {
            "connected".to_owned()
        } else if self.device.is_opening() {
            "connecting".to_owned()
        } else {
            "not connected".to_owned()
        }
    }

    fn menu(&mut self, w: &mut egui_mcp_bridge::WindowUi, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            w.menu_button(ui, "File", |m| {
                m.enabled(!self.lines.is_empty());
                if let Some(press) = m.shortcut("clear", ActionSpec::new("Clear the console"), CLEAR) {
                    self.lines.clear();
                    press.ok("Console cleared");
                }
            });
        });
    }

    fn settings_ui(&mut self, w: &mut egui_mcp_bridge::WindowUi, ui: &mut egui::Ui, now: f64) {
        let busy = self.device.is_open() || self.device.is_opening();
        // The port's settings and Connect: disabled while connected, for both.
        ui.add_enabled_ui(!busy, |ui| {
            let s = &mut self.settings;
            w.form(ui, "port", |f| {
                let ports = PORTS.map(|p| (p.to_owned(), p));
                f.choice("port", &Input::choice("Device"), &mut s.port, &ports);
                let bauds = BAUDS.map(|b| (b, b.to_string()));
                f.choice("baud", &Input::choice("Baud rate"), &mut s.baud, &bauds);
                f.choice("parity", &Input::choice("Parity").radio(), &mut s.parity, &PARITY);
            });
            let connect = ActionSpec::new("Connect").description("Open the port; answers once it is open");
            if let Some(press) = w.button(ui, "connect", connect).inner {
                self.device.start_opening(now);
                self.connecting = Some(press.defer());
            }
        });
        ui.add_enabled_ui(self.device.is_open(), |ui| {
            if let Some(press) = w.button(ui, "disconnect", ActionSpec::new("Disconnect")).inner {
                self.device.close();
                press.ok("Disconnected");
            }
        });
        ui.separator();
        let s = &mut self.settings;
        w.form(ui, "display", |f| {
            f.edit("timestamps", &Input::checkbox("Timestamps").switch(), &mut s.timestamps);
            f.edit("autoscroll", &Input::checkbox("Autoscroll"), &mut s.autoscroll);
        });
        w.collapsing(ui, "Plot settings", |w, ui| {
            w.form(ui, "plot", |f| {
                f.edit("plots", &Input::integer("Number of plots", 1..=4).slider(), &mut s.plots);
                f.edit("window", &Input::number("Time window", 1.0..=60.0).decimals(1).suffix(" s"), &mut s.window);
                let max = Input::integer("Max lines", 0..=100_000).formatter(infinite).hint("0 means no limit");
                f.edit("max_lines", &max, &mut s.max_lines);
                f.edit("color", &Input::color("Plot colour"), &mut s.color);
            });
        });
        let reset = ActionSpec::new("Reset settings").description("Asks first, in the Reset settings? dialog");
        if let Some(press) = w.button(ui, "reset_settings", reset).inner {
            self.asking_reset = true;
            press.ok("Asking first: answer the Reset settings? dialog");
        }
    }

    fn command(&mut self, w: &mut egui_mcp_bridge::WindowUi, ui: &mut egui::Ui, now: f64) {
        let spec =
            ActionSpec::new("Send a command").description("Send a line to the device; its answer comes on the console");
        let typed = &mut self.typed;
        let sent = ui
            .add_enabled_ui(self.device.is_open(), |ui| {
                w.gesture(ui, "send", spec, |ui| {
                    ui.horizontal(|ui| {
                        let l = ui.label("Command");
                        let r = ui.text_edit_singleline(typed).labelled_by(l.id);
                        let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                        (ui.button("Send").clicked() || enter).then(|| SendArgs { command: std::mem::take(typed) })
                    })
                    .inner
                })
            })
            .inner;
        if let Some(gesture) = sent {
            gesture.handle(|a| {
                if a.command.trim().is_empty() {
                    return Err(ToolError::invalid_field("command", "cannot be empty"));
                }
                self.device.send(&a.command);
                self.push_line(now, format!("> {}", a.command));
                Ok(ToolResult::message("Sent; the answer comes on the console"))
            });
        }
    }

    fn console(&mut self, w: &mut egui_mcp_bridge::WindowUi, ui: &mut egui::Ui) {
        let (severity, status) = if self.device.is_open() {
            let s = &self.settings;
            (Severity::Success, format!("Connected to {} at {} baud", s.port, s.baud))
        } else {
            let status = if self.device.is_opening() { "Connecting…" } else { "Not connected" };
            (Severity::Info, status.to_owned())
        };
        w.notice(ui, "status", severity, &status);
        // One description: every line for the person, scrolled (only the visible ones laid
        // out), and the newest AGENT_LINES for agents, as a page of the whole (§9).
        let timestamps = self.settings.timestamps;
        let lines = &self.lines;
        let shown = |k: usize| {
            let (t, line) = &lines[k];
            if timestamps { format!("[{t:.1}] {line}") } else { line.clone() }
        };
        let options = ListOptions::new().newest_items(AGENT_LINES).stick_to_bottom(self.settings.autoscroll);
        w.long_list(ui, "lines", lines.len(), shown, options);
    }
}

/// Max lines as the person reads it: 0 is no limit.
fn infinite(n: f64) -> String {
    if n == 0.0 { "∞".to_owned() } else { format!("{n}") }
}
