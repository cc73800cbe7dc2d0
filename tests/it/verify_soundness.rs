//! `routerctl verify` on routers whose every request class it must find:
//! each published id of BackendNameMatch, each sensitive classification,
//! header names as Go lowers them, and Envoy's spread of a weighted
//! Gateway rule, alone, across planes and across a change
//! (`testdata/verify/soundness/`). Every expected value is worked out
//! from the proxy's `backendByPublishedID`, `strings.ToLower` and Envoy's
//! priority levels, not read off a run.

use crate::common;

use common::routerctl;
use serde_json::Value;

const DIR: &str = "testdata/verify/soundness";
const DIR_KELVIN: &str = "testdata/verify/soundness/kelvin.yaml";

fn verify_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["verify", "-q", "-o", "json"];
    all.extend_from_slice(args);
    let run = routerctl(&all, None);
    assert_eq!(run.stderr, "", "{args:?}");
    (run.code, serde_json::from_str(&run.stdout).expect("verify -o json writes JSON"))
}

fn file(name: &str) -> String {
    format!("{DIR}/{name}")
}

/// (model, rule, backends) of every class of the report's router `i`.
fn classes(report: &Value, i: usize) -> Vec<(String, String, Vec<String>)> {
    report["routers"][i]["classes"]
        .as_array()
        .expect("classes")
        .iter()
        .map(|c| {
            let backends = c["decision"]["backends"].as_array().expect("backends");
            (
                c["request"]["model"].as_str().unwrap_or("").to_string(),
                c["decision"]["rule"].as_str().unwrap_or("").to_string(),
                backends.iter().map(|b| b.as_str().unwrap_or("").to_string()).collect(),
            )
        })
        .collect()
}

/// (rule id, message) of every finding of router `i`.
fn findings(report: &Value, i: usize) -> Vec<(String, String)> {
    report["routers"][i]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["rule"].as_str().unwrap_or("").to_string(), f["message"].as_str().unwrap_or("").to_string()))
        .collect()
}

fn class(model: &str, rule: &str, backends: &[&str]) -> (String, String, Vec<String>) {
    (model.to_string(), rule.to_string(), backends.iter().map(|b| b.to_string()).collect())
}

#[test]
fn every_published_id_of_backend_name_match_is_a_class() {
    // local-a is published as `fast`, the cloud gpt as `smart`: a request
    // naming `smart` goes to gpt whatever its classification.
    let (code, report) = verify_json(&["-f", &file("name-match.yaml")]);
    assert_eq!(code, 1, "pii naming `smart` leaves the cluster");
    let found = classes(&report, 0);
    for want in [class("fast", "name-match", &["local-a"]), class("smart", "name-match", &["gpt"])] {
        assert!(found.contains(&want), "{want:?} missing from {found:?}");
    }
    let leaks: Vec<String> =
        findings(&report, 0).into_iter().filter(|(r, _)| r == "sensitive-egress").map(|(_, m)| m).collect();
    assert!(
        leaks.iter().any(|m| m.starts_with("pii requests (model \"smart\", x-llmkube-classification: pii) go to gpt")),
        "{leaks:#?}"
    );
}

#[test]
fn three_backends_named_directly_are_three_classes() {
    let (code, report) = verify_json(&["-f", &file("three-names.yaml")]);
    assert_eq!(code, 1);
    let found = classes(&report, 0);
    for (model, backend) in [("alpha", "alpha"), ("beta", "beta"), ("gamma", "gamma")] {
        assert!(found.contains(&class(model, "name-match", &[backend])), "{model}: {found:?}");
    }
}

/// Writes `text` with `from` replaced by `to` into `dir`, as `name`.
fn changed(dir: &std::path::Path, name: &str, text: &str, edits: &[(&str, &str)]) -> String {
    let mut text = text.to_string();
    for (from, to) in edits {
        assert!(text.contains(from), "{from:?}");
        text = text.replace(from, to);
    }
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a temporary file");
    path.to_string_lossy().into_owned()
}

