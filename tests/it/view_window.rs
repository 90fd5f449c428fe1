//! `app__view_window {windowId}`: a picture of one window as the person sees it, over MCP.
//!
//! - It is listed on every connection, whatever the client and `Compat`, read-only, beside
//!   `app__read_windows`; an app can turn it off.
//! - Where no picture can be had it answers at once with a clear error: a headless pass (no
//!   renderer takes the screenshot), the test harness without a renderer, a window declared
//!   without being drawn, an unknown id (as every tool refuses one).
//! - Under an integration that takes screenshots as eframe does (of the frame after the one
//!   that asked; here a made-up screen whose every pixel says where it is), the picture is the
//!   window's rectangle, with the panel the app hid from the read view and the password edit
//!   blanked grey, and its size and version in `structuredContent`. The real thing, eframe's
//!   glow under Xvfb, is `demo/tests/it/view_window_eframe.rs`.
//! - The test harness with kittest's renderer pictures a window with its password blanked (run
//!   by hand: it builds wgpu).

#![allow(clippy::unwrap_used, reason = "tests")]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use egui_mcp_bridge::serve::Compat;
use egui_mcp_bridge::testing::HeadlessUi;
use egui_mcp_bridge::{Bridge, BridgeBuilder};
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use crate::common::{self, BOTH, Client, Lifecycle, Rig};

const GREY: [u8; 3] = [128, 128, 128];

/// Every connection lists `app__view_window` right after `app__read_windows`, annotated
/// read-only, with the one output schema, whatever its client; under `Compat::Off` too. An app
/// that turns it off lists it nowhere, and a call to it is refused as an unknown tool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_picture_tool_is_listed_on_every_connection_read_only() {
    for lifecycle in BOTH {
        for builder in [Bridge::builder(), Bridge::builder().compat(Compat::Off)] {
            let rig = Rig::start_with(builder);
            for name in ["test-client", "claude-code", "copilot-cli", "codex-mcp-client"] {
                let c = rig.connect_as(lifecycle, name).await;
                let tools = c.service.list_all_tools().await.unwrap();
                let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
                assert_eq!(names[..2], ["app__read_windows", "app__view_window"], "{lifecycle:?} {name}: {names:?}");
                let entry = serde_json::to_value(&tools[1]).unwrap();
                assert_eq!(entry["annotations"], json!({"readOnlyHint": true, "openWorldHint": false}), "{entry}");
                assert_eq!(entry["outputSchema"], json!({"type": "object"}));
                assert_eq!(entry["inputSchema"]["required"], json!(["windowId"]));
                let description = entry["description"].as_str().unwrap();
                assert!(description.contains("painted") && description.contains("chart"), "{description}");
            }
        }
    }
    let off = Rig::start_with(Bridge::builder().view_window_tool(false));
    let c = off.connect(Lifecycle::Legacy).await;
    assert!(!c.tool_names().await.contains(&"app__view_window".to_owned()));
    assert_eq!(c.call("app__view_window", json!({"windowId": "main"})).await.code(), "action_not_available");
}

/// A headless app (no renderer takes screenshots) answers a picture at once, with an error that
/// says so, directly and through a dispatcher; the next one too, after the interval.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_headless_pass_answers_a_clear_error() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let _ui = HeadlessUi::start(&bridge, "view-headless", move || {
        move |ui: &mut egui::Ui| {
            b.window("chart").title("Chart").ui(ui, |_, ui| ui.label("A chart the app paints"));
        }
    });
    let c = connect(&bridge).await;
    for (tool, args) in [
        ("app__view_window", json!({"windowId": "chart"})),
        ("app__call_readonly", json!({"tool": "app__view_window", "arguments": {"windowId": "chart"}})),
    ] {
        let asked = Instant::now();
        let r = c.call(tool, args).await;
        assert_eq!(r.code(), "action_not_available", "{tool}: {:?}", r.body);
        let message = r.body["message"].as_str().unwrap();
        assert!(message.contains("headless") && message.contains("renderer"), "{tool}: {message}");
        // At once: not after the wait bound (5 s).
        assert!(asked.elapsed() < Duration::from_secs(2), "{tool}: {:?}", asked.elapsed());
    }
}

