//! Findings as data: one `Diagnostic` type that every stage produces for a
//! warning or a refusal, carried through the pipeline's results, and turned
//! into text only at the edge (`report` for stderr in each
//! `--message-format`, the KRM function for its `results`).
//!
//! A refusal that lists several findings under one heading (the schema's,
//! the operator's) travels as a `Refusal` inside an `anyhow::Error`: its
//! `Display` is the text people read, and `diagnostics_of` finds it again
//! in an error's chain, so no front end parses a message back. Any other
//! error of a router has an `At` context around it, which says where in
//! words for people and as a place and an object for the findings.

use std::fmt;

use crate::kube::shown::{one_line, shown};
use crate::kube::ObjectKey;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The run fails: nothing is printed on stdout.
    Error,
    /// Accepted, but probably not meant; an error under `--strict` where the
    /// stage says so.
    Warning,
    /// A fact worth knowing that is not a problem.
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// What kind of finding it is: a stable id for machines (SARIF's `ruleId`,
/// the `rule` of `--message-format json`) and one line on what it means.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rule {
    pub id: &'static str,
    pub summary: &'static str,
}

macro_rules! rules {
    ($($name:ident = $id:literal, $summary:literal;)*) => {
        $(pub const $name: &Rule = &Rule { id: $id, summary: $summary };)*
        /// Every rule, for SARIF's rule table and its test.
        pub const ALL: &[&Rule] = &[$($name),*];
    };
}

/// The rules routerctl reports under.
pub mod rules {
    use super::Rule;

    rules! {
        ERROR = "error", "routerctl cannot go on (unreadable input, a failed kubectl, a refused flag)";
        INPUT = "input", "the input cannot be read as YAML or JSON the way kubectl reads it";
        SCHEMA = "schema", "the object does not fit its CRD schema: the API server refuses it";
        UNKNOWN_FIELD = "schema-unknown-field", "a field the CRD schema does not know: the API server drops it";
        NULL_DROPPED = "schema-null-dropped", "a null the API server drops (not nullable, no default)";
        NEWER_FIELD = "release-newer-field", "a field of a newer operator release than the one rendered as";
        RELEASE = "release", "the operator release or flags rendered as differ from the running operator's";
        CRD = "crd", "the CRD given with --crd differs from the one routerctl was built for";
        OPERATOR = "operator", "the operator refuses the ModelRouter (validateModelRouter, the gateway reconciler)";
        RENDER = "render", "the operator renders this with an assumption or a limit worth knowing";
        ENVOY = "envoy", "Envoy's CRDs refuse an object the operator would build";
        OBJECT = "object", "the API server would refuse an object the operator writes";
        DRIFT = "drift", "a live object drifted where the operator never repairs it";
        ORPHAN = "orphan", "live objects of the other data plane are left behind";
        COLLISION = "collision", "two routers write the same object";
        KUBECTL = "kubectl", "what kubectl said on stderr while reading the cluster, or why a kubectl run failed";
        PLAN = "plan", "what applying would do to a router's objects, and why its pods roll (routerctl diff)";
        CLUSTER = "cluster", "what routerctl found out about the running operator";
        EXTERNAL = "external-diff", "what the external diff program (KUBECTL_EXTERNAL_DIFF) wrote on stderr";
        KRM = "krm", "the ResourceList or the KRM function's settings";
        TEST = "test", "routerctl test: a coverage or expectation finding";
        SENSITIVE_EGRESS = "sensitive-egress", "a sensitive classification can be dispatched out of the cluster (a cloud-tier or external backend) in some health state";
        UNMATCHABLE = "unmatchable-value", "a rule value no request can match (an upper-case classification or complexity, a malformed glob, a header the proxy never sees)";
        UNREACHABLE_RULE = "unreachable-rule", "a rule no request reaches: earlier rules take every request it matches";
        PLANE_DISAGREEMENT = "plane-disagreement", "the Proxy and Gateway data planes send a request to different places";
        UNROUTED = "unrouted", "requests no rule and no default route take: the data plane answers them itself";
        INVARIANT = "invariant", "a RouterTest invariant does not hold for some request";
        ROUTING_INCOMPLETE = "verify-incomplete", "routerctl verify did not cover every request (a limit, or planes not compared)";
        REPLAY = "replay", "logged requests a router decides otherwise than the log, or than the router before a change (routerctl replay)";
        REPLAY_LOG = "replay-log", "lines of a router-proxy log that routerctl replay skips, or requests it cannot decide";
    }
}

