//! The documentation's shell examples, run: every ```sh and ```console block
//! of README.md, CONTRIBUTING.md, bench/README.md and docs/ carries a marker
//! in an HTML comment on the line before it, and the runnable ones are run
//! with the built binary first on PATH, in an empty temporary directory per
//! page, holding only the files the page's examples write (`file NAME`
//! blocks, and what its commands write): an example works for a reader
//! with routerctl installed and nothing of its source tree. Also: every
//! relative link of those pages leads to a file that exists, and to a
//! heading it has.
//!
//! The markers (`<!-- example: ... -->`):
//! - `run`, `run, exit N`, `run, needs TOOL`: a ```sh block runs as one bash
//!   script (`set -eo pipefail`) and must end with status N (0 unless
//!   given); in a ```console block each `$ ` line is a command whose output
//!   (its stdout, then its stderr) must be the lines under it, where a line
//!   `…` stands for any number of lines, and whose status must be N. With
//!   `needs TOOL` the block is skipped, saying so, where TOOL is not on PATH.
//! - `skip (REASON)`: not run (a cluster, the network, system directories);
//!   the reason is required.
//! - `file NAME`: the block (any language) is written to NAME in the page's
//!   directory before the blocks after it run.
//!
//! `cargo run --release -- ARGS` in an example runs the built binary with
//! ARGS: the tests build it already, and a release build here would take
//! minutes.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

/// What a marker asks for.
#[derive(Debug, PartialEq)]
enum Marker {
    Run { exit: i32, needs: Option<String> },
    Skip,
    File(String),
}

/// A fenced block of a page.
struct Block {
    /// Where it is, `docs/test.md:42`, for messages.
    place: String,
    language: String,
    body: String,
    marker: Option<Result<Marker, String>>,
}

/// The pages whose examples are run: README.md, CONTRIBUTING.md,
/// bench/README.md (not in the published crate, which leaves out bench/)
/// and every Markdown file under docs/.
fn pages() -> Vec<PathBuf> {
    let root = common::root();
    let mut pages = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    if !common::packaged() {
        pages.push(root.join("bench/README.md"));
    }
    let mut stack = vec![root.join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("reads docs/") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

fn relative(path: &Path) -> String {
    path.strip_prefix(common::root()).unwrap_or(path).display().to_string()
}

/// Reads `<!-- example: ... -->`.
fn marker(line: &str) -> Option<Result<Marker, String>> {
    let inner = line.trim().strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    let spec = inner.strip_prefix("example:")?.trim();
    if let Some(reason) = spec.strip_prefix("skip") {
        let reason = reason.trim();
        let given = reason.starts_with('(') && reason.ends_with(')') && reason.len() > 2;
        return Some(if given { Ok(Marker::Skip) } else { Err(format!("`{spec}`: a skip says why, `skip (REASON)`")) });
    }
    if let Some(name) = spec.strip_prefix("file ") {
        return Some(Ok(Marker::File(name.trim().to_string())));
    }
    let mut parts = spec.split(',').map(str::trim);
    if parts.next() != Some("run") {
        return Some(Err(format!("`{spec}` is no marker: run, skip (REASON) or file NAME")));
    }
    let (mut exit, mut needs) = (0, None);
    for part in parts {
        if let Some(code) = part.strip_prefix("exit ") {
            match code.trim().parse() {
                Ok(code) => exit = code,
                Err(_) => return Some(Err(format!("`{part}`: the exit status is a number"))),
            }
        } else if let Some(tool) = part.strip_prefix("needs ") {
            needs = Some(tool.trim().to_string());
        } else {
            return Some(Err(format!("`{part}` is neither `exit N` nor `needs TOOL`")));
        }
    }
    Some(Ok(Marker::Run { exit, needs }))
}

/// The fenced blocks of `text`, each with the marker on the last non-blank
/// line before it. A fence may be indented (inside a list item): its body
/// loses that indentation. As in CommonMark, a block ends at a fence of at
/// least as many backticks as opened it, so a block of four holds a fence
/// of three (an example's output with a Mermaid block).
fn blocks(name: &str, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if !trimmed.starts_with("```") {
            i += 1;
            continue;
        }
        let indent = lines[i].len() - trimmed.len();
        let ticks = trimmed.len() - trimmed.trim_start_matches('`').len();
        let closes = |line: &str| {
            let line = line.trim();
            line.len() >= ticks && line.chars().all(|c| c == '`')
        };
        let language = trimmed.trim_start_matches('`').split_whitespace().next().unwrap_or("").to_string();
        let before = lines[..i].iter().rev().find(|l| !l.trim().is_empty());
        let start = i;
        let mut body = String::new();
        i += 1;
        while i < lines.len() && !closes(lines[i]) {
            let line = lines[i];
            let cut = line.len() - line.trim_start().len();
            body.push_str(&line[cut.min(indent)..]);
            body.push('\n');
            i += 1;
        }
        i += 1;
        out.push(Block {
            place: format!("{name}:{}", start + 1),
            language,
            body,
            marker: before.and_then(|l| marker(l)),
        });
    }
    out
}

/// The body of the block of `page` (a path under the root) marked
/// `file NAME`: what another test runs of a page (the GitOps recipes).
pub(crate) fn file_block(page: &str, name: &str) -> String {
    let text = std::fs::read_to_string(common::root().join(page)).expect("reads the page");
    let mut found = blocks(page, &text).into_iter().filter(|b| b.marker == Some(Ok(Marker::File(name.to_string()))));
    let block = found.next().unwrap_or_else(|| panic!("{page} has no block marked `file {name}`"));
    assert!(found.next().is_none(), "{page} has two blocks marked `file {name}`");
    block.body
}

fn is_shell(language: &str) -> bool {
    matches!(language, "sh" | "console" | "shell" | "bash")
}

/// What every example runs with: `set -eo pipefail`, and `cargo run
/// --release --` as the built binary.
const PREAMBLE: &str = r#"set -eo pipefail
cargo() {
  if [ "$1" = run ] && [ "$2" = --release ] && [ "$3" = -- ]; then shift 3; routerctl "$@"; else command cargo "$@"; fi
}
"#;

/// Runs `script` in `dir`; its status and its stdout followed by its stderr.
pub(crate) fn run(dir: &Path, script: &str) -> (i32, String) {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_routerctl"));
    let bin_dir = bin.parent().expect("the binary's directory");
    let path = std::env::join_paths(
        std::iter::once(bin_dir.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("a PATH");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("{PREAMBLE}{script}"))
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .env_remove("ROUTERCTL_REGENERATE")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// Whether `actual` is `expected`, where an expected line `…` (or `...`)
/// stands for any number of lines; trailing blanks are not compared.
pub(crate) fn matches(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if matches!(first.trim(), "…" | "...") => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            actual.first().is_some_and(|a| a.trim_end() == first.trim_end()) && matches(rest, &actual[1..])
        }
    }
}

/// A console block as commands (a `\` at a line's end continues it) and the
/// output shown under each.
pub(crate) fn console_commands(body: &str) -> Vec<(String, Vec<&str>)> {
    let mut out: Vec<(String, Vec<&str>)> = Vec::new();
    let mut continued = false;
    for line in body.lines() {
        if continued {
            if let Some((command, _)) = out.last_mut() {
                command.push('\n');
                command.push_str(line);
            }
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.push((command.to_string(), Vec::new()));
            continued = line.ends_with('\\');
        } else if let Some((_, shown)) = out.last_mut() {
            shown.push(line);
        }
    }
    out
}

fn on_path(tool: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().is_ok_and(|o| o.status.success())
}

/// Writes an example's `file NAME` block into the page's directory.
fn write_file(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("creates the file's directory");
    }
    std::fs::write(&path, body).expect("writes the example's file");
}

