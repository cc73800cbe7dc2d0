//! `routerctl test` and `routerctl route` through the real binary: every
//! example router in testdata against its RouterTest file, failures,
//! coverage, bad test files, and explanations.

use crate::common;

use common::routerctl;

/// Each example router with its test file (and the flags it renders with).
const SUITES: &[&[&str]] = &[
    &["-f", "testdata/render/sample.yaml", "-t", "testdata/tests/sample.yaml"],
    &["-f", "testdata/render/multi.yaml", "-t", "testdata/tests/multi.yaml"],
    &["-f", "testdata/render/podmeta.yaml", "-t", "testdata/tests/podmeta.yaml"],
    &["-f", "testdata/render/pooled.yaml", "-t", "testdata/tests/pooled.yaml"],
    &[
        "-f",
        "testdata/render/every-proxy-field.yaml",
        "--default-litellm-url",
        "http://litellm:4000",
        "-t",
        "testdata/tests/every-proxy-field.yaml",
    ],
    &["-f", "testdata/gateway/local.yaml", "-t", "testdata/tests/gateway-local.yaml", "--data-plane", "both"],
    &["-f", "testdata/gateway/external.yaml", "-t", "testdata/tests/gateway-external.yaml", "--data-plane", "both"],
    &["-f", "testdata/gateway/ejection.yaml", "-t", "testdata/tests/gateway-ejection.yaml", "--data-plane", "both"],
    &["-f", "testdata/gateway/spread.yaml", "-t", "testdata/tests/gateway-spread.yaml", "--data-plane", "both"],
    &[
        "-f",
        "testdata/gateway/budgets-auth.yaml",
        "-f",
        "testdata/gateway/jwt-only.yaml",
        "-t",
        "testdata/tests/gateway-budgets-auth.yaml",
        "--data-plane",
        "both",
    ],
];

fn test(args: &[&str], stdin: Option<&str>) -> common::Run {
    let mut all = vec!["test", "-q"];
    all.extend_from_slice(args);
    routerctl(&all, stdin)
}

#[test]
fn every_example_router_passes_its_tests() {
    for suite in SUITES {
        let run = test(suite, None);
        assert_eq!(run.code, 0, "{suite:?}:\n{}{}", run.stdout, run.stderr);
        assert!(!run.stdout.contains("FAIL"), "{}", run.stdout);
    }
}

/// Stdin is read once and serves every reading of it: a stream of routers
/// and their RouterTests given as `-f -` is tested on both data planes as
/// the same files are.
#[test]
fn one_stdin_holds_the_routers_and_their_cases_for_both_planes() {
    for (router, tests) in [
        ("testdata/gateway/local.yaml", "testdata/tests/gateway-local.yaml"),
        ("testdata/gateway/external.yaml", "testdata/tests/gateway-external.yaml"),
    ] {
        let stream = format!(
            "{}\n---\n{}",
            std::fs::read_to_string(router).expect("router"),
            std::fs::read_to_string(tests).expect("tests")
        );
        let from_files = test(&["-f", router, "-t", tests, "--data-plane", "both", "-o", "json"], None);
        let from_stdin = test(&["-f", "-", "--data-plane", "both", "-o", "json"], Some(&stream));
        assert_eq!((from_stdin.code, from_files.code), (0, 0), "{router}: {}{}", from_stdin.stderr, from_files.stderr);
        let summary = |run: &common::Run| {
            serde_json::from_str::<serde_json::Value>(&run.stdout).expect("test -o json writes JSON")["summary"].clone()
        };
        assert_eq!(summary(&from_stdin), summary(&from_files), "{router}");
        assert_eq!(summary(&from_stdin)["failed"], 0, "{router}");
    }
}

const ROUTER: &str = "testdata/render/sample.yaml";

fn case(expect: &str, extra: &str) -> String {
    format!(
        "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: pii\n  request:\n    headers: {{x-llmkube-classification: pii}}\n{extra}  expect: {expect}\n"
    )
}

