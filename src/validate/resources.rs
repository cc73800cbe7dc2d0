//! The API server's rules for a container's `resources`, checked on what
//! routerctl is about to print.
//!
//! Mirrors `validateResourceRequirements` with `validateContainerResourceName`
//! (kubernetes pkg/apis/core/validation/validation.go) and the helpers it
//! calls from pkg/apis/core/helper (`IsStandardContainerResourceName`,
//! `IsNativeResource`, `IsExtendedResourceName`, `IsOvercommitAllowed`,
//! `IsIntegerResourceName`, `IsHugePageResourceValueDivisible`). The values
//! checked are the ones the API server validates: already rounded up to a
//! milli by `SetDefaults_ResourceList`, which is what routerctl prints.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::metadata::qualified_name_errors;
use super::Finding;
use crate::input::child_path;
use crate::model::quantity::{parse_value, QuantityValue};

/// `core.ResourceHugePagesPrefix`.
const HUGEPAGES_PREFIX: &str = "hugepages-";
/// `core.ResourceDefaultNamespacePrefix`: names containing it are native.
const NATIVE_NAMESPACE: &str = "kubernetes.io/";
/// `core.DefaultResourceRequestsPrefix`, the quota spelling of a request.
const REQUESTS_PREFIX: &str = "requests.";

/// `IsNativeResource`: unprefixed, or in the `*kubernetes.io/` namespace.
fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains(NATIVE_NAMESPACE)
}

fn is_hugepages(name: &str) -> bool {
    name.starts_with(HUGEPAGES_PREFIX)
}

/// `IsExtendedResourceName`: not native, not spelled like a quota request,
/// and still a qualified name once `requests.` is put in front.
fn is_extended(name: &str) -> bool {
    !is_native(name)
        && !name.starts_with(REQUESTS_PREFIX)
        && qualified_name_errors(&format!("{REQUESTS_PREFIX}{name}")).is_empty()
}

/// `IsOvercommitAllowed`: a request may be below its limit (or have none).
fn overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_hugepages(name)
}

/// `validateContainerResourceName` (after `validateResourceName`).
fn name_errors(name: &str) -> Vec<String> {
    let qualified = qualified_name_errors(name);
    if !qualified.is_empty() {
        return qualified.into_iter().map(|e| format!("the resource name {name:?} is refused: {e}")).collect();
    }
    if !name.contains('/') {
        // IsStandardContainerResourceName.
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !is_hugepages(name) {
            return vec![format!(
                "{name:?} is not a resource a container can ask for: use cpu, memory, ephemeral-storage or \
                 hugepages-<size>, or an extended resource with a domain prefix such as example.com/gpu \
                 (`must be a standard resource for containers`)"
            )];
        }
    } else if !is_native(name) && !is_extended(name) {
        return vec![format!(
            "{name:?} is not a valid extended resource name: it may not start with \"requests.\" and \
             \"requests.{name}\" must still be a qualified name (`doesn't follow extended resource name standard`)"
        )];
    }
    Vec::new()
}

/// `IsHugePageResourceValueDivisible`: the page size (the name after
/// `hugepages-`) is a positive whole quantity and `Value()` is a multiple
/// of it.
fn hugepages_error(name: &str, text: &str, value: &QuantityValue) -> Option<String> {
    let page = name.strip_prefix(HUGEPAGES_PREFIX)?;
    let page_bytes = parse_value(page)
        .ok()
        .filter(|p| p.is_positive() && p.rounded_up_to_milli().is_integer())
        .and_then(|p| p.value());
    let divisible = match (page_bytes, value.value()) {
        (Some(page), Some(v)) => v % page == 0,
        _ => false,
    };
    (!divisible).then(|| match page_bytes {
        Some(_) => format!(
            "{text} is not a whole multiple of the page size {page} (`is not positive integer multiple of {name}`)"
        ),
        None => format!(
            "{name:?} does not name a page size: write hugepages-2Mi or hugepages-1Gi \
             (`{text} is not positive integer multiple of {name}`)"
        ),
    })
}

