//! The Kubernetes API server's defaulting for the object kinds routerctl
//! writes: Deployment (apps/v1), Service, ConfigMap and ServiceAccount (v1),
//! Role and RoleBinding (rbac.authorization.k8s.io/v1).
//!
//! A rendered object lacks everything the API server fills in when it stores
//! it, while `kubectl get -o yaml` shows the stored object. Running both sides
//! through [`apply_server_defaults`] makes a diff compare like with like, so it
//! only shows what a write would actually change.
//!
//! Where the rules come from (kubernetes/kubernetes):
//! - `pkg/apis/apps/v1/defaults.go`: `SetDefaults_Deployment`.
//! - `pkg/apis/core/v1/defaults.go`: `SetDefaults_PodSpec`, `_Container`,
//!   `_Probe`, `_HTTPGetAction`, `_ObjectFieldSelector`, the volume source
//!   defaulters and `SetDefaults_Service`; `pkg/apis/core/v1/zz_generated.defaults.go`
//!   for which of them reach a pod template and for the declarative ones
//!   (container port protocol, gRPC probe service).
//! - `pkg/apis/core/v1/conversion.go`: `serviceAccount` mirrors
//!   `serviceAccountName` whenever a pod spec is written out.
//! - `pkg/apis/rbac/v1/defaults.go`: `SetDefaults_RoleBinding`, `_Subject`.
//! - `pkg/registry/core/service/storage/storage.go` (`patchAllocatedValues`,
//!   `normalizeClusterIPs`) and `alloc.go` (`initIPFamilyFields`): what a
//!   Service update keeps from the stored object.
//!
//! How "unset" is read: a Go field that is a pointer is unset when the JSON
//! lacks it or holds `null`. A Go field that is a plain string or number cannot
//! tell "unset" from its zero value, so for those `""` and `0` count as unset
//! too, exactly as the server sees them. A value of the wrong JSON type is never
//! touched.
//!
//! Besides defaulting proper, three things the server's JSON output always
//! shows are filled in as well, because they would otherwise be diff noise: a
//! container's `resources: {}` (a Go struct, printed even when empty), an env
//! var's `resourceFieldRef.divisor: "0"` (a zero quantity prints as `"0"`),
//! and the `serviceAccount` alias.
//!
//! Two rules do more than fill: a Service with `sessionAffinity: None` loses
//! any `sessionAffinityConfig`, and a pod spec's `serviceAccount` is set to its
//! `serviceAccountName`. The server does both on every write.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use crate::kube::image::ImageReference;
use crate::kube::kinds::RBAC_API_VERSION;

type Object = Map<String, Value>;

const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// Fills in what the API server would store for fields left unset, on a
/// Deployment (apps/v1), Service (v1), ConfigMap (v1), ServiceAccount (v1),
/// Role and RoleBinding (rbac.authorization.k8s.io/v1).
///
/// `live` is the object currently stored (if any): values the server keeps on
/// update rather than defaulting (Service `clusterIP`/`clusterIPs`,
/// `ipFamilies`, `ipFamilyPolicy`, ports' `nodePort` matched by port name as
/// the server matches them, `healthCheckNodePort`) are taken from it when
/// `obj` leaves them unset. Without `live` they stay unset: the server
/// allocates them from cluster state no renderer can know.
///
/// The Envoy Gateway and Envoy AI Gateway kinds of the Gateway data plane get
/// their CRDs' defaults (`gateway_defaults`); objects of other kinds are left
/// untouched. Never panics on odd input
/// (wrong types are left as they are).
pub fn apply_server_defaults(obj: &mut Value, live: Option<&Value>) {
    let Some(object) = obj.as_object_mut() else {
        return;
    };
    let api_version = string_at(object, "apiVersion").to_owned();
    let kind = string_at(object, "kind").to_owned();
    match (api_version.as_str(), kind.as_str()) {
        ("apps/v1", "Deployment") => default_deployment(object),
        ("v1", "Service") => default_service(object, live.and_then(live_service_spec)),
        (RBAC_API_VERSION, "RoleBinding") => default_role_binding(object),
        // ConfigMap: the server only turns a missing `data` into an empty map,
        // which it omits when printing, so nothing visible changes.
        // ServiceAccount: core/v1 has no defaulter for it.
        // Role: PolicyRule has no defaults.
        ("v1", "ConfigMap") | ("v1", "ServiceAccount") | (RBAC_API_VERSION, "Role") => {}
        _ => super::gateway_defaults::apply_gateway_defaults(&api_version, &kind, object),
    }
}

