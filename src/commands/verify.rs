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
use crate::output::yaml::double_quoted;
use crate::report::{MessageFormat, Reporter};
use crate::routing::router::Router;
use crate::routing::space::Limits;
use crate::routing::verify::{self, decision_json, describe, request_json, Inputs, RouterReport};
use crate::routing::witness::{case_flow, case_json, emitted_tests, outcome};

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
        let message = format!("{} ({}): {}", report.router, report.plane.label(), incomplete_message(report));
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
        for report in &reports {
            for f in &report.findings {
                let mut d = f.diagnostic.clone();
                d.context = Some(format!("{} ({})", report.router, report.plane.label()));
                if d.severity == Severity::Error {
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
        SuiteFormat::Text => fenced(text_report(&reports, incomplete_severity), reporter.format()),
        SuiteFormat::Json => {
            serde_json::to_string_pretty(&json_report(&reports, incomplete_severity)).unwrap_or_default() + "\n"
        }
        SuiteFormat::Junit => super::junit::verify_report(&reports, incomplete_severity),
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

/// Why a report is not complete, and what to do about it.
fn incomplete_message(report: &RouterReport) -> String {
    if report.self_check.mismatched > 0 {
        return format!(
            "the proof is not sound, so nothing is proved: {}; the case of each such request shows what `routerctl \
             test` decides",
            report.notes.join("; ")
        );
    }
    format!(
        "the search did not finish, so nothing is proved of the requests it did not reach: {}; raise the budget \
         named (see `routerctl verify --help`), or pass --allow-incomplete to accept a partial answer",
        report.notes.join("; ")
    )
}

/// The self-check in the JSON contract: what it decided, and each
/// request decided unlike its cell.
fn self_check_json(c: &verify::SelfCheck) -> Value {
    let mismatches: Vec<Value> = c
        .mismatches
        .iter()
        .map(|m| {
            json!({
                "kind": m.kind.label(),
                "request": request_json(&m.request),
                "unhealthy": m.unhealthy,
                "cell": m.cell.as_ref().map(|(r, _)| request_json(r)),
                "proved": m.cell.as_ref().map(|(_, d)| decision_json(d)),
                "decided": decision_json(&m.decided),
                "message": m.why,
                "case": case_json(&m.case),
            })
        })
        .collect();
    json!({"ran": c.ran, "requests": c.requests, "unreceived": c.unreceived, "decisions": c.decisions,
        "healthStates": c.health, "mismatched": c.mismatched, "mismatches": mismatches})
}

/// The JSON contract (docs/verify.md: `verify -o json`).
fn json_report(reports: &[RouterReport], incomplete: Severity) -> Value {
    let routers: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "router": r.router,
                "plane": r.plane.label(),
                "complete": r.complete,
                "notes": r.notes,
                "search": {"states": r.states, "cells": r.cells},
                "selfCheck": self_check_json(&r.self_check),
                "classes": r.classes.iter().map(|c| json!({"request": request_json(&c.request), "decision": decision_json(&c.decision)})).collect::<Vec<_>>(),
                "unreachableRules": r.unreachable,
                "findings": (!r.complete)
                    .then(|| json!({"rule": rules::ROUTING_INCOMPLETE.id, "severity": incomplete.as_str(),
                        "message": incomplete_message(r), "at": r.origin.as_ref().map(ToString::to_string)}))
                    .into_iter()
                    .chain(r.findings.iter().map(|f| {
                        let d = &f.diagnostic;
                        json!({"rule": d.rule.id, "severity": d.severity.as_str(), "message": d.message,
                            "field": d.field, "at": d.place.as_ref().map(ToString::to_string), "case": case_json(&f.case)})
                    }))
                    .collect::<Vec<_>>(),
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

fn text_report(reports: &[RouterReport], incomplete: Severity) -> String {
    let mut out = String::new();
    for r in reports {
        let complete = if r.complete { "complete" } else { "INCOMPLETE" };
        let _ =
            writeln!(out, "{} ({}): {} classes of requests, {complete}", r.router, r.plane.label(), r.classes.len());
        for c in &r.classes {
            let _ = writeln!(out, "  {} → {}", describe(&c.request), outcome(&c.decision));
        }
        if !r.complete {
            let _ =
                writeln!(out, "  {} {}: {}", incomplete.as_str(), rules::ROUTING_INCOMPLETE.id, incomplete_message(r));
            // The requests the proof gets wrong, ready to paste.
            for m in &r.self_check.mismatches {
                let _ = writeln!(out, "    case: {}", case_flow(&m.case));
            }
        }
        for f in &r.findings {
            let d = &f.diagnostic;
            let _ = writeln!(out, "  {} {}: {}", d.severity.as_str(), d.rule.id, d.message);
            match (&d.place, &d.field) {
                (Some(place), Some(field)) => {
                    let _ = writeln!(out, "    at: {place} ({field})");
                }
                (Some(place), None) => {
                    let _ = writeln!(out, "    at: {place}");
                }
                _ => {}
            }
            let _ = writeln!(out, "    case: {}", case_flow(&f.case));
        }
        for i in &r.invariants {
            match &i.failure {
                None => {
                    let _ = writeln!(out, "  invariant {} holds", double_quoted(&i.name));
                }
                Some((why, case)) => {
                    let _ = writeln!(out, "  invariant {} FAILS ({}): {why}", double_quoted(&i.name), i.at);
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
