//! An LLMKube custom resource checked as the API server checks it before
//! it stores it: its CRD's structural schema (for a ModelRouter the built-in
//! one, or the cluster's from `--crd`) walked by the engine (`schema::walk`,
//! then the CEL rules, `schema::cel`), the metadata rules the API server
//! applies to every object, and the label rules of the maps the operator
//! copies into the proxy's pod template (the Deployment the operator writes
//! would be refused with a bad key, so the router is refused here, where the
//! field is).
//!
//! What is refused ([`Severity::Error`]): whatever the schema refuses (types,
//! required fields, enums, patterns, bounds and formats, item counts,
//! duplicate keys in `map` lists, CEL rules), metadata syntax
//! (`metadata.name`, `.namespace`, `.labels`, `.annotations`) and label and
//! annotation syntax in `spec.proxy.podLabels`, `.podAnnotations` and
//! `.nodeSelector`.
//!
//! What is only warned about ([`Severity::Warning`]): a field the schema does
//! not know. The API server prunes it silently (or, under kubectl's strict
//! field validation, refuses it), so a typo such as `podLabel` quietly does
//! nothing; the warning names the closest known field.

use std::sync::OnceLock;

use serde_json::{json, Value};

use super::crd::built_in;
use super::metadata;
use super::{Finding, Severity};
use crate::input::child_path;
use crate::schema::crd::CrdSchema;
use crate::schema::structural::Schema;
use crate::schema::text::{found, quote};
use crate::schema::walk::Walk;

pub use crate::input::yaml::DOCUMENT_PATH;

/// Checks a whole ModelRouter document (as parsed from YAML into
/// `serde_json::Value`) against the built-in schema.
pub fn check_model_router(doc: &Value) -> Vec<Finding> {
    check_against(doc, built_in(), &|_| None)
}

/// Checks a document of `crd`'s kind against its schema. `written(path)` is
/// the text of a plain scalar kubectl read as a boolean or a number, so that
/// a "quote it" hint quotes what the user wrote (`sync: "yes"`), not what
/// kubectl made of it.
pub fn check_against(doc: &Value, crd: &CrdSchema, written: &dyn Fn(&str) -> Option<String>) -> Vec<Finding> {
    let Some(top) = doc.as_object() else {
        let message = format!("must be an object (a ModelRouter manifest), found {}", found(doc));
        return vec![Finding::error(DOCUMENT_PATH, message)];
    };
    let extra = |path: &str, value: &Value| syntax_rules(path, value);
    let mut walk = Walk::new(written);
    walk.extra = Some(&extra);
    match top.get("metadata") {
        // A missing metadata block is a missing name, said where the name belongs.
        None | Some(Value::Null) => walk.findings.push(Finding::error("metadata.name", "required")),
        Some(metadata) => walk.check(metadata, object_meta(), "metadata", Some("metadata")),
    }
    walk.check(doc, &crd.schema, "", None);
    let findings = walk.findings;
    // The API server evaluates CEL rules only on an object that passed the
    // structural checks.
    if crd.schema.has_rules && !findings.iter().any(|f| f.severity == Severity::Error) {
        let mut findings = findings;
        findings.extend(crd.check_rules(doc));
        return findings;
    }
    findings
}

/// ObjectMeta as far as a manifest sets it, for the types of its fields;
/// the API server validates it on every object (`ValidateObjectMeta`).
fn object_meta() -> &'static Schema {
    static META: OnceLock<Schema> = OnceLock::new();
    META.get_or_init(|| {
        let strings = json!({"type": "object", "additionalProperties": {"type": "string"}});
        let meta = json!({
            "type": "object",
            "required": ["name"],
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": {
                "name": {"type": "string"},
                "generateName": {"type": "string"},
                "namespace": {"type": "string"},
                "labels": strings,
                "annotations": strings,
            }
        });
        Schema::compile_built_in(&meta).expect("the ObjectMeta schema compiles")
    })
}

/// The rules the schema cannot say: object name and namespace syntax, and
/// label and annotation syntax in metadata and in the maps the operator
/// copies into the pod template.
fn syntax_rules(path: &str, value: &Value) -> Vec<Finding> {
    let mut findings = Vec::new();
    match (path, value) {
        ("metadata.name", Value::String(name)) if name.is_empty() => {
            findings.push(Finding::error(path, "must not be empty"));
        }
        ("metadata.name", Value::String(name)) => {
            for e in metadata::dns1123_subdomain_errors(name) {
                findings.push(Finding::error(path, format!("invalid name {}: {e}", quote(name))));
            }
        }
        ("metadata.namespace", Value::String(ns)) if !ns.is_empty() => {
            for e in metadata::dns1123_label_errors(ns) {
                findings.push(Finding::error(path, format!("invalid namespace {}: {e}", quote(ns))));
            }
        }
        ("metadata.labels" | "spec.proxy.podLabels" | "spec.proxy.nodeSelector", Value::Object(map)) => {
            label_map(map, Keys::Label, path, &mut findings);
        }
        ("metadata.annotations" | "spec.proxy.podAnnotations", Value::Object(map)) => {
            label_map(map, Keys::Annotation, path, &mut findings);
        }
        _ => {}
    }
    findings
}

