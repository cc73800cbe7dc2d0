//! The proxy Deployment: pod template metadata (user keys under the
//! operator's), the applied-key records, and the pod spec.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context as _, Result};
use k8s_openapi::api::core::v1::ResourceClaim;
use serde_json::{json, Map, Value};

use super::config::Compiled;
use super::input::{OperatorFlags, RouterInput};
use super::object::{fields, non_empty, object, owned_metadata, string_object};
use crate::kube::names::{
    resource_name, selector_labels, APPLIED_POD_ANNOTATIONS_ANNOTATION, APPLIED_POD_LABELS_ANNOTATION,
    CONFIG_HASH_ANNOTATION, CONFIG_KEY, CONFIG_MOUNT_PATH, CONTAINER_NAME, DEFAULT_PROXY_IMAGE, METRICS_PORT,
    PROXY_PORT, SCRAPE_ANNOTATIONS,
};
use crate::model::duration::{format_go_duration, parse_at};
use crate::model::quantity::canonicalize_resource;
use crate::model::{QuantityText, RouterProxySpec};
use crate::release::Change;

/// The pod-template metadata the operator wants, and the record of which user
/// keys made it in. The update path prunes and merges with this.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PodMetadata {
    /// `spec.proxy.podLabels` overlaid by the selector labels.
    pub labels: BTreeMap<String, String>,
    /// `spec.proxy.podAnnotations` overlaid by the operator's annotations.
    pub annotations: BTreeMap<String, String>,
    /// User label keys the operator did not override, sorted.
    pub applied_labels: Vec<String>,
    /// User annotation keys the operator did not override, sorted.
    pub applied_annotations: Vec<String>,
    /// The operator's own template labels (the selector labels).
    pub operator_labels: BTreeMap<String, String>,
    /// The operator's own template annotations (config hash, scrape keys).
    pub operator_annotations: BTreeMap<String, String>,
    /// Every key `spec.proxy.podAnnotations` sets (scrape cleanup spares them).
    pub user_annotation_keys: BTreeSet<String>,
    /// Whether the operator adds scrape annotations to the proxy pods (it
    /// runs with `--emit-scrape-annotations` and has the pod-metadata change;
    /// released operators add them to InferenceService pods only).
    pub emit_scrape: bool,
    /// Whether the operator has the pod-metadata change: it records the user
    /// keys it applies, prunes those that left the spec and cleans up stale
    /// scrape annotations. Released operators only merge.
    pub tracks_user_keys: bool,
}

/// A record annotation's value: keys joined with `,`; `None` when empty,
/// because an empty record is not written.
pub fn record_value(keys: &[String]) -> Option<String> {
    (!keys.is_empty()).then(|| keys.join(","))
}

/// Overlays the operator's keys on the user's and records the user keys that
/// survived.
fn overlay(
    user: Option<&BTreeMap<String, String>>,
    operator: BTreeMap<String, String>,
) -> (BTreeMap<String, String>, Vec<String>) {
    let user = user.cloned().unwrap_or_default();
    let applied = user.keys().filter(|k| !operator.contains_key(*k)).cloned().collect();
    let mut merged = user;
    merged.extend(operator);
    (merged, applied)
}

pub fn pod_metadata(input: &RouterInput, config_hash: &str, flags: &OperatorFlags) -> PodMetadata {
    let proxy = input.router.spec.proxy.as_ref();
    let user_labels = proxy.and_then(|p| p.pod_labels.as_ref());
    let user_annotations = proxy.and_then(|p| p.pod_annotations.as_ref());
    let mut operator_annotations = BTreeMap::from([(CONFIG_HASH_ANNOTATION.to_string(), config_hash.to_string())]);
    let tracks_user_keys = flags.release.has(Change::PodMetadata);
    let emit_scrape = flags.emit_scrape_annotations && tracks_user_keys;
    if emit_scrape {
        for (k, v) in SCRAPE_ANNOTATIONS {
            operator_annotations.insert(k.to_string(), v.to_string());
        }
    }
    let operator_labels = selector_labels(&input.name);
    let (labels, applied_labels) = overlay(user_labels, operator_labels.clone());
    let (annotations, applied_annotations) = overlay(user_annotations, operator_annotations.clone());
    PodMetadata {
        labels,
        annotations,
        operator_labels,
        operator_annotations,
        applied_labels,
        applied_annotations,
        user_annotation_keys: user_annotations.map(|m| m.keys().cloned().collect()).unwrap_or_default(),
        emit_scrape,
        tracks_user_keys,
    }
}

