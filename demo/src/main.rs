//! `order-demo`: the order-editor demo, in a window or headless, serving MCP.
//!
//! stdout carries MCP (JSON-RPC) only; every log line goes to stderr.

use std::io::{ErrorKind, IsTerminal as _};
use std::process::ExitCode;
use std::sync::Arc;

use egui_mcp_bridge::{
    Bridge,
    passes::{CallsWhileHidden, headless},
    serve::{self, HttpHandle, HttpOptions, ServeHandle},
};
use order_demo::OrderApp;

mod cli;

use cli::{DEFAULT_HTTP, Options, USAGE, parse_args};

/// Serves HTTP (on any free port if `fallback` and `addr` is busy) and prints how to connect.
fn start_http(bridge: &Bridge, addr: std::net::SocketAddr, fallback: bool, o: &Options) -> std::io::Result<HttpHandle> {
    // Without a token and without the opt-out, the bridge keeps one in a file only the user can
    // read, the same across runs (a client configured once keeps working), renewed on request.
    let token = o.token.as_ref();
    let mut options = HttpOptions { token: token.cloned(), no_token: o.no_token, ..HttpOptions::default() };
    if token.is_none()
        && !o.no_token
        && let Some(store) = serve::user_token_path("order-demo")
    {
        if o.rotate_token {
            serve::rotate_token(&store)?;
            eprintln!("A new HTTP token: clients configured with the old one need the new one.");
            // The store cannot tell whether another instance serves from it; say what happens if so.
            eprintln!("  An order-demo already running keeps serving the old token until it restarts: restart it too.");
        }
        options = options.with_token_store(store);
    }
    let handle = match bridge.serve_http(addr, options.clone()) {
        Err(e) if fallback && e.kind() == std::io::ErrorKind::AddrInUse => {
            bridge.serve_http(std::net::SocketAddr::new(addr.ip(), 0), options)?
        }
        other => other?,
    };
    let url = handle.url();
    eprintln!("MCP over streamable HTTP: {url}");
    // How to connect (docs/demo.md). The token itself is never printed: a person at a terminal
    // sees where it is, the file or the variable that holds it.
    let (header_flag, headers) = match (handle.token_file(), token) {
        (Some(file), _) => {
            let path = file.display();
            eprintln!(
                "  Token file:    {path} (send its first line as Authorization: Bearer <token>; kept across runs, --rotate-token for a new one)"
            );
            (
                format!(" --header \"Authorization: Bearer $(cat {path})\""),
                format!(r#","headers":{{"Authorization":"Bearer <the token in {path}>"}}"#),
            )
        }
        (None, Some(_)) => (
            " --header \"Authorization: Bearer $ORDER_DEMO_TOKEN\"".to_owned(),
            r#","headers":{"Authorization":"Bearer <your token>"}"#.to_owned(),
        ),
        (None, None) => {
            eprintln!("  No token (--no-token): any process on this machine can call the app.");
            (String::new(), String::new())
        }
    };
    eprintln!(
        "  Claude Code:   claude mcp add --transport http order-demo {url}{header_flag}\n  Client config: {{\"mcpServers\":{{\"order-demo\":{{\"type\":\"http\",\"url\":\"{url}\"{headers}}}}}}}"
    );
    Ok(handle)
}

/// Logs go to stderr (stdout is MCP's). Whatever `RUST_LOG` says, rmcp's own logging below
/// errors is dropped ([`egui_mcp_bridge::log_filter`]): it logs whole requests, arguments
/// included, so no password or card number an agent sends reaches a log line.
fn init_logging() {
    use tracing_subscriber::prelude::*;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_ansi(false))
        .with(filter)
        .with(tracing_subscriber::filter::filter_fn(egui_mcp_bridge::log_filter))
        .init();
}

fn has_display() -> bool {
    !cfg!(target_os = "linux") || std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
}

