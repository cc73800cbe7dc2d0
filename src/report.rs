//! What routerctl tells a person or a CI system on stderr besides the
//! output: findings (warnings, notes, the error that ends a run) in the
//! `--message-format` asked for, `--verbose` notes and a progress line for
//! long runs on a terminal. The formats: `human` text; `json`, one object
//! a line; `github`, GitHub Actions' workflow commands
//! (`::warning file=…,line=…::…`) that annotate the line in a pull
//! request; `sarif`, one SARIF 2.1.0 log written when the run ends.

use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use crate::diagnostic::{diagnostics_of, rules, Diagnostic, Rule, Severity};

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
    /// What the SARIF log will hold (written by `finish`), or what a
    /// collecting reporter hands back.
    kept: Vec<Diagnostic>,
    quiet: bool,
    verbose: bool,
    /// Draw a progress line (stderr is a terminal, and not quiet).
    progress: bool,
    started: Instant,
    last_drawn: Option<Instant>,
    routers: usize,
}

impl<'a> Reporter<'a> {
    pub fn new(out: &'a mut dyn Write, quiet: bool, verbose: bool, stderr_is_tty: bool) -> Reporter<'a> {
        Reporter {
            out,
            format: MessageFormat::Human,
            collecting: false,
            kept: Vec::new(),
            quiet,
            verbose,
            progress: stderr_is_tty && !quiet,
            started: Instant::now(),
            last_drawn: None,
            routers: 0,
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

    /// The error that ends the run, once: in `human`, its whole text; in the
    /// other formats, each finding it carries.
    pub fn failed(&mut self, error: &anyhow::Error) {
        if self.format == MessageFormat::Human {
            self.clear_progress();
            let _ = writeln!(self.out, "error: {error:#}");
            return;
        }
        for diagnostic in diagnostics_of(error) {
            self.write(diagnostic);
        }
    }

    /// What another program wrote on stderr (the external diff program):
    /// as it is in `human`, as one note in the other formats.
    pub fn external(&mut self, text: &str) {
        if self.quiet || text.is_empty() {
            return;
        }
        if self.format == MessageFormat::Human {
            self.clear_progress();
            let _ = self.out.write_all(text.as_bytes());
        } else {
            self.write(Diagnostic::new(Severity::Note, rules::EXTERNAL, text.trim_end()));
        }
    }

    fn write(&mut self, d: Diagnostic) {
        if self.collecting {
            self.kept.push(d);
            return;
        }
        self.clear_progress();
        // Each finding is made whole, then written at once: stderr is not
        // buffered, and a value's `Display` writes it piece by piece.
        let line = match self.format {
            MessageFormat::Human => match d.severity {
                Severity::Note => format!("routerctl: {d}\n"),
                severity => format!("{}: {d}\n", severity.as_str()),
            },
            MessageFormat::Json => json_line(&d).to_string() + "\n",
            MessageFormat::Github => github_line(&d) + "\n",
            MessageFormat::Sarif => {
                self.kept.push(d);
                return;
            }
        };
        // A closed stderr must not turn a good run into a failed one.
        let _ = self.out.write_all(line.as_bytes());
    }

    /// The format findings are written in.
    pub fn format(&self) -> MessageFormat {
        self.format
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
            let _ = writeln!(self.out, "routerctl: {name}: {objects} objects");
        }
        let due = self.last_drawn.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
        if self.progress && due && self.started.elapsed() >= PROGRESS_EVERY {
            let _ = write!(self.out, "\rrouterctl: {} routers...", self.routers);
            let _ = self.out.flush();
            self.last_drawn = Some(Instant::now());
        }
    }

    /// The end of a run: the progress line goes; `--verbose` gets the
    /// timing; `sarif` gets its log, with every finding of the run.
    pub fn finish(&mut self) {
        self.clear_progress();
        if self.verbose {
            let ms = self.started.elapsed().as_millis();
            let _ = writeln!(self.out, "routerctl: {} routers in {ms} ms", self.routers);
        }
        if self.format == MessageFormat::Sarif && !self.collecting {
            let _ = write_sarif(self.out, &std::mem::take(&mut self.kept));
        }
    }

    fn clear_progress(&mut self) {
        if self.last_drawn.take().is_some() {
            let _ = write!(self.out, "\r\x1b[K");
        }
    }
}

/// `--message-format json`: one finding as one JSON object (without
/// the keys it has no value for).
pub fn json_line(d: &Diagnostic) -> Value {
    let mut m = Map::new();
    m.insert("severity".into(), json!(d.severity.as_str()));
    m.insert("rule".into(), json!(d.rule.id));
    m.insert("message".into(), json!(d.message));
    if let Some(place) = &d.place {
        m.insert("file".into(), json!(place.file));
        let optional =
            [("line", place.line), ("column", place.column), ("document", place.document), ("item", place.item)];
        for (key, value) in optional {
            if let Some(value) = value {
                m.insert(key.into(), json!(value));
            }
        }
    }
    if let Some(o) = &d.object {
        let mut object = Map::new();
        object.insert("apiVersion".into(), json!(o.api_version));
        object.insert("kind".into(), json!(o.kind));
        if !o.namespace.is_empty() {
            object.insert("namespace".into(), json!(o.namespace));
        }
        object.insert("name".into(), json!(o.name));
        m.insert("object".into(), Value::Object(object));
    }
    if let Some(field) = &d.field {
        m.insert("field".into(), json!(field));
    }
    if let Some(hint) = &d.hint {
        m.insert("hint".into(), json!(hint));
    }
    if let Some(context) = &d.context {
        m.insert("context".into(), json!(context));
    }
    // What `human` prints, for a reader that shows findings as text.
    m.insert("rendered".into(), json!(d.to_string()));
    Value::Object(m)
}

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

/// The SARIF 2.1.0 log of a run's findings: one run, routerctl as its
/// tool, the rules the findings use, a result per finding with its file,
/// line and column.
pub fn sarif_log(findings: &[Diagnostic]) -> Value {
    serde_json::to_value(SarifLog::of(findings)).unwrap_or_default()
}

/// Writes the SARIF log of `findings` as `sarif_log` would print it, one
/// result at a time: a run of many findings holds them, never their log.
pub fn write_sarif(out: &mut dyn Write, findings: &[Diagnostic]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(out);
    serde_json::to_writer_pretty(&mut out, &SarifLog::of(findings))?;
    writeln!(out)?;
    out.flush()
}

/// A SARIF log, serialized as its findings are turned into results. Keys
/// are written in the order a `serde_json::Value` map keeps them (sorted),
/// so the text is the same either way.
struct SarifLog<'a> {
    findings: &'a [Diagnostic],
    /// The rules the findings use, in the order first used.
    used: Vec<&'static Rule>,
}

impl SarifLog<'_> {
    fn of(findings: &[Diagnostic]) -> SarifLog<'_> {
        let mut used: Vec<&'static Rule> = Vec::new();
        for d in findings {
            if !used.contains(&d.rule) {
                used.push(d.rule);
            }
        }
        SarifLog { findings, used }
    }
}

