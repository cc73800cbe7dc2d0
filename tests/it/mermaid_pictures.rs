//! The Mermaid pictures routerctl draws (`report::mermaid`) for the
//! routers of the docs and testdata, rendered through the pipeline as
//! `test` and `verify` render them, with the sensitive paths `verify`
//! finds: snapshots of a few, reviewed line by line, and every picture
//! held to the statement forms the module writes. What the pictures are
//! made of is shared with the render test (`mermaid_render`), which has
//! Mermaid itself draw them all.

use std::path::PathBuf;

use anyhow::{anyhow, Result};
use proptest::prelude::*;
use routerctl::input::log::{classify, Line};
use routerctl::input::Source;
use routerctl::live::LiveStore;
use routerctl::model::DataPlane;
use routerctl::pipeline::{self, Options, Rendered, RouterResult};
use routerctl::render::gateway::rules::RuleOrigin;
use routerctl::report::mermaid::{self, change_flows, flowchart, replay_flows, sankey, Direction, Flow};
use routerctl::report::Reporter;
use routerctl::routing::gateway::route_rules;
use routerctl::routing::proxy::ProxyConfig;
use routerctl::routing::replay::{self, LineRef, Tally};
use routerctl::routing::router::{BackendFacts, Plane, Router};
use routerctl::routing::space::Limits;
use routerctl::routing::verify::{egress_of, verify, Inputs};
use serde_json::{json, Value};

use crate::common;

/// The routers of `text` rendered as `plane` (each its own when `None`),
/// as `routerctl test` hands them to routing.
pub fn routers(name: &str, text: &str, plane: Option<DataPlane>) -> Result<Vec<Router>> {
    let options = Options { data_plane: plane, ..Options::default() };
    let source = Source { name: name.to_string(), text: text.to_string() };
    let live = LiveStore::from_sources(&[], options.default_namespace())?;
    let finish = |result: RouterResult| -> Result<Router> {
        let input = &result.router;
        let id = format!("{}/{}", input.namespace, input.name);
        match &result.rendered {
            Rendered::Proxy(rendered) => {
                Router::proxy(id, input.name.clone(), &rendered.compiled.json, &input.router.spec)
            }
            Rendered::Gateway(gateway) => {
                let route = result
                    .items
                    .iter()
                    .map(|item| &item.merged)
                    .find(|o| o.get("kind").and_then(Value::as_str) == Some("AIGatewayRoute"))
                    .ok_or_else(|| anyhow!("{id}: no AIGatewayRoute"))?;
                Router::gateway(id, input.name.clone(), route, &gateway.origins, &input.router.spec)
            }
        }
    };
    let mut out = Vec::new();
    let mut stderr = Vec::new();
    pipeline::run(&options, &[source], &live, &mut Reporter::plain(&mut stderr), &finish, &mut |r| {
        out.push(r);
        Ok(())
    })?;
    Ok(out)
}

/// The routers of a file of the repository.
fn routers_of(path: &str, plane: Option<DataPlane>) -> Vec<Router> {
    let found = routers(path, &common::fixture(path), plane).unwrap_or_else(|e| panic!("{path}: {e:#}"));
    assert!(!found.is_empty(), "{path}: no ModelRouter");
    found
}

/// A router's flowchart with the sensitive paths `verify` finds.
fn picture(router: &Router, direction: Direction) -> String {
    let (egress, complete) = egress_of(router, Limits::default());
    assert!(complete, "{}: the search for sensitive egress is incomplete", router.id);
    flowchart(router, &egress, direction)
}

/// The requests of a proxy log, tallied as `replay --log` tallies them.
fn tally(path: &str) -> Tally {
    let mut tally = Tally::new();
    let source = tally.source(path);
    for (n, text) in common::fixture(path).lines().enumerate() {
        if let Line::Dispatch(d) = classify(text) {
            tally.add(&d, 1, LineRef { source, line: n as u64 + 1 });
        }
    }
    tally
}

