//! `routerctl test` and `routerctl route`: each router rendered as the
//! operator would, then asked where requests go, on its data plane (or the
//! one chosen) — RouterTest cases checked, or one request explained.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::Read;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::{json, Value};

use super::outcome::Outcome;
use super::stream::{stream_as, LiveInput};
use crate::cli::{CommonArgs, PlaneChoice, ReportFormat, RouteArgs, TestArgs};
use crate::diagnostic::{rules, Diagnostic};
use crate::input::{documents, read_sources};
use crate::kube::names::sanitize_dns_name;
use crate::output::spool::Spool;
use crate::pipeline::{Rendered, RouterResult};
use crate::report::{MessageFormat, Reporter};
use crate::routing::gateway::{self, RouteRule};
use crate::routing::proxy::{self, ProxyConfig};
use crate::routing::suite::{self, Case, TestFile};
use crate::routing::{Decision, Matched, Request};

/// One router, rendered, ready to be asked.
struct Target {
    /// `namespace/name`.
    id: String,
    name: String,
    plane: Plane,
    /// Every route a case may reach: the rules' names, then `name-match`
    /// and `default` when configured.
    routes: Vec<String>,
    /// The router's backends, by name.
    backends: Vec<String>,
}

enum Plane {
    Proxy(Box<ProxyConfig>),
    Gateway {
        rules: Vec<RouteRule>,
        /// Backend names as the route writes them → as the ModelRouter does.
        names: HashMap<String, String>,
    },
}

impl Plane {
    fn label(&self) -> &'static str {
        match self {
            Plane::Proxy(_) => "Proxy",
            Plane::Gateway { .. } => "Gateway",
        }
    }
}

impl Target {
    fn decide(&self, request: &Request, unhealthy: &[String]) -> Decision {
        match &self.plane {
            Plane::Proxy(config) => proxy::decide(config, request, unhealthy),
            Plane::Gateway { rules, names } => {
                let unhealthy: Vec<String> = unhealthy.iter().map(|b| sanitize_dns_name(b)).collect();
                let mut decision = gateway::decide(rules, request, &unhealthy);
                for (name, _) in &mut decision.candidates {
                    if let Some(original) = names.get(name) {
                        name.clone_from(original);
                    }
                }
                decision
            }
        }
    }
}

/// Renders the routers of the -f inputs (as `data_plane` when given).
fn targets(
    common: &CommonArgs,
    data_plane: Option<&str>,
    stdin: &mut dyn Read,
    reporter: &mut Reporter,
) -> Result<Vec<Target>> {
    let finish = |result: RouterResult| -> Result<Target> { target(result) };
    let mut out = Vec::new();
    let rendered = stream_as(common, LiveInput::Files(&[]), stdin, reporter, data_plane, &finish, &mut |t| {
        out.push(t);
        Ok(())
    });
    if let (Err(e), Some(plane)) = (&rendered, data_plane) {
        bail!("--data-plane: rendered as dataPlane: {plane}, {e:#}");
    }
    rendered?;
    if out.is_empty() {
        bail!("no ModelRouter in the -f inputs; routerctl test and route ask a router where requests go");
    }
    Ok(out)
}

