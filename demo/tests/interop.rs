//! The demo binary, headless, driven over stdio by a real MCP client that we did not write:
//! the official Python SDK (`mcp` 2.3.0, see `tests/interop/python_client.py`).
//!
//! The test makes its own Python environment (a venv under the target directory) on first use.
//! If it cannot, it fails and says why; it never skips.
#![allow(clippy::unwrap_used, reason = "test helpers may unwrap: a panic is a failed test")]

use std::path::{Path, PathBuf};
use std::process::Command;

use parking_lot::Mutex;

const MCP_SDK: &str = "mcp==2.3.0";

/// One venv for every test in this binary, made once.
fn python() -> PathBuf {
    static MADE: Mutex<bool> = Mutex::new(false);
    let mut made = MADE.lock();
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("interop-venv");
    let python = venv.join("bin").join("python");
    let marker = venv.join(format!(".installed-{MCP_SDK}"));
    if *made || marker.exists() {
        *made = true;
        return python;
    }
    let status = Command::new("python3").args(["-m", "venv", "--clear"]).arg(&venv).status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => panic!(
            "`python3 -m venv {}` failed ({s}); install Python 3 with venv (Debian: apt-get install python3-venv)",
            venv.display()
        ),
        Err(e) => panic!("cannot run python3 ({e}); the interop tests need Python 3.10+ on PATH"),
    }
    let out = Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", MCP_SDK])
        .output()
        .expect("run pip");
    assert!(
        out.status.success(),
        "pip could not install {MCP_SDK} into {} (is PyPI reachable?):\n{}",
        venv.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(&marker, "").expect("write the venv marker");
    *made = true;
    python
}

fn run(mode: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/python_client.py");
    let out = Command::new(python())
        .arg(script)
        .arg(mode)
        .arg(env!("CARGO_BIN_EXE_order-demo"))
        .output()
        .expect("run the Python client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "Python client ({mode}) failed: {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(stdout.contains(&format!("PASS {mode}")), "no PASS line:\n{stdout}");
}

#[test]
fn python_sdk_over_stdio_runs_the_whole_order_task() {
    run("legacy");
}

#[test]
fn python_sdk_auto_mode_lands_on_2026_07_28_and_listens() {
    run("modern");
}
