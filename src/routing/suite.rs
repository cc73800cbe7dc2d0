//! RouterTest files: cases of requests and where each must go, read from
//! YAML (`kind: RouterTest`), and their run: each case decided on the
//! planes rendered, checked where it is judged, skipped where its plane was
//! not run, the two planes compared, and the routes the cases reach
//! (coverage).
//!
//! ```yaml
//! apiVersion: routerctl.llmkube.dev/v1alpha1
//! kind: RouterTest
//! router: ml/coding-router        # optional when the inputs hold one router
//! tests:
//! - name: pii stays on the cluster
//!   request: {model: gpt-4o, headers: {x-llmkube-classification: pii}}
//!   unhealthy: [local-qwen]       # optional
//!   dataPlane: Proxy              # optional: judged on this data plane only
//!   expect: {rule: pii-local, backends: [local-qwen], strategy: primary-fallback, status: 503}
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use anyhow::{anyhow, bail, Result};
use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::Deserialize;

use super::proxy;
use super::router::Router;
use super::{Decision, Request};
use crate::diagnostic::{rules, Diagnostic, Place, Refusal};
use crate::input::{child_path, Document};
use crate::kube::shown::shown as in_log;
use crate::model::DataPlane;
use crate::output::yaml::double_quoted;
use crate::schema::text::suggest;

pub const API_VERSION: &str = "routerctl.llmkube.dev/v1alpha1";
pub const KIND: &str = "RouterTest";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a RouterTest: a mapping of apiVersion, kind, router, tests and invariants")]
struct FileSpec {
    #[serde(rename = "apiVersion")]
    _api_version: String,
    #[serde(rename = "kind")]
    _kind: String,
    #[serde(default)]
    metadata: Option<serde_json::Value>,
    #[serde(default)]
    router: Option<String>,
    /// Read here as lists only: each entry is read on its own (`read`).
    #[serde(default)]
    tests: Vec<serde::de::IgnoredAny>,
    #[serde(default)]
    invariants: Vec<serde::de::IgnoredAny>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a case: a mapping of name, request, unhealthy, expect and dataPlane")]
struct CaseSpec {
    name: String,
    #[serde(default)]
    request: RequestSpec,
    #[serde(default)]
    unhealthy: Vec<String>,
    #[serde(default)]
    expect: Expect,
    /// `Proxy` or `Gateway`: the expectation holds on that data plane only
    /// (on the other one the case is still decided, for disagreements and
    /// coverage, when the run renders both; otherwise it is skipped).
    #[serde(default, rename = "dataPlane", deserialize_with = "data_plane")]
    data_plane: Option<DataPlane>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a request: a mapping of model and headers")]
struct RequestSpec {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
}

/// What a case expects; every field optional, each given one must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an expectation: a mapping of rule, backends, strategy and status")]
pub struct Expect {
    /// A rule's name, `default`, `name-match` or `none`.
    pub rule: Option<String>,
    /// The candidates, in dispatch order.
    pub backends: Option<Vec<String>>,
    pub strategy: Option<String>,
    /// The status the data plane answers with itself.
    #[serde(default, deserialize_with = "status")]
    pub status: Option<u16>,
}

/// A property of every request, not of examples: for all requests that
/// match `when`, in the health states `unhealthy` allows, the dispatch
/// never reaches a `never` backend, reaches only `only` backends, and the
/// data plane answers itself with no status but `status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "an invariant: a mapping of name, when, unhealthy, never, only, status and dataPlane"
)]
pub struct Invariant {
    pub name: String,
    #[serde(default)]
    pub when: When,
    /// `any` (default): every health state; `none`: all backends up.
    #[serde(default)]
    pub unhealthy: Health,
    #[serde(default)]
    pub never: Option<Backends>,
    #[serde(default)]
    pub only: Option<Backends>,
    #[serde(default, deserialize_with = "status")]
    pub status: Option<u16>,
    /// Checked on this data plane only, when set.
    #[serde(default, rename = "dataPlane", deserialize_with = "data_plane")]
    pub data_plane: Option<DataPlane>,
}

/// Which requests an invariant speaks of; every field given must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "the requests meant: a mapping of classification, complexity, models and headers"
)]
pub struct When {
    /// Classifications as the proxy reads them (lower-cased).
    #[serde(default)]
    pub classification: Vec<String>,
    /// Task complexities as the proxy reads them (lower-cased).
    #[serde(default)]
    pub complexity: Vec<String>,
    /// Model globs (Go's `path.Match`); the request's model matches one.
    #[serde(default)]
    pub models: Vec<String>,
    /// Exact header values.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
}

/// The health states an invariant covers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Health {
    #[default]
    Any,
    None,
}

