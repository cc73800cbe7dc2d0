//! The Gateway data plane: what the operator's gateway reconciler writes for
//! a `dataPlane: Gateway` ModelRouter, in its order — per backend a
//! `Backend` (gateway.envoyproxy.io) and an `AIServiceBackend`
//! (aigateway.envoyproxy.io), the `SecurityPolicy` when `policy.auth.jwt` is
//! set, the one multi-rule `AIGatewayRoute` attached to `spec.gatewayRef`,
//! and the `BackendTrafficPolicy` targeting the route's HTTPRoute.
//!
//! Pure: backends arrive resolved ([`resolve`]), objects leave as JSON
//! trees. The gateway objects carry no labels, only name, namespace, the
//! controller reference and `spec`, as the operator creates them.

mod backend;
mod object;
pub mod resolve;
mod route;
pub mod rules;
mod security_policy;
mod traffic_policy;

use anyhow::Result;
use serde_json::Value;

use crate::release::{Change, Release};
use crate::render::input::RouterInput;
pub use resolve::{resolve_backends, IsvcFacts, Resolution, ResolvedBackend};

/// What the gateway reconciler writes for one ModelRouter.
#[derive(Debug, Clone)]
pub struct GatewayRendered {
    /// Backend and AIServiceBackend per backend, [SecurityPolicy,]
    /// AIGatewayRoute, BackendTrafficPolicy.
    pub objects: Vec<Value>,
    /// Backends dropped from at least one route rule as unhealthy, sorted.
    pub ejected: Vec<String>,
    /// What each rule of the AIGatewayRoute was compiled from, in the
    /// route's order.
    pub origins: Vec<rules::RuleOrigin>,
}

/// Renders a Gateway-mode router from its resolved backends as the
/// operator of `release` does. The router has passed the gateway
/// reconciler's up-front checks.
pub fn render_gateway(input: &RouterInput, backends: &[ResolvedBackend], release: Release) -> Result<GatewayRendered> {
    let mr = &input.router;
    let mut compiled = rules::compile_rules(mr)?;
    // Route rules carry their timeout from v0.8.9 (#748).
    if !release.has(Change::GatewayRuleTimeouts) {
        for rule in &mut compiled {
            rule.timeout_nanos = None;
        }
    }
    let mut objects = Vec::with_capacity(backends.len() * 2 + 3);
    for b in backends {
        objects.push(backend::backend(input, b));
        objects.push(backend::ai_service_backend(input, b));
    }
    let policy = mr.spec.policy.as_ref();
    let auth = policy.and_then(|p| p.auth.as_ref());
    if let Some(jwt) = auth.and_then(|a| a.jwt.as_ref()) {
        let allowlists = auth.and_then(|a| a.allowlists.as_deref()).unwrap_or_default();
        objects.push(security_policy::security_policy(input, jwt, allowlists));
    }
    // Every backend keeps its Backend and AIServiceBackend; only the route's
    // references drop the unhealthy ones.
    let (compiled, ejected) = rules::eject_unhealthy(compiled, backends);
    let budgets = policy.and_then(|p| p.budgets.as_deref()).unwrap_or_default();
    objects.push(route::ai_gateway_route(input, &compiled, !budgets.is_empty())?);
    objects.push(traffic_policy::backend_traffic_policy(input, budgets, release)?);
    let origins = compiled.into_iter().map(|rule| rule.origin).collect();
    Ok(GatewayRendered { objects, ejected, origins })
}
