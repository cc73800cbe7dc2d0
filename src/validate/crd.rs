//! The CRDs routerctl judges LLMKube's objects and the Gateway objects by:
//! the ModelRouter schema built in (the newest routerctl knows), or that of
//! an operator release (`for_release`), or the cluster's own given with
//! `--crd` (ModelRouter, InferenceService, ModelPool, and Envoy's Gateway
//! kinds), for clusters whose operator is older or newer than routerctl.
//!
//! Reading a CRD, compiling its schema and the pruning and defaults it gives
//! are the generic engine's (`schema::crd`, `schema::defaults`); what is
//! LLMKube's here is which CRDs and versions are read, the fields each
//! release's CRD lacks, and the warning when a cluster's ModelRouter CRD
//! lacks the defaults routerctl's typed model applies.

use std::sync::OnceLock;

use anyhow::{bail, Context as _, Result};
use serde_json::Value;

use crate::diagnostic::{rules, Diagnostic, Refusal};
use crate::input::Source;
use crate::kube::kinds::GATEWAY_KINDS;
use crate::model::GROUP;
use crate::release::{Release, CHANGES, RELEASES};
use crate::schema::crd::{crd_objects, found_objects, str_at, CostRefused};
use crate::schema::structural::Schema;

/// The type each CRD is read into.
pub use crate::schema::crd::CrdSchema;

/// The CRD routerctl reads defaults from.
pub const CRD_NAME: &str = "modelrouters.inference.llmkube.dev";
/// The version of the ModelRouter API routerctl was built for.
pub const BUILT_FOR_VERSION: &str = "v1alpha1";

/// The built-in schema (written for routerctl in the CRD's form, in
/// `schemas/modelrouter-v1alpha1.yaml`), as the JSON generated from it:
/// read at every start, and compact JSON reads several times faster than
/// YAML.
/// `tests/it/generated_files.rs` keeps the two the same.
const BUILT_IN_SCHEMA: &str = include_str!("schemas/modelrouter-v1alpha1.json");

/// The defaults routerctl's typed model applies (`model::apply_router_defaults`),
/// by path; `[]` steps into every element of an array. A cluster CRD
/// without them is worth a warning.
const BUILT_IN_DEFAULTS: [(&str, &str); 10] = [
    ("spec.dataPlane", "Proxy"),
    ("spec.defaultRouteStrategy", "Static"),
    ("spec.backends[].tier", "local"),
    ("spec.rules[].route.strategy", "primary-fallback"),
    ("spec.endpoint.port", "8080"),
    ("spec.endpoint.path", "/v1/chat/completions"),
    ("spec.endpoint.type", "ClusterIP"),
    ("spec.policy.classification.mode", "header-only"),
    ("spec.policy.auditLog.sink", "stdout"),
    ("spec.policy.budgets[].windowSeconds", "3600"),
];

/// The kinds whose CRDs routerctl reads.
const KINDS: [&str; 3] = ["ModelRouter", "InferenceService", "ModelPool"];

/// The cluster's CRDs given with `--crd`, by kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterCrds {
    pub router: Option<CrdSchema>,
    /// The file the ModelRouter CRD was read from, for messages about it.
    pub router_file: Option<String>,
    pub inference_service: Option<CrdSchema>,
    pub pool: Option<CrdSchema>,
    /// Envoy CRDs (Backend, AIServiceBackend, AIGatewayRoute,
    /// BackendTrafficPolicy, SecurityPolicy): the Gateway objects are
    /// checked against them instead of the built-in Envoy schemas.
    pub envoy: Vec<CrdSchema>,
}

