//! The kinds the operator writes for a ModelRouter, by data plane, and the
//! LLMKube kinds it reads: one list, used by rendering, by the pipeline's
//! look-up of a router's live objects, and by the cluster reader's
//! `kubectl get`.

use super::ObjectKey;

/// A kind as the operator writes it and as `kubectl get` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    pub api_version: &'static str,
    pub kind: &'static str,
    /// The resource, fully qualified for `kubectl get` (`deployment.apps`),
    /// so that another group's kind of the same name is never read instead.
    pub resource: &'static str,
}

impl Kind {
    /// The identity of the object of this kind named `name` in `namespace`.
    pub fn key(&self, namespace: &str, name: &str) -> ObjectKey {
        ObjectKey {
            api_version: self.api_version.to_string(),
            kind: self.kind.to_string(),
            namespace: namespace.to_string(),
            name: name.to_string(),
        }
    }
}

/// API version of Role and RoleBinding.
pub const RBAC_API_VERSION: &str = "rbac.authorization.k8s.io/v1";
/// API version of Backend, BackendTrafficPolicy and SecurityPolicy.
pub const ENVOY_GATEWAY_API: &str = "gateway.envoyproxy.io/v1alpha1";
/// API version of AIServiceBackend and AIGatewayRoute.
pub const AI_GATEWAY_API: &str = "aigateway.envoyproxy.io/v1beta1";
/// The group of the Backend an AIServiceBackend points at.
pub const ENVOY_GATEWAY_GROUP: &str = "gateway.envoyproxy.io";
/// The Gateway API group: parent Gateway and policy target HTTPRoute.
pub const GATEWAY_API_GROUP: &str = "gateway.networking.k8s.io";

const fn kind(api_version: &'static str, kind: &'static str, resource: &'static str) -> Kind {
    Kind { api_version, kind, resource }
}

/// The router-proxy data plane, in the operator's write order (the RBAC
/// objects only for pooled routers).
pub const PROXY_KINDS: [Kind; 6] = [
    kind("v1", "ConfigMap", "configmap"),
    kind("v1", "ServiceAccount", "serviceaccount"),
    kind(RBAC_API_VERSION, "Role", "role.rbac.authorization.k8s.io"),
    kind(RBAC_API_VERSION, "RoleBinding", "rolebinding.rbac.authorization.k8s.io"),
    kind("apps/v1", "Deployment", "deployment.apps"),
    kind("v1", "Service", "service"),
];

/// The Gateway data plane (Envoy Gateway and Envoy AI Gateway), in the
/// operator's write order (per backend a Backend and an AIServiceBackend;
/// the SecurityPolicy only with JWT).
pub const GATEWAY_KINDS: [Kind; 5] = [
    kind(ENVOY_GATEWAY_API, "Backend", "backends.gateway.envoyproxy.io"),
    kind(AI_GATEWAY_API, "AIServiceBackend", "aiservicebackends.aigateway.envoyproxy.io"),
    kind(ENVOY_GATEWAY_API, "SecurityPolicy", "securitypolicies.gateway.envoyproxy.io"),
    kind(AI_GATEWAY_API, "AIGatewayRoute", "aigatewayroutes.aigateway.envoyproxy.io"),
    kind(ENVOY_GATEWAY_API, "BackendTrafficPolicy", "backendtrafficpolicies.gateway.envoyproxy.io"),
];

/// The InferenceServices a Gateway router's health and existence are read
/// from.
pub const INFERENCE_SERVICE: Kind =
    kind("inference.llmkube.dev/v1alpha1", "InferenceService", "inferenceservices.inference.llmkube.dev");

/// The ModelRouter CRD, as `kubectl get` names the resource and the
/// object: its schema says which fields the cluster's API server keeps.
pub const MODEL_ROUTER_CRD: (&str, &str) =
    ("customresourcedefinitions.apiextensions.k8s.io", "modelrouters.inference.llmkube.dev");

/// The data planes a namespace's routers use: what the cluster reader asks
/// kubectl for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Planes {
    pub proxy: bool,
    pub gateway: bool,
}

impl Planes {
    /// The resources to list for these planes, comma-separated for one
    /// `kubectl get`: the proxy kinds always (a router switched to the
    /// Gateway plane leaves them behind), the Gateway kinds and the
    /// InferenceServices their health comes from only when a router there
    /// uses that plane (a cluster without Envoy's CRDs refuses the names).
    pub fn resources(&self) -> String {
        let mut names: Vec<&str> = PROXY_KINDS.iter().map(|k| k.resource).collect();
        if self.gateway {
            names.extend(GATEWAY_KINDS.iter().map(|k| k.resource));
            names.push(INFERENCE_SERVICE.resource);
        }
        names.join(",")
    }

    /// Whether a kind is listed for these planes.
    pub fn lists(&self, api_version: &str, kind: &str) -> bool {
        let is = |k: &Kind| k.api_version == api_version && k.kind == kind;
        PROXY_KINDS.iter().any(is) || (self.gateway && (GATEWAY_KINDS.iter().any(is) || is(&INFERENCE_SERVICE)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proxy_namespace_lists_the_proxy_kinds_only() {
        let proxy = Planes { proxy: true, gateway: false };
        assert_eq!(
            proxy.resources(),
            "configmap,serviceaccount,role.rbac.authorization.k8s.io,rolebinding.rbac.authorization.k8s.io,deployment.apps,service"
        );
        assert!(proxy.lists("apps/v1", "Deployment"));
        assert!(!proxy.lists("gateway.envoyproxy.io/v1alpha1", "Backend"));
        let both = Planes { proxy: true, gateway: true };
        assert!(both.resources().ends_with(",inferenceservices.inference.llmkube.dev"));
        assert!(both.lists("inference.llmkube.dev/v1alpha1", "InferenceService"));
        assert!(both.lists("aigateway.envoyproxy.io/v1beta1", "AIGatewayRoute"));
    }
}
