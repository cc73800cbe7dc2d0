//! The ModelRouter custom resource (`inference.llmkube.dev/v1alpha1`), with
//! the fields the operator's render path reads.
//!
//! Optional fields stay `Option` so that "absent" and "empty" remain distinct,
//! as they are for the Go operator (an empty `resources.requests` map is not
//! the same as no requests at all).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::object::{LocalRef, Metadata};

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct ModelRouter {
    #[serde(default)]
    pub metadata: Metadata,
    pub spec: ModelRouterSpec,
}

/// `spec.dataPlane` (upstream `ModelRouterDataPlane`): how a ModelRouter
/// serves traffic, spelled as the CRD spells it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub enum DataPlane {
    /// The managed router-proxy Deployment; the CRD's default.
    #[default]
    Proxy,
    /// The router compiled onto a pre-installed Envoy AI Gateway.
    Gateway,
}

impl DataPlane {
    /// As `spec.dataPlane` spells it.
    pub fn label(self) -> &'static str {
        match self {
            DataPlane::Proxy => "Proxy",
            DataPlane::Gateway => "Gateway",
        }
    }
}

impl std::fmt::Display for DataPlane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ModelRouterSpec {
    /// Absent reads as the CRD's default, `Proxy` (also where a release
    /// without the field prunes it).
    #[serde(default)]
    pub data_plane: DataPlane,
    /// The Gateway a `dataPlane: Gateway` router's route attaches to.
    #[serde(default)]
    pub gateway_ref: Option<GatewayReference>,
    pub backends: Vec<RouterBackend>,
    #[serde(default)]
    pub rules: Option<Vec<RouterRule>>,
    #[serde(default)]
    pub default_route: Option<String>,
    #[serde(default)]
    pub default_route_strategy: Option<String>,
    #[serde(default)]
    pub policy: Option<RouterPolicy>,
    #[serde(default)]
    pub endpoint: Option<EndpointSpec>,
    #[serde(default)]
    pub proxy: Option<RouterProxySpec>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RouterBackend {
    pub name: String,
    #[serde(default)]
    pub display_name: Option<String>,
    #[serde(default)]
    pub inference_service_ref: Option<LocalRef>,
    #[serde(default)]
    pub external: Option<ExternalProvider>,
    #[serde(default)]
    pub tier: Option<String>,
    #[serde(default)]
    pub capabilities: Option<Vec<String>>,
    #[serde(default)]
    pub weight: Option<i32>,
    /// A Go duration string (metav1.Duration).
    #[serde(default)]
    pub timeout: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ExternalProvider {
    pub provider: String,
    #[serde(default)]
    pub url: Option<String>,
    pub model: String,
    #[serde(default)]
    pub credentials_secret_ref: Option<LocalRef>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RouterRule {
    pub name: String,
    #[serde(default, rename = "match")]
    pub match_: Option<RuleMatch>,
    pub route: RuleRoute,
    #[serde(default)]
    pub fail_closed: Option<bool>,
    /// A Go duration string (metav1.Duration).
    #[serde(default)]
    pub timeout: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RuleMatch {
    #[serde(default)]
    pub data_classification: Option<Vec<String>>,
    #[serde(default)]
    pub task_complexity: Option<String>,
    #[serde(default)]
    pub required_capabilities: Option<Vec<String>>,
    #[serde(default, rename = "latencySLOMs")]
    pub latency_slo_ms: Option<i32>,
    #[serde(default)]
    pub headers: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub models: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RuleRoute {
    pub backends: Vec<String>,
    #[serde(default)]
    pub strategy: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RouterPolicy {
    #[serde(default)]
    pub budgets: Option<Vec<BudgetSpec>>,
    #[serde(default)]
    pub classification: Option<ClassificationPolicy>,
    #[serde(default)]
    pub audit_log: Option<AuditLogPolicy>,
    /// Gateway-mode authentication and per-team authorization.
    #[serde(default)]
    pub auth: Option<RouterAuthSpec>,
}

/// A Gateway (gateway.networking.k8s.io) by name; an empty namespace means
/// the route's own.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct GatewayReference {
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RouterAuthSpec {
    #[serde(default)]
    pub jwt: Option<JwtAuthSpec>,
    #[serde(default)]
    pub allowlists: Option<Vec<TeamModelAllowlist>>,
}

/// JWT validation: required strings are kept as given (possibly empty) so
/// that a half-configured block can be reported the way the operator does.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct JwtAuthSpec {
    #[serde(default)]
    pub provider: String,
    #[serde(default)]
    pub issuer: String,
    #[serde(default, rename = "jwksURI")]
    pub jwks_uri: String,
    #[serde(default)]
    pub team_claim: String,
    #[serde(default)]
    pub header_key: Option<String>,
}

/// One verified team and the models it may reach (all, when empty).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct TeamModelAllowlist {
    #[serde(default)]
    pub team: String,
    #[serde(default)]
    pub models: Option<Vec<String>>,
}

/// A token or dollar cap over a rolling window. Enforced by the proxy's
/// budget tracker, not part of the compiled config; read for validation.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BudgetSpec {
    pub name: String,
    pub scope: String,
    #[serde(default)]
    pub rule_name: Option<String>,
    #[serde(default)]
    pub header_key: Option<String>,
    #[serde(default)]
    pub window_seconds: Option<i32>,
    #[serde(default)]
    pub max_tokens: Option<i64>,
    #[serde(default, rename = "maxUSD")]
    pub max_usd: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ClassificationPolicy {
    #[serde(default)]
    pub mode: Option<String>,
    #[serde(default)]
    pub header_key: Option<String>,
    #[serde(default)]
    pub sensitive_classifications: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AuditLogPolicy {
    #[serde(default)]
    pub sink: Option<String>,
    #[serde(default)]
    pub file_path: Option<String>,
    #[serde(default)]
    pub include_request_body: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct EndpointSpec {
    #[serde(default)]
    pub port: Option<i32>,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default, rename = "type")]
    pub type_: Option<String>,
    #[serde(default)]
    pub node_port: Option<i32>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RouterProxySpec {
    #[serde(default)]
    pub replicas: Option<i32>,
    #[serde(default)]
    pub revision_history_limit: Option<i32>,
    #[serde(default)]
    pub image: Option<String>,
    #[serde(default)]
    pub resources: Option<ProxyResources>,
    #[serde(default)]
    pub image_pull_secrets: Option<Vec<LocalRef>>,
    /// A Go duration string (metav1.Duration).
    #[serde(default)]
    pub quarantine_duration: Option<String>,
    /// A Go duration string (metav1.Duration).
    #[serde(default)]
    pub response_header_timeout: Option<String>,
    #[serde(default)]
    pub node_selector: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub pod_labels: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub pod_annotations: Option<BTreeMap<String, String>>,
}

/// corev1.ResourceRequirements as written in a ModelRouter. Quantities are
/// int-or-string in the schema, so they are kept as their source text until
/// canonicalized; `claims` pass through untouched.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct ProxyResources {
    #[serde(default)]
    pub limits: Option<BTreeMap<String, QuantityText>>,
    #[serde(default)]
    pub requests: Option<BTreeMap<String, QuantityText>>,
    #[serde(default)]
    pub claims: Option<Vec<serde_json::Value>>,
}

/// A quantity as written: a string (`"500m"`) or a bare YAML number (`0.5`).
#[derive(Debug, Clone, PartialEq)]
pub struct QuantityText(pub String);

impl<'de> Deserialize<'de> for QuantityText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Str(String),
            Int(i64),
            Float(f64),
        }
        let text = match Raw::deserialize(d)
            .map_err(|_| serde::de::Error::custom("a quantity must be a string such as \"500m\" or a number"))?
        {
            Raw::Str(s) => s,
            Raw::Int(i) => i.to_string(),
            Raw::Float(f) => f.to_string(),
        };
        Ok(QuantityText(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(yaml: &str) -> Result<ModelRouterSpec, String> {
        crate::input::from_yaml_str(yaml).map_err(|e| e.to_string())
    }

    /// The CRD's `dataPlane: {enum: [Proxy, Gateway], default: Proxy}`:
    /// the two spellings, case and all, and Proxy when absent.
    #[test]
    fn data_plane_as_the_crd_spells_and_defaults_it() {
        assert_eq!(spec("backends: []").map(|s| s.data_plane), Ok(DataPlane::Proxy));
        assert_eq!(spec("backends: []\ndataPlane: Gateway").map(|s| s.data_plane), Ok(DataPlane::Gateway));
        assert_eq!(spec("backends: []\ndataPlane: Proxy").map(|s| s.data_plane), Ok(DataPlane::Proxy));
        assert!(spec("backends: []\ndataPlane: gateway").is_err(), "the enum is case-sensitive");
        assert_eq!([DataPlane::Proxy.label(), DataPlane::Gateway.to_string().as_str()], ["Proxy", "Gateway"]);
    }
}
