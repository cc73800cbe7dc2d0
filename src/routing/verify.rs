//! `routerctl verify`'s engine: for each router and data plane, every
//! class of requests with a witness and its decision, the checks that hold
//! for all requests (sensitive classifications leaving the cluster, rule
//! values no request can match, rules no request reaches, the two planes
//! parting, requests nothing routes), the RouterTest invariants, and what
//! a change of the routers moves. Every answer carries a RouterTest case
//! that `routerctl test` passes and that shows it; every witness is
//! decided again before it is reported.
//!
//! Health needs no search: both planes dispatch to the first candidate
//! that is up, so the request reaches candidate `i` exactly when the
//! candidates before it are down, and reaches none when all are (a
//! Gateway priority level in Envoy's panic sends to its down backends too,
//! which are on that list already).

use super::glob::path_match;
use super::proxy::{self, lower_value, UNSEEN_HEADERS};
use super::router::{Plane, Router};
use super::space::{self, partition, Condition, HeaderTest, Limits, Literals, ModelTest, Space};
use super::suite::{Backends, Expect, Health, PlacedInvariant, When};
use super::{Decision, Matched, Request};
use crate::diagnostic::{rules, Diagnostic, Rule, Severity};
use crate::input::child_path;
use crate::kube::names::TASK_COMPLEXITY_HEADER;
use crate::model::DataPlane;
use crate::output::yaml::{double_quoted, inline_text};

/// A RouterTest case that shows an answer: `routerctl test` passes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WitnessCase {
    pub name: String,
    pub request: Request,
    pub unhealthy: Vec<String>,
    pub expect: Expect,
    pub data_plane: DataPlane,
}

/// One check that fails (or warns) for some request: a `Diagnostic` (its
/// rule, severity and message, the ModelRouter field it is about and the
/// place that field is written) and the case that shows it.
#[derive(Debug, Clone)]
pub struct Finding {
    pub diagnostic: Diagnostic,
    pub case: WitnessCase,
}

impl Finding {
    /// A finding of `router` about its field `field`, placed where the
    /// field is written (else where the router is).
    pub fn of(
        router: &Router,
        rule: &'static Rule,
        severity: Severity,
        message: String,
        field: Option<String>,
        case: WitnessCase,
    ) -> Finding {
        let mut diagnostic = Diagnostic::new(severity, rule, message);
        diagnostic.place = field.as_deref().and_then(|f| router.place(f)).or_else(|| router.origin.clone());
        diagnostic.field = field;
        Finding { diagnostic, case }
    }
}

/// Requests that decide alike, with the first of them.
#[derive(Debug, Clone)]
pub struct Class {
    pub request: Request,
    pub decision: Decision,
    /// How many cells of the space it holds.
    pub cells: usize,
}

/// An invariant, checked.
#[derive(Debug, Clone)]
pub struct InvariantResult {
    pub name: String,
    /// Where the invariant is written.
    pub at: crate::diagnostic::Place,
    pub holds: bool,
    /// Why it fails, and a case that shows it.
    pub failure: Option<(String, WitnessCase)>,
}

/// Requests whose decision a change moves, grouped by the routes before
/// and after.
#[derive(Debug, Clone)]
pub struct Change {
    pub request: Request,
    /// The backends down in the case that shows it.
    pub unhealthy: Vec<String>,
    pub before: Decision,
    pub after: Decision,
    /// How many cells move this way.
    pub cells: usize,
    pub case: WitnessCase,
}

/// A sensitive classification that a router dispatches out of the
/// cluster: the path a `sensitive-egress` finding reports, as data (the
/// pictures mark it; no reader parses the finding's message for it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Egress {
    /// The sensitive classification, lower-cased as the proxy reads it.
    pub class: String,
    /// What took the request: a rule, BackendNameMatch, the default route.
    pub matched: Matched,
    /// The backend that leaves the cluster.
    pub backend: String,
    /// The backends down when it happens (none: with every backend up).
    pub down: Vec<String>,
}

/// Everything verified of one router on one plane.
#[derive(Debug, Clone)]
pub struct RouterReport {
    pub router: String,
    /// Where the ModelRouter was read, when it was.
    pub origin: Option<crate::diagnostic::Place>,
    pub plane: DataPlane,
    pub complete: bool,
    pub notes: Vec<String>,
    /// What the search took: the model states visited and the cells.
    pub states: usize,
    pub cells: usize,
    pub classes: Vec<Class>,
    pub unreachable: Vec<String>,
    pub findings: Vec<Finding>,
    /// The paths of the `sensitive-egress` findings, one for each.
    pub egress: Vec<Egress>,
    pub invariants: Vec<InvariantResult>,
    pub changes: Vec<Change>,
}

