//! `routerctl test`: each router rendered as the operator would, then its
//! RouterTest cases checked on its data plane (or the one chosen), with
//! coverage and what `verify` finds told beside them; the run is handed to
//! the emitter of `-o` (`report::human`, `json`, `junit`, `markdown`).

use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};

use super::outcome::Outcome;
use super::routers::{both, planes, routers, test_files};
use crate::cli::{SuiteFormat, TestArgs};
use crate::diagnostic::{rules, Diagnostic, Severity};
use crate::input::inputs::Inputs;
use crate::kube::count::count;
use crate::output::spool::Spool;
use crate::output::yaml::double_quoted;
use crate::report::{findings, human, json, junit, markdown, MessageFormat, Reporter};
use crate::routing::router::Router;
use crate::routing::space::Limits;
use crate::routing::suite;
use crate::routing::verify;

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
            let text = reporter.fenced(human::test(&run, args.coverage || args.min_coverage.is_some()));
            std::io::Write::write_all(&mut out, text.as_bytes()).context("cannot spool output")?;
        }
        SuiteFormat::Json => json::test(&run, &mut out)?,
        SuiteFormat::Junit => {
            let xml = junit::test(&run, args.min_coverage);
            std::io::Write::write_all(&mut out, xml.as_bytes()).context("cannot spool output")?;
        }
        SuiteFormat::Markdown => {
            let asked = markdown::Asked {
                coverage: args.coverage || args.min_coverage.is_some(),
                min_coverage: args.min_coverage,
                strict: args.common.strict,
            };
            std::io::Write::write_all(&mut out, markdown::test(&run, asked).as_bytes())
                .context("cannot spool output")?;
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
        findings::test(&run).into_iter().for_each(|d| reporter.error(d));
    }
    let code = i32::from(failed > 0 || below.is_some() || strict_skips);
    Ok(Outcome { stdout: out, code, notes: String::new() })
}

fn stdin_used_by_both(tests: &[PathBuf], files: &[PathBuf]) -> bool {
    let dash = |p: &PathBuf| p.as_os_str() == "-";
    tests.iter().any(dash) && files.iter().any(dash)
}
