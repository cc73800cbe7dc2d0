//! `routerctl test -o markdown`: the verdict (how many cases fail, whether
//! coverage is under `--min-coverage`, skipped cases under `--strict` —
//! what the exit code says), then per router a table of its planes (cases,
//! passes, failures, skips, coverage) and a table of the cases that fail,
//! what each expects against what the router does, with how the router
//! decides drawn and folded for each plane that fails a case (the rules in
//! order show why the actual decision is taken; a run that passes has
//! nothing to explain, and draws nothing); the skipped cases and those the
//! two planes decide apart folded.

use super::comment::{details, row, table, written, Comment, Noun, DETAILS_END, ROUTER, TABLE_END};
use super::escape::cell;
use crate::kube::count::{grouped, thousands};
use crate::report::mermaid::{flowchart, Direction};
use crate::report::words::decided;
use crate::routing::suite::{Coverage, Expect, Ran, SuiteRun};
use crate::routing::verify::describe;
use crate::routing::{Decision, Request};

const CASE: Noun = Noun("case", "cases");

/// What `test` was asked beyond its cases: what decides its exit code.
#[derive(Debug, Clone, Copy, Default)]
pub struct Asked {
    /// `--coverage` or `--min-coverage`: each plane's coverage is shown.
    pub coverage: bool,
    pub min_coverage: Option<u8>,
    /// `--strict`: a skipped case fails the run.
    pub strict: bool,
}

/// The comment of a suite's run.
pub fn test(run: &SuiteRun, asked: Asked) -> String {
    let judged = run.ran.iter().filter(|r| r.judged).count() as u64;
    let failed = run.failed() as u64;
    let below: Vec<&Coverage> = match asked.min_coverage {
        Some(min) => run.coverage.iter().filter(|c| c.percent() < f64::from(min)).collect(),
        None => Vec::new(),
    };
    let strict_skips = asked.strict && !run.skipped.is_empty();
    let routers = router_ids(run);
    let on = grouped(routers.len() as u64, "router", "routers");
    let skipped = if run.skipped.is_empty() { String::new() } else { format!(", {} skipped", run.skipped.len()) };
    let verdict = if failed == 0 && below.is_empty() && !strict_skips {
        format!(
            "✅ {} {} on {on}{skipped}",
            grouped(judged, "case", "cases"),
            if judged == 1 { "passes" } else { "pass" }
        )
    } else {
        let mut parts = Vec::new();
        if failed > 0 {
            let fail = if failed == 1 { "fails" } else { "fail" };
            parts.push(format!("{} of {} {fail}", thousands(failed), grouped(judged, "case", "cases")));
        }
        if let Some(min) = asked.min_coverage.filter(|_| !below.is_empty()) {
            parts.push(format!(
                "coverage under {min}% on {}",
                grouped(below.len() as u64, "router plane", "router planes")
            ));
        }
        if strict_skips {
            parts.push(format!("{} skipped (--strict)", grouped(run.skipped.len() as u64, "case", "cases")));
        }
        let skipped = if strict_skips { "" } else { &skipped };
        format!("❌ {} on {on}{skipped}", parts.join(", "))
    };
    // The routers with the most failures first.
    let mut sorted: Vec<(&str, usize)> =
        routers.iter().map(|id| (*id, run.ran.iter().filter(|r| r.router.id == *id && r.failed()).count())).collect();
    sorted.sort_by_key(|(_, failures)| std::cmp::Reverse(*failures));
    written(&verdict, |comment| {
        for (id, _) in &sorted {
            router(comment, run, id, asked);
        }
    })
}

