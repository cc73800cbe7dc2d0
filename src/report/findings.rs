//! The findings a command's results make for CI: each failed case of
//! `test` at its case, each finding and failed invariant of `verify` at the
//! field or invariant it is about, each group of `replay` at the router's
//! document. People read these in the report on stdout; the machine
//! message formats (`json`, `github`, `sarif`) carry them on stderr, so
//! that CI annotates the line that says it.

use super::words::{decided, dispatched, egress_reason, percent};
use crate::diagnostic::{rules, Diagnostic, Severity};
use crate::kube::count::grouped;
use crate::output::yaml::double_quoted;
use crate::routing::replay::{Example, Groups, Report};
use crate::routing::router::Router;
use crate::routing::suite::SuiteRun;
use crate::routing::verify::RouterReport;

/// An error per failed case of `test`, at the case.
pub fn test(run: &SuiteRun) -> Vec<Diagnostic> {
    run.ran
        .iter()
        .filter(|r| r.failed())
        .map(|r| {
            let message = format!(
                "case {} fails for {} ({}): {}; the router does {}",
                double_quoted(&r.case.name),
                r.router.id,
                r.router.data_plane().label(),
                r.mismatches.join("; "),
                decided(&r.decision)
            );
            Diagnostic::error(rules::TEST, message).at(r.case.at.clone())
        })
        .collect()
}

/// `verify`'s findings with their router and plane as context, and an
/// error per invariant that does not hold, at the invariant.
pub fn verify(reports: &[RouterReport]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for report in reports {
        for f in &report.findings {
            let mut d = f.diagnostic.clone();
            d.context = Some(format!("{} ({})", report.router, report.plane.label()));
            out.push(d);
        }
        for invariant in &report.invariants {
            if let Some((why, _)) = &invariant.failure {
                let message =
                    format!("{} ({}): invariant {:?}: {why}", report.router, report.plane.label(), invariant.name);
                out.push(Diagnostic::error(rules::INVARIANT, message).at(invariant.at.clone()));
            }
        }
    }
    out
}

/// The warning of a replay whose header rules left requests undetermined,
/// in every format: what the report counts cannot be judged.
pub fn undetermined(report: &Report) -> Option<Diagnostic> {
    let u = &report.undetermined;
    if u.count == 0 {
        return None;
    }
    let first = u.examples.first().map(|e| format!(" (the first: {})", e.line)).unwrap_or_default();
    Some(Diagnostic::warning(
        rules::REPLAY_LOG,
        format!(
            "{}: {} undetermined{first}: rules {} decide by headers, which the log does not hold",
            report.router,
            grouped(u.count, "request", "requests"),
            u.rules.join(", ")
        ),
    ))
}

/// A notice per group of a replay, an error per sensitive-egress group,
/// at the router's document (so CI annotates the router the change is
/// about).
pub fn replay(report: &Report, router: &Router) -> Vec<Diagnostic> {
    let at = |d: Diagnostic| match &router.origin {
        Some(place) => d.at(place.clone()),
        None => d,
    };
    let mut out = Vec::new();
    let sections: [(&str, &Option<Groups>, &str, &str); 3] = [
        ("differs from the log", &report.differs, "logged", "now"),
        ("moved by the change", &report.moved, "before", "after"),
        ("drift", &report.drift, "logged", "before the change"),
    ];
    for (what, groups, was, is) in sections {
        for g in groups.iter().flat_map(|g| &g.groups) {
            let message = format!(
                "{}: {what}: {} ({}): {was} {}, {is} {}{}",
                report.router,
                grouped(g.count, "request", "requests"),
                percent(g.share),
                dispatched(&g.before),
                dispatched(&g.after),
                witnesses(&g.examples)
            );
            out.push(at(Diagnostic::new(Severity::Note, rules::REPLAY, message)));
        }
    }
    for g in &report.sensitive_egress.groups {
        let backend = g.after.backend.as_deref().unwrap_or("");
        let why =
            router.backend(backend).map(|b| egress_reason(b.tier.as_str(), b.provider.as_deref())).unwrap_or_default();
        let message = format!(
            "{}: {} ({}) would leave the cluster: {}, {why}; logged {}{}",
            report.router,
            grouped(g.count, "sensitive request", "sensitive requests"),
            percent(g.share),
            dispatched(&g.after),
            dispatched(&g.before),
            witnesses(&g.examples)
        );
        out.push(at(Diagnostic::error(rules::SENSITIVE_EGRESS, message)));
    }
    out
}

/// ` (e.g. access.log:3, access.log:15)`.
fn witnesses(examples: &[Example]) -> String {
    if examples.is_empty() {
        return String::new();
    }
    let lines: Vec<&str> = examples.iter().map(|e| e.line.as_str()).collect();
    format!(" (e.g. {})", lines.join(", "))
}
