//! Each kind's rendered object defaults to the stored one; explicit values,
//! unknown kinds and wrong types are left alone; applying twice equals once.

use super::*;

mod fixtures;
use fixtures::*;

fn yaml(text: &str) -> Value {
    crate::input::from_yaml_str(text).expect("fixture is valid YAML")
}

fn defaulted(mut obj: Value, live: Option<&Value>) -> Value {
    apply_server_defaults(&mut obj, live);
    obj
}

/// The object without what only the server writes about itself.
fn spec_only(mut obj: Value) -> Value {
    if let Some(map) = obj.as_object_mut() {
        map.remove("metadata");
        map.remove("status");
    }
    obj
}

fn assert_defaults_to_stored(minimal: &str, stored: &str, with_live: bool) {
    let stored = yaml(stored);
    let live = with_live.then_some(&stored);
    assert_eq!(spec_only(defaulted(yaml(minimal), live)), spec_only(stored.clone()));
}

fn assert_idempotent(obj: &Value, live: Option<&Value>) {
    let once = defaulted(obj.clone(), live);
    let twice = defaulted(once.clone(), live);
    assert_eq!(once, twice);
}

fn pod_spec(deployment: &Value) -> &Value {
    &deployment["spec"]["template"]["spec"]
}

fn container(deployment: &Value) -> &Value {
    &pod_spec(deployment)["containers"][0]
}

fn deployment_with_container(container: Value) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "d"},
        "spec": {
            "selector": {"matchLabels": {"app": "d"}},
            "template": {
                "metadata": {"labels": {"app": "d"}},
                "spec": {"containers": [container]}
            }
        }
    })
}

fn image_policy(image: &str) -> String {
    let obj = defaulted(deployment_with_container(json!({"name": "c", "image": image})), None);
    container(&obj)["imagePullPolicy"].as_str().unwrap_or_default().to_owned()
}

// Each kind: the controller's object defaults to the stored one.

#[test]
fn router_deployment_defaults_to_the_stored_one() {
    assert_defaults_to_stored(ROUTER_DEPLOYMENT, ROUTER_DEPLOYMENT_STORED, false);
}

#[test]
fn sparse_deployment_gets_every_pod_template_default() {
    assert_defaults_to_stored(SPARSE_DEPLOYMENT, SPARSE_DEPLOYMENT_STORED, false);
}

#[test]
fn cluster_ip_service_keeps_the_stored_allocations() {
    assert_defaults_to_stored(ROUTER_SERVICE, ROUTER_SERVICE_STORED, true);
}

#[test]
fn node_port_service_keeps_the_stored_node_port() {
    assert_defaults_to_stored(NODE_PORT_SERVICE, NODE_PORT_SERVICE_STORED, true);
}

#[test]
fn local_load_balancer_keeps_health_check_port_and_dual_stack() {
    assert_defaults_to_stored(LOCAL_LOAD_BALANCER, LOCAL_LOAD_BALANCER_STORED, true);
}

#[test]
fn config_map_is_stored_as_written() {
    assert_defaults_to_stored(ROUTER_CONFIG_MAP, ROUTER_CONFIG_MAP_STORED, false);
}

#[test]
fn service_account_is_stored_as_written() {
    assert_defaults_to_stored(ROUTER_SERVICE_ACCOUNT, ROUTER_SERVICE_ACCOUNT_STORED, false);
}

#[test]
fn role_is_stored_as_written() {
    assert_defaults_to_stored(ROUTER_ROLE, ROUTER_ROLE_STORED, false);
}

#[test]
fn role_binding_gets_rbac_api_groups_but_not_for_service_accounts() {
    assert_defaults_to_stored(ROUTER_ROLE_BINDING, ROUTER_ROLE_BINDING_STORED, false);
}

