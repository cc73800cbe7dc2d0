//! Where `replay`'s requests come from: each `--log` file, the router's
//! proxy pods through `kubectl logs` (`--from-cluster`) and each
//! `--counts` file, read a line at a time into one `routing::replay::Tally`,
//! with the lines that were not requests counted (and the first of each
//! kind that may be a mistake warned of), and each input that held no
//! request with what it held instead.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};

use super::stream::kubectl_options;
use crate::cli::ReplayArgs;
use crate::diagnostic::{kubectl_said, rules, Diagnostic, Place};
use crate::input::inputs::Inputs;
use crate::input::log::{self, classify, Line};
use crate::input::{InputPath, STDIN_NAME};
use crate::kube::count::grouped;
use crate::live::logs::{self, ProxyLogs};
use crate::model::duration::parse_at;
use crate::report::results::SkippedLines;
use crate::report::Reporter;
use crate::routing::replay::{LineRef, Tally};
use crate::routing::router::{Plane, Router};

/// Lines read between two looks at the progress line.
const PROGRESS_LINES: u64 = 1 << 16;

/// The lines of the logs that were not requests, and the first of each
/// kind that may be a mistake.
#[derive(Default)]
struct Skipped {
    lines: SkippedLines,
    first_not_log: Option<Place>,
    first_malformed: Option<(Place, String)>,
}

/// What the inputs held: every request, tallied; the lines that were not
/// requests; the inputs that gave no request, and what each held instead.
pub(super) struct Read {
    pub tally: Tally,
    pub skipped: SkippedLines,
    pub empty: Vec<Empty>,
}

/// Every request of the inputs `args` names, tallied, and what else they
/// held.
pub(super) fn read(args: &ReplayArgs, router: &Router, inputs: &mut Inputs, reporter: &mut Reporter) -> Result<Read> {
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
    Ok(Read { tally, skipped: skipped.lines, empty })
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
            Line::OtherLog => self.skipped.lines.other += 1,
            Line::NotLog => {
                self.skipped.lines.not_log += 1;
                self.skipped.first_not_log.get_or_insert_with(place);
            }
            Line::Malformed(why) => {
                self.skipped.lines.malformed += 1;
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
pub(super) enum Empty {
    /// A `--log` file: the lines read, none a `router.dispatch` line.
    Log { name: String, lines: u64 },
    /// The proxy's pods, through `kubectl logs`: the lines read.
    Cluster { lines: u64, since: Option<String> },
    /// A `--counts` file: its rows (none, or counting no request).
    Counts { name: String, counted: log::Counted },
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
            grouped(skipped.lines.malformed, "router.dispatch line", "router.dispatch lines")
        );
        reporter.warn(Diagnostic::warning(rules::REPLAY_LOG, message).at(place.clone()));
    }
    if let Some(place) = &skipped.first_not_log {
        let message = format!(
            "{} not a slog line (JSON or text), skipped; the first here",
            grouped(skipped.lines.not_log, "line", "lines")
        );
        reporter.warn(Diagnostic::warning(rules::REPLAY_LOG, message).at(place.clone()));
    }
}
