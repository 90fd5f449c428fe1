//! The bearer token of an HTTP endpoint: generated into a file only the user can read when the
//! app gives none, and checked on every request, in constant time, with a failed check answered
//! in-band (a JSON-RPC error the client shows, not a bare HTTP status).

mod store;

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// Largest request body read when answering a failed token check.
const MAX_AUTH_BODY: usize = 64 * 1024;

/// A token generated for one endpoint, in a file only the user can read; the file is removed
/// when the endpoint's handle is dropped, unless it is a store kept across runs.
pub(super) struct TokenFile {
    pub path: std::path::PathBuf,
    pub token: String,
    /// Kept across runs ([`TokenFile::stored`]): not removed on drop.
    keep: bool,
}

impl TokenFile {
    /// 32 random bytes (the OS's on Unix), as hex, written to `$XDG_RUNTIME_DIR` (else the
    /// temporary directory) as `{app}-{pid}-{port}.token`, mode 0600 on Unix.
    pub fn generate(app: &str, port: u16) -> std::io::Result<Self> {
        use std::io::Write as _;
        let token = random_hex()?;
        let app: String = app.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
        let dir = std::env::var_os("XDG_RUNTIME_DIR")
            .map(std::path::PathBuf::from)
            .filter(|d| d.is_absolute() && d.is_dir())
            .unwrap_or_else(std::env::temp_dir);
        let path = dir.join(format!("{app}-{}-{port}.token", std::process::id()));
        // A leftover of a process that had this id goes (a link itself, not what it names);
        // the new file is made, never opened through a link or over another user's file.
        let _ = std::fs::remove_file(&path);
        let named = |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut file = store::create_private(&path).map_err(named)?;
        writeln!(file, "{token}").map_err(named)?;
        Ok(Self { path, token, keep: false })
    }

    /// The token kept in `path` across runs: the one there (its first line, 64 hex digits), or
    /// a new one written there, in a file only the user can read, in a folder only the user can
    /// open. It trusts nothing it did not make: see [`store`].
    pub fn stored(path: &std::path::Path) -> std::io::Result<Self> {
        let token = store::load(path)?;
        Ok(Self { path: path.to_owned(), token, keep: true })
    }
}

/// Replaces the token kept in `path` with a new one (the next start serves it; clients
/// configured with the old one are refused, and an app already serving from `path` keeps the
/// old one until it restarts). See [`crate::serve::HttpOptions::with_token_store`].
pub fn rotate_token(path: &std::path::Path) -> std::io::Result<()> {
    store::rotate(path, &random_hex()?)
}

/// Where an app keeps its HTTP token across runs, per user: `$XDG_STATE_HOME/{app}/http-token`
/// (else `~/.local/state/…`) on Linux and other Unix, `~/Library/Application Support/{app}/…` on
/// macOS, `%APPDATA%\{app}\…` on Windows; `None` when the platform says no home. A relative
/// `XDG_STATE_HOME` is ignored, as the XDG spec says (it would put the token wherever the app
/// was started).
pub fn user_token_path(app: &str) -> Option<std::path::PathBuf> {
    token_path_in(app, |name| std::env::var_os(name))
}

/// [`user_token_path`] with the environment given, for tests (setting variables is unsafe).
fn token_path_in(app: &str, env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<std::path::PathBuf> {
    let app: String = app.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
    let base = if cfg!(windows) {
        var("APPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library/Application Support"))
    } else {
        var("XDG_STATE_HOME").filter(|d| d.is_absolute()).or_else(|| var("HOME").map(|h| h.join(".local/state")))
    }?;
    Some(base.join(app).join("http-token"))
}

impl Drop for TokenFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// 64 hex digits of randomness: the OS's on Unix, else std's randomly keyed hashers.
fn random_hex() -> std::io::Result<String> {
    use std::fmt::Write as _;
    let mut bytes = [0u8; 32];
    #[cfg(unix)]
    {
        use std::io::Read as _;
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    }
    #[cfg(not(unix))]
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        use std::hash::{BuildHasher as _, Hasher as _};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(i);
        h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos());
        chunk.copy_from_slice(&h.finish().to_le_bytes());
    }
    Ok(bytes.iter().fold(String::with_capacity(64), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    }))
}

/// What the token check holds: the token, and when a refusal was last logged.
pub(super) struct TokenCheck {
    token: Box<str>,
    refused: parking_lot::Mutex<Refusals>,
}

/// Refusals counted between two log lines, so that a flood writes one line per ten seconds.
struct Refusals {
    logged: Option<std::time::Instant>,
    since: u64,
}

impl TokenCheck {
    pub fn new(token: &str) -> Arc<Self> {
        Arc::new(Self { token: token.into(), refused: parking_lot::Mutex::new(Refusals { logged: None, since: 0 }) })
    }