/// A dotted path to one entry of a resource list; keys that are not plain
/// words are quoted (`limits["example.com/gpu"]`).
fn entry_path(prefix: &str, list: &str, name: &str) -> String {
    child_path(&child_path(prefix, list), name)
}

/// One list (`limits` or `requests`) as (resource name, quantity text) pairs.
fn entries(resources: &Value, list: &str) -> Vec<(String, String)> {
    resources
        .get(list)
        .and_then(Value::as_object)
        .map(Map::iter)
        .into_iter()
        .flatten()
        .map(|(name, v)| {
            let text = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (name.clone(), text)
        })
        .collect()
}

/// Findings for one container's `resources`. `prefix` is the field the
/// values came from (`spec.proxy.resources` for the proxy container);
/// `pod_claims` are the names in the pod's `resourceClaims`.
pub fn check_resources(resources: &Value, prefix: &str, pod_claims: &BTreeSet<String>) -> Vec<Finding> {
    let mut out = Vec::new();
    let limits = entries(resources, "limits");
    let requests = entries(resources, "requests");
    let mut has_cpu_or_memory = false;
    let mut has_hugepages = false;
    for (list, items) in [("limits", &limits), ("requests", &requests)] {
        for (name, text) in items {
            // Paths are built only for a finding.
            let path = || entry_path(prefix, list, name);
            for e in name_errors(name) {
                out.push(Finding::error(path(), e));
            }
            has_cpu_or_memory |= matches!(name.as_str(), "cpu" | "memory");
            has_hugepages |= is_hugepages(name);
            let value = match parse_value(text) {
                Ok(v) => v,
                Err(e) => {
                    out.push(Finding::error(path(), e.to_string()));
                    continue;
                }
            };
            // ValidateResourceQuantityValue: ValidateNonnegativeQuantity,
            // then whole units for IsIntegerResourceName (MilliValue() %
            // 1000, MilliValue rounding up).
            if value.is_negative() {
                out.push(Finding::error(path(), format!("{text} is negative; a quantity must be 0 or more")));
            }
            if is_extended(name) && !value.rounded_up_to_milli().is_integer() {
                out.push(Finding::error(
                    path(),
                    format!(
                        "{text} is not a whole number; {name} is an extended resource, counted in whole units \
                         (`must be an integer`)"
                    ),
                ));
            }
            if let Some(e) = hugepages_error(name, text, &value) {
                out.push(Finding::error(path(), e));
            }
            if list == "requests" {
                out.extend(request_against_limit(prefix, &path, name, text, &value, &limits));
            }
        }
    }
    if has_hugepages && !has_cpu_or_memory {
        out.push(Finding::error(
            prefix,
            "hugepages need a cpu or memory request or limit beside them (`HugePages require cpu or memory`)",
        ));
    }
    out.extend(claim_errors(resources, prefix, pod_claims));
    out
}

/// The request-versus-limit rules of `validateResourceRequirements`.
fn request_against_limit(
    prefix: &str,
    path: &dyn Fn() -> String,
    name: &str,
    text: &str,
    value: &QuantityValue,
    limits: &[(String, String)],
) -> Option<Finding> {
    let limit_path = || entry_path(prefix, "limits", name);
    let Some((_, limit_text)) = limits.iter().find(|(n, _)| n == name) else {
        return (!overcommit_allowed(name)).then(|| {
            let limit_path = limit_path();
            Finding::error(
                path(),
                format!(
                    "{name} cannot be overcommitted, so a request needs a limit: set {limit_path} to {text} \
                     (`Limit must be set for non overcommitable resources`)"
                ),
            )
        });
    };
    let limit = parse_value(limit_text).ok()?;
    let order = value.cmp(&limit);
    if order != std::cmp::Ordering::Equal && !overcommit_allowed(name) {
        let limit_path = limit_path();
        Some(Finding::error(
            path(),
            format!(
                "{text} differs from the limit {limit_text} ({limit_path}); {name} cannot be overcommitted, so \
                 its request must equal its limit"
            ),
        ))
    } else if order == std::cmp::Ordering::Greater {
        let limit_path = limit_path();
        Some(Finding::error(
            path(),
            format!("{text} is more than the limit {limit_text} ({limit_path}); a request must be at most its limit"),
        ))
    } else {
        None
    }
}

