//! Properties of the router-proxy's decision (routing::proxy), over
//! generated configs and requests: the first matching rule wins, a rule
//! after a catch-all never changes a decision, and a fail-closed rule never
//! sends a sensitive class to anything but a local backend.

use proptest::prelude::*;
use routerctl::routing::proxy::{decide, ProxyConfig};
use routerctl::routing::{Matched, Request};
use serde_json::{json, Value};

const BACKENDS: [(&str, &str); 4] = [("l1", "local"), ("l2", "local"), ("c1", "cloud"), ("c2", "cloud")];
const CLASSES: [&str; 4] = ["pii", "phi", "public", ""];
const MODELS: [&str; 4] = ["gpt-4o", "qwen3-coder", "llama-3", ""];

fn rule_strategy() -> impl Strategy<Value = Value> {
    (
        prop::sample::subsequence(vec!["pii", "phi", "public"], 0..3),
        prop::option::of(prop::sample::select(vec!["simple", "complex"])),
        prop::sample::subsequence(vec!["gpt-*", "qwen3-*", "*"], 0..2),
        prop::option::of(prop::sample::select(vec!["a", "b"])),
        prop::sample::subsequence(BACKENDS.iter().map(|b| b.0).collect::<Vec<_>>(), 1..4),
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

fn config(rules: &[Value], default_route: &str) -> ProxyConfig {
    let rules: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut r = r.clone();
            r["name"] = json!(format!("r{i}"));
            r
        })
        .collect();
    let backends: Vec<Value> =
        BACKENDS.iter().map(|(n, t)| json!({"name": n, "tier": t, "address": "http://x"})).collect();
    serde_json::from_value(json!({"backends": backends, "rules": rules, "defaultRoute": default_route}))
        .expect("a config")
}

fn request_strategy() -> impl Strategy<Value = Request> {
    (
        prop::sample::select(CLASSES.to_vec()),
        prop::sample::select(vec!["", "simple", "complex"]),
        prop::sample::select(MODELS.to_vec()),
        prop::sample::select(vec!["", "a", "b"]),
    )
        .prop_map(|(class, complexity, model, team)| {
            let mut headers = Vec::new();
            if !class.is_empty() {
                headers.push(("X-LLMKube-Classification".to_string(), class.to_uppercase()));
            }
            if !complexity.is_empty() {
                headers.push(("x-llmkube-task-complexity".to_string(), complexity.to_string()));
            }
            if !team.is_empty() {
                headers.push(("x-team".to_string(), team.to_string()));
            }
            Request { model: (!model.is_empty()).then(|| model.to_string()), headers }
        })
}

fn unhealthy_strategy() -> impl Strategy<Value = Vec<String>> {
    prop::sample::subsequence(BACKENDS.iter().map(|b| b.0.to_string()).collect::<Vec<_>>(), 0..3)
}

proptest! {
    /// A copy of the winning rule put first wins instead: nothing before a
    /// matching rule is skipped, nothing after it is consulted.
    #[test]
    fn the_first_matching_rule_wins(
        rules in prop::collection::vec(rule_strategy(), 1..6),
        request in request_strategy(),
        down in unhealthy_strategy(),
    ) {
        let cfg = config(&rules, "l1");
        let before = decide(&cfg, &request, &down);
        if let Matched::Rule(name) = &before.matched {
            let index: usize = name[1..].parse().expect("r<i>");
            let mut moved = rules.clone();
            moved.insert(0, rules[index].clone());
            let after = decide(&config(&moved, "l1"), &request, &down);
            prop_assert_eq!(&after.matched, &Matched::Rule("r0".into()));
            prop_assert_eq!(after.backends(), before.backends());
            prop_assert_eq!(after.status, before.status);
        }
    }

    /// After a catch-all rule (no conditions) no rule is ever reached.
    #[test]
    fn a_rule_after_a_catch_all_changes_nothing(
        rules in prop::collection::vec(rule_strategy(), 0..4),
        extra in prop::collection::vec(rule_strategy(), 1..4),
        request in request_strategy(),
        down in unhealthy_strategy(),
    ) {
        let mut with_catch_all = rules.clone();
        with_catch_all.push(json!({"route": {"backends": ["l2", "c1"]}}));
        let before = decide(&config(&with_catch_all, ""), &request, &down);
        let mut longer = with_catch_all.clone();
        longer.extend(extra);
        let after = decide(&config(&longer, ""), &request, &down);
        prop_assert_eq!(after, before);
    }

    /// A fail-closed rule never hands a sensitive class (pii, phi: the
    /// defaults) to a cloud backend: it sends it to local ones or answers
    /// 503.
    #[test]
    fn fail_closed_never_leaves_the_cluster_with_a_sensitive_class(
        rules in prop::collection::vec(rule_strategy(), 1..6),
        request in request_strategy(),
        down in unhealthy_strategy(),
    ) {
        let cfg = config(&rules, "c1");
        let decision = decide(&cfg, &request, &down);
        let sensitive = request.headers.iter().any(|(k, v)| {
            k.eq_ignore_ascii_case("x-llmkube-classification") && matches!(v.to_lowercase().as_str(), "pii" | "phi")
        });
        if let Matched::Rule(name) = &decision.matched {
            let index: usize = name[1..].parse().expect("r<i>");
            if sensitive && rules[index]["failClosed"] == json!(true) {
                let local = |b: &&str| BACKENDS.iter().any(|(n, t)| n == b && *t == "local");
                prop_assert!(decision.backends().iter().all(local), "{:?}", decision);
                prop_assert!(!decision.backends().is_empty() || decision.status == Some(503), "{:?}", decision);
            }
        }
    }
}
