//! A router's own vocabulary: the requests its literals make, each alone
//! and with its near misses. `verify` decides every one of them again,
//! with the same `decide` that `test` runs, and holds the decision to the
//! one the proof gives its cell before it says the proof is complete; the
//! property tests draw their requests from it.
//!
//! Drawn from what decides (the compiled `config.json`, the rendered
//! AIGatewayRoute, an invariant's `when`), not from the request space's
//! reading of it, so a literal that reading drops is still asked:
//! - the request with no model;
//! - each backend's published id (`proxy::published_id`) and name;
//! - each model a rule names exactly, and each glob's instance and its own
//!   text, with the names one edit away at either end (the first or last
//!   char dropped, changed or its case flipped, the whole name's case
//!   flipped, one char added) and one wildcard away (`Glob::near_misses`);
//! - each header a rule compares, alone, as written, its name in upper and
//!   lower case, its value's case flipped, padded with a space or a tab on
//!   either side (Go's server and Envoy's codec trim them), a char short,
//!   a char long, and empty;
//! - each classification (the rules' and the sensitive set) and task
//!   complexity, as a header, with the same variants;
//! - each rule's conditions all at once, and with each one left out.
//!
//! Linear in the router's size: a few requests per literal, and per
//! wildcard of a glob.

use std::collections::HashSet;

use super::glob::Glob;
use super::proxy::{self, Rule as ProxyRule};
use super::router::{Plane, Router};
use super::suite::When;
use super::Request;
use crate::kube::names::{MODEL_HEADER, TASK_COMPLEXITY_HEADER};

/// Where in the router a word comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The request with no model and no header.
    NoModel,
    /// A backend's published id (its displayName, else its name).
    PublishedId,
    /// A backend's name.
    BackendName,
    /// A model a rule compares exactly (a Gateway rule's model match).
    ModelId,
    /// A model a glob matches, or the glob's own text.
    GlobInstance,
    /// A model one edit or one wildcard away from an instance or an id.
    ModelNearMiss,
    /// A header a rule compares, with the value it compares.
    HeaderValue,
    /// The same header with its name's or value's case changed, padded,
    /// a char off, or empty.
    HeaderVariant,
    /// A classification of a rule or of the sensitive set, or a variant.
    Classification,
    /// A task complexity of a rule, or a variant.
    Complexity,
    /// A rule's conditions at once, or all but one of them.
    RuleInstance,
}

impl Kind {
    /// The name reports use.
    pub fn label(self) -> &'static str {
        match self {
            Kind::NoModel => "the request with no model",
            Kind::PublishedId => "a published id",
            Kind::BackendName => "a backend name",
            Kind::ModelId => "a model id",
            Kind::GlobInstance => "a glob's instance",
            Kind::ModelNearMiss => "a model near miss",
            Kind::HeaderValue => "a header value",
            Kind::HeaderVariant => "a header variant",
            Kind::Classification => "a classification",
            Kind::Complexity => "a task complexity",
            Kind::RuleInstance => "a rule's instance",
        }
    }
}

/// One request of the vocabulary and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub kind: Kind,
    pub request: Request,
}

/// The vocabulary of `routers` (a router and those it is compared with)
/// and of invariants' `when`s: each request once, under the first kind
/// that drew it.
pub fn vocabulary(routers: &[&Router], whens: &[&When]) -> Vec<Word> {
    let mut words = Words::default();
    words.push(Kind::NoModel, Request::default());
    for router in routers {
        words.router(router);
    }
    for when in whens {
        let class = routers.first().map_or(String::new(), |r| r.class_header.clone());
        words.when(&class, when);
    }
    words.out
}

#[derive(Default)]
struct Words {
    out: Vec<Word>,
    seen: HashSet<Request>,
}

impl Words {
    fn push(&mut self, kind: Kind, request: Request) {
        if self.seen.insert(request.clone()) {
            self.out.push(Word { kind, request });
        }
    }

    fn model(&mut self, kind: Kind, model: &str) {
        self.push(kind, Request { model: Some(model.to_string()), headers: Vec::new() });
    }

