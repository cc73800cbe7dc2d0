//! `test -o junit` and `verify -o junit`: the JUnit XML report conftest,
//! pytest and cargo-nextest write and CI systems show per case (Jenkins'
//! JUnit and xUnit plugins, GitLab's test reports, GitHub's test-reporter
//! actions). The layout is the one Jenkins' `junit-10.xsd` describes —
//! `testsuites`, a `testsuite` per router and data plane, a `testcase`
//! each with at most one `failure` or `skipped` — plus the `file` and
//! `line` attributes of a `testcase` that GitLab and most readers take to
//! place it.
//!
//! Every value from the input is written as [`shown`] shows it, so that no
//! line of the report can start with one when it reaches a CI log.

use std::fmt::Write as _;

use crate::diagnostic::{rules, Place, Rule, Severity};
use crate::kube::count::count;
use crate::kube::shown::{one_line, shown};
use crate::model::DataPlane;
use crate::routing::suite::{list, Expect, SuiteRun};
use crate::routing::verify::RouterReport;
use crate::routing::{Decision, Request};

/// What a testcase came to.
enum Verdict {
    Passed,
    /// The message (one line), then the text (expected and actual).
    Failed(String, String),
    Skipped(String),
    /// The run could not judge: the message (one line), then the text.
    Errored(String, String),
}

struct TestCase {
    name: String,
    classname: String,
    at: Option<Place>,
    verdict: Verdict,
}

struct Suite {
    name: String,
    cases: Vec<TestCase>,
}

/// `routerctl test`'s cases, a suite per router and plane (the planes not
/// run included, for their skipped cases); with `min_coverage`, a
/// `coverage` testcase in each suite of a plane run.
pub fn test(run: &SuiteRun, min_coverage: Option<u8>) -> String {
    let mut suites: Vec<Suite> = Vec::new();
    let suite = |suites: &mut Vec<Suite>, router: &str, plane: DataPlane| -> usize {
        let name = format!("{router} ({})", plane.label());
        match suites.iter().position(|s| s.name == name) {
            Some(i) => i,
            None => {
                suites.push(Suite { name, cases: Vec::new() });
                suites.len() - 1
            }
        }
    };
    for r in run.ran.iter().filter(|r| r.judged) {
        let plane = r.router.data_plane();
        let verdict = match r.failed() {
            false => Verdict::Passed,
            true => Verdict::Failed(
                r.mismatches.join("; "),
                format!("expected: {}\nactual: {}", expected(&r.case.expect), actual(&r.decision)),
            ),
        };
        let i = suite(&mut suites, &r.router.id, plane);
        suites[i].cases.push(TestCase {
            name: r.case.name.clone(),
            classname: classname(&r.router.id, plane),
            at: Some(r.case.at.clone()),
            verdict,
        });
    }
    for s in &run.skipped {
        let i = suite(&mut suites, &s.router, s.plane);
        let why = format!(
            "judged on the {} data plane, which this run did not render (--data-plane {})",
            s.plane.label(),
            s.plane.label().to_ascii_lowercase()
        );
        suites[i].cases.push(TestCase {
            name: s.case.name.clone(),
            classname: classname(&s.router, s.plane),
            at: Some(s.case.at.clone()),
            verdict: Verdict::Skipped(why),
        });
    }
    if let Some(min) = min_coverage {
        for c in &run.coverage {
            let percent = c.percent();
            let verdict = if percent < f64::from(min) {
                let missed = c.missed();
                let routes = count(c.routes.len(), "route", "routes");
                let message = format!("{percent:.0}% of {routes}, under --min-coverage {min}%");
                let text =
                    if missed.is_empty() { message.clone() } else { format!("no case reaches {}", list(&missed)) };
                Verdict::Failed(message, text)
            } else {
                Verdict::Passed
            };
            let i = suite(&mut suites, &c.router, c.plane);
            suites[i].cases.push(TestCase {
                name: format!("coverage of at least {min}%"),
                classname: classname(&c.router, c.plane),
                at: None,
                verdict,
            });
        }
    }
    write("routerctl test", &suites)
}

