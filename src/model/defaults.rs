//! The structural-schema defaults of the ModelRouter CRD, applied as the API
//! server applies them: only where the parent object exists.
//!
//! The operator compiles the *stored* object, so skipping a default here
//! changes the compiled config and its hash (`defaultRouteStrategy: Static`
//! and every backend's `tier: local` are written into the config).

use super::router::{ModelRouter, ModelRouterSpec};
use crate::kube::names::DEFAULT_CLASSIFICATION_HEADER;

/// ModelPool `spec.swapBudget` default.
pub const DEFAULT_SWAP_BUDGET: &str = "300s";

/// Classification mode in which a dataClassification match compiles to a
/// header match.
pub const HEADER_ONLY: &str = "header-only";

/// Classifications treated as sensitive when the router lists none
/// (upstream `SensitiveSet`).
pub const DEFAULT_SENSITIVE: [&str; 2] = ["pii", "phi"];

/// The classifications a router treats as sensitive: its own non-empty
/// `sensitiveClassifications`, which replaces the defaults entirely, else
/// [`DEFAULT_SENSITIVE`] (upstream `SensitiveSet`, which the controller's
/// gate and the gateway reconciler read alike).
pub fn sensitive_classifications(spec: &ModelRouterSpec) -> Vec<&str> {
    match spec
        .policy
        .as_ref()
        .and_then(|p| p.classification.as_ref())
        .and_then(|c| c.sensitive_classifications.as_ref())
        .filter(|listed| !listed.is_empty())
    {
        Some(listed) => listed.iter().map(String::as_str).collect(),
        None => DEFAULT_SENSITIVE.to_vec(),
    }
}

/// The classification mode, `header-only` when the router sets none.
pub fn classification_mode(mr: &ModelRouter) -> &str {
    mr.spec
        .policy
        .as_ref()
        .and_then(|p| p.classification.as_ref())
        .and_then(|c| c.mode.as_deref())
        .filter(|m| !m.is_empty())
        .unwrap_or(HEADER_ONLY)
}

/// The header a header-only classification match reads
/// (`classificationHeaderKey`): the router's `headerKey`, or the default
/// when it names none.
pub fn classification_header(mr: &ModelRouterSpec) -> &str {
    mr.policy
        .as_ref()
        .and_then(|p| p.classification.as_ref())
        .and_then(|c| c.header_key.as_deref())
        .filter(|k| !k.is_empty())
        .unwrap_or(DEFAULT_CLASSIFICATION_HEADER)
}

fn default_str(slot: &mut Option<String>, value: &str) {
    if slot.is_none() {
        *slot = Some(value.to_string());
    }
}

/// Applies the CRD defaults of `crd-modelrouters.yaml` to a ModelRouter.
pub fn apply_router_defaults(mr: &mut ModelRouter) {
    let spec = &mut mr.spec;
    default_str(&mut spec.default_route_strategy, "Static");
    for b in &mut spec.backends {
        // Defaulted for external backends too, so the config builder's own
        // tier fallback (cloud for external) never fires on a real cluster.
        default_str(&mut b.tier, "local");
    }
    for rule in spec.rules.iter_mut().flatten() {
        default_str(&mut rule.route.strategy, "primary-fallback");
    }
    if let Some(ep) = &mut spec.endpoint {
        if ep.port.is_none() {
            ep.port = Some(8080);
        }
        default_str(&mut ep.path, "/v1/chat/completions");
        default_str(&mut ep.type_, "ClusterIP");
    }
    if let Some(policy) = &mut spec.policy {
        if let Some(c) = &mut policy.classification {
            default_str(&mut c.mode, "header-only");
        }
        if let Some(a) = &mut policy.audit_log {
            default_str(&mut a.sink, "stdout");
        }
        // The gateway data plane scales each token cap to this window.
        for b in policy.budgets.iter_mut().flatten() {
            if b.window_seconds.is_none() {
                b.window_seconds = Some(3600);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::router::{DataPlane, EndpointSpec, RouterBackend, RouterRule};

    fn router(yaml: &str) -> ModelRouter {
        crate::input::from_yaml_str(yaml).expect("test fixture parses")
    }

    #[test]
    fn defaults_fill_absent_fields_only() {
        let mut mr = router(
            "spec:\n  backends:\n  - name: a\n    external: {provider: openai, model: m}\n  - name: b\n    tier: cloud\n  rules:\n  - name: r\n    route: {backends: [a]}\n  - name: s\n    route: {backends: [a], strategy: shadow}\n",
        );
        apply_router_defaults(&mut mr);
        assert_eq!(mr.spec.data_plane, DataPlane::Proxy);
        assert_eq!(mr.spec.default_route_strategy.as_deref(), Some("Static"));
        let tiers: Vec<_> = mr.spec.backends.iter().map(|b: &RouterBackend| b.tier.clone()).collect();
        // External backends default to local too: the schema default knows no better.
        assert_eq!(tiers, vec![Some("local".into()), Some("cloud".into())]);
        let strategies: Vec<_> =
            mr.spec.rules.iter().flatten().map(|r: &RouterRule| r.route.strategy.clone()).collect();
        assert_eq!(strategies, vec![Some("primary-fallback".into()), Some("shadow".into())]);
        // No endpoint, no policy: nothing is invented under an absent parent.
        assert_eq!(mr.spec.endpoint, None);
        assert_eq!(mr.spec.policy, None);
    }

    #[test]
    fn endpoint_defaults_apply_when_the_object_exists() {
        let mut mr = router("spec:\n  backends: []\n  endpoint: {type: NodePort}\n");
        apply_router_defaults(&mut mr);
        assert_eq!(
            mr.spec.endpoint,
            Some(EndpointSpec {
                port: Some(8080),
                path: Some("/v1/chat/completions".into()),
                type_: Some("NodePort".into()),
                node_port: None,
            })
        );
    }

    #[test]
    fn policy_defaults_apply_per_present_block() {
        let mut mr = router("spec:\n  backends: []\n  policy:\n    auditLog: {filePath: /x}\n");
        apply_router_defaults(&mut mr);
        let policy = mr.spec.policy.expect("policy kept");
        assert_eq!(policy.audit_log.and_then(|a| a.sink).as_deref(), Some("stdout"));
        assert_eq!(policy.classification, None);
    }
}
