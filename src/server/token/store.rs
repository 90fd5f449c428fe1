//! The token kept across runs in a file (`HttpOptions::with_token_store`), trusting nothing it
//! did not make: the folder is the user's own and private (0700, fixed if it was not; refused if
//! another user's or a link), the file is opened without following links and without blocking
//! (a FIFO), read only if it is a regular file of the user's, and at most [`MAX_READ`] bytes. A
//! new token is written to a private temporary file beside it, then hard-linked into place,
//! which fails if a file is there: whoever starts first, the token in the file is the one every
//! start serves (a start that loses the race reads the winner's). Every error names its path.

use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};

#[cfg(unix)]
use crate::server::user_files::our_uid;
use crate::server::user_files::{self, create_private, named, temp_name};

/// Most bytes read from a token file: a token and its newline with room to spare. A longer file
/// is not one the bridge wrote (and a link to `/dev/zero` must not be read until memory ends).
const MAX_READ: u64 = 256;

/// Rounds of read, then create or replace: a round is lost only when another start changed the
/// file meanwhile, and the next round reads what it wrote.
const ROUNDS: usize = 8;

/// The token in `path`, made there first if there is none or it is not fit to serve.
pub(super) fn load(path: &Path) -> io::Result<String> {
    let dir = private_folder(path)?;
    // Why the file there was set aside, said once its replacement is in place.
    let mut replaced = None;
    for _ in 0..ROUNDS {
        match read(path)? {
            Found::Token(token) => {
                if let Some(why) = replaced {
                    tracing::warn!(file = %path.display(), "the HTTP token file {why}: replaced with a new token");
                }
                return Ok(token);
            }
            Found::Missing => {
                let token = super::random_hex()?;
                if place(&dir, path, &token)? {
                    if let Some(why) = replaced {
                        tracing::warn!(file = %path.display(), "the HTTP token file {why}: replaced with a new token");
                    }
                    return Ok(token);
                }
                // Another start placed its token first: the next round reads it.
            }
            Found::Unfit { why, was } => {
                set_aside(&dir, path, was)?;
                replaced = Some(why);
            }
        }
    }
    Err(named(path, "changed by other processes on every read", &io::Error::from(io::ErrorKind::Interrupted)))
}

/// Writes `token` to `path` in place of what is there (a link is replaced, not followed).
pub(super) fn rotate(path: &Path, token: &str) -> io::Result<()> {
    let dir = private_folder(path)?;
    let temp = write_temp(&dir, path, token)?;
    let renamed = std::fs::rename(&temp, path);
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    renamed.map_err(|e| named(path, "cannot be replaced", &e))
}

/// What a token file holds.
enum Found {
    Missing,
    Token(String),
    /// A file of the user's not fit to serve (others could read it, or it holds no token):
    /// replaced. `was` tells it from a file another start puts there meanwhile.
    Unfit {
        why: &'static str,
        was: Identity,
    },
}

/// Which file a path named: device and inode on Unix (none elsewhere: there, a file is
/// taken to be the one read).
#[cfg(unix)]
type Identity = (u64, u64);
#[cfg(not(unix))]
type Identity = ();

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt as _;
    (meta.dev(), meta.ino())
}
#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Identity {}

/// A refusal of `path`, which the user must look at (nothing is changed).
fn refused(path: &Path, why: &str) -> io::Error {
    user_files::refused(path, why, "the HTTP token store")
}

