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
use super::models::{Budget, Spent};
use super::proxy::{self, lower_value, UNSEEN_HEADERS};
use super::router::{Plane, Router};
use super::space::{self, partition, Clock, Condition, HeaderTest, Limits, Literals, Located, ModelTest, Space};
use super::suite::{Backends, Expect, Health, PlacedInvariant, When};
use super::vocabulary::{vocabulary, Kind, Word};
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
    /// The router's own vocabulary decided again against the proof.
    pub self_check: SelfCheck,
}

/// What the self-check did: each request of the router's vocabulary
/// (`routing::vocabulary`) decided by the same `decide` that `test` runs
/// and compared with the decision the proof gives the cell it falls in,
/// with every backend up and, for a router of up to
/// [`SELF_CHECK_HEALTH_ROUTES`] routes, in every health state that can
/// tell the two apart. Run on a search that finished; a mismatch makes it
/// incomplete.
#[derive(Debug, Clone, Default)]
pub struct SelfCheck {
    /// Whether it ran (the search finished).
    pub ran: bool,
    /// The requests of the vocabulary.
    pub requests: usize,
    /// Of them, the ones Go's HTTP server answers itself (a control
    /// character, a malformed `Content-Length`, ...): no cell stands for
    /// them, as no router reads them.
    pub unreceived: usize,
    /// Decisions taken (each request in each state, and its cell's
    /// witness once a state with backends down), each charged
    /// `Literals::rules` rule evaluations against `--max-decisions`.
    pub decisions: u64,
    /// Whether the health states were tried, not only all up.
    pub health: bool,
    /// The requests decided otherwise than their cells (the first
    /// [`MISMATCHES_KEPT`]).
    pub mismatches: Vec<Mismatch>,
    /// How many there were in all.
    pub mismatched: usize,
    /// The run's budget (`--timeout`, `--max-memory`) that stopped it
    /// before the last request, if one did.
    pub stopped: Option<Spent>,
}

/// A request of the vocabulary that the proof gets wrong.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub kind: Kind,
    pub request: Request,
    /// The backends down when it parts from its cell.
    pub unhealthy: Vec<String>,
    /// The cell's witness and the decision the proof gives it, when the
    /// request falls in a cell.
    pub cell: Option<(Request, Decision)>,
    /// What `decide` says.
    pub decided: Decision,
    /// Why it is a mismatch, in a sentence.
    pub why: String,
    /// The request as a RouterTest case that `routerctl test` passes.
    pub case: WitnessCase,
}

/// Routers of up to this many routes have their vocabulary decided in
/// every health state; above it, with every backend up (each request then
/// costs one decision, not one per state).
pub const SELF_CHECK_HEALTH_ROUTES: usize = 64;

/// Mismatches kept and said per router; the rest are counted.
const MISMATCHES_KEPT: usize = 5;

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