/// `any` or `none`, and in a message what else it was.
impl<'de> Deserialize<'de> for Health {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Health, D::Error> {
        struct Words;
        impl Visitor<'_> for Words {
            type Value = Health;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any or none")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Health, E> {
                match v {
                    "any" => Ok(Health::Any),
                    "none" => Ok(Health::None),
                    _ => Err(E::invalid_value(Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(Words)
    }
}

/// An HTTP status code: RFC 9110 (section 15) puts every one from 100 to
/// 599.
pub const STATUS_CODES: std::ops::RangeInclusive<u16> = 100..=599;

/// An optional status code, said in words when it is none (serde would
/// name the Rust type it reads into).
fn status<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u16>, D::Error> {
    struct Status;
    impl<'de> Visitor<'de> for Status {
        type Value = Option<u16>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "an HTTP status code from {} to {}", STATUS_CODES.start(), STATUS_CODES.end())
        }
        fn visit_none<E: de::Error>(self) -> Result<Option<u16>, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Option<u16>, E> {
            Ok(None)
        }
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Option<u16>, D2::Error> {
            d.deserialize_any(Status)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<u16>, E> {
            match u16::try_from(v) {
                Ok(code) if STATUS_CODES.contains(&code) => Ok(Some(code)),
                _ => Err(E::invalid_value(Unexpected::Unsigned(v), &self)),
            }
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<u16>, E> {
            match u64::try_from(v) {
                Ok(v) => self.visit_u64(v),
                Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
            }
        }
    }
    d.deserialize_option(Status)
}

/// An optional `dataPlane`, spelt as the CRD spells it.
fn data_plane<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DataPlane>, D::Error> {
    struct Plane;
    impl<'de> Visitor<'de> for Plane {
        type Value = Option<DataPlane>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "{} or {}", DataPlane::Proxy.label(), DataPlane::Gateway.label())
        }
        fn visit_none<E: de::Error>(self) -> Result<Option<DataPlane>, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Option<DataPlane>, E> {
            Ok(None)
        }
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Option<DataPlane>, D2::Error> {
            d.deserialize_any(Plane)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<DataPlane>, E> {
            let planes = [DataPlane::Proxy, DataPlane::Gateway];
            if let Some(plane) = planes.into_iter().find(|p| p.label() == v) {
                return Ok(Some(plane));
            }
            let near = closest(v, &planes.map(DataPlane::label));
            let expected: &dyn de::Expected = &self;
            Err(E::custom(format!("invalid value: string {}, expected {expected}{near}", quoted(v))))
        }
    }
    d.deserialize_option(Plane)
}

/// Backends named, or described: any one that fits is meant.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, expecting = "backends: a mapping of backends, tier and external")]
pub struct Backends {
    #[serde(default)]
    pub backends: Vec<String>,
    #[serde(default)]
    pub tier: Option<String>,
    #[serde(default)]
    pub external: Option<bool>,
}

/// An invariant read from a file, with its place.
#[derive(Debug, Clone)]
pub struct PlacedInvariant {
    pub invariant: Invariant,
    pub at: Place,
    /// The backends and tiers it names, each where it is written.
    pub names: Vec<Named>,
}

/// What a name given in a RouterTest stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameOf {
    Backend,
    Rule,
    Tier,
}

/// A name a case or an invariant gives (a backend, a rule, a tier), with
/// the field it is written in and its place: what `check` holds to the
/// routers.
#[derive(Debug, Clone)]
pub struct Named {
    pub of: NameOf,
    pub name: String,
    pub field: String,
    pub at: Place,
}

/// One test case.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    /// `file:line:col` of the case.
    pub at: Place,
    pub request: Request,
    pub unhealthy: Vec<String>,
    pub expect: Expect,
    /// The only data plane the expectation is checked on, when set.
    pub data_plane: Option<DataPlane>,
    /// The backends and rule it names, each where it is written.
    pub names: Vec<Named>,
}

/// A RouterTest document.
#[derive(Debug, Clone)]
pub struct TestFile {
    /// Where it was read, for messages.
    pub origin: String,
    /// `namespace/name` (or a bare name) of the router it tests.
    pub router: Option<String>,
    /// Where `router` is written (the document's first line when it is not).
    pub router_at: Place,
    pub cases: Vec<Case>,
    pub invariants: Vec<PlacedInvariant>,
}

/// Whether a document is a RouterTest.
pub fn is_test(doc: &Document) -> bool {
    doc.kind() == KIND
}

/// Whether a document that is not a RouterTest was likely meant as one: a
/// kind spelt close to it (`RouterTests`, `routertest`) or routerctl's own
/// apiVersion, or no kind at all beside a `tests:` list.
pub fn looks_like_test(doc: &Document) -> bool {
    let kind = doc.kind().to_ascii_lowercase();
    kind.starts_with("routertest")
        || doc.api_version().starts_with("routerctl.llmkube.dev/")
        || (doc.kind().is_empty() && doc.value.get("tests").is_some())
}

/// The refusal of a document where a RouterTest was expected, at its kind.
pub fn not_a_test(doc: &Document) -> Diagnostic {
    let kind = doc.kind();
    let found = if kind.is_empty() { "no kind".to_string() } else { format!("kind {kind:?}") };
    let message = format!(
        "a RouterTest was expected but the document has {found}; write apiVersion: {API_VERSION} and kind: {KIND} \
         (every document of a -t file is a RouterTest)"
    );
    Diagnostic::error(rules::TEST, message).at(doc.place("kind"))
}