impl RouterReport {
    /// Whether anything fails: an error finding or an invariant that does
    /// not hold.
    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.diagnostic.severity == Severity::Error)
            || self.invariants.iter().any(|i| !i.holds)
    }
}

/// What to verify.
pub struct Inputs<'a> {
    /// One list of routers per data plane rendered.
    pub planes: &'a [Vec<Router>],
    /// The routers before the change, by plane, when a change is verified.
    pub against: Option<&'a [Vec<Router>]>,
    /// Invariants with the router they name (`None`: every router).
    pub invariants: &'a [(Option<String>, PlacedInvariant)],
    pub limits: Limits,
}

/// Verifies every router on every plane given.
pub fn verify(inputs: &Inputs) -> Vec<RouterReport> {
    let mut out = Vec::new();
    for routers in inputs.planes {
        for router in routers {
            // The same router on the other plane, and before the change.
            let other =
                inputs.planes.iter().flatten().find(|r| r.id == router.id && r.data_plane() != router.data_plane());
            let old = inputs
                .against
                .into_iter()
                .flatten()
                .flatten()
                .find(|r| r.id == router.id && r.data_plane() == router.data_plane());
            let invariants: Vec<&PlacedInvariant> = inputs
                .invariants
                .iter()
                .filter(|(wanted, inv)| {
                    wanted.as_deref().is_none_or(|w| w == router.id || w == router.name)
                        && inv.invariant.data_plane.is_none_or(|p| p == router.data_plane())
                })
                .map(|(_, inv)| inv)
                .collect();
            out.push(verify_one(router, other, old, &invariants, inputs.limits));
        }
    }
    out
}

fn verify_one(
    router: &Router,
    other: Option<&Router>,
    old: Option<&Router>,
    invariants: &[&PlacedInvariant],
    limits: Limits,
) -> RouterReport {
    let (mut space, decisions) = decided(router, &[other, old], invariants, limits);
    if let Some(note) = untried_health(router, &decisions) {
        space.notes.push(note);
        space.complete = false;
    }
    let mut findings = Vec::new();
    let egress = sensitive_egress(router, &space, &decisions, &mut findings);
    unmatchable(router, &mut findings);
    // "No request reaches it" is only known of a search that finished.
    let unreachable =
        if space.complete { unreachable_rules(router, &space, &decisions, limits, &mut findings) } else { Vec::new() };
    unrouted(router, &space, &decisions, &mut findings);
    // The planes are compared once, from the Proxy plane's side.
    if let (Some(other), DataPlane::Proxy) = (other, router.data_plane()) {
        disagreements(router, other, &space, &decisions, &mut findings);
    }
    let invariants = invariants.iter().map(|inv| check_invariant(router, &space, &decisions, inv)).collect();
    let changes = old.map(|old| changes(old, router, &space, &decisions)).unwrap_or_default();
    RouterReport {
        router: router.id.clone(),
        origin: router.origin.clone(),
        plane: router.data_plane(),
        complete: space.complete,
        notes: space.notes.clone(),
        states: space.states,
        cells: space.cells.len(),
        classes: classes(&space, &decisions),
        unreachable,
        findings,
        egress,
        invariants,
        changes,
    }
}

/// The cells grouped by where they go, in the order first met.
fn classes(space: &Space, decisions: &[Decision]) -> Vec<Class> {
    let mut out: Vec<Class> = Vec::new();
    for (cell, decision) in space.cells.iter().zip(decisions) {
        match out.iter_mut().find(|c| c.decision.same_outcome(decision)) {
            Some(class) => class.cells += 1,
            None => out.push(Class { request: cell.clone(), decision: decision.clone(), cells: 1 }),
        }
    }
    out
}

/// The case that pins what `router` does with `request` when `unhealthy`
/// are down (decided again here, so the case is true by construction).
pub fn case_for(router: &Router, request: &Request, unhealthy: &[String], name: String) -> WitnessCase {
    let decision = router.decide_quietly(request, unhealthy);
    WitnessCase {
        name,
        request: request.clone(),
        unhealthy: unhealthy.to_vec(),
        expect: expect_of(&decision),
        data_plane: router.data_plane(),
    }
}

/// The expectation a decision meets: its route, candidates and status.
pub fn expect_of(decision: &Decision) -> Expect {
    Expect {
        rule: Some(decision.matched.label().to_string()),
        backends: Some(decision.backends().iter().map(|b| b.to_string()).collect()),
        strategy: None,
        status: decision.status,
    }
}