// ---------------------------------------------------------------------------
// Reading and filling JSON the way Go decodes it.

/// The string at `key`, or `""` when it is missing or not a string.
fn string_at<'a>(map: &'a Object, key: &str) -> &'a str {
    map.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// A Go pointer field that was never set.
fn is_absent(map: &Object, key: &str) -> bool {
    matches!(map.get(key), None | Some(Value::Null))
}

/// A Go string field holding its zero value.
fn is_zero_string(map: &Object, key: &str) -> bool {
    is_absent(map, key) || string_at_is(map, key, "")
}

/// A Go number field holding its zero value.
fn is_zero_number(map: &Object, key: &str) -> bool {
    is_absent(map, key) || map.get(key).and_then(Value::as_f64) == Some(0.0)
}

fn string_at_is(map: &Object, key: &str, expected: &str) -> bool {
    map.get(key).and_then(Value::as_str) == Some(expected)
}

fn default_pointer(map: &mut Object, key: &str, value: Value) {
    if is_absent(map, key) {
        map.insert(key.to_owned(), value);
    }
}

fn default_string(map: &mut Object, key: &str, value: &str) {
    if is_zero_string(map, key) {
        map.insert(key.to_owned(), Value::from(value));
    }
}

fn default_number(map: &mut Object, key: &str, value: i64) {
    if is_zero_number(map, key) {
        map.insert(key.to_owned(), Value::from(value));
    }
}

/// The object at `key`, when there is one.
fn child_mut<'a>(map: &'a mut Object, key: &str) -> Option<&'a mut Object> {
    map.get_mut(key)?.as_object_mut()
}

/// The object at `key`, created empty when unset: a Go struct field (not a
/// pointer) always exists, so its defaults always apply.
fn struct_mut<'a>(map: &'a mut Object, key: &str) -> Option<&'a mut Object> {
    if is_absent(map, key) {
        map.insert(key.to_owned(), Value::Object(Object::new()));
    }
    child_mut(map, key)
}

/// Runs `f` on every object in the array at `key`.
fn for_each_item(map: &mut Object, key: &str, mut f: impl FnMut(&mut Object)) {
    if let Some(items) = map.get_mut(key).and_then(Value::as_array_mut) {
        items.iter_mut().filter_map(Value::as_object_mut).for_each(&mut f);
    }
}

/// The objects in the array at `key`.
fn items<'a>(map: &'a Object, key: &str) -> impl Iterator<Item = &'a Object> {
    map.get(key).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_object)
}

/// The value at `key` when it is an array with something in it.
fn non_empty_array<'a>(map: &'a Object, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| v.as_array().is_some_and(|a| !a.is_empty()))
}

fn is_non_empty_array(map: &Object, key: &str) -> bool {
    non_empty_array(map, key).is_some()
}

// ---------------------------------------------------------------------------
// apps/v1 Deployment (SetDefaults_Deployment, then the pod template).

fn default_deployment(deployment: &mut Object) {
    let Some(spec) = struct_mut(deployment, "spec") else {
        return;
    };
    default_pointer(spec, "replicas", json!(1));
    default_deployment_strategy(spec);
    default_pointer(spec, "revisionHistoryLimit", json!(10));
    default_pointer(spec, "progressDeadlineSeconds", json!(600));
    if let Some(pod_spec) = child_mut(spec, "template").and_then(|t| child_mut(t, "spec")) {
        default_pod_spec(pod_spec);
    }
}

