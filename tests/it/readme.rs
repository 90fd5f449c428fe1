//! The README is what a newcomer follows, and the crate's front page: its code blocks are
//! doctests (compiled by `cargo test`), and these checks make sure they compile with the
//! dependency blocks the README shows (not only with this crate's dev-dependencies), and that no
//! link or path in the README or in `docs/` points to a file the repository does not have.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// The fenced code blocks of a Markdown text, in order: (info string, body), indentation of
/// blocks inside list items removed.
fn code_blocks(md: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for line in md.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut open {
            None if trimmed.starts_with("```") => open = Some((indent, trimmed[3..].trim().to_owned(), String::new())),
            None => {}
            Some(_) if trimmed == "```" => {
                let (_, info, body) = open.take().expect("open block");
                blocks.push((info, body));
            }
            Some((indent, _, body)) => {
                body.push_str(line.get(*indent..).unwrap_or(trimmed));
                body.push('\n');
            }
        }
    }
    blocks
}

/// The crates a dependency block adds, as Rust names them, with their version requirement.
fn dependencies(toml: &str) -> Vec<(String, Option<String>)> {
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in toml.lines().map(str::trim).filter(|l| !l.starts_with('#')) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]" || line == "[dev-dependencies]";
        } else if in_deps && let Some((name, value)) = line.split_once('=') {
            let value = value.split('#').next().unwrap_or_default();
            let version = value.split('"').nth(1).filter(|_| {
                let v = value.trim_start();
                v.starts_with('"') || v.contains("version")
            });
            deps.push((name.trim().replace('-', "_"), version.map(str::to_owned)));
        }
    }
    deps
}

/// The crates a Rust block names: the first segment of each `a::b` path that starts lower-case
/// and is not `std`, `core`, `crate`, `self` or `super` (a method's turbofish, `.f::<T>`, is
/// no path).
fn crates_used(rust: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let bytes = rust.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for (i, _) in rust.match_indices("::") {
        let mut start = i;
        while start > 0 && ident(bytes[start - 1]) {
            start -= 1;
        }
        let name = &rust[start..i];
        let after_path = start >= 2 && &rust[start - 2..start] == "::";
        let method = start >= 1 && bytes[start - 1] == b'.';
        let turbofish = rust[i + 2..].starts_with('<');
        if name.is_empty() || after_path || method || turbofish || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        if !["std", "core", "alloc", "crate", "self", "super"].contains(&name) {
            used.insert(name.to_owned());
        }
    }
    used
}

/// The version this workspace builds a crate with, from the manifests' dependency tables.
fn workspace_version(name: &str) -> Option<String> {
    let manifest = read(&root().join("Cargo.toml"));
    let line = manifest.lines().find(|l| l.trim_start().starts_with(&format!("{} = ", name.replace('_', "-"))))?;
    let value = line.split_once('=')?.1;
    value.split('"').nth(1).map(str::to_owned)
}

#[test]
fn every_readme_rust_block_uses_only_crates_its_dependency_blocks_add() {
    let readme = read(&root().join("README.md"));
    let mut declared: BTreeSet<String> = BTreeSet::new();
    let mut checked = 0;
    for (info, body) in code_blocks(&readme) {
        if info == "toml" && (body.contains("[dependencies]") || body.contains("[dev-dependencies]")) {
            for (name, version) in dependencies(&body) {
                if let (Some(ours), Some(theirs)) = (workspace_version(&name), &version) {
                    assert!(
                        theirs == &ours || theirs.starts_with(&format!("{ours}.")),
                        "the README asks for {name} {theirs}, the bridge builds with {ours}"
                    );
                }
                declared.insert(name);
            }
        }
        if info.starts_with("rust") {
            checked += 1;
            let missing: Vec<String> = crates_used(&body).difference(&declared).cloned().collect();
            assert!(
                missing.is_empty(),
                "a README code block uses {missing:?}, which no dependency block above it adds ({declared:?}):\n{body}"
            );
        }
    }
    assert!(declared.contains("egui_mcp_bridge"), "the README shows how to depend on the crate");
    assert!(checked >= 2, "the README's Rust blocks were found ({checked})");
}

#[test]
fn the_readme_check_sees_a_missing_crate() {
    // The defect this check was written for: `egui::Window` with no `egui` in the block.
    let used = crates_used("use egui_mcp_bridge::testing::Harness;\nfn f(ctx: &egui::Context) { std::mem::drop(ctx) }");
    assert_eq!(used, BTreeSet::from(["egui".to_owned(), "egui_mcp_bridge".to_owned()]));
    let deps = dependencies("[dependencies]\negui_mcp_bridge = { path = \"..\" }\neframe = \"0.37\" # comment\n");
    assert_eq!(deps, [("egui_mcp_bridge".to_owned(), None), ("eframe".to_owned(), Some("0.37".to_owned()))]);
}

