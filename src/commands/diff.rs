//! `routerctl diff`: unified diffs of live against merged objects (or the
//! answer of `KUBECTL_EXTERNAL_DIFF`), or the plan as JSON or as a
//! pull-request comment; and the plan on
//! stderr in every run but `-q` (a line per router, after stdout; in the
//! machine message formats a `plan` note at the router's document), so a
//! CI log says which pods roll and why (`report` writes the plan: its
//! `RouterDiff` is each router's plan with what its config moves). Exits 1
//! when something would change.

use std::io::Write;

use anyhow::{Context as _, Result};
use serde_json::Value;

use super::outcome::{text_outcome, Outcome, Terminal};
use super::stream::{stream_as, LiveInput, RenderAs};
use crate::cli::{ColorChoice, DiffArgs, DiffFormat};
use crate::diagnostic::{rules, Diagnostic, Place, Severity};
use crate::diff::external::ExternalDiff;
use crate::diff::plan::plan_router;
use crate::diff::{compare, diff_compared, Comparison, Palette};
use crate::input::inputs::Inputs;
use crate::kube::ObjectKey;
use crate::output::spool::Spool;
use crate::pipeline::RouterResult;
use crate::report::results::RouterDiff;
use crate::report::{human, json, markdown, MessageFormat, Reporter};
use crate::routing::proxy::ProxyConfig;
use crate::routing::router::Router;
use crate::routing::space::Limits;
use crate::routing::verify::{self, Change};

/// One router compared: its plan, and its diffs printed or its
/// comparisons kept for the external program.
struct Compared {
    diff: RouterDiff,
    /// The router its new config.json makes, when that moves requests.
    new: Option<Router>,
    /// Where its ModelRouter was read.
    origin: Place,
    diffs: String,
    for_external: Vec<(ObjectKey, Comparison)>,
}

