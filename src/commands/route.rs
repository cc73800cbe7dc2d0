//! `routerctl route`: each router rendered as the operator would, then one
//! request explained: every rule tried, why it matches or not, and where
//! the request goes (on its data plane, or the one chosen).

use std::fmt::Write as _;

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::json;

use super::outcome::{fenced, Outcome};
use super::routers::{planes, routers};
use super::test::decision_json;
use crate::cli::{ReportFormat, RouteArgs};
use crate::input::inputs::Inputs;
use crate::kube::shown::one_line;
use crate::output::spool::Spool;
use crate::output::yaml::{double_quoted, inline_text};
use crate::report::Reporter;
use crate::routing::proxy;
use crate::routing::router::{Plane, Router};
use crate::routing::suite;
use crate::routing::{Decision, Request};

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
        explain(&mut text, target, &request, &args.unhealthy, &decision);
        decisions.push(json!({"router": target.id, "plane": target.data_plane().label(), "decision": decision_json(&decision),
            "tried": decision.trials.iter().map(|t| json!({"rule": t.rule, "matched": t.failed.is_none(), "why": t.failed})).collect::<Vec<_>>()}));
    }
    let body = match args.output {
        ReportFormat::Text => fenced(text, reporter.format()),
        ReportFormat::Json => serde_json::to_string_pretty(&decisions).unwrap_or_default() + "\n",
    };
    let mut out = Spool::new();
    std::io::Write::write_all(&mut out, body.as_bytes()).context("cannot spool output")?;
    Ok(Outcome { stdout: out, code: 0, notes: String::new() })
}

fn explain(out: &mut String, target: &Router, request: &Request, unhealthy: &[String], d: &Decision) {
    let _ = writeln!(out, "{} ({} plane)", target.id, target.data_plane().label());
    let mut asked = vec![format!("model {}", request.model.as_deref().map_or("(none)".to_string(), double_quoted))];
    asked.extend(request.headers.iter().map(|(k, v)| format!("{}: {}", inline_text(k), inline_text(v))));
    let _ = writeln!(out, "  request: {}", asked.join(", "));
    if !unhealthy.is_empty() {
        let _ = writeln!(out, "  down: {}", unhealthy.join(", "));
    }
    if matches!(target.plane, Plane::Gateway { .. }) && !d.trials.is_empty() {
        let _ =
            writeln!(out, "  route rules, by Gateway API precedence (the most header matches first, then rule order):");
    }
    for t in &d.trials {
        match &t.failed {
            None => {
                let _ = writeln!(out, "  {}: matches", t.rule);
            }
            Some(why) => {
                let _ = writeln!(out, "  {}: no — {}", t.rule, one_line(why));
            }
        }
    }
    let _ = writeln!(out, "  → {}", d.matched);
    match d.status {
        Some(status) => {
            let reason = one_line(d.reason.as_deref().unwrap_or(""));
            let _ = writeln!(out, "  → answered by the data plane: {status} ({reason})");
        }
        None => {
            let backends: Vec<String> = d
                .candidates
                .iter()
                .map(|(name, weight)| match weight {
                    Some(w) => format!("{name} (weight {w})"),
                    None => name.clone(),
                })
                .collect();
            let strategy = match (&target.plane, d.strategy.as_str()) {
                (_, "") => String::new(),
                // Upstream's proxy reads neither: the route is tried in order.
                (Plane::Proxy(_), "weighted" | "shadow") => {
                    format!(" ({}: a label only, the proxy tries the route in order)", d.strategy)
                }
                (_, strategy) => format!(" ({strategy})"),
            };
            let _ = writeln!(out, "  → backends in dispatch order{strategy}: {}", backends.join(", then "));
            // A note on the dispatch (Envoy's panic threshold).
            if let Some(reason) = &d.reason {
                let _ = writeln!(out, "    ({reason})");
            }
        }
    }
}
