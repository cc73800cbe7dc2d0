//! The API server's defaults for the Envoy Gateway and Envoy AI Gateway
//! objects the gateway reconciler writes, so that a stored object diffs as
//! no change against what the operator would write.
//!
//! The values are the structural-schema `default`s of the CRDs the
//! operator's builders target (Envoy Gateway v1.8.1, Envoy AI Gateway
//! v0.7.0), for the fields under objects those builders emit (and a few
//! siblings people add by hand). Like every CRD default they apply only
//! where the parent object exists; another CRD version may default
//! differently.

use serde_json::{json, Map, Value};

/// One default: the path of the field (`[]` steps into every list item)
/// and its value.
type Default = (&'static [&'static str], fn() -> Value);

const BACKEND: &[Default] = &[
    (&["spec", "type"], || json!("Endpoints")),
    (&["spec", "tls", "insecureSkipVerify"], || json!(false)),
    (&["spec", "tls", "clientCertificateRef", "group"], || json!("")),
    (&["spec", "tls", "clientCertificateRef", "kind"], || json!("Secret")),
];

const BACKEND_TRAFFIC_POLICY: &[Default] = &[
    (&["spec", "retry", "numRetries"], || json!(2)),
    (&["spec", "healthCheck", "active", "healthyThreshold"], || json!(1)),
    (&["spec", "healthCheck", "active", "interval"], || json!("3s")),
    (&["spec", "healthCheck", "active", "timeout"], || json!("1s")),
    (&["spec", "healthCheck", "active", "unhealthyThreshold"], || json!(3)),
    (&["spec", "healthCheck", "passive", "alwaysEjectOneEndpoint"], || json!(false)),
    (&["spec", "healthCheck", "passive", "baseEjectionTime"], || json!("30s")),
    (&["spec", "healthCheck", "passive", "consecutive5XxErrors"], || json!(5)),
    (&["spec", "healthCheck", "passive", "consecutiveLocalOriginFailures"], || json!(5)),
    (&["spec", "healthCheck", "passive", "interval"], || json!("3s")),
    (&["spec", "healthCheck", "passive", "maxEjectionPercent"], || json!(10)),
    (&["spec", "healthCheck", "passive", "splitExternalLocalOriginErrors"], || json!(false)),
    (&["spec", "rateLimit", "global", "rules", "[]", "clientSelectors", "[]", "headers", "[]", "invert"], || {
        json!(false)
    }),
    (&["spec", "rateLimit", "global", "rules", "[]", "clientSelectors", "[]", "headers", "[]", "type"], || {
        json!("Exact")
    }),
];

const SECURITY_POLICY: &[Default] = &[
    (&["spec", "jwt", "providers", "[]", "remoteJWKS", "cacheDuration"], || json!("300s")),
    (&["spec", "authorization", "rules", "[]", "principal", "jwt", "claims", "[]", "valueType"], || json!("String")),
];

const AI_GATEWAY_ROUTE: &[Default] = &[
    (&["spec", "parentRefs", "[]", "group"], || json!("gateway.networking.k8s.io")),
    (&["spec", "parentRefs", "[]", "kind"], || json!("Gateway")),
    (&["spec", "rules", "[]", "backendRefs", "[]", "priority"], || json!(0)),
    (&["spec", "rules", "[]", "backendRefs", "[]", "weight"], || json!(1)),
    (&["spec", "rules", "[]", "matches", "[]", "headers", "[]", "type"], || json!("Exact")),
    (&["spec", "rules", "[]", "modelsOwnedBy"], || json!("Envoy AI Gateway")),
];

const AI_SERVICE_BACKEND: &[Default] =
    &[(&["spec", "backendRef", "group"], || json!("")), (&["spec", "backendRef", "kind"], || json!("Service"))];

/// Applies the defaults of the gateway kinds; other objects are untouched.
pub fn apply_gateway_defaults(api_version: &str, kind: &str, object: &mut Map<String, Value>) {
    let table = match (api_version, kind) {
        ("gateway.envoyproxy.io/v1alpha1", "Backend") => BACKEND,
        ("gateway.envoyproxy.io/v1alpha1", "BackendTrafficPolicy") => BACKEND_TRAFFIC_POLICY,
        ("gateway.envoyproxy.io/v1alpha1", "SecurityPolicy") => SECURITY_POLICY,
        ("aigateway.envoyproxy.io/v1beta1", "AIGatewayRoute") => AI_GATEWAY_ROUTE,
        ("aigateway.envoyproxy.io/v1beta1", "AIServiceBackend") => AI_SERVICE_BACKEND,
        _ => return,
    };
    for (path, value) in table {
        default_in(object, path, *value);
    }
}

/// Sets the last step of `path` to `value()` where it is missing, in every
/// object the earlier steps reach without creating any.
fn default_in(object: &mut Map<String, Value>, path: &[&str], value: fn() -> Value) {
    let Some((first, rest)) = path.split_first() else { return };
    if rest.is_empty() {
        object.entry(first.to_string()).or_insert_with(value);
        return;
    }
    match object.get_mut(*first) {
        Some(Value::Object(child)) => default_in(child, rest, value),
        Some(Value::Array(items)) if rest.first() == Some(&"[]") => {
            for item in items.iter_mut() {
                if let Value::Object(child) = item {
                    default_in(child, &rest[1..], value);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaulted(mut v: Value) -> Value {
        let api_version = v["apiVersion"].as_str().unwrap_or("").to_string();
        let kind = v["kind"].as_str().unwrap_or("").to_string();
        if let Value::Object(m) = &mut v {
            apply_gateway_defaults(&api_version, &kind, m);
        }
        v
    }

    #[test]
    fn route_references_get_priority_weight_and_rules_their_owner() {
        let v = defaulted(json!({"apiVersion": "aigateway.envoyproxy.io/v1beta1", "kind": "AIGatewayRoute",
            "spec": {"rules": [{"backendRefs": [{"name": "a", "priority": 1}], "matches": [{}]}]}}));
        assert_eq!(
            v["spec"]["rules"][0],
            json!({"backendRefs": [{"name": "a", "priority": 1, "weight": 1}], "matches": [{}], "modelsOwnedBy": "Envoy AI Gateway"})
        );
        // No parentRefs: nothing invented.
        assert!(v["spec"].get("parentRefs").is_none());
    }

    #[test]
    fn defaults_apply_only_under_existing_parents() {
        let v = defaulted(json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "BackendTrafficPolicy",
            "spec": {"healthCheck": {"passive": {"consecutive5XxErrors": 3}}}}));
        assert_eq!(v["spec"]["healthCheck"]["passive"]["consecutive5XxErrors"], 3);
        assert_eq!(v["spec"]["healthCheck"]["passive"]["consecutiveLocalOriginFailures"], 5);
        assert!(v["spec"]["healthCheck"].get("active").is_none());
        assert!(v["spec"].get("retry").is_none());
        let other = json!({"apiVersion": "v1", "kind": "Backend", "spec": {}});
        assert_eq!(defaulted(other.clone()), other);
    }
}