/// The routers of the run, in the order first met.
fn router_ids<'r>(run: &'r SuiteRun) -> Vec<&'r str> {
    let mut out: Vec<&str> = Vec::new();
    let all = run
        .ran
        .iter()
        .map(|r| r.router.id.as_str())
        .chain(run.skipped.iter().map(|s| s.router.as_str()))
        .chain(run.coverage.iter().map(|c| c.router.as_str()));
    for id in all {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

fn router(comment: &mut Comment, run: &SuiteRun, id: &str, asked: Asked) {
    comment.block(&format!("### {}\n\n", cell(id)), ROUTER);
    let mut planes: Vec<&str> = Vec::new();
    let ran = run.ran.iter().filter(|r| r.router.id == id);
    let labels = ran
        .clone()
        .map(|r| r.router.data_plane().label())
        .chain(run.skipped.iter().filter(|s| s.router == id).map(|s| s.plane.label()))
        .chain(run.coverage.iter().filter(|c| c.router == id).map(|c| c.plane.label()));
    for label in labels {
        if !planes.contains(&label) {
            planes.push(label);
        }
    }
    let mut columns = vec!["Plane", "Cases", "Pass", "Fail", "Skipped"];
    if asked.coverage {
        columns.push("Coverage");
    }
    let rows: Vec<String> = planes
        .iter()
        .map(|plane| {
            let judged: Vec<&Ran> =
                ran.clone().filter(|r| r.judged && r.router.data_plane().label() == *plane).collect();
            let failed = judged.iter().filter(|r| r.failed()).count();
            let skipped = run.skipped.iter().filter(|s| s.router == id && s.plane.label() == *plane).count();
            let mut cells = vec![
                plane.to_string(),
                thousands(judged.len() as u64),
                thousands((judged.len() - failed) as u64),
                thousands(failed as u64),
                thousands(skipped as u64),
            ];
            if asked.coverage {
                let coverage = run.coverage.iter().find(|c| c.router == id && c.plane.label() == *plane);
                cells.push(coverage.map_or_else(|| "none".to_string(), |c| cell(&coverage_text(c))));
            }
            row(&cells)
        })
        .collect();
    comment.items(&table(&columns), &rows, TABLE_END, Noun("plane", "planes"));
    let failures: Vec<String> = ran
        .clone()
        .filter(|r| r.failed())
        .map(|r| {
            row(&[
                cell(&r.case.name),
                cell(&r.case.at.to_string()),
                r.router.data_plane().label().to_string(),
                cell(&request(&r.case.request, &r.case.unhealthy)),
                cell(&expected(&r.case.expect)),
                cell(&actual(&r.decision)),
            ])
        })
        .collect();
    let columns = ["Failing case", "At", "Plane", "Request", "Expected", "Actual"];
    comment.items(&table(&columns), &failures, TABLE_END, CASE);
    // Each plane's router once, in the order its failures are listed.
    let mut failing: Vec<&Ran> = Vec::new();
    for r in ran.clone().filter(|r| r.failed()) {
        if !failing.iter().any(|f| f.router.data_plane() == r.router.data_plane()) {
            failing.push(r);
        }
    }
    for r in failing {
        let summary = details(&format!("How it decides on the {} plane, drawn", r.router.data_plane().label()));
        comment.diagram(&summary, || flowchart(r.router, &[], Direction::TopDown), DETAILS_END);
    }
    let skipped: Vec<String> = run
        .skipped
        .iter()
        .filter(|s| s.router == id)
        .map(|s| row(&[cell(&s.case.name), cell(&s.case.at.to_string()), s.plane.label().to_string()]))
        .collect();
    let opening = format!(
        "{}{}",
        details(&format!(
            "{} skipped: judged on a data plane this run did not render",
            grouped(skipped.len() as u64, "case", "cases")
        )),
        table(&["Case", "At", "Judged on"])
    );
    comment.items(&opening, &skipped, &format!("{TABLE_END}{DETAILS_END}"), CASE);
    let apart: Vec<String> = run
        .disagreements
        .iter()
        .map(|&(p, g)| (&run.ran[p], &run.ran[g]))
        .filter(|(p, _)| p.router.id == id)
        .map(|(p, g)| {
            row(&[
                cell(&p.case.name),
                cell(&p.case.at.to_string()),
                cell(&decided(&p.decision)),
                cell(&decided(&g.decision)),
            ])
        })
        .collect();
    let opening = format!(
        "{}{}",
        details(&format!("{} the two data planes decide apart", grouped(apart.len() as u64, "case", "cases"))),
        table(&["Case", "At", "Proxy", "Gateway"])
    );
    comment.items(&opening, &apart, &format!("{TABLE_END}{DETAILS_END}"), CASE);
}

/// `80% of 5 routes; no case reaches a, b`.
fn coverage_text(c: &Coverage) -> String {
    let missed = c.missed();
    let mut text = format!("{:.0}% of {}", c.percent(), grouped(c.routes.len() as u64, "route", "routes"));
    if c.reached.is_empty() {
        text.push_str("; no case for this router");
    } else if !missed.is_empty() {
        text.push_str(&format!("; no case reaches {}", missed.join(", ")));
    }
    text
}

/// `model "m", h: v with a down`.
fn request(request: &Request, unhealthy: &[String]) -> String {
    match unhealthy {
        [] => describe(request),
        down => format!("{} with {} down", describe(request), down.join(", ")),
    }
}

/// What a case expects, as its fields say: `rule r, backends [a, b]`.
fn expected(e: &Expect) -> String {
    let mut parts = Vec::new();
    if let Some(rule) = &e.rule {
        parts.push(format!("rule {rule}"));
    }
    if let Some(backends) = &e.backends {
        parts.push(format!("backends [{}]", backends.join(", ")));
    }
    if let Some(strategy) = &e.strategy {
        parts.push(format!("strategy {strategy}"));
    }
    if let Some(status) = e.status {
        parts.push(format!("status {status}"));
    }
    if parts.is_empty() {
        "nothing".to_string()
    } else {
        parts.join(", ")
    }
}

/// What the router does, in the words of [`expected`].
fn actual(d: &Decision) -> String {
    match d.status {
        Some(status) => format!("rule {}, status {status}", d.matched.label()),
        None => {
            format!("rule {}, backends [{}], strategy {}", d.matched.label(), d.backends().join(", "), d.strategy)
        }
    }
}
