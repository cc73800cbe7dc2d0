//! What a router does with the requests a cluster really served: the
//! router-proxy's logged requests (`input::log`), grouped first into
//! distinct requests (`Tally`: memory grows with the distinct requests,
//! not the lines), each decided once by the same `decide` that `test` and
//! `verify` run, under the health its line shows, and compared with what
//! was logged (`differs`), with the router before a change (`moved`), and
//! the log with that router (`drift`); sensitive requests the router would
//! send out of the cluster (`sensitive_egress`, verify's definition).
//!
//! The health a line shows (upstream `dispatchWithFallback`: a candidate
//! is skipped when it is quarantined, unconfigured, failing, or its pool
//! swap times out): the candidates of the logged route before the one that
//! answered were down; when none answered after trying (`all_backends_failed`,
//! `fail_closed_runtime`, `pool_activation_timeout`), all of them were;
//! a backend the line says nothing of is up. The logged route is the
//! logged rule's (or, without one, the name-match or default route) in the
//! router that wrote the log: the one given with `--against`, else the
//! router replayed.
//!
//! The log holds no custom headers: a request whose decision depends on a
//! rule's `headers` condition is `undetermined`, with those rules, and
//! never guessed. Pure: a tally in, a report out.

use std::collections::HashMap;

use anyhow::{bail, Result};

use super::proxy::{self, ProxyConfig};
use super::router::{Plane, Router};
use super::{Matched, Request};
use crate::input::log::{Dispatch, Outcome};
use crate::kube::names::TASK_COMPLEXITY_HEADER;

/// The first lines of a group kept as its witnesses.
pub const WITNESSES: usize = 3;

/// A line of an input: which source (its index in the tally) and which
/// line of it (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineRef {
    pub source: u32,
    pub line: u64,
}

/// One distinct logged request: its features and what was logged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    pub model: String,
    pub classification: String,
    pub task_complexity: String,
    pub rule: Option<String>,
    pub backend: Option<String>,
    /// `ok` for `ok_stream` too (routing does not tell them apart); `None`
    /// for a `--counts` row that records no decision.
    pub outcome: Option<Outcome>,
}

struct Entry {
    logged: Logged,
    count: u64,
    /// Its first lines, in input order.
    witnesses: Vec<LineRef>,
}

/// The logged requests, grouped as they are read: one entry per distinct
/// request, with its count and first lines.
#[derive(Default)]
pub struct Tally {
    sources: Vec<String>,
    index: HashMap<Box<[u8]>, usize, foldhash::fast::RandomState>,
    entries: Vec<Entry>,
    /// The key of the request being added, reused.
    key: Vec<u8>,
    requests: u64,
}

impl Tally {
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Names a source; its lines are then given with its number.
    pub fn source(&mut self, name: &str) -> u32 {
        self.sources.push(name.to_string());
        u32::try_from(self.sources.len() - 1).unwrap_or(u32::MAX)
    }

    pub fn source_name(&self, source: u32) -> &str {
        self.sources.get(source as usize).map_or("", String::as_str)
    }

    /// Counts `count` requests like `d`, first seen at `at`.
    pub fn add(&mut self, d: &Dispatch<'_>, count: u64, at: LineRef) {
        self.requests += count;
        let outcome = d.outcome.map(|o| if o == Outcome::OkStream { Outcome::Ok } else { o });
        let key = &mut self.key;
        key.clear();
        key.push(outcome.map_or(0xff, |o| o as u8));
        let mut field = |value: Option<&str>| match value {
            None => key.push(0),
            Some(v) => {
                key.push(1);
                key.extend_from_slice(&u32::try_from(v.len()).unwrap_or(u32::MAX).to_le_bytes());
                key.extend_from_slice(v.as_bytes());
            }
        };
        field(Some(&d.model));
        field(Some(&d.classification));
        field(Some(&d.task_complexity));
        field(d.rule.as_deref());
        field(d.backend.as_deref());
        if let Some(&i) = self.index.get(self.key.as_slice()) {
            let entry = &mut self.entries[i];
            entry.count += count;
            if entry.witnesses.len() < WITNESSES {
                entry.witnesses.push(at);
            }
            return;
        }
        self.index.insert(self.key.clone().into_boxed_slice(), self.entries.len());
        self.entries.push(Entry {
            logged: Logged {
                model: d.model.to_string(),
                classification: d.classification.to_string(),
                task_complexity: d.task_complexity.to_string(),
                rule: d.rule.as_deref().map(str::to_string),
                backend: d.backend.as_deref().map(str::to_string),
                outcome,
            },
            count,
            witnesses: vec![at],
        });
    }

