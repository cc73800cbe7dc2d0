//! A Gateway-mode router through the real binary against live objects:
//! render, drift in the live route, `diff` (exit 1), `render --live`
//! restores it keeping what others added, `diff` (exit 0); the uid taken
//! from live objects; readiness from a live InferenceService; `explain`.

use crate::common;

use common::{parse_stream, routerctl, to_stream};
use serde_json::{json, Value};

const ROUTER: &str = "testdata/gateway/local.yaml";

fn route(objects: &mut [Value]) -> &mut Value {
    objects.iter_mut().find(|o| o["kind"] == "AIGatewayRoute").expect("a route")
}

/// What the API server adds to a stored object.
fn stored(mut obj: Value) -> Value {
    obj["metadata"]["resourceVersion"] = json!("4711");
    obj["metadata"]["uid"] = json!("0b0c6c1e-7a53-4d7e-9f0a-2f1d3c4b5a69");
    obj["status"] = json!({"parents": [{"parentRef": {"name": "ai-gateway"}, "conditions": []}]});
    obj
}

#[test]
fn drift_in_a_live_route_is_diffed_and_restored() {
    let first = routerctl(&["render", "-f", ROUTER], None);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let rendered = parse_stream(&first.stdout);
    let mut live: Vec<Value> = rendered.iter().cloned().map(stored).collect();

    // Someone edits the live route: the primary and fallback swap, and a
    // label and an annotation of another tool appear.
    let r = route(&mut live);
    r["spec"]["rules"][0]["backendRefs"] = json!([{"name": "llama", "priority": 0}, {"name": "qwen", "priority": 1}]);
    r["metadata"]["labels"] = json!({"gitops.example.com/sync": "yes"});
    r["metadata"]["annotations"] = json!({"note.example.com/owner": "platform"});
    let live_text = to_stream(&live);

    let args = ["diff", "-f", ROUTER, "--live", "-"];
    let diff = routerctl(&args, Some(&live_text));
    assert_eq!(diff.code, 1, "{}", diff.stderr);
    insta::assert_snapshot!("gateway_diff_drift", diff.transcript(&args));

    let restored = routerctl(&["render", "-f", ROUTER, "--live", "-"], Some(&live_text));
    assert_eq!(restored.code, 0, "{}", restored.stderr);
    let mut restored = parse_stream(&restored.stdout);
    let r = route(&mut restored);
    // The gateway reconciler replaces spec and nothing else.
    assert_eq!(r["spec"], route(&mut rendered.clone())["spec"]);
    assert_eq!(r["metadata"]["labels"], json!({"gitops.example.com/sync": "yes"}));
    assert_eq!(r["metadata"]["annotations"], json!({"note.example.com/owner": "platform"}));
    // Apply-ready: no server fields.
    assert!(r.get("status").is_none() && r["metadata"].get("resourceVersion").is_none());

    let again =
        routerctl(&["diff", "-f", ROUTER, "--live", "-", "--operator-version", "next"], Some(&to_stream(&restored)));
    assert_eq!((again.code, again.stdout.as_str()), (0, ""), "{}", again.stderr);
    // The plan on stderr: every object unchanged, then the release it follows.
    let (plan, release) = again.stderr.split_once('\n').unwrap_or_default();
    let parts = plan.strip_prefix("ml/coding.router: ").unwrap_or_default().split(", ");
    assert!(parts.clone().count() > 1 && parts.into_iter().all(|p| p.ends_with(" unchanged")), "{}", again.stderr);
    assert_eq!(release, "rendered as operator release next (from --operator-version)\n");

    // explain names the drifted fields and what the update keeps.
    let explain = routerctl(&["explain", "-f", ROUTER, "--live", "-"], Some(&live_text));
    assert_eq!(explain.code, 0, "{}", explain.stderr);
    insta::assert_snapshot!("gateway_explain_drift", explain.stdout);
}