/// `validateResourceClaimNames`: every claim names an entry of the pod's
/// `resourceClaims`, once.
fn claim_errors(resources: &Value, prefix: &str, pod_claims: &BTreeSet<String>) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(claims) = resources.get("claims").and_then(Value::as_array) else { return out };
    let mut seen = BTreeSet::new();
    for (i, claim) in claims.iter().enumerate() {
        let path = format!("{prefix}.claims[{i}].name");
        let name = claim.get("name").and_then(Value::as_str).unwrap_or("");
        let request = claim.get("request").and_then(Value::as_str).unwrap_or("");
        if name.is_empty() {
            out.push(Finding::error(path, "a claim needs a name"));
            continue;
        }
        if !seen.insert(format!("{name}/{request}")) {
            out.push(Finding::error(&path, format!("{name:?} is listed twice")));
        }
        if !pod_claims.contains(name) {
            let declared = if pod_claims.is_empty() {
                "the pod template declares none".to_string()
            } else {
                format!("the pod template declares {}", pod_claims.iter().cloned().collect::<Vec<_>>().join(", "))
            };
            out.push(Finding::error(
                path,
                format!(
                    "{name:?} is not one of the pod's resourceClaims ({declared}), so the API server refuses it \
                     (`must be one of the names in pod.spec.resourceClaims`); remove the claim"
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

    fn check(resources: Value) -> Vec<String> {
        check_resources(&resources, "spec.proxy.resources", &BTreeSet::new()).into_iter().map(|f| f.path).collect()
    }

    /// Resource names, each worked out from `validateContainerResourceName`
    /// and the helpers it calls: (name, accepted as a limit of 1).
    #[test]
    fn resource_names() {
        let cases = [
            ("cpu", true),
            ("memory", true),
            ("ephemeral-storage", true),
            ("storage", false),                  // standard, but not for containers
            ("pods", false),                     // ditto
            ("gpu", false),                      // unprefixed and not standard
            ("nvidia.com/gpu", true),            // extended
            ("example.com/foo", true),           // extended
            ("kubernetes.io/foo", true),         // native: the name check lets it pass
            ("requests.example.com/foo", false), // quota spelling
            ("example.com/", false),             // empty name part
            ("Example.com/foo", false),          // prefix must be a lowercase DNS subdomain
            ("a/b/c", false),                    // not a qualified name
        ];
        for (name, ok) in cases {
            let paths = check(json!({"limits": {name: "1"}, "requests": {name: "1"}}));
            let named = paths.iter().any(|p| p.contains(name.trim_end_matches('/')));
            assert_eq!(!named, ok, "{name}: {paths:?}");
        }
    }

    /// Values, from `ValidateResourceQuantityValue` and the request/limit
    /// comparisons of `validateResourceRequirements`: (limits, requests,
    /// the paths refused).
    #[test]
    fn values_against_limits() {
        let cases: Vec<(Value, Value, Vec<&str>)> = vec![
            (json!({"cpu": "-1"}), json!({}), vec!["spec.proxy.resources.limits.cpu"]),
            (json!({}), json!({"memory": "-64Mi"}), vec!["spec.proxy.resources.requests.memory"]),
            (json!({"cpu": "500m"}), json!({"cpu": "1"}), vec!["spec.proxy.resources.requests.cpu"]),
            (json!({"cpu": "1"}), json!({"cpu": "1000m"}), vec![]), // equal by value
            (json!({"cpu": "1"}), json!({"cpu": "500m"}), vec![]),  // below: allowed for cpu
            (json!({}), json!({"cpu": "8"}), vec![]),               // no limit: allowed for cpu
            (json!({"memory": "1Gi"}), json!({"memory": "1025Mi"}), vec!["spec.proxy.resources.requests.memory"]),
            // Extended resources: whole units, request == limit, a limit for every request.
            (json!({"nvidia.com/gpu": "1"}), json!({"nvidia.com/gpu": "1"}), vec![]),
            (json!({"nvidia.com/gpu": "500m"}), json!({}), vec![r#"spec.proxy.resources.limits["nvidia.com/gpu"]"#]),
            (
                json!({"nvidia.com/gpu": "2"}),
                json!({"nvidia.com/gpu": "1"}),
                vec![r#"spec.proxy.resources.requests["nvidia.com/gpu"]"#],
            ),
            (json!({}), json!({"nvidia.com/gpu": "1"}), vec![r#"spec.proxy.resources.requests["nvidia.com/gpu"]"#]),
            (json!({"example.com/foo": "0"}), json!({}), vec![]),
            // kubernetes.io/ names are native: fractions and overcommit are fine.
            (json!({"kubernetes.io/foo": "2"}), json!({"kubernetes.io/foo": "500m"}), vec![]),
        ];
        for (limits, requests, want) in cases {
            let got = check(json!({"limits": limits, "requests": requests}));
            assert_eq!(got, want, "limits {limits} requests {requests}");
        }
    }

    /// Hugepages, from `validateResourceQuantityHugePageValue`,
    /// `IsHugePageResourceValueDivisible` and the cpu-or-memory rule; hugepages
    /// are not overcommitable, so a request needs an equal limit.
    #[test]
    fn hugepages() {
        let p = "spec.proxy.resources";
        let cases: Vec<(Value, Vec<String>)> = vec![
            (json!({"limits": {"hugepages-2Mi": "4Mi", "memory": "1Gi"}}), vec![]),
            (json!({"limits": {"hugepages-2Mi": "0", "cpu": "1"}}), vec![]),
            (json!({"limits": {"hugepages-2Mi": "3Mi", "memory": "1Gi"}}), vec![format!("{p}.limits.hugepages-2Mi")]),
            (json!({"limits": {"hugepages-2Mi": "4Mi"}}), vec![p.to_string()]),
            (json!({"limits": {"hugepages-1Gi": "1Gi"}, "requests": {"hugepages-1Gi": "1Gi", "cpu": "1"}}), vec![]),
            (
                json!({"limits": {"hugepages-2Mi": "4Mi"}, "requests": {"hugepages-2Mi": "2Mi", "cpu": "1"}}),
                vec![format!("{p}.requests.hugepages-2Mi")],
            ),
            (json!({"requests": {"hugepages-2Mi": "2Mi", "cpu": "1"}}), vec![format!("{p}.requests.hugepages-2Mi")]),
            (json!({"limits": {"hugepages-big": "1Gi", "cpu": "1"}}), vec![format!("{p}.limits.hugepages-big")]),
            (json!({"limits": {"hugepages-0": "1Gi", "cpu": "1"}}), vec![format!("{p}.limits.hugepages-0")]),
            (json!({"limits": {"hugepages-1500m": "3", "cpu": "1"}}), vec![format!("{p}.limits.hugepages-1500m")]),
        ];
        for (resources, want) in cases {
            assert_eq!(check(resources.clone()), want, "{resources}");
        }
    }

    #[test]
    fn claims_must_name_a_pod_claim() {
        let resources = json!({"claims": [{"name": "gpu"}, {"name": ""}, {"name": "gpu"}]});
        let found = check_resources(&resources, "spec.proxy.resources", &BTreeSet::new());
        let paths: Vec<&str> = found.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "spec.proxy.resources.claims[0].name",
                "spec.proxy.resources.claims[1].name",
                "spec.proxy.resources.claims[2].name",
                "spec.proxy.resources.claims[2].name",
            ]
        );
        let pod_claims = BTreeSet::from(["gpu".to_string()]);
        let one = json!({"claims": [{"name": "gpu"}]});
        assert!(check_resources(&one, "spec.proxy.resources", &pod_claims).is_empty());
    }

    #[test]
    fn messages_say_what_to_do() {
        let found = check_resources(
            &json!({"limits": {"cpu": "500m"}, "requests": {"cpu": "2"}}),
            "spec.proxy.resources",
            &BTreeSet::new(),
        );
        assert_eq!(
            found[0].to_string(),
            "spec.proxy.resources.requests.cpu: 2 is more than the limit 500m (spec.proxy.resources.limits.cpu); \
             a request must be at most its limit"
        );
    }
}
