//! The layout ARCHITECTURE.md describes, kept by a plain scan of `src/`:
//! no import cycle between top-level modules, each importing only the layers
//! below it, no module but `commands` itself reaching into `commands`, no
//! circle between the files of one folder, nothing but `main.rs` writing
//! to the process's streams or ending the process, clap only on the command
//! line's side (`cli`, `main.rs`, the completion command), programs started
//! only by `live` and `diff::external`, no file read in the pure core, and
//! no LLMKube name in the generic schema engine (test modules aside).
//!
//! A top-level module is a file or folder directly under `src/`. An import
//! is a path outside a comment or a literal that starts at `crate::`,
//! `self::`, `super::` (as often as written), or at the name of a module
//! under the file's own (`documents::classify` in `pipeline/mod.rs`), be it
//! a `use` or written in place (`crate::input::decode(...)`). A group
//! imports each of its leaves: `use crate::{input::Source, model::{A, B}}`
//! imports `input` and `model`, `use super::{a, b::c}` both `a` and `b`. An
//! import leads to the deepest module it names: `super::Finding` in
//! `validate/crd.rs` to `validate`, `super::super` in
//! `render/gateway/route.rs` to `render`. In an inline module (`mod tests {
//! ... }`) `super` is the file itself, so its `use super::*` imports nothing.
//!
//! Inside a folder (`src/` itself aside: that is the top-level graph) the
//! nodes are the folder's own file, `mod.rs` (or `tests.rs` for `tests/`),
//! named `mod`, and each module directly in it, a nested folder as one node
//! with all its files. An import by a file in the folder of another node is
//! an edge; an import of the folder's own items (`use super::Finding;`) is
//! one to `mod`. `mod x;` and `pub mod x;` only declare a module and are no
//! edge. Anything else `mod.rs` imports from a module in it is an edge
//! `mod -> x`, a re-export `pub use x::Y` and `self::x::f()` as much as a
//! call: `mod.rs` is one file and one node, so when it both holds items its
//! modules use and uses them, that is a circle, as it would be between two
//! top-level modules. What a folder's modules share lives in a module of
//! its own (`render::input`, `commands::outcome`), and `mod.rs` declares,
//! re-exports and hands work to them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("reads src").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without its comments: lines starting with `//` dropped, and
/// the rest of a line after ` // `.
fn code(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| line.split(" // ").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Rust source as far as paths need it: comments and string and character
/// literals are skipped, so text in them is never read as a path.
#[derive(Debug, PartialEq)]
enum Token {
    /// An identifier, keyword or number; `$crate` is one word.
    Word(String),
    /// `::`
    PathSep,
    /// `{`
    Open,
    /// `}`
    Close,
    Comma,
    Star,
    /// Any other punctuation.
    Other,
}

/// The tokens of `text`.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        match c {
            _ if c.is_whitespace() => i += 1,
            '/' if next == Some('/') => {
                while chars.get(i).is_some_and(|c| *c != '\n') {
                    i += 1;
                }
            }
            '/' if next == Some('*') => i = block_comment_end(&chars, i),
            '"' => i = string_end(&chars, i + 1, None),
            '\'' => i = quote_end(&chars, i),
            ':' if next == Some(':') => {
                out.push(Token::PathSep);
                i += 2;
            }
            '{' | '}' | ',' | '*' => {
                out.push(match c {
                    '{' => Token::Open,
                    '}' => Token::Close,
                    ',' => Token::Comma,
                    _ => Token::Star,
                });
                i += 1;
            }
            _ if is_word(c) || c == '$' => {
                let start = i;
                i += 1;
                while chars.get(i).is_some_and(|c| is_word(*c)) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                // `r"..."`, `br#"..."#`: a raw string, whose backslashes escape nothing.
                let hashes = chars[i..].iter().take_while(|c| **c == '#').count();
                if matches!(word.as_str(), "r" | "br" | "cr") && chars.get(i + hashes) == Some(&'"') {
                    i = string_end(&chars, i + hashes + 1, Some(hashes));
                } else {
                    out.push(Token::Word(word));
                }
            }
            _ => {
                out.push(Token::Other);
                i += 1;
            }
        }
    }
    out
}

