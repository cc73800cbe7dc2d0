//! `routerctl render`: every router's objects as the operator would store
//! them, printed as YAML, JSON or names; with `--pass-through`, every input
//! object too (`pipeline::pass_through` says which).

use std::collections::HashMap;

use anyhow::{Context as _, Result};

use super::outcome::Outcome;
use super::stream::{apply_ready, stream, stream_as, LiveInput, RenderAs};
use crate::cli::RenderArgs;
use crate::diagnostic::{rules, Diagnostic};
use crate::input::for_each_document;
use crate::input::inputs::Inputs;
use crate::kube::ObjectKey;
use crate::output::spool::Spool;
use crate::output::{Encoded, Format, Printer};
use crate::pipeline::pass_through::{identity, pass_through, PassThrough};
use crate::pipeline::RouterResult;
use crate::report::Reporter;

pub(super) fn run(args: &RenderArgs, inputs: &mut Inputs, reporter: &mut Reporter) -> Result<Outcome> {
    let live = LiveInput::choose(&args.live, args.live_from_cluster, &args.cluster)?;
    let format = Format::from(args.output);
    let mut printer = Printer::new(format, Spool::new());
    if args.pass_through {
        return with_inputs(args, live, format, printer, inputs, reporter);
    }
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

/// `--pass-through`: the input objects in input order, each rendered object
/// in the place of an input object of its identity, then the rest of the
/// rendered objects, router by router.
fn with_inputs(
    args: &RenderArgs,
    live: LiveInput,
    format: Format,
    mut printer: Printer<Spool>,
    inputs: &mut Inputs,
    reporter: &mut Reporter,
) -> Result<Outcome> {
    let namespace = args.common.namespace.as_deref().unwrap_or("default").to_string();
    let encode = |result: RouterResult| {
        let router = result.router.key();
        let objects = result.items.into_iter().map(|item| {
            let obj = apply_ready(item.merged);
            (identity(&obj, &namespace), format.encode(&obj))
        });
        Ok(objects.map(|(key, encoded)| (key, router.clone(), encoded)).collect::<Vec<_>>())
    };
    let mut rendered: Vec<(ObjectKey, ObjectKey, Encoded)> = Vec::new();
    let mut routers = 0;
    // An application without a router passes through as it is, as the KRM
    // function passes its items: its objects still reach the cluster.
    let how = RenderAs { routers_optional: true, ..RenderAs::default() };
    stream_as(&args.common, live, inputs, reporter, how, &encode, &mut |objects| {
        routers += 1;
        rendered.extend(objects);
        Ok(())
    })?;
    if routers == 0 {
        reporter.note("no ModelRouter among the input documents: every object is printed as it is");
    }
    let mut unprinted: HashMap<ObjectKey, usize> =
        rendered.iter().enumerate().rev().map(|(i, (key, _, _))| (key.clone(), i)).collect();
    // The sources the run read, from the run's inputs: read once.
    let sources = inputs.sources(&args.common.files, args.common.recursive)?;
    for source in sources.iter() {
        for_each_document(source, |doc| {
            if pass_through(&doc)? == PassThrough::Leave {
                return Ok(());
            }
            let key = identity(&doc.value, &namespace);
            match unprinted.remove(&key) {
                Some(i) => {
                    let (_, router, encoded) = &rendered[i];
                    let message = format!(
                        "{} {}/{} is an object the operator writes for ModelRouter {}/{}: its rendered form is \
                         printed in its place",
                        key.kind, key.namespace, key.name, router.namespace, router.name
                    );
                    reporter.warn(
                        Diagnostic::warning(rules::COLLISION, message)
                            .at(doc.origin.place())
                            .hint("remove it from the inputs: applied beside the ModelRouter, the two would fight"),
                    );
                    printer.encoded(encoded)
                }
                None => printer.object(&doc.value),
            }
            .context("cannot spool output")
        })?;
    }
    let mut rest: Vec<usize> = unprinted.into_values().collect();
    rest.sort_unstable();
    for i in rest {
        printer.encoded(&rendered[i].2).context("cannot spool output")?;
    }
    Ok(Outcome { stdout: printer.finish().context("cannot spool output")?, code: 0, notes: String::new() })
}
