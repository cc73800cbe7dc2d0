//! Envoy's decision on the Gateway data plane, from the AIGatewayRoute
//! routerctl renders for a `dataPlane: Gateway` router.
//!
//! Envoy AI Gateway copies the body's `model` into the `x-ai-eg-model`
//! header (`""` when the body has none), replacing any the client sent, and
//! turns each AIGatewayRoute rule into an HTTPRoute rule with
//! the same matches and backend references. Envoy Gateway then orders the
//! route entries by Gateway API precedence (HTTPRouteRule: an exact path
//! before a prefix, a longer prefix first, a method match, then the most
//! header matches, then the most query matches; ties keep the order of the
//! rules): none of the operator's matches has a path, a method or a query,
//! so the entry with the most header matches wins, and among equals the
//! earlier rule. That is not the Proxy plane's "first rule wins".
//!
//! Header names match in any case, values exactly. Backends go by
//! `priority` (the lowest first: the others take traffic only when those
//! are all down) and, at one priority, by `weight`; Envoy Gateway drops a
//! reference of weight 0, and answers 500 when a rule has no other. The
//! operator drops unhealthy backends from every rule at render time (a
//! rule keeps them all when all are down: `eject_unhealthy`). Envoy's
//! healthy panic threshold, which the operator's traffic policy leaves at
//! its default of 50%, decides the rest (`dispatch`): a priority level with
//! under half its backends up, while the levels together are short of
//! backends, spreads its traffic over all of them, down ones included; a
//! request whose backends are all down still goes to them, and the client
//! gets their failure, typically a 503. One that matches no rule gets the
//! `route-not-found` rule's 404 that Envoy AI Gateway adds.
//! (Envoy Gateway v1.8.1 `internal/gatewayapi/sort.go`; Envoy AI Gateway
//! v0.7.0 `internal/controller/ai_gateway_route.go`.)

use std::collections::HashMap;

use anyhow::{bail, Result};
use serde_json::Value;

use super::{Decision, Matched, Request, Trial};
use crate::kube::names::MODEL_HEADER;
use crate::render::gateway::rules::RuleOrigin;

/// One match of a route rule: its exact header matches (lower-cased names).
#[derive(Debug, Clone, PartialEq, Eq)]
struct RouteMatch {
    headers: Vec<(String, String)>,
}

/// A backend reference of a route rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendRef {
    pub name: String,
    pub priority: i64,
    pub weight: Option<u32>,
}

/// One rule of the route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteRule {
    /// What in the ModelRouter it was compiled from.
    pub from: Matched,
    matches: Vec<RouteMatch>,
    pub backends: Vec<BackendRef>,
}

impl RouteRule {
    /// Every (lower-cased name, value) its matches compare a header with.
    pub fn header_matches(&self) -> impl Iterator<Item = (&str, &str)> {
        self.matches.iter().flat_map(|m| m.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())))
    }

    /// Each of its matches: the (lower-cased name, value) pairs it
    /// compares, all of which must hold.
    pub fn matches(&self) -> impl Iterator<Item = Vec<(&str, &str)>> {
        self.matches.iter().map(|m| m.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect())
    }

    /// Whether one of its matches takes `request` (whatever the other
    /// rules would do with it).
    pub fn takes(&self, request: &Request) -> bool {
        let headers = envoy_headers(request);
        self.matches.iter().any(|m| matches_all(m, &headers))
    }
}

