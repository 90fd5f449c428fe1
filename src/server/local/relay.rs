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
/// (`EGUI_MCP_BRIDGE_INSTANCE`) that does not run, or the relay's runtime cannot start.
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

    /// The instance to relay to: the one named, else the newest; `None` when none runs.
    fn choose(&self) -> io::Result<Option<Instance>> {
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
        let Some(pid) = named else { return Ok(live.into_iter().next()) };
        match live.into_iter().find(|i| i.pid == pid) {
            Some(found) => Ok(Some(found)),
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
        let Some(instance) = self.choose()? else { return Ok(Attached::NoInstance) };
        let others = self.instances().map_or(0, |l| l.len().saturating_sub(1));
        let runtime =
            tokio::runtime::Builder::new_current_thread().thread_name("egui-mcp-relay").enable_all().build()?;
        let relayed = runtime.block_on(async {
            let stream = connect(&instance).await?;
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
            relay(stream, tokio::io::stdin(), tokio::io::stdout()).await;
            Ok::<(), io::Error>(())
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
        let Some(instance) = self.choose()? else { return Ok(Attached::NoInstance) };
        let stream = connect(&instance).await?;
        relay(stream, read, write).await;
        Ok(Attached::Relayed(instance))
    }
}

/// A connection to `instance`, checked to be served by a process of this user.
#[cfg(unix)]
async fn connect(instance: &Instance) -> io::Result<tokio::net::UnixStream> {
    let stream = tokio::net::UnixStream::connect(&instance.path)
        .await
        .map_err(|e| crate::server::user_files::named(&instance.path, "cannot be reached", &e))?;
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

/// Copies both ways until either side ends: the client's end of input is passed on (the instance
/// then ends the connection), and the instance's end ends the relay at once.
async fn relay<S, R, W>(stream: S, mut read: R, mut write: W)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite,
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::AsyncWriteExt as _;
    let (mut from_app, mut to_app) = tokio::io::split(stream);
    let upstream = async {
        let copied = tokio::io::copy(&mut read, &mut to_app).await;
        let _ = to_app.shutdown().await;
        if let Err(e) = copied {
            tracing::debug!(error = %e, "the relay stopped reading the client");
        }
        // Then wait for the instance to finish answering.
        std::future::pending::<()>().await;
    };
    let downstream = async {
        if let Err(e) = tokio::io::copy(&mut from_app, &mut write).await {
            tracing::debug!(error = %e, "the relay stopped writing to the client");
        }
        let _ = write.flush().await;
    };
    tokio::select! {
        () = upstream => {}
        () = downstream => {}
    }
}
