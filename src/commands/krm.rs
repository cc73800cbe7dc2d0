//! `routerctl krm`: the KRM function (`crate::krm`) as kustomize and kpt
//! run it: a `ResourceList` on stdin, the answer on stdout, each error
//! result again on stderr when kustomize runs it (kpt shows the results),
//! and exit 1 when the answer holds an error.

use std::io::Read;

use anyhow::Result;

use super::outcome::{text_outcome, Outcome};
use crate::input::{decode_resource_list, read_limited, MAX_SOURCE_BYTES};
use crate::krm::{refused, run};
use crate::report::Reporter;

/// `routerctl krm`: the `ResourceList` on stdin, the function's answer on
/// stdout, exit 1 when it holds an error.
pub(super) fn command(stdin: &mut dyn Read, reporter: &mut Reporter) -> Result<Outcome> {
    // Bytes that are not a ResourceList's text (too many, not UTF-8) are
    // answered as any bad input is: a ResourceList whose result says why.
    let read = read_limited("stdin", stdin, MAX_SOURCE_BYTES).and_then(|bytes| decode_resource_list("stdin", bytes));
    let outcome = match read {
        Ok(input) => run(&input),
        Err(e) => refused(format!("cannot read the ResourceList: {e:#}")),
    };
    // kustomize shows a function's stderr, not its results: the errors the
    // function says again for it.
    for error in outcome.errors {
        reporter.error(error);
    }
    text_outcome(&outcome.output, i32::from(outcome.failed))
}
