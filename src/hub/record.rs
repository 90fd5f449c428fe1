//! The recording of agents' calls (`BridgeBuilder::record`): every call that reaches the app,
//! from any connection, written once answered as one JSON line (`protocol/recording.rs`), its
//! secrets replaced by placeholders. The line is made where the call is answered and handed to
//! a writer thread of its own (`egui-mcp-recorder`) through a bounded queue, so the UI thread
//! never waits on the disk: when the queue is full the line is lost, and the recording stops
//! there, saying so. It stops too, saying so, at its size limit.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufWriter, Write as _};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use parking_lot::Mutex;
use serde_json::{Map, Value};

use super::call::{CallTarget, ClientId, Outcome, PendingCall, Recorded};
use super::snapshot::Snapshot;
use crate::protocol::recording::{Header, RecordedCall, Stop, redact};

/// A recording's size limit unless the app sets another
/// (`BridgeBuilder::record_with_limit`): 16 MiB, some 10,000 calls.
pub const DEFAULT_MAX_RECORDING_BYTES: u64 = 16 * 1024 * 1024;
/// The smallest size limit a recording takes: its first line and its last (the stop) fit.
pub const MIN_RECORDING_BYTES: u64 = 1024;
/// How many answered calls may wait for the writer thread; one more is lost, and the
/// recording stops there.
pub const RECORDING_QUEUE: usize = 1024;
/// The most characters of a client's name a recording keeps.
const CLIENT_NAME_CHARS: usize = 64;
/// The most connections whose client names are kept (the oldest forgotten first).
const NAMED_CLIENTS: usize = 256;
/// How many different secret values a recording tells apart (by a keyed hash kept in memory,
/// never written): the first value sent for `password` is `{"$secret": "password"}`, another
/// `password#2`, and so on; past this many, `password#more`.
pub const RECORDED_SECRETS: usize = 256;
/// What a stop line takes at most, kept free below the limit.
const STOP_RESERVE: u64 = 256;

/// The stop line's reason when a line was lost to a full queue.
const LOST: &str = "a call was not recorded here (the recording's writer fell behind); the recording stops";

/// What the writer thread is sent.
#[derive(Debug)]
enum Msg {
    /// A line: its sequence number (the order calls were answered in) and text.
    Line(u64, String),
    /// Everything sent before is to be on disk: say so on this channel.
    Flush(crossbeam_channel::Sender<()>),
    /// A unit test holds the writer until this channel yields (or closes): a slow disk.
    #[cfg(test)]
    Hold(crossbeam_channel::Receiver<()>),
}

/// The recorder a hub hands every answered call to.
#[derive(Debug)]
pub(crate) struct Recorder {
    tx: crossbeam_channel::Sender<Msg>,
    started: Instant,
    /// The next line's sequence number.
    next: AtomicU64,
    /// The first line lost to a full queue (`u64::MAX`: none).
    first_lost: Arc<AtomicU64>,
    names: Mutex<VecDeque<(ClientId, String)>>,
    secrets: Mutex<SecretNames>,
}

/// The secret values seen, by a hash keyed for this recorder: which placeholder names each.
#[derive(Debug, Default)]
struct SecretNames {
    key: std::collections::hash_map::RandomState,
    seen: Vec<(String, u64)>,
}

impl SecretNames {
    /// `name` for the first value sent for it, `name#2` for a second one, and so on.
    fn placeholder(&mut self, name: &str, value: &Value) -> String {
        use std::hash::BuildHasher as _;
        let hash = self.key.hash_one(value.to_string());
        let mut of_name = self.seen.iter().filter(|(n, _)| n == name);
        let nth = match of_name.position(|(_, h)| *h == hash) {
            Some(i) => i + 1,
            None if self.seen.len() < RECORDED_SECRETS => {
                self.seen.push((name.to_owned(), hash));
                self.seen.iter().filter(|(n, _)| n == name).count()
            }
            None => return format!("{name}#more"),
        };
        if nth == 1 { name.to_owned() } else { format!("{name}#{nth}") }
    }
}

/// What a call's line needs, taken when the call arrives; written with its answer.
#[derive(Debug)]
struct Seed {
    recorder: Arc<Recorder>,
    ms: u64,
    client: String,
    args: Map<String, Value>,
    window_version: Option<u64>,
}

