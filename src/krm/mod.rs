//! The KRM function: a kustomize / kpt `ResourceList` in, the same list
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
//! - what goes wrong becomes a `results` entry (`report::krm_result`:
//!   severity, message, `resourceRef`, `field.path`, `file`) instead of a
//!   crash. With any error, nothing is appended: like `routerctl render`, a
//!   broken ModelRouter never yields half an output.
//!
//! The items the function reads go to one pipeline run as documents
//! (`pipeline::run_documents`), each a source of its own read from its own
//! text; the run's findings are `Diagnostic`s, put on the item they are
//! about (its identity, its file annotations) to become results. Reading
//! and writing the list is `list`'s; `functionConfig` is `settings`'s: a
//! ConfigMap's `data`, or any other kind's `spec` (one that is neither is
//! an error result rather than settings ignored in silence). The warnings
//! about what a release does not do are the pipeline's, so the function
//! gives them as the command line does.

mod list;
mod settings;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};

use serde_json::{json, Map, Value};

use crate::diagnostic::{describe, diagnostics_of, rules, Diagnostic, Place, Severity};
use crate::input::items::ItemText;
use crate::input::{Document, Origin};
use crate::kube::{annotation, meta_str, ObjectKey};
use crate::live::LiveStore;
use crate::pipeline::pass_through::identity as kustomize_key;
use crate::pipeline::{self, Options, RouterResult};
use crate::report::{krm_message, krm_result, Reporter};
use list::{annotate, item_file, parse, API_VERSIONS, KUSTOMIZE_ID_ANNOTATION};

/// What the function prints on stdout and whether it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KrmOutcome {
    /// The output `ResourceList` as YAML.
    pub output: String,
    /// An error result was written: the function exits non-zero.
    pub failed: bool,
    /// The error results again, for stderr, when kustomize runs the
    /// function: it shows a function's stderr, not its `results` (kpt shows
    /// both, so there they are results only). Warnings are results only.
    pub errors: Vec<Diagnostic>,
}

/// The directory rendered objects are filed under.
const OUTPUT_DIR: &str = "routerctl";
/// The name input items go by in the pipeline's messages.
const ITEM_SOURCE: &str = "ResourceList.items";

fn has_error(findings: &[Diagnostic]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// Runs the function on one `ResourceList` (YAML or JSON).
pub fn run(resource_list_yaml: &str) -> KrmOutcome {
    let read = match parse(resource_list_yaml) {
        Ok(read) => read,
        Err(e) => return refused(format!("{e:#}")),
    };
    let list::ReadList { list, mut items, mut kept, texts } = read;
    let function_config = list.get("functionConfig").filter(|v| !v.is_null());
    let mut findings = Vec::new();
    let options = settings::options(function_config, &mut findings);
    for finding in &mut findings {
        about(finding, function_config);
    }

    let mut read = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if !item.is_object() {
            let msg = format!("items[{i}] is not a Kubernetes object; the function only passes it through");
            findings.push(Diagnostic::warning(rules::KRM, msg));
        } else if list::is_read(item) {
            read.push(i);
        }
    }
    let has_router = read.iter().any(|&i| items[i].get("kind").and_then(Value::as_str) == Some("ModelRouter"));
    if !has_router {
        findings.push(Diagnostic::new(Severity::Note, rules::KRM, "no ModelRouter among the items; nothing to render"));
    }

    let default_namespace = options.default_namespace().to_string();
    let mut rendered: Vec<(usize, Vec<Value>)> = Vec::new();
    if !has_error(&findings) && has_router {
        let documents = item_documents(&read, &items, &texts);
        let by_source: HashMap<String, usize> = read.iter().map(|&i| (item_source_name(i), i)).collect();
        let identities: HashMap<ObjectKey, usize> =
            read.iter().rev().map(|&i| (ObjectKey::of(&items[i], &default_namespace), i)).collect();
        let (results, diagnostics) = render_all(&options, &documents);
        drop(documents);
        findings.extend(diagnostics.into_iter().map(|d| located(d, &items, &by_source, &identities)));
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
    let findings = dedup(findings);
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
    let shown = if handed_by_kustomize(&items, function_config) { Stderr::Errors } else { Stderr::Nothing };
    finish(out, items, &kept, &findings, shown)
}

/// Which results the function says again on stderr.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stderr {
    /// Its errors: kustomize shows a function's stderr and not its results.
    Errors,
    /// Nothing: kpt shows the results, and stderr besides them, so an
    /// error there would be said twice.
    Nothing,
}