#[test]
fn a_failing_case_says_what_was_expected_and_what_the_router_does() {
    let run = test(&["-f", ROUTER, "-t", "-"], Some(&case("{rule: complex-to-cloud, backends: [cloud-opus]}", "")));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "ml/coding-router (Proxy): 0 of 1 case passes\n  FAIL <stdin>:4:3 \"pii\": rule: expected complex-to-cloud, got \
         pii-stays-local; backends: expected [cloud-opus], got [local-qwen]; the router does pii-stays-local → \
         [local-qwen]\n"
    );
    // Fail-closed: with the local model down, pii is refused (503), never
    // sent to the cloud.
    let down =
        test(&["-f", ROUTER, "-t", "-"], Some(&case("{status: 503, backends: []}", "  unhealthy: [local-qwen]\n")));
    assert_eq!(down.code, 0, "{}", down.stdout);
}

/// In CI a failing case is also a finding at its place, so that GitHub
/// annotates the case; people read the report, so `human` adds nothing.
#[test]
fn a_failing_case_is_a_finding_at_its_place_for_ci() {
    let input = case("{rule: complex-to-cloud}", "");
    let human = test(&["-f", ROUTER, "-t", "-"], Some(&input));
    assert_eq!((human.code, human.stderr.as_str()), (1, ""));
    let github = test(&["--message-format", "github", "-f", ROUTER, "-t", "-"], Some(&input));
    assert_eq!(github.code, 1);
    assert_eq!(unfenced(&github.stdout), human.stdout, "the report is the same, fenced");
    assert_eq!(
        github.stderr,
        "::error file=<stdin>,line=4,col=3,title=routerctl test::case \"pii\" fails for ml/coding-router (Proxy): \
         rule: expected complex-to-cloud, got pii-stays-local; the router does pii-stays-local → [local-qwen]\n"
    );
}

#[test]
fn bad_test_files_are_refused_with_their_place() {
    let typo = test(&["-f", ROUTER, "-t", "-"], Some(&case("{backend: [x]}", "")));
    assert_eq!((typo.code, typo.stdout.as_str()), (2, ""));
    assert!(
        typo.stderr.starts_with("error: <stdin>:7:12: tests[0].expect.backend: unknown field `backend`"),
        "{}",
        typo.stderr
    );
    // Every document of a -t file is a RouterTest: each other one there is
    // a mistake, named at its kind (sample.yaml's kinds are on lines 4, 13
    // and 23).
    let router = test(&["-f", ROUTER, "-t", ROUTER], None);
    assert_eq!((router.code, router.stdout.as_str()), (2, ""));
    assert!(
        router.stderr.starts_with(
            "error: 3 problems in RouterTest files:\n  testdata/render/sample.yaml:4:1: a RouterTest was expected \
             but the document has kind \"Secret\""
        ),
        "{}",
        router.stderr
    );
    for (line, kind) in [(13, "InferenceService"), (23, "ModelRouter")] {
        let said = format!(
            "\n  testdata/render/sample.yaml:{line}:1: a RouterTest was expected but the document has kind {kind:?}"
        );
        assert!(router.stderr.contains(&said), "{}", router.stderr);
    }
    let wrong_router =
        test(&["-f", ROUTER, "-t", "-"], Some(&case("{}", "").replace("tests:", "router: ml/ghost\ntests:")));
    assert_eq!(wrong_router.code, 2);
    assert!(
        wrong_router.stderr.contains("no ModelRouter \"ml/ghost\" in the -f inputs (they hold ml/coding-router)"),
        "{}",
        wrong_router.stderr
    );
}