/// Where in the input a finding is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// The source as routerctl names it: a path, `stdin`, a list item.
    pub file: String,
    /// 1-based.
    pub line: Option<usize>,
    /// 1-based, in characters; only with `line`.
    pub column: Option<usize>,
    /// The document within the source (1-based), when the place is a whole
    /// document rather than a field.
    pub document: Option<usize>,
    /// The item of a `List` the object came from (0-based).
    pub item: Option<usize>,
}

impl Place {
    /// A whole source.
    pub fn file(file: impl Into<String>) -> Place {
        Place { file: file.into(), line: None, column: None, document: None, item: None }
    }

    /// A field: its line and column.
    pub fn at(file: impl Into<String>, line: usize, column: usize) -> Place {
        Place { line: Some(line), column: Some(column), ..Place::file(file) }
    }

    /// A line.
    pub fn line(file: impl Into<String>, line: usize) -> Place {
        Place { line: Some(line), ..Place::file(file) }
    }

    /// Whether the place points at a field (a column), which then names the
    /// object better than its identity does.
    pub fn is_exact(&self) -> bool {
        self.column.is_some()
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A file's name is input too: it must not start a log line.
        let file = shown(&self.file);
        match (self.document, self.line) {
            (Some(document), Some(line)) => write!(f, "{file}: document {document} (line {line})")?,
            (Some(document), None) => write!(f, "{file}: document {document}")?,
            (None, Some(line)) => match self.column {
                Some(column) => write!(f, "{file}:{line}:{column}")?,
                None => write!(f, "{file}:{line}")?,
            },
            (None, None) => write!(f, "{file}")?,
        }
        if let Some(i) = self.item {
            write!(f, ", items[{i}]")?;
        }
        Ok(())
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Diagnostic {
    pub severity: Severity,
    pub rule: &'static Rule,
    pub place: Option<Place>,
    /// The object it is about.
    pub object: Option<ObjectKey>,
    /// Dotted path with indices, e.g. `spec.rules[2].route.backends[0]`.
    pub field: Option<String>,
    pub message: String,
    /// What to do about it, when the message does not say.
    pub hint: Option<String>,
    /// The refusal it is one finding of, in words (`the operator refuses
    /// this ModelRouter`), when it was split out of one.
    pub context: Option<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, rule: &'static Rule, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            rule,
            place: None,
            object: None,
            field: None,
            message: message.into(),
            hint: None,
            context: None,
        }
    }

    pub fn warning(rule: &'static Rule, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, rule, message)
    }

    pub fn error(rule: &'static Rule, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, rule, message)
    }

    pub fn at(mut self, place: Place) -> Diagnostic {
        self.place = Some(place);
        self
    }

    pub fn on(mut self, object: ObjectKey) -> Diagnostic {
        self.object = Some(object);
        self
    }

