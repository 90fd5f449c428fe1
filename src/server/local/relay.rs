//! The stdio command's side: find the user's running instance of the app and relay this
//! process's stdin and stdout to it, or say there is none (then the app starts as before).

use std::io;
use std::path::PathBuf;

use super::folder::Instance;

/// What [`attach_stdio`] did.
#[derive(Debug)]
#[must_use = "when it relayed, the client was served by the running instance: return without starting the app"]
pub enum Attached {
    /// An instance served the client until one of them ended: this process is done.
    Relayed(Instance),
    /// No instance of the app runs for this user (or the platform has no local endpoint):
    /// start the app and serve stdio as usual.
    NoInstance,
}

impl Attached {
    /// Whether the client was served by a running instance (then return without starting the
    /// app).
    pub fn relayed(&self) -> bool {
        matches!(self, Self::Relayed(_))
    }
}

/// Relays this process's stdin and stdout to the user's newest running instance of `app` (the
/// name given to [`crate::BridgeBuilder::app_name`]), until the client or the instance ends; or,
/// when none runs, returns [`Attached::NoInstance`] at once. Call it first in `main`, before
/// anything is written to stdout, when a client started the app for stdio. See [`Attach`] to
/// choose an instance or a folder.
///
/// ```no_run
/// // In `main`, when the app was started with `--stdio`:
/// if egui_mcp_bridge::serve::attach_stdio("my-app")?.relayed() {
///     return Ok(()); // the running my-app served the client: no second window
/// }
/// // …else build the bridge, `serve_stdio()`, run the app as usual.
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// When the folder of instances is not the user's own and private, an instance was named
/// (`EGUI_MCP_BRIDGE_INSTANCE`) that does not run, or the relay's runtime cannot start; and
/// once relaying, when the instance turned the client away because it serves as many agents
/// as it may ([`crate::limits::MAX_LOCAL_CONNECTIONS`]; kind `ConnectionRefused`: the client's
/// request was answered with the app's JSON-RPC error) or closed the connection without
/// answering while the client was still there (`ConnectionAborted`). Exit non-zero with the
/// error then, rather than start the app: the client was not served.
pub fn attach_stdio(app: &str) -> io::Result<Attached> {
    Attach::new(app).stdio()
}

/// Which running instance [`attach_stdio`] relays to, and where it looks.
#[derive(Clone, Debug)]
pub struct Attach {
    app: String,
    folder: Option<PathBuf>,
    instance: Option<u32>,
}

impl Attach {
    /// Attaching to the user's instances of `app`.
    pub fn new(app: impl Into<String>) -> Self {
        Self { app: app.into(), folder: None, instance: None }
    }

    /// The instance with this process id, instead of the newest (the default; also set by
    /// `EGUI_MCP_BRIDGE_INSTANCE=<pid>`). If it does not run, attaching fails: a copy is not
    /// started in its place.
    #[must_use]
    pub fn instance(mut self, pid: Option<u32>) -> Self {
        self.instance = pid;
        self
    }

    /// Looks for instances in this folder instead of the per-user default (the app must serve
    /// there: [`crate::BridgeBuilder::local_endpoint_in`]).
    #[must_use]
    pub fn folder(mut self, folder: impl Into<PathBuf>) -> Self {
        self.folder = Some(folder.into());
        self
    }

    /// The live instances of the app, newest first. Sockets of instances that are gone are
    /// removed on the way.
    ///
    /// # Errors
    ///
    /// When the folder cannot be read or is not the user's own and private.
    pub fn instances(&self) -> io::Result<Vec<Instance>> {
        #[cfg(unix)]
        {
            let dir = super::folder::folder(self.folder.as_deref())?;
            if std::fs::symlink_metadata(&dir).is_err() {
                return Ok(Vec::new());
            }
            crate::server::user_files::check_folder(&dir, super::folder::USER)?;
            let mut live = super::folder::sockets(&dir, &self.app)?;
            live.retain(|i| !super::folder::remove_if_stale(i));
            Ok(live)
        }
        #[cfg(not(unix))]
        Ok(Vec::new())
    }