/// The checks `verify` runs on every router, one testcase each whether or
/// not it finds anything.
const VERIFY_CHECKS: [&Rule; 5] =
    [rules::SENSITIVE_EGRESS, rules::UNMATCHABLE, rules::UNREACHABLE_RULE, rules::PLANE_DISAGREEMENT, rules::UNROUTED];

/// `routerctl verify`'s report: a suite per router and plane, a testcase
/// per check (failing on its errors; its warnings in the testcase's text
/// would be lost, so they fail nothing and are listed in `system-out`) and
/// per invariant, placed where it is written.
pub fn verify(reports: &[RouterReport], incomplete: Severity) -> String {
    let mut suites = Vec::new();
    for r in reports {
        let classname = classname(&r.router, r.plane);
        let mut cases = Vec::new();
        let mut checks: Vec<&Rule> = VERIFY_CHECKS.to_vec();
        for f in &r.findings {
            if !checks.contains(&f.diagnostic.rule) {
                checks.push(f.diagnostic.rule);
            }
        }
        // A search that did not finish proves nothing: a testcase of its
        // own, failing unless a partial answer was accepted.
        if !r.complete {
            let why = one_line(&r.notes.join("; ")).into_owned();
            let verdict =
                if incomplete == Severity::Error { Verdict::Failed(why.clone(), why) } else { Verdict::Passed };
            cases.push(TestCase {
                name: rules::ROUTING_INCOMPLETE.id.to_string(),
                classname: classname.clone(),
                at: r.origin.clone(),
                verdict,
            });
        }
        for rule in checks {
            // Each finding on a line of its own, whatever values it holds.
            let errors: Vec<String> = r
                .findings
                .iter()
                .filter(|f| f.diagnostic.rule == rule && f.diagnostic.severity == Severity::Error)
                .map(|f| one_line(&f.diagnostic.message).into_owned())
                .collect();
            let verdict = match errors.first() {
                None => Verdict::Passed,
                Some(first) => Verdict::Failed(first.clone(), errors.join("\n")),
            };
            cases.push(TestCase {
                name: rule.id.to_string(),
                classname: classname.clone(),
                at: r.origin.clone(),
                verdict,
            });
        }
        for i in &r.invariants {
            let verdict = match &i.failure {
                None => Verdict::Passed,
                Some((why, case)) => Verdict::Failed(
                    why.clone(),
                    format!("a request that shows it: {}", request_text(&case.request, &case.unhealthy)),
                ),
            };
            cases.push(TestCase {
                name: format!("invariant {}", i.name),
                classname: classname.clone(),
                at: Some(i.at.clone()),
                verdict,
            });
        }
        suites.push(Suite { name: format!("{} ({})", r.router, r.plane.label()), cases });
    }
    write("routerctl verify", &suites)
}

/// `model "m", header: value, with a, b down`, each value shown.
/// The report of a run that stopped before it could judge a case (a file
/// that does not read, a router refused): one suite of one errored
/// testcase holding what stopped it, so that a CI system reading the file
/// shows the run as broken rather than finding no report. `command` is
/// `test` or `verify`; `errors` the run's errors as stderr shows them in
/// `human` (every value in them shown already).
pub fn errored(command: &str, errors: &str) -> String {
    let last = errors.lines().rfind(|l| l.starts_with("error: ")).unwrap_or_default();
    let case = TestCase {
        name: format!("routerctl {command} reads its input"),
        classname: "routerctl".to_string(),
        at: None,
        verdict: Verdict::Errored(last.trim_start_matches("error: ").to_string(), errors.trim_end().to_string()),
    };
    write(&format!("routerctl {command}"), &[Suite { name: "input".to_string(), cases: vec![case] }])
}

fn request_text(request: &Request, unhealthy: &[String]) -> String {
    let mut parts = vec![match &request.model {
        Some(m) => format!("model {m:?}"),
        None => "no model".to_string(),
    }];
    parts.extend(request.headers.iter().map(|(k, v)| format!("{}: {}", shown(k), shown(v))));
    if !unhealthy.is_empty() {
        parts.push(format!("with {} down", list(unhealthy)));
    }
    parts.join(", ")
}

fn classname(router: &str, plane: DataPlane) -> String {
    format!("{router}.{}", plane.label())
}