/// RollingUpdate unless told otherwise; a quarter of the replicas may be
/// surged or unavailable. A Recreate strategy gets no `rollingUpdate`.
fn default_deployment_strategy(spec: &mut Object) {
    let Some(strategy) = struct_mut(spec, "strategy") else {
        return;
    };
    default_string(strategy, "type", "RollingUpdate");
    if !string_at_is(strategy, "type", "RollingUpdate") {
        return;
    }
    if let Some(rolling) = struct_mut(strategy, "rollingUpdate") {
        default_pointer(rolling, "maxUnavailable", json!("25%"));
        default_pointer(rolling, "maxSurge", json!("25%"));
    }
}

// ---------------------------------------------------------------------------
// core/v1 PodSpec as it appears in a pod template.
//
// Left out on purpose, because the server applies them to Pods only and not to
// pod templates (SetDefaults_Pod): requests copied from limits,
// `enableServiceLinks: true`, and host ports for host-network pods.

fn default_pod_spec(pod_spec: &mut Object) {
    default_string(pod_spec, "dnsPolicy", "ClusterFirst");
    default_string(pod_spec, "restartPolicy", "Always");
    default_pointer(pod_spec, "securityContext", json!({}));
    default_pointer(pod_spec, "terminationGracePeriodSeconds", json!(30));
    default_string(pod_spec, "schedulerName", "default-scheduler");
    mirror_service_account_alias(pod_spec);
    for_each_item(pod_spec, "volumes", default_volume);
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        for_each_item(pod_spec, key, default_container);
    }
}

/// `serviceAccount` is the deprecated spelling of `serviceAccountName`. On the
/// way in the new field wins and the old one only fills it; on the way out the
/// old one is always written as a copy of the new one.
fn mirror_service_account_alias(pod_spec: &mut Object) {
    if is_zero_string(pod_spec, "serviceAccountName") {
        let alias = string_at(pod_spec, "serviceAccount").to_owned();
        if !alias.is_empty() {
            pod_spec.insert("serviceAccountName".into(), Value::from(alias));
        }
    }
    let name = string_at(pod_spec, "serviceAccountName").to_owned();
    if !name.is_empty() {
        pod_spec.insert("serviceAccount".into(), Value::from(name));
    }
}

// Volumes -------------------------------------------------------------------

/// Octal 0644, the file mode of projected files unless the volume says.
const DEFAULT_FILE_MODE: i64 = 0o644;

fn default_volume(volume: &mut Object) {
    default_empty_dir_when_sourceless(volume);
    if let Some(host_path) = child_mut(volume, "hostPath") {
        default_pointer(host_path, "type", json!(""));
    }
    for source in ["secret", "configMap"] {
        if let Some(s) = child_mut(volume, source) {
            default_pointer(s, "defaultMode", json!(DEFAULT_FILE_MODE));
        }
    }
    if let Some(downward) = child_mut(volume, "downwardAPI") {
        default_downward_api_volume(downward);
    }
    if let Some(projected) = child_mut(volume, "projected") {
        default_projected_volume(projected);
    }
    if let Some(claim_spec) = child_mut(volume, "ephemeral")
        .and_then(|e| child_mut(e, "volumeClaimTemplate"))
        .and_then(|t| child_mut(t, "spec"))
    {
        default_pointer(claim_spec, "volumeMode", json!("Filesystem"));
    }
}

/// A volume naming no source at all becomes an emptyDir.
fn default_empty_dir_when_sourceless(volume: &mut Object) {
    let has_source = volume.iter().any(|(key, value)| key != "name" && !value.is_null());
    if !has_source {
        volume.insert("emptyDir".into(), json!({}));
    }
}

fn default_downward_api_volume(downward: &mut Object) {
    default_pointer(downward, "defaultMode", json!(DEFAULT_FILE_MODE));
    for_each_item(downward, "items", default_downward_api_file);
}

fn default_downward_api_file(file: &mut Object) {
    if let Some(field_ref) = child_mut(file, "fieldRef") {
        default_object_field_selector(field_ref);
    }
    if let Some(resource_ref) = child_mut(file, "resourceFieldRef") {
        default_resource_field_selector(resource_ref);
    }
}