/// The headers Envoy matches on: the request's, each value without the
/// spaces and tabs around it (Envoy's HTTP/1 codec trims them as RFC 9110
/// says: `ConnectionImpl::onHeaderValue` the leading ones,
/// `completeLastHeader` the trailing ones, envoyproxy/envoy
/// `source/common/http/http1/codec_impl.cc` at a187ad9), a header sent
/// twice joined with `,` into one value (as Envoy does before matching
/// since the CVE-2020-25017 fix), and the model header the AI gateway sets
/// from the body, in place of any the client sent.
fn envoy_headers(request: &Request) -> HashMap<String, String> {
    let mut headers: HashMap<String, String> = HashMap::new();
    for (name, value) in &request.headers {
        let value = value.trim_matches([' ', '\t']);
        headers
            .entry(name.to_ascii_lowercase())
            .and_modify(|joined| {
                joined.push(',');
                joined.push_str(value);
            })
            .or_insert_with(|| value.to_string());
    }
    // The AI gateway's ext_proc parses the body and sets the model header
    // to its `model`, `""` when it has none (`ParseBody` returns
    // `req.Model`); a set header replaces every value the client sent under
    // that name, and the route is chosen again on the result
    // (`ClearRouteCache`). So the client's own header never selects a rule.
    // (Envoy AI Gateway v0.7.0 `internal/extproc/processor_impl.go`,
    // `routerProcessor.ProcessRequestBody`.)
    headers.insert(MODEL_HEADER.to_string(), request.model.clone().unwrap_or_default());
    headers
}

/// The route's rules, each with what it was compiled from, as the render
/// recorded it (`GatewayRendered::origins`, one per rule in the route's
/// order).
pub fn route_rules(route: &Value, origins: &[RuleOrigin]) -> Result<Vec<RouteRule>> {
    let rules = route.pointer("/spec/rules").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    // The render records one origin per rule; anything else would name
    // rules by guesswork.
    if rules.len() != origins.len() {
        bail!("the AIGatewayRoute has {} rules but {} were compiled", rules.len(), origins.len());
    }
    Ok(rules
        .iter()
        .enumerate()
        .map(|(i, rule)| {
            let matches = rule
                .get("matches")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|m| RouteMatch {
                    headers: m
                        .get("headers")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|h| {
                            Some((h.get("name")?.as_str()?.to_ascii_lowercase(), h.get("value")?.as_str()?.to_string()))
                        })
                        .collect(),
                })
                .collect();
            let backends = rule
                .get("backendRefs")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|r| {
                    Some(BackendRef {
                        name: r.get("name")?.as_str()?.to_string(),
                        priority: r.get("priority").and_then(Value::as_i64).unwrap_or(0),
                        weight: r.get("weight").and_then(Value::as_u64).and_then(|w| u32::try_from(w).ok()),
                    })
                })
                .collect();
            let from = match &origins[i] {
                RuleOrigin::Rule(name) => Matched::Rule(name.clone()),
                RuleOrigin::NameMatch(backend) => Matched::NameMatch(backend.clone()),
                RuleOrigin::Default => Matched::Default,
            };
            RouteRule { from, matches, backends }
        })
        .collect())
}