/// What a case expects, as its fields say: `rule r, backends [a, b]`.
fn expected(e: &Expect) -> String {
    let mut parts = Vec::new();
    if let Some(rule) = &e.rule {
        parts.push(format!("rule {}", shown(rule)));
    }
    if let Some(backends) = &e.backends {
        parts.push(format!("backends {}", list(backends)));
    }
    if let Some(strategy) = &e.strategy {
        parts.push(format!("strategy {}", shown(strategy)));
    }
    if let Some(status) = e.status {
        parts.push(format!("status {status}"));
    }
    parts.join(", ")
}

/// What the router does: `rule r, backends [a, b], strategy s`, or the
/// status it answers with itself.
fn actual(d: &Decision) -> String {
    match d.status {
        Some(status) => format!("rule {}, status {status}", d.matched.label()),
        None => format!("rule {}, backends {}, strategy {}", d.matched.label(), list(&d.backends()), d.strategy),
    }
}

fn write(name: &str, suites: &[Suite]) -> String {
    let count = |s: &Suite, f: fn(&Verdict) -> bool| s.cases.iter().filter(|c| f(&c.verdict)).count();
    let failed = |v: &Verdict| matches!(v, Verdict::Failed(..));
    let skipped = |v: &Verdict| matches!(v, Verdict::Skipped(_));
    let errored = |v: &Verdict| matches!(v, Verdict::Errored(..));
    let tests: usize = suites.iter().map(|s| s.cases.len()).sum();
    let failures: usize = suites.iter().map(|s| count(s, failed)).sum();
    let errors: usize = suites.iter().map(|s| count(s, errored)).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">",
        attribute(name)
    );
    for s in suites {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
            attribute(&s.name),
            s.cases.len(),
            count(s, failed),
            count(s, errored),
            count(s, skipped)
        );
        for c in &s.cases {
            let _ =
                write!(out, "    <testcase name=\"{}\" classname=\"{}\"", attribute(&c.name), attribute(&c.classname));
            if let Some(at) = &c.at {
                let _ = write!(out, " file=\"{}\"", attribute(&at.file));
                if let Some(line) = at.line {
                    let _ = write!(out, " line=\"{line}\"");
                }
            }
            match &c.verdict {
                Verdict::Passed => out.push_str("/>\n"),
                Verdict::Failed(message, text) => {
                    let _ = writeln!(
                        out,
                        ">\n      <failure message=\"{}\" type=\"mismatch\">{}</failure>\n    </testcase>",
                        attribute(message),
                        content(text)
                    );
                }
                Verdict::Skipped(why) => {
                    let _ = writeln!(out, ">\n      <skipped message=\"{}\"/>\n    </testcase>", attribute(why));
                }
                Verdict::Errored(message, text) => {
                    let _ = writeln!(
                        out,
                        ">\n      <error message=\"{}\" type=\"input\">{}</error>\n    </testcase>",
                        attribute(message),
                        content(text)
                    );
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// An attribute's value: a value from the input as [`shown`] shows it,
/// with XML's five special characters as entities.
fn attribute(value: &str) -> String {
    escape(&shown(value), true)
}

/// Element text that routerctl laid out (its line breaks are its own;
/// every value in it was shown already).
fn content(text: &str) -> String {
    escape(text, false)
}

/// XML's special characters as entities, and the characters XML 1.0 cannot
/// hold at all (most control characters, U+FFFE, U+FFFF) as Rust's
/// escapes; in an attribute, a line break as a character reference, which
/// a reader keeps (a raw one it would read as a space).
fn escape(text: &str, in_attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if in_attribute => out.push_str("&quot;"),
            '\'' if in_attribute => out.push_str("&apos;"),
            '\n' if in_attribute => out.push_str("&#10;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => out.extend(c.escape_debug()),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_as_xml_and_values_as_log_lines() {
        assert_eq!(escape("a<b>&\"c'", true), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(escape("a\nb\u{1}\u{fffe}", false), "a\nb\\u{1}\\u{fffe}");
        assert_eq!(attribute("x\n::error::y"), "&quot;x\\n::error::y&quot;");
        assert_eq!(attribute("plain name"), "plain name");
    }
}
