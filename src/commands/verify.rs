//! `routerctl verify`: arguments in, `routing::verify` run over the
//! routers rendered (and the ones before the change), a report out — text
//! or the JSON contract scripts read — and the cases of every class
//! written with `--emit-tests`.

use std::fmt::Write as _;

use anyhow::{bail, Context as _, Result};
use serde_json::{json, Value};

use super::outcome::{fenced, Outcome};
use super::routers::{planes, routers, test_files};
use crate::cli::{CommonArgs, PlaneChoice, SuiteFormat, VerifyArgs};
use crate::diagnostic::{rules, Diagnostic, Severity};
use crate::input;
use crate::model::DataPlane;
use crate::output::spool::Spool;
use crate::report::{MessageFormat, Reporter};
use crate::routing::router::Router;
use crate::routing::space::Limits;
use crate::routing::verify::{self, decision_json, describe, request_json, Inputs, RouterReport};
use crate::routing::witness::{case_flow, case_json, emitted_tests, outcome};

pub(super) fn run(args: &VerifyArgs, inputs: &mut input::inputs::Inputs, reporter: &mut Reporter) -> Result<Outcome> {
    let stdin_twice = [&args.tests, &args.against, &args.common.files]
        .iter()
        .filter(|paths| paths.iter().any(|p| p.as_os_str() == "-"))
        .count()
        > 1;
    if stdin_twice {
        bail!("stdin (`-`) can be given only once across -f, -t and --against");
    }
    let files = test_files(&args.tests, args.common.recursive, false, inputs)?;
    let invariants: Vec<_> =
        files.iter().flat_map(|f| f.invariants.iter().map(|i| (f.router.clone(), i.clone()))).collect();
    let rendered = render_planes(&args.common, args.data_plane, inputs, reporter)?;
    let against = if args.against.is_empty() {
        None
    } else {
        let old = CommonArgs { files: args.against.clone(), ..args.common.clone() };
        let choice = if args.data_plane == PlaneChoice::Auto { PlaneChoice::Auto } else { args.data_plane };
        Some(render_planes(&old, choice, inputs, reporter).context("--against")?)
    };
    let reports = verify::verify(&Inputs {
        planes: &rendered,
        against: against.as_deref(),
        invariants: &invariants,
        limits: Limits::default(),
    });
    for report in reports.iter().filter(|r| !r.complete) {
        reporter.warn(Diagnostic::warning(
            rules::ROUTING_INCOMPLETE,
            format!("{} ({}): {}", report.router, report.plane.label(), report.notes.join("; ")),
        ));
    }
    // People read the findings in the report; CI reads them as findings at
    // their router's document, to annotate it (as `test` does its cases).
    if reporter.format() != MessageFormat::Human {
        for report in &reports {
            for f in &report.findings {
                let message = format!("{} ({}): {}", report.router, report.plane.label(), f.message);
                let mut d = match f.severity {
                    Severity::Error => Diagnostic::error(f.rule, message),
                    _ => Diagnostic::warning(f.rule, message),
                };
                if let Some(place) = &report.origin {
                    d = d.at(place.clone());
                }
                if f.severity == Severity::Error {
                    reporter.error(d);
                } else {
                    reporter.warn(d);
                }
            }
            for invariant in &report.invariants {
                if let Some((why, _)) = &invariant.failure {
                    let message =
                        format!("{} ({}): invariant {:?}: {why}", report.router, report.plane.label(), invariant.name);
                    reporter.error(Diagnostic::error(rules::INVARIANT, message).at(invariant.at.clone()));
                }
            }
        }
    }
    if let Some(path) = &args.emit_tests {
        std::fs::write(path, emitted_tests(&reports))
            .with_context(|| format!("--emit-tests {}: cannot write the file", path.display()))?;
    }
    let body = match args.output {
        SuiteFormat::Text => fenced(text_report(&reports), reporter.format()),
        SuiteFormat::Json => serde_json::to_string_pretty(&json_report(&reports)).unwrap_or_default() + "\n",
        SuiteFormat::Junit => super::junit::verify_report(&reports),
    };
    let mut out = Spool::new();
    std::io::Write::write_all(&mut out, body.as_bytes()).context("cannot spool output")?;
    let code = i32::from(reports.iter().any(RouterReport::failed));
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

/// The JSON contract (docs/verify.md: `verify -o json`).
fn json_report(reports: &[RouterReport]) -> Value {
    let routers: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "router": r.router,
                "plane": r.plane.label(),
                "complete": r.complete,
                "notes": r.notes,
                "classes": r.classes.iter().map(|c| json!({"request": request_json(&c.request), "decision": decision_json(&c.decision)})).collect::<Vec<_>>(),
                "unreachableRules": r.unreachable,
                "findings": r.findings.iter().map(|f| json!({"rule": f.rule.id, "severity": f.severity.as_str(), "message": f.message, "case": case_json(&f.case)})).collect::<Vec<_>>(),
                "invariants": r.invariants.iter().map(|i| {
                    let mut v = json!({"name": i.name, "at": i.at.to_string(), "holds": i.holds});
                    if let Some((why, case)) = &i.failure {
                        v["message"] = json!(why);
                        v["case"] = case_json(case);
                    }
                    v
                }).collect::<Vec<_>>(),
                "changes": r.changes.iter().map(|c| json!({
                    "request": request_json(&c.request),
                    "unhealthy": c.unhealthy,
                    "before": decision_json(&c.before),
                    "after": decision_json(&c.after),
                    "case": case_json(&c.case),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "routers": routers })
}

fn text_report(reports: &[RouterReport]) -> String {
    let mut out = String::new();
    for r in reports {
        let complete = if r.complete { "complete" } else { "INCOMPLETE" };
        let _ =
            writeln!(out, "{} ({}): {} classes of requests, {complete}", r.router, r.plane.label(), r.classes.len());
        for c in &r.classes {
            let _ = writeln!(out, "  {} → {}", describe(&c.request), outcome(&c.decision));
        }
        for f in &r.findings {
            let _ = writeln!(out, "  {} {}: {}", f.severity.as_str(), f.rule.id, f.message);
            let _ = writeln!(out, "    case: {}", case_flow(&f.case));
        }
        for i in &r.invariants {
            match &i.failure {
                None => {
                    let _ = writeln!(out, "  invariant {:?} holds", i.name);
                }
                Some((why, case)) => {
                    let _ = writeln!(out, "  invariant {:?} FAILS ({}): {why}", i.name, i.at);
                    let _ = writeln!(out, "    case: {}", case_flow(case));
                }
            }
        }
        for c in &r.changes {
            let down =
                if c.unhealthy.is_empty() { String::new() } else { format!(" with {} down", c.unhealthy.join(", ")) };
            let _ = writeln!(
                out,
                "  moved: {}{down}: {} before, {} after ({} cells)",
                describe(&c.request),
                outcome(&c.before),
                outcome(&c.after),
                c.cells
            );
        }
    }
    out
}
