//! Envoy's decision on the Gateway data plane, from the AIGatewayRoute
//! routerctl renders for a `dataPlane: Gateway` router.
//!
//! Envoy AI Gateway copies the body's `model` into the `x-ai-eg-model`
//! header and turns each AIGatewayRoute rule into an HTTPRoute rule with
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
//! rule keeps them all when all are down: `eject_unhealthy`). A request
//! whose remaining backends are all down still goes to them (Envoy's panic
//! threshold, which the operator's traffic policy leaves at its default),
//! and the client gets their failure, typically a 503; one that matches no
//! rule gets the `route-not-found` rule's 404 that Envoy AI Gateway adds.
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

/// The headers Envoy matches on: the request's, a header sent twice
/// joined with `,` into one value (as Envoy does before matching since the
/// CVE-2020-25017 fix), and the model header the AI gateway sets from the
/// body.
fn envoy_headers(request: &Request) -> HashMap<String, String> {
    let mut headers: HashMap<String, String> = HashMap::new();
    for (name, value) in &request.headers {
        headers
            .entry(name.to_ascii_lowercase())
            .and_modify(|joined| {
                joined.push(',');
                joined.push_str(value);
            })
            .or_insert_with(|| value.clone());
    }
    if let Some(model) = &request.model {
        headers.insert(MODEL_HEADER.to_string(), model.clone());
    }
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
            status: Some(500),
            reason: Some("every backend of the rule has weight 0 (Envoy Gateway answers 500)".into()),
            trials,
        };
    }
    let mut candidates: Vec<&BackendRef> = weighted.into_iter().filter(|b| !unhealthy.contains(&b.name)).collect();
    candidates.sort_by_key(|b| b.priority);
    let strategy = if rule.backends.iter().any(|b| b.weight.is_some()) {
        "weighted"
    } else if rule.backends.iter().any(|b| b.priority > 0) {
        "primary-fallback"
    } else {
        ""
    };
    let (status, reason) = if candidates.is_empty() {
        (
            Some(503),
            Some(
                "every backend of the rule is down: Envoy still sends to them (its panic threshold) and the client \
                 gets their failure, typically 503"
                    .to_string(),
            ),
        )
    } else {
        (None, None)
    };
    Decision {
        matched,
        strategy: strategy.to_string(),
        candidates: candidates.into_iter().map(|b| (b.name.clone(), b.weight)).collect(),
        status,
        reason,
        trials,
    }
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
}