/// Past the `*/` closing the block comment opened at `i` (they nest).
fn block_comment_end(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        match (chars[i], chars.get(i + 1)) {
            ('/', Some('*')) => depth += 1,
            ('*', Some('/')) => depth -= 1,
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
        if depth == 0 {
            break;
        }
    }
    i
}

/// Past the closing quote of a string whose text starts at `i`: a plain one
/// minds backslashes, a raw one (`raw` its number of `#`) ends only at a
/// quote followed by as many `#`.
fn string_end(chars: &[char], mut i: usize, raw: Option<usize>) -> usize {
    let hashes = raw.unwrap_or(0);
    while let Some(&c) = chars.get(i) {
        if c == '\\' && raw.is_none() {
            i += 2;
        } else if c == '"' && chars.get(i + 1..i + 1 + hashes).is_some_and(|h| h.iter().all(|c| *c == '#')) {
            return i + 1 + hashes;
        } else {
            i += 1;
        }
    }
    i
}

/// Past a character literal (`'a'`, `'{'`, `'\''`) at `i`, or past the
/// quote of a lifetime or a label (`'a`, `'outer:`).
fn quote_end(chars: &[char], i: usize) -> usize {
    match chars.get(i + 1) {
        Some('\\') => {
            // The escaped character itself may be a quote.
            let mut j = i + 3;
            while chars.get(j).is_some_and(|c| *c != '\'') {
                j += 1;
            }
            j + 1
        }
        Some(_) if chars.get(i + 2) == Some(&'\'') => i + 3,
        _ => i + 1,
    }
}

/// One path as written, with any group spread out.
#[derive(Debug, PartialEq)]
struct Written {
    /// The inline modules (`mod tests { ... }`) it stands in, outermost first.
    inline: Vec<String>,
    /// Its segments: `use super::{a, b::c}` is written twice, as `super::a`
    /// and `super::b::c`; a glob ends in `*`.
    path: Vec<String>,
}

/// Every path in `tokens`: a word followed by `::` that does not itself
/// follow `::` starts one (most are outside the crate: `std::`, `Vec::new`).
fn written_paths(tokens: &[Token]) -> Vec<Written> {
    let mut out = Vec::new();
    // Each open inline module, with the brace depth inside it.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        match token {
            Token::Word(word) if word == "mod" => {
                if let (Some(Token::Word(name)), Some(Token::Open)) = (tokens.get(i + 1), tokens.get(i + 2)) {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Token::Word(_)
                if tokens.get(i + 1) == Some(&Token::PathSep) && (i == 0 || tokens[i - 1] != Token::PathSep) =>
            {
                let mut paths = Vec::new();
                // Past the whole path, so a group's items are not read again as paths of their own.
                i = use_tree(tokens, i, Vec::new(), &mut paths);
                let scope: Vec<String> = inline.iter().map(|(name, _)| name.clone()).collect();
                out.extend(paths.into_iter().map(|path| Written { inline: scope.clone(), path }));
                continue;
            }
            Token::Open => depth += 1,
            Token::Close => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Reads the path at `i`, a `use` tree if it has groups, adding each leaf
/// under `path` to `out`; returns the index after it.
fn use_tree(tokens: &[Token], mut i: usize, mut path: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    loop {
        match tokens.get(i) {
            Some(Token::Word(word)) => path.push(word.clone()),
            Some(Token::Star) => path.push("*".to_string()),
            Some(Token::Open) => {
                i += 1;
                loop {
                    // A group may be empty or end in a comma.
                    if tokens.get(i) == Some(&Token::Close) {
                        return i + 1;
                    }
                    i = use_tree(tokens, i, path.clone(), out);
                    match tokens.get(i) {
                        Some(Token::Comma) => i += 1,
                        Some(Token::Close) => return i + 1,
                        _ => return i,
                    }
                }
            }
            _ => break,
        }
        i += 1;
        // `as NAME` renames the leaf; `NAME` is no module.
        if matches!(tokens.get(i), Some(Token::Word(word)) if word == "as") {
            i += 2;
            break;
        }
        if tokens.get(i) != Some(&Token::PathSep) {
            break;
        }
        i += 1;
    }
    out.push(path);
    i
}

/// A file's place in the module tree: `validate/crd.rs` is `validate::crd`,
/// `validate/mod.rs` is `validate`, `lib.rs` and `main.rs` the crate root.
fn module_of(path: &str) -> Vec<String> {
    let mut module: Vec<String> = path.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if module.last().is_some_and(|last| last == "mod") || module == ["lib"] || module == ["main"] {
        module.pop();
    }
    module
}

struct Source {
    /// The file's path under `src/`, `/`-separated, for messages.
    path: String,
    /// Its top-level module, or `None` for `lib.rs` and `main.rs`.
    module: Option<String>,
    /// Its place in the module tree (see `module_of`).
    tree: Vec<String>,
    /// Its text without comments, for the check on the process's streams.
    code: String,
    /// Every path written in it.
    paths: Vec<Written>,
}

impl Source {
    fn new(path: &str, text: &str) -> Source {
        let tree = module_of(path);
        Source {
            path: path.to_string(),
            module: tree.first().cloned(),
            tree,
            code: code(text),
            paths: written_paths(&tokens(text)),
        }
    }
}

fn sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(&src).expect("under src");
            let path: Vec<String> =
                relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            let text = std::fs::read_to_string(&file).expect("reads a source file");
            Source::new(&path.join("/"), &text)
        })
        .collect()
}