#[test]
fn stored_objects_are_already_fully_defaulted() {
    let stored = [
        ROUTER_DEPLOYMENT_STORED,
        SPARSE_DEPLOYMENT_STORED,
        ROUTER_SERVICE_STORED,
        NODE_PORT_SERVICE_STORED,
        LOCAL_LOAD_BALANCER_STORED,
        ROUTER_CONFIG_MAP_STORED,
        ROUTER_ROLE_BINDING_STORED,
    ];
    for text in stored {
        let obj = yaml(text);
        assert_eq!(defaulted(obj.clone(), Some(&obj)), obj, "{text}");
        assert_eq!(defaulted(obj.clone(), None), obj, "{text}");
    }
}

// Deployment details.

#[test]
fn recreate_strategy_gets_no_rolling_update() {
    let mut obj = deployment_with_container(json!({"name": "c", "image": "app:1"}));
    obj["spec"]["strategy"] = json!({"type": "Recreate"});
    let obj = defaulted(obj, None);
    assert_eq!(obj["spec"]["strategy"], json!({"type": "Recreate"}));
}

#[test]
fn partial_rolling_update_only_gets_the_missing_side() {
    let mut obj = deployment_with_container(json!({"name": "c", "image": "app:1"}));
    obj["spec"]["strategy"] = json!({"rollingUpdate": {"maxSurge": 0}});
    let obj = defaulted(obj, None);
    assert_eq!(
        obj["spec"]["strategy"],
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": "25%"}})
    );
}

#[test]
fn zero_replicas_are_kept_but_zero_valued_scalars_are_unset() {
    let mut obj = deployment_with_container(json!({
        "name": "c",
        "image": "app:1",
        "imagePullPolicy": "",
        "readinessProbe": {"exec": {"command": ["true"]}, "timeoutSeconds": 0, "periodSeconds": null}
    }));
    obj["spec"]["replicas"] = json!(0);
    obj["spec"]["template"]["spec"]["dnsPolicy"] = json!("");
    let obj = defaulted(obj, None);
    assert_eq!(obj["spec"]["replicas"], json!(0));
    assert_eq!(pod_spec(&obj)["dnsPolicy"], json!("ClusterFirst"));
    assert_eq!(container(&obj)["imagePullPolicy"], json!("IfNotPresent"));
    assert_eq!(container(&obj)["readinessProbe"]["timeoutSeconds"], json!(1));
    assert_eq!(container(&obj)["readinessProbe"]["periodSeconds"], json!(10));
}

#[test]
fn pod_only_defaults_are_not_applied_to_templates() {
    let obj = defaulted(
        deployment_with_container(json!({
            "name": "c",
            "image": "app:1",
            "ports": [{"containerPort": 8080}],
            "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}
        })),
        None,
    );
    let spec = pod_spec(&obj);
    assert!(spec.get("enableServiceLinks").is_none());
    assert!(container(&obj)["resources"].get("requests").is_none());
    assert!(container(&obj)["ports"][0].get("hostPort").is_none());
}

#[test]
fn image_pull_policy_follows_the_latest_tag_rule() {
    let digest = "sha256:4c1e8e2f4b5d6a7980c1d2e3f4a5b6c7d8e9f00112233445566778899aabbccd";
    let digest_only = format!("nginx@{digest}");
    let latest_and_digest = format!("nginx:latest@{digest}");
    let tag_and_digest = format!("nginx:1.27@{digest}");
    let image_id = "a".repeat(64);
    let too_long = "a".repeat(250);
    let cases = [
        ("nginx", "Always"),
        ("nginx:latest", "Always"),
        ("library/nginx:1.27", "IfNotPresent"),
        ("docker.io/library/nginx", "Always"),
        (digest_only.as_str(), "IfNotPresent"),
        (latest_and_digest.as_str(), "Always"),
        (tag_and_digest.as_str(), "IfNotPresent"),
        ("localhost:5000/app", "Always"),
        ("localhost:5000/app:v2", "IfNotPresent"),
        ("localhost/app", "Always"),
        ("[fd00::1]:5000/team/app:latest", "Always"),
        ("Registry.Example.com/team/app", "Always"),
        ("ghcr.io/defilantech/llmkube-router-proxy:dev", "IfNotPresent"),
        ("my_org/my-app__x.y", "Always"),
        ("app:LATEST", "IfNotPresent"),
        // Names the server cannot parse never count as latest.
        ("", "IfNotPresent"),
        ("Nginx", "IfNotPresent"),
        ("nginx:", "IfNotPresent"),
        ("nginx:-bad", "IfNotPresent"),
        ("nginx@sha256:abc", "IfNotPresent"),
        ("nginx@md5:d41d8cd98f00b204e9800998ecf8427e", "IfNotPresent"),
        ("team/-app", "IfNotPresent"),
        ("team//app", "IfNotPresent"),
        ("host:port/app", "IfNotPresent"),
        (" nginx", "IfNotPresent"),
        (image_id.as_str(), "IfNotPresent"),
        (too_long.as_str(), "IfNotPresent"),
        ("é", "IfNotPresent"),
    ];
    for (image, expected) in cases {
        assert_eq!(image_policy(image), expected, "image {image:?}");
    }
}