/// A decision as `verify -o json` and `diff`'s plan write it: the rule
/// (`null` when none routes), the candidates in order, the status.
pub fn decision_json(d: &Decision) -> serde_json::Value {
    let rule = match &d.matched {
        Matched::Nothing => serde_json::Value::Null,
        other => serde_json::json!(other.label()),
    };
    serde_json::json!({"rule": rule, "backends": d.backends(), "status": d.status})
}

/// A request as `verify -o json` and `diff`'s plan write it: `model` only
/// when the request sends one.
pub fn request_json(r: &Request) -> serde_json::Value {
    let headers: serde_json::Map<String, serde_json::Value> =
        r.headers.iter().map(|(k, v)| (k.clone(), serde_json::json!(v))).collect();
    let mut out = serde_json::Map::new();
    if let Some(model) = &r.model {
        out.insert("model".into(), serde_json::json!(model));
    }
    out.insert("headers".into(), serde_json::Value::Object(headers));
    serde_json::Value::Object(out)
}

/// `model "m", h: v`, for names and messages: the model double-quoted as
/// a case writes it, a header name or value as it is unless it needs the
/// same quoting to read unambiguously (`output::yaml::inline_text`).
pub fn describe(request: &Request) -> String {
    let mut parts = vec![match &request.model {
        Some(m) => format!("model {}", double_quoted(m)),
        None => "no model".to_string(),
    }];
    parts.extend(request.headers.iter().map(|(k, v)| format!("{}: {}", inline_text(k), inline_text(v))));
    parts.join(", ")
}

/// The Gateway rules whose health states are all tried: up to this many
/// backends (2^n decisions per request); a rule with more makes the run
/// incomplete rather than sampled.
const GATEWAY_HEALTH_BACKENDS: usize = 10;

/// Where a request's first try goes (empty: the plane answers itself) with
/// some backends down.
type Reached = (Vec<String>, Vec<String>);

/// Where the first try of `cell` goes in each health state that can change
/// it, the smallest sets of backends down first. The Proxy plane tries its
/// route in order, so the first try goes to candidate `i` exactly when
/// those before it are down, and nowhere when all are. Envoy spreads it
/// over priority levels by their health, and a level in panic over its
/// down backends too: there every set of the rule's backends down is
/// decided again. `None` when a Gateway rule has more backends than
/// [`GATEWAY_HEALTH_BACKENDS`].
fn reach(router: &Router, cell: &Request, decision: &Decision) -> Option<Vec<Reached>> {
    let names: Vec<String> = decision.backends().iter().map(|b| b.to_string()).collect();
    match &router.plane {
        Plane::Proxy(_) => {
            let mut out: Vec<Reached> =
                (0..names.len()).map(|i| (names[..i].to_vec(), vec![names[i].clone()])).collect();
            out.push((names, Vec::new()));
            Some(out)
        }
        Plane::Gateway { .. } => {
            if names.len() > GATEWAY_HEALTH_BACKENDS {
                return None;
            }
            Some(
                down_sets(&names)
                    .into_iter()
                    .map(|down| {
                        let d = if down.is_empty() { decision.clone() } else { router.decide_quietly(cell, &down) };
                        let first: Vec<String> = d.first_tried().iter().map(|b| b.to_string()).collect();
                        (down, first)
                    })
                    .collect(),
            )
        }
    }
}

/// Every set of `names` down, the smallest first, in the order the names
/// are listed within a size (the first backend down before the second).
fn down_sets<S: AsRef<str>>(names: &[S]) -> Vec<Vec<String>> {
    let mut sets: Vec<u32> = (0..1u32 << names.len()).collect();
    sets.sort_by_key(|set| (set.count_ones(), set.reverse_bits()));
    sets.into_iter()
        .map(|set| {
            names.iter().enumerate().filter(|(i, _)| set & (1 << i) != 0).map(|(_, n)| n.as_ref().to_string()).collect()
        })
        .collect()
}

/// Why the health states of some request were not all tried, if so.
fn untried_health(router: &Router, decisions: &[Decision]) -> Option<String> {
    let Plane::Gateway { .. } = router.plane else { return None };
    let widest = decisions.iter().map(|d| d.candidates.len()).max().unwrap_or(0);
    (widest > GATEWAY_HEALTH_BACKENDS).then(|| {
        format!(
            "a Gateway rule spreads requests over {widest} backends, and the health states of more than \
             {GATEWAY_HEALTH_BACKENDS} are not tried one by one: where its requests go with some backends down is \
             not proved"
        )
    })
}

