//! The layout ARCHITECTURE.md describes, kept by a plain scan of `src/`:
//! no import cycle between top-level modules, each importing only the layers
//! below it, no module but `commands` itself reaching into `commands`, and
//! nothing but `main.rs` writing to the process's streams.
//!
//! A top-level module is a file or folder directly under `src/`; an import is
//! any `crate::NAME` path outside a comment (`use crate::model::...`, or a
//! path written in place, `crate::input::decode(...)`).

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

/// The top-level modules each `crate::NAME` path in `text` names.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        // `$crate::` and identifiers ending in `crate` are not paths to a module.
        if text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &text[i + "crate::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            names.insert(name);
        }
    }
    names
}

struct Source {
    /// The file's path under `src/`, for messages.
    path: String,
    /// Its top-level module, or `None` for `lib.rs` and `main.rs`.
    module: Option<String>,
    code: String,
}

fn sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(&src).expect("under src");
            let first = relative.components().next().expect("a component").as_os_str().to_string_lossy();
            let module = first.strip_suffix(".rs").unwrap_or(&first).to_string();
            let text = std::fs::read_to_string(&file).expect("reads a source file");
            Source {
                path: relative.display().to_string(),
                module: (module != "lib" && module != "main").then_some(module),
                code: code(&text),
            }
        })
        .collect()
}

/// Top-level module -> the other top-level modules it imports, each with
/// one file that does, for messages.
fn graph(sources: &[Source]) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for source in sources {
        let Some(module) = &source.module else { continue };
        let edges = graph.entry(module.clone()).or_default();
        for name in crate_paths(&source.code) {
            if name != *module {
                edges.entry(name).or_insert_with(|| source.path.clone());
            }
        }
    }
    graph
}

/// A cycle through `graph` as the modules along it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeMap<String, String>>,
        done: &mut BTreeSet<String>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[start..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
            if let Some(cycle) = visit(next, graph, done, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut done, &mut Vec::new()))
}

#[test]
fn no_cycle_between_top_level_modules() {
    let graph = graph(&sources());
    assert!(graph.len() > 5, "the scan found the modules: {:?}", graph.keys().collect::<Vec<_>>());
    if let Some(cycle) = find_cycle(&graph) {
        let steps: Vec<String> =
            cycle.windows(2).map(|w| format!("{} -> {} ({})", w[0], w[1], graph[&w[0]][&w[1]])).collect();
        panic!("the top-level modules import each other in a circle:\n  {}", steps.join("\n  "));
    }
}

/// The top-level modules from the bottom up: each may import only those
/// before it. A new module takes its place here (and in ARCHITECTURE.md).
const LAYERS: [&str; 18] = [
    "release",
    "kube",
    "diagnostic",
    "report",
    "input",
    "schema",
    "live",
    "model",
    "validate",
    "render",
    "reconcile",
    "output",
    "diff",
    "explain",
    "routing",
    "pipeline",
    "cli",
    "commands",
];

#[test]
fn modules_import_only_the_layers_below_them() {
    let graph = graph(&sources());
    let unplaced: Vec<&String> = graph.keys().filter(|m| !LAYERS.contains(&m.as_str())).collect();
    assert!(unplaced.is_empty(), "top-level modules missing from LAYERS: {unplaced:?}");
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let upward: Vec<String> = graph
        .iter()
        .flat_map(|(module, edges)| {
            edges
                .iter()
                .filter(move |(to, _)| rank(to).is_some_and(|r| Some(r) > rank(module)))
                .map(move |(to, file)| format!("{module} -> {to} ({file})"))
        })
        .collect();
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

#[test]
fn the_scan_sees_a_cycle_and_a_stage_importing_commands() {
    let source = |module: &str, text: &str| Source {
        path: format!("{module}.rs"),
        module: Some(module.to_string()),
        code: code(text),
    };
    let sources = [
        source("a", "use crate::b::x;\n// crate::c is only named here\n"),
        source("b", "fn f() { crate::a::y() }"),
        source("c", "use crate::commands::run;"),
        source("commands", "use crate::c;"),
    ];
    let graph = graph(&sources);
    assert_eq!(find_cycle(&graph), Some(vec!["a".to_string(), "b".to_string(), "a".to_string()]));
    assert!(!graph["a"].contains_key("c"), "comments are not imports");
    assert!(graph["c"].contains_key("commands"));
    assert_eq!(crate_paths("$crate::x; my_crate::y; crate::z"), BTreeSet::from(["z".to_string()]));
}
