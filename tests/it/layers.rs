//! The layers of `docs/design.md`, checked on the source: no file of `src/` imports from a layer
//! its row of the "Layers" table does not list, names egui or rmcp where the row says "no egui"
//! or "no rmcp" (or names egui in a file other than those its row lists, if it lists files), or
//! takes part in an import cycle with other files of `src/`.
//!
//! Plain string parsing, no dependency: comments and literals are blanked, then every `use`
//! tree and every path that starts with `crate`, `super`, `self` or a child module is resolved
//! to the file that defines its item (through re-exports, so a module's `mod.rs` that only
//! re-exports is not counted as the dependency). Each layer's folder, what it may import and what
//! it must not name are read from the table itself, so the docs and the check cannot drift.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

#[test]
fn no_file_imports_from_a_higher_layer() {
    let crate_src = Source::read(&root().join("src"));
    let layers = Layer::from_design(&std::fs::read_to_string(root().join("docs/design.md")).expect("docs/design.md"));
    let problems = layer_problems(&crate_src, &layers);
    assert!(problems.is_empty(), "imports that break docs/design.md's layers:\n{}", problems.join("\n"));
}

#[test]
fn no_files_import_each_other_in_a_cycle() {
    let crate_src = Source::read(&root().join("src"));
    let found: Vec<String> = cycles(&crate_src.edges()).iter().map(|c| describe_cycle(&crate_src, c)).collect();
    assert!(found.is_empty(), "files of src/ that import each other in a cycle:\n{}", found.join("\n"));
}