/// Where `router` sends a sensitive classification out of the cluster, in
/// some health state, and whether the search covered every request: the
/// paths `verify` reports as `sensitive-egress`, for a caller that needs
/// only them (a picture of a router that `verify` did not run on).
pub fn egress_of(router: &Router, limits: Limits) -> (Vec<Egress>, bool) {
    let (space, decisions) = decided(router, &[], &[], limits);
    let complete = space.complete && untried_health(router, &decisions).is_none();
    (sensitive_egress(router, &space, &decisions, &mut Vec::new()), complete)
}

/// The `sensitive-egress` findings, each with its path.
fn sensitive_egress(
    router: &Router,
    space: &Space,
    decisions: &[Decision],
    findings: &mut Vec<Finding>,
) -> Vec<Egress> {
    let mut paths = Vec::new();
    let mut seen: std::collections::HashSet<(String, String, String)> = std::collections::HashSet::new();
    for (cell, decision) in space.cells.iter().zip(decisions) {
        let class = router.classification(cell);
        if !router.is_sensitive(&class) {
            continue;
        }
        for (down, first) in reach(router, cell, decision).into_iter().flatten() {
            for target in first {
                let Some(backend) = router.backend(&target) else { continue };
                if !backend.leaves_cluster() {
                    continue;
                }
                let key = (class.clone(), decision.matched.label().to_string(), backend.name.clone());
                if !seen.insert(key) {
                    continue;
                }
                let why = match &backend.provider {
                    Some(provider) if backend.tier == "local" => format!(
                        "external ({provider}) although its tier is local (the CRD defaults an absent tier to local; \
                     the fail-closed gate trusts it)"
                    ),
                    Some(provider) => format!("tier {}, external ({provider})", backend.tier),
                    None => format!("tier {}", backend.tier),
                };
                let when = if down.is_empty() { String::new() } else { format!(" when {} down", down.join(", ")) };
                let message = format!(
                    "{class} requests ({}) go to {} ({why}) by {}{when}",
                    describe(cell),
                    backend.name,
                    by(&decision.matched)
                );
                let name = format!("{class} leaves the cluster via {}", backend.name);
                // Placed at what sends it out: the rule's reference to the
                // backend, the default route, or BackendNameMatch.
                let field = router.dispatch_field(&decision.matched, &backend.name);
                let case = case_for(router, cell, &down, name);
                findings.push(Finding::of(router, rules::SENSITIVE_EGRESS, Severity::Error, message, field, case));
                paths.push(Egress {
                    class: class.clone(),
                    matched: decision.matched.clone(),
                    backend: backend.name.clone(),
                    down: down.clone(),
                });
            }
        }
    }
    paths
}

/// Why no request the proxy handles carries a header a rule names `name`,
/// if none does. The proxy looks the rule's name up lower-cased by Go's
/// `strings.ToLower` (`x-\u{212A}ey`, with a Kelvin sign, is `x-key`),
/// among the request's names, which Go's server hands on only as tokens
/// and without the ones it moves out of `r.Header`.
fn unseen_header(name: &str) -> Option<String> {
    let lower = lower_value(name);
    if UNSEEN_HEADERS.contains(&lower.as_str()) {
        return Some(format!("Go's HTTP server moves {} out of the request's headers", double_quoted(name)));
    }
    if !proxy::is_token(&lower) {
        return Some(format!(
            "{} is no HTTP header name (a token), even lower-cased as the proxy looks it up: Go's HTTP server \
             answers a request with such a name 400",
            double_quoted(name)
        ));
    }
    None
}

/// Why the proxy never reads `value` from a header, if it never does: Go's
/// server answers a request with a control character in a header value 400
/// (`httpguts.ValidHeaderFieldValue`), and hands every other value on
/// without the spaces and tabs around it (`textproto`).
fn unseen_value(value: &str) -> Option<String> {
    if !proxy::is_valid_value(value) {
        return Some(
            "it holds a control character, and Go's HTTP server answers a request whose header value has one 400"
                .to_string(),
        );
    }
    let received = proxy::received_value(value);
    if received != value {
        return Some(format!(
            "Go's HTTP server trims the spaces and tabs around a header value, so the proxy reads {}",
            double_quoted(received)
        ));
    }
    None
}

