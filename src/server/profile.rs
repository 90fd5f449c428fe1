//! Client profiles: what a connection's client can do, so the bridge can meet it where it is.
//!
//! The protocol assumes a client whose model reads `app://windows` on its own and whose tool
//! list follows `tools/list_changed` mid-task. Most clients people run do neither. A profile
//! records what one client does; the server picks one per connection from `clientInfo.name`
//! (case-insensitive) at `initialize`. Unknown clients get [`ClientProfile::BASELINE`], the
//! spec's behaviour. Accommodations only ever add to the baseline:
//!
//! - every connection gets the read-only `app__read_windows` (the resource as a tool);
//! - a connection whose client cannot refresh its tool list mid-task also gets the dispatcher
//!   `app__call`, the callable tools inside `app__read_windows`, and instructions that say so.
//!
//! The table's facts and their sources are in the project's notes on client behaviour
//! (`notes/mcp-client-behaviour.md`); re-check a client's current release before relying on a
//! row, and override a row with [`crate::BridgeBuilder::client_profile`].

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

/// What one MCP client can do, as far as the bridge needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientProfile {
    /// A short name for logs, such as `claude-code`.
    pub label: &'static str,
    /// Its model can read a resource on its own (not only a person attaching it).
    pub reads_resources: bool,
    /// It re-fetches `tools/list` on `tools/list_changed` within the running task, so tools
    /// that appear mid-task (a dialog's) reach the model.
    pub refreshes_tools: bool,
    /// Which part of a result its model sees.
    pub sees: ResultView,
    /// How many bytes of the instructions it keeps (`None`: all, as far as is known). The
    /// bridge keeps every profile's instructions within [`super::INSTRUCTIONS_MAX_BYTES`].
    pub instructions_kept: Option<usize>,
}

impl ClientProfile {
    /// The spec's client: reads resources, refreshes its tool list, sees both parts.
    pub const BASELINE: Self = Self {
        label: "baseline",
        reads_resources: true,
        refreshes_tools: true,
        sees: ResultView::Both,
        instructions_kept: None,
    };

    /// A profile that needs every accommodation (what `--compat on` gives every connection).
    pub const FROZEN: Self = Self {
        label: "frozen-list",
        reads_resources: false,
        refreshes_tools: false,
        sees: ResultView::Both,
        instructions_kept: None,
    };

    const fn new(label: &'static str, reads: bool, refreshes: bool, sees: ResultView, kept: Option<usize>) -> Self {
        Self { label, reads_resources: reads, refreshes_tools: refreshes, sees, instructions_kept: kept }
    }

    /// The profile of a client that sends this `clientInfo.name` (case-insensitive), if known.
    pub fn known(client_name: &str) -> Option<Self> {
        let name = client_name.trim();
        KNOWN.iter().find(|(names, _)| names.iter().any(|n| n.eq_ignore_ascii_case(name))).map(|(_, p)| *p)
    }
}

use ResultView::{Both, Structured, StructuredThenTextOnError, Text};

/// Known clients by the `clientInfo.name` values they send. "Cannot refresh" includes clients
/// that refresh only at the next user message or reply (VS Code, goose) or only when idle
/// (Cline): a dialog opened mid-task is out of their reach. Clients whose behaviour no source
/// settles (Cursor, Zed, Windsurf) get the accommodations: they cost such a client one tool.
#[rustfmt::skip]
const KNOWN: &[(&[&str], ClientProfile)] = &[
    (&["claude-ai"], ClientProfile::new("claude-desktop", false, false, Text, None)),
    (&["claude-code"], ClientProfile::new("claude-code", true, true, StructuredThenTextOnError, Some(2048))),
    (&["codex-mcp-client", "codex"], ClientProfile::new("codex", true, false, Structured, Some(512))),
    (&["chatgpt"], ClientProfile::new("chatgpt", false, false, Structured, None)),
    (&["visual studio code", "visual-studio-code"], ClientProfile::new("vscode", false, false, Both, None)),
    (&["cursor-vscode"], ClientProfile::new("cursor", false, false, Both, None)),
    (&["gemini-cli-mcp-client"], ClientProfile::new("gemini-cli", true, true, Text, None)),
    (&["goose"], ClientProfile::new("goose", true, false, Both, None)),
    (&["cline"], ClientProfile::new("cline", false, false, Both, None)),
    (&["continue-cli-client"], ClientProfile::new("continue", false, false, Text, None)),
    (&["zed"], ClientProfile::new("zed", false, false, Both, None)),
    (&["windsurf-client", "windsurf"], ClientProfile::new("windsurf", false, false, Both, None)),
];

/// How the bridge accommodates clients (the demo's `--compat`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compat {
    /// By the client's profile (the default).
    #[default]
    Auto,
    /// Every connection gets `app__call` and the tool list inside `app__read_windows`.
    On,
    /// No connection gets either (`app__read_windows` stays, without `tools`).
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
}

impl ClientPolicy {
    /// The profile for a client that sent this name (`None`: it sent none).
    pub fn profile_for(&self, client_name: Option<&str>) -> ClientProfile {
        if let Some(p) = self.all {
            return p;
        }
        let Some(name) = client_name else { return ClientProfile::BASELINE };
        self.overrides
            .iter()
            .find(|(n, _)| n.trim().eq_ignore_ascii_case(name.trim()))
            .map(|(_, p)| *p)
            .or_else(|| ClientProfile::known(name))
            .unwrap_or(ClientProfile::BASELINE)
    }

    /// Whether a connection with this profile gets the dispatcher and the tool list in state.
    pub fn frozen_accommodations(&self, profile: &ClientProfile) -> bool {
        match self.compat {
            Compat::On => true,
            Compat::Off => false,
            Compat::Auto => !profile.refreshes_tools,
        }
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
        assert!(!p.frozen_accommodations(&ClientProfile::BASELINE));
        assert!(p.frozen_accommodations(&p.profile_for(Some("claude-ai"))));
    }

    #[test]
    fn the_app_overrides_per_name_or_for_all_and_compat_overrides_the_profile() {
        let mut p = ClientPolicy { overrides: vec![("mcp".into(), ClientProfile::FROZEN)], ..ClientPolicy::default() };
        assert_eq!(p.profile_for(Some("MCP")), ClientProfile::FROZEN);
        p.all = Some(ClientProfile::BASELINE);
        assert_eq!(p.profile_for(Some("claude-ai")), ClientProfile::BASELINE);
        p.compat = Compat::On;
        assert!(p.frozen_accommodations(&ClientProfile::BASELINE));
        p.compat = Compat::Off;
        assert!(!p.frozen_accommodations(&ClientProfile::FROZEN));
        assert_eq!("on".parse::<Compat>(), Ok(Compat::On));
        assert!("maybe".parse::<Compat>().is_err());
    }
}
