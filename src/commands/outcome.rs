//! What a command hands back: its spooled stdout and exit code
//! (`Outcome`), and what it may know of the terminal (`Terminal`).

use std::io::Write;

use anyhow::{Context as _, Result};

use crate::output::spool::Spool;

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
