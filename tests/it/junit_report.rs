//! `test -o junit` and `verify -o junit` through the real binary, each
//! report read with an XML parser (roxmltree) and held to the layout of
//! Jenkins' `junit-10.xsd` (the xUnit plugin's JUnit schema; GitLab and
//! GitHub's test-reporter actions read the same layout): which element
//! holds which, the attributes each may carry and must, and the counts
//! agreeing with the testcases. The one addition is the `file` and `line`
//! of a `testcase`, which GitLab and most readers take to place a case.

use std::collections::BTreeSet;

use crate::common;

use common::routerctl;

/// The attributes an element may carry, and those it must.
fn attributes(element: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match element {
        "testsuites" => (&["name", "time", "tests", "failures", "errors"], &[]),
        "testsuite" => (
            &[
                "name",
                "tests",
                "failures",
                "errors",
                "group",
                "time",
                "skipped",
                "timestamp",
                "hostname",
                "id",
                "package",
                "file",
                "log",
                "url",
            ],
            &["name", "tests", "failures", "errors"],
        ),
        // `file` and `line`: the one addition to junit-10.xsd.
        "testcase" => (&["name", "time", "classname", "group", "file", "line"], &["name"]),
        "failure" | "error" | "skipped" => (&["type", "message"], &[]),
        "properties" | "system-out" | "system-err" => (&[], &[]),
        "property" => (&["name", "value"], &["name", "value"]),
        _ => return None,
    })
}

/// The elements an element may hold.
fn children(element: &str) -> &'static [&'static str] {
    match element {
        "testsuites" => &["testsuite"],
        "testsuite" => &["testsuite", "properties", "testcase", "system-out", "system-err"],
        "testcase" => &["skipped", "error", "failure", "system-out", "system-err"],
        "properties" => &["property"],
        _ => &[],
    }
}

/// What in `xml` the schema refuses, one line each.
fn schema_errors(xml: &str) -> Vec<String> {
    let doc = match roxmltree::Document::parse(xml) {
        Ok(doc) => doc,
        Err(e) => return vec![format!("not XML: {e}")],
    };
    let mut errors = Vec::new();
    let root = doc.root_element();
    if root.tag_name().name() != "testsuites" {
        errors.push(format!("the root is <{}>, not <testsuites>", root.tag_name().name()));
    }
    let number = |node: roxmltree::Node, key: &str| node.attribute(key).map(|v| v.parse::<usize>());
    for node in root.descendants().filter(roxmltree::Node::is_element) {
        let name = node.tag_name().name();
        let Some((allowed, required)) = attributes(name) else {
            errors.push(format!("<{name}> is no element of the schema"));
            continue;
        };
        for a in node.attributes() {
            if !allowed.contains(&a.name()) {
                errors.push(format!("<{name}> has no attribute {}", a.name()));
            }
        }
        for r in required {
            if node.attribute(*r).is_none() {
                errors.push(format!("<{name}> lacks its {r}"));
            }
        }
        for child in node.children().filter(roxmltree::Node::is_element) {
            if !children(name).contains(&child.tag_name().name()) {
                errors.push(format!("<{name}> cannot hold <{}>", child.tag_name().name()));
            }
        }
        let text_only = matches!(name, "failure" | "error" | "skipped" | "system-out" | "system-err");
        if text_only && node.children().any(|c| c.is_element()) {
            errors.push(format!("<{name}> holds elements"));
        }
        for key in ["tests", "failures", "errors", "skipped", "line"] {
            if let Some(Err(_)) = number(node, key) {
                errors.push(format!("<{name}> {key} is not a whole number"));
            }
        }
        if name == "testsuite" {
            let cases: Vec<_> = node.children().filter(|c| c.has_tag_name("testcase")).collect();
            let with = |child: &str| cases.iter().filter(|c| c.children().any(|e| e.has_tag_name(child))).count();
            for (key, count) in [
                ("tests", cases.len()),
                ("failures", with("failure")),
                ("errors", with("error")),
                ("skipped", with("skipped")),
            ] {
                if let Some(Ok(n)) = number(node, key) {
                    if n != count {
                        errors.push(format!("<testsuite {:?}> says {key}={n}, holds {count}", node.attribute("name")));
                    }
                }
            }
        }
    }
    errors
}

/// A passing case, a failing one, a case for the Gateway plane (skipped on
/// a Proxy run), against testdata/render/sample.yaml.
const SUITE: &str = "\
apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
router: ml/coding-router
tests:
- name: pii stays on the cluster
  request: {headers: {x-llmkube-classification: pii}}
  expect: {rule: pii-stays-local, backends: [local-qwen]}
- name: complex goes local (wrong on purpose)
  request: {headers: {x-llmkube-task-complexity: complex}}
  expect: {rule: default, backends: [local-qwen]}