/// The ModelRouter documents the docs' examples write (`file NAME`
/// blocks): (`docs/PAGE.md:LINE`, the block).
fn docs_routers() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(common::root().join("docs"))
        .expect("reads docs/")
        .map(|e| e.expect("a docs entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    for page in pages {
        let text = std::fs::read_to_string(&page).expect("reads a page");
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let file_marker = lines[i].starts_with("<!-- example: file ");
            if file_marker && lines.get(i + 1).is_some_and(|l| l.starts_with("```yaml")) {
                let start = i + 2;
                let end = (start..lines.len()).find(|&k| lines[k].starts_with("```")).unwrap_or(lines.len());
                let block = lines[start..end].join("\n");
                if block.contains("kind: ModelRouter") {
                    let name = page.file_name().and_then(|n| n.to_str()).unwrap_or("page");
                    out.push((format!("docs/{name}:{}", i + 1), block));
                }
                i = end;
            }
            i += 1;
        }
    }
    out
}

/// Every picture drawn for the routers of testdata and the docs (each on
/// every plane it renders on), the moves of the docs' changes, and the
/// hostile values: (name, Mermaid text).
pub fn all_pictures() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut files: Vec<(String, String)> = Vec::new();
    for dir in ["testdata/render", "testdata/replay", "testdata/verify", "testdata/gateway", "testdata/diff"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(common::root().join(dir))
            .expect("reads testdata")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        paths.sort();
        for path in paths {
            let name = path.strip_prefix(common::root()).unwrap_or(&path).display().to_string();
            files.push((name, std::fs::read_to_string(&path).expect("reads testdata")));
        }
    }
    files.extend(docs_routers());
    let mut rendered = 0;
    for (name, text) in &files {
        for plane in [DataPlane::Proxy, DataPlane::Gateway] {
            // Not every router renders on both planes (the Gateway refuses
            // globs, complexity): those it refuses have no picture there.
            let Ok(found) = routers(name, text, Some(plane)) else { continue };
            for router in found {
                rendered += 1;
                let direction = if rendered % 2 == 0 { Direction::TopDown } else { Direction::LeftRight };
                out.push((format!("{name} {} {plane}", router.id), picture(&router, direction)));
            }
        }
    }
    assert!(rendered >= 40, "only {rendered} routers were drawn from testdata and the docs");
    out.push(("the reorder, replayed: moved".into(), sankey(&replay_flows(&reorder().moved.expect("moved")))));
    out.push(("the reorder, replayed: sensitive egress".into(), sankey(&replay_flows(&reorder().sensitive_egress))));
    out.push((
        "verify --against: gpt-to-cloud".into(),
        against("testdata/render/sample.yaml", "testdata/verify/sample-with-gpt.yaml"),
    ));
    out.push((
        "verify --against: failClosed".into(),
        against("testdata/verify/internal-open.yaml", "testdata/verify/internal-closed.yaml"),
    ));
    out.push(("hostile proxy router".into(), flowchart(&hostile_proxy(), &[], Direction::LeftRight)));
    out.push(("hostile gateway router".into(), flowchart(&hostile_gateway(), &[], Direction::TopDown)));
    out.push(("hostile flows".into(), sankey(&hostile_flows())));
    out
}

/// `replay -f reordered.yaml --against router.yaml --log access.log`, the
/// example of docs/replay.md.
pub fn reorder() -> replay::Report {
    let new = routers_of("testdata/replay/reordered.yaml", None).remove(0);
    let old = routers_of("testdata/replay/router.yaml", None).remove(0);
    replay::replay(&tally("testdata/replay/access.log"), &new, Some(&old)).expect("replays")
}

/// What `verify -f after --against before` moves, as a Sankey.
fn against(before: &str, after: &str) -> String {
    let old = routers_of(before, Some(DataPlane::Proxy));
    let new = routers_of(after, Some(DataPlane::Proxy));
    let (planes, olds) = ([new], [old]);
    let inputs = Inputs { planes: &planes, against: Some(&olds), invariants: &[], limits: Limits::default() };
    let report = verify(&inputs).remove(0);
    assert!(report.complete, "{after} against {before}: the search is incomplete");
    sankey(&change_flows(&report.changes, report.cells))
}

