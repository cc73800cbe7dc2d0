//! The Gateway data plane's objects against the CRDs of the Envoy releases
//! the operator targets (Envoy Gateway v1.8.1, Envoy AI Gateway v0.7.0):
//! upstream builds whatever a ModelRouter compiles to and learns only from
//! the API server's refusal, after it has applied the objects before it, so
//! the refusal is said here, before a broken rollout.
//!
//! The schemas are routerctl's own text of those CRDs' constraints on the
//! fields the operator writes (`schemas/envoy-gateway.yaml`), checked with
//! the same walker as the ModelRouter CRD. Each finding also names the
//! ModelRouter field its value came from.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use super::{Finding, Severity};
use crate::model::ModelRouter;
use crate::schema::crd::CrdSchema;
use crate::schema::structural::Schema;
use crate::schema::walk::Walk;

const SCHEMAS: &str = include_str!("schemas/envoy-gateway.yaml");

/// The compiled schema of each kind.
fn schemas() -> &'static HashMap<String, Schema> {
    static COMPILED: OnceLock<HashMap<String, Schema>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        // Part of the program and covered by tests: a failure is a bug in
        // routerctl, not in its input.
        let all: Value = crate::input::from_yaml_str(SCHEMAS).expect("the Envoy schemas are YAML");
        let all = all.as_object().expect("the Envoy schemas are a mapping by kind");
        all.iter()
            .map(|(kind, s)| (kind.clone(), Schema::compile_built_in(s).expect("an Envoy schema compiles")))
            .collect()
    })
}

/// The release whose CRD defines `kind`, for messages.
fn release_of(kind: &str) -> &'static str {
    match kind {
        "AIServiceBackend" | "AIGatewayRoute" => "the CRD of Envoy AI Gateway v0.7.0",
        _ => "the CRD of Envoy Gateway v1.8.1",
    }
}

/// Everything the built-in schema of a Gateway object's kind says of it:
/// errors, and warnings for fields it does not list (none for what the
/// operator writes: a test holds the schemas to the renderer).
pub fn schema_findings(object: &Value) -> Vec<Finding> {
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
    let Some(schema) = schemas().get(kind) else { return Vec::new() };
    let no_text = |_: &str| None;
    let mut walk = Walk::new(&no_text);
    walk.check(object, schema, "", None);
    walk.findings
}

/// What a CRD given with `--crd` says of an object: the structural checks,
/// then (on an object that passed them, as the API server does) its CEL
/// rules.
fn given_crd_findings(object: &Value, crd: &CrdSchema) -> Vec<Finding> {
    let no_text = |_: &str| None;
    let mut walk = Walk::new(&no_text);
    walk.check(object, &crd.schema, "", None);
    let mut findings = walk.findings;
    if crd.schema.has_rules && !findings.iter().any(|f| f.severity == Severity::Error) {
        findings.extend(crd.check_rules(object));
    }
    findings
}

/// What the CRD of a Gateway object's kind refuses in it (the one given
/// among `given`, else the built-in one), each finding with the object's
/// field path and, after the message, the ModelRouter field its value came
/// from.
pub fn check_gateway_object(object: &Value, router: &ModelRouter, given: &[CrdSchema]) -> Vec<Finding> {
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
    let (findings, crd) = match given.iter().find(|c| c.kind == kind) {
        Some(crd) => (given_crd_findings(object, crd), "the CRD given with --crd"),
        None => (schema_findings(object), release_of(kind)),
    };
    let mut findings: Vec<(Finding, &str)> =
        findings.into_iter().filter(|f| f.severity == Severity::Error).map(|f| (f, crd)).collect();
    // What passes the route's own CRD can still break the HTTPRoute that
    // Envoy AI Gateway generates from it; only then.
    if kind == "AIGatewayRoute" && findings.is_empty() {
        findings.extend(generated_route_findings(object).into_iter().map(|f| (f, GENERATED_ROUTE)));
    }
    findings
        .into_iter()
        .map(|(f, crd)| {
            let source = source_of(kind, object, &f.path, router);
            Finding::error(f.path, format!("{} ({crd}; {source})", f.message))
        })
        .collect()
}

/// Where the generated HTTPRoute's limits come from, for messages.
const GENERATED_ROUTE: &str = "Envoy AI Gateway v0.7.0 admits the route, but the HTTPRoute it generates from it, \
                               with one more catch-all rule, breaks the HTTPRoute CRD of Gateway API v1.5.1 that \
                               Envoy Gateway v1.8.1 installs, and the route does not serve";

