//! A CustomResourceDefinition read for its schema: the objects of a CRD
//! file (one object, a stream, or a `List`), the version whose schema is
//! used, that schema compiled (`structural`) and its CEL rules' cost judged
//! as the API server judges it when the CRD is created (`cost`), and the
//! pruning and defaults it gives (`defaults`). Which CRDs to read, and for
//! which kinds, is the caller's.

use std::sync::{Arc, OnceLock};

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::Value;

use super::cel::{check_rules, CompiledRules};
use super::cost;
use super::defaults::{apply_defaults, prune};
use super::structural::Schema;
use super::Finding;
use crate::input::yaml::is_list;

/// One kind's CRD schema, for one version.
#[derive(Debug, Clone)]
pub struct CrdSchema {
    /// The kind it defines.
    pub kind: String,
    /// The version whose schema is used (see [`CrdSchema::from_crd`]).
    pub version: String,
    /// The compiled schema.
    pub schema: Schema,
    /// The schema as written, for its CEL rules.
    pub schema_json: Value,
    /// Its CEL rules compiled, on the first object checked against them.
    rules: Arc<OnceLock<CompiledRules>>,
}

impl PartialEq for CrdSchema {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && self.schema_json == other.schema_json
    }
}

impl CrdSchema {
    pub fn new(kind: String, version: String, schema: Schema, schema_json: Value) -> CrdSchema {
        CrdSchema { kind, version, schema, schema_json, rules: Arc::default() }
    }

    /// The findings of the schema's CEL rules on `object` (see
    /// `cel::check_rules`); the rules are compiled once, for every object
    /// and every thread.
    pub fn check_rules(&self, object: &Value) -> Vec<Finding> {
        let rules = self.rules.get_or_init(|| CompiledRules::compile(&self.schema_json));
        check_rules(&self.schema_json, rules, object)
    }

    /// The schema of one CustomResourceDefinition object, for the version
    /// `wanted` when the CRD serves it, else its storage version, else the
    /// first served one (an `apiextensions.k8s.io/v1beta1` CRD's one
    /// `spec.version` and shared schema, when it lists no versions). An
    /// error when that version has no `openAPIV3Schema`, the schema does not
    /// compile, or the API server would refuse the CRD for the cost of its
    /// CEL rules.
    pub fn from_crd(crd: &Value, wanted: &str) -> Result<CrdSchema> {
        let crd_name = str_at(crd, &["metadata", "name"]);
        let kind = str_at(crd, &["spec", "names", "kind"]);
        let spec = &crd["spec"];
        let shared_schema = spec.get("validation").and_then(|v| v.get("openAPIV3Schema"));
        let versions: Vec<&Value> = match spec.get("versions").and_then(Value::as_array) {
            Some(vs) => vs.iter().collect(),
            None => Vec::new(),
        };
        let (version, schema) = if versions.is_empty() {
            // apiextensions.k8s.io/v1beta1: one `spec.version`, one shared schema.
            let version = str_at(crd, &["spec", "version"]);
            if version.is_empty() {
                bail!("CustomResourceDefinition {crd_name} lists no versions");
            }
            (version, shared_schema)
        } else {
            let served = |v: &Value| v.get("served").and_then(Value::as_bool).unwrap_or(false);
            let storage = |v: &Value| v.get("storage").and_then(Value::as_bool).unwrap_or(false);
            let served_versions: Vec<&Value> = versions.iter().copied().filter(|v| served(v)).collect();
            let chosen = served_versions
                .iter()
                .find(|v| str_at(v, &["name"]) == wanted)
                .or_else(|| served_versions.iter().find(|v| storage(v)))
                .or_else(|| served_versions.first())
                .copied()
                .ok_or_else(|| anyhow!("CustomResourceDefinition {crd_name} serves no version"))?;
            let schema = chosen.get("schema").and_then(|s| s.get("openAPIV3Schema")).or(shared_schema);
            (str_at(chosen, &["name"]), schema)
        };
        let schema = schema.filter(|s| s.is_object()).ok_or_else(|| {
            anyhow!(
                "CustomResourceDefinition {crd_name}: version {version:?} has no schema.openAPIV3Schema to take defaults from"
            )
        })?;
        let compiled = Schema::compile(schema).map_err(|e| anyhow!("CustomResourceDefinition {crd_name}: {e}"))?;
        let refused = cost::check_schema(schema);
        if !refused.is_empty() {
            return Err(CostRefused { crd: crd_name, refused }.into());
        }
        Ok(CrdSchema::new(kind, version, compiled, schema.clone()))
    }

    /// Applies the defaults to a document of the CRD's kind (a JSON tree),
    /// in place.
    pub fn apply(&self, doc: &mut Value) {
        apply_defaults(doc, &self.schema);
    }

    /// Drops the fields the schema does not know, as the API server does
    /// before it stores the object (and so before a controller sees it).
    pub fn prune(&self, doc: &mut Value) {
        prune(doc, &self.schema);
    }
}

/// The objects of a CRD file (a `List`'s items in its place).
pub fn crd_objects(name: &str, text: &str) -> Result<Vec<Value>> {
    let mut objects = Vec::new();
    for (_, _, value) in crate::input::parse_stream(name, text).context("not a YAML CRD")? {
        match value {
            Value::Null => {}
            Value::Object(ref m) if is_list(&value) => {
                objects.extend(m["items"].as_array().into_iter().flatten().cloned());
            }
            other => objects.push(other),
        }
    }
    Ok(objects)
}