fn target(result: RouterResult) -> Result<Target> {
    let input = &result.router;
    let id = format!("{}/{}", input.namespace, input.name);
    let spec = &input.router.spec;
    let mut routes: Vec<String> = spec.rules.iter().flatten().map(|r| r.name.clone()).collect();
    let name_match = spec.default_route_strategy.as_deref() == Some("BackendNameMatch");
    let default = spec.default_route.as_deref().is_some_and(|d| !d.is_empty());
    if name_match {
        routes.push("name-match".into());
    }
    if default {
        routes.push("default".into());
    }
    let plane = match &result.rendered {
        Rendered::Proxy(rendered) => Plane::Proxy(Box::new(ProxyConfig::from_json(&rendered.compiled.json)?)),
        Rendered::Gateway(_) => {
            let route = result
                .items
                .iter()
                .map(|item| &item.merged)
                .find(|o| o.get("kind").and_then(Value::as_str) == Some("AIGatewayRoute"))
                .ok_or_else(|| anyhow!("ModelRouter {id}: no AIGatewayRoute was rendered"))?;
            // What each route rule was compiled from, in the operator's order.
            let mut from: Vec<Matched> = spec.rules.iter().flatten().map(|r| Matched::Rule(r.name.clone())).collect();
            if name_match {
                from.extend(spec.backends.iter().map(|b| Matched::NameMatch(b.name.clone())));
            }
            if default {
                from.push(Matched::Default);
            }
            let names = spec.backends.iter().map(|b| (sanitize_dns_name(&b.name), b.name.clone())).collect();
            Plane::Gateway { rules: gateway::route_rules(route, &from), names }
        }
    };
    let backends = spec.backends.iter().map(|b| b.name.clone()).collect();
    Ok(Target { id, name: input.name.clone(), plane, routes, backends })
}

/// The router a test file or `--router` names, among `targets`.
fn pick<'t>(targets: &'t [Target], wanted: Option<&str>, whose: &str) -> Result<&'t Target> {
    match wanted {
        Some(w) => targets.iter().find(|t| t.id == w || t.name == w).ok_or_else(|| {
            let known: Vec<&str> = targets.iter().map(|t| t.id.as_str()).collect();
            anyhow!("{whose}: no ModelRouter {w:?} in the -f inputs (they hold {})", known.join(", "))
        }),
        None if targets.len() == 1 => Ok(&targets[0]),
        None => {
            let known: Vec<&str> = targets.iter().map(|t| t.id.as_str()).collect();
            bail!(
                "{whose}: the -f inputs hold {} routers ({}); name one with `router:`",
                targets.len(),
                known.join(", ")
            )
        }
    }
}

/// A case that names what its router does not have is a mistake in the
/// test (a misspelt backend would silently be "up", a misspelt rule never
/// reached): refused with its place.
fn check_names(case: &Case, target: &Target) -> Result<()> {
    let backends = case.unhealthy.iter().chain(case.expect.backends.iter().flatten());
    for name in backends {
        if !target.backends.contains(name) {
            bail!(
                "{}: {:?}: no backend {name:?} in {} (it has {})",
                case.at,
                case.name,
                target.id,
                target.backends.join(", ")
            );
        }
    }
    if let Some(rule) = &case.expect.rule {
        let known = target.routes.contains(rule) || matches!(rule.as_str(), "none" | "default" | "name-match");
        if !known {
            bail!(
                "{}: {:?}: expect.rule {rule:?} is no rule of {} (its routes: {}; or none)",
                case.at,
                case.name,
                target.id,
                target.routes.join(", ")
            );
        }
    }
    Ok(())
}

/// The planes to render: each router's own, or the one chosen, or both
/// (which reads the -f inputs twice: files, not stdin).
fn planes(choice: PlaneChoice, common: &CommonArgs) -> Result<Vec<Option<&'static str>>> {
    Ok(match choice {
        PlaneChoice::Auto => vec![None],
        PlaneChoice::Proxy => vec![Some("Proxy")],
        PlaneChoice::Gateway => vec![Some("Gateway")],
        PlaneChoice::Both if reads_stdin(common) => {
            bail!("--data-plane both renders the inputs twice; give -f files, not stdin")
        }
        PlaneChoice::Both => vec![Some("Proxy"), Some("Gateway")],
    })
}

fn reads_stdin(common: &CommonArgs) -> bool {
    common.files.iter().any(|f| f.as_os_str() == "-")
}

/// The RouterTest documents of `paths`.
fn test_files(
    paths: &[PathBuf],
    recursive: bool,
    stdin: &mut dyn Read,
    stdin_used: &mut bool,
) -> Result<Vec<TestFile>> {
    let paths = crate::input::recursive::expand(paths, recursive)?;
    let mut files = Vec::new();
    for source in read_sources(&paths, stdin, stdin_used)? {
        for doc in documents(&source)? {
            if suite::is_test(&doc) {
                files.push(suite::read(&doc)?);
            }
        }
    }
    Ok(files)
}