/// Every module a file stands for, the crate root included.
fn modules(sources: &[Source]) -> BTreeSet<Vec<String>> {
    sources.iter().map(|s| s.tree.clone()).chain([Vec::new()]).collect()
}

/// The deepest module of `modules` that `written` in a file at `file` names,
/// or `None` for a path outside the crate (or a `super::` above its root).
fn resolve(written: &Written, file: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let head = written.path.first()?;
    let child = |name: &String| modules.contains(&[file, std::slice::from_ref(name)].concat());
    let (mut module, mut segments) = match head.as_str() {
        "crate" => (Vec::new(), &written.path[1..]),
        "self" | "super" => ([file, &written.inline[..]].concat(), &written.path[..]),
        _ if child(head) => (file.to_vec(), &written.path[..]),
        _ => return None,
    };
    while let Some((first, rest)) = segments.split_first().filter(|(first, _)| *first == "self" || *first == "super") {
        if first == "super" {
            module.pop()?;
        }
        segments = rest;
    }
    module.extend(segments.iter().cloned());
    // Past the deepest module come items (`Finding`), an inline module or `*`.
    let known = (0..module.len()).take_while(|n| modules.contains(&module[..n + 1])).count();
    module.truncate(known);
    Some(module)
}

/// Each source with the modules its paths lead to.
fn imports(sources: &[Source]) -> impl Iterator<Item = (&Source, BTreeSet<Vec<String>>)> {
    let modules = modules(sources);
    sources.iter().map(move |source| {
        let targets = source.paths.iter().filter_map(|w| resolve(w, &source.tree, &modules)).collect();
        (source, targets)
    })
}

/// Node -> the nodes it imports, each with one file that does, for messages.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The graph of the top-level modules.
fn graph(sources: &[Source]) -> Graph {
    let mut graph = Graph::new();
    for (source, targets) in imports(sources) {
        let Some(module) = &source.module else { continue };
        let edges = graph.entry(module.clone()).or_default();
        for name in targets.into_iter().filter_map(|t| t.into_iter().next()) {
            if name != *module {
                edges.entry(name).or_insert_with(|| source.path.clone());
            }
        }
    }
    graph
}