    /// Whether an instance is named, by [`instance`](Self::instance) or by a non-empty
    /// `EGUI_MCP_BRIDGE_INSTANCE`. Then any error of [`stdio`](Self::stdio) must end the
    /// process (non-zero, with the error): a copy is not started in the named one's place.
    pub fn names_instance(&self) -> bool {
        self.instance.is_some() || std::env::var_os("EGUI_MCP_BRIDGE_INSTANCE").is_some_and(|v| !v.is_empty())
    }

    /// The instance to relay to: the one named, else the newest; `None` when none runs. Also
    /// how many other instances run.
    fn choose(&self) -> io::Result<(Option<Instance>, usize)> {
        let named = match self.instance {
            Some(pid) => Some(pid),
            None => match std::env::var("EGUI_MCP_BRIDGE_INSTANCE") {
                Ok(v) if !v.trim().is_empty() => Some(v.trim().parse().map_err(|_| {
                    io::Error::new(io::ErrorKind::InvalidInput, "EGUI_MCP_BRIDGE_INSTANCE: not a process id")
                })?),
                _ => None,
            },
        };
        let live = self.instances()?;
        let others = live.len().saturating_sub(1);
        let Some(pid) = named else { return Ok((live.into_iter().next(), others)) };
        match live.into_iter().find(|i| i.pid == pid) {
            Some(found) => Ok((Some(found), others)),
            None => Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no running {} has process id {pid} (EGUI_MCP_BRIDGE_INSTANCE or --instance)", self.app),
            )),
        }
    }

    /// Relays this process's stdin and stdout (see [`attach_stdio`]). Blocks until either side
    /// ends; the process should then exit (a read of stdin may still be waiting on a thread).
    ///
    /// # Errors
    ///
    /// As [`attach_stdio`].
    pub fn stdio(self) -> io::Result<Attached> {
        // The instances are listed (each probed) once: a probe is a connection to the app.
        let (Some(instance), others) = self.choose()? else { return Ok(Attached::NoInstance) };
        let runtime =
            tokio::runtime::Builder::new_current_thread().thread_name("egui-mcp-relay").enable_all().build()?;
        let relayed = runtime.block_on(async {
            let stream = connect(&instance).await?;
            // Said once the instance answered (it may turn the client away instead).
            let attached = || {
                let age = instance.started.elapsed().map_or(0, |d| d.as_secs());
                let pick = if others > 0 {
                    format!("; {others} more running, EGUI_MCP_BRIDGE_INSTANCE=<pid> picks one")
                } else {
                    String::new()
                };
                eprintln!(
                    "{}: attached to the running instance, pid {} (started {age} s ago{pick})",
                    self.app, instance.pid
                );
            };
            relay(stream, tokio::io::stdin(), tokio::io::stdout(), attached).await
        });
        // A read of stdin may be blocked on the runtime's thread: do not wait for it.
        runtime.shutdown_background();
        relayed?;
        Ok(Attached::Relayed(instance))
    }

    /// Relays `read` and `write` (a client's streams) to the chosen instance until either side
    /// ends: [`stdio`](Self::stdio) over any streams, for tests and hosts of their own.
    ///
    /// # Errors
    ///
    /// As [`attach_stdio`].
    pub async fn relay<R, W>(self, read: R, write: W) -> io::Result<Attached>
    where
        R: tokio::io::AsyncRead + Unpin + Send,
        W: tokio::io::AsyncWrite + Unpin + Send,
    {
        let (Some(instance), _) = self.choose()? else { return Ok(Attached::NoInstance) };
        let stream = connect(&instance).await?;
        relay(stream, read, write, || {}).await?;
        Ok(Attached::Relayed(instance))
    }
}