/// The test harness without a renderer (kittest built without `wgpu` or `snapshot`, as the
/// bridge's `testing` feature is) takes no screenshots: a picture is answered at the next pass,
/// with the same clear error, not after the wait bound.
#[test]
fn the_test_harness_without_a_renderer_answers_a_clear_error() {
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let mut harness = egui_mcp_bridge::testing::Harness::new_ui_state(
        &bridge,
        move |ui, (): &mut ()| {
            b.window("chart").title("Chart").ui(ui, |_, ui| ui.label("A chart the app paints"));
        },
        (),
    );
    harness.run();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let _serving = bridge.serve_io("duplex", server_io).unwrap();
    let asked = Instant::now();
    let answer = rt.spawn(async move {
        let c = Client::connect(client_io, Lifecycle::Legacy, "test-client").await;
        c.call("app__view_window", json!({"windowId": "chart"})).await
    });
    while !answer.is_finished() && asked.elapsed() < common::WAIT {
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    let r = rt.block_on(answer).unwrap();
    assert_eq!(r.code(), "action_not_available", "{:?}", r.body);
    assert!(r.body["message"].as_str().unwrap().contains("renderer"), "{:?}", r.body);
    assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
}

/// The test harness with kittest's renderer (its `wgpu` feature) takes screenshots: a picture
/// of a described window is its rectangle, the password edit blanked grey. Run by hand, as it
/// builds wgpu: `WGPU_BACKEND=gl cargo test -p egui_mcp_bridge --features egui_kittest/wgpu
/// --test it view_window::the_test_harness_with_a_renderer -- --ignored` (under Xvfb with Mesa,
/// or any GPU). Without the feature the harness answers the clear error above.
#[test]
#[ignore = "needs kittest's renderer (--features egui_kittest/wgpu); see the doc comment"]
fn the_test_harness_with_a_renderer_pictures_a_window() {
    #[derive(Default)]
    struct Login {
        user: String,
        pin: String,
    }
    let bridge = Bridge::builder().build();
    let b = bridge.clone();
    let mut harness = egui_mcp_bridge::testing::Harness::new_ui_state(
        &bridge,
        move |ui, s: &mut Login| {
            b.window("login").title("Login").ui(ui, |w, ui| {
                w.form(ui, "f", |f| {
                    f.edit("user", &egui_mcp_bridge::Input::text("User"), &mut s.user);
                    f.edit("pin", &egui_mcp_bridge::Input::secret("PIN"), &mut s.pin);
                });
            });
        },
        Login { user: "ada".into(), pin: "1234".into() },
    );
    harness.run();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let served = bridge.clone();
    let answer = rt.spawn(async move {
        let c = connect(&served).await;
        view(&c, "login").await
    });
    let asked = Instant::now();
    while !answer.is_finished() && asked.elapsed() < common::WAIT {
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    let (body, w, h, rgb) = rt.block_on(answer).unwrap();
    eprintln!("pictured {w}×{h}: {body}");
    let size = (body["result"]["width"].as_u64(), body["result"]["height"].as_u64());
    assert_eq!(size, (Some(w as u64), Some(h as u64)), "{body}");
    assert!(w > 100 && h > 40, "the window, not a speck: {w}×{h}");
    // The edit blanked: rows of at least 100 grey pixels, as many as an edit is high (a stray
    // grey pixel of the title's text is no blank).
    let grey_rows =
        (0..h).filter(|y| (0..w).filter(|x| rgb[(y * w + x) * 3..(y * w + x) * 3 + 3] == GREY).count() >= 100).count();
    assert!(grey_rows >= 12, "the password edit is blanked grey: {grey_rows} grey rows");
    let distinct: std::collections::HashSet<&[u8]> = rgb.chunks(3).collect();
    assert!(distinct.len() > 10, "what the window paints is in the picture ({} colours)", distinct.len());
}

/// An unknown id is refused as every tool refuses one (`window_not_found`, the same error
/// object); a window the app declares without drawing it has no picture (`action_not_available`,
/// saying so); a call without a usable `windowId` is `validation_failed` naming it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_or_undrawn_window_is_refused_as_other_tools_refuse_it() {
    let rig = Rig::start();
    let c = rig.connect(Lifecycle::Legacy).await;
    let unknown = c.call("app__view_window", json!({"windowId": "nope"})).await;
    let other = c.call("nope__close", json!({})).await;
    assert_eq!(unknown.code(), "window_not_found");
    assert_eq!(unknown.body, other.body, "the same error as another tool's for an unknown window");
    let undrawn = c.call("app__view_window", json!({"windowId": "main"})).await;
    assert_eq!(undrawn.code(), "action_not_available");
    assert!(undrawn.body["message"].as_str().unwrap().contains("not shown"), "{:?}", undrawn.body);
    for args in [json!({}), json!({"windowId": 7}), json!({"window": "main"})] {
        let r = c.call("app__view_window", args.clone()).await;
        assert_eq!(r.code(), "validation_failed", "{args}");
    }
}

/// What the test app's person set: a password typed.
struct Login {
    password: String,
}

/// The app: a side panel hidden from the read view, a described panel "board" with a panel of
/// its own hidden inside it, and an undescribed "Login" window with a password edit.
fn app(bridge: &Bridge, ui: &mut egui::Ui, login: &mut Login) {
    egui::Panel::left("keys").exact_size(120.0).show(ui, |ui| {
        bridge.hide_from_read_view(ui);
        ui.label("api key: 1234");
    });
    egui::CentralPanel::default().show(ui, |ui| {
        bridge.window("board").title("Board").summary("A board").panel(ui, |_, ui| {
            egui::Panel::left("notes").exact_size(100.0).show(ui, |ui| {
                bridge.hide_from_read_view(ui);
                ui.label("private notes");
            });
            ui.label("A chart the app paints");
        });
    });
    egui::Window::new("Login").id(egui::Id::unique("login")).fixed_pos([400.0, 300.0]).show(ui.ctx(), |ui| {
        ui.label("Password");
        ui.add(egui::TextEdit::singleline(&mut login.password).password(true));
    });
}

/// The screen of the made-up integration: pixel (x, y) is `[x, y, 255]` (low bytes), never grey.
const SCREEN: [usize; 2] = [800, 600];

fn at(x: usize, y: usize) -> [u8; 3] {
    [x as u8, y as u8, 255]
}

/// An app on a UI thread of its own whose integration takes screenshots as eframe's does: of the
/// frame after the one whose output asked, once that frame ran.
struct Painted {
    ctx: egui::Context,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Painted {
    fn start(bridge: &Bridge) -> Self {
        let ctx = egui::Context::default();
        ctx.add_plugin(bridge.plugin());
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (ctx, stop, bridge) = (ctx.clone(), Arc::clone(&stop), bridge.clone());
            std::thread::Builder::new()
                .name("view-painted".into())
                .spawn(move || {
                    let pixels = (0..SCREEN[1])
                        .flat_map(|y| (0..SCREEN[0]).map(move |x| at(x, y)))
                        .map(|[r, g, b]| egui::Color32::from_rgb(r, g, b))
                        .collect();
                    let screen = Arc::new(egui::ColorImage::new(SCREEN, pixels));
                    let (wake, woken) = std::sync::mpsc::channel();
                    ctx.set_request_repaint_callback(move |_| {
                        let _ = wake.send(());
                    });
                    let mut login = Login { password: "hunter2".into() };
                    let mut asked: Vec<egui::ScreenshotCallback> = Vec::new();
                    let size = egui::vec2(SCREEN[0] as f32, SCREEN[1] as f32);
                    while !stop.load(Ordering::Acquire) {
                        let input = egui::RawInput {
                            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
                            ..Default::default()
                        };
                        let out = ctx.run_ui(input, |ui| app(&bridge, ui, &mut login));
                        for callback in asked.drain(..) {
                            callback.complete(Arc::clone(&screen));
                        }
                        asked = out
                            .viewport_output
                            .values()
                            .flat_map(|v| &v.commands)
                            .filter_map(|c| match c {
                                egui::ViewportCommand::Screenshot(callback) => Some(callback.clone()),
                                _ => None,
                            })
                            .collect();
                        out.drop_without_applying_deltas();
                        let _ = woken.recv_timeout(Duration::from_millis(50));
                    }
                    ctx.on_exit();
                })
                .unwrap()
        };
        Self { ctx, stop, thread: Some(thread) }
    }
}

impl Drop for Painted {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        self.ctx.request_repaint();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn connect(bridge: &Bridge) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 22);
    let serving = bridge.serve_io("duplex", server_io).unwrap();
    let mut client = Client::connect(client_io, Lifecycle::Legacy, "test-client").await;
    client.serving = Some(serving);
    client
}