/// The check itself: a file that imports from a higher layer, and two files that import each
/// other, are found (on made-up sources, so the check cannot pass whatever the code does).
#[test]
fn the_check_finds_a_higher_import_and_a_cycle() {
    let files = [
        ("src/lib.rs", "mod hub; mod declare; pub use declare::Form;"),
        ("src/hub/mod.rs", "mod frame; pub(crate) use frame::Frame;"),
        // A lower layer reaching up, inline and through a re-export; `super` inside an inline
        // module is the file itself.
        ("src/hub/frame.rs", "pub struct Frame; fn f() { crate::Form::new(); } mod tests { use super::*; }"),
        // Names crates its row forbids.
        ("src/hub/ids.rs", "fn id(_: egui::Id) {}\nfn peer(_: rmcp::Peer) {}"),
        // In no row of the table.
        ("src/stray.rs", "pub struct Stray;"),
        ("src/declare/mod.rs", "mod form; mod window; pub use form::Form; use crate::hub::Frame;"),
        // Through the root's re-export: resolves to the declare layer itself, but reads as the root.
        ("src/declare/menu.rs", "fn m() { let _ = crate::Form; }"),
        ("src/declare/form.rs", "use super::window::WindowUi; pub struct Form; /* use crate::hub::Gone; */"),
        // Names egui, and the row does not list it.
        (
            "src/declare/window.rs",
            "pub struct WindowUi; fn g(_: egui::Ui) -> &'static str { let _ = super::form::Form; \"crate::hub::Gone\" }",
        ),
    ];
    let src = Source::from_files(files.iter().map(|(p, t)| ((*p).to_owned(), (*t).to_owned())).collect());
    let layers = Layer::from_design(
        "| layer | folder | what it holds | may import |\n| --- | --- | --- | --- |\n\
         | hub | [`src/hub/`](x) | core | Nothing of the crate. No egui, no rmcp. |\n\
         | declare | [`src/declare/`](x) | api | `hub`, and egui in `form.rs`. No rmcp. |\n\
         | façade | [`src/lib.rs`](x) | root | `hub`, `declare`. |\n",
    );
    let mut problems = layer_problems(&src, &layers);
    problems.sort();
    assert_eq!(
        problems,
        [
            "src/declare/form.rs: listed as naming egui, and does not",
            "src/declare/menu.rs:1: the declare layer names src/lib.rs as written",
            "src/declare/window.rs:1: names egui, not listed for the declare layer",
            "src/hub/frame.rs:1: the hub layer imports src/declare/form.rs",
            "src/hub/frame.rs:1: the hub layer names src/lib.rs as written",
            "src/hub/ids.rs:1: the hub layer names egui",
            "src/hub/ids.rs:2: the hub layer names rmcp",
            "src/stray.rs: in no layer of the table",
        ]
    );
    let cycles = cycles(&src.edges());
    let form_window: BTreeSet<String> = ["src/declare/form.rs", "src/declare/window.rs"].map(str::to_owned).into();
    assert_eq!(cycles, BTreeSet::from([form_window]));
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One row of the design's "Layers" table.
#[derive(Debug)]
struct Layer {
    name: String,
    /// Folders (`src/hub/`) and files (`src/bridge.rs`) of the layer.
    places: Vec<String>,
    /// The layers it may import, itself included.
    may_import: BTreeSet<String>,
    /// The crates it must not name ("no egui", "no rmcp").
    forbidden: Vec<&'static str>,
    /// The files that name egui, if the row lists them (`both.rs`): exactly those do.
    egui_in: Vec<String>,
}

impl Layer {
    /// The rows of the table whose header is `| layer | folder | … | may import |`.
    fn from_design(design: &str) -> Vec<Layer> {
        let mut rows = design
            .lines()
            .skip_while(|l| !l.starts_with("| layer | folder |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| l.split('|').map(str::trim).skip(1).collect::<Vec<_>>())
            .collect::<Vec<_>>();
        assert!(!rows.is_empty(), "docs/design.md has no \"| layer | folder |\" table");
        let names: Vec<String> =
            rows.iter().map(|r| r[0].split_whitespace().next().unwrap_or_default().to_owned()).collect();
        rows.iter_mut()
            .zip(&names)
            .map(|(row, name)| {
                let may = row[3].to_lowercase();
                let mut may_import: BTreeSet<String> =
                    backticked(row[3]).into_iter().filter(|w| names.contains(w)).collect();
                may_import.insert(name.clone());
                Layer {
                    name: name.clone(),
                    places: backticked(row[1]).into_iter().filter(|p| p.starts_with("src/")).collect(),
                    may_import,
                    forbidden: ["egui", "rmcp"].into_iter().filter(|c| may.contains(&format!("no {c}"))).collect(),
                    egui_in: backticked(row[3])
                        .into_iter()
                        .filter(|w| Path::new(w).extension().is_some_and(|e| e == "rs"))
                        .collect(),
                }
            })
            .collect()
    }

    fn holds(&self, file: &str) -> bool {
        self.places.iter().any(|p| if p.ends_with('/') { file.starts_with(p.as_str()) } else { file == p })
    }
}

/// The words of `cell` in backticks.
fn backticked(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

/// Each import of a file from a layer its row does not allow, and each crate it names that its
/// row forbids, as `file:line: …`.
fn layer_problems(src: &Source, layers: &[Layer]) -> Vec<String> {
    let layer_of = |file: &str| layers.iter().find(|l| l.holds(file));
    let mut problems = Vec::new();
    for f in &src.files {
        let Some(layer) = layer_of(&f.path) else {
            problems.push(format!("{}: in no layer of the table", f.path));
            continue;
        };
        for (line, to) in src.imports(f) {
            let allowed = layer_of(&to).is_some_and(|l| layer.may_import.contains(&l.name));
            if !allowed {
                problems.push(format!("{}:{line}: the {} layer imports {to}", f.path, layer.name));
            }
        }
        // As written, too: a path through the crate root's re-exports (`crate::Press`) reads as
        // an import from the root, whatever it resolves to.
        for (line, to) in src.names(f, false) {
            let allowed = layer_of(&to).is_some_and(|l| l.name == layer.name || layer.may_import.contains(&l.name));
            if !allowed && src.imports(f).iter().all(|(l, t)| *l != line || *t != to) {
                problems.push(format!("{}:{line}: the {} layer names {to} as written", f.path, layer.name));
            }
        }
        let names =
            |krate: &str| f.tokens.windows(2).find(|w| w[0].text == krate && w[1].text == "::").map(|w| w[0].line);
        for krate in &layer.forbidden {
            if let Some(line) = names(krate) {
                problems.push(format!("{}:{line}: the {} layer names {krate}", f.path, layer.name));
            }
        }
        let file_name = f.path.rsplit('/').next().unwrap_or_default();
        let listed = layer.egui_in.iter().any(|n| n == file_name);
        match names("egui") {
            Some(line) if !layer.egui_in.is_empty() && !listed => {
                problems.push(format!("{}:{line}: names egui, not listed for the {} layer", f.path, layer.name));
            }
            None if listed => problems.push(format!("{}: listed as naming egui, and does not", f.path)),
            _ => {}
        }
    }
    problems
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<BTreeSet<String>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: HashMap<&'a str, (usize, usize)>,
        stack: Vec<&'a str>,
        found: BTreeSet<BTreeSet<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) -> usize {
            let i = self.index.len();
            self.index.insert(v, (i, i));
            self.stack.push(v);
            let mut low = i;
            for w in self.edges.get(v).into_iter().flatten() {
                low = match self.index.get(w.as_str()) {
                    None => low.min(self.visit(w)),
                    Some(&(wi, _)) if self.stack.contains(&w.as_str()) => low.min(wi),
                    Some(_) => low,
                };
            }
            self.index.insert(v, (i, low));
            if low == i {
                let at = self.stack.iter().rposition(|s| *s == v).expect("on the stack");
                let scc: BTreeSet<String> = self.stack.drain(at..).map(str::to_owned).collect();
                if scc.len() > 1 {
                    self.found.insert(scc);
                }
            }
            low
        }
    }
    let mut t = Tarjan { edges, index: HashMap::new(), stack: Vec::new(), found: BTreeSet::new() };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.found
}

/// A cycle's files and the imports between them, for the failure message.
fn describe_cycle(src: &Source, cycle: &BTreeSet<String>) -> String {
    let mut lines = Vec::new();
    for f in src.files.iter().filter(|f| cycle.contains(&f.path)) {
        for (line, to) in src.names(f, false).into_iter().filter(|(_, to)| cycle.contains(to)) {
            lines.push(format!("  {}:{line} imports {to}", f.path));
        }
    }
    lines.dedup();
    format!("{cycle:?}:\n{}", lines.join("\n"))
}

/// A token of blanked source: an identifier, `::`, or one other character.
#[derive(Debug)]
struct Token {
    text: String,
    line: usize,
}

/// A `use` or a path, seen in a module (the file's, or an inline one inside it).
#[derive(Debug)]
struct PathAt {
    module: Vec<String>,
    segments: Vec<String>,
    line: usize,
}

/// What a `use` brings into its module: `name` for `segments` (none for a glob).
#[derive(Debug)]
struct Use {
    at: PathAt,
    name: Option<String>,
}

#[derive(Debug)]
struct File {
    path: String,
    /// Its module path (`["hub", "frame"]` for `src/hub/frame.rs`).
    module: Vec<String>,
    tokens: Vec<Token>,
    uses: Vec<Use>,
    /// Paths outside `use` that start with `crate`, `super`, `self` or a child module.
    paths: Vec<PathAt>,
    /// Every module declared in it, inline (`mod tests { … }`) or not (`mod frame;`).
    declared: BTreeSet<Vec<String>>,
}

struct Source {
    files: Vec<File>,
    /// File modules by module path.
    by_module: HashMap<Vec<String>, usize>,
}

impl Source {
    fn read(dir: &Path) -> Source {
        let mut files = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).expect("src/ readable") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let rel = path.strip_prefix(root()).expect("under the crate").to_string_lossy().replace('\\', "/");
                    files.push((rel, std::fs::read_to_string(&path).expect("a source file")));
                }
            }
        }
        Source::from_files(files)
    }

    fn from_files(files: Vec<(String, String)>) -> Source {
        let files: Vec<File> = files.into_iter().map(|(path, text)| File::parse(path, &text)).collect();
        let by_module = files.iter().enumerate().map(|(i, f)| (f.module.clone(), i)).collect();
        Source { files, by_module }
    }

    /// The files each file names in its paths as written (`super::x::Y` names `x.rs`, `super::Y`
    /// the parent's file, whatever it re-exports), but for the files it is nested in or that are
    /// nested in it: a module's files are one module to Rust (a submodule sees its parent's
    /// private items, a parent re-exports its submodules'), so they are not counted as a cycle.
    fn edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        let module: HashMap<&str, &[String]> =
            self.files.iter().map(|f| (f.path.as_str(), f.module.as_slice())).collect();
        let nested = |a: &[String], b: &[String]| a.starts_with(b) || b.starts_with(a);
        self.files
            .iter()
            .map(|f| {
                let to = self
                    .names(f, false)
                    .into_iter()
                    .map(|(_, to)| to)
                    .filter(|to| !nested(&f.module, module[to.as_str()]));
                (f.path.clone(), to.collect())
            })
            .collect()
    }

    /// The files that define what `file` imports, through re-exports, with the line of each
    /// import.
    fn imports(&self, file: &File) -> Vec<(usize, String)> {
        self.names(file, true)
    }

    /// The files `file`'s paths lead to (`follow`: through the `use`s that bring an item into
    /// a module, to the file that defines it), with the line of each path, itself left out.
    fn names(&self, file: &File, follow: bool) -> Vec<(usize, String)> {
        let all = file.uses.iter().map(|u| &u.at).chain(&file.paths);
        let mut out: Vec<(usize, String)> = all
            .filter_map(|p| Some((p.line, self.resolve(&self.absolute(p)?, follow, 0))))
            .map(|(line, i)| (line, self.files[i].path.clone()))
            .filter(|(_, to)| *to != file.path)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The path from the crate's root, or `None` for another crate's.
    fn absolute(&self, p: &PathAt) -> Option<Vec<String>> {
        let mut segs = p.segments.iter().peekable();
        let mut module = p.module.clone();
        match segs.peek().map(|s| s.as_str()) {
            Some("crate") => {
                segs.next();
                module.clear();
            }
            Some("self") => {
                segs.next();
            }
            Some("super") => {
                while segs.peek().is_some_and(|s| *s == "super") {
                    segs.next();
                    module.pop();
                }
            }
            Some(first) if self.is_module(&[module.as_slice(), &[first.to_owned()]].concat()) => {}
            _ => return None,
        }
        module.extend(segs.cloned());
        Some(module)
    }

    fn is_module(&self, path: &[String]) -> bool {
        self.files.iter().any(|f| f.declared.contains(path)) || self.by_module.contains_key(path)
    }

    /// The file of the innermost file module holding `module`.
    fn file_of(&self, module: &[String]) -> usize {
        (0..=module.len()).rev().find_map(|n| self.by_module.get(&module[..n]).copied()).expect("lib.rs")
    }

    /// The file of the module `path` names, or of the module that holds the item it names (with
    /// `follow`, of the module that defines it: through the `use`s that bring it there).
    fn resolve(&self, path: &[String], follow: bool, depth: usize) -> usize {
        let mut module: Vec<String> = Vec::new();
        for seg in path {
            let inner = [module.as_slice(), std::slice::from_ref(seg)].concat();
            if self.is_module(&inner) {
                module = inner;
                continue;
            }
            let holder = &self.files[self.file_of(&module)];
            let brought = holder.uses.iter().find(|u| u.at.module == module && u.name.as_deref() == Some(seg));
            if let Some(u) = brought.filter(|_| follow && depth < 16)
                && let Some(target) = self.absolute(&u.at)
            {
                return self.resolve(&target, follow, depth + 1);
            }
            return self.file_of(&module);
        }
        self.file_of(&module)
    }
}

