//! KRM function mode: a kustomize / kpt `ResourceList` in, the same list
//! out with every ModelRouter's objects appended.
//!
//! Follows the KRM Functions Specification (kubernetes-sigs/kustomize,
//! `cmd/config/docs/api-conventions/functions-spec.md`):
//!
//! - every input item is kept, unchanged and in order — including the
//!   orchestrator's `config.kubernetes.io/*` and `internal.config.kubernetes.io/*`
//!   annotations, which kustomize needs to carry comments over;
//! - the rendered objects are appended, router by router, in the operator's
//!   reconcile order. Each carries a path annotation
//!   (`routerctl/<namespace>/<router>.yaml`, one file per ModelRouter, with
//!   an index per object) so that kpt writes them to a file of their own;
//!   kustomize strips those annotations from its build output. An item
//!   already at that path with the identity of a rendered object is the
//!   previous run's output and is replaced in place, so running the function
//!   twice gives the same package;
//! - what goes wrong becomes a `results` entry (severity, message,
//!   `resourceRef`, `field.path`, `file`) instead of a crash. With any error,
//!   nothing is appended: like `routerctl render`, a broken ModelRouter never
//!   yields half an output.
//!
//! `functionConfig` is a ConfigMap whose `data` — or any other kind whose
//! `spec` — carries the operator's settings: `routerProxyImage`,
//! `defaultLitellmUrl`, `emitScrapeAnnotations` ("true"/"false"),
//! `namespace` (as `-n`), `strict` ("true"/"false") and `operatorVersion`
//! (as `--operator-version`). One that is neither (a misspelt kind, another
//! apiVersion of ConfigMap, not an object) is an error result rather than
//! settings ignored in silence. A result's `resourceRef` is whole
//! (apiVersion, kind, name) or absent. The warnings about what a release
//! does not do are the pipeline's, so the function gives them as the
//! command line does.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use std::io::Read;

use anyhow::{anyhow, bail, Result};
use serde_json::{json, Map, Value};

use super::outcome::{text_outcome, Outcome};
use crate::diagnostic::{describe, diagnostics_of, rules, Diagnostic, Place, Rule, Severity};
use crate::input::{self, Source};
use crate::kube::{annotation, group_of, meta_str, str_at, ObjectKey};
use crate::live::LiveStore;
use crate::model::GROUP;
use crate::output::yaml::to_yaml;
use crate::pipeline::{self, Options, RouterResult};
use crate::release::Release;
use crate::render::OperatorFlags;
use crate::report::Reporter;
use crate::schema::text::suggest;
use crate::validate::metadata::dns1123_label_errors;

/// What the function prints on stdout and whether it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KrmOutcome {
    /// The output `ResourceList` as YAML.
    pub output: String,
    /// An error result was written: the function exits non-zero.
    pub failed: bool,
    /// The error results again, for stderr: kustomize shows a function's
    /// stderr, not its `results`. Warnings are results only.
    pub errors: Vec<Diagnostic>,
}

/// The annotation kpt and kustomize record an item's file in, and its
/// pre-v1 name (both are written, equal, as the orchestrators expect).
const PATH_ANNOTATIONS: [&str; 2] = ["internal.config.kubernetes.io/path", "config.kubernetes.io/path"];
/// The index of an item within its file, and its pre-v1 name.
const INDEX_ANNOTATIONS: [&str; 2] = ["internal.config.kubernetes.io/index", "config.kubernetes.io/index"];
/// The directory rendered objects are filed under.
const OUTPUT_DIR: &str = "routerctl";
/// The name input items go by in the pipeline's messages.
const ITEM_SOURCE: &str = "ResourceList.items";

const API_VERSIONS: [&str; 2] = ["config.kubernetes.io/v1", "config.kubernetes.io/v1beta1"];
const CONFIG_KEYS: [&str; 6] =
    ["routerProxyImage", "defaultLitellmUrl", "emitScrapeAnnotations", "namespace", "strict", "operatorVersion"];

/// A result's `severity`: the KRM spec says `info` for a note.
fn krm_severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "info",
    }
}

/// What a result is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Subject {
    Nothing,
    FunctionConfig,
    Item(usize),
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Finding {
    severity: Severity,
    subject: Subject,
    field: Option<String>,
    message: String,
    rule: &'static Rule,
}

impl Finding {
    fn new(severity: Severity, subject: Subject, field: Option<String>, message: impl Into<String>) -> Finding {
        Finding { severity, subject, field, message: message.into(), rule: rules::KRM }
    }

    /// A pipeline finding as a result about an input item: the item it was
    /// read from (`sources`, by source name), else the item whose identity
    /// it names (`identities`). A finding about an object that is not that
    /// item (a rendered one) names the object and its field in the message,
    /// since `resourceRef` and `field` point into the item.
    fn of(d: &Diagnostic, sources: &HashMap<String, usize>, identities: &HashMap<ObjectKey, usize>) -> Finding {
        let by_object = d.object.as_ref().and_then(|o| identities.get(o)).copied();
        let item = d.place.as_ref().and_then(|p| sources.get(&p.file)).copied().or(by_object);
        let severity = d.severity;
        let subject = item.map_or(Subject::Nothing, Subject::Item);
        let mut message = String::new();
        let mut field = d.field.clone();
        let foreign = d.object.as_ref().filter(|_| item.is_none() || by_object != item);
        if let Some(object) = foreign {
            message.push_str(&describe(object));
            message.push_str(": ");
        }
        // The refusal leads, as in every result: `the operator refuses this
        // ModelRouter: ...`.
        if let Some(context) = &d.context {
            message.push_str(context);
            message.push_str(": ");
        }
        if let Some(field) = field.take_if(|_| foreign.is_some()) {
            message.push_str(&field);
            message.push_str(": ");
        }
        message.push_str(&d.message);
        if let Some(hint) = &d.hint {
            let _ = write!(message, " ({hint})");
        }
        Finding { severity, subject, field, message, rule: d.rule }
    }
}

