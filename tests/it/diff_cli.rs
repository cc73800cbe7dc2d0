//! `routerctl diff` through the real binary: kubectl-diff exit codes, no
//! noise from API server defaults, and snapshots of the diffs.

use crate::common;

use common::routerctl;

const ROUTER: &str = "testdata/diff/router.yaml";
const DEV_IMAGE: &str = "ghcr.io/defilantech/llmkube-router-proxy:dev";

#[test]
fn an_operator_made_deployment_as_kubectl_prints_it_is_no_change() {
    // The operator that made the live objects runs with its default image.
    let args = ["diff", "-f", ROUTER, "--live", "testdata/diff/live-unchanged.yaml", "--router-proxy-image", DEV_IMAGE];
    let run = routerctl(&args, None);
    // Files say nothing of the operator's release: the default is named,
    // once, on the line that closes every run but -q, after the plan.
    let from = "routerctl's default; files say nothing of the operator: give --operator-version";
    let plan = "ml/coding-router: Deployment unchanged, ConfigMap unchanged, Service unchanged\n";
    let stderr = format!("{plan}rendered as operator release v0.9.19 (from {from})\n");
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", stderr.as_str()), "{}", run.stdout);
    // Where no such line closes the run (a machine format), a note says it.
    let json = routerctl(&[&args[..], &["--message-format", "json"]].concat(), None);
    let said = json.stderr.lines().filter(|l| l.contains("rendering as operator release v0.9.19")).count();
    assert_eq!(said, 1, "{}", json.stderr);
    // A run that fails never gets to that line: the note says it.
    let broken = "testdata/invalid/op-rule-backend-undefined.yaml";
    let failed = routerctl(&["diff", "-f", broken, "--live", "testdata/diff/live-unchanged.yaml"], None);
    assert_eq!((failed.code, failed.stdout.as_str()), (2, ""), "{}", failed.stderr);
    assert_eq!(failed.stderr.matches("operator release v0.9.19").count(), 1, "{}", failed.stderr);
    assert!(failed.stderr.starts_with("routerctl: rendering as operator release v0.9.19"), "{}", failed.stderr);
    // explain closes with no such line: its note stays.
    let explain = routerctl(&["explain", "-f", ROUTER, "--live", "testdata/diff/live-unchanged.yaml"], None);
    assert!(
        explain.stderr.contains(&format!("routerctl: rendering as operator release v0.9.19 ({from})\n")),
        "{}",
        explain.stderr
    );
    let given = routerctl(&[&args[..], &["--operator-version", "next"]].concat(), None);
    let stderr = format!("{plan}rendered as operator release next (from --operator-version)\n");
    assert_eq!(
        (given.code, given.stdout.as_str(), given.stderr.as_str()),
        (0, "", stderr.as_str()),
        "{}",
        given.stdout
    );
    let quiet = routerctl(&[&args[..], &["--operator-version", "next", "-q"]].concat(), None);
    assert_eq!((quiet.code, quiet.stdout.as_str(), quiet.stderr.as_str()), (0, "", ""), "{}", quiet.stdout);
}

#[test]
fn live_from_stdin() {
    let live = std::fs::read_to_string(common::root().join("testdata/diff/live-unchanged.yaml")).expect("fixture");
    let run = routerctl(&["diff", "-f", ROUTER, "--live", "-"], Some(&live));
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn drift_is_shown_and_exits_1() {
    let args = ["diff", "-f", ROUTER, "--live", "testdata/diff/live-drift.yaml"];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("diff_drift", run.transcript(&args));
}

#[test]
fn objects_not_live_are_additions() {
    let args = ["diff", "-f", "testdata/render/pooled.yaml", "--live", "testdata/diff/live-unchanged.yaml"];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("diff_new_objects", run.transcript(&args));
}

#[test]
fn scrape_emission_turned_off_removes_the_operator_annotations() {
    // Scrape annotations on router pods come with the pod-metadata change,
    // in no release yet: both runs are `next`.
    let rendered =
        routerctl(&["render", "-f", ROUTER, "--emit-scrape-annotations", "--operator-version", "next"], None);
    assert_eq!(rendered.code, 0, "{}", rendered.stderr);
    let args = ["diff", "-f", ROUTER, "--live", "-", "--operator-version", "next"];
    let run = routerctl(&args, Some(&rendered.stdout));
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("diff_scrape_off", run.transcript(&args));
}

#[test]
fn color_follows_the_flag() {
    let base = ["diff", "-f", ROUTER, "--live", "testdata/diff/live-drift.yaml"];
    let always = routerctl(&[&base[..], &["--color", "always"]].concat(), None);
    assert!(always.stdout.contains("\x1b[31m-"), "deletions are red");
    assert!(always.stdout.contains("\x1b[32m+"), "insertions are green");
    let never = routerctl(&[&base[..], &["--color", "never"]].concat(), None);
    assert!(!never.stdout.contains('\x1b'));
    // Not a terminal: auto means no colour.
    let auto = routerctl(&base, None);
    assert!(!auto.stdout.contains('\x1b'));
    assert_eq!(auto.stdout, never.stdout);
}

#[test]
fn diff_errors_exit_2_with_nothing_on_stdout() {
    let cases: &[&[&str]] = &[
        &["diff", "-f", ROUTER],
        &["diff", "-f", ROUTER, "--live", "testdata/nope.yaml"],
        &["diff", "-f", ROUTER, "--live", "-", "-f", "-"],
        &["diff", "-f", ROUTER, "--live", "testdata/diff/live-drift.yaml", "--color", "sometimes"],
    ];
    for args in cases {
        let run = routerctl(args, Some(""));
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with("error") || run.stderr.contains("error:"), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn an_object_owned_by_another_controller_is_refused() {
    let live = std::fs::read_to_string(common::root().join("testdata/diff/live-unchanged.yaml"))
        .expect("fixture")
        .replacen("kind: ModelRouter\n      name: coding-router", "kind: HelmRelease\n      name: someone-else", 1);
    let run = routerctl(&["diff", "-f", ROUTER, "--live", "-"], Some(&live));
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("it is controlled by HelmRelease \"someone-else\""), "{}", run.stderr);
}

#[test]
fn render_live_prints_the_merged_objects_ready_to_apply() {
    let args = ["render", "-f", ROUTER, "--live", "testdata/diff/live-drift.yaml"];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("render_live_drift", run.transcript(&args));
}

#[test]
fn another_owner_is_refused_when_no_live_object_tells_the_router_uid() {
    let live = std::fs::read_to_string(common::root().join("testdata/diff/live-unchanged.yaml"))
        .expect("fixture")
        .replace("kind: ModelRouter\n      name: coding-router", "kind: HelmRelease\n      name: someone-else");
    assert!(!live.contains("kind: ModelRouter"), "every reference points elsewhere");
    let run = routerctl(&["diff", "-f", ROUTER, "--live", "-"], Some(&live));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("it is controlled by HelmRelease \"someone-else\""), "{}", run.stderr);
}
