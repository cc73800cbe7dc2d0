//! The plan per router: `diff -o json` and the summary lines, through the
//! real binary, against live objects from the kubectl stand-in.

use crate::common;

use common::{fixture, FakeKubectl};
use serde_json::Value;

const DEV_IMAGE: &str = "ghcr.io/defilantech/llmkube-router-proxy:dev";

/// The plan of `router` (YAML) against `live` in namespace `ml`.
fn plan(router: &str, live: &str, extra: &[&str]) -> (i32, Value) {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", live);
    // The image the live objects run, unless the case sets its own.
    let image: &[&str] =
        if extra.contains(&"--router-proxy-image") { &[] } else { &["--router-proxy-image", DEV_IMAGE] };
    let args = [&["diff", "-f", "-", "-o", "json"][..], image, extra].concat();
    let run = kubectl.run(&args, Some(router));
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    (run.code, serde_json::from_str(&run.stdout).expect("a JSON report"))
}

fn actions(report: &Value) -> Vec<(String, String)> {
    report["routers"][0]["objects"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| (o["kind"].as_str().unwrap_or("").to_string(), o["action"].as_str().unwrap_or("").to_string()))
        .collect()
}

fn action_of(report: &Value, kind: &str) -> String {
    actions(report).into_iter().find(|(k, _)| k == kind).map(|(_, a)| a).unwrap_or_default()
}

fn router() -> String {
    fixture("testdata/diff/router.yaml")
}

fn live() -> String {
    fixture("testdata/diff/live-unchanged.yaml")
}

#[test]
fn nothing_to_do_is_all_unchanged_and_exit_0() {
    let (code, report) = plan(&router(), &live(), &[]);
    assert_eq!(code, 0);
    assert_eq!(report["routers"][0]["rollsPods"], false);
    assert!(actions(&report).iter().all(|(_, a)| a == "unchanged"), "{report}");
}

#[test]
fn a_new_image_rolls_the_pods() {
    let (code, report) = plan(&router(), &live(), &["--router-proxy-image", "registry.example.com/proxy:v2"]);
    assert_eq!(code, 1);
    assert_eq!(report["routers"][0]["rollsPods"], true);
    assert_eq!(report["routers"][0]["rollReasons"], serde_json::json!(["image"]));
    assert_eq!(action_of(&report, "Deployment"), "update");
    assert_eq!(action_of(&report, "ConfigMap"), "unchanged");
}

#[test]
fn new_pod_labels_roll_the_pods() {
    let router = router()
        .replace("  defaultRoute: local-qwen\n", "  defaultRoute: local-qwen\n  proxy:\n    podLabels: {team: ml}\n");
    let (code, report) = plan(&router, &live(), &["--operator-version", "next"]);
    assert_eq!(code, 1);
    assert_eq!(report["routers"][0]["rollsPods"], true);
    assert_eq!(report["routers"][0]["rollReasons"], serde_json::json!(["pod label team"]));
    assert_eq!(action_of(&report, "Deployment"), "update");
    // The default release, v0.9.19, has no podLabels: the API server drops
    // the field, so nothing changes and no pod rolls.
    let (code, report) = plan(&router, &live(), &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["routers"][0]["rollsPods"], false);
    assert_eq!(report["release"]["name"], "v0.9.19", "{report}");
}

#[test]
fn a_config_change_updates_the_configmap_and_rolls_through_the_hash() {
    let router = router().replace("capabilities: [code, tools]", "capabilities: [code]");
    let (code, report) = plan(&router, &live(), &[]);
    assert_eq!(code, 1);
    assert_eq!(action_of(&report, "ConfigMap"), "update");
    assert_eq!(action_of(&report, "Deployment"), "update");
    assert_eq!(report["routers"][0]["rollsPods"], true);
    // The operator rolls the pods for a new config.json through its hash
    // on the pod template, and nothing else of the pods changes.
    assert_eq!(report["routers"][0]["rollReasons"], serde_json::json!(["config hash annotation"]));
}

#[test]
fn a_replicas_change_does_not_roll() {
    let live =
        live().replacen("    replicas: 1\n    revisionHistoryLimit", "    replicas: 3\n    revisionHistoryLimit", 1);
    let (code, report) = plan(&router(), &live, &[]);
    assert_eq!(code, 1);
    assert_eq!(action_of(&report, "Deployment"), "update");
    assert_eq!(report["routers"][0]["rollsPods"], false);
    assert_eq!(report["routers"][0].get("rollReasons"), None, "no reasons when nothing rolls");
}

#[test]
fn a_service_change_does_not_roll() {
    let live = live().replacen("    - name: http\n      port: 8080\n", "    - name: http\n      port: 80\n", 1);
    let (code, report) = plan(&router(), &live, &[]);
    assert_eq!(code, 1);
    assert_eq!(action_of(&report, "Service"), "update");
    assert_eq!(action_of(&report, "Deployment"), "unchanged");
    assert_eq!(report["routers"][0]["rollsPods"], false);
}

