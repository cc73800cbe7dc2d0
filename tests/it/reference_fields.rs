//! Every name routerctl writes into a field that refers to, or names, an
//! object is checked against the rule the API server applies to that
//! field, over every shipped example on both data planes. The rules are
//! written here from their sources (k8s.io/apimachinery
//! `pkg/util/validation`: IsDNS1123Label, IsDNS1123Subdomain,
//! IsValidPortName; `pkg/api/validation/path`: ValidatePathSegmentName;
//! Gateway API's ObjectName), not taken from routerctl.

use crate::common;

use common::{parse_stream, routerctl};
use serde_json::Value;

/// Rendered with the flags each example needs.
const EXAMPLES: &[&[&str]] = &[
    &["testdata/render/sample.yaml"],
    &["testdata/render/multi.yaml"],
    &["testdata/render/podmeta.yaml"],
    &["testdata/render/pooled.yaml"],
    &["testdata/render/every-proxy-field.yaml", "--default-litellm-url", "http://litellm.llm-gateway.svc:4000"],
    &["testdata/gateway/budgets-auth.yaml"],
    &["testdata/gateway/ejection.yaml"],
    &["testdata/gateway/external.yaml"],
    &["testdata/gateway/jwt-only.yaml"],
    &["testdata/gateway/local.yaml"],
    &["testdata/versions/proxy.yaml", "--operator-version", "v0.7.8"],
    &["testdata/versions/gateway.yaml", "--operator-version", "v0.9.16"],
];

fn label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

fn subdomain(s: &str) -> bool {
    !s.is_empty() && s.len() <= 253 && s.split('.').all(label)
}

/// IsValidPortName (IANA_SVC_NAME): 1-15 characters of a-z, 0-9 and `-`,
/// a letter among them, no `-` at an end or beside another.
fn port_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 15
        && s.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
        && s.bytes().any(|c| c.is_ascii_lowercase())
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
}

/// ValidatePathSegmentName: not `.` or `..`, no `/` or `%`.
fn path_segment(s: &str) -> bool {
    !s.is_empty() && s != "." && s != ".." && !s.contains(['/', '%'])
}

/// Gateway API's ObjectName: 1-253 characters.
fn object_name(s: &str) -> bool {
    !s.is_empty() && s.len() <= 253
}

/// Checks `value` and below, `path` naming where it is; `key` is the field
/// it is the value of. Returns how many reference fields were checked.
fn walk(value: &Value, path: &str, key: &str, kind: &str, bad: &mut Vec<String>) -> usize {
    let mut checked = 0;
    let mut check = |field: &str, s: Option<&str>, rule: fn(&str) -> bool, rule_name: &str| {
        if let Some(s) = s {
            checked += 1;
            if !rule(s) {
                bad.push(format!("{kind} {path}.{field} = {s:?}: not {rule_name}"));
            }
        }
    };
    let str_at = |field: &str| value.get(field).and_then(Value::as_str);
    match key {
        // The object's own (Envoy's `metadata` elsewhere is dynamic metadata).
        "metadata" if path == ".metadata" => {
            let rule: fn(&str) -> bool = if kind == "Service" { label } else { subdomain };
            check("name", str_at("name"), rule, "a valid object name");
            check("namespace", str_at("namespace"), label, "a DNS-1123 label");
        }
        "secretRef" | "configMapRef" | "configMap" | "configMapKeyRef" | "secretKeyRef" => {
            check("name", str_at("name"), subdomain, "a DNS-1123 subdomain")
        }
        "secret" => check("secretName", str_at("secretName"), subdomain, "a DNS-1123 subdomain"),
        "roleRef" => check("name", str_at("name"), path_segment, "a path segment name"),
        "backendRefs" | "targetRefs" | "parentRefs" | "backendRef" | "targetRef" => {
            check("name", str_at("name"), object_name, "a Gateway API ObjectName")
        }
        _ => {}
    }
    if value.is_object() {
        check("serviceAccountName", str_at("serviceAccountName"), subdomain, "a DNS-1123 subdomain");
    }
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                checked += walk(v, &format!("{path}.{k}"), k, kind, bad);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let at = format!("{path}[{i}]");
                let name = item.get("name").and_then(Value::as_str);
                let (rule, rule_name): (fn(&str) -> bool, &str) = match key {
                    "containers" | "initContainers" | "volumes" | "volumeMounts" => (label, "a DNS-1123 label"),
                    "ports" => (port_name, "an IANA service name"),
                    "subjects" => (subdomain, "a ServiceAccount name"),
                    _ => (|_| true, ""),
                };
                if let Some(name) = name.filter(|_| !rule_name.is_empty()) {
                    checked += 1;
                    if !rule(name) {
                        bad.push(format!("{kind} {at}.name = {name:?}: not {rule_name}"));
                    }
                }
                if key == "ports" {
                    if let Some(target) = item.get("targetPort").and_then(Value::as_str) {
                        checked += 1;
                        if !port_name(target) {
                            bad.push(format!("{kind} {at}.targetPort = {target:?}: not an IANA service name"));
                        }
                    }
                }
                checked += walk(item, &at, key, kind, bad);
            }
        }
        _ => {}
    }
    checked
}

#[test]
fn every_reference_field_of_every_example_follows_its_api_server_rule() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for example in EXAMPLES {
        let mut args = vec!["render", "-q", "--router-proxy-image", "registry.example.com/proxy:1", "-f"];
        args.extend_from_slice(example);
        let run = routerctl(&args, None);
        assert_eq!(run.code, 0, "{example:?}: {}", run.stderr);
        for object in parse_stream(&run.stdout) {
            let kind = object["kind"].as_str().unwrap_or("").to_string();
            checked += walk(&object, "", "", &kind, &mut bad);
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The walk reached the fields it is for: names, namespaces, service
    // accounts, ports, volumes, roleRefs, Gateway references.
    assert!(checked > 200, "only {checked} fields checked");
}

#[test]
fn the_rules_refuse_what_the_api_server_refuses() {
    assert!(label("a-1") && !label("A") && !label("-a") && !label(&"a".repeat(64)));
    assert!(subdomain("a.b-c") && !subdomain("a..b") && !subdomain("a_b"));
    assert!(port_name("http") && port_name("h2c-1") && !port_name("8080") && !port_name("a--b"));
    assert!(!port_name("sixteen-letters-") && !port_name("abcdefghijklmnop"));
    assert!(path_segment("a:b") && !path_segment("..") && !path_segment("a/b"));
}
