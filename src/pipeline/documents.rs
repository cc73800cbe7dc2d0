//! One input document on its way to a typed resource: which of routerctl's
//! kinds it is, its namespace and name, the CRD schema's checks, pruning and
//! defaults, and for a ModelRouter the operator's own refusals. Every error
//! points at the field's `file:line:col`.

use anyhow::Result;
use serde_json::Value;

use super::options::Options;
use crate::diagnostic::{rules, Diagnostic, Place, Refusal, Rule};
use crate::input::Document;
use crate::kube::ObjectKey;
use crate::model::{router_key, DataPlane, ModelRouter, GROUP, GROUP_VERSION};
use crate::release::{ChangeEntry, Release, NEXT};
use crate::render::RouterInput;
use crate::schema::text::{found, quote, suggest};
use crate::validate::crd::{for_release, CrdSchema};
use crate::validate::custom_resource::check_against;
use crate::validate::gateway::validate_gateway_router;
use crate::validate::operator::validate_model_router;
use crate::validate::{Finding, Severity};

/// A stage's finding about a document as a diagnostic placed at its
/// field's `file:line:col` (editors and terminals jump there).
pub(super) fn located(doc: &Document, rule: &'static Rule, finding: &Finding) -> Diagnostic {
    Diagnostic::new(finding.severity, rule, finding.message.as_str())
        .at(doc.place(&finding.path))
        .field(finding.path.as_str())
}

/// An error about the field at `path`, placed at its `file:line:col`.
fn refused_at(doc: &Document, path: &str, rule: &'static Rule, message: String) -> anyhow::Error {
    Diagnostic::error(rule, message).at(doc.place(path)).into_error()
}

/// Which of routerctl's kinds a document is, with its namespace; `None` for
/// documents routerctl ignores (Secrets, KServe's InferenceService, ...).
pub(super) fn classify(doc: &Document, options: &Options) -> Result<Option<(&'static str, String)>> {
    let group = doc.api_version().split('/').next().unwrap_or("");
    let kind = match doc.kind() {
        "ModelRouter" => "ModelRouter",
        "InferenceService" if group == GROUP => "InferenceService",
        "ModelPool" if group == GROUP => "ModelPool",
        other => {
            // LLMKube has other kinds (Model, ...); a near miss of ours is a typo.
            if group == GROUP {
                if let Some(near) = suggest(other, &["ModelRouter", "InferenceService", "ModelPool"]) {
                    let message = format!("LLMKube has no kind {other:?}; did you mean {near}?");
                    return Err(refused_at(doc, "kind", rules::INPUT, message));
                }
            }
            return Ok(None);
        }
    };
    if doc.api_version() != GROUP_VERSION {
        let message = format!("{kind} has apiVersion {:?}; routerctl reads {GROUP_VERSION}", doc.api_version());
        return Err(refused_at(doc, "apiVersion", rules::INPUT, message));
    }
    if kind != "ModelRouter" {
        object_name(doc)?;
    }
    Ok(Some((kind, namespace_of(doc, options.namespace.as_deref())?)))
}

/// A ModelRouter read, typed and defaulted, with what refuses it so far:
/// the refusals of the stages that still leave it typed (fields the CRD
/// does not know with `--strict`, the operator's admission checks), each
/// said with what the later stages find.
pub(super) struct RouterRead {
    pub place: Place,
    pub input: RouterInput,
    pub refusals: Vec<Refusal>,
    /// The operator refuses it: nothing of it would be rendered.
    pub operator_refuses: bool,
}