#[test]
fn the_json_report() {
    // A drifted router next to a pooled one that is not live at all.
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-drift.yaml"));
    let args = [
        "diff",
        "-f",
        "testdata/diff/router.yaml",
        "-f",
        "testdata/render/pooled.yaml",
        "-o",
        "json",
        "--router-proxy-image",
        DEV_IMAGE,
    ];
    let run = kubectl.run(&args, None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    insta::assert_snapshot!("plan_json", run.transcript(&args));
}

#[test]
fn json_errors_exit_2_with_nothing_on_stdout() {
    let kubectl = FakeKubectl::new();
    kubectl.fail_with("Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout");
    let run = kubectl.run(&["diff", "-f", "testdata/diff/router.yaml", "-o", "json"], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("i/o timeout"), "{}", run.stderr);
}

/// The plan of router.yaml against live-drift.yaml: the env var added by
/// hand is dropped, so the pods roll; the Service is switched back to
/// ClusterIP. The recorded pod label `b` stays: v0.9.19, the default,
/// keeps no records, so it prunes nothing by one.
const DRIFTED: &str = "ml/coding-router: Deployment update (rolls pods: env), ConfigMap unchanged, Service update";
const RELEASE: &str =
    "rendered as operator release v0.9.19 (from routerctl's default; no operator was found in the cluster)";

#[test]
fn a_pipe_gets_the_plan_with_why_the_pods_roll_unless_quiet() {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-drift.yaml"));
    let args = ["diff", "-f", "testdata/diff/router.yaml", "--router-proxy-image", DEV_IMAGE];
    let run = kubectl.run(&args, None);
    assert_eq!(run.code, 1);
    assert!(run.stderr.starts_with("warning: found no LLMKube operator"), "{}", run.stderr);
    assert!(run.stderr.ends_with(&format!("\n{DRIFTED}\n{RELEASE}\n")), "{}", run.stderr);
    let verbose = kubectl.run(&[&args[..], &["-v"]].concat(), None);
    assert!(verbose.stderr.contains(&format!("\n{DRIFTED}\n")), "{}", verbose.stderr);
    let json = kubectl.run(&[&args[..], &["-o", "json"]].concat(), None);
    assert!(json.stderr.ends_with(&format!("\n{DRIFTED}\n{RELEASE}\n")), "-o json too: {}", json.stderr);
    let quiet = kubectl.run(&[&args[..], &["-q"]].concat(), None);
    assert_eq!((quiet.code, quiet.stderr.as_str(), quiet.stdout.as_str()), (1, "", run.stdout.as_str()));
}

#[test]
fn in_the_machine_formats_the_plan_is_a_note_at_the_routers_document() {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-drift.yaml"));
    let router = "testdata/diff/router.yaml";
    // The ModelRouter is the file's second document.
    let text = fixture(router);
    let line = text.lines().enumerate().filter(|(_, l)| l.starts_with("apiVersion:")).nth(1).map(|(i, _)| i + 1);
    let line = line.expect("a second document");
    let args = ["diff", "-f", router, "--router-proxy-image", DEV_IMAGE, "--message-format"];
    let github = kubectl.run(&[&args[..], &["github"]].concat(), None);
    assert_eq!(github.code, 1, "{}", github.stderr);
    let changes = DRIFTED.strip_prefix("ml/coding-router: ").unwrap_or(DRIFTED);
    let note =
        format!("::notice file={router},line={line},title=routerctl plan::ModelRouter ml/coding-router: {changes}");
    assert!(github.stderr.lines().any(|l| l == note), "{}", github.stderr);
    assert!(!github.stderr.contains(RELEASE), "stderr holds findings only: {}", github.stderr);
    let json = kubectl.run(&[&args[..], &["json"]].concat(), None);
    let plan: Vec<Value> = json
        .stderr
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|f| f["rule"] == "plan")
        .collect();
    assert_eq!(plan.len(), 1, "{}", json.stderr);
    assert_eq!((plan[0]["severity"].as_str(), plan[0]["line"].as_u64()), (Some("note"), Some(line as u64)));
}

/// Runs a shell command line under `script(1)`, which gives it a terminal.
fn on_a_terminal(command: &str, path: std::ffi::OsString) -> String {
    common::require_tool("script", &["--version"], "giving routerctl a terminal");
    let out = std::process::Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .env("PATH", path)
        .current_dir(common::root())
        .output()
        .expect("script runs");
    String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
}

#[test]
#[ignore = "needs script(1) from util-linux for a terminal; .ci/run runs it with --ignored"]
fn a_terminal_gets_one_plan_line_per_router_after_the_diff() {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-drift.yaml"));
    let command = format!(
        "{} diff -f testdata/diff/router.yaml -f testdata/render/pooled.yaml --router-proxy-image {DEV_IMAGE} --color never",
        env!("CARGO_BIN_EXE_routerctl")
    );
    let screen = on_a_terminal(&command, kubectl.path());
    let drifted = format!("{DRIFTED}\n");
    let pooled = "gpu/pooled: Deployment create, ConfigMap create, ServiceAccount create, Role create, RoleBinding create, Service create\n";
    let release =
        "rendered as operator release v0.9.19 (from routerctl's default; no operator was found in the cluster)\n";
    assert!(screen.ends_with(&format!("{drifted}{pooled}{release}")), "{screen}");
    assert!(screen.find("+++ operator").is_some_and(|i| i < screen.find(&drifted).unwrap_or(0)), "{screen}");
}
