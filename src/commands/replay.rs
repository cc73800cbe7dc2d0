//! `routerctl replay`: the routers of -f (and --against) rendered, the
//! router-proxy's log (or an aggregate of it) read line by line into a
//! `routing::replay::Tally`, replayed, and the report written: text with
//! a bar per group, or the JSON contract (docs/replay.md); in the CI
//! formats a notice per group and an error per sensitive-egress group.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::{json, Value};

use super::outcome::{fenced, Outcome};
use super::routers::routers;
use super::stream::kubectl_options;
use crate::cli::{CommonArgs, ReplayArgs, ReportFormat};
use crate::diagnostic::{kubectl_said, rules, Diagnostic, Place, Severity};
use crate::input::inputs::Inputs;
use crate::input::log::{self, classify, Line};
use crate::input::{InputPath, STDIN_NAME};
use crate::live::logs::{self, ProxyLogs};
use crate::model::duration::parse_at;
use crate::output::spool::Spool;
use crate::report::{MessageFormat, Reporter};
use crate::routing::replay::{self, By, Dispatched, Example, Groups, LineRef, Report, Tally};
use crate::routing::router::{Plane, Router};

/// Lines read between two looks at the progress line.
const PROGRESS_LINES: u64 = 1 << 16;

/// The lines of the logs that were not requests.
#[derive(Default)]
struct Skipped {
    other: u64,
    not_log: u64,
    malformed: u64,
    first_not_log: Option<Place>,
    first_malformed: Option<(Place, String)>,
}