#[test]
fn the_uid_comes_from_live_objects_and_live_status_decides_readiness() {
    // The router in git has no uid; its live route carries the controller
    // reference, and every rendered object gets it.
    let owner = json!([{"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": "degraded",
        "uid": "5d2b8e0c-1111-4a4a-9c9c-222233334444", "controller": true, "blockOwnerDeletion": false}]);
    let live_route = json!({"apiVersion": "aigateway.envoyproxy.io/v1beta1", "kind": "AIGatewayRoute",
        "metadata": {"name": "degraded", "namespace": "ml", "ownerReferences": owner}, "spec": {}});
    // The live InferenceService b has recovered: its status wins over the
    // stale one in the inputs, so b is back in the route.
    let live_isvc = json!({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "InferenceService",
        "metadata": {"name": "b", "namespace": "ml"}, "status": {"readyReplicas": 3}});
    let live = to_stream(&[live_route, live_isvc]);
    let run = routerctl(&["render", "-f", "testdata/gateway/ejection.yaml", "--live", "-"], Some(&live));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Now only c is left out, from the one rule where b can stand in.
    assert!(run.stderr.contains("backend c has no ready replica"), "{}", run.stderr);
    let objects = parse_stream(&run.stdout);
    for o in &objects {
        assert_eq!(o["metadata"]["ownerReferences"], owner, "{}", o["kind"]);
    }
    let route = objects.iter().find(|o| o["kind"] == "AIGatewayRoute").expect("a route");
    assert_eq!(
        route["spec"]["rules"][0]["backendRefs"],
        json!([{"name": "b", "priority": 0}, {"name": "a", "priority": 1}])
    );
}

#[test]
fn a_gateway_object_controlled_by_someone_else_is_an_error() {
    let live = json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "Backend",
        "metadata": {"name": "qwen", "namespace": "ml", "ownerReferences": [
            {"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "InferenceService", "name": "qwen", "uid": "1", "controller": true}]},
        "spec": {}});
    let run = routerctl(&["render", "-f", ROUTER, "--live", "-"], Some(&to_stream(&[live])));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("Backend ml/qwen: it is controlled by InferenceService \"qwen\""), "{}", run.stderr);
}

/// What the API server stores for the objects of testdata/gateway/budgets-auth.yaml:
/// the CRDs' defaults filled in (Envoy Gateway v1.8.1, Envoy AI Gateway v0.7.0).
fn as_the_api_server_stores(mut obj: Value) -> Value {
    let kind = obj["kind"].as_str().unwrap_or("").to_string();
    let spec = &mut obj["spec"];
    match kind.as_str() {
        "Backend" => spec["type"] = json!("Endpoints"),
        "AIGatewayRoute" => {
            for rule in spec["rules"].as_array_mut().into_iter().flatten() {
                rule["modelsOwnedBy"] = json!("Envoy AI Gateway");
                for r in rule["backendRefs"].as_array_mut().into_iter().flatten() {
                    r["priority"] = json!(0);
                    r["weight"] = json!(1);
                }
            }
        }
        "BackendTrafficPolicy" => {
            let passive = &mut spec["healthCheck"]["passive"];
            passive["alwaysEjectOneEndpoint"] = json!(false);
            passive["consecutiveLocalOriginFailures"] = json!(5);
            passive["splitExternalLocalOriginErrors"] = json!(false);
            for rule in spec["rateLimit"]["global"]["rules"].as_array_mut().into_iter().flatten() {
                let selectors = rule.get_mut("clientSelectors").and_then(Value::as_array_mut);
                for selector in selectors.into_iter().flatten() {
                    selector["headers"][0]["invert"] = json!(false);
                }
            }
        }
        "SecurityPolicy" => {
            spec["jwt"]["providers"][0]["remoteJWKS"]["cacheDuration"] = json!("300s");
            for rule in spec["authorization"]["rules"].as_array_mut().into_iter().flatten() {
                rule["principal"]["jwt"]["claims"][0]["valueType"] = json!("String");
            }
        }
        _ => {}
    }
    stored(obj)
}

#[test]
fn objects_as_the_api_server_stores_them_diff_as_no_change() {
    let router = "testdata/gateway/budgets-auth.yaml";
    let first = routerctl(&["render", "-f", router], None);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let live: Vec<Value> = parse_stream(&first.stdout).into_iter().map(as_the_api_server_stores).collect();
    let run = routerctl(&["diff", "-f", router, "--live", "-"], Some(&to_stream(&live)));
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    // explain agrees: nothing to change.
    let explain = routerctl(&["explain", "-f", router, "--live", "-", "-o", "json"], Some(&to_stream(&live)));
    assert_eq!(explain.code, 0, "{}", explain.stderr);
    let list: Value = serde_json::from_str(&explain.stdout).expect("explain prints JSON");
    let actions: Vec<&str> =
        list[0]["objects"].as_array().into_iter().flatten().filter_map(|o| o["action"].as_str()).collect();
    assert_eq!(actions, ["unchanged"; 5]);
}
