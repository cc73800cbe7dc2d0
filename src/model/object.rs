//! What every LLMKube custom resource shares: its API group and version,
//! the part of `metadata` routerctl reads, local references, and a
//! ModelRouter's identity.

use serde::Deserialize;

use crate::kube::ObjectKey;

/// The API group every LLMKube custom resource lives in.
pub const GROUP: &str = "inference.llmkube.dev";
/// The only served version of that group.
pub const GROUP_VERSION: &str = "inference.llmkube.dev/v1alpha1";

/// The identity of the ModelRouter `name` in `namespace`.
pub fn router_key(namespace: &str, name: &str) -> ObjectKey {
    ObjectKey {
        api_version: GROUP_VERSION.to_string(),
        kind: "ModelRouter".to_string(),
        namespace: namespace.to_string(),
        name: name.to_string(),
    }
}

/// The part of `metadata` routerctl needs from a custom resource.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub uid: Option<String>,
}

/// A `{name: ...}` reference to an object in the same namespace
/// (corev1.LocalObjectReference). The CRDs default `name` to "".
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct LocalRef {
    #[serde(default)]
    pub name: String,
}
