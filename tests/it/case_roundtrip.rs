//! The cases `verify` hands out read back as they were written: a `case:`
//! line and an `--emit-tests` file, whatever their strings hold (control
//! characters, DEL, C1, NEL, the line separators, a byte-order mark,
//! U+FFFE, quotes, a name past libyaml's 1,024-character simple-key
//! limit), through routerctl's RouterTest reader, and through kubectl's
//! (`kubectl label --local -f FILE -o json`), which CI runs where kubectl
//! is installed.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRng, TestRunner};
use routerctl::input::{documents, Source};
use routerctl::model::DataPlane;
use routerctl::routing::suite::{self, Expect};
use routerctl::routing::verify::{Class, RouterReport, WitnessCase};
use routerctl::routing::witness::{case_flow, emitted_tests};
use routerctl::routing::{Decision, Matched, Request};
use serde_json::Value;

use crate::common;

/// Characters a YAML reader would refuse, fold or read as syntax if they
/// were written as they are.
const AWKWARD: &[char] = &[
    '\0', '\u{1}', '\t', '\n', '\r', '\u{1b}', '\u{7f}', '\u{80}', '\u{85}', '\u{9f}', '\u{a0}', '\u{2028}',
    '\u{2029}', '\u{feff}', '\u{fffe}', '\u{ffff}', '"', '\'', '\\', ' ', '#', ':', '-', '?', '{', '}', '[', ']', ',',
    '&', '*', '!', '|', '>', '%', '@', '`', 'é', '€', '😀',
];

fn text() -> impl Strategy<Value = String> {
    let c = prop_oneof![any::<char>(), prop::sample::select(AWKWARD), prop::char::range('a', 'z')];
    prop_oneof![
        4 => prop::collection::vec(c, 0..12).prop_map(|cs| cs.into_iter().collect::<String>()),
        1 => "[a-z]{1100,1200}",
    ]
}

fn request() -> impl Strategy<Value = Request> {
    (prop::option::of(text()), prop::collection::btree_map(text(), text(), 0..4))
        .prop_map(|(model, headers)| Request { model, headers: headers.into_iter().collect() })
}

fn case() -> impl Strategy<Value = WitnessCase> {
    (
        text(),
        request(),
        prop::collection::vec(text(), 0..3),
        (
            prop::option::of(text()),
            prop::option::of(prop::collection::vec(text(), 0..3)),
            prop::option::of(100u16..600),
        ),
        prop::bool::ANY,
    )
        .prop_map(|(name, request, unhealthy, (rule, backends, status), gateway)| WitnessCase {
            name,
            request,
            unhealthy,
            expect: Expect { rule, backends, strategy: None, status },
            data_plane: if gateway { DataPlane::Gateway } else { DataPlane::Proxy },
        })
}

/// A RouterTest document holding `cases`, each as the `case:` line writes it.
fn document(cases: &[WitnessCase]) -> String {
    let mut out = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n".to_string();
    for c in cases {
        out.push_str(&format!("- {}\n", case_flow(c)));
    }
    out
}

/// The cases routerctl's RouterTest reader reads from `text`, one document.
fn read_back(text: &str) -> Vec<suite::Case> {
    let source = Source { name: "cases.yaml".into(), text: text.into() };
    let docs = documents(&source).unwrap_or_else(|e| panic!("{e:#}\n{text}"));
    assert_eq!(docs.len(), 1, "{text}");
    suite::read(&docs[0]).unwrap_or_else(|e| panic!("{e:?}\n{text}")).cases
}

/// A request as the reader gives it back: headers by name.
fn sorted(request: &Request) -> Request {
    let mut r = request.clone();
    r.headers.sort();
    r
}

fn same(read: &suite::Case, written: &WitnessCase) -> Result<(), TestCaseError> {
    prop_assert_eq!(&read.name, &written.name);
    prop_assert_eq!(sorted(&read.request), sorted(&written.request));
    prop_assert_eq!(&read.unhealthy, &written.unhealthy);
    prop_assert_eq!(&read.expect, &written.expect);
    prop_assert_eq!(read.data_plane, Some(written.data_plane));
    Ok(())
}