- name: on the gateway only
  dataPlane: Gateway
  request: {}
  expect: {backends: [local-qwen]}
";

#[test]
fn test_junit_has_a_suite_per_router_and_plane_and_a_case_per_case() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("cases.yaml");
    std::fs::write(&path, SUITE).expect("writes the suite");
    let file = path.to_string_lossy().into_owned();
    let args = ["test", "-f", "testdata/render/sample.yaml", "-t", &file, "--router-proxy-image", "x:1", "-o", "junit"];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 1, "a failing case fails the run: {}", run.stderr);
    assert_eq!(schema_errors(&run.stdout), Vec::<String>::new(), "{}", run.stdout);

    let doc = roxmltree::Document::parse(&run.stdout).expect("XML");
    let root = doc.root_element();
    assert_eq!((root.attribute("tests"), root.attribute("failures")), (Some("3"), Some("1")));
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    let names: Vec<_> = suites.iter().filter_map(|s| s.attribute("name")).collect();
    assert_eq!(names, ["ml/coding-router (Proxy)", "ml/coding-router (Gateway)"]);
    let cases: Vec<_> = root.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    let placed: Vec<_> =
        cases.iter().map(|c| (c.attribute("name").unwrap_or(""), c.attribute("file"), c.attribute("line"))).collect();
    assert_eq!(
        placed,
        [
            ("pii stays on the cluster", Some(file.as_str()), Some("5")),
            ("complex goes local (wrong on purpose)", Some(file.as_str()), Some("8")),
            ("on the gateway only", Some(file.as_str()), Some("11")),
        ]
    );
    assert!(cases[0].children().all(|c| !c.is_element()), "a passing case holds nothing");
    let failure = cases[1].children().find(|c| c.has_tag_name("failure")).expect("a failure");
    assert_eq!(
        failure.attribute("message"),
        Some("rule: expected default, got complex-to-cloud; backends: expected [local-qwen], got [cloud-opus, local-qwen]")
    );
    assert_eq!(
        failure.text(),
        Some(
            "expected: rule default, backends [local-qwen]\n\
             actual: rule complex-to-cloud, backends [cloud-opus, local-qwen], strategy primary-fallback"
        )
    );
    let skipped = cases[2].children().find(|c| c.has_tag_name("skipped")).expect("skipped");
    assert!(skipped.attribute("message").is_some_and(|m| m.contains("Gateway data plane")), "{skipped:?}");

    // --min-coverage adds a testcase per router and plane run.
    let coverage = routerctl(&[&args[..], &["--min-coverage", "100"]].concat(), None);
    assert_eq!(schema_errors(&coverage.stdout), Vec::<String>::new(), "{}", coverage.stdout);
    assert!(coverage.stdout.contains("<testcase name=\"coverage of at least 100%\""), "{}", coverage.stdout);
}

/// An invariant of ml/coding-router that holds, and one that does not.
const INVARIANTS: &str = "\
apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
router: ml/coding-router
invariants:
- name: sensitive requests never leave the cluster
  when: {classification: [pii, phi]}
  never: {tier: cloud}
- name: nothing ever goes to the cloud (wrong on purpose)
  never: {tier: cloud}
";

#[test]
fn verify_junit_has_a_case_per_check_and_invariant() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("invariants.yaml");
    std::fs::write(&path, INVARIANTS).expect("writes the invariants");
    let file = path.to_string_lossy().into_owned();
    // A router that holds its invariant and trips no check, and one that
    // trips two.
    let args = [
        "verify",
        "-f",
        "testdata/render/sample.yaml",
        "-f",
        "testdata/verify/leaky.yaml",
        "-t",
        &file,
        "--router-proxy-image",
        "x:1",
        "-o",
        "junit",
    ];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(schema_errors(&run.stdout), Vec::<String>::new(), "{}", run.stdout);
    let doc = roxmltree::Document::parse(&run.stdout).expect("XML");
    let json = routerctl(&[&args[..9], &["-o", "json"]].concat(), None);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let suites = doc.root_element().children().filter(|n| n.has_tag_name("testsuite")).count();
    assert_eq!(Some(suites), report["routers"].as_array().map(Vec::len), "a suite per router and plane");
    assert_eq!(suites, 2, "{}", run.stdout);
    let invariants = run.stdout.matches("<testcase name=\"invariant ").count();
    assert_eq!(invariants, 2, "{}", run.stdout);
    for (suite, router) in doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .zip(report["routers"].as_array().expect("routers"))
    {
        let label = format!("{} ({})", router["router"].as_str().unwrap_or(""), router["plane"].as_str().unwrap_or(""));
        assert_eq!(suite.attribute("name"), Some(label.as_str()));
        let names: BTreeSet<&str> =
            suite.children().filter(|c| c.has_tag_name("testcase")).filter_map(|c| c.attribute("name")).collect();
        // Every check, found or not; every invariant by name.
        for check in ["sensitive-egress", "unmatchable-value", "unreachable-rule", "plane-disagreement", "unrouted"] {
            assert!(names.contains(check), "{label}: {check}: {names:?}");
        }
        for invariant in router["invariants"].as_array().expect("invariants") {
            let name = format!("invariant {}", invariant["name"].as_str().unwrap_or(""));
            let case = suite
                .children()
                .find(|c| c.attribute("name") == Some(name.as_str()))
                .unwrap_or_else(|| panic!("{label}: {name}"));
            let failed = case.children().any(|c| c.has_tag_name("failure"));
            assert_eq!(failed, invariant["holds"] == false, "{label}: {name}");
            let at = invariant["at"].as_str().unwrap_or("");
            let (file, line) = (case.attribute("file").unwrap_or(""), case.attribute("line").unwrap_or(""));
            assert!(at.starts_with(&format!("{file}:{line}:")), "{name} at {at}, placed at {file}:{line}");
        }
        // A check fails exactly when verify reports an error of its rule.
        for check in ["sensitive-egress", "unmatchable-value"] {
            let errors = router["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .any(|f| f["rule"] == check && f["severity"] == "error");
            let case = suite.children().find(|c| c.attribute("name") == Some(check)).expect("the check");
            assert_eq!(case.children().any(|c| c.has_tag_name("failure")), errors, "{label}: {check}");
        }
    }
}

