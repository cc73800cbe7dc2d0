//! Apply-ready objects: what the API server and other writers keep for their
//! own bookkeeping is removed before `kubectl apply` sees the object.

use serde_json::Value;

use super::tree::remove;

/// Metadata fields the API server populates.
const SERVER_METADATA: [&str; 6] =
    ["managedFields", "resourceVersion", "uid", "generation", "creationTimestamp", "selfLink"];

/// Annotations that belong to other writers' bookkeeping.
const BOOKKEEPING_ANNOTATIONS: [&str; 2] =
    ["kubectl.kubernetes.io/last-applied-configuration", "deployment.kubernetes.io/revision"];

/// Removes status, server-populated metadata and bookkeeping annotations.
pub fn strip(obj: &mut Value) {
    let Some(top) = obj.as_object_mut() else { return };
    top.remove("status");
    // Every object passes through here: metadata is looked up once.
    if let Some(Value::Object(meta)) = top.get_mut("metadata") {
        for field in SERVER_METADATA {
            meta.remove(field);
        }
        if let Some(Value::Object(annotations)) = meta.get_mut("annotations") {
            for key in BOOKKEEPING_ANNOTATIONS {
                annotations.remove(key);
            }
            if annotations.is_empty() {
                meta.remove("annotations");
            }
        }
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
