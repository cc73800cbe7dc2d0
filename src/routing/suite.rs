//! RouterTest files: cases of requests and where each must go, read from
//! YAML (`kind: RouterTest`), checked against a data plane's decision, and
//! the rules they reach (coverage).
//!
//! ```yaml
//! apiVersion: routerctl.llmkube.dev/v1alpha1
//! kind: RouterTest
//! router: ml/coding-router        # optional when the inputs hold one router
//! tests:
//! - name: pii stays on the cluster
//!   request: {model: gpt-4o, headers: {x-llmkube-classification: pii}}
//!   unhealthy: [local-qwen]       # optional
//!   dataPlane: Proxy              # optional: judged on this data plane only
//!   expect: {rule: pii-local, backends: [local-qwen], strategy: primary-fallback, status: 503}
//! ```

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Result};
use serde::Deserialize;

use super::{Decision, Request};
use crate::diagnostic::Place;
use crate::input::Document;

pub const API_VERSION: &str = "routerctl.llmkube.dev/v1alpha1";
pub const KIND: &str = "RouterTest";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    #[serde(rename = "apiVersion")]
    _api_version: String,
    #[serde(rename = "kind")]
    _kind: String,
    #[serde(default)]
    metadata: Option<serde_json::Value>,
    #[serde(default)]
    router: Option<String>,
    tests: Vec<CaseSpec>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseSpec {
    name: String,
    #[serde(default)]
    request: RequestSpec,
    #[serde(default)]
    unhealthy: Vec<String>,
    #[serde(default)]
    expect: Expect,
    /// `Proxy` or `Gateway`: the expectation holds on that data plane only
    /// (on the other one the case is still decided, for disagreements and
    /// coverage).
    #[serde(default, rename = "dataPlane")]
    data_plane: Option<DataPlane>,
}

/// A data plane a case is judged on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum DataPlane {
    Proxy,
    Gateway,
}

impl DataPlane {
    pub fn label(self) -> &'static str {
        match self {
            DataPlane::Proxy => "Proxy",
            DataPlane::Gateway => "Gateway",
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestSpec {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
}

/// What a case expects; every field optional, each given one must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// A rule's name, `default`, `name-match` or `none`.
    pub rule: Option<String>,
    /// The candidates, in dispatch order.
    pub backends: Option<Vec<String>>,
    pub strategy: Option<String>,
    /// The status the data plane answers with itself.
    pub status: Option<u16>,
}

/// One test case.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    /// `file:line:col` of the case.
    pub at: Place,
    pub request: Request,
    pub unhealthy: Vec<String>,
    pub expect: Expect,
    /// The only data plane the expectation is checked on, when set.
    pub data_plane: Option<DataPlane>,
}

/// A RouterTest document.
#[derive(Debug, Clone)]
pub struct TestFile {
    /// Where it was read, for messages.
    pub origin: String,
    /// `namespace/name` (or a bare name) of the router it tests.
    pub router: Option<String>,
    pub cases: Vec<Case>,
}

/// Whether a document is a RouterTest.
pub fn is_test(doc: &Document) -> bool {
    doc.kind() == KIND
}

/// Reads a RouterTest document; an error names the field and its place.
pub fn read(doc: &Document) -> Result<TestFile> {
    if doc.api_version() != API_VERSION {
        bail!(
            "{}: RouterTest apiVersion {:?}; write apiVersion: {API_VERSION}",
            doc.locate("apiVersion"),
            doc.api_version()
        );
    }
    let spec: FileSpec = serde_path_to_error::deserialize(&doc.value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        anyhow!("{}: {}: {}", doc.locate(&path), if path.is_empty() { "RouterTest" } else { &path }, e.inner())
    })?;
    let _ = spec.metadata;
    if spec.tests.is_empty() {
        bail!("{}: tests: a RouterTest needs at least one case", doc.locate("tests"));
    }
    let cases = spec
        .tests
        .into_iter()
        .enumerate()
        .map(|(i, c)| Case {
            at: doc.place(&format!("tests[{i}]")),
            name: c.name,
            request: Request { model: c.request.model, headers: c.request.headers.into_iter().collect() },
            unhealthy: c.unhealthy,
            expect: c.expect,
            data_plane: c.data_plane,
        })
        .collect();
    Ok(TestFile { origin: doc.origin.to_string(), router: spec.router, cases })
}