    fn router(&mut self, router: &Router) {
        match &router.plane {
            Plane::Proxy(config) => {
                for b in &config.backends {
                    self.model(Kind::PublishedId, proxy::published_id(b));
                }
                self.backend_names(router);
                for rule in &config.rules {
                    self.proxy_rule(&router.class_header, rule);
                }
            }
            Plane::Gateway { rules, .. } => {
                self.backend_names(router);
                for rule in rules {
                    for m in rule.matches() {
                        let mut parts: Vec<Part> = Vec::new();
                        for (name, value) in m {
                            if name == MODEL_HEADER {
                                self.id(value);
                                parts.push(Part::Model(value.to_string()));
                            } else {
                                self.header(Kind::HeaderValue, name, value);
                                parts.push(Part::Header(name.to_string(), value.to_string()));
                            }
                        }
                        self.rule_instance(&parts);
                    }
                }
            }
        }
        for class in &router.sensitive {
            self.header(Kind::Classification, &router.class_header, class);
        }
    }

    fn backend_names(&mut self, router: &Router) {
        for b in &router.backends {
            self.model(Kind::BackendName, &b.name);
        }
    }

    fn proxy_rule(&mut self, class_header: &str, rule: &ProxyRule) {
        let m = &rule.match_;
        let mut parts: Vec<Part> = Vec::new();
        for glob in &m.models {
            if let Some(instance) = self.glob(glob) {
                if parts.iter().all(|p| !matches!(p, Part::Model(_))) {
                    parts.push(Part::Model(instance));
                }
            }
        }
        for class in &m.data_classification {
            self.header(Kind::Classification, class_header, class);
        }
        if let Some(class) = m.data_classification.first() {
            parts.push(Part::Header(class_header.to_string(), class.clone()));
        }
        if !m.task_complexity.is_empty() {
            self.header(Kind::Complexity, TASK_COMPLEXITY_HEADER, &m.task_complexity);
            parts.push(Part::Header(TASK_COMPLEXITY_HEADER.to_string(), m.task_complexity.clone()));
        }
        for (name, value) in &m.headers {
            self.header(Kind::HeaderValue, name, value);
            parts.push(Part::Header(name.clone(), value.clone()));
        }
        self.rule_instance(&parts);
    }

    fn when(&mut self, class_header: &str, when: &When) {
        let mut parts: Vec<Part> = Vec::new();
        for glob in &when.models {
            if let Some(instance) = self.glob(glob) {
                if parts.iter().all(|p| !matches!(p, Part::Model(_))) {
                    parts.push(Part::Model(instance));
                }
            }
        }
        for class in &when.classification {
            self.header(Kind::Classification, class_header, class);
        }
        if let Some(class) = when.classification.first() {
            parts.push(Part::Header(class_header.to_string(), class.clone()));
        }
        for complexity in &when.complexity {
            self.header(Kind::Complexity, TASK_COMPLEXITY_HEADER, complexity);
        }
        if let Some(complexity) = when.complexity.first() {
            parts.push(Part::Header(TASK_COMPLEXITY_HEADER.to_string(), complexity.clone()));
        }
        for (name, value) in &when.headers {
            self.header(Kind::HeaderValue, name, value);
            parts.push(Part::Header(name.clone(), value.clone()));
        }
        self.rule_instance(&parts);
    }

    /// A model compared exactly, and its near misses.
    fn id(&mut self, id: &str) {
        self.model(Kind::ModelId, id);
        for miss in edits(id) {
            self.model(Kind::ModelNearMiss, &miss);
        }
    }

    /// A glob's instances, its text, and their near misses; the instance
    /// a rule instance uses.
    fn glob(&mut self, glob: &str) -> Option<String> {
        let parsed = Glob::parse(glob);
        let instances: Vec<String> =
            parsed.iter().flat_map(|g| [g.instance("x"), g.instance("")]).flatten().filter(|i| !i.is_empty()).collect();
        for instance in &instances {
            self.model(Kind::GlobInstance, instance);
        }
        self.model(Kind::GlobInstance, glob);
        for instance in instances.iter().take(1) {
            for miss in edits(instance) {
                self.model(Kind::ModelNearMiss, &miss);
            }
        }
        for miss in parsed.iter().flat_map(Glob::near_misses) {
            self.model(Kind::ModelNearMiss, &miss);
        }
        instances.into_iter().next()
    }