/// Reads a RouterTest document. What cannot be read comes back as one
/// error finding per entry, each at its field's place: a bad case does not
/// hide the next one.
pub fn read(doc: &Document) -> std::result::Result<TestFile, Vec<Diagnostic>> {
    let refused = |path: &str, message: String| {
        let d = Diagnostic::error(rules::TEST, message).at(doc.place(path));
        if path.is_empty() {
            d
        } else {
            d.field(path)
        }
    };
    if doc.api_version() != API_VERSION {
        let message = format!("RouterTest apiVersion {:?}; write apiVersion: {API_VERSION}", doc.api_version());
        return Err(vec![Diagnostic::error(rules::TEST, message).at(doc.place("apiVersion"))]);
    }
    // The document's shape first; each case and invariant is then read on
    // its own, so that every bad one is named.
    let spec: FileSpec = serde_path_to_error::deserialize(&doc.value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        let message = if path.is_empty() { format!("RouterTest: {}", e.inner()) } else { e.inner().to_string() };
        vec![refused(&path, message)]
    })?;
    let _ = spec.metadata;
    if spec.tests.is_empty() && spec.invariants.is_empty() {
        return Err(vec![refused("tests", "a RouterTest needs at least one case or invariant".to_string())]);
    }
    let mut errors = Vec::new();
    let entries = |key: &str| doc.value.get(key).and_then(serde_json::Value::as_array).map_or(&[][..], Vec::as_slice);
    // An entry's error: the field inside it, prefixed with the entry.
    let entry = |at: String, inner: &str, message: String| {
        let path = if inner == "." { at } else { format!("{at}.{inner}") };
        refused(&path, message)
    };
    let mut invariants = Vec::new();
    for (i, value) in entries("invariants").iter().enumerate() {
        match read_every::<Invariant>(value) {
            Err(found) => errors.extend(found.into_iter().map(|(path, e)| entry(format!("invariants[{i}]"), &path, e))),
            Ok(inv) if inv.never.is_none() && inv.only.is_none() && inv.status.is_none() => {
                let path = format!("invariants[{i}]");
                errors.push(refused(&path, format!("{:?} says nothing: give never, only or status", inv.name)));
            }
            Ok(invariant) => {
                let at = format!("invariants[{i}]");
                let mut names = Vec::new();
                for (which, backends) in [("never", &invariant.never), ("only", &invariant.only)] {
                    let Some(backends) = backends else { continue };
                    for (j, name) in backends.backends.iter().enumerate() {
                        names.push(named(doc, NameOf::Backend, name, format!("{at}.{which}.backends[{j}]")));
                    }
                    if let Some(tier) = &backends.tier {
                        names.push(named(doc, NameOf::Tier, tier, format!("{at}.{which}.tier")));
                    }
                }
                invariants.push(PlacedInvariant { invariant, at: doc.place(&at), names });
            }
        }
    }
    let mut cases = Vec::new();
    for (i, value) in entries("tests").iter().enumerate() {
        match read_every::<CaseSpec>(value) {
            Err(found) => errors.extend(found.into_iter().map(|(path, e)| entry(format!("tests[{i}]"), &path, e))),
            Ok(c) => {
                let at = format!("tests[{i}]");
                let request = Request { model: c.request.model, headers: c.request.headers.into_iter().collect() };
                // No request Go's server hands on can be like this one.
                if let Some((name, why)) = proxy::impossible_body(&request) {
                    let path = format!("{at}.request.{}", child_path("headers", name));
                    errors.push(refused(&path, format!("{}: {why}", double_quoted(&c.name))));
                    continue;
                }
                let mut names = Vec::new();
                for (j, name) in c.unhealthy.iter().enumerate() {
                    names.push(named(doc, NameOf::Backend, name, format!("{at}.unhealthy[{j}]")));
                }
                for (j, name) in c.expect.backends.iter().flatten().enumerate() {
                    names.push(named(doc, NameOf::Backend, name, format!("{at}.expect.backends[{j}]")));
                }
                if let Some(rule) = &c.expect.rule {
                    names.push(named(doc, NameOf::Rule, rule, format!("{at}.expect.rule")));
                }
                cases.push(Case {
                    at: doc.place(&at),
                    name: c.name,
                    request,
                    unhealthy: c.unhealthy,
                    expect: c.expect,
                    data_plane: c.data_plane,
                    names,
                })
            }
        }
    }
    if !errors.is_empty() {
        // In the order they are written, whichever list comes first.
        errors.sort_by(|a, b| a.place.cmp(&b.place));
        return Err(errors);
    }
    let router_at = doc.place("router");
    Ok(TestFile { origin: doc.origin.to_string(), router: spec.router, router_at, cases, invariants })
}

/// `name`, written at `field` of `doc`.
fn named(doc: &Document, of: NameOf, name: &str, field: String) -> Named {
    Named { of, name: name.to_string(), at: doc.place(&field), field }
}

/// Reads `value` as a `T`, naming every field that does not fit, not the
/// first one only: after each error the field it names is set aside (an
/// unknown field removed; a value of the wrong type replaced by the first
/// of an empty value of each JSON type that its field takes, so that no
/// field goes missing) and the entry is read again. Each error comes with
/// its path inside `value` (`.` for `value` itself).
fn read_every<T: serde::de::DeserializeOwned>(
    value: &serde_json::Value,
) -> std::result::Result<T, Vec<(String, String)>> {
    // An entry of a test file has a handful of fields; the bound only
    // keeps a pathological one from being read forever.
    const MOST: usize = 64;
    let mut value = value.clone();
    let mut errors: Vec<(String, String)> = Vec::new();
    while errors.len() < MOST {
        let error = match serde_path_to_error::deserialize::<_, T>(&value) {
            Ok(typed) if errors.is_empty() => return Ok(typed),
            Ok(_) => break,
            Err(e) => e,
        };
        let path = error.path().to_string();
        errors.push((path.clone(), error.inner().to_string()));
        if !set_aside::<T>(&mut value, error.path(), &path) {
            break;
        }
    }
    Err(errors)
}

