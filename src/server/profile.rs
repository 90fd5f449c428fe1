//! Client profiles: what differs per client in how its model sees the bridge.
//!
//! The protocol assumes a client whose model reads `app://windows` on its own and whose tool
//! list follows `tools/list_changed` mid-task. Run against the real client programs, "follows
//! the list" proved a race (new tools reach the model a request late, or after an asynchronous
//! refresh, or never), so nothing depends on it any more: every connection gets the bridge's
//! own tools (`app__read_windows`, the dispatchers, `newTools` and `newToolSpecs` in results),
//! whatever the client's name or lifecycle, unless the app chose [`Compat::Off`]. A profile
//! keeps only what really differs per client:
//!
//! - which part of a result its model sees ([`ResultView`]), so the text block carries the
//!   JSON where the model sees only text and just the message where it sees
//!   `structuredContent`;
//! - whether its model can read resources itself, which only changes how the instructions say
//!   to read the state.
//!
//! Never the tool list: `tools/list` is the same for every connection (MCP 2026-07-28 says it
//! must not vary per connection), `_meta` marks for Claude Code's tool search included.
//!
//! The server picks one per connection from `clientInfo.name` (case-insensitive), sent at
//! `initialize` or, on the 2026-07-28 lifecycle, in each request's `_meta`. Unknown clients get
//! [`ClientProfile::BASELINE`]. The table records what each client program was seen to do
//! (2026-12-01, versions in docs/clients.md); override a row with
//! [`crate::BridgeBuilder::client_profile`].

/// Which part of a tool result a client shows its model. Every result carries
/// `structuredContent`; the one text block is the same JSON (one line) for errors and for
/// clients that may show only the text (`Both`, `Text`), and just the `message` on success
/// for clients that show `structuredContent` (`Structured`, `StructuredThenTextOnError`), as
/// §12.3 has it: their models never see the text, so a second copy would only cost bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultView {
    /// Both, or not known: the safe assumption.
    Both,
    /// Only `structuredContent` (Codex, `ChatGPT`).
    Structured,
    /// Only the text content (Gemini CLI, Continue, claude.ai).
    Text,
    /// `structuredContent` on success, only the text on errors (Claude Code).
    StructuredThenTextOnError,
}

/// What differs per MCP client, as far as the bridge needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientProfile {
    /// A short name for logs, such as `claude-code`.
    pub label: &'static str,
    /// Its model can read a resource on its own (not only a person attaching it).
    pub reads_resources: bool,
    /// Which part of a result its model sees.
    pub sees: ResultView,
}

/// The most app tools marked `_meta["anthropic/alwaysLoad"]: true` in `tools/list`. Claude
/// Code shows its model a search over MCP tools rather than the tools, unless a tool says so;
/// the bridge's own tools (the state and the dispatchers, which reach every tool) always say
/// so, the app's while they are at most this many; beyond, they are found by their
/// `_meta["anthropic/searchHint"]` words. The list is the same for every connection (MCP
/// 2026-07-28: `tools/list` must not vary per connection); other clients ignore these keys.
pub const ALWAYS_LOAD_TOOLS: usize = 40;

impl ClientProfile {
    /// A client of unknown name: it may read resources, and it may see either part of a
    /// result, so the text block carries the whole JSON.
    pub const BASELINE: Self = Self { label: "baseline", reads_resources: true, sees: ResultView::Both };

    const fn new(label: &'static str, reads: bool, sees: ResultView) -> Self {
        Self { label, reads_resources: reads, sees }
    }

    /// The profile of a client that sends this `clientInfo.name` (case-insensitive), if known.
    pub fn known(client_name: &str) -> Option<Self> {
        let name = client_name.trim();
        KNOWN.iter().find(|(names, _)| names.iter().any(|n| n.eq_ignore_ascii_case(name))).map(|(_, p)| *p)
    }
}

use ResultView::{Both, Structured, StructuredThenTextOnError, Text};

/// Known clients by the `clientInfo.name` values they send. The first seven rows were observed
/// with the real programs (what their models are shown); the rest come from their docs.
#[rustfmt::skip]
const KNOWN: &[(&[&str], ClientProfile)] = &[
    (&["claude-code"], ClientProfile::new("claude-code", true, StructuredThenTextOnError)),
    (&["codex-mcp-client", "codex"], ClientProfile::new("codex", true, Structured)),
    (&["gemini-cli-mcp-client"], ClientProfile::new("gemini-cli", true, Text)),
    (&["copilot-cli"], ClientProfile::new("copilot-cli", false, Text)),
    (&["opencode"], ClientProfile::new("opencode", false, Text)),
    (&["continue-cli-client"], ClientProfile::new("continue", false, Text)),
    (&["fast-agent-mcp"], ClientProfile::new("fast-agent", false, Both)),
    (&["claude-ai"], ClientProfile::new("claude-desktop", false, Text)),
    (&["chatgpt"], ClientProfile::new("chatgpt", false, Structured)),
    (&["visual studio code", "visual-studio-code"], ClientProfile::new("vscode", false, Both)),
    (&["cursor-vscode"], ClientProfile::new("cursor", false, Both)),
    (&["goose"], ClientProfile::new("goose", true, Both)),
    (&["cline"], ClientProfile::new("cline", false, Both)),
    (&["zed"], ClientProfile::new("zed", false, Both)),
    (&["windsurf-client", "windsurf"], ClientProfile::new("windsurf", false, Both)),
];

