//! Gateway routers against a cluster, through the kubectl stand-in: the
//! Gateway kinds and the InferenceServices are listed in the namespace's one
//! `kubectl get`, so an unchanged router diffs as unchanged, and health and
//! existence are what the cluster says.

use crate::common;

use common::{parse_stream, routerctl, to_stream, FakeKubectl};
use serde_json::{json, Value};

const ROUTER: &str = "testdata/gateway/local.yaml";
const UID: &str = "0f7d3a52-95c1-4c4e-a8d2-6f1e2b7c9a10";

/// The router's objects as rendered, with what the API server adds to every
/// object (the defaults of the Envoy CRDs are normalized away by routerctl).
fn live_objects() -> Vec<Value> {
    let run = routerctl(&["render", "-f", ROUTER, "-q"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    parse_stream(&run.stdout)
        .into_iter()
        .map(|mut o| {
            o["metadata"]["resourceVersion"] = json!("41");
            o["metadata"]["uid"] = json!(format!("uid-{}", o["metadata"]["name"].as_str().unwrap_or("")));
            o
        })
        .collect()
}

/// The InferenceServices of the router's file as the cluster holds them,
/// each with `readyReplicas` (or no status at all with `None`).
fn live_isvcs(ready: &[(&str, Option<i64>)]) -> Vec<Value> {
    ready
        .iter()
        .map(|(name, replicas)| {
            let mut isvc = json!({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "InferenceService",
                                  "metadata": {"name": name, "namespace": "ml"}, "spec": {}});
            if *name == "qwen.coder" {
                isvc["spec"] = json!({"endpoint": {"port": 9000}});
            }
            if let Some(n) = replicas {
                isvc["status"] = json!({"readyReplicas": n});
            }
            isvc
        })
        .collect()
}

fn list(objects: &[Value]) -> String {
    to_stream(objects)
}

fn all_ready() -> Vec<Value> {
    live_isvcs(&[("qwen.coder", Some(2)), ("llama", Some(1)), ("mistral", Some(1))])
}

#[test]
fn an_unchanged_gateway_router_diffs_as_unchanged_in_one_call() {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &list(&[live_objects(), all_ready()].concat()));
    let run = kubectl.run(&["diff", "-f", ROUTER, "-q"], None);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    let calls = kubectl.calls();
    assert_eq!(calls.len(), 2, "the operator lookup and one get for ml: {calls:?}");
    assert!(calls[1].contains(",backends.gateway.envoyproxy.io,"), "{}", calls[1]);
    assert!(calls[1].contains(",inferenceservices.inference.llmkube.dev -n ml"), "{}", calls[1]);
}

#[test]
fn drift_in_the_cluster_is_a_diff() {
    let kubectl = FakeKubectl::new();
    let mut live = live_objects();
    let route = live.iter_mut().find(|o| o["kind"] == "AIGatewayRoute").expect("a route");
    route["spec"]["rules"][0]["backendRefs"][0]["priority"] = json!(7);
    kubectl.namespace("ml", &list(&[live, all_ready()].concat()));
    let run = kubectl.run(&["diff", "-f", ROUTER, "-q"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("-      priority: 7\n+      priority: 0\n"), "{}", run.stdout);
}

#[test]
fn an_object_another_controller_owns_is_refused() {
    let kubectl = FakeKubectl::new();
    let mut live = live_objects();
    let backend = live.iter_mut().find(|o| o["kind"] == "Backend").expect("a Backend");
    backend["metadata"]["ownerReferences"][0]["name"] = json!("other-router");
    backend["metadata"]["ownerReferences"][0]["uid"] = json!("other-uid");
    kubectl.namespace("ml", &list(&[live, all_ready()].concat()));
    let run = kubectl.run(&["diff", "-f", ROUTER, "-q"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("it is controlled by ModelRouter \"other-router\""), "{}", run.stderr);
}

/// A router from git has no uid; a live Backend, AIServiceBackend or
/// AIGatewayRoute of the same name that another ModelRouter controls is
/// still refused (the operator's SetControllerReference refuses it), never
/// planned as an update that would keep the other router's owner and
/// redirect its traffic.
#[test]
fn without_a_uid_another_routers_gateway_object_is_refused() {
    let without_uid: String = common::fixture(ROUTER).replace(&format!("  uid: {UID}\n"), "");
    assert!(!without_uid.contains(UID), "the router's uid is removed");
    for kind in ["Backend", "AIServiceBackend", "AIGatewayRoute"] {
        // Only the other router's object is live: nothing carries this
        // router's uid.
        let mut live: Vec<Value> = live_objects().into_iter().filter(|o| o["kind"] == kind).take(1).collect();
        let taken = live.first_mut().expect("an object of the kind");
        taken["metadata"]["ownerReferences"][0]["name"] = json!("r1");
        taken["metadata"]["ownerReferences"][0]["uid"] = json!("uid-of-r1");
        let name = taken["metadata"]["name"].as_str().unwrap_or_default().to_string();
        let kubectl = FakeKubectl::new();
        kubectl.namespace("ml", &list(&[live, all_ready()].concat()));
        let run = kubectl.run(&["diff", "-f", "-", "-o", "json"], Some(&without_uid));
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{kind}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "{name}: it is controlled by ModelRouter \"r1\"; the operator refuses to update an object another \
                 controller owns"
            )),
            "{kind}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_live_inference_service_without_status_is_ejected() {
    let kubectl = FakeKubectl::new();
    let isvcs = live_isvcs(&[("qwen.coder", None), ("llama", Some(1)), ("mistral", Some(1))]);
    kubectl.namespace("ml", &list(&isvcs));
    let run = kubectl.run(&["render", "-f", ROUTER, "--live-from-cluster"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "warning: testdata/gateway/local.yaml: document 4 (line 33): ModelRouter ml/coding.router: backend qwen \
             has no ready replica and is left out of the route's rules (a rule never loses its last backend)\n"
        ),
        "{}",
        run.stderr
    );
    let route = parse_stream(&run.stdout).into_iter().find(|o| o["kind"] == "AIGatewayRoute").expect("a route");
    let first_rule: Vec<&str> = route["spec"]["rules"][0]["backendRefs"]
        .as_array()
        .expect("refs")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(first_rule, ["llama"], "qwen is ejected from the coding rule");
    assert_eq!(route["metadata"]["ownerReferences"][0]["uid"], UID);
}

#[test]
fn an_inference_service_the_cluster_lacks_refuses_the_router() {
    let kubectl = FakeKubectl::new();
    // Only the router itself is given: its InferenceServices are not in the
    // inputs, and the cluster has two of the three.
    let router_only: String =
        common::fixture(ROUTER).split("---\n").filter(|doc| doc.contains("kind: ModelRouter")).collect();
    kubectl.namespace("ml", &list(&live_isvcs(&[("qwen.coder", Some(1)), ("llama", Some(1))])));
    let run = kubectl.run(&["diff", "-f", "-"], Some(&router_only));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(
        run.stderr.contains(
            "spec.backends[2].inferenceServiceRef.name: ReconcileFailed: backend \"mistral\" references \
             InferenceService \"mistral\" which does not exist in namespace \"ml\""
        ),
        "{}",
        run.stderr
    );
    // From files, git has no status and no cluster to ask: the assumption
    // stays, with its warning.
    let offline = routerctl(&["render", "-f", "-"], Some(&router_only));
    assert_eq!(offline.code, 0, "{}", offline.stderr);
    assert!(offline.stderr.contains("which is not in the inputs; assuming it exists"), "{}", offline.stderr);
}

/// The actions of the plan's first router, as (kind, action).
fn plan_actions(plan_json: &str) -> Vec<(String, String)> {
    let plan: Value = serde_json::from_str(plan_json).expect("the plan as JSON");
    plan["routers"][0]["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .map(|o| (o["kind"].as_str().unwrap_or("").to_string(), o["action"].as_str().unwrap_or("").to_string()))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

/// A router switched from Proxy to Gateway: its proxy objects stay live and
/// its own (upstream deletes nothing); the plan reports them as orphaned,
/// a warning says how to remove them, and the exit code is the Gateway
/// objects' (creates).
#[test]
fn a_switch_to_the_gateway_plane_leaves_the_proxy_objects_orphaned() {
    let as_proxy: String = common::fixture(ROUTER).replace("  dataPlane: Gateway\n", "");
    let proxy = routerctl(&["render", "-f", "-", "-q", "--router-proxy-image", "rp:1"], Some(&as_proxy));
    assert_eq!(proxy.code, 0, "{}", proxy.stderr);
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &list(&[parse_stream(&proxy.stdout), all_ready()].concat()));
    let run = kubectl.run(&["diff", "-f", ROUTER, "-o", "json"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let orphaned: Vec<_> = plan_actions(&run.stdout).into_iter().filter(|(_, a)| a == "orphaned").collect();
    assert_eq!(orphaned, pairs(&[("ConfigMap", "orphaned"), ("Deployment", "orphaned"), ("Service", "orphaned")]));
    assert!(
        run.stderr.contains(
            "warning: testdata/gateway/local.yaml: document 4 (line 33): ModelRouter ml/coding.router: live ConfigMap \
             coding-router-router-proxy, Deployment \
             coding-router-router-proxy, Service coding-router-router-proxy of the router-proxy data plane it left \
             are still controlled by it; the operator neither updates nor deletes them (they go with the \
             ModelRouter): `kubectl delete -n ml configmap/coding-router-router-proxy \
             deployment.apps/coding-router-router-proxy service/coding-router-router-proxy` removes them\n"
        ),
        "{}",
        run.stderr
    );
}

/// And back: a Proxy router whose Gateway objects are still live. Objects
/// of the same names that another router controls are not its orphans.
#[test]
fn a_switch_back_to_the_proxy_plane_leaves_the_gateway_objects_orphaned() {
    let mut live = live_objects();
    let foreign = live.iter_mut().find(|o| o["kind"] == "AIServiceBackend").expect("an AIServiceBackend");
    foreign["metadata"]["ownerReferences"][0]["name"] = json!("someone-else");
    let as_proxy: String = common::fixture(ROUTER).replace("  dataPlane: Gateway\n", "");
    let args = ["diff", "-f", "-", "--live", "live.yaml", "-o", "json", "--router-proxy-image", "rp:1"];
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("live.yaml"), list(&live)).expect("writes live");
    let live_path = dir.path().join("live.yaml").to_string_lossy().into_owned();
    let args: Vec<&str> = args.iter().map(|a| if *a == "live.yaml" { live_path.as_str() } else { a }).collect();
    let run = routerctl(&args, Some(&as_proxy));
    assert_eq!(run.code, 1, "{}", run.stderr);
    let orphaned: Vec<_> = plan_actions(&run.stdout).into_iter().filter(|(_, a)| a == "orphaned").collect();
    assert_eq!(
        orphaned,
        pairs(&[
            ("Backend", "orphaned"),
            ("Backend", "orphaned"),
            ("Backend", "orphaned"),
            ("AIServiceBackend", "orphaned"),
            ("AIServiceBackend", "orphaned"),
            ("AIGatewayRoute", "orphaned"),
            ("BackendTrafficPolicy", "orphaned"),
        ])
    );
}

/// Orphans alone change nothing the operator writes: exit 0.
#[test]
fn orphans_alone_exit_0() {
    let as_proxy: String = common::fixture(ROUTER).replace("  dataPlane: Gateway\n", "");
    let proxy = routerctl(&["render", "-f", "-", "-q", "--router-proxy-image", "rp:1"], Some(&as_proxy));
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &list(&[parse_stream(&proxy.stdout), live_objects(), all_ready()].concat()));
    let run = kubectl.run(&["diff", "-f", ROUTER, "-o", "json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(plan_actions(&run.stdout).iter().filter(|(_, a)| a == "orphaned").count(), 3);
}