/// The graph inside each folder but the crate root (the top-level graph
/// covers that), keyed by the folder's module.
fn folder_graphs(sources: &[Source]) -> BTreeMap<Vec<String>, Graph> {
    let mut graphs: BTreeMap<Vec<String>, Graph> = BTreeMap::new();
    for module in modules(sources) {
        if module.len() > 1 {
            graphs.entry(module[..module.len() - 1].to_vec()).or_default();
        }
    }
    // The node a module is in, within the folder whose module is `folder[..depth]`.
    let node = |module: &[String], depth: usize| module.get(depth).cloned().unwrap_or_else(|| "mod".to_string());
    for (source, targets) in imports(sources) {
        for depth in 1..=source.tree.len() {
            let folder = &source.tree[..depth];
            let Some(graph) = graphs.get_mut(folder) else { continue };
            let from = node(&source.tree, depth);
            for target in targets.iter().filter(|t| t.starts_with(folder)) {
                let to = node(target, depth);
                if to != from {
                    graph.entry(from.clone()).or_default().entry(to).or_insert_with(|| source.path.clone());
                }
            }
        }
    }
    graphs
}

/// Every circle in `graph`, each once, starting at its first node in order
/// (`a -> b -> a`).
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    fn walk(path: &mut Vec<String>, graph: &Graph, out: &mut Vec<Vec<String>>) {
        let start = path[0].clone();
        let last = path[path.len() - 1].clone();
        for next in graph.get(&last).into_iter().flat_map(BTreeMap::keys) {
            if *next == start {
                out.push([path.as_slice(), std::slice::from_ref(&start)].concat());
            } else if *next > start && !path.contains(next) {
                path.push(next.clone());
                walk(path, graph, out);
                path.pop();
            }
        }
    }
    let mut out = Vec::new();
    for node in graph.keys() {
        walk(&mut vec![node.clone()], graph, &mut out);
    }
    out
}

/// Each circle as its edges, with the file that makes each.
fn describe(graph: &Graph, circles: &[Vec<String>]) -> Vec<String> {
    circles
        .iter()
        .map(|circle| {
            let steps: Vec<String> =
                circle.windows(2).map(|w| format!("{} -> {} ({})", w[0], w[1], graph[&w[0]][&w[1]])).collect();
            steps.join(", ")
        })
        .collect()
}

/// Every circle inside a folder, as `folder/: a -> b (file), b -> a (file)`.
fn folder_circles(sources: &[Source]) -> Vec<String> {
    folder_graphs(sources)
        .iter()
        .flat_map(|(folder, graph)| {
            describe(graph, &circles(graph)).into_iter().map(move |circle| format!("{}/: {circle}", folder.join("/")))
        })
        .collect()
}

#[test]
fn no_cycle_between_top_level_modules() {
    let graph = graph(&sources());
    assert!(graph.len() > 5, "the scan found the modules: {:?}", graph.keys().collect::<Vec<_>>());
    let circles = describe(&graph, &circles(&graph));
    assert!(circles.is_empty(), "the top-level modules import each other in a circle:\n  {}", circles.join("\n  "));
}

#[test]
fn no_circle_between_the_files_of_a_folder() {
    let sources = sources();
    let folders = folder_graphs(&sources);
    let folder = |path: &str| path.split('/').map(str::to_string).collect::<Vec<_>>();
    assert!(
        folders.contains_key(&folder("validate")) && folders.contains_key(&folder("diff/server_defaults")),
        "the scan found the folders: {:?}",
        folders.keys().collect::<Vec<_>>()
    );
    let circles = folder_circles(&sources);
    assert!(circles.is_empty(), "the files of a folder import each other in a circle:\n  {}", circles.join("\n  "));
}

/// The top-level modules from the bottom up: each may import only those
/// before it. A new module takes its place here (and in ARCHITECTURE.md).
const LAYERS: [&str; 19] = [
    "release",
    "kube",
    "output",
    "diagnostic",
    "input",
    "schema",
    "live",
    "model",
    "validate",
    "render",
    "reconcile",
    "diff",
    "explain",
    "routing",
    "report",
    "pipeline",
    "krm",
    "cli",
    "commands",
];

