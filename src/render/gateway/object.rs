//! A Gateway object's identity and controller reference as the gateway
//! reconciler creates it, and the reference from a policy to the route.

use serde_json::{json, Map, Value};

use crate::kube::kinds::GATEWAY_API_GROUP;
use crate::kube::names::gateway_resource_name;
use crate::render::input::RouterInput;
use crate::render::object::owner_reference;

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
    json!([{"group": GATEWAY_API_GROUP, "kind": "HTTPRoute", "name": gateway_resource_name(&input.name)}])
}