/// The Markdown files a reader of the repository reads: the README, CONTRIBUTING, `docs/` and
/// the guides rustdoc includes (`src/docs/`).
fn documents() -> Vec<PathBuf> {
    let mut files = ["README.md", "CONTRIBUTING.md", "SECURITY.md", "PERFORMANCE.md"].map(|f| root().join(f)).to_vec();
    for folder in ["docs", "src/docs"] {
        for entry in std::fs::read_dir(root().join(folder)).expect("a folder of documents") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files
}

/// Relative link targets (`](target)`), without their `#fragment`.
fn relative_links(md: &str) -> Vec<String> {
    md.match_indices("](")
        .filter_map(|(i, _)| md[i + 2..].split(')').next())
        .map(|t| t.split('#').next().unwrap_or_default().trim().to_owned())
        // Not URLs, and not rustdoc's intra-doc links (`crate::Input`).
        .filter(|t| !t.is_empty() && !t.contains("://") && !t.starts_with("mailto:") && !t.contains("::"))
        .collect()
}

/// Repository paths named in backticks (`src/hub/mod.rs`), skipping patterns (`{a,b}`, `…`, `*`).
fn named_paths(md: &str) -> Vec<String> {
    const TOP: [&str; 8] = ["src/", "tests/", "demo/", "docs/", "scripts/", "benches/", "assets/", ".ci/"];
    md.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| TOP.iter().any(|top| t.starts_with(top)))
        .filter(|t| !t.contains(['{', '*', '…', ' ', '<']))
        .map(|t| t.trim_end_matches(['/', ':']).to_owned())
        .collect()
}

#[test]
fn no_link_or_path_in_the_readme_or_docs_points_to_a_missing_file() {
    let mut broken = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        let dir = doc.parent().expect("a folder");
        for target in relative_links(&text) {
            if !dir.join(&target).exists() {
                broken.push(format!("{}: link to {target}", doc.display()));
            }
        }
        for path in named_paths(&text) {
            if !root().join(&path).exists() && !root().join("demo").join(&path).exists() {
                broken.push(format!("{}: names {path}", doc.display()));
            }
        }
        for outside in ["../shared", "steering repo", "notes/mcp-client", "DESIGN.md", "DEMO.md"] {
            if text.contains(outside) {
                broken.push(format!("{}: refers to {outside}, which is not in the repository", doc.display()));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The README's first example is `demo/examples/hello_bridge.rs` (after its doc comment), word
/// for word: the copy a newcomer reads cannot drift from the program the tests build.
#[test]
fn the_readme_first_example_is_hello_bridge() {
    let readme = read(&root().join("README.md"));
    let example = read(&root().join("demo/examples/hello_bridge.rs"));
    let program =
        example.lines().skip_while(|l| l.starts_with("//!") || l.is_empty()).fold(String::new(), |mut p, l| {
            p.push_str(l);
            p.push('\n');
            p
        });
    let block = code_blocks(&readme)
        .into_iter()
        .find(|(info, body)| info.starts_with("rust") && body.contains("struct Counter"))
        .map(|(_, body)| body)
        .expect("the README shows the counter example");
    assert_eq!(block, program, "README's first example and demo/examples/hello_bridge.rs differ");
}

/// The logging lines the serving guide (`src/docs/serving.md`, on `serve`) shows are the ones
/// `tests/readme_logging.rs` runs after an app's own `log` logger, and its dependency line
/// leaves out tracing-subscriber's `tracing-log` feature (which made `init()` panic in such an
/// app).
#[test]
fn the_documented_logging_lines_are_the_tested_ones() {
    let test = read(&root().join("tests/readme_logging.rs"));
    let begin = test.find("// README:begin").expect("begin marker");
    let end = test.find("// README:end").expect("end marker");
    let readme = read(&root().join("src/docs/serving.md"));
    let flat = |s: &str| s.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
    let lines = flat(&test[begin..end].replace("// README:begin", ""));
    assert!(flat(&readme).contains(&lines), "the serving guide holds the tested logging lines:\n{lines}");
    let dependency =
        readme.lines().find(|l| l.starts_with("tracing-subscriber")).expect("the serving guide's dependency line");
    assert!(dependency.contains("default-features = false"), "{dependency}");
    assert!(!dependency.contains("tracing-log"), "{dependency}");
}

/// Issue 45: the README is a ten-minute read: at most 250 lines, a client connected to the
/// reader's own app (Claude Code's command) within its first 120, and the first example short.
#[test]
fn the_readme_is_a_ten_minute_read() {
    let readme = read(&root().join("README.md"));
    let lines: Vec<&str> = readme.lines().collect();
    assert!(lines.len() <= 250, "the README has {} lines; the reference goes to rustdoc (src/docs/)", lines.len());
    let connect = lines.iter().position(|l| l.contains("claude mcp add my-app")).expect("how to connect Claude Code");
    assert!(connect < 120, "connecting a client to your app comes at line {}", connect + 1);
    let (_, first) = code_blocks(&readme)
        .into_iter()
        .find(|(info, body)| info.starts_with("rust") && body.contains("struct Counter"))
        .expect("the first example");
    let first_lines = first.lines().count();
    assert!(first_lines <= 40, "the first example has {first_lines} lines");
}