impl ClusterCrds {
    /// Files the user named: each may hold several CRDs; a kind given twice
    /// is an error (which one would the cluster serve?).
    pub fn read(files: &[Source]) -> Result<ClusterCrds> {
        let mut crds = ClusterCrds::default();
        for Source { name, text } in files {
            for crd in read_all(name, text).with_context(|| name.clone())? {
                if GATEWAY_KINDS.iter().any(|k| k.kind == crd.kind) {
                    if crds.envoy.iter().any(|e| e.kind == crd.kind) {
                        bail!("{name}: a second {} CRD; give each kind's CRD once", crd.kind);
                    }
                    crds.envoy.push(crd);
                    continue;
                }
                if crd.kind == "ModelRouter" {
                    crds.router_file = Some(name.clone());
                }
                let slot = match crd.kind.as_str() {
                    "ModelRouter" => &mut crds.router,
                    "InferenceService" => &mut crds.inference_service,
                    _ => &mut crds.pool,
                };
                if slot.is_some() {
                    bail!("{name}: a second {} CRD; give each kind's CRD once", crd.kind);
                }
                *slot = Some(crd);
            }
        }
        Ok(crds)
    }

    /// The schema for documents of `kind`, if one was given.
    pub fn for_kind(&self, kind: &str) -> Option<&CrdSchema> {
        match kind {
            "ModelRouter" => self.router.as_ref(),
            "InferenceService" => self.inference_service.as_ref(),
            "ModelPool" => self.pool.as_ref(),
            _ => None,
        }
    }
}

/// The schema routerctl judges ModelRouters by without `--crd`.
pub fn built_in() -> &'static CrdSchema {
    static BUILT_IN: OnceLock<CrdSchema> = OnceLock::new();
    BUILT_IN.get_or_init(|| {
        let json = built_in_json();
        // Part of the program and covered by tests: a failure here is a
        // bug in routerctl, not in its input.
        let schema = Schema::compile_built_in(&json).expect("the built-in schema compiles");
        CrdSchema::new("ModelRouter".into(), BUILT_FOR_VERSION.to_string(), schema, json)
    })
}

/// The built-in schema as written, read from its text: a release's schema
/// starts from it without compiling the built-in one it does not use.
fn built_in_json() -> Value {
    // The text is part of the program and covered by tests.
    serde_json::from_str(BUILT_IN_SCHEMA).expect("the built-in schema is JSON")
}

/// The schema of the ModelRouter CRD that `release` installs: the built-in
/// one without the fields of the changes the release lacks. Upstream's CRD
/// only ever gained fields from v0.7.8 on (no default, enum or bound of an
/// existing field changed), so removing them gives each release's schema,
/// its pruning and its defaults. Built once per release, on first use.
pub fn for_release(release: Release) -> &'static CrdSchema {
    static SCHEMAS: [OnceLock<CrdSchema>; RELEASES.len() + 1] = [const { OnceLock::new() }; RELEASES.len() + 1];
    let index = Release::all().position(|r| r == release).unwrap_or(RELEASES.len());
    if release == Release::NEXT {
        return built_in();
    }
    SCHEMAS[index].get_or_init(|| {
        let mut json = built_in_json();
        for entry in CHANGES.iter().filter(|e| !release.has(e.change)) {
            for field in entry.fields {
                remove_field(&mut json, field);
            }
        }
        // As for the built-in schema: a failure is a bug in routerctl.
        let schema = Schema::compile_built_in(&json).expect("a release's schema compiles");
        CrdSchema::new("ModelRouter".into(), BUILT_FOR_VERSION.to_string(), schema, json)
    })
}

/// Removes the property at `path` (`spec.backends[].displayName`) from a
/// structural schema, and from its parent's `required`.
fn remove_field(schema: &mut Value, path: &str) {
    let mut node = schema;
    let steps: Vec<&str> = path.split('.').collect();
    let Some((last, parents)) = steps.split_last() else { return };
    for step in parents {
        let (name, items) = match step.strip_suffix("[]") {
            Some(name) => (name, true),
            None => (*step, false),
        };
        let Some(next) = node.get_mut("properties").and_then(|p| p.get_mut(name)) else { return };
        node = if items {
            match next.get_mut("items") {
                Some(items) => items,
                None => return,
            }
        } else {
            next
        };
    }
    let name = last.strip_suffix("[]").unwrap_or(last);
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        properties.remove(name);
    }
    if let Some(Value::Array(required)) = node.get_mut("required") {
        required.retain(|r| r.as_str() != Some(name));
    }
}

