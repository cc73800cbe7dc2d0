//! `routerctl route`: each router rendered as the operator would, then one
//! request explained: every rule tried, why it matches or not, and where
//! the request goes (on its data plane, or the one chosen).

use anyhow::{anyhow, bail, Context as _, Result};

use super::outcome::Outcome;
use super::routers::{planes, routers};
use crate::cli::{ReportFormat, RouteArgs};
use crate::input::inputs::Inputs;
use crate::output::spool::Spool;
use crate::report::{human, json, Reporter};
use crate::routing::proxy;
use crate::routing::suite;
use crate::routing::Request;

/// `name=value` or `name: value`, as sent: Go's server, not this reader,
/// trims the spaces and tabs around a value (and keeps U+0085, U+00A0,
/// U+3000), and answers 400 for a space around a name or a control
/// character in a value, as `route` then shows.
fn header(text: &str) -> Result<(String, String)> {
    let (name, value) = text
        .split_once('=')
        .or_else(|| text.split_once(':'))
        .ok_or_else(|| anyhow!("-H {text:?}: write a header as name=value"))?;
    if name.trim().is_empty() {
        bail!("-H {text:?}: the header has no name");
    }
    Ok((name.to_string(), value.to_string()))
}

pub(super) fn run(args: &RouteArgs, inputs: &mut Inputs, reporter: &mut Reporter) -> Result<Outcome> {
    let headers = args.headers.iter().map(|h| header(h)).collect::<Result<Vec<_>>>()?;
    let request = Request { model: args.model.clone(), headers };
    if let Some((name, why)) = proxy::impossible_body(&request) {
        bail!("-H {name} and --model: {why}");
    }
    let mut text = String::new();
    let mut decisions = Vec::new();
    for plane in planes(args.data_plane) {
        let routers = routers(&args.common, plane, inputs, reporter)?;
        let target = suite::pick(&routers, args.router.as_deref(), "--router")?;
        if let Some(ghost) = args.unhealthy.iter().find(|b| !target.has_backend(b)) {
            let known: Vec<&str> = target.backends.iter().map(|b| b.name.as_str()).collect();
            bail!("--unhealthy {ghost:?}: no such backend in {} (it has {})", target.id, known.join(", "));
        }
        let decision = target.decide(&request, &args.unhealthy);
        text.push_str(&human::route(target, &request, &args.unhealthy, &decision));
        decisions.push(json::route_answer(target, &decision));
    }
    let body = match args.output {
        ReportFormat::Text => reporter.fenced(text),
        ReportFormat::Json => json::route(decisions),
    };
    let mut out = Spool::new();
    std::io::Write::write_all(&mut out, body.as_bytes()).context("cannot spool output")?;
    Ok(Outcome { stdout: out, code: 0, notes: String::new() })
}