/// (model, unhealthy, rule before → after, backends before → after) of
/// every change of router `i`.
fn moves(report: &Value, i: usize) -> Vec<(String, Vec<String>, String, String)> {
    let show = |d: &Value| {
        format!(
            "{} {:?}",
            d["rule"].as_str().unwrap_or("none"),
            d["backends"].as_array().map(|b| b.iter().filter_map(Value::as_str).collect::<Vec<_>>())
        )
    };
    report["routers"][i]["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            (
                c["request"]["model"].as_str().unwrap_or("").to_string(),
                c["unhealthy"]
                    .as_array()
                    .expect("unhealthy")
                    .iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect(),
                show(&c["before"]),
                show(&c["after"]),
            )
        })
        .collect()
}

#[test]
fn against_sees_a_display_name_swap_and_a_strategy_change() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let base = std::fs::read_to_string(file("name-match.yaml")).expect("the router");
    let swapped = changed(
        dir.path(),
        "swapped.yaml",
        &base,
        &[
            ("displayName: fast", "displayName: TMP"),
            ("displayName: smart", "displayName: fast"),
            ("displayName: TMP", "displayName: smart"),
        ],
    );
    let (_, report) = verify_json(&["-f", &swapped, "--against", &file("name-match.yaml")]);
    let moved = moves(&report, 0);
    let all_up = |model: &str| moved.iter().find(|(m, down, _, _)| m == model && down.is_empty()).cloned();
    assert_eq!(
        all_up("smart").map(|(_, _, b, a)| (b, a)),
        Some(("name-match Some([\"gpt\"])".to_string(), "name-match Some([\"local-a\"])".to_string())),
        "{moved:#?}"
    );
    assert_eq!(
        all_up("fast").map(|(_, _, b, a)| (b, a)),
        Some(("name-match Some([\"local-a\"])".to_string(), "name-match Some([\"gpt\"])".to_string())),
        "{moved:#?}"
    );

    let fixed = changed(
        dir.path(),
        "static.yaml",
        &base,
        &[("defaultRouteStrategy: BackendNameMatch", "defaultRouteStrategy: Static")],
    );
    let (_, report) = verify_json(&["-f", &file("name-match.yaml"), "--against", &fixed]);
    let moved = moves(&report, 0);
    assert!(
        moved.iter().any(|(m, down, b, a)| m == "smart"
            && down.is_empty()
            && b == "default Some([\"local-a\"])"
            && a == "name-match Some([\"gpt\"])"),
        "{moved:#?}"
    );
}

#[test]
fn each_sensitive_class_that_leaks_is_its_own_finding() {
    let (code, report) = verify_json(&["-f", &file("two-sensitive.yaml")]);
    assert_eq!(code, 1);
    let leaked: Vec<String> = findings(&report, 0)
        .into_iter()
        .filter(|(r, _)| r == "sensitive-egress")
        .map(|(_, m)| m.split(' ').next().unwrap_or("").to_string())
        .collect();
    assert_eq!(leaked, ["pii", "secret"]);
    // Each with a case of its own class.
    let cases: Vec<&str> = report["routers"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["case"]["request"]["headers"]["x-llmkube-classification"].as_str())
        .collect();
    assert_eq!(cases, ["pii", "secret"]);
}