fn unmatchable(router: &Router, findings: &mut Vec<Finding>) {
    let Plane::Proxy(config) = &router.plane else { return };
    // Placed at the value: `field` under the rule's `match`.
    let mut push = |rule: &str, field: String, message: String, request: Request| {
        let name = format!("{rule}: {}", describe(&request));
        let field = router.rule_field(rule).map(|r| format!("{r}.match.{field}"));
        let case = case_for(router, &request, &[], name);
        findings.push(Finding::of(router, rules::UNMATCHABLE, Severity::Error, message, field, case));
    };
    // Why a value the proxy compares lower-cased never matches: it is never
    // received, or it is not lower-case.
    let lowered = |value: &str, header: &str| -> Option<String> {
        unseen_value(value).or_else(|| {
            (lower_value(value) != value).then(|| {
                format!("the proxy lower-cases the {header} header (write {})", double_quoted(&lower_value(value)))
            })
        })
    };
    for r in &config.rules {
        let m = &r.match_;
        for (j, value) in m.data_classification.iter().enumerate() {
            if let Some(why) = lowered(value, &router.class_header) {
                push(
                    &r.name,
                    format!("dataClassification[{j}]"),
                    format!("rule {}: dataClassification {} can never match: {why}", r.name, double_quoted(value)),
                    Request { model: None, headers: vec![(router.class_header.clone(), value.clone())] },
                );
            }
        }
        if let Some(why) = lowered(&m.task_complexity, TASK_COMPLEXITY_HEADER) {
            push(
                &r.name,
                "taskComplexity".to_string(),
                format!("rule {}: taskComplexity {} can never match: {why}", r.name, double_quoted(&m.task_complexity)),
                Request { model: None, headers: vec![(TASK_COMPLEXITY_HEADER.to_string(), m.task_complexity.clone())] },
            );
        }
        for (j, glob) in m.models.iter().enumerate() {
            if path_match(glob, glob).is_none() || path_match(glob, "").is_none() {
                push(
                    &r.name,
                    format!("models[{j}]"),
                    format!(
                        "rule {}: model glob {} is malformed (Go's path.Match: ErrBadPattern), so it matches no model",
                        r.name,
                        double_quoted(glob)
                    ),
                    Request { model: Some(glob.clone()), headers: Vec::new() },
                );
            }
        }
        for (name, value) in &m.headers {
            let why = unseen_header(name)
                .map(|why| format!("header {} can never match: {why}", double_quoted(name)))
                .or_else(|| {
                    unseen_value(value)
                        .map(|why| format!("header {name} value {} can never match: {why}", double_quoted(value)))
                })
                .or_else(|| {
                    // A header Go's server reads itself (Content-Length,
                    // Expect) with a value it refuses: no request with it
                    // reaches the proxy.
                    let alone = Request { model: None, headers: vec![(lower_value(name), value.clone())] };
                    proxy::refused_by_server(&alone)
                        .map(|(_, why)| format!("header {name} value {} can never match: {why}", double_quoted(value)))
                });
            if let Some(why) = why {
                push(
                    &r.name,
                    child_path("headers", name),
                    format!("rule {}: {why}", r.name),
                    Request { model: None, headers: vec![(name.clone(), value.clone())] },
                );
            }
        }
    }
}