/// The outcome of one case on one plane.
struct Ran<'a> {
    case: &'a Case,
    router: &'a str,
    plane: &'static str,
    decision: Decision,
    mismatches: Vec<String>,
}

pub(super) fn run(args: &TestArgs, stdin: &mut dyn Read, reporter: &mut Reporter) -> Result<Outcome> {
    let planes = planes(args.data_plane, &args.common)?;
    let mut stdin_used = false;
    // Test files first: -f - may be stdin, which the render reads.
    let files = if args.tests.is_empty() {
        if reads_stdin(&args.common) {
            bail!("the RouterTest cases are read from the -f files when -t is not given; with -f -, give them with -t");
        }
        test_files(&args.common.files, args.common.recursive, stdin, &mut stdin_used)?
    } else {
        test_files(&args.tests, args.common.recursive, stdin, &mut stdin_used)?
    };
    if files.is_empty() {
        bail!(
            "no RouterTest document (apiVersion: {}, kind: {}) in {}",
            suite::API_VERSION,
            suite::KIND,
            if args.tests.is_empty() { "the -f files; give test files with -t" } else { "the -t files" }
        );
    }
    let rendered: Vec<Vec<Target>> =
        planes.iter().map(|plane| targets(&args.common, *plane, stdin, reporter)).collect::<Result<_>>()?;
    let mut ran: Vec<Ran> = Vec::new();
    for file in &files {
        for targets in &rendered {
            let target = pick(targets, file.router.as_deref(), &file.origin)?;
            for case in &file.cases {
                check_names(case, target)?;
                let decision = target.decide(&case.request, &case.unhealthy);
                let judged = case.data_plane.is_none_or(|p| p.label() == target.plane.label());
                let mismatches = if judged { suite::mismatches(&case.expect, &decision) } else { Vec::new() };
                ran.push(Ran { case, router: &target.id, plane: target.plane.label(), decision, mismatches });
            }
        }
    }
    let failed = ran.iter().filter(|r| !r.mismatches.is_empty()).count();
    let coverage = coverage(&rendered, &ran);
    let below = args.min_coverage.filter(|min| coverage.iter().any(|c| c.percent() < f64::from(*min)));
    let disagreements = disagreements(&ran, rendered.len());
    let mut out = Spool::new();
    let text = match args.output {
        ReportFormat::Text => {
            text_report(&ran, &coverage, &disagreements, args.coverage || args.min_coverage.is_some())
        }
        ReportFormat::Json => json_report(&ran, &coverage, &disagreements) + "\n",
    };
    std::io::Write::write_all(&mut out, text.as_bytes()).context("cannot spool output")?;
    if let Some(min) = below {
        reporter.warn(Diagnostic::warning(rules::TEST, format!("coverage under --min-coverage {min}%")));
    }
    // People read the failures in the report; CI reads them as findings at
    // their case, to annotate it.
    if reporter.format() != MessageFormat::Human {
        for r in ran.iter().filter(|r| !r.mismatches.is_empty()) {
            let message = format!(
                "case {:?} fails for {} ({}): {}; the router does {}",
                r.case.name,
                r.router,
                r.plane,
                r.mismatches.join("; "),
                outcome(&r.decision)
            );
            reporter.error(Diagnostic::error(rules::TEST, message).at(r.case.at.clone()));
        }
    }
    let code = i32::from(failed > 0 || below.is_some());
    Ok(Outcome { stdout: out, code, notes: String::new() })
}

/// The routes of one router the cases reached.
struct Coverage {
    router: String,
    plane: &'static str,
    routes: Vec<String>,
    reached: BTreeSet<String>,
}

impl Coverage {
    fn percent(&self) -> f64 {
        if self.routes.is_empty() {
            return 100.0;
        }
        let hit = self.routes.iter().filter(|r| self.reached.contains(*r)).count();
        100.0 * hit as f64 / self.routes.len() as f64
    }

