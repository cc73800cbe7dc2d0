//! The JSON Schema of a whole ModelRouter document as an operator release's
//! CRD defines it (`routerctl schema modelrouter`): the CRD's structural
//! schema in JSON Schema (`schema::json_schema`), closed over the object
//! the API server takes — apiVersion and kind as constants, and the
//! metadata rules of `validate::metadata`, also on the label and annotation
//! maps the operator copies into the proxy's pod template, as
//! `custom_resource` applies them — so that an editor or kubeconform can
//! check a file as it stands.

use serde_json::{json, Value};

use super::crd::{for_release, BUILT_FOR_VERSION};
use super::metadata::{
    DNS1123_LABEL_MAX_LENGTH, DNS1123_LABEL_REGEX, DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_REGEX,
    LABEL_VALUE_MAX_LENGTH, LABEL_VALUE_REGEX, QUALIFIED_NAME_REGEX,
};
use crate::model::GROUP_VERSION;
use crate::release::Release;
use crate::schema::json_schema::{from_structural, DRAFT_2020_12};

/// The ModelRouter of `release`, as a JSON Schema document.
pub fn model_router(release: Release) -> Value {
    let crd = for_release(release);
    let mut schema = from_structural(&crd.schema_json);
    let description = format!(
        "A ModelRouter ({GROUP_VERSION}) as the CRD of LLMKube operator release {release} defines it, written by \
         routerctl {}. Unknown fields, which the API server prunes with a warning, are refused here, as by \
         routerctl --strict; so is a null where the CRD does not say nullable (the API server drops it, or puts \
         the default in its place). Label and annotation maps take Kubernetes' key and value rules. The \
         operator's own rules (routerctl render checks them) are not in this schema.",
        env!("CARGO_PKG_VERSION")
    );
    if let Value::Object(root) = &mut schema {
        root.insert("$schema".into(), json!(DRAFT_2020_12));
        root.insert("title".into(), json!(format!("ModelRouter {BUILT_FOR_VERSION} (LLMKube {release})")));
        root.insert("description".into(), json!(description));
        root.insert("required".into(), json!(["apiVersion", "kind", "metadata", "spec"]));
        root.insert("additionalProperties".into(), json!(false));
        let properties = root.entry("properties").or_insert_with(|| json!({}));
        properties["apiVersion"] = json!({"const": GROUP_VERSION});
        properties["kind"] = json!({"const": "ModelRouter"});
        properties["metadata"] = object_meta();
        // The maps the operator copies into the proxy's pod template take
        // the label and annotation rules, as `custom_resource` holds them
        // (the Deployment would be refused), where the release has them.
        for (field, rules) in
            [("podLabels", label_map()), ("nodeSelector", label_map()), ("podAnnotations", annotation_map())]
        {
            if let Some(Value::Object(node)) =
                properties.pointer_mut(&format!("/spec/properties/proxy/properties/{field}"))
            {
                for (key, rule) in rules.as_object().into_iter().flatten() {
                    node.insert(key.clone(), rule.clone());
                }
            }
        }
        // The API server writes status; a manifest may carry it back.
        if properties.get("status").is_none() {
            properties["status"] = json!({"type": "object"});
        }
    }
    schema
}

/// Label keys: a qualified name with an optional DNS-1123 subdomain prefix.
fn label_key_pattern() -> String {
    format!("^({DNS1123_SUBDOMAIN_REGEX}/)?{QUALIFIED_NAME_REGEX}$")
}

/// A map of labels: keys and values as Kubernetes checks them.
fn label_map() -> Value {
    json!({
        "type": "object",
        "propertyNames": {"pattern": label_key_pattern()},
        "additionalProperties": {
            "type": "string",
            "maxLength": LABEL_VALUE_MAX_LENGTH,
            "pattern": format!("^{LABEL_VALUE_REGEX}$")
        },
        "$comment": "A key's name part is at most 63 characters and its prefix at most 253: not checked by this schema."
    })
}

