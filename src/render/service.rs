//! The Service in front of the proxy pods.

use k8s_openapi::api::core::v1::{Service, ServicePort, ServiceSpec};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::names::{selector_labels, PROXY_PORT};
use super::{owned_metadata, RouterInput};

pub fn build(input: &RouterInput) -> Service {
    let endpoint = input.router.spec.endpoint.as_ref();
    let port = endpoint.and_then(|e| e.port).filter(|p| *p > 0).unwrap_or(PROXY_PORT);
    // The operator maps only the two other known types; anything else is
    // ClusterIP. `endpoint.nodePort` is not read by the operator.
    let service_type = match endpoint.and_then(|e| e.type_.as_deref()) {
        Some("NodePort") => "NodePort",
        Some("LoadBalancer") => "LoadBalancer",
        _ => "ClusterIP",
    };
    Service {
        metadata: owned_metadata(input),
        spec: Some(ServiceSpec {
            type_: Some(service_type.to_string()),
            selector: Some(selector_labels(&input.name)),
            ports: Some(vec![ServicePort {
                name: Some("http".into()),
                port,
                target_port: Some(IntOrString::Int(port)),
                protocol: Some("TCP".into()),
                ..ServicePort::default()
            }]),
            ..ServiceSpec::default()
        }),
        ..Service::default()
    }
}
