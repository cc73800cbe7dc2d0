//! `routerctl version`: which routerctl this is, the API it reads and the
//! operator behaviour it reproduces — what to compare with a cluster before
//! trusting a diff.

use anyhow::Result;
use serde_json::{json, Value};

use super::{text_outcome, Outcome};
use crate::cli::VersionFormat;
use crate::model::GROUP;
use crate::render::gojson::{marshal_indent, GoJson};
use crate::render::DEFAULT_PROXY_IMAGE;
use crate::validate::crd::{BUILT_FOR_VERSION, CRD_NAME};

/// `routerctl version`, as text or JSON.
pub(super) fn run(output: Option<VersionFormat>) -> Result<Outcome> {
    match output {
        None => text_outcome(&text(), 0),
        Some(VersionFormat::Json) => text_outcome(&json(), 0),
    }
}

/// The objects the operator writes for a ModelRouter, in its order.
const OBJECTS: [&str; 6] = ["ConfigMap", "ServiceAccount", "Role", "RoleBinding", "Deployment", "Service"];

/// The objects the gateway reconciler writes for a `dataPlane: Gateway` router.
const GATEWAY_OBJECTS: [&str; 5] =
    ["Backend", "AIServiceBackend", "SecurityPolicy", "AIGatewayRoute", "BackendTrafficPolicy"];

/// The version report as a tree (the `-o json` form).
pub fn info() -> Value {
    json!({
        "routerctl": env!("CARGO_PKG_VERSION"),
        "api": {"group": GROUP, "version": BUILT_FOR_VERSION, "kind": "ModelRouter", "crd": CRD_NAME},
        "operator": {
            "project": "LLMKube",
            "reconcile": "ModelRouter, router-proxy and Gateway data planes",
            "objects": OBJECTS,
            "gatewayObjects": GATEWAY_OBJECTS,
            "pooledOnly": ["ServiceAccount", "Role", "RoleBinding"],
            "defaultProxyImage": DEFAULT_PROXY_IMAGE,
        },
    })
}

/// Plain text, one fact a line.
pub fn text() -> String {
    format!(
        "routerctl {}\n\
         API: {GROUP}/{BUILT_FOR_VERSION} ModelRouter (CRD {CRD_NAME})\n\
         Operator: LLMKube ModelRouter reconcile, router-proxy data plane: ConfigMap, Deployment, Service; \
         ServiceAccount, Role, RoleBinding for pooled routers\n\
         Gateway data plane: Backend and AIServiceBackend per backend, SecurityPolicy (JWT), AIGatewayRoute, \
         BackendTrafficPolicy\n\
         Built-in proxy image: {DEFAULT_PROXY_IMAGE} (the operator's default without --router-proxy-image)\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// The JSON form, indented as kubectl indents JSON.
pub fn json() -> String {
    marshal_indent(&GoJson::from(&info()), "", "    ") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_say_the_same() {
        let v: Value = serde_json::from_str(&json()).expect("JSON");
        assert_eq!(v["routerctl"], env!("CARGO_PKG_VERSION"));
        assert!(text().contains(&format!(
            "API: {}/{} ModelRouter",
            v["api"]["group"].as_str().unwrap_or(""),
            BUILT_FOR_VERSION
        )));
    }
}
