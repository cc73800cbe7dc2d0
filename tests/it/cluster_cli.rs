//! `routerctl diff` (and `render`/`explain --live-from-cluster`) reading the
//! live objects through `kubectl`, with a stand-in script first on PATH that
//! records its arguments and answers from testdata.

use crate::common;

use common::{fixture, FakeKubectl};

const ROUTER: &str = "testdata/diff/router.yaml";
const DEV_IMAGE: &str = "ghcr.io/defilantech/llmkube-router-proxy:dev";
const KINDS: &str = "configmap,serviceaccount,role.rbac.authorization.k8s.io,rolebinding.rbac.authorization.k8s.io,deployment.apps,service";
/// What a namespace with a Gateway router lists besides [`KINDS`].
const GATEWAY_KINDS: &str = "backends.gateway.envoyproxy.io,aiservicebackends.aigateway.envoyproxy.io,\
                             securitypolicies.gateway.envoyproxy.io,aigatewayroutes.aigateway.envoyproxy.io,\
                             backendtrafficpolicies.gateway.envoyproxy.io,inferenceservices.inference.llmkube.dev";
/// The operator lookup every cluster-mode run starts with.
const LOOKUP: &str =
    "--request-timeout=30s get deployments.apps --all-namespaces -l control-plane=controller-manager -o json";
/// What a cluster without an operator makes routerctl say.
const NO_OPERATOR: &str = "warning: found no LLMKube operator in the cluster (no Deployment labelled \
                           control-plane=controller-manager runs an llmkube-controller image); rendering as v0.9.19 \
                           with the operator flags given here\n";
/// The plan of the router against `testdata/diff/live-unchanged.yaml`, and
/// the release it was rendered as: every run but `-q` ends with them.
const UNCHANGED_PLAN: &str = "ml/coding-router: Deployment unchanged, ConfigMap unchanged, Service unchanged\n\
                              rendered as operator release v0.9.19 (from routerctl's default; no operator was found \
                              in the cluster)\n";

#[test]
fn an_unchanged_cluster_exits_0() {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-unchanged.yaml"));
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE], None);
    let stderr = format!("{NO_OPERATOR}{UNCHANGED_PLAN}");
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", stderr.as_str()), "{}", run.stderr);
    assert_eq!(kubectl.calls(), [LOOKUP.to_string(), format!("--request-timeout=30s get {KINDS} -n ml -o yaml")]);
}