pub fn build(input: &RouterInput, compiled: &Compiled, flags: &OperatorFlags) -> Result<(Value, PodMetadata)> {
    let proxy = input.router.spec.proxy.as_ref();
    let pods = pod_metadata(input, &compiled.hash, flags);
    let replicas = if compiled.has_pools {
        // ModelPool activation serializes swaps in one process: one replica.
        1
    } else {
        proxy.and_then(|p| p.replicas).unwrap_or(1)
    };
    let mut metadata = owned_metadata(input);
    let records: BTreeMap<String, String> = [
        (APPLIED_POD_LABELS_ANNOTATION, record_value(&pods.applied_labels)),
        (APPLIED_POD_ANNOTATIONS_ANNOTATION, record_value(&pods.applied_annotations)),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
    .collect();
    if let Some(records) = non_empty(records) {
        metadata.insert("annotations".into(), string_object(records));
    }

    let mut template_metadata = Map::new();
    if let Some(labels) = non_empty(pods.labels.clone()) {
        template_metadata.insert("labels".into(), string_object(labels));
    }
    if let Some(annotations) = non_empty(pods.annotations.clone()) {
        template_metadata.insert("annotations".into(), string_object(annotations));
    }
    let mut spec = Map::new();
    spec.insert("replicas".into(), Value::from(replicas));
    if let Some(limit) = proxy.and_then(|p| p.revision_history_limit) {
        spec.insert("revisionHistoryLimit".into(), Value::from(limit));
    }
    spec.insert("selector".into(), fields([("matchLabels", string_object(selector_labels(&input.name)))]));
    spec.insert(
        "template".into(),
        fields([("metadata", Value::Object(template_metadata)), ("spec", pod_spec(input, compiled, flags)?)]),
    );
    let mut deployment = object("apps/v1", "Deployment", metadata);
    deployment.insert("spec".into(), Value::Object(spec));
    Ok((Value::Object(deployment), pods))
}

fn pod_spec(input: &RouterInput, compiled: &Compiled, flags: &OperatorFlags) -> Result<Value> {
    let proxy = input.router.spec.proxy.as_ref();
    let name = resource_name(&input.name);
    let image = proxy
        .and_then(|p| p.image.clone())
        .filter(|i| !i.is_empty())
        .or_else(|| flags.router_proxy_image.clone().filter(|i| !i.is_empty()))
        .unwrap_or_else(|| DEFAULT_PROXY_IMAGE.to_string());
    let mut container = Map::new();
    container.insert("name".into(), Value::from(CONTAINER_NAME));
    container.insert("image".into(), Value::String(image));
    container.insert("imagePullPolicy".into(), Value::from("IfNotPresent"));
    let metrics = flags.release.has(Change::MetricsListener);
    container.insert("args".into(), Value::from(args(proxy, compiled.has_pools, metrics)?));
    let mut ports = vec![json!({"name": "http", "containerPort": PROXY_PORT, "protocol": "TCP"})];
    if metrics {
        ports.push(json!({"name": "metrics", "containerPort": METRICS_PORT, "protocol": "TCP"}));
    }
    container.insert("ports".into(), Value::Array(ports));
    if compiled.has_pools {
        container.insert("env".into(), json!([{"name": "ROUTER_NAME", "value": input.name}]));
    }
    let env_from = credentials_env_from(input);
    if !env_from.is_empty() {
        container.insert("envFrom".into(), Value::Array(env_from));
    }
    container.insert(
        "volumeMounts".into(),
        json!([{"name": "router-config", "mountPath": CONFIG_MOUNT_PATH, "readOnly": true}]),
    );
    container.insert("resources".into(), resources(proxy)?);
    container.insert(
        "securityContext".into(),
        json!({
            "allowPrivilegeEscalation": false,
            "readOnlyRootFilesystem": true,
            "runAsNonRoot": true,
            "capabilities": {"drop": ["ALL"]},
        }),
    );
    container.insert("livenessProbe".into(), probe(20, 10));
    container.insert("readinessProbe".into(), probe(5, 5));

    let mut pod = Map::new();
    if compiled.has_pools {
        pod.insert("serviceAccountName".into(), Value::String(name.clone()));
    }
    pod.insert(
        "securityContext".into(),
        json!({
            "runAsNonRoot": true,
            "runAsUser": 65532,
            "fsGroup": 65532,
            "seccompProfile": {"type": "RuntimeDefault"},
        }),
    );
    if let Some(secrets) = proxy.and_then(|p| p.image_pull_secrets.as_ref()).filter(|s| !s.is_empty()) {
        let secrets = secrets.iter().map(|r| json!({"name": r.name})).collect();
        pod.insert("imagePullSecrets".into(), Value::Array(secrets));
    }
    if let Some(selector) = proxy.and_then(|p| p.node_selector.clone()).and_then(non_empty) {
        pod.insert("nodeSelector".into(), string_object(selector));
    }
    pod.insert("containers".into(), Value::Array(vec![Value::Object(container)]));
    pod.insert("volumes".into(), json!([{"name": "router-config", "configMap": {"name": name}}]));
    Ok(Value::Object(pod))
}

/// Required flags first; the optional ones only when the spec sets them, so
/// the proxy keeps its compiled-in defaults otherwise. The metrics listener
/// arrived in v0.9.16 (#1457).
fn args(proxy: Option<&RouterProxySpec>, has_pools: bool, metrics: bool) -> Result<Vec<String>> {
    let mut args: Vec<String> = [
        "--config".to_string(),
        format!("{CONFIG_MOUNT_PATH}/{CONFIG_KEY}"),
        "--listen".to_string(),
        format!(":{PROXY_PORT}"),
    ]
    .into();
    if metrics {
        args.push("--metrics-bind-address".to_string());
        args.push(format!(":{METRICS_PORT}"));
    }
    args.push("--log-format".to_string());
    args.push("json".to_string());
    let durations = [
        ("--quarantine-duration", "quarantineDuration", proxy.and_then(|p| p.quarantine_duration.as_ref())),
        ("--response-header-timeout", "responseHeaderTimeout", proxy.and_then(|p| p.response_header_timeout.as_ref())),
    ];
    for (flag, field, value) in durations {
        if let Some(text) = value {
            let nanos = parse_at(&format!("spec.proxy.{field}"), text)?;
            args.push(flag.to_string());
            args.push(format_go_duration(nanos));
        }
    }
    if has_pools {
        args.push("--enable-activation".to_string());
    }
    Ok(args)
}

/// One optional secretRef per distinct credentials Secret, in backend order.
fn credentials_env_from(input: &RouterInput) -> Vec<Value> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for b in &input.router.spec.backends {
        let Some(secret) = b.external.as_ref().and_then(|e| e.credentials_secret_ref.as_ref()) else {
            continue;
        };
        if seen.insert(secret.name.as_str()) {
            out.push(json!({"secretRef": {"name": secret.name, "optional": true}}));
        }
    }
    out
}