#[test]
fn a_header_name_is_lowered_as_go_lowers_it() {
    // `x-\u{212A}ey` lowers to `x-key`: matchable, and matched by `X-Key: v`.
    let (code, report) = verify_json(&["-f", &file("kelvin.yaml")]);
    assert_eq!(code, 0, "{report:#}");
    assert!(findings(&report, 0).is_empty(), "{report:#}");
    let taken = report["routers"][0]["classes"]
        .as_array()
        .expect("classes")
        .iter()
        .any(|c| c["decision"]["rule"] == "keyed" && c["request"]["headers"]["x-key"] == "v");
    assert!(taken, "{report:#}");
    let run = routerctl(&["route", "-f", &file("kelvin.yaml"), "-H", "X-Key: v", "-o", "json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let routed: Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(routed[0]["decision"]["rule"], "keyed");
}

#[test]
fn a_weighted_gateway_rule_sends_to_the_cloud_with_every_backend_up() {
    let (code, report) = verify_json(&["-f", &file("gateway-weighted.yaml")]);
    assert_eq!(code, 1);
    assert_eq!(report["routers"][0]["plane"], "Gateway");
    let gateway = findings(&report, 0);
    // Envoy spreads the one weighted level over both: no backend need be down.
    assert!(
        gateway.iter().any(|(r, m)| r == "sensitive-egress"
            && m == "pii requests (model \"m1\", x-llmkube-classification: pii) go to gpt (tier cloud, external \
                     (openai)) by rule m1"),
        "{gateway:#?}"
    );
    // The proxy tries the same route in order: gpt only when local-a is down.
    let proxy = findings(&report, 1);
    assert!(
        proxy.iter().any(|(r, m)| r == "sensitive-egress" && m.ends_with("by rule m1 when local-a down")),
        "{proxy:#?}"
    );
    // And so the planes part on model m1.
    assert!(
        proxy.iter().any(|(r, m)| r == "plane-disagreement"
            && m == "model \"m1\": the Proxy plane sends it by m1 to [local-a, gpt], the Gateway plane by m1 to \
                     [local-a | gpt]"),
        "{proxy:#?}"
    );

    // Priorities 0/1: the cloud only when local-a is down, on both planes.
    let (_, report) = verify_json(&["-f", &file("gateway-fallback.yaml")]);
    let gateway = findings(&report, 0);
    assert!(
        gateway.iter().any(|(r, m)| r == "sensitive-egress" && m.ends_with("by rule m1 when local-a down")),
        "{gateway:#?}"
    );
    assert!(!findings(&report, 1).iter().any(|(r, _)| r == "plane-disagreement"));
}

#[test]
fn against_sees_a_gateway_rule_turn_weighted() {
    let (_, report) = verify_json(&[
        "-f",
        &file("gateway-weighted.yaml"),
        "--against",
        &file("gateway-fallback.yaml"),
        "--data-plane",
        "gateway",
    ]);
    let changes = report["routers"][0]["changes"].as_array().expect("changes");
    let m1: Vec<&Value> = changes.iter().filter(|c| c["request"]["model"] == "m1").collect();
    assert!(!m1.is_empty(), "{report:#}");
    // With every backend up: before, only local-a took the first try.
    assert!(m1.iter().any(|c| c["unhealthy"].as_array().is_some_and(Vec::is_empty)), "{m1:#?}");
}

#[test]
fn emitted_tests_after_an_unfinished_search_read_back() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("pinned.yaml");
    let out = out.to_string_lossy();
    let run =
        routerctl(&["verify", "-q", "-f", &file("two-sensitive.yaml"), "--max-cells", "0", "--emit-tests", &out], None);
    assert_eq!(run.code, 1, "an unfinished search fails the run: {}", run.stderr);
    let written = std::fs::read_to_string(&*out).expect("--emit-tests wrote its file");
    // The request with no model is decided before any search: its case is
    // there however early the search stopped.
    assert!(written.contains("- {name: \"class 1: no model → default → [cloud]\""), "{written}");
    let run = routerctl(&["test", "-q", "-f", &file("two-sensitive.yaml"), "-t", &out], None);
    assert_eq!(run.code, 0, "test reads the file back and its case passes: {}{}", run.stdout, run.stderr);
}

#[test]
fn route_reads_a_header_as_gos_server_hands_it_on() {
    let routed = |headers: &[&str]| {
        let mut args = vec!["route", "-f", DIR_KELVIN, "-o", "json"];
        for h in headers {
            args.extend(["-H", h]);
        }
        let run = routerctl(&args, None);
        assert_eq!(run.code, 0, "{headers:?}: {}", run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).expect("JSON");
        (v[0]["decision"]["rule"].as_str().unwrap_or("none").to_string(), v[0]["decision"]["status"].as_u64())
    };
    // Spaces and tabs around a value go; Unicode spaces stay in it.
    assert_eq!(routed(&["X-Key: \t v \t"]), ("keyed".to_string(), None));
    for kept in ["X-Key: v\u{85}", "X-Key: v\u{a0}", "X-Key: \u{3000}v"] {
        assert_eq!(routed(&[kept]), ("default".to_string(), None), "{kept:?}");
    }
    // CR, VT and FF in a value, spaces around a name, a bad or second Host.
    for refused in [
        &["X-Key: a\rb"][..],
        &["X-Key: a\u{b}b"],
        &["X-Key: a\u{c}b"],
        &[" X-Key: v"],
        &["X-Key : v"],
        &["Host: a b"],
        &["Host: a", "host: b"],
    ] {
        assert_eq!(routed(refused), ("none".to_string(), Some(400)), "{refused:?}");
    }
    assert_eq!(routed(&["Content-Length: abc"]).1, Some(400));
    assert_eq!(routed(&["Transfer-Encoding: gzip"]).1, Some(501));
    assert_eq!(routed(&["Expect: foo"]).1, Some(417));
}

#[test]
fn headers_go_refuses_are_unmatchable() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let router = dir.path().join("router.yaml");
    std::fs::write(
        &router,
        "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: cl, namespace: ml}\nspec:\n  \
         backends: [{name: a, external: {provider: openai, model: x}}]\n  rules:\n  - {name: bad-length, match: {headers: {content-length: \
         abc}}, route: {backends: [a]}}\n  - {name: length, match: {headers: {content-length: \"12\"}}, route: \
         {backends: [a]}}\n  defaultRoute: a\n",
    )
    .expect("a temporary file");
    let (_, report) = verify_json(&["-f", &router.to_string_lossy()]);
    let unmatchable: Vec<String> =
        findings(&report, 0).into_iter().filter(|(r, _)| r == "unmatchable-value").map(|(_, m)| m).collect();
    assert_eq!(unmatchable.len(), 1, "{unmatchable:#?}");
    assert!(unmatchable[0].starts_with("rule bad-length: header content-length value \"abc\""), "{unmatchable:#?}");
}