    /// A header alone, as written, and its variants.
    fn header(&mut self, kind: Kind, name: &str, value: &str) {
        let alone = |n: &str, v: &str| Request { model: None, headers: vec![(n.to_string(), v.to_string())] };
        self.push(kind, alone(name, value));
        let variant = if kind == Kind::HeaderValue { Kind::HeaderVariant } else { kind };
        let mut short = value.to_string();
        short.pop();
        let variants = [
            (name.to_ascii_uppercase(), value.to_string()),
            (name.to_ascii_lowercase(), value.to_string()),
            (name.to_string(), flip_case(value)),
            (name.to_string(), value.to_uppercase()),
            (name.to_string(), format!(" {value}")),
            (name.to_string(), format!("{value} ")),
            (name.to_string(), format!("\t{value}")),
            (name.to_string(), format!("{value}\t")),
            (name.to_string(), short),
            (name.to_string(), format!("{value}x")),
            (name.to_string(), String::new()),
        ];
        for (n, v) in variants {
            self.push(variant, alone(&n, &v));
        }
    }

    /// A rule's conditions at once, and with each left out in turn.
    fn rule_instance(&mut self, parts: &[Part]) {
        if parts.is_empty() {
            return;
        }
        let request = |skip: Option<usize>| {
            let mut r = Request::default();
            for (i, part) in parts.iter().enumerate() {
                if Some(i) == skip {
                    continue;
                }
                match part {
                    Part::Model(m) => r.model = Some(m.clone()),
                    Part::Header(n, v) => {
                        // One value per name: a second would be read
                        // differently by the two planes.
                        if !r.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(n)) {
                            r.headers.push((n.clone(), v.clone()));
                        }
                    }
                }
            }
            r
        };
        self.push(Kind::RuleInstance, request(None));
        if parts.len() > 1 {
            for i in 0..parts.len() {
                self.push(Kind::RuleInstance, request(Some(i)));
            }
        }
    }
}

/// One condition of a rule, met.
enum Part {
    Model(String),
    Header(String, String),
}