/// What Envoy does with `request` on `rules`, with the backends in
/// `unhealthy` down.
pub fn decide(rules: &[RouteRule], request: &Request, unhealthy: &[String]) -> Decision {
    let headers = envoy_headers(request);
    // Every match is a route entry: (header count, rule index) orders them.
    let mut entries: Vec<(usize, usize, &RouteMatch)> = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        for m in &rule.matches {
            entries.push((m.headers.len(), i, m));
        }
    }
    entries.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    // Entries in that order until the first that matches: what Envoy
    // tries (a rule listed once, at its first entry).
    let mut trials: Vec<Trial> = Vec::new();
    let mut hit = None;
    for entry @ (_, index, m) in &entries {
        let rule = &rules[*index];
        let label = trial_label(&rule.from);
        if matches_all(m, &headers) {
            trials.retain(|t| t.rule != label);
            trials.push(Trial { rule: label, failed: None });
            hit = Some(entry);
            break;
        }
        if !trials.iter().any(|t| t.rule == label) {
            let missing = m.headers.iter().find(|(n, v)| headers.get(n).is_none_or(|g| g != v));
            let failed = match missing {
                Some((name, value)) => format!("header {name} is not {value:?}"),
                None => "no match".to_string(),
            };
            trials.push(Trial { rule: label, failed: Some(failed) });
        }
    }
    let Some(&(_, index, _)) = hit else {
        return Decision::unrouted(404, "no route rule matches (Envoy answers 404)", trials);
    };
    let rule = &rules[index];
    let matched = rule.from.clone();
    // Weight 0 takes no traffic: Envoy Gateway leaves such a reference out.
    let weighted: Vec<&BackendRef> = rule.backends.iter().filter(|b| b.weight != Some(0)).collect();
    if weighted.is_empty() && !rule.backends.is_empty() {
        return Decision {
            matched: rule.from.clone(),
            strategy: "weighted".to_string(),
            candidates: Vec::new(),
            first_try: 0,
            status: Some(500),
            reason: Some("every backend of the rule has weight 0 (Envoy Gateway answers 500)".into()),
            trials,
        };
    }
    let strategy = if rule.backends.iter().any(|b| b.weight.is_some()) {
        "weighted"
    } else if rule.backends.iter().any(|b| b.priority > 0) {
        "primary-fallback"
    } else {
        ""
    };
    let dispatch = dispatch(&weighted, unhealthy);
    let (status, reason) = if dispatch.healthy == 0 {
        (
            Some(503),
            Some(
                "every backend of the rule is down: Envoy still sends to them (its panic threshold) and the client \
                 gets their failure, typically 503"
                    .to_string(),
            ),
        )
    } else {
        (None, dispatch.panic_note())
    };
    let (candidates, first_try) =
        if status.is_some() { (Vec::new(), 0) } else { (dispatch.candidates, dispatch.first_try) };
    Decision { matched, strategy: strategy.to_string(), candidates, first_try, status, reason, trials }
}

/// Envoy's healthy panic threshold, in percent: its default, as the
/// cluster Envoy Gateway writes for the route leaves
/// `common_lb_config.healthy_panic_threshold` unset (it sets it only for a
/// BackendTrafficPolicy `healthCheck.panicThreshold` other than 50, and the
/// operator's sets none: v1.8.1 `internal/xds/translator/cluster.go`,
/// `buildXdsCluster`).
const PANIC_THRESHOLD_PERCENT: usize = 50;

/// Envoy's default overprovisioning factor (1.4, in percent), which scales
/// a priority level's health.
const OVERPROVISIONING_PERCENT: usize = 140;

/// Where a rule's traffic goes in one health state, level by level.
struct Dispatch {
    /// The backends in dispatch order, each with its weight where Envoy
    /// uses it.
    candidates: Vec<(String, Option<u32>)>,
    /// How many of the leading candidates the first try is spread over.
    first_try: usize,
    /// How many of the rule's hosts are up.
    healthy: usize,
    /// The priority levels in panic that take traffic: (priority, healthy
    /// hosts, hosts).
    panicking: Vec<(i64, usize, usize)>,
}

impl Dispatch {
    fn panic_note(&self) -> Option<String> {
        if self.panicking.is_empty() {
            return None;
        }
        let levels: Vec<String> = self
            .panicking
            .iter()
            .map(|(priority, healthy, hosts)| format!("priority {priority} has {healthy} of {hosts} backends up"))
            .collect();
        Some(format!(
            "{}, under Envoy's healthy panic threshold ({PANIC_THRESHOLD_PERCENT}%): a level in panic spreads its \
             traffic evenly over all its backends, down ones included, whatever their weights",
            levels.join(", ")
        ))
    }
}