/// A picture's answer: its structured content and the PNG decoded (width, height, RGB).
async fn view(c: &Client, window: &str) -> (Value, usize, usize, Vec<u8>) {
    let Value::Object(args) = json!({"windowId": window}) else { unreachable!() };
    let r = tokio::time::timeout(
        common::WAIT,
        c.service.call_tool(CallToolRequestParams::new("app__view_window").with_arguments(args)),
    )
    .await
    .unwrap()
    .unwrap();
    let body = r.structured_content.clone().unwrap_or_default();
    assert_ne!(r.is_error, Some(true), "{body}");
    let content = serde_json::to_value(&r.content).unwrap();
    assert_eq!(content[0]["type"], "image", "the picture first: {}", content[1]);
    assert_eq!(content[0]["mimeType"], "image/png");
    assert_eq!(content[1]["type"], "text", "then the text every result carries");
    let png = base64::engine::general_purpose::STANDARD.decode(content[0]["data"].as_str().unwrap()).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut rgb).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    (body, info.width as usize, info.height as usize, rgb)
}

/// The bounding box of the grey pixels, and whether every pixel in it is grey.
fn grey_box(w: usize, h: usize, rgb: &[u8]) -> Option<([usize; 4], bool)> {
    let grey = |x: usize, y: usize| rgb[(y * w + x) * 3..(y * w + x) * 3 + 3] == GREY;
    let cells: Vec<(usize, usize)> =
        (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|(x, y)| grey(*x, *y)).collect();
    let x0 = cells.iter().map(|c| c.0).min()?;
    let y0 = cells.iter().map(|c| c.1).min()?;
    let x1 = cells.iter().map(|c| c.0).max()? + 1;
    let y1 = cells.iter().map(|c| c.1).max()? + 1;
    Some(([x0, y0, x1, y1], cells.len() == (x1 - x0) * (y1 - y0)))
}

