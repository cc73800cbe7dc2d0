//! The proxy Deployment: pod template metadata (user keys under the
//! operator's), the applied-key records, and the pod spec.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context as _, Result};
use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::{
    Capabilities, ConfigMapVolumeSource, Container, ContainerPort, EnvFromSource, EnvVar, HTTPGetAction,
    LocalObjectReference, PodSecurityContext, PodSpec, PodTemplateSpec, Probe, ResourceClaim, ResourceRequirements,
    SeccompProfile, SecretEnvSource, SecurityContext, Volume, VolumeMount,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::names::{
    resource_name, selector_labels, APPLIED_POD_ANNOTATIONS_ANNOTATION, APPLIED_POD_LABELS_ANNOTATION,
    CONFIG_HASH_ANNOTATION, CONFIG_KEY, CONFIG_MOUNT_PATH, CONTAINER_NAME, METRICS_PORT, PROXY_PORT,
    SCRAPE_ANNOTATIONS,
};
use super::{non_empty, owned_metadata, Compiled, OperatorFlags, RouterInput};
use crate::model::duration::{format_go_duration, parse_go_duration};
use crate::model::quantity::canonicalize_resource;
use crate::model::{QuantityText, RouterProxySpec};

/// The image when neither `spec.proxy.image` nor `--router-proxy-image` is set.
pub const DEFAULT_IMAGE: &str = "ghcr.io/defilantech/llmkube-router-proxy:dev";

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
    /// Whether the operator runs with `--emit-scrape-annotations`.
    pub emit_scrape: bool,
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
    if flags.emit_scrape_annotations {
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
        emit_scrape: flags.emit_scrape_annotations,
    }
}

pub fn build(input: &RouterInput, compiled: &Compiled, flags: &OperatorFlags) -> Result<(Deployment, PodMetadata)> {
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
    metadata.annotations = non_empty(records);

    let deployment = Deployment {
        metadata,
        spec: Some(DeploymentSpec {
            replicas: Some(replicas),
            revision_history_limit: proxy.and_then(|p| p.revision_history_limit),
            selector: LabelSelector { match_labels: Some(selector_labels(&input.name)), ..LabelSelector::default() },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: non_empty(pods.labels.clone()),
                    annotations: non_empty(pods.annotations.clone()),
                    ..ObjectMeta::default()
                }),
                spec: Some(pod_spec(input, compiled, flags)?),
            },
            ..DeploymentSpec::default()
        }),
        ..Deployment::default()
    };
    Ok((deployment, pods))
}

fn pod_spec(input: &RouterInput, compiled: &Compiled, flags: &OperatorFlags) -> Result<PodSpec> {
    let proxy = input.router.spec.proxy.as_ref();
    let name = resource_name(&input.name);
    let image = proxy
        .and_then(|p| p.image.clone())
        .filter(|i| !i.is_empty())
        .or_else(|| flags.router_proxy_image.clone().filter(|i| !i.is_empty()))
        .unwrap_or_else(|| DEFAULT_IMAGE.to_string());
    let env = compiled
        .has_pools
        .then(|| vec![EnvVar { name: "ROUTER_NAME".into(), value: Some(input.name.clone()), ..EnvVar::default() }]);
    let env_from = credentials_env_from(input);
    let image_pull_secrets = proxy
        .and_then(|p| p.image_pull_secrets.as_ref())
        .filter(|s| !s.is_empty())
        .map(|s| s.iter().map(|r| LocalObjectReference { name: r.name.clone() }).collect());
    let container = Container {
        name: CONTAINER_NAME.into(),
        image: Some(image),
        image_pull_policy: Some("IfNotPresent".into()),
        args: Some(args(proxy, compiled.has_pools)?),
        ports: Some(vec![
            ContainerPort {
                name: Some("http".into()),
                container_port: PROXY_PORT,
                protocol: Some("TCP".into()),
                ..ContainerPort::default()
            },
            ContainerPort {
                name: Some("metrics".into()),
                container_port: METRICS_PORT,
                protocol: Some("TCP".into()),
                ..ContainerPort::default()
            },
        ]),
        env,
        env_from: (!env_from.is_empty()).then_some(env_from),
        volume_mounts: Some(vec![VolumeMount {
            name: "router-config".into(),
            mount_path: CONFIG_MOUNT_PATH.into(),
            read_only: Some(true),
            ..VolumeMount::default()
        }]),
        resources: Some(resources(proxy)?),
        security_context: Some(SecurityContext {
            allow_privilege_escalation: Some(false),
            read_only_root_filesystem: Some(true),
            run_as_non_root: Some(true),
            capabilities: Some(Capabilities { drop: Some(vec!["ALL".into()]), ..Capabilities::default() }),
            ..SecurityContext::default()
        }),
        liveness_probe: Some(probe(20, 10)),
        readiness_probe: Some(probe(5, 5)),
        ..Container::default()
    };
    Ok(PodSpec {
        service_account_name: compiled.has_pools.then(|| name.clone()),
        security_context: Some(PodSecurityContext {
            run_as_non_root: Some(true),
            run_as_user: Some(65532),
            fs_group: Some(65532),
            seccomp_profile: Some(SeccompProfile { type_: "RuntimeDefault".into(), ..SeccompProfile::default() }),
            ..PodSecurityContext::default()
        }),
        image_pull_secrets,
        node_selector: proxy.and_then(|p| p.node_selector.clone()).and_then(non_empty),
        containers: vec![container],
        volumes: Some(vec![Volume {
            name: "router-config".into(),
            config_map: Some(ConfigMapVolumeSource { name: name.clone(), ..ConfigMapVolumeSource::default() }),
            ..Volume::default()
        }]),
        ..PodSpec::default()
    })
}