    fn log_refusal(&self) {
        let mut r = self.refused.lock();
        r.since += 1;
        if r.logged.is_none_or(|t| t.elapsed() >= std::time::Duration::from_secs(10)) {
            tracing::warn!(refused = r.since, "HTTP requests without the right bearer token refused");
            *r = Refusals { logged: Some(std::time::Instant::now()), since: 0 };
        }
    }
}

/// Lets a request through only with the right bearer token; otherwise answers with a JSON-RPC
/// error (HTTP 200 for POST, so MCP clients surface the message; 401 for GET and DELETE) and
/// closes the connection, so that requests without the token hold no place among the
/// connections (a flood of them cannot crowd out the client that has it).
pub(super) async fn require_token(State(check): State<Arc<TokenCheck>>, request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim());
    if presented.is_some_and(|p| constant_time_eq(p.as_bytes(), check.token.as_bytes())) {
        return next.run(request).await;
    }
    check.log_refusal();
    let is_post = request.method() == Method::POST;
    let id = if is_post {
        let body = axum::body::to_bytes(request.into_body(), MAX_AUTH_BODY).await.unwrap_or_default();
        serde_json::from_slice::<serde_json::Value>(&body).ok().and_then(|v| v.get("id").cloned()).unwrap_or_default()
    } else {
        serde_json::Value::Null
    };
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32001, "message": "Unauthorized: this MCP server needs the header `Authorization: Bearer <token>`"}
    });
    let mut response = Response::new(Body::from(error.to_string()));
    *response.status_mut() = if is_post { StatusCode::OK } else { StatusCode::UNAUTHORIZED };
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Compares secrets without an early exit that would leak how much of them matched.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    #[test]
    fn constant_time_eq_compares() {
        assert!(super::constant_time_eq(b"abc", b"abc"));
        assert!(!super::constant_time_eq(b"abc", b"abd"));
        assert!(!super::constant_time_eq(b"abc", b"ab"));
    }

    #[test]
    fn a_generated_token_is_64_hex_digits_and_differs_each_time() {
        let (a, b) = (super::random_hex().unwrap(), super::random_hex().unwrap());
        assert!(a.len() == 64 && a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
        assert_ne!(a, b);
    }

    /// The token store's tests, each in a fresh folder of its own.
    #[cfg(unix)]
    mod store {
        use std::os::unix::fs::PermissionsExt as _;
        use std::path::{Path, PathBuf};
        use std::sync::Arc;
        use std::time::Duration;

        use super::super::{TokenFile, rotate_token};

        /// A fresh, empty folder for one test (removed first if an earlier run left it).
        fn fresh(name: &str) -> PathBuf {
            let dir = std::env::temp_dir().join(format!("egui-mcp-token-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            dir
        }

        fn mode(path: &Path) -> u32 {
            std::fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
        }

        fn first_line(path: &Path) -> String {
            std::fs::read_to_string(path).unwrap().lines().next().unwrap_or_default().to_owned()
        }

        /// `TokenFile::stored(path)` on a thread of its own, given `bound` to answer: a hang
        /// (a FIFO) or an endless read (`/dev/zero`) fails the test instead of stalling it.
        fn stored_within(path: &Path, bound: Duration) -> std::io::Result<String> {
            let (tx, rx) = crossbeam_channel::bounded(1);
            let path = path.to_owned();
            std::thread::Builder::new()
                .name("stored".into())
                .spawn(move || {
                    let _ = tx.send(TokenFile::stored(&path).map(|t| t.token.clone()));
                })
                .unwrap();
            rx.recv_timeout(bound).expect("TokenFile::stored answered in time")
        }

        const TOKEN: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

        /// `starts` starts of the store at `path` at once (threads through the real code,
        /// released together by a barrier): the token each serves, or why it failed.
        fn start_at_once(path: &std::path::Path, starts: usize) -> Vec<std::io::Result<String>> {
            let barrier = Arc::new(std::sync::Barrier::new(starts));
            let threads: Vec<_> = (0..starts)
                .map(|i| {
                    let (path, barrier) = (path.to_owned(), barrier.clone());
                    std::thread::Builder::new()
                        .name(format!("start-{i}"))
                        .spawn(move || {
                            barrier.wait();
                            TokenFile::stored(&path).map(|t| t.token.clone())
                        })
                        .unwrap()
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        }

        /// Two starts at once on a fresh store (threads through the real code, released
        /// together by a barrier), many times: each serves the token that is in the file.
        #[test]
        fn starts_at_once_on_a_fresh_store_all_serve_the_token_in_the_file() {
            let root = fresh("race");
            for trial in 0..50 {
                let path = root.join(format!("t{trial}/state/http-token"));
                let served = start_at_once(&path, 3);
                let file = first_line(&path);
                for token in served {
                    let token = token.unwrap_or_else(|e| panic!("trial {trial}: a start failed: {e}"));
                    assert_eq!(token, file, "trial {trial}: a start serves a token that is not in the file");
                }
            }
            let _ = std::fs::remove_dir_all(&root);
        }

        /// Two starts at once on a store whose token others could read, many times: both
        /// serve the one new token that is in the file (one sets the old file aside, and a
        /// good file it moves by mistake is put back).
        #[test]
        fn starts_at_once_replacing_an_exposed_token_serve_the_token_in_the_file() {
            let root = fresh("race-exposed");
            for trial in 0..30 {
                let dir = root.join(format!("t{trial}"));
                std::fs::create_dir(&dir).unwrap();
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
                let path = dir.join("http-token");
                std::fs::write(&path, format!("{TOKEN}\n")).unwrap();
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
                let served = start_at_once(&path, 2);
                let file = first_line(&path);
                assert_ne!(file, TOKEN, "trial {trial}: the exposed token is gone");
                assert_eq!(mode(&path), 0o600);
                for token in served {
                    let token = token.unwrap_or_else(|e| panic!("trial {trial}: a start failed: {e}"));
                    assert_eq!(token, file, "trial {trial}: a start serves a token that is not in the file");
                }
                let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
                assert_eq!(left, ["http-token"], "trial {trial}: no temporary file left");
            }
            let _ = std::fs::remove_dir_all(&root);
        }

        /// A link where the token file goes is not followed: not read, not chmodded, not
        /// written through; the error names the path.
        #[test]
        fn a_symlinked_token_file_is_not_followed() {
            let dir = fresh("file-link");
            let target = dir.join("elsewhere");
            std::fs::write(&target, format!("{TOKEN}\n")).unwrap();
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
            let store = dir.join("state");
            std::fs::create_dir(&store).unwrap();
            std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o700)).unwrap();
            let path = store.join("http-token");
            std::os::unix::fs::symlink(&target, &path).unwrap();
            let err = stored_within(&path, Duration::from_secs(10)).expect_err("a link is refused");
            assert!(err.to_string().contains(&*path.to_string_lossy()), "the error names the path: {err}");
            assert_eq!(mode(&target), 0o644, "the link's target is not chmodded");
            assert_eq!(first_line(&target), TOKEN, "nor written through");
            assert!(std::fs::symlink_metadata(&path).unwrap().file_type().is_symlink(), "the link stays");
            let err = rotate_token(&path).err();
            assert_eq!(first_line(&target), TOKEN, "rotation does not write through the link either ({err:?})");
            let _ = std::fs::remove_dir_all(&dir);
        }

        /// A store folder that is a link (say into another user's folder) is not followed.
        #[test]
        fn a_symlinked_store_folder_is_not_followed() {
            let dir = fresh("dir-link");
            let real = dir.join("real");
            std::fs::create_dir(&real).unwrap();
            std::fs::write(real.join("http-token"), format!("{TOKEN}\n")).unwrap();
            std::fs::set_permissions(real.join("http-token"), std::fs::Permissions::from_mode(0o600)).unwrap();
            let linked = dir.join("linked");
            std::os::unix::fs::symlink(&real, &linked).unwrap();
            let path = linked.join("http-token");
            let err = stored_within(&path, Duration::from_secs(10)).expect_err("a linked folder is refused");
            assert!(err.to_string().contains(&*linked.to_string_lossy()), "the error names the folder: {err}");
            assert!(rotate_token(&path).is_err(), "rotation refuses it too");
            assert_eq!(first_line(&real.join("http-token")), TOKEN, "nothing written through the link");
            let _ = std::fs::remove_dir_all(&dir);
        }

        /// A FIFO where the token file goes neither hangs the start nor is read.
        #[test]
        fn a_fifo_does_not_hang_the_start() {
            let dir = fresh("fifo");
            let path = dir.join("http-token");
            let made = std::process::Command::new("mkfifo").arg("-m").arg("600").arg(&path).status().unwrap();
            assert!(made.success(), "mkfifo");
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
            let err = stored_within(&path, Duration::from_secs(10)).expect_err("a FIFO is refused");
            assert!(err.to_string().contains(&*path.to_string_lossy()), "the error names the path: {err}");
            let _ = std::fs::remove_dir_all(&dir);
        }

        /// A link to `/dev/zero` is refused at once, and a regular file longer than a token
        /// file is refused without being read whole.
        #[test]
        fn an_endless_or_long_file_is_refused_without_reading_it() {
            let dir = fresh("zero");
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
            let path = dir.join("http-token");
            std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
            let err = stored_within(&path, Duration::from_secs(10)).expect_err("/dev/zero is refused");
            assert!(err.to_string().contains(&*path.to_string_lossy()), "the error names the path: {err}");
            std::fs::remove_file(&path).unwrap();
            // A token followed by a megabyte: not a file the bridge wrote.
            std::fs::write(&path, format!("{TOKEN}\n{}", "0".repeat(1 << 20))).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            let err = stored_within(&path, Duration::from_secs(10)).expect_err("a long file is refused");
            assert!(err.to_string().contains(&*path.to_string_lossy()), "the error names the path: {err}");
            let _ = std::fs::remove_dir_all(&dir);
        }

        /// A token others could read is replaced by a new one, in a file made 0600; the log
        /// line says so and names the file, and holds neither token.
        #[test]
        fn a_token_others_could_read_is_replaced() {
            let dir = fresh("exposed");
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
            let path = dir.join("http-token");
            std::fs::write(&path, format!("{TOKEN}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let (log, token) = logged(|| TokenFile::stored(&path).unwrap().token.clone());
            assert_ne!(token, TOKEN, "a token others could read is not served");
            assert_eq!(first_line(&path), token, "the new token is the one in the file");
            assert_eq!(mode(&path), 0o600);
            assert!(log.contains("replaced") && log.contains(&*path.to_string_lossy()), "the log says so: {log}");
            assert!(!log.contains(TOKEN) && !log.contains(&token), "no token in the log: {log}");
            let _ = std::fs::remove_dir_all(&dir);
        }

        /// A store folder others can open is made 0700; its token, private, is kept.
        #[test]
        fn a_store_folder_others_can_open_is_made_private() {
            let dir = fresh("open-folder");
            let store = dir.join("state");
            std::fs::create_dir(&store).unwrap();
            std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o777)).unwrap();
            let path = store.join("http-token");
            std::fs::write(&path, format!("{TOKEN}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            let (log, token) = logged(|| TokenFile::stored(&path).unwrap().token.clone());
            assert_eq!(token, TOKEN, "a private token file in our folder is kept");
            assert_eq!(mode(&store), 0o700, "the folder is made private");
            assert!(log.contains(&*store.to_string_lossy()), "the log names the folder: {log}");
            let _ = std::fs::remove_dir_all(&dir);
        }

        /// A store folder (or a token file) owned by another user is refused, not used. Only
        /// root can give a folder away, so only as root is this checked (these tests run as
        /// root in CI's container).
        #[test]
        fn a_store_folder_of_another_user_is_refused() {
            let dir = fresh("theirs");
            let store = dir.join("state");
            std::fs::create_dir(&store).unwrap();
            std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o700)).unwrap();
            let path = store.join("http-token");
            std::fs::write(&path, format!("{TOKEN}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            if std::os::unix::fs::chown(&store, Some(65534), Some(65534)).is_err() {
                eprintln!("not root: cannot give a folder away, nothing to check");
                return;
            }
            let err = stored_within(&path, Duration::from_secs(10)).expect_err("another user's folder is refused");
            assert!(err.to_string().contains(&*store.to_string_lossy()), "the error names the folder: {err}");
            // Our folder, their file: refused too.
            let ours = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&dir).unwrap());
            std::os::unix::fs::chown(&store, Some(ours), None).unwrap();
            std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
            let err = stored_within(&path, Duration::from_secs(10)).expect_err("another user's file is refused");
            assert!(err.to_string().contains(&*path.to_string_lossy()), "the error names the file: {err}");
            let _ = std::fs::remove_dir_all(&dir);
        }

        /// Where the store cannot be, the error says where it is.
        #[test]
        fn errors_name_the_path() {
            let dir = fresh("errors");
            let blocker = dir.join("a-file");
            std::fs::write(&blocker, "").unwrap();
            let path = blocker.join("state/http-token");
            let err = TokenFile::stored(&path).err().expect("no folder under a file");
            assert!(err.to_string().contains(&*blocker.to_string_lossy()), "the error names the path: {err}");
            let err = rotate_token(&path).expect_err("nor for rotation");
            assert!(err.to_string().contains(&*blocker.to_string_lossy()), "the error names the path: {err}");
            let _ = std::fs::remove_dir_all(&dir);
        }

        /// What `run` logs (at any level, to a buffer) and what it returns.
        fn logged<T>(run: impl FnOnce() -> T) -> (String, T) {
            let buffer = Arc::new(parking_lot::Mutex::new(Vec::<u8>::new()));
            let writer = {
                let buffer = buffer.clone();
                move || Capture(buffer.clone())
            };
            let subscriber = tracing_subscriber::fmt().with_writer(writer).with_ansi(false).finish();
            let out = tracing::subscriber::with_default(subscriber, run);
            let log = String::from_utf8_lossy(&buffer.lock()).into_owned();
            (log, out)
        }

        struct Capture(Arc<parking_lot::Mutex<Vec<u8>>>);

        impl std::io::Write for Capture {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
    }
}