/// Each import in `graph` of a module in a higher layer.
fn upward(graph: &Graph) -> Vec<String> {
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    graph
        .iter()
        .flat_map(|(module, edges)| {
            edges
                .iter()
                .filter(move |(to, _)| rank(to).is_some_and(|r| Some(r) > rank(module)))
                .map(move |(to, file)| format!("{module} -> {to} ({file})"))
        })
        .collect()
}

#[test]
fn modules_import_only_the_layers_below_them() {
    let graph = graph(&sources());
    let unplaced: Vec<&String> = graph.keys().filter(|m| !LAYERS.contains(&m.as_str())).collect();
    assert!(unplaced.is_empty(), "top-level modules missing from LAYERS: {unplaced:?}");
    let upward = upward(&graph);
    assert!(upward.is_empty(), "imports against the layering:\n  {}", upward.join("\n  "));
}

#[test]
fn only_commands_import_commands() {
    let offenders: Vec<String> = graph(&sources())
        .iter()
        .filter(|(module, _)| *module != "commands")
        .filter_map(|(module, edges)| edges.get("commands").map(|file| format!("{module} ({file})")))
        .collect();
    assert!(offenders.is_empty(), "a stage imports `commands`: {}", offenders.join(", "));
}

/// The most lines a module of `commands` holds: a command turns its
/// arguments into calls of the stages and picks an emitter of `report`;
/// one that grows past this is writing a format or deciding a rule.
const COMMAND_LINES: usize = 250;

/// The modules of `commands` longer than `COMMAND_LINES`, with their length.
fn long_commands(files: &[(String, String)]) -> Vec<String> {
    files
        .iter()
        .filter(|(path, _)| path.starts_with("commands/"))
        .map(|(path, text)| (path, text.lines().count()))
        .filter(|(_, lines)| *lines > COMMAND_LINES)
        .map(|(path, lines)| format!("{path} ({lines} lines)"))
        .collect()
}

#[test]
fn commands_stay_short_and_leave_the_writing_to_report() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("commands"), &mut files);
    assert!(files.len() > 5, "the scan found the commands: {files:?}");
    let files: Vec<(String, String)> = files
        .iter()
        .map(|file| {
            let relative = file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
            (relative, std::fs::read_to_string(file).expect("reads a source file"))
        })
        .collect();
    let long = long_commands(&files);
    assert!(
        long.is_empty(),
        "a module of `commands` holds at most {COMMAND_LINES} lines; move what writes a format to `report` (an \
         emitter per format) and what reads inputs to the stages: {}",
        long.join(", ")
    );
    // The check itself counts lines, and only those of `commands`.
    let sample =
        [("commands/x.rs".to_string(), "\n".repeat(COMMAND_LINES + 1)), ("report/y.rs".into(), "\n".repeat(900))];
    assert_eq!(long_commands(&sample), ["commands/x.rs (251 lines)"]);
    assert!(long_commands(&[("commands/z.rs".into(), "\n".repeat(COMMAND_LINES))]).is_empty());
}

/// The printer prints: it knows the encodings (`kube`) and no stage, so
/// judging an object happens before it is handed over (`validate::object`).
#[test]
fn output_imports_only_kube() {
    let graph = graph(&sources());
    let imported: Vec<&String> = graph.get("output").into_iter().flat_map(BTreeMap::keys).collect();
    assert!(
        imported.iter().all(|m| *m == "kube"),
        "`output` only prints; what it imports beyond `kube` belongs to a stage: {:?}",
        graph["output"]
    );
}

#[test]
fn only_main_writes_to_the_process_streams() {
    let writers = ["println!", "eprintln!", "print!", "eprint!", "dbg!", "io::stdout(", "io::stderr("];
    let offenders: Vec<String> = sources()
        .iter()
        .filter(|s| s.path != "main.rs")
        .flat_map(|s| writers.iter().filter(|w| s.code.contains(*w)).map(move |w| format!("{} ({w})", s.path)))
        .collect();
    assert!(offenders.is_empty(), "only main.rs writes to stdout and stderr: {}", offenders.join(", "));
}

