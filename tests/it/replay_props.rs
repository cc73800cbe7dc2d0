//! Properties of `routing::replay` over generated routers and logs: the
//! log is written as the router-proxy writes it (the decision made with
//! some candidates of the route down, then `audit`'s line, in slog's JSON
//! or text format), read back through `input::log` and replayed.
//! - a router replayed against its own log differs in nothing;
//! - with `--against` the router that wrote the log, the requests moved
//!   are exactly those whose `route` answer (`Router::decide`, under the
//!   health the log shows) changes, grouped by the two answers;
//! - a request a header condition could decide is undetermined, never
//!   counted as a difference.

use std::collections::BTreeMap;

use proptest::prelude::*;
use routerctl::input::log::{classify, Line};
use routerctl::routing::proxy::ProxyConfig;
use routerctl::routing::replay::{replay, By, LineRef, Tally};
use routerctl::routing::router::Router;
use routerctl::routing::{Decision, Matched, Request};
use serde_json::{json, Value};

const BACKENDS: [(&str, &str); 4] = [("l1", "local"), ("l2", "local"), ("c1", "cloud"), ("c2", "cloud")];

fn rule_strategy(headers: bool) -> impl Strategy<Value = Value> {
    (
        prop::sample::subsequence(vec!["pii", "phi", "public"], 0..3),
        prop::option::of(prop::sample::select(vec!["simple", "complex"])),
        prop::sample::subsequence(vec!["gpt-*", "qwen3-*", "*"], 0..2),
        prop::option::weighted(0.3, prop::sample::select(vec!["a", "b"])).prop_map(move |t| t.filter(|_| headers)),
        prop::sample::subsequence(BACKENDS.iter().map(|b| b.0).collect::<Vec<_>>(), 1..4).prop_shuffle(),
        any::<bool>(),
    )
        .prop_map(|(classes, complexity, models, team, backends, fail_closed)| {
            let mut m = json!({});
            if !classes.is_empty() {
                m["dataClassification"] = json!(classes);
            }
            if let Some(c) = complexity {
                m["taskComplexity"] = json!(c);
            }
            if !models.is_empty() {
                m["models"] = json!(models);
            }
            if let Some(t) = team {
                m["headers"] = json!({"X-Team": t});
            }
            json!({"match": m, "route": {"backends": backends}, "failClosed": fail_closed})
        })
}

/// A Proxy-plane router from rules (named by position), a default route
/// (or none) and the name-match strategy (or not).
fn router(rules: &[Value], default_route: &str, by_name: bool) -> Router {
    let rules: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut r = r.clone();
            if r.get("name").is_none() {
                r["name"] = json!(format!("r{i}"));
            }
            r
        })
        .collect();
    let backends: Vec<Value> =
        BACKENDS.iter().map(|(n, t)| json!({"name": n, "tier": t, "address": "http://x"})).collect();
    let strategy = if by_name { "BackendNameMatch" } else { "Static" };
    let config: ProxyConfig = serde_json::from_value(
        json!({"backends": backends, "rules": rules, "defaultRoute": default_route, "defaultRouteStrategy": strategy}),
    )
    .expect("a config");
    Router::from_config("ns/r".into(), "r".into(), config)
}

/// A logged request: its features and how many candidates of its route
/// were down (taken modulo the route's length, plus one: all of them).
#[derive(Debug, Clone)]
struct Sent {
    class: &'static str,
    complexity: &'static str,
    model: &'static str,
    down: usize,
    text: bool,
    stream: bool,
}

fn sent_strategy() -> impl Strategy<Value = Sent> {
    (
        prop::sample::select(vec!["pii", "phi", "public", ""]),
        prop::sample::select(vec!["", "simple", "complex"]),
        prop::sample::select(vec!["gpt-4o", "qwen3-coder", "l2", "c1", ""]),
        0usize..5,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(class, complexity, model, down, text, stream)| Sent {
            class,
            complexity,
            model,
            down,
            text,
            stream,
        })
}