/// What the docs' `-o markdown` examples write on stdout: (`PAGE:LINE
/// COMMAND`, the comment), each command run as [`run_page`] runs it, in
/// a directory of the `file` blocks its page writes before it; it must
/// exit as its marker says. For the render test (`mermaid_render`), which
/// has Mermaid draw the pictures these comments carry.
pub(crate) fn markdown_comments() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for page in pages() {
        let name = relative(&page);
        let text = std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{name}: {e}"));
        let dir = tempfile::tempdir().expect("a temporary directory");
        for block in blocks(&name, &text) {
            match block.marker {
                Some(Ok(Marker::File(file))) => write_file(dir.path(), &file, &block.body),
                Some(Ok(Marker::Run { exit, .. })) if block.language == "console" => {
                    for (command, _) in console_commands(&block.body) {
                        if !command.contains("-o markdown") {
                            continue;
                        }
                        let (code, stdout) = run(dir.path(), &format!("{command} 2>/dev/null"));
                        assert_eq!(code, exit, "{}: `{command}`: {stdout}", block.place);
                        out.push((format!("{} {command}", block.place), stdout));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Runs one page's examples; what failed, one message each.
fn run_page(page: &Path) -> Vec<String> {
    let name = relative(page);
    let text = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Empty: nothing of the source tree, as a reader has it.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut failures = Vec::new();
    for block in blocks(&name, &text) {
        let marker = match block.marker {
            Some(Ok(marker)) => marker,
            Some(Err(message)) => {
                failures.push(format!("{}: {message}", block.place));
                continue;
            }
            None if is_shell(&block.language) => {
                failures.push(format!(
                    "{}: a ```{} block without a marker: put `<!-- example: run -->` or `<!-- example: skip (why) -->` on the line before it",
                    block.place, block.language
                ));
                continue;
            }
            None => continue,
        };
        match marker {
            Marker::Skip => {}
            Marker::File(file) => write_file(dir.path(), &file, &block.body),
            Marker::Run { exit, needs } => {
                if let Some(tool) = needs.filter(|t| !on_path(t)) {
                    eprintln!("{}: skipped: {tool} is not on PATH", block.place);
                    continue;
                }
                if block.language == "console" {
                    for (command, shown) in console_commands(&block.body) {
                        let (code, output) = run(dir.path(), &command);
                        let actual: Vec<&str> = output.trim_end().lines().collect();
                        let mut expected = shown;
                        while expected.last().is_some_and(|l| l.trim().is_empty()) {
                            expected.pop();
                        }
                        if code != exit || !matches(&expected, &actual) {
                            failures.push(format!(
                                "{}: `{command}` exited {code} (expected {exit}); its output:\n{output}\n--- the page shows:\n{}",
                                block.place,
                                expected.join("\n")
                            ));
                        }
                    }
                } else {
                    let (code, output) = run(dir.path(), &block.body);
                    if code != exit {
                        failures
                            .push(format!("{}: exited {code} (expected {exit}); its output:\n{output}", block.place));
                    }
                }
            }
        }
    }
    failures
}

#[test]
fn every_shell_example_is_marked_and_the_runnable_ones_pass() {
    let failures: Vec<String> = pages().iter().flat_map(|p| run_page(p)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// GitHub's anchor for a heading: lower case, punctuation but `-` and `_`
/// dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (outside fenced blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// Whether `path` is under a top-level file or directory the published
/// crate leaves out as a whole (bench/, .github/, action.yml): a link there
/// is not broken, it leads into the repository. A missing file in a
/// directory the crate has (docs/) still is.
fn left_out_of_the_crate(path: &Path) -> bool {
    let root = common::root();
    let Ok(inside) = path.strip_prefix(&root) else { return false };
    // `docs/../bench/README.md` names bench/ at its first normal part.
    let mut depth: Vec<&std::ffi::OsStr> = Vec::new();
    for part in inside.components() {
        match part {
            std::path::Component::ParentDir => {
                depth.pop();
            }
            std::path::Component::Normal(name) => depth.push(name),
            _ => {}
        }
    }
    depth.first().is_some_and(|top| !root.join(top).exists())
}

#[test]
fn every_relative_link_leads_to_a_file_and_a_heading() {
    let link = regex::Regex::new(r"\]\(([^)\s]+)\)").expect("a regex");
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("reads the page");
        for found in link.captures_iter(&text) {
            let target = &found[1];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
            let path =
                if file.is_empty() { page.clone() } else { page.parent().expect("a page's directory").join(file) };
            if !path.exists() && common::packaged() && left_out_of_the_crate(&path) {
                continue;
            }
            if !path.exists() {
                broken.push(format!("{}: {target}: no such file", relative(&page)));
            } else if !fragment.is_empty() {
                let heads = anchors(&std::fs::read_to_string(&path).unwrap_or_default());
                if !heads.iter().any(|h| h == fragment) {
                    broken.push(format!("{}: {target}: no such heading", relative(&page)));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_matcher_takes_an_ellipsis_for_any_lines() {
    assert!(matches(&["a", "…", "d"], &["a", "b", "c", "d"]));
    assert!(matches(&["a", "…"], &["a"]));
    assert!(!matches(&["a", "d"], &["a", "b", "d"]));
    assert!(!matches(&["a"], &["a", "b"]));
}

#[test]
fn a_block_ends_at_a_fence_as_long_as_its_own() {
    let page = "<!-- example: run -->\n````console\n$ x\n```mermaid\nsankey-beta\n```\n````\n\n```sh\ny\n```\n";
    let found = blocks("page.md", page);
    let read: Vec<(&str, &str)> = found.iter().map(|b| (b.language.as_str(), b.body.as_str())).collect();
    assert_eq!(read, [("console", "$ x\n```mermaid\nsankey-beta\n```\n"), ("sh", "y\n")]);
    assert_eq!(found[1].place, "page.md:9");
}

#[test]
fn markers_read_as_written() {
    assert_eq!(marker("<!-- example: run -->"), Some(Ok(Marker::Run { exit: 0, needs: None })));
    assert_eq!(
        marker("<!-- example: run, exit 1, needs kpt -->"),
        Some(Ok(Marker::Run { exit: 1, needs: Some("kpt".into()) }))
    );
    assert_eq!(marker("<!-- example: skip (needs a cluster) -->"), Some(Ok(Marker::Skip)));
    assert!(matches!(marker("<!-- example: skip -->"), Some(Err(_))));
    assert_eq!(marker("<!-- example: file a.yaml -->"), Some(Ok(Marker::File("a.yaml".into()))));
    assert_eq!(marker("<!-- a comment -->"), None);
}
