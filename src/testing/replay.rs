//! [`Replay`]: a recording of agents' calls (`BridgeBuilder::record`) run again, call by call,
//! against the app in a [`Harness`], each answer compared with the recorded one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::Harness;
use crate::hub::Outcome;
use crate::protocol::recording::{
    Header, RECORDING_FORMAT, RECORDING_KIND, RecordedCall, RecordedOutcome, Stop, placeholder_name, same_answer,
};
use crate::protocol::{Window, split_tool_name, tool_name};

/// The largest recording a replay reads: four times the default size limit of a recording.
pub const MAX_REPLAY_BYTES: u64 = 4 * crate::hub::DEFAULT_MAX_RECORDING_BYTES;

/// A replay being set up: [`secret`](Self::secret) gives the values the recording left out,
/// [`run`](Self::run) runs it. Made by [`Harness::replay`].
#[must_use = "a replay does nothing until it is run"]
pub struct Replay<'h, 'a, State> {
    harness: &'h mut Harness<'a, State>,
    path: PathBuf,
    secrets: HashMap<String, Value>,
}

impl<State> std::fmt::Debug for Replay<'_, '_, State> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The secrets' names only, never their values.
        f.debug_struct("Replay").field("path", &self.path).field("secrets", &self.secrets.keys()).finish()
    }
}

/// What a replay that matched did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayReport {
    /// The calls replayed (every one the recording holds).
    pub calls: usize,
    /// The passes the harness stepped for them.
    pub passes: usize,
    /// How long the replay took.
    pub elapsed: Duration,
}

/// Why a replay did not match. Each names the recording's line (1 is its header).
#[derive(Debug)]
#[non_exhaustive]
pub enum ReplayError {
    /// The recording could not be read.
    Io {
        /// Its path.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A line is not what a recording holds: not JSON (a file cut short), another format, or
    /// the line where the recording stopped (its size limit, or a call not recorded).
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The recording left a secret out and the replay was not given it
    /// ([`Replay::secret`]).
    Secret {
        /// The line of the first call that needs it.
        line: usize,
        /// The field or parameter it is for, as the placeholder names it.
        name: String,
    },
    /// A call was not answered within the harness's passes.
    Unanswered {
        /// The call's line.
        line: usize,
        /// The tool it calls.
        tool: String,
    },
    /// A call's answer differs from the recorded one: the first such call.
    Differs(Box<Difference>),
}

/// The first call whose answer differs, with both answers and the window's state then.
#[derive(Debug)]
pub struct Difference {
    /// The call's line in the recording.
    pub line: usize,
    /// The tool called (with the replay's window id).
    pub tool: String,
    /// Its arguments as recorded (secrets as their placeholders), with the replay's
    /// `expectedVersion`.
    pub args: Map<String, Value>,
    /// The recorded answer.
    pub recorded: Outcome,
    /// The answer now.
    pub replayed: Outcome,
    /// The target window as published after the answer (none if it is gone, or an app-level
    /// tool).
    pub window: Option<Window>,
}

impl ReplayError {
    /// The recording's line the error is about (0 when the file could not be read).
    pub fn line(&self) -> usize {
        match self {
            Self::Io { .. } => 0,
            Self::Line { line, .. } | Self::Secret { line, .. } | Self::Unanswered { line, .. } => *line,
            Self::Differs(d) => d.line,
        }
    }

    /// The tool of the call the error is about, if it is about one.
    pub fn tool(&self) -> Option<&str> {
        match self {
            Self::Unanswered { tool, .. } => Some(tool),
            Self::Differs(d) => Some(&d.tool),
            _ => None,
        }
    }
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io { path, error } => write!(f, "cannot read the recording {}: {error}", path.display()),
            Self::Line { line, why } => write!(f, "line {line} of the recording: {why}"),
            Self::Secret { line, name } => write!(
                f,
                "line {line} of the recording needs the secret {name:?}, which it left out: give it with .secret({name:?}, value)"
            ),
            Self::Unanswered { line, tool } => {
                write!(f, "line {line}: {tool} was not answered within the harness's passes")
            }
            Self::Differs(d) => {
                let window = d.window.as_ref().map_or_else(|| "(none)".to_owned(), compact);
                write!(
                    f,
                    "line {}: {} answered differently\n  arguments: {}\n  recorded:  {}\n  replayed:  {}\n  window then: {window}",
                    d.line,
                    d.tool,
                    Value::Object(d.args.clone()),
                    outcome_json(&d.recorded),
                    outcome_json(&d.replayed),
                )
            }
        }
    }
}

impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A value as compact JSON, for the error's text.
fn compact<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn outcome_json(outcome: &Outcome) -> String {
    match outcome {
        Ok(r) => format!("ok {}", compact(r)),
        Err(e) => format!("error {}", compact(e)),
    }
}

/// One call of the recording, ready to send but for the versions.
struct Step {
    line: usize,
    call: RecordedCall,
}

impl<'h, 'a, State> Replay<'h, 'a, State> {
    pub(super) fn new(harness: &'h mut Harness<'a, State>, path: &Path) -> Self {
        Self { harness, path: path.to_owned(), secrets: HashMap::new() }
    }

    /// The value of the secret the recording names `name` (`{"$secret": "name"}`: the key of
    /// the masked field, or the `writeOnly` parameter, it was sent for; `name#2` is the second
    /// different value sent for it, and so on).
    pub fn secret(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        self.secrets.insert(name.into(), value.into());
        self
    }

    /// Runs the recorded calls in order, each once the one before is answered, and compares
    /// each answer with the recorded one. The whole file is read and checked first (its
    /// lines, the secrets it needs), so a bad recording fails before any call is made.
    ///
    /// # Errors
    ///
    /// The first line or call that does not match, as a [`ReplayError`].
    pub fn run(self) -> Result<ReplayReport, ReplayError> {
        let started = Instant::now();
        let steps = self.read()?;
        let Self { harness, secrets, .. } = self;
        let mut ids: HashMap<String, String> = HashMap::new();
        let mut passes = 0;
        for step in &steps {
            let (tool, window) = mapped_tool(&step.call.tool, &ids);
            let mut args = step.call.args.clone();
            fill_secrets(&mut args, &secrets);
            let shown_args = {
                let mut a = step.call.args.clone();
                if let Some(v) = expected_version(harness, &step.call, window.as_deref()) {
                    a.insert("expectedVersion".to_owned(), v.into());
                    args.insert("expectedVersion".to_owned(), v.into());
                }
                a
            };
            let mut sent = harness.agent.send(&tool, Value::Object(args));
            let (outcome, n) = harness.step_until_answered(&mut sent);
            passes += n;
            let Some(replayed) = outcome else { return Err(ReplayError::Unanswered { line: step.line, tool }) };
            if !same_answer(&step.call.outcome, &replayed) {
                let recorded = match &step.call.outcome {
                    RecordedOutcome::Answer(r) => Ok(r.clone()),
                    RecordedOutcome::Error(e) => Err(e.clone()),
                };
                let window = window.and_then(|w| harness.window(&w));
                return Err(ReplayError::Differs(Box::new(Difference {
                    line: step.line,
                    tool,
                    args: shown_args,
                    recorded,
                    replayed,
                    window,
                })));
            }
            learn_ids(&step.call.outcome, &replayed, &mut ids);
        }
        Ok(ReplayReport { calls: steps.len(), passes, elapsed: started.elapsed() })
    }

