//! `routerctl verify -o markdown`: the verdict (which sensitive classes
//! leave the cluster, what else fails, what the change moves — what the
//! exit code says), then per router and plane its decision drawn (open
//! when it has a path out of the cluster to show in red, folded
//! otherwise), its findings (the sensitive classes that leave first), its
//! invariants and what the change moves (`--against`: drawn as a Sankey
//! diagram, then the table), the largest groups first; the cases that
//! show the findings (ready to paste under a RouterTest's `tests:`) and
//! the classes of requests folded.

use super::comment::{details, fence, row, table, written, Comment, Noun, DETAILS_END, ROUTER, TABLE_END};
use super::escape::cell;
use super::moves;
use crate::diagnostic::{rules, Severity};
use crate::kube::count::grouped;
use crate::report::mermaid::{change_flows, flowchart, sankey, Direction};
use crate::routing::router::Router;
use crate::routing::verify::{describe, Finding, RouterReport};
use crate::routing::witness::{case_flow, outcome};

const FINDING: Noun = Noun("finding", "findings");
const CASE: Noun = Noun("case", "cases");

/// Whether `r` fails the run.
fn fails(r: &RouterReport, incomplete: Severity) -> bool {
    r.failed() || (!r.complete && incomplete == Severity::Error)
}

/// The comment of `verify`'s reports on `routers` (one list per plane, as
/// verified: each report's router is drawn); `against` when a change was
/// verified (`--against`), so that a change that moves nothing says so.
pub fn verify(reports: &[RouterReport], routers: &[Vec<Router>], incomplete: Severity, against: bool) -> String {
    let mut sorted: Vec<&RouterReport> = reports.iter().collect();
    // The reports with the most errors first.
    let errors = |r: &RouterReport| r.findings.iter().filter(|f| f.diagnostic.severity == Severity::Error).count();
    sorted.sort_by_key(|r| std::cmp::Reverse(errors(r) + r.invariants.iter().filter(|i| !i.holds).count()));
    let drawn = |r: &RouterReport| routers.iter().flatten().find(|d| d.id == r.router && d.data_plane() == r.plane);
    written(&verdict(reports, incomplete, against), |comment| {
        for r in &sorted {
            router(comment, r, drawn(r));
        }
    })
}

fn verdict(reports: &[RouterReport], incomplete: Severity, against: bool) -> String {
    let mut ids: Vec<&str> = Vec::new();
    let mut failing: Vec<&str> = Vec::new();
    for r in reports {
        if !ids.contains(&r.router.as_str()) {
            ids.push(&r.router);
        }
        if fails(r, incomplete) && !failing.contains(&r.router.as_str()) {
            failing.push(&r.router);
        }
    }
    let findings = || reports.iter().flat_map(|r| &r.findings).map(|f| &f.diagnostic);
    let sensitive = findings().filter(|d| d.rule == rules::SENSITIVE_EGRESS).count() as u64;
    let mut other: Vec<&str> = Vec::new();
    let mut other_errors = 0;
    for d in findings().filter(|d| d.severity == Severity::Error && d.rule != rules::SENSITIVE_EGRESS) {
        other_errors += 1;
        if !other.contains(&d.rule.id) {
            other.push(d.rule.id);
        }
    }
    let warnings = findings().filter(|d| d.severity == Severity::Warning).count() as u64;
    let invariants = reports.iter().flat_map(|r| &r.invariants).filter(|i| !i.holds).count() as u64;
    let unfinished = reports.iter().filter(|r| !r.complete).count() as u64;
    let moved: usize = reports.iter().map(|r| r.changes.len()).sum();
    // What fails the run, then what else a reader should know.
    let mut failures = Vec::new();
    let mut notes = Vec::new();
    match sensitive {
        0 => {}
        1 => failures.push("1 sensitive class leaves the cluster".to_string()),
        n => failures.push(format!("{n} sensitive classes leave the cluster")),
    }
    if invariants > 0 {
        failures.push(format!(
            "{} {}",
            grouped(invariants, "invariant", "invariants"),
            if invariants == 1 { "fails" } else { "fail" }
        ));
    }
    if other_errors > 0 {
        failures.push(format!("{} ({})", grouped(other_errors, "more error", "more errors"), other.join(", ")));
    }
    if unfinished > 0 {
        let did_not = format!("the search of {} did not finish", grouped(unfinished, "router plane", "router planes"));
        match incomplete {
            Severity::Error => failures.push(did_not),
            _ => notes.push(format!("{did_not}, accepted (--allow-incomplete)")),
        }
    }
    if warnings > 0 {
        notes.push(grouped(warnings, "warning", "warnings"));
    }
    if against {
        notes.push(match moved {
            0 => "the change moves no request".to_string(),
            n => format!("the change moves {}", grouped(n as u64, "group of requests", "groups of requests")),
        });
    }
    let notes: String = notes.iter().map(|n| format!("; {n}")).collect();
    let routers = grouped(ids.len() as u64, "router", "routers");
    if failing.is_empty() {
        // An unfinished search proves nothing of the requests it did not reach.
        let reached = if unfinished > 0 { " in what the search reached" } else { "" };
        format!("✅ {routers} verified, no sensitive class leaves the cluster{reached}{notes}")
    } else {
        let fail = if failing.len() == 1 { "fails" } else { "fail" };
        format!("❌ {} of {routers} {fail} verify: {}{notes}", failing.len(), failures.join(", "))
    }
}