impl Skipped {
    fn total(&self) -> u64 {
        self.other + self.not_log + self.malformed
    }
}

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
    let mut tally = Tally::new();
    let mut skipped = Skipped::default();
    let mut empty = Vec::new();
    let mut reading = Reading { reporter, tally: &mut tally, skipped: &mut skipped, lines: 0 };
    read_logs(&args.logs, inputs, &mut reading, &mut empty)?;
    if args.from_cluster {
        read_cluster_logs(args, router, &mut reading, &mut empty)?;
    }
    read_counts(&args.counts, inputs, &mut tally, &mut empty)?;
    warn_skipped(&skipped, reporter);
    if tally.requests() == 0 {
        bail!("{}", nothing_replayed(&empty, router));
    }
    let report = replay::replay(&tally, router, before.as_ref())?;
    if report.undetermined.count > 0 {
        let first =
            report.undetermined.examples.first().map(|e| format!(" (the first: {})", e.line)).unwrap_or_default();
        reporter.warn(Diagnostic::warning(
            rules::REPLAY_LOG,
            format!(
                "{}: {} undetermined{first}: rules {} decide by headers, which the log does not hold",
                report.router,
                count(report.undetermined.count, "request"),
                report.undetermined.rules.join(", ")
            ),
        ));
    }
    if reporter.format() != MessageFormat::Human {
        findings(&report, router, reporter);
    }
    let body = match args.output {
        ReportFormat::Text => fenced(text_report(&report, &skipped, args.top), reporter.format()),
        ReportFormat::Json => serde_json::to_string_pretty(&json_report(&report, &skipped)).unwrap_or_default() + "\n",
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

/// Where a line of a log is: its source in the tally and its number there.
struct At {
    source: u32,
    line: u64,
}

/// What the lines read go into, and how many were read (for the
/// progress line).
struct Reading<'a, 'r> {
    reporter: &'a mut Reporter<'r>,
    tally: &'a mut Tally,
    skipped: &'a mut Skipped,
    lines: u64,
}

impl Reading<'_, '_> {
    /// Classifies and tallies one line found at `at` (named `name`).
    fn line(&mut self, text: Option<&str>, at: At, name: &str) {
        let line = text.map_or(Line::NotLog, classify);
        let place = || Place::line(name.to_string(), usize::try_from(at.line).unwrap_or(usize::MAX));
        match line {
            Line::Dispatch(d) => self.tally.add(&d, 1, LineRef { source: at.source, line: at.line }),
            Line::Blank => {}
            Line::OtherLog => self.skipped.other += 1,
            Line::NotLog => {
                self.skipped.not_log += 1;
                self.skipped.first_not_log.get_or_insert_with(place);
            }
            Line::Malformed(why) => {
                self.skipped.malformed += 1;
                self.skipped.first_malformed.get_or_insert_with(|| (place(), why));
            }
        }
        self.lines += 1;
        if self.lines.is_multiple_of(PROGRESS_LINES) {
            let (lines, requests) = (self.lines, self.tally.requests());
            self.reporter.progress(&|| format!("{lines} lines read, {requests} requests"));
        }
    }
}

/// An input that gave no request, and what it held instead.
enum Empty {
    /// A `--log` file: the lines read, none a `router.dispatch` line.
    Log { name: String, lines: u64 },
    /// The proxy's pods, through `kubectl logs`: the lines read.
    Cluster { lines: u64, since: Option<String> },
    /// A `--counts` file: its rows (none, or counting no request).
    Counts { name: String, counted: log::Counted },
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
                said.push(format!("--log {name}: no router.dispatch line among its {}", count(*lines, "line")));
                hint(format!("give the router-proxy's log ({selector}), or --from-cluster"));
            }
            Empty::Cluster { lines, since } => {
                let span = since.as_deref().map(|s| format!(" of the last {s}")).unwrap_or_default();
                said.push(format!(
                    "--from-cluster: no router.dispatch line among the {} the proxy pods of {} logged{span}",
                    count(*lines, "line"),
                    router.id
                ));
                hint("widen --since, or replay a log kept elsewhere (--log, --counts)".to_string());
            }
            Empty::Counts { name, counted } => {
                let held = match (counted.rows, counted.header) {
                    (0, true) => "a header and no row".to_string(),
                    (0, false) => "no row".to_string(),
                    (rows, _) => format!("{} counting no request", count(rows, "row")),
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

/// Each line of each log, classified and tallied as it is read.
fn read_logs(
    paths: &[PathBuf],
    inputs: &mut Inputs,
    reading: &mut Reading<'_, '_>,
    empty: &mut Vec<Empty>,
) -> Result<()> {
    if let Some(dir) = paths.iter().find(|p| p.is_dir()) {
        bail!("--log {}: a directory; give the log files", dir.display());
    }
    for input in inputs.streamed(paths, false)? {
        let (name, mut reader) = match &input {
            InputPath::Stdin => (STDIN_NAME.to_string(), log::open(STDIN_NAME, Box::new(inputs.stdin()))?),
            InputPath::File(path) => (path.display().to_string(), log::open_file(path)?),
        };
        let source = reading.tally.source(&name);
        let requests = reading.tally.requests();
        let mut lines = 0;
        log::for_each_line(&name, &mut reader, |number, text| {
            reading.line(text, At { source, line: number }, &name);
            lines = number;
            Ok(())
        })?;
        if reading.tally.requests() == requests {
            empty.push(Empty::Log { name, lines });
        }
    }
    Ok(())
}

/// The logs of every replica of the router's proxy, read through kubectl
/// as they arrive. kubectl's `--prefix` names each line's pod: a line is
/// told as the pod's (`pod/NAME:12`, its 12th line read), so a witness
/// points into one replica's log.
fn read_cluster_logs(
    args: &ReplayArgs,
    router: &Router,
    reading: &mut Reading<'_, '_>,
    empty: &mut Vec<Empty>,
) -> Result<()> {
    if let Some(since) = &args.since {
        let nanos = parse_at("--since", since)?;
        if nanos <= 0 {
            bail!("--since {since:?}: must be longer than 0; write it like 24h or 90m");
        }
    }
    if let Plane::Gateway { .. } = router.plane {
        bail!(
            "--from-cluster: ModelRouter {} has dataPlane: Gateway, which runs no router-proxy pods to read; \
             replay decides on the Proxy data plane",
            router.id
        );
    }
    let options = kubectl_options(&args.cluster)?;
    // The router's id is `namespace/name`; a namespace has no `/`.
    let namespace = router.id.split_once('/').map_or("default", |(namespace, _)| namespace);
    let wanted = ProxyLogs { namespace: namespace.to_string(), router: router.name.clone(), since: args.since.clone() };
    let whole = format!("kubectl logs of {}", router.id);
    let (requests, lines) = (reading.tally.requests(), reading.lines);
    let said = logs::read_proxy_logs(&options, &wanted, |stdout| {
        let mut reader = log::open(&whole, Box::new(stdout))?;
        // Each pod's source and lines read so far.
        let mut pods: HashMap<String, (u32, u64)> = HashMap::new();
        log::for_each_line(&whole, &mut reader, |_, text| {
            let pod = text.and_then(pod_of).unwrap_or("kubectl logs");
            let entry = match pods.get_mut(pod) {
                Some(entry) => entry,
                None => {
                    let source = reading.tally.source(pod);
                    pods.entry(pod.to_string()).or_insert((source, 0))
                }
            };
            entry.1 += 1;
            let at = At { source: entry.0, line: entry.1 };
            reading.line(text, at, pod);
            Ok(())
        })
    })?;
    if let Some(note) = kubectl_said(&format!("the router-proxy logs of {}", router.id), &said.0) {
        reading.reporter.warn(note);
    }
    if reading.tally.requests() == requests {
        empty.push(Empty::Cluster { lines: reading.lines - lines, since: args.since.clone() });
    }
    Ok(())
}

/// `pod/NAME` of kubectl's `[pod/NAME/CONTAINER] ` before a line.
fn pod_of(line: &str) -> Option<&str> {
    let inside = line.strip_prefix('[')?.split_once("] ")?.0;
    let (pod, _container) = inside.rsplit_once('/')?;
    pod.starts_with("pod/").then_some(pod)
}

fn read_counts(paths: &[PathBuf], inputs: &mut Inputs, tally: &mut Tally, empty: &mut Vec<Empty>) -> Result<()> {
    if let Some(dir) = paths.iter().find(|p| p.is_dir()) {
        bail!("--counts {}: a directory; give the counts files", dir.display());
    }
    for input in inputs.streamed(paths, false)? {
        let (name, mut reader) = match &input {
            InputPath::Stdin => (STDIN_NAME.to_string(), log::open(STDIN_NAME, Box::new(inputs.stdin()))?),
            InputPath::File(path) => (path.display().to_string(), log::open_file(path)?),
        };
        let source = tally.source(&name);
        let counted = log::read_counts(&name, &mut reader, |d, count, line| {
            tally.add(d, count, LineRef { source, line });
            Ok(())
        })
        .with_context(|| format!("--counts {name}: see docs/replay.md for the columns"))?;
        if counted.requests == 0 {
            empty.push(Empty::Counts { name, counted });
        }
    }
    Ok(())
}

/// Skipped lines are counted in the report; the ones that may be a
/// mistake are warned of too, at the first of them.
fn warn_skipped(skipped: &Skipped, reporter: &mut Reporter) {
    if let Some((place, why)) = &skipped.first_malformed {
        let message = format!(
            "{} without what the proxy writes, skipped; the first here ({why})",
            count(skipped.malformed, "router.dispatch line")
        );
        reporter.warn(Diagnostic::warning(rules::REPLAY_LOG, message).at(place.clone()));
    }
    if let Some(place) = &skipped.first_not_log {
        let message =
            format!("{} not a slog line (JSON or text), skipped; the first here", count(skipped.not_log, "line"));
        reporter.warn(Diagnostic::warning(rules::REPLAY_LOG, message).at(place.clone()));
    }
}

/// A notice per group, an error per sensitive-egress group, at the
/// router's document (so CI annotates the router the change is about).
fn findings(report: &Report, router: &Router, reporter: &mut Reporter) {
    let at = |d: Diagnostic| match &router.origin {
        Some(place) => d.at(place.clone()),
        None => d,
    };
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
                count(g.count, "request"),
                percent(g.share),
                describe(&g.before),
                describe(&g.after),
                witnesses(&g.examples)
            );
            reporter.warn(at(Diagnostic::new(Severity::Note, rules::REPLAY, message)));
        }
    }
    for g in &report.sensitive_egress.groups {
        let backend = g.after.backend.as_deref().unwrap_or("");
        let why =
            router.backend(backend).map(|b| egress_reason(b.tier.as_str(), b.provider.as_deref())).unwrap_or_default();
        let message = format!(
            "{}: {} ({}) would leave the cluster: {}, {why}; logged {}{}",
            report.router,
            count(g.count, "sensitive request"),
            percent(g.share),
            describe(&g.after),
            describe(&g.before),
            witnesses(&g.examples)
        );
        reporter.error(at(Diagnostic::error(rules::SENSITIVE_EGRESS, message)));
    }
}

