//! `routerctl verify` through the real binary: each check with a router
//! that trips it and one that does not, each invariant form holding and
//! failing, the cases it hands out passing `routerctl test`, `--against`,
//! the JSON contract and the exit codes.

use crate::common;

use common::routerctl;
use serde_json::Value;

const SAFE: &str = "testdata/render/sample.yaml";
const LEAKY: &str = "testdata/verify/leaky.yaml";
const UNRECEIVED: &str = "testdata/verify/unreceived.yaml";

fn verify(args: &[&str]) -> common::Run {
    let mut all = vec!["verify", "-q"];
    all.extend_from_slice(args);
    routerctl(&all, None)
}

fn json(args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.extend(["-o", "json"]);
    let run = verify(&all);
    assert_eq!(run.stderr, "", "{args:?}");
    (run.code, serde_json::from_str(&run.stdout).expect("verify -o json writes JSON"))
}

/// (rule id, message) of every finding of the first router.
fn findings(report: &Value) -> Vec<(String, String)> {
    report["routers"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["rule"].as_str().unwrap_or("").to_string(), f["message"].as_str().unwrap_or("").to_string()))
        .collect()
}

#[test]
fn a_safe_router_passes_and_its_classes_are_listed() {
    let run = verify(&["-f", SAFE]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // Three places a request can go: the default route, the complexity
    // rule (cloud first, then local) and the fail-closed rule.
    assert_eq!(
        run.stdout,
        "ml/coding-router (Proxy): 3 classes of requests, complete\n  no model → default → [local-qwen]\n  no model, \
         x-llmkube-task-complexity: complex → complex-to-cloud → [cloud-opus, local-qwen]\n  no model, \
         x-llmkube-classification: pii → pii-stays-local → [local-qwen]\n"
    );
}

#[test]
fn every_check_trips_on_the_leaky_router() {
    let (code, report) = json(&["-f", LEAKY]);
    assert_eq!(code, 1);
    let found = findings(&report);
    let has = |rule: &str, part: &str| found.iter().any(|(r, m)| r == rule && m.contains(part));
    // The external backend with no tier is local to the fail-closed gate:
    // pii reaches Anthropic when the in-cluster model is down.
    assert!(
        has("sensitive-egress", "pii requests (no model, x-llmkube-classification: pii) go to claude (external (anthropic) although its tier is local"),
        "{found:#?}"
    );
    assert!(has("sensitive-egress", "when local-llama down"), "{found:#?}");
    // An earlier rule with no classification condition catches pii.
    assert!(has("sensitive-egress", "pii requests (model \"gpt-4o\", x-llmkube-classification: pii) go to gpt (tier cloud, external (openai)) by rule gpt-models"), "{found:#?}");
    // A sensitive class no rule names falls to the cloud default route.
    assert!(has("sensitive-egress", "phi requests (no model, x-llmkube-classification: phi) go to gpt (tier cloud, external (openai)) by the default route"), "{found:#?}");
    // An upper-case classification can never match.
    assert!(
        has("unmatchable-value", "rule secret-shouting: dataClassification \"SECRET\" can never match"),
        "{found:#?}"
    );
    // A rule no request reaches, and who shadows it.
    assert!(
        has("unreachable-rule", "rule shadowed is reached by no request: gpt-models takes every request it matches"),
        "{found:#?}"
    );
    assert_eq!(report["routers"][0]["unreachableRules"], serde_json::json!(["secret-shouting", "shadowed"]));
    let severities: Vec<(&str, &str)> = report["routers"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["rule"].as_str().unwrap_or(""), f["severity"].as_str().unwrap_or("")))
        .collect();
    for (rule, severity) in severities {
        let want = if rule == "unreachable-rule" { "warning" } else { "error" };
        assert_eq!(severity, want, "{rule}");
    }
    // None of these on the safe router.
    let (code, safe) = json(&["-f", SAFE]);
    assert_eq!((code, findings(&safe)), (0, vec![]));
}