/// Takes the node at `path` out of the next read's way (see
/// [`read_every`]); false when it cannot (the entry itself is wrong, or
/// nothing gets a read past it).
fn set_aside<T: serde::de::DeserializeOwned>(
    value: &mut serde_json::Value,
    path: &serde_path_to_error::Path,
    text: &str,
) -> bool {
    use serde_json::Value;
    let segments: Vec<&serde_path_to_error::Segment> = path.iter().collect();
    let Some((last, parents)) = segments.split_last() else { return false };
    // Whether a read gets past `text`: it succeeds, or fails elsewhere than
    // at the node or at a field that holds it (one now missing).
    let past = |candidate: &Value| match serde_path_to_error::deserialize::<_, T>(candidate) {
        Ok(_) => true,
        Err(e) => {
            let at = e.path().to_string();
            let holds_it = at == "." || (text.starts_with(&at) && text[at.len()..].starts_with(['.', '[']));
            at != text && !holds_it
        }
    };
    let empties = [
        Value::Null,
        Value::String(String::new()),
        Value::Array(Vec::new()),
        Value::Object(serde_json::Map::new()),
        Value::from(0),
        Value::Bool(false),
    ];
    // An unknown field is removed; anything else replaced in place (taking
    // a list's item out would move the later ones' indices).
    let removal = matches!(last, serde_path_to_error::Segment::Map { .. }).then_some(None);
    for with in removal.into_iter().chain(empties.into_iter().map(Some)) {
        let mut candidate = value.clone();
        let Some(parent) = node_at(&mut candidate, parents) else { return false };
        match (last, parent, with) {
            (serde_path_to_error::Segment::Map { key }, Value::Object(map), None) => {
                map.remove(key.as_str());
            }
            (serde_path_to_error::Segment::Map { key }, Value::Object(map), Some(with)) => {
                map.insert(key.clone(), with);
            }
            (serde_path_to_error::Segment::Seq { index }, Value::Array(items), Some(with)) if *index < items.len() => {
                items[*index] = with;
            }
            _ => return false,
        }
        if past(&candidate) {
            *value = candidate;
            return true;
        }
    }
    false
}

/// The node at `segments` below `value`.
fn node_at<'v>(
    value: &'v mut serde_json::Value,
    segments: &[&serde_path_to_error::Segment],
) -> Option<&'v mut serde_json::Value> {
    use serde_json::Value;
    let mut node = value;
    for segment in segments {
        node = match (segment, node) {
            (serde_path_to_error::Segment::Map { key }, Value::Object(map)) => map.get_mut(key.as_str())?,
            (serde_path_to_error::Segment::Seq { index }, Value::Array(items)) => items.get_mut(*index)?,
            _ => return None,
        };
    }
    Some(node)
}

/// What differs between the expectation and the decision: one line each.
pub fn mismatches(expect: &Expect, decision: &Decision) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(rule) = &expect.rule {
        if rule != decision.matched.label() {
            out.push(format!("rule: expected {}, got {}", in_log(rule), in_log(decision.matched.label())));
        }
    }
    if let Some(backends) = &expect.backends {
        let got = decision.backends();
        if *backends != got {
            out.push(format!("backends: expected {}, got {}", list(backends), list(&got)));
        }
    }
    if let Some(strategy) = &expect.strategy {
        if *strategy != decision.strategy {
            out.push(format!("strategy: expected {}, got {}", in_log(strategy), shown(&decision.strategy)));
        }
    }
    match (expect.status, decision.status) {
        (Some(want), Some(got)) if want != got => out.push(format!("status: expected {want}, got {got}")),
        (Some(want), None) => out.push(format!("status: expected {want}, but a backend is tried")),
        _ => {}
    }
    out
}

fn shown(s: &str) -> Cow<'_, str> {
    if s.is_empty() {
        Cow::Borrowed("(none)")
    } else {
        in_log(s)
    }
}

/// `[a, b]`, each item as a log line may hold it.
pub fn list<S: AsRef<str>>(items: &[S]) -> String {
    format!("[{}]", items.iter().map(|i| in_log(i.as_ref())).collect::<Vec<_>>().join(", "))
}

/// The router a test file names, among the routers of one plane.
pub fn pick<'r>(routers: &'r [Router], wanted: Option<&str>, whose: &str) -> Result<&'r Router> {
    let known = || routers.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ");
    match wanted {
        Some(w) => routers
            .iter()
            .find(|r| r.id == w || r.name == w)
            .ok_or_else(|| anyhow!("{whose}: no ModelRouter {w:?} in the -f inputs (they hold {})", known())),
        None if routers.len() == 1 => Ok(&routers[0]),
        None => bail!("{whose}: the -f inputs hold {} routers ({}); name one with `router:`", routers.len(), known()),
    }
}

