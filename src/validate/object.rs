//! What the API server would refuse in the objects routerctl is about to
//! write, judged on each merged object before anything prints it (after a
//! merge with live state, a user key could break them even when the
//! ModelRouter was fine).
//!
//! Each check mirrors a rule of the API server, named where it is made:
//! names, labels and annotations (`ValidateObjectMeta`), owner references
//! (`ValidateOwnerReferences`), a ConfigMap's size (`ValidateConfigMap`), a
//! Deployment's selector (`ValidateDeploymentSpec`, `ValidateLabelSelector`,
//! `LabelSelectorAsSelector` + `Matches`) and its containers' resources
//! (`validateResourceRequirements`, in [`crate::validate::resources`]).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::metadata::{
    annotations_size_error, dns1123_label_errors, dns1123_subdomain_errors, label_value_errors, qualified_name_errors,
};
use super::resources::check_resources;
use super::Finding;
use crate::kube::get;
use crate::kube::names::{CONFIG_KEY, CONTAINER_NAME};

/// `core.MaxSecretSize`, which `ValidateConfigMap` also applies to the sum
/// of a ConfigMap's `data` and `binaryData` sizes: 1 MiB.
pub const MAX_CONFIGMAP_BYTES: usize = 1024 * 1024;

/// A Service name: a DNS-1123 label that starts with a letter (RFC 1035).
fn dns1035_label_errors(name: &str) -> Vec<String> {
    let mut errors = dns1123_label_errors(name);
    if errors.is_empty() && !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        errors.push("a Service name must start with a lowercase letter (RFC 1035)".to_string());
    }
    errors
}

fn string_pairs(v: Option<&Value>) -> Vec<(&str, &str)> {
    v.and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|s| (k.as_str(), s))).collect())
        .unwrap_or_default()
}

/// Findings for one output object, as the API server would refuse it. Paths
/// are the object's own fields, except for the proxy container's resources,
/// which are named by the ModelRouter field they come from
/// (`spec.proxy.resources.limits.cpu`).
pub fn check_object(obj: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    // The names and labels derive from the ModelRouter's name, which may be
    // a longer DNS subdomain than they allow.
    let name = get(obj, &["metadata", "name"]).and_then(Value::as_str).unwrap_or("");
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    let name_errors = if kind == "Service" { dns1035_label_errors(name) } else { dns1123_subdomain_errors(name) };
    for e in name_errors {
        out.push(Finding::error("metadata.name", format!("{name:?}: {e}; shorten the ModelRouter's name")));
    }
    for (k, v) in string_pairs(get(obj, &["metadata", "labels"])) {
        for e in qualified_name_errors(k).into_iter().chain(label_value_errors(v)) {
            out.push(Finding::error(format!("metadata.labels[{k:?}]"), e));
        }
    }
    if let Some(e) = annotations_size_error(string_pairs(get(obj, &["metadata", "annotations"]))) {
        out.push(Finding::error("metadata.annotations", e));
    }
    out.extend(owner_reference_findings(obj));
    match kind {
        "ConfigMap" => out.extend(configmap_size_finding(obj)),
        "Deployment" => out.extend(deployment_findings(obj)),
        _ => {}
    }
    out
}