/// Rule values Go's HTTP server never hands the proxy: trimmed blanks, a
/// control character, a name that is no token. Each is unmatchable, with
/// a case that shows where a request carrying it goes instead.
#[test]
fn values_no_request_carries_are_unmatchable() {
    let (code, report) = json(&["-f", UNRECEIVED]);
    assert_eq!(code, 1);
    let unmatchable: Vec<(String, Value)> = report["routers"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "unmatchable-value")
        .map(|f| (f["message"].as_str().unwrap_or("").to_string(), f["case"]["expect"].clone()))
        .collect();
    use serde_json::json;
    let default = json!({"rule": "default", "backends": ["local-llama"]});
    let refused = json!({"rule": "none", "backends": [], "status": 400});
    assert_eq!(
        unmatchable,
        [
            (
                "rule padded-class: dataClassification \" pii\" can never match: Go's HTTP server trims the spaces \
                 and tabs around a header value, so the proxy reads \"pii\""
                    .to_string(),
                default.clone()
            ),
            (
                "rule tabbed-class: dataClassification \"internal\\t\" can never match: Go's HTTP server trims the \
                 spaces and tabs around a header value, so the proxy reads \"internal\""
                    .to_string(),
                default.clone()
            ),
            (
                "rule padded-header: header x-team value \"platform \" can never match: Go's HTTP server trims the \
                 spaces and tabs around a header value, so the proxy reads \"platform\""
                    .to_string(),
                default
            ),
            (
                "rule control-header: header x-team value \"a\\u0001b\" can never match: it holds a control \
                 character, and Go's HTTP server answers a request whose header value has one 400"
                    .to_string(),
                refused.clone()
            ),
            (
                "rule spaced-name: header \"x team\" can never match: \"x team\" is no HTTP header name (a token), \
                 even lower-cased as the proxy looks it up: Go's HTTP server answers a request with such a name 400"
                    .to_string(),
                refused
            ),
        ]
    );
}

#[test]
fn a_router_that_routes_nothing_is_told() {
    // multi.yaml's routers have no default route and rules for some
    // requests only.
    let (_, report) = json(&["-f", "testdata/render/multi.yaml"]);
    let unrouted: Vec<&Value> = report["routers"]
        .as_array()
        .expect("routers")
        .iter()
        .flat_map(|r| r["findings"].as_array().expect("findings"))
        .filter(|f| f["rule"] == "unrouted")
        .collect();
    assert!(!unrouted.is_empty());
    // A class nothing routes: its decision names no rule.
    let first = &report["routers"][0]["classes"][0]["decision"];
    assert_eq!(*first, serde_json::json!({"rule": null, "backends": [], "status": 503}));
    for f in unrouted {
        assert_eq!(f["severity"], "warning");
        assert_eq!(f["case"]["expect"]["status"], 503, "{f}");
    }
}

#[test]
fn the_planes_part_on_a_gateway_router() {
    // The Gateway plane compares the classification header exactly; the
    // proxy lower-cases it first: `Pii` (which lower-cases to pii without
    // being it) is private to one and not the other.
    let (code, report) = json(&["-f", "testdata/gateway/local.yaml"]);
    assert_eq!(code, 1);
    let planes: Vec<&str> =
        report["routers"].as_array().expect("routers").iter().map(|r| r["plane"].as_str().unwrap_or("")).collect();
    assert_eq!(planes, ["Gateway", "Proxy"]);
    let parted: Vec<&Value> = report["routers"][1]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "plane-disagreement")
        .collect();
    assert!(
        parted.iter().any(|f| f["message"]
            .as_str()
            .is_some_and(|m| m.contains("x-data-class: Pii: the Proxy plane sends it by private to [llama], the Gateway plane by default to [llama]"))),
        "{parted:#?}"
    );
    // Each case is the Gateway plane's, and passes there.
    assert!(parted.iter().all(|f| f["case"]["dataPlane"] == "Gateway"));
}

/// Writes the cases of `cases` as one RouterTest file for `router`.
fn suite(dir: &std::path::Path, router: &str, cases: &[&Value]) -> std::path::PathBuf {
    let tests: Vec<Value> = cases.iter().map(|c| (*c).clone()).collect();
    let doc = serde_json::json!({
        "apiVersion": "routerctl.llmkube.dev/v1alpha1", "kind": "RouterTest", "router": router, "tests": tests,
    });
    let path = dir.join(format!("{}.json", router.replace('/', "-")));
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

#[test]
fn every_case_handed_out_passes_test() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (router_file, id, plane) in [
        (LEAKY, "ml/leaky", "auto"),
        (SAFE, "ml/coding-router", "auto"),
        ("testdata/gateway/local.yaml", "ml/coding.router", "both"),
        (UNRECEIVED, "ml/unreceived", "auto"),
    ] {
        let (_, report) = json(&["-f", router_file, "--data-plane", plane]);
        let cases: Vec<&Value> = report["routers"]
            .as_array()
            .expect("routers")
            .iter()
            .flat_map(|r| r["findings"].as_array().expect("findings"))
            .map(|f| &f["case"])
            .collect();
        if !cases.is_empty() {
            let file = suite(dir.path(), id, &cases);
            let path = file.to_str().expect("utf-8 path");
            let run = routerctl(&["test", "-q", "-f", router_file, "-t", path, "--data-plane", plane], None);
            assert_eq!(run.code, 0, "{router_file}: {}{}", run.stdout, run.stderr);
            assert!(!run.stdout.contains("skipped"), "{}", run.stdout);
        }
        // --emit-tests: one case per class, and they pass too.
        let emitted = dir.path().join("emitted.yaml");
        let emitted = emitted.to_str().expect("utf-8 path");
        let run = verify(&["-f", router_file, "--data-plane", plane, "--emit-tests", emitted]);
        assert!(run.code <= 1, "{}", run.stderr);
        let classes: usize = report["routers"]
            .as_array()
            .expect("routers")
            .iter()
            .map(|r| r["classes"].as_array().map_or(0, Vec::len))
            .sum();
        let run =
            routerctl(&["test", "-q", "-f", router_file, "-t", emitted, "--data-plane", plane, "-o", "json"], None);
        assert_eq!(run.code, 0, "{router_file}: {}{}", run.stdout, run.stderr);
        let ran: Value = serde_json::from_str(&run.stdout).expect("json");
        assert_eq!(ran["summary"]["passed"].as_u64(), Some(classes as u64), "{router_file}");
    }
}

