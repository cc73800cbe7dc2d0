//! The Gateway objects' vocabulary: their API versions and groups, the
//! headers the route and policies use, the route's name, and an object's
//! identity and controller reference as the gateway reconciler creates it.

use serde_json::{json, Map, Value};

use crate::kube::names::sanitize_dns_name;
use crate::render::input::RouterInput;
use crate::render::object::owner_reference;

/// API version of Backend, BackendTrafficPolicy and SecurityPolicy.
pub const ENVOY_GATEWAY_API: &str = "gateway.envoyproxy.io/v1alpha1";
/// API version of AIServiceBackend and AIGatewayRoute.
pub const AI_GATEWAY_API: &str = "aigateway.envoyproxy.io/v1beta1";
/// The group of the Backend an AIServiceBackend points at.
pub(super) const ENVOY_GATEWAY_GROUP: &str = "gateway.envoyproxy.io";
/// The Gateway API group: parent Gateway and policy target HTTPRoute.
pub(super) const GATEWAY_API_GROUP: &str = "gateway.networking.k8s.io";
/// The header the AI gateway copies the request's model into.
pub const MODEL_HEADER: &str = "x-ai-eg-model";
/// Where a verified team claim lands, and what team budgets key on.
pub(super) const DEFAULT_TEAM_HEADER: &str = "x-llmkube-team";

/// The name of the route, and of the policies that target its HTTPRoute.
pub fn route_name(router_name: &str) -> String {
    sanitize_dns_name(router_name)
}

/// An object as the operator creates it: identity, controller reference
/// (when the ModelRouter's uid is known) and `spec`.
pub(super) fn object(input: &RouterInput, api_version: &str, kind: &str, name: String, spec: Value) -> Value {
    let mut metadata = Map::new();
    metadata.insert("name".into(), Value::String(name));
    metadata.insert("namespace".into(), Value::String(input.namespace.clone()));
    if let Some(uid) = input.uid.as_deref() {
        let r = owner_reference(&input.name, uid);
        let reference = json!({
            "apiVersion": r.api_version,
            "kind": r.kind,
            "name": r.name,
            "uid": r.uid,
            "controller": r.controller,
            "blockOwnerDeletion": r.block_owner_deletion,
        });
        metadata.insert("ownerReferences".into(), Value::Array(vec![reference]));
    }
    json!({"apiVersion": api_version, "kind": kind, "metadata": metadata, "spec": spec})
}

/// A reference from a policy to the route's HTTPRoute.
pub(super) fn http_route_target(input: &RouterInput) -> Value {
    json!([{"group": GATEWAY_API_GROUP, "kind": "HTTPRoute", "name": route_name(&input.name)}])
}