fn unreachable_rules(
    router: &Router,
    space: &Space,
    decisions: &[Decision],
    limits: Limits,
    findings: &mut Vec<Finding>,
) -> Vec<String> {
    let reached: std::collections::HashSet<&str> = decisions.iter().map(|d| d.matched.label()).collect();
    let mut out = Vec::new();
    let rule_names: Vec<String> = match &router.plane {
        Plane::Proxy(config) => config.rules.iter().map(|r| r.name.clone()).collect(),
        Plane::Gateway { rules, .. } => {
            let mut names: Vec<String> = Vec::new();
            for rule in rules {
                if let Matched::Rule(name) = &rule.from {
                    if !names.contains(name) {
                        names.push(name.clone());
                    }
                }
            }
            names
        }
    };
    // What the proxy reads of each cell, read once for every rule asked.
    let mut features = None;
    for name in rule_names {
        if reached.contains(&name.as_str()) {
            continue;
        }
        if let (Plane::Proxy(config), None) = (&router.plane, &features) {
            features = Some(space.cells.iter().map(|cell| proxy::features(config, cell)).collect::<Vec<_>>());
        }
        // The cells its own conditions take, and who takes them instead.
        let own = match &router.plane {
            Plane::Proxy(config) => config.rules.iter().find(|r| r.name == name),
            Plane::Gateway { .. } => None,
        };
        let takes = |i: usize, cell: &Request| -> bool {
            match (&router.plane, &features) {
                (Plane::Proxy(config), Some(features)) => {
                    own.is_some_and(|r| proxy::rule_matches(config, r, &features[i]))
                }
                (Plane::Gateway { rules, .. }, _) => {
                    rules.iter().any(|r| r.from == Matched::Rule(name.clone()) && r.takes(cell))
                }
                (Plane::Proxy(_), None) => false,
            }
        };
        let mut shadows: Vec<String> = Vec::new();
        let mut witness: Option<Request> = None;
        for (i, (cell, decision)) in space.cells.iter().zip(decisions).enumerate() {
            if takes(i, cell) {
                witness.get_or_insert_with(|| cell.clone());
                let by = decision.matched.label().to_string();
                if !shadows.contains(&by) {
                    shadows.push(by);
                }
            }
        }
        // The cells follow the decisions, so the requests a shadowed rule
        // matches may share cells with others: cut again with its own
        // conditions apart, to say who takes them.
        let mut unfinished = false;
        if let (None, Plane::Proxy(config), Some(rule)) = (&witness, &router.plane, own) {
            if let Some(condition) = space::rule_condition(config, &router.class_header, rule) {
                let mut literals = Literals::default();
                literals.add_router(router);
                literals.add_condition(condition);
                let apart = partition(&literals, limits);
                unfinished = !apart.complete;
                for cell in &apart.cells {
                    if proxy::rule_matches(config, rule, &proxy::features(config, cell)) {
                        witness.get_or_insert_with(|| cell.clone());
                        let by = router.decide_quietly(cell, &[]).matched.label().to_string();
                        if !shadows.contains(&by) {
                            shadows.push(by);
                        }
                    }
                }
            }
        }
        let (message, request) = match witness {
            Some(cell) => {
                let take = if shadows.len() == 1 { "takes" } else { "take" };
                (
                    format!(
                        "rule {name} is reached by no request: {} {take} every request it matches",
                        shadows.join(", ")
                    ),
                    cell,
                )
            }
            // The rule is unreachable either way (the router's own search
            // said so); only the second search, for who takes its
            // requests, stopped short.
            None if unfinished => (
                format!(
                    "rule {name} is reached by no request: the search for a request it matches stopped at a budget \
                     before it found one"
                ),
                Request::default(),
            ),
            None => (format!("rule {name} is reached by no request: its conditions match none"), Request::default()),
        };
        let case = case_for(router, &request, &[], format!("{name} is shadowed"));
        let field = router.rule_field(&name);
        findings.push(Finding::of(router, rules::UNREACHABLE_RULE, Severity::Warning, message, field, case));
        out.push(name);
    }
    out
}

fn unrouted(router: &Router, space: &Space, decisions: &[Decision], findings: &mut Vec<Finding>) {
    // A 400 is Go's server refusing the request, not a missing route.
    let lost: Vec<usize> = (0..decisions.len())
        .filter(|&i| decisions[i].matched == Matched::Nothing && decisions[i].status != Some(400))
        .collect();
    let Some(&first) = lost.first() else { return };
    let cell = &space.cells[first];
    let status = decisions[first].status.map_or(String::new(), |s| format!(" {s}"));
    let message = format!(
        "{} of {} cells of the request space match no rule and there is no default route: answered{status} ({})",
        lost.len(),
        decisions.len(),
        describe(cell)
    );
    let case = case_for(router, cell, &[], "no route".to_string());
    // What is missing is a default route: placed at the spec that has none.
    findings.push(Finding::of(router, rules::UNROUTED, Severity::Warning, message, Some("spec".into()), case));
}

fn disagreements(
    router: &Router,
    gateway: &Router,
    space: &Space,
    decisions: &[Decision],
    findings: &mut Vec<Finding>,
) {
    let mut seen: Vec<(String, String)> = Vec::new();
    for (cell, decision) in space.cells.iter().zip(decisions) {
        let other = gateway.decide_quietly(cell, &[]);
        if decision.same_outcome(&other) {
            continue;
        }
        let key = (decision.matched.label().to_string(), other.matched.label().to_string());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let message = format!(
            "{}: the Proxy plane sends it by {} to {}, the Gateway plane by {} to {}",
            describe(cell),
            decision.matched.label(),
            outcome(decision),
            other.matched.label(),
            outcome(&other)
        );
        let case = case_for(gateway, cell, &[], format!("planes part: {}", describe(cell)));
        // Placed at the route the Proxy plane takes (else the Gateway's).
        let field = router.route_field(&decision.matched).or_else(|| router.route_field(&other.matched));
        findings.push(Finding::of(router, rules::PLANE_DISAGREEMENT, Severity::Error, message, field, case));
    }
}

/// What took a request, in a sentence.
fn by(matched: &Matched) -> String {
    match matched {
        Matched::Rule(name) => format!("rule {name}"),
        Matched::NameMatch(_) => "BackendNameMatch".to_string(),
        Matched::Default => "the default route (no rule matches)".to_string(),
        Matched::Nothing => "no route".to_string(),
    }
}

