//! Checks on what routerctl is about to print, for what the API server would
//! refuse in the objects themselves (after a merge with live state, a user
//! key could break them even when the ModelRouter was fine).

use serde_json::Value;

use super::metadata::{
    annotations_size_error, dns1123_label_errors, dns1123_subdomain_errors, label_value_errors, qualified_name_errors,
};
use super::Finding;

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

/// Findings for one output object: a Deployment whose selector does not
/// select its own pod template, template labels the API server refuses, and
/// annotation maps over the size limit.
pub fn check_object(obj: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    // The names and labels derive from the ModelRouter's name, which may be
    // a longer DNS subdomain than they allow.
    let name = obj.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    let name_errors = if kind == "Service" { dns1035_label_errors(name) } else { dns1123_subdomain_errors(name) };
    for e in name_errors {
        out.push(Finding::error("metadata.name", format!("{name:?}: {e}; shorten the ModelRouter's name")));
    }
    for (k, v) in string_pairs(obj.pointer("/metadata/labels")) {
        for e in qualified_name_errors(k).into_iter().chain(label_value_errors(v)) {
            out.push(Finding::error(format!("metadata.labels[{k:?}]"), e));
        }
    }
    if let Some(e) = annotations_size_error(string_pairs(obj.pointer("/metadata/annotations"))) {
        out.push(Finding::error("metadata.annotations", e));
    }
    if obj.get("kind").and_then(Value::as_str) != Some("Deployment") {
        return out;
    }
    let labels = string_pairs(obj.pointer("/spec/template/metadata/labels"));
    for (k, v) in &labels {
        for e in qualified_name_errors(k).into_iter().chain(label_value_errors(v)) {
            out.push(Finding::error(format!("spec.template.metadata.labels[{k:?}]"), e));
        }
    }
    if let Some(e) = annotations_size_error(string_pairs(obj.pointer("/spec/template/metadata/annotations"))) {
        out.push(Finding::error("spec.template.metadata.annotations", e));
    }
    for (k, v) in string_pairs(obj.pointer("/spec/selector/matchLabels")) {
        if !labels.contains(&(k, v)) {
            out.push(Finding::error(
                format!("spec.selector.matchLabels[{k:?}]"),
                format!(
                    "the selector requires {k}={v:?} but the pod template does not carry it, so the API server refuses the Deployment (`selector` does not match template `labels`)"
                ),
            ));
        }
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

    #[test]
    fn oversized_annotations_are_refused() {
        let big = "x".repeat(256 * 1024);
        let cm = json!({"kind": "ConfigMap", "metadata": {"name": "x", "annotations": {"k": big}}});
        assert_eq!(check_object(&cm).len(), 1);
    }
}