fn egress_reason(tier: &str, provider: Option<&str>) -> String {
    match provider {
        Some(provider) => format!("tier {tier}, external ({provider})"),
        None => format!("tier {tier}"),
    }
}

fn witnesses(examples: &[Example]) -> String {
    if examples.is_empty() {
        return String::new();
    }
    let lines: Vec<&str> = examples.iter().map(|e| e.line.as_str()).collect();
    format!(" (e.g. {})", lines.join(", "))
}

/// `rule pii-stays-local → local-qwen`, `no route → 503 from the proxy`.
fn describe(d: &Dispatched) -> String {
    let by = match &d.by {
        By::Rule(name) => format!("rule {name}"),
        By::NameMatch => "name-match".to_string(),
        By::Default => "default route".to_string(),
        By::Unnamed => "no rule".to_string(),
        By::Nothing => "no route".to_string(),
    };
    match (&d.backend, d.status) {
        (Some(backend), _) => format!("{by} → {backend}"),
        (None, Some(status)) => format!("{by} → {status} from the proxy"),
        (None, None) => by,
    }
}

fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 0.01 {
        "<0.01%".to_string()
    } else {
        format!("{p:.2}%")
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

fn request_text(e: &Example) -> String {
    let parts: Vec<String> =
        [("model", &e.model), ("classification", &e.classification), ("taskComplexity", &e.task_complexity)]
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k} {v:?}"))
            .collect();
    if parts.is_empty() {
        "no model, classification or complexity".to_string()
    } else {
        parts.join(", ")
    }
}

