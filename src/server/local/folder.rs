//! Where the user's running instances are: the per-user folder, the socket's name for an app,
//! and the instances found there (stale ones removed, anything the bridge did not make left
//! alone and skipped).
#![cfg_attr(not(unix), allow(dead_code, reason = "the local endpoint is Unix only: elsewhere nothing here is called"))]

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What the local endpoint's folder checks are for, in their errors.
pub(super) const USER: &str = "the local endpoint";

/// The longest app name kept in a socket's name (a socket's path has at most 104 bytes on
/// macOS, 108 on Linux).
const MAX_NAME: usize = 40;

/// One running instance of an app, as its socket says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Its process id.
    pub pid: u32,
    /// Its socket.
    pub path: PathBuf,
    /// When it opened its endpoint (the socket's modification time).
    pub started: SystemTime,
}

/// The app's name as it appears in socket names: ASCII letters, digits, `-` and `_` (any other
/// character becomes `_`), at most [`MAX_NAME`] of them.
pub(super) fn slug(app: &str) -> String {
    let name: String = app
        .chars()
        .take(MAX_NAME)
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if name.is_empty() { "app".to_owned() } else { name }
}

/// The socket this process serves `app` on, in `folder`.
pub(super) fn socket_path(folder: &Path, app: &str) -> PathBuf {
    folder.join(format!("{}.{}.sock", slug(app), std::process::id()))
}

/// The folder given, else `EGUI_MCP_BRIDGE_DIR`, else the per-user default.
pub(super) fn folder(given: Option<&Path>) -> io::Result<PathBuf> {
    if let Some(dir) = given {
        return Ok(dir.to_owned());
    }
    match std::env::var_os("EGUI_MCP_BRIDGE_DIR").filter(|d| !d.is_empty()).map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => Ok(dir),
        Some(dir) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("EGUI_MCP_BRIDGE_DIR={}: not an absolute path", dir.display()),
        )),
        None => default_folder(),
    }
}

/// `/run/user/{uid}/egui-mcp-bridge` where the login session made `/run/user/{uid}` (the user's
/// own), else `/tmp/egui-mcp-bridge-{uid}`. Never from `$XDG_RUNTIME_DIR` or `$TMPDIR`: a client
/// starts its server without them, and both sides must find the same folder.
#[cfg(unix)]
pub(super) fn default_folder() -> io::Result<PathBuf> {
    use std::os::unix::fs::MetadataExt as _;
    let uid = crate::server::user_files::our_uid()?;
    let run = PathBuf::from(format!("/run/user/{uid}"));
    let session = std::fs::symlink_metadata(&run).is_ok_and(|m| m.is_dir() && m.uid() == uid);
    if cfg!(target_os = "linux") && session {
        Ok(run.join("egui-mcp-bridge"))
    } else {
        Ok(PathBuf::from(format!("/tmp/egui-mcp-bridge-{uid}")))
    }
}

#[cfg(not(unix))]
pub(super) fn default_folder() -> io::Result<PathBuf> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "the local endpoint is Unix only"))
}

/// The instances of `app` in `folder` whose sockets are the user's own, newest first (not yet
/// known to be live: [`super::relay`] connects to find out). A link or anything else under a
/// socket's name is skipped with a warning, never followed or removed.
#[cfg(unix)]
pub(super) fn sockets(folder: &Path, app: &str) -> io::Result<Vec<Instance>> {
    use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
    let prefix = format!("{}.", slug(app));
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(crate::server::user_files::named(folder, "cannot be read", &e)),
    };
    let uid = crate::server::user_files::our_uid()?;
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(&prefix)?.strip_suffix(".sock")?.parse().ok()) else {
            continue;
        };
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        if !meta.file_type().is_socket() || meta.uid() != uid {
            tracing::warn!(path = %path.display(), "not a socket of this user's: skipped (a link or a planted file is never followed)");
            continue;
        }
        let started = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        found.push(Instance { pid, path, started });
    }
    found.sort_by(|a, b| b.started.cmp(&a.started).then(b.pid.cmp(&a.pid)));
    Ok(found)
}

/// Whether someone answers on the socket at `path`: `false` when it is stale (its app is
/// gone; connecting is refused).
#[cfg(unix)]
pub(super) fn is_live(path: &Path) -> bool {
    std::os::unix::net::UnixStream::connect(path).is_ok()
}

/// Removes `instance`'s socket if it is stale, saying so; whether it was.
#[cfg(unix)]
pub(super) fn remove_if_stale(instance: &Instance) -> bool {
    if is_live(&instance.path) {
        return false;
    }
    match std::fs::remove_file(&instance.path) {
        Ok(()) => {
            tracing::info!(pid = instance.pid, path = %instance.path.display(), "removed the endpoint of an instance that is gone");
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => tracing::warn!(path = %instance.path.display(), error = %e, "a stale endpoint could not be removed"),
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_short() {
        assert_eq!(slug("order-demo"), "order-demo");
        assert_eq!(slug("My App/../x"), "My_App____x");
        assert_eq!(slug(""), "app");
        assert_eq!(slug(&"a".repeat(100)).len(), MAX_NAME);
        let path = socket_path(Path::new("/f"), "x.y");
        assert_eq!(path, PathBuf::from(format!("/f/x_y.{}.sock", std::process::id())));
    }
}