/// The HTTPRoute's limits that are tighter than the AIGatewayRoute's: 64
/// matches and 16 backends per rule, 128 matches in all (the generated
/// catch-all takes one), weights up to 1000000, header values of printable
/// ASCII without leading, trailing or doubled blanks.
fn generated_route_findings(route: &Value) -> Vec<Finding> {
    static VALUE: OnceLock<regex::Regex> = OnceLock::new();
    let value_pattern = VALUE.get_or_init(|| regex::Regex::new(r"^[!-~]+([\t ]?[!-~]+)*$").expect("a valid pattern"));
    let mut out = Vec::new();
    let rules = route.pointer("/spec/rules").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut total = 0;
    for (i, rule) in rules.iter().enumerate() {
        let matches = rule.get("matches").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        total += matches.len();
        if matches.len() > 64 {
            out.push(Finding::error(
                format!("spec.rules[{i}].matches"),
                format!("an HTTPRoute rule takes at most 64 matches, found {}", matches.len()),
            ));
        }
        for (j, m) in matches.iter().enumerate() {
            for (k, h) in m.get("headers").and_then(Value::as_array).into_iter().flatten().enumerate() {
                let value = h.get("value").and_then(Value::as_str).unwrap_or("");
                if !value.is_empty() && !value_pattern.is_match(value) {
                    out.push(Finding::error(
                        format!("spec.rules[{i}].matches[{j}].headers[{k}].value"),
                        format!(
                            "{value:?}: an HTTPRoute header value is printable ASCII without leading, trailing or \
                             doubled blanks (pattern ^[!-~]+([\\t ]?[!-~]+)*$)"
                        ),
                    ));
                }
            }
        }
        let refs = rule.get("backendRefs").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        if refs.len() > 16 {
            out.push(Finding::error(
                format!("spec.rules[{i}].backendRefs"),
                format!("an HTTPRoute rule takes at most 16 backends, found {}", refs.len()),
            ));
        }
        for (j, r) in refs.iter().enumerate() {
            if let Some(w) = r.get("weight").and_then(Value::as_i64).filter(|w| *w > 1_000_000) {
                out.push(Finding::error(
                    format!("spec.rules[{i}].backendRefs[{j}].weight"),
                    format!("an HTTPRoute backend weight is at most 1000000, found {w}"),
                ));
            }
        }
    }
    if total > 127 {
        out.push(Finding::error(
            "spec.rules",
            format!("the route's rules hold {total} matches; with the generated catch-all an HTTPRoute takes at most 128 in all"),
        ));
    }
    out
}

/// The index after `prefix[` in `path`, if there is one.
fn index_after(path: &str, prefix: &str) -> Option<usize> {
    let rest = path.strip_prefix(prefix)?.strip_prefix('[')?;
    rest.split(']').next()?.parse().ok()
}

