//! What `test`, `route` and `verify` share: the routers of the -f inputs
//! rendered as the operator would, on their own data plane or the one
//! chosen, handed to `routing` as [`Router`]s.

use std::path::PathBuf;

use anyhow::{bail, Result};
use serde_json::Value;

use super::stream::{stream_as, LiveInput, RenderAs};
use crate::cli::{CommonArgs, PlaneChoice};
use crate::diagnostic::{diagnostics_of, Diagnostic};
use crate::input::inputs::Inputs;
use crate::input::{for_each_document, for_each_document_placed};
use crate::model::DataPlane;
use crate::pipeline::{Rendered, RouterResult};
use crate::report::Reporter;
use crate::routing::router::{Places, Router};
use crate::routing::suite::{self, TestFile};

/// The planes to render: each router's own, or the one chosen, or both
/// (the -f inputs are read once, stdin too, and rendered twice).
pub(super) fn planes(choice: PlaneChoice) -> Vec<Option<DataPlane>> {
    match choice {
        PlaneChoice::Auto => vec![None],
        PlaneChoice::Proxy => vec![Some(DataPlane::Proxy)],
        PlaneChoice::Gateway => vec![Some(DataPlane::Gateway)],
        PlaneChoice::Both => vec![Some(DataPlane::Proxy), Some(DataPlane::Gateway)],
    }
}

/// Renders the routers of the -f inputs (as `data_plane` when given).
pub(super) fn routers(
    common: &CommonArgs,
    data_plane: Option<DataPlane>,
    inputs: &mut Inputs,
    reporter: &mut Reporter,
) -> Result<Vec<Router>> {
    let finish = |result: RouterResult| -> Result<Router> { router(result) };
    let mut out = Vec::new();
    let how = RenderAs { data_plane, routing_only: true, ..RenderAs::default() };
    let rendered = stream_as(common, LiveInput::Files(&[]), inputs, reporter, how, &finish, &mut |r| {
        out.push(r);
        Ok(())
    });
    if let (Err(e), Some(plane)) = (&rendered, data_plane) {
        bail!("--data-plane: rendered as dataPlane: {plane}, {e:#}");
    }
    rendered?;
    if out.is_empty() {
        bail!("no ModelRouter in the -f inputs; routerctl test, route and verify ask a router where requests go");
    }
    Ok(out)
}

fn router(result: RouterResult) -> Result<Router> {
    let input = &result.router;
    let id = format!("{}/{}", input.namespace, input.name);
    let spec = &input.router.spec;
    let mut router = match &result.rendered {
        Rendered::Proxy(rendered) => Router::proxy(id, input.name.clone(), &rendered.compiled.json, spec),
        Rendered::Gateway(gateway) => {
            let route = result
                .items
                .iter()
                .map(|item| &item.merged)
                .find(|o| o.get("kind").and_then(Value::as_str) == Some("AIGatewayRoute"))
                .ok_or_else(|| anyhow::anyhow!("ModelRouter {id}: no AIGatewayRoute was rendered"))?;
            Router::gateway(id, input.name.clone(), route, &gateway.origins, spec)
        }
    }?;
    router.origin = Some(result.origin.clone());
    router.places = result.document.as_ref().map(Places::of);
    Ok(router)
}

/// The RouterTest documents of `paths`. In `-t` files every document must
/// be one; among the `-f` files (`from_routers`) the others are the
/// routers, but one that looks meant as a RouterTest is refused too: a
/// misspelt kind must not leave its cases unrun in silence. Documents are
/// read one at a time and only their cases kept; every entry that cannot
/// be read is reported, each at its place.
pub(super) fn test_files(
    paths: &[PathBuf],
    recursive: bool,
    from_routers: bool,
    inputs: &mut Inputs,
) -> Result<Vec<TestFile>> {
    let mut files = Vec::new();
    let mut refused: Vec<Diagnostic> = Vec::new();
    for source in inputs.sources(paths, recursive)?.iter() {
        // A -t file is all RouterTests, whose cases each say where they are:
        // their positions come from the one read. Among -f files most
        // documents are routers, placed only when a message needs it.
        let each = if from_routers { for_each_document } else { for_each_document_placed };
        each(source, &mut |doc| {
            if suite::is_test(&doc) {
                match suite::read(&doc) {
                    Ok(file) => files.push(file),
                    Err(errors) => refused.extend(errors),
                }
            } else if !from_routers || suite::looks_like_test(&doc) {
                refused.push(suite::not_a_test(&doc));
            }
            Ok(())
        })?;
    }
    match refused.is_empty() {
        true => Ok(files),
        false => Err(suite::refusal(refused, "the RouterTest entry cannot be read")),
    }
}

/// Two parts of a run that fail apart (the RouterTest files, the routers
/// they test): both are read, and the problems of both are said, the
/// second's ending the run.
pub(super) fn both<A, B>(reporter: &mut Reporter, a: Result<A>, b: Result<B>) -> Result<(A, B)> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(e), Ok(_)) => Err(e),
        (Ok(_), Err(e)) => Err(e),
        (Err(first), Err(second)) => {
            diagnostics_of(&first).into_iter().for_each(|d| reporter.error(d));
            Err(second)
        }
    }
}
