//! The text people read: a finding on stderr (`--message-format human`),
//! and the reports of `-o text` on stdout — `test`'s cases, `verify`'s
//! classes and findings, `replay`'s groups with a bar each, `route`'s rules
//! tried, `diff`'s plan line per router. In the `github` format the
//! command fences the report from the runner's workflow commands
//! (`Reporter::fenced`).

use std::fmt::Write as _;

use super::results::{RouterDiff, SkippedLines};
use super::words::{decided, dispatched, incomplete, logged_request, percent, share};
use crate::diagnostic::{rules, Diagnostic, Severity};
use crate::kube::count::{count, grouped, thousands};
use crate::kube::shown::one_line;
use crate::output::yaml::{double_quoted, inline_text};
use crate::routing::replay::{Groups, Report};
use crate::routing::router::{Plane, Router};
use crate::routing::suite::{Ran, SuiteRun};
use crate::routing::verify::{describe, Change, RouterReport};
use crate::routing::witness::{case_flow, outcome};
use crate::routing::{verify, Decision, Request};

/// One finding as `human` writes it: `severity: text` (a note as
/// `routerctl: text`); kubectl's lines under `kubectl said (…):`, indented;
/// the external diff program's stderr as it wrote it.
pub fn finding(d: &Diagnostic) -> String {
    if d.severity == Severity::Note && d.rule == rules::EXTERNAL {
        return format!("{}\n", d.message);
    }
    if d.severity == Severity::Note && d.rule == rules::KUBECTL {
        if let Some(context) = &d.context {
            let lines: String = d.message.lines().map(|l| format!("  {l}\n")).collect();
            return format!("{context}:\n{lines}");
        }
    }
    match d.severity {
        Severity::Note => format!("routerctl: {d}\n"),
        severity => format!("{}: {d}\n", severity.as_str()),
    }
}

