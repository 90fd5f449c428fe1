//! `app__view_window` in a real eframe window (glow, on Xvfb with Mesa's software OpenGL): the
//! app `view-window-app`, driven over stdio by an rmcp client. Its window `chart` is a described
//! panel that paints a bar chart and holds a panel hidden from the read view (painted magenta)
//! and a password edit; a side panel beside it is hidden too. The picture, decoded here: its size
//! is the one `structuredContent` says, no magenta is left anywhere in it, the hidden panel and
//! the password edit are each one flat grey rectangle, and the rest is the chart as painted (its
//! bars' colours, many colours in all). Then the app's OS window is minimised (as winit's X11 sees
//! it: `_NET_WM_STATE_HIDDEN`, set with `xprop`; there is no window manager) and a picture is
//! refused with an error saying so, and taken again once it is restored.
//!
//! The app logs at `egui_mcp_bridge=trace,rmcp=trace`: no line of it carries the image.
//!
//! Needs Xvfb, xdotool, xprop and Mesa, as `native_windows` does. The same under eframe's wgpu
//! renderer: `WGPU_BACKEND=gl cargo test -p order-demo --test it view_window_eframe --features
//! eframe/wgpu` (not run by default: it builds wgpu).

use crate::support;

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use base64::Engine as _;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use support::Xvfb;
use tokio::io::AsyncBufReadExt as _;

const APP: &str = env!("CARGO_BIN_EXE_view-window-app");
/// For the app to start and answer.
const WAIT: Duration = Duration::from_secs(30);
const GREY: [u8; 3] = [128, 128, 128];
/// The chart's bars' colours (the app's `SALES`).
const BARS: [[u8; 3]; 6] = [[30, 144, 255], [255, 165, 0], [46, 139, 87], [220, 20, 60], [106, 90, 205], [255, 215, 0]];

/// Starts the app on display `x`, once its first pass has run; the rest of its stderr is
/// forwarded to the test's (until the returned task ends), and the longest line's length kept in
/// `longest`.
async fn start(x: &Xvfb, longest: &Arc<AtomicUsize>) -> (tokio::process::Child, tokio::task::JoinHandle<()>) {
    let mut app = tokio::process::Command::new(APP)
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env("EGUI_MCP_BRIDGE_DIR", support::endpoint_folder())
        .env("RUST_LOG", "info,egui_mcp_bridge=trace,rmcp=trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start view-window-app");
    let mut lines = tokio::io::BufReader::new(app.stderr.take().expect("stderr")).lines();
    let ready = async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("view-window-app ready") {
                return;
            }
            eprintln!("[app] {line}");
        }
        panic!("view-window-app ended before its first pass (is Xvfb with Mesa there?)");
    };
    tokio::time::timeout(WAIT, ready).await.expect("the app's first pass in time");
    let longest = Arc::clone(longest);
    let forward = tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            longest.fetch_max(line.len(), Ordering::Relaxed);
            eprintln!("[app] {line}");
        }
    });
    (app, forward)
}

/// A picture's answer: `Ok((structuredContent, width, height, RGB))`, or the error object.
async fn view(client: &RunningService<RoleClient, ()>, window: &str) -> Result<(Value, usize, usize, Vec<u8>), Value> {
    let Value::Object(args) = json!({"windowId": window}) else { unreachable!() };
    let params = CallToolRequestParams::new("app__view_window").with_arguments(args);
    let r = tokio::time::timeout(WAIT, client.call_tool(params)).await.expect("answered in time").expect("call");
    let body = r.structured_content.clone().unwrap_or_default();
    if r.is_error == Some(true) {
        return Err(body);
    }
    let content = serde_json::to_value(&r.content).expect("json");
    assert_eq!((&content[0]["type"], &content[0]["mimeType"]), (&json!("image"), &json!("image/png")));
    let png =
        base64::engine::general_purpose::STANDARD.decode(content[0]["data"].as_str().expect("data")).expect("base64");
    assert!(png.len() <= 1_000_000, "at most 1 MB: {}", png.len());
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("its pixels");
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgb, png::BitDepth::Eight));
    Ok((body, info.width as usize, info.height as usize, buf))
}

