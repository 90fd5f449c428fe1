//! The app's side of the local endpoint: the socket, its accept loop and its connections.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::io::AsyncReadExt as _;

use super::folder::{self, USER};
use super::{LocalOptions, MAX_LOCAL_CONNECTIONS};
use crate::hub::ConnectionEvent;
use crate::server::Lifeline;
use crate::server::user_files::{self, named};

/// The longest socket path every Unix takes (macOS: 104 bytes with the final NUL).
const MAX_PATH: usize = 103;

/// Bytes of a connection's first read: what decides it is an agent, not a probe that looks for
/// live instances and closes.
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
    let task = Accepting { lifeline: lifeline.clone(), path: path.clone(), identity, open: Arc::default() };
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
        if self.open.fetch_add(1, Ordering::AcqRel) >= MAX_LOCAL_CONNECTIONS {
            self.open.fetch_sub(1, Ordering::AcqRel);
            tracing::warn!(
                max = MAX_LOCAL_CONNECTIONS,
                "the local endpoint serves as many connections as it may: one more closed"
            );
            return;
        }
        let (lifeline, open) = (self.lifeline.clone(), Arc::clone(&self.open));
        self.lifeline.runtime.handle.spawn(async move {
            serve_connection(&lifeline, stream).await;
            open.fetch_sub(1, Ordering::AcqRel);
        });
    }
}

/// Serves one connection until it ends. One that closes before sending anything (a relay
/// looking for live instances) is not an agent: nothing is recorded.
async fn serve_connection(lifeline: &Lifeline, stream: tokio::net::UnixStream) {
    let (mut read, write) = stream.into_split();
    let mut first = vec![0; FIRST_READ];
    let n = match read.read(&mut first).await {
        Ok(0) | Err(_) => return,
        Ok(n) => n,
    };
    first.truncate(n);
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
