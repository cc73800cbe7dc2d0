//! The change's own lifecycle (add, another tool edits, change, remove), run
//! step by step through the real binary: each step's `render --live` output,
//! plus the other tool's edits, is the next step's live state. The change is
//! in no release yet, so every step renders as `--operator-version next`.

use crate::common;

use std::collections::BTreeMap;

use common::{parse_stream, routerctl, to_stream};
use serde_json::{json, Value};

const HASH: &str = "inference.llmkube.dev/router-config-hash";
const LABELS_RECORD: &str = "inference.llmkube.dev/applied-pod-labels";
const ANNOTATIONS_RECORD: &str = "inference.llmkube.dev/applied-pod-annotations";

/// Renders `router` against `live` (none for the first apply).
fn step(router: &str, live: Option<&[Value]>, extra: &[&str]) -> (Vec<Value>, String) {
    let mut args = vec!["render", "-f", router, "--operator-version", "next"];
    args.extend_from_slice(extra);
    let stdin = live.map(to_stream);
    if stdin.is_some() {
        args.extend(["--live", "-"]);
    }
    let run = routerctl(&args, stdin.as_deref());
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    (parse_stream(&run.stdout), run.stderr)
}

fn deployment(objects: &mut [Value]) -> &mut Value {
    objects.iter_mut().find(|o| o["kind"] == "Deployment").expect("a Deployment")
}

fn string_map(v: &Value) -> BTreeMap<String, String> {
    v.as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string())).collect())
        .unwrap_or_default()
}

fn keys(v: &Value) -> Vec<String> {
    string_map(v).into_keys().collect()
}

fn selector() -> Value {
    json!({"matchLabels": {"app": "coding-router-router-proxy", "inference.llmkube.dev/model-router": "coding-router"}})
}

#[test]
fn lifecycle_add_other_tool_change_remove() {
    // 1. The spec sets labels a, b and annotation x.
    let (mut objects, _) = step("testdata/lifecycle/1-add.yaml", None, &[]);
    let d = deployment(&mut objects);
    assert_eq!(d["spec"]["template"]["metadata"]["labels"]["a"], "1");
    assert_eq!(d["spec"]["template"]["metadata"]["labels"]["b"], "2");
    assert_eq!(d["spec"]["template"]["metadata"]["annotations"]["x"], "1");
    assert_eq!(d["metadata"]["annotations"][LABELS_RECORD], "a,b");
    assert_eq!(d["metadata"]["annotations"][ANNOTATIONS_RECORD], "x");
    assert_eq!(d["spec"]["selector"], selector());

    // 2. Another tool adds a sync label and a restart annotation.
    d["spec"]["template"]["metadata"]["labels"]["gitops.example.com/sync"] = json!("yes");
    d["spec"]["template"]["metadata"]["annotations"]["kubectl.kubernetes.io/restartedAt"] = json!("now");

    // 3. a changes, b and x leave, a spoofed hash is set.
    let (mut objects, _) = step("testdata/lifecycle/3-change.yaml", Some(&objects), &[]);
    let operator_hash = objects.iter().find(|o| o["kind"] == "ConfigMap").expect("a ConfigMap")["metadata"]
        ["annotations"][HASH]
        .clone();
    let d = deployment(&mut objects);
    let tpl = &d["spec"]["template"]["metadata"];
    assert_eq!(
        string_map(&tpl["labels"]),
        BTreeMap::from([
            ("a".to_string(), "changed".to_string()),
            ("app".to_string(), "coding-router-router-proxy".to_string()),
            ("gitops.example.com/sync".to_string(), "yes".to_string()),
            ("inference.llmkube.dev/model-router".to_string(), "coding-router".to_string()),
        ])
    );
    assert_eq!(keys(&tpl["annotations"]), [HASH, "kubectl.kubernetes.io/restartedAt"]);
    assert_eq!(tpl["annotations"][HASH], operator_hash, "a spoofed hash must never win");
    assert_ne!(tpl["annotations"][HASH], "spoofed");
    assert_eq!(d["metadata"]["annotations"][LABELS_RECORD], "a");
    assert!(d["metadata"]["annotations"].get(ANNOTATIONS_RECORD).is_none(), "the spoofed hash key is not recorded");
    assert_eq!(d["spec"]["selector"], selector());

    // 4. Everything leaves the spec.
    let (mut objects, _) = step("testdata/lifecycle/4-remove.yaml", Some(&objects), &[]);
    let d = deployment(&mut objects);
    let tpl = &d["spec"]["template"]["metadata"];
    assert_eq!(keys(&tpl["labels"]), ["app", "gitops.example.com/sync", "inference.llmkube.dev/model-router"]);
    assert_eq!(keys(&tpl["annotations"]), [HASH, "kubectl.kubernetes.io/restartedAt"]);
    assert!(d["metadata"].get("annotations").is_none_or(|a| a.get(LABELS_RECORD).is_none()));
    assert!(d["metadata"].get("annotations").is_none_or(|a| a.get(ANNOTATIONS_RECORD).is_none()));
    assert_eq!(d["spec"]["selector"], selector());
}