/// What the files name that their routers do not have, every such name
/// of every file, each a finding at its field with the closest name the
/// router has: a misspelt backend in `unhealthy` would silently be up, a
/// misspelt rule never matched, an invariant about a backend no router has
/// hold for want of anything to check. `cases`: the cases are run (`test`),
/// so each file's cases need one router, which `router:` names when the
/// inputs hold several; `verify` reads the invariants only, which speak of
/// every router when the file names none.
pub fn check(files: &[TestFile], planes: &[Vec<Router>], cases: bool) -> Vec<Diagnostic> {
    let mut problems: Vec<Diagnostic> = Vec::new();
    let add = |problems: &mut Vec<Diagnostic>, d: Diagnostic| {
        // A name missing on both planes is one mistake.
        if !problems.contains(&d) {
            problems.push(d);
        }
    };
    for file in files {
        let mut chosen: Vec<Vec<&Router>> = Vec::new();
        for routers in planes {
            match &file.router {
                Some(wanted) => match routers.iter().find(|r| r.id == *wanted || r.name == *wanted) {
                    Some(router) => chosen.push(vec![router]),
                    None => {
                        let known: Vec<&str> = routers.iter().map(|r| r.id.as_str()).collect();
                        let message = format!(
                            "no ModelRouter {} in the -f inputs (they hold {}){}",
                            quoted(wanted),
                            known.join(", "),
                            closest(wanted, &known)
                        );
                        add(&mut problems, error(message, &file.router_at, "router"));
                    }
                },
                None => chosen.push(routers.iter().collect()),
            }
        }
        if chosen.len() < planes.len() {
            continue;
        }
        if cases && !file.cases.is_empty() {
            for routers in &chosen {
                if let [router] = routers[..] {
                    for case in &file.cases {
                        let whose = format!("case {}", double_quoted(&case.name));
                        for name in &case.names {
                            if let Some(d) = unknown(name, &[router], &whose) {
                                add(&mut problems, d);
                            }
                        }
                    }
                } else {
                    let known: Vec<&str> = routers.iter().map(|r| r.id.as_str()).collect();
                    let message = format!(
                        "the -f inputs hold {} routers ({}): name the one these cases test with `router:`",
                        routers.len(),
                        known.join(", ")
                    );
                    add(&mut problems, Diagnostic::error(rules::TEST, message).at(file.router_at.clone()));
                }
            }
        }
        for placed in &file.invariants {
            let whose = format!("invariant {}", double_quoted(&placed.invariant.name));
            // The routers it speaks of, on the planes it is checked on.
            let routers: Vec<&Router> = chosen
                .iter()
                .flatten()
                .copied()
                .filter(|r| placed.invariant.data_plane.is_none_or(|p| p == r.data_plane()))
                .collect();
            for name in &placed.names {
                if let Some(d) = unknown(name, &routers, &whose) {
                    add(&mut problems, d);
                }
            }
        }
    }
    problems
}

/// The tiers a backend can have (the CRD's enum for
/// `spec.backends[].tier`).
const TIERS: [&str; 2] = ["local", "cloud"];

/// The finding for `name` when none of `routers` has it (`None` when one
/// does, or there is none to ask).
fn unknown(name: &Named, routers: &[&Router], whose: &str) -> Option<Diagnostic> {
    let given = quoted(&name.name);
    let message = match name.of {
        NameOf::Tier if TIERS.contains(&name.name.as_str()) => return None,
        NameOf::Tier => {
            format!("{whose}: tier {given} is no tier (local or cloud){}", closest(&name.name, &TIERS))
        }
        _ if routers.is_empty() => return None,
        NameOf::Backend if routers.iter().any(|r| r.has_backend(&name.name)) => return None,
        NameOf::Backend => {
            let mut known: Vec<&str> = Vec::new();
            for router in routers {
                for backend in &router.backends {
                    if !known.contains(&backend.name.as_str()) {
                        known.push(&backend.name);
                    }
                }
            }
            format!(
                "{whose}: no backend {given} in {} (it has {}){}",
                ids(routers),
                known.join(", "),
                closest(&name.name, &known)
            )
        }
        NameOf::Rule => {
            let mut known: Vec<&str> = Vec::new();
            for router in routers {
                for route in &router.routes {
                    if !known.contains(&route.as_str()) {
                        known.push(route);
                    }
                }
            }
            if known.contains(&name.name.as_str()) || MATCHED_WORDS.contains(&name.name.as_str()) {
                return None;
            }
            let mut words = known.clone();
            words.extend(MATCHED_WORDS.iter().filter(|w| !known.contains(w)));
            format!(
                "{whose}: expect.rule {given} is no rule of {} (its routes: {}; or none){}",
                ids(routers),
                known.join(", "),
                closest(&name.name, &words)
            )
        }
    };
    Some(error(message, &name.at, &name.field))
}

/// What `expect.rule` may say besides a rule's name: the default route,
/// the name match, and no route at all.
const MATCHED_WORDS: [&str; 3] = ["default", "name-match", "none"];

fn ids(routers: &[&Router]) -> String {
    routers.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
}

/// `"name"`, escaped as a CI log line may hold it.
fn quoted(name: &str) -> String {
    format!("{name:?}")
}