    /// Every request counted.
    pub fn requests(&self) -> u64 {
        self.requests
    }

    /// The distinct requests.
    pub fn distinct(&self) -> usize {
        self.entries.len()
    }
}

/// What chose where a request went.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum By {
    Rule(String),
    NameMatch,
    Default,
    /// A logged line that names no rule: a name-match or default route,
    /// or none.
    Unnamed,
    /// No rule and no route: the proxy answers itself.
    Nothing,
}

impl By {
    /// The `rule` of the JSON contract: the rule's name, `name-match`,
    /// `default`, or null.
    pub fn label(&self) -> Option<&str> {
        match self {
            By::Rule(name) => Some(name),
            By::NameMatch => Some("name-match"),
            By::Default => Some("default"),
            By::Unnamed | By::Nothing => None,
        }
    }
}

/// Where a request went or goes: the route that took it, the backend that
/// gets it (none when the proxy answers itself), and the status the proxy
/// answers with itself (none when a backend got it).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dispatched {
    pub by: By,
    pub backend: Option<String>,
    pub status: Option<u16>,
}

/// A request a group shows as its witness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// `FILE:LINE`.
    pub line: String,
    pub model: String,
    pub classification: String,
    pub task_complexity: String,
}

/// The requests that went `before` and go `after`.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub before: Dispatched,
    pub after: Dispatched,
    pub count: u64,
    /// Of every request replayed.
    pub share: f64,
    pub examples: Vec<Example>,
}

/// The groups of one comparison, the largest first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Groups {
    pub count: u64,
    pub groups: Vec<Group>,
}

/// The requests left undecided: the header-conditioned rules that made them so.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Undetermined {
    pub count: u64,
    pub rules: Vec<String>,
    pub examples: Vec<Example>,
}

/// One router's replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub router: String,
    /// The router before the change (`--against`).
    pub against: Option<String>,
    pub requests: u64,
    pub distinct: usize,
    pub undetermined: Undetermined,
    /// Log against the router; `None` when no decision was logged.
    pub differs: Option<Groups>,
    /// The router before against the router (`--against`).
    pub moved: Option<Groups>,
    /// Log against the router before (`--against`, decisions logged).
    pub drift: Option<Groups>,
    pub sensitive_egress: Groups,
}

impl Report {
    /// Whether the router would send a sensitive request out of the cluster.
    pub fn failed(&self) -> bool {
        self.sensitive_egress.count > 0
    }
}

/// A group's count and first lines (with the entry each belongs to).
type Sum = (u64, Vec<(LineRef, usize)>);

/// Groups being summed: (before, after) → count and witnesses.
#[derive(Default)]
struct Acc {
    groups: HashMap<(Dispatched, Dispatched), Sum>,
}

impl Acc {
    fn add(&mut self, before: &Dispatched, after: &Dispatched, entry: usize, e: &Entry) {
        let slot = self.groups.entry((before.clone(), after.clone())).or_default();
        slot.0 += e.count;
        slot.1.extend(e.witnesses.iter().map(|w| (*w, entry)));
        slot.1.sort();
        slot.1.truncate(WITNESSES);
    }