/// `at: file:line:col (field)`.
fn at(f: &Finding) -> String {
    let d = &f.diagnostic;
    match (&d.place, &d.field) {
        (Some(place), Some(field)) => format!("{place} ({field})"),
        (Some(place), None) => place.to_string(),
        (None, Some(field)) => field.clone(),
        (None, None) => String::new(),
    }
}

fn router(comment: &mut Comment, r: &RouterReport, drawn: Option<&Router>) {
    let search = if r.complete {
        "the search is complete".to_string()
    } else {
        format!("the search did not finish: {}", r.notes.join("; "))
    };
    let heading = format!(
        "### {} ({})\n\n{}; {}.\n\n",
        cell(&r.router),
        r.plane.label(),
        grouped(r.classes.len() as u64, "class of requests", "classes of requests"),
        cell(&search)
    );
    comment.block(&heading, ROUTER);
    if let Some(drawn) = drawn {
        let draw = || flowchart(drawn, &r.egress, Direction::TopDown);
        if r.egress.is_empty() {
            comment.diagram(&details("How it decides, drawn"), draw, DETAILS_END);
        } else {
            let caption = "How it decides; in red, the paths by which a sensitive class leaves the cluster:\n\n";
            comment.diagram(caption, draw, "");
        }
    }
    // Errors before warnings, the sensitive classes that leave first.
    let rank = |f: &&Finding| match (f.diagnostic.severity, f.diagnostic.rule == rules::SENSITIVE_EGRESS) {
        (Severity::Error, true) => 0,
        (Severity::Error, false) => 1,
        _ => 2,
    };
    let mut findings: Vec<&Finding> = r.findings.iter().collect();
    findings.sort_by_key(rank);
    let rows: Vec<String> = findings
        .iter()
        .map(|f| {
            let mark = if f.diagnostic.severity == Severity::Error { "❌" } else { "⚠️" };
            row(&[mark.to_string(), f.diagnostic.rule.id.to_string(), cell(&f.diagnostic.message), cell(&at(f))])
        })
        .collect();
    comment.items(&format!("#### Findings\n\n{}", table(&["", "Check", "Finding", "At"])), &rows, TABLE_END, FINDING);
    let rows: Vec<String> = r
        .invariants
        .iter()
        .map(|i| {
            let (holds, why) = match &i.failure {
                None => ("✅ holds", String::new()),
                Some((why, _)) => ("❌ fails", cell(why)),
            };
            row(&[cell(&i.name), holds.to_string(), cell(&i.at.to_string()), why])
        })
        .collect();
    let opening = format!("#### Invariants\n\n{}", table(&["Invariant", "Result", "At", "Why"]));
    comment.items(&opening, &rows, TABLE_END, Noun("invariant", "invariants"));
    if !r.changes.is_empty() {
        comment.block("#### What the change moves\n\n", moves::MOVE);
        // A move that happens only with backends down is listed, not drawn.
        let flows = change_flows(&r.changes, r.cells);
        if flows.iter().any(|f| f.share > 0.0) {
            let caption = "Each band as wide as its share of the request space, every backend up:\n\n";
            comment.diagram(caption, || sankey(&flows), "");
        }
        moves::table_of(comment, &r.changes);
    }
    let cases: Vec<String> = findings
        .iter()
        .map(|f| &f.case)
        .chain(r.invariants.iter().filter_map(|i| i.failure.as_ref().map(|(_, case)| case)))
        .map(|c| format!("- {}\n", case_flow(c)))
        .collect();
    let (open, close) = fence("yaml", &cases);
    let summary = format!(
        "{} that show them, to paste under a RouterTest's tests:",
        grouped(cases.len() as u64, "case", "cases")
    );
    comment.items(&format!("{}{open}", details(&summary)), &cases, &format!("{close}\n{DETAILS_END}"), CASE);
    let classes: Vec<String> =
        r.classes.iter().map(|c| row(&[cell(&describe(&c.request)), cell(&outcome(&c.decision))])).collect();
    let opening = format!(
        "{}{}",
        details(&grouped(classes.len() as u64, "class of requests", "classes of requests")),
        table(&["Requests (one of each class)", "Route → backends"])
    );
    comment.items(&opening, &classes, &format!("{TABLE_END}{DETAILS_END}"), Noun("class", "classes"));
}