    pub fn field(mut self, path: impl Into<String>) -> Diagnostic {
        self.field = Some(path.into());
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    /// The error of a stage that refuses with this one finding.
    pub fn into_error(self) -> anyhow::Error {
        Refusal::one(self).into()
    }

    /// The finding without its place: the object (unless the place already
    /// points at the field), then [`Diagnostic::statement`] with the field.
    pub fn body(&self) -> String {
        let mut out = String::new();
        if let Some(object) = self.object.as_ref().filter(|_| !self.place.as_ref().is_some_and(Place::is_exact)) {
            out.push_str(&describe(object));
            out.push_str(": ");
        }
        out.push_str(&self.statement(true));
        out
    }

    /// What is said: the refusal it belongs to, the field (`with_field`;
    /// a format with a key of its own for it leaves it out), the message
    /// and the hint.
    pub fn statement(&self, with_field: bool) -> String {
        let mut out = String::new();
        if let Some(context) = &self.context {
            out.push_str(context);
            out.push_str(": ");
        }
        if let Some(field) = self.field.as_ref().filter(|_| with_field) {
            out.push_str(field);
            out.push_str(": ");
        }
        out.push_str(&self.message);
        if let Some(hint) = &self.hint {
            out.push_str(" (");
            out.push_str(hint);
            out.push(')');
        }
        out
    }
}

/// `Kind namespace/name`, or `Kind name` for a cluster-scoped object.
pub fn describe(object: &ObjectKey) -> String {
    if object.namespace.is_empty() {
        format!("{} {}", object.kind, object.name)
    } else {
        format!("{} {}/{}", object.kind, object.namespace, object.name)
    }
}

/// The text people read: `place: object: field: message (hint)`, each part
/// when there is one. Editors and terminals jump to a leading
/// `file:line:col`.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(place) = &self.place {
            write!(f, "{place}: ")?;
        }
        // On one line, whatever values the message holds.
        f.write_str(&one_line(&self.body()))
    }
}

/// A refusal: a heading (the object and why it is refused as a whole) and
/// the findings it lists, if any. The error of a stage that refuses; its
/// `Display` is the message a person reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub heading: Diagnostic,
    pub findings: Vec<Diagnostic>,
    /// The object the findings are about when it is not the heading's (the
    /// heading names the router, the findings a rendered object's fields).
    pub about: Option<ObjectKey>,
    /// The findings' context when it is not the heading's message (which
    /// may name `about` already).
    pub context: Option<String>,
}

impl Refusal {
    pub fn new(heading: Diagnostic, findings: Vec<Diagnostic>) -> Refusal {
        Refusal { heading, findings, about: None, context: None }
    }

    /// A refusal that is one finding.
    pub fn one(diagnostic: Diagnostic) -> Refusal {
        Refusal::new(diagnostic, Vec::new())
    }

    /// The findings are about `object`.
    pub fn about(mut self, object: ObjectKey) -> Refusal {
        self.about = Some(object);
        self
    }

    /// The findings' context, in place of the heading's message.
    pub fn context(mut self, context: impl Into<String>) -> Refusal {
        self.context = Some(context.into());
        self
    }

    /// Each finding on its own, as machines want them: the heading's
    /// message is each one's context, and what a finding leaves out (its
    /// place, its object) comes from the heading.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        if self.findings.is_empty() {
            return vec![self.heading.clone()];
        }
        // Findings that ride along with the errors that refuse (unknown
        // fields listed with a schema error) keep their own severity; when
        // none is an error, they are what is refused (`--strict`).
        let ride_along = self.findings.iter().any(|f| f.severity == Severity::Error);
        self.findings
            .iter()
            .map(|f| {
                let mut d = f.clone();
                if !ride_along {
                    d.severity = d.severity.min(self.heading.severity);
                }
                d.context = Some(self.context.clone().unwrap_or_else(|| self.heading.message.clone()));
                if d.place.is_none() {
                    d.place = self.heading.place.clone();
                }
                if d.object.is_none() {
                    d.object = self.about.clone().or_else(|| self.heading.object.clone());
                }
                d
            })
            .collect()
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.heading)?;
        if !self.findings.is_empty() {
            f.write_str(":")?;
            for finding in &self.findings {
                write!(f, "\n  {finding}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for Refusal {}

/// Where an error of a router happened, put around it as its context
/// (`.context(At::router(..))`): people read `<place>: ModelRouter
/// ns/name: <error>`, and the findings made of the error get the place and
/// the object from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At {
    pub place: Place,
    pub object: Option<ObjectKey>,
}

impl At {
    pub fn new(place: Place, object: Option<ObjectKey>) -> At {
        At { place, object }
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.place)?;
        match &self.object {
            Some(object) => write!(f, ": {}", describe(object)),
            None => Ok(()),
        }
    }
}

/// A kubectl run that failed: what ran, how it ended, and what kubectl
/// wrote on stderr, kept apart so that kubectl's own lines are shown as
/// kubectl's (once, under `kubectl said`) and never as a finding of the
/// router whose read started it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KubectlFailure {
    /// The command line, as people would type it.
    pub command: String,
    /// How it ended (`exit status 1`, `killed by a signal`, a timeout).
    pub status: String,
    /// What kubectl read (`namespace ml`, `the operator look-up`).
    pub reading: String,
    /// kubectl's stderr (bounded by the runner).
    pub stderr: String,
    /// What to do about it.
    pub hint: String,
}