/// Every char's case swapped where it has another (one char for one).
fn flip_case(value: &str) -> String {
    value
        .chars()
        .map(|c| {
            let other: Vec<char> =
                if c.is_lowercase() { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
            match other[..] {
                [o] => o,
                _ => c,
            }
        })
        .collect()
}

/// The names one edit from `model`, a few whatever its length: its first
/// and its last char dropped, changed (to `x`, or `y` for an `x`) and
/// their case flipped, the whole name's case flipped, and an `x` added at
/// either end. (The edits where a glob's wildcards meet its literals are
/// `Glob::near_misses`'.) Empty names are left out: the proxy reads them
/// as no model.
fn edits(model: &str) -> Vec<String> {
    let chars: Vec<char> = model.chars().collect();
    let mut out = Vec::new();
    let mut ends = vec![0];
    if chars.len() > 1 {
        ends.push(chars.len() - 1);
    }
    for i in ends.into_iter().filter(|&i| i < chars.len()) {
        let with = |c: Option<String>| -> String {
            let mut s: String = chars[..i].iter().collect();
            s.extend(c);
            s.extend(&chars[i + 1..]);
            s
        };
        out.push(with(None));
        out.push(with(Some(if chars[i] == 'x' { "y" } else { "x" }.to_string())));
        out.push(with(Some(flip_case(&chars[i].to_string()))));
    }
    out.push(flip_case(model));
    out.push(format!("x{model}"));
    out.push(format!("{model}x"));
    out.retain(|m| !m.is_empty() && m != model);
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn proxy_router(config: serde_json::Value) -> Router {
        let config: proxy::ProxyConfig = serde_json::from_value(config).expect("a config");
        Router::from_config("ns/r".into(), "r".into(), config)
    }

    fn has(words: &[Word], kind: Kind, model: Option<&str>, headers: &[(&str, &str)]) -> bool {
        let want = Request {
            model: model.map(str::to_string),
            headers: headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
        };
        words.iter().any(|w| w.kind == kind && w.request == want)
    }

    fn sample() -> Router {
        proxy_router(json!({
            "backends": [
                {"name": "local-a", "tier": "local", "displayName": "fast"},
                {"name": "cloud-b", "tier": "cloud", "provider": "openai"}
            ],
            "rules": [
                {"name": "minis", "match": {"models": ["gpt-4?-[a-c]*"], "headers": {"X-Team": "Research"},
                                            "dataClassification": ["public"]},
                 "route": {"backends": ["cloud-b"]}},
                {"name": "private", "match": {"dataClassification": ["internal"], "taskComplexity": "complex"},
                 "route": {"backends": ["local-a"]}, "failClosed": true}
            ],
            "defaultRoute": "local-a",
            "defaultRouteStrategy": "BackendNameMatch",
            "policy": {"classification": {"sensitiveClassifications": ["secret"]}}
        }))
    }

    #[test]
    fn the_request_with_no_model_is_drawn_first() {
        let words = vocabulary(&[&sample()], &[]);
        assert_eq!(words[0], Word { kind: Kind::NoModel, request: Request::default() });
    }

    #[test]
    fn published_ids_and_backend_names_are_drawn() {
        let words = vocabulary(&[&sample()], &[]);
        // local-a is published as its displayName; cloud-b as its name.
        assert!(has(&words, Kind::PublishedId, Some("fast"), &[]));
        assert!(has(&words, Kind::PublishedId, Some("cloud-b"), &[]));
        assert!(has(&words, Kind::BackendName, Some("local-a"), &[]));
        assert!(!words.iter().any(|w| w.kind == Kind::BackendName && w.request.model.as_deref() == Some("cloud-b")));
    }

    #[test]
    fn glob_instances_and_their_near_misses_are_drawn() {
        let words = vocabulary(&[&sample()], &[]);
        // `?` as x, the class as its first member, `*` as x and as nothing.
        assert!(has(&words, Kind::GlobInstance, Some("gpt-4x-ax"), &[]));
        assert!(has(&words, Kind::GlobInstance, Some("gpt-4x-a"), &[]));
        assert!(has(&words, Kind::GlobInstance, Some("gpt-4?-[a-c]*"), &[]));
        for miss in [
            "pt-4x-ax",   // the first char dropped (the last: an instance)
            "xpt-4x-ax",  // the first changed, and the last
            "gpt-4x-ay",  //
            "Gpt-4x-ax",  // their case flipped
            "gpt-4x-aX",  //
            "GPT-4X-AX",  // the whole name's
            "gpt-4x-axx", // one added
            "xgpt-4x-ax", //
            "gpt-4/-ax",  // `?` as `/`, which it never takes
            "gpt-4é-ax",  // `?` as one two-byte rune
            "gpt-4-ax",   // `?` dropped
            "gpt-4x-`x",  // the rune before the class
            "gpt-4x-dx",  // the rune after it
            "gpt-4x-a/",  // `*` as `/`
        ] {
            assert!(has(&words, Kind::ModelNearMiss, Some(miss), &[]), "{miss}");
        }
    }

    #[test]
    fn header_values_and_their_variants_are_drawn() {
        let words = vocabulary(&[&sample()], &[]);
        assert!(has(&words, Kind::HeaderValue, None, &[("X-Team", "Research")]));
        for (name, value) in [
            ("X-TEAM", "Research"),
            ("x-team", "Research"),
            ("X-Team", "rESEARCH"),
            ("X-Team", " Research"),
            ("X-Team", "Research "),
            ("X-Team", "\tResearch"),
            ("X-Team", "Research\t"),
            ("X-Team", "Researc"),
            ("X-Team", "Researchx"),
            ("X-Team", ""),
        ] {
            assert!(has(&words, Kind::HeaderVariant, None, &[(name, value)]), "{name}: {value:?}");
        }
    }

    #[test]
    fn classifications_and_complexities_are_drawn() {
        let words = vocabulary(&[&sample()], &[]);
        let class = "x-llmkube-classification";
        assert!(has(&words, Kind::Classification, None, &[(class, "internal")]));
        assert!(has(&words, Kind::Classification, None, &[(class, "INTERNAL")]));
        assert!(has(&words, Kind::Classification, None, &[(class, " internal")]));
        // The sensitive set, apart from any rule.
        assert!(has(&words, Kind::Classification, None, &[(class, "secret")]));
        assert!(has(&words, Kind::Classification, None, &[(class, "secret\t")]));
        assert!(has(&words, Kind::Complexity, None, &[(TASK_COMPLEXITY_HEADER, "complex")]));
        assert!(has(&words, Kind::Complexity, None, &[(TASK_COMPLEXITY_HEADER, "complex\t")]));
    }

    #[test]
    fn rule_instances_meet_every_condition_and_all_but_one() {
        let words = vocabulary(&[&sample()], &[]);
        let (class, complexity) = ("x-llmkube-classification", TASK_COMPLEXITY_HEADER);
        let (public, team) = ((class, "public"), ("X-Team", "Research"));
        assert!(has(&words, Kind::RuleInstance, Some("gpt-4x-ax"), &[public, team]));
        assert!(has(&words, Kind::RuleInstance, None, &[public, team]));
        assert!(has(&words, Kind::RuleInstance, Some("gpt-4x-ax"), &[team]));
        assert!(has(&words, Kind::RuleInstance, Some("gpt-4x-ax"), &[public]));
        assert!(has(&words, Kind::RuleInstance, None, &[(class, "internal"), (complexity, "complex")]));
        // A rule of two conditions left with one is a word already, drawn
        // once, first as that condition's.
        assert!(has(&words, Kind::Classification, None, &[(class, "internal")]));
        assert!(has(&words, Kind::Complexity, None, &[(complexity, "complex")]));
    }

    #[test]
    fn gateway_model_matches_are_model_ids() {
        let route = json!({"spec": {"rules": [
            {"matches": [{"headers": [{"name": "x-ai-eg-model", "value": "qwen"}, {"name": "x-team", "value": "a"}]}],
             "backendRefs": [{"name": "ml-r-local"}]}
        ]}});
        let rules = crate::routing::gateway::route_rules(
            &route,
            &[crate::render::gateway::rules::RuleOrigin::Rule("r1".into())],
        )
        .expect("rules");
        let mut router = proxy_router(json!({"backends": [{"name": "local"}]}));
        router.plane = Plane::Gateway { rules, names: Default::default() };
        let words = vocabulary(&[&router], &[]);
        assert!(has(&words, Kind::ModelId, Some("qwen"), &[]));
        assert!(has(&words, Kind::ModelNearMiss, Some("Qwen"), &[]));
        assert!(has(&words, Kind::HeaderValue, None, &[("x-team", "a")]));
        assert!(has(&words, Kind::RuleInstance, Some("qwen"), &[("x-team", "a")]));
    }

    #[test]
    fn it_is_linear_in_the_router() {
        // Rules alike but for their literals: each adds the same few words.
        let rules = |n: usize| -> Vec<serde_json::Value> {
            (0..n)
                .map(|i| {
                    json!({"name": format!("r{i}"), "match": {"models": [format!("m{i}-*")], "headers": {"x-h": format!("v{i}")}},
                           "route": {"backends": ["a"]}})
                })
                .collect()
        };
        let size =
            |n: usize| vocabulary(&[&proxy_router(json!({"backends": [{"name": "a"}], "rules": rules(n)}))], &[]).len();
        let (ten, twenty, thirty) = (size(10), size(20), size(30));
        assert_eq!(twenty - ten, thirty - twenty, "{ten} {twenty} {thirty}");
        // A glob of one `*` and a header: instances, edits, wildcard
        // misses, the header's variants and the rule's instance.
        assert!((twenty - ten) / 10 <= 30, "{ten} {twenty}");
    }
}
