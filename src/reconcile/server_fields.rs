//! Apply-ready objects: what the API server and other writers keep for their
//! own bookkeeping is removed before `kubectl apply` sees the object.

use serde_json::Value;

use super::tree::{get, remove};

/// Metadata fields the API server populates.
const SERVER_METADATA: [&str; 6] =
    ["managedFields", "resourceVersion", "uid", "generation", "creationTimestamp", "selfLink"];

/// Annotations that belong to other writers' bookkeeping.
const BOOKKEEPING_ANNOTATIONS: [&str; 2] =
    ["kubectl.kubernetes.io/last-applied-configuration", "deployment.kubernetes.io/revision"];

/// Removes status, server-populated metadata and bookkeeping annotations.
pub fn strip(obj: &mut Value) {
    remove(obj, &["status"]);
    for field in SERVER_METADATA {
        remove(obj, &["metadata", field]);
    }
    for key in BOOKKEEPING_ANNOTATIONS {
        remove(obj, &["metadata", "annotations", key]);
    }
    let empty = get(obj, &["metadata", "annotations"]).and_then(Value::as_object).is_some_and(|m| m.is_empty());
    if empty {
        remove(obj, &["metadata", "annotations"]);
    }
    remove(obj, &["spec", "template", "metadata", "creationTimestamp"]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strips_server_fields_and_keeps_the_rest() {
        let mut v = json!({
            "metadata": {
                "name": "x", "uid": "u", "resourceVersion": "1", "generation": 2,
                "creationTimestamp": "2026-01-01T00:00:00Z", "managedFields": [], "selfLink": "/x",
                "annotations": {"deployment.kubernetes.io/revision": "3", "keep": "me"}
            },
            "spec": {"template": {"metadata": {"creationTimestamp": null, "labels": {"a": "b"}}}},
            "status": {"replicas": 1}
        });
        strip(&mut v);
        assert_eq!(
            v,
            json!({
                "metadata": {"name": "x", "annotations": {"keep": "me"}},
                "spec": {"template": {"metadata": {"labels": {"a": "b"}}}}
            })
        );
    }
}
