//! Gateway routers against a cluster, through the kubectl stand-in: the
//! Gateway kinds and the InferenceServices are listed in the namespace's one
//! `kubectl get`, so an unchanged router diffs as unchanged, and health and
//! existence are what the cluster says.

mod common;

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

#[test]
fn a_live_inference_service_without_status_is_ejected() {
    let kubectl = FakeKubectl::new();
    let isvcs = live_isvcs(&[("qwen.coder", None), ("llama", Some(1)), ("mistral", Some(1))]);
    kubectl.namespace("ml", &list(&isvcs));
    let run = kubectl.run(&["render", "-f", ROUTER, "--live-from-cluster"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "warning: ModelRouter ml/coding.router: backend(s) qwen have no ready replica and are left out of \
             the route's rules (a rule never loses its last backend)\n"
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