fn has_error(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// `routerctl krm`: the `ResourceList` on stdin, the function's answer on
/// stdout, exit 1 when it holds an error.
pub(super) fn command(stdin: &mut dyn Read, reporter: &mut Reporter) -> Result<Outcome> {
    // Bytes that are not a ResourceList's text (too many, not UTF-8) are
    // answered as any bad input is: a ResourceList whose result says why.
    let read = crate::input::read_limited("stdin", stdin, crate::input::MAX_SOURCE_BYTES)
        .and_then(|bytes| crate::input::decode_resource_list("stdin", bytes));
    let outcome = match read {
        Ok(input) => run(&input),
        Err(e) => refused(format!("cannot read the ResourceList: {e:#}")),
    };
    for error in outcome.errors {
        reporter.error(error);
    }
    text_outcome(&outcome.output, i32::from(outcome.failed))
}

/// Runs the function on one `ResourceList` (YAML or JSON).
pub fn run(resource_list_yaml: &str) -> KrmOutcome {
    let (list, mut items, mut kept) = match parse(resource_list_yaml) {
        Ok(read) => read,
        Err(e) => return refused(format!("{e:#}")),
    };
    let function_config = list.get("functionConfig").filter(|v| !v.is_null());
    let mut findings = Vec::new();
    let settings = settings(function_config, &mut findings);

    // The items routerctl reads: ModelRouters (of any group: a wrong group is
    // reported), and the rest of the LLMKube group (what backends resolve
    // against, and typos of routerctl's kinds).
    let mut routers = Vec::new();
    let mut related = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if !item.is_object() {
            let msg = format!("items[{i}] is not a Kubernetes object; the function only passes it through");
            findings.push(Finding::new(Severity::Warning, Subject::Item(i), None, msg));
            continue;
        }
        let kind = item.get("kind").and_then(Value::as_str).unwrap_or("");
        if kind == "ModelRouter" {
            routers.push(i);
        } else if group_of(str_at(item, "apiVersion")) == GROUP {
            related.push(i);
        }
    }
    if routers.is_empty() {
        let msg = "no ModelRouter among the items; nothing to render";
        findings.push(Finding::new(Severity::Note, Subject::Nothing, None, msg));
    }

    let default_namespace = settings.namespace.clone().unwrap_or_else(|| "default".to_string());
    let mut rendered: Vec<(usize, Vec<Value>)> = Vec::new();
    if !has_error(&findings) && !routers.is_empty() {
        let mut read: Vec<usize> = routers.iter().chain(&related).copied().collect();
        read.sort_unstable();
        let sources: Vec<Source> = read.iter().map(|&i| item_source(i, &items[i])).collect();
        let by_source: HashMap<String, usize> = read.iter().map(|&i| (item_source_name(i), i)).collect();
        let identities: HashMap<ObjectKey, usize> =
            read.iter().rev().map(|&i| (ObjectKey::of(&items[i], &default_namespace), i)).collect();
        let (results, diagnostics) = render_all(&pipeline_options(&settings), &sources);
        findings.extend(diagnostics.iter().map(|d| Finding::of(d, &by_source, &identities)));
        for (origin, objects) in results {
            if let Some(&i) = by_source.get(&origin) {
                rendered.push((i, objects));
            }
        }
    }

    // Nothing is appended unless every router rendered.
    let placed = if has_error(&findings) {
        None
    } else {
        Some(place_objects(&items, rendered, &default_namespace, &mut findings)).filter(|_| !has_error(&findings))
    };
    // Results point into the items as they came in: made before any is
    // replaced.
    let (results, errors) = results_of(&dedup(findings), function_config, &items);
    if let Some((replaced, appended)) = placed {
        for (i, object) in replaced {
            items[i] = object;
            kept[i] = None;
        }
        kept.extend(appended.iter().map(|_| None));
        items.extend(appended);
    }

    let mut out = Map::new();
    let api_version = list.get("apiVersion").and_then(Value::as_str).unwrap_or(API_VERSIONS[0]);
    out.insert("apiVersion".into(), json!(api_version));
    out.insert("kind".into(), json!("ResourceList"));
    if let Some(fc) = function_config {
        out.insert("functionConfig".into(), fc.clone());
    }
    finish(out, items, &kept, results, errors)
}

/// The findings as results, pointing into `input_items` and the list's
/// functionConfig; and the errors again, for stderr.
fn results_of(
    findings: &[Finding],
    function_config: Option<&Value>,
    input_items: &[Value],
) -> (Vec<Value>, Vec<Diagnostic>) {
    let subject_object = |s: Subject| -> Option<&Value> {
        match s {
            Subject::Nothing => None,
            Subject::FunctionConfig => function_config,
            Subject::Item(i) => input_items.get(i).filter(|v| v.is_object()),
        }
    };
    let mut results = Vec::new();
    let mut errors = Vec::new();
    for f in findings {
        let mut r = Map::new();
        r.insert("message".into(), json!(f.message));
        r.insert("severity".into(), json!(krm_severity(f.severity)));
        let object = subject_object(f.subject);
        if let Some(reference) = object.and_then(resource_ref) {
            r.insert("resourceRef".into(), reference);
            if let Some(path) = &f.field {
                r.insert("field".into(), json!({ "path": path }));
            }
        }
        if let Some(file) = object.and_then(file_ref) {
            r.insert("file".into(), file);
        }
        results.push(Value::Object(r));

        // kpt prints results and stderr both; kustomize only stderr, and
        // fails on a non-zero exit. An error must reach either reader, so
        // errors go to both; a warning only to the results, to be said once.
        if f.severity != Severity::Error {
            continue;
        }
        let mut error = Diagnostic::error(f.rule, f.message.as_str());
        error.field.clone_from(&f.field);
        match (object, f.subject) {
            (Some(obj), _) => {
                error = error.on(ObjectKey::of(obj, ""));
                if let Some(path) = item_path(obj) {
                    error = error.at(Place::file(path));
                }
            }
            (None, Subject::Item(i)) => error = error.at(Place::file(format!("{ITEM_SOURCE}[{i}]"))),
            (None, _) => error = error.at(Place::file("ResourceList")),
        }
        errors.push(error);
    }
    (results, errors)
}