    /// The recording's calls, checked: its header, each line, and every secret given.
    fn read(&self) -> Result<Vec<Step>, ReplayError> {
        let io = |error| ReplayError::Io { path: self.path.clone(), error };
        let size = std::fs::metadata(&self.path).map_err(io)?.len();
        if size > MAX_REPLAY_BYTES {
            return Err(ReplayError::Line {
                line: 1,
                why: format!("the file has {size} bytes; a replay reads at most {MAX_REPLAY_BYTES}"),
            });
        }
        let text = std::fs::read_to_string(&self.path).map_err(io)?;
        let mut lines = text.split('\n').enumerate().map(|(i, l)| (i + 1, l)).peekable();
        let header = lines.next().map(|(_, l)| l).unwrap_or_default();
        match serde_json::from_str::<Header>(header) {
            Ok(h) if h.recording == RECORDING_KIND && h.format == RECORDING_FORMAT => {}
            Ok(h) => {
                return Err(ReplayError::Line {
                    line: 1,
                    why: format!(
                        "a recording of format {} by {:?}; this replay reads format {RECORDING_FORMAT} by {RECORDING_KIND:?}",
                        h.format, h.recording
                    ),
                });
            }
            Err(e) => return Err(ReplayError::Line { line: 1, why: format!("not a recording's first line ({e})") }),
        }
        let mut steps = Vec::new();
        while let Some((line, text)) = lines.next() {
            if text.is_empty() && lines.peek().is_none() {
                break; // the newline that ends the last line
            }
            if let Ok(stop) = serde_json::from_str::<Stop>(text) {
                return Err(ReplayError::Line { line, why: format!("the recording stopped here: {}", stop.stopped) });
            }
            let call = serde_json::from_str::<RecordedCall>(text).map_err(|e| ReplayError::Line {
                line,
                why: if text.is_empty() { "an empty line".to_owned() } else { format!("not a recorded call ({e})") },
            })?;
            if let Some(name) = missing_secret(&Value::Object(call.args.clone()), &self.secrets) {
                return Err(ReplayError::Secret { line, name });
            }
            steps.push(Step { line, call });
        }
        Ok(steps)
    }
}

impl<'a, State> Harness<'a, State> {
    /// Replays a recording of agents' calls (made with
    /// [`BridgeBuilder::record`](crate::BridgeBuilder::record), or the demo's `--record FILE`)
    /// against the app in this harness: an agent's session becomes a test. Build the harness
    /// as the recorded app was built (its bridge's options, its starting state), then
    /// [`run`](Replay::run).
    ///
    /// - Calls go one at a time, in the order they were answered, each once the one before is
    ///   answered (the passes that applied it run; an answer the app gives later is awaited), as
    ///   one agent, at most the harness's passes per call.
    /// - `expectedVersion` is carried relatively: a call that expected the version its window
    ///   had when it arrived (what the last answer gave) expects the window's version now; one
    ///   that was stale by two versions is stale by two now. Windows a call opened are known by
    ///   the ids the replay's answers give.
    /// - Secrets the recording left out (`{"$secret": "name"}`) come from
    ///   [`secret`](Replay::secret); one not given fails before any call is made.
    /// - An answer matches when both are successes with the same message (what a generic
    ///   tool's answer says "also changed" compared as a set), or both errors with the same code
    ///   and the same fields. Versions, ids and timings are not compared.
    ///
    /// Returns `Ok(`[`ReplayReport`]`)` when every answer matches, else the first
    /// [`ReplayError`]: the call whose answer differs (its line, both answers and the window
    /// then), or the line of a file that is cut short, malformed or stopped early.
    ///
    /// ```
    /// use egui_mcp_bridge::testing::Harness;
    /// use egui_mcp_bridge::{ActionSpec, Bridge, Input};
    /// use serde_json::json;
    ///
    /// fn app(bridge: &Bridge, ui: &mut egui::Ui, (name, pw): &mut (String, String)) {
    ///     bridge.window("login").title("Login").ui(ui, |w, ui| {
    ///         w.form(ui, "f", |f| {
    ///             f.edit("name", &Input::text("Name"), name);
    ///             f.edit("password", &Input::secret("Password"), pw);
    ///         });
    ///         if let Some(press) = w.button(ui, "sign_in", ActionSpec::new("Sign in")).inner {
    ///             match pw.as_str() {
    ///                 "open sesame" => press.ok(format!("Welcome, {name}")),
    ///                 _ => press.ok("Wrong password"),
    ///             }
    ///         }
    ///     });
    /// }
    /// let path = std::env::temp_dir().join(format!("replay-doc-{}.jsonl", std::process::id()));
    ///
    /// // Record a session (here an in-process agent; in real life, a client over MCP).
    /// let bridge = Bridge::builder().record(&path).unwrap().build();
    /// let b = bridge.clone();
    /// let mut session = Harness::new_ui_state(&bridge, move |ui, s: &mut _| app(&b, ui, s), Default::default());
    /// let v = session.window("login").unwrap().version;
    /// let set = json!({"fields": {"name": "Ada", "password": "open sesame"}, "expectedVersion": v});
    /// session.call("login__edit_field", set).unwrap();
    /// session.call("login__sign_in", json!({})).unwrap();
    /// assert!(bridge.flush_recording(std::time::Duration::from_secs(5)), "written");
    /// let recording = std::fs::read_to_string(&path).unwrap();
    /// assert!(!recording.contains("open sesame") && recording.contains(r#"{"$secret":"password"}"#));
    ///
    /// // Replay it in a test: the same app, a fresh start, the secret from the test.
    /// let bridge = Bridge::builder().build();
    /// let b = bridge.clone();
    /// let mut harness = Harness::new_ui_state(&bridge, move |ui, s: &mut _| app(&b, ui, s), Default::default());
    /// let report = harness.replay(&path).secret("password", "open sesame").run().unwrap();
    /// assert_eq!(report.calls, 2);
    ///
    /// // Another password, another answer: the replay names the call.
    /// let bridge = Bridge::builder().build();
    /// let b = bridge.clone();
    /// let mut harness = Harness::new_ui_state(&bridge, move |ui, s: &mut _| app(&b, ui, s), Default::default());
    /// let e = harness.replay(&path).secret("password", "guess").run().unwrap_err();
    /// assert_eq!((e.line(), e.tool()), (3, Some("login__sign_in")));
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn replay(&mut self, path: impl AsRef<Path>) -> Replay<'_, 'a, State> {
        Replay::new(self, path.as_ref())
    }
}