/// `1 request`, `1,200 requests`.
fn count(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn text_report(report: &Report, skipped: &Skipped, top: usize) -> String {
    let mut out = String::new();
    let against = if report.against.is_some() { ", against the router before the change" } else { "" };
    let _ = writeln!(
        out,
        "{} (proxy plane{against}): {} replayed, {} distinct; {} skipped",
        report.router,
        count(report.requests, "request"),
        thousands(report.distinct as u64),
        count(skipped.total(), "line")
    );
    if skipped.total() > 0 {
        let _ = writeln!(
            out,
            "  skipped: {}, {}, {} without what the proxy writes",
            count(skipped.other, "other log message"),
            count(skipped.not_log, "not slog line"),
            count(skipped.malformed, "router.dispatch line")
        );
    }
    let u = &report.undetermined;
    if u.count > 0 {
        let _ = writeln!(
            out,
            "\nundetermined: {} ({}): rules {} decide by headers, which the log does not hold",
            count(u.count, "request"),
            percent(replay_share(u.count, report.requests)),
            u.rules.join(", ")
        );
        for e in &u.examples {
            let _ = writeln!(out, "  e.g. {}  {}", e.line, request_text(e));
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

fn replay_share(count: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
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
        count(groups.count, "request"),
        percent(replay_share(groups.count, requests)),
        count(n as u64, "group")
    );
    let width = was.len().max(is.len());
    for g in groups.groups.iter().take(top) {
        let _ = writeln!(out, "  {} {:>7}  {}", bar(g.share), percent(g.share), count(g.count, "request"));
        let _ = writeln!(out, "      {was:<width$}  {}", describe(&g.before));
        let _ = writeln!(out, "      {is:<width$}  {}", describe(&g.after));
        for e in &g.examples {
            let _ = writeln!(out, "      {:<width$}  {}  {}", "e.g.", e.line, request_text(e));
        }
    }
    if n > top {
        let rest: u64 = groups.groups[top..].iter().map(|g| g.count).sum();
        let _ = writeln!(
            out,
            "  … and {} more {} ({}; -o json lists them all, or --top)",
            thousands((n - top) as u64),
            if n - top == 1 { "group" } else { "groups" },
            count(rest, "request")
        );
    }
}

fn dispatched_json(d: &Dispatched) -> Value {
    json!({"rule": d.by.label(), "backend": d.backend, "status": d.status})
}

fn examples_json(examples: &[Example]) -> Value {
    examples
        .iter()
        .map(|e| {
            json!({"line": e.line, "request": {"model": e.model, "classification": e.classification, "taskComplexity": e.task_complexity}})
        })
        .collect()
}

fn groups_json(groups: &Groups) -> Value {
    json!({
        "count": groups.count,
        "groups": groups.groups.iter().map(|g| json!({
            "before": dispatched_json(&g.before),
            "after": dispatched_json(&g.after),
            "count": g.count,
            "share": g.share,
            "examples": examples_json(&g.examples),
        })).collect::<Vec<_>>(),
    })
}

/// The JSON contract (docs/replay.md).
fn json_report(report: &Report, skipped: &Skipped) -> Value {
    let optional = |g: &Option<Groups>| g.as_ref().map_or(Value::Null, groups_json);
    json!({
        "routers": [{
            "router": report.router,
            "plane": "proxy",
            "requests": report.requests,
            "undetermined": {
                "count": report.undetermined.count,
                "rules": report.undetermined.rules,
                "examples": examples_json(&report.undetermined.examples),
            },
            "differs": optional(&report.differs),
            "moved": optional(&report.moved),
            "drift": optional(&report.drift),
            "sensitiveEgress": groups_json(&report.sensitive_egress),
        }],
        "skippedLines": skipped.total(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_drawn_in_eighths_of_a_cell() {
        assert_eq!(bar(1.0), "█".repeat(20));
        assert_eq!(bar(0.5), format!("{}{}", "█".repeat(10), "·".repeat(10)));
        // 3% of 160 eighths is 4.8, drawn as 5 eighths.
        assert_eq!(bar(0.03), format!("▋{}", "·".repeat(19)));
        assert_eq!(bar(0.000_001), format!("▏{}", "·".repeat(19)), "never nothing");
        assert_eq!(bar(0.0), "·".repeat(20));
    }

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(
            (thousands(0), thousands(999), thousands(1000), thousands(1_234_567)),
            ("0".into(), "999".into(), "1,000".into(), "1,234,567".into())
        );
        assert_eq!((percent(0.5), percent(0.00001), percent(0.0)), ("50.00%".into(), "<0.01%".into(), "0.00%".into()));
    }
}
