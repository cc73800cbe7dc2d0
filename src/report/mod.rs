//! What routerctl tells a person or a CI system on stderr besides the
//! output: findings (warnings, notes, the error that ends a run) in the
//! `--message-format` asked for, `--verbose` notes and a progress line for
//! long runs on a terminal. The formats: `human` text; `json`, one object
//! a line; `github`, GitHub Actions' workflow commands
//! (`::warning file=…,line=…::…`) that annotate the line in a pull
//! request; `sarif`, one SARIF 2.1.0 log written when the run ends. And
//! the KRM function's `results` (`krm_result`), the entries of the
//! ResourceList it hands back to kustomize or kpt.
//!
//! Every format gets the findings at the end of the run, sorted by file,
//! line, column and rule (a stable sort: findings with one place keep the
//! order they came in; findings of the whole run, with no place, first),
//! so that the same input reads the same whatever the order the work was
//! done in. kubectl's own stderr is shown as kubectl's (`kubectl said`,
//! never placed at a router), each line once a run.

pub mod mermaid;

use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use crate::diagnostic::{diagnostics_of, kubectl_said, rules, Diagnostic, KubectlFailure, Refusal, Rule, Severity};
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
            _ => human_text(d),
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
            let _ = writeln!(self.out, "routerctl: {} routers in {ms} ms", self.routers);
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

/// One finding as `human` writes it: `severity: text` (a note as
/// `routerctl: text`); kubectl's lines under `kubectl said (…):`, indented;
/// the external diff program's stderr as it wrote it.
fn human_text(d: &Diagnostic) -> String {
    if d.severity == Severity::Note && d.rule == rules::EXTERNAL {
        return format!("{}\n", d.message);
    }
    if d.severity == Severity::Note && d.rule == rules::KUBECTL {
        if let Some(context) = &d.context {
            let lines: String = d.message.lines().map(|l| format!("  {l}\n")).collect();
            return format!("{context}:\n{lines}");
        }
    }
    match d.severity {
        Severity::Note => format!("routerctl: {d}\n"),
        severity => format!("{}: {d}\n", severity.as_str()),
    }
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
    // What `human` prints, for a reader that shows findings as text: the
    // lines another program wrote (kubectl's, the external diff program's)
    // as they are, as `human` shows them.
    let rendered = match d.severity == Severity::Note && (d.rule == rules::KUBECTL || d.rule == rules::EXTERNAL) {
        true => d.place.as_ref().map_or_else(|| d.body(), |p| format!("{p}: {}", d.body())),
        false => d.to_string(),
    };
    m.insert("rendered".into(), json!(rendered));
    Value::Object(m)
}

/// A KRM function result: an entry of the ResourceList's `results`, as
/// the KRM Functions Specification (kustomize's `functions-spec.md`)
/// defines it. The finding's object is the `resourceRef` (only whole:
/// apiVersion, kind and name, and the namespace when it has one), its field
/// the `field.path` within that object, its place the `file` (the
/// orchestrator's path annotation of the object, `item` its index within
/// the file), and `krm_message` the message.
pub fn krm_result(d: &Diagnostic) -> Value {
    let mut r = Map::new();
    r.insert("message".into(), json!(krm_message(d)));
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        // The specification's word for a note.
        Severity::Note => "info",
    };
    r.insert("severity".into(), json!(severity));
    let whole = d.object.as_ref().filter(|o| !o.api_version.is_empty() && !o.kind.is_empty() && !o.name.is_empty());
    if let Some(o) = whole {
        let mut reference = Map::new();
        reference.insert("apiVersion".into(), json!(o.api_version));
        reference.insert("kind".into(), json!(o.kind));
        reference.insert("name".into(), json!(o.name));
        if !o.namespace.is_empty() {
            reference.insert("namespace".into(), json!(o.namespace));
        }
        r.insert("resourceRef".into(), Value::Object(reference));
        if let Some(path) = &d.field {
            r.insert("field".into(), json!({ "path": path }));
        }
    }
    if let Some(place) = &d.place {
        let mut file = Map::new();
        file.insert("path".into(), json!(place.file));
        if let Some(index) = place.item {
            file.insert("index".into(), json!(index));
        }
        r.insert("file".into(), Value::Object(file));
    }
    Value::Object(r)
}

/// A KRM result's message: the refusal it is one finding of, the message
/// and the hint. The object and the field are the result's own keys.
pub fn krm_message(d: &Diagnostic) -> String {
    d.statement(false)
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
    write_sarif_named(out, findings, &[])
}