impl Recorder {
    /// Opens (creates, or empties) the file at `path` for a recording of at most `max_bytes`,
    /// made readable by the user only (0600 on Unix):
    /// an unwritable path is refused here, and a limit below [`MIN_RECORDING_BYTES`].
    pub fn open(path: &Path, max_bytes: u64) -> io::Result<File> {
        if max_bytes < MIN_RECORDING_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a recording's size limit is at least {MIN_RECORDING_BYTES} bytes, not {max_bytes}"),
            ));
        }
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600); // the user's, as the app's data is
        options.open(path)
    }

    /// Writes the recording's first line into `file` (from [`Self::open`]) and starts the
    /// writer thread, which keeps the file from then on.
    pub fn start(file: File, max_bytes: u64, header: &Header) -> io::Result<Arc<Self>> {
        Self::start_with_queue(file, max_bytes, header, RECORDING_QUEUE)
    }

    fn start_with_queue(file: File, max_bytes: u64, header: &Header, queue: usize) -> io::Result<Arc<Self>> {
        let mut out = BufWriter::new(file);
        let head = serde_json::to_string(header).map_err(io::Error::other)?;
        writeln!(out, "{head}")?;
        out.flush()?;
        let (tx, rx) = crossbeam_channel::bounded::<Msg>(queue);
        let first_lost = Arc::new(AtomicU64::new(u64::MAX));
        let lost = Arc::clone(&first_lost);
        let written = head.len() as u64 + 1;
        std::thread::Builder::new()
            .name("egui-mcp-recorder".into())
            .spawn(move || write_lines(&rx, out, written, max_bytes, &lost))?;
        Ok(Arc::new(Self {
            tx,
            started: Instant::now(),
            next: AtomicU64::new(0),
            first_lost,
            names: Mutex::new(VecDeque::new()),
            secrets: Mutex::default(),
        }))
    }

    /// The client that connection `client` said it is (`clientInfo.name`), kept clipped.
    pub fn name_client(&self, client: ClientId, name: &str) {
        let name: String = name.chars().take(CLIENT_NAME_CHARS).collect();
        let mut names = self.names.lock();
        names.retain(|(c, _)| *c != client);
        if names.len() == NAMED_CLIENTS {
            names.pop_front();
        }
        names.push_back((client, name));
    }

    fn client_name(&self, client: ClientId) -> String {
        self.names.lock().iter().find(|(c, _)| *c == client).map(|(_, n)| n.clone()).unwrap_or_default()
    }

    /// What `call`'s line needs, as it arrives and is checked against `snapshot`: its
    /// arguments with secrets replaced, the target window's version, who sent it, and when.
    pub fn seed(self: &Arc<Self>, call: &PendingCall, snapshot: &Snapshot) -> Box<dyn Recorded> {
        let window = match &call.target {
            CallTarget::Window(h) => snapshot.window(h),
            CallTarget::App => None,
        };
        let schema = snapshot.tool(&call.tool_name()).map(|t| Arc::clone(&t.input_schema));
        let args = call.args.as_object().cloned().unwrap_or_default();
        Box::new(Seed {
            recorder: Arc::clone(self),
            ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
            client: self.client_name(call.client),
            args: redact(&call.action, &args, window, schema.as_deref(), &mut |name, value| {
                self.secrets.lock().placeholder(name, value)
            }),
            window_version: window.map(|w| w.version),
        })
    }

    /// Hands a line to the writer, never waiting: when its queue is full, the line is lost and
    /// the recording stops before it.
    fn push(&self, text: String) {
        let seq = self.next.fetch_add(1, Ordering::AcqRel);
        if let Err(e) = self.tx.try_send(Msg::Line(seq, text))
            && e.is_full()
            && self.first_lost.fetch_min(seq, Ordering::AcqRel) == u64::MAX
        {
            tracing::warn!("the recording's writer fell behind; the recording stops here");
        }
    }

    /// Waits, at most `timeout`, until every line handed over before is written and flushed
    /// (or the recording stopped): whether it is. Blocks the calling thread: not for the UI's.
    pub fn flush(&self, timeout: std::time::Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let (done_tx, done_rx) = crossbeam_channel::bounded(1);
        match self.tx.send_deadline(Msg::Flush(done_tx), deadline) {
            Ok(()) => !matches!(done_rx.recv_deadline(deadline), Err(crossbeam_channel::RecvTimeoutError::Timeout)),
            Err(crossbeam_channel::SendTimeoutError::Disconnected(_)) => true, // stopped: all is written
            Err(crossbeam_channel::SendTimeoutError::Timeout(_)) => false,
        }
    }
}