#[test]
fn user_scrape_annotation_survives_with_emission_off() {
    // Bite check: scrape cleanup must skip keys podAnnotations sets.
    let router = "testdata/render/podmeta.yaml";
    let (objects, _) = step(router, None, &["--emit-scrape-annotations"]);
    let (mut objects, _) = step(router, Some(&objects), &[]);
    let anns = &deployment(&mut objects)["spec"]["template"]["metadata"]["annotations"];
    assert_eq!(anns["prometheus.io/scrape"], "true", "the user's own scrape annotation stays");
    assert!(anns.get("prometheus.io/path").is_none(), "the operator's leftover path goes");
    assert!(anns.get("prometheus.io/port").is_none(), "the operator's leftover port goes");
}

#[test]
fn a_live_selector_is_never_changed_and_a_mismatch_is_reported() {
    let (mut objects, _) = step("testdata/lifecycle/1-add.yaml", None, &[]);
    // An older operator selected on `app` alone: still selects the pods.
    let legacy = json!({"matchLabels": {"app": "coding-router-router-proxy"}});
    deployment(&mut objects)["spec"]["selector"] = legacy.clone();
    let (mut objects, stderr) = step("testdata/lifecycle/4-remove.yaml", Some(&objects), &[]);
    assert_eq!(deployment(&mut objects)["spec"]["selector"], legacy);
    assert!(stderr.contains("selectors are immutable, so it is kept"), "{stderr}");
}

#[test]
fn a_live_selector_on_a_pruned_label_is_an_error() {
    // A selector that once took a user label: pruning the label would leave
    // a Deployment that does not select its own pods, which the API server
    // refuses. routerctl says so instead of printing it.
    let (mut objects, _) = step("testdata/lifecycle/1-add.yaml", None, &[]);
    let d = deployment(&mut objects);
    d["spec"]["selector"]["matchLabels"]["a"] = json!("1");
    let stdin = to_stream(&objects);
    let run = routerctl(
        &["render", "-f", "testdata/lifecycle/4-remove.yaml", "--live", "-", "--operator-version", "next"],
        Some(&stdin),
    );
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("spec.selector.matchLabels[\"a\"]: the selector requires a=\"1\""), "{}", run.stderr);
}

#[test]
fn apply_ready_output_drops_server_fields_and_keeps_unknown_ones() {
    let (mut objects, _) = step("testdata/lifecycle/1-add.yaml", None, &[]);
    let d = deployment(&mut objects);
    d["metadata"]["uid"] = json!("1a2b");
    d["metadata"]["resourceVersion"] = json!("42");
    d["metadata"]["managedFields"] = json!([{"manager": "llmkube"}]);
    d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = json!("3");
    d["metadata"]["annotations"]["example.com/owner"] = json!("team-a");
    d["spec"]["minReadySeconds"] = json!(5);
    d["spec"]["aFieldFromTheFuture"] = json!({"nested": [1, 2]});
    d["status"] = json!({"replicas": 1});
    let (mut objects, _) = step("testdata/lifecycle/1-add.yaml", Some(&objects), &[]);
    let d = deployment(&mut objects);
    for gone in ["uid", "resourceVersion", "managedFields"] {
        assert!(d["metadata"].get(gone).is_none(), "{gone} is server-populated");
    }
    assert!(d.get("status").is_none());
    assert!(d["metadata"]["annotations"].get("deployment.kubernetes.io/revision").is_none());
    assert_eq!(d["metadata"]["annotations"]["example.com/owner"], "team-a");
    assert_eq!(d["spec"]["minReadySeconds"], 5);
    assert_eq!(d["spec"]["aFieldFromTheFuture"], json!({"nested": [1, 2]}));
}

#[test]
fn owner_uid_comes_from_live_objects() {
    let (mut objects, _) = step("testdata/lifecycle/1-add.yaml", None, &[]);
    assert!(objects[0]["metadata"].get("ownerReferences").is_none(), "no uid known yet");
    let owner = json!([{"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": "coding-router",
        "uid": "0f0e-live", "controller": true, "blockOwnerDeletion": false}]);
    deployment(&mut objects)["metadata"]["ownerReferences"] = owner.clone();
    let (objects, _) = step("testdata/lifecycle/1-add.yaml", Some(&objects), &[]);
    for obj in &objects {
        match obj["kind"].as_str() {
            // An unchanged ConfigMap is left exactly as it is: the operator
            // returns before it sets any owner reference.
            Some("ConfigMap") => assert!(obj["metadata"].get("ownerReferences").is_none()),
            _ => assert_eq!(obj["metadata"]["ownerReferences"], owner, "{}", obj["kind"]),
        }
    }
}