fn default_projected_volume(projected: &mut Object) {
    default_pointer(projected, "defaultMode", json!(DEFAULT_FILE_MODE));
    for_each_item(projected, "sources", |source| {
        if let Some(downward) = child_mut(source, "downwardAPI") {
            for_each_item(downward, "items", default_downward_api_file);
        }
        if let Some(token) = child_mut(source, "serviceAccountToken") {
            default_pointer(token, "expirationSeconds", json!(3600));
        }
    });
}

fn default_object_field_selector(field_ref: &mut Object) {
    default_string(field_ref, "apiVersion", "v1");
}

/// Not a defaulter: an unset divisor is a zero quantity, printed as `"0"`.
fn default_resource_field_selector(resource_ref: &mut Object) {
    default_pointer(resource_ref, "divisor", json!("0"));
}

// Containers ----------------------------------------------------------------

fn default_container(container: &mut Object) {
    default_image_pull_policy(container);
    default_string(container, "terminationMessagePath", "/dev/termination-log");
    default_string(container, "terminationMessagePolicy", "File");
    for_each_item(container, "ports", |port| {
        default_string(port, "protocol", "TCP");
    });
    for_each_item(container, "env", default_env_var);
    // Not a defaulter: `resources` is a Go struct, printed even when empty.
    default_pointer(container, "resources", json!({}));
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(probe) = child_mut(container, key) {
            default_probe(probe);
        }
    }
    if let Some(lifecycle) = child_mut(container, "lifecycle") {
        for hook in ["postStart", "preStop"] {
            if let Some(get) = child_mut(lifecycle, hook).and_then(|h| child_mut(h, "httpGet")) {
                default_http_get_action(get);
            }
        }
    }
}

fn default_env_var(env: &mut Object) {
    let Some(value_from) = child_mut(env, "valueFrom") else {
        return;
    };
    if let Some(field_ref) = child_mut(value_from, "fieldRef") {
        default_object_field_selector(field_ref);
    }
    if let Some(resource_ref) = child_mut(value_from, "resourceFieldRef") {
        default_resource_field_selector(resource_ref);
    }
}

fn default_probe(probe: &mut Object) {
    default_number(probe, "timeoutSeconds", 1);
    default_number(probe, "periodSeconds", 10);
    default_number(probe, "successThreshold", 1);
    default_number(probe, "failureThreshold", 3);
    if let Some(get) = child_mut(probe, "httpGet") {
        default_http_get_action(get);
    }
    if let Some(grpc) = child_mut(probe, "grpc") {
        default_pointer(grpc, "service", json!(""));
    }
}

fn default_http_get_action(get: &mut Object) {
    default_string(get, "path", "/");
    default_string(get, "scheme", "HTTP");
}

/// Always for `:latest` or for an image with neither tag nor digest,
/// IfNotPresent otherwise, including for a name the server cannot parse.
fn default_image_pull_policy(container: &mut Object) {
    if !is_zero_string(container, "imagePullPolicy") {
        return;
    }
    let policy = if pulls_latest(string_at(container, "image")) { "Always" } else { "IfNotPresent" };
    container.insert("imagePullPolicy".into(), Value::from(policy));
}

/// Whether an image reference means the `latest` tag to the server, which
/// reads it with the Docker reference grammar ([`ImageReference::parse`]);
/// a reference it cannot parse counts as having no "latest" tag.
fn pulls_latest(image: &str) -> bool {
    match ImageReference::parse(image) {
        Some(reference) => match reference.tag {
            Some(tag) => tag == "latest",
            None => reference.digest.is_none(),
        },
        None => false,
    }
}

// ---------------------------------------------------------------------------
// core/v1 Service (SetDefaults_Service, then what an update keeps).

/// `sessionAffinity: ClientIP` sticks for three hours unless told otherwise.
const DEFAULT_CLIENT_IP_AFFINITY_SECONDS: i64 = 10800;

/// The stored Service's spec, unless `live` is something else.
fn live_service_spec(live: &Value) -> Option<&Object> {
    let live = live.as_object()?;
    let kind = string_at(live, "kind");
    if !kind.is_empty() && kind != "Service" {
        return None;
    }
    live.get("spec")?.as_object()
}

