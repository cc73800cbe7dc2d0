//! `routerctl render`: every router's objects as the operator would store
//! them, printed as YAML, JSON or names.

use anyhow::{Context as _, Result};

use super::outcome::Outcome;
use super::stream::{apply_ready, stream, LiveInput};
use crate::cli::RenderArgs;
use crate::input::inputs::Inputs;
use crate::output::spool::Spool;
use crate::output::{Format, Printer};
use crate::pipeline::RouterResult;
use crate::report::Reporter;

pub(super) fn run(args: &RenderArgs, inputs: &mut Inputs, reporter: &mut Reporter) -> Result<Outcome> {
    let live = LiveInput::choose(&args.live, args.live_from_cluster, &args.cluster)?;
    let format = Format::from(args.output);
    let mut printer = Printer::new(format, Spool::new());
    // Each router's objects are encoded where it was reconciled, and
    // joined here in input order.
    let encode = |result: RouterResult| {
        Ok(result.items.into_iter().map(|item| format.encode(&apply_ready(item.merged))).collect::<Vec<_>>())
    };
    stream(&args.common, live, inputs, reporter, &encode, &mut |objects| {
        objects.iter().try_for_each(|obj| printer.encoded(obj)).context("cannot spool output")
    })?;
    Ok(Outcome { stdout: printer.finish().context("cannot spool output")?, code: 0, notes: String::new() })
}
