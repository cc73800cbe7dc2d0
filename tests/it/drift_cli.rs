//! Drift the operator never repairs, through the real binary: a live
//! RoleBinding whose roleRef was changed (roleRef is immutable, and the
//! operator updates only the subjects), a Service whose selector was.

use crate::common;

use common::{parse_stream, routerctl, to_stream};
use serde_json::{json, Value};

const POOLED: &str = "testdata/render/pooled.yaml";

/// The pooled router's objects as live, with `edit` applied.
fn live_with(edit: impl Fn(&mut Vec<Value>)) -> tempfile::NamedTempFile {
    let run = routerctl(&["render", "-f", POOLED, "-q", "--router-proxy-image", "rp:1"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut objects = parse_stream(&run.stdout);
    edit(&mut objects);
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), to_stream(&objects)).expect("writes live");
    file
}

fn find<'a>(objects: &'a mut [Value], kind: &str) -> &'a mut Value {
    objects.iter_mut().find(|o| o["kind"] == kind).expect("the kind is rendered")
}

#[test]
fn a_rolebinding_granting_something_else_is_drift() {
    let live = live_with(|objects| {
        find(objects, "RoleBinding")["roleRef"] =
            json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "cluster-admin"});
    });
    let path = live.path().to_string_lossy().into_owned();
    let run = routerctl(&["diff", "-f", POOLED, "--live", &path, "-o", "json", "--router-proxy-image", "rp:1"], None);
    // The operator changes nothing it can: exit 0, but the drift is said.
    assert_eq!(run.code, 0, "{}", run.stderr);
    let message = "rbac.authorization.k8s.io/v1 RoleBinding gpu/pooled-router-proxy: its roleRef is ClusterRole \
                   \"cluster-admin\", not the operator's Role \"pooled-router-proxy\"; roleRef is immutable and the \
                   operator updates only the subjects, so the proxy's ServiceAccount keeps what ClusterRole \
                   \"cluster-admin\" grants: delete the RoleBinding (the operator recreates it)";
    // On stderr the object is named as in every other finding: `Kind namespace/name`,
    // placed at the document of the router whose reconcile found it (the
    // ModelRouter is the file's fourth document, from line 31).
    let said = message.trim_start_matches("rbac.authorization.k8s.io/v1 ");
    assert!(run.stderr.contains(&format!("warning: {POOLED}: document 4 (line 31): {said}\n")), "{}", run.stderr);
    let plan: Value = serde_json::from_str(&run.stdout).expect("the plan");
    assert_eq!(plan["routers"][0]["drift"], json!([message]));

    let strict = routerctl(&["diff", "-f", POOLED, "--live", &path, "--strict", "--router-proxy-image", "rp:1"], None);
    assert_eq!((strict.code, strict.stdout.as_str()), (2, ""));
    assert!(strict.stderr.contains("(refused with --strict)"), "{}", strict.stderr);
}

#[test]
fn a_service_selecting_other_pods_is_drift() {
    let live = live_with(|objects| {
        find(objects, "Service")["spec"]["selector"] = json!({"app": "someone-else"});
    });
    let path = live.path().to_string_lossy().into_owned();
    let run = routerctl(&["diff", "-f", POOLED, "--live", &path, "-o", "json", "--router-proxy-image", "rp:1"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let plan: Value = serde_json::from_str(&run.stdout).expect("the plan");
    let drift = plan["routers"][0]["drift"][0].as_str().unwrap_or("");
    assert!(
        drift.starts_with("v1 Service gpu/pooled-router-proxy: its selector {\"app\":\"someone-else\"}"),
        "{drift}"
    );
}

#[test]
fn no_drift_no_drift_field() {
    let live = live_with(|_| {});
    let path = live.path().to_string_lossy().into_owned();
    let args = ["diff", "-f", POOLED, "--live", &path, "-o", "json", "--strict", "--router-proxy-image", "rp:1"];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let plan: Value = serde_json::from_str(&run.stdout).expect("the plan");
    assert_eq!(plan["routers"][0].get("drift"), None);
}