fn default_service(service: &mut Object, live: Option<&Object>) {
    let Some(spec) = struct_mut(service, "spec") else {
        return;
    };
    default_session_affinity(spec);
    default_string(spec, "type", "ClusterIP");
    for_each_item(spec, "ports", default_service_port);
    default_traffic_policies(spec);
    if service_type(spec) == "LoadBalancer" {
        default_pointer(spec, "allocateLoadBalancerNodePorts", json!(true));
    }
    if let Some(live) = live {
        patch_allocated_values(spec, live);
    }
    normalize_cluster_ips(spec);
    if let Some(live) = live {
        init_ip_family_fields(spec, live);
    }
}

/// The Service type; unset means ClusterIP (for a stored object that was
/// printed without defaults).
fn service_type(spec: &Object) -> &str {
    match string_at(spec, "type") {
        "" => "ClusterIP",
        other => other,
    }
}

fn default_session_affinity(spec: &mut Object) {
    default_string(spec, "sessionAffinity", "None");
    if string_at_is(spec, "sessionAffinity", "None") {
        spec.remove("sessionAffinityConfig");
    } else if string_at_is(spec, "sessionAffinity", "ClientIP") {
        if let Some(client_ip) = struct_mut(spec, "sessionAffinityConfig").and_then(|c| struct_mut(c, "clientIP")) {
            default_pointer(client_ip, "timeoutSeconds", json!(DEFAULT_CLIENT_IP_AFFINITY_SECONDS));
        }
    }
}

/// TCP, and traffic goes to the same port number on the pods unless told.
fn default_service_port(port: &mut Object) {
    default_string(port, "protocol", "TCP");
    let target_unset = is_absent(port, "targetPort")
        || string_at_is(port, "targetPort", "")
        || port.get("targetPort").and_then(Value::as_f64) == Some(0.0);
    if target_unset {
        if let Some(number) = port.get("port").filter(|p| p.is_number()).cloned() {
            port.insert("targetPort".into(), number);
        }
    }
}

/// External traffic policy for Services reachable from outside (node ports,
/// load balancers, or external IPs); internal traffic policy for every type
/// that gets a cluster IP.
fn default_traffic_policies(spec: &mut Object) {
    let kind = service_type(spec).to_owned();
    let externally_accessible = kind == "NodePort"
        || kind == "LoadBalancer"
        || (kind == "ClusterIP" && is_non_empty_array(spec, "externalIPs"));
    if externally_accessible {
        default_string(spec, "externalTrafficPolicy", "Cluster");
    }
    if matches!(kind.as_str(), "ClusterIP" | "NodePort" | "LoadBalancer") {
        default_pointer(spec, "internalTrafficPolicy", json!("Cluster"));
    }
}

fn needs_cluster_ip(spec: &Object) -> bool {
    service_type(spec) != "ExternalName"
}

fn needs_node_port(spec: &Object) -> bool {
    matches!(service_type(spec), "NodePort" | "LoadBalancer")
}

fn needs_health_check_node_port(spec: &Object) -> bool {
    service_type(spec) == "LoadBalancer" && string_at_is(spec, "externalTrafficPolicy", "Local")
}

/// What an update keeps from the stored Service when the new one leaves it
/// out, so re-applying the same manifest allocates nothing new.
fn patch_allocated_values(spec: &mut Object, live: &Object) {
    if needs_cluster_ip(live) && needs_cluster_ip(spec) {
        keep_live_string(spec, live, "clusterIP");
        if !is_non_empty_array(spec, "clusterIPs") {
            if let Some(ips) = non_empty_array(live, "clusterIPs") {
                spec.insert("clusterIPs".into(), ips.clone());
            }
        }
    }
    if needs_node_port(live) && needs_node_port(spec) {
        keep_live_node_ports(spec, live);
    }
    if needs_health_check_node_port(live)
        && needs_health_check_node_port(spec)
        && is_zero_number(spec, "healthCheckNodePort")
    {
        if let Some(port) = live.get("healthCheckNodePort").filter(|p| is_non_zero(p)) {
            spec.insert("healthCheckNodePort".into(), port.clone());
        }
    }
}