#[test]
fn service_account_alias_mirrors_the_name() {
    let mut obj = deployment_with_container(json!({"name": "c", "image": "app:1"}));
    obj["spec"]["template"]["spec"]["serviceAccount"] = json!("legacy");
    let only_alias = defaulted(obj.clone(), None);
    assert_eq!(pod_spec(&only_alias)["serviceAccountName"], json!("legacy"));
    assert_eq!(pod_spec(&only_alias)["serviceAccount"], json!("legacy"));

    obj["spec"]["template"]["spec"]["serviceAccountName"] = json!("current");
    let both = defaulted(obj, None);
    assert_eq!(pod_spec(&both)["serviceAccountName"], json!("current"));
    assert_eq!(pod_spec(&both)["serviceAccount"], json!("current"));
}

#[test]
fn volume_with_a_null_source_becomes_an_empty_dir() {
    let mut obj = deployment_with_container(json!({"name": "c", "image": "app:1"}));
    obj["spec"]["template"]["spec"]["volumes"] = json!([
        {"name": "a", "secret": null},
        {"name": "b", "emptyDir": {"medium": "Memory"}}
    ]);
    let obj = defaulted(obj, None);
    assert_eq!(
        pod_spec(&obj)["volumes"],
        json!([
            {"name": "a", "secret": null, "emptyDir": {}},
            {"name": "b", "emptyDir": {"medium": "Memory"}}
        ])
    );
}

// Service details.

#[test]
fn service_without_live_leaves_allocated_fields_unset() {
    let obj = defaulted(yaml(NODE_PORT_SERVICE), None);
    let spec = &obj["spec"];
    for key in ["clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy", "healthCheckNodePort"] {
        assert!(spec.get(key).is_none(), "{key} should stay unset");
    }
    assert!(spec["ports"][0].get("nodePort").is_none());
    assert_eq!(spec["externalTrafficPolicy"], json!("Cluster"));
    assert_eq!(spec["internalTrafficPolicy"], json!("Cluster"));
    assert_eq!(spec["ports"][0]["targetPort"], json!(8080));
}

#[test]
fn headless_service_gets_its_cluster_ips_list() {
    let obj = defaulted(
        json!({
            "apiVersion": "v1",
            "kind": "Service",
            "spec": {"clusterIP": "None", "selector": {"app": "a"}, "ports": [{"port": 53, "protocol": "UDP"}]}
        }),
        None,
    );
    assert_eq!(obj["spec"]["clusterIPs"], json!(["None"]));
    assert_eq!(obj["spec"]["type"], json!("ClusterIP"));
    assert_eq!(obj["spec"]["ports"][0]["protocol"], json!("UDP"));
}

#[test]
fn headless_selectorless_service_infers_dual_stack_when_nothing_is_stored() {
    let live = json!({"apiVersion": "v1", "kind": "Service", "spec": {"type": "ExternalName", "externalName": "x.example.com"}});
    let obj = defaulted(json!({"apiVersion": "v1", "kind": "Service", "spec": {"clusterIP": "None"}}), Some(&live));
    assert_eq!(obj["spec"]["ipFamilyPolicy"], json!("RequireDualStack"));
    assert!(obj["spec"].get("ipFamilies").is_none());

    let obj =
        defaulted(json!({"apiVersion": "v1", "kind": "Service", "spec": {"selector": {"app": "a"}}}), Some(&live));
    assert_eq!(obj["spec"]["ipFamilyPolicy"], json!("SingleStack"));
    assert!(obj["spec"].get("clusterIP").is_none());
}