/// Writes the output list: `list` (apiVersion, kind, functionConfig) with
/// `out_items` and the results. An item kept as JSON (`kept`) is read back
/// and written one at a time, as the whole list would write it.
fn finish(
    mut list: Map<String, Value>,
    out_items: Vec<Value>,
    kept: &[Option<Box<str>>],
    results: Vec<Value>,
    errors: Vec<Diagnostic>,
) -> KrmOutcome {
    let failed = !errors.is_empty();
    if !results.is_empty() {
        list.insert("results".into(), Value::Array(results));
    }
    list.insert("items".into(), Value::Array(Vec::new()));
    let mut output = String::new();
    let mut out_items = Some(out_items);
    for (key, value) in &list {
        match out_items.take_if(|items| key == "items" && !items.is_empty()) {
            Some(items) => {
                output.push_str("items:\n");
                for (item, json) in items.into_iter().zip(kept.iter().chain(std::iter::repeat(&None))) {
                    let item = match json {
                        Some(json) => serde_json::from_str(json).unwrap_or(Value::Null),
                        None => item,
                    };
                    output.push_str(&to_yaml(&Value::Array(vec![item])));
                }
            }
            None => {
                let mut entry = Map::new();
                entry.insert(key.clone(), value.clone());
                output.push_str(&to_yaml(&Value::Object(entry)));
            }
        }
    }
    KrmOutcome { output, failed, errors }
}

/// The answer to input that holds no ResourceList: an empty one whose
/// error result says why.
fn refused(message: String) -> KrmOutcome {
    let mut list = Map::new();
    list.insert("apiVersion".into(), json!(API_VERSIONS[0]));
    list.insert("kind".into(), json!("ResourceList"));
    let finding = Finding::new(Severity::Error, Subject::Nothing, None, message);
    let (results, errors) = results_of(&[finding], None, &[]);
    finish(list, Vec::new(), &[], results, errors)
}

/// The items as read: each one's value; for an item the function only
/// passes through, what results and placement ask of it (its identity and
/// file annotations) beside the item itself as compact JSON.
type ReadList = (Map<String, Value>, Vec<Value>, Vec<Option<Box<str>>>);

/// Parses the input and checks it is a ResourceList: the list without its
/// items, and the items. In the layout kustomize and kpt write, the items
/// are read one at a time and an item passed through is kept as compact
/// JSON, so that a long list is never held as one tree.
fn parse(text: &str) -> Result<ReadList> {
    if let Some(read) = parse_items_apart(text) {
        return Ok(read);
    }
    let (list, items) = parse_whole(text)?;
    let kept = vec![None; items.len()];
    Ok((list, items, kept))
}

/// `parse` one item at a time; `None` when the input is not in the plain
/// layout or anything in it is better said by the whole read.
fn parse_items_apart(text: &str) -> Option<ReadList> {
    let (rest, spans) = input::items::cut_items(text)?;
    let (list, none) = parse_whole(&rest).ok()?;
    if !none.is_empty() {
        return None;
    }
    let mut items = Vec::with_capacity(spans.len());
    let mut kept = Vec::with_capacity(spans.len());
    for span in spans {
        let item = input::items::read_item(text, span)?;
        let read = !item.is_object()
            || item.get("kind").and_then(Value::as_str) == Some("ModelRouter")
            || group_of(str_at(&item, "apiVersion")) == GROUP;
        if read {
            items.push(item);
            kept.push(None);
        } else {
            kept.push(Some(serde_json::to_string(&item).ok()?.into_boxed_str()));
            items.push(facts(&item));
        }
    }
    Some((list, items, kept))
}

/// What the function asks of an item it passes through: apiVersion, kind,
/// name, namespace and the file annotations, as the item has them.
fn facts(item: &Value) -> Value {
    let mut out = Map::new();
    for key in ["apiVersion", "kind"] {
        if let Some(v) = item.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(metadata) = item.get("metadata") {
        let mut meta = Map::new();
        for key in ["name", "namespace"] {
            if let Some(v) = metadata.get(key) {
                meta.insert(key.into(), v.clone());
            }
        }
        let mut annotations = Map::new();
        for key in PATH_ANNOTATIONS.iter().chain(&INDEX_ANNOTATIONS) {
            if let Some(v) = metadata.get("annotations").and_then(|a| a.get(*key)) {
                annotations.insert((*key).into(), v.clone());
            }
        }
        if !annotations.is_empty() {
            meta.insert("annotations".into(), Value::Object(annotations));
        }
        out.insert("metadata".into(), Value::Object(meta));
    }
    Value::Object(out)
}

/// Reads the whole input at once and checks it is a ResourceList.
fn parse_whole(text: &str) -> Result<(Map<String, Value>, Vec<Value>)> {
    let mut docs = crate::input::parse_stream("ResourceList", text)
        .map_err(|e| anyhow!("the input is not valid YAML: {e}"))?
        .into_iter();
    let Some((_, _, list)) = docs.next() else { bail!("the input is empty; expected a ResourceList") };
    if docs.next().is_some() {
        bail!("the input holds more than one YAML document; a KRM function reads one ResourceList");
    }
    if list.is_null() {
        bail!("the input is empty; expected a ResourceList");
    }
    let kind = list.get("kind").and_then(Value::as_str).unwrap_or("");
    let api_version = list.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if !list.is_object() {
        bail!("the input is not a mapping; expected a ResourceList");
    }
    if kind != "ResourceList" || !API_VERSIONS.contains(&api_version) {
        bail!(
            "the input is apiVersion {api_version:?} kind {kind:?}; a KRM function reads {} ResourceList",
            API_VERSIONS[0]
        );
    }
    let Value::Object(mut list) = list else { bail!("the input is not a mapping; expected a ResourceList") };
    match list.remove("items") {
        None | Some(Value::Null) => Ok((list, Vec::new())),
        Some(Value::Array(items)) => Ok((list, items)),
        Some(_) => bail!("ResourceList.items is not a list"),
    }
}

/// The function's settings, from `functionConfig`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Settings {
    router_proxy_image: Option<String>,
    default_litellm_url: Option<String>,
    emit_scrape_annotations: bool,
    namespace: Option<String>,
    strict: bool,
    release: Release,
}

