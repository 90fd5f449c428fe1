//! The demo with `--native-windows` on a real X server (Xvfb, Mesa's software OpenGL), every
//! window and dialog an OS window of its own, driven over stdio by the official Python MCP SDK
//! with `xdotool` as the window list and the person's keyboard
//! (`tests/interop/native_windows.py`), and `xwininfo` for the stacking order. CI installs
//! `xvfb`, `xdotool`, `x11-utils` and Mesa from Debian's packages; without them the test fails
//! and says what is missing.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::{DEMO, DemoHttp, Xvfb, python};

/// Runs the scenario with these arguments (the demo binary, or `--http URL`) on display `x`.
fn run(x: &Xvfb, args: &[&str]) {
    let which = Command::new("xdotool").arg("--version").output();
    assert!(which.is_ok_and(|o| o.status.success()), "xdotool is needed (Debian: apt-get install xdotool)");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/native_windows.py");
    let out = Command::new(python())
        .arg(script)
        .args(args)
        .env("DISPLAY", &x.display)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env("EGUI_MCP_BRIDGE_DIR", support::endpoint_folder())
        .output()
        .expect("run the Python client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("PASS native_windows"),
        "native windows under Xvfb failed: {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    eprintln!("{stdout}");
}

#[test]
fn native_windows_over_stdio_run_the_order_task_with_each_dialog_in_its_own_os_window() {
    let x = Xvfb::start();
    run(&x, &[DEMO]);
}

#[test]
fn native_windows_over_http_run_the_same_task() {
    let x = Xvfb::start();
    let tmp = std::env::temp_dir();
    let env = [("DISPLAY", x.display.as_str()), ("XDG_RUNTIME_DIR", tmp.to_str().unwrap_or("/tmp"))];
    let demo = DemoHttp::spawn(&["--native-windows", "--no-approval", "--http", "127.0.0.1:0", "--no-token"], &env);
    run(&x, &["--http", &demo.url]);
}