fn main() -> ExitCode {
    init_logging();
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            eprintln!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("order-demo: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };

    // (stdio?, HTTP address and whether another port may stand in for a busy default)
    let (stdio, http) = match (options.stdio, options.http) {
        (false, None) if std::io::stdin().is_terminal() => (false, Some((DEFAULT_HTTP, true))),
        (false, None) => (true, None),
        (stdio, http) => (stdio, http.map(|a| (a, false))),
    };
    // `--headless --stdio`: a copy for that agent (shared with nobody unless HTTP serves too).
    // `--record`: the calls must reach this process to be recorded, so it never attaches.
    if stdio && !options.new_instance && !options.headless && options.record.is_none() {
        let attach = serve::Attach::new("order-demo").instance(options.instance);
        let named = attach.names_instance();
        match attach.stdio() {
            Ok(attached) if attached.relayed() => return ExitCode::SUCCESS,
            Ok(_) => {}
            // An instance was named (`--instance` or `EGUI_MCP_BRIDGE_INSTANCE`) that does not
            // run, or the running one turned the client away or closed without answering: the
            // client was not served, and a copy started now would not be the one it asked for.
            Err(e) if named || matches!(e.kind(), ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted) => {
                eprintln!("order-demo: {e}");
                return ExitCode::from(2);
            }
            Err(e) => tracing::warn!(error = %e, "could not look for a running order-demo; starting one"),
        }
    }

    let headless_mode = options.headless || !has_display();
    let mut builder = Bridge::builder();
    if let Some(path) = &options.record {
        builder = match builder.record(path) {
            Ok(recording) => recording,
            Err(e) => {
                tracing::error!(error = %e, path = %path.display(), "--record: cannot write the recording");
                return ExitCode::FAILURE;
            }
        };
    }
    let bridge = builder
        // The person approves an agent's payment at the window, when there is a person.
        .approvals(!options.no_approval && !headless_mode)
        .app_name("order-demo")
        .app_version(env!("CARGO_PKG_VERSION"))
        .instructions("An order editor. Orders holds 20,000 orders (load_orders pages them); open_order opens one in an editor; its submit opens Confirm order, then Authorize payment (password 1234). app__lock locks the app (PIN 1234).")
        .compat(options.compat)
        .local_endpoint(!(options.headless && stdio && http.is_none()))
        // The person may move any window into an OS window of its own and back.
        .own_window_buttons(true)
        .build();

    // Serving stops when a handle is dropped: they live until `main` returns.
    let http = match http.map(|(addr, fallback)| (addr, start_http(&bridge, addr, fallback, &options))) {
        None => None,
        Some((_, Ok(handle))) => Some(handle),
        Some((addr, Err(e))) => {
            tracing::error!(error = %e, %addr, "could not serve MCP over HTTP");
            return ExitCode::FAILURE;
        }
    };
    let transport = match stdio.then(|| bridge.serve_stdio()).transpose() {
        Ok(transport) => transport.map(Arc::new),
        Err(e) => {
            tracing::error!(error = %e, "could not start the MCP server");
            return ExitCode::FAILURE;
        }
    };
    // What the person sees in the menu bar: how agents reach this app.
    let mut endpoints: Vec<String> = http.iter().map(HttpHandle::url).collect();
    endpoints.extend(stdio.then(|| "stdio".to_owned()));
    // What `order-demo --stdio` attaches to (the socket's path is in the log).
    endpoints.extend(bridge.local_endpoint().map(|_| "local (--stdio attaches)".to_owned()));

    if !options.headless && headless_mode {
        tracing::info!("no display found (DISPLAY/WAYLAND_DISPLAY unset): running headless");
    }
    if headless_mode {
        run_headless(bridge, transport.as_deref());
        return ExitCode::SUCCESS;
    }
    if let Err(e) = run_window(bridge.clone(), transport.clone(), endpoints, options.native_windows) {
        // No usable display after all (for example no OpenGL): the agent can still work.
        tracing::warn!(error = %e, "the window could not be opened; running headless instead");
        bridge.set_approvals(false); // nobody to ask
        run_headless(bridge, transport.as_deref());
        return ExitCode::SUCCESS;
    }
    flush_recording(&bridge);
    ExitCode::SUCCESS
}

/// With `--record`: the last calls' lines are on disk before the process ends.
fn flush_recording(bridge: &Bridge) {
    if !bridge.flush_recording(std::time::Duration::from_secs(2)) {
        tracing::warn!("the recording's last lines may be missing: its writer did not finish in time");
    }
}

/// With the `inspection` feature and `EGUI_INSPECTION=1`: egui's AccessKit inspection server on
/// the headless context (eframe attaches it to a window's by itself), for Rerun's `egui_mcp`.
fn attach_inspection(ctx: &egui::Context) {
    #[cfg(feature = "inspection")]
    match egui_inspection::attach_from_env(ctx, Some("order-demo".into())) {
        Ok(true) => tracing::info!("egui_inspection attached (EGUI_INSPECTION)"),
        Ok(false) => {}
        Err(e) => tracing::warn!(error = %e, "egui_inspection could not listen"),
    }
    #[cfg(not(feature = "inspection"))]
    let _ = ctx;
}

/// Runs the app without a window until the stdio client goes away (or forever without one).
fn run_headless(bridge: Bridge, transport: Option<&ServeHandle>) {
    tracing::info!("running headless");
    let ctx = egui::Context::default();
    ctx.add_plugin(bridge.plugin());
    attach_inspection(&ctx);
    let mut app = OrderApp::new(bridge);
    headless::run(
        &ctx,
        headless::HeadlessOptions::default(),
        |ui| app.ui(ui),
        || transport.is_none_or(|t| !t.is_closed()),
    );
    tracing::info!("MCP client disconnected; exiting");
    flush_recording(app.bridge());
}

struct DemoApp {
    app: OrderApp,
    /// The stdio client that started the demo, until it leaves (the window stays: it is the
    /// person's now).
    transport: Option<Arc<ServeHandle>>,
    /// Serves agent calls from `logic` while the window is minimised (no ui pass runs then).
    hidden: CallsWhileHidden,
    /// Where agents reach the app, as the menu bar says it ("stdio" goes with its client).
    endpoints: Vec<String>,
}

impl eframe::App for DemoApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        let app = &mut self.app;
        self.hidden.serve(ctx, |ui| app.ui(ui));
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.app.ui(ui);
        if self.transport.as_ref().is_some_and(|t| t.is_closed()) {
            // Quitting the agent's client never closes the person's window (nor their work).
            tracing::info!("the MCP client that started the demo left; the window stays open");
            self.transport = None;
            self.endpoints.retain(|e| e != "stdio");
            self.app.set_endpoints(self.endpoints.join(" · "));
        }
    }
}

fn run_window(
    bridge: Bridge,
    transport: Option<Arc<ServeHandle>>,
    endpoints: Vec<String>,
    native_windows: bool,
) -> eframe::Result {
    // With every window in an OS window of its own, the main one keeps the menu, the activity
    // panel and the hint, and the others open to its right.
    let size = if native_windows { [300.0, 820.0] } else { [1280.0, 820.0] };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_title("Order demo · egui_mcp_bridge").with_inner_size(size),
        ..Default::default()
    };
    eframe::run_native(
        "order-demo",
        options,
        Box::new(move |cc| {
            cc.egui_ctx.add_plugin(bridge.plugin());
            let hidden = bridge.calls_while_hidden();
            let mut app = OrderApp::new(bridge);
            app.set_endpoints(endpoints.join(" · "));
            app.set_native_windows(native_windows);
            if native_windows && cc.egui_ctx.embed_viewports() {
                // Loudly, not silently: this backend cannot open more OS windows.
                tracing::warn!("--native-windows: this platform embeds viewports; windows stay inside the main one");
            }
            Ok(Box::new(DemoApp { app, transport, hidden, endpoints }))
        }),
    )
}