#[test]
fn node_ports_match_by_name_only() {
    let live = yaml(NODE_PORT_SERVICE_STORED);
    let mut obj = yaml(NODE_PORT_SERVICE);
    obj["spec"]["ports"][0]["name"] = json!("web");
    let obj = defaulted(obj, Some(&live));
    assert!(obj["spec"]["ports"][0].get("nodePort").is_none());
}

#[test]
fn unnamed_port_matches_the_unnamed_stored_port() {
    let mut live = yaml(NODE_PORT_SERVICE_STORED);
    let mut obj = yaml(NODE_PORT_SERVICE);
    for port in [&mut live["spec"]["ports"][0], &mut obj["spec"]["ports"][0]] {
        if let Some(port) = port.as_object_mut() {
            port.remove("name");
        }
    }
    let obj = defaulted(obj, Some(&live));
    assert_eq!(obj["spec"]["ports"][0]["nodePort"], json!(31580));
}

#[test]
fn node_port_already_claimed_by_another_port_is_not_reused() {
    let live = yaml(
        r#"
apiVersion: v1
kind: Service
spec:
  type: NodePort
  ports:
  - {name: http, port: 80, nodePort: 30080}
  - {name: admin, port: 81, nodePort: 30081}
"#,
    );
    let obj = yaml(
        r#"
apiVersion: v1
kind: Service
spec:
  type: NodePort
  ports:
  - {name: http, port: 80}
  - {name: admin, port: 81, nodePort: 30080}
"#,
    );
    let obj = defaulted(obj, Some(&live));
    assert!(obj["spec"]["ports"][0].get("nodePort").is_none());
    assert_eq!(obj["spec"]["ports"][1]["nodePort"], json!(30080));
}

#[test]
fn node_ports_are_not_kept_when_the_type_no_longer_needs_them() {
    let live = yaml(NODE_PORT_SERVICE_STORED);
    let mut obj = yaml(NODE_PORT_SERVICE);
    obj["spec"]["type"] = json!("ClusterIP");
    let obj = defaulted(obj, Some(&live));
    assert!(obj["spec"]["ports"][0].get("nodePort").is_none());
    assert!(obj["spec"].get("externalTrafficPolicy").is_none());
    assert_eq!(obj["spec"]["clusterIP"], json!("10.96.88.3"));
}

#[test]
fn health_check_node_port_needs_local_policy_on_both_sides() {
    let live = yaml(LOCAL_LOAD_BALANCER_STORED);
    let mut obj = yaml(LOCAL_LOAD_BALANCER);
    obj["spec"]["externalTrafficPolicy"] = json!("Cluster");
    let obj = defaulted(obj, Some(&live));
    assert!(obj["spec"].get("healthCheckNodePort").is_none());
    assert_eq!(obj["spec"]["ports"][0]["nodePort"], json!(30412));
    assert_eq!(obj["spec"]["allocateLoadBalancerNodePorts"], json!(true));
}

#[test]
fn external_name_service_gets_no_cluster_defaults() {
    let live = yaml(ROUTER_SERVICE_STORED);
    let obj = defaulted(
        json!({"apiVersion": "v1", "kind": "Service", "spec": {"type": "ExternalName", "externalName": "api.example.com"}}),
        Some(&live),
    );
    assert_eq!(
        obj["spec"],
        json!({"type": "ExternalName", "externalName": "api.example.com", "sessionAffinity": "None"})
    );
}

#[test]
fn cluster_ip_with_external_ips_gets_an_external_traffic_policy() {
    let obj = defaulted(
        json!({"apiVersion": "v1", "kind": "Service", "spec": {"externalIPs": ["198.51.100.7"], "ports": [{"port": 80}]}}),
        None,
    );
    assert_eq!(obj["spec"]["externalTrafficPolicy"], json!("Cluster"));
}