/// Values that would break a picture written unescaped: every character
/// Mermaid reads (quotes, brackets, `#`, `;`, `%`, `<`, backticks, `|`,
/// `:`), line breaks, bidirectional controls, a directive, a statement,
/// a tag, an entity, Mermaid's own entity markers, and a long value.
pub const HOSTILE: [&str; 16] = [
    "\"]) --> n0[\"x",
    "%%{init: {\"theme\": \"dark\", \"securityLevel\": \"loose\"}}%%",
    "\nclick n0 href \"javascript:alert(1)\"",
    "<img src=x onerror=alert(1)>",
    "#quot; #35; &amp; &#60;",
    "`**md**`",
    "a;b:c|d",
    "pii\r\nstyle n0 fill:#f00",
    "\u{202e}lacol",
    "ﬂ°lt¶ß",
    "linkStyle 0 stroke:#f00",
    "%% comment",
    "x,y\"\"z",
    "é ü 中文 🙂",
    "  spaced  ",
    "a-very-long-value-that-goes-on-and-on-and-on-past-any-width-a-picture-can-hold-0123456789",
];

/// A Proxy-plane router whose every value is hostile, read from a
/// `config.json` as the live ConfigMap's would be (no CRD stands between).
pub fn hostile_proxy() -> Router {
    let backends: Vec<Value> = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let cloud = i % 2 == 1;
            json!({"name": h, "displayName": format!("{h}{i}"), "tier": if cloud { *h } else { "local" },
                   "provider": if cloud { *h } else { "" }})
        })
        .collect();
    let rules: Vec<Value> = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, h)| {
            json!({"name": h, "match": {"dataClassification": [h, "pii"], "taskComplexity": h, "models": [h, "gpt-*"],
                   "headers": {*h: *h, "x-team": h}, "requiredCapabilities": [h]},
                   "route": {"backends": [HOSTILE[(i + 1) % HOSTILE.len()], h, "unknown\"]"], "strategy": "weighted"},
                   "failClosed": i % 3 == 0})
        })
        .collect();
    let config = json!({"backends": backends, "rules": rules, "defaultRoute": HOSTILE[1],
        "defaultRouteStrategy": "BackendNameMatch",
        "policy": {"classification": {"headerKey": HOSTILE[2], "sensitiveClassifications": HOSTILE}}});
    let config: ProxyConfig = serde_json::from_value(config).expect("a config");
    Router::from_config(HOSTILE[0].to_string(), HOSTILE[0].to_string(), config)
}

/// A Gateway-plane router whose every value is hostile, as an
/// AIGatewayRoute would hold them.
pub fn hostile_gateway() -> Router {
    let mut rules = Vec::new();
    let mut origins = Vec::new();
    for (i, h) in HOSTILE.iter().enumerate() {
        let matches: Vec<Value> = HOSTILE
            .iter()
            .take(6)
            .map(|v| json!({"headers": [{"name": h, "value": v}, {"name": "x-ai-eg-model", "value": h}]}))
            .collect();
        rules.push(json!({"matches": matches, "backendRefs": [
            {"name": h, "priority": 0, "weight": i}, {"name": HOSTILE[(i + 3) % HOSTILE.len()], "priority": 1}]}));
        origins.push(match i % 3 {
            0 => RuleOrigin::Rule(h.to_string()),
            1 => RuleOrigin::NameMatch(h.to_string()),
            _ => RuleOrigin::Default,
        });
    }
    let route = json!({"spec": {"rules": rules}});
    let backends = HOSTILE
        .iter()
        .map(|h| BackendFacts { name: h.to_string(), tier: h.to_string(), provider: Some(h.to_string()) })
        .collect();
    Router {
        id: HOSTILE[3].to_string(),
        name: HOSTILE[3].to_string(),
        plane: Plane::Gateway { rules: route_rules(&route, &origins).expect("route rules"), names: Default::default() },
        routes: Vec::new(),
        backends,
        class_header: HOSTILE[2].to_string(),
        sensitive: HOSTILE.iter().map(|h| h.to_string()).collect(),
        origin: None,
        places: None,
        spec_rules: Vec::new(),
    }
}