/// Whether kustomize runs the function: it puts its identity annotation on
/// every item it hands over, which kpt does not. With no item to tell, the
/// functionConfig that declares the function (its function annotation)
/// says kustomize: kpt's is a plain settings file, or none.
fn handed_by_kustomize(items: &[Value], function_config: Option<&Value>) -> bool {
    if !items.is_empty() {
        return items.iter().any(|item| annotation(item, KUSTOMIZE_ID_ANNOTATION).is_some());
    }
    function_config.is_some_and(|fc| {
        ["config.kubernetes.io/function", "config.k8s.io/function"].iter().any(|key| annotation(fc, key).is_some())
    })
}

/// The answer to input that holds no ResourceList: an empty one whose
/// error result says why.
pub fn refused(message: String) -> KrmOutcome {
    let mut list = Map::new();
    list.insert("apiVersion".into(), json!(API_VERSIONS[0]));
    list.insert("kind".into(), json!("ResourceList"));
    // Whoever runs it, input that is no ResourceList is said on stderr.
    finish(list, Vec::new(), &[], &[Diagnostic::error(rules::KRM, message)], Stderr::Errors)
}

/// The output list with a result per finding; the errors again, for
/// stderr.
fn finish(
    list: Map<String, Value>,
    items: Vec<Value>,
    kept: &[Option<Box<str>>],
    findings: &[Diagnostic],
    stderr: Stderr,
) -> KrmOutcome {
    // In the order of the items they are about, as the message formats
    // write findings by file and line: the function's own first.
    let mut findings = findings.to_vec();
    findings.sort_by_key(|d| {
        let place = d.place.as_ref();
        let item = place.and_then(|p| item_index(&p.file));
        (place.is_some(), item, place.and_then(|p| p.line), place.and_then(|p| p.column), d.rule.id)
    });
    let results = findings.iter().map(krm_result).collect();
    // kpt prints results and stderr both; kustomize only stderr, and fails
    // on a non-zero exit. Each error reaches its reader once: on stderr too
    // when kustomize runs the function; a warning only in the results.
    let errors: Vec<Diagnostic> = findings.iter().filter(|f| f.severity == Severity::Error).map(stderr_error).collect();
    let failed = !errors.is_empty();
    let errors = if stderr == Stderr::Errors { errors } else { Vec::new() };
    KrmOutcome { output: list::write(list, items, kept, results), failed, errors }
}

/// A result's error as stderr says it: at its file (without the index),
/// else at the ResourceList when it is about no object, then its object,
/// field and message.
fn stderr_error(d: &Diagnostic) -> Diagnostic {
    let place = match (&d.place, &d.object) {
        (Some(place), _) => Some(Place::file(place.file.as_str())),
        (None, None) => Some(Place::file("ResourceList")),
        (None, Some(_)) => None,
    };
    Diagnostic { place, context: None, hint: None, message: krm_message(d), ..d.clone() }
}

/// Puts `d` on the input object `obj`: its identity as written (the
/// `resourceRef`) and the file its annotations name.
fn about(d: &mut Diagnostic, obj: Option<&Value>) {
    let Some(obj) = obj.filter(|v| v.is_object()) else { return };
    d.object = Some(ObjectKey::of(obj, ""));
    d.place = item_file(obj).map(|(path, index)| Place { item: index, ..Place::file(path) });
}

/// A pipeline finding located in the ResourceList: on the item it was read
/// from (`sources`, by source name), else the item whose identity it names
/// (`identities`). A finding about an object that is not that item (a
/// rendered one) says which object and field in its words, since
/// `resourceRef` and `field` point into the item.
fn located(
    mut d: Diagnostic,
    items: &[Value],
    sources: &HashMap<String, usize>,
    identities: &HashMap<ObjectKey, usize>,
) -> Diagnostic {
    let by_object = d.object.as_ref().and_then(|o| identities.get(o)).copied();
    let item = d.place.as_ref().and_then(|p| sources.get(&p.file)).copied().or(by_object);
    if let Some(object) = d.object.as_ref().filter(|_| item.is_none() || by_object != item) {
        let mut words = describe(object);
        for part in [d.context.take(), d.field.take()].into_iter().flatten() {
            words.push_str(": ");
            words.push_str(&part);
        }
        d.context = Some(words);
    }
    d.object = None;
    d.place = None;
    about(&mut d, item.and_then(|i| items.get(i)));
    d
}

