//! `routerctl verify`: arguments in, `routing::verify` run over the
//! routers rendered (and the ones before the change), its reports handed to
//! the emitter of `-o` (`report::human`, `json`, `junit`, `markdown`), and the cases
//! of every class written with `--emit-tests`.

use anyhow::{bail, Context as _, Result};

use super::outcome::Outcome;
use super::routers::{both, planes, routers, test_files};
use crate::cli::{CommonArgs, PlaneChoice, SuiteFormat, VerifyArgs};
use crate::diagnostic::{rules, Diagnostic, Severity};
use crate::input;
use crate::model::DataPlane;
use crate::output::spool::Spool;
use crate::report::words::incomplete;
use crate::report::{findings, human, json, junit, markdown, MessageFormat, Reporter};
use crate::routing::router::Router;
use crate::routing::space::Limits;
use crate::routing::suite;
use crate::routing::verify::{self, Inputs};
use crate::routing::witness::emitted_tests;

pub(super) fn run(args: &VerifyArgs, inputs: &mut input::inputs::Inputs, reporter: &mut Reporter) -> Result<Outcome> {
    let started = std::time::Instant::now();
    let stdin_twice = [&args.tests, &args.against, &args.common.files]
        .iter()
        .filter(|paths| paths.iter().any(|p| p.as_os_str() == "-"))
        .count()
        > 1;
    if stdin_twice {
        bail!("stdin (`-`) can be given only once across -f, -t and --against");
    }
    // The test files and the routers are both read, whichever fails.
    let files = test_files(&args.tests, args.common.recursive, false, inputs);
    let rendered = render_planes(&args.common, args.data_plane, inputs, reporter);
    let (files, rendered) = both(reporter, files, rendered)?;
    let problems = suite::check(&files, &rendered, false);
    if !problems.is_empty() {
        return Err(suite::refusal(problems, "the RouterTest names what its routers do not have"));
    }
    let invariants: Vec<_> =
        files.iter().flat_map(|f| f.invariants.iter().map(|i| (f.router.clone(), i.clone()))).collect();
    let against = if args.against.is_empty() {
        None
    } else {
        let old = CommonArgs { files: args.against.clone(), ..args.common.clone() };
        let choice = if args.data_plane == PlaneChoice::Auto { PlaneChoice::Auto } else { args.data_plane };
        Some(render_planes(&old, choice, inputs, reporter).context("--against")?)
    };
    let b = args.budgets;
    let limits = Limits {
        model_states: b.max_states,
        model_steps: b.max_steps,
        cells: b.max_cells,
        decisions: b.max_decisions,
        deadline: std::time::Duration::try_from_secs_f64(b.timeout).ok().map(|t| started + t),
        heap: b.max_memory.saturating_mul(3 << 18),
    };
    let reports =
        verify::verify(&Inputs { planes: &rendered, against: against.as_deref(), invariants: &invariants, limits });
    // An unfinished search proves nothing: it fails the run unless asked
    // not to, and is reported in every format, `-q` or not.
    let incomplete_severity = if args.allow_incomplete { Severity::Warning } else { Severity::Error };
    for report in reports.iter().filter(|r| !r.complete) {
        let message = format!("{} ({}): {}", report.router, report.plane.label(), incomplete(report));
        let mut d = Diagnostic::new(incomplete_severity, rules::ROUTING_INCOMPLETE, message);
        d.place = report.origin.clone();
        if args.allow_incomplete {
            reporter.warn(d);
        } else {
            reporter.error(d);
        }
    }
    // People read the findings in the report; CI reads them as findings at
    // the field each is about, to annotate it (as `test` does its cases).
    if reporter.format() != MessageFormat::Human {
        findings::verify(&reports).into_iter().for_each(|d| reporter.finding(d));
    }
    if let Some(path) = &args.emit_tests {
        std::fs::write(path, emitted_tests(&reports))
            .with_context(|| format!("--emit-tests {}: cannot write the file", path.display()))?;
    }
    let body = match args.output {
        SuiteFormat::Text => reporter.fenced(human::verify(&reports, incomplete_severity)),
        SuiteFormat::Json => json::verify(&reports, incomplete_severity),
        SuiteFormat::Junit => junit::verify(&reports, incomplete_severity),
        SuiteFormat::Markdown => markdown::verify(&reports, &rendered, incomplete_severity, against.is_some()),
    };
    let mut out = Spool::new();
    std::io::Write::write_all(&mut out, body.as_bytes()).context("cannot spool output")?;
    let code = i32::from(reports.iter().any(|r| r.failed() || (!r.complete && incomplete_severity == Severity::Error)));
    Ok(Outcome { stdout: out, code, notes: String::new() })
}

/// The routers on each plane asked for. Left to their own plane, a
/// Gateway router is also rendered as a Proxy one, so the two planes can
/// be compared; when that cannot be done, a warning says so.
fn render_planes(
    common: &CommonArgs,
    choice: PlaneChoice,
    inputs: &mut input::inputs::Inputs,
    reporter: &mut Reporter,
) -> Result<Vec<Vec<Router>>> {
    let mut out: Vec<Vec<Router>> = Vec::new();
    for plane in planes(choice) {
        out.push(routers(common, plane, inputs, reporter)?);
    }
    let gateway: Vec<String> =
        out[0].iter().filter(|r| r.data_plane() == DataPlane::Gateway).map(|r| r.id.clone()).collect();
    if choice == PlaneChoice::Auto && !gateway.is_empty() {
        // Reported apart: a router the Proxy plane refuses is no reason to
        // stop verifying the Gateway plane.
        let mut sink = std::io::sink();
        let mut quiet = Reporter::collecting(&mut sink);
        match routers(common, Some(DataPlane::Proxy), inputs, &mut quiet) {
            Ok(proxies) => out.push(proxies.into_iter().filter(|r| gateway.contains(&r.id)).collect()),
            Err(e) => reporter.warn(Diagnostic::warning(
                rules::ROUTING_INCOMPLETE,
                format!("the Gateway routers' two planes are not compared: rendered as Proxy, {e:#}"),
            )),
        }
    }
    Ok(out)
}