    fn missed(&self) -> Vec<&str> {
        self.routes.iter().filter(|r| !self.reached.contains(*r)).map(String::as_str).collect()
    }
}

fn coverage(rendered: &[Vec<Target>], ran: &[Ran]) -> Vec<Coverage> {
    let mut out = Vec::new();
    for targets in rendered {
        for target in targets {
            let runs: Vec<&Ran> =
                ran.iter().filter(|r| r.router == target.id && r.plane == target.plane.label()).collect();
            if runs.is_empty() {
                continue;
            }
            let reached = runs.iter().map(|r| r.decision.matched.label().to_string()).collect();
            out.push(Coverage {
                router: target.id.clone(),
                plane: target.plane.label(),
                routes: target.routes.clone(),
                reached,
            });
        }
    }
    out
}

/// Cases the two planes decide differently (with `--data-plane both`).
fn disagreements<'a>(ran: &'a [Ran<'a>], planes: usize) -> Vec<(&'a Ran<'a>, &'a Ran<'a>)> {
    if planes < 2 {
        return Vec::new();
    }
    let proxy: Vec<&Ran> = ran.iter().filter(|r| r.plane == "Proxy").collect();
    let gateway: Vec<&Ran> = ran.iter().filter(|r| r.plane == "Gateway").collect();
    proxy
        .into_iter()
        .zip(gateway)
        .filter(|(p, g)| {
            p.decision.matched.label() != g.decision.matched.label()
                || p.decision.backends() != g.decision.backends()
                || p.decision.status != g.decision.status
        })
        .collect()
}

/// `rule r → [a, b]`, or `rule r → 503 (why)`.
fn outcome(d: &Decision) -> String {
    match d.status {
        Some(status) => format!("{} → {status}", d.matched.label()),
        None => format!("{} → {}", d.matched.label(), suite::list(&d.backends())),
    }
}

fn text_report(ran: &[Ran], coverage: &[Coverage], disagreements: &[(&Ran, &Ran)], show_coverage: bool) -> String {
    let mut out = String::new();
    let mut groups: Vec<(&str, &str)> = Vec::new();
    for r in ran {
        if !groups.contains(&(r.router, r.plane)) {
            groups.push((r.router, r.plane));
        }
    }
    for (router, plane) in groups {
        let runs: Vec<&Ran> = ran.iter().filter(|r| r.router == router && r.plane == plane).collect();
        let failed: Vec<&&Ran> = runs.iter().filter(|r| !r.mismatches.is_empty()).collect();
        let _ = writeln!(out, "{router} ({plane}): {} of {} cases pass", runs.len() - failed.len(), runs.len());
        for r in failed {
            let _ = writeln!(
                out,
                "  FAIL {} {:?}: {}; the router does {}",
                r.case.at,
                r.case.name,
                r.mismatches.join("; "),
                outcome(&r.decision)
            );
        }
    }
    for (p, g) in disagreements {
        let _ = writeln!(
            out,
            "  DIFFER {} {:?}: Proxy {}, Gateway {}",
            p.case.at,
            p.case.name,
            outcome(&p.decision),
            outcome(&g.decision)
        );
    }
    if show_coverage {
        for c in coverage {
            let missed = c.missed();
            let _ =
                write!(out, "coverage {} ({}): {:.0}% of {} routes", c.router, c.plane, c.percent(), c.routes.len());
            if missed.is_empty() {
                out.push('\n');
            } else {
                let _ = writeln!(out, "; no case reaches {}", missed.join(", "));
            }
        }
    }
    out
}

fn decision_json(d: &Decision) -> Value {
    json!({
        "rule": d.matched.label(),
        "strategy": d.strategy,
        "backends": d.candidates.iter().map(|(name, weight)| match weight {
            Some(w) => json!({"name": name, "weight": w}),
            None => json!({"name": name}),
        }).collect::<Vec<_>>(),
        "status": d.status,
        "reason": d.reason,
    })
}