#[test]
fn a_search_past_its_time_ends_incomplete_not_killed() {
    // Three hundred rules of three to five globs mixing literals, `?`,
    // classes and `*` over a few letters, so that they overlap (a fixed
    // sequence, the same router every run): the search takes about a
    // second of an optimised build, far past a tenth of one.
    let mut router = String::from(
        "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: h, namespace: ml}\nspec:\n  \
         backends: [{name: a, external: {provider: openai, model: x}}]\n  rules:\n",
    );
    let mut seed: u64 = 7;
    let mut draw = |n: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let letters = b"abcdefgh-";
    for i in 0..300usize {
        let mut globs = Vec::new();
        for _ in 0..3 + draw(3) {
            let mut glob = String::new();
            for _ in 0..2 + draw(4) {
                match draw(20) {
                    0..=6 => (0..1 + draw(3)).for_each(|_| glob.push(char::from(letters[draw(9) as usize]))),
                    7..=10 => glob.push('?'),
                    11..=14 => {
                        let lo = b'a' + draw(6) as u8;
                        let neg = if draw(3) == 0 { "^" } else { "" };
                        glob.push_str(&format!("[{neg}{}-{}]", char::from(lo), char::from(lo + draw(3) as u8)));
                    }
                    _ if !glob.ends_with('*') => glob.push('*'),
                    _ => glob.push('?'),
                }
            }
            globs.push(glob);
        }
        router.push_str(&format!("  - {{name: r{i}, match: {{models: {globs:?}}}, route: {{backends: [a]}}}}\n"));
    }
    router.push_str("  defaultRoute: a\n");
    let run = routerctl(&["verify", "-q", "-f", "-", "--timeout", "0.1", "-o", "json"], Some(&router));
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(report["routers"][0]["complete"], false, "{report}");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let notes = report["routers"][0]["notes"].to_string();
    assert!(notes.contains("--timeout") || notes.contains("--max-"), "{notes}");
}
