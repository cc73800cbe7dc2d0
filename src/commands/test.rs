//! `routerctl test`: each router rendered as the operator would, then its
//! RouterTest cases checked on its data plane (or the one chosen), with
//! coverage and what `verify` finds told beside them.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};
use serde_json::{json, Value};

use super::outcome::{fenced, Outcome};
use super::routers::{both, planes, routers, test_files};
use crate::cli::{SuiteFormat, TestArgs};
use crate::diagnostic::{rules, Diagnostic, Severity};
use crate::input::inputs::Inputs;
use crate::kube::count::count;
use crate::output::spool::Spool;
use crate::output::yaml::double_quoted;
use crate::report::{JsonSeq, MessageFormat, Reporter};
use crate::routing::router::Router;
use crate::routing::space::Limits;
use crate::routing::suite::{self, Coverage, Ran, SuiteRun};
use crate::routing::verify;
use crate::routing::Decision;

pub(super) fn run(args: &TestArgs, inputs: &mut Inputs, reporter: &mut Reporter) -> Result<Outcome> {
    let planes = planes(args.data_plane);
    // Without -t the cases are among the -f documents, read once for both.
    let files = if args.tests.is_empty() {
        test_files(&args.common.files, args.common.recursive, true, inputs)
    } else {
        if stdin_used_by_both(&args.tests, &args.common.files) {
            bail!("stdin (`-`) can be given only once across -f and -t");
        }
        test_files(&args.tests, args.common.recursive, false, inputs)
    };
    // The routers are read whichever the test files come to.
    let rendered: Result<Vec<Vec<Router>>> =
        planes.iter().map(|plane| routers(&args.common, *plane, inputs, reporter)).collect();
    let (files, rendered) = both(reporter, files, rendered)?;
    if files.is_empty() {
        bail!(
            "no RouterTest document (apiVersion: {}, kind: {}) in {}",
            suite::API_VERSION,
            suite::KIND,
            if args.tests.is_empty() { "the -f files; give test files with -t" } else { "the -t files" }
        );
    }
    // A case that expects nothing passes whatever the router does.
    for case in files.iter().flat_map(|f| &f.cases) {
        if case.expect == suite::Expect::default() {
            reporter.warn(
                Diagnostic::warning(
                    rules::TEST,
                    format!("case {} has no expect: it passes whatever the router does", double_quoted(&case.name)),
                )
                .at(case.at.clone()),
            );
        }
    }
    let run = suite::run(&files, &rendered)?;
    // What verify finds for all requests, told beside the cases.
    for report in
        verify::verify(&verify::Inputs { planes: &rendered, against: None, invariants: &[], limits: Limits::default() })
    {
        for finding in report.findings {
            // A warning here (the cases decide the run), at the field it is
            // about.
            let mut d = finding.diagnostic;
            d.severity = Severity::Warning;
            d.context = Some(format!("{} ({})", report.router, report.plane.label()));
            d.hint = Some("routerctl verify tells more".to_string());
            reporter.warn(d);
        }
    }
    let failed = run.failed();
    let below = args.min_coverage.filter(|min| run.coverage.iter().any(|c| c.percent() < f64::from(*min)));
    let strict_skips = args.common.strict && !run.skipped.is_empty();
    let mut out = Spool::new();
    match args.output {
        SuiteFormat::Text => {
            let text = fenced(text_report(&run, args.coverage || args.min_coverage.is_some()), reporter.format());
            std::io::Write::write_all(&mut out, text.as_bytes()).context("cannot spool output")?;
        }
        SuiteFormat::Json => json_report(&run, &mut out)?,
        SuiteFormat::Junit => {
            let xml = super::junit::test_report(&run, args.min_coverage);
            std::io::Write::write_all(&mut out, xml.as_bytes()).context("cannot spool output")?;
        }
    }
    // Each router under the bar, with its figure and what no case reaches.
    if let Some(min) = below {
        for c in run.coverage.iter().filter(|c| c.percent() < f64::from(min)) {
            let missed = c.missed();
            let reach =
                if missed.is_empty() { String::new() } else { format!("; no case reaches {}", suite::list(&missed)) };
            reporter.error(Diagnostic::error(
                rules::TEST,
                format!(
                    "{} ({}): coverage {:.0}% of {}, under --min-coverage {min}%{reach}",
                    c.router,
                    c.plane.label(),
                    c.percent(),
                    count(c.routes.len(), "route", "routes")
                ),
            ));
        }
    }
    if strict_skips {
        reporter.error(Diagnostic::error(
            rules::TEST,
            format!("{} skipped: their data plane was not run (--strict)", count(run.skipped.len(), "case", "cases")),
        ));
    }
    // People read the failures in the report; CI reads them as findings at
    // their case, to annotate it.
    if reporter.format() != MessageFormat::Human {
        for r in run.ran.iter().filter(|r| r.failed()) {
            let message = format!(
                "case {} fails for {} ({}): {}; the router does {}",
                double_quoted(&r.case.name),
                r.router.id,
                r.router.data_plane().label(),
                r.mismatches.join("; "),
                outcome(&r.decision)
            );
            reporter.error(Diagnostic::error(rules::TEST, message).at(r.case.at.clone()));
        }
    }
    let code = i32::from(failed > 0 || below.is_some() || strict_skips);
    Ok(Outcome { stdout: out, code, notes: String::new() })
}

fn stdin_used_by_both(tests: &[PathBuf], files: &[PathBuf]) -> bool {
    let dash = |p: &PathBuf| p.as_os_str() == "-";
    tests.iter().any(dash) && files.iter().any(dash)
}