fn settings(function_config: Option<&Value>, findings: &mut Vec<Finding>) -> Settings {
    let mut s = Settings::default();
    let Some(fc) = function_config else { return s };
    let subject = Subject::FunctionConfig;
    let Some(fc_map) = fc.as_object() else {
        findings.push(Finding::new(Severity::Error, subject, None, "functionConfig is not an object"));
        return s;
    };
    let kind = fc_map.get("kind").and_then(Value::as_str).unwrap_or("");
    let api_version = fc_map.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let is_config_map = kind == "ConfigMap" && api_version == "v1";
    let section = if is_config_map { "data" } else { "spec" };
    // What is not a v1 ConfigMap is read through its spec: one without a
    // spec (a misspelt kind, a ConfigMap of another apiVersion, its
    // settings under data) would be a setting ignored in silence.
    if !is_config_map && !fc_map.contains_key("spec") {
        let msg = format!(
            "functionConfig is {} with no spec, so none of its settings is read; routerctl reads the data of an \
             apiVersion: v1, kind: ConfigMap, or the spec of any other kind",
            if kind.is_empty() && api_version.is_empty() {
                "an object without apiVersion and kind".to_string()
            } else {
                format!("apiVersion: {api_version:?}, kind: {kind:?}")
            }
        );
        findings.push(Finding::new(Severity::Error, subject, None, msg));
        return s;
    }
    let values = match fc_map.get(section) {
        None | Some(Value::Null) => return s,
        Some(Value::Object(m)) => m,
        Some(_) => {
            let msg = format!("functionConfig {section} is not a mapping");
            findings.push(Finding::new(Severity::Error, subject, Some(section.into()), msg));
            return s;
        }
    };
    for (key, value) in values {
        let field = Some(format!("{section}.{key}"));
        let string = || -> Result<Option<String>> {
            match value {
                Value::String(v) if v.is_empty() => Ok(None),
                Value::String(v) => Ok(Some(v.clone())),
                other => Err(anyhow!("must be a string, found {}", input::describe(other))),
            }
        };
        let boolean = || -> Result<bool> {
            match value {
                Value::Bool(b) => Ok(*b),
                Value::String(v) if v == "true" => Ok(true),
                Value::String(v) if v == "false" || v.is_empty() => Ok(false),
                Value::String(v) => Err(anyhow!("must be \"true\" or \"false\", found {v:?}")),
                other => Err(anyhow!("must be \"true\" or \"false\", found {}", input::describe(other))),
            }
        };
        let outcome = match key.as_str() {
            "routerProxyImage" => string().map(|v| s.router_proxy_image = v),
            "defaultLitellmUrl" => string().map(|v| s.default_litellm_url = v),
            "namespace" => string().and_then(|v| {
                if let Some(errors) = v.as_deref().map(dns1123_label_errors).filter(|e| !e.is_empty()) {
                    return Err(anyhow!("{:?} is not a namespace name: {}", v.unwrap_or_default(), errors.join("; ")));
                }
                s.namespace = v;
                Ok(())
            }),
            "emitScrapeAnnotations" => boolean().map(|v| s.emit_scrape_annotations = v),
            "strict" => boolean().map(|v| s.strict = v),
            "operatorVersion" => string().and_then(|v| match v {
                None => Ok(()),
                Some(v) => Release::parse(&v).map(|r| s.release = r).map_err(|e| anyhow!("{e}")),
            }),
            other => {
                let lower = other.to_lowercase();
                let near = suggest(other, &CONFIG_KEYS).or_else(|| {
                    let prefix = |k: &&&str| lower.len() >= 3 && k.to_lowercase().starts_with(&lower);
                    CONFIG_KEYS.iter().find(prefix).map(|k| k.to_string())
                });
                let hint = match near {
                    Some(near) => format!("did you mean {near}?"),
                    None => format!("routerctl reads {}", CONFIG_KEYS.join(", ")),
                };
                let msg = format!("unknown setting {other:?}; {hint}");
                findings.push(Finding::new(Severity::Warning, subject, field, msg));
                continue;
            }
        };
        if let Err(e) = outcome {
            findings.push(Finding::new(Severity::Error, subject, field, format!("{key} {e}")));
        }
    }
    s
}

/// The pipeline's settings. Only this function knows the shape of
/// `Options`.
fn pipeline_options(s: &Settings) -> Options {
    Options {
        namespace: s.namespace.clone(),
        crds: Default::default(),
        flags: OperatorFlags {
            router_proxy_image: s.router_proxy_image.clone(),
            default_litellm_url: s.default_litellm_url.clone(),
            emit_scrape_annotations: s.emit_scrape_annotations,
            strict: s.strict,
            release: s.release,
            routing_only: false,
        },
        jobs: None,
        data_plane: None,
        keep_going: true,
    }
}

fn item_source_name(i: usize) -> String {
    format!("{ITEM_SOURCE}[{i}]")
}

/// One item as a pipeline source of its own, so that a message names it.
fn item_source(i: usize, item: &Value) -> Source {
    // JSON is YAML, and serde_json writes every value back exactly.
    let text = serde_json::to_string_pretty(item).unwrap_or_default();
    Source { name: item_source_name(i), text }
}

