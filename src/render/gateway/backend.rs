//! `Backend` and `AIServiceBackend`: one pair per ModelRouter backend, named
//! after the backend so that route rules can reference them.

use serde_json::{json, Value};

use super::object::object;
use super::resolve::ResolvedBackend;
use crate::kube::kinds::{AI_GATEWAY_API, ENVOY_GATEWAY_API, ENVOY_GATEWAY_GROUP};
use crate::kube::names::gateway_backend_name;
use crate::render::RouterInput;

/// The Envoy Gateway Backend: one endpoint, an `ip` one for a literal
/// address (Envoy Gateway refuses an IP given as an `fqdn` hostname).
pub fn backend(input: &RouterInput, b: &ResolvedBackend) -> Value {
    let endpoint = if b.is_ip {
        json!({"ip": {"address": b.host, "port": b.port}})
    } else {
        json!({"fqdn": {"hostname": b.host, "port": b.port}})
    };
    object(input, ENVOY_GATEWAY_API, "Backend", gateway_backend_name(&b.name), json!({"endpoints": [endpoint]}))
}

/// The AIServiceBackend wrapping that Backend with the OpenAI schema,
/// whatever the backend's provider.
pub fn ai_service_backend(input: &RouterInput, b: &ResolvedBackend) -> Value {
    let name = gateway_backend_name(&b.name);
    let spec = json!({
        "schema": {"name": "OpenAI"},
        "backendRef": {"name": name, "kind": "Backend", "group": ENVOY_GATEWAY_GROUP},
    });
    object(input, AI_GATEWAY_API, "AIServiceBackend", name, spec)
}