/// The code of a file that the binary runs: its text without comments, up to
/// its test module (`#[cfg(test)]`), whose fixtures may read files and start
/// programs.
fn shipped(source: &Source) -> &str {
    source.code.split("#[cfg(test)]").next().unwrap_or("")
}

/// Files whose shipped code contains any of `needles`, but those `allowed`
/// (paths under `src/`, a folder as `live/`).
fn offenders(needles: &[&str], allowed: &[&str]) -> Vec<String> {
    sources()
        .iter()
        .filter(|s| !allowed.iter().any(|a| s.path == *a || (a.ends_with('/') && s.path.starts_with(a))))
        .flat_map(|s| needles.iter().filter(|n| shipped(s).contains(*n)).map(move |n| format!("{} ({n})", s.path)))
        .collect()
}

#[test]
fn only_main_ends_the_process() {
    let found = offenders(&["process::exit(", "process::abort("], &["main.rs"]);
    assert!(found.is_empty(), "only main.rs ends the process, with the command's exit code: {}", found.join(", "));
}

#[test]
fn only_the_command_line_knows_clap() {
    let found =
        offenders(&["clap::", "clap_complete", "clap_mangen"], &["main.rs", "cli.rs", "commands/completion.rs"]);
    assert!(
        found.is_empty(),
        "no stage derives or calls clap; `cli` maps flags onto the stages' own types: {}",
        found.join(", ")
    );
}

#[test]
fn only_the_edges_start_programs() {
    let found = offenders(&["Command::new("], &["live/", "diff/external.rs"]);
    assert!(found.is_empty(), "only `live` (kubectl) and `diff::external` start programs: {}", found.join(", "));
}

#[test]
fn the_pure_core_reads_no_files() {
    let core = ["schema/", "model/", "validate/", "render/", "reconcile/", "explain/", "routing/", "diff/"];
    let found: Vec<String> = offenders(&["std::fs", "fs::read", "File::open", "File::create"], &["diff/external.rs"])
        .into_iter()
        .filter(|o| core.iter().any(|c| o.starts_with(c)))
        .collect();
    assert!(found.is_empty(), "the pure core takes values, not files: {}", found.join(", "));
}

#[test]
fn the_schema_engine_knows_no_llmkube() {
    let found: Vec<String> = sources()
        .iter()
        .filter(|s| s.path.starts_with("schema/"))
        .filter(|s| {
            ["llmkube", "modelrouter", "inferenceservice"].iter().any(|w| shipped(s).to_lowercase().contains(w))
        })
        .map(|s| s.path.clone())
        .collect();
    assert!(found.is_empty(), "`schema` is the generic CRD engine; LLMKube is `validate`'s: {}", found.join(", "));
}

/// The top-level modules `text` names through `crate::`.
fn crate_paths(text: &str) -> BTreeSet<String> {
    written_paths(&tokens(text))
        .into_iter()
        .filter(|w| w.path.len() > 1 && w.path[0] == "crate")
        .map(|w| w.path[1].clone())
        .collect()
}

#[test]
fn the_scan_sees_a_cycle_and_a_stage_importing_commands() {
    let sources = [
        Source::new("a.rs", "use crate::b::x;\n// crate::c is only named here\n"),
        Source::new("b.rs", "fn f() { crate::a::y() }"),
        Source::new("c.rs", "use crate::commands::run;"),
        Source::new("commands.rs", "use crate::c;"),
    ];
    let graph = graph(&sources);
    let names = |names: &[&str]| names.iter().copied().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(circles(&graph), [names(&["a", "b", "a"]), names(&["c", "commands", "c"])]);
    assert!(!graph["a"].contains_key("c"), "comments are not imports");
    assert!(graph["c"].contains_key("commands"));
    assert_eq!(crate_paths("$crate::x; my_crate::y; crate::z"), BTreeSet::from(["z".to_string()]));
    let literals = r##"let s = "crate::a /* crate::b"; let c = '"';
        let r = r#"crate::c "quoted" "#; 'l: loop {} /* crate::e */ crate::d;
        r"\"; crate::g"##;
    assert_eq!(crate_paths(literals), BTreeSet::from(["d".to_string(), "g".to_string()]), "literals are not imports");
}