/// The checks above can fail: what the schema refuses is refused.
#[test]
fn the_schema_check_refuses_what_junit_10_refuses() {
    let bad = [
        ("<testsuite name=\"a\" tests=\"0\" failures=\"0\" errors=\"0\"/>", "the root is <testsuite>"),
        ("<testsuites><testcase name=\"a\"/></testsuites>", "<testsuites> cannot hold <testcase>"),
        (
            "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\"><testcase/></testsuite></testsuites>",
            "<testcase> lacks its name",
        ),
        (
            "<testsuites><testsuite name=\"s\" tests=\"2\" failures=\"0\" errors=\"0\"><testcase name=\"a\"/></testsuite></testsuites>",
            "says tests=2, holds 1",
        ),
        (
            "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\"><testcase name=\"a\" result=\"x\"/></testsuite></testsuites>",
            "<testcase> has no attribute result",
        ),
        ("<testsuites><testsuite tests=\"0\" failures=\"0\" errors=\"0\"/></testsuites>", "<testsuite> lacks its name"),
        ("<testsuites>", "not XML"),
    ];
    for (xml, error) in bad {
        let errors = schema_errors(xml);
        assert!(errors.iter().any(|e| e.contains(error)), "{xml}: {errors:?}");
    }
}

/// A run that cannot judge (here two routers refused, in two files) still
/// writes a JUnit report: one errored testcase holding every error of the
/// run, for `test` and `verify`, and exits 2 with the errors on stderr as
/// in every format.
#[test]
fn an_input_error_is_an_errored_testcase_not_an_empty_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = dir.path().join("no-backends.yaml");
    let second = dir.path().join("provider.yaml");
    std::fs::copy(common::root().join("testdata/invalid/crd-no-backends.yaml"), &first).expect("copies");
    std::fs::copy(common::root().join("testdata/invalid/crd-provider-enum.yaml"), &second).expect("copies");
    let (first, second) = (first.to_string_lossy().into_owned(), second.to_string_lossy().into_owned());
    for command in ["test", "verify"] {
        let mut args = vec![command, "-f", &first, "-f", &second, "-o", "junit"];
        if command == "test" {
            args.extend(["-t", "testdata/tests/podmeta.yaml"]);
        }
        let run = routerctl(&args, None);
        assert_eq!(run.code, 2, "{command}: {}", run.stderr);
        assert_eq!(schema_errors(&run.stdout), Vec::<String>::new(), "{command}: {}", run.stdout);
        let doc = roxmltree::Document::parse(&run.stdout).expect("XML");
        let root = doc.root_element();
        assert_eq!((root.attribute("tests"), root.attribute("errors")), (Some("1"), Some("1")), "{}", run.stdout);
        let error = root.descendants().find(|n| n.has_tag_name("error")).expect("an error element");
        let text = error.text().unwrap_or_default();
        // Each file's problem is in the report, as on stderr.
        for file in [&first, &second] {
            assert!(text.contains(file.as_str()), "{command}: the report names {file}: {text}");
            assert!(run.stderr.contains(file.as_str()), "{command}: stderr names {file}: {}", run.stderr);
        }
        assert!(error.attribute("message").is_some_and(|m| !m.is_empty()), "{}", run.stdout);
    }
}