impl File {
    fn parse(path: String, text: &str) -> File {
        let module = module_path(&path);
        let tokens = tokens(&blank(text));
        let mut file =
            File { path, module, tokens: Vec::new(), uses: Vec::new(), paths: Vec::new(), declared: BTreeSet::new() };
        // Inline modules open at a brace depth.
        let mut inline: Vec<(String, usize)> = Vec::new();
        let mut depth = 0;
        let mut i = 0;
        while i < tokens.len() {
            let scope = || [file.module.clone(), inline.iter().map(|(m, _)| m.clone()).collect()].concat();
            let t = tokens[i].text.as_str();
            match t {
                "{" => depth += 1,
                "}" => {
                    depth -= 1;
                    inline.retain(|(_, d)| *d <= depth);
                }
                "mod" if tokens.get(i + 1).is_some_and(|n| is_ident(&n.text)) => {
                    let name = tokens[i + 1].text.clone();
                    file.declared.insert([scope(), vec![name.clone()]].concat());
                    if tokens.get(i + 2).is_some_and(|n| n.text == "{") {
                        inline.push((name, depth + 1));
                    }
                }
                "use" => {
                    let module = scope();
                    let end = (i..tokens.len()).find(|&j| tokens[j].text == ";").unwrap_or(tokens.len());
                    let mut found = Vec::new();
                    use_tree(&tokens[i + 1..end], &[], &mut found);
                    for (segments, name) in found {
                        file.uses
                            .push(Use { at: PathAt { module: module.clone(), segments, line: tokens[i].line }, name });
                    }
                    i = end;
                    continue;
                }
                _ if is_ident(t) && tokens.get(i + 1).is_some_and(|n| n.text == "::") => {
                    let after_colons = i > 0 && tokens[i - 1].text == "::";
                    if !after_colons {
                        let mut segments = vec![t.to_owned()];
                        let mut j = i + 1;
                        while j + 1 < tokens.len() && tokens[j].text == "::" && is_ident(&tokens[j + 1].text) {
                            segments.push(tokens[j + 1].text.clone());
                            j += 2;
                        }
                        file.paths.push(PathAt { module: scope(), segments, line: tokens[i].line });
                        i = j;
                        continue;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        file.tokens = tokens;
        file
    }
}

/// `src/lib.rs` → `[]`, `src/hub/mod.rs` → `["hub"]`, `src/hub/frame.rs` → `["hub", "frame"]`.
fn module_path(path: &str) -> Vec<String> {
    let inner = path.strip_prefix("src/").unwrap_or(path).strip_suffix(".rs").unwrap_or(path);
    let mut parts: Vec<String> = inner.split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The paths of a `use` tree (after `use`, before `;`), each with the name it brings.
fn use_tree(tokens: &[Token], prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].text.as_str() {
            "::" => {}
            "*" => {
                out.push((path.clone(), None));
                return;
            }
            "{" => {
                // The items of the group, split at its top-level commas.
                let mut depth = 0;
                let mut start = i + 1;
                for j in i..tokens.len() {
                    match tokens[j].text.as_str() {
                        "{" => depth += 1,
                        "}" | "," if depth == 1 => {
                            use_tree(&tokens[start..j], &path, out);
                            start = j + 1;
                            if tokens[j].text == "}" {
                                return;
                            }
                        }
                        "}" => depth -= 1,
                        _ => {}
                    }
                }
                return;
            }
            "as" => {
                let name = tokens.get(i + 1).map(|t| t.text.clone()).filter(|n| n != "_");
                out.push((path, name));
                return;
            }
            "self" if i == 0 && !prefix.is_empty() => {}
            t if is_ident(t) => path.push(t.to_owned()),
            _ => {}
        }
        i += 1;
    }
    if let Some(name) = path.last().cloned() {
        out.push((path, Some(name)));
    }
}

fn is_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Identifiers, `::`, and every other character but whitespace, with their lines.
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut chars = line.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            if c.is_whitespace() {
                continue;
            }
            let mut end = start + c.len_utf8();
            if c.is_alphanumeric() || c == '_' {
                while let Some(&(j, d)) = chars.peek().filter(|(_, d)| d.is_alphanumeric() || *d == '_') {
                    end = j + d.len_utf8();
                    chars.next();
                }
            } else if c == ':' && chars.peek().is_some_and(|(_, d)| *d == ':') {
                chars.next();
                end += 1;
            }
            out.push(Token { text: line[start..end].to_owned(), line: n + 1 });
        }
    }
    out
}