/// Flows between hostile names.
pub fn hostile_flows() -> Vec<Flow> {
    HOSTILE
        .iter()
        .enumerate()
        .map(|(i, h)| Flow {
            from: h.to_string(),
            to: HOSTILE[(i + 5) % HOSTILE.len()].to_string(),
            share: 0.01 * (i + 1) as f64,
        })
        .collect()
}

/// The statement forms `report::mermaid` writes, and nothing else: each
/// line of `text` is one, every label in quotes holds only plain
/// characters, entity codes and `<br/>`, and no line starts a comment or
/// a directive. The problems, one a line.
pub fn misformed(text: &str) -> Vec<String> {
    let label = r#""(?:[A-Za-z0-9 \-_.,/*?()+=@!'^~$\[\]{}|]|#[0-9]+;|<br/>)*""#;
    let node = format!(
        r"^  n[0-9]+(?:\(\[{label}\]\)|\[{label}\]|\{{\{{{label}\}}\}}|\[\({label}\)\]|\(\({label}\)\)|\({label}\))$"
    );
    let edge = format!(r"^  n[0-9]+ (?:-->|-\.->)(?:\|{label}\|)? n[0-9]+$");
    // Printable ASCII but `"` (doubled), `#`, `%` and `<`.
    let row = r#"^"(?:[ !$&-;=-~]|"")*","(?:[ !$&-;=-~]|"")*",[0-9]+\.[0-9]{2}$"#;
    let forms = [
        r"^flowchart (?:LR|TD)$".to_string(),
        node,
        edge,
        r"^  classDef [a-z]+ [a-z0-9:#,\-]+$".to_string(),
        r"^  class n[0-9]+(?:,n[0-9]+)* [a-z]+$".to_string(),
        r"^  linkStyle [0-9]+(?:,[0-9]+)* [a-z0-9:#,\-]+$".to_string(),
        r"^sankey-beta$".to_string(),
        row.to_string(),
    ];
    let forms: Vec<regex::Regex> = forms.iter().map(|f| regex::Regex::new(f).expect("a form")).collect();
    let mut out = Vec::new();
    if text.contains("%%") {
        out.push("`%%` (a comment or directive) in the text".to_string());
    }
    if !text.ends_with('\n') {
        out.push("no newline at the end".to_string());
    }
    for (n, line) in text.lines().enumerate() {
        if !forms.iter().any(|f| f.is_match(line)) {
            out.push(format!("line {}: {line:?}", n + 1));
        }
    }
    out
}

