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