/// The items `read` as documents for the pipeline: each a source of its
/// own (`ResourceList.items[i]`), read from its own text when it has one.
fn item_documents(read: &[usize], items: &[Value], texts: &[Option<ItemText>]) -> Vec<Document> {
    read.iter()
        .map(|&i| match texts.get(i).and_then(Option::as_ref) {
            Some(text) => text.document(item_source_name(i), items[i].clone()),
            None => {
                let origin = Origin { source: item_source_name(i), document: 1, line: 1, item: None };
                Document::unplaced(origin, items[i].clone())
            }
        })
        .collect()
}

/// The index of an item named as [`item_source_name`] names it.
fn item_index(name: &str) -> Option<usize> {
    name.strip_prefix(ITEM_SOURCE)?.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

fn item_source_name(i: usize) -> String {
    format!("{ITEM_SOURCE}[{i}]")
}

/// Every router among `documents` through one pipeline run (name
/// collisions and `--jobs` shared by all): each router's objects by the
/// source it was read from, and every finding of the run. A refused router
/// does not stop the others.
fn render_all(options: &Options, documents: &[Document]) -> (Vec<(String, Vec<Value>)>, Vec<Diagnostic>) {
    let mut nowhere = std::io::sink();
    let mut reporter = Reporter::collecting(&mut nowhere);
    let mut rendered = Vec::new();
    let finish = |result: RouterResult| Ok((result.origin.file, result.items.into_iter().map(|o| o.merged).collect()));
    let outcome = LiveStore::from_sources(&[], options.default_namespace()).and_then(|live| {
        pipeline::run_documents(options, documents, &live, &mut reporter, &finish, &mut |routed| {
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

/// Each finding once, in the order they came.
fn dedup(findings: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = HashSet::new();
    findings.into_iter().filter(|f| seen.insert(f.clone())).collect()
}

/// `Kind.group namespace/name`, as kustomize names an object.
fn describe_kustomize_key(key: &ObjectKey) -> String {
    let kind = if key.api_version.is_empty() { key.kind.clone() } else { format!("{}.{}", key.kind, key.api_version) };
    format!("{kind} {}/{}", key.namespace, key.name)
}

/// The file a router's objects go to.
fn output_path(router: &Value, default_namespace: &str) -> String {
    let namespace = meta_str(router, "namespace").unwrap_or(default_namespace);
    let name = meta_str(router, "name").unwrap_or("");
    format!("{OUTPUT_DIR}/{namespace}/{name}.yaml")
}

/// Files the rendered objects: a previous run's output (same identity, at
/// the path this run would give it) is to be replaced in place (returned
/// with its index); the others are returned, to be appended. Two objects
/// with one identity are an error.
fn place_objects(
    items: &[Value],
    rendered: Vec<(usize, Vec<Value>)>,
    default_namespace: &str,
    findings: &mut Vec<Diagnostic>,
) -> (Vec<(usize, Value)>, Vec<Value>) {
    let mut replaced = Vec::new();
    let mut appended = Vec::new();
    let mut existing: HashMap<ObjectKey, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate().filter(|(_, v)| v.is_object()) {
        existing.entry(kustomize_key(item, default_namespace)).or_insert(i);
    }
    for (router, objects) in rendered {
        let path = output_path(&items[router], default_namespace);
        for (index, mut obj) in objects.into_iter().enumerate() {
            annotate(&mut obj, &path, index);
            // Two routers rendering one object are refused by the pipeline.
            let key = kustomize_key(&obj, default_namespace);
            match existing.get(&key) {
                Some(&i) if item_file(&items[i]).map(|(p, _)| p) == Some(path.as_str()) => replaced.push((i, obj)),
                Some(&i) => {
                    let msg = format!(
                        "renders {}, but items[{i}] already is an object with that identity; remove it, or rename the ModelRouter",
                        describe_kustomize_key(&key)
                    );
                    let mut finding = Diagnostic::error(rules::KRM, msg);
                    about(&mut finding, items.get(router));
                    findings.push(finding);
                }
                None => appended.push(obj),
            }
        }
    }
    (replaced, appended)
}