#[test]
fn every_picture_is_made_of_the_statements_the_module_writes() {
    let pictures = all_pictures();
    let mut problems = Vec::new();
    for (name, text) in &pictures {
        for p in misformed(text) {
            problems.push(format!("{name}: {p}"));
        }
        // Mermaid's own bounds: 50,000 characters, 500 edges.
        assert!(text.len() < 50_000, "{name}: {} bytes", text.len());
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A router of 300 rules, each with hostile values and every condition:
/// the picture stays within Mermaid's bounds and says how many rules it
/// leaves out.
#[test]
fn a_router_of_hundreds_of_rules_gives_a_bounded_picture() {
    let long: String = "é".repeat(200);
    let backends: Vec<Value> =
        (0..40).map(|i| json!({"name": format!("{long}{i}"), "tier": "cloud", "provider": long})).collect();
    let rules: Vec<Value> = (0..300)
        .map(|i| {
            let values: Vec<String> = (0..10).map(|k| format!("{long}{k}")).collect();
            let headers: serde_json::Map<String, Value> =
                (0..10).map(|k| (format!("{long}{k}"), json!(long))).collect();
            let route: Vec<String> = (0..40).map(|k| format!("{long}{k}")).collect();
            json!({"name": format!("{long}{i}"), "match": {"dataClassification": values, "taskComplexity": long,
                   "models": values, "headers": headers, "requiredCapabilities": values},
                   "route": {"backends": route}, "failClosed": true})
        })
        .collect();
    let config = json!({"backends": backends, "rules": rules, "defaultRoute": format!("{long}0"),
        "defaultRouteStrategy": "BackendNameMatch"});
    let config: ProxyConfig = serde_json::from_value(config).expect("a config");
    let router = Router::from_config("ml/many".into(), "many".into(), config);
    for direction in [Direction::LeftRight, Direction::TopDown] {
        let text = flowchart(&router, &[], direction);
        assert!(text.len() < 50_000, "{} bytes", text.len());
        let edges = text.lines().filter(|l| l.contains("-->") || l.contains("-.->")).count();
        assert!(edges < 500, "{edges} edges");
        let drawn = text.lines().filter(|l| l.contains("#183; ") && l.contains("[\"")).count();
        assert!(drawn <= mermaid::MAX_RULES, "{drawn} rules drawn");
        // "… and N more rules, not drawn", N the rules left out.
        let note = format!("#8230; and {} more rules, not drawn", 300 - drawn);
        assert!(text.contains(&note), "no {note:?} in\n{text}");
        assert!(misformed(&text).is_empty(), "{:?}", misformed(&text));
    }
}

/// The paths the pictures draw in red are verify's `sensitive-egress`
/// findings, one for each, sending out at the field the finding names.
#[test]
fn verifys_egress_paths_are_its_sensitive_egress_findings() {
    let mut paths = 0;
    for path in ["testdata/verify/leaky.yaml", "testdata/replay/reordered.yaml", "testdata/render/sample.yaml"] {
        for plane in [DataPlane::Proxy, DataPlane::Gateway] {
            let Ok(found) = routers(path, &common::fixture(path), Some(plane)) else { continue };
            let planes = [found];
            let inputs = Inputs { planes: &planes, against: None, invariants: &[], limits: Limits::default() };
            for (report, router) in verify(&inputs).iter().zip(&planes[0]) {
                let findings: Vec<_> = report
                    .findings
                    .iter()
                    .filter(|f| f.diagnostic.rule == routerctl::diagnostic::rules::SENSITIVE_EGRESS)
                    .collect();
                assert_eq!(findings.len(), report.egress.len(), "{path} {plane}");
                for (finding, egress) in findings.iter().zip(&report.egress) {
                    assert_eq!(finding.diagnostic.field, router.dispatch_field(&egress.matched, &egress.backend));
                    assert_eq!(finding.case.unhealthy, egress.down, "{path} {plane}");
                    assert!(
                        router.is_sensitive(&egress.class)
                            && router.backend(&egress.backend).is_some_and(|b| b.leaves_cluster())
                    );
                }
                // egress_of finds the same paths without the rest of verify.
                assert_eq!(egress_of(router, Limits::default()).0, report.egress, "{path} {plane}");
                paths += report.egress.len();
            }
        }
    }
    assert!(paths >= 2, "the leaky routers send something out: {paths}");
}

/// The router of docs/replay.md (testdata/replay/router.yaml) on the Proxy
/// plane: four rules in order, the fail-closed gate of pii-stays-local,
/// complex-to-cloud sending pii and phi to cloud-opus (in red), then
/// BackendNameMatch and the default route.
#[test]
fn the_replay_router_on_the_proxy_plane() {
    let router = routers_of("testdata/replay/router.yaml", None).remove(0);
    insta::assert_snapshot!(picture(&router, Direction::LeftRight));
}

/// The reorder of docs/replay.md (testdata/replay/reordered.yaml):
/// complex-to-cloud first, so pii and phi requests of complex tasks go to
/// cloud-opus (red) before pii-stays-local's gate is reached.
#[test]
fn the_reordered_router_sends_sensitive_requests_out_in_red() {
    let router = routers_of("testdata/replay/reordered.yaml", None).remove(0);
    insta::assert_snapshot!(picture(&router, Direction::LeftRight));
}

/// testdata/verify/leaky.yaml: every sensitive path verify finds in red —
/// gpt-* models of any class to the cloud, phi and secret by the default
/// route, and pii through the fail-closed gate to `claude`, external but
/// of tier local (the CRD's default), which the gate trusts.
#[test]
fn the_leaky_router_shows_each_path_out() {
    let router = routers_of("testdata/verify/leaky.yaml", Some(DataPlane::Proxy)).remove(0);
    insta::assert_snapshot!(picture(&router, Direction::TopDown));
}

/// The same router on the Gateway plane, where Envoy takes the match with
/// the most headers: its globs and complexity are refused there, so the
/// Gateway picture is of testdata/gateway/spread.yaml, weighted.
#[test]
fn a_weighted_router_on_the_gateway_plane() {
    let router = routers_of("testdata/gateway/spread.yaml", None).remove(0);
    insta::assert_snapshot!(picture(&router, Direction::TopDown));
}

/// The reorder of docs/replay.md, replayed on its log: what moves.
#[test]
fn the_reorder_replayed_as_a_sankey() {
    insta::assert_snapshot!(sankey(&replay_flows(&reorder().moved.expect("moved"))));
}

/// The gpt-to-cloud rule of docs/verify.md, `verify --against`'s moves with
/// every backend up.
#[test]
fn the_gpt_rule_against_the_sample_as_a_sankey() {
    insta::assert_snapshot!(against("testdata/render/sample.yaml", "testdata/verify/sample-with-gpt.yaml"));
}

/// Turning failClosed on moves nothing while every backend is up: no band.
#[test]
fn a_change_of_health_states_only_draws_no_band() {
    let text = against("testdata/verify/internal-open.yaml", "testdata/verify/internal-closed.yaml");
    assert_eq!(text, "flowchart LR\n  n0[\"no flow to draw\"]\n");
}

/// The hostile values, each in the picture as it is (the first characters
/// of the printable ones, decoded from their entity codes), and none
/// outside its label.
#[test]
fn hostile_values_stay_in_their_labels() {
    for text in
        [flowchart(&hostile_proxy(), &[], Direction::LeftRight), flowchart(&hostile_gateway(), &[], Direction::TopDown)]
    {
        assert!(misformed(&text).is_empty(), "{:?}\n{text}", misformed(&text));
        let decoded = decode(&text);
        for h in HOSTILE.iter().filter(|h| !h.chars().any(char::is_control) && !h.starts_with('\u{202e}')) {
            let head: String = h.trim().chars().take(12).collect();
            assert!(decoded.contains(&head), "{head:?} is not shown");
        }
    }
    let text = sankey(&hostile_flows());
    assert!(misformed(&text).is_empty(), "{:?}\n{text}", misformed(&text));
}

/// Mermaid's entity codes (`#35;`) decoded.
fn decode(text: &str) -> String {
    let re = regex::Regex::new("#([0-9]+);").expect("a pattern");
    re.replace_all(text, |c: &regex::Captures| {
        c[1].parse::<u32>().ok().and_then(char::from_u32).map(String::from).unwrap_or_default()
    })
    .into_owned()
}

/// The literals of the routers above, which hostile values are made of.
const LITERALS: [&str; 12] = [
    "pii",
    "phi",
    "gpt-*",
    "qwen3-*",
    "local-qwen",
    "cloud-opus",
    "x-team",
    "research",
    "complex",
    "anthropic",
    "code-local",
    "",
];

/// What Mermaid reads in a diagram's text, and what ends a line.
const SPECIALS: [&str; 22] = [
    "\"",
    "<",
    ">",
    "#",
    ";",
    "`",
    "\n",
    "\r",
    "%%{init: {}}%%",
    "%%",
    "\nclick n1 href \"x\"",
    "-->",
    "|",
    ":",
    "&",
    "\\",
    "ﬂ°",
    "¶ß",
    "\u{202e}",
    "é",
    ",",
    "\"\"",
];

/// A router literal with special characters put in it.
fn hostile_value() -> impl Strategy<Value = String> {
    (
        prop::sample::select(LITERALS.to_vec()),
        prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(SPECIALS.to_vec())), 0..4),
    )
        .prop_map(|(literal, inserts)| {
            let mut value: Vec<char> = literal.chars().collect();
            for (at, special) in inserts {
                let at = at.index(value.len() + 1);
                value.splice(at..at, special.chars());
            }
            value.into_iter().collect()
        })
}