impl serde::Serialize for SarifLog<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let rules: Vec<Value> =
            self.used.iter().map(|r| json!({ "id": r.id, "shortDescription": { "text": r.summary } })).collect();
        let tool = json!({ "driver": {
            "name": "routerctl",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        }});
        let results = JsonSeq::new(self.findings.iter().map(|d| {
            let index = self.used.iter().position(|r| *r == d.rule).unwrap_or_default();
            sarif_result(d, index)
        }));
        let mut log = serializer.serialize_map(Some(3))?;
        log.serialize_entry("$schema", "https://json.schemastore.org/sarif-2.1.0.json")?;
        log.serialize_entry("runs", &[SarifRun { results, tool }])?;
        log.serialize_entry("version", "2.1.0")?;
        log.end()
    }
}

struct SarifRun<I> {
    results: JsonSeq<I>,
    tool: Value,
}

impl<I: Iterator<Item = Value>> serde::Serialize for SarifRun<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut run = serializer.serialize_map(Some(3))?;
        run.serialize_entry("columnKind", "unicodeCodePoints")?;
        run.serialize_entry("results", &self.results)?;
        run.serialize_entry("tool", &self.tool)?;
        run.end()
    }
}

/// A JSON array whose elements are made as they are written, so that a
/// long report never holds them all as values. Written once.
pub struct JsonSeq<I>(std::cell::RefCell<Option<I>>);