/// `; did you mean "x"?` for the known name closest to `name`, if one is
/// close enough to be a slip.
fn closest(name: &str, known: &[&str]) -> String {
    suggest(name, known).map(|near| format!("; did you mean {}?", quoted(&near))).unwrap_or_default()
}

fn error(message: String, at: &Place, field: &str) -> Diagnostic {
    Diagnostic::error(rules::TEST, message).at(at.clone()).field(field)
}

/// Problems of RouterTest files as the error of a run: the one finding,
/// or every one under a heading (`context` says what they have in common).
pub fn refusal(mut problems: Vec<Diagnostic>, context: &str) -> anyhow::Error {
    match problems.len() {
        0 | 1 => problems.pop().map_or_else(|| anyhow!("{context}"), Diagnostic::into_error),
        n => {
            let heading = Diagnostic::error(rules::TEST, format!("{n} problems in RouterTest files"));
            Refusal::new(heading, problems).context(context).into()
        }
    }
}

/// One case decided on one plane.
pub struct Ran<'a> {
    pub case: &'a Case,
    pub router: &'a Router,
    pub decision: Decision,
    /// Whether the case's expectation is checked on this plane (a case
    /// for the other plane is still decided, for coverage and to compare
    /// the planes).
    pub judged: bool,
    /// Whether the case is skipped: judged on a plane this run did not
    /// render. Its decision here counts toward no coverage: what is not
    /// judged anywhere tests nothing.
    pub skipped: bool,
    pub mismatches: Vec<String>,
}

impl Ran<'_> {
    pub fn failed(&self) -> bool {
        self.judged && !self.mismatches.is_empty()
    }
}

/// A case for a data plane that was not run: neither passed nor failed.
pub struct Skipped<'a> {
    pub case: &'a Case,
    pub router: String,
    pub plane: DataPlane,
}

/// The routes of one router (on one plane) the cases reached.
pub struct Coverage {
    pub router: String,
    pub plane: DataPlane,
    pub routes: Vec<String>,
    pub reached: BTreeSet<String>,
}

impl Coverage {
    /// A router no case reaches covers nothing, even with no routes.
    pub fn percent(&self) -> f64 {
        if self.routes.is_empty() {
            return if self.reached.is_empty() { 0.0 } else { 100.0 };
        }
        let hit = self.routes.iter().filter(|r| self.reached.contains(*r)).count();
        100.0 * hit as f64 / self.routes.len() as f64
    }

    pub fn missed(&self) -> Vec<&str> {
        self.routes.iter().filter(|r| !self.reached.contains(*r)).map(String::as_str).collect()
    }
}

/// The run of every case of `files` on the routers of each plane run
/// (`planes`: one list of routers per data plane rendered).
pub struct SuiteRun<'a> {
    /// In file order, then case order, then plane order.
    pub ran: Vec<Ran<'a>>,
    pub skipped: Vec<Skipped<'a>>,
    /// One per router and plane, cases or not.
    pub coverage: Vec<Coverage>,
    /// Cases the two planes decide differently (both planes run).
    pub disagreements: Vec<(usize, usize)>,
}

impl SuiteRun<'_> {
    pub fn failed(&self) -> usize {
        self.ran.iter().filter(|r| r.failed()).count()
    }
}