/// Reads the ModelRouter CRD from YAML (one object, a stream, or a
/// `List`, as the chart or `kubectl get crd
/// modelrouters.inference.llmkube.dev -o yaml` print it). An error unless
/// it holds the ModelRouter CRD with an `openAPIV3Schema`.
pub fn read_router_crd(name: &str, text: &str) -> Result<CrdSchema> {
    let objects = crd_objects(name, text)?;
    let Some(crd) = objects
        .iter()
        .find(|o| str_at(o, &["kind"]) == "CustomResourceDefinition" && str_at(o, &["metadata", "name"]) == CRD_NAME)
    else {
        bail!("expected the ModelRouter CustomResourceDefinition ({CRD_NAME}), found {}", found_objects(&objects));
    };
    let group = str_at(crd, &["spec", "group"]);
    let kind = str_at(crd, &["spec", "names", "kind"]);
    if group != GROUP || kind != "ModelRouter" {
        bail!("CustomResourceDefinition {CRD_NAME} defines {kind:?} in group {group:?}, not ModelRouter in {GROUP}");
    }
    from_crd(crd)
}

/// Every CRD routerctl reads in a file: LLMKube's (ModelRouter,
/// InferenceService, ModelPool) and the Envoy ones of the Gateway
/// objects; an error when it holds none.
fn read_all(name: &str, text: &str) -> Result<Vec<CrdSchema>> {
    let objects = crd_objects(name, text)?;
    let ours: Vec<&Value> = objects
        .iter()
        .filter(|o| {
            let (group, kind) = (str_at(o, &["spec", "group"]), str_at(o, &["spec", "names", "kind"]));
            str_at(o, &["kind"]) == "CustomResourceDefinition"
                && ((group == GROUP && KINDS.contains(&kind.as_str()))
                    || GATEWAY_KINDS.iter().any(|k| k.kind == kind && k.api_version.split('/').next() == Some(&group)))
        })
        .collect();
    if ours.is_empty() {
        let envoy: Vec<&str> = GATEWAY_KINDS.iter().map(|k| k.kind).collect();
        bail!(
            "expected a CustomResourceDefinition of {GROUP} ({}) or of Envoy's Gateway objects ({}), found {}",
            KINDS.join(", "),
            envoy.join(", "),
            found_objects(&objects)
        );
    }
    ours.into_iter().map(from_crd).collect()
}

/// The schema of one of the CRDs routerctl reads: an Envoy kind at the
/// version the operator writes, LLMKube's at the one routerctl was built for
/// (else the storage version, else the first served one).
fn from_crd(crd: &Value) -> Result<CrdSchema> {
    let kind = str_at(crd, &["spec", "names", "kind"]);
    let wanted = GATEWAY_KINDS
        .iter()
        .find(|k| k.kind == kind)
        .and_then(|k| k.api_version.split('/').nth(1))
        .unwrap_or(BUILT_FOR_VERSION);
    CrdSchema::from_crd(crd, wanted).map_err(|e| match e.downcast_ref::<CostRefused>() {
        // Each rule over its budget is a finding of its own.
        Some(cost) => {
            let heading = Diagnostic::error(
                rules::CRD,
                format!(
                    "CustomResourceDefinition {}: the API server refuses this CRD for the cost of its CEL rules",
                    cost.crd
                ),
            );
            let findings = cost.refused.iter().map(|r| Diagnostic::error(rules::CRD, r.as_str())).collect();
            Refusal::new(heading, findings).into()
        }
        None => e,
    })
}

