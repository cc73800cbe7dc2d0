//! `--message-format github`: GitHub Actions' workflow commands
//! (`::warning file=…,line=…::…`), which annotate the line in a pull
//! request; and a report on stdout fenced so that no line of it is read as
//! one.

use crate::diagnostic::{Diagnostic, Severity};

/// `--message-format github`: a workflow command, as GitHub's "Workflow
/// commands for GitHub Actions" documents them:
/// `::warning file=F,line=L,col=C,title=T::message`, with `%`, CR and LF
/// escaped in the message, and `:` and `,` too in property values.
pub fn github_line(d: &Diagnostic) -> String {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    };
    let mut properties = Vec::new();
    if let Some(place) = &d.place {
        properties.push(format!("file={}", github_escape(&place.file, true)));
        if let Some(line) = place.line {
            properties.push(format!("line={line}"));
        }
        if let Some(column) = place.column {
            properties.push(format!("col={column}"));
        }
    }
    properties.push(format!("title={}", github_escape(&format!("routerctl {}", d.rule.id), true)));
    format!("::{command} {}::{}", properties.join(","), github_escape(&d.body(), false))
}

fn github_escape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// A report that holds values from the input (case names, header values,
/// models), made safe for a GitHub Actions log: the runner reads any stdout
/// line `::command::…` as a workflow command, so the text is fenced by
/// `::stop-commands::TOKEN` … `::TOKEN::` with a fresh random token, as
/// GitHub documents for untrusted output. An empty text stays empty (and
/// JSON reports, whose strings cannot hold a line break, need no fence).
pub fn fenced(text: String) -> String {
    if text.is_empty() {
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