/// Under an integration that takes screenshots, a picture is the window's rectangle of the
/// screen (its first pixel is the one at the window's corner), with what the app hid from the
/// read view and the password edit blanked grey as one flat rectangle each, and nothing else;
/// its size and the window's version are in `structuredContent`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_picture_is_the_window_with_what_is_hidden_blanked() {
    let bridge = BridgeBuilder::default().app_name("painted").build();
    let painted = Painted::start(&bridge);
    let c = connect(&bridge).await;
    let mut state = c.read().await;
    let waited = Instant::now();
    while !state.to_string().contains("ui-login") && waited.elapsed() < common::WAIT {
        tokio::time::sleep(Duration::from_millis(50)).await; // egui sizes a new window unseen first
        state = c.read().await;
    }
    let login = common::window(&state, "ui-login");
    assert!(!login.to_string().contains("hunter2"), "masked in the state: {login}");

    // The undescribed window: its area, the password edit grey.
    let (body, w, h, rgb) = view(&c, "ui-login").await;
    let area = painted.ctx.memory(|m| m.area_rect(egui::Id::unique("login"))).unwrap();
    let (x0, y0) = (area.min.x.floor() as usize, area.min.y.floor() as usize);
    assert_eq!((w, h), (area.max.x.ceil() as usize - x0, area.max.y.ceil() as usize - y0), "{area:?}");
    assert_eq!(body["result"], json!({"windowId": "ui-login", "version": login["version"], "width": w, "height": h}));
    assert!(body["message"].as_str().unwrap().contains("1 grey area"), "{body}");
    assert_eq!(rgb[..3], at(x0, y0), "the picture starts at the window's corner");
    let (edit, flat) = grey_box(w, h, &rgb).expect("the password edit is blanked");
    assert!(flat, "one flat grey rectangle: {edit:?}");
    assert!(
        edit[2] - edit[0] > 40 && edit[3] - edit[1] > 10 && edit[1] > 10,
        "an edit's size, below the label: {edit:?}"
    );

    // The described panel: all of it. The panel hidden inside it is grey, and so is the password
    // edit of the Login window over it (the hidden side panel outside it is not in the picture).
    let (body, bw, bh, rgb) = view(&c, "board").await;
    assert_eq!(
        (body["result"]["width"].as_u64(), body["result"]["height"].as_u64()),
        (Some(bw as u64), Some(bh as u64))
    );
    assert!(bw >= SCREEN[0] - 120 - 20 && bw <= SCREEN[0] - 120 && bh >= SCREEN[1] - 20, "{bw}×{bh}");
    // Where the board is on the screen, from its last pixel (the low bytes of its position).
    let last = &rgb[(bh * bw - 1) * 3..];
    assert_eq!(last[2], 255, "not blanked: {last:?}");
    let bx0 = (usize::from(last[0]) + 512 - (bw - 1) % 256) % 256;
    let by0 = (usize::from(last[1]) + 512 - (bh - 1) % 256) % 256;
    assert!(bx0 >= 120, "right of the hidden side panel: {bx0}");
    let in_edit = |x: usize, y: usize| {
        let (sx, sy) = (x + bx0, y + by0);
        sx >= x0 + edit[0] && sx < x0 + edit[2] && sy >= y0 + edit[1] && sy < y0 + edit[3]
    };
    let grey = |x: usize, y: usize| rgb[(y * bw + x) * 3..(y * bw + x) * 3 + 3] == GREY;
    let mut notes = [usize::MAX, usize::MAX, 0, 0];
    for y in 0..bh {
        for x in 0..bw {
            if in_edit(x, y) {
                assert!(grey(x, y), "the password edit over the board is blanked at ({x}, {y})");
            } else if grey(x, y) {
                notes = [notes[0].min(x), notes[1].min(y), notes[2].max(x + 1), notes[3].max(y + 1)];
            } else {
                assert_eq!(rgb[(y * bw + x) * 3..(y * bw + x) * 3 + 3], at(x + bx0, y + by0), "as drawn at ({x}, {y})");
            }
        }
    }
    assert!(
        notes[0] <= 12 && (75..=100).contains(&(notes[2] - notes[0])),
        "the notes panel inside its margins: {notes:?}"
    );
    assert!(notes[3] - notes[1] >= bh - 20, "all of its height: {notes:?}");
    for y in notes[1]..notes[3] {
        for x in notes[0]..notes[2] {
            assert!(grey(x, y), "one flat rectangle: ({x}, {y}) in {notes:?}");
        }
    }
    assert!(body["message"].as_str().unwrap().contains("2 grey areas"), "{body}");
}
