//! `routerctl replay`: the routers of -f (and --against) rendered, the
//! router-proxy's log (or an aggregate of it) read into a
//! `routing::replay::Tally` (`logs`), replayed, and the report written by
//! the emitter of `-o`: text with a bar per group, the JSON contract
//! (docs/replay.md) or a pull-request comment; in the CI formats a notice
//! per group and an error per sensitive-egress group.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context as _, Result};

use super::logs::{self, Empty};
use super::outcome::Outcome;
use super::routers::routers;
use crate::cli::{CommonArgs, ReplayArgs, ReplayFormat};
use crate::input::inputs::Inputs;
use crate::kube::count::grouped;
use crate::output::spool::Spool;
use crate::report::{findings, human, json, markdown, MessageFormat, Reporter};
use crate::routing::replay;
use crate::routing::router::Router;

pub(super) fn run(args: &ReplayArgs, inputs: &mut Inputs, reporter: &mut Reporter) -> Result<Outcome> {
    let stdin = |paths: &[PathBuf]| paths.iter().any(|p| p.as_os_str() == "-");
    let stdin_uses = [&args.common.files, &args.against, &args.logs, &args.counts].iter().filter(|p| stdin(p)).count();
    if stdin_uses > 1 {
        bail!("stdin (`-`) can be given only once across -f, --against, --log and --counts");
    }
    let routers_now = routers(&args.common, None, inputs, reporter)?;
    let router = pick(&routers_now, args.router.as_deref(), "-f")?;
    let before = if args.against.is_empty() {
        None
    } else {
        let old = CommonArgs { files: args.against.clone(), ..args.common.clone() };
        let old_routers = routers(&old, None, inputs, reporter).context("--against")?;
        let found = old_routers.into_iter().find(|r| r.id == router.id);
        Some(found.ok_or_else(|| anyhow!("--against: no ModelRouter {} in those inputs", router.id))?)
    };
    let logs::Read { tally, skipped, empty } = logs::read(args, router, inputs, reporter)?;
    if tally.requests() == 0 {
        bail!("{}", nothing_replayed(&empty, router));
    }
    let report = replay::replay(&tally, router, before.as_ref())?;
    if let Some(warning) = findings::undetermined(&report) {
        reporter.warn(warning);
    }
    if reporter.format() != MessageFormat::Human {
        findings::replay(&report, router).into_iter().for_each(|d| reporter.finding(d));
    }
    let body = match args.output {
        ReplayFormat::Text => reporter.fenced(human::replay(&report, &skipped, args.top)),
        ReplayFormat::Json => json::replay(&report, &skipped),
        ReplayFormat::Markdown => markdown::replay(&report, &skipped, args.top),
    };
    let mut out = Spool::new();
    std::io::Write::write_all(&mut out, body.as_bytes()).context("cannot spool output")?;
    Ok(Outcome { stdout: out, code: i32::from(report.failed()), notes: String::new() })
}

/// The router whose log it is.
fn pick<'r>(routers: &'r [Router], wanted: Option<&str>, whose: &str) -> Result<&'r Router> {
    let known = || routers.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ");
    match wanted {
        Some(w) => routers
            .iter()
            .find(|r| r.id == w || r.name == w)
            .ok_or_else(|| anyhow!("--router: no ModelRouter {w:?} in the {whose} inputs (they hold {})", known())),
        None if routers.len() == 1 => Ok(&routers[0]),
        None => bail!(
            "the {whose} inputs hold {} routers ({}): name the one whose log this is with --router NAMESPACE/NAME",
            routers.len(),
            known()
        ),
    }
}

/// The error of a run that replayed no request: each input and what it
/// held, then what to do. A replay of nothing shows nothing, so it must
/// not pass a check.
fn nothing_replayed(empty: &[Empty], router: &Router) -> String {
    let mut said = Vec::new();
    let mut hints = Vec::new();
    let mut hint = |text: String| {
        if !hints.contains(&text) {
            hints.push(text);
        }
    };
    // The namespace and name kubectl's selector needs.
    let (namespace, name) = router.id.split_once('/').unwrap_or(("default", router.name.as_str()));
    let selector =
        format!("kubectl logs -n {namespace} -l inference.llmkube.dev/model-router={name} -c router-proxy --tail=-1");
    for input in empty {
        match input {
            Empty::Log { name, lines } => {
                said.push(format!(
                    "--log {name}: no router.dispatch line among its {}",
                    grouped(*lines, "line", "lines")
                ));
                hint(format!("give the router-proxy's log ({selector}), or --from-cluster"));
            }
            Empty::Cluster { lines, since } => {
                let span = since.as_deref().map(|s| format!(" of the last {s}")).unwrap_or_default();
                said.push(format!(
                    "--from-cluster: no router.dispatch line among the {} the proxy pods of {} logged{span}",
                    grouped(*lines, "line", "lines"),
                    router.id
                ));
                hint("widen --since, or replay a log kept elsewhere (--log, --counts)".to_string());
            }
            Empty::Counts { name, counted } => {
                let held = match (counted.rows, counted.header) {
                    (0, true) => "a header and no row".to_string(),
                    (0, false) => "no row".to_string(),
                    (rows, _) => format!("{} counting no request", grouped(rows, "row", "rows")),
                };
                said.push(format!("--counts {name}: {held}"));
                hint(
                    "the query that wrote the counts matched no router.dispatch line: check its time range and \
                     that it reads this router's proxy log (docs/replay.md has the queries)"
                        .to_string(),
                );
            }
        }
    }
    let hints: Vec<String> = hints
        .iter()
        .map(|h| {
            let mut chars = h.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
        })
        .collect();
    format!("nothing to replay: {}. {}.", said.join("; "), hints.join(". "))
}
