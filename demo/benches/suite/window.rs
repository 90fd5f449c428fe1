//! The demo's `edit_field` in a real window: eframe (glow) on a private Xvfb with Mesa's
//! llvmpipe, served over HTTP in the same process, so that the bench reads egui's own frame
//! and pass counters around each call. The suite runs this part in a child process of itself
//! (eframe wants the main thread, and `DISPLAY` is set for it only).

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use egui::ViewportId;
use egui_mcp_bridge::{Bridge, serve::HttpOptions};
use order_demo::OrderApp;
use serde_json::json;

use crate::calls::http_call;
use crate::http_client::session;
use crate::{ms, percentile};

/// Set in the child's environment.
const CHILD: &str = "EGUI_MCP_BRIDGE_SUITE_WINDOW";
/// Calls measured.
const CALLS: u32 = 200;

pub fn is_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

pub fn run() {
    println!("## In a window: the demo's `edit_field` under Xvfb (llvmpipe), over HTTP, {CALLS} calls\n");
    let xvfb = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1600x900x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut xvfb) = xvfb else {
        println!("skipped: Xvfb is not installed (Debian: apt-get install xvfb libgl1-mesa-dri)\n");
        return;
    };
    let mut line = String::new();
    let _ = BufReader::new(xvfb.stdout.take().unwrap()).read_line(&mut line);
    let display = format!(":{}", line.trim());
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .env("DISPLAY", &display)
        .env_remove("WAYLAND_DISPLAY")
        .env("RUST_LOG", "warn")
        .stderr(Stdio::inherit())
        .output();
    let _ = xvfb.kill();
    let _ = xvfb.wait();
    match out {
        Ok(o) if o.status.success() => print!("{}", String::from_utf8_lossy(&o.stdout)),
        Ok(o) => {
            let out = String::from_utf8_lossy(&o.stdout);
            println!("failed: the windowed run exited with {} ({out})\n", o.status);
        }
        Err(e) => println!("failed: {e}\n"),
    }
}

/// In the child: the demo in a window, and a client thread that measures and then closes it.
pub fn child() {
    let bridge = Bridge::builder().app_name("order-demo").build();
    let http =
        bridge.serve_http(SocketAddr::from(([127, 0, 0, 1], 0)), HttpOptions::default().without_token()).unwrap();
    let addr = http.local_addr();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_title("Order demo · bench").with_inner_size([1280.0, 820.0]),
        ..Default::default()
    };
    let result = eframe::run_native(
        "order-demo-bench",
        options,
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            let ctx = cc.egui_ctx.clone();
            std::thread::Builder::new().name("bench-window-client".into()).spawn(move || measure(&ctx, addr)).unwrap();
            Ok(Box::new(Windowed(OrderApp::new(bridge))))
        }),
    );
    drop(http);
    if let Err(e) = result {
        println!("failed: eframe: {e}\n");
    }
}

struct Windowed(OrderApp);

impl eframe::App for Windowed {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.0.ui(ui);
    }
}

fn measure(ctx: &egui::Context, addr: SocketAddr) {
    let counters = || (ctx.cumulative_frame_nr_for(ViewportId::ROOT), ctx.cumulative_pass_nr_for(ViewportId::ROOT));
    let (mut stream, sid) = session(addr);
    let opened = http_call(&mut stream, addr, &sid, "app__new_order", &json!({}));
    let tool = format!("{}__edit_field", opened["openedWindowIds"][0].as_str().unwrap());
    let edit = |k: u32| json!({"field": "recipient", "value": format!("Ada {k}")});
    for k in 0..20 {
        http_call(&mut stream, addr, &sid, &tool, &edit(k));
    }
    // Let the window go idle (the agent's highlight fades), then count.
    std::thread::sleep(Duration::from_secs(2));
    let (mut times, mut frames, mut passes) = (Vec::new(), Vec::new(), Vec::new());
    let (idle_f0, _) = counters();
    std::thread::sleep(Duration::from_secs(1));
    let idle = counters().0 - idle_f0;
    for k in 0..CALLS {
        let (f0, p0) = counters();
        let start = Instant::now();
        http_call(&mut stream, addr, &sid, &tool, &edit(k));
        times.push(start.elapsed());
        let (f1, p1) = counters();
        frames.push(f1 - f0);
        passes.push(p1 - p0);
    }
    times.sort_unstable();
    frames.sort_unstable();
    let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len() as f64;
    println!("| frames per call (mean / p50 / max) | passes per call (mean) | p50 | p90 | p99 | max |");
    println!("| --- | --- | --- | --- | --- | --- |");
    println!(
        "| {:.3} / {} / {} | {:.3} | {} | {} | {} | {} |",
        mean(&frames),
        frames[frames.len() / 2],
        frames[frames.len() - 1],
        mean(&passes),
        ms(percentile(&times, 50)),
        ms(percentile(&times, 90)),
        ms(percentile(&times, 99)),
        ms(percentile(&times, 100)),
    );
    println!(
        "\nframes counted from just before the request to just after its answer (egui's own counters); frames painted in one idle second before: {idle}\n"
    );
    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    ctx.request_repaint();
}
