//! Properties of the router-proxy's decision (routing::proxy), over
//! generated configs and requests: the first matching rule wins, a rule
//! after a catch-all never changes a decision, and a fail-closed rule never
//! sends a sensitive class to anything but a local backend; the request
//! space misses no request of the routers' own vocabulary.

use proptest::prelude::*;
use routerctl::routing::proxy::{decide, ProxyConfig};
use routerctl::routing::{Decision, Matched, Request};
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

/// Rules for the partition property: the models come as globs that
/// overlap, cross `/` and hold classes.
fn glob_rule_strategy() -> impl Strategy<Value = Value> {
    (
        rule_strategy(),
        prop::sample::subsequence(
            vec![
                "gpt-*",
                "*-mini",
                "org/*",
                "[gq]*",
                "*",
                "gpt-4?",
                "a[/]b",
                "[]x]",
                "*??",
                "??*",
                "*[^b]*",
                "*\u{20AC}*",
                "[\u{E0}-\u{FF}]*",
            ],
            0..3,
        ),
    )
        .prop_map(|(mut rule, models)| {
            if !models.is_empty() {
                rule["match"]["models"] = json!(models);
            }
            rule
        })
}

/// Requests drawn from the routers' own vocabulary (`routing::vocabulary`:
/// published ids, backend names, glob instances and their near misses,
/// header, classification and complexity values with their case and
/// padding variants, rule instances, the request with no model), picked
/// by index: whatever rules were generated, the requests are made of
/// their literals.
fn drawn(routers: &[&routerctl::routing::router::Router], picks: &[prop::sample::Index]) -> Vec<Request> {
    let words = routerctl::routing::vocabulary::vocabulary(routers, &[]);
    picks.iter().map(|p| words[p.index(words.len())].request.clone()).collect()
}

fn picks() -> impl Strategy<Value = Vec<prop::sample::Index>> {
    prop::collection::vec(any::<prop::sample::Index>(), 1..20)
}

/// Where a request goes in each health state that can tell two
/// decisions apart: all up, each backend down alone, and all down.
fn outcomes(router: &routerctl::routing::router::Router, request: &Request) -> Vec<String> {
    let mut states: Vec<Vec<String>> = vec![Vec::new()];
    states.extend(BACKENDS.iter().map(|(b, _)| vec![b.to_string()]));
    states.push(BACKENDS.iter().map(|(b, _)| b.to_string()).collect());
    states
        .iter()
        .map(|down| {
            let d = router.decide(request, down);
            format!("{}→{:?}/{:?}", d.matched.label(), d.backends(), d.status)
        })
        .collect()
}

proptest! {
    /// The partition misses nothing: whatever a request of the router's
    /// own vocabulary does, in every health state, some cell's witness
    /// does too (the cells are cut by decisions, so two requests the
    /// router sends alike may share a cell whatever globs they match), and
    /// the witness of the cell the space's lookup puts it in does.
    #[test]
    fn every_request_decides_as_some_cell(
        rules in prop::collection::vec(glob_rule_strategy(), 0..5),
        picks in picks(),
    ) {
        use routerctl::routing::proxy::refused_by_server;
        use routerctl::routing::router::Router;
        use routerctl::routing::space::{partition, Limits, Literals, Located};
        let router = Router::from_config("ns/r".into(), "r".into(), config(&rules, "l1"));
        let mut literals = Literals::default();
        literals.add_router(&router);
        let space = partition(&literals, Limits::default());
        prop_assert!(space.complete, "{:?}", space.notes);
        let cells: std::collections::HashSet<Vec<String>> = space.cells.iter().map(|c| outcomes(&router, c)).collect();
        let mut locator = space.locator(&literals);
        for request in drawn(&[&router], &picks) {
            // Go's server answers these itself: no cell stands for them.
            if refused_by_server(&request).is_some() {
                continue;
            }
            let want = outcomes(&router, &request);
            prop_assert!(cells.contains(&want), "no cell decides as {:?} does: {:?}", request, want);
            // And the cell it falls in is one of them.
            match locator.locate(&request) {
                Located::Cell(i) => {
                    prop_assert_eq!(outcomes(&router, &space.cells[i]), want, "{:?} in the cell of {:?}", request, space.cells[i]);
                }
                other => prop_assert!(false, "{:?}: {:?}", request, other),
            }
        }
    }
}

proptest! {
    /// Deciding without the explanation decides the same.
    #[test]
    fn a_quiet_decision_is_the_same_decision(
        rules in prop::collection::vec(glob_rule_strategy(), 0..5),
        picks in picks(),
        down in unhealthy_strategy(),
    ) {
        let cfg = config(&rules, "c1");
        let router = routerctl::routing::router::Router::from_config("ns/r".into(), "r".into(), cfg.clone());
        for request in drawn(&[&router], &picks) {
            let mut loud = decide(&cfg, &request, &down);
            loud.trials.clear();
            prop_assert_eq!(routerctl::routing::proxy::decide_quietly(&cfg, &request, &down), loud);
        }
    }
}