/// `rule r → [a, b]`, or `rule r → 503 (why)`.
fn outcome(d: &Decision) -> String {
    format!("{} → {}", d.matched.label(), verify::outcome(d))
}

fn text_report(run: &SuiteRun, show_coverage: bool) -> String {
    let mut out = String::new();
    let mut groups: Vec<(&str, &str)> = Vec::new();
    for r in &run.ran {
        let group = (r.router.id.as_str(), r.router.data_plane().label());
        if !groups.contains(&group) {
            groups.push(group);
        }
    }
    let mut skips_told: Vec<&str> = Vec::new();
    for (router, plane) in groups {
        let runs: Vec<&Ran> = run
            .ran
            .iter()
            .filter(|r| r.judged && r.router.id == router && r.router.data_plane().label() == plane)
            .collect();
        let failed: Vec<&&Ran> = runs.iter().filter(|r| r.failed()).collect();
        let passing = count(runs.len(), "case passes", "cases pass");
        let _ = write!(out, "{router} ({plane}): {} of {passing}", runs.len() - failed.len());
        let skipped: Vec<_> = if skips_told.contains(&router) {
            Vec::new()
        } else {
            skips_told.push(router);
            run.skipped.iter().filter(|s| s.router == router).collect()
        };
        if skipped.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, ", {} skipped", skipped.len());
        }
        for r in failed {
            let _ = writeln!(
                out,
                "  FAIL {} {}: {}; the router does {}",
                r.case.at,
                double_quoted(&r.case.name),
                r.mismatches.join("; "),
                outcome(&r.decision)
            );
        }
        for s in skipped {
            let _ = writeln!(
                out,
                "  SKIP {} {}: judged on the {} data plane, which this run did not render (--data-plane {})",
                s.case.at,
                double_quoted(&s.case.name),
                s.plane.label(),
                s.plane.label().to_ascii_lowercase()
            );
        }
    }
    for &(p, g) in &run.disagreements {
        let (p, g) = (&run.ran[p], &run.ran[g]);
        let _ = writeln!(
            out,
            "  DIFFER {} {}: Proxy {}, Gateway {}",
            p.case.at,
            double_quoted(&p.case.name),
            outcome(&p.decision),
            outcome(&g.decision)
        );
    }
    if show_coverage {
        for c in &run.coverage {
            let missed = c.missed();
            let _ = write!(
                out,
                "coverage {} ({}): {:.0}% of {}",
                c.router,
                c.plane.label(),
                c.percent(),
                count(c.routes.len(), "route", "routes")
            );
            if c.reached.is_empty() {
                let _ = writeln!(out, "; no case for this router");
            } else if missed.is_empty() {
                out.push('\n');
            } else {
                let _ = writeln!(out, "; no case reaches {}", missed.join(", "));
            }
        }
    }
    out
}

pub(super) fn decision_json(d: &Decision) -> Value {
    json!({
        "rule": d.matched.label(),
        "strategy": d.strategy,
        "backends": d.candidates.iter().map(|(name, weight)| match weight {
            Some(w) => json!({"name": name, "weight": w}),
            None => json!({"name": name}),
        }).collect::<Vec<_>>(),
        "status": d.status,
        "reason": d.reason,
    })
}

/// The `-o json` report, written as its cases are turned into values: a
/// suite of many cases never holds them all as JSON. The keys are in the
/// order a `serde_json::Value` map keeps them.
fn json_report(run: &SuiteRun, out: &mut dyn std::io::Write) -> Result<()> {
    use serde::ser::{SerializeMap, Serializer as _};
    let judged = run.ran.iter().filter(|r| r.judged).map(|r| {
        json!({
            "router": r.router.id,
            "plane": r.router.data_plane().label(),
            "name": r.case.name,
            "at": r.case.at.to_string(),
            "result": if r.failed() { "failed" } else { "passed" },
            "passed": !r.failed(),
            "mismatches": r.mismatches,
            "decision": decision_json(&r.decision),
        })
    });
    let skipped = run.skipped.iter().map(|s| {
        json!({
            "router": s.router,
            "plane": s.plane.label(),
            "name": s.case.name,
            "at": s.case.at.to_string(),
            "result": "skipped",
            "passed": false,
        })
    });
    let coverage: Vec<Value> = run
        .coverage
        .iter()
        .map(|c: &Coverage| json!({"router": c.router, "plane": c.plane.label(), "routes": c.routes, "missed": c.missed(), "percent": c.percent()}))
        .collect();
    let differ = JsonSeq::new(run.disagreements.iter().map(|&(p, g)| {
        let (p, g) = (&run.ran[p], &run.ran[g]);
        json!({"name": p.case.name, "at": p.case.at.to_string(), "proxy": decision_json(&p.decision), "gateway": decision_json(&g.decision)})
    }));
    let judged_count = run.ran.iter().filter(|r| r.judged).count();
    let summary = json!({"passed": judged_count - run.failed(), "failed": run.failed(), "skipped": run.skipped.len()});
    let mut out = std::io::BufWriter::new(out);
    let mut writer = serde_json::Serializer::pretty(&mut out);
    let mut report = writer.serialize_map(Some(4)).context("cannot write the report")?;
    report.serialize_entry("cases", &JsonSeq::new(judged.chain(skipped))).context("cannot write the report")?;
    report.serialize_entry("coverage", &coverage).context("cannot write the report")?;
    report.serialize_entry("disagreements", &differ).context("cannot write the report")?;
    report.serialize_entry("summary", &summary).context("cannot write the report")?;
    SerializeMap::end(report).context("cannot write the report")?;
    std::io::Write::write_all(&mut out, b"\n").context("cannot spool output")?;
    std::io::Write::flush(&mut out).context("cannot spool output")
}