/// A map of annotations: keys are qualified names read in lower case (so
/// the prefix may have capitals), values any string.
fn annotation_map() -> Value {
    let prefix = DNS1123_SUBDOMAIN_REGEX.replace("a-z0-9", "A-Za-z0-9");
    json!({
        "type": "object",
        "propertyNames": {"pattern": format!("^({prefix}/)?{QUALIFIED_NAME_REGEX}$")},
        "additionalProperties": {"type": "string"},
        "$comment": "A key's name part is at most 63 characters, its prefix at most 253, and all annotations together at most 256 KiB: not checked by this schema."
    })
}

/// The fields of ObjectMeta a manifest sets, with the API server's rules
/// for a namespaced custom resource; the others (uid, resourceVersion,
/// ownerReferences…) are taken as they are.
fn object_meta() -> Value {
    json!({
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": DNS1123_SUBDOMAIN_MAX_LENGTH,
                "pattern": format!("^{DNS1123_SUBDOMAIN_REGEX}$"),
                "description": "A lowercase RFC 1123 subdomain."
            },
            "namespace": {
                "type": "string",
                "maxLength": DNS1123_LABEL_MAX_LENGTH,
                "pattern": format!("^({DNS1123_LABEL_REGEX})?$"),
                "description": "A lowercase RFC 1123 label; empty or absent: the namespace of the command (default)."
            },
            "labels": label_map(),
            "annotations": annotation_map()
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::release::CHANGES;

    fn validator(release: Release) -> jsonschema::Validator {
        let schema = model_router(release);
        assert!(jsonschema::draft202012::meta::is_valid(&schema));
        jsonschema::draft202012::new(&schema).expect("compiles")
    }

    fn router(spec: Value) -> Value {
        json!({"apiVersion": GROUP_VERSION, "kind": "ModelRouter", "metadata": {"name": "r", "namespace": "ml"}, "spec": spec})
    }

    #[test]
    fn the_object_around_the_spec() {
        let v = validator(Release::NEXT);
        let spec = json!({"backends": [{"name": "a", "external": {"provider": "openai", "model": "m"}}]});
        assert!(v.is_valid(&router(spec.clone())));
        let mut wrong_kind = router(spec.clone());
        wrong_kind["kind"] = json!("InferenceService");
        assert!(!v.is_valid(&wrong_kind));
        let mut wrong_group = router(spec.clone());
        wrong_group["apiVersion"] = json!("inference.llmkube.dev/v1");
        assert!(!v.is_valid(&wrong_group));
        let mut bad_name = router(spec.clone());
        bad_name["metadata"]["name"] = json!("Coding_Router");
        assert!(!v.is_valid(&bad_name));
        let mut no_name = router(spec.clone());
        no_name["metadata"] = json!({"namespace": "ml"});
        assert!(!v.is_valid(&no_name));
        let mut bad_label = router(spec.clone());
        bad_label["metadata"]["labels"] = json!({"team": "a b"});
        assert!(!v.is_valid(&bad_label));
        let mut extra = router(spec);
        extra["spce"] = json!({});
        assert!(!v.is_valid(&extra));
    }

    /// The pod-template maps take Kubernetes' key rules: an annotation key
    /// is read in lower case, a label key is not.
    #[test]
    fn pod_labels_and_annotations_take_the_key_rules() {
        let v = validator(Release::NEXT);
        let with = |field: &str, map: Value| {
            let mut doc =
                router(json!({"backends": [{"name": "a", "external": {"provider": "openai", "model": "m"}}]}));
            doc["spec"]["proxy"] = json!({ field: map });
            v.is_valid(&doc)
        };
        assert!(with("podLabels", json!({"example.com/team": "ml", "tier": ""})));
        assert!(!with("podLabels", json!({"Example.COM/team": "ml"})));
        assert!(!with("podLabels", json!({"-leading": "a"})));
        assert!(!with("podLabels", json!({"a/b/c": "a"})));
        assert!(!with("podLabels", json!({"team": "a b"})));
        assert!(with("podAnnotations", json!({"Example.COM/team": "any text / at all"})));
        assert!(!with("podAnnotations", json!({"a/b/c": "x"})));
        assert!(!with("podAnnotations", json!({"x": 1})));
        assert!(!with("nodeSelector", json!({"disk": "s s"})));
        assert!(with("nodeSelector", json!({"kubernetes.io/arch": "arm64"})));
        // v0.9.19 has no podLabels: refused as unknown, rules or not.
        let old = validator(Release::parse("v0.9.19").expect("known"));
        let mut doc = router(json!({"backends": [{"name": "a", "external": {"provider": "openai", "model": "m"}}]}));
        doc["spec"]["proxy"] = json!({"podLabels": {"team": "ml"}});
        assert!(!old.is_valid(&doc));
    }

    /// Each field a change brings is taken from its release on and refused
    /// by the release before it (the release table lists the fields).
    #[test]
    fn each_release_refuses_the_fields_it_lacks() {
        for entry in CHANGES.iter().filter(|e| !e.fields.is_empty()) {
            let Some(before) = Release::all().take_while(|r| !r.has(entry.change)).last() else {
                panic!("{:?} is in every release", entry.change)
            };
            let (old, new) = (validator(before), validator(entry.since));
            let newest = model_router(Release::NEXT);
            for field in entry.fields {
                let spec = json!({"backends": [{"name": "a", "external": {"provider": "openai", "model": "m"}}]});
                let mut doc = router(spec);
                let example = sample(at(&newest, field).unwrap_or_else(|| panic!("no {field} in the schema")));
                set(&mut doc, field, example.clone());
                assert!(new.is_valid(&doc), "{} refuses {field}: {example}", entry.since);
                assert!(!old.is_valid(&doc), "{before} takes {field}: {example}");
            }
        }
    }

    /// Every node under `spec` of the printed schema, with its path.
    fn nodes(node: &Value, at: &str, out: &mut Vec<(String, Value)>) {
        out.push((at.to_string(), node.clone()));
        for (name, child) in node.get("properties").and_then(Value::as_object).into_iter().flatten() {
            nodes(child, &format!("{at}.{name}"), out);
        }
        if let Some(items) = node.get("items") {
            nodes(items, &format!("{at}[]"), out);
        }
    }

    /// A value for a node: good (its sample) or wrong in one way. A null
    /// only where the node has no default (with one, the API server puts
    /// the default in its place, which the schema cannot say).
    fn variant(node: &Value, which: usize) -> Value {
        let type_of = node.get("type").map(|t| t.to_string()).unwrap_or_default();
        match which {
            1 if type_of.contains("string") && !type_of.contains("integer") => json!(5),
            1 if type_of.contains("integer") || type_of.contains("number") => json!(true),
            1 if type_of.contains("object") || type_of.contains("array") => json!("x"),
            1 if type_of.contains("boolean") => json!("yes"),
            2 if node.get("enum").is_some() => json!("Zz"),
            2 if node.get("pattern").is_some() => json!("!! !!"),
            3 => match (node.get("minimum").and_then(Value::as_i64), node.get("maximum").and_then(Value::as_i64)) {
                (_, Some(max)) => json!(max + 1),
                (Some(min), None) => json!(min - 1),
                _ => sample(node),
            },
            4 if node.get("default").is_none() => Value::Null,
            5 if type_of.contains("object") => {
                let mut object = sample(node);
                object["zzUnknown"] = json!(1);
                object
            }
            _ => sample(node),
        }
    }

    /// Puts `value` at a `spec.a[].b` path, making the objects and the
    /// first items on the way.
    fn put(doc: &mut Value, path: &str, value: Value) {
        let steps: Vec<&str> = path.split('.').collect();
        let mut node = doc;
        for (i, step) in steps.iter().enumerate() {
            let (name, items) = step.strip_suffix("[]").map_or((*step, false), |n| (n, true));
            let last = i + 1 == steps.len();
            // A value set before stands where this path goes on.
            if !node.is_object() {
                return;
            }
            if last && !items {
                node[name] = value;
                return;
            }
            if items {
                if node.get(name).and_then(Value::as_array).is_none_or(|a| a.is_empty()) {
                    node[name] = json!([{}]);
                }
                if last {
                    node[name][0] = value;
                    return;
                }
                node = &mut node[name][0];
            } else {
                if !node.get(name).is_some_and(Value::is_object) {
                    node[name] = json!({});
                }
                node = &mut node[name];
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1500))]

        /// The printed schema and routerctl's own check of a ModelRouter
        /// against the CRD (`custom_resource`, unknown fields and dropped
        /// nulls counted as refusals, as --strict does) give every router
        /// the same verdict: each changed at a few places of the schema,
        /// well or in one way wrong.
        #[test]
        fn the_schema_and_the_crd_check_agree(changes in proptest::collection::vec((0..10_000usize, 0..8usize), 1..4)) {
            static SCHEMA: OnceLock<(Vec<(String, Value)>, jsonschema::Validator)> = OnceLock::new();
            let (spec_nodes, v) = SCHEMA.get_or_init(|| {
                let schema = model_router(Release::NEXT);
                let mut found = Vec::new();
                nodes(&schema["properties"]["spec"], "spec", &mut found);
                (found, jsonschema::draft202012::new(&schema).expect("compiles"))
            });
            let mut doc = router(json!({"backends": [{"name": "a", "external": {"provider": "openai", "model": "m"}}]}));
            for (at, which) in changes {
                let (path, node) = &spec_nodes[at % spec_nodes.len()];
                if path == "spec" {
                    continue;
                }
                put(&mut doc, path, variant(node, which));
            }
            let findings = crate::validate::custom_resource::check_model_router(&doc);
            let said: Vec<String> = findings.iter().map(|f| f.to_string()).collect();
            proptest::prop_assert_eq!(v.is_valid(&doc), findings.is_empty(), "{} / routerctl: {:?}", doc, said);
        }
    }

    /// The schema node of a `spec.a[].b` path.
    fn at<'a>(schema: &'a Value, path: &str) -> Option<&'a Value> {
        let mut node = schema;
        for step in path.split('.') {
            let (name, items) = match step.strip_suffix("[]") {
                Some(name) => (name, true),
                None => (step, false),
            };
            node = node.get("properties")?.get(name)?;
            if items {
                node = node.get("items")?;
            }
        }
        Some(node)
    }

    /// Sets the value at a `spec.a[].b` path (`[]`: the first item).
    fn set(doc: &mut Value, path: &str, value: Value) {
        let mut node = doc;
        let steps: Vec<&str> = path.split('.').collect();
        for (i, step) in steps.iter().enumerate() {
            let (name, items) = match step.strip_suffix("[]") {
                Some(name) => (name, true),
                None => (*step, false),
            };
            if i + 1 == steps.len() {
                node[name] = value;
                return;
            }
            if node.get(name).is_none() {
                node[name] = json!({});
            }
            node = &mut node[name];
            if items {
                node = &mut node[0];
            }
        }
    }

    /// A value the schema node takes: its default, its first enum value, or
    /// the least of its type with every required field.
    fn sample(node: &Value) -> Value {
        if let Some(d) = node.get("default") {
            return d.clone();
        }
        if let Some(first) = node.get("enum").and_then(|e| e.get(0)) {
            return first.clone();
        }
        let types = match node.get("type") {
            Some(Value::Array(t)) => t.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            Some(Value::String(t)) => vec![t.clone()],
            _ => vec![],
        };
        match types.first().map(String::as_str) {
            Some("object") => {
                let mut object = json!({});
                for name in node.get("required").and_then(Value::as_array).into_iter().flatten() {
                    let name = name.as_str().unwrap_or_default();
                    object[name] = sample(&node["properties"][name]);
                }
                if object.as_object().is_some_and(|o| o.is_empty())
                    && node.get("additionalProperties").is_some_and(Value::is_object)
                {
                    object["k"] = sample(&node["additionalProperties"]);
                }
                object
            }
            Some("array") => json!([]),
            Some("integer") | Some("number") => node.get("minimum").cloned().unwrap_or(json!(1)),
            Some("boolean") => json!(true),
            _ => json!("x"),
        }
    }
}