/// `[a, b]`, `503`, or `[a | b, c]` where the first try is spread over
/// `a` and `b` (`a ×3 | b ×1` where their weights differ).
pub fn outcome(d: &Decision) -> String {
    if let Some(status) = d.status {
        return status.to_string();
    }
    let first = &d.candidates[..d.first_try.min(d.candidates.len())];
    let rest = d.candidates[first.len()..].iter().map(|(name, _)| name.clone());
    let even = first.windows(2).all(|w| w[0].1.unwrap_or(1) == w[1].1.unwrap_or(1));
    let spread: Vec<String> = first
        .iter()
        .map(|(name, weight)| if even { name.clone() } else { format!("{name} ×{}", weight.unwrap_or(1)) })
        .collect();
    let mut parts: Vec<String> = Vec::new();
    if !spread.is_empty() {
        parts.push(spread.join(" | "));
    }
    parts.extend(rest);
    format!("[{}]", parts.join(", "))
}

/// Adds an invariant's `when`, so that no cell holds requests it tells
/// apart.
fn add_when(literals: &mut Literals, router: &Router, when: &When) {
    let mut headers = Vec::new();
    if !when.classification.is_empty() {
        headers.push(HeaderTest::LowerIn { name: router.class_header.clone(), values: when.classification.clone() });
    }
    if !when.complexity.is_empty() {
        headers.push(HeaderTest::LowerIn { name: TASK_COMPLEXITY_HEADER.to_string(), values: when.complexity.clone() });
    }
    for (k, v) in &when.headers {
        headers.push(HeaderTest::Is { name: k.to_ascii_lowercase(), value: v.clone() });
    }
    let models = (!when.models.is_empty()).then(|| ModelTest { globs: when.models.clone(), ids: Vec::new() });
    literals.add_condition(Condition { headers, models });
}

fn header<'r>(request: &'r Request, name: &str) -> Option<&'r str> {
    request.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

fn when_holds(router: &Router, when: &When, request: &Request) -> bool {
    let class = router.classification(request);
    let complexity = header(request, TASK_COMPLEXITY_HEADER).map(lower_value).unwrap_or_default();
    (when.classification.is_empty() || when.classification.contains(&class))
        && (when.complexity.is_empty() || when.complexity.contains(&complexity))
        && (when.models.is_empty() || proxy::match_models(&when.models, request.model.as_deref().unwrap_or_default()))
        && when.headers.iter().all(|(k, v)| header(request, k) == Some(v.as_str()))
}

fn fits(router: &Router, backends: &Backends, name: &str) -> bool {
    let facts = router.backend(name);
    backends.backends.iter().any(|b| b == name)
        || backends.tier.as_ref().is_some_and(|t| facts.is_some_and(|f| &f.tier == t))
        || backends.external.is_some_and(|e| facts.is_some_and(|f| f.provider.is_some() == e))
}

fn check_invariant(
    router: &Router,
    space: &Space,
    decisions: &[Decision],
    placed: &PlacedInvariant,
) -> InvariantResult {
    let inv = &placed.invariant;
    let failure = (|| {
        for (cell, decision) in space.cells.iter().zip(decisions) {
            if !when_holds(router, &inv.when, cell) {
                continue;
            }
            let mut reached = reach(router, cell, decision).unwrap_or_default();
            if inv.unhealthy == Health::None {
                reached.truncate(1);
            }
            let targets = reached.into_iter().flat_map(|(down, first)| {
                let first: Vec<Option<String>> =
                    if first.is_empty() { vec![None] } else { first.into_iter().map(Some).collect() };
                first.into_iter().map(move |target| (down.clone(), target))
            });
            for (down, target) in targets {
                let why = match &target {
                    Some(b) if inv.never.as_ref().is_some_and(|n| fits(router, n, b)) => {
                        Some(format!("{} goes to {b}, which it must never reach", describe(cell)))
                    }
                    Some(b) if inv.only.as_ref().is_some_and(|o| !fits(router, o, b)) => {
                        Some(format!("{} goes to {b}, which is not among the only backends allowed", describe(cell)))
                    }
                    None => {
                        let answered = router.decide_quietly(cell, &down).status;
                        match (inv.status, answered) {
                            (Some(want), Some(got)) if want != got => {
                                Some(format!("{} is answered {got}, not {want}", describe(cell)))
                            }
                            _ => None,
                        }
                    }
                    Some(_) => None,
                };
                if let Some(mut why) = why {
                    if !down.is_empty() {
                        why.push_str(&format!(" when {} down", down.join(", ")));
                    }
                    let case = case_for(router, cell, &down, format!("{} fails", inv.name));
                    return Some((why, case));
                }
            }
        }
        None
    })();
    InvariantResult { name: inv.name.clone(), at: placed.at.clone(), holds: failure.is_none(), failure }
}