/// `routerctl test`: per router and plane, how many cases pass, then each
/// failure and skip; the cases the two planes decide apart; and, when
/// asked, each router's coverage.
pub fn test(run: &SuiteRun, show_coverage: bool) -> String {
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
                decided(&r.decision)
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
            decided(&p.decision),
            decided(&g.decision)
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

/// `routerctl verify`: per router and plane, every class of requests and
/// where it goes, the findings with the case that shows each, the
/// invariants, and what a change moves.
pub fn verify(reports: &[RouterReport], incomplete_severity: Severity) -> String {
    let mut out = String::new();
    for r in reports {
        let complete = if r.complete { "complete" } else { "INCOMPLETE" };
        let classes = count(r.classes.len(), "class of requests", "classes of requests");
        let _ = writeln!(out, "{} ({}): {classes}, {complete}", r.router, r.plane.label());
        for c in &r.classes {
            let _ = writeln!(out, "  {} → {}", describe(&c.request), outcome(&c.decision));
        }
        if !r.complete {
            let _ =
                writeln!(out, "  {} {}: {}", incomplete_severity.as_str(), rules::ROUTING_INCOMPLETE.id, incomplete(r));
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
            let _ = writeln!(
                out,
                "  moved: {}{}: {} before, {} after ({})",
                describe(&c.request),
                down(&c.unhealthy),
                outcome(&c.before),
                outcome(&c.after),
                count(c.cells, "cell", "cells")
            );
        }
    }
    out
}

/// ` with a, b down`, or nothing when every backend is up.
fn down(unhealthy: &[String]) -> String {
    if unhealthy.is_empty() {
        String::new()
    } else {
        format!(" with {} down", unhealthy.join(", "))
    }
}

/// `routerctl replay`: what was replayed and skipped, the undetermined
/// requests, then each section's groups, the `top` largest with a bar.
pub fn replay(report: &Report, skipped: &SkippedLines, top: usize) -> String {
    let mut out = String::new();
    let against = if report.against.is_some() { ", against the router before the change" } else { "" };
    let _ = writeln!(
        out,
        "{} (proxy plane{against}): {} replayed, {} distinct; {} skipped",
        report.router,
        grouped(report.requests, "request", "requests"),
        thousands(report.distinct as u64),
        grouped(skipped.total(), "line", "lines")
    );
    if skipped.total() > 0 {
        let _ = writeln!(
            out,
            "  skipped: {}, {}, {} without what the proxy writes",
            grouped(skipped.other, "other log message", "other log messages"),
            grouped(skipped.not_log, "not slog line", "not slog lines"),
            grouped(skipped.malformed, "router.dispatch line", "router.dispatch lines")
        );
    }
    let u = &report.undetermined;
    if u.count > 0 {
        let _ = writeln!(
            out,
            "\nundetermined: {} ({}): rules {} decide by headers, which the log does not hold",
            grouped(u.count, "request", "requests"),
            percent(share(u.count, report.requests)),
            u.rules.join(", ")
        );
        for e in &u.examples {
            let _ = writeln!(out, "  e.g. {}  {}", e.line, logged_request(e));
        }
    }
    match &report.differs {
        Some(groups) => section(&mut out, "differs from the log", groups, ("logged", "now"), report.requests, top),
        None => {
            let _ = writeln!(out, "\ndiffers from the log: not known (the counts record no decision)");
        }
    }
    if let Some(groups) = &report.moved {
        section(&mut out, "moved by the change", groups, ("before", "after"), report.requests, top);
    }
    if let Some(groups) = &report.drift {
        section(
            &mut out,
            "drift (the log against the router before)",
            groups,
            ("logged", "before"),
            report.requests,
            top,
        );
    }
    let title = "sensitive egress (sensitive requests the router sends out of the cluster)";
    section(&mut out, title, &report.sensitive_egress, ("logged", "now"), report.requests, top);
    out
}

fn section(out: &mut String, title: &str, groups: &Groups, (was, is): (&str, &str), requests: u64, top: usize) {
    let n = groups.groups.len();
    if n == 0 {
        let _ = writeln!(out, "\n{title}: none");
        return;
    }
    let _ = writeln!(
        out,
        "\n{title}: {} ({}) in {}",
        grouped(groups.count, "request", "requests"),
        percent(share(groups.count, requests)),
        grouped(n as u64, "group", "groups")
    );
    let width = was.len().max(is.len());
    for g in groups.groups.iter().take(top) {
        let _ =
            writeln!(out, "  {} {:>7}  {}", bar(g.share), percent(g.share), grouped(g.count, "request", "requests"));
        let _ = writeln!(out, "      {was:<width$}  {}", dispatched(&g.before));
        let _ = writeln!(out, "      {is:<width$}  {}", dispatched(&g.after));
        for e in &g.examples {
            let _ = writeln!(out, "      {:<width$}  {}  {}", "e.g.", e.line, logged_request(e));
        }
    }
    if n > top {
        let rest: u64 = groups.groups[top..].iter().map(|g| g.count).sum();
        let _ = writeln!(
            out,
            "  … and {} more {} ({}; -o json lists them all, or --top)",
            thousands((n - top) as u64),
            if n - top == 1 { "group" } else { "groups" },
            grouped(rest, "request", "requests")
        );
    }
}

/// A share of every request as a bar of 20 cells, in eighths.
fn bar(share: f64) -> String {
    const CELLS: usize = 20;
    const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    let eighths = (share.clamp(0.0, 1.0) * (CELLS * 8) as f64).round() as usize;
    // A group is never drawn as nothing.
    let eighths = eighths.max(usize::from(share > 0.0));
    let mut out = "█".repeat(eighths / 8);
    out.push_str(PARTS[eighths % 8]);
    let drawn = eighths.div_ceil(8);
    out.push_str(&"·".repeat(CELLS - drawn.min(CELLS)));
    out
}

/// `routerctl route`: one request on one router, every rule tried and why
/// it matches or not, and where the request goes.
pub fn route(target: &Router, request: &Request, unhealthy: &[String], d: &Decision) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({} plane)", target.id, target.data_plane().label());
    let mut asked = vec![format!("model {}", request.model.as_deref().map_or("(none)".to_string(), double_quoted))];
    asked.extend(request.headers.iter().map(|(k, v)| format!("{}: {}", inline_text(k), inline_text(v))));
    let _ = writeln!(out, "  request: {}", asked.join(", "));
    if !unhealthy.is_empty() {
        let _ = writeln!(out, "  down: {}", unhealthy.join(", "));
    }
    if matches!(target.plane, Plane::Gateway { .. }) && !d.trials.is_empty() {
        let _ =
            writeln!(out, "  route rules, by Gateway API precedence (the most header matches first, then rule order):");
    }
    for t in &d.trials {
        match &t.failed {
            None => {
                let _ = writeln!(out, "  {}: matches", t.rule);
            }
            Some(why) => {
                let _ = writeln!(out, "  {}: no — {}", t.rule, one_line(why));
            }
        }
    }
    let _ = writeln!(out, "  → {}", d.matched);
    match d.status {
        Some(status) => {
            let reason = one_line(d.reason.as_deref().unwrap_or(""));
            let _ = writeln!(out, "  → answered by the data plane: {status} ({reason})");
        }
        None => {
            let backends: Vec<String> = d
                .candidates
                .iter()
                .map(|(name, weight)| match weight {
                    Some(w) => format!("{name} (weight {w})"),
                    None => name.clone(),
                })
                .collect();
            let strategy = match (&target.plane, d.strategy.as_str()) {
                (_, "") => String::new(),
                // Upstream's proxy reads neither: the route is tried in order.
                (Plane::Proxy(_), "weighted" | "shadow") => {
                    format!(" ({}: a label only, the proxy tries the route in order)", d.strategy)
                }
                (_, strategy) => format!(" ({strategy})"),
            };
            let _ = writeln!(out, "  → backends in dispatch order{strategy}: {}", backends.join(", then "));
            // A note on the dispatch (Envoy's panic threshold).
            if let Some(reason) = &d.reason {
                let _ = writeln!(out, "    ({reason})");
            }
        }
    }
    out
}