/// Runs the cases, once every name they give is one their router has
/// (`check`).
pub fn run<'a>(files: &'a [TestFile], planes: &'a [Vec<Router>]) -> Result<SuiteRun<'a>> {
    let problems = check(files, planes, true);
    if !problems.is_empty() {
        return Err(refusal(problems, "the RouterTest names what its router does not have"));
    }
    let mut ran = Vec::new();
    let mut skipped = Vec::new();
    let mut disagreements = Vec::new();
    for file in files {
        let picked: Vec<&Router> =
            planes.iter().map(|routers| pick(routers, file.router.as_deref(), &file.origin)).collect::<Result<_>>()?;
        for case in &file.cases {
            let unrendered = case.data_plane.filter(|&plane| !picked.iter().any(|r| r.data_plane() == plane));
            let mut decided: Vec<usize> = Vec::new();
            for router in &picked {
                // Without the trials: a run keeps every decision, and only
                // `route` tells the trials.
                let decision = router.decide_quietly(&case.request, &case.unhealthy);
                let judged = case.data_plane.is_none_or(|p| p == router.data_plane());
                let mismatches = if judged { mismatches(&case.expect, &decision) } else { Vec::new() };
                decided.push(ran.len());
                ran.push(Ran { case, router, decision, judged, skipped: unrendered.is_some(), mismatches });
            }
            if let Some(plane) = unrendered {
                let router = picked.first().map(|r| r.id.clone()).unwrap_or_default();
                skipped.push(Skipped { case, router, plane });
            }
            if let [p, g] = decided[..] {
                if !ran[p].decision.same_outcome(&ran[g].decision) {
                    disagreements.push((p, g));
                }
            }
        }
    }
    let mut coverage = Vec::new();
    for routers in planes {
        for router in routers {
            let reached = ran
                .iter()
                .filter(|r| std::ptr::eq(r.router, router) && !r.skipped)
                .map(|r| r.decision.matched.label().to_string())
                .collect();
            coverage.push(Coverage {
                router: router.id.clone(),
                plane: router.data_plane(),
                routes: router.routes.clone(),
                reached,
            });
        }
    }
    Ok(SuiteRun { ran, skipped, coverage, disagreements })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{documents, Source};
    use crate::routing::Matched;

    fn doc(text: &str) -> Document {
        let source = Source { name: "t.yaml".into(), text: text.into() };
        documents(&source).expect("reads").remove(0)
    }

    #[test]
    fn a_test_file_is_read_with_its_places() {
        let file = read(&doc(
            "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\nrouter: ml/r\ntests:\n- name: a\n  request:\n    model: m\n    headers: {x-team: a}\n  unhealthy: [b]\n  expect: {rule: r1, status: 503}\n",
        ))
        .expect("reads");
        assert_eq!(file.router.as_deref(), Some("ml/r"));
        let case = &file.cases[0];
        assert_eq!((case.name.as_str(), case.at.to_string().as_str()), ("a", "t.yaml:5:3"));
        assert_eq!(case.request.headers, [("x-team".to_string(), "a".to_string())]);
        assert_eq!(case.expect, Expect { rule: Some("r1".into()), status: Some(503), ..Expect::default() });
    }

    /// Every field that does not fit is named, whatever its kind of
    /// mistake: an unknown field, a wrong type in a required field (which
    /// is then not also said to be missing), in an optional one, in a
    /// list's items and in a map's values.
    #[test]
    fn every_bad_field_of_an_entry_is_named() {
        let case = serde_json::json!({
            "name": 3,
            "request": {"modl": "m", "headers": {"a": ["x"], "b": "ok"}},
            "unhealthy": [1, "ok", {"x": 1}],
            "expect": {"status": "503", "rule": "r"},
        });
        let errors = read_every::<CaseSpec>(&case).expect_err("refused");
        let mut paths: Vec<&str> = errors.iter().map(|(p, _)| p.as_str()).collect();
        paths.sort_unstable();
        assert_eq!(
            paths,
            ["expect.status", "name", "request.headers.a", "request.modl", "unhealthy[0]", "unhealthy[2]"],
            "{errors:?}"
        );
        let modl = errors.iter().find(|(p, _)| p == "request.modl").map(|(_, m)| m.as_str());
        assert!(modl.is_some_and(|m| m.starts_with("unknown field `modl`")), "{errors:?}");
        // A good entry reads as it would whole; an entry that is no
        // mapping is one error.
        let good = serde_json::json!({"name": "a", "expect": {"status": 503}});
        assert_eq!(read_every::<CaseSpec>(&good).map(|c| c.expect.status).ok(), Some(Some(503)));
        let errors = read_every::<CaseSpec>(&serde_json::json!("a case")).expect_err("refused");
        assert_eq!(errors.len(), 1, "{errors:?}");
    }

    #[test]
    fn mistakes_are_named_with_their_place() {
        let err = |text: &str| {
            read(&doc(text)).expect_err("refused").iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
        };
        let head = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: a\n";
        let bad = err(&format!("{head}  expect: {{status: x}}\n"));
        assert!(bad.starts_with("t.yaml:5:12: tests[0].expect.status: invalid type"), "{bad}");
        let typo = err(&format!("{head}  expect: {{backend: [a]}}\n"));
        assert!(
            typo.starts_with(
                "t.yaml:5:12: tests[0].expect.backend: unknown field `backend`, expected one of `rule`, `backends`"
            ),
            "{typo}"
        );
        assert!(err("apiVersion: v1\nkind: RouterTest\ntests: []\n")
            .contains("write apiVersion: routerctl.llmkube.dev/v1alpha1"));
    }

    /// Each bad entry is its own finding at its own line; the good ones
    /// between them do not hide the next.
    #[test]
    fn every_bad_entry_is_a_finding_at_its_place() {
        let errors = read(&doc(
            "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: a\n  expect: {status: x}\n- name: good\n- name: c\n  unhealthy: b\ninvariants:\n- name: empty\n",
        ))
        .expect_err("refused");
        let said: Vec<(Option<usize>, Option<&str>)> =
            errors.iter().map(|d| (d.place.as_ref().and_then(|p| p.line), d.field.as_deref())).collect();
        assert_eq!(
            said,
            [
                (Some(5), Some("tests[0].expect.status")),
                (Some(8), Some("tests[2].unhealthy")),
                (Some(10), Some("invariants[0]"))
            ]
        );
        assert!(errors.iter().all(|d| d.severity == crate::diagnostic::Severity::Error));
        assert!(errors[2].message.contains("says nothing"), "{}", errors[2]);
    }

    /// What a bad entry is told names what the field takes in words, never
    /// the Rust type it is read into (`u16`, `struct CaseSpec`) nor how
    /// serde reads an enum (`string or map`).
    #[test]
    fn a_bad_entry_is_told_what_its_field_takes_in_words() {
        let head = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\n";
        let said = |body: &str| {
            let errors = read(&doc(&format!("{head}{body}\n"))).expect_err(body);
            errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
        };
        let rust = ["u16", "u64", "i64", "usize", "struct ", "enum ", "Spec", "string or map", "single key"];
        let cases = [
            ("tests: [a case]", "expected a case: a mapping of name, request, unhealthy, expect and dataPlane"),
            ("tests: [{name: a, request: 3}]", "expected a request: a mapping of model and headers"),
            (
                "tests: [{name: a, expect: 3}]",
                "expected an expectation: a mapping of rule, backends, strategy and status",
            ),
            (
                "tests: [{name: a, expect: {status: x}}]",
                "invalid type: string \"x\", expected an HTTP status code from 100 to 599",
            ),
            (
                "tests: [{name: a, expect: {status: 70000}}]",
                "invalid value: integer `70000`, expected an HTTP status code",
            ),
            ("tests: [{name: a, expect: {status: 99}}]", "invalid value: integer `99`, expected an HTTP status code"),
            ("tests: [{name: a, expect: {status: -1}}]", "invalid value: integer `-1`, expected an HTTP status code"),
            (
                "tests: [{name: a, expect: {status: 1.5}}]",
                "invalid type: floating point `1.5`, expected an HTTP status code",
            ),
            ("tests: [{name: a, dataPlane: 3}]", "invalid type: integer `3`, expected Proxy or Gateway"),
            ("tests: [{name: a, dataPlane: proxy}]", "expected Proxy or Gateway; did you mean \"Proxy\"?"),
            ("tests: [{name: a, dataPlane: [x]}]", "invalid type: sequence, expected Proxy or Gateway"),
            (
                "invariants: [x]",
                "expected an invariant: a mapping of name, when, unhealthy, never, only, status and dataPlane",
            ),
            (
                "invariants: [{name: i, when: 3, status: 503}]",
                "expected the requests meant: a mapping of classification",
            ),
            ("invariants: [{name: i, never: 3}]", "expected backends: a mapping of backends, tier and external"),
            ("invariants: [{name: i, status: 600}]", "invalid value: integer `600`, expected an HTTP status code"),
            ("invariants: [{name: i, status: 503, unhealthy: 3}]", "invalid type: integer `3`, expected any or none"),
            (
                "invariants: [{name: i, status: 503, unhealthy: some}]",
                "invalid value: string \"some\", expected any or none",
            ),
            ("invariants: [{name: i, status: 503, dataPlane: {}}]", "invalid type: map, expected Proxy or Gateway"),
        ];
        for (body, expected) in cases {
            let message = said(body);
            assert!(message.contains(expected), "{body}: {message}");
            assert!(!rust.iter().any(|word| message.contains(word)), "{body}: {message}");
        }
        // The bounds are the codes' own: 100 and 599 are taken.
        for code in [100, 503, 599] {
            let file = read(&doc(&format!("{head}tests: [{{name: a, expect: {{status: {code}}}}}]\n"))).expect("read");
            assert_eq!(file.cases[0].expect.status, Some(code));
        }
        let file = read(&doc(&format!("{head}tests: [{{name: a, dataPlane: Gateway, expect: {{status: null}}}}]\n")))
            .expect("read");
        assert_eq!((file.cases[0].data_plane, file.cases[0].expect.status), (Some(DataPlane::Gateway), None));
    }

    /// The names a case and an invariant give are kept with their fields
    /// and places, for `check` to hold to the routers.
    #[test]
    fn the_names_an_entry_gives_are_kept_at_their_places() {
        let file = read(&doc(
            "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: a\n  unhealthy: [p, q]\n  expect: {rule: r, backends: [z]}\ninvariants:\n- name: i\n  only: {backends: [w], tier: cloud}\n",
        ))
        .expect("reads");
        let names = |names: &[Named]| {
            names.iter().map(|n| (n.of, n.name.clone(), n.field.clone(), n.at.to_string())).collect::<Vec<_>>()
        };
        let own = |of, name: &str, field: &str, at: &str| (of, name.to_string(), field.to_string(), at.to_string());
        assert_eq!(
            names(&file.cases[0].names),
            [
                own(NameOf::Backend, "p", "tests[0].unhealthy[0]", "t.yaml:5:15"),
                own(NameOf::Backend, "q", "tests[0].unhealthy[1]", "t.yaml:5:18"),
                own(NameOf::Backend, "z", "tests[0].expect.backends[0]", "t.yaml:6:32"),
                own(NameOf::Rule, "r", "tests[0].expect.rule", "t.yaml:6:12"),
            ]
        );
        assert_eq!(
            names(&file.invariants[0].names),
            [
                own(NameOf::Backend, "w", "invariants[0].only.backends[0]", "t.yaml:9:21"),
                own(NameOf::Tier, "cloud", "invariants[0].only.tier", "t.yaml:9:25"),
            ]
        );
    }

    #[test]
    fn mismatches_say_what_was_expected_and_what_happens() {
        let decision = Decision {
            matched: Matched::Rule("complex".into()),
            strategy: "primary-fallback".into(),
            candidates: vec![("cloud".into(), None)],
            first_try: 1,
            status: None,
            reason: None,
            trials: Vec::new(),
        };
        let expect = Expect {
            rule: Some("pii".into()),
            backends: Some(vec!["local".into()]),
            strategy: Some("primary-fallback".into()),
            status: Some(503),
        };
        assert_eq!(
            mismatches(&expect, &decision),
            [
                "rule: expected pii, got complex",
                "backends: expected [local], got [cloud]",
                "status: expected 503, but a backend is tried"
            ]
        );
    }
}
