//! The JSON trees of the objects the operator owns for a router: their
//! first fields, the metadata every owned object carries (name, namespace,
//! labels, controller reference) and the small builders the kinds share.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use serde_json::{Map, Value};

use super::input::RouterInput;
use crate::kube::names;
use crate::model::GROUP_VERSION;

/// The controller reference every owned object carries, when the
/// ModelRouter's uid is known.
pub fn owner_reference(router_name: &str, uid: &str) -> OwnerReference {
    OwnerReference {
        api_version: GROUP_VERSION.to_string(),
        kind: "ModelRouter".to_string(),
        name: router_name.to_string(),
        uid: uid.to_string(),
        controller: Some(true),
        block_owner_deletion: Some(false),
    }
}

/// An object's first fields: `apiVersion`, `kind` and `metadata`.
pub(super) fn object(api_version: &str, kind: &str, metadata: Map<String, Value>) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("apiVersion".into(), Value::from(api_version));
    object.insert("kind".into(), Value::from(kind));
    object.insert("metadata".into(), Value::Object(metadata));
    object
}

/// `metadata` of an owned object: name `R`, the router's namespace, labels `L`.
pub(super) fn owned_metadata(input: &RouterInput) -> Map<String, Value> {
    let mut metadata = Map::new();
    metadata.insert("name".into(), Value::String(names::resource_name(&input.name)));
    metadata.insert("namespace".into(), Value::String(input.namespace.clone()));
    metadata.insert("labels".into(), string_object(names::owned_labels(&input.name)));
    if let Some(uid) = input.uid.as_deref() {
        // Serializing the API type keeps its field names and omissions.
        let reference = serde_json::to_value(owner_reference(&input.name, uid)).unwrap_or(Value::Null);
        metadata.insert("ownerReferences".into(), Value::Array(vec![reference]));
    }
    metadata
}

/// An object of the given fields. (`json!` would copy a tree put in it.)
pub(super) fn fields<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A string map (owned or borrowed) as a JSON object: labels, annotations,
/// selectors.
pub fn string_object<K: Into<String>, V: Into<String>>(m: impl IntoIterator<Item = (K, V)>) -> Value {
    Value::Object(m.into_iter().map(|(k, v)| (k.into(), Value::String(v.into()))).collect())
}

/// Go's omitempty: an empty map is not written.
pub(super) fn non_empty<K: Ord, V>(m: BTreeMap<K, V>) -> Option<BTreeMap<K, V>> {
    (!m.is_empty()).then_some(m)
}
