//! `routerctl replay -o markdown`: the verdict (how many sensitive
//! requests would leave the cluster — what the exit code says — and what
//! the change moves), what the change moves drawn as a Sankey diagram
//! (every group, when something moves), what was replayed and skipped,
//! then a table per section — sensitive egress, moved by the change,
//! differs from the log, drift — of its largest groups by share (`--top`
//! of them, as the text report), with the log lines that show them folded.

use super::comment::{details, row, table, written, Comment, Noun, DETAILS_END, TABLE_END};
use super::escape::cell;
use crate::kube::count::{grouped, thousands};
use crate::report::mermaid::{replay_flows, sankey};
use crate::report::results::SkippedLines;
use crate::report::words::{dispatched, logged_request, percent, share};
use crate::routing::replay::{Groups, Report};

const GROUP: Noun = Noun("group", "groups");
const SECTION: Noun = Noun("section", "sections");

/// The comment of a replay.
pub fn replay(report: &Report, skipped: &SkippedLines, top: usize) -> String {
    let of = |n: u64| format!("{} ({})", grouped(n, "request", "requests"), percent(share(n, report.requests)));
    let egress = report.sensitive_egress.count;
    let mut verdict = match egress {
        0 => format!(
            "✅ {}: {} replayed, no sensitive request leaves the cluster",
            cell(&report.router),
            grouped(report.requests, "request", "requests")
        ),
        n => format!(
            "❌ {}: {} ({}) of {} replayed would leave the cluster",
            cell(&report.router),
            grouped(n, "sensitive request", "sensitive requests"),
            percent(share(n, report.requests)),
            thousands(report.requests)
        ),
    };
    if let Some(moved) = &report.moved {
        verdict.push_str(&format!("; the change moves {}", of(moved.count)));
    }
    if let Some(differs) = report.differs.as_ref().filter(|d| d.count > 0) {
        verdict.push_str(&format!(
            "; {} {} from the log",
            of(differs.count),
            if differs.count == 1 { "differs" } else { "differ" }
        ));
    }
    written(&verdict, |comment| body(comment, report, skipped, top))
}

fn body(comment: &mut Comment, report: &Report, skipped: &SkippedLines, top: usize) {
    let of = |n: u64| format!("{} ({})", grouped(n, "request", "requests"), percent(share(n, report.requests)));
    if let Some(moved) = report.moved.as_ref().filter(|m| m.count > 0) {
        let caption = "What the change moves, each band as wide as its share of the requests replayed:\n\n";
        comment.diagram(caption, || sankey(&replay_flows(moved)), "");
    }
    let mut read = format!(
        "{} replayed, {} distinct; {} skipped",
        grouped(report.requests, "request", "requests"),
        thousands(report.distinct as u64),
        grouped(skipped.total(), "line", "lines")
    );
    if skipped.total() > 0 {
        read.push_str(&format!(
            " ({}, {}, {} without what the proxy writes)",
            grouped(skipped.other, "other log message", "other log messages"),
            grouped(skipped.not_log, "not slog line", "not slog lines"),
            grouped(skipped.malformed, "router.dispatch line", "router.dispatch lines")
        ));
    }
    if report.against.is_some() {
        read.push_str("; against the router before the change");
    }
    comment.block(&format!("{}.\n\n", cell(&read)), SECTION);
    let u = &report.undetermined;
    if u.count > 0 {
        let text = format!(
            "{} undetermined: rules {} decide by headers, which the log does not hold",
            of(u.count),
            u.rules.join(", ")
        );
        comment.block(&format!("{}.\n\n", cell(&text)), SECTION);
        let rows: Vec<String> = u.examples.iter().map(|e| row(&[cell(&e.line), cell(&logged_request(e))])).collect();
        let opening = format!("{}{}", details("Lines of undetermined requests"), table(&["Line", "Request"]));
        comment.items(&opening, &rows, &format!("{TABLE_END}{DETAILS_END}"), Noun("line", "lines"));
    }
    let title = "Sensitive egress (sensitive requests the router sends out of the cluster)";
    section(comment, report, title, Some(&report.sensitive_egress), ("Logged", "Now"), top);
    if let Some(moved) = &report.moved {
        section(comment, report, "Moved by the change", Some(moved), ("Before", "After"), top);
    }
    section(comment, report, "Differs from the log", report.differs.as_ref(), ("Logged", "Now"), top);
    if let Some(drift) = &report.drift {
        let title = "Drift (the log against the router before)";
        section(comment, report, title, Some(drift), ("Logged", "Before"), top);
    }
}

fn section(
    comment: &mut Comment,
    report: &Report,
    title: &str,
    groups: Option<&Groups>,
    (was, is): (&str, &str),
    top: usize,
) {
    let Some(groups) = groups else {
        comment.block(&format!("#### {title}: not known (the counts record no decision)\n\n"), SECTION);
        return;
    };
    let n = groups.groups.len();
    if n == 0 {
        comment.block(&format!("#### {title}: none\n\n"), SECTION);
        return;
    }
    comment.block(
        &format!(
            "#### {title}: {} ({}) in {}\n\n",
            grouped(groups.count, "request", "requests"),
            percent(share(groups.count, report.requests)),
            grouped(n as u64, "group", "groups")
        ),
        SECTION,
    );
    let shown = &groups.groups[..n.min(top)];
    let rows: Vec<String> = shown
        .iter()
        .enumerate()
        .map(|(i, g)| {
            row(&[
                (i + 1).to_string(),
                percent(g.share),
                thousands(g.count),
                cell(&dispatched(&g.before)),
                cell(&dispatched(&g.after)),
            ])
        })
        .collect();
    comment.items(&table(&["#", "Share", "Requests", was, is]), &rows, TABLE_END, GROUP);
    if n > top {
        let rest: u64 = groups.groups[top..].iter().map(|g| g.count).sum();
        comment.block(
            &format!(
                "… and {} more {} ({}; -o json lists them all, or --top).\n\n",
                thousands((n - top) as u64),
                if n - top == 1 { "group" } else { "groups" },
                grouped(rest, "request", "requests")
            ),
            SECTION,
        );
    }
    let examples: Vec<String> = shown
        .iter()
        .enumerate()
        .flat_map(|(i, g)| {
            g.examples.iter().map(move |e| row(&[(i + 1).to_string(), cell(&e.line), cell(&logged_request(e))]))
        })
        .collect();
    let opening = format!("{}{}", details("Lines that show them"), table(&["#", "Line", "Request"]));
    comment.items(&opening, &examples, &format!("{TABLE_END}{DETAILS_END}"), Noun("line", "lines"));
}
