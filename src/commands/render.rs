//! `routerctl render`: every router's objects as the operator would store
//! them, printed as YAML, JSON or names.

use std::io::Read;

use anyhow::{Context as _, Result};

use super::{apply_ready, stream_objects, LiveInput, Outcome};
use crate::cli::RenderArgs;
use crate::output::spool::Spool;
use crate::output::Printer;
use crate::report::Reporter;

pub(super) fn run(args: &RenderArgs, stdin: &mut dyn Read, reporter: &mut Reporter) -> Result<Outcome> {
    let live = LiveInput::choose(&args.live, args.live_from_cluster, &args.cluster)?;
    let mut printer = Printer::new(args.output, Spool::new());
    stream_objects(&args.common, live, stdin, reporter, &mut |item| {
        printer.object(&apply_ready(item.merged)).context("cannot spool output")
    })?;
    Ok(Outcome { stdout: printer.finish().context("cannot spool output")?, code: 0, notes: String::new() })
}
