//! The app's side of the local endpoint: the socket, its accept loop and its connections.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use parking_lot::Mutex;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::sync::Notify;

use super::folder::{self, USER};
use super::{LocalOptions, MAX_LOCAL_CONNECTIONS, MAX_LOCAL_WAITING as MAX_WAITING, REFUSED_FULL};
use crate::hub::ConnectionEvent;
use crate::server::Lifeline;
use crate::server::user_files::{self, named};

/// The longest socket path every Unix takes (macOS: 104 bytes with the final NUL).
const MAX_PATH: usize = 103;

/// At most this much of a connection's first line is read before it is served: what decides it
/// is an agent, not a probe that looks for live instances and closes, and, at the limit, the
/// id its refusal answers (a longer line is served, or refused under id `null`).
const FIRST_READ: usize = 8 * 1024;

/// Opens the app's local endpoint on `lifeline`'s runtime; returns its socket's path. It lasts
/// as long as the app's UI.
pub(crate) fn open(lifeline: &Lifeline, options: &LocalOptions) -> io::Result<PathBuf> {
    let dir = folder::folder(options.folder.as_deref())?;
    let dir = user_files::private_folder(&dir, USER)?;
    let app = lifeline.shared.hub.config().app_name.clone();
    let path = folder::socket_path(&dir, &app);
    if path.as_os_str().len() > MAX_PATH {
        return Err(named(
            &path,
            &format!("is longer than a socket's path may be ({MAX_PATH} bytes): choose a shorter folder"),
            &io::Error::from(io::ErrorKind::InvalidInput),
        ));
    }
    // Sockets left by instances that are gone (crashed, killed) go; live ones stay.
    for other in folder::sockets(&dir, &app)? {
        if other.path != path {
            folder::remove_if_stale(&other);
        }
    }
    if std::fs::symlink_metadata(&path).is_ok() {
        if folder::is_live(&path) {
            return Err(named(&path, "this process serves it already", &io::Error::from(io::ErrorKind::AddrInUse)));
        }
        // A process that had this id before: its leftover (a link itself, never what it names).
        std::fs::remove_file(&path).map_err(|e| named(&path, "a stale endpoint cannot be removed", &e))?;
    }
    let listener = {
        let _runtime = lifeline.runtime.handle.enter();
        tokio::net::UnixListener::bind(&path).map_err(|e| named(&path, "cannot be bound", &e))?
    };
    let identity = identity(&path)?;
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| named(&path, "cannot be made private", &e))?;
    }
    tracing::info!(path = %path.display(), "serving MCP on the local endpoint (this user only)");
    let task = Accepting {
        lifeline: lifeline.clone(),
        path: path.clone(),
        identity,
        open: Arc::default(),
        waiting: Arc::default(),
    };
    lifeline.runtime.handle.spawn(task.run(listener));
    Ok(path)
}

/// Device and inode: which socket a path names, so that the app removes its own only.
fn identity(path: &Path) -> io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = std::fs::symlink_metadata(path).map_err(|e| named(path, "cannot be looked at", &e))?;
    Ok((meta.dev(), meta.ino()))
}

/// The accept loop's state.
struct Accepting {
    lifeline: Lifeline,
    path: PathBuf,
    identity: (u64, u64),
    /// Connections being served.
    open: Arc<AtomicUsize>,
    /// Connections that have not sent a line yet, oldest first.
    waiting: Arc<Waiting>,
}

/// The connections that have sent no line yet, each with what closes it to make room.
#[derive(Default)]
struct Waiting {
    next: AtomicU64,
    queue: Mutex<std::collections::VecDeque<(u64, Arc<Notify>)>>,
}

impl Waiting {
    /// Adds one; closes the oldest beyond [`MAX_WAITING`].
    fn add(&self) -> (u64, Arc<Notify>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let close = Arc::new(Notify::new());
        let oldest = {
            let mut queue = self.queue.lock();
            queue.push_back((id, Arc::clone(&close)));
            if queue.len() > MAX_WAITING { queue.pop_front() } else { None }
        };
        if let Some((_, oldest)) = oldest {
            tracing::warn!(
                max = MAX_WAITING,
                "the local endpoint holds as many connections that sent nothing as it may: the oldest closed"
            );
            oldest.notify_one();
        }
        (id, close)
    }

    fn remove(&self, id: u64) {
        self.queue.lock().retain(|(i, _)| *i != id);
    }
}