/// Every router among `sources` through one pipeline run (name collisions
/// and `--jobs` shared by all): each router's objects by the source it was
/// read from, and every finding of the run. A refused router does not stop
/// the others.
fn render_all(options: &Options, sources: &[Source]) -> (Vec<(String, Vec<Value>)>, Vec<Diagnostic>) {
    let mut nowhere = std::io::sink();
    let mut reporter = Reporter::collecting(&mut nowhere);
    let mut rendered = Vec::new();
    let finish = |result: RouterResult| Ok((result.origin.file, result.items.into_iter().map(|o| o.merged).collect()));
    let outcome = LiveStore::from_sources(&[], options.default_namespace()).and_then(|live| {
        pipeline::run(options, sources, &live, &mut reporter, &finish, &mut |routed| {
            rendered.push(routed);
            Ok(())
        })
    });
    let mut diagnostics = reporter.take();
    if let Err(e) = outcome {
        diagnostics.extend(diagnostics_of(&e));
    }
    (rendered, diagnostics)
}

fn dedup(findings: Vec<Finding>) -> Vec<Finding> {
    let mut seen = BTreeSet::new();
    findings.into_iter().filter(|f| seen.insert(f.clone())).collect()
}

/// kustomize's identity of an object: group, kind, namespace, name.
type Identity = (String, String, String, String);

fn identity(obj: &Value, default_namespace: &str) -> Identity {
    (
        group_of(str_at(obj, "apiVersion")).to_string(),
        obj.get("kind").and_then(Value::as_str).unwrap_or("").to_string(),
        meta_str(obj, "namespace").unwrap_or(default_namespace).to_string(),
        meta_str(obj, "name").unwrap_or("").to_string(),
    )
}

fn describe_identity((group, kind, namespace, name): &Identity) -> String {
    let kind = if group.is_empty() { kind.clone() } else { format!("{kind}.{group}") };
    format!("{kind} {namespace}/{name}")
}

fn item_path(obj: &Value) -> Option<&str> {
    PATH_ANNOTATIONS.iter().find_map(|k| annotation(obj, k)).filter(|p| !p.is_empty())
}

/// A result's `resourceRef`: apiVersion, kind, name (and namespace). The
/// KRM function specification requires the first three: an object that
/// lacks one has no reference (the result is about the function input as
/// a whole, and its message says which).
fn resource_ref(obj: &Value) -> Option<Value> {
    let present = |v: Option<&str>| v.filter(|s| !s.is_empty()).map(str::to_string);
    let mut r = Map::new();
    r.insert("apiVersion".into(), json!(present(obj.get("apiVersion").and_then(Value::as_str))?));
    r.insert("kind".into(), json!(present(obj.get("kind").and_then(Value::as_str))?));
    r.insert("name".into(), json!(present(meta_str(obj, "name"))?));
    if let Some(ns) = meta_str(obj, "namespace") {
        r.insert("namespace".into(), json!(ns));
    }
    Some(Value::Object(r))
}

/// A result's `file`: the item's path annotation, and its index in the file.
fn file_ref(obj: &Value) -> Option<Value> {
    let path = item_path(obj)?;
    let mut f = Map::new();
    f.insert("path".into(), json!(path));
    let index = INDEX_ANNOTATIONS.iter().find_map(|k| annotation(obj, k)).and_then(|i| i.trim().parse::<u64>().ok());
    if let Some(index) = index {
        f.insert("index".into(), json!(index));
    }
    Some(Value::Object(f))
}

/// The file a router's objects go to.
fn output_path(router: &Value, default_namespace: &str) -> String {
    let namespace = meta_str(router, "namespace").unwrap_or(default_namespace);
    let name = meta_str(router, "name").unwrap_or("");
    format!("{OUTPUT_DIR}/{namespace}/{name}.yaml")
}

fn annotate(obj: &mut Value, path: &str, index: usize) {
    let Some(meta) = obj.as_object_mut().map(|m| m.entry("metadata").or_insert_with(|| json!({}))) else {
        return;
    };
    let Some(meta) = meta.as_object_mut() else { return };
    let annotations = meta.entry("annotations").or_insert_with(|| json!({}));
    if let Some(a) = annotations.as_object_mut() {
        for key in PATH_ANNOTATIONS {
            a.insert(key.into(), json!(path));
        }
        for key in INDEX_ANNOTATIONS {
            a.insert(key.into(), json!(index.to_string()));
        }
    }
}

