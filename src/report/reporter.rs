//! The stderr side of a run: findings (warnings, notes, the error that
//! ends a run) kept as they come and written when the run ends, sorted by
//! file, line, column and rule (a stable sort: findings with one place keep
//! the order they came in; findings of the whole run, with no place,
//! first), so that the same input reads the same whatever the order the
//! work was done in, in the `--message-format` asked for (`human`,
//! `json`, `github`, `sarif`: each format's own module writes a finding);
//! kubectl's own stderr shown as kubectl's (`kubectl said`, never placed at
//! a router), each line once a run; `--verbose` notes and a progress line
//! for long runs on a terminal.

use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, Instant};

use super::github::{self, github_line};
use super::human;
use super::json::json_line;
use super::sarif::write_sarif_named;
use crate::diagnostic::{diagnostics_of, kubectl_said, rules, Diagnostic, KubectlFailure, Refusal, Severity};
use crate::kube::count::count;
use crate::kube::shown::one_line;

/// How findings are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MessageFormat {
    #[default]
    Human,
    Json,
    Github,
    Sarif,
}

/// How often the progress line is redrawn.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// The stderr side of a run.
pub struct Reporter<'a> {
    out: &'a mut dyn Write,
    format: MessageFormat,
    /// Findings kept rather than written: collected for a caller
    /// (`collecting`), not written at all.
    collecting: bool,
    /// The findings so far, written sorted by `finish`, or what a
    /// collecting reporter hands back.
    kept: Vec<Diagnostic>,
    /// In `human`, the text of the error that ends the run: written last.
    ending: Option<String>,
    /// kubectl's stderr lines shown so far (without klog's header, which
    /// holds a time): each is shown once a run.
    kubectl_lines: HashSet<String>,
    quiet: bool,
    verbose: bool,
    /// Draw a progress line (stderr is a terminal, and not quiet).
    progress: bool,
    started: Instant,
    last_drawn: Option<Instant>,
    routers: usize,
    /// Source names that are not UTF-8, and their bytes: SARIF carries
    /// the bytes (percent-encoded) where the other formats show U+FFFD.
    raw_names: Vec<(String, Vec<u8>)>,
}