impl Accepting {
    async fn run(self, listener: tokio::net::UnixListener) {
        let hub = Arc::clone(&self.lifeline.shared.hub);
        loop {
            tokio::select! {
                _ = hub.ui_gone() => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => self.admit(stream),
                    Err(e) => {
                        // Out of descriptors, say: the next accept may do; never a busy loop.
                        tracing::warn!(error = %e, "the local endpoint could not accept a connection");
                        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    }
                },
            }
        }
        drop(listener);
        if identity(&self.path).is_ok_and(|i| i == self.identity) {
            let _ = std::fs::remove_file(&self.path);
        }
        tracing::info!("the app's UI is gone; the local endpoint is closed");
    }

    /// A connection of this user's, while there is room, served as stdio is.
    fn admit(&self, stream: tokio::net::UnixStream) {
        let uid = user_files::our_uid().ok();
        match stream.peer_cred() {
            Ok(cred) if Some(cred.uid()) == uid => {}
            Ok(cred) => {
                tracing::warn!(uid = cred.uid(), "a process of another user reached the local endpoint: closed");
                return;
            }
            Err(e) => {
                tracing::warn!(error = %e, "the local endpoint could not tell who connected: closed");
                return;
            }
        }
        // Only a connection that sent a line counts against the limit: a probe (a starting
        // relay's, closed at once) never does, however late the app sees it close. Waiting in
        // the order accepted, so that the oldest is the one closed to make room.
        let (id, close) = self.waiting.add();
        let (lifeline, open, waiting) = (self.lifeline.clone(), Arc::clone(&self.open), Arc::clone(&self.waiting));
        self.lifeline.runtime.handle.spawn(async move {
            let (mut read, mut write) = stream.into_split();
            let first = tokio::select! {
                first = first_line(&mut read) => first,
                () = close.notified() => None,
                _ = lifeline.shared.hub.ui_gone() => None,
            };
            waiting.remove(id);
            let Some(first) = first else { return };
            if open.fetch_add(1, Ordering::AcqRel) >= MAX_LOCAL_CONNECTIONS {
                open.fetch_sub(1, Ordering::AcqRel);
                refuse(&mut write, &first).await;
                return;
            }
            serve_connection(&lifeline, first, read, write).await;
            open.fetch_sub(1, Ordering::AcqRel);
        });
    }
}

/// The connection's first line (at most [`FIRST_READ`] bytes of it); `None` when it closes
/// having sent nothing (a relay looking for live instances).
async fn first_line(read: &mut tokio::net::unix::OwnedReadHalf) -> Option<Vec<u8>> {
    let mut first = Vec::with_capacity(1024);
    loop {
        let mut chunk = (&mut *read).take((FIRST_READ - first.len()) as u64);
        match chunk.read_buf(&mut first).await {
            Ok(0) | Err(_) => return (!first.is_empty()).then_some(first),
            Ok(_) if first.contains(&b'\n') || first.len() >= FIRST_READ => return Some(first),
            Ok(_) => {}
        }
    }
}

/// Turns a connection away at the limit, loudly: its first request is answered with a JSON-RPC
/// error under its id as sent (`null` when it has none or it was not in the first line's
/// [`FIRST_READ`] bytes), naming the limit; the relay knows it by its `data` and says so.
async fn refuse(write: &mut tokio::net::unix::OwnedWriteHalf, first: &[u8]) {
    tracing::warn!(max = MAX_LOCAL_CONNECTIONS, "the local endpoint serves as many agents as it may: one more refused");
    let line = first.split(|b| *b == b'\n').next().unwrap_or_default();
    let mut answer = crate::server::ids::error_answer_with_data(
        crate::server::ids::Id::of(line),
        -32000,
        &format!(
            "The app serves as many agents as it may ({MAX_LOCAL_CONNECTIONS} at once): try again once one has left, or start a copy of its own"
        ),
        &serde_json::json!({"refused": REFUSED_FULL, "max": MAX_LOCAL_CONNECTIONS}),
    );
    answer.push(b'\n');
    let _ = write.write_all(&answer).await;
    let _ = write.shutdown().await;
}

/// Serves one connection until it ends; `first` is what it sent first.
async fn serve_connection(
    lifeline: &Lifeline,
    first: Vec<u8>,
    read: tokio::net::unix::OwnedReadHalf,
    write: tokio::net::unix::OwnedWriteHalf,
) {
    let activity = lifeline.shared.hub.activity();
    activity.connection(ConnectionEvent::Attached, "An agent attached through the local endpoint".to_owned());
    lifeline.shared.hub.wake();
    let reader = std::io::Cursor::new(first).chain(read);
    let (handle, profile) = lifeline.serve_lines("local", reader, write);
    handle.closed().await;
    let message = match profile.get().map(|p| p.label) {
        Some(label) if label != "baseline" => format!("An agent left ({label})"),
        _ => "An agent left".to_owned(),
    };
    activity.connection(ConnectionEvent::Left, message);
    lifeline.shared.hub.wake();
}