fn request(sent: &Sent) -> Request {
    let mut headers = Vec::new();
    if !sent.class.is_empty() {
        headers.push(("x-llmkube-classification".to_string(), sent.class.to_string()));
    }
    if !sent.complexity.is_empty() {
        headers.push(("x-llmkube-task-complexity".to_string(), sent.complexity.to_string()));
    }
    Request { model: (!sent.model.is_empty()).then(|| sent.model.to_string()), headers }
}

/// The backends down when `sent` was served: a prefix of its route.
fn down(router: &Router, sent: &Sent) -> Vec<String> {
    let route: Vec<String> = router.decide(&request(sent), &[]).backends().iter().map(|b| b.to_string()).collect();
    route[..sent.down % (route.len() + 1)].to_vec()
}

/// The line `audit` writes for `decision` (proxy.go: handleChatCompletions
/// picks the outcome): in slog's JSON or text format.
fn audit_line(sent: &Sent, static_gate: bool, d: &Decision) -> String {
    let rule = match &d.matched {
        Matched::Rule(name) => Some(name.clone()),
        _ => None,
    };
    let backend = d.candidates.first().map(|(b, _)| b.clone());
    let (outcome, status) = match (&backend, &d.matched, d.status) {
        (Some(_), _, _) => (if sent.stream { "ok_stream" } else { "ok" }, 200),
        (None, Matched::Nothing, _) => ("no_route", 503),
        (None, _, Some(503)) if static_gate => ("fail_closed", 503),
        (None, _, Some(503)) => ("fail_closed_runtime", 503),
        (None, _, _) => ("all_backends_failed", 502),
    };
    let mut fields: Vec<(&str, Value)> = vec![
        ("time", json!("2026-08-23T10:15:04.123Z")),
        ("level", json!("INFO")),
        ("msg", json!("router.dispatch")),
        ("model", json!(sent.model)),
        ("classification", json!(sent.class)),
        ("taskComplexity", json!(sent.complexity)),
        ("status", json!(status)),
        ("outcome", json!(outcome)),
        ("latencyMs", json!(12)),
    ];
    if let Some(rule) = rule {
        fields.push(("rule", json!(rule)));
    }
    if let Some(backend) = backend {
        let tier = BACKENDS.iter().find(|(n, _)| *n == backend).map_or("local", |(_, t)| t);
        fields.push(("backend", json!(backend)));
        fields.push(("backendTier", json!(tier)));
    }
    fields.push(("timeoutMs", json!(120000)));
    if sent.text {
        // slog's text handler: an empty string quoted, these values bare.
        let value = |v: &Value| match v {
            Value::String(s) if s.is_empty() => "\"\"".to_string(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        fields.iter().map(|(k, v)| format!("{k}={}", value(v))).collect::<Vec<_>>().join(" ")
    } else {
        let body: Vec<String> = fields.iter().map(|(k, v)| format!("{}:{v}", json!(k))).collect();
        format!("{{{}}}", body.join(","))
    }
}

/// The log `writer` would have written for `sent`, and the health each
/// request met.
fn log(writer: &Router, sent: &[Sent]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = Vec::new();
    let mut health = Vec::new();
    for s in sent {
        let down = down(writer, s);
        let healthy = writer.decide(&request(s), &[]);
        let static_gate = healthy.candidates.is_empty() && healthy.status == Some(503);
        lines.push(audit_line(s, static_gate, &writer.decide(&request(s), &down)));
        health.push(down);
    }
    (lines, health)
}

fn tally(lines: &[String]) -> Tally {
    let mut tally = Tally::new();
    let source = tally.source("access.log");
    for (n, text) in lines.iter().enumerate() {
        match classify(text) {
            Line::Dispatch(d) => tally.add(&d, 1, LineRef { source, line: n as u64 + 1 }),
            other => panic!("line {} is not read back as a dispatch: {other:?}\n{text}", n + 1),
        }
    }
    tally
}

type Answer = (Option<String>, Option<String>, Option<u16>);

/// What `routerctl route` answers, as the report writes it.
fn answer(d: &Decision) -> Answer {
    let rule = match &d.matched {
        Matched::Nothing => None,
        m => Some(m.label().to_string()),
    };
    (rule, d.candidates.first().map(|(b, _)| b.clone()), d.status)
}

fn label(by: &By) -> Option<String> {
    by.label().map(str::to_string)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_router_replayed_against_its_own_log_differs_in_nothing(
        rules in prop::collection::vec(rule_strategy(true), 0..5),
        default_route in prop::sample::select(vec!["", "l1", "c1"]),
        by_name in any::<bool>(),
        sent in prop::collection::vec(sent_strategy(), 1..40),
    ) {
        let r = router(&rules, default_route, by_name);
        let (lines, _) = log(&r, &sent);
        let report = replay(&tally(&lines), &r, None).expect("replays");
        let differs = report.differs.expect("decisions are logged");
        prop_assert_eq!(differs.count, 0, "{:?}", differs.groups);
        prop_assert_eq!(report.requests, sent.len() as u64);
    }

    #[test]
    fn moved_requests_are_those_whose_route_answer_changes(
        rules in prop::collection::vec(rule_strategy(false), 1..5),
        default_route in prop::sample::select(vec!["", "l1", "c1"]),
        by_name in any::<bool>(),
        order in any::<u64>(),
        new_default in prop::sample::select(vec!["", "l2", "c2"]),
        sent in prop::collection::vec(sent_strategy(), 1..40),
    ) {
        let named: Vec<Value> = rules.iter().enumerate().map(|(i, r)| {
            let mut r = r.clone();
            r["name"] = json!(format!("r{i}"));
            r
        }).collect();
        let old = router(&named, default_route, by_name);
        // The change: the same rules in another order, another default.
        let mut reordered = named.clone();
        let n = reordered.len();
        reordered.rotate_left((order as usize) % n);
        if order % 3 == 0 {
            reordered.reverse();
        }
        let new = router(&reordered, new_default, by_name);
        let (lines, health) = log(&old, &sent);
        let report = replay(&tally(&lines), &new, Some(&old)).expect("replays");
        prop_assert_eq!(report.undetermined.count, 0);
        let mut expected: BTreeMap<(Answer, Answer), u64> = BTreeMap::new();
        for (s, down) in sent.iter().zip(&health) {
            let before = answer(&old.decide(&request(s), down));
            let after = answer(&new.decide(&request(s), down));
            if before != after {
                *expected.entry((before, after)).or_default() += 1;
            }
        }
        let moved = report.moved.expect("--against");
        let got: BTreeMap<(Answer, Answer), u64> = moved.groups.iter().map(|g| {
            let key = |d: &routerctl::routing::replay::Dispatched| (label(&d.by), d.backend.clone(), d.status);
            ((key(&g.before), key(&g.after)), g.count)
        }).collect();
        prop_assert_eq!(got, expected);
        prop_assert_eq!(report.drift.expect("logged").count, 0, "the old router wrote the log");
    }

    #[test]
    fn header_conditions_make_requests_undetermined_never_different(
        rules in prop::collection::vec(rule_strategy(false), 1..5),
        sent in prop::collection::vec(sent_strategy(), 1..40),
    ) {
        let r = router(&rules, "l1", false);
        let (lines, _) = log(&r, &sent);
        // Every rule now also asks for a header the log does not hold: a
        // request whose other conditions some rule meets (r decides it
        // by a rule) depends on that header; the others take the default
        // route, as logged.
        let guarded: Vec<Value> = rules.iter().map(|rule| {
            let mut rule = rule.clone();
            rule["match"]["headers"] = json!({"X-Team": "a"});
            rule
        }).collect();
        let report = replay(&tally(&lines), &router(&guarded, "l1", false), None).expect("replays");
        let by_rule = sent.iter().filter(|s| matches!(r.decide(&request(s), &[]).matched, Matched::Rule(_))).count();
        prop_assert_eq!(report.undetermined.count, by_rule as u64);
        let differs = report.differs.expect("logged");
        prop_assert_eq!(differs.count, 0, "{:?}", differs.groups);
    }
}