    fn finish(self, tally: &Tally) -> Groups {
        let mut groups: Vec<(Option<LineRef>, Group)> = self
            .groups
            .into_iter()
            .map(|((before, after), (count, witnesses))| {
                let group = Group {
                    before,
                    after,
                    count,
                    share: share(count, tally.requests),
                    examples: witnesses.iter().map(|(at, entry)| example(tally, *at, *entry)).collect(),
                };
                (witnesses.first().map(|(at, _)| *at), group)
            })
            .collect();
        // The largest first; ties in the order their first line was read.
        groups.sort_by(|(a_first, a), (b_first, b)| b.count.cmp(&a.count).then_with(|| a_first.cmp(b_first)));
        let groups: Vec<Group> = groups.into_iter().map(|(_, g)| g).collect();
        Groups { count: groups.iter().map(|g| g.count).sum(), groups }
    }
}

fn share(count: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
}

fn example(tally: &Tally, at: LineRef, entry: usize) -> Example {
    let logged = &tally.entries[entry].logged;
    Example {
        line: format!("{}:{}", tally.source_name(at.source), at.line),
        model: logged.model.clone(),
        classification: logged.classification.clone(),
        task_complexity: logged.task_complexity.clone(),
    }
}

/// A Proxy-plane router's compiled config: the plane that writes the log.
fn config(router: &Router) -> Result<&ProxyConfig> {
    match &router.plane {
        Plane::Proxy(config) => Ok(config),
        Plane::Gateway { .. } => bail!(
            "ModelRouter {} has dataPlane: Gateway: Envoy routes its requests and writes no router.dispatch \
             lines; replay decides on the Proxy data plane",
            router.id
        ),
    }
}

/// The request a logged one is to `router`: its model, and its
/// classification and complexity in the headers the router reads.
pub fn request(router: &Router, logged: &Logged) -> Request {
    let mut headers = Vec::new();
    if !logged.classification.is_empty() {
        headers.push((router.class_header.clone(), logged.classification.clone()));
    }
    if !logged.task_complexity.is_empty() {
        headers.push((TASK_COMPLEXITY_HEADER.to_string(), logged.task_complexity.clone()));
    }
    Request { model: (!logged.model.is_empty()).then(|| logged.model.clone()), headers }
}

/// The rules whose `headers` condition decides whether they take the
/// request: every other condition of theirs holds, and no rule before
/// them takes it without one.
pub fn header_rules(router: &Router, logged: &Logged) -> Result<Vec<String>> {
    let config = config(router)?;
    let features = proxy::features(config, &request(router, logged));
    let mut open = Vec::new();
    for rule in &config.rules {
        if rule.match_.headers.is_empty() {
            if proxy::rule_matches(config, rule, &features) {
                break;
            }
            continue;
        }
        let mut without = rule.clone();
        without.match_.headers.clear();
        if proxy::rule_matches(config, &without, &features) {
            open.push(rule.name.clone());
        }
    }
    Ok(open)
}

/// The route the logged request took, as `config` (the router that wrote
/// the log) has it: the logged rule's backends, or without a rule the
/// name-match or default route. `None` when the router has no such rule.
fn logged_route(config: &ProxyConfig, logged: &Logged) -> Option<Vec<String>> {
    match &logged.rule {
        Some(name) => config.rules.iter().find(|r| r.name == *name).map(|r| r.route.backends.clone()),
        None => proxy::fallback(config, &logged.model).map(|(_, backend)| vec![backend]),
    }
}

/// The backends the line shows down: those of the logged route before the
/// one that answered; all of them when every one was tried and failed.
fn down(route: Option<&[String]>, logged: &Logged) -> Vec<String> {
    let Some(route) = route else { return Vec::new() };
    match (&logged.backend, logged.outcome) {
        (Some(answered), _) => route.iter().position(|b| b == answered).map_or(Vec::new(), |i| route[..i].to_vec()),
        (None, Some(outcome)) if outcome.all_failed() => route.to_vec(),
        _ => Vec::new(),
    }
}