#[test]
fn invariants_hold_and_fail_for_all_requests() {
    let holding = "testdata/verify/invariants.yaml";
    let (code, report) = json(&["-f", SAFE, "-t", holding]);
    assert_eq!(code, 0, "{report:#}");
    let held: Vec<(&str, bool)> = report["routers"][0]["invariants"]
        .as_array()
        .expect("invariants")
        .iter()
        .map(|i| (i["name"].as_str().unwrap_or(""), i["holds"].as_bool().unwrap_or(false)))
        .collect();
    assert_eq!(held.len(), 4);
    assert!(held.iter().all(|(_, holds)| *holds), "{held:?}");

    // Each form broken: the same invariants on the leaky router, where
    // pii reaches the cloud, and a few written wrong on purpose.
    let dir = tempfile::tempdir().expect("tempdir");
    let broken = dir.path().join("broken.yaml");
    std::fs::write(
        &broken,
        "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ninvariants:\n\
         - {name: never cloud, when: {classification: [pii]}, never: {tier: cloud}}\n\
         - {name: never external, when: {classification: [pii]}, never: {external: true}}\n\
         - {name: only local, when: {classification: [pii]}, only: {backends: [local-llama]}}\n\
         - {name: only local while up, when: {classification: [pii]}, unhealthy: none, only: {backends: [local-llama]}}\n\
         - {name: refused with 503, when: {models: [\"gpt-*\"]}, status: 503}\n",
    )
    .expect("write");
    let (code, report) = json(&["-f", LEAKY, "-t", broken.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1);
    let results: Vec<(&str, bool, &str)> = report["routers"][0]["invariants"]
        .as_array()
        .expect("invariants")
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap_or(""),
                i["holds"].as_bool().unwrap_or(true),
                i["message"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        results,
        [
            ("never cloud", false, "model \"gpt-4o\", x-llmkube-classification: pii goes to gpt, which it must never reach"),
            ("never external", false, "no model, x-llmkube-classification: pii goes to claude, which it must never reach when local-llama down"),
            ("only local", false, "no model, x-llmkube-classification: pii goes to claude, which is not among the only backends allowed when local-llama down"),
            ("only local while up", false, "model \"gpt-4o\", x-llmkube-classification: pii goes to gpt, which is not among the only backends allowed"),
            ("refused with 503", false, "model \"gpt-4o\" is answered 502, not 503 when gpt down"),
        ]
    );
    // Each failure's case passes `routerctl test` and shows it.
    let cases: Vec<&Value> =
        report["routers"][0]["invariants"].as_array().expect("invariants").iter().map(|i| &i["case"]).collect();
    let file = suite(dir.path(), "ml/leaky", &cases);
    let run = routerctl(&["test", "-q", "-f", LEAKY, "-t", file.to_str().expect("utf-8 path")], None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn against_lists_what_a_change_moves() {
    let (code, report) = json(&["-f", "testdata/verify/sample-with-gpt.yaml", "--against", SAFE]);
    // The change sends pii for gpt-* to the cloud: the check fails.
    assert_eq!(code, 1);
    let changes: Vec<(String, Value, Value, Value)> = report["routers"][0]["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| (c["request"].to_string(), c["unhealthy"].clone(), c["before"].clone(), c["after"].clone()))
        .collect();
    use serde_json::json;
    let decision = |rule: &str, backends: &[&str], status: Option<u16>| -> Value {
        json!({"rule": rule, "backends": backends, "status": status})
    };
    let gpt = json!({"model": "gpt-x", "headers": {}}).to_string();
    let complex = json!({"model": "gpt-x", "headers": {"x-llmkube-task-complexity": "complex"}}).to_string();
    // pii and phi are decided alike by both routers: one class, its
    // witness the first sensitive value.
    let pii = json!({"model": "gpt-x", "headers": {"x-llmkube-classification": "pii"}}).to_string();
    // Each class in every health state: all up, each prefix of either
    // candidate list down, both lists down; listed where the rule changes
    // (all up) or where the request goes (backends down).
    assert_eq!(
        changes,
        [
            (
                gpt.clone(),
                json!([]),
                decision("default", &["local-qwen"], None),
                decision("gpt-to-cloud", &["cloud-opus"], None)
            ),
            (
                gpt.clone(),
                json!(["local-qwen"]),
                decision("default", &[], Some(502)),
                decision("gpt-to-cloud", &["cloud-opus"], None)
            ),
            (
                gpt,
                json!(["cloud-opus"]),
                decision("default", &["local-qwen"], None),
                decision("gpt-to-cloud", &[], Some(502))
            ),
            (
                complex.clone(),
                json!([]),
                decision("complex-to-cloud", &["cloud-opus", "local-qwen"], None),
                decision("gpt-to-cloud", &["cloud-opus"], None)
            ),
            (
                complex,
                json!(["cloud-opus"]),
                decision("complex-to-cloud", &["local-qwen"], None),
                decision("gpt-to-cloud", &[], Some(502))
            ),
            (
                pii.clone(),
                json!([]),
                decision("pii-stays-local", &["local-qwen"], None),
                decision("gpt-to-cloud", &["cloud-opus"], None)
            ),
            // Fail-closed: pii-stays-local refuses with 503 when its local
            // backend is down; gpt-to-cloud sends pii to the cloud.
            (
                pii.clone(),
                json!(["local-qwen"]),
                decision("pii-stays-local", &[], Some(503)),
                decision("gpt-to-cloud", &["cloud-opus"], None)
            ),
            (
                pii.clone(),
                json!(["cloud-opus"]),
                decision("pii-stays-local", &["local-qwen"], None),
                decision("gpt-to-cloud", &[], Some(502))
            ),
            (
                pii,
                json!(["local-qwen", "cloud-opus"]),
                decision("pii-stays-local", &[], Some(503)),
                decision("gpt-to-cloud", &[], Some(502))
            ),
        ]
    );
    // The same router against itself moves nothing.
    let (code, same) = json(&["-f", SAFE, "--against", SAFE]);
    assert_eq!((code, same["routers"][0]["changes"].clone()), (0, serde_json::json!([])));
}

#[test]
fn the_json_contract_holds_its_keys() {
    let (_, report) = json(&["-f", LEAKY]);
    let router = &report["routers"][0];
    let mut keys: Vec<&str> = router.as_object().expect("object").keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "changes",
            "classes",
            "complete",
            "findings",
            "invariants",
            "notes",
            "plane",
            "router",
            "search",
            "selfCheck",
            "unreachableRules"
        ]
    );
    // What the self-check decided: the router's own vocabulary, each
    // request held to its cell; none parted from it.
    let check = router["selfCheck"].as_object().expect("selfCheck");
    let mut keys: Vec<&str> = check.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["decisions", "healthStates", "mismatched", "mismatches", "ran", "requests", "unreceived"]);
    assert_eq!((check["ran"].as_bool(), check["mismatched"].as_u64()), (Some(true), Some(0)), "{check:?}");
    assert!(check["requests"].as_u64().is_some_and(|n| n > 0), "{check:?}");
    // What the search took: states visited (of --max-states) and cells.
    let search = router["search"].as_object().expect("search");
    assert!(search["states"].is_u64() && search["cells"].as_u64().is_some_and(|c| c > 0), "{search:?}");
    assert_eq!(
        (router["router"].as_str(), router["plane"].as_str(), router["complete"].as_bool()),
        (Some("ml/leaky"), Some("Proxy"), Some(true))
    );
    let class = &router["classes"][0];
    assert_eq!(class["decision"], serde_json::json!({"rule": "default", "backends": ["gpt"], "status": null}));
    assert_eq!(class["request"], serde_json::json!({"headers": {}}));
    let case = &router["findings"][0]["case"];
    for key in ["name", "request", "unhealthy", "expect", "dataPlane"] {
        assert!(case.get(key).is_some(), "{key} in {case}");
    }
}

/// A Gateway router read from stdin is compared with its Proxy rendering
/// too: stdin is read once and rendered on both planes.
#[test]
fn a_gateway_router_on_stdin_has_its_planes_compared() {
    let router = std::fs::read_to_string("testdata/gateway/local.yaml").expect("router");
    let from_stdin = routerctl(&["verify", "-f", "-", "-o", "json"], Some(&router));
    let from_file = routerctl(&["verify", "-f", "testdata/gateway/local.yaml", "-o", "json"], None);
    assert!(!from_stdin.stderr.contains("not compared"), "{}", from_stdin.stderr);
    assert_eq!(from_stdin.code, from_file.code, "{}", from_stdin.stderr);
    let planes = |run: &common::Run| -> Vec<Value> {
        let report: Value = serde_json::from_str(&run.stdout).expect("verify -o json writes JSON");
        report["routers"].as_array().expect("routers").iter().map(|r| r["plane"].clone()).collect()
    };
    assert_eq!(planes(&from_stdin), planes(&from_file));
}

#[test]
fn bad_input_exits_two_with_nothing_on_stdout() {
    let run = verify(&["-f", SAFE, "-t", SAFE]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("a RouterTest was expected"), "{}", run.stderr);
    let run = verify(&["-f", "-", "--against", "-"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "error: stdin (`-`) can be given only once across -f, -t and --against\n");
    let run = verify(&["-f", "testdata/verify/does-not-exist.yaml"]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
}

/// Turning `failClosed` on moves no request while its backends are up,
/// and answers 503 for the 502 of before when they are down: `--against`
/// and `diff`'s plan list it, with the backends down.
#[test]
fn turning_on_fail_closed_is_a_change() {
    use serde_json::json;
    let (open, closed) = ("testdata/verify/internal-open.yaml", "testdata/verify/internal-closed.yaml");
    let want = json!({
        "request": {"headers": {"x-llmkube-classification": "internal"}},
        "unhealthy": ["local-qwen"],
        "before": {"rule": "internal-local", "backends": [], "status": 502},
        "after": {"rule": "internal-local", "backends": [], "status": 503},
    });
    let (code, report) = json(&["-f", closed, "--against", open]);
    assert_eq!(code, 0, "{report:#}");
    let changes = report["routers"][0]["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 1, "{changes:#?}");
    let mut change = changes[0].clone();
    let case = change.as_object_mut().and_then(|c| c.remove("case")).expect("a case");
    assert_eq!(change, want);
    assert_eq!(case["expect"], json!({"rule": "internal-local", "backends": [], "status": 503}));
    let human = verify(&["-f", closed, "--against", open]);
    assert!(
        human.stdout.contains(
            "  moved: no model, x-llmkube-classification: internal with local-qwen down: internal-local → 502 \
             before, internal-local → 503 after"
        ),
        "{}",
        human.stdout
    );
    // diff's plan, the live ConfigMap rendered from the router before.
    let dir = tempfile::tempdir().expect("tempdir");
    let live = dir.path().join("live.yaml");
    let image = ["--router-proxy-image", "example.com/router-proxy:1"];
    let rendered = routerctl(&["render", "-q", image[0], image[1], "-f", open], None);
    assert_eq!(rendered.code, 0, "{}", rendered.stderr);
    std::fs::write(&live, &rendered.stdout).expect("write");
    let live = live.to_str().expect("utf-8 path");
    let run = routerctl(&["diff", "-q", image[0], image[1], "-f", closed, "--live", live, "-o", "json"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let plan: Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(plan["routers"][0]["routingChanges"], json!([want]));
}

/// `diff` puts what the new config.json moves next to the object diff:
/// the live ConfigMap's config against the one rendered.
#[test]
fn diff_plan_says_which_requests_move() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = dir.path().join("live.yaml");
    let image = ["--router-proxy-image", "example.com/router-proxy:1"];
    let rendered = routerctl(&["render", "-q", image[0], image[1], "-f", SAFE], None);
    assert_eq!(rendered.code, 0, "{}", rendered.stderr);
    std::fs::write(&live, &rendered.stdout).expect("write");
    let live = live.to_str().expect("utf-8 path");
    let diff =
        |router: &str| routerctl(&["diff", "-q", image[0], image[1], "-f", router, "--live", live, "-o", "json"], None);
    let run = diff("testdata/verify/sample-with-gpt.yaml");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let plan: Value = serde_json::from_str(&run.stdout).expect("json");
    let moved = &plan["routers"][0]["routingChanges"];
    assert_eq!(
        moved[0],
        serde_json::json!({
            "request": {"model": "gpt-x", "headers": {}},
            "unhealthy": [],
            "before": {"rule": "default", "backends": ["local-qwen"], "status": null},
            "after": {"rule": "gpt-to-cloud", "backends": ["cloud-opus"], "status": null},
        })
    );
    // Three classes move, each in three or four health states (as --against lists them).
    assert_eq!(moved.as_array().map(Vec::len), Some(9));
    // The same config live: no routing changes, and the key is left out.
    let same = diff(SAFE);
    let plan: Value = serde_json::from_str(&same.stdout).expect("json");
    assert!(plan["routers"][0].get("routingChanges").is_none(), "{plan:#}");
}

/// In CI formats each finding is also a diagnostic at the field it is
/// about (a failed invariant at the invariant), so a pull request is
/// annotated on the line that says it; stdout is the same report.
#[test]
fn findings_are_annotated_at_their_field_in_ci() {
    let human = verify(&["-f", LEAKY]);
    // Without -q, so the warnings are written too.
    let github = routerctl(&["verify", "--message-format", "github", "-f", LEAKY], None);
    // The report is the same, fenced from the runner's command parser.
    let fenced = github.stdout.lines().collect::<Vec<_>>();
    let token = fenced[0].strip_prefix("::stop-commands::").expect("fence opens");
    assert_eq!(fenced.last().copied(), Some(format!("::{token}::").as_str()));
    let body: String = fenced[1..fenced.len() - 1].iter().map(|l| format!("{l}\n")).collect();
    assert_eq!((github.code, body.as_str()), (1, human.stdout.as_str()));
    // Each at what it names in leaky.yaml: the backend reference that sends
    // pii out (`claude` in `backends: [local-llama, claude]`, line 41), the
    // cloud default route (line 54), the upper-case value (`SECRET`, line
    // 45), the rule no request reaches (line 49).
    for start in [
        "::error file=testdata/verify/leaky.yaml,line=41,col=33,title=routerctl sensitive-egress::ml/leaky (Proxy): \
         spec.rules[1].route.backends[1]: pii requests",
        "::error file=testdata/verify/leaky.yaml,line=54,col=3,title=routerctl sensitive-egress::ml/leaky (Proxy): \
         spec.defaultRoute: phi requests",
        "::error file=testdata/verify/leaky.yaml,line=45,col=30,title=routerctl unmatchable-value::ml/leaky (Proxy): \
         spec.rules[2].match.dataClassification[0]: rule secret-shouting: dataClassification \"SECRET\"",
        "::warning file=testdata/verify/leaky.yaml,line=49,col=7,title=routerctl unreachable-rule::ml/leaky (Proxy): \
         spec.rules[3]: rule shadowed",
    ] {
        assert!(github.stderr.lines().any(|l| l.starts_with(start)), "{start}\n{}", github.stderr);
    }
    // The JSON report says the same: the field and its place.
    let (_, report) = json(&["-f", LEAKY]);
    let placed: Vec<(&str, &str)> = report["routers"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["field"].as_str().unwrap_or(""), f["at"].as_str().unwrap_or("")))
        .collect();
    assert!(
        placed.contains(&("spec.rules[2].match.dataClassification[0]", "testdata/verify/leaky.yaml:45:30")),
        "{placed:?}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let broken = dir.path().join("broken.yaml");
    std::fs::write(
        &broken,
        "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ninvariants:\n- {name: never cloud, when: {classification: [pii]}, never: {tier: cloud}}\n",
    )
    .expect("write");
    let path = broken.to_str().expect("utf-8 path");
    let run = verify(&["--message-format", "json", "-f", LEAKY, "-t", path]);
    let invariant: Vec<Value> = run
        .stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|f| f["rule"] == "invariant")
        .collect();
    assert_eq!(invariant.len(), 1, "{}", run.stderr);
    assert_eq!((invariant[0]["file"].as_str(), invariant[0]["line"].as_u64()), (Some(path), Some(4)));
}

#[test]
fn eleven_header_rules_are_proved_and_the_leak_found() {
    // Each header rule holds or not: 2^11 combinations, each with its model
    // classes, were more than the search could decide. Cut by decision,
    // the router is proved, and the pii request for a `*-mini` model that
    // goes to the cloud is found.
    // Its 52,224 cells take seconds to decide in a debug build on a busy
    // machine, and the self-check after them reads the run's clock: the
    // time bound is `a_search_past_its_time_ends_incomplete_not_killed`'s.
    let (code, report) = json(&["-f", "testdata/verify/many-headers.yaml", "--timeout", "120"]);
    assert_eq!(code, 1);
    let router = &report["routers"][0];
    assert_eq!(router["complete"], true, "{}", router["notes"]);
    assert_eq!(router["unreachableRules"], serde_json::json!([]));
    let leak = findings(&report)
        .into_iter()
        .find(|(rule, m)| rule == "sensitive-egress" && m.contains("by rule minis-to-cloud"));
    assert!(leak.is_some(), "{:#?}", findings(&report));
}

#[test]
fn an_unfinished_search_fails_the_run() {
    // One state is not enough to search the model globs (the globs'
    // own instances leave searched.yaml's models with a `/` to the
    // search). The error is also on stderr, `-q` or not.
    let run = verify(&["-f", "testdata/verify/searched.yaml", "--max-states", "1", "-o", "json"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.starts_with("error: testdata/verify/searched.yaml"), "{}", run.stderr);
    assert!(run.stderr.contains("the search did not finish"), "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("verify -o json writes JSON");
    let router = &report["routers"][0];
    assert_eq!(router["complete"], false);
    assert!(router["notes"][0].as_str().is_some_and(|n| n.contains("--max-states")), "{}", router["notes"]);
    // Nothing is said of rules an unfinished search did not reach.
    assert_eq!(router["unreachableRules"], serde_json::json!([]));
    let found = findings(&report);
    assert_eq!(found[0].0, "verify-incomplete", "{found:#?}");
    assert!(!found.iter().any(|(rule, _)| rule == "unreachable-rule"), "{found:#?}");
    assert_eq!(router["findings"][0]["severity"], "error");
    // `-q` does not hide it: it is the error that fails the run. (The
    // safe router has no model globs: a cell budget cuts it short.)
    let run = verify(&["-f", SAFE, "--max-cells", "1"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("INCOMPLETE") && run.stdout.contains("error verify-incomplete"), "{}", run.stdout);
    assert!(run.stderr.contains("verify-incomplete") || run.stderr.contains("did not finish"), "{}", run.stderr);
    // Accepted as partial, it is a warning (which -q hides) and the run passes.
    let (code, report) = json(&["-f", SAFE, "--max-cells", "1", "--allow-incomplete"]);
    assert_eq!(code, 0);
    assert_eq!(report["routers"][0]["findings"][0]["severity"], "warning");
    assert_eq!(report["routers"][0]["findings"][0]["rule"], "verify-incomplete");
}

/// `routerctl test -q` of `router`, read from a file (stdin holds the
/// RouterTest `cases`), with `args`.
fn test_from_a_file(router: &str, args: &[&str], cases: &str) -> common::Run {
    let dir = common::scratch(&[("router.yaml", router)]);
    let file = dir.path().join("router.yaml").to_string_lossy().into_owned();
    let head = ["test", "-q", "-f", &file, "-t", "-", "--router-proxy-image", "rp:1"];
    routerctl(&[&head[..], args].concat(), Some(cases))
}

/// A count of one reads singular in the reports people read: one class of
/// requests, one case, one route, one case skipped.
#[test]
fn a_count_of_one_is_singular() {
    let router = "\
apiVersion: inference.llmkube.dev/v1alpha1
kind: InferenceService
metadata: {name: qwen, namespace: ml}
spec: {modelRef: qwen, endpoint: {port: 8080}}
---
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata: {name: one, namespace: ml}
spec:
  backends:
  - name: qwen
    inferenceServiceRef: {name: qwen}
  defaultRoute: qwen
";
    let run = routerctl(&["verify", "-q", "-f", "-"], Some(router));
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout.lines().next(), Some("ml/one (Proxy): 1 class of requests, complete"), "{}", run.stdout);
    let cases =
        "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: a\n  expect: {rule: default}\n\
                 - name: b\n  dataPlane: Gateway\n  expect: {rule: default}\n";
    let run = test_from_a_file(router, &["--coverage", "--strict"], cases);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("ml/one (Proxy): 1 of 1 case passes, 1 skipped\n"), "{}", run.stdout);
    assert!(run.stdout.ends_with("coverage ml/one (Proxy): 100% of 1 route\n"), "{}", run.stdout);
    assert!(run.stderr.contains("error: 1 case skipped: their data plane was not run (--strict)"), "{}", run.stderr);
}

/// A router whose only route is a rule, gpt (`gpt-*` to its one backend,
/// cloud): it has no default route.
const GPT_TO_CLOUD: &str = "\
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata: {name: one, namespace: ml}
spec:
  backends:
  - name: cloud
    external: {provider: openai, model: gpt-4o, url: https://api.openai.com}
  rules:
  - name: gpt
    match: {models: [\"gpt-*\"]}
    route: {backends: [cloud]}
";

/// A router whose only route (a rule, and no default route) no case
/// reaches: 0% of 1 route, in the error and in the JUnit report alike.
#[test]
fn a_coverage_of_one_route_is_singular_in_every_report() {
    let router = GPT_TO_CLOUD;
    // Nothing routes a llama request: the proxy answers 503 (no route).
    let cases = "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\ntests:\n- name: llama\n  \
                 request: {model: llama}\n  expect: {status: 503}\n";
    let run = test_from_a_file(router, &["--min-coverage", "50", "-o", "junit"], cases);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("ml/one (Proxy): coverage 0% of 1 route, under --min-coverage 50%"), "{}", run.stderr);
    assert!(run.stdout.contains("<failure message=\"0% of 1 route, under --min-coverage 50%\""), "{}", run.stdout);
}

/// A rule whose requests two earlier rules share between them: both are
/// named, and the verb agrees with them (one takes, two take).
#[test]
fn the_rules_that_shadow_a_rule_are_named_with_their_verb() {
    // gpt, then llama and both after it, and a default route.
    let router = GPT_TO_CLOUD.to_string()
        + "  - name: llama\n    match: {models: [\"llama*\"]}\n    route: {backends: [cloud]}\n"
        + "  - name: both\n    match: {models: [gpt-4o, llama3]}\n    route: {backends: [cloud]}\n"
        + "  defaultRoute: cloud\n";
    // The external backend's absent tier is local to the fail-closed gate
    // (sensitive egress, which fails the run): beside the point here.
    let run = routerctl(&["verify", "-q", "-f", "-", "-o", "json"], Some(&router));
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("verify -o json writes JSON");
    let found = findings(&report);
    assert!(
        found.contains(&(
            "unreachable-rule".to_string(),
            "rule both is reached by no request: gpt, llama take every request it matches".to_string()
        )),
        "{found:#?}"
    );
}

/// Every router of the test data, on every plane, is proved and its
/// proof passes the self-check: each request of its own vocabulary
/// (published ids, backend names, glob instances and near misses, header
/// values and their case and padding variants, classifications,
/// complexities, rule instances, the request with no model) decides as the
/// cell it falls in, in every health state. `complete`, exit 0 or 1 by
/// the checks alone.
#[test]
fn the_self_check_passes_every_router_of_the_test_data() {
    let files = [
        "testdata/render/sample.yaml",
        "testdata/render/multi.yaml",
        "testdata/render/pooled.yaml",
        "testdata/render/podmeta.yaml",
        "testdata/verify/leaky.yaml",
        "testdata/verify/internal-open.yaml",
        "testdata/verify/internal-closed.yaml",
        "testdata/verify/sample-with-gpt.yaml",
        "testdata/verify/unreceived.yaml",
        "testdata/verify/soundness/gateway-fallback.yaml",
        "testdata/verify/soundness/gateway-weighted.yaml",
        "testdata/verify/soundness/kelvin.yaml",
        "testdata/verify/soundness/name-match.yaml",
        "testdata/verify/soundness/three-names.yaml",
        "testdata/verify/soundness/two-sensitive.yaml",
        "testdata/gateway/budgets-auth.yaml",
        "testdata/gateway/ejection.yaml",
        "testdata/gateway/external.yaml",
        "testdata/gateway/jwt-only.yaml",
        "testdata/gateway/local.yaml",
        "testdata/gateway/spread.yaml",
    ];
    for file in files {
        let run = verify(&["-f", file, "-o", "json"]);
        assert!(run.code == 0 || run.code == 1, "{file}: {}", run.stderr);
        assert!(!run.stderr.contains("verify-incomplete"), "{file}: {}", run.stderr);
        let report: Value = serde_json::from_str(&run.stdout).expect("verify -o json writes JSON");
        for router in report["routers"].as_array().expect("routers") {
            let check = &router["selfCheck"];
            assert_eq!(router["complete"], true, "{file}: {}", router["notes"]);
            assert_eq!((check["ran"].as_bool(), check["mismatched"].as_u64()), (Some(true), Some(0)), "{file}");
            assert_eq!(check["healthStates"], true, "{file}: a small router");
            // The vocabulary holds at least the empty request, each
            // backend's published id and the sensitive classifications.
            assert!(check["requests"].as_u64().is_some_and(|n| n >= 4), "{file}: {check}");
            assert!(
                check["decisions"].as_u64()
                    >= check["requests"].as_u64().map(|n| n - check["unreceived"].as_u64().unwrap_or(0)),
                "{file}: {check}"
            );
        }
    }
    // In text, a proof that passes is `complete`, with no line more.
    let run = verify(&["-f", SAFE]);
    assert!(run.stdout.starts_with("ml/coding-router (Proxy): 3 classes of requests, complete\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("self-check"), "{}", run.stdout);
}