/// Verifies every router on every plane given, each within what is left
/// of the run's budgets: a router whose turn comes after the deadline (or
/// with the heap full) is reported incomplete, not verified.
pub fn verify(inputs: &Inputs) -> Vec<RouterReport> {
    let mut out = Vec::new();
    for routers in inputs.planes {
        for router in routers {
            if let Err(spent) = Clock::new(&inputs.limits).now() {
                out.push(unverified(router, inputs.limits.spent(spent)));
                continue;
            }
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

/// The report of a router the run's budget ran out before: nothing of it
/// verified, and said so.
fn unverified(router: &Router, spent: String) -> RouterReport {
    RouterReport {
        router: router.id.clone(),
        origin: router.origin.clone(),
        plane: router.data_plane(),
        complete: false,
        notes: vec![format!("{spent} before this router's turn came: nothing of it was verified")],
        states: 0,
        cells: 0,
        classes: Vec::new(),
        unreachable: Vec::new(),
        findings: Vec::new(),
        egress: Vec::new(),
        invariants: Vec::new(),
        changes: Vec::new(),
        self_check: SelfCheck::default(),
    }
}

/// What the checks after the search found: each finding proved by its
/// case, each invariant checked over every cell, whether or not a later
/// check stopped.
#[derive(Default)]
struct Checked {
    findings: Vec<Finding>,
    egress: Vec<Egress>,
    unreachable: Vec<String>,
    invariants: Vec<InvariantResult>,
    changes: Vec<Change>,
}

/// A check after the search that the run's budget stopped: the budget,
/// and the check, as a note names it.
type Stopped = (Spent, String);

/// The check a rule's findings come from, as a note names it.
fn check_of(rule: &Rule) -> String {
    format!("the {} check", rule.id)
}

/// The note that says a check after the search stopped: which budget,
/// which check, and that the ones after it did not run.
fn unfinished(limits: &Limits, (spent, check): &Stopped) -> String {
    format!("{}: {check} did not finish, and no check after it ran", limits.spent(*spent))
}

fn verify_one(
    router: &Router,
    other: Option<&Router>,
    old: Option<&Router>,
    invariants: &[&PlacedInvariant],
    limits: Limits,
) -> RouterReport {
    let mut clock = Clock::new(&limits);
    let (literals, mut space, decisions) = decided(router, &[other, old], invariants, limits, &mut clock);
    let mut self_check = SelfCheck::default();
    if space.complete {
        let routers: Vec<&Router> = std::iter::once(router).chain([other, old].into_iter().flatten()).collect();
        let whens: Vec<&When> = invariants.iter().map(|inv| &inv.invariant.when).collect();
        let words = vocabulary(&routers, &whens);
        let notes;
        (self_check, notes) = check_vocabulary(router, &words, &literals, &space, &decisions, limits);
        if !notes.is_empty() {
            space.notes.extend(notes);
            space.complete = false;
        }
    }
    if let Some(note) = untried_health(router, &decisions) {
        space.notes.push(note);
        space.complete = false;
    }
    // Said once: a search, a deciding of the cells or a self-check that
    // the run's budget stopped has said so.
    let said = matches!(space.stopped, Some(Spent::Time | Spent::Heap)) || self_check.stopped.is_some();
    let mut checked = Checked::default();
    if let Err(stopped) = checks(router, other, old, invariants, &space, &decisions, limits, &mut clock, &mut checked) {
        if !said {
            space.notes.push(unfinished(&limits, &stopped));
        }
        space.complete = false;
    }
    let Checked { findings, egress, unreachable, invariants, changes } = checked;
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
        self_check,
    }
}

/// The checks that hold for all requests, the invariants and the change,
/// in turn over the cells, each reading the run's clock as it goes; the
/// first that the budget stops ends them, what they found kept.
#[allow(clippy::too_many_arguments)]
fn checks(
    router: &Router,
    other: Option<&Router>,
    old: Option<&Router>,
    invariants: &[&PlacedInvariant],
    space: &Space,
    decisions: &[Decision],
    limits: Limits,
    clock: &mut Clock,
    out: &mut Checked,
) -> Result<(), Stopped> {
    // The clock read before the first: a deadline already past stops them
    // all, whatever turn the deciding of the cells ended on.
    clock.now().map_err(|spent| (spent, check_of(rules::SENSITIVE_EGRESS)))?;
    sensitive_egress(router, space, decisions, &mut out.findings, &mut out.egress, clock)?;
    unmatchable(router, &mut out.findings, clock)?;
    // "No request reaches it" is only known of a search that finished.
    if space.complete {
        unreachable_rules(router, space, decisions, limits, &mut out.findings, &mut out.unreachable, clock)?;
    }
    unrouted(router, space, decisions, &mut out.findings, clock)?;
    // The planes are compared once, from the Proxy plane's side.
    if let (Some(other), DataPlane::Proxy) = (other, router.data_plane()) {
        disagreements(router, other, space, decisions, &mut out.findings, clock)?;
    }
    for inv in invariants {
        out.invariants.push(check_invariant(router, space, decisions, inv, clock)?);
    }
    if let Some(old) = old {
        changes(old, router, space, decisions, clock, &mut out.changes)?;
    }
    Ok(())
}

/// Decides each word of the vocabulary, finds the cell of `space` it falls
/// in, and compares: the self-check, and the notes that make the proof
/// incomplete (a mismatch, or a budget spent before the last word).
pub fn check_vocabulary(
    router: &Router,
    words: &[Word],
    literals: &Literals,
    space: &Space,
    decisions: &[Decision],
    limits: Limits,
) -> (SelfCheck, Vec<String>) {
    let mut check = SelfCheck {
        ran: true,
        requests: words.len(),
        health: router.routes.len() <= SELF_CHECK_HEALTH_ROUTES,
        ..SelfCheck::default()
    };
    let mut notes = Vec::new();
    let mut locator = space.locator(literals);
    // What the cells took of --max-decisions is spent; the rest is the
    // self-check's.
    let rules = literals.rules.max(1) as u64;
    let left = limits.decisions.saturating_sub(space.cells.len() as u64 * rules) / rules;
    let clock = Budget { states: 0, steps: 0, held: 0, deadline: limits.deadline, heap: limits.heap };
    let mut witnessed: std::collections::HashMap<(usize, Vec<String>), Decision> = std::collections::HashMap::new();
    let mismatch =
        |check: &mut SelfCheck, word: &Word, down: Vec<String>, cell: Option<(Request, Decision)>, why: String| {
            check.mismatched += 1;
            if check.mismatches.len() < MISMATCHES_KEPT {
                let decided = router.decide_quietly(&word.request, &down);
                let case = case_for(router, &word.request, &down, format!("self-check: {}", describe(&word.request)));
                check.mismatches.push(Mismatch {
                    kind: word.kind,
                    request: word.request.clone(),
                    unhealthy: down,
                    cell,
                    decided,
                    why,
                    case,
                });
            }
        };
    for (n, word) in words.iter().enumerate() {
        if n % 64 == 0 {
            if let Err(spent) = clock.check() {
                notes.push(format!(
                    "{} after the self-check had decided {n} of the {} requests of the router's own vocabulary",
                    limits.spent(spent),
                    words.len()
                ));
                check.stopped = Some(spent);
                return (check, notes);
            }
        }
        if check.decisions > left {
            notes.push(format!(
                "the self-check spent --max-decisions {} after {n} of the {} requests of the router's own vocabulary",
                limits.decisions,
                words.len()
            ));
            return (check, notes);
        }
        let request = &word.request;
        // What Go's server answers itself no router reads: the space is
        // of the requests it hands on.
        if proxy::refused_by_server(request).is_some() {
            check.unreceived += 1;
            continue;
        }
        let cell = match locator.locate(request) {
            Located::Cell(i) => i,
            Located::Unreceived => {
                check.unreceived += 1;
                continue;
            }
            Located::Missing(why) => {
                mismatch(&mut check, word, Vec::new(), None, format!("it falls in no cell of the proof: {why}"));
                continue;
            }
        };
        let (witness, proved) = (&space.cells[cell], &decisions[cell]);
        let decided = router.decide_quietly(request, &[]);
        check.decisions += 1;
        if !decided.same_outcome(proved) {
            let why = format!(
                "`decide` sends it {}, its cell ({}) is proved to go {}",
                outcome_of(&decided),
                describe(witness),
                outcome_of(proved)
            );
            mismatch(&mut check, word, Vec::new(), Some((witness.clone(), proved.clone())), why);
            continue;
        }
        if !check.health {
            continue;
        }
        for down in health_states(router, &decided, proved).into_iter().filter(|d| !d.is_empty()) {
            let a = router.decide_quietly(request, &down);
            check.decisions += 1;
            // Many words fall in one cell: its witness is decided once a state.
            let b = match witnessed.get(&(cell, down.clone())) {
                Some(b) => b.clone(),
                None => {
                    check.decisions += 1;
                    let b = router.decide_quietly(witness, &down);
                    witnessed.insert((cell, down.clone()), b.clone());
                    b
                }
            };
            if !a.same_outcome(&b) {
                let why = format!(
                    "with {} down `decide` sends it {}, its cell ({}) {}",
                    down.join(", "),
                    outcome_of(&a),
                    describe(witness),
                    outcome_of(&b)
                );
                mismatch(&mut check, word, down, Some((witness.clone(), b)), why);
                break;
            }
        }
    }
    for m in &check.mismatches {
        notes.push(format!(
            "the self-check decided {} ({} of the router) unlike the proof: {}",
            describe(&m.request),
            m.kind.label(),
            m.why
        ));
    }
    if check.mismatched > check.mismatches.len() {
        notes.push(format!(
            "the self-check found {} more requests of the router's own vocabulary decided unlike the proof",
            check.mismatched - check.mismatches.len()
        ));
    }
    (check, notes)
}

/// `rule → [a, b]`, `none → 503`, as the self-check's notes say it.
fn outcome_of(d: &Decision) -> String {
    format!("{} → {}", d.matched.label(), outcome(d))
}

/// The cells grouped by where they go, in the order first met. Two
/// decisions of another route or status never go alike, so a cell is
/// compared only with the classes of its own: linear in the cells, which
/// the report is built from whatever budget stopped the checks.
fn classes(space: &Space, decisions: &[Decision]) -> Vec<Class> {
    let mut out: Vec<Class> = Vec::new();
    let mut of_route: std::collections::HashMap<(&str, Option<u16>), Vec<usize>> = std::collections::HashMap::new();
    for (cell, decision) in space.cells.iter().zip(decisions) {
        let alike = of_route.entry((decision.matched.label(), decision.status)).or_default();
        match alike.iter().find(|&&i| out[i].decision.same_outcome(decision)) {
            Some(&i) => out[i].cells += 1,
            None => {
                alike.push(out.len());
                out.push(Class { request: cell.clone(), decision: decision.clone(), cells: 1 });
            }
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
    let mut clock = Clock::new(&limits);
    let (_, space, decisions) = decided(router, &[], &[], limits, &mut clock);
    let mut paths = Vec::new();
    let finished = sensitive_egress(router, &space, &decisions, &mut Vec::new(), &mut paths, &mut clock).is_ok();
    let complete = finished && space.complete && untried_health(router, &decisions).is_none();
    (paths, complete)
}

/// The `sensitive-egress` findings, each with its path in `paths`; each
/// path found is proved by its case, whether or not the clock stops the
/// check before the last cell.
fn sensitive_egress(
    router: &Router,
    space: &Space,
    decisions: &[Decision],
    findings: &mut Vec<Finding>,
    paths: &mut Vec<Egress>,
    clock: &mut Clock,
) -> Result<(), Stopped> {
    let mut seen: std::collections::HashSet<(String, String, String)> = std::collections::HashSet::new();
    for (cell, decision) in space.cells.iter().zip(decisions) {
        clock.tick().map_err(|spent| (spent, check_of(rules::SENSITIVE_EGRESS)))?;
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
    Ok(())
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

fn unmatchable(router: &Router, findings: &mut Vec<Finding>, clock: &mut Clock) -> Result<(), Stopped> {
    let Plane::Proxy(config) = &router.plane else { return Ok(()) };
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
        clock.tick().map_err(|spent| (spent, check_of(rules::UNMATCHABLE)))?;
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
    Ok(())
}

/// The rules no request reaches, each with who takes the requests it
/// matches, into `out`. Where the run's budget stops it, the rules not
/// finished are left out: a rule is reported only once its cells, and
/// the second search for its requests, are through.
fn unreachable_rules(
    router: &Router,
    space: &Space,
    decisions: &[Decision],
    limits: Limits,
    findings: &mut Vec<Finding>,
    out: &mut Vec<String>,
    clock: &mut Clock,
) -> Result<(), Stopped> {
    let reached: std::collections::HashSet<&str> = decisions.iter().map(|d| d.matched.label()).collect();
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
    let at = |name: &str| format!("{} (at rule {name})", check_of(rules::UNREACHABLE_RULE));
    // What the proxy reads of each cell, read once for every rule asked.
    let mut features = None;
    for name in &rule_names {
        let name = name.clone();
        if reached.contains(&name.as_str()) {
            continue;
        }
        if let (Plane::Proxy(config), None) = (&router.plane, &features) {
            let mut read = Vec::with_capacity(space.cells.len());
            for cell in &space.cells {
                clock.tick().map_err(|spent| (spent, at(&name)))?;
                read.push(proxy::features(config, cell));
            }
            features = Some(read);
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
            clock.tick().map_err(|spent| (spent, at(&name)))?;
            if takes(i, cell) {
                witness.get_or_insert_with(|| cell.clone());
                let by = decision.matched.label().to_string();
                if !shadows.contains(&by) {
                    shadows.push(by);
                }
            }
        }
        // The cells follow the decisions, so the cells a shadowed rule
        // matches show some of the rules that take its requests, maybe
        // not every one. Cut again within its own conditions, by the
        // rules before it (one of them takes each such request), to say
        // who takes them: by those up to the last rule the cells show,
        // where they show some (the rules after it then take none of its
        // requests, or the list is said to be partial), else by all.
        let shown = witness.is_some();
        let mut partial = shown;
        let mut unfinished = false;
        if let (Plane::Proxy(config), Some(rule)) = (&router.plane, own) {
            let position = |n: &str| config.rules.iter().position(|r| r.name == n);
            let before = position(&rule.name).unwrap_or(config.rules.len());
            let mut upto = match shown {
                true => shadows.iter().filter_map(|by| position(by)).max().map_or(0, |last| last + 1),
                false => before,
            };
            // Cut by the rules up to the last one the cells show; where a
            // rule after those takes some of its requests, cut again up to
            // the last one found, until no rule after the cut takes any.
            while let Some(condition) = space::rule_condition(config, &router.class_header, rule).filter(|_| upto > 0) {
                let mut literals = Literals::default();
                literals.add_rules_before(config, &router.class_header, upto);
                literals.within(condition);
                // A search costs as much as many turns: the clock is read
                // before it, and a search the run's budget stopped stops
                // the check (the budgets of its own are said below).
                clock.now().map_err(|spent| (spent, at(&name)))?;
                let apart = space.partition_within(&literals, limits);
                if let Some(spent @ (Spent::Time | Spent::Heap)) = apart.stopped {
                    return Err((spent, at(&name)));
                }
                let mut found: Vec<String> = Vec::new();
                let mut first = None;
                for cell in &apart.cells {
                    clock.tick().map_err(|spent| (spent, at(&name)))?;
                    if proxy::rule_matches(config, rule, &proxy::features(config, cell)) {
                        first.get_or_insert_with(|| cell.clone());
                        let by = router.decide_quietly(cell, &[]).matched.label().to_string();
                        if !found.contains(&by) {
                            found.push(by);
                        }
                    }
                }
                // Exact when finished and every request was taken by the
                // rules it cut by.
                let within = found.iter().all(|by| position(by).is_some_and(|i| i < upto));
                if apart.complete && within {
                    (shadows, witness, partial) = (found, first.or(witness), false);
                } else if apart.complete && upto < before {
                    // Again, up to the last rule this cut found taking some.
                    let last = found.iter().filter_map(|by| position(by)).max().map_or(before, |l| l + 1);
                    upto = last.clamp(upto + 1, before);
                    continue;
                } else if !shown {
                    unfinished = !apart.complete;
                    (shadows, witness) = (found, first);
                    partial = unfinished && witness.is_some();
                }
                break;
            }
        }
        // In the order the router tries them, the default route last.
        shadows.sort_by_key(|by| rule_names.iter().position(|n| n == by).unwrap_or(usize::MAX));
        let (message, request) = match witness {
            // The cells, or a search that stopped short, show some.
            Some(cell) if partial => (
                format!(
                    "rule {name} is reached by no request: the rules before it take every request it matches ({} \
                     take{} some)",
                    shadows.join(", "),
                    if shadows.len() == 1 { "s" } else { "" }
                ),
                cell,
            ),
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
    Ok(())
}

fn unrouted(
    router: &Router,
    space: &Space,
    decisions: &[Decision],
    findings: &mut Vec<Finding>,
    clock: &mut Clock,
) -> Result<(), Stopped> {
    // A 400 is Go's server refusing the request, not a missing route.
    let mut lost: Vec<usize> = Vec::new();
    for (i, d) in decisions.iter().enumerate() {
        clock.tick().map_err(|spent| (spent, check_of(rules::UNROUTED)))?;
        if d.matched == Matched::Nothing && d.status != Some(400) {
            lost.push(i);
        }
    }
    let Some(&first) = lost.first() else { return Ok(()) };
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
    Ok(())
}

fn disagreements(
    router: &Router,
    gateway: &Router,
    space: &Space,
    decisions: &[Decision],
    findings: &mut Vec<Finding>,
    clock: &mut Clock,
) -> Result<(), Stopped> {
    let mut seen: Vec<(String, String)> = Vec::new();
    for (cell, decision) in space.cells.iter().zip(decisions) {
        clock.tick().map_err(|spent| (spent, check_of(rules::PLANE_DISAGREEMENT)))?;
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
    Ok(())
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

/// Whether the invariant holds over every cell, or the first failure;
/// stopped by the run's budget, it says neither.
fn check_invariant(
    router: &Router,
    space: &Space,
    decisions: &[Decision],
    placed: &PlacedInvariant,
    clock: &mut Clock,
) -> Result<InvariantResult, Stopped> {
    let inv = &placed.invariant;
    let failure = (|| {
        for (cell, decision) in space.cells.iter().zip(decisions) {
            clock.tick().map_err(|spent| (spent, format!("the check of invariant {}", double_quoted(&inv.name))))?;
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
                    return Ok(Some((why, case)));
                }
            }
        }
        Ok(None)
    })()?;
    Ok(InvariantResult { name: inv.name.clone(), at: placed.at.clone(), holds: failure.is_none(), failure })
}

/// What changing `old` into `new` moves (the same router, one plane):
/// the changes, and whether the search covered every request.
pub fn what_moves(old: &Router, new: &Router, limits: Limits) -> (Vec<Change>, bool) {
    let mut clock = Clock::new(&limits);
    let (_, space, decisions) = decided(new, &[Some(old)], &[], limits, &mut clock);
    let mut moved = Vec::new();
    let finished = changes(old, new, &space, &decisions, &mut clock, &mut moved).is_ok();
    let complete = finished && space.complete && untried_health(new, &decisions).is_none();
    (moved, complete)
}

/// The cells of the space that `router`, the `others` it is compared with
/// and the invariants' literals tell apart, each decided by `router` with
/// every backend up; where the run's clock stops the deciding, the cells
/// not decided are left out and the space is incomplete.
fn decided(
    router: &Router,
    others: &[Option<&Router>],
    invariants: &[&PlacedInvariant],
    limits: Limits,
    clock: &mut Clock,
) -> (Literals, Space, Vec<Decision>) {
    let mut literals = Literals::default();
    for r in std::iter::once(router).chain(others.iter().flatten().copied()) {
        literals.add_router(r);
    }
    for inv in invariants {
        add_when(&mut literals, router, &inv.invariant.when);
    }
    let mut space = partition(&literals, limits);
    let mut decisions = Vec::with_capacity(space.cells.len());
    for cell in &space.cells {
        if let Err(spent) = clock.tick() {
            // A search the run's budget stopped has said so.
            if !matches!(space.stopped, Some(Spent::Time | Spent::Heap)) {
                space.notes.push(format!(
                    "{} after {} of the {} cells were decided",
                    limits.spent(spent),
                    decisions.len(),
                    space.cells.len()
                ));
                space.stopped = Some(spent);
            }
            space.complete = false;
            break;
        }
        decisions.push(router.decide_quietly(cell, &[]));
    }
    space.cells.truncate(decisions.len());
    (literals, space, decisions)
}

/// Where the cells' decisions differ between `old` and `new`, in every
/// health state either router's dispatch meets: all up, each prefix of
/// either's candidate list down (the request then goes to the next one),
/// and both lists down. All up, a change of route is a change too; with
/// backends down, where the request goes is: the candidates in order and
/// the status. Grouped by the routes, what each does and the backends down.
/// Stopped by the run's budget, the moves found are in `out`, each shown
/// by its case.
fn changes(
    old: &Router,
    new: &Router,
    space: &Space,
    decisions: &[Decision],
    clock: &mut Clock,
    out: &mut Vec<Change>,
) -> Result<(), Stopped> {
    type Key = (String, String, String, String, Vec<String>);
    let mut groups: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    for (cell, after_up) in space.cells.iter().zip(decisions) {
        clock.tick().map_err(|spent| (spent, "the check of what the change moves".to_string()))?;
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
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::proxy::ProxyConfig;
    use serde_json::json;

    /// `gpt-*` to the cloud unless it is pii; the rest to the local backend.
    fn router() -> Router {
        let config: ProxyConfig = serde_json::from_value(json!({
            "backends": [{"name": "local", "tier": "local"}, {"name": "cloud", "tier": "cloud", "provider": "openai"}],
            "rules": [
                {"name": "pii", "match": {"dataClassification": ["pii"]}, "route": {"backends": ["local"]}, "failClosed": true},
                {"name": "gpt", "match": {"models": ["gpt-*"]}, "route": {"backends": ["cloud", "local"]}}
            ],
            "defaultRoute": "local"
        }))
        .expect("a config");
        Router::from_config("ml/r".into(), "r".into(), config)
    }

    fn proved(router: &Router) -> (Literals, Space, Vec<Decision>) {
        let (literals, space, decisions) = decided(router, &[], &[], Limits::default(), &mut endless());
        assert!(space.complete, "{:?}", space.notes);
        (literals, space, decisions)
    }

    /// A clock of no deadline and no heap bound.
    fn endless() -> Clock {
        Clock::new(&Limits::default())
    }

    #[test]
    fn the_self_check_passes_a_sound_proof_in_every_health_state() {
        let router = router();
        let (literals, space, decisions) = proved(&router);
        let words = vocabulary(&[&router], &[]);
        let (check, notes) = check_vocabulary(&router, &words, &literals, &space, &decisions, Limits::default());
        assert!(notes.is_empty(), "{notes:?}");
        assert!(check.ran && check.health && check.mismatched == 0);
        assert_eq!(check.requests, words.len());
        // Each request all up, and those routed to [cloud, local] again
        // with cloud down, local down, and both: more decisions than words.
        assert!(check.decisions > words.len() as u64, "{check:?}");
        let report = verify(&Inputs {
            planes: &[vec![router.clone()]],
            against: None,
            invariants: &[],
            limits: Limits::default(),
        });
        assert!(report[0].complete && report[0].self_check.ran, "{:?}", report[0].notes);
    }

    #[test]
    fn a_planted_wrong_cell_decision_is_caught_and_the_request_named() {
        let router = router();
        let (literals, space, mut decisions) = proved(&router);
        // The proof is told the `gpt-*` cell with no header goes where the
        // request with no model goes: by the default route, to local.
        let gpt = space
            .cells
            .iter()
            .position(|c| c.headers.is_empty() && c.model.as_deref().is_some_and(|m| m.starts_with("gpt-")))
            .expect("a gpt-* cell");
        let none = space.cells.iter().position(|c| c == &Request::default()).expect("the empty request's cell");
        decisions[gpt] = decisions[none].clone();
        let words = vocabulary(&[&router], &[]);
        let (check, notes) = check_vocabulary(&router, &words, &literals, &space, &decisions, Limits::default());
        assert!(check.mismatched > 0 && !notes.is_empty(), "{check:?}");
        let first = &check.mismatches[0];
        // The glob's own instance, drawn from the router, is the first
        // caught; it is also the cell's witness (instances read well).
        assert_eq!(first.request, Request { model: Some("gpt-x".into()), headers: Vec::new() });
        assert_eq!(first.kind, Kind::GlobInstance);
        assert_eq!(notes[0], "the self-check decided model \"gpt-x\" (a glob's instance of the router) unlike the proof: `decide` sends it gpt → [cloud, local], its cell (model \"gpt-x\") is proved to go default → [local]");
        // Its case pins what `test` decides: gpt, to cloud then local.
        assert_eq!(first.case.request, first.request);
        assert_eq!(first.case.expect.rule.as_deref(), Some("gpt"));
        assert_eq!(first.case.expect.backends, Some(vec!["cloud".to_string(), "local".to_string()]));
        assert!(first.case.unhealthy.is_empty());
        // More than the kept few are counted, and said.
        assert!(check.mismatches.len() <= MISMATCHES_KEPT);
        if check.mismatched > MISMATCHES_KEPT {
            assert!(notes.last().is_some_and(|n| n.contains("more requests")), "{notes:?}");
        }
    }

    #[test]
    fn each_word_is_decided_again_in_each_health_state_of_a_small_router() {
        let router = router();
        let (literals, space, decisions) = proved(&router);
        let gpt =
            [Word { kind: Kind::GlobInstance, request: Request { model: Some("gpt-x".into()), headers: Vec::new() } }];
        // Routed to [cloud, local]: all up, then cloud down and both down,
        // the request and its cell's witness each time.
        let (check, notes) = check_vocabulary(&router, &gpt, &literals, &space, &decisions, Limits::default());
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!((check.health, check.decisions), (true, 1 + 2 * 2));
        // A router of more routes than SELF_CHECK_HEALTH_ROUTES: all up only.
        let mut big = router.clone();
        big.routes = (0..=SELF_CHECK_HEALTH_ROUTES).map(|i| format!("r{i}")).collect();
        let (check, _) = check_vocabulary(&big, &gpt, &literals, &space, &decisions, Limits::default());
        assert_eq!((check.health, check.decisions), (false, 1));
    }

    #[test]
    fn a_request_in_no_cell_is_caught() {
        let router = router();
        let (literals, mut space, mut decisions) = proved(&router);
        // The cells of pii are dropped: a pii request falls in none.
        let kept: Vec<bool> = space.cells.iter().map(|c| c.headers.is_empty()).collect();
        let mut keep = kept.iter();
        space.cells.retain(|_| *keep.next().unwrap_or(&true));
        let mut keep = kept.iter();
        decisions.retain(|_| *keep.next().unwrap_or(&true));
        let words = vocabulary(&[&router], &[]);
        let (check, notes) = check_vocabulary(&router, &words, &literals, &space, &decisions, Limits::default());
        let missing = check.mismatches.iter().find(|m| m.cell.is_none()).expect("a request in no cell");
        assert!(missing.why.starts_with("it falls in no cell of the proof"), "{}", missing.why);
        assert!(notes.iter().any(|n| n.contains("x-llmkube-classification: pii")), "{notes:?}");
    }

    #[test]
    fn the_self_check_spends_the_runs_budgets() {
        let router = router();
        let (literals, space, decisions) = proved(&router);
        let words = vocabulary(&[&router], &[]);
        // The cells took every decision --max-decisions allows.
        let used = space.cells.len() as u64 * literals.rules as u64;
        let tight = Limits { decisions: used, ..Limits::default() };
        let (check, notes) = check_vocabulary(&router, &words, &literals, &space, &decisions, tight);
        // It stops at the first word past the allowance: after the first.
        let after_one = format!("after 1 of the {} requests", words.len());
        assert!(notes.iter().any(|n| n.contains("--max-decisions") && n.contains(&after_one)), "{notes:?} {check:?}");
        // The run's clock ran out before it started.
        let late = Limits { deadline: Some(std::time::Instant::now()), ..Limits::default() };
        let (_, notes) = check_vocabulary(&router, &words, &literals, &space, &decisions, late);
        assert!(notes.iter().any(|n| n.contains("--timeout")), "{notes:?}");
    }

    /// The run's `--timeout` already spent.
    fn late() -> Limits {
        Limits { deadline: Some(std::time::Instant::now()), ..Limits::default() }
    }

    fn late_clock() -> Clock {
        Clock::new(&late())
    }

    /// `gpt-4*` behind `gpt-*`, a classification written upper-case, and
    /// no default route: a rule no request reaches, a value that never
    /// matches, requests nothing routes.
    fn shadowing() -> Router {
        let config: ProxyConfig = serde_json::from_value(json!({
            "backends": [{"name": "local", "tier": "local"}, {"name": "cloud", "tier": "cloud", "provider": "openai"}],
            "rules": [
                {"name": "gpt", "match": {"models": ["gpt-*"]}, "route": {"backends": ["local"]}},
                {"name": "gpt4", "match": {"models": ["gpt-4*"]}, "route": {"backends": ["cloud"]}},
                {"name": "loud", "match": {"dataClassification": ["PII"]}, "route": {"backends": ["local"]}}
            ]
        }))
        .expect("a config");
        Router::from_config("ml/s".into(), "s".into(), config)
    }

    /// The note a check stopped by the deadline leaves.
    fn note(stopped: &Stopped) -> String {
        unfinished(&late(), stopped)
    }

    #[test]
    fn cells_not_decided_by_the_deadline_are_left_out() {
        let router = router();
        let cells = proved(&router).1.cells.len();
        // The search has no deadline; the deciding of its cells does.
        let (_, space, decisions) = decided(&router, &[], &[], Limits::default(), &mut late_clock());
        assert!(!space.complete && space.cells.is_empty() && decisions.is_empty(), "{:?}", space.cells);
        assert_eq!(space.notes, [format!("the run ran past its --timeout after 0 of the {cells} cells were decided")]);
    }

    #[test]
    fn the_egress_check_stops_at_the_deadline_and_claims_no_leak() {
        let router = router();
        let (_, space, decisions) = proved(&router);
        // phi is not pii: gpt-* sends it to the cloud.
        let (mut findings, mut paths) = (Vec::new(), Vec::new());
        sensitive_egress(&router, &space, &decisions, &mut findings, &mut paths, &mut endless()).expect("no deadline");
        assert!(paths.iter().any(|p| p.class == "phi" && p.backend == "cloud"), "{paths:?}");
        let (mut findings, mut paths) = (Vec::new(), Vec::new());
        let stopped = sensitive_egress(&router, &space, &decisions, &mut findings, &mut paths, &mut late_clock())
            .expect_err("past the deadline");
        assert_eq!(
            note(&stopped),
            "the run ran past its --timeout: the sensitive-egress check did not finish, and no check after it ran"
        );
        assert!(findings.is_empty() && paths.is_empty(), "{paths:?}");
    }

    #[test]
    fn the_unmatchable_check_stops_at_the_deadline() {
        let router = shadowing();
        let mut findings = Vec::new();
        unmatchable(&router, &mut findings, &mut endless()).expect("no deadline");
        assert_eq!(findings.len(), 1, "{findings:?}");
        let mut findings = Vec::new();
        let stopped = unmatchable(&router, &mut findings, &mut late_clock()).expect_err("past the deadline");
        assert_eq!(
            note(&stopped),
            "the run ran past its --timeout: the unmatchable-value check did not finish, and no check after it ran"
        );
        assert!(findings.is_empty(), "{findings:?}");
    }

    #[test]
    fn the_unreachable_rule_check_stops_at_the_deadline_and_claims_no_rule() {
        let router = shadowing();
        let (_, space, decisions) = proved(&router);
        let (out, _) = shadowed(&router, &space, &decisions, Limits::default());
        assert_eq!(out, ["gpt4", "loud"]);
        // Stopped on its first cell.
        let (mut findings, mut out) = (Vec::new(), Vec::new());
        let stopped =
            unreachable_rules(&router, &space, &decisions, late(), &mut findings, &mut out, &mut late_clock())
                .expect_err("past the deadline");
        assert_eq!(
            note(&stopped),
            "the run ran past its --timeout: the unreachable-rule check (at rule gpt4) did not finish, and no check \
             after it ran"
        );
        assert!(findings.is_empty() && out.is_empty(), "{out:?}");
        // No cell shows a request gpt-4* takes: the second search for one,
        // which the deadline stops, stops the check (its own budgets, not
        // the run's, leave the rule reported).
        let (mut findings, mut out) = (Vec::new(), Vec::new());
        let stopped = unreachable_rules(&router, &space, &decisions, late(), &mut findings, &mut out, &mut endless())
            .expect_err("the second search past the deadline");
        assert_eq!(stopped.1, "the unreachable-rule check (at rule gpt4)");
        assert!(findings.is_empty() && out.is_empty(), "{out:?}");
    }

    #[test]
    fn the_unrouted_check_stops_at_the_deadline() {
        let router = shadowing();
        let (_, space, decisions) = proved(&router);
        let mut findings = Vec::new();
        unrouted(&router, &space, &decisions, &mut findings, &mut endless()).expect("no deadline");
        assert_eq!(findings.len(), 1, "{findings:?}");
        let mut findings = Vec::new();
        let stopped =
            unrouted(&router, &space, &decisions, &mut findings, &mut late_clock()).expect_err("past the deadline");
        assert_eq!(
            note(&stopped),
            "the run ran past its --timeout: the unrouted check did not finish, and no check after it ran"
        );
        assert!(findings.is_empty(), "{findings:?}");
    }

    #[test]
    fn the_plane_check_stops_at_the_deadline() {
        // Any other router of the same id stands for the other plane here:
        // the check only decides the cells with it.
        let (router, other) = (router(), shadowing());
        let (_, space, decisions) = decided(&router, &[Some(&other)], &[], Limits::default(), &mut endless());
        let mut findings = Vec::new();
        disagreements(&router, &other, &space, &decisions, &mut findings, &mut endless()).expect("no deadline");
        assert!(!findings.is_empty());
        let mut findings = Vec::new();
        let stopped = disagreements(&router, &other, &space, &decisions, &mut findings, &mut late_clock())
            .expect_err("past the deadline");
        assert_eq!(
            note(&stopped),
            "the run ran past its --timeout: the plane-disagreement check did not finish, and no check after it ran"
        );
        assert!(findings.is_empty(), "{findings:?}");
    }

    #[test]
    fn an_invariant_stopped_at_the_deadline_neither_holds_nor_fails() {
        let router = router();
        let (_, space, decisions) = proved(&router);
        let placed = PlacedInvariant {
            invariant: serde_json::from_value(json!({"name": "stays home", "never": {"tier": "cloud"}}))
                .expect("an invariant"),
            at: crate::diagnostic::Place {
                file: "t.yaml".into(),
                line: Some(1),
                column: Some(1),
                document: None,
                item: None,
            },
            names: Vec::new(),
        };
        let result = check_invariant(&router, &space, &decisions, &placed, &mut endless()).expect("no deadline");
        assert!(!result.holds, "gpt-* goes to the cloud");
        let stopped =
            check_invariant(&router, &space, &decisions, &placed, &mut late_clock()).expect_err("past the deadline");
        assert_eq!(
            note(&stopped),
            "the run ran past its --timeout: the check of invariant \"stays home\" did not finish, and no check after \
             it ran"
        );
    }

    #[test]
    fn the_change_check_stops_at_the_deadline() {
        let (old, new) = (router(), shadowing());
        let (moves, complete) = what_moves(&old, &new, Limits::default());
        assert!(complete && !moves.is_empty());
        let (moves, complete) = what_moves(&old, &new, late());
        assert!(!complete && moves.is_empty(), "{moves:?}");
        let (_, space, decisions) = decided(&new, &[Some(&old)], &[], Limits::default(), &mut endless());
        let mut out = Vec::new();
        let stopped =
            changes(&old, &new, &space, &decisions, &mut late_clock(), &mut out).expect_err("past the deadline");
        assert_eq!(
            note(&stopped),
            "the run ran past its --timeout: the check of what the change moves did not finish, and no check after it \
             ran"
        );
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_router_whose_turn_comes_after_the_deadline_is_incomplete() {
        // Headers alone: its search reads no clock, and would finish.
        let config: ProxyConfig = serde_json::from_value(json!({
            "backends": [{"name": "local", "tier": "local"}],
            "rules": [{"name": "team", "match": {"headers": {"x-team": "a"}}, "route": {"backends": ["local"]}}]
        }))
        .expect("a config");
        let headers = Router::from_config("ml/h".into(), "h".into(), config);
        let planes = [vec![headers, router()]];
        let reports = verify(&Inputs { planes: &planes, against: None, invariants: &[], limits: late() });
        assert_eq!(reports.len(), 2);
        for report in &reports {
            assert!(!report.complete, "{}", report.router);
            assert_eq!(
                report.notes,
                ["the run ran past its --timeout before this router's turn came: nothing of it was verified"]
            );
            assert!(report.findings.is_empty() && report.classes.is_empty() && report.unreachable.is_empty());
        }
        // With time left, the same routers are proved.
        let reports = verify(&Inputs { planes: &planes, against: None, invariants: &[], limits: Limits::default() });
        assert!(
            reports.iter().all(|r| r.notes.is_empty()),
            "{:?}",
            reports.iter().map(|r| &r.notes).collect::<Vec<_>>()
        );
    }

    /// The unreachable rules of a proved router, and their messages, with
    /// no deadline.
    fn shadowed(router: &Router, space: &Space, decisions: &[Decision], limits: Limits) -> (Vec<String>, Vec<String>) {
        let (mut findings, mut out) = (Vec::new(), Vec::new());
        unreachable_rules(router, space, decisions, limits, &mut findings, &mut out, &mut endless())
            .expect("no deadline");
        (out, findings.into_iter().map(|f| f.diagnostic.message).collect())
    }

    #[test]
    fn a_second_search_stopped_by_its_own_budget_still_reports_the_rule() {
        let router = shadowing();
        let (_, space, decisions) = proved(&router);
        // No model step left for the second search, for who takes the
        // requests gpt-4* matches (no cell of the router's own shows one:
        // gpt-x stands for every model gpt-* takes): it stops, and the
        // rule is still reported, as its own search proved it unreachable.
        let limits = Limits { model_steps: 0, ..Limits::default() };
        let (out, messages) = shadowed(&router, &space, &decisions, limits);
        assert_eq!(out, ["gpt4", "loud"]);
        assert_eq!(
            messages[0],
            "rule gpt4 is reached by no request: the search for a request it matches stopped at a budget before it \
             found one"
        );
        // With room for it, the second search finds who takes them.
        let (_, messages) = shadowed(&router, &space, &decisions, Limits::default());
        assert_eq!(messages[0], "rule gpt4 is reached by no request: gpt takes every request it matches");
    }

    /// The cells show only `r0` taking some of r2's requests: `r1`'s
    /// own model, `ax`, is too short for `a?x*`. Cut by `r0` alone, a
    /// model such as `aax` escapes it to `r1`, so the cut is made again
    /// up to `r1`, and then every request is taken within it: a second
    /// rune `b` goes to `r0`, any other to `r1`.
    #[test]
    fn a_rule_after_those_the_cells_show_is_named_too() {
        let config: ProxyConfig = serde_json::from_value(json!({
            "backends": [{"name": "local", "tier": "local"}],
            "rules": [
                {"name": "r0", "match": {"models": ["ab*"]}, "route": {"backends": ["local"]}},
                {"name": "r1", "match": {"models": ["a*"]}, "route": {"backends": ["local"]}},
                {"name": "r2", "match": {"models": ["a?x*"]}, "route": {"backends": ["local"]}}
            ]
        }))
        .expect("a config");
        let router = Router::from_config("ml/p".into(), "p".into(), config);
        let (_, space, decisions) = proved(&router);
        let shown: Vec<String> = space
            .cells
            .iter()
            .zip(&decisions)
            .filter(|(cell, _)| cell.model.as_deref().is_some_and(|m| path_match("a?x*", m) == Some(true)))
            .map(|(_, d)| d.matched.label().to_string())
            .collect();
        assert!(!shown.is_empty() && shown.iter().all(|by| by == "r0"), "{shown:?}");
        let (out, messages) = shadowed(&router, &space, &decisions, Limits::default());
        assert_eq!(out, ["r2"]);
        assert_eq!(messages[0], "rule r2 is reached by no request: r0, r1 take every request it matches");
    }

    #[test]
    fn who_takes_a_shadowed_rules_requests_is_said_as_far_as_it_is_known() {
        let config: ProxyConfig = serde_json::from_value(json!({
            "backends": [{"name": "local", "tier": "local"}, {"name": "cloud", "tier": "cloud", "provider": "openai"}],
            "rules": [
                {"name": "gpt", "match": {"models": ["gpt-*"]}, "route": {"backends": ["cloud"]}},
                {"name": "mini", "match": {"models": ["*-mini"]}, "route": {"backends": ["local"]}},
                {"name": "private", "match": {"models": ["gpt-*", "*-mini"], "dataClassification": ["pii"]},
                 "route": {"backends": ["local"]}}
            ]
        }))
        .expect("a config");
        let router = Router::from_config("ml/p".into(), "p".into(), config);
        let (_, space, decisions) = proved(&router);
        // The router's own cells show both rules before it taking some of
        // its requests (gpt-x and x-mini, each with pii); the search
        // within its conditions proves they take them all.
        let (out, messages) = shadowed(&router, &space, &decisions, Limits::default());
        assert_eq!(out, ["private"]);
        assert_eq!(messages[0], "rule private is reached by no request: gpt, mini take every request it matches");
        // Where that search stops, what the cells show is said as some of
        // them, never as all.
        let limits = Limits { model_steps: 0, ..Limits::default() };
        let (out, messages) = shadowed(&router, &space, &decisions, limits);
        assert_eq!(out, ["private"]);
        assert_eq!(
            messages[0],
            "rule private is reached by no request: the rules before it take every request it matches (gpt, mini \
             take some)"
        );
    }
}