/// A warning when a ModelRouter CRD given with `--crd` is for another
/// version than routerctl was built for (v1alpha1), or lacks fields the
/// built-in defaults know.
pub fn compatibility_warning(crd: &CrdSchema) -> Option<String> {
    let mut problems = Vec::new();
    if crd.version != BUILT_FOR_VERSION {
        problems
            .push(format!("its schema is for version {}, routerctl was built for {BUILT_FOR_VERSION}", crd.version));
    }
    let mut unknown = Vec::new();
    let mut undefaulted = Vec::new();
    for (path, value) in BUILT_IN_DEFAULTS {
        match crd.schema.at(path) {
            None => unknown.push(format!("{path} (built in: {value})")),
            Some(node) if node.default.is_none() => undefaulted.push(format!("{path} (built in: {value})")),
            Some(_) => {}
        }
    }
    if !unknown.is_empty() {
        problems.push(format!("it has no field {}", unknown.join(", ")));
    }
    if !undefaulted.is_empty() {
        problems.push(format!("it sets no default for {}", undefaulted.join(", ")));
    }
    if problems.is_empty() {
        return None;
    }
    Some(format!(
        "the CRD {CRD_NAME} differs from the one routerctl was built for: {}; its defaults are used as they are, so those fields stay unset as that cluster's API server would leave them",
        problems.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{apply_router_defaults, ModelRouter};
    use serde_json::json;

    /// The built-in schema is compiled without checking its patterns'
    /// syntax (`Schema::compile_built_in`); this is the check.
    #[test]
    fn the_built_in_patterns_parse() {
        assert!(Schema::compile(&built_in().schema_json).is_ok());
        let mut broken = built_in().schema_json.clone();
        broken["properties"]["spec"]["pattern"] = json!("(");
        assert!(Schema::compile(&broken).is_err(), "the check sees a pattern that does not parse");
        assert!(Schema::compile_built_in(&broken).is_ok(), "the built-in path leaves it to the tests");
    }

    fn fixture(name: &str) -> String {
        let path = format!("{}/testdata/crd/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn crd(name: &str) -> CrdSchema {
        read_router_crd(name, &fixture(name)).expect("the fixture is a ModelRouter CRD")
    }

    fn doc(yaml: &str) -> Value {
        crate::input::from_yaml_str(yaml).expect("test document parses")
    }

    fn defaulted(crd: &CrdSchema, yaml: &str) -> Value {
        let mut d = doc(yaml);
        crd.apply(&mut d);
        d
    }

    const FULL: &str = "
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata: {name: r}
spec:
  backends:
  - name: a
    external: {provider: openai, model: m}
  - name: b
    tier: cloud
  rules:
  - name: r1
    route: {backends: [a]}
  - name: r2
    route: {backends: [a], strategy: shadow}
  endpoint: {}
  policy:
    classification: {}
    auditLog: {filePath: /x}
    budgets: [{name: b, scope: router, maxTokens: 10}]
";

    #[test]
    fn modified_defaults_are_applied() {
        let crd = crd("modelrouters-modified.yaml");
        assert_eq!(crd.version, "v1alpha1");
        let d = defaulted(&crd, FULL);
        assert_eq!(d["spec"]["dataPlane"], "Gateway");
        assert_eq!(d["spec"]["rules"][0]["route"]["strategy"], "weighted");
        assert_eq!(d["spec"]["endpoint"], json!({"port": 9000, "path": "/v1/chat/completions", "type": "ClusterIP"}));
        assert_eq!(d["spec"]["backends"][0]["weight"], 1);
        // This CRD has no policy defaults: none are invented.
        assert_eq!(
            d["spec"]["policy"],
            json!({"classification": {}, "auditLog": {"filePath": "/x"},
                   "budgets": [{"name": "b", "scope": "router", "maxTokens": 10}]})
        );
        let typed: ModelRouter = serde_json::from_value(d).expect("types");
        assert_eq!(typed.spec.endpoint.and_then(|e| e.port), Some(9000));
    }

    #[test]
    fn explicit_values_win() {
        let d = defaulted(&crd("modelrouters-modified.yaml"), FULL);
        assert_eq!(d["spec"]["backends"][1]["tier"], "cloud");
        assert_eq!(d["spec"]["rules"][1]["route"]["strategy"], "shadow");
        let d = defaulted(
            &crd("modelrouters-modified.yaml"),
            "spec: {backends: [], dataPlane: Proxy, endpoint: {port: 1234, type: NodePort}}",
        );
        assert_eq!(d["spec"]["dataPlane"], "Proxy");
        assert_eq!(d["spec"]["endpoint"], json!({"port": 1234, "path": "/v1/chat/completions", "type": "NodePort"}));
    }

    #[test]
    fn a_null_where_null_is_not_allowed_takes_the_default() {
        let d = defaulted(&crd("modelrouters-modified.yaml"), "spec: {backends: [], dataPlane: null}");
        assert_eq!(d["spec"]["dataPlane"], "Gateway");
    }

    #[test]
    fn defaults_apply_only_under_existing_parents() {
        let crd = crd("modelrouters-builtin.yaml");
        let d = defaulted(&crd, "spec:\n  backends: []\n");
        assert_eq!(d, json!({"spec": {"backends": [], "dataPlane": "Proxy", "defaultRouteStrategy": "Static"}}));
        let d = defaulted(&crd, "spec:\n  backends: []\n  policy: {auditLog: {}}\n");
        assert_eq!(d["spec"]["policy"], json!({"auditLog": {"sink": "stdout"}}), "no classification invented");
        // No spec at all: nothing to default into.
        assert_eq!(defaulted(&crd, "metadata: {name: r}"), json!({"metadata": {"name": "r"}}));
    }

    /// Maps, nested arrays, and defaults inside a value a default put there.
    #[test]
    fn the_walk_covers_additional_properties_items_and_defaulted_values() {
        let text = format!(
            "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: {CRD_NAME}}}
spec:
  group: inference.llmkube.dev
  names: {{kind: ModelRouter, plural: modelrouters}}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              byName:
                type: object
                additionalProperties:
                  type: object
                  default: {{}}
                  properties:
                    weight: {{type: integer, default: 5}}
              matrix:
                type: array
                items:
                  type: array
                  items:
                    type: object
                    properties:
                      enabled: {{type: boolean, default: true}}
              holder:
                type: object
                default: {{}}
                properties:
                  inner: {{type: string, default: filled}}
              maybe:
                type: string
                nullable: true
                default: x
"
        );
        let crd = read_router_crd("crd.yaml", &text).expect("parses");
        let d = defaulted(
            &crd,
            "spec: {byName: {a: {}, b: {weight: 1}, c: null}, matrix: [[{}, {enabled: false}], []], maybe: null}",
        );
        assert_eq!(d["spec"]["byName"], json!({"a": {"weight": 5}, "b": {"weight": 1}, "c": {"weight": 5}}));
        assert_eq!(d["spec"]["matrix"], json!([[{"enabled": true}, {"enabled": false}], []]));
        assert_eq!(d["spec"]["holder"], json!({"inner": "filled"}));
        assert_eq!(d["spec"]["maybe"], Value::Null, "a nullable null is a value");
    }

    #[test]
    fn another_crd_or_another_object_is_an_error() {
        let err = read_router_crd("inferenceservices.yaml", &fixture("inferenceservices.yaml")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected the ModelRouter CustomResourceDefinition (modelrouters.inference.llmkube.dev), found CustomResourceDefinition inferenceservices.inference.llmkube.dev"
        );
        let err = read_router_crd("crd.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n").unwrap_err();
        assert!(err.to_string().ends_with("found ConfigMap x"), "{err}");
        assert!(read_router_crd("crd.yaml", "").unwrap_err().to_string().ends_with("found nothing"));
        assert!(read_router_crd("crd.yaml", "a: [1\n").unwrap_err().to_string().starts_with("not a YAML CRD"));

        let no_schema = fixture("modelrouters-builtin.yaml").replace("schema:", "notASchema:");
        let err = read_router_crd("crd.yaml", &no_schema).unwrap_err();
        assert!(err.to_string().contains("has no schema.openAPIV3Schema"), "{err}");
        let other_kind = fixture("modelrouters-builtin.yaml").replace("kind: ModelRouter", "kind: ModelRoute");
        let err = read_router_crd("crd.yaml", &other_kind).unwrap_err();
        assert!(err.to_string().contains("defines \"ModelRoute\""), "{err}");
    }

    #[test]
    fn the_crd_is_found_in_a_stream_or_a_list() {
        let stream = format!("{}\n---\n{}", fixture("inferenceservices.yaml"), fixture("modelrouters-modified.yaml"));
        assert_eq!(read_router_crd("crd.yaml", &stream).expect("found"), crd("modelrouters-modified.yaml"));
        let single: Value = crate::input::from_yaml_str(&fixture("modelrouters-modified.yaml")).expect("yaml");
        let list =
            serde_json::to_string(&json!({"apiVersion": "v1", "kind": "List", "items": [single]})).expect("json");
        assert_eq!(read_router_crd("crd.yaml", &list).expect("found"), crd("modelrouters-modified.yaml"));
    }

    #[test]
    fn the_version_routerctl_reads_is_preferred() {
        let two = fixture("modelrouters-modified.yaml").replace(
            "  versions:\n",
            "  versions:\n  - name: v1beta1\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema: {type: object}\n",
        );
        assert_eq!(read_router_crd("crd.yaml", &two).expect("parses").version, "v1alpha1");
        let renamed = fixture("modelrouters-modified.yaml").replace("name: v1alpha1", "name: v1beta1");
        let crd = read_router_crd("crd.yaml", &renamed).expect("parses");
        assert_eq!(crd.version, "v1beta1");
        let warning = compatibility_warning(&crd).expect("a warning");
        assert!(warning.contains("its schema is for version v1beta1, routerctl was built for v1alpha1"), "{warning}");
        let unserved = fixture("modelrouters-modified.yaml").replace("served: true", "served: false");
        assert!(read_router_crd("crd.yaml", &unserved).unwrap_err().to_string().ends_with("serves no version"));
    }

    #[test]
    fn compatibility_warnings_name_what_is_missing() {
        assert_eq!(compatibility_warning(&crd("modelrouters-builtin.yaml")), None);
        let warning = compatibility_warning(&crd("modelrouters-modified.yaml")).expect("a warning");
        assert_eq!(
            warning,
            "the CRD modelrouters.inference.llmkube.dev differs from the one routerctl was built for: it has no field spec.policy.classification.mode (built in: header-only), spec.policy.auditLog.sink (built in: stdout), spec.policy.budgets[].windowSeconds (built in: 3600); its defaults are used as they are, so those fields stay unset as that cluster's API server would leave them"
        );
        let undefaulted = fixture("modelrouters-builtin.yaml").replace("default: 8080", "minimum: 1");
        let warning =
            compatibility_warning(&read_router_crd("crd.yaml", &undefaulted).expect("parses")).expect("a warning");
        assert!(warning.contains("it sets no default for spec.endpoint.port (built in: 8080)"), "{warning}");
    }

    /// A CRD whose defaults equal the built-in ones gives the same typed
    /// ModelRouter as `apply_router_defaults`.
    #[test]
    fn built_in_equivalent_crd_matches_apply_router_defaults() {
        let crd = crd("modelrouters-builtin.yaml");
        let routers = [
            FULL,
            "spec:\n  backends:\n  - name: a\n    inferenceServiceRef: {name: m}\n",
            "spec:\n  dataPlane: Gateway\n  defaultRouteStrategy: Weighted\n  backends: [{name: a, tier: cloud}]\n  endpoint: {type: NodePort, nodePort: 30000}\n",
            "spec:\n  backends: [{name: a}]\n  rules: [{name: r, route: {backends: [a]}, failClosed: true}]\n  policy: {classification: {mode: classifier}}\n  proxy: {replicas: 2}\n",
        ];
        for yaml in routers {
            let mut builtin: ModelRouter = serde_json::from_value(doc(yaml)).expect("types");
            apply_router_defaults(&mut builtin);
            let from_crd: ModelRouter = serde_json::from_value(defaulted(&crd, yaml)).expect("types");
            assert_eq!(from_crd, builtin, "{yaml}");
        }
    }

    /// Every built-in default path is one `apply_router_defaults` fills.
    #[test]
    fn the_built_in_table_agrees_with_apply_router_defaults() {
        let mut builtin: ModelRouter = serde_json::from_value(doc(FULL)).expect("types");
        apply_router_defaults(&mut builtin);
        let s = &builtin.spec;
        let endpoint = s.endpoint.clone().expect("endpoint");
        let policy = s.policy.clone().expect("policy");
        let filled = [
            Some(s.data_plane.label().to_string()),
            s.default_route_strategy.clone(),
            s.backends[0].tier.clone(),
            s.rules.as_ref().and_then(|r| r[0].route.strategy.clone()),
            endpoint.port.map(|p| p.to_string()),
            endpoint.path,
            endpoint.type_,
            policy.classification.and_then(|c| c.mode),
            policy.audit_log.and_then(|a| a.sink),
            policy.budgets.and_then(|b| b[0].window_seconds).map(|w| w.to_string()),
        ];
        let table: Vec<Option<String>> = BUILT_IN_DEFAULTS.iter().map(|(_, v)| Some(v.to_string())).collect();
        assert_eq!(filled.to_vec(), table);
    }
}

#[cfg(test)]
mod built_in_schema_tests {
    use super::*;
    use crate::model::{apply_router_defaults, ModelRouter};

    /// The built-in schema's defaults and the typed model's agree on every
    /// field the model reads, on a router that leaves them all unset.
    #[test]
    fn schema_defaults_match_the_typed_defaults() {
        let text = "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: r}\nspec:\n  \
                    backends: [{name: a, inferenceServiceRef: {name: q}}, {name: b, external: {provider: openai, model: m}}]\n  \
                    rules: [{name: r1, route: {backends: [a]}}]\n  endpoint: {}\n  \
                    policy: {classification: {}, auditLog: {}, budgets: [{name: x, scope: router, maxTokens: 5}]}\n";
        let mut value: Value = crate::input::from_yaml_str(text).expect("parses");
        let mut typed: ModelRouter = serde_json::from_value(value.clone()).expect("typed");
        apply_router_defaults(&mut typed);
        built_in().apply(&mut value);
        let from_schema: ModelRouter = serde_json::from_value(value).expect("typed");
        assert_eq!(from_schema.spec, typed.spec);
    }

    #[test]
    fn the_built_in_schema_defaults_what_routerctl_knows() {
        let crd = built_in();
        assert_eq!(crd.version, BUILT_FOR_VERSION);
        assert_eq!(compatibility_warning(crd), None, "it is the schema the built-in defaults describe");
        assert!(crd.schema.at("spec.proxy.podLabels").is_some());
    }
}

#[cfg(test)]
mod release_schema_tests {
    use super::*;

    /// Every property path of a structural schema, `[]` for list items and
    /// `{}` for map values.
    fn paths(schema: &Value, prefix: &str, out: &mut Vec<String>) {
        if let Some(Value::Object(properties)) = schema.get("properties") {
            for (name, sub) in properties {
                let path = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
                out.push(path.clone());
                paths(sub, &path, out);
            }
        }
        if let Some(items) = schema.get("items") {
            paths(items, &format!("{prefix}[]"), out);
        }
        if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
            paths(values, &format!("{prefix}{{}}"), out);
        }
    }

    /// What the built-in (newest) schema has that a release's CRD lacks.
    fn lacking(release: &str) -> Vec<String> {
        let release = Release::parse(release).expect("a known release");
        let (mut all, mut known) = (Vec::new(), Vec::new());
        paths(&built_in().schema_json, "", &mut all);
        paths(&for_release(release).schema_json, "", &mut known);
        all.retain(|p| !known.contains(p));
        all.sort();
        all
    }

    /// The paths each upstream CRD lacks against the newest, read from
    /// config/crd/bases/inference.llmkube.dev_modelrouters.yaml at each tag
    /// where it changed (v0.7.8, v0.8.8, v0.8.9, v0.8.14, v0.8.17, v0.9.16);
    /// the releases between them share the earlier one's CRD.
    #[test]
    fn each_release_lacks_exactly_the_fields_its_crd_lacks() {
        let next = ["spec.proxy.podAnnotations", "spec.proxy.podLabels"];
        let v0916 = next.to_vec();
        let v0817 = [&["spec.proxy.nodeSelector"][..], &v0916].concat();
        let mut v0814 = [&["spec.backends[].displayName"][..], &v0817].concat();
        v0814.sort();
        let mut v0809 = [&["spec.defaultRouteStrategy", "spec.proxy.revisionHistoryLimit"][..], &v0814].concat();
        v0809.sort();
        let mut v0808 = [&["spec.endpoint.nodePort"][..], &v0809].concat();
        v0808.sort();
        let gateway = [
            "spec.dataPlane",
            "spec.endpoint.gateway",
            "spec.endpoint.gateway.enabled",
            "spec.endpoint.gateway.gatewayRef",
            "spec.endpoint.gateway.gatewayRef.name",
            "spec.endpoint.gateway.gatewayRef.namespace",
            "spec.endpoint.gateway.modelName",
            "spec.gatewayRef",
            "spec.gatewayRef.name",
            "spec.gatewayRef.namespace",
            "spec.policy.auth",
            "spec.policy.auth.allowlists",
            "spec.policy.auth.allowlists[].models",
            "spec.policy.auth.allowlists[].team",
            "spec.policy.auth.jwt",
            "spec.policy.auth.jwt.headerKey",
            "spec.policy.auth.jwt.issuer",
            "spec.policy.auth.jwt.jwksURI",
            "spec.policy.auth.jwt.provider",
            "spec.policy.auth.jwt.teamClaim",
        ];
        let mut v0807 = [&gateway[..], &v0808].concat();
        v0807.sort();
        let cases: [(&[&str], &[&str]); 7] = [
            (&["v0.7.8", "v0.8.7"], &v0807),
            (&["v0.8.8"], &v0808),
            (&["v0.8.9", "v0.8.13"], &v0809),
            (&["v0.8.14", "v0.8.16"], &v0814),
            (&["v0.8.17", "v0.9.15"], &v0817),
            (&["v0.9.16", "v0.9.19"], &v0916),
            (&["next"], &[]),
        ];
        for (releases, want) in cases {
            for release in releases {
                assert_eq!(lacking(release), want.to_vec(), "{release}");
            }
        }
    }

    #[test]
    fn an_older_release_prunes_and_defaults_by_its_own_crd() {
        let text =
            "spec:\n  dataPlane: Gateway\n  backends: [{name: a, displayName: A, inferenceServiceRef: {name: q}}]\n  \
                    proxy: {podLabels: {a: b}, replicas: 2}\n";
        let mut value: Value = crate::input::from_yaml_str(text).expect("parses");
        let old = for_release(Release::parse("v0.8.7").expect("known"));
        old.prune(&mut value);
        old.apply(&mut value);
        // No dataPlane (so no Proxy default either), no displayName, no
        // podLabels; what v0.7.8 knew stays and gets its defaults.
        assert_eq!(
            value,
            serde_json::json!({"spec": {
                "backends": [{"name": "a", "tier": "local", "inferenceServiceRef": {"name": "q"}}],
                "proxy": {"replicas": 2},
            }})
        );
    }
}