/// The folder of `path`, made private if missing; an existing one is checked
/// ([`user_files::check_folder`]).
fn private_folder(path: &Path) -> io::Result<PathBuf> {
    if path.file_name().is_none() {
        return Err(named(path, "names no file", &io::Error::from(io::ErrorKind::InvalidInput)));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    user_files::private_folder(dir, "the HTTP token store")
}

/// The token file at `path`, if it is one the bridge can trust: opened without following a
/// link and without blocking (a FIFO), then checked through the handle.
fn read(path: &Path) -> io::Result<Found> {
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut open, libc::O_NOFOLLOW | libc::O_NONBLOCK);
    // Elsewhere `open` follows links: look first (a window, but no link is read on purpose).
    #[cfg(not(unix))]
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(refused(path, "it is a symbolic link"));
    }
    let file = match open.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Found::Missing),
        Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            return Err(refused(path, "it is a symbolic link"));
        }
        Err(e) => return Err(named(path, "cannot be opened", &e)),
    };
    let meta = file.metadata().map_err(|e| named(path, "cannot be looked at", &e))?;
    if !meta.is_file() {
        return Err(refused(path, "it is not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let uid = our_uid()?;
        if meta.uid() != uid {
            return Err(refused(path, &format!("it belongs to another user (uid {}, not {uid})", meta.uid())));
        }
    }
    let mut bytes = Vec::new();
    (&file).take(MAX_READ + 1).read_to_end(&mut bytes).map_err(|e| named(path, "cannot be read", &e))?;
    if bytes.len() as u64 > MAX_READ {
        return Err(refused(path, &format!("it is longer than {MAX_READ} bytes, so not a token file")));
    }
    let was = identity(&meta);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        if meta.permissions().mode() & 0o077 != 0 {
            return Ok(Found::Unfit { why: "could be read by others", was });
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    match text.lines().next().map(str::trim).filter(|t| is_token(t)) {
        Some(token) => Ok(Found::Token(token.to_owned())),
        None => Ok(Found::Unfit { why: "holds no token", was }),
    }
}

/// Whether a stored line is a token the bridge made: 64 hex digits.
fn is_token(line: &str) -> bool {
    line.len() == 64 && line.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Puts a file holding `token` at `path` unless one is there: written whole and private beside
/// it first, then hard-linked into place (which never replaces). Whether it was placed.
fn place(dir: &Path, path: &Path, token: &str) -> io::Result<bool> {
    let temp = write_temp(dir, path, token)?;
    let linked = std::fs::hard_link(&temp, path);
    let _ = std::fs::remove_file(&temp);
    match linked {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        // A file system without hard links (some FUSE or FAT mounts): created in place, never
        // over another file; a start reading it before its line is written would replace it.
        Err(e) if e.kind() == io::ErrorKind::Unsupported || e.kind() == io::ErrorKind::PermissionDenied => {
            match create_private(path) {
                Ok(mut file) => {
                    writeln!(file, "{token}").map_err(|e| named(path, "cannot be written", &e))?;
                    Ok(true)
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
                Err(e) => Err(named(path, "cannot be created", &e)),
            }
        }
        Err(e) => Err(named(path, "cannot be created", &e)),
    }
}

/// Moves the unfit file `was` away from `path` and removes it. If another start replaced it
/// meanwhile, the good file moved by mistake is put back.
fn set_aside(dir: &Path, path: &Path, was: Identity) -> io::Result<()> {
    let aside = temp_name(dir, path, "old");
    match std::fs::rename(path, &aside) {
        Ok(()) => {}
        // Another start moved it first.
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(named(path, "cannot be replaced", &e)),
    }
    let moved = std::fs::symlink_metadata(&aside).map(|m| identity(&m));
    if moved.is_ok_and(|m| m != was) {
        // Another start's fresh token: back into place, unless a third start has placed one.
        if std::fs::hard_link(&aside, path).is_err() {
            tracing::warn!(file = %path.display(), "the HTTP token file was replaced by several starts at once: one of them may serve a token that is not in it until it restarts");
        }
    }
    std::fs::remove_file(&aside).map_err(|e| named(&aside, "cannot be removed", &e))
}

/// A new private file beside `path` holding `token` and a newline, on disk before it is used.
fn write_temp(dir: &Path, path: &Path, token: &str) -> io::Result<PathBuf> {
    for _ in 0..ROUNDS {
        let temp = temp_name(dir, path, "new");
        let mut file = match create_private(&temp) {
            Ok(file) => file,
            // A leftover of a process that had this one's id: another name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(named(&temp, "cannot be created", &e)),
        };
        let written = writeln!(file, "{token}").and_then(|()| file.sync_all());
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(named(&temp, "cannot be written", &e));
        }
        return Ok(temp);
    }
    Err(named(dir, "no free name for a temporary token file", &io::Error::from(io::ErrorKind::AlreadyExists)))
}