/// The last backend of a route that the config knows: the one whose
/// failure the proxy answers with when every candidate failed.
fn last_known<'r>(config: &ProxyConfig, route: &'r [String]) -> Option<&'r String> {
    route.iter().rev().find(|b| config.backend(b).is_some())
}

/// Where `router` sends the logged request with `down` down.
fn decide(
    router: &Router,
    logged: &Logged,
    down: &[String],
    reference: Option<(&ProxyConfig, &[String])>,
) -> Dispatched {
    let decision = router.decide_quietly(&request(router, logged), down);
    let by = match &decision.matched {
        Matched::Rule(name) => By::Rule(name.clone()),
        Matched::NameMatch(_) => By::NameMatch,
        Matched::Default => By::Default,
        Matched::Nothing => By::Nothing,
    };
    let mut status = decision.status;
    // A pool swap that timed out is answered 503, fail-closed or not
    // (handleChatCompletions checks ErrHoldBudgetExceeded first): when the
    // route ends on the backend whose swap timed out, so does this one.
    if logged.outcome == Some(Outcome::PoolActivationTimeout)
        && decision.candidates.is_empty()
        && decision.matched != Matched::Nothing
    {
        if let (Plane::Proxy(config), Some((reference, route))) = (&router.plane, reference) {
            let this = proxy::route_of(config, &decision.matched);
            let timed_out = last_known(reference, route);
            if timed_out.is_some() && last_known(config, &this) == timed_out {
                status = Some(503);
            }
        }
    }
    Dispatched { by, backend: decision.candidates.first().map(|(name, _)| name.clone()), status }
}

/// What the line logged.
fn logged_dispatch(logged: &Logged, outcome: Outcome) -> Dispatched {
    Dispatched {
        by: logged.rule.clone().map_or(By::Unnamed, By::Rule),
        backend: logged.backend.clone(),
        status: outcome.proxy_status(),
    }
}

/// Whether a decision differs from a logged line: another backend,
/// another status, or another rule than the one the line names (a line
/// without a rule differs from a decision by a named rule only).
pub fn differs(logged: &Dispatched, decided: &Dispatched) -> bool {
    let rule_differs = match &logged.by {
        By::Rule(name) => decided.by != By::Rule(name.clone()),
        _ => matches!(decided.by, By::Rule(_)),
    };
    rule_differs || logged.backend != decided.backend || logged.status != decided.status
}