/// What differs between the expectation and the decision: one line each.
pub fn mismatches(expect: &Expect, decision: &Decision) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(rule) = &expect.rule {
        if rule != decision.matched.label() {
            out.push(format!("rule: expected {rule}, got {}", decision.matched.label()));
        }
    }
    if let Some(backends) = &expect.backends {
        let got = decision.backends();
        if *backends != got {
            out.push(format!("backends: expected {}, got {}", list(backends), list(&got)));
        }
    }
    if let Some(strategy) = &expect.strategy {
        if *strategy != decision.strategy {
            out.push(format!("strategy: expected {strategy}, got {}", shown(&decision.strategy)));
        }
    }
    match (expect.status, decision.status) {
        (Some(want), Some(got)) if want != got => out.push(format!("status: expected {want}, got {got}")),
        (Some(want), None) => out.push(format!("status: expected {want}, but a backend is tried")),
        _ => {}
    }
    out
}

fn shown(s: &str) -> &str {
    if s.is_empty() {
        "(none)"
    } else {
        s
    }
}

/// `[a, b]`.
pub fn list<S: AsRef<str>>(items: &[S]) -> String {
    format!("[{}]", items.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{documents, Source};
    use crate::routing::Matched;

    fn doc(text: &str) -> Document {
        let source = Source { name: "t.yaml".into(), text: text.into() };
        documents(&source).expect("reads").remove(0)
    }

    #[test]
    fn a_test_file_is_read_with_its_places() {
        let file = read(&doc(
            "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\nrouter: ml/r\ntests:\n- name: a\n  request:\n    model: m\n    headers: {x-team: a}\n  unhealthy: [b]\n  expect: {rule: r1, status: 503}\n",
        ))
        .expect("reads");
        assert_eq!(file.router.as_deref(), Some("ml/r"));
        let case = &file.cases[0];
        assert_eq!((case.name.as_str(), case.at.to_string().as_str()), ("a", "t.yaml:5:3"));
        assert_eq!(case.request.headers, [("x-team".to_string(), "a".to_string())]);
        assert_eq!(case.expect, Expect { rule: Some("r1".into()), status: Some(503), ..Expect::default() });
    }

    #[test]
    fn mistakes_are_named_with_their_place() {
        let err = |text: &str| read(&doc(text)).expect_err("refused").to_string();
        let head = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: a\n";
        let bad = err(&format!("{head}  expect: {{status: x}}\n"));
        assert!(bad.starts_with("t.yaml:5:12: tests[0].expect.status: invalid type"), "{bad}");
        let typo = err(&format!("{head}  expect: {{backend: [a]}}\n"));
        assert!(
            typo.starts_with(
                "t.yaml:5:12: tests[0].expect.backend: unknown field `backend`, expected one of `rule`, `backends`"
            ),
            "{typo}"
        );
        assert!(err("apiVersion: v1\nkind: RouterTest\ntests: []\n")
            .contains("write apiVersion: routerctl.llmkube.dev/v1alpha1"));
    }

    #[test]
    fn mismatches_say_what_was_expected_and_what_happens() {
        let decision = Decision {
            matched: Matched::Rule("complex".into()),
            strategy: "primary-fallback".into(),
            candidates: vec![("cloud".into(), None)],
            status: None,
            reason: None,
            trials: Vec::new(),
        };
        let expect = Expect {
            rule: Some("pii".into()),
            backends: Some(vec!["local".into()]),
            strategy: Some("primary-fallback".into()),
            status: Some(503),
        };
        assert_eq!(
            mismatches(&expect, &decision),
            [
                "rule: expected pii, got complex",
                "backends: expected [local], got [cloud]",
                "status: expected 503, but a backend is tried"
            ]
        );
    }
}
