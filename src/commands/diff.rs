//! `routerctl diff`: unified diffs of live against merged objects (or the
//! answer of `KUBECTL_EXTERNAL_DIFF`), then the plan; or the plan as JSON.
//! Exits 1 when something would change.

use std::io::{Read, Write};

use anyhow::{Context as _, Result};

use super::{stream, text_outcome, LiveInput, Outcome, Terminal};
use crate::cli::{ColorChoice, DiffArgs, DiffFormat};
use crate::diff::external::ExternalDiff;
use crate::diff::plan::{plan_router, report_json, RouterPlan};
use crate::diff::{compare, diff_compared, Palette};
use crate::output::spool::Spool;
use crate::report::Reporter;

/// `routerctl diff`: the unified diffs (or the external program's answer)
/// and a plan line per router, or the plan as JSON.
pub(super) fn run(
    args: &DiffArgs,
    stdin: &mut dyn Read,
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
    let mut plans: Vec<RouterPlan> = Vec::new();
    stream(&args.common, live, stdin, reporter, &mut |result| {
        let comparisons: Vec<_> = result.items.iter().map(compare).collect();
        plans.push(plan_router(&result.router.namespace, &result.router.name, &result.items, &comparisons));
        if args.output == DiffFormat::Json {
            return Ok(());
        }
        for (item, cmp) in result.items.iter().zip(&comparisons) {
            match &mut external {
                Some(ext) => ext.add(&item.key, cmp.before.as_ref(), &cmp.after)?,
                None => {
                    if let Some(diff) = diff_compared(item, cmp, palette) {
                        spool.write_all(diff.as_bytes()).context("cannot spool output")?;
                    }
                }
            }
        }
        Ok(())
    })?;
    let changed = i32::from(plans.iter().any(RouterPlan::changed));
    if args.output == DiffFormat::Json {
        return text_outcome(&report_json(&plans), changed);
    }
    // The plan closes the diff on a terminal; pipes get the diff alone.
    let notes = if terminal.stderr_is_tty && !reporter.is_quiet() {
        plans.iter().map(|p| p.summary() + "\n").collect()
    } else {
        String::new()
    };
    let code = match external {
        Some(ext) => {
            let answer = ext.run()?;
            reporter.raw(&String::from_utf8_lossy(&answer.stderr));
            spool.write_all(&answer.stdout).context("cannot spool output")?;
            answer.code
        }
        None => changed,
    };
    Ok(Outcome { stdout: spool, code, notes })
}
