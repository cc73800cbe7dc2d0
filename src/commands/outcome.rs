//! What a command hands back: its spooled stdout and exit code
//! (`Outcome`), and what it may know of the terminal (`Terminal`).

use std::io::Write;

use anyhow::{Context as _, Result};

use crate::output::spool::Spool;
use crate::report::MessageFormat;

/// What a successful run prints and how it exits.
#[derive(Debug)]
pub struct Outcome {
    pub stdout: Spool,
    pub code: i32,
    /// For stderr after stdout (the plan lines that close a diff).
    pub notes: String,
}

/// What the process knows about its terminal, for `--color auto`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Terminal {
    pub stdout_is_tty: bool,
    pub stderr_is_tty: bool,
    /// `NO_COLOR` is set to a non-empty value.
    pub no_color: bool,
}

/// A small output, known whole.
pub(super) fn text_outcome(text: &str, code: i32) -> Result<Outcome> {
    let mut stdout = Spool::new();
    stdout.write_all(text.as_bytes()).context("cannot spool output")?;
    Ok(Outcome { stdout, code, notes: String::new() })
}

/// A report that holds values from the input (case names, header values,
/// models), made safe for a GitHub Actions log in the `github` format: the
/// runner reads any stdout line `::command::…` as a workflow command, so
/// the text is fenced by `::stop-commands::TOKEN` … `::TOKEN::` with a fresh
/// random token, as GitHub documents for untrusted output. Other formats
/// (and JSON reports, whose strings cannot hold a line break) pass as they
/// are.
pub(super) fn fenced(text: String, format: MessageFormat) -> String {
    if format != MessageFormat::Github || text.is_empty() {
        return text;
    }
    use std::hash::{BuildHasher, Hasher};
    // Seeded anew by each process: nothing in the input can guess it.
    let token = loop {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write(text.as_bytes());
        let token = format!("routerctl-{:016x}", hasher.finish());
        if !text.contains(&token) {
            break token;
        }
    };
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    format!("::stop-commands::{token}\n{text}{newline}::{token}::\n")
}