/// The tool with its window's id as the replay knows it, and that window (none for `app__…`).
fn mapped_tool(tool: &str, ids: &HashMap<String, String>) -> (String, Option<String>) {
    match split_tool_name(tool) {
        Some((window, action)) if window != crate::protocol::APP_TARGET => {
            let window = ids.get(window).cloned().unwrap_or_else(|| window.to_owned());
            (tool_name(&window, action), Some(window))
        }
        _ => (tool.to_owned(), None),
    }
}

/// The `expectedVersion` the call carries now: as far from the window's version now as the
/// recorded one was from the window's version then.
fn expected_version<State>(harness: &Harness<'_, State>, call: &RecordedCall, window: Option<&str>) -> Option<u64> {
    let expected = call.expected_version?;
    let (Some(then), Some(now)) = (call.window_version, window.and_then(|w| harness.window(w)).map(|w| w.version))
    else {
        return Some(expected);
    };
    Some(if expected <= then { now.saturating_sub(then - expected) } else { now.saturating_add(expected - then) })
}

/// The windows a call opened, recorded id to replayed id (by their order in the answers).
fn learn_ids(recorded: &RecordedOutcome, replayed: &Outcome, ids: &mut HashMap<String, String>) {
    if let (RecordedOutcome::Answer(a), Ok(b)) = (recorded, replayed)
        && a.opened_window_ids.len() == b.opened_window_ids.len()
    {
        for (then, now) in a.opened_window_ids.iter().zip(&b.opened_window_ids) {
            ids.insert(then.clone(), now.clone());
        }
    }
}

/// The first placeholder in `value` whose secret was not given.
fn missing_secret(value: &Value, secrets: &HashMap<String, Value>) -> Option<String> {
    if let Some(name) = placeholder_name(value) {
        return (!secrets.contains_key(name)).then(|| name.to_owned());
    }
    match value {
        Value::Object(m) => m.values().find_map(|v| missing_secret(v, secrets)),
        Value::Array(a) => a.iter().find_map(|v| missing_secret(v, secrets)),
        _ => None,
    }
}

/// Every placeholder in `args` replaced by its secret (all given: checked when read).
fn fill_secrets(args: &mut Map<String, Value>, secrets: &HashMap<String, Value>) {
    fn fill(value: &mut Value, secrets: &HashMap<String, Value>) {
        if let Some(secret) = placeholder_name(value).and_then(|n| secrets.get(n)) {
            *value = secret.clone();
            return;
        }
        match value {
            Value::Object(m) => m.values_mut().for_each(|v| fill(v, secrets)),
            Value::Array(a) => a.iter_mut().for_each(|v| fill(v, secrets)),
            _ => {}
        }
    }
    args.values_mut().for_each(|v| fill(v, secrets));
}
