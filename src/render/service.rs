//! The Service in front of the proxy pods.

use serde_json::{json, Value};

use super::input::RouterInput;
use super::object::{fields, object, owned_metadata, string_object};
use crate::kube::names::{selector_labels, PROXY_PORT};

pub fn build(input: &RouterInput) -> Value {
    let endpoint = input.router.spec.endpoint.as_ref();
    let port = endpoint.and_then(|e| e.port).filter(|p| *p > 0).unwrap_or(PROXY_PORT);
    // The operator maps only the two other known types; anything else is
    // ClusterIP. `endpoint.nodePort` is not read by the operator.
    let service_type = match endpoint.and_then(|e| e.type_.as_deref()) {
        Some("NodePort") => "NodePort",
        Some("LoadBalancer") => "LoadBalancer",
        _ => "ClusterIP",
    };
    let mut service = object("v1", "Service", owned_metadata(input));
    service.insert(
        "spec".into(),
        fields([
            ("type", Value::from(service_type)),
            ("selector", string_object(selector_labels(&input.name))),
            ("ports", json!([{"name": "http", "port": port, "targetPort": port, "protocol": "TCP"}])),
        ]),
    );
    Value::Object(service)
}