#[test]
fn session_affinity_config_follows_the_affinity() {
    let none = defaulted(
        json!({"apiVersion": "v1", "kind": "Service", "spec": {"sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 60}}}}),
        None,
    );
    assert!(none["spec"].get("sessionAffinityConfig").is_none());

    let client_ip =
        defaulted(json!({"apiVersion": "v1", "kind": "Service", "spec": {"sessionAffinity": "ClientIP"}}), None);
    assert_eq!(client_ip["spec"]["sessionAffinityConfig"], json!({"clientIP": {"timeoutSeconds": 10800}}));
}

#[test]
fn target_port_defaults_to_the_port_unless_set() {
    let obj = defaulted(
        json!({"apiVersion": "v1", "kind": "Service", "spec": {"ports": [
            {"name": "a", "port": 80},
            {"name": "b", "port": 81, "targetPort": ""},
            {"name": "c", "port": 82, "targetPort": 0},
            {"name": "d", "port": 83, "targetPort": "http"},
            {"name": "e", "port": 84, "targetPort": 8084}
        ]}}),
        None,
    );
    let targets: Vec<&Value> =
        obj["spec"]["ports"].as_array().into_iter().flatten().map(|p| &p["targetPort"]).collect();
    assert_eq!(targets, [&json!(80), &json!(81), &json!(82), &json!("http"), &json!(8084)]);
}

#[test]
fn live_object_of_another_kind_is_ignored() {
    let mut live = yaml(ROUTER_SERVICE_STORED);
    live["kind"] = json!("Endpoints");
    let obj = defaulted(yaml(ROUTER_SERVICE), Some(&live));
    assert!(obj["spec"].get("clusterIP").is_none());
}

// Never overwrite, never touch the unknown, never panic, settle at once.

#[test]
fn explicit_deployment_values_are_never_overwritten() {
    let obj = yaml(
        r#"
apiVersion: apps/v1
kind: Deployment
spec:
  replicas: 3
  revisionHistoryLimit: 2
  progressDeadlineSeconds: 120
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  template:
    spec:
      dnsPolicy: Default
      restartPolicy: OnFailure
      securityContext: {runAsUser: 1000}
      terminationGracePeriodSeconds: 5
      schedulerName: gpu-scheduler
      volumes:
      - name: cfg
        configMap: {name: cfg, defaultMode: 256}
      - name: host
        hostPath: {path: /dev, type: Directory}
      containers:
      - name: c
        image: app
        imagePullPolicy: Never
        terminationMessagePath: /tmp/log
        terminationMessagePolicy: FallbackToLogsOnError
        ports: [{containerPort: 53, protocol: UDP}]
        env:
        - name: X
          valueFrom:
            fieldRef: {apiVersion: v2, fieldPath: metadata.name}
        resources: {limits: {cpu: "2"}}
        livenessProbe:
          httpGet: {path: /live, port: 1, scheme: HTTPS}
          timeoutSeconds: 4
          periodSeconds: 7
          successThreshold: 1
          failureThreshold: 9
        startupProbe:
          grpc: {port: 9, service: health}
          timeoutSeconds: 4
          periodSeconds: 7
          successThreshold: 1
          failureThreshold: 9
"#,
    );
    assert_eq!(defaulted(obj.clone(), None), obj);
}

#[test]
fn explicit_service_values_are_never_overwritten() {
    let live = yaml(LOCAL_LOAD_BALANCER_STORED);
    let obj = yaml(
        r#"
apiVersion: v1
kind: Service
spec:
  type: LoadBalancer
  sessionAffinity: ClientIP
  sessionAffinityConfig: {clientIP: {timeoutSeconds: 30}}
  externalTrafficPolicy: Local
  internalTrafficPolicy: Local
  allocateLoadBalancerNodePorts: false
  clusterIP: fd00:10:96::5a1
  clusterIPs: [fd00:10:96::5a1]
  ipFamilies: [IPv6]
  ipFamilyPolicy: SingleStack
  healthCheckNodePort: 31000
  ports:
  - {name: http, port: 80, targetPort: 8080, protocol: SCTP, nodePort: 30999}
"#,
    );
    assert_eq!(defaulted(obj.clone(), Some(&live)), obj);
}

#[test]
fn non_objects_are_left_alone() {
    for value in [
        Value::Null,
        json!(true),
        json!(7),
        json!("Deployment"),
        json!([{"apiVersion": "apps/v1", "kind": "Deployment"}]),
    ] {
        assert_eq!(defaulted(value.clone(), Some(&value)), value);
    }
}

#[test]
fn unknown_kinds_and_versions_are_left_alone() {
    let sparse_pod_like = json!({"spec": {"containers": [{"name": "c", "image": "app"}]}});
    for (api_version, kind) in [
        (json!("v1"), json!("Pod")),
        (json!("v1"), json!("Secret")),
        (json!("apps/v1"), json!("StatefulSet")),
        (json!("extensions/v1beta1"), json!("Deployment")),
        (json!("rbac.authorization.k8s.io/v1"), json!("ClusterRoleBinding")),
        (Value::Null, json!("Service")),
        (json!("v1"), json!(3)),
    ] {
        let mut obj = sparse_pod_like.clone();
        obj["apiVersion"] = api_version;
        obj["kind"] = kind;
        assert_eq!(defaulted(obj.clone(), None), obj);
    }
}

#[test]
fn wrong_types_are_left_as_they_are() {
    let deployment = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "spec": {
            "replicas": "two",
            "strategy": "fast",
            "template": {"spec": {
                "dnsPolicy": 5,
                "securityContext": [],
                "volumes": {"not": "a list"},
                "containers": [7, {"name": "c", "image": 9, "ports": "80", "env": [null], "livenessProbe": "yes"}]
            }}
        }
    });
    let out = defaulted(deployment, None);
    assert_eq!(out["spec"]["replicas"], json!("two"));
    assert_eq!(out["spec"]["strategy"], json!("fast"));
    assert_eq!(pod_spec(&out)["dnsPolicy"], json!(5));
    assert_eq!(pod_spec(&out)["securityContext"], json!([]));
    assert_eq!(pod_spec(&out)["volumes"], json!({"not": "a list"}));
    assert_eq!(pod_spec(&out)["containers"][0], json!(7));
    let c = &pod_spec(&out)["containers"][1];
    assert_eq!(c["image"], json!(9));
    assert_eq!(c["imagePullPolicy"], json!("IfNotPresent"));
    assert_eq!(c["ports"], json!("80"));
    assert_eq!(c["livenessProbe"], json!("yes"));

    let service = json!({"apiVersion": "v1", "kind": "Service", "spec": {"ports": [{"port": "80"}], "type": 1}});
    let live = json!({"kind": "Service", "spec": {"clusterIP": 10, "clusterIPs": "x", "ports": 5}});
    let out = defaulted(service, Some(&live));
    assert!(out["spec"]["ports"][0].get("targetPort").is_none());
    assert_eq!(out["spec"]["type"], json!(1));
    assert!(out["spec"].get("clusterIP").is_none());

    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "roleRef": "r", "subjects": [1, {"kind": 2}]});
    assert_eq!(defaulted(binding.clone(), None), binding);
}

#[test]
fn applying_twice_equals_applying_once() {
    let fixtures = [
        (ROUTER_DEPLOYMENT, None),
        (SPARSE_DEPLOYMENT, None),
        (ROUTER_SERVICE, Some(ROUTER_SERVICE_STORED)),
        (ROUTER_SERVICE, None),
        (NODE_PORT_SERVICE, Some(NODE_PORT_SERVICE_STORED)),
        (LOCAL_LOAD_BALANCER, Some(LOCAL_LOAD_BALANCER_STORED)),
        (ROUTER_CONFIG_MAP, None),
        (ROUTER_SERVICE_ACCOUNT, None),
        (ROUTER_ROLE, None),
        (ROUTER_ROLE_BINDING, None),
    ];
    for (obj, live) in fixtures {
        let live = live.map(yaml);
        assert_idempotent(&yaml(obj), live.as_ref());
    }
}