fn json_report(ran: &[Ran], coverage: &[Coverage], disagreements: &[(&Ran, &Ran)]) -> String {
    let cases: Vec<Value> = ran
        .iter()
        .map(|r| {
            json!({
                "router": r.router,
                "plane": r.plane,
                "name": r.case.name,
                "at": r.case.at.to_string(),
                "passed": r.mismatches.is_empty(),
                "mismatches": r.mismatches,
                "decision": decision_json(&r.decision),
            })
        })
        .collect();
    let coverage: Vec<Value> = coverage
        .iter()
        .map(|c| json!({"router": c.router, "plane": c.plane, "routes": c.routes, "missed": c.missed(), "percent": c.percent()}))
        .collect();
    let differ: Vec<Value> = disagreements
        .iter()
        .map(|(p, g)| json!({"name": p.case.name, "at": p.case.at.to_string(), "proxy": decision_json(&p.decision), "gateway": decision_json(&g.decision)}))
        .collect();
    serde_json::to_string_pretty(&json!({"cases": cases, "coverage": coverage, "disagreements": differ}))
        .unwrap_or_default()
}

/// `name=value` or `name: value`.
fn header(text: &str) -> Result<(String, String)> {
    let (name, value) = text
        .split_once('=')
        .or_else(|| text.split_once(':'))
        .ok_or_else(|| anyhow!("-H {text:?}: write a header as name=value"))?;
    let name = name.trim();
    if name.is_empty() {
        bail!("-H {text:?}: the header has no name");
    }
    Ok((name.to_string(), value.trim().to_string()))
}

pub(super) fn route(args: &RouteArgs, stdin: &mut dyn Read, reporter: &mut Reporter) -> Result<Outcome> {
    let headers = args.headers.iter().map(|h| header(h)).collect::<Result<Vec<_>>>()?;
    let request = Request { model: args.model.clone(), headers };
    let mut text = String::new();
    let mut decisions = Vec::new();
    for plane in planes(args.data_plane, &args.common)? {
        let targets = targets(&args.common, plane, stdin, reporter)?;
        let target = pick(&targets, args.router.as_deref(), "--router")?;
        if let Some(ghost) = args.unhealthy.iter().find(|b| !target.backends.contains(b)) {
            bail!("--unhealthy {ghost:?}: no such backend in {} (it has {})", target.id, target.backends.join(", "));
        }
        let decision = target.decide(&request, &args.unhealthy);
        explain(&mut text, target, &request, &args.unhealthy, &decision);
        decisions.push(json!({"router": target.id, "plane": target.plane.label(), "decision": decision_json(&decision),
            "tried": decision.trials.iter().map(|t| json!({"rule": t.rule, "matched": t.failed.is_none(), "why": t.failed})).collect::<Vec<_>>()}));
    }
    let body = match args.output {
        ReportFormat::Text => text,
        ReportFormat::Json => serde_json::to_string_pretty(&decisions).unwrap_or_default() + "\n",
    };
    let mut out = Spool::new();
    std::io::Write::write_all(&mut out, body.as_bytes()).context("cannot spool output")?;
    Ok(Outcome { stdout: out, code: 0, notes: String::new() })
}

fn explain(out: &mut String, target: &Target, request: &Request, unhealthy: &[String], d: &Decision) {
    let _ = writeln!(out, "{} ({} plane)", target.id, target.plane.label());
    let mut asked =
        vec![format!("model {}", request.model.as_deref().map_or("(none)".to_string(), |m| format!("{m:?}")))];
    asked.extend(request.headers.iter().map(|(k, v)| format!("{k}: {v}")));
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
                let _ = writeln!(out, "  {}: no — {why}", t.rule);
            }
        }
    }
    let _ = writeln!(out, "  → {}", d.matched);
    match d.status {
        Some(status) => {
            let _ = writeln!(out, "  → answered by the data plane: {status} ({})", d.reason.as_deref().unwrap_or(""));
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
        }
    }
}