/// `--emit-tests` for one router whose classes are `requests`.
fn emitted(requests: &[Request]) -> String {
    let decision = Decision {
        matched: Matched::Default,
        strategy: String::new(),
        candidates: vec![("b".into(), None)],
        first_try: 1,
        status: None,
        reason: None,
        trials: Vec::new(),
    };
    let classes = requests.iter().map(|r| Class { request: r.clone(), decision: decision.clone(), cells: 1 }).collect();
    let report = RouterReport {
        router: "ml/r\u{85}".into(),
        origin: None,
        plane: DataPlane::Proxy,
        complete: true,
        notes: Vec::new(),
        states: 0,
        cells: requests.len(),
        classes,
        unreachable: Vec::new(),
        findings: Vec::new(),
        egress: Vec::new(),
        invariants: Vec::new(),
        changes: Vec::new(),
        self_check: Default::default(),
    };
    emitted_tests(&[report])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Every `case:` line reads back as the case it was written from.
    #[test]
    fn a_case_line_reads_back_unchanged(cases in prop::collection::vec(case(), 1..4)) {
        let text = document(&cases);
        let read = read_back(&text);
        prop_assert_eq!(read.len(), cases.len(), "{}", text);
        for (r, w) in read.iter().zip(&cases) {
            same(r, w)?;
        }
    }

    /// `--emit-tests` writes each class's request so that it reads back
    /// as that request.
    #[test]
    fn emitted_classes_read_back_unchanged(requests in prop::collection::vec(request(), 1..4)) {
        let text = emitted(&requests);
        let read = read_back(&text);
        prop_assert_eq!(read.len(), requests.len(), "{}", text);
        for (r, w) in read.iter().zip(&requests) {
            prop_assert_eq!(sorted(&r.request), sorted(w));
        }
    }
}

/// The same cases through kubectl's reader: `kubectl label --local` reads
/// the file as `kubectl apply` would and prints the objects as JSON.
#[test]
#[ignore = "needs kubectl on PATH; .ci/run runs it with --ignored where kubectl is installed"]
fn kubectl_reads_the_cases_back_unchanged() {
    common::require_tool("kubectl", &["version", "--client"], "reading cases back through kubectl");
    let dir = tempfile::tempdir().expect("tempdir");
    // A fixed seed, so a failure is the same on every run.
    let mut runner =
        TestRunner::new_with_rng(Config::default(), TestRng::deterministic_rng(Config::default().rng_algorithm));
    let cases: Vec<WitnessCase> = (0..200).map(|_| case().new_tree(&mut runner).expect("a case").current()).collect();
    let requests: Vec<Request> =
        (0..100).map(|_| request().new_tree(&mut runner).expect("a request").current()).collect();
    let kubectl = |text: &str, file: &str| -> Value {
        let path = dir.path().join(file);
        std::fs::write(&path, text).expect("write");
        let out = std::process::Command::new("kubectl")
            .args(["label", "--local", "-f"])
            .arg(&path)
            .args(["routerctl-test=read", "-o", "json"])
            .output()
            .expect("kubectl runs");
        assert!(out.status.success(), "{}\n{text}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("kubectl -o json writes JSON")
    };
    let header_map = |r: &Request| -> Value {
        Value::Object(r.headers.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect())
    };
    let read = kubectl(&document(&cases), "cases.yaml");
    let tests = read["tests"].as_array().expect("tests");
    assert_eq!(tests.len(), cases.len());
    for (got, want) in tests.iter().zip(&cases) {
        assert_eq!(got["name"], Value::from(want.name.as_str()));
        assert_eq!(got["request"].get("model").and_then(Value::as_str), want.request.model.as_deref(), "{got}");
        assert_eq!(got["request"]["headers"], header_map(&want.request), "{got}");
        assert_eq!(
            got.get("unhealthy").cloned().unwrap_or(Value::Array(Vec::new())),
            Value::from(want.unhealthy.clone())
        );
        let mut expect = serde_json::Map::new();
        if let Some(rule) = &want.expect.rule {
            expect.insert("rule".into(), Value::from(rule.as_str()));
        }
        if let Some(backends) = &want.expect.backends {
            expect.insert("backends".into(), Value::from(backends.clone()));
        }
        if let Some(status) = want.expect.status {
            expect.insert("status".into(), Value::from(status));
        }
        assert_eq!(got["expect"], Value::Object(expect), "{got}");
        assert_eq!(got["dataPlane"], Value::from(want.data_plane.label()));
    }
    let read = kubectl(&emitted(&requests), "emitted.yaml");
    assert_eq!(read["router"], Value::from("ml/r\u{85}"));
    let tests = read["tests"].as_array().expect("tests");
    assert_eq!(tests.len(), requests.len());
    for (got, want) in tests.iter().zip(&requests) {
        assert_eq!(got["request"].get("model").and_then(Value::as_str), want.model.as_deref(), "{got}");
        assert_eq!(got["request"]["headers"], header_map(want), "{got}");
    }
}