fn keep_live_string(spec: &mut Object, live: &Object, key: &str) {
    let stored = string_at(live, key);
    if is_zero_string(spec, key) && !stored.is_empty() {
        spec.insert(key.to_owned(), Value::from(stored));
    }
}

fn is_non_zero(value: &Value) -> bool {
    value.as_f64().is_some_and(|n| n != 0.0)
}

fn node_port(port: &Object) -> Option<i64> {
    port.get("nodePort").and_then(Value::as_i64).filter(|n| *n != 0)
}

/// Each port without a node port gets the one the stored port of the same
/// name has (an unnamed port matches an unnamed one), unless another port
/// already claims that number in both versions.
fn keep_live_node_ports(spec: &mut Object, live: &Object) {
    let mut stored_by_name: BTreeMap<&str, i64> = BTreeMap::new();
    for port in items(live, "ports") {
        stored_by_name.insert(string_at(port, "name"), node_port(port).unwrap_or(0));
    }
    let stored: BTreeSet<i64> = items(live, "ports").filter_map(node_port).collect();
    let taken: BTreeSet<i64> = items(spec, "ports").filter_map(node_port).filter(|n| stored.contains(n)).collect();
    for_each_item(spec, "ports", |port| {
        if !is_zero_number(port, "nodePort") {
            return;
        }
        match stored_by_name.get(string_at(port, "name")) {
            Some(&n) if n != 0 && !taken.contains(&n) => {
                port.insert("nodePort".into(), Value::from(n));
            }
            _ => {}
        }
    });
}

/// A cluster IP given without the plural list becomes a one-item list.
fn normalize_cluster_ips(spec: &mut Object) {
    let cluster_ip = string_at(spec, "clusterIP").to_owned();
    if needs_cluster_ip(spec) && !cluster_ip.is_empty() && !is_non_empty_array(spec, "clusterIPs") {
        spec.insert("clusterIPs".into(), json!([cluster_ip]));
    }
}

/// On update an unset IP family policy is the stored one (inferred only when
/// nothing is stored: dual-stack for a headless Service without selector,
/// single-stack otherwise); unset IP families follow the kept cluster IPs,
/// which means the stored families.
fn init_ip_family_fields(spec: &mut Object, live: &Object) {
    if !needs_cluster_ip(spec) {
        return;
    }
    if is_absent(spec, "ipFamilyPolicy") {
        let policy = match live.get("ipFamilyPolicy").filter(|p| p.is_string()) {
            Some(stored) => stored.clone(),
            None if is_headless_without_selector(spec) => json!("RequireDualStack"),
            None => json!("SingleStack"),
        };
        spec.insert("ipFamilyPolicy".into(), policy);
    }
    if !is_non_empty_array(spec, "ipFamilies") && needs_cluster_ip(live) {
        if let Some(families) = non_empty_array(live, "ipFamilies") {
            spec.insert("ipFamilies".into(), families.clone());
        }
    }
}

fn is_headless_without_selector(spec: &Object) -> bool {
    let has_selector = spec.get("selector").and_then(Value::as_object).is_some_and(|s| !s.is_empty());
    string_at_is(spec, "clusterIP", "None") && !has_selector
}

// ---------------------------------------------------------------------------
// rbac.authorization.k8s.io/v1 RoleBinding.

fn default_role_binding(binding: &mut Object) {
    if let Some(role_ref) = struct_mut(binding, "roleRef") {
        default_string(role_ref, "apiGroup", RBAC_GROUP);
    }
    for_each_item(binding, "subjects", default_subject);
}

/// Users and groups live in the RBAC API group. A ServiceAccount's group is
/// the core group `""`, which the server omits when printing, so nothing is
/// written for it.
fn default_subject(subject: &mut Object) {
    if is_zero_string(subject, "apiGroup") && matches!(string_at(subject, "kind"), "User" | "Group") {
        subject.insert("apiGroup".into(), Value::from(RBAC_GROUP));
    }
}

#[cfg(test)]
mod tests;