/// Which syntax a map's keys follow.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keys {
    /// Label keys (qualified names), values label values.
    Label,
    /// Annotation keys (qualified names, case-insensitive); the map as a
    /// whole is held to the total annotation size.
    Annotation,
}

/// Key (and, for labels, value) syntax of a string map; wrong value types
/// are the schema's to report.
fn label_map(map: &serde_json::Map<String, Value>, keys: Keys, path: &str, findings: &mut Vec<Finding>) {
    for (key, value) in map {
        let entry = child_path(path, key);
        let key_errors = match keys {
            Keys::Label => metadata::qualified_name_errors(key),
            Keys::Annotation => metadata::annotation_key_errors(key),
        };
        for message in key_errors {
            findings.push(Finding::error(entry.clone(), format!("invalid key: {message}")));
        }
        if let (Keys::Label, Value::String(v)) = (keys, value) {
            for message in metadata::label_value_errors(v) {
                findings.push(Finding::error(entry.clone(), format!("invalid value {}: {message}", quote(v))));
            }
        }
    }
    if keys == Keys::Annotation {
        let strings = map.iter().filter_map(|(key, value)| value.as_str().map(|value| (key.as_str(), value)));
        if let Some((key, message)) = metadata::annotations_size_crossing(strings) {
            findings.push(Finding::error(child_path(path, key), message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::rules;
    use proptest::prelude::*;
    use serde_json::{json, Map};

    fn yaml(text: &str) -> Value {
        crate::input::from_yaml_str(text).expect("test YAML parses")
    }

    /// Findings as `path: message` lines, errors and warnings marked.
    fn lines(doc: &Value) -> Vec<String> {
        check_model_router(doc)
            .into_iter()
            .map(|finding| {
                let mark = match finding.severity {
                    Severity::Error => "E",
                    Severity::Warning => "W",
                    Severity::Note => "N",
                };
                format!("{mark} {finding}")
            })
            .collect()
    }

    /// A minimal valid router with `extra` spliced into its spec.
    fn router(extra_spec: &str) -> Value {
        let mut spec = String::from("  backends:\n  - name: local-a\n    inferenceServiceRef: {name: qwen}\n");
        for line in extra_spec.lines() {
            spec.push_str("  ");
            spec.push_str(line);
            spec.push('\n');
        }
        yaml(&format!(
            "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: r\nspec:\n{spec}"
        ))
    }

    const FULL: &str = r#"
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata:
  name: coding-router
  namespace: llm-prod
  labels:
    app.kubernetes.io/part-of: llm-platform
    team: ml-infra
  annotations:
    Example.COM/Owner: "ml-infra@example.com"
    argocd.argoproj.io/sync-wave: "2"
  uid: 0d6bd3f6-2f3c-4a55-9d1c-3a1d0f4c0a11
spec:
  dataPlane: Proxy
  defaultRoute: qwen-local
  defaultRouteStrategy: BackendNameMatch
  backends:
  - name: qwen-local
    displayName: qwen3-coder-30b
    inferenceServiceRef:
      name: qwen3-coder
    tier: local
    capabilities: [tools, long-context]
    weight: 3
    timeout: 45s
    healthCheck:
      path: /health
      intervalSeconds: 10
      timeoutSeconds: 2
    costPerMillionTokens:
      promptUSD: "0"
      completionUSD: "0"
  - name: claude-opus
    displayName: claude-opus-4-20250514
    external:
      provider: anthropic
      model: claude-opus-4-20250514
      url: https://api.anthropic.com
      credentialsSecretRef:
        name: anthropic-key
    tier: cloud
    capabilities: [tools, vision]
    weight: 0
    costPerMillionTokens:
      promptUSD: "15"
      completionUSD: "75.00"
  - name: litellm-gpt
    external:
      provider: litellm
      model: gpt-5
      url: http://litellm.llm-prod.svc:4000
    tier: cloud
  rules:
  - name: pii-stays-local
    failClosed: true
    timeout: 8s
    match:
      dataClassification: [pii, phi]
      headers:
        x-tenant: acme
        X-Region: eu-west-1
      models: ["qwen3-*"]
    route:
      backends: [qwen-local]
      strategy: primary-fallback
  - name: hard-tasks
    match:
      taskComplexity: complex
      requiredCapabilities: [tools]
      latencySLOMs: 1500
    route:
      backends: [claude-opus, litellm-gpt]
      strategy: weighted
  - name: catch-all
    route:
      backends: [qwen-local, claude-opus]
      strategy: shadow
  policy:
    classification:
      mode: hybrid
      headerKey: x-llmkube-classification
      sensitiveClassifications: [pii, phi]
    auditLog:
      sink: file
      filePath: /var/log/mlx-router/audit.log
      includeRequestBody: false
    budgets:
    - name: monthly-cloud
      scope: router
      maxUSD: "500.50"
      maxTokens: 20000000000
      windowSeconds: 2592000
    - name: per-team
      scope: team
      headerKey: x-llmkube-team
      maxTokens: 1000000
    - name: hard-rule
      scope: rule
      ruleName: hard-tasks
      maxUSD: "25"
    auth:
      jwt:
        provider: keycloak
        issuer: https://sso.example.com/realms/llm
        jwksURI: https://sso.example.com/realms/llm/protocol/openid-connect/certs
        teamClaim: team
        headerKey: x-llmkube-team
      allowlists:
      - team: ml-infra
        models: [qwen3-coder-30b, claude-opus-4-20250514]
      - team: interns
  endpoint:
    type: NodePort
    port: 8080
    nodePort: 30080
    path: /v1/chat/completions
    gateway:
      enabled: false
      modelName: coding
      gatewayRef:
        name: ai-gateway
        namespace: envoy-gateway-system
  gatewayRef:
    name: ai-gateway
    namespace: envoy-gateway-system
  mcpServer:
    enabled: false
  proxy:
    replicas: 2
    revisionHistoryLimit: 0
    image: registry.internal/llmkube/router-proxy@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    imagePullSecrets:
    - name: internal-registry
    quarantineDuration: 500ms
    responseHeaderTimeout: 2m
    nodeSelector:
      kubernetes.io/arch: amd64
      node-role.example.com/inference: ""
    podLabels:
      netpol.example.com/apiserver: allow
      inject: "true"
    podAnnotations:
      example.com/team: llm
      prometheus.io/scrape: "true"
      description: "Routes coding traffic: local first, then cloud."
    resources:
      requests:
        cpu: 250m
        memory: 128Mi
        ephemeral-storage: 1
      limits:
        cpu: 2
        memory: 1.5Gi
        example.com/fpga: "1e3"
      claims:
      - name: gpu
        request: small
      - name: nic
status:
  phase: Ready
  anything: [goes, here]
"#;

    #[test]
    fn a_full_valid_router_has_no_findings() {
        assert_eq!(lines(&yaml(FULL)), Vec::<String>::new());
    }

    #[test]
    fn the_minimal_router_has_no_findings() {
        assert_eq!(lines(&router("")), Vec::<String>::new());
    }

    #[test]
    fn wrong_types() {
        let doc = router(
            "mcpServer:\n  enabled: \"yes\"\nproxy:\n  image: 7\n  imagePullSecrets: {name: x}\n  replicas: \"3\"\n  \
             resources: []\nrules: nope",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.mcpServer.enabled: must be a boolean, found a string \"yes\"",
                "E spec.proxy.image: must be a string, found the number 7; quote it: image: \"7\"",
                "E spec.proxy.imagePullSecrets: must be a list, found an object",
                "E spec.proxy.replicas: must be an integer, found a string \"3\"",
                "E spec.proxy.resources: must be an object, found an empty list",
                "E spec.rules: must be a list, found a string \"nope\"",
            ]
        );
    }

    #[test]
    fn fractional_numbers_are_not_integers() {
        // kubectl reads YAML's `3.0` as a float and sends it as JSON `3`
        // (Go's encoder drops the fraction of an integral float): accepted.
        let doc = router("proxy:\n  replicas: 2.5\n  revisionHistoryLimit: 3.0");
        assert_eq!(lines(&doc), ["E spec.proxy.replicas: must be an integer, found the number 2.5"]);
        assert_eq!(doc["spec"]["proxy"]["revisionHistoryLimit"], 3);
        // A JSON float that reached the tree as one is still not an integer.
        let mut doc = doc;
        doc["spec"]["proxy"]["revisionHistoryLimit"] = json!(3.0);
        assert_eq!(
            lines(&doc),
            [
                "E spec.proxy.replicas: must be an integer, found the number 2.5",
                "E spec.proxy.revisionHistoryLimit: must be an integer, found the number 3.0",
            ]
        );
    }

    #[test]
    fn non_strings_in_string_maps_suggest_quotes() {
        let doc = router(
            "proxy:\n  nodeSelector:\n    gpu: false\n  podAnnotations:\n    example.com/ratio: 0.5\n    \
             nested: {a: b}\n  podLabels:\n    inject: true\n    replicas: 3\n    tier: ~\n\
             rules:\n- name: r\n  match:\n    headers:\n      x-priority: 1\n  route: {backends: [local-a]}",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.proxy.nodeSelector.gpu: must be a string, found the boolean false; quote it: gpu: \"false\"",
                "E spec.proxy.podAnnotations[\"example.com/ratio\"]: must be a string, found the number 0.5; \
                 quote it: example.com/ratio: \"0.5\"",
                "E spec.proxy.podAnnotations.nested: must be a string, found an object",
                "E spec.proxy.podLabels.inject: must be a string, found the boolean true; quote it: inject: \"true\"",
                "E spec.proxy.podLabels.replicas: must be a string, found the number 3; quote it: replicas: \"3\"",
                "W spec.proxy.podLabels.tier: null, which this field does not take: the API server drops the key; \
                 remove it, or write tier: \"\" for an empty value",
                "E spec.rules[0].match.headers.x-priority: must be a string, found the number 1; \
                 quote it: x-priority: \"1\"",
            ]
        );
    }

    #[test]
    fn non_strings_in_string_lists_suggest_quotes() {
        let doc = router("rules:\n- name: r\n  match:\n    models: [1.5, null, [x]]\n  route: {backends: [local-a]}");
        assert_eq!(
            lines(&doc),
            [
                "E spec.rules[0].match.models[0]: must be a string, found the number 1.5; quote it: - \"1.5\"",
                "E spec.rules[0].match.models[1]: must be a string, found null, which is not allowed here; \
                 use \"\" for an empty value: - \"\"",
                "E spec.rules[0].match.models[2]: must be a string, found a list",
            ]
        );
    }

    #[test]
    fn no_quote_hint_when_the_quoted_text_would_still_be_wrong() {
        let doc = router("dataPlane: true\npolicy:\n  budgets:\n  - {name: 12, scope: 1}");
        assert_eq!(
            lines(&doc),
            [
                "E spec.dataPlane: must be a string, found the boolean true",
                "E spec.policy.budgets[0].name: must be a string, found the number 12; quote it: name: \"12\"",
                "E spec.policy.budgets[0].scope: must be a string, found the number 1",
            ]
        );
    }

    #[test]
    fn missing_required_fields() {
        let doc = yaml(
            "metadata: {namespace: x}\nspec:\n  backends:\n  - displayName: a\n  - external: {url: u}\n    name: b\n\
             \x20 endpoint:\n    gateway: {gatewayRef: {namespace: gw}}\n  gatewayRef: {}\n  policy:\n    auth:\n      \
             allowlists: [{models: []}]\n      jwt: {}\n    budgets: [{}]\n  proxy:\n    resources:\n      \
             claims: [{request: x}]\n  rules:\n  - {}\n  - name: c\n    route: {}",
        );
        assert_eq!(
            lines(&doc),
            [
                "E metadata.name: required",
                "E spec.backends[0].name: required",
                "E spec.backends[1].external.model: required",
                "E spec.backends[1].external.provider: required",
                "E spec.endpoint.gateway.gatewayRef.name: required",
                "E spec.gatewayRef.name: required",
                "E spec.policy.auth.allowlists[0].team: required",
                "E spec.policy.auth.jwt.issuer: required",
                "E spec.policy.auth.jwt.jwksURI: required",
                "E spec.policy.auth.jwt.provider: required",
                "E spec.policy.auth.jwt.teamClaim: required",
                "E spec.policy.budgets[0].name: required",
                "E spec.policy.budgets[0].scope: required",
                "E spec.proxy.resources.claims[0].name: required",
                "E spec.rules[0].name: required",
                "E spec.rules[0].route: required",
                "E spec.rules[1].route.backends: required",
            ]
        );
    }

    #[test]
    fn missing_spec_metadata_and_backends() {
        assert_eq!(
            lines(&json!({"apiVersion": "v", "kind": "ModelRouter"})),
            ["E metadata.name: required", "E spec: required"]
        );
        assert_eq!(
            lines(&json!({"metadata": {"name": "r"}, "spec": {"backends": null, "rules": null}})),
            [
                "E spec.backends: required, found null",
                "W spec.rules: null, which this field does not take: the API server drops the key; remove it"
            ]
        );
        assert_eq!(lines(&json!({"metadata": {"name": "r"}, "spec": {}})), ["E spec.backends: required"]);
        assert_eq!(
            lines(&json!({"metadata": null, "spec": null})),
            ["E metadata.name: required", "E spec: required, found null"]
        );
    }

    #[test]
    fn null_optional_fields_are_dropped_with_a_warning() {
        // PruneNonNullableNullsWithoutDefaults: the API server drops a null
        // that is not nullable and has no default; `endpoint.type` has one,
        // which replaces the null.
        let doc = router("proxy:\n  replicas: null\n  podLabels: ~\nendpoint:\n  type: null\npolicy: null");
        let dropped = "null, which this field does not take: the API server drops the key; remove it";
        assert_eq!(
            lines(&doc),
            [
                format!("W spec.policy: {dropped}"),
                format!("W spec.proxy.podLabels: {dropped}"),
                format!("W spec.proxy.replicas: {dropped}"),
            ]
        );
    }

    #[test]
    fn enum_violations() {
        let doc = router(
            "dataPlane: proxy\nendpoint: {type: Ingress}\nrules:\n- name: r\n  match: {taskComplexity: \"\"}\n  \
             route: {backends: [local-a], strategy: round-robin}",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.dataPlane: unsupported value \"proxy\"; must be one of \"Proxy\", \"Gateway\"; \
                 did you mean \"Proxy\"?",
                "E spec.endpoint.type: unsupported value \"Ingress\"; must be one of \"ClusterIP\", \"NodePort\", \
                 \"LoadBalancer\"",
                "E spec.rules[0].match.taskComplexity: unsupported value \"\"; must be one of \"simple\", \
                 \"moderate\", \"complex\"",
                "E spec.rules[0].route.strategy: unsupported value \"round-robin\"; must be one of \
                 \"primary-fallback\", \"weighted\", \"shadow\"",
            ]
        );
        let external = router("policy:\n  auditLog: {sink: stderr}");
        assert_eq!(
            lines(&external),
            ["E spec.policy.auditLog.sink: unsupported value \"stderr\"; must be one of \"stdout\", \"file\", \
              \"otlp\""]
        );
    }

    #[test]
    fn provider_and_tier_enums() {
        let doc = yaml(
            "metadata: {name: r}\nspec:\n  backends:\n  - external: {model: m, provider: OpenAI}\n    name: a\n    \
             tier: Cloud",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.backends[0].external.provider: unsupported value \"OpenAI\"; must be one of \"anthropic\", \
                 \"openai\", \"bedrock\", \"vertex_ai\", \"litellm\"; did you mean \"openai\"?",
                "E spec.backends[0].tier: unsupported value \"Cloud\"; must be one of \"local\", \"cloud\"; \
                 did you mean \"cloud\"?",
            ]
        );
    }

    #[test]
    fn name_patterns() {
        let long = "n".repeat(64);
        let doc = json!({
            "metadata": {"name": "r"},
            "spec": {
                "backends": [
                    {"name": "Qwen"}, {"name": "-qwen"}, {"name": "qwen_local"}, {"name": ""},
                    {"name": "0-ok-"}, {"name": long.clone()}, {"name": "n".repeat(63)}
                ],
                "policy": {"budgets": [{"name": "Budget 1", "scope": "router"}]},
                "rules": [{"name": "Route.A", "route": {"backends": ["x"]}}]
            }
        });
        // The CRD's pattern for these names, as the API server reports it.
        let rule = "does not match the pattern \"^[a-z0-9][a-z0-9-]{0,62}$\"";
        assert_eq!(
            lines(&doc),
            [
                format!("E spec.backends[0].name: \"Qwen\" {rule}"),
                format!("E spec.backends[1].name: \"-qwen\" {rule}"),
                format!("E spec.backends[2].name: \"qwen_local\" {rule}"),
                format!("E spec.backends[3].name: \"\" {rule}"),
                format!("E spec.backends[5].name: \"{long}\" {rule}"),
                format!("E spec.policy.budgets[0].name: \"Budget 1\" {rule}"),
                format!("E spec.rules[0].name: \"Route.A\" {rule}"),
            ]
        );
    }

    #[test]
    fn usd_patterns() {
        let doc = yaml(
            "metadata: {name: r}\nspec:\n  backends:\n  - name: a\n    costPerMillionTokens:\n      \
             completionUSD: \"$15\"\n      promptUSD: \"1.\"\n  - name: b\n    costPerMillionTokens:\n      \
             completionUSD: \".5\"\n      promptUSD: \"3.25\"\n  policy:\n    budgets:\n    - name: x\n      \
             scope: router\n      maxUSD: \"1,000\"",
        );
        let rule = r#"does not match the pattern "^[0-9]+(\\.[0-9]+)?$""#;
        assert_eq!(
            lines(&doc),
            [
                format!("E spec.backends[0].costPerMillionTokens.completionUSD: \"$15\" {rule}"),
                format!("E spec.backends[0].costPerMillionTokens.promptUSD: \"1.\" {rule}"),
                format!("E spec.backends[1].costPerMillionTokens.completionUSD: \".5\" {rule}"),
                format!("E spec.policy.budgets[0].maxUSD: \"1,000\" {rule}"),
            ]
        );
    }

    #[test]
    fn usd_as_a_bare_number_suggests_quotes() {
        let doc = router("policy:\n  budgets:\n  - {name: b, scope: router, maxUSD: 500}");
        assert_eq!(
            lines(&doc),
            ["E spec.policy.budgets[0].maxUSD: must be a string, found the number 500; quote it: maxUSD: \"500\""]
        );
    }

    #[test]
    fn numeric_bounds() {
        let doc = router(
            "endpoint:\n  nodePort: 32768\n  port: 0\npolicy:\n  budgets:\n  \
             - {maxTokens: 0, name: b, scope: router, windowSeconds: 3000000000}\n\
             proxy:\n  replicas: 11\n  revisionHistoryLimit: -1",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.endpoint.nodePort: must be at most 32767, found 32768",
                "E spec.endpoint.port: must be at least 1, found 0",
                "E spec.policy.budgets[0].maxTokens: must be at least 1, found 0",
                "E spec.policy.budgets[0].windowSeconds: 3000000000 does not fit a 32-bit integer (format int32)",
                "E spec.proxy.replicas: must be at most 10, found 11",
                "E spec.proxy.revisionHistoryLimit: must be at least 0, found -1",
            ]
        );
        let huge = json!({"metadata": {"name": "r"}, "spec": {"backends": [{"name": "a", "weight": u64::MAX}]}});
        assert_eq!(
            lines(&huge),
            ["E spec.backends[0].weight: 18446744073709551615 does not fit a 32-bit integer (format int32)"]
        );
    }

    #[test]
    fn min_items_and_min_length() {
        let doc = yaml(
            "metadata: {name: r}\nspec:\n  backends: []\n  policy:\n    auth:\n      allowlists: [{team: \"\"}]\n      \
             jwt: {issuer: \"\", jwksURI: u, provider: p, teamClaim: t}\n  rules:\n  - name: r\n    \
             route: {backends: []}",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.backends: must have at least 1 item",
                "E spec.policy.auth.allowlists[0].team: must not be empty",
                "E spec.policy.auth.jwt.issuer: must not be empty",
                "E spec.rules[0].route.backends: must have at least 1 item",
            ]
        );
    }

    #[test]
    fn duplicate_claims() {
        let doc = router("proxy:\n  resources:\n    claims: [{name: gpu}, {name: nic}, {name: gpu, request: big}]");
        assert_eq!(lines(&doc), ["E spec.proxy.resources.claims[2]: duplicate entry with key name=\"gpu\""]);
    }

    #[test]
    fn unknown_fields_are_warnings_with_suggestions() {
        let doc = yaml(
            "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nextra: ignored\n\
             metadata: {name: r, finalizers: [x], whatever: 1}\nspec:\n  backend: []\n  backends:\n  \
             - name: a\n    inferenceServiceref: {name: q}\n    zzz: 1\n  proxy:\n    podLabel: {a: b}\n    \
             replica: 2\n",
        );
        assert_eq!(
            lines(&doc),
            [
                // The API server prunes unknown top-level fields too.
                "W extra: unknown field",
                "W spec.backend: unknown field; did you mean backends?",
                "W spec.backends[0].inferenceServiceref: unknown field; did you mean inferenceServiceRef?",
                "W spec.backends[0].zzz: unknown field; known fields here: capabilities, costPerMillionTokens, \
                 displayName, external, healthCheck, inferenceServiceRef, name, tier, timeout, weight",
                "W spec.proxy.podLabel: unknown field; did you mean podLabels?",
                "W spec.proxy.replica: unknown field; did you mean replicas?",
            ]
        );
    }

    #[test]
    fn label_and_annotation_syntax() {
        let doc = yaml(
            "metadata:\n  annotations:\n    Example.com/ok: x\n  labels:\n    bad key: v\n  name: r\nspec:\n  \
             backends: [{name: a}]\n  proxy:\n    nodeSelector:\n      kubernetes.io/hostname: node_1.\n    \
             podAnnotations:\n      Example.com/fine: \"any value at all, spaces and: colons\"\n      bad_/x: z\n    \
             podLabels:\n      Example.com/team: \"has space\"\n      a/b/c: x\n      example.com/: x\n      \
             ok: \"-dash\"\n",
        );
        let three = "invalid key: a qualified name must consist of alphanumeric characters, '-', '_' or '.', and \
                     must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', \
                     regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS \
                     subdomain prefix and '/' (e.g. 'example.com/MyName')";
        let name_part = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end \
                         with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for \
                         validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        let prefix_part = "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
                           characters, '-' or '.', and must start and end with an alphanumeric character (e.g. \
                           'example.com', regex used for validation is \
                           '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
        let value_rule = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or \
                          '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or \
                          'my_value',  or '12345', regex used for validation is \
                          '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
        assert_eq!(
            lines(&doc),
            [
                format!("E metadata.labels[\"bad key\"]: invalid key: {name_part}"),
                format!(
                    "E spec.proxy.nodeSelector[\"kubernetes.io/hostname\"]: invalid value \"node_1.\": {value_rule}"
                ),
                format!("E spec.proxy.podAnnotations[\"bad_/x\"]: invalid key: {prefix_part}"),
                format!("E spec.proxy.podLabels[\"Example.com/team\"]: invalid key: {prefix_part}"),
                format!("E spec.proxy.podLabels[\"Example.com/team\"]: invalid value \"has space\": {value_rule}"),
                format!("E spec.proxy.podLabels[\"a/b/c\"]: {three}"),
                "E spec.proxy.podLabels[\"example.com/\"]: invalid key: name part must be non-empty".to_string(),
                format!("E spec.proxy.podLabels.ok: invalid value \"-dash\": {value_rule}"),
            ]
        );
    }

    #[test]
    fn long_label_values() {
        let ok = "v".repeat(63);
        let too_long = "v".repeat(64);
        let doc = json!({
            "metadata": {"name": "r"},
            "spec": {"backends": [{"name": "a"}], "proxy": {"podLabels": {"a": ok, "b": too_long}}}
        });
        assert_eq!(
            lines(&doc),
            [format!(
                "E spec.proxy.podLabels.b: invalid value \"{too_long}\": must be no more than 63 characters (found 64)"
            )]
        );
    }

    #[test]
    fn annotation_total_size() {
        let big = "x".repeat(metadata::TOTAL_ANNOTATION_SIZE_LIMIT);
        let doc = json!({
            "metadata": {"name": "r", "annotations": {"a": big.clone()}},
            "spec": {"backends": [{"name": "a"}], "proxy": {"podAnnotations": {"k": big, "ok": 1}}}
        });
        let found = lines(&doc);
        assert_eq!(found.len(), 3, "{found:?}");
        // Placed on the key whose bytes pass the limit, in key order.
        assert_eq!(
            found[0],
            "E metadata.annotations.a: too long: annotation keys and values together must be no more than \
             262144 bytes (256 KiB); they pass it here, in key order (262145 bytes in all)"
        );
        assert!(found[1].starts_with("E spec.proxy.podAnnotations.ok: must be a string, found the number 1"));
        assert_eq!(
            found[2],
            "E spec.proxy.podAnnotations.k: too long: annotation keys and values together must be no more than \
             262144 bytes (256 KiB); they pass it here, in key order (262145 bytes in all)"
        );
    }

    #[test]
    fn long_strings_are_shortened_in_messages() {
        let long = "Q".repeat(200);
        let doc = json!({"metadata": {"name": "r"}, "spec": {"backends": [{"name": "a", "tier": long}]}});
        let found = lines(&doc);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with(&format!(
                "E spec.backends[0].tier: unsupported value \"{}\"... (200 characters);",
                "Q".repeat(40)
            )),
            "{found:?}"
        );
    }

    #[test]
    fn metadata_name_and_namespace() {
        let doc = json!({"metadata": {"name": "Coding_Router", "namespace": "llm.prod"}, "spec": {"backends": [{"name": "a"}]}});
        assert_eq!(
            lines(&doc),
            [
                "E metadata.name: invalid name \"Coding_Router\": a lowercase RFC 1123 subdomain must consist of \
                 lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric \
                 character (e.g. 'example.com', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "E metadata.namespace: invalid namespace \"llm.prod\": must not contain dots",
            ]
        );
        let empty = json!({"metadata": {"name": "", "namespace": ""}, "spec": {"backends": [{"name": "a"}]}});
        assert_eq!(lines(&empty), ["E metadata.name: must not be empty"]);
        let wrong = json!({"metadata": {"labels": ["a"], "name": 5}, "spec": {"backends": [{"name": "a"}]}});
        assert_eq!(
            lines(&wrong),
            [
                "E metadata.labels: must be an object, found a list",
                "E metadata.name: must be a string, found the number 5; quote it: name: \"5\"",
            ]
        );
        let dotted = json!({"metadata": {"name": "my.router"}, "spec": {"backends": [{"name": "a"}]}});
        assert_eq!(lines(&dotted), Vec::<String>::new());
    }

    #[test]
    fn not_an_object_at_all() {
        assert_eq!(lines(&json!([1, 2])), ["E (document): must be an object (a ModelRouter manifest), found a list"]);
        assert_eq!(lines(&Value::Null), ["E (document): must be an object (a ModelRouter manifest), found null"]);
        assert_eq!(
            lines(&json!({"metadata": "r", "spec": 3})),
            ["E metadata: must be an object, found a string \"r\"", "E spec: must be an object, found the number 3"]
        );
    }

    #[test]
    fn odd_keys_get_bracketed_paths() {
        let doc = json!({"metadata": {"name": "r"}, "spec": {"backends": [{"": 2, "name": "a", "we ight": 1}]}});
        let found = lines(&doc);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("W spec.backends[0][\"\"]: unknown field;"), "{found:?}");
        assert!(found[1].starts_with("W spec.backends[0][\"we ight\"]: unknown field; did you mean weight?"));
    }

    #[test]
    fn severities() {
        let findings = check_model_router(&router("proxy:\n  replica: 1\n  replicas: 0"));
        let severities: Vec<Severity> = findings.iter().map(|finding| finding.severity).collect();
        assert_eq!(severities, [Severity::Warning, Severity::Error]);
    }

    /// Field names the schema knows, so that random documents reach deep.
    const VOCABULARY: &[&str] = &[
        "apiVersion",
        "kind",
        "metadata",
        "name",
        "namespace",
        "labels",
        "annotations",
        "spec",
        "status",
        "backends",
        "rules",
        "policy",
        "proxy",
        "endpoint",
        "gateway",
        "gatewayRef",
        "mcpServer",
        "enabled",
        "external",
        "provider",
        "model",
        "url",
        "credentialsSecretRef",
        "healthCheck",
        "intervalSeconds",
        "inferenceServiceRef",
        "tier",
        "weight",
        "timeout",
        "capabilities",
        "costPerMillionTokens",
        "promptUSD",
        "completionUSD",
        "displayName",
        "match",
        "route",
        "strategy",
        "headers",
        "models",
        "taskComplexity",
        "latencySLOMs",
        "failClosed",
        "budgets",
        "scope",
        "maxUSD",
        "maxTokens",
        "auth",
        "jwt",
        "allowlists",
        "team",
        "issuer",
        "auditLog",
        "sink",
        "classification",
        "mode",
        "replicas",
        "resources",
        "limits",
        "requests",
        "claims",
        "cpu",
        "podLabels",
        "podAnnotations",
        "nodeSelector",
        "imagePullSecrets",
        "port",
        "nodePort",
        "type",
        "dataPlane",
        "example.com/x",
        "a/b/c",
        "",
    ];

    /// JSON pointers to every object in `v`, `v` itself first.
    fn object_pointers(v: &Value, at: String, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                out.push(at.clone());
                for (key, child) in map {
                    object_pointers(child, format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), out);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    object_pointers(child, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }

    fn arbitrary_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            prop::sample::select(VOCABULARY).prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
            "[0-9.+eEKMGi-]{0,6}".prop_map(Value::from),
        ];
        let key = prop_oneof![3 => prop::sample::select(VOCABULARY).prop_map(str::to_string), 1 => ".{0,10}"];
        leaf.prop_recursive(6, 96, 8, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((key.clone(), inner), 0..8)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<String, Value>>())),
            ]
        })
    }

    proptest! {
        #[test]
        fn never_panics_on_arbitrary_json(doc in arbitrary_json()) {
            let _ = check_model_router(&doc);
        }

        #[test]
        fn never_panics_with_arbitrary_spec_and_metadata(spec in arbitrary_json(), meta in arbitrary_json()) {
            let doc = json!({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "metadata": meta, "spec": spec});
            for finding in check_model_router(&doc) {
                prop_assert!(finding.path.starts_with("spec") || finding.path.starts_with("metadata"), "{}", finding);
                prop_assert!(!finding.message.is_empty());
            }
        }

        /// Pruning is skipped for documents the check has no warning about,
        /// so the check must warn about every field pruning would drop.
        #[test]
        fn pruning_drops_exactly_what_the_check_warns_about(
            insertions in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(VOCABULARY), arbitrary_json()), 0..4),
        ) {
            let mut doc = yaml(FULL);
            for (at, key, value) in insertions {
                let mut objects = Vec::new();
                object_pointers(&doc, String::new(), &mut objects);
                let pointer = at.get(&objects).clone();
                if let Some(Value::Object(map)) = doc.pointer_mut(&pointer) {
                    map.insert(key.to_string(), value);
                }
            }
            let findings = check_model_router(&doc);
            prop_assume!(findings.iter().all(|f| f.severity == Severity::Warning));
            let warned = findings.iter().any(|f| [rules::UNKNOWN_FIELD, rules::NULL_DROPPED].contains(&f.rule));
            let mut pruned = doc.clone();
            built_in().prune(&mut pruned);
            prop_assert_eq!(pruned != doc, warned, "findings: {:?}", findings.iter().map(ToString::to_string).collect::<Vec<_>>());
        }
    }
}