/// Required flags first; the optional ones only when the spec sets them, so
/// the proxy keeps its compiled-in defaults otherwise.
fn args(proxy: Option<&RouterProxySpec>, has_pools: bool) -> Result<Vec<String>> {
    let mut args: Vec<String> = [
        "--config".to_string(),
        format!("{CONFIG_MOUNT_PATH}/{CONFIG_KEY}"),
        "--listen".to_string(),
        format!(":{PROXY_PORT}"),
        "--metrics-bind-address".to_string(),
        format!(":{METRICS_PORT}"),
        "--log-format".to_string(),
        "json".to_string(),
    ]
    .into();
    let durations = [
        ("--quarantine-duration", "quarantineDuration", proxy.and_then(|p| p.quarantine_duration.as_ref())),
        ("--response-header-timeout", "responseHeaderTimeout", proxy.and_then(|p| p.response_header_timeout.as_ref())),
    ];
    for (flag, field, value) in durations {
        if let Some(text) = value {
            let nanos = parse_go_duration(text)
                .with_context(|| format!("spec.proxy.{field}: not a Go duration (write it like 30s, 5m or 1h30m)"))?;
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
fn credentials_env_from(input: &RouterInput) -> Vec<EnvFromSource> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for b in &input.router.spec.backends {
        let Some(secret) = b.external.as_ref().and_then(|e| e.credentials_secret_ref.as_ref()) else {
            continue;
        };
        if seen.insert(secret.name.clone()) {
            out.push(EnvFromSource {
                secret_ref: Some(SecretEnvSource { name: secret.name.clone(), optional: Some(true) }),
                ..EnvFromSource::default()
            });
        }
    }
    out
}

fn quantities(path: &str, m: &BTreeMap<String, QuantityText>) -> Result<BTreeMap<String, Quantity>> {
    m.iter()
        .map(|(k, v)| {
            let canonical = canonicalize_resource(&v.0).with_context(|| {
                format!("{path}.{k}: not a Kubernetes quantity (write it like 500m, 1.5, 64Mi or 1Gi)")
            })?;
            Ok((k.clone(), Quantity(canonical)))
        })
        .collect()
}

/// `spec.proxy.resources` as the API server stores them (parsed, rounded up
/// to a milli, canonical unless already written canonically), or the operator's defaults when
/// it sets neither requests nor limits.
fn resources(proxy: Option<&RouterProxySpec>) -> Result<ResourceRequirements> {
    let spec = proxy.and_then(|p| p.resources.as_ref());
    let (limits, requests) = (spec.and_then(|r| r.limits.as_ref()), spec.and_then(|r| r.requests.as_ref()));
    if limits.is_none() && requests.is_none() {
        let q = |s: &str| Quantity(s.to_string());
        return Ok(ResourceRequirements {
            requests: Some(BTreeMap::from([("cpu".into(), q("50m")), ("memory".into(), q("64Mi"))])),
            limits: Some(BTreeMap::from([("cpu".into(), q("500m")), ("memory".into(), q("256Mi"))])),
            claims: None,
        });
    }
    let claims = match spec.and_then(|r| r.claims.as_ref()) {
        Some(items) if !items.is_empty() => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    serde_json::from_value::<ResourceClaim>(c.clone()).with_context(|| {
                        format!("spec.proxy.resources.claims[{i}]: not a resource claim (it needs a name)")
                    })
                })
                .collect::<Result<Vec<_>>>()?,
        ),
        _ => None,
    };
    Ok(ResourceRequirements {
        limits: limits.map(|m| quantities("spec.proxy.resources.limits", m)).transpose()?.and_then(non_empty),
        requests: requests.map(|m| quantities("spec.proxy.resources.requests", m)).transpose()?.and_then(non_empty),
        claims,
    })
}

fn probe(initial_delay: i32, period: i32) -> Probe {
    Probe {
        http_get: Some(HTTPGetAction {
            path: Some("/health".into()),
            port: IntOrString::Int(PROXY_PORT),
            ..HTTPGetAction::default()
        }),
        initial_delay_seconds: Some(initial_delay),
        period_seconds: Some(period),
        timeout_seconds: Some(2),
        failure_threshold: Some(3),
        ..Probe::default()
    }
}