impl KubectlFailure {
    /// The failure without kubectl's lines: `` `kubectl …` failed (exit status 1)``.
    pub fn headline(&self) -> String {
        let said = if self.stderr.trim().is_empty() { "; kubectl printed nothing on stderr" } else { "" };
        format!("`{}` failed ({}){said}", self.command, self.status)
    }

    /// kubectl's lines as a note of their own, placed nowhere: they are
    /// kubectl's, not a router's.
    pub fn said(&self) -> Option<Diagnostic> {
        kubectl_said(&self.reading, &self.stderr)
    }

    /// The error: the headline and the hint, placed nowhere.
    pub fn finding(&self) -> Diagnostic {
        Diagnostic::error(rules::KUBECTL, self.headline()).hint(self.hint.clone())
    }
}

/// Everything in one text, for a reader that shows the error as it is.
impl fmt::Display for KubectlFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.headline())?;
        let stderr = self.stderr.trim_end();
        if !stderr.is_empty() {
            write!(f, ":\n{stderr}")?;
        }
        write!(f, "\n({})", self.hint)
    }
}

impl std::error::Error for KubectlFailure {}

/// What kubectl wrote on stderr while reading `reading`, as one note with
/// no place (`None` when it wrote nothing): its context says whose lines
/// they are.
pub fn kubectl_said(reading: &str, stderr: &str) -> Option<Diagnostic> {
    let lines: Vec<&str> = stderr.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return None;
    }
    let mut d = Diagnostic::new(Severity::Note, rules::KUBECTL, lines.join("\n"));
    d.context = Some(format!("kubectl said ({reading})"));
    Some(d)
}