/// The string at `path` in `obj`, or `""`.
pub fn str_at(obj: &Value, path: &[&str]) -> String {
    path.iter().try_fold(obj, |v, k| v.get(k)).and_then(Value::as_str).unwrap_or("").to_string()
}

/// The objects found, in words, for "expected ..., found ...".
pub fn found_objects(objects: &[Value]) -> String {
    let described: Vec<String> = objects
        .iter()
        .map(|obj| {
            let kind = str_at(obj, &["kind"]);
            let name = str_at(obj, &["metadata", "name"]);
            match (kind.is_empty(), name.is_empty()) {
                (true, _) => "an object without a kind".to_string(),
                (false, true) => kind,
                (false, false) => format!("{kind} {name}"),
            }
        })
        .collect();
    if described.is_empty() {
        "nothing".to_string()
    } else {
        described.join(", ")
    }
}

/// The API server refuses a CRD for the cost of its CEL rules: each rule
/// (or the whole CRD) over its budget, in the API server's words. Its own
/// type, so that the layer that reports it lists each apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CostRefused {
    /// The CRD's name.
    pub crd: String,
    /// One line per rule over its budget.
    pub refused: Vec<String>,
}

impl std::fmt::Display for CostRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CustomResourceDefinition {}: the API server refuses this CRD for the cost of its CEL rules:",
            self.crd
        )?;
        self.refused.iter().try_for_each(|r| write!(f, "\n  {r}"))
    }
}

impl std::error::Error for CostRefused {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The rules are compiled on the first object checked, and that one
    /// compilation serves every later check (and every clone).
    #[test]
    fn cel_rules_are_compiled_once_for_every_check() {
        let json = json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"replicas": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.replicas >= 2", "message": "at least two"}]}}});
        let schema = Schema::compile(&json).expect("compiles");
        let crd = CrdSchema::new("Widget".into(), "v1".into(), schema, json);
        assert!(crd.rules.get().is_none(), "nothing compiled before a check");
        assert!(crd.check_rules(&json!({"spec": {"replicas": 2}})).is_empty());
        let first: *const CompiledRules = crd.rules.get().expect("compiled by the first check");
        let copy = crd.clone();
        assert_eq!(copy.check_rules(&json!({"spec": {"replicas": 1}})).len(), 1);
        assert!(std::ptr::eq(first, copy.rules.get().expect("kept")), "compiled again");
    }

    /// A made-up CRD of `widgets.example.com` with `versions`, each
    /// `(name, served, storage, maxReplicas)`.
    fn widgets(versions: &[(&str, bool, bool, u64)]) -> Value {
        let versions: Vec<Value> = versions
            .iter()
            .map(|(name, served, storage, max)| {
                json!({"name": name, "served": served, "storage": storage, "schema": {"openAPIV3Schema": {
                    "type": "object", "properties": {"spec": {"type": "object", "properties": {
                        "replicas": {"type": "integer", "maximum": max, "default": 1}}}}}}})
            })
            .collect();
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "names": {"kind": "Widget"}, "versions": versions}})
    }

    #[test]
    fn the_wanted_version_then_storage_then_the_first_served() {
        let crd = widgets(&[("v1", true, true, 10), ("v2", true, false, 20), ("v3", false, false, 30)]);
        let read = |wanted| CrdSchema::from_crd(&crd, wanted).expect("reads");
        assert_eq!((read("v2").kind.as_str(), read("v2").version.as_str()), ("Widget", "v2"));
        assert_eq!(read("v3").version, "v1", "an unserved version is not read");
        let no_storage = widgets(&[("v1", true, false, 10), ("v2", true, false, 20)]);
        assert_eq!(CrdSchema::from_crd(&no_storage, "v9").expect("reads").version, "v1");
        let none_served = widgets(&[("v1", false, true, 10)]);
        let err = CrdSchema::from_crd(&none_served, "v1").unwrap_err();
        assert_eq!(err.to_string(), "CustomResourceDefinition widgets.example.com serves no version");
    }

    #[test]
    fn a_v1beta1_crd_has_one_version_and_one_schema() {
        let crd = json!({"metadata": {"name": "widgets.example.com"}, "spec": {"names": {"kind": "Widget"},
            "version": "v1beta1", "validation": {"openAPIV3Schema": {"type": "object"}}}});
        assert_eq!(CrdSchema::from_crd(&crd, "v1").expect("reads").version, "v1beta1");
        let err = CrdSchema::from_crd(&json!({"metadata": {"name": "w"}, "spec": {}}), "v1").unwrap_err();
        assert_eq!(err.to_string(), "CustomResourceDefinition w lists no versions");
    }

    #[test]
    fn the_schema_prunes_and_defaults() {
        let crd = CrdSchema::from_crd(&widgets(&[("v1", true, true, 10)]), "v1").expect("reads");
        let mut doc = json!({"kind": "Widget", "spec": {"other": 1}});
        crd.prune(&mut doc);
        crd.apply(&mut doc);
        assert_eq!(doc, json!({"kind": "Widget", "spec": {"replicas": 1}}));
    }

    #[test]
    fn objects_of_a_stream_or_a_list_in_words() {
        let text = "kind: List\nitems: [{kind: A, metadata: {name: a}}, {kind: B}]\n---\n---\n{metadata: {name: c}}\n";
        let objects = crd_objects("crds.yaml", text).expect("reads");
        assert_eq!(found_objects(&objects), "A a, B, an object without a kind");
        assert_eq!(found_objects(&[]), "nothing");
    }
}