/// `routerctl diff`: the unified diffs (or the external program's answer)
/// and a plan line per router, or the plan as JSON.
pub(super) fn run(
    args: &DiffArgs,
    inputs: &mut Inputs,
    reporter: &mut Reporter,
    terminal: Terminal,
) -> Result<Outcome> {
    let palette = Palette {
        color: match args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal.stdout_is_tty && !terminal.no_color,
        },
    };
    let live = if args.live.is_empty() { LiveInput::Cluster(&args.cluster) } else { LiveInput::Files(&args.live) };
    // As in kubectl, an empty KUBECTL_EXTERNAL_DIFF is unset; the JSON plan
    // has no use for a diff program.
    let mut external = match std::env::var(crate::diff::external::VARIABLE) {
        Ok(value) if !value.is_empty() && args.output == DiffFormat::Diff => Some(ExternalDiff::new(&value)?),
        _ => None,
    };
    let mut spool = Spool::new();
    let mut plans: Vec<RouterDiff> = Vec::new();
    let mut routers: Vec<Option<Router>> = Vec::new();
    let mut origins: Vec<Place> = Vec::new();
    // The plan alone (JSON, a comment) needs no unified diff.
    let plan_only = args.output != DiffFormat::Diff;
    let to_external = external.is_some();
    // The comparing and the printing are done where the router was
    // reconciled; the results are joined here in input order.
    let compare_router = |result: RouterResult| {
        let comparisons: Vec<_> = result.items.iter().map(compare).collect();
        let plan = plan_router(
            &result.router.namespace,
            &result.router.name,
            &result.items,
            &comparisons,
            &result.orphans,
            &result.drift.iter().map(plan_drift).collect::<Vec<_>>(),
        );
        let (moves, moves_complete, new) = routing_changes(&result, &comparisons);
        let new = new.filter(|_| !moves.is_empty());
        let diff = RouterDiff { plan, moves, moves_complete };
        let origin = result.origin.clone();
        let mut compared = Compared { diff, new, origin, diffs: String::new(), for_external: Vec::new() };
        if plan_only {
            return Ok(compared);
        }
        for (item, cmp) in result.items.into_iter().zip(comparisons) {
            if to_external {
                compared.for_external.push((item.key, cmp));
            } else if let Some(diff) = diff_compared(&item, &cmp, palette) {
                compared.diffs.push_str(&diff);
            }
        }
        Ok(compared)
    };
    // In `human` the plan's last line names the release: said once.
    let how = RenderAs { release_said_last: reporter.format() == MessageFormat::Human, ..RenderAs::default() };
    let rendered_as = stream_as(&args.common, live, inputs, reporter, how, &compare_router, &mut |compared| {
        plans.push(compared.diff);
        routers.push(compared.new);
        origins.push(compared.origin);
        if let Some(ext) = &mut external {
            for (key, cmp) in &compared.for_external {
                ext.add(key, cmp.before.as_ref(), &cmp.after)?;
            }
        }
        spool.write_all(compared.diffs.as_bytes()).context("cannot spool output")
    })?;
    let changed = i32::from(plans.iter().any(|d| d.plan.changed()));
    // The plan, in every run but -q, terminal or not: in human, lines that
    // close the output; in the machine formats, where stderr holds findings
    // only, a note at each router's document.
    let notes = match (reporter.is_quiet(), reporter.format()) {
        (true, _) => String::new(),
        (false, MessageFormat::Human) => {
            let plan: String = plans.iter().map(|d| human::plan(d) + "\n").collect();
            format!("{plan}{}\n", rendered_as.line())
        }
        (false, _) => {
            for (d, origin) in plans.iter().zip(&origins) {
                let router = crate::model::router_key(&d.plan.namespace, &d.plan.name);
                let changes = human::plan_changes(d);
                reporter.warn(Diagnostic::new(Severity::Note, rules::PLAN, changes).at(origin.clone()).on(router));
            }
            String::new()
        }
    };
    let release = (rendered_as.release.name(), rendered_as.from.as_str());
    let plan = match args.output {
        DiffFormat::Json => Some(json::diff(&plans, Some(release))),
        DiffFormat::Markdown => Some(markdown::diff(&plans, &routers, release)),
        DiffFormat::Diff => None,
    };
    if let Some(plan) = plan {
        let mut outcome = text_outcome(&plan, changed)?;
        outcome.notes = notes;
        return Ok(outcome);
    }
    let code = match external {
        Some(ext) => {
            let answer = ext.run()?;
            reporter.external(&String::from_utf8_lossy(&answer.stderr));
            spool.write_all(&answer.stdout).context("cannot spool output")?;
            answer.code
        }
        None => changed,
    };
    Ok(Outcome { stdout: spool, code, notes })
}

/// What the new config.json moves against the live one, when the live
/// ConfigMap holds a different one: each group of requests with a witness,
/// as `verify --against` lists them, whether the search finished, and the
/// router of the new config.json.
fn routing_changes(result: &RouterResult, comparisons: &[Comparison]) -> (Vec<Change>, bool, Option<Router>) {
    let config_of = |object: &Value| object.pointer("/data/config.json").and_then(Value::as_str).map(str::to_string);
    let Some((item, cmp)) = result.items.iter().zip(comparisons).find(|(item, _)| item.key.kind == "ConfigMap") else {
        return (Vec::new(), true, None);
    };
    let (Some(live), Some(new)) = (cmp.before.as_ref().and_then(config_of), config_of(&item.merged)) else {
        return (Vec::new(), true, None);
    };
    if live == new {
        return (Vec::new(), true, None);
    }
    // A live config the proxy's reader cannot read tells nothing to compare.
    let (Ok(live), Ok(new)) = (ProxyConfig::from_json(&live), ProxyConfig::from_json(&new)) else {
        return (Vec::new(), true, None);
    };
    let id = format!("{}/{}", result.router.namespace, result.router.name);
    let old = Router::from_config(id.clone(), result.router.name.clone(), live);
    let new = Router::from_config(id, result.router.name.clone(), new);
    let (moves, complete) = verify::what_moves(&old, &new, Limits::default());
    (moves, complete, Some(new))
}

/// A drift finding as the plan's JSON has always said it: the object's full
/// identity (`apiVersion Kind namespace/name`), then the message.
fn plan_drift(d: &Diagnostic) -> String {
    match &d.object {
        Some(object) => format!("{object}: {}", d.message),
        None => d.message.clone(),
    }
}
