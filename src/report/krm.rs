//! The KRM function's results: a finding as an entry of the
//! ResourceList's `results` that kustomize and kpt show, the object as
//! `resourceRef`, the field as `field.path`, the place as `file`.

use serde_json::{json, Map, Value};

use crate::diagnostic::{Diagnostic, Severity};

/// A KRM function result: an entry of the ResourceList's `results`, as
/// the KRM Functions Specification (kustomize's `functions-spec.md`)
/// defines it. The finding's object is the `resourceRef` (only whole:
/// apiVersion, kind and name, and the namespace when it has one), its field
/// the `field.path` within that object, its place the `file` (the
/// orchestrator's path annotation of the object, `item` its index within
/// the file), and `krm_message` the message.
pub fn krm_result(d: &Diagnostic) -> Value {
    let mut r = Map::new();
    r.insert("message".into(), json!(krm_message(d)));
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        // The specification's word for a note.
        Severity::Note => "info",
    };
    r.insert("severity".into(), json!(severity));
    let whole = d.object.as_ref().filter(|o| !o.api_version.is_empty() && !o.kind.is_empty() && !o.name.is_empty());
    if let Some(o) = whole {
        let mut reference = Map::new();
        reference.insert("apiVersion".into(), json!(o.api_version));
        reference.insert("kind".into(), json!(o.kind));
        reference.insert("name".into(), json!(o.name));
        if !o.namespace.is_empty() {
            reference.insert("namespace".into(), json!(o.namespace));
        }
        r.insert("resourceRef".into(), Value::Object(reference));
        if let Some(path) = &d.field {
            r.insert("field".into(), json!({ "path": path }));
        }
    }
    if let Some(place) = &d.place {
        let mut file = Map::new();
        file.insert("path".into(), json!(place.file));
        if let Some(index) = place.item {
            file.insert("index".into(), json!(index));
        }
        r.insert("file".into(), Value::Object(file));
    }
    Value::Object(r)
}

/// A KRM result's message: the refusal it is one finding of, the message
/// and the hint. The object and the field are the result's own keys.
pub fn krm_message(d: &Diagnostic) -> String {
    d.statement(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{rules, Place};

    /// A KRM result has the keys the KRM Functions Specification gives
    /// it (kustomize's functions-spec.md, "results"): message, severity
    /// (`info` for a note), `resourceRef` (apiVersion, kind, name,
    /// namespace), `field.path`, `file.path` and `file.index`.
    #[test]
    fn a_krm_result_has_the_specifications_keys() {
        let router = crate::kube::ObjectKey {
            api_version: "inference.llmkube.dev/v1alpha1".into(),
            kind: "ModelRouter".into(),
            namespace: "ml".into(),
            name: "r".into(),
        };
        let mut d = Diagnostic::new(Severity::Note, rules::OPERATOR, "must set failClosed=true")
            .on(router.clone())
            .field("spec.rules[0].failClosed")
            .hint("see the docs")
            .at(Place { item: Some(2), ..Place::file("routers/r.yaml") });
        d.context = Some("the operator refuses this ModelRouter".into());
        let expected = json!({
            "message": "the operator refuses this ModelRouter: must set failClosed=true (see the docs)",
            "severity": "info",
            "resourceRef": {
                "apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": "r", "namespace": "ml"
            },
            "field": {"path": "spec.rules[0].failClosed"},
            "file": {"path": "routers/r.yaml", "index": 2},
        });
        assert_eq!(krm_result(&d), expected);
        // The specification requires apiVersion, kind and name of a
        // reference: an object without a name has none, nor a field in it.
        let nameless = crate::kube::ObjectKey { name: String::new(), namespace: String::new(), ..router };
        let d = Diagnostic::warning(rules::KRM, "functionConfig is not read").on(nameless).field("data");
        assert_eq!(krm_result(&d), json!({"message": "functionConfig is not read", "severity": "warning"}));
    }
}
