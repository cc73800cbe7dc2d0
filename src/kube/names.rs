//! Names, labels and annotation keys the operator puts on every object it owns
//! for a ModelRouter (its `router_common.go` contract), the Gateway objects'
//! names, and the upstream constants the stages share: the default proxy
//! image and the request headers the proxy and the gateway read.

use std::collections::BTreeMap;

/// Pod-template annotation (and ConfigMap annotation) carrying the config hash.
pub const CONFIG_HASH_ANNOTATION: &str = "inference.llmkube.dev/router-config-hash";
/// Deployment annotation recording the user pod labels the operator applied.
pub const APPLIED_POD_LABELS_ANNOTATION: &str = "inference.llmkube.dev/applied-pod-labels";
/// Deployment annotation recording the user pod annotations the operator applied.
pub const APPLIED_POD_ANNOTATIONS_ANNOTATION: &str = "inference.llmkube.dev/applied-pod-annotations";
/// Selector label naming the owning ModelRouter.
pub const MODEL_ROUTER_LABEL: &str = "inference.llmkube.dev/model-router";

/// The scrape annotations the operator adds with `--emit-scrape-annotations`,
/// and removes again (when still at these values) once it runs without it.
pub const SCRAPE_ANNOTATIONS: [(&str, &str); 3] =
    [("prometheus.io/scrape", "true"), ("prometheus.io/path", "/metrics"), ("prometheus.io/port", "9090")];

/// The key of the compiled config inside the ConfigMap.
pub const CONFIG_KEY: &str = "config.json";
/// Where the ConfigMap is mounted in the proxy container.
pub const CONFIG_MOUNT_PATH: &str = "/etc/llmkube/router";
/// The proxy container's name.
pub const CONTAINER_NAME: &str = "router-proxy";
/// The proxy's data-plane port.
pub const PROXY_PORT: i32 = 8080;
/// The proxy's metrics port.
pub const METRICS_PORT: i32 = 9090;

/// The proxy image the operator runs without `--router-proxy-image` and
/// without `spec.proxy.image`.
pub const DEFAULT_PROXY_IMAGE: &str = "ghcr.io/defilantech/llmkube-router-proxy:dev";

/// The classification header when the router names none (upstream
/// `defaultClassificationHeaderKey`, and the proxy's `ClassificationHeader()`).
pub const DEFAULT_CLASSIFICATION_HEADER: &str = "x-llmkube-classification";
/// The header the proxy reads a request's task complexity from.
pub const TASK_COMPLEXITY_HEADER: &str = "x-llmkube-task-complexity";
/// The header the AI gateway copies the request's model into.
pub const MODEL_HEADER: &str = "x-ai-eg-model";
/// Where a verified team claim lands, and what team budgets key on
/// (upstream `defaultTeamHeaderKey`).
pub const DEFAULT_TEAM_HEADER: &str = "x-llmkube-team";

/// Dots are legal in a custom resource name but not in a Service name.
pub fn sanitize_dns_name(name: &str) -> String {
    name.replace('.', "-")
}

/// The name shared by every object owned by the ModelRouter `router_name`.
pub fn resource_name(router_name: &str) -> String {
    // Asked for a dozen times per router: pushed, not formatted.
    let mut name = sanitize_dns_name(router_name);
    name.push_str("-router-proxy");
    name
}

/// The name of a Gateway router's AIGatewayRoute and of the policies that
/// target its HTTPRoute (upstream `modelRouterGatewayResourceName`).
pub fn gateway_resource_name(router_name: &str) -> String {
    sanitize_dns_name(router_name)
}

/// The name of the Backend and the AIServiceBackend written for one of a
/// Gateway router's backends, which the route's `backendRefs` name.
pub fn gateway_backend_name(backend_name: &str) -> String {
    sanitize_dns_name(backend_name)
}

/// The in-cluster host of the Service an InferenceService serves behind.
pub fn inference_service_host(name: &str, namespace: &str) -> String {
    format!("{}.{namespace}.svc.cluster.local", sanitize_dns_name(name))
}

/// The selector labels: the Deployment's `matchLabels` and the Service's
/// selector. Immutable for the Deployment's lifetime, so never extended by
/// user pod labels.
pub fn selector_labels(router_name: &str) -> BTreeMap<String, String> {
    BTreeMap::from([
        ("app".to_string(), resource_name(router_name)),
        (MODEL_ROUTER_LABEL.to_string(), router_name.to_string()),
    ])
}

/// Labels on every owned object: the selector labels plus the standard
/// `app.kubernetes.io/*` set.
pub fn owned_labels(router_name: &str) -> BTreeMap<String, String> {
    let mut labels = selector_labels(router_name);
    labels.insert("app.kubernetes.io/name".into(), "llmkube".into());
    labels.insert("app.kubernetes.io/component".into(), "router-proxy".into());
    labels.insert("app.kubernetes.io/managed-by".into(), "llmkube-controller".into());
    labels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_become_dashes_only_in_object_names() {
        assert_eq!(resource_name("team.a.router"), "team-a-router-router-proxy");
        let s = selector_labels("team.a.router");
        assert_eq!(s["app"], "team-a-router-router-proxy");
        // The model-router label keeps the ModelRouter's own name.
        assert_eq!(s[MODEL_ROUTER_LABEL], "team.a.router");
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn owned_labels_extend_the_selector() {
        let l = owned_labels("r");
        assert_eq!(l.len(), 5);
        for (k, v) in selector_labels("r") {
            assert_eq!(l.get(&k), Some(&v));
        }
        assert_eq!(l["app.kubernetes.io/managed-by"], "llmkube-controller");
    }
}