/// A connection to `instance`, checked to be served by a process of this user.
#[cfg(unix)]
async fn connect(instance: &Instance) -> io::Result<tokio::net::UnixStream> {
    let stream = tokio::net::UnixStream::connect(&instance.path).await.map_err(|e| {
        // Refused by nobody listening: the instance went between the look and the connection.
        // Said `NotFound`, so that `ConnectionRefused` means the app turned the client away.
        let e =
            if e.kind() == io::ErrorKind::ConnectionRefused { io::Error::new(io::ErrorKind::NotFound, e) } else { e };
        crate::server::user_files::named(&instance.path, "cannot be reached", &e)
    })?;
    let uid = crate::server::user_files::our_uid()?;
    let peer = stream.peer_cred()?.uid();
    if peer != uid {
        return Err(crate::server::user_files::refused(
            &instance.path,
            &format!("it is served by another user (uid {peer}, not {uid})"),
            super::folder::USER,
        ));
    }
    Ok(stream)
}

#[cfg(not(unix))]
async fn connect(_: &Instance) -> io::Result<NoStream> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "the local endpoint is Unix only"))
}

#[cfg(not(unix))]
type NoStream = tokio::io::DuplexStream;

/// The most of the instance's first answer looked at to tell a refusal (a short line) from an
/// answer, before it is passed on.
const FIRST_ANSWER: usize = 16 * 1024;

/// Copies both ways until either side ends: the client's end of input is passed on (the instance
/// then ends the connection), and the instance's end ends the relay at once. `answered` is
/// called when the instance first answers, unless that answer turns the client away (then the
/// answer is passed on and the relay ends with `ConnectionRefused`). An instance that closes
/// without answering while the client is still there ends it with `ConnectionAborted`.
async fn relay<S, R, W>(stream: S, mut read: R, mut write: W, answered: impl FnOnce()) -> io::Result<()>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite,
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let (mut from_app, mut to_app) = tokio::io::split(stream);
    let client_ended = std::sync::atomic::AtomicBool::new(false);
    let upstream = async {
        let copied = tokio::io::copy(&mut read, &mut to_app).await;
        // The client's end of input, not a write the instance refused by closing.
        client_ended.store(copied.is_ok(), std::sync::atomic::Ordering::Release);
        let _ = to_app.shutdown().await;
        if let Err(e) = copied {
            tracing::debug!(error = %e, "the relay stopped reading the client");
        }
        // Then wait for the instance to finish answering.
        std::future::pending::<io::Result<()>>().await
    };
    let downstream = async {
        // The first answer's first line (or its first FIRST_ANSWER bytes): a refusal, or not.
        let mut first = Vec::with_capacity(1024);
        loop {
            let mut chunk = (&mut from_app).take((FIRST_ANSWER - first.len()) as u64);
            match chunk.read_buf(&mut first).await {
                Ok(0) | Err(_) => break,
                Ok(_) if first.contains(&b'\n') || first.len() >= FIRST_ANSWER => break,
                Ok(_) => {}
            }
        }
        if first.is_empty() {
            if client_ended.load(std::sync::atomic::Ordering::Acquire) {
                return Ok(());
            }
            return Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "the running instance closed the connection without answering",
            ));
        }
        let refusal = refusal(&first);
        if refusal.is_none() {
            answered();
        }
        let passed = async {
            write.write_all(&first).await?;
            if refusal.is_none() {
                tokio::io::copy(&mut from_app, &mut write).await?;
            }
            write.flush().await
        };
        if let Err(e) = passed.await {
            tracing::debug!(error = %e, "the relay stopped writing to the client");
        }
        match refusal {
            Some(message) => Err(io::Error::new(io::ErrorKind::ConnectionRefused, message)),
            None => Ok(()),
        }
    };
    tokio::select! {
        ended = upstream => ended,
        ended = downstream => ended,
    }
}

/// The message of the app's answer that turned this connection away at its limit, if `first`
/// (the first line it sent) is that answer.
fn refusal(first: &[u8]) -> Option<String> {
    let line = first.split(|b| *b == b'\n').next()?;
    let answer: serde_json::Value = serde_json::from_slice(line).ok()?;
    let error = answer.get("error")?;
    if error.get("data")?.get("refused")?.as_str()? != super::REFUSED_FULL {
        return None;
    }
    let message = error.get("message")?.as_str()?;
    Some(format!("the running instance turned this client away: {}", message.chars().take(200).collect::<String>()))
}