impl<I: Iterator<Item = Value>> JsonSeq<I> {
    pub fn new(items: I) -> JsonSeq<I> {
        JsonSeq(std::cell::RefCell::new(Some(items)))
    }
}

impl<I: Iterator<Item = Value>> serde::Serialize for JsonSeq<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let items = self.0.borrow_mut().take();
        let mut seq = serializer.serialize_seq(None)?;
        for item in items.into_iter().flatten() {
            seq.serialize_element(&item)?;
        }
        seq.end()
    }
}

/// One finding as a SARIF result; `index` is its rule's in the log's table.
fn sarif_result(d: &Diagnostic, index: usize) -> Value {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let mut result = Map::new();
    result.insert("ruleId".into(), json!(d.rule.id));
    result.insert("ruleIndex".into(), json!(index));
    result.insert("level".into(), json!(level));
    result.insert("message".into(), json!({ "text": d.body() }));
    let mut location = Map::new();
    if let Some(place) = &d.place {
        let mut physical = Map::new();
        physical.insert("artifactLocation".into(), json!({ "uri": uri_reference(&place.file) }));
        if let Some(line) = place.line.filter(|l| *l > 0) {
            let mut region = Map::new();
            region.insert("startLine".into(), json!(line));
            if let Some(column) = place.column.filter(|c| *c > 0) {
                region.insert("startColumn".into(), json!(column));
            }
            physical.insert("region".into(), Value::Object(region));
        }
        location.insert("physicalLocation".into(), Value::Object(physical));
    }
    if let Some(o) = &d.object {
        let qualified = crate::diagnostic::describe(o);
        let logical = json!([{ "name": o.name, "fullyQualifiedName": qualified, "kind": "resource" }]);
        location.insert("logicalLocations".into(), logical);
    }
    if !location.is_empty() {
        result.insert("locations".into(), json!([Value::Object(location)]));
    }
    let mut properties = Map::new();
    if let Some(field) = &d.field {
        properties.insert("field".into(), json!(field));
    }
    if let Some(hint) = &d.hint {
        properties.insert("hint".into(), json!(hint));
    }
    if !properties.is_empty() {
        result.insert("properties".into(), Value::Object(properties));
    }
    Value::Object(result)
}

/// A source name as a relative URI reference: unreserved characters and
/// `/` as they are, every other byte percent-encoded (RFC 3986).
fn uri_reference(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log written a result at a time is the text of the whole log
    /// as one JSON value, pretty-printed: the same keys in the same order.
    #[test]
    fn the_streamed_sarif_log_is_the_whole_logs_text() {
        let findings = vec![
            Diagnostic::error(rules::TEST, "case \"a\" fails").at(crate::diagnostic::Place::at("t.yaml", 4, 3)),
            Diagnostic::warning(rules::UNKNOWN_FIELD, "unknown field").field("spec.x").hint("dropped"),
            Diagnostic::error(rules::TEST, "second"),
        ];
        let whole = sarif_log(&findings);
        assert_eq!(whole["runs"][0]["results"][2]["ruleIndex"], 0);
        assert_eq!(whole["runs"][0]["tool"]["driver"]["rules"][1]["id"], "schema-unknown-field");
        let mut streamed = Vec::new();
        write_sarif(&mut streamed, &findings).expect("writes");
        let expected = serde_json::to_string_pretty(&whole).expect("serializes") + "\n";
        assert_eq!(String::from_utf8(streamed).expect("UTF-8"), expected);
    }

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
        assert!(text.starts_with("warning: shown\nrouterctl: ns/a: 3 objects\nrouterctl: 1 routers in "), "{text}");
        assert!(!text.contains('\r'), "no progress line when stderr is not a terminal");
    }
}