/// `text` with comments and the insides of string and character literals blanked (newlines
/// kept, so lines still count).
fn blank(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Blanks `b[from..to]` into `out`, keeping newlines.
    let keep_lines = |out: &mut String, from: usize, to: usize| {
        out.extend(b[from..to.min(b.len())].iter().map(|&c| if c == b'\n' { '\n' } else { ' ' }));
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p)
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j
        } else if let Some(hashes) = raw_string_start(b, i) {
            let open = i + b[i..].iter().position(|&c| c == b'"').expect("a quote") + 1;
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let inner = b[open..].windows(close.len()).position(|w| w == close).map_or(b.len(), |p| open + p);
            out.push_str(&text[i..open]);
            keep_lines(&mut out, open, inner);
            i = inner;
            continue;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push('"');
            keep_lines(&mut out, i + 1, j);
            i = j;
            if i < b.len() {
                out.push('"');
                i += 1;
            }
            continue;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let close = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..].iter().position(|&c| c == b'\'').map(|p| i + 2 + p)
            } else {
                let width = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + width) == Some(&b'\'')).then_some(i + 1 + width)
            };
            let Some(close) = close else {
                out.push('\'');
                i += 1;
                continue;
            };
            close + 1
        } else {
            let width = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + width]);
            i += width;
            continue;
        };
        keep_lines(&mut out, i, end);
        i = end;
    }
    out
}

/// How many `#` a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) starting at `i` has.
fn raw_string_start(b: &[u8], i: usize) -> Option<usize> {
    let prev_ident = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    let after_b = if b[i] == b'b' { i + 1 } else { i };
    if prev_ident || b.get(after_b) != Some(&b'r') {
        return None;
    }
    let hashes = b[after_b + 1..].iter().take_while(|&&c| c == b'#').count();
    (b.get(after_b + 1 + hashes) == Some(&b'"')).then_some(hashes)
}