impl Recorded for Seed {
    /// Writes the call's line with its answer.
    fn answered(&self, call: &PendingCall, outcome: &Outcome) {
        let line = RecordedCall {
            ms: self.ms,
            client: self.client.clone(),
            tool: call.tool_name(),
            args: self.args.clone(),
            expected_version: call.expected_version,
            window_version: self.window_version,
            outcome: outcome.clone().into(),
        };
        match serde_json::to_string(&line) {
            Ok(text) => self.recorder.push(text),
            Err(e) => tracing::warn!(error = %e, "a call could not be recorded"),
        }
    }
}

/// The writer thread: lines in the order they come, each flushed once the queue is empty,
/// until the limit, a lost line or the last sender's end.
fn write_lines(
    rx: &crossbeam_channel::Receiver<Msg>,
    mut out: BufWriter<File>,
    mut written: u64,
    max_bytes: u64,
    first_lost: &AtomicU64,
) {
    let stop = |out: &mut BufWriter<File>, why: String| {
        if let Ok(text) = serde_json::to_string(&Stop { stopped: why }) {
            let _ = writeln!(out, "{text}").and_then(|()| out.flush());
        }
    };
    let lost = || first_lost.load(Ordering::Acquire) != u64::MAX;
    for msg in rx {
        let (seq, text) = match msg {
            Msg::Line(seq, text) => (seq, text),
            // The lines before a flush are written: if one was lost, the recording ends here.
            Msg::Flush(done) if lost() => {
                stop(&mut out, LOST.into());
                let _ = done.try_send(());
                return;
            }
            Msg::Flush(done) => {
                let _ = out.flush();
                let _ = done.try_send(());
                continue;
            }
            #[cfg(test)]
            Msg::Hold(until) => {
                let _ = until.recv();
                continue;
            }
        };
        if seq >= first_lost.load(Ordering::Acquire) {
            stop(&mut out, LOST.into());
            return;
        }
        if written + text.len() as u64 + 1 + STOP_RESERVE > max_bytes {
            tracing::warn!(max_bytes, "the recording reached its size limit; later calls are not recorded");
            stop(
                &mut out,
                format!("the recording reached its size limit of {max_bytes} bytes; later calls are not recorded"),
            );
            return;
        }
        let done = writeln!(out, "{text}").and_then(|()| if rx.is_empty() { out.flush() } else { Ok(()) });
        if let Err(e) = done {
            tracing::warn!(error = %e, "the recording could not be written; it stops");
            return;
        }
        written += text.len() as u64 + 1;
    }
    // Every sender is gone (the app ended): if a line was lost, the recording says so.
    if lost() {
        stop(&mut out, LOST.into());
    }
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header { recording: "egui_mcp_bridge".into(), format: 1, app: "t".into(), app_version: "0".into() }
    }

    #[test]
    fn a_full_queue_loses_the_line_without_waiting_and_the_recording_stops_there() {
        let path = std::env::temp_dir().join(format!("egui-mcp-record-queue-{}.jsonl", std::process::id()));
        let file = Recorder::open(&path, DEFAULT_MAX_RECORDING_BYTES).unwrap();
        let recorder = Recorder::start_with_queue(file, DEFAULT_MAX_RECORDING_BYTES, &header(), 4).unwrap();
        let (release, held) = crossbeam_channel::bounded(1);
        recorder.tx.send(Msg::Hold(held)).unwrap();
        let started = Instant::now();
        for i in 0..20 {
            recorder.push(format!("{{\"line\":{i}}}")); // never waits, however full
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert!(recorder.first_lost.load(Ordering::Acquire) <= 5, "a line past the queue was lost");
        release.send(()).unwrap();
        assert!(recorder.flush(std::time::Duration::from_secs(10)));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() <= 7, "the header, at most the queue's lines, the stop:\n{text}");
        assert!(lines.last().unwrap().contains("was not recorded here"), "{text}");
        assert!(lines[1..lines.len() - 1].iter().enumerate().all(|(i, l)| *l == format!("{{\"line\":{i}}}")), "{text}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn each_different_secret_value_is_a_placeholder_of_its_own() {
        let mut names = SecretNames::default();
        let (a, b) = (Value::from("one"), Value::from("two"));
        assert_eq!(names.placeholder("pw", &a), "pw");
        assert_eq!(names.placeholder("pw", &b), "pw#2");
        assert_eq!(names.placeholder("pw", &a), "pw");
        assert_eq!(names.placeholder("pin", &a), "pin");
        for i in 0..RECORDED_SECRETS {
            names.placeholder("many", &Value::from(i));
        }
        assert_eq!(names.placeholder("pw", &Value::from("three")), "pw#more");
    }
}
