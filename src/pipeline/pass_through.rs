//! `render --pass-through`: which input documents come out beside the
//! rendered objects, as `kustomize build` passes a generator's input
//! through. Every object comes out as read (the ModelRouters as written:
//! the API server prunes and defaults them, not routerctl), in input order,
//! except what is for no cluster — an object marked
//! `config.kubernetes.io/local-config: "true"` (input for client-side
//! tools, never applied) and routerctl's own RouterTest files — and an
//! object the operator writes itself, whose rendered form takes its place
//! (a previous run's output kept beside its router, as the KRM function
//! replaces its own).

use anyhow::Result;
use serde_json::Value;

use crate::diagnostic::{rules, Diagnostic};
use crate::input::Document;
use crate::kube::{annotation, group_of, str_at, ObjectKey};

/// The annotation that marks an object as input for client-side tools.
pub const LOCAL_CONFIG_ANNOTATION: &str = "config.kubernetes.io/local-config";

/// The API group of routerctl's own RouterTest files.
const ROUTER_TEST_GROUP: &str = "routerctl.llmkube.dev";

/// What becomes of one input document.
#[derive(Debug, PartialEq, Eq)]
pub enum PassThrough {
    /// It comes out as read.
    Keep,
    /// It is for no cluster, and stays out.
    Leave,
}

/// Whether `doc` comes out; a document that is no Kubernetes object (no
/// apiVersion or kind) is refused at its place: nothing could apply it.
pub fn pass_through(doc: &Document) -> Result<PassThrough> {
    let value = &doc.value;
    if !value.is_object() || str_at(value, "apiVersion").is_empty() || str_at(value, "kind").is_empty() {
        let message = "is no Kubernetes object (it has no apiVersion or no kind): kubectl apply and Argo CD refuse \
                       it, so --pass-through cannot pass it on";
        return Err(Diagnostic::error(rules::INPUT, message).at(doc.origin.place()).into_error());
    }
    if annotation(value, LOCAL_CONFIG_ANNOTATION) == Some("true")
        || (str_at(value, "kind") == "RouterTest" && group_of(str_at(value, "apiVersion")) == ROUTER_TEST_GROUP)
    {
        return Ok(PassThrough::Leave);
    }
    Ok(PassThrough::Keep)
}

/// The identity kustomize matches objects by: group, kind, namespace and
/// name (one object read at two versions of its group is one object), as
/// an `ObjectKey` whose apiVersion is the group.
pub fn identity(obj: &Value, default_namespace: &str) -> ObjectKey {
    let mut key = ObjectKey::of(obj, default_namespace);
    key.api_version = key.group().to_string();
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Origin;
    use serde_json::json;

    fn doc(value: Value) -> Document {
        Document::unplaced(Origin { source: "a.yaml".into(), document: 2, line: 7, item: None }, value)
    }

    #[test]
    fn objects_pass_and_what_is_for_no_cluster_stays_out() {
        let keep = [
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}),
            json!({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "metadata": {"name": "r"}}),
            // Only "true" marks local config.
            json!({"apiVersion": "v1", "kind": "ConfigMap",
                   "metadata": {"name": "x", "annotations": {LOCAL_CONFIG_ANNOTATION: "false"}}}),
            // Another group's RouterTest is somebody else's kind.
            json!({"apiVersion": "example.com/v1", "kind": "RouterTest", "metadata": {"name": "t"}}),
        ];
        for value in keep {
            assert_eq!(pass_through(&doc(value.clone())).ok(), Some(PassThrough::Keep), "{value}");
        }
        let leave = [
            json!({"apiVersion": "v1", "kind": "ConfigMap",
                   "metadata": {"name": "fn", "annotations": {LOCAL_CONFIG_ANNOTATION: "true"}}}),
            json!({"apiVersion": "routerctl.llmkube.dev/v1alpha1", "kind": "RouterTest", "router": "ml/r"}),
        ];
        for value in leave {
            assert_eq!(pass_through(&doc(value.clone())).ok(), Some(PassThrough::Leave), "{value}");
        }
    }

    #[test]
    fn a_document_that_is_no_object_is_refused_at_its_place() {
        for value in [json!("text"), json!({"kind": "ConfigMap"}), json!({"apiVersion": "v1"})] {
            let error = pass_through(&doc(value.clone())).expect_err("refused");
            let found = crate::diagnostic::diagnostics_of(&error);
            assert_eq!(found.len(), 1, "{value}");
            assert_eq!(found[0].rule, rules::INPUT);
            let place = found[0].place.as_ref().expect("a place");
            assert_eq!((place.file.as_str(), place.line), ("a.yaml", Some(7)), "{value}");
        }
    }

    #[test]
    fn identity_is_the_group_not_the_version() {
        let a = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}});
        let b =
            json!({"apiVersion": "apps/v1beta2", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ml"}});
        assert_eq!(identity(&a, "ml"), identity(&b, "default"));
        assert_ne!(identity(&a, "default"), identity(&b, "default"));
    }
}