#[test]
fn the_scan_sees_folder_circles_grouped_imports_and_super_paths() {
    let names = |names: &[&str]| names.iter().copied().map(str::to_string).collect::<Vec<_>>();
    let sources = [
        // A circle inside `report/`, written with `crate::` paths.
        Source::new("report/mod.rs", "pub mod a;\npub mod b;\n"),
        Source::new("report/a.rs", "use crate::report::b::X;"),
        Source::new("report/b.rs", "fn f() { crate::report::a::y() }"),
        // Grouped imports, one nested, against the layering (`input` sits below `model`).
        Source::new(
            "input/mod.rs",
            "use crate::{release::R, model::{M, duration::D}};\n\
             mod json;\nuse self::json::parse;\nfn f() { yaml::g() }",
        ),
        Source::new("input/json.rs", "use super::{yaml, scalar::{Tag, Scalar}};"),
        Source::new("input/scalar.rs", ""),
        Source::new("input/yaml.rs", ""),
        Source::new("model/mod.rs", "pub mod duration;"),
        Source::new("model/duration.rs", ""),
        Source::new("release.rs", ""),
        // A circle made of `super::` paths, one through a nested folder, and
        // one through the folder module's re-export.
        Source::new("render/mod.rs", "pub mod gateway;\nmod names;\nmod rbac;\npub mod service;\npub use names::Name;"),
        Source::new("render/names.rs", "use super::gateway::route::Route;\nuse super::RouterInput;"),
        Source::new("render/gateway/mod.rs", "pub mod route;"),
        Source::new(
            "render/gateway/route.rs",
            "fn f() { super::super::names::g(); super::super::super::validate::v(); }",
        ),
        Source::new(
            "render/rbac.rs",
            "#[cfg(test)]\nmod tests {\n    use super::*;\n    fn f() { let _ = '{'; }\n}\nuse super::names::Name;",
        ),
        // Declared by `render/mod.rs` and nothing more: using its items makes no circle.
        Source::new("render/service.rs", "use super::RouterInput;"),
        Source::new("validate.rs", ""),
    ];

    let folders = folder_graphs(&sources);
    assert_eq!(circles(&folders[&names(&["report"])]), [names(&["a", "b", "a"])]);

    let graph = graph(&sources);
    assert_eq!(graph["input"].keys().collect::<Vec<_>>(), ["model", "release"]);
    assert_eq!(upward(&graph), ["input -> model (input/mod.rs)"]);
    let input = &folders[&names(&["input"])];
    assert_eq!(input["json"].keys().collect::<Vec<_>>(), ["scalar", "yaml"], "`super::{{a, b::c}}` reaches both");
    assert_eq!(input["mod"].keys().collect::<Vec<_>>(), ["json", "yaml"], "`self::x` and `x::` in mod.rs");
    assert!(circles(input).is_empty());

    let render = &folders[&names(&["render"])];
    assert_eq!(circles(render), [names(&["gateway", "names", "gateway"]), names(&["mod", "names", "mod"])]);
    assert_eq!(render["mod"].keys().collect::<Vec<_>>(), ["names"], "a re-export is an edge, `mod x;` is none");
    assert_eq!(render["service"].keys().collect::<Vec<_>>(), ["mod"]);
    assert_eq!(
        render["rbac"].keys().collect::<Vec<_>>(),
        ["names"],
        "`use super::*` in an inline test module is the file itself, and the module ends at its brace"
    );
    assert_eq!(graph["render"].keys().collect::<Vec<_>>(), ["validate"], "`super::super::super` from a nested folder");

    assert_eq!(
        folder_circles(&sources),
        [
            "render/: gateway -> names (render/gateway/route.rs), names -> gateway (render/names.rs)",
            "render/: mod -> names (render/mod.rs), names -> mod (render/names.rs)",
            "report/: a -> b (report/a.rs), b -> a (report/b.rs)",
        ]
    );
}
