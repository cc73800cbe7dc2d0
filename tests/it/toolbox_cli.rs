//! explain, the KRM function and --crd, through the real binary.

use crate::common;

use common::routerctl;
use serde_json::Value;

#[test]
fn explain_answers_why_each_key_is_there() {
    let args = ["explain", "-f", "testdata/diff/router.yaml", "--live", "testdata/diff/live-drift.yaml"];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("explain_drift", run.transcript(&args));
}

#[test]
fn explain_json_is_for_machines() {
    let run = routerctl(
        &[
            "explain",
            "-f",
            "testdata/diff/router.yaml",
            "--live",
            "testdata/diff/live-drift.yaml",
            "-o",
            "json",
            "--operator-version",
            "next",
        ],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let rows = v[0]["rows"].as_array().cloned().unwrap_or_default();
    let b = rows.iter().find(|r| r["key"] == "b").expect("a row for the pruned label");
    assert_eq!(b["owner"], "user");
    assert_eq!(b["action"], "pruned");
}

fn krm(args: &[&str], stdin: &str) -> common::Run {
    routerctl(args, Some(stdin))
}

#[test]
fn krm_round_trip_keeps_items_and_appends_the_rendered_objects() {
    let input = std::fs::read_to_string(common::root().join("testdata/krm/resource-list.yaml")).expect("fixture");
    let run = krm(&["krm"], &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let list: Value = routerctl::input::from_yaml_str(&run.stdout).expect("a ResourceList");
    let items = list["items"].as_array().cloned().unwrap_or_default();
    let kinds: Vec<&str> = items.iter().filter_map(|i| i["kind"].as_str()).collect();
    assert_eq!(&kinds[..3], ["ModelRouter", "InferenceService", "ConfigMap"], "input items first, unchanged");
    assert_eq!(&kinds[3..], ["ConfigMap", "Deployment", "Service"]);
    let deployment = &items[4];
    assert_eq!(
        deployment["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example.com/router-proxy:v1",
        "functionConfig settings apply"
    );
    assert_eq!(deployment["spec"]["template"]["metadata"]["annotations"]["prometheus.io/scrape"], "true");
}

#[test]
fn krm_reports_errors_as_results() {
    let input = std::fs::read_to_string(common::root().join("testdata/krm/invalid-router.yaml")).expect("fixture");
    let run = krm(&["krm"], &input);
    assert_eq!(run.code, 1);
    let list: Value = routerctl::input::from_yaml_str(&run.stdout).expect("a ResourceList even on failure");
    let results = list["results"].as_array().cloned().unwrap_or_default();
    assert!(results.iter().any(|r| r["severity"] == "error"), "{results:?}");
    // Run by kpt (no kustomize identity on the items), the errors are
    // results only: kpt shows results and stderr both.
    assert_eq!(run.stderr, "");
    // Run by kustomize, which marks each item with its identity and shows
    // stderr only, each error is also a line there.
    let marked = input.replace(
        "    annotations:\n",
        "    annotations:\n      kustomize.config.k8s.io/id: |\n        kind: ModelRouter\n        name: leaky\n",
    );
    assert_ne!(marked, input, "the fixture's item has annotations to add to");
    let kustomize = krm(&["krm"], &marked);
    assert_eq!(kustomize.code, 1);
    let errors = results.iter().filter(|r| r["severity"] == "error").count();
    assert_eq!(kustomize.stderr.lines().filter(|l| l.starts_with("error: ")).count(), errors, "{}", kustomize.stderr);
}

#[test]
fn a_link_named_routerctl_krm_is_the_krm_function() {
    // kustomize exec functions take a path and no arguments.
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("routerctl-krm");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_routerctl"), &link).expect("symlink");
    let input = std::fs::read_to_string(common::root().join("testdata/krm/resource-list.yaml")).expect("fixture");
    let mut child = std::process::Command::new(&link)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.as_bytes()).expect("writes");
    let out = child.wait_with_output().expect("finishes");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("kind: Deployment"));
}

#[test]
fn crd_defaults_replace_the_built_in_ones() {
    let args = ["render", "-f", "testdata/crd/router.yaml", "--crd", "testdata/crd/modelrouters-modified.yaml"];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The modified CRD defaults rule strategy to weighted, weight to 1 and
    // the endpoint port to 9000; the built-ins would give primary-fallback,
    // no weight and 8080.
    assert!(run.stdout.contains(r#""strategy": "weighted""#), "{}", run.stdout);
    assert!(run.stdout.contains(r#""weight": 1"#));
    assert!(run.stdout.contains("port: 9000"));
    let builtin = routerctl(&["render", "-f", "testdata/crd/router.yaml"], None);
    assert!(builtin.stdout.contains(r#""strategy": "primary-fallback""#));
    assert!(builtin.stdout.contains("port: 8080"));
}

#[test]
fn a_crd_of_another_version_is_a_warning() {
    let crd = std::fs::read_to_string(common::root().join("testdata/crd/modelrouters-builtin.yaml"))
        .expect("fixture")
        .replace("name: v1alpha1", "name: v1beta1");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("crd.yaml");
    std::fs::write(&path, crd).expect("writes");
    let path = path.to_string_lossy().into_owned();
    let run = routerctl(&["render", "-f", "testdata/crd/router.yaml", "--crd", &path], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("warning: "), "{}", run.stderr);
}

#[test]
fn a_crd_of_another_group_is_an_error() {
    let run = routerctl(&["render", "-f", "testdata/crd/router.yaml", "--crd", "testdata/render/sample.yaml"], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("expected a CustomResourceDefinition of inference.llmkube.dev"), "{}", run.stderr);
}