/// [`write_sarif`], with the bytes of the source names that are not UTF-8.
fn write_sarif_named(out: &mut dyn Write, findings: &[Diagnostic], raw: &[(String, Vec<u8>)]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(out);
    serde_json::to_writer_pretty(&mut out, &SarifLog::named(findings, raw))?;
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
    /// Source names that are not UTF-8, and their bytes (see `RawNames`).
    raw_names: &'a [(String, Vec<u8>)],
}

impl SarifLog<'_> {
    fn of(findings: &[Diagnostic]) -> SarifLog<'_> {
        SarifLog::named(findings, &[])
    }

    fn named<'a>(findings: &'a [Diagnostic], raw_names: &'a [(String, Vec<u8>)]) -> SarifLog<'a> {
        let mut used: Vec<&'static Rule> = Vec::new();
        for d in findings {
            if !used.contains(&d.rule) {
                used.push(d.rule);
            }
        }
        SarifLog { findings, used, raw_names }
    }

    /// The bytes of a source's name: its own, where messages show it with
    /// U+FFFD for bytes that are not UTF-8 and the run read it so (two files
    /// whose names show alike keep the name shown).
    fn name_bytes<'n>(&'n self, shown: &'n str) -> &'n [u8] {
        let mut raw = self.raw_names.iter().filter(|(name, _)| name == shown).map(|(_, bytes)| bytes);
        match (raw.next(), raw.next()) {
            (Some(bytes), None) => bytes,
            _ => shown.as_bytes(),
        }
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
            sarif_result(d, index, self)
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
fn sarif_result(d: &Diagnostic, index: usize, log: &SarifLog) -> Value {
    // SARIF's levels are routerctl's severity words.
    let level = d.severity.as_str();
    let mut result = Map::new();
    result.insert("ruleId".into(), json!(d.rule.id));
    result.insert("ruleIndex".into(), json!(index));
    result.insert("level".into(), json!(level));
    result.insert("message".into(), json!({ "text": d.body() }));
    let mut location = Map::new();
    if let Some(place) = &d.place {
        let mut physical = Map::new();
        physical.insert("artifactLocation".into(), json!({ "uri": uri_reference(log.name_bytes(&place.file)) }));
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
fn uri_reference(name: &[u8]) -> String {
    let mut out = String::with_capacity(name.len());
    for &b in name {
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
    use crate::diagnostic::Place;

    /// A KRM result has the keys the KRM Functions Specification gives
    /// it (kustomize's functions-spec.md, "results"): message, severity
    /// (`info` for a note), `resourceRef` (apiVersion, kind, name,
    /// namespace), `field.path`, `file.path` and `file.index`.
    #[test]
    fn a_krm_result_has_the_specifications_keys() {
        let router = crate::kube::ObjectKey {
            api_version: "inference.llmkube.dev/v1alpha1".into(),
            kind: "ModelRouter".into(),
            namespace: "ml".into(),
            name: "r".into(),
        };
        let mut d = Diagnostic::new(Severity::Note, rules::OPERATOR, "must set failClosed=true")
            .on(router.clone())
            .field("spec.rules[0].failClosed")
            .hint("see the docs")
            .at(Place { item: Some(2), ..Place::file("routers/r.yaml") });
        d.context = Some("the operator refuses this ModelRouter".into());
        let expected = json!({
            "message": "the operator refuses this ModelRouter: must set failClosed=true (see the docs)",
            "severity": "info",
            "resourceRef": {
                "apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": "r", "namespace": "ml"
            },
            "field": {"path": "spec.rules[0].failClosed"},
            "file": {"path": "routers/r.yaml", "index": 2},
        });
        assert_eq!(krm_result(&d), expected);
        // The specification requires apiVersion, kind and name of a
        // reference: an object without a name has none, nor a field in it.
        let nameless = crate::kube::ObjectKey { name: String::new(), namespace: String::new(), ..router };
        let d = Diagnostic::warning(rules::KRM, "functionConfig is not read").on(nameless).field("data");
        assert_eq!(krm_result(&d), json!({"message": "functionConfig is not read", "severity": "warning"}));
    }

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
        // Findings are written when the run ends, sorted; the verbose lines
        // as the run goes.
        assert!(text.starts_with("routerctl: ns/a: 3 objects\nwarning: shown\nrouterctl: 1 routers in "), "{text}");
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