impl<'a> Reporter<'a> {
    pub fn new(out: &'a mut dyn Write, quiet: bool, verbose: bool, stderr_is_tty: bool) -> Reporter<'a> {
        Reporter {
            out,
            format: MessageFormat::Human,
            collecting: false,
            kept: Vec::new(),
            ending: None,
            kubectl_lines: HashSet::new(),
            quiet,
            verbose,
            progress: stderr_is_tty && !quiet,
            started: Instant::now(),
            last_drawn: None,
            routers: 0,
            raw_names: Vec::new(),
        }
    }

    /// Warnings and nothing else, as libraries and tests want.
    pub fn plain(out: &'a mut dyn Write) -> Reporter<'a> {
        Reporter::new(out, false, false, false)
    }

    /// A reporter that writes nothing and keeps every finding, warnings
    /// and errors, for `take`: the KRM function turns them into results.
    pub fn collecting(out: &'a mut dyn Write) -> Reporter<'a> {
        Reporter { collecting: true, ..Reporter::new(out, false, false, false) }
    }

    /// The findings a collecting reporter kept, in the order they came.
    pub fn take(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.kept)
    }

    /// Findings in `format`; machine formats draw no progress line and no
    /// `--verbose` lines, so that stderr holds findings only.
    pub fn with_format(mut self, format: MessageFormat) -> Reporter<'a> {
        self.format = format;
        if format != MessageFormat::Human {
            self.progress = false;
            self.verbose = false;
        }
        self
    }

    /// A warning (or a note), unless `-q`.
    pub fn warn(&mut self, diagnostic: Diagnostic) {
        if !self.quiet {
            self.write(diagnostic);
        }
    }

    /// A finding of a command's results, by its severity: an error is
    /// written even with `-q`, a warning or a note unless `-q`.
    pub fn finding(&mut self, diagnostic: Diagnostic) {
        match diagnostic.severity {
            Severity::Error => self.error(diagnostic),
            _ => self.warn(diagnostic),
        }
    }

    /// A fact worth knowing that is not a problem (what cluster mode found
    /// out about the operator), unless `-q`.
    pub fn note(&mut self, message: &str) {
        self.warn(Diagnostic::new(Severity::Note, rules::CLUSTER, message));
    }

    /// Errors, written even with `-q`: the findings of a refusal that did
    /// not end the run (the KRM function's), or the error that ends it.
    pub fn error(&mut self, diagnostic: Diagnostic) {
        self.write(diagnostic);
    }

    /// The error that ends the run, once: in `human`, its whole text,
    /// after every other finding; in the other formats, each finding it
    /// carries. A failed kubectl's lines are kubectl's: shown apart, as
    /// what kubectl said, then the error.
    pub fn failed(&mut self, error: &anyhow::Error) {
        let kubectl = error.chain().find_map(|e| e.downcast_ref::<KubectlFailure>());
        if self.format == MessageFormat::Human {
            let text = match kubectl {
                Some(failure) => {
                    if let Some(said) = failure.said() {
                        self.kubectl(said);
                    }
                    failure.finding().to_string()
                }
                None => ending_text(error),
            };
            self.ending = Some(text);
            return;
        }
        for diagnostic in diagnostics_of(error) {
            match diagnostic.rule == rules::KUBECTL && diagnostic.severity == Severity::Note {
                true => self.kubectl(diagnostic),
                false => self.write(diagnostic),
            }
        }
    }

    /// What kubectl wrote on stderr while reading `reading` in a call that
    /// succeeded (deprecation and admission warnings), unless `-q`: as
    /// kubectl's, with no place.
    pub fn kubectl_said(&mut self, reading: &str, stderr: &str) {
        if let Some(said) = kubectl_said(reading, stderr).filter(|_| !self.quiet) {
            self.kubectl(said);
        }
    }

    /// kubectl's stderr where it explains why the run fails: shown with
    /// `-q` too, which drops only what a good run says.
    pub fn kubectl_explains(&mut self, reading: &str, stderr: &str) {
        if let Some(said) = kubectl_said(reading, stderr) {
            self.kubectl(said);
        }
    }

    /// A `kubectl said` note, without the lines shown already this run.
    fn kubectl(&mut self, mut said: Diagnostic) {
        let fresh: Vec<&str> =
            said.message.lines().filter(|line| self.kubectl_lines.insert(klog_message(line).to_string())).collect();
        if fresh.is_empty() {
            return;
        }
        said.message = fresh.join("\n");
        self.write(said);
    }

    /// What another program wrote on stderr (the external diff program):
    /// as it is in `human`, as one note in the other formats.
    pub fn external(&mut self, text: &str) {
        if self.quiet || text.is_empty() {
            return;
        }
        self.write(Diagnostic::new(Severity::Note, rules::EXTERNAL, text.trim_end()));
    }

    /// The run's errors as people read them, sorted as `finish` writes
    /// them, the error that ends the run last: what a report written in
    /// place of the results (`junit::errored`) holds.
    pub fn errors(&self, ending: &anyhow::Error) -> String {
        let mut errors: Vec<&Diagnostic> = self.kept.iter().filter(|d| d.severity == Severity::Error).collect();
        errors.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
        let mut text: String = errors.iter().map(|d| human::finding(d)).collect();
        text.push_str(&format!("error: {}\n", ending_text(ending)));
        text
    }

    /// Keeps a finding for `finish`, which writes them sorted.
    fn write(&mut self, d: Diagnostic) {
        self.kept.push(d);
    }

    /// Writes the findings kept, sorted (a stable sort: those of one place
    /// keep their order), in the format asked for. Each finding is made
    /// whole, then written at once: stderr is not buffered, and a value's
    /// `Display` writes it piece by piece.
    fn write_findings(&mut self) {
        let mut findings = std::mem::take(&mut self.kept);
        findings.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
        // A closed stderr must not turn a good run into a failed one.
        let line = |d: &Diagnostic| match self.format {
            MessageFormat::Json => json_line(d).to_string() + "\n",
            MessageFormat::Github => github_line(d) + "\n",
            _ => human::finding(d),
        };
        match self.format {
            MessageFormat::Sarif => {
                let _ = write_sarif_named(self.out, &findings, &self.raw_names);
            }
            _ => {
                for d in &findings {
                    let text = line(d);
                    let _ = self.out.write_all(text.as_bytes());
                }
                if let Some(ending) = self.ending.take().filter(|_| self.format == MessageFormat::Human) {
                    let _ = self.out.write_all(format!("error: {ending}\n").as_bytes());
                }
            }
        }
    }

    /// The names of the run's sources that are not UTF-8, with their bytes
    /// (`input::inputs::Inputs::raw_names`), for the SARIF log.
    pub fn raw_names(&mut self, names: &[(String, Vec<u8>)]) {
        self.raw_names = names.to_vec();
    }

    /// The format findings are written in.
    pub fn format(&self) -> MessageFormat {
        self.format
    }

    /// A report for people on stdout, made safe for the log the format
    /// writes to: fenced from workflow commands in `github`
    /// ([`github::fenced`]), as it is in the other formats.
    pub fn fenced(&self, text: String) -> String {
        match self.format {
            MessageFormat::Github => github::fenced(text),
            _ => text,
        }
    }

    /// Whether `-q` asked for silence.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// One ModelRouter done.
    pub fn router_done(&mut self, name: &str, objects: usize) {
        self.routers += 1;
        if self.verbose {
            self.clear_progress();
            let _ = writeln!(self.out, "routerctl: {name}: {}", count(objects, "object", "objects"));
        }
        let due = self.last_drawn.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
        if self.progress && due && self.started.elapsed() >= PROGRESS_EVERY {
            let _ = write!(self.out, "\rrouterctl: {}...", count(self.routers, "router", "routers"));
            let _ = self.out.flush();
            self.last_drawn = Some(Instant::now());
        }
    }

    /// How far a long read has come, on the progress line (a terminal's,
    /// redrawn at most every 200 ms): `text` is made only when drawn.
    pub fn progress(&mut self, text: &dyn Fn() -> String) {
        let due = self.last_drawn.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
        if self.progress && due && self.started.elapsed() >= PROGRESS_EVERY {
            let _ = write!(self.out, "\rrouterctl: {}\x1b[K", text());
            let _ = self.out.flush();
            self.last_drawn = Some(Instant::now());
        }
    }

    /// The end of a run: the progress line goes; the findings are written,
    /// sorted (in `sarif`, as its log); `--verbose` gets the timing.
    pub fn finish(&mut self) {
        self.clear_progress();
        if !self.collecting {
            self.write_findings();
        }
        if self.verbose {
            let ms = self.started.elapsed().as_millis();
            let _ = writeln!(self.out, "routerctl: {} in {ms} ms", count(self.routers, "router", "routers"));
        }
    }

    fn clear_progress(&mut self) {
        if self.last_drawn.take().is_some() {
            let _ = write!(self.out, "\r\x1b[K");
        }
    }
}

/// The error that ends a run as people read it (`outer: inner: …`), each
/// layer on one line whatever values it holds; a refusal's findings each on
/// a line of their own, as its `Display` lays them out.
fn ending_text(error: &anyhow::Error) -> String {
    let layers: Vec<String> = error
        .chain()
        .map(|layer| match layer.downcast_ref::<Refusal>() {
            Some(refusal) => refusal.to_string(),
            None => one_line(&layer.to_string()).into_owned(),
        })
        .collect();
    layers.join(": ")
}

/// The order findings are written in: by file, line, column, then rule;
/// findings with no place (about the whole run, or kubectl's) first, in
/// the order they came.
fn sort_key(d: &Diagnostic) -> Option<(&str, Option<usize>, Option<usize>, &str)> {
    d.place.as_ref().map(|p| (p.file.as_str(), p.line, p.column, d.rule.id))
}

/// A kubectl stderr line without klog's header (`E1205 10:00:00.000000
/// 123 memcache.go:265] `), which holds the time: the same complaint from
/// two kubectl runs is the same line.
fn klog_message(line: &str) -> &str {
    let bytes = line.as_bytes();
    let header = bytes.len() > 5
        && matches!(bytes[0], b'I' | b'W' | b'E' | b'F')
        && bytes[1..5].iter().all(u8::is_ascii_digit)
        && bytes[5] == b' ';
    match line.find("] ") {
        Some(end) if header => &line[end + 2..],
        _ => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Place;
    use serde_json::Value;

    #[test]
    fn quiet_drops_warnings_and_verbose_counts() {
        let mut buf = Vec::new();
        let mut r = Reporter::new(&mut buf, true, false, true);
        r.warn(Diagnostic::warning(rules::RENDER, "hidden"));
        r.router_done("ns/a", 3);
        r.finish();
        assert!(buf.is_empty());

        let mut buf = Vec::new();
        let mut r = Reporter::new(&mut buf, false, true, false);
        r.warn(Diagnostic::warning(rules::RENDER, "shown"));
        r.router_done("ns/a", 3);
        r.finish();
        let text = String::from_utf8(buf).expect("utf-8");
        // Findings are written when the run ends, sorted; the verbose lines
        // as the run goes.
        assert!(text.starts_with("routerctl: ns/a: 3 objects\nwarning: shown\nrouterctl: 1 router in "), "{text}");
        assert!(!text.contains('\r'), "no progress line when stderr is not a terminal");
    }

    fn run(format: MessageFormat, f: impl FnOnce(&mut Reporter)) -> String {
        let mut buf = Vec::new();
        let mut r = Reporter::plain(&mut buf).with_format(format);
        f(&mut r);
        r.finish();
        String::from_utf8(buf).expect("utf-8")
    }

    #[test]
    fn findings_are_written_by_file_line_column_then_rule_and_stably() {
        let w = |rule, message: &str, place: Option<Place>| {
            let d = Diagnostic::warning(rule, message);
            match place {
                Some(place) => d.at(place),
                None => d,
            }
        };
        let findings = [
            w(rules::RENDER, "b.yaml line 2", Some(Place::line("b.yaml", 2))),
            w(rules::SCHEMA, "a.yaml 10:3 schema", Some(Place::at("a.yaml", 10, 3))),
            w(rules::RELEASE, "run-level first", None),
            w(rules::RENDER, "a.yaml 10:3 render", Some(Place::at("a.yaml", 10, 3))),
            w(rules::RENDER, "a.yaml 9:1", Some(Place::at("a.yaml", 9, 1))),
            w(rules::RENDER, "a.yaml 10:1 first", Some(Place::at("a.yaml", 10, 1))),
            w(rules::RENDER, "a.yaml 10:1 second", Some(Place::at("a.yaml", 10, 1))),
            w(rules::CRD, "run-level second", None),
        ];
        let want = [
            "run-level first",
            "run-level second",
            "a.yaml 9:1",
            "a.yaml 10:1 first",
            "a.yaml 10:1 second",
            "a.yaml 10:3 render",
            "a.yaml 10:3 schema",
            "b.yaml line 2",
        ];
        for format in [MessageFormat::Human, MessageFormat::Json, MessageFormat::Github, MessageFormat::Sarif] {
            let text = run(format, |r| findings.iter().cloned().for_each(|d| r.warn(d)));
            let at: Vec<usize> = want.iter().map(|m| text.find(m).expect("every finding is written")).collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{format:?}: {text}");
        }
    }

    #[test]
    fn the_error_that_ends_a_human_run_comes_after_the_findings() {
        let text = run(MessageFormat::Human, |r| {
            r.failed(&anyhow::anyhow!("it broke"));
            r.warn(Diagnostic::warning(rules::RENDER, "late").at(Place::line("a.yaml", 1)));
        });
        assert_eq!(text, "warning: a.yaml:1: late\nerror: it broke\n");
    }

    #[test]
    fn kubectls_lines_are_kubectls_and_shown_once() {
        // kubectl repeats its discovery error, with the time in klog's header.
        let e = |time: &str| {
            format!("E1205 10:00:{time}.000000   123 memcache.go:265] couldn't get current server API group list\n")
        };
        let refused = "The connection to the server 127.0.0.1:6443 was refused\n";
        let failure = KubectlFailure {
            command: "kubectl get deployment.apps -n ml".into(),
            status: "exit status 1".into(),
            reading: "namespace ml".into(),
            stderr: format!("{}{}{refused}", e("02"), e("03")),
            hint: "check --context".into(),
        };
        let at = crate::diagnostic::At::new(Place::line("r.yaml", 12), None);
        let error = anyhow::Error::new(failure).context(at);
        let look_up = format!("{}{refused}", e("01"));
        let text = run(MessageFormat::Human, |r| {
            r.kubectl_said("the operator look-up", &look_up);
            r.failed(&error);
        });
        assert_eq!(
            text,
            format!(
                "kubectl said (the operator look-up):\n  {}  {refused}error: `kubectl get deployment.apps -n ml` failed \
                 (exit status 1) (check --context)\n",
                e("01")
            ),
            "the failed read said nothing new: its lines are not shown again, and r.yaml is not named"
        );
        let text = run(MessageFormat::Json, |r| r.failed(&error));
        let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!((lines[0]["severity"].as_str(), lines[0]["rule"].as_str()), (Some("note"), Some("kubectl")));
        assert_eq!(lines[0]["context"], "kubectl said (namespace ml)");
        assert_eq!(lines[0]["message"].as_str().map(|m| m.lines().count()), Some(2), "the repeated line once");
        assert_eq!(lines[1]["severity"], "error");
        assert!(lines.iter().all(|l| l.get("file").is_none()), "kubectl's failure is no router's: {text}");
        let quiet = {
            let mut buf = Vec::new();
            let mut r = Reporter::new(&mut buf, true, false, false);
            r.kubectl_said("namespace ml", "Warning: deprecated\n");
            r.failed(&error);
            r.finish();
            String::from_utf8(buf).expect("utf-8")
        };
        assert!(
            quiet.starts_with("kubectl said (namespace ml):\n  E1205"),
            "-q keeps what explains the error: {quiet}"
        );
        assert!(!quiet.contains("deprecated"), "-q drops what a read that worked said: {quiet}");
    }

    #[test]
    fn klog_headers_are_left_out_when_lines_are_compared() {
        assert_eq!(klog_message("W1205 09:08:07.123456   42 warnings.go:70] v1 is deprecated"), "v1 is deprecated");
        assert_eq!(klog_message("Warning: v1 is deprecated"), "Warning: v1 is deprecated");
        assert_eq!(klog_message("Error from server [x] y"), "Error from server [x] y");
    }
}