/// The grey regions of a picture (4-connected runs of exactly [`GREY`] of at least 200 pixels,
/// so that a grey pixel of anti-aliased text is not one), each as its bounding box and whether
/// every pixel in that box is grey.
fn grey_regions(width: usize, height: usize, rgb: &[u8]) -> Vec<([usize; 4], bool)> {
    let grey = |i: usize| rgb[i * 3..i * 3 + 3] == GREY;
    let mut seen = vec![false; width * height];
    let mut regions = Vec::new();
    for start in 0..width * height {
        if seen[start] || !grey(start) {
            continue;
        }
        seen[start] = true;
        let (mut stack, mut count, mut bounds) = (vec![start], 0, [usize::MAX, usize::MAX, 0, 0]);
        while let Some(at) = stack.pop() {
            let (x, y) = (at % width, at / width);
            count += 1;
            bounds = [bounds[0].min(x), bounds[1].min(y), bounds[2].max(x + 1), bounds[3].max(y + 1)];
            let next = [
                (x > 0).then(|| at - 1),
                (x + 1 < width).then(|| at + 1),
                (y > 0).then(|| at - width),
                (y + 1 < height).then(|| at + width),
            ];
            for n in next.into_iter().flatten() {
                if !seen[n] && grey(n) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        if count >= 200 {
            regions.push((bounds, count == (bounds[2] - bounds[0]) * (bounds[3] - bounds[1])));
        }
    }
    regions
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_window_is_pictured_with_its_hidden_panel_blanked() {
    let x = Xvfb::start();
    let longest = Arc::new(AtomicUsize::new(0));
    let (mut app, forward) = start(&x, &longest).await;
    let io = (app.stdout.take().expect("stdout"), app.stdin.take().expect("stdin"));
    let client = tokio::time::timeout(WAIT, ().serve(io)).await.expect("initialized in time").expect("initialize");
    let listed = client.list_all_tools().await.expect("tools/list");
    let entry = listed.iter().find(|t| t.name == "app__view_window").expect("listed");
    assert_eq!(entry.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true));

    let state = client.read_resource(ReadResourceRequestParams::new("app://windows")).await.expect("read");
    let state: Value =
        serde_json::from_str(serde_json::to_value(&state.contents[0]).expect("json")["text"].as_str().expect("text"))
            .expect("the state is JSON");
    let chart = state["windows"].as_array().and_then(|ws| ws.iter().find(|w| w["id"] == "chart")).expect("the chart");
    assert!(!state.to_string().contains("1234"), "the hidden panel is not read: {state}");

    let (body, w, h, rgb) = view(&client, "chart").await.unwrap_or_else(|e| panic!("a picture: {e}"));
    eprintln!("{body}");
    assert_eq!(body["result"], json!({"windowId": "chart", "version": chart["version"], "width": w, "height": h}));
    // The central panel of a 640 × 420 window, right of a 120-wide side panel.
    assert!((480..=520).contains(&w) && (380..=420).contains(&h), "{w}×{h}");
    let pixel = |i: usize| [rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]];
    let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 8);
    let magenta = (0..w * h).filter(|i| near(pixel(*i), [255, 0, 255])).count();
    assert_eq!(magenta, 0, "nothing of the hidden panels' paint is left");
    let regions = grey_regions(w, h, &rgb);
    assert_eq!(regions.len(), 2, "the notes panel and the password edit: {regions:?}");
    assert!(regions.iter().all(|(_, flat)| *flat), "each one flat rectangle: {regions:?}");
    let notes = regions.iter().map(|r| r.0).find(|b| b[0] > w / 2).expect("the notes panel, on the right");
    assert!(notes[2] - notes[0] >= 90 && notes[3] - notes[1] >= h - 30, "all of the notes panel: {notes:?}");
    let edit = regions.iter().map(|r| r.0).find(|b| b[0] < w / 2).expect("the password edit, on the left");
    assert!(edit[2] - edit[0] >= 40 && (10..=40).contains(&(edit[3] - edit[1])), "an edit's size: {edit:?}");
    // The rest is the chart as painted: its bars, and many colours in all.
    for bar in BARS {
        assert!((0..w * h).any(|i| near(pixel(i), bar)), "the bar {bar:?} is in the picture");
    }
    let colours: std::collections::HashSet<[u8; 3]> = (0..w * h).map(pixel).filter(|p| *p != GREY).collect();
    assert!(colours.len() > 20, "not one flat colour: {} colours", colours.len());

    // Minimised: refused, saying so; restored: pictured again.
    let found = std::process::Command::new("xdotool")
        .args(["search", "--sync", "--name", "^view-window-app$"])
        .env("DISPLAY", &x.display)
        .output()
        .expect("run xdotool");
    let window = String::from_utf8_lossy(&found.stdout).lines().next().expect("the app's X window").to_owned();
    let xprop = |args: &[&str]| {
        let status =
            std::process::Command::new("xprop").args(["-id", &window]).args(args).env("DISPLAY", &x.display).status();
        assert!(status.expect("run xprop").success());
    };
    xprop(&["-f", "_NET_WM_STATE", "32a", "-set", "_NET_WM_STATE", "_NET_WM_STATE_HIDDEN"]);
    let refused = view(&client, "chart").await.expect_err("no picture of a minimised window");
    assert_eq!(refused["code"], "action_not_available", "{refused}");
    assert!(refused["message"].as_str().is_some_and(|m| m.contains("minimised")), "{refused}");
    xprop(&["-remove", "_NET_WM_STATE"]);
    let (_, w2, h2, _) = view(&client, "chart").await.unwrap_or_else(|e| panic!("restored: {e}"));
    assert_eq!((w2, h2), (w, h));
    drop(client);
    app.kill().await.expect("stop the app");
    tokio::time::timeout(WAIT, forward).await.expect("its last lines read").expect("forwarded");
    let longest = longest.load(Ordering::Relaxed);
    assert!(longest < 1_000, "no log line carries the image: one of {longest} bytes");
}