/// The findings an error carries: a `Refusal`'s anywhere in its chain,
/// else its text as one finding (without the `At` layer, which says where
/// in words). What they leave out, a place and an object, comes from the
/// nearest `At` around them.
pub fn diagnostics_of(error: &anyhow::Error) -> Vec<Diagnostic> {
    // kubectl's failure is kubectl's: its lines and the error go unplaced,
    // whichever router's read ran into it.
    if let Some(failure) = error.chain().find_map(|e| e.downcast_ref::<KubectlFailure>()) {
        return failure.said().into_iter().chain([failure.finding()]).collect();
    }
    // anyhow finds a context of this type at any depth of the chain.
    let at = error.downcast_ref::<At>();
    let mut diagnostics = match error.chain().find_map(|e| e.downcast_ref::<Refusal>()) {
        Some(refusal) => refusal.diagnostics(),
        None => {
            let said = at.map(ToString::to_string);
            let layers: Vec<String> =
                error.chain().map(ToString::to_string).filter(|layer| Some(layer) != said.as_ref()).collect();
            vec![Diagnostic::error(rules::ERROR, layers.join(": "))]
        }
    };
    if let Some(at) = at {
        for d in &mut diagnostics {
            if d.place.is_none() {
                d.place = Some(at.place.clone());
            }
            if d.object.is_none() {
                d.object.clone_from(&at.object);
            }
        }
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    fn router() -> ObjectKey {
        ObjectKey {
            api_version: "inference.llmkube.dev/v1alpha1".into(),
            kind: "ModelRouter".into(),
            namespace: "team".into(),
            name: "r".into(),
        }
    }

    #[test]
    fn text_names_the_place_then_the_object_unless_the_place_is_a_field() {
        let d = Diagnostic::warning(rules::UNKNOWN_FIELD, "unknown field").field("spec.x").on(router());
        assert_eq!(d.to_string(), "ModelRouter team/r: spec.x: unknown field");
        let d = d.at(Place::at("r.yaml", 3, 5)).hint("the API server drops unknown fields");
        assert_eq!(d.to_string(), "r.yaml:3:5: spec.x: unknown field (the API server drops unknown fields)");
        let whole = Place { document: Some(2), line: Some(7), item: Some(1), ..Place::file("r.yaml") };
        assert_eq!(whole.to_string(), "r.yaml: document 2 (line 7), items[1]");
        assert_eq!(Diagnostic::error(rules::ERROR, "m").at(whole).on(router()).body(), "ModelRouter team/r: m");
    }

    #[test]
    fn a_refusal_reads_as_a_list_and_splits_into_findings() {
        let heading = Diagnostic::error(rules::OPERATOR, "the operator refuses this ModelRouter")
            .at(Place::file("r.yaml"))
            .on(router());
        let finding =
            Diagnostic::error(rules::OPERATOR, "must not be empty").at(Place::at("r.yaml", 4, 3)).field("spec.rules");
        let refusal = Refusal::new(heading, vec![finding]);
        assert_eq!(
            refusal.to_string(),
            "r.yaml: ModelRouter team/r: the operator refuses this ModelRouter:\n  r.yaml:4:3: spec.rules: must not be empty"
        );
        let split = refusal.diagnostics();
        assert_eq!(split.len(), 1);
        assert_eq!(split[0].message, "must not be empty");
        assert_eq!(split[0].context.as_deref(), Some("the operator refuses this ModelRouter"));
        assert_eq!(
            split[0].to_string(),
            "r.yaml:4:3: the operator refuses this ModelRouter: spec.rules: must not be empty",
            "a finding on its own reads as what was refused, then the field"
        );
        assert_eq!(split[0].object, Some(router()), "the heading's object fills in");
        assert_eq!(split[0].place, Some(Place::at("r.yaml", 4, 3)), "the finding's own place stays");

        let unknown = Diagnostic::warning(rules::UNKNOWN_FIELD, "unknown field").field("spec.x");
        let strict = Refusal::new(refusal.heading.clone(), vec![unknown.clone()]);
        assert_eq!(strict.diagnostics()[0].severity, Severity::Error, "what --strict refuses is an error");
        let with_errors = Refusal::new(refusal.heading.clone(), vec![refusal.findings[0].clone(), unknown]);
        let severities: Vec<Severity> = with_errors.diagnostics().iter().map(|d| d.severity).collect();
        assert_eq!(severities, [Severity::Error, Severity::Warning], "a warning listed with an error stays one");

        let error = anyhow::Error::new(refusal.clone()).context("while rendering");
        assert_eq!(diagnostics_of(&error), split, "found through a context");
        let at = At::new(Place::file("r.yaml"), Some(router()));
        assert_eq!(at.to_string(), "r.yaml: ModelRouter team/r");
        // The pipeline's context says where and who; what is inside it stays.
        let inner = anyhow::anyhow!("invalid duration \"abc\"")
            .context("spec.proxy.quarantineDuration: not a Go duration")
            .context(at.clone())
            .context("rendering");
        assert_eq!(
            format!("{inner:#}"),
            "rendering: r.yaml: ModelRouter team/r: spec.proxy.quarantineDuration: not a Go duration: invalid duration \"abc\""
        );
        let found = diagnostics_of(&inner);
        assert_eq!((found[0].place.clone(), found[0].object.clone()), (Some(Place::file("r.yaml")), Some(router())));
        assert_eq!(
            found[0].message, "rendering: spec.proxy.quarantineDuration: not a Go duration: invalid duration \"abc\"",
            "the place is said once"
        );
        let refused = anyhow::Error::new(Refusal::one(Diagnostic::error(rules::RENDER, "no image"))).context(at);
        let found = diagnostics_of(&refused);
        assert_eq!((found[0].message.as_str(), found[0].place.clone()), ("no image", Some(Place::file("r.yaml"))));
        let plain = anyhow::anyhow!("no such file");
        assert_eq!(diagnostics_of(&plain)[0].message, "no such file");
        assert_eq!(diagnostics_of(&plain)[0].rule, rules::ERROR);
    }

    #[test]
    fn rule_ids_are_unique() {
        let mut ids: Vec<&str> = rules::ALL.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before);
    }
}