/// How the bridge accommodates clients (the demo's `--compat`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compat {
    /// Every connection gets the bridge's own tools; results and instructions are shaped by
    /// the client's profile (the default).
    #[default]
    Auto,
    /// The same tools, and every connection shaped as a client of unknown name.
    On,
    /// The spec's bare floor: no dispatcher, no tool list in `app__read_windows`, no
    /// `newToolSpecs` (`app__read_windows` stays).
    Off,
}

impl std::str::FromStr for Compat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Self::Auto),
            "on" => Ok(Self::On),
            "off" => Ok(Self::Off),
            other => Err(format!("{other:?} is not a compat mode (auto, on or off)")),
        }
    }
}

/// How the server chooses and applies profiles; set through [`crate::BridgeBuilder`].
#[derive(Clone, Debug, Default)]
pub struct ClientPolicy {
    /// Auto, on or off.
    pub compat: Compat,
    /// Profiles the app sets for client names (matched case-insensitively, before the table).
    pub overrides: Vec<(String, ClientProfile)>,
    /// When set, every connection gets this profile (before names are looked at).
    pub all: Option<ClientProfile>,
    /// Turns the `app__read_windows` tool off (on by default).
    pub no_read_windows: bool,
    /// Turns the `app__view_window` tool off (on by default).
    pub no_view_window: bool,
}

impl ClientPolicy {
    /// The profile for a client that sent this name (`None`: it sent none).
    pub fn profile_for(&self, client_name: Option<&str>) -> ClientProfile {
        if let Some(p) = self.all {
            return p;
        }
        if self.compat == Compat::On {
            return ClientProfile::BASELINE;
        }
        let Some(name) = client_name else { return ClientProfile::BASELINE };
        self.overrides
            .iter()
            .find(|(n, _)| n.trim().eq_ignore_ascii_case(name.trim()))
            .map(|(_, p)| *p)
            .or_else(|| ClientProfile::known(name))
            .unwrap_or(ClientProfile::BASELINE)
    }

    /// Whether connections get the dispatchers, the tool list in `app__read_windows` and
    /// `newToolSpecs`: every connection does, unless the app chose [`Compat::Off`].
    pub fn accommodations(&self) -> bool {
        self.compat != Compat::Off
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_case_insensitively_and_unknown_clients_get_the_baseline() {
        let p = ClientPolicy::default();
        assert_eq!(p.profile_for(Some("Claude-Code")).label, "claude-code");
        assert_eq!(p.profile_for(Some("Visual-Studio-Code")).label, "vscode");
        assert_eq!(p.profile_for(Some("Visual Studio Code")).label, "vscode");
        assert_eq!(p.profile_for(Some("mcp")), ClientProfile::BASELINE);
        assert_eq!(p.profile_for(None), ClientProfile::BASELINE);
        assert!(p.accommodations(), "every connection gets the bridge's tools by default");
    }

    #[test]
    fn the_names_the_real_clients_send_pick_what_their_models_see() {
        let p = ClientPolicy::default();
        let sees = |name: &str| p.profile_for(Some(name)).sees;
        assert_eq!(sees("claude-code"), StructuredThenTextOnError);
        assert_eq!(sees("codex-mcp-client"), Structured);
        for text_only in ["gemini-cli-mcp-client", "copilot-cli", "opencode", "continue-cli-client"] {
            assert_eq!(sees(text_only), Text, "{text_only}");
        }
        assert_eq!(p.profile_for(Some("fast-agent-mcp")).label, "fast-agent");
    }

    #[test]
    fn the_app_overrides_per_name_or_for_all_and_compat_overrides_the_profile() {
        let ours = ClientProfile { label: "ours", reads_resources: false, sees: Structured };
        let mut p = ClientPolicy { overrides: vec![("mcp".into(), ours)], ..ClientPolicy::default() };
        assert_eq!(p.profile_for(Some("MCP")), ours);
        p.all = Some(ClientProfile::BASELINE);
        assert_eq!(p.profile_for(Some("claude-ai")), ClientProfile::BASELINE);
        p.all = None;
        p.compat = Compat::On;
        assert_eq!(p.profile_for(Some("claude-ai")), ClientProfile::BASELINE, "on: every client alike");
        assert!(p.accommodations());
        p.compat = Compat::Off;
        assert!(!p.accommodations());
        assert_eq!("on".parse::<Compat>(), Ok(Compat::On));
        assert!("maybe".parse::<Compat>().is_err());
    }
}