/// Every case that cannot be read is a finding at its own field, in every
/// message format: a bad case does not hide the next, and CI annotates
/// each line. The run fails as any unreadable input does (exit 2).
#[test]
fn every_bad_case_is_reported_at_its_place() {
    // Line 5 is the first case's expect (a misspelt key, at column 12),
    // line 8 the second case's model (a list, not a string; its key at
    // column 5); the third case is good.
    let suite =
        "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: a\n  expect: {backend: [x]}\n\
                 - name: b\n  request:\n    model: [m]\n- name: c\n  expect: {rule: default}\n";
    let github = test(&["-f", ROUTER, "-t", "-", "--message-format", "github"], Some(suite));
    assert_eq!((github.code, github.stdout.as_str()), (2, ""), "{}", github.stderr);
    let lines: Vec<&str> = github.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", github.stderr);
    assert!(
        lines[0].starts_with("::error file=<stdin>,line=5,col=12,title=routerctl test::")
            && lines[0].contains("tests[0].expect.backend: unknown field `backend`"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("::error file=<stdin>,line=8,col=5,title=routerctl test::")
            && lines[1].contains("tests[1].request.model: invalid type: sequence"),
        "{}",
        lines[1]
    );
    let human = test(&["-f", ROUTER, "-t", "-"], Some(suite));
    assert_eq!((human.code, human.stdout.as_str()), (2, ""));
    assert_eq!(human.stderr.lines().next(), Some("error: 2 problems in RouterTest files:"), "{}", human.stderr);
    assert!(human.stderr.contains("\n  <stdin>:5:12: tests[0].expect.backend: unknown field"), "{}", human.stderr);
    assert!(human.stderr.contains("\n  <stdin>:8:5: tests[1].request.model: invalid type"), "{}", human.stderr);
    let json = test(&["-f", ROUTER, "-t", "-", "--message-format", "json"], Some(suite));
    let places: Vec<(u64, u64)> = json
        .stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| (v["line"].as_u64().unwrap_or(0), v["column"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!((json.code, places), (2, vec![(5, 12), (8, 5)]));
}

/// A name the router does not have is a mistake in the test (a misspelt
/// backend in `unhealthy` would silently be up, a misspelt rule never
/// reached): every one of every case is an error at its own field, with
/// the closest name the router has, in one run.
#[test]
fn every_name_the_router_lacks_is_an_error_at_its_field() {
    let suite = "\
apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
router: ml/coding-router
tests:
- name: a
  unhealthy: [nope-one]
  expect: {rule: pii-stays-locl}
- name: b
  unhealthy: [nope-two]
  expect: {backends: [local-qwen, cloud-opsu]}
- name: c
  expect: {rule: default}
";
    let line = |needle: &str| suite.lines().position(|l| l.contains(needle)).map(|i| i + 1).expect("in the suite");
    let github = test(&["-f", ROUTER, "-t", "-", "--message-format", "github"], Some(suite));
    assert_eq!((github.code, github.stdout.as_str()), (2, ""), "{}", github.stderr);
    let lines: Vec<&str> = github.stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{}", github.stderr);
    let at = |i: usize, line: usize, field: &str, says: &str| {
        assert!(lines[i].starts_with(&format!("::error file=<stdin>,line={line},col=")), "{}", lines[i]);
        assert!(lines[i].contains(&format!("{field}: ")), "{field}: {}", lines[i]);
        assert!(lines[i].contains(says), "{says}: {}", lines[i]);
    };
    at(0, line("[nope-one]"), "tests[0].unhealthy[0]", "case \"a\": no backend \"nope-one\" in ml/coding-router");
    at(1, line("pii-stays-locl"), "tests[0].expect.rule", "did you mean \"pii-stays-local\"?");
    at(2, line("[nope-two]"), "tests[1].unhealthy[0]", "case \"b\": no backend \"nope-two\"");
    at(3, line("cloud-opsu"), "tests[1].expect.backends[1]", "did you mean \"cloud-opus\"?");
    // A name nothing is close to gets no guess.
    assert!(!lines[0].contains("did you mean"), "{}", lines[0]);

    let human = test(&["-f", ROUTER, "-t", "-"], Some(suite));
    assert_eq!((human.code, human.stdout.as_str()), (2, ""));
    assert_eq!(human.stderr.lines().next(), Some("error: 4 problems in RouterTest files:"), "{}", human.stderr);
    assert!(human.stderr.contains(&format!("\n  <stdin>:{}:", line("[nope-two]"))), "{}", human.stderr);
}

/// `verify` holds the invariants' names to the routers they speak of: a
/// backend or a tier no router has would make the invariant hold for want
/// of anything to check, and a router the inputs lack would leave it
/// unchecked.
#[test]
fn verify_refuses_an_invariant_about_names_no_router_has() {
    let suite = "\
apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
router: ml/coding-router
invariants:
- name: pii stays local
  when: {classification: [pii]}
  never: {backends: [cloud-ops], tier: clod}
";
    let run = common::routerctl(&["verify", "-f", ROUTER, "-t", "-", "--message-format", "json"], Some(suite));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    let findings: Vec<serde_json::Value> =
        run.stderr.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let said: Vec<(&str, u64)> =
        findings.iter().map(|f| (f["field"].as_str().unwrap_or(""), f["line"].as_u64().unwrap_or(0))).collect();
    assert_eq!(said, [("invariants[0].never.backends[0]", 7), ("invariants[0].never.tier", 7)], "{}", run.stderr);
    assert!(findings[0]["message"].as_str().is_some_and(|m| m.contains("did you mean \"cloud-opus\"?")));
    assert!(findings[1]["message"].as_str().is_some_and(|m| m.contains("did you mean \"cloud\"?")));

    let elsewhere = suite.replace("router: ml/coding-router", "router: ml/coding-ruoter");
    let run = common::routerctl(&["verify", "-f", ROUTER, "-t", "-"], Some(&elsewhere));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("error: <stdin>:3:1: router: no ModelRouter \"ml/coding-ruoter\" in the -f inputs"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("did you mean \"ml/coding-router\"?"), "{}", run.stderr);
}

/// A test file that cannot be read and a router that is refused are both
/// said in one run.
#[test]
fn a_bad_test_file_does_not_hide_a_broken_router() {
    let broken = "testdata/invalid/op-rule-backend-undefined.yaml";
    for command in ["test", "verify"] {
        let run = common::routerctl(
            &[command, "-f", broken, "-t", "-", "--message-format", "json"],
            Some(&case("{status: 42}", "")),
        );
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
        let files: Vec<String> = run
            .stderr
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .map(|f| f["file"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(files, ["<stdin>", broken], "{command}: {}", run.stderr);
        assert!(run.stderr.contains("expected an HTTP status code from 100 to 599"), "{}", run.stderr);
    }
}

/// A case never counts as passed unless it was judged, and no document
/// meant as a RouterTest is left unrun in silence.
#[test]
fn nothing_passes_that_was_not_judged() {
    // A case for the Gateway plane, on a router rendered for the Proxy
    // plane only: skipped, counted apart; --strict fails on it.
    let gateway_only = case("{rule: nonsense-that-would-fail}", "  dataPlane: Gateway\n")
        .replace("expect: {rule: nonsense-that-would-fail}", "expect: {status: 418}");
    let run = test(&["-f", ROUTER, "-t", "-"], Some(&gateway_only));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "ml/coding-router (Proxy): 0 of 0 cases pass, 1 skipped\n  SKIP <stdin>:4:3 \"pii\": judged on the Gateway \
         data plane, which this run did not render (--data-plane gateway)\n"
    );
    let json = test(&["-f", ROUTER, "-t", "-", "-o", "json"], Some(&gateway_only));
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(report["summary"], serde_json::json!({"passed": 0, "failed": 0, "skipped": 1}));
    assert_eq!(
        (report["cases"][0]["result"].as_str(), report["cases"][0]["passed"].as_bool()),
        (Some("skipped"), Some(false))
    );
    let strict = test(
        &["--strict", "--router-proxy-image", "example.com/router-proxy:1", "-f", ROUTER, "-t", "-"],
        Some(&gateway_only),
    );
    assert_eq!(strict.code, 1, "{}", strict.stderr);
    assert!(strict.stderr.contains("1 case skipped"), "{}", strict.stderr);

    // A misspelt kind, in a -t file or among the -f files.
    for kind in ["RouterTests", "routertest"] {
        let misspelt = case("{rule: pii-stays-local}", "").replace("kind: RouterTest", &format!("kind: {kind}"));
        let run = test(&["-f", ROUTER, "-t", "-"], Some(&misspelt));
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{kind}");
        assert!(
            run.stderr.starts_with(&format!(
                "error: <stdin>:2:1: a RouterTest was expected but the document has kind \"{kind}\""
            )),
            "{}",
            run.stderr
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let both = dir.path().join("router-and-tests.yaml");
    let router_text = std::fs::read_to_string(ROUTER).expect("fixture");
    std::fs::write(
        &both,
        format!("{router_text}\n---\n{}", case("{}", "").replace("kind: RouterTest", "kind: RouterTests")),
    )
    .expect("write");
    let run = test(&["-f", both.to_str().expect("utf-8 path")], None);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains("a RouterTest was expected but the document has kind \"RouterTests\""),
        "{}",
        run.stderr
    );

    // stdin read by -t cannot also be the -f input.
    let twice = test(&["-f", "-", "-t", "-"], Some(&case("{}", "")));
    assert_eq!(twice.code, 2);
    assert_eq!(twice.stderr, "error: stdin (`-`) can be given only once across -f and -t\n");

    // A router with no case covers nothing.
    let two = test(
        &["-f", ROUTER, "-f", "testdata/render/pooled.yaml", "-t", "-", "--coverage"],
        Some(&case("{}", "").replace("tests:", "router: ml/coding-router\ntests:")),
    );
    assert_eq!(two.code, 0, "{}", two.stderr);
    assert!(two.stdout.contains(": 0% of "), "{}", two.stdout);
    assert!(two.stdout.contains("; no case for this router\n"), "{}", two.stdout);
    let below = test(
        &["-f", ROUTER, "-f", "testdata/render/pooled.yaml", "-t", "-", "--min-coverage", "1"],
        Some(&case("{}", "").replace("tests:", "router: ml/coding-router\ntests:")),
    );
    assert_eq!(below.code, 1, "{}", below.stdout);
    // Only the router under the bar, each with its figure.
    let lines: Vec<&str> = below.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", below.stderr);
    assert!(lines[0].starts_with("error: gpu/pooled (Proxy): coverage 0% of "), "{}", below.stderr);
}

#[test]
fn coverage_names_the_routes_no_case_reaches() {
    let run = test(&["-f", ROUTER, "-t", "-", "--coverage"], Some(&case("{rule: pii-stays-local}", "")));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(
            "coverage ml/coding-router (Proxy): 33% of 3 routes; no case reaches complex-to-cloud, default\n"
        ),
        "{}",
        run.stdout
    );
    let below = test(&["-f", ROUTER, "-t", "-", "--min-coverage", "50"], Some(&case("{rule: pii-stays-local}", "")));
    assert_eq!(below.code, 1, "{}", below.stdout);
    // The router under the bar is named, with its figure.
    assert_eq!(
        below.stderr,
        "error: ml/coding-router (Proxy): coverage 33% of 3 routes, under --min-coverage 50%; no case reaches \
         [complex-to-cloud, default]\n"
    );
}

/// A case judged on a data plane the run does not render is skipped, and
/// a skipped case reaches no route: coverage counts only what is judged.
/// sample.yaml's Proxy routes are its rules and its default route
/// (pii-stays-local, complex-to-cloud, default); a pii request takes
/// pii-stays-local, so with the complex request skipped one route of three
/// is reached, in every report that tells coverage.
#[test]
fn a_skipped_case_counts_toward_no_coverage() {
    let cases = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: pii\n  request: \
                 {headers: {x-llmkube-classification: pii}}\n  expect: {rule: pii-stays-local}\n- name: complex\n  \
                 dataPlane: Gateway\n  request: {headers: {x-llmkube-task-complexity: complex}}\n  expect: {rule: \
                 complex-to-cloud}\n";
    let missed = "no case reaches complex-to-cloud, default";
    let text = test(&["-f", ROUTER, "-t", "-", "--coverage"], Some(cases));
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert_eq!(
        text.stdout,
        format!(
            "ml/coding-router (Proxy): 1 of 1 case passes, 1 skipped\n  SKIP <stdin>:7:3 \"complex\": judged on the \
             Gateway data plane, which this run did not render (--data-plane gateway)\ncoverage ml/coding-router \
             (Proxy): 33% of 3 routes; {missed}\n"
        )
    );

    let json = test(&["-f", ROUTER, "-t", "-", "--coverage", "-o", "json"], Some(cases));
    assert_eq!(json.code, 0, "{}", json.stderr);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("test -o json writes JSON");
    let coverage = &report["coverage"];
    assert_eq!(coverage.as_array().map(Vec::len), Some(1), "{coverage:#}");
    assert_eq!(coverage[0]["missed"], serde_json::json!(["complex-to-cloud", "default"]), "{coverage:#}");
    let percent = coverage[0]["percent"].as_f64().unwrap_or(f64::NAN);
    assert!((percent - 100.0 / 3.0).abs() < 1e-9, "{coverage:#}");

    let markdown = test(&["-f", ROUTER, "-t", "-", "--coverage", "-o", "markdown"], Some(cases));
    assert_eq!(markdown.code, 0, "{}", markdown.stderr);
    // The skip is told on the row of its plane, which covers nothing.
    assert!(
        markdown.stdout.contains(&format!(
            "| Proxy | 1 | 1 | 0 | 0 | 33% of 3 routes; {missed} |\n| Gateway | 0 | 0 | 0 | 1 | none |\n"
        )),
        "{}",
        markdown.stdout
    );

    // Under --min-coverage 50 the run fails: had the skipped case counted
    // (two routes of three, 67%), it would pass.
    let below = "ml/coding-router (Proxy): coverage 33% of 3 routes, under --min-coverage 50%; no case reaches \
                 [complex-to-cloud, default]";
    let min = ["-f", ROUTER, "-t", "-", "--min-coverage", "50"];
    let junit = test(&[&min[..], &["-o", "junit"]].concat(), Some(cases));
    assert_eq!(junit.code, 1, "{}", junit.stdout);
    assert_eq!(junit.stderr, format!("error: {below}\n"));
    assert!(
        junit.stdout.contains("<failure message=\"33% of 3 routes, under --min-coverage 50%\""),
        "{}",
        junit.stdout
    );
    let github = test(&[&["--message-format", "github"], &min[..]].concat(), Some(cases));
    assert_eq!(github.code, 1, "{}", github.stdout);
    assert!(
        unfenced(&github.stdout).ends_with(&format!("coverage ml/coding-router (Proxy): 33% of 3 routes; {missed}\n")),
        "{}",
        github.stdout
    );
    // A workflow command's message has its `%` written `%25`, as GitHub reads it.
    assert_eq!(github.stderr, format!("::error title=routerctl test::{}\n", below.replace('%', "%25")));

    // A router whose only case is skipped is reached by none.
    let only_skipped = cases.replace(
        "- name: pii\n  request: {headers: {x-llmkube-classification: pii}}\n  expect: {rule: pii-stays-local}\n",
        "",
    );
    let none = test(&["-f", ROUTER, "-t", "-", "--coverage"], Some(&only_skipped));
    assert_eq!(none.code, 0, "{}", none.stderr);
    assert!(
        none.stdout.ends_with("coverage ml/coding-router (Proxy): 0% of 3 routes; no case for this router\n"),
        "{}",
        none.stdout
    );
}

/// The other way round: a case judged on the Proxy plane, on a run that
/// renders only the Gateway plane of a Gateway router, is skipped and
/// reaches nothing; with both planes rendered it is decided on both and
/// counts toward both. local.yaml's routes, on either plane, are its rules
/// (coding, spread, private), BackendNameMatch's (name-match) and its
/// default route: five. A llama-3 request of class pii takes private; one
/// with `x-spread: yes` takes spread.
#[test]
fn a_proxy_case_skipped_on_the_gateway_plane_counts_toward_no_coverage() {
    let cases = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: pii\n  request: \
                 {model: llama-3, headers: {x-data-class: pii}}\n  expect: {rule: private}\n- name: spread\n  \
                 dataPlane: Proxy\n  request: {headers: {x-spread: \"yes\"}}\n  expect: {rule: spread}\n";
    let router = "testdata/gateway/local.yaml";
    let gateway = test(&["-f", router, "-t", "-", "--data-plane", "gateway", "--coverage"], Some(cases));
    assert_eq!(gateway.code, 0, "{}", gateway.stderr);
    assert!(
        gateway.stdout.starts_with("ml/coding.router (Gateway): 1 of 1 case passes, 1 skipped\n"),
        "{}",
        gateway.stdout
    );
    assert!(
        gateway.stdout.ends_with(
            "coverage ml/coding.router (Gateway): 20% of 5 routes; no case reaches coding, spread, name-match, default\n"
        ),
        "{}",
        gateway.stdout
    );
    let both = test(&["-f", router, "-t", "-", "--data-plane", "both", "--coverage"], Some(cases));
    assert_eq!(both.code, 0, "{}", both.stderr);
    assert!(
        both.stdout.ends_with(
            "coverage ml/coding.router (Proxy): 40% of 5 routes; no case reaches coding, name-match, default\n\
             coverage ml/coding.router (Gateway): 40% of 5 routes; no case reaches coding, name-match, default\n"
        ),
        "{}",
        both.stdout
    );
}

#[test]
fn both_planes_report_where_they_part() {
    let run = test(
        &["-f", "testdata/gateway/local.yaml", "-t", "testdata/tests/gateway-local.yaml", "--data-plane", "both"],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "  DIFFER testdata/tests/gateway-local.yaml:31:3 \"spread and private both match; Envoy prefers the more \
             specific rule\": Proxy spread → [qwen, llama, mistral], Gateway private → [llama]\n"
        ),
        "{}",
        run.stdout
    );
    // A Proxy router the gateway reconciler refuses cannot be compared.
    let proxy_only = test(&["-f", ROUTER, "-t", "testdata/tests/sample.yaml", "--data-plane", "both"], None);
    assert_eq!(proxy_only.code, 2);
    assert!(
        proxy_only.stderr.starts_with("error: --data-plane: rendered as dataPlane: Gateway, "),
        "{}",
        proxy_only.stderr
    );
}

#[test]
fn route_explains_one_request() {
    let run = routerctl(
        &[
            "route",
            "-q",
            "-f",
            ROUTER,
            "--model",
            "gpt-4o",
            "-H",
            "x-llmkube-task-complexity=complex",
            "--unhealthy",
            "cloud-opus",
        ],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!("route_sample_complex_cloud_down", run.stdout);
    let gateway = routerctl(
        &[
            "route",
            "-q",
            "-f",
            "testdata/gateway/local.yaml",
            "--model",
            "llama-3",
            "-H",
            "x-spread=yes",
            "-H",
            "x-data-class=pii",
            "--data-plane",
            "both",
        ],
        None,
    );
    assert_eq!(gateway.code, 0, "{}", gateway.stderr);
    insta::assert_snapshot!("route_gateway_local_precedence", gateway.stdout);
    let bad = routerctl(&["route", "-f", ROUTER, "-H", "no-value"], None);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("-H \"no-value\": write a header as name=value"), "{}", bad.stderr);
}

/// What `verify` finds for all requests shows in `test` as warnings with
/// their rule ids; they do not change the exit code.
#[test]
fn verify_findings_are_warnings_in_test() {
    let cases = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: default\n  request: {}\n  expect: {rule: default}\n";
    let run =
        routerctl(&["test", "--message-format", "json", "-f", "testdata/verify/leaky.yaml", "-t", "-"], Some(cases));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rules: Vec<(String, String)> = run
        .stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|f| (f["rule"].as_str().unwrap_or("").to_string(), f["severity"].as_str().unwrap_or("").to_string()))
        .collect();
    for rule in ["sensitive-egress", "unmatchable-value", "unreachable-rule"] {
        assert!(rules.contains(&(rule.to_string(), "warning".to_string())), "{rule}: {rules:?}");
    }
    // A router with nothing to find adds nothing.
    let safe = test(&["-f", ROUTER, "-t", "-"], Some(&case("{rule: pii-stays-local}", "")));
    assert_eq!((safe.code, safe.stderr.as_str()), (0, ""));
}

/// The report inside its `::stop-commands::TOKEN` … `::TOKEN::` fence,
/// checked as the Actions runner reads it: the fence opens on the first
/// line, closes on the last with the same token, and no line between them
/// ends it early.
fn unfenced(stdout: &str) -> String {
    let mut lines: Vec<&str> = stdout.lines().collect();
    let first = lines.remove(0);
    let token = first.strip_prefix("::stop-commands::").expect("the report opens a fence");
    assert!(!token.is_empty() && token.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'), "{token}");
    assert_eq!(lines.pop(), Some(format!("::{token}::").as_str()), "the fence closes last");
    assert!(lines.iter().all(|l| !l.contains(token)), "the token is not in the report");
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Values from a RouterTest file or the command line cannot forge workflow
/// commands in a GitHub log: each is shown quoted and escaped, and the
/// report is inside a fence whose token the input cannot know.
#[test]
fn input_values_cannot_forge_workflow_commands() {
    let forged = "\n::error file=README.md,line=1::forged\n::add-mask::secret";
    let cases = format!(
        "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: {name}\n  request:\n    model: {model}\n    headers: {{x-team: {model}}}\n  expect: {{rule: default, strategy: {model}}}\n",
        name = serde_json::to_string(&format!("case{forged}")).expect("json"),
        model = serde_json::to_string(forged).expect("json"),
    );
    let run = test(&["--message-format", "github", "-f", ROUTER, "-t", "-"], Some(&cases));
    assert_eq!(run.code, 1, "{}", run.stderr);
    let body = unfenced(&run.stdout);
    // Inside the fence too, each value is quoted and escaped: no line of
    // the report starts with it.
    assert!(!body.lines().any(|l| l.trim_start().starts_with("::")), "no value starts a line: {body}");
    assert!(body.contains(r#""\n::error file=README.md,line=1::forged\n::add-mask::secret""#), "{body}");
    let route = routerctl(
        &["route", "--message-format", "github", "-f", ROUTER, "--model", forged, "-H", &format!("x-team={forged}")],
        None,
    );
    assert_eq!(route.code, 0, "{}", route.stderr);
    unfenced(&route.stdout);
    // The human format prints the report as it is.
    let human = test(&["-f", ROUTER, "-t", "-"], Some(&cases));
    assert!(!human.stdout.starts_with("::stop-commands::"));
}

/// CLI habits: a comma list where a flag repeats, and a case that expects
/// nothing is said to pass vacuously.
#[test]
fn comma_lists_and_empty_expectations() {
    let route = |down: &[&str]| {
        let mut args = vec!["route", "-q", "-f", ROUTER, "-H", "x-llmkube-task-complexity=complex"];
        args.extend(down);
        routerctl(&args, None)
    };
    let listed = route(&["--unhealthy", "cloud-opus,local-qwen"]);
    let repeated = route(&["--unhealthy", "cloud-opus", "--unhealthy", "local-qwen"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_eq!(listed.stdout, repeated.stdout);
    assert!(listed.stdout.contains("  down: cloud-opus, local-qwen\n"), "{}", listed.stdout);
    let empty =
        "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: anything goes\n  request: {}\n";
    let run = routerctl(&["test", "--router-proxy-image", "example.com/p:1", "-f", ROUTER, "-t", "-"], Some(empty));
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stderr,
        "warning: <stdin>:4:3: case \"anything goes\" has no expect: it passes whatever the router does\n"
    );
}

/// test, route and verify write no image: they neither note the default
/// image nor refuse it with --strict.
#[test]
fn asking_where_requests_go_says_nothing_of_the_image() {
    let cases = case("{rule: pii-stays-local}", "");
    let run = routerctl(&["test", "--strict", "-f", ROUTER, "-t", "-"], Some(&cases));
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let route = routerctl(&["route", "-f", ROUTER, "--model", "m"], None);
    assert_eq!((route.code, route.stderr.as_str()), (0, ""));
    let verify = routerctl(&["verify", "--strict", "-f", ROUTER], None);
    assert_eq!((verify.code, verify.stderr.as_str()), (0, ""));
    // render writes the image, and says so.
    let render = routerctl(&["render", "-f", ROUTER], None);
    assert!(render.stderr.contains("the built-in default image"), "{}", render.stderr);
}

/// A case whose Content-Length cannot hold a JSON body carrying its model
/// is no request anyone can send (the proxy reads the model from those
/// bytes): `test` refuses it at the header, as any unreadable case (exit
/// 2, nothing on stdout), and `route` refuses the same request.
#[test]
fn a_content_length_too_short_for_the_model_is_refused_at_its_place() {
    // {"model":"gpt-4o"} is 18 bytes: 17 cannot hold it, 18 can.
    let suite = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: short\n  request:\n    \
                 model: gpt-4o\n    headers: {Content-Length: \"17\"}\n  expect: {rule: default}\n- name: fits\n  \
                 request:\n    model: gpt-4o\n    headers: {Content-Length: \"18\"}\n  expect: {rule: default}\n";
    let run = test(&["-f", ROUTER, "-t", "-", "--message-format", "github"], Some(suite));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    // Line 7, at the header's key.
    assert!(
        lines[0].starts_with("::error file=<stdin>,line=7,col=15,title=routerctl test::tests[0].request.headers.Content-Length: \"short\": Content-Length 17 cannot hold the model")
            && lines[0].contains("takes 18 bytes"),
        "{}",
        lines[0]
    );
    let fits = suite.replace("\"17\"", "\"18\"");
    let run = test(&["-f", ROUTER, "-t", "-"], Some(&fits));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A chunked body's length is its chunks': the header is dropped.
    let chunked = suite.replace("{Content-Length: \"17\"}", "{Content-Length: \"17\", Transfer-Encoding: chunked}");
    assert_eq!(test(&["-f", ROUTER, "-t", "-"], Some(&chunked)).code, 0);
    let route = |length: &str| {
        let header = format!("Content-Length: {length}");
        routerctl(&["route", "-f", ROUTER, "--model", "gpt-4o", "-H", &header], None)
    };
    let short = route("17");
    assert_eq!((short.code, short.stdout.as_str()), (2, ""));
    assert!(
        short.stderr.starts_with("error: -H Content-Length and --model: Content-Length 17 cannot hold the model"),
        "{}",
        short.stderr
    );
    assert_eq!(route("18").code, 0);
}