fn quantities(path: &str, m: &BTreeMap<String, QuantityText>) -> Result<BTreeMap<String, String>> {
    m.iter()
        .map(|(k, v)| {
            let canonical = canonicalize_resource(&v.0).with_context(|| {
                format!("{path}.{k}: not a Kubernetes quantity (write it like 500m, 1.5, 64Mi or 1Gi)")
            })?;
            Ok((k.clone(), canonical))
        })
        .collect()
}

/// `spec.proxy.resources` as the API server stores them (parsed, rounded up
/// to a milli, canonical unless already written canonically), or the operator's defaults when
/// it sets neither requests nor limits.
fn resources(proxy: Option<&RouterProxySpec>) -> Result<Value> {
    let spec = proxy.and_then(|p| p.resources.as_ref());
    let (limits, requests) = (spec.and_then(|r| r.limits.as_ref()), spec.and_then(|r| r.requests.as_ref()));
    if limits.is_none() && requests.is_none() {
        return Ok(json!({
            "requests": {"cpu": "50m", "memory": "64Mi"},
            "limits": {"cpu": "500m", "memory": "256Mi"},
        }));
    }
    // Claims are checked before limits and requests (the order errors are reported in).
    let claims = if let Some(items) = spec.and_then(|r| r.claims.as_ref()).filter(|c| !c.is_empty()) {
        // Read as the API type, so a claim is written with its fields only.
        let claims = items
            .iter()
            .enumerate()
            .map(|(i, c)| {
                serde_json::from_value::<ResourceClaim>(c.clone()).and_then(serde_json::to_value).with_context(|| {
                    format!("spec.proxy.resources.claims[{i}]: not a resource claim (it needs a name)")
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Some(claims)
    } else {
        None
    };
    let mut resources = Map::new();
    let limits = limits.map(|m| quantities("spec.proxy.resources.limits", m)).transpose()?.and_then(non_empty);
    if let Some(limits) = limits {
        resources.insert("limits".into(), string_object(limits));
    }
    let requests = requests.map(|m| quantities("spec.proxy.resources.requests", m)).transpose()?.and_then(non_empty);
    if let Some(requests) = requests {
        resources.insert("requests".into(), string_object(requests));
    }
    if let Some(claims) = claims {
        resources.insert("claims".into(), Value::Array(claims));
    }
    Ok(Value::Object(resources))
}

fn probe(initial_delay: i32, period: i32) -> Value {
    json!({
        "httpGet": {"path": "/health", "port": PROXY_PORT},
        "initialDelaySeconds": initial_delay,
        "periodSeconds": period,
        "timeoutSeconds": 2,
        "failureThreshold": 3,
    })
}