/// The first characters of `value` that a picture shows as they are
/// (those before any that it shows as an escape or cuts).
fn shown_head(value: &str) -> String {
    value.chars().take_while(|c| !c.is_control() && *c != '\u{202e}').take(12).collect::<String>().trim().to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Hostile values in every place a router holds one stay in their
    /// labels: the picture is made only of the statements the module
    /// writes, and each value is shown.
    #[test]
    fn hostile_router_values_never_leave_their_label(
        values in prop::collection::vec(hostile_value(), 12),
        fail_closed in any::<bool>(),
        by_name in any::<bool>(),
    ) {
        let v = |i: usize| values[i % values.len()].clone();
        // Two backends of one name are one to the proxy: the second is
        // told apart.
        let second = if v(2) == v(0) { format!("{}2", v(2)) } else { v(2) };
        let config = json!({
            "backends": [{"name": v(0), "displayName": v(1), "tier": "local"},
                         {"name": second, "tier": v(3), "provider": v(4)}],
            "rules": [{"name": v(5), "match": {"dataClassification": [v(6)], "taskComplexity": v(7), "models": [v(8)],
                       "headers": {v(9): v(10)}, "requiredCapabilities": [v(11)]},
                       "route": {"backends": [second, v(0)], "strategy": v(3)}, "failClosed": fail_closed}],
            "defaultRoute": v(0),
            "defaultRouteStrategy": if by_name { "BackendNameMatch" } else { "" },
            "policy": {"classification": {"headerKey": v(9), "sensitiveClassifications": [v(6)]}}
        });
        let config: ProxyConfig = serde_json::from_value(config).expect("a config");
        let router = Router::from_config(v(5), v(5), config);
        let egress = [routerctl::routing::verify::Egress {
            class: v(6), matched: routerctl::routing::Matched::Rule(v(5)), backend: second.clone(), down: Vec::new(),
        }];
        let text = flowchart(&router, &egress, Direction::TopDown);
        prop_assert!(misformed(&text).is_empty(), "{:?}\n{text}", misformed(&text));
        let decoded = decode(&text);
        // The displayName is shown where BackendNameMatch reads it.
        for (_, value) in values.iter().enumerate().filter(|(i, _)| by_name || *i != 1) {
            prop_assert!(decoded.contains(&shown_head(value)), "{value:?} is not shown in\n{text}");
        }
        let flows: Vec<Flow> = values.windows(2).map(|w| Flow { from: w[0].clone(), to: w[1].clone(), share: 0.1 }).collect();
        let text = sankey(&flows);
        prop_assert!(misformed(&text).is_empty(), "{:?}\n{text}", misformed(&text));
        // Every row's fields, unquoted: a `(before)` name, then an
        // `(after)` one, never the same node.
        for row in text.lines().skip(1) {
            let fields = csv_fields(row);
            prop_assert_eq!(fields.len(), 3, "{}", row);
            prop_assert!(fields[0].ends_with(" (before)") && fields[1].ends_with(" (after)"), "{}", row);
        }
    }
}

/// A CSV row's fields as RFC 4180 reads them (quoted fields, `""` a quote).
fn csv_fields(row: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("a field").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => fields.last_mut().expect("a field").push(c),
        }
    }
    fields
}
