//! `routerctl diff -o markdown`: the verdict (which routers change, whose
//! pods roll, how many groups of requests a new config.json moves — the
//! exit code says whether anything changes), the operator release the plan
//! follows, then per router (those that change first) a table of what
//! applying does to each object and why the pods roll, what its new
//! config.json moves, with how the new one decides drawn and folded (a
//! reviewer of a change of routing sees the rules in their new order),
//! and the drift the operator does not repair. The
//! unified diffs stay in the job log (`diff` with no `-o`): a line of one
//! could be read as a command by a CI runner, and one ConfigMap's is often
//! larger than a comment.

use super::comment::{details, row, table, written, Comment, Noun, DETAILS_END, ROUTER, TABLE_END};
use super::escape::cell;
use super::moves;
use crate::diff::plan::{Action, ObjectPlan};
use crate::kube::count::grouped;
use crate::report::mermaid::{flowchart, Direction};
use crate::report::results::RouterDiff;
use crate::routing::router::Router;

/// The comment of a diff; `routers` the router each new config.json makes,
/// beside its diff (drawn when it moves requests); `release` the operator
/// release the plan follows and where that came from.
pub fn diff(diffs: &[RouterDiff], routers: &[Option<Router>], release: (&str, &str)) -> String {
    // The routers that change first, those whose pods roll before them.
    let mut sorted: Vec<(&RouterDiff, Option<&Router>)> =
        diffs.iter().enumerate().map(|(i, d)| (d, routers.get(i).and_then(Option::as_ref))).collect();
    sorted.sort_by_key(|(d, _)| (!d.plan.rolls_pods, !d.plan.changed(), d.moves.is_empty()));
    written(&verdict(diffs), |comment| {
        let rendered = format!("Rendered as operator release {} (from {}).\n\n", cell(release.0), cell(release.1));
        comment.block(&rendered, ROUTER);
        for (d, new) in &sorted {
            router(comment, d, *new);
        }
    })
}

fn verdict(diffs: &[RouterDiff]) -> String {
    let objects = || diffs.iter().flat_map(|d| &d.plan.objects);
    let created = objects().filter(|o| o.action == Action::Create).count() as u64;
    let updated = objects().filter(|o| o.action == Action::Update).count() as u64;
    let changing = diffs.iter().filter(|d| d.plan.changed()).count() as u64;
    let rolling = diffs.iter().filter(|d| d.plan.rolls_pods).count() as u64;
    let moved = diffs.iter().map(|d| d.moves.len()).sum::<usize>() as u64;
    let drift = diffs.iter().map(|d| d.plan.drift.len()).sum::<usize>() as u64;
    let routers = grouped(diffs.len() as u64, "router", "routers");
    let mut out = if changing == 0 {
        format!("✅ {routers}: nothing changes, the live objects are what the operator would write")
    } else {
        let mut parts = Vec::new();
        if created > 0 {
            parts.push(format!("{} created", grouped(created, "object", "objects")));
        }
        if updated > 0 {
            parts.push(format!("{} updated", grouped(updated, "object", "objects")));
        }
        let change = if changing == 1 { "changes" } else { "change" };
        let mut text = format!("⚠️ {changing} of {routers} {change}: {}", parts.join(", "));
        if rolling > 0 {
            text.push_str(&format!("; the pods of {} roll", grouped(rolling, "router", "routers")));
        }
        text
    };
    if moved > 0 {
        let groups = grouped(moved, "group of requests", "groups of requests");
        out.push_str(&format!("; {groups} {}", if moved == 1 { "moves" } else { "move" }));
    }
    if diffs.iter().any(|d| !d.moves_complete) {
        out.push_str("; the search for what moves stopped at its budget");
    }
    if drift > 0 {
        out.push_str(&format!("; {} the operator does not repair", grouped(drift, "drift finding", "drift findings")));
    }
    out
}

/// Why an object's action matters: the Deployment's pods roll, and why.
fn why(d: &RouterDiff, o: &ObjectPlan) -> String {
    match (o.kind == "Deployment" && d.plan.rolls_pods, d.plan.roll_reasons.is_empty()) {
        (false, _) => String::new(),
        (true, true) => "rolls pods".to_string(),
        (true, false) => format!("rolls pods: {}", d.plan.roll_reasons.join(", ")),
    }
}

fn router(comment: &mut Comment, d: &RouterDiff, new: Option<&Router>) {
    let p = &d.plan;
    comment.block(&format!("### {}/{}\n\n", cell(&p.namespace), cell(&p.name)), ROUTER);
    // The Deployment first, as the object whose change matters most; the
    // others in the operator's order.
    let objects =
        p.objects.iter().filter(|o| o.kind == "Deployment").chain(p.objects.iter().filter(|o| o.kind != "Deployment"));
    let rows: Vec<String> = objects
        .map(|o| row(&[cell(&o.kind), cell(&o.name), o.action.as_str().to_string(), cell(&why(d, o))]))
        .collect();
    comment.items(&table(&["Kind", "Name", "Action", "Why"]), &rows, TABLE_END, Noun("object", "objects"));
    if !d.moves.is_empty() {
        comment.block("#### What the new config.json moves\n\n", moves::MOVE);
        if let Some(new) = new {
            let summary = details("How the new config.json decides, drawn");
            comment.diagram(&summary, || flowchart(new, &[], Direction::TopDown), DETAILS_END);
        }
        moves::table_of(comment, &d.moves);
    }
    if !d.moves_complete {
        comment.block(
            "The search for what the new config.json moves stopped at its budget; routerctl verify --against says \
             which classes it covered.\n\n",
            moves::MOVE,
        );
    }
    let drift: Vec<String> = p.drift.iter().map(|text| row(&[cell(text)])).collect();
    comment.items(
        &format!("#### Drift the operator does not repair\n\n{}", table(&["What the live objects hold"])),
        &drift,
        TABLE_END,
        Noun("drift finding", "drift findings"),
    );
}