/// What changing `old` into `new` moves (the same router, one plane):
/// the changes, and whether the search covered every request.
pub fn what_moves(old: &Router, new: &Router, limits: Limits) -> (Vec<Change>, bool) {
    let (space, decisions) = decided(new, &[Some(old)], &[], limits);
    let complete = space.complete && untried_health(new, &decisions).is_none();
    (changes(old, new, &space, &decisions), complete)
}

/// The cells of the space that `router`, the `others` it is compared with
/// and the invariants' literals tell apart, each decided by `router` with
/// every backend up.
fn decided(
    router: &Router,
    others: &[Option<&Router>],
    invariants: &[&PlacedInvariant],
    limits: Limits,
) -> (Space, Vec<Decision>) {
    let mut literals = Literals::default();
    for r in std::iter::once(router).chain(others.iter().flatten().copied()) {
        literals.add_router(r);
    }
    for inv in invariants {
        add_when(&mut literals, router, &inv.invariant.when);
    }
    let space = partition(&literals, limits);
    let decisions = space.cells.iter().map(|cell| router.decide_quietly(cell, &[])).collect();
    (space, decisions)
}

/// Where the cells' decisions differ between `old` and `new`, in every
/// health state either router's dispatch meets: all up, each prefix of
/// either's candidate list down (the request then goes to the next one),
/// and both lists down. All up, a change of route is a change too; with
/// backends down, where the request goes is: the candidates in order and
/// the status. Grouped by the routes, what each does and the backends down.
fn changes(old: &Router, new: &Router, space: &Space, decisions: &[Decision]) -> Vec<Change> {
    type Key = (String, String, String, String, Vec<String>);
    let mut groups: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    let mut out: Vec<Change> = Vec::new();
    for (cell, after_up) in space.cells.iter().zip(decisions) {
        let before_up = old.decide_quietly(cell, &[]);
        for unhealthy in health_states(new, &before_up, after_up) {
            let (before, after) = if unhealthy.is_empty() {
                (before_up.clone(), after_up.clone())
            } else {
                (old.decide_quietly(cell, &unhealthy), new.decide_quietly(cell, &unhealthy))
            };
            let moved = if unhealthy.is_empty() { !before.same_outcome(&after) } else { !before.same_dispatch(&after) };
            if !moved {
                continue;
            }
            let (from, to) = (before.matched.label().to_string(), after.matched.label().to_string());
            let key = (from, to, outcome(&before), outcome(&after), unhealthy);
            if let Some(&i) = groups.get(&key) {
                out[i].cells += 1;
                continue;
            }
            let down = if key.4.is_empty() { String::new() } else { format!(" with {} down", key.4.join(", ")) };
            let name = format!("{} → {}: {}{down}", key.0, key.1, describe(cell));
            let unhealthy = key.4.clone();
            groups.insert(key, out.len());
            out.push(Change {
                request: cell.clone(),
                before: old.decide(cell, &unhealthy),
                after: new.decide(cell, &unhealthy),
                case: case_for(new, cell, &unhealthy, name),
                unhealthy,
                cells: 1,
            });
        }
    }
    out
}

/// The health states two decisions of one request are compared in. On
/// the Proxy plane: all up, each prefix of `a`'s candidates down, then of
/// `b`'s, then both lists down; each set of backends once. On the Gateway
/// plane, where Envoy spreads a request by the health of whole priority
/// levels, every set of the two lists' backends (smallest first), up to
/// [`GATEWAY_HEALTH_BACKENDS`] of them; past that the prefixes, and the run
/// says it is incomplete ([`untried_health`]).
fn health_states(plane: &Router, a: &Decision, b: &Decision) -> Vec<Vec<String>> {
    let (a, b) = (a.backends(), b.backends());
    let mut union: Vec<&str> = a.clone();
    union.extend(b.iter().filter(|n| !a.contains(n)));
    if plane.data_plane() == DataPlane::Gateway && union.len() <= GATEWAY_HEALTH_BACKENDS {
        return down_sets(&union);
    }
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut push = |state: Vec<String>| {
        let mut key = state.clone();
        key.sort();
        if !out.iter().any(|s| {
            let mut s = s.clone();
            s.sort();
            s == key
        }) {
            out.push(state);
        }
    };
    for list in [&a, &b] {
        for i in 0..=list.len() {
            push(list[..i].iter().map(|s| s.to_string()).collect());
        }
    }
    let mut both: Vec<String> = a.iter().map(|s| s.to_string()).collect();
    both.extend(b.iter().filter(|n| !a.contains(n)).map(|s| s.to_string()));
    push(both);
    out
}