/// `ml/coding-router: Deployment update (rolls pods), ConfigMap update,
/// Service unchanged`: a router's plan as the line that closes a diff.
pub fn plan(d: &RouterDiff) -> String {
    format!("{}/{}: {}", d.plan.namespace, d.plan.name, plan_changes(d))
}

/// The plan without the router's name (the `plan` note of the machine
/// formats, placed at the router): what applying does to each object, the
/// Deployment first as the object whose change matters most, the others in
/// the operator's order; then the requests a new config.json moves, a
/// line each.
pub fn plan_changes(d: &RouterDiff) -> String {
    let p = &d.plan;
    let deployment_first =
        p.objects.iter().filter(|o| o.kind == "Deployment").chain(p.objects.iter().filter(|o| o.kind != "Deployment"));
    let parts: Vec<String> = deployment_first
        .map(|o| {
            let rolls = match (o.kind == "Deployment" && p.rolls_pods, p.roll_reasons.is_empty()) {
                (false, _) => String::new(),
                (true, true) => " (rolls pods)".to_string(),
                (true, false) => format!(" (rolls pods: {})", p.roll_reasons.join(", ")),
            };
            format!("{} {}{rolls}", o.kind, o.action.as_str())
        })
        .collect();
    let mut line = parts.join(", ");
    for c in &d.moves {
        line.push_str("\n  ");
        line.push_str(&moved(c));
    }
    if !d.moves_complete {
        line.push_str(
            "\n  requests moved: the search stopped at its budget; routerctl verify --against says which classes it \
             covered",
        );
    }
    line
}

/// `requests moved: model "gpt-x": gpt-to-cloud → [cloud-opus], was
/// default → [local-qwen]`.
fn moved(c: &Change) -> String {
    format!(
        "requests moved: {}{}: {} → {}, was {} → {}",
        describe(&c.request),
        down(&c.unhealthy),
        c.after.matched.label(),
        verify::outcome(&c.after),
        c.before.matched.label(),
        verify::outcome(&c.before),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::plan::{Action, ObjectPlan, RouterPlan};

    #[test]
    fn bars_are_drawn_in_eighths_of_a_cell() {
        assert_eq!(bar(1.0), "█".repeat(20));
        assert_eq!(bar(0.5), format!("{}{}", "█".repeat(10), "·".repeat(10)));
        // 3% of 160 eighths is 4.8, drawn as 5 eighths.
        assert_eq!(bar(0.03), format!("▋{}", "·".repeat(19)));
        assert_eq!(bar(0.000_001), format!("▏{}", "·".repeat(19)), "never nothing");
        assert_eq!(bar(0.0), "·".repeat(20));
    }

    fn diff(objects: &[(&str, Action)], rolls: &[&str]) -> RouterDiff {
        let objects = objects.iter().map(|(kind, action)| ObjectPlan {
            kind: kind.to_string(),
            name: "r".into(),
            action: *action,
        });
        RouterDiff {
            plan: RouterPlan {
                namespace: "ns".into(),
                name: "r".into(),
                rolls_pods: !rolls.is_empty(),
                roll_reasons: rolls.iter().map(|r| r.to_string()).collect(),
                objects: objects.collect(),
                drift: Vec::new(),
            },
            moves: Vec::new(),
            moves_complete: true,
        }
    }

    #[test]
    fn the_plan_puts_the_deployment_first_and_says_when_pods_roll() {
        let d = diff(&[("Service", Action::Unchanged), ("Deployment", Action::Update)], &["image"]);
        assert_eq!(plan(&d), "ns/r: Deployment update (rolls pods: image), Service unchanged");
        let d = diff(&[("Deployment", Action::Update), ("Service", Action::Update)], &[]);
        assert_eq!(plan(&d), "ns/r: Deployment update, Service update");
        let d = diff(&[("Service", Action::Create), ("Deployment", Action::Create)], &[]);
        assert_eq!(plan(&d), "ns/r: Deployment create, Service create");
        let d = RouterDiff { moves_complete: false, ..diff(&[("ConfigMap", Action::Update)], &[]) };
        assert_eq!(
            plan_changes(&d),
            "ConfigMap update\n  requests moved: the search stopped at its budget; routerctl verify --against says \
             which classes it covered"
        );
    }
}