/// Files the rendered objects: a previous run's output (same identity, at
/// the path this run would give it) is to be replaced in place (returned
/// with its index); the others are returned, to be appended. Two objects with one identity are an
/// error.
fn place_objects(
    items: &[Value],
    rendered: Vec<(usize, Vec<Value>)>,
    default_namespace: &str,
    findings: &mut Vec<Finding>,
) -> (Vec<(usize, Value)>, Vec<Value>) {
    let mut replaced = Vec::new();
    let mut appended = Vec::new();
    let mut existing: HashMap<Identity, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate().filter(|(_, v)| v.is_object()) {
        existing.entry(identity(item, default_namespace)).or_insert(i);
    }
    for (router, objects) in rendered {
        let path = output_path(&items[router], default_namespace);
        for (index, mut obj) in objects.into_iter().enumerate() {
            annotate(&mut obj, &path, index);
            // Two routers rendering one object are refused by the pipeline.
            let id = identity(&obj, default_namespace);
            match existing.get(&id) {
                Some(&i) if item_path(&items[i]) == Some(path.as_str()) => replaced.push((i, obj)),
                Some(&i) => {
                    let msg = format!(
                        "renders {}, but items[{i}] already is an object with that identity; remove it, or rename the ModelRouter",
                        describe_identity(&id)
                    );
                    findings.push(Finding::new(Severity::Error, Subject::Item(router), None, msg));
                }
                None => appended.push(obj),
            }
        }
    }
    (replaced, appended)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        let path = format!("{}/testdata/krm/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// What `routerctl krm` writes on stderr for `outcome`, in `human`.
    fn stderr(outcome: &KrmOutcome) -> String {
        outcome.errors.iter().map(|d| format!("error: {d}\n")).collect()
    }

    fn parse_output(outcome: &KrmOutcome) -> Value {
        crate::input::from_yaml_str(&outcome.output).expect("output is YAML")
    }

    fn input_items(text: &str) -> Vec<Value> {
        parse_whole(text).expect("fixture is a ResourceList").1
    }

    #[test]
    fn round_trip_keeps_items_and_appends_rendered_objects() {
        let input = fixture("resource-list.yaml");
        let outcome = run(&input);
        assert!(!outcome.failed, "{}", outcome.output);
        assert_eq!(stderr(&outcome), "");
        let out = parse_output(&outcome);
        assert_eq!(out["apiVersion"], "config.kubernetes.io/v1");
        assert_eq!(out["kind"], "ResourceList");
        assert!(out.get("results").is_none(), "no results: {:?}", out.get("results"));
        let before = input_items(&input);
        let after = out["items"].as_array().expect("items");
        assert_eq!(&after[..before.len()], &before[..], "every input item kept, unchanged, in order");
        let added: Vec<(String, String)> = after[before.len()..]
            .iter()
            .map(|o| {
                (o["kind"].as_str().unwrap_or("").to_string(), o["metadata"]["name"].as_str().unwrap_or("").to_string())
            })
            .collect();
        let name = "coding-router-router-proxy".to_string();
        assert_eq!(
            added,
            [("ConfigMap".to_string(), name.clone()), ("Deployment".into(), name.clone()), ("Service".into(), name)]
        );
        for (i, obj) in after[before.len()..].iter().enumerate() {
            let a = &obj["metadata"]["annotations"];
            assert_eq!(a["config.kubernetes.io/path"], "routerctl/ml/coding-router.yaml");
            assert_eq!(a["internal.config.kubernetes.io/path"], "routerctl/ml/coding-router.yaml");
            assert_eq!(a["internal.config.kubernetes.io/index"], i.to_string());
        }
        // The functionConfig reached the pipeline.
        let deployment = &after[before.len() + 1];
        assert_eq!(
            deployment["spec"]["template"]["spec"]["containers"][0]["image"],
            "registry.example.com/router-proxy:v1"
        );
        assert_eq!(deployment["spec"]["template"]["metadata"]["annotations"]["prometheus.io/scrape"], "true");
        insta::assert_snapshot!("round_trip", outcome.output);
    }

    /// Items read one at a time (the layout kustomize writes) give the
    /// answer the whole read gives (the same list as JSON, which is never
    /// cut): passed-through items, replaced ones, results and errors.
    #[test]
    fn items_read_apart_answer_as_the_whole_list() {
        let first = run(&fixture("resource-list.yaml")).output;
        for text in [fixture("resource-list.yaml"), fixture("many-routers.yaml"), fixture("invalid-router.yaml"), first]
        {
            assert!(parse_items_apart(&text).is_some(), "cut: {text}");
            let (list, items) = parse_whole(&text).expect("a ResourceList");
            let mut whole = list;
            whole.insert("items".into(), Value::Array(items));
            let json = serde_json::to_string(&Value::Object(whole)).expect("serializes");
            assert!(parse_items_apart(&json).is_none());
            assert_eq!(run(&text), run(&json), "{text}");
        }
    }

    #[test]
    fn running_twice_replaces_the_previous_output() {
        let first = run(&fixture("resource-list.yaml"));
        let second = run(&first.output);
        assert!(!second.failed, "{}", second.output);
        assert_eq!(second.output, first.output, "the function is idempotent");
    }

    #[test]
    fn an_invalid_router_is_an_error_result() {
        let outcome = run(&fixture("invalid-router.yaml"));
        assert!(outcome.failed);
        let out = parse_output(&outcome);
        let before = input_items(&fixture("invalid-router.yaml"));
        assert_eq!(out["items"].as_array().expect("items"), &before, "nothing appended");
        let results = out["results"].as_array().expect("results");
        assert!(!results.is_empty());
        assert!(results.iter().all(|r| r["severity"] == "error"), "{results:?}");
        let fail_closed = &results[0];
        assert_eq!(
            fail_closed["resourceRef"],
            json!({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": "leaky", "namespace": "ml"})
        );
        assert_eq!(fail_closed["field"]["path"], "spec.rules[0].failClosed");
        assert_eq!(fail_closed["file"], json!({"path": "routers/leaky.yaml", "index": 0}));
        assert!(
            stderr(&outcome).starts_with("error: routers/leaky.yaml: ModelRouter ml/leaky: spec.rules[0].failClosed: ")
        );
        insta::assert_snapshot!("invalid_router", outcome.output);
    }

    #[test]
    fn schema_errors_name_their_fields() {
        let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r}\n  spec:\n    backends: [{name: a, external: {provider: openai, model: m}}]\n    proxy: {replicas: 11, podLabel: {a: b}}\n";
        let outcome = run(list);
        assert!(outcome.failed);
        let out = parse_output(&outcome);
        let fields: Vec<&str> =
            out["results"].as_array().expect("results").iter().filter_map(|r| r["field"]["path"].as_str()).collect();
        assert!(fields.contains(&"spec.proxy.replicas"), "{fields:?}");
    }

    #[test]
    fn warnings_are_warning_results_and_do_not_fail() {
        let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r, namespace: ml}\n  spec:\n    backends: [{name: a, inferenceServiceRef: {name: missing}}]\n    proxy: {podLabel: {a: b}}\nfunctionConfig:\n  apiVersion: example.com/v1\n  kind: RouterctlConfig\n  metadata: {name: cfg}\n  spec: {emitScrape: true}\n";
        let outcome = run(list);
        assert!(!outcome.failed, "{}", outcome.output);
        let out = parse_output(&outcome);
        let results = out["results"].as_array().expect("results");
        assert!(results.iter().all(|r| r["severity"] == "warning"), "{results:?}");
        let fields: Vec<&str> = results.iter().filter_map(|r| r["field"]["path"].as_str()).collect();
        assert_eq!(fields, ["spec.emitScrape", "spec.proxy.podLabel"]);
        assert!(results[0]["message"].as_str().unwrap_or("").contains("did you mean emitScrapeAnnotations?"));
        assert!(results.iter().any(|r| r["message"].as_str().unwrap_or("").contains("InferenceService \"missing\"")));
        assert_eq!(out["items"].as_array().map(Vec::len), Some(4), "rendered despite the warnings");
        assert_eq!(stderr(&outcome), "", "each warning is said once, as a result");
    }

    #[test]
    fn strict_from_the_function_config_turns_assumptions_into_errors() {
        let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r}\n  spec:\n    backends: [{name: a, inferenceServiceRef: {name: missing}}]\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cfg}\n  data: {strict: \"true\"}\n";
        let outcome = run(list);
        assert!(outcome.failed);
        assert!(stderr(&outcome).contains("InferenceService \"missing\""), "{}", stderr(&outcome));
    }

    #[test]
    fn the_operator_version_comes_from_the_function_config() {
        let list = |version: &str| {
            format!(
                "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {{name: r}}\n  spec:\n    backends: [{{name: a, external: {{provider: openai, model: m}}}}]\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: cfg}}\n  data: {{routerProxyImage: rp, operatorVersion: {version:?}}}\n"
            )
        };
        let args = |outcome: &KrmOutcome| -> Value {
            let out = parse_output(outcome);
            let items = out["items"].as_array().cloned().unwrap_or_default();
            let deployment = items.iter().find(|o| o["kind"] == "Deployment").cloned().unwrap_or_default();
            deployment["spec"]["template"]["spec"]["containers"][0]["args"].clone()
        };
        // v0.9.15 has no metrics listener (#1457 came with v0.9.16).
        let old = run(&list("0.9.15"));
        assert!(!old.failed, "{}", old.output);
        assert_eq!(
            args(&old),
            json!(["--config", "/etc/llmkube/router/config.json", "--listen", ":8080", "--log-format", "json"])
        );
        let new = run(&list("v0.9.16"));
        assert_eq!(args(&new).as_array().map(Vec::len), Some(8));
        let bad = run(&list("v9"));
        assert!(bad.failed);
        let out = parse_output(&bad);
        assert_eq!(out["results"][0]["field"]["path"], "data.operatorVersion");
        assert!(out["results"][0]["message"].as_str().unwrap_or("").contains("is not an LLMKube release"), "{out}");
    }

    /// A functionConfig whose settings would go unread is an error, with
    /// a resourceRef when it names itself fully and none (never one of
    /// empty strings) when it cannot.
    #[test]
    fn a_function_config_that_is_not_read_is_an_error() {
        let head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n";
        let misspelt = run(&format!(
            "{head}  apiVersion: v1\n  kind: Configmap\n  metadata: {{name: cfg}}\n  data: {{strict: \"true\"}}\n"
        ));
        assert!(misspelt.failed);
        let r = &parse_output(&misspelt)["results"][0];
        assert_eq!(r["severity"], "error");
        assert_eq!(r["resourceRef"], json!({"apiVersion": "v1", "kind": "Configmap", "name": "cfg"}));
        assert!(
            r["message"]
                .as_str()
                .unwrap_or("")
                .starts_with("functionConfig is apiVersion: \"v1\", kind: \"Configmap\" with no spec"),
            "{r}"
        );
        let other_version = run(&format!(
            "{head}  apiVersion: v2\n  kind: ConfigMap\n  metadata: {{name: cfg}}\n  data: {{strict: \"true\"}}\n"
        ));
        assert!(other_version.failed);
        let list = run(&format!("{head}  [1, 2]\n"));
        assert!(list.failed);
        let r = &parse_output(&list)["results"][0];
        assert_eq!((r["severity"].as_str(), r.get("resourceRef")), (Some("error"), None), "{r}");
        // Any other kind is read through its spec, as before.
        let custom = run(&format!(
            "{head}  apiVersion: example.com/v1\n  kind: RouterctlConfig\n  metadata: {{name: cfg}}\n  spec: {{strict: true}}\n"
        ));
        assert!(!custom.failed, "{}", stderr(&custom));
    }

    /// The release rules of the flags are the pipeline's: the KRM function
    /// warns as the command line does. Upstream's cmd/main.go defines
    /// --emit-scrape-annotations from v0.9.14 (#1366), for InferenceService
    /// pods; v0.9.13's manager has no such flag.
    #[test]
    fn the_function_warns_of_what_its_release_does_not_do() {
        let warning = |release: &str| {
            let list = format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {{name: r, namespace: ml}}\n  spec:\n    backends: [{{name: a, external: {{provider: openai, model: m}}}}]\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: cfg}}\n  data: {{routerProxyImage: rp, operatorVersion: \"{release}\", emitScrapeAnnotations: \"true\"}}\n");
            let outcome = run(&list);
            assert!(!outcome.failed, "{}", stderr(&outcome));
            let out = parse_output(&outcome);
            let results = out["results"].as_array().cloned().unwrap_or_default();
            let warnings: Vec<String> = results
                .iter()
                .filter(|r| {
                    r["severity"] == "warning" && r["message"].as_str().unwrap_or("").starts_with("--emit-scrape")
                })
                .map(|r| r["message"].as_str().unwrap_or("").to_string())
                .collect();
            assert_eq!(warnings.len(), 1, "{out}");
            warnings[0].clone()
        };
        let v0914 = warning("0.9.14");
        assert!(v0914.contains("operator v0.9.14 puts scrape annotations on InferenceService pods only"), "{v0914}");
        let v0913 = warning("0.9.13");
        assert!(v0913.contains("operator v0.9.13 has no such flag (it came in v0.9.14"), "{v0913}");
        assert!(v0913.contains("flag provided but not defined"), "{v0913}");
        let v085 = warning("v0.8.5");
        assert!(v085.contains("operator v0.8.5 has no such flag"), "{v085}");
    }

    #[test]
    fn bad_settings_are_errors_on_the_function_config() {
        let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cfg}\n  data: {emitScrapeAnnotations: \"yes\"}\n";
        let outcome = run(list);
        assert!(outcome.failed);
        let out = parse_output(&outcome);
        let r = &out["results"][0];
        assert_eq!(r["severity"], "error");
        assert_eq!(r["resourceRef"], json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "cfg"}));
        assert_eq!(r["field"]["path"], "data.emitScrapeAnnotations");
        assert_eq!(r["message"], "emitScrapeAnnotations must be \"true\" or \"false\", found \"yes\"");
    }

    #[test]
    fn input_that_is_not_a_resource_list_is_an_error_result() {
        for (input, message) in [
            ("", "the input is empty; expected a ResourceList"),
            ("a: [1\n", "the input is not valid YAML"),
            ("apiVersion: v1\nkind: List\nitems: []\n", "the input is apiVersion \"v1\" kind \"List\""),
            (
                "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: {}\n",
                "ResourceList.items is not a list",
            ),
            ("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n---\na: 1\n", "the input holds more than one"),
        ] {
            let outcome = run(input);
            assert!(outcome.failed, "{input:?}");
            let out = parse_output(&outcome);
            assert_eq!(out["items"], json!([]));
            let got = out["results"][0]["message"].as_str().unwrap_or("");
            assert!(got.starts_with(message), "{input:?}: {got}");
        }
    }

    #[test]
    fn a_v1beta1_list_and_a_trailing_document_marker_are_accepted() {
        let outcome = run("apiVersion: config.kubernetes.io/v1beta1\nkind: ResourceList\nitems: []\n---\n");
        assert!(!outcome.failed, "{}", outcome.output);
        assert_eq!(parse_output(&outcome)["apiVersion"], "config.kubernetes.io/v1beta1");
    }

    #[test]
    fn no_router_is_an_info_result() {
        let outcome = run("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n");
        assert!(!outcome.failed);
        let out = parse_output(&outcome);
        assert_eq!(
            out["results"],
            json!([{"message": "no ModelRouter among the items; nothing to render", "severity": "info"}])
        );
        assert_eq!(out["items"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn a_foreign_object_with_a_rendered_identity_is_an_error() {
        let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r}\n  spec:\n    backends: [{name: a, external: {provider: openai, model: m}}]\n- apiVersion: v1\n  kind: Service\n  metadata: {name: r-router-proxy, annotations: {config.kubernetes.io/path: hand-written.yaml}}\n";
        let outcome = run(list);
        assert!(outcome.failed);
        assert!(
            stderr(&outcome).contains("renders Service default/r-router-proxy, but items[1] already is an object"),
            "{}",
            stderr(&outcome)
        );
    }

    /// One pipeline run for all items: a collision between two routers'
    /// objects is found (each router alone renders fine), and a refused
    /// router does not hide the others' findings. Each result's field and
    /// file are pinned: the fixture's annotations give the file and index,
    /// the findings the field.
    #[test]
    fn one_run_for_all_routers_finds_collisions_and_every_finding() {
        let outcome = run(&fixture("many-routers.yaml"));
        assert!(outcome.failed);
        let out = parse_output(&outcome);
        assert_eq!(out["items"].as_array().map(Vec::len), Some(4), "nothing appended");
        let results = out["results"].as_array().expect("results");
        let pinned: Vec<(&str, &str, &str, &str, u64)> = results
            .iter()
            .map(|r| {
                (
                    r["severity"].as_str().unwrap_or(""),
                    r["resourceRef"]["name"].as_str().unwrap_or(""),
                    r["field"]["path"].as_str().unwrap_or(""),
                    r["file"]["path"].as_str().unwrap_or(""),
                    r["file"]["index"].as_u64().unwrap_or(99),
                )
            })
            .collect();
        assert_eq!(
            pinned,
            [
                ("error", "a-b", "metadata.name", "routers/team.yaml", 1),
                ("error", "leaky", "spec.rules[0].failClosed", "routers/leaky.yaml", 0),
                ("error", "leaky", "spec.rules[0].route.backends", "routers/leaky.yaml", 0),
                ("warning", "warned", "spec.proxy.podLabel", "routers/team.yaml", 2),
            ]
        );
        let message = |i: usize| results[i]["message"].as_str().unwrap_or("");
        assert!(
            message(0).starts_with("its objects are named \"a-b-router-proxy\", as are those of ModelRouter ml/a.b"),
            "{}",
            message(0)
        );
        assert!(message(1).starts_with("the operator refuses this ModelRouter: "), "{}", message(1));
        assert!(message(3).starts_with("unknown field"), "{}", message(3));
        assert!(message(3).ends_with("(the API server drops unknown fields)"), "{}", message(3));
        // kustomize reads stderr only: each error once, named by its file.
        let stderr = stderr(&outcome);
        assert_eq!(stderr.lines().count(), 3, "{stderr}");
        assert!(
            stderr.starts_with("error: routers/team.yaml: ModelRouter ml/a-b: metadata.name: its objects"),
            "{stderr}"
        );
    }

    /// Every testdata file, as the input and as the items of a list: results,
    /// never a panic.
    #[test]
    fn never_panics_on_the_testdata_corpus() {
        fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).expect("testdata is readable") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    files(&path, out);
                } else {
                    out.push(path);
                }
            }
        }
        let mut paths = Vec::new();
        files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"), &mut paths);
        for path in paths {
            let text = String::from_utf8_lossy(&std::fs::read(&path).expect("readable")).into_owned();
            let _ = run(&text);
            let items: Vec<Value> = crate::input::parse_stream("fixture", &text)
                .map(|docs| docs.into_iter().map(|(_, _, v)| v).collect())
                .unwrap_or_default();
            let list = json!({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items});
            let outcome = run(&serde_json::to_string(&list).expect("serializes"));
            assert!(crate::input::from_yaml_str::<Value>(&outcome.output).is_ok(), "{}", path.display());
        }
    }
}