fn deployment_findings(obj: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    let labels = string_pairs(get(obj, &["spec", "template", "metadata", "labels"]));
    for (k, v) in &labels {
        for e in qualified_name_errors(k).into_iter().chain(label_value_errors(v)) {
            out.push(Finding::error(format!("spec.template.metadata.labels[{k:?}]"), e));
        }
    }
    if let Some(e) = annotations_size_error(string_pairs(get(obj, &["spec", "template", "metadata", "annotations"]))) {
        out.push(Finding::error("spec.template.metadata.annotations", e));
    }
    let labels: BTreeMap<&str, &str> = labels.into_iter().collect();
    out.extend(selector_findings(get(obj, &["spec", "selector"]), &labels));
    // Container resources: the proxy's come from spec.proxy.resources (the
    // operator replaces the whole pod spec, so nothing live survives there).
    let pod_claims: BTreeSet<String> = get(obj, &["spec", "template", "spec", "resourceClaims"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("name").and_then(Value::as_str).map(str::to_string))
        .collect();
    let containers = get(obj, &["spec", "template", "spec", "containers"]).and_then(Value::as_array);
    for (i, container) in containers.into_iter().flatten().enumerate() {
        // validateEnvFrom: a Secret's or a ConfigMap's name is a DNS-1123
        // subdomain. The proxy's come from credentialsSecretRef.
        for (j, source) in container.get("envFrom").and_then(Value::as_array).into_iter().flatten().enumerate() {
            for (field, spec_field) in
                [("secretRef", "credentialsSecretRef.name"), ("configMapRef", "configMapRef.name")]
            {
                let Some(name) = source.get(field).and_then(|r| r.get("name")).and_then(Value::as_str) else {
                    continue;
                };
                for e in dns1123_subdomain_errors(name) {
                    out.push(Finding::error(
                        format!("spec.template.spec.containers[{i}].envFrom[{j}].{field}.name"),
                        format!("{name:?}: {e} (from spec.backends[].external.{spec_field})"),
                    ));
                }
            }
        }
        let Some(resources) = container.get("resources") else { continue };
        let prefix = if container.get("name").and_then(Value::as_str) == Some(CONTAINER_NAME) {
            "spec.proxy.resources".to_string()
        } else {
            format!("spec.template.spec.containers[{i}].resources")
        };
        out.extend(check_resources(resources, &prefix, &pod_claims));
    }
    out
}

/// `ValidateConfigMap`: the byte sizes of every `data` value and every
/// (decoded) `binaryData` value together may not exceed 1 MiB. The
/// message names the part of the spec that makes up most of config.json.
fn configmap_size_finding(obj: &Value) -> Option<Finding> {
    let data: usize = obj
        .get("data")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(_, v)| v.as_str().map_or(0, str::len))
        .sum();
    // binaryData travels as base64: every 4 characters carry 3 bytes.
    let binary: usize = obj
        .get("binaryData")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(_, v)| v.as_str().map_or(0, |s| s.trim_end_matches('=').len() * 3 / 4))
        .sum();
    let total = data + binary;
    if total <= MAX_CONFIGMAP_BYTES {
        return None;
    }
    let config = get(obj, &["data"]).and_then(|d| d.get(CONFIG_KEY)).and_then(Value::as_str).unwrap_or("");
    let largest = serde_json::from_str::<Value>(config).ok().and_then(|v| {
        v.as_object()?.iter().map(|(k, v)| (v.to_string().len(), k.clone())).max().map(|(size, k)| {
            format!("; most of it is spec.{k} ({size} bytes as JSON): split it across more ModelRouters or shorten it")
        })
    });
    Some(Finding::error(
        "data",
        format!(
            "{total} bytes in all, over the {MAX_CONFIGMAP_BYTES} bytes (1 MiB) a ConfigMap may hold, so the API \
             server refuses it (`ValidateConfigMap`); {CONFIG_KEY} is compiled from the ModelRouter's spec{}",
            largest.unwrap_or_default()
        ),
    ))
}

/// `ValidateOwnerReferences`: each reference names its apiVersion, kind,
/// name and uid, and at most one is the controller.
fn owner_reference_findings(obj: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    let refs = get(obj, &["metadata", "ownerReferences"]).and_then(Value::as_array);
    let mut controllers = Vec::new();
    for (i, r) in refs.into_iter().flatten().enumerate() {
        let field = |f: &str| r.get(f).and_then(Value::as_str).unwrap_or("");
        for f in ["apiVersion", "kind", "name", "uid"] {
            if field(f).is_empty() {
                out.push(Finding::error(
                    format!("metadata.ownerReferences[{i}].{f}"),
                    "must not be empty; the live object carries a reference the API server refuses",
                ));
            }
        }
        if r.get("controller").and_then(Value::as_bool) == Some(true) {
            controllers.push(format!("{} {} {:?}", field("apiVersion"), field("kind"), field("name")));
        }
    }
    if controllers.len() > 1 {
        out.push(Finding::error(
            "metadata.ownerReferences",
            format!(
                "{} references are marked controller: true ({}); the API server allows one (`Only one reference \
                 can have Controller set to true`): remove the stale ones from the live object",
                controllers.len(),
                controllers.join(", ")
            ),
        ));
    }
    out
}

/// One requirement of a label selector, as `labels.NewRequirement` holds it
/// (`matchLabels` entries are `In` with their one value).
struct Requirement<'a> {
    path: String,
    key: &'a str,
    operator: &'a str,
    values: Vec<&'a str>,
}

