//! The demo's command line: its options, as `--help` prints them, and their parsing.

use egui_mcp_bridge::serve::Compat;

pub(crate) const USAGE: &str = "\
order-demo: a multi-window order editor that MCP agents can read and operate.

USAGE: order-demo [--stdio [--new-instance | --instance PID]] [--http ADDR]
                  [--token-file PATH | --no-token | --rotate-token] [--headless]
                  [--native-windows] [--no-approval] [--compat auto|on|off] [--record FILE]

  --stdio          serve MCP over stdin/stdout; if an order-demo already runs for you, attach
                   to the newest (named on stderr) instead of opening a second one
  --new-instance   with --stdio: a copy of its own, even if one runs
  --instance PID   with --stdio: attach to this one (or EGUI_MCP_BRIDGE_INSTANCE=PID)
  --http ADDR      serve streamable HTTP at http://ADDR/mcp (port 0: any free port)
  --token-file P   the HTTP bearer token is the first line of P (or ORDER_DEMO_TOKEN)
  --no-token       HTTP on loopback without a token (any local process can call the app);
                   by default a token is kept in a file only you can read, named on stderr
  --rotate-token   a new token in that file before serving
  --headless       no window (the default without a display); with --stdio, a copy for
                   that one agent, which never attaches and (without --http) takes nobody in
  --native-windows every window and dialog in an OS window of its own
  --no-approval    an agent's payment is applied without asking the person first
  --compat MODE    auto (default), on or off: how clients are met (docs/demo.md)
  --record FILE    write every agent's call and its answer to FILE (JSON lines, secrets left
                   out), to replay in a test (egui_mcp_bridge::testing::Harness::replay);
                   with --stdio, a copy of its own (it never attaches)
  -h, --help       this help

Without --stdio or --http: stdio when stdin is a pipe (an MCP client started it), else HTTP
on 127.0.0.1:8765 (or a free port). While it serves, the demo also listens on a socket only
you can open (what --stdio attaches to); a window started by a client stays when it quits.
stdout carries MCP only; logs go to stderr. Payment password and session PIN: 1234.
Every flag in full: docs/demo.md.";

/// The default HTTP address when the demo is started from a terminal.
pub(crate) const DEFAULT_HTTP: std::net::SocketAddr =
    std::net::SocketAddr::V4(std::net::SocketAddrV4::new(std::net::Ipv4Addr::LOCALHOST, 8765));

#[derive(Debug, Default)]
pub(crate) struct Options {
    pub(crate) stdio: bool,
    pub(crate) http: Option<std::net::SocketAddr>,
    pub(crate) token: Option<String>,
    pub(crate) no_token: bool,
    pub(crate) rotate_token: bool,
    pub(crate) headless: bool,
    pub(crate) native_windows: bool,
    pub(crate) no_approval: bool,
    pub(crate) compat: Compat,
    pub(crate) new_instance: bool,
    pub(crate) instance: Option<u32>,
    pub(crate) record: Option<std::path::PathBuf>,
}

pub(crate) fn parse_args() -> Result<Options, String> {
    let mut o =
        Options { token: std::env::var("ORDER_DEMO_TOKEN").ok().filter(|t| !t.is_empty()), ..Options::default() };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--stdio" => o.stdio = true,
            "--headless" => o.headless = true,
            "--native-windows" => o.native_windows = true,
            "--no-approval" => o.no_approval = true,
            "--new-instance" => o.new_instance = true,
            "--instance" => {
                let pid = args.next().ok_or("--instance needs a process id")?;
                o.instance = Some(pid.parse().map_err(|_| format!("--instance {pid:?}: not a process id"))?);
            }
            "--http" => {
                let addr = args.next().ok_or("--http needs an address such as 127.0.0.1:0")?;
                o.http = Some(
                    addr.parse()
                        .map_err(|e| format!("--http {addr:?}: {e} (expected IP:PORT, such as 127.0.0.1:0)"))?,
                );
            }
            "--token" => {
                o.token = Some(args.next().ok_or("--token needs a value")?);
                eprintln!(
                    "order-demo: --token is visible in the process list; prefer --token-file or ORDER_DEMO_TOKEN"
                );
            }
            "--token-file" => {
                let path = args.next().ok_or("--token-file needs a path")?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("--token-file {path:?}: {e}"))?;
                let token = text.lines().next().unwrap_or_default().trim().to_owned();
                if token.is_empty() {
                    return Err(format!("--token-file {path:?}: the first line is empty"));
                }
                o.token = Some(token);
            }
            "--record" => o.record = Some(args.next().ok_or("--record needs a file's path")?.into()),
            "--no-token" => o.no_token = true,
            "--rotate-token" => o.rotate_token = true,
            "--compat" => o.compat = args.next().ok_or("--compat needs auto, on or off")?.parse()?,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if o.no_token && o.token.is_some() {
        return Err("--no-token and a token (--token-file, --token, ORDER_DEMO_TOKEN) exclude each other".into());
    }
    if o.new_instance && o.instance.is_some() {
        return Err("--new-instance and --instance exclude each other".into());
    }
    if o.rotate_token && (o.no_token || o.token.is_some()) {
        return Err("--rotate-token renews the kept token: not with --no-token or a token of your own".into());
    }
    Ok(o)
}