/// Replays the tallied requests with `router`, and with `against` (the
/// router before the change) when given.
pub fn replay(tally: &Tally, router: &Router, against: Option<&Router>) -> Result<Report> {
    let new_config = config(router)?;
    let old_config = against.map(config).transpose()?;
    let reference = old_config.unwrap_or(new_config);
    let decided_entries = tally.entries.iter().filter(|e| e.logged.outcome.is_some()).count();
    if decided_entries != 0 && decided_entries != tally.entries.len() {
        bail!(
            "the inputs mix requests whose decision was logged with requests whose decision was not \
             (a --counts file without a backend or outcome column): replay them apart"
        );
    }
    let logged_decisions = decided_entries != 0 || tally.entries.is_empty();
    let mut undetermined = Undetermined::default();
    let mut undetermined_witnesses: Vec<(LineRef, usize)> = Vec::new();
    let (mut differs_acc, mut moved_acc, mut drift_acc, mut egress_acc) =
        (Acc::default(), Acc::default(), Acc::default(), Acc::default());
    for (i, entry) in tally.entries.iter().enumerate() {
        let logged = &entry.logged;
        let mut open = header_rules(router, logged)?;
        if let Some(old) = against {
            open.extend(header_rules(old, logged)?.into_iter().filter(|r| !open.contains(r)).collect::<Vec<_>>());
        }
        if !open.is_empty() {
            undetermined.count += entry.count;
            for rule in open {
                if !undetermined.rules.contains(&rule) {
                    undetermined.rules.push(rule);
                }
            }
            undetermined_witnesses.extend(entry.witnesses.iter().map(|w| (*w, i)));
            undetermined_witnesses.sort();
            undetermined_witnesses.truncate(WITNESSES);
            continue;
        }
        let route = logged_route(reference, logged);
        let down = down(route.as_deref(), logged);
        let reference_route = route.as_deref().map(|r| (reference, r));
        let after = decide(router, logged, &down, reference_route);
        let before_old = against.map(|old| decide(old, logged, &down, reference_route));
        if let Some(outcome) = logged.outcome {
            let mut log = logged_dispatch(logged, outcome);
            if let Some(old) = &before_old {
                if differs(&log, old) {
                    drift_acc.add(&log, old, i, entry);
                }
                // A line names no rule for a name-match or default route:
                // the router before says which.
                if log.by == By::Unnamed && matches!(old.by, By::NameMatch | By::Default) {
                    log.by = old.by.clone();
                }
            }
            if differs(&log, &after) {
                differs_acc.add(&log, &after, i, entry);
            }
        }
        if let Some(old) = &before_old {
            if *old != after {
                moved_acc.add(old, &after, i, entry);
            }
        }
        let leaves = after.backend.as_deref().and_then(|b| router.backend(b)).is_some_and(|b| b.leaves_cluster());
        if leaves && router.is_sensitive(&logged.classification) {
            let before = match (&before_old, logged.outcome) {
                (_, Some(outcome)) => logged_dispatch(logged, outcome),
                (Some(old), None) => old.clone(),
                (None, None) => after.clone(),
            };
            egress_acc.add(&before, &after, i, entry);
        }
    }
    undetermined.examples = undetermined_witnesses.iter().map(|(at, entry)| example(tally, *at, *entry)).collect();
    Ok(Report {
        router: router.id.clone(),
        against: against.map(|r| r.id.clone()),
        requests: tally.requests,
        distinct: tally.entries.len(),
        undetermined,
        differs: logged_decisions.then(|| differs_acc.finish(tally)),
        moved: against.map(|_| moved_acc.finish(tally)),
        drift: (against.is_some() && logged_decisions).then(|| drift_acc.finish(tally)),
        sensitive_egress: egress_acc.finish(tally),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::log::classify;
    use crate::input::log::Line;
    use serde_json::json;

    /// Upstream's proxy_test.go harness config, with a header rule and a
    /// BackendNameMatch fallback.
    fn router(rules: serde_json::Value) -> Router {
        let config = json!({
            "backends": [
                {"name": "local-qwen", "tier": "local", "address": "http://qwen:8080"},
                {"name": "local-llama", "tier": "local", "address": "http://llama:8080"},
                {"name": "cloud-opus", "tier": "cloud", "address": "https://api.anthropic.com", "provider": "anthropic"}
            ],
            "rules": rules,
            "defaultRoute": "local-qwen",
            "defaultRouteStrategy": "BackendNameMatch",
            "policy": {"classification": {"mode": "header-only"}}
        });
        let config: ProxyConfig = serde_json::from_value(config).expect("a config");
        Router::from_config("team/chat".into(), "chat".into(), config)
    }

    fn rules() -> serde_json::Value {
        json!([
            {"name": "pii-stays-local", "match": {"dataClassification": ["pii"]}, "route": {"backends": ["local-qwen", "local-llama"]}, "failClosed": true},
            {"name": "complex-to-cloud", "match": {"taskComplexity": "complex"}, "route": {"backends": ["cloud-opus", "local-qwen"]}}
        ])
    }

    /// A JSON line as `audit` writes it.
    fn line(
        model: &str,
        class: &str,
        complexity: &str,
        rule: Option<&str>,
        backend: Option<&str>,
        outcome: &str,
    ) -> String {
        let mut v = json!({"time": "2026-08-23T10:15:04.123Z", "level": "INFO", "msg": "router.dispatch",
            "model": model, "classification": class, "taskComplexity": complexity, "status": 200,
            "outcome": outcome, "latencyMs": 12});
        if let Some(rule) = rule {
            v["rule"] = json!(rule);
        }
        if let Some(backend) = backend {
            v["backend"] = json!(backend);
            v["backendTier"] = json!("local");
        }
        v["timeoutMs"] = json!(120000);
        v.to_string()
    }

    fn tally(lines: &[String]) -> Tally {
        let mut tally = Tally::new();
        let source = tally.source("access.log");
        for (n, text) in lines.iter().enumerate() {
            if let Line::Dispatch(d) = classify(text) {
                tally.add(&d, 1, LineRef { source, line: n as u64 + 1 });
            }
        }
        tally
    }

    fn dispatched(by: By, backend: Option<&str>, status: Option<u16>) -> Dispatched {
        Dispatched { by, backend: backend.map(str::to_string), status }
    }

    #[test]
    fn the_router_that_wrote_the_log_differs_in_nothing() {
        let lines = [
            line("qwen3", "pii", "", Some("pii-stays-local"), Some("local-qwen"), "ok"),
            // local-qwen was down: the second candidate answered.
            line("qwen3", "pii", "", Some("pii-stays-local"), Some("local-llama"), "ok_stream"),
            line("any", "", "complex", Some("complex-to-cloud"), Some("cloud-opus"), "ok"),
            line("any", "", "complex", Some("complex-to-cloud"), None, "all_backends_failed"),
            line("qwen3", "pii", "", Some("pii-stays-local"), None, "fail_closed_runtime"),
            // Name match, default route: no rule on the line.
            line("cloud-opus", "", "", None, Some("cloud-opus"), "ok"),
            line("ghost", "", "", None, Some("local-qwen"), "ok"),
            line("ghost", "", "", None, None, "all_backends_failed"),
        ];
        let tally = tally(&lines);
        assert_eq!((tally.requests(), tally.distinct()), (8, 8));
        let report = replay(&tally, &router(rules()), None).expect("replays");
        assert_eq!(report.differs.expect("decisions logged").count, 0);
        assert_eq!(report.undetermined.count, 0);
        // cloud-opus by name is not sensitive; nothing leaves.
        assert_eq!(report.sensitive_egress.count, 0);
    }

    #[test]
    fn a_reorder_moves_what_it_moves_under_the_logged_health() {
        let old = router(rules());
        // complex first: a complex pii request now goes to the cloud.
        let new = router(json!([rules()[1], rules()[0]]));
        let lines = [
            line("m", "pii", "complex", Some("pii-stays-local"), Some("local-qwen"), "ok"),
            line("m", "pii", "complex", Some("pii-stays-local"), Some("local-qwen"), "ok"),
            // local-qwen was down: the new route's cloud-opus is up, so it goes there too.
            line("m", "pii", "complex", Some("pii-stays-local"), Some("local-llama"), "ok"),
            line("m", "pii", "", Some("pii-stays-local"), Some("local-qwen"), "ok"),
        ];
        let tally = tally(&lines);
        let report = replay(&tally, &new, Some(&old)).expect("replays");
        let moved = report.moved.as_ref().expect("--against");
        assert_eq!(moved.count, 3);
        let group = &moved.groups[0];
        assert_eq!(group.before, dispatched(By::Rule("pii-stays-local".into()), Some("local-qwen"), None));
        assert_eq!(group.after, dispatched(By::Rule("complex-to-cloud".into()), Some("cloud-opus"), None));
        assert_eq!((group.count, group.share), (2, 0.5));
        assert_eq!(
            group.examples.iter().map(|e| e.line.as_str()).collect::<Vec<_>>(),
            ["access.log:1", "access.log:2"]
        );
        assert_eq!(moved.groups[1].before.backend.as_deref(), Some("local-llama"));
        assert_eq!(report.drift.as_ref().expect("decisions logged").count, 0, "the old router wrote the log");
        assert_eq!(report.differs.as_ref().expect("decisions logged").count, 3);
        let egress = &report.sensitive_egress;
        assert_eq!(egress.count, 3, "pii to cloud-opus leaves the cluster");
        assert!(report.failed());
    }

    #[test]
    fn header_conditions_leave_requests_undetermined() {
        let mut with_header = rules();
        with_header.as_array_mut().expect("rules").insert(
            0,
            json!({"name": "research", "match": {"headers": {"X-Team": "research"}, "taskComplexity": "complex"}, "route": {"backends": ["cloud-opus"]}}),
        );
        let new = router(with_header);
        let lines = [
            line("m", "", "complex", Some("complex-to-cloud"), Some("cloud-opus"), "ok"),
            line("m", "pii", "", Some("pii-stays-local"), Some("local-qwen"), "ok"),
        ];
        let report = replay(&tally(&lines), &new, None).expect("replays");
        assert_eq!(report.undetermined.count, 1);
        assert_eq!(report.undetermined.rules, ["research"]);
        assert_eq!(report.undetermined.examples[0].line, "access.log:1");
        assert_eq!(report.differs.expect("logged").count, 0);
    }

    #[test]
    fn a_line_without_a_rule_differs_only_from_a_named_rule() {
        let unnamed = dispatched(By::Unnamed, Some("local-qwen"), None);
        assert!(!differs(&unnamed, &dispatched(By::Default, Some("local-qwen"), None)));
        assert!(!differs(&unnamed, &dispatched(By::NameMatch, Some("local-qwen"), None)));
        assert!(differs(&unnamed, &dispatched(By::Rule("r".into()), Some("local-qwen"), None)));
        assert!(differs(&unnamed, &dispatched(By::Default, Some("cloud-opus"), None)));
        let named = dispatched(By::Rule("r".into()), None, Some(503));
        assert!(differs(&named, &dispatched(By::Default, None, Some(503))));
        assert!(differs(&named, &dispatched(By::Rule("r".into()), None, Some(502))));
        assert!(!differs(&named, &dispatched(By::Rule("r".into()), None, Some(503))));
    }

    #[test]
    fn a_pool_timeout_is_answered_503_when_the_route_ends_where_it_timed_out() {
        let r = router(rules());
        let lines = [line("any", "", "complex", Some("complex-to-cloud"), None, "pool_activation_timeout")];
        let report = replay(&tally(&lines), &r, None).expect("replays");
        assert_eq!(report.differs.expect("logged").count, 0, "503 as logged, not the 502 of a failed route");
        // The route now ends elsewhere: that backend failed some other way.
        let reordered = router(json!([rules()[0],
            {"name": "complex-to-cloud", "match": {"taskComplexity": "complex"}, "route": {"backends": ["local-qwen", "cloud-opus"]}}]));
        let report = replay(&tally(&lines), &reordered, Some(&r)).expect("replays");
        let moved = report.moved.expect("--against");
        assert_eq!(moved.groups[0].after, dispatched(By::Rule("complex-to-cloud".into()), None, Some(502)));
    }

    #[test]
    fn counts_without_decisions_are_replayed_with_every_backend_up() {
        let mut tally = Tally::new();
        let source = tally.source("counts.csv");
        let d = Dispatch {
            model: "m".into(),
            classification: "pii".into(),
            task_complexity: "complex".into(),
            rule: None,
            backend: None,
            outcome: None,
        };
        tally.add(&d, 40, LineRef { source, line: 2 });
        let report = replay(&tally, &router(json!([rules()[1], rules()[0]])), Some(&router(rules()))).expect("replays");
        assert_eq!((report.differs.is_none(), report.drift.is_none()), (true, true));
        assert_eq!(report.moved.expect("--against").count, 40);
        assert_eq!(report.sensitive_egress.count, 40);
        let mut mixed = tally;
        mixed.add(&Dispatch { outcome: Some(Outcome::NoRoute), ..d }, 1, LineRef { source, line: 3 });
        assert!(replay(&mixed, &router(rules()), None).is_err());
    }
}