/// The dispatch order Envoy's load balancer gives a rule's backends (the
/// weight-0 references left out) with the ones in `unhealthy` down.
///
/// What Envoy balances over: the AI gateway needs the route rule's backends
/// in one cluster (`httproute/<ns>/<route>/rule/<i>`), where Envoy Gateway
/// writes each reference as one locality of its own, weighted by the
/// reference's weight (`buildXdsClusterLoadAssignment`,
/// `buildWeightedLocalities`), and the AI gateway gives that locality the
/// reference's `priority` (Envoy AI Gateway v0.7.0
/// `internal/extensionserver/post_translate_modify.go`,
/// `maybeModifyCluster`). The operator's Backend holds one endpoint, so a
/// reference is one host: a host name that resolves to several addresses
/// (a headless Service, a provider's name) would be several, of which
/// routerctl cannot know, and a backend down is all of them down.
///
/// Envoy then (`source/extensions/load_balancing_policies/common/
/// load_balancer_impl.cc`): a level's health is its healthy share times
/// the overprovisioning factor, capped at 100 (`recalculatePerPriorityState`);
/// while the levels' health sums to 100 or more no level is in panic,
/// otherwise a level with under the panic threshold of its hosts healthy
/// is (`recalculatePerPriorityPanic`, `isHostSetInPanic`: by host count,
/// not weight). A level in panic sends to all its hosts, healthy or not
/// (`hostSourceToUse`: `AllHosts`, before locality weights are read). A
/// level with no healthy host takes traffic only when every level is in
/// panic, and then each level takes its share of the hosts
/// (`recalculateLoadInTotalPanic`). The levels are listed lowest priority
/// first: the first takes the traffic, the next the retries and what the
/// first cannot take.
fn dispatch(refs: &[&BackendRef], unhealthy: &[String]) -> Dispatch {
    let mut levels: std::collections::BTreeMap<i64, Vec<&BackendRef>> = std::collections::BTreeMap::new();
    for r in refs {
        levels.entry(r.priority).or_default().push(r);
    }
    let up = |b: &&BackendRef| !unhealthy.contains(&b.name);
    // (priority, its references, healthy hosts, health in percent)
    let levels: Vec<(i64, Vec<&BackendRef>, usize, usize)> = levels
        .into_iter()
        .map(|(priority, hosts)| {
            let healthy = hosts.iter().filter(|b| up(b)).count();
            let health = (OVERPROVISIONING_PERCENT * healthy / hosts.len()).min(100);
            (priority, hosts, healthy, health)
        })
        .collect();
    let total_availability = levels.iter().map(|l| l.3).sum::<usize>().min(100);
    let in_panic =
        |healthy: usize, hosts: usize| total_availability < 100 && 100 * healthy < PANIC_THRESHOLD_PERCENT * hosts;
    let total_panic = levels.iter().all(|(_, hosts, healthy, _)| in_panic(*healthy, hosts.len()));
    let all_hosts: usize = levels.iter().map(|l| l.1.len()).sum();
    let mut out = Dispatch {
        candidates: Vec::new(),
        first_try: 0,
        healthy: levels.iter().map(|l| l.2).sum(),
        panicking: Vec::new(),
    };
    // The health of the levels the first try is spread over so far: a
    // level takes as much of the traffic as its health, the next ones the
    // rest (`recalculatePerPriorityState`), all of them in total panic.
    let mut spread = 0usize;
    for (i, (priority, hosts, healthy, health)) in levels.iter().enumerate() {
        let takes_traffic = if total_panic {
            // Each level's share of the hosts, the rounding left to the first.
            i == 0 || 100 * hosts.len() / all_hosts > 0
        } else {
            *health > 0
        };
        if !takes_traffic {
            continue;
        }
        if in_panic(*healthy, hosts.len()) {
            out.panicking.push((*priority, *healthy, hosts.len()));
            out.candidates.extend(hosts.iter().map(|b| (b.name.clone(), None)));
        } else {
            out.candidates.extend(hosts.iter().filter(|b| up(b)).map(|b| (b.name.clone(), b.weight)));
        }
        if total_panic || spread < 100 {
            out.first_try = out.candidates.len();
            spread += health;
        }
    }
    out
}

/// How a route rule is named in an explanation.
fn trial_label(from: &Matched) -> String {
    match from {
        Matched::NameMatch(backend) => format!("name-match {backend}"),
        other => other.label().to_string(),
    }
}