/// The ModelRouter field a Gateway object's value at `path` came from.
fn source_of(kind: &str, object: &Value, path: &str, router: &ModelRouter) -> String {
    let spec = &router.spec;
    let from = |field: String| format!("from {field}");
    let backend_index = || {
        let name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
        // The operator names them after the backend, dots as dashes.
        spec.backends.iter().position(|b| b.name.replace('.', "-") == name)
    };
    match kind {
        "Backend" | "AIServiceBackend" => match backend_index() {
            Some(i) if spec.backends[i].external.is_some() => from(format!("spec.backends[{i}].external.url")),
            Some(i) => from(format!("spec.backends[{i}]")),
            None => "from spec.backends".to_string(),
        },
        "AIGatewayRoute" => {
            if path.starts_with("spec.parentRefs") {
                return from("spec.gatewayRef".into());
            }
            if path.starts_with("spec.llmRequestCosts") {
                return from("spec.policy.budgets".into());
            }
            let rules = spec.rules.as_ref().map_or(0, Vec::len);
            match index_after(path, "spec.rules") {
                Some(i) if i < rules => {
                    let field = if path.contains(".timeouts") {
                        ".timeout"
                    } else if path.contains(".matches") {
                        ".match (models × dataClassification, and headers)"
                    } else {
                        ""
                    };
                    from(format!("spec.rules[{i}]{field}"))
                }
                Some(_) => "from the rules the operator adds: one per backend for defaultRouteStrategy \
                            BackendNameMatch, and one for spec.defaultRoute"
                    .to_string(),
                None => format!(
                    "from spec.rules ({rules}), plus one rule per backend for defaultRouteStrategy BackendNameMatch \
                     and one for spec.defaultRoute"
                ),
            }
        }
        "BackendTrafficPolicy" => {
            if path.contains(".perRetry.timeout") {
                return "from the longest of spec.rules[].timeout and spec.backends[].timeout".to_string();
            }
            match index_after(path, "spec.rateLimit.global.rules") {
                Some(i) => from(format!("spec.policy.budgets[{i}]")),
                None => from("spec.policy.budgets".into()),
            }
        }
        "SecurityPolicy" => from("spec.policy.auth".into()),
        _ => "from the ModelRouter".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The Envoy schemas are compiled without checking their patterns'
    /// syntax (`Schema::compile_built_in`); this is the check.
    #[test]
    fn the_envoy_patterns_parse() {
        let all: Value = crate::input::from_yaml_str(SCHEMAS).expect("YAML");
        for (kind, s) in all.as_object().expect("a mapping by kind") {
            assert!(Schema::compile(s).is_ok(), "{kind}");
        }
    }

    fn router() -> ModelRouter {
        serde_json::from_value(json!({"metadata": {"name": "r"}, "spec": {
            "backends": [{"name": "lab", "external": {"provider": "openai", "model": "m", "url": "http://Lab.example.com."}}],
            "rules": [{"name": "a", "route": {"backends": ["lab"]}, "timeout": "1.5s"}],
        }}))
        .expect("a router")
    }

    #[test]
    fn every_schema_compiles() {
        let kinds: Vec<&String> = {
            let mut k: Vec<&String> = schemas().keys().collect();
            k.sort();
            k
        };
        assert_eq!(kinds, ["AIGatewayRoute", "AIServiceBackend", "Backend", "BackendTrafficPolicy", "SecurityPolicy"]);
    }

    #[test]
    fn a_hostname_with_upper_case_or_a_trailing_dot_is_refused() {
        let backend = json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "Backend",
            "metadata": {"name": "lab"}, "spec": {"endpoints": [{"fqdn": {"hostname": "Lab.example.com.", "port": 80}}]}});
        let findings = check_gateway_object(&backend, &router(), &[]);
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0].path, "spec.endpoints[0].fqdn.hostname");
        assert!(findings[0].message.contains("Envoy Gateway v1.8.1"), "{}", findings[0].message);
        assert!(findings[0].message.ends_with("from spec.backends[0].external.url)"), "{}", findings[0].message);
    }

    #[test]
    fn route_limits_name_the_rule() {
        let route = json!({"apiVersion": "aigateway.envoyproxy.io/v1beta1", "kind": "AIGatewayRoute",
            "metadata": {"name": "r"}, "spec": {"parentRefs": [{"name": ""}], "rules": [
                {"matches": [{"headers": [{"name": "x a", "value": ""}, {"name": "x-b", "type": "Exact", "value": "1"},
                                          {"name": "x-b", "type": "Exact", "value": "2"}]}],
                 "backendRefs": [{"name": "lab", "priority": 0}], "timeouts": {"request": "1.5s"}}]}});
        let findings: Vec<String> =
            check_gateway_object(&route, &router(), &[]).iter().map(ToString::to_string).collect();
        let paths: Vec<&str> = findings.iter().map(|f| f.split(':').next().unwrap_or("")).collect();
        assert!(paths.contains(&"spec.parentRefs[0].name"), "{findings:?}");
        assert!(paths.contains(&"spec.rules[0].matches[0].headers[0].name"), "{findings:?}");
        assert!(paths.contains(&"spec.rules[0].matches[0].headers[0].value"), "{findings:?}");
        assert!(paths.contains(&"spec.rules[0].timeouts.request"), "{findings:?}");
        assert!(findings.iter().any(|f| f.contains("headers[2]") && f.contains("x-b")), "duplicate key: {findings:?}");
        assert!(findings.iter().any(|f| f.ends_with("from spec.rules[0].timeout)")), "{findings:?}");
        assert!(findings.iter().any(|f| f.ends_with("from spec.gatewayRef)")), "{findings:?}");
    }
}