#[test]
fn drift_in_the_cluster_exits_1_with_the_same_diff_as_from_a_file() {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-drift.yaml"));
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let offline = common::routerctl(
        &["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE, "--live", "testdata/diff/live-drift.yaml"],
        None,
    );
    assert_eq!(offline.code, 1);
    assert_eq!(run.stdout, offline.stdout);
    assert!(run.stdout.contains("+++ operator apps/v1 Deployment ml/coding-router-router-proxy"));
}

#[test]
fn objects_missing_from_the_cluster_are_creates() {
    let kubectl = FakeKubectl::new();
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    for kind in ["v1 ConfigMap", "apps/v1 Deployment", "v1 Service"] {
        assert!(run.stdout.contains(&format!("--- /dev/null\n+++ operator {kind} ml/coding-router-router-proxy")));
    }
}

#[test]
fn kubectl_failing_exits_2_with_its_message_and_nothing_on_stdout() {
    let kubectl = FakeKubectl::new();
    kubectl.fail_with("error: context \"prod\" does not exist\n");
    let run = kubectl.run(&["diff", "-f", ROUTER, "--context", "prod"], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    // The operator lookup failed first, for the same reason: kubectl's line
    // is shown once, as kubectl's, and the warning and the error say which
    // kubectl failed and how, placed in no file.
    let lookup = LOOKUP.replace("--request-timeout=30s ", "--request-timeout=30s --context prod ");
    let get = format!("--request-timeout=30s --context prod get {KINDS} -n ml -o yaml");
    assert_eq!(
        run.stderr,
        format!(
            "kubectl said (the operator look-up):\n  error: context \"prod\" does not exist\n\
             warning: could not look for the LLMKube operator (`kubectl {lookup}` failed (exit status 1)); rendering \
             as v0.9.19 with the operator flags given here\n\
             error: `kubectl {get}` failed (exit status 1) (check --context and --kubeconfig, or give the live objects \
             with --live FILE)\n"
        )
    );
}

#[test]
fn kubectls_own_lines_are_shown_once_as_kubectls_and_never_at_a_router() {
    // kubectl repeats its discovery error, the time in klog's header, then
    // says why; both of its runs fail alike.
    let kubectl = FakeKubectl::new();
    let klog = |second: u32| {
        format!(
            "E1205 10:00:0{second}.000000   4242 memcache.go:265] couldn't get current server API group list: Get \
             \"https://127.0.0.1:6443/api\": dial tcp 127.0.0.1:6443: connect: connection refused\n"
        )
    };
    let refused = "The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n";
    kubectl.fail_with(&format!("{}{}{}{refused}", klog(1), klog(2), klog(3)));
    let args = ["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE];
    let run = kubectl.run(&args, None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    let said: Vec<&str> = run.stderr.lines().skip_while(|l| !l.starts_with("kubectl said")).take(3).collect();
    assert_eq!(
        said,
        [
            "kubectl said (the operator look-up):",
            format!("  {}", klog(1).trim_end()).as_str(),
            format!("  {}", refused.trim_end()).as_str()
        ]
    );
    assert_eq!(run.stderr.matches("couldn't get current server API group list").count(), 1, "{}", run.stderr);
    assert_eq!(run.stderr.matches("did you specify the right host").count(), 1, "{}", run.stderr);
    assert!(!run.stderr.contains(ROUTER), "kubectl's failure is no router's: {}", run.stderr);
    assert!(run.stderr.lines().last().is_some_and(|l| l.starts_with("error: `kubectl ")), "{}", run.stderr);

    // In CI: a note with no file for kubectl's lines, the error with none.
    let github = kubectl.run(&[&args[..], &["--message-format", "github"]].concat(), None);
    assert_eq!((github.code, github.stdout.as_str()), (2, ""), "{}", github.stderr);
    let kubectl_lines: Vec<&str> = github.stderr.lines().filter(|l| l.contains("title=routerctl kubectl::")).collect();
    assert_eq!(kubectl_lines.len(), 2, "{}", github.stderr);
    assert!(
        kubectl_lines[0].starts_with("::notice title=routerctl kubectl::kubectl said (the operator look-up): E1205")
    );
    assert!(kubectl_lines[1].starts_with("::error title=routerctl kubectl::`kubectl "), "{}", github.stderr);
    assert!(!github.stderr.contains("file="), "{}", github.stderr);
}

#[test]
fn a_forbidden_answer_is_reported_as_kubectl_said_it() {
    let kubectl = FakeKubectl::new();
    let message = "Error from server (Forbidden): deployments.apps is forbidden: User \"ci\" cannot list resource \"deployments\" in API group \"apps\" in the namespace \"ml\"";
    kubectl.fail_with(message);
    let run = kubectl.run(&["diff", "-f", ROUTER], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains(message), "{}", run.stderr);
}

#[test]
fn without_kubectl_on_path_the_error_says_what_to_do() {
    let empty = tempfile::tempdir().expect("temp dir");
    let run = common::routerctl_env(&["diff", "-f", ROUTER], None, &[("PATH", empty.path().as_os_str().to_owned())]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("kubectl: it is not on PATH"), "{}", run.stderr);
    assert!(run.stderr.contains("--live FILE"), "{}", run.stderr);
}

#[test]
fn context_and_kubeconfig_are_passed_through() {
    let kubectl = FakeKubectl::new();
    let run = kubectl.run(&["diff", "-f", ROUTER, "--context", "prod", "--kubeconfig", "ci/kubeconfig"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        kubectl.calls(),
        [
            format!(
                "--request-timeout=30s --context prod --kubeconfig ci/kubeconfig {}",
                LOOKUP.trim_start_matches("--request-timeout=30s ")
            ),
            format!("--request-timeout=30s --context prod --kubeconfig ci/kubeconfig get {KINDS} -n ml -o yaml")
        ]
    );
}

#[test]
fn the_namespace_flag_is_passed_through() {
    let kubectl = FakeKubectl::new();
    let router = fixture("testdata/render/sample.yaml").replace("  namespace: ml\n", "");
    let run = kubectl.run(&["diff", "-f", "-", "-n", "team-a"], Some(&router));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(kubectl.calls(), [LOOKUP.to_string(), format!("--request-timeout=30s get {KINDS} -n team-a -o yaml")]);
}

#[test]
fn one_call_per_namespace_however_many_routers() {
    let kubectl = FakeKubectl::new();
    // multi.yaml: alpha and the Gateway router edge in `default`, beta in
    // `team-b`; three more routers in `default` from stdin, the first of
    // them before beta's namespace is read.
    let more: String = ["gamma", "delta", "epsilon"]
        .iter()
        .map(|name| {
            fixture("testdata/render/multi.yaml")
                .split("---\n")
                .next()
                .unwrap_or("")
                .replace("name: alpha", &format!("name: {name}"))
                + "---\n"
        })
        .collect();
    let args = ["diff", "-f", "testdata/render/multi.yaml", "-f", "-", "--router-proxy-image", DEV_IMAGE, "-o", "json"];
    let run = kubectl.run(&args, Some(&more));
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(report["routers"].as_array().map(Vec::len), Some(6), "{}", run.stdout);
    let calls = kubectl.calls();
    assert_eq!(
        calls,
        [
            LOOKUP.to_string(),
            // The Gateway router edge lives in `default`: its kinds are listed too, in the same call.
            format!("--request-timeout=30s get {KINDS},{GATEWAY_KINDS} -n default -o yaml"),
            format!("--request-timeout=30s get {KINDS} -n team-b -o yaml")
        ]
    );
}

#[test]
fn objects_of_other_names_in_the_namespace_are_ignored() {
    let kubectl = FakeKubectl::new();
    let live =
        fixture("testdata/diff/live-unchanged.yaml").replace("name: coding-router-router-proxy", "name: someone-else");
    kubectl.namespace("ml", &live);
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE, "-o", "json"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let actions: Vec<&str> =
        report["routers"][0]["objects"].as_array().into_iter().flatten().filter_map(|o| o["action"].as_str()).collect();
    assert_eq!(actions, ["create", "create", "create"]);
}

#[test]
fn live_files_keep_working_offline() {
    let kubectl = FakeKubectl::new();
    let args = ["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE, "--live", "testdata/diff/live-unchanged.yaml"];
    let run = kubectl.run(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(kubectl.calls().is_empty(), "kubectl is not called with --live");
}

#[test]
fn live_and_cluster_flags_do_not_mix() {
    let kubectl = FakeKubectl::new();
    let cases: &[&[&str]] = &[
        &["diff", "-f", ROUTER, "--live", "testdata/diff/live-unchanged.yaml", "--context", "prod"],
        &["render", "-f", ROUTER, "--live", "testdata/diff/live-unchanged.yaml", "--live-from-cluster"],
        &["render", "-f", ROUTER, "--context", "prod"],
        &["explain", "-f", ROUTER, "--kubeconfig", "kc"],
    ];
    for args in cases {
        let run = kubectl.run(args, None);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
    }
    assert!(kubectl.calls().is_empty());
}

#[test]
fn render_and_explain_read_the_cluster_when_asked() {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-drift.yaml"));
    let from_cluster = kubectl.run(
        &["render", "-f", ROUTER, "--live-from-cluster", "--context", "prod", "--router-proxy-image", DEV_IMAGE],
        None,
    );
    assert_eq!(from_cluster.code, 0, "{}", from_cluster.stderr);
    let from_file = common::routerctl(
        &["render", "-f", ROUTER, "--live", "testdata/diff/live-drift.yaml", "--router-proxy-image", DEV_IMAGE],
        None,
    );
    assert_eq!(from_cluster.stdout, from_file.stdout);

    // As `next`, whose records prune a key the spec dropped (a released
    // operator keeps none).
    let explained = kubectl.run(
        &[
            "explain",
            "-f",
            ROUTER,
            "--live-from-cluster",
            "--router-proxy-image",
            DEV_IMAGE,
            "--operator-version",
            "next",
        ],
        None,
    );
    assert_eq!(explained.code, 0, "{}", explained.stderr);
    assert!(explained.stdout.contains("pruned"), "{}", explained.stdout);
    assert_eq!(
        kubectl.calls(),
        [
            format!("--request-timeout=30s --context prod {}", LOOKUP.trim_start_matches("--request-timeout=30s ")),
            format!("--request-timeout=30s --context prod get {KINDS} -n ml -o yaml"),
            LOOKUP.to_string(),
            format!("--request-timeout=30s get {KINDS} -n ml -o yaml")
        ]
    );
}

#[test]
fn kubectl_warnings_on_a_good_call_are_passed_on() {
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-unchanged.yaml"));
    kubectl.warn_with("Warning: the server is being upgraded\n");
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    // kubectl's, not routerctl's: no warning of a run that worked.
    assert_eq!(
        run.stderr,
        format!("{NO_OPERATOR}kubectl said (namespace ml):\n  Warning: the server is being upgraded\n{UNCHANGED_PLAN}")
    );
}

/// The severity of each finding of `run`'s `--message-format json` stderr.
fn severities(run: &common::Run) -> Vec<(String, String)> {
    run.stderr
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON line"))
        .map(|f| (f["severity"].as_str().unwrap_or("").to_string(), f["rule"].as_str().unwrap_or("").to_string()))
        .collect()
}

#[test]
fn severity_words_follow_the_exit_code() {
    let json = ["--message-format", "json"];
    // kubectl complains on a read that works: a note of kubectl's, and the
    // run, which changes nothing, exits 0 with no error, and kubectl's line
    // is no warning of routerctl's.
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &fixture("testdata/diff/live-unchanged.yaml"));
    kubectl.warn_with("W1205 10:00:00.000000   4242 warnings.go:70] v1 Endpoints is deprecated in v1.33+\n");
    let args = ["diff", "-f", ROUTER, "--router-proxy-image", DEV_IMAGE, "--operator-version", "next"];
    let run = kubectl.run(&[&args[..], &json[..]].concat(), None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found = severities(&run);
    assert!(found.iter().all(|(s, _)| s != "error"), "{found:?}");
    let of_kubectl: Vec<&str> = found.iter().filter(|(_, r)| r == "kubectl").map(|(s, _)| s.as_str()).collect();
    assert_eq!(of_kubectl, ["note"], "{}", run.stderr);
    let human = kubectl.run(&args, None);
    assert!(!human.stderr.contains("error"), "{}", human.stderr);
    assert!(human.stderr.lines().all(|l| !l.starts_with("warning:") || !l.contains("deprecated")), "{}", human.stderr);

    // kubectl fails: the run exits 2 with an error, kubectl's lines a note.
    let failing = FakeKubectl::new();
    failing.fail_with("error: You must be logged in to the server (Unauthorized)\n");
    let run = failing.run(&[&args[..], &json[..]].concat(), None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let found = severities(&run);
    assert!(found.contains(&("error".to_string(), "kubectl".to_string())), "{found:?}");
    assert!(found.iter().filter(|(s, _)| s == "error").all(|(_, r)| r == "kubectl"), "{found:?}");

    // --strict refuses the default image: what makes the run exit 2 is an
    // error, never a warning.
    let strict = kubectl
        .run(&["diff", "-f", ROUTER, "--operator-version", "next", "--strict", "--message-format", "json"], None);
    assert_eq!(strict.code, 2, "{}", strict.stderr);
    let found = severities(&strict);
    let render: Vec<&str> = found.iter().filter(|(_, r)| r == "render").map(|(s, _)| s.as_str()).collect();
    assert_eq!(render, ["error"], "{}", strict.stderr);
}