fn matches_all(m: &RouteMatch, headers: &HashMap<String, String>) -> bool {
    m.headers.iter().all(|(name, value)| headers.get(name).is_some_and(|got| got == value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn route(rules: Value) -> Value {
        json!({"spec": {"rules": rules}})
    }

    fn request(model: &str, headers: &[(&str, &str)]) -> Request {
        Request {
            model: Some(model.to_string()),
            headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        }
    }

    fn exact(name: &str, value: &str) -> Value {
        json!({"type": "Exact", "name": name, "value": value})
    }

    #[test]
    fn more_header_matches_win_over_rule_order() {
        // Rule `any-gpt` (model only) comes first; `pii-gpt` (model and
        // classification) is more specific: Gateway API precedence picks it.
        let r = route(json!([
            {"matches": [{"headers": [exact("x-ai-eg-model", "gpt-4o")]}], "backendRefs": [{"name": "cloud"}]},
            {"matches": [{"headers": [exact("x-ai-eg-model", "gpt-4o"), exact("x-llmkube-classification", "pii")]}],
             "backendRefs": [{"name": "local"}]},
            {"matches": [{}], "backendRefs": [{"name": "local"}]}
        ]));
        let rules = route_rules(
            &r,
            &[RuleOrigin::Rule("any-gpt".into()), RuleOrigin::Rule("pii-gpt".into()), RuleOrigin::Default],
        )
        .expect("one origin per rule");
        let d = decide(&rules, &request("gpt-4o", &[("X-LLMKube-Classification", "pii")]), &[]);
        assert_eq!((d.matched.label(), d.backends()), ("pii-gpt", vec!["local"]));
        let d = decide(&rules, &request("gpt-4o", &[]), &[]);
        assert_eq!(d.matched.label(), "any-gpt");
        let d = decide(&rules, &request("llama", &[]), &[]);
        assert_eq!((d.matched.clone(), d.backends()), (Matched::Default, vec!["local"]));
    }

    #[test]
    fn a_header_sent_twice_is_matched_as_its_joined_values() {
        let r = route(json!([
            {"matches": [{"headers": [exact("x-spread", "yes")]}], "backendRefs": [{"name": "a"}]},
            {"matches": [{"headers": [exact("x-spread", "yes,no")]}], "backendRefs": [{"name": "b"}]},
        ]));
        let rules = route_rules(&r, &[RuleOrigin::Rule("yes".into()), RuleOrigin::Rule("joined".into())])
            .expect("one origin per rule");
        let d = decide(&rules, &request("m", &[("x-spread", "yes"), ("X-Spread", "no")]), &[]);
        assert_eq!(d.matched.label(), "joined");
        assert_eq!(decide(&rules, &request("m", &[("x-spread", "yes")]), &[]).matched.label(), "yes");
    }

    /// Envoy's HTTP/1 codec trims the spaces and tabs around a value
    /// before any match reads it (codec_impl.cc); the ones inside stay.
    #[test]
    fn a_value_is_matched_without_the_spaces_and_tabs_around_it() {
        let r = route(json!([
            {"matches": [{"headers": [exact("x-spread", "yes")]}], "backendRefs": [{"name": "a"}]},
            {"matches": [{"headers": [exact("x-spread", "y es")]}], "backendRefs": [{"name": "b"}]},
        ]));
        let rules = route_rules(&r, &[RuleOrigin::Rule("yes".into()), RuleOrigin::Rule("inner".into())])
            .expect("one origin per rule");
        for padded in [" yes", "yes ", "\tyes", "yes\t", " \t yes\t "] {
            assert_eq!(
                decide(&rules, &request("m", &[("x-spread", padded)]), &[]).matched.label(),
                "yes",
                "{padded:?}"
            );
        }
        assert_eq!(decide(&rules, &request("m", &[("x-spread", " y es ")]), &[]).matched.label(), "inner");
        // Each value is trimmed before a second one is joined to it.
        let d = decide(&rules, &request("m", &[("x-spread", "y "), ("x-spread", " es")]), &[]);
        assert_eq!(d.status, Some(404), "joined as \"y,es\"");
    }

    #[test]
    fn the_model_header_comes_from_the_body_only() {
        let r = route(json!([
            {"matches": [{"headers": [exact("x-ai-eg-model", "gpt-4o")]}], "backendRefs": [{"name": "cloud"}]},
            {"matches": [{}], "backendRefs": [{"name": "local"}]}
        ]));
        let rules =
            route_rules(&r, &[RuleOrigin::Rule("gpt".into()), RuleOrigin::Default]).expect("one origin per rule");
        // The client's own header is replaced by the body's model...
        let forged = request("llama", &[("X-AI-EG-Model", "gpt-4o")]);
        assert_eq!(decide(&rules, &forged, &[]).matched, Matched::Default);
        // ...and by "" when the body names none.
        let no_model = Request { model: None, headers: vec![("x-ai-eg-model".into(), "gpt-4o".into())] };
        let d = decide(&rules, &no_model, &[]);
        assert_eq!(d.matched, Matched::Default);
        assert_eq!(d.trials[0].failed.as_deref(), Some("header x-ai-eg-model is not \"gpt-4o\""));
        assert!(RouteRule::takes(&rules[0], &request("gpt-4o", &[("x-ai-eg-model", "llama")])));
    }

    #[test]
    fn a_route_whose_rules_were_not_all_recorded_is_refused() {
        let r = route(json!([{"matches": [{}], "backendRefs": [{"name": "a"}]}]));
        let err = route_rules(&r, &[]).expect_err("refused");
        assert_eq!(err.to_string(), "the AIGatewayRoute has 1 rules but 0 were compiled");
    }

    #[test]
    fn priorities_weights_ejection_and_status() {
        let r = route(json!([
            {"matches": [{}], "backendRefs": [{"name": "b", "priority": 1}, {"name": "a", "priority": 0}]},
        ]));
        let rules = route_rules(&r, &[RuleOrigin::Rule("all".into())]).expect("one origin per rule");
        assert_eq!(decide(&rules, &request("m", &[]), &[]).backends(), ["a", "b"]);
        assert_eq!(decide(&rules, &request("m", &[]), &["a".into()]).backends(), ["b"]);
        let d = decide(&rules, &request("m", &[]), &["a".into(), "b".into()]);
        assert_eq!((d.status, d.backends()), (Some(503), vec![]));
        let weighted =
            route(json!([{"matches": [{}], "backendRefs": [{"name": "a", "weight": 3}, {"name": "b", "weight": 1}]}]));
        let d = decide(
            &route_rules(&weighted, &[RuleOrigin::Rule("w".into())]).expect("one origin"),
            &request("m", &[]),
            &[],
        );
        assert_eq!(
            (d.strategy.as_str(), d.candidates.clone()),
            ("weighted", vec![("a".into(), Some(3)), ("b".into(), Some(1))])
        );
        let none = route(json!([{"matches": [{"headers": [exact("x-team", "a")]}], "backendRefs": [{"name": "a"}]}]));
        assert_eq!(
            decide(&route_rules(&none, &[RuleOrigin::Rule("t".into())]).expect("one origin"), &request("m", &[]), &[])
                .status,
            Some(404)
        );
    }

    /// The candidates (names and weights) of a decision.
    type Candidates = Vec<(String, Option<u32>)>;

    /// (backends in dispatch order with their weights, status, in panic)
    /// of a one-rule route with `refs` and `down` down.
    fn dispatched(refs: Value, down: &[&str]) -> (Candidates, Option<u16>, bool) {
        let r = route(json!([{"matches": [{}], "backendRefs": refs}]));
        let rules = route_rules(&r, &[RuleOrigin::Rule("r".into())]).expect("one origin per rule");
        let down: Vec<String> = down.iter().map(|d| d.to_string()).collect();
        let d = decide(&rules, &request("m", &[]), &down);
        let panic = d.reason.as_deref().is_some_and(|r| r.contains("panic threshold (50%)"));
        (d.candidates, d.status, panic)
    }

    fn names(list: &[&str], weight: Option<u32>) -> Candidates {
        list.iter().map(|n| (n.to_string(), weight)).collect()
    }

    #[test]
    fn under_half_of_a_level_up_spreads_over_all_of_it() {
        let three = json!([{"name": "a", "weight": 1}, {"name": "b", "weight": 1}, {"name": "c", "weight": 1}]);
        // One of three down: 67% up, no panic; the healthy two keep their weights.
        assert_eq!(dispatched(three.clone(), &["a"]), (names(&["b", "c"], Some(1)), None, false));
        // Two of three down: 33% < 50%, the level is in panic and Envoy
        // sends to every backend of it, the down ones too, weights aside.
        assert_eq!(dispatched(three.clone(), &["a", "b"]), (names(&["a", "b", "c"], None), None, true));
        // All down: the client gets their failure.
        assert_eq!(dispatched(three, &["a", "b", "c"]), (vec![], Some(503), false));
        // Exactly half up is not under the threshold.
        let two = json!([{"name": "a", "weight": 3}, {"name": "b", "weight": 1}]);
        assert_eq!(dispatched(two, &["a"]), (vec![("b".into(), Some(1))], None, false));
        let four = json!([{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}]);
        assert_eq!(dispatched(four.clone(), &["a", "b"]), (names(&["c", "d"], None), None, false));
        assert_eq!(dispatched(four, &["a", "b", "c"]), (names(&["a", "b", "c", "d"], None), None, true));
        // A weight-0 reference is no host: one of two is up.
        let zero = json!([{"name": "a", "weight": 1}, {"name": "z", "weight": 0}, {"name": "c", "weight": 1}]);
        assert_eq!(dispatched(zero, &["a"]), (vec![("c".into(), Some(1))], None, false));
    }

    #[test]
    fn panic_goes_by_priority_level() {
        let level = |p: i64, names: &[&str]| -> Vec<Value> {
            names.iter().map(|n| json!({"name": n, "priority": p})).collect()
        };
        let refs = |a: Vec<Value>, b: Vec<Value>| Value::Array(a.into_iter().chain(b).collect());
        // P0 at 1 of 3 (health 46%) and P1 whole (100%): the levels' health
        // sums to 100, so no level is in panic.
        let p0_p1 = refs(level(0, &["a", "b", "c"]), level(1, &["d"]));
        assert_eq!(dispatched(p0_p1, &["a", "b"]), (names(&["c", "d"], None), None, false));
        // Both at 1 of 3: 46% + 46% < 100, every level is in panic, and
        // each takes its share of the hosts, down ones included.
        let both = refs(level(0, &["a", "b", "c"]), level(1, &["d", "e", "f"]));
        assert_eq!(dispatched(both, &["a", "b", "d", "e"]), (names(&["a", "b", "c", "d", "e", "f"], None), None, true));
        // P0 all down (in panic, health 0) and P1 at 1 of 2 (70%, not in
        // panic): P0 takes nothing, P1 sends to its healthy backend.
        let spill = refs(level(0, &["a", "b", "c"]), level(1, &["d", "e"]));
        assert_eq!(dispatched(spill, &["a", "b", "c", "d"]), (names(&["e"], None), None, false));
        // One backend per level, as primary-fallback renders: never in panic
        // while one is up.
        let failover =
            json!([{"name": "a", "priority": 0}, {"name": "b", "priority": 1}, {"name": "c", "priority": 2}]);
        assert_eq!(dispatched(failover, &["a", "b"]), (names(&["c"], None), None, false));
    }
}
