//! Files and folders only this user can use, trusting nothing the bridge did not make: shared by
//! the HTTP token store and the local endpoint. A folder must be a real folder (not a link to
//! one), the user's own, and private (0700: fixed if it was not); a file is made new, never
//! through a link, mode 0600. Every error names its path.

use std::io;
use std::path::{Path, PathBuf};

/// `error`, saying which path and what of it.
pub(crate) fn named(path: &Path, what: &str, error: &io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {what}: {error}", path.display()))
}

/// A refusal of `path` by `user` (the part of the bridge that will not use it), which the person
/// must look at: nothing is changed.
pub(crate) fn refused(path: &Path, why: &str, user: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}; {user} does not use it", path.display()))
}

/// `dir`, made private if missing (with its parents); an existing one is checked (see
/// [`check_folder`]).
pub(crate) fn private_folder(dir: &Path, user: &str) -> io::Result<PathBuf> {
    match std::fs::symlink_metadata(dir) {
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder.create(dir).map_err(|e| named(dir, "cannot be made", &e))?;
        }
        Err(e) => return Err(named(dir, "cannot be looked at", &e)),
    }
    check_folder(dir, user)?;
    Ok(dir.to_owned())
}

/// The folder must be a folder, not a link to one (only the last part of the path is checked:
/// `$HOME` itself may be a link), the user's own, and private: others' access is taken away.
#[cfg(unix)]
pub(crate) fn check_folder(dir: &Path, user: &str) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _};
    a_real_folder(dir, user)?;
    // Checked and fixed through a handle, so that what is checked is what is changed.
    let folder = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_DIRECTORY)
        .open(dir)
        .map_err(|e| named(dir, "cannot be opened", &e))?;
    let meta = folder.metadata().map_err(|e| named(dir, "cannot be looked at", &e))?;
    let uid = our_uid()?;
    if meta.uid() != uid {
        return Err(refused(dir, &format!("the folder belongs to another user (uid {}, not {uid})", meta.uid()), user));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        folder
            .set_permissions(std::fs::Permissions::from_mode(0o700))
            .map_err(|e| named(dir, "cannot be made private", &e))?;
        tracing::warn!(folder = %dir.display(), was = format!("{mode:o}"), user, "a folder others could open: made private (0700)");
    }
    Ok(())
}

#[cfg(not(unix))]
pub(crate) fn check_folder(dir: &Path, user: &str) -> io::Result<()> {
    a_real_folder(dir, user)
}

/// `dir` is a folder itself, not a link to one.
fn a_real_folder(dir: &Path, user: &str) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(dir).map_err(|e| named(dir, "cannot be looked at", &e))?;
    if meta.file_type().is_symlink() {
        return Err(refused(dir, "the folder is a symbolic link", user));
    }
    if !meta.is_dir() {
        return Err(refused(dir, "it is not a folder", user));
    }
    Ok(())
}

/// A name beside `path` for a file of this process's (`what`: why it is there), not used before
/// by it.
pub(crate) fn temp_name(dir: &Path, path: &Path, what: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    dir.join(format!(".{name}.{}.{n}.{what}", std::process::id()))
}

/// A new file only the user can read (mode 0600 on Unix); never through a link, never over a
/// file that is there.
pub(crate) fn create_private(path: &Path) -> io::Result<std::fs::File> {
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        open.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    open.open(path)
}

/// This process's effective user id. std has none (libc's `geteuid` is an `unsafe fn`): on
/// Linux `/proc/self/status` says it; elsewhere it is the owner of a file this process makes.
#[cfg(unix)]
pub(crate) fn our_uid() -> io::Result<u32> {
    static UID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    if let Some(uid) = UID.get() {
        return Ok(*uid);
    }
    let uid = if let Some(uid) = status_euid() {
        uid
    } else {
        use std::os::unix::fs::MetadataExt as _;
        let probe = temp_name(&std::env::temp_dir(), Path::new("egui-mcp-bridge-uid"), "probe");
        let file = create_private(&probe).map_err(|e| named(&probe, "cannot be created", &e))?;
        let meta = file.metadata();
        let _ = std::fs::remove_file(&probe);
        meta.map_err(|e| named(&probe, "cannot be looked at", &e))?.uid()
    };
    Ok(*UID.get_or_init(|| uid))
}

/// The effective uid in `/proc/self/status` (`Uid:` real, effective, saved, fs), on Linux.
#[cfg(unix)]
fn status_euid() -> Option<u32> {
    if !cfg!(any(target_os = "linux", target_os = "android")) {
        return None;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