impl Requirement<'_> {
    /// `Requirement.Matches`.
    fn matches(&self, labels: &BTreeMap<&str, &str>) -> bool {
        let found = labels.get(self.key);
        match self.operator {
            "In" => found.is_some_and(|v| self.values.contains(v)),
            "NotIn" => found.is_none_or(|v| !self.values.contains(v)),
            "Exists" => found.is_some(),
            _ => found.is_none(),
        }
    }

    fn describe(&self, labels: &BTreeMap<&str, &str>) -> String {
        let key = self.key;
        let has = match labels.get(key) {
            Some(v) => format!("the pod template has {key}={v:?}"),
            None => format!("the pod template has no label {key}"),
        };
        match (self.operator, self.values.as_slice()) {
            ("In", [one]) => format!("the selector requires {key}={one:?} but {has}"),
            ("In", values) => format!("the selector requires {key} in {values:?} but {has}"),
            ("NotIn", values) => format!("the selector requires {key} not in {values:?} but {has}"),
            ("Exists", _) => format!("the selector requires a label {key} but {has}"),
            _ => format!("the selector requires no label {key} but {has}"),
        }
    }
}

/// The Deployment selector rules of `ValidateDeploymentSpec`: it is
/// required, not empty, valid (`ValidateLabelSelector`: known operators,
/// values for In/NotIn and none for Exists/DoesNotExist, label keys and
/// values), and, evaluated as `LabelSelectorAsSelector` + `Matches` do,
/// selects the pod template's labels.
fn selector_findings(selector: Option<&Value>, labels: &BTreeMap<&str, &str>) -> Vec<Finding> {
    const KEPT: &str = "; this selector is the live Deployment's, kept because selectors are immutable: delete the \
                        Deployment and let the operator create it again";
    let mut out = Vec::new();
    let Some(selector) = selector.filter(|s| !s.is_null()) else {
        out.push(Finding::error("spec.selector", format!("missing, and a Deployment needs one{KEPT}")));
        return out;
    };
    let mut requirements = Vec::new();
    for (k, v) in selector.get("matchLabels").and_then(Value::as_object).into_iter().flatten() {
        let path = format!("spec.selector.matchLabels[{k:?}]");
        let value = v.as_str().unwrap_or("");
        for e in qualified_name_errors(k).into_iter().chain(label_value_errors(value)) {
            out.push(Finding::error(&path, e));
        }
        requirements.push(Requirement { path, key: k.as_str(), operator: "In", values: vec![value] });
    }
    let expressions = selector.get("matchExpressions").and_then(Value::as_array);
    for (i, expr) in expressions.into_iter().flatten().enumerate() {
        let path = format!("spec.selector.matchExpressions[{i}]");
        let key = expr.get("key").and_then(Value::as_str).unwrap_or("");
        let operator = expr.get("operator").and_then(Value::as_str).unwrap_or("");
        let values: Vec<&str> =
            expr.get("values").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        match operator {
            "In" | "NotIn" if values.is_empty() => out
                .push(Finding::error(format!("{path}.values"), format!("required when operator is {operator}{KEPT}"))),
            "Exists" | "DoesNotExist" if !values.is_empty() => out.push(Finding::error(
                format!("{path}.values"),
                format!("must be empty when operator is {operator}{KEPT}"),
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => out.push(Finding::error(
                format!("{path}.operator"),
                format!("{other:?} is not a label selector operator (In, NotIn, Exists, DoesNotExist){KEPT}"),
            )),
        }
        for e in qualified_name_errors(key) {
            out.push(Finding::error(format!("{path}.key"), e));
        }
        for (j, v) in values.iter().enumerate() {
            for e in label_value_errors(v) {
                out.push(Finding::error(format!("{path}.values[{j}]"), e));
            }
        }
        requirements.push(Requirement { path, key, operator, values });
    }
    if requirements.is_empty() {
        out.push(Finding::error(
            "spec.selector",
            format!(
                "empty: it would select every pod, which a Deployment may not (`empty selector is invalid for \
                 deployment`){KEPT}"
            ),
        ));
    }
    if !out.is_empty() {
        // LabelSelectorAsSelector fails, so nothing is matched.
        return out;
    }
    for r in requirements.iter().filter(|r| !r.matches(labels)) {
        out.push(Finding::error(
            &r.path,
            format!(
                "{}, so the API server refuses the Deployment (`selector` does not match template `labels`){KEPT}",
                r.describe(labels)
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_selector_must_select_its_template() {
        let d = json!({"kind": "Deployment", "metadata": {"name": "x"}, "spec": {
            "selector": {"matchLabels": {"app": "x", "a": "1"}},
            "template": {"metadata": {"labels": {"app": "x"}}}}});
        let findings = check_object(&d);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].path, "spec.selector.matchLabels[\"a\"]");
    }

    #[test]
    fn a_matching_deployment_has_no_findings() {
        let d = json!({"kind": "Deployment", "metadata": {"name": "x"}, "spec": {
            "selector": {"matchLabels": {"app": "x"}},
            "template": {"metadata": {"labels": {"app": "x", "team": "a"}}}}});
        assert!(check_object(&d).is_empty());
    }

    #[test]
    fn service_names_follow_rfc_1035() {
        let svc = |name: &str| json!({"kind": "Service", "metadata": {"name": name}});
        assert!(check_object(&svc("router-router-proxy")).is_empty());
        assert_eq!(check_object(&svc("1router-router-proxy")).len(), 1);
        assert_eq!(check_object(&svc(&format!("{}-router-proxy", "a".repeat(51)))).len(), 1);
        let cm = json!({"kind": "ConfigMap", "metadata": {"name": "1router-router-proxy"}});
        assert!(check_object(&cm).is_empty(), "other kinds take a DNS subdomain");
    }

    fn deployment(selector: Value, labels: Value) -> Value {
        json!({"kind": "Deployment", "metadata": {"name": "x"}, "spec": {
            "selector": selector, "template": {"metadata": {"labels": labels}}}})
    }

    /// Selectors evaluated as `LabelSelectorAsSelector` + `Selector.Matches`
    /// (apimachinery pkg/apis/meta/v1/helpers.go, pkg/labels/selector.go)
    /// and validated as `ValidateDeploymentSpec` / `ValidateLabelSelector`
    /// do: (selector, template labels, paths refused).
    #[test]
    fn selectors_with_match_expressions() {
        let labels = json!({"app": "x", "tier": "web"});
        let expr = |key: &str, op: &str, values: Value| json!({"matchExpressions": [{"key": key, "operator": op, "values": values}]});
        let m0 = "spec.selector.matchExpressions[0]";
        let cases: Vec<(Value, Vec<String>)> = vec![
            (expr("tier", "In", json!(["web", "api"])), vec![]),
            (expr("tier", "In", json!(["api"])), vec![m0.into()]),
            (expr("zone", "In", json!(["a"])), vec![m0.into()]), // In needs the key
            (expr("tier", "NotIn", json!(["api"])), vec![]),
            (expr("tier", "NotIn", json!(["web"])), vec![m0.into()]),
            (expr("zone", "NotIn", json!(["a"])), vec![]), // NotIn holds for a missing key
            (expr("tier", "Exists", json!(null)), vec![]),
            (expr("zone", "Exists", json!([])), vec![m0.into()]),
            (expr("zone", "DoesNotExist", json!(null)), vec![]),
            (expr("tier", "DoesNotExist", json!(null)), vec![m0.into()]),
            // Invalid selectors: refused before any matching.
            (expr("tier", "in", json!(["web"])), vec![format!("{m0}.operator")]),
            (expr("tier", "Gt", json!(["1"])), vec![format!("{m0}.operator")]),
            (expr("tier", "In", json!([])), vec![format!("{m0}.values")]),
            (expr("tier", "NotIn", json!(null)), vec![format!("{m0}.values")]),
            (expr("tier", "Exists", json!(["web"])), vec![format!("{m0}.values")]),
            (expr("tier", "DoesNotExist", json!(["web"])), vec![format!("{m0}.values")]),
            (expr("bad key!", "Exists", json!(null)), vec![format!("{m0}.key")]),
            (expr("tier", "In", json!(["not ok"])), vec![format!("{m0}.values[0]")]),
            // Every requirement must hold: matchLabels and expressions together.
            (
                json!({"matchLabels": {"app": "x"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["web"]}]}),
                vec![],
            ),
            (
                json!({"matchLabels": {"app": "y"}, "matchExpressions": [{"key": "tier", "operator": "Exists"}]}),
                vec!["spec.selector.matchLabels[\"app\"]".into()],
            ),
            // Empty and missing selectors.
            (json!({}), vec!["spec.selector".into()]),
            (json!({"matchLabels": {}, "matchExpressions": []}), vec!["spec.selector".into()]),
            (json!(null), vec!["spec.selector".into()]),
        ];
        for (selector, want) in cases {
            let got: Vec<String> =
                check_object(&deployment(selector.clone(), labels.clone())).into_iter().map(|f| f.path).collect();
            assert_eq!(got, want, "selector {selector}");
        }
    }

    #[test]
    fn selector_messages_say_what_is_missing() {
        let d = deployment(
            json!({"matchExpressions": [{"key": "tier", "operator": "In", "values": ["api", "db"]}]}),
            json!({"tier": "web"}),
        );
        let found = check_object(&d);
        assert_eq!(
            found[0].message,
            "the selector requires tier in [\"api\", \"db\"] but the pod template has tier=\"web\", so the API server \
             refuses the Deployment (`selector` does not match template `labels`); this selector is the live \
             Deployment's, kept because selectors are immutable: delete the Deployment and let the operator create \
             it again"
        );
    }

    /// `ValidateOwnerReferences` / `validateOwnerReference`.
    #[test]
    fn owner_references() {
        let with_refs = |refs: Value| json!({"kind": "ConfigMap", "metadata": {"name": "x", "ownerReferences": refs}});
        let r = |name: &str, controller: bool| json!({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": name, "uid": "u", "controller": controller});
        assert!(check_object(&with_refs(json!([r("a", true), r("b", false)]))).is_empty());
        let two = check_object(&with_refs(json!([r("a", true), r("a", true)])));
        assert_eq!(two.len(), 1);
        assert_eq!(two[0].path, "metadata.ownerReferences");
        assert!(
            two[0].message.contains(
                "(inference.llmkube.dev/v1alpha1 ModelRouter \"a\", inference.llmkube.dev/v1alpha1 ModelRouter \"a\")"
            ),
            "{}",
            two[0].message
        );
        let no_uid = check_object(&with_refs(json!([{"apiVersion": "v1", "kind": "ConfigMap", "name": "c"}])));
        assert_eq!(no_uid.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["metadata.ownerReferences[0].uid"]);
    }

    /// `ValidateConfigMap`: data plus decoded binaryData, at most 1 MiB.
    #[test]
    fn configmap_size() {
        let cm = |data: Value, binary: Value| json!({"kind": "ConfigMap", "metadata": {"name": "x"}, "data": data, "binaryData": binary});
        let exactly = "x".repeat(MAX_CONFIGMAP_BYTES);
        assert!(check_object(&cm(json!({"a": exactly}), json!({}))).is_empty(), "1 MiB is allowed");
        let over = "x".repeat(MAX_CONFIGMAP_BYTES + 1);
        assert_eq!(check_object(&cm(json!({"a": over}), json!({}))).len(), 1);
        // 4 base64 characters are 3 bytes: 1 MiB - 2 of data plus 3 bytes is over.
        let near = "x".repeat(MAX_CONFIGMAP_BYTES - 2);
        assert_eq!(check_object(&cm(json!({"a": near.clone()}), json!({"b": "AAAA"}))).len(), 1);
        assert!(check_object(&cm(json!({"a": near}), json!({"b": "AA=="}))).is_empty(), "1 byte fits");
        // The largest part of config.json is named.
        let config = json!({"backends": [], "rules": [{"name": "x".repeat(MAX_CONFIGMAP_BYTES)}]}).to_string();
        let found = check_object(&cm(json!({"config.json": config}), json!({})));
        assert!(found[0].message.contains("most of it is spec.rules"), "{}", found[0].message);
    }

    #[test]
    fn proxy_resources_are_named_by_their_spec_field() {
        let d = json!({"kind": "Deployment", "metadata": {"name": "x"}, "spec": {
            "selector": {"matchLabels": {"app": "x"}},
            "template": {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [
                {"name": "router-proxy", "resources": {"limits": {"cpu": "-1"}}},
                {"name": "sidecar", "resources": {"limits": {"gpu": "1"}}}]}}}});
        let paths: Vec<String> = check_object(&d).into_iter().map(|f| f.path).collect();
        assert_eq!(paths, ["spec.proxy.resources.limits.cpu", "spec.template.spec.containers[1].resources.limits.gpu"]);
    }

    #[test]
    fn oversized_annotations_are_refused() {
        let big = "x".repeat(256 * 1024);
        let cm = json!({"kind": "ConfigMap", "metadata": {"name": "x", "annotations": {"k": big}}});
        assert_eq!(check_object(&cm).len(), 1);
    }
}