proptest! {
    /// `--against` misses no change: a random request whose decision two
    /// routers disagree on falls in a cell that verify lists as moved,
    /// under the same (route before, route after).
    #[test]
    fn every_moved_request_is_in_a_listed_change(
        old_rules in prop::collection::vec(glob_rule_strategy(), 0..4),
        new_rules in prop::collection::vec(glob_rule_strategy(), 0..4),
        old_default in prop::sample::select(vec!["l1", "c1", ""]),
        picks in picks(),
    ) {
        use routerctl::routing::router::Router;
        use routerctl::routing::space::Limits;
        use routerctl::routing::verify::{verify, Inputs};
        let old = vec![vec![Router::from_config("ns/r".into(), "r".into(), config(&old_rules, old_default))]];
        let new = vec![vec![Router::from_config("ns/r".into(), "r".into(), config(&new_rules, "l1"))]];
        let reports = verify(&Inputs { planes: &new, against: Some(&old), invariants: &[], limits: Limits::default() });
        let requests = drawn(&[&new[0][0], &old[0][0]], &picks);
        prop_assert!(reports[0].complete, "{:?}", reports[0].notes);
        let moved: Vec<(String, String)> = reports[0]
            .changes
            .iter()
            .map(|c| (c.before.matched.label().to_string(), c.after.matched.label().to_string()))
            .collect();
        for request in &requests {
            let (before, after) = (old[0][0].decide(request, &[]), new[0][0].decide(request, &[]));
            if !before.same_outcome(&after) {
                let key = (before.matched.label().to_string(), after.matched.label().to_string());
                prop_assert!(moved.contains(&key), "{:?} moves {:?} but verify lists {:?}", request, key, moved);
            }
        }
    }
}

/// The health states a test compares two routers' decisions of a request
/// in, worked out here apart from verify's own: all up, every prefix of
/// either router's candidate list (all up) down, and both lists down.
fn states_of(before: &Decision, after: &Decision) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    let mut both: Vec<String> = Vec::new();
    for d in [before, after] {
        let names: Vec<String> = d.backends().iter().map(|b| b.to_string()).collect();
        for i in 1..=names.len() {
            out.push(names[..i].to_vec());
        }
        both.extend(names.into_iter().filter(|n| !both.contains(n)).collect::<Vec<_>>());
    }
    out.push(both);
    out
}

proptest! {
    /// `--against` misses no change in any health state: wherever a random
    /// request goes elsewhere (another route all up; other candidates or
    /// another status with backends down), verify lists a change with
    /// those routes and that set of backends down.
    #[test]
    fn every_change_in_every_health_state_is_listed(
        old_rules in prop::collection::vec(glob_rule_strategy(), 0..4),
        new_rules in prop::collection::vec(glob_rule_strategy(), 0..4),
        old_default in prop::sample::select(vec!["l1", "c1", ""]),
        picks in picks(),
    ) {
        use routerctl::routing::router::Router;
        use routerctl::routing::space::Limits;
        use routerctl::routing::verify::{verify, Inputs};
        let old = vec![vec![Router::from_config("ns/r".into(), "r".into(), config(&old_rules, old_default))]];
        let new = vec![vec![Router::from_config("ns/r".into(), "r".into(), config(&new_rules, "l1"))]];
        let reports = verify(&Inputs { planes: &new, against: Some(&old), invariants: &[], limits: Limits::default() });
        let requests = drawn(&[&new[0][0], &old[0][0]], &picks);
        prop_assert!(reports[0].complete, "{:?}", reports[0].notes);
        let set = |names: &[String]| {
            let mut s = names.to_vec();
            s.sort();
            s
        };
        let listed: Vec<(String, String, Vec<String>)> = reports[0]
            .changes
            .iter()
            .map(|c| (c.before.matched.label().to_string(), c.after.matched.label().to_string(), set(&c.unhealthy)))
            .collect();
        for request in &requests {
            let (before, after) = (old[0][0].decide(request, &[]), new[0][0].decide(request, &[]));
            for down in states_of(&before, &after) {
                let (b, a) = (old[0][0].decide(request, &down), new[0][0].decide(request, &down));
                let moved = if down.is_empty() {
                    !b.same_outcome(&a)
                } else {
                    b.backends() != a.backends() || b.status != a.status
                };
                if moved {
                    let key = (b.matched.label().to_string(), a.matched.label().to_string(), set(&down));
                    prop_assert!(listed.contains(&key), "{:?} moves {:?} but verify lists {:?}", request, key, listed);
                }
            }
        }
    }
}