/// Pass 2 for one ModelRouter document: schema, typing, CRD defaults.
/// Warnings go to `warnings`; the document's value is moved into the
/// typed router. A document that cannot be typed is an error; the
/// refusals of a typed one come back with it.
pub(super) fn router_input(
    mut doc: Document,
    namespace: String,
    options: &Options,
    crd: Option<&CrdSchema>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<RouterRead> {
    // The cluster's CRD when given, else the CRD of the operator release.
    let schema = crd.unwrap_or_else(|| for_release(options.flags.release));
    // Read before the value moves; the schema's own message comes first.
    let name = object_name(&doc);
    let (mut router, refused): (ModelRouter, _) = stored_or_refused(&mut doc, Some(schema), options, warnings)?;
    let name = name?;
    let mut refusals: Vec<Refusal> = refused.into_iter().collect();
    if let Some(plane) = options.data_plane {
        router.spec.data_plane = plane;
    }
    // The admission checks, and for a Gateway router the gateway
    // reconciler's refusals, all at once.
    let mut findings = validate_model_router(&router);
    if router.spec.data_plane == DataPlane::Gateway {
        findings.extend(validate_gateway_router(&router));
    }
    let operator_refuses = !findings.is_empty();
    if operator_refuses {
        let heading = Diagnostic::error(rules::OPERATOR, "the operator refuses this ModelRouter")
            .at(doc.origin.place())
            .on(router_key(&namespace, &name));
        let findings = findings.iter().map(|f| located(&doc, rules::OPERATOR, f)).collect();
        refusals.push(Refusal::new(heading, findings));
    }
    let uid = router.metadata.uid.clone().filter(|u| !u.is_empty());
    let input = RouterInput { router, name, namespace, uid };
    Ok(RouterRead { place: doc.origin.place(), input, refusals, operator_refuses })
}

/// A document as the API server would store it, typed: checked against its
/// CRD schema (when there is one), fields the schema does not know pruned
/// (warned about in `warnings`; refused with `--strict`), the schema's
/// defaults applied. The value is moved out of `doc` (which is left
/// `null`); its positions still place every field for messages.
pub(super) fn stored<T: serde::de::DeserializeOwned>(
    doc: &mut Document,
    schema: Option<&CrdSchema>,
    options: &Options,
    warnings: &mut Vec<Diagnostic>,
) -> Result<T> {
    let (typed, refused) = stored_or_refused(doc, schema, options, warnings)?;
    match refused {
        Some(refusal) => Err(refusal.into()),
        None => Ok(typed),
    }
}

/// [`stored`], but a refusal that leaves the document typeable (fields
/// the CRD does not know, with `--strict`) comes back beside the typed
/// resource, pruned and defaulted as without the flag, so that the later
/// checks still run and report what they find.
fn stored_or_refused<T: serde::de::DeserializeOwned>(
    doc: &mut Document,
    schema: Option<&CrdSchema>,
    options: &Options,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(T, Option<Refusal>)> {
    let kind = doc.kind().to_string();
    let Some(schema) = schema else {
        let value = std::mem::take(&mut doc.value);
        return Ok((typed_value(doc, &kind, value)?, None));
    };
    let name = match doc.metadata_str("name") {
        Some(n) if !n.is_empty() => format!("{n:?}"),
        _ => "(without a name)".to_string(),
    };
    // Who the findings are about: their places point into the document, so
    // only machines read this.
    let object = ObjectKey {
        api_version: doc.api_version().to_string(),
        kind: kind.clone(),
        namespace: doc
            .metadata_str("namespace")
            .filter(|n| !n.is_empty())
            .unwrap_or(options.default_namespace())
            .to_string(),
        name: doc.metadata_str("name").unwrap_or("").to_string(),
    };
    let written = |path: &str| doc.plain_text(path).map(str::to_string);
    let (errors, mut unknown): (Vec<_>, Vec<_>) =
        check_against(&doc.value, schema, &written).into_iter().partition(|f| f.severity == Severity::Error);
    // A field of a newer release than the one rendered as: say which, and
    // which --operator-version has it.
    let release = options.flags.release;
    let mut hints: Vec<Option<String>> = vec![None; unknown.len()];
    if kind == "ModelRouter" && options.crds.router.is_none() {
        for (w, hint) in unknown.iter_mut().zip(&mut hints) {
            if let Some(change) = release.missing_field(&w.path) {
                w.message = format!(
                    "operator {release}'s CRD has no such field ({}): the API server drops it, and \
                     kubectl apply's strict field validation (kubectl 1.27+) refuses the ModelRouter",
                    change.arrival()
                );
                w.rule = rules::NEWER_FIELD;
                *hint = newer_release_hint(change);
            }
        }
    }
    let placed = |w: &Finding, hint: &Option<String>| {
        let d = located(doc, w.rule, w);
        match hint {
            Some(h) => d.hint(h.as_str()),
            None if w.rule == rules::UNKNOWN_FIELD => d.hint("the API server drops unknown fields"),
            None => d,
        }
    };
    if !errors.is_empty() {
        let heading = Diagnostic::error(
            rules::SCHEMA,
            format!("{kind} {name} does not fit the {kind} CRD schema; the API server refuses it"),
        )
        .at(doc.origin.place());
        let findings = errors
            .iter()
            .map(|f| located(doc, f.rule, f))
            .chain(unknown.iter().zip(&hints).map(|(w, h)| placed(w, h)))
            .collect();
        return Err(Refusal::new(heading, findings).about(object).into());
    }
    let mut refused = None;
    if options.flags.strict && !unknown.is_empty() {
        let what = if unknown.iter().all(|w| w.rule == rules::NULL_DROPPED) {
            "null values the API server drops"
        } else {
            "fields the CRD does not know"
        };
        let heading = Diagnostic::error(rules::SCHEMA, format!("{kind} {name} has {what} (refused with --strict)"))
            .at(doc.origin.place());
        let findings = unknown.iter().zip(&hints).map(|(w, h)| placed(w, h)).collect();
        refused = Some(Refusal::new(heading, findings).about(object));
    } else {
        for (w, h) in unknown.iter().zip(&hints) {
            warnings.push(placed(w, h).on(object.clone()));
        }
    }
    let mut value = std::mem::take(&mut doc.value);
    // The check warns about every field pruning would drop, so a document
    // without warnings has nothing to prune.
    if !unknown.is_empty() {
        schema.prune(&mut value);
    }
    schema.apply(&mut value);
    Ok((typed_value(doc, &kind, value)?, refused))
}

/// For a field in no release yet (the pod-metadata change): the
/// `--operator-version` that has it. A field a later release added needs
/// no hint: the message names that release, and the fix is the cluster's.
fn newer_release_hint(change: &ChangeEntry) -> Option<String> {
    (change.since == Release::NEXT)
        .then(|| format!("--operator-version {NEXT} renders with the unreleased change that adds it"))
}

fn object_name(doc: &Document) -> Result<String> {
    match doc.value.get("metadata").and_then(|m| m.get("name")) {
        Some(Value::String(n)) if !n.is_empty() => Ok(n.to_string()),
        // `name: y` or `name: 1.0`: YAML made it a bool or a number.
        Some(other @ (Value::Bool(_) | Value::Number(_))) => {
            let hint = match doc.plain_text("metadata.name") {
                Some(text) => format!("; quote it: name: {}", quote(text)),
                None => String::new(),
            };
            let message = format!("{} metadata.name: must be a string, found {}{hint}", doc.kind(), found(other));
            Err(refused_at(doc, "metadata.name", rules::SCHEMA, message))
        }
        _ => {
            let message = format!("{} has no metadata.name; every object needs one", doc.kind());
            Err(refused_at(doc, "metadata.name", rules::SCHEMA, message))
        }
    }
}

/// The object's own namespace, else `-n`, else `default`; an object that
/// names a namespace other than an explicit `-n` is an error, as in kubectl.
fn namespace_of(doc: &Document, flag: Option<&str>) -> Result<String> {
    match (doc.metadata_str("namespace").filter(|n| !n.is_empty()), flag) {
        (Some(own), Some(flag)) if own != flag => {
            let name = doc.metadata_str("name").unwrap_or("");
            let message = format!("{} {name:?} is in namespace {own:?}, which does not match -n {flag:?}", doc.kind());
            Err(refused_at(doc, "metadata.namespace", rules::INPUT, message))
        }
        (Some(own), _) => Ok(own.to_string()),
        (None, Some(flag)) => Ok(flag.to_string()),
        (None, None) => Ok("default".to_string()),
    }
}

/// Deserializes a document's value (defaults applied) into a typed
/// resource, naming the field that did not fit. (The schema check has
/// already caught what a person gets wrong.)
fn typed_value<T: serde::de::DeserializeOwned>(doc: &Document, kind: &str, value: Value) -> Result<T> {
    // Tracking the path of every field costs more than copying the strings
    // out of a borrowed tree; the path is needed only when it fails.
    if let Ok(typed) = T::deserialize(&value) {
        return Ok(typed);
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = format!("{kind} {path}: {}", crate::model::serde_in_words(&e.inner().to_string()));
        refused_at(doc, &path, rules::SCHEMA, message)
    })
}
