//! The router-proxy's decision, ported from upstream `internal/router` at
//! commit 907ac8d (main, 2026-08-22): `extractFeatures` (proxy.go),
//! `Matcher.Match`, `ruleMatches`, `matchModels` (Go's `path.Match` is
//! `super::glob`),
//! `matchHeaders`, `satisfiesRequiredCapabilities`, `backendByPublishedID`
//! (match.go), `enforceFailClosed` and the candidate loop of
//! `dispatchWithFallback` with its status codes (proxy.go), and
//! `SensitiveSet` / `ClassificationHeader` (config.go). Before any of it,
//! what Go's HTTP server does with the request: a header name that is no
//! token or a value with a control character is answered 400
//! (`conn.readRequest`), and values reach the handler without the spaces
//! and tabs around them (`textproto`).
//!
//! It reads the `config.json` routerctl compiles, byte for byte what the
//! proxy reads. What the proxy decides at run time only (a 5xx reply, a
//! timeout) is given as backends marked unhealthy: the proxy skips a
//! quarantined backend as it skips one that failed.
//!
//! Upstream facts worth knowing, kept as they are: rules are tried in order
//! and the first match wins; classification and task complexity are
//! lower-cased from their headers but compared exactly with the rule's
//! values; header names match in any case, values exactly; `weighted` and
//! `shadow` are labels only (every route is tried in order, as
//! primary-fallback, and backend weights are not read); required
//! capabilities decide whether a rule matches but do not filter its
//! backends.

use std::collections::{BTreeMap, HashMap};

use anyhow::{Context as _, Result};
use serde::Deserialize;

use super::glob::{path_match, Glob};
use super::{Decision, Matched, Request, Trial};
use crate::kube::golower::to_lower;
use crate::kube::names::{DEFAULT_CLASSIFICATION_HEADER, TASK_COMPLEXITY_HEADER};
use crate::kube::shown::shown;
use crate::model::DEFAULT_SENSITIVE;

/// The part of `config.json` the decision reads (upstream `router.Config`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProxyConfig {
    pub backends: Vec<Backend>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub rules: Vec<Rule>,
    #[serde(default)]
    pub default_route: String,
    #[serde(default)]
    pub default_route_strategy: String,
    #[serde(default)]
    pub policy: Policy,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Backend {
    pub name: String,
    #[serde(default)]
    pub display_name: String,
    #[serde(default)]
    pub tier: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub capabilities: Vec<String>,
    #[serde(default)]
    pub weight: u32,
    /// Set for an external backend (its provider), empty for one in the
    /// cluster.
    #[serde(default)]
    pub provider: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    pub name: String,
    #[serde(rename = "match", default)]
    pub match_: RuleMatch,
    pub route: RuleRoute,
    #[serde(default)]
    pub fail_closed: bool,
    /// `match.models` parsed on first use: a rule is read once (from
    /// `config.json`, never changed after) and asked of many requests
    /// (`verify` decides thousands).
    #[serde(skip)]
    globs: std::sync::OnceLock<Vec<Option<Glob>>>,
}

impl Rule {
    /// `matchModels` on this rule's models, each parsed once.
    fn matches_model(&self, model: &str) -> bool {
        let patterns = &self.match_.models;
        if patterns.is_empty() || model.is_empty() {
            return match_models(patterns, model);
        }
        // A malformed pattern (ErrBadPattern) matches nothing.
        let globs = self.globs.get_or_init(|| patterns.iter().map(|p| Glob::parse(p)).collect());
        globs.iter().flatten().any(|g| g.matches(model))
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleMatch {
    #[serde(default, deserialize_with = "null_as_empty")]
    pub data_classification: Vec<String>,
    #[serde(default)]
    pub task_complexity: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub required_capabilities: Vec<String>,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub models: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleRoute {
    pub backends: Vec<String>,
    #[serde(default)]
    pub strategy: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Policy {
    #[serde(default)]
    pub classification: ClassificationPolicy,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClassificationPolicy {
    #[serde(default)]
    pub header_key: String,
    #[serde(default, rename = "sensitiveClassifications", deserialize_with = "null_as_empty")]
    pub sensitive: Vec<String>,
}

/// A Go nil slice is written `null`: read as empty.
fn null_as_empty<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

impl ProxyConfig {
    /// Reads `config.json`.
    pub fn from_json(json: &str) -> Result<ProxyConfig> {
        serde_json::from_str(json).context("config.json is not the proxy's config")
    }

    /// `ClassificationHeader()`: the policy's header, or the default.
    pub fn classification_header(&self) -> String {
        let key = self.policy.classification.header_key.trim();
        if key.is_empty() {
            DEFAULT_CLASSIFICATION_HEADER.to_string()
        } else {
            key.to_string()
        }
    }

    /// `SensitiveSet()`: the policy's list replaces the defaults.
    pub fn sensitive_set(&self) -> Vec<String> {
        let listed = &self.policy.classification.sensitive;
        if listed.is_empty() {
            DEFAULT_SENSITIVE.iter().map(|s| s.to_string()).collect()
        } else {
            listed.clone()
        }
    }

    /// Whether `class` is in [`ProxyConfig::sensitive_set`].
    pub fn is_sensitive(&self, class: &str) -> bool {
        if self.policy.classification.sensitive.is_empty() {
            DEFAULT_SENSITIVE.contains(&class)
        } else {
            self.policy.classification.sensitive.iter().any(|s| s == class)
        }
    }

    /// The backend of that name (`BackendByName`).
    pub fn backend(&self, name: &str) -> Option<&Backend> {
        self.backends.iter().find(|b| b.name == name)
    }
}

/// The request as the proxy sees it (`extractFeatures`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features {
    /// Lower-cased names; the first value of each.
    pub headers: HashMap<String, String>,
    pub model: String,
    pub classification: String,
    pub task_complexity: String,
    /// Go's server answers the request 400 itself ([`refused_by_server`]):
    /// no rule sees it.
    pub refused: bool,
}

/// Headers a request carries that Go's HTTP server does not leave in
/// `r.Header`, so no rule of the proxy can match them.
pub const UNSEEN_HEADERS: [&str; 2] = ["host", "transfer-encoding"];

/// How the proxy lower-cases the classification and complexity values
/// (Go's `strings.ToLower`).
pub fn lower_value(value: &str) -> String {
    to_lower(value)
}

/// Whether `name` is an HTTP token, the only header names Go's server
/// takes (`httpguts.ValidHeaderFieldName`).
pub fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(is_token_byte)
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Whether Go's server takes a header value: no control character but a
/// tab (`httpguts.ValidHeaderFieldValue`: DEL and every byte under 0x20
/// but tab are refused; bytes of 0x80 and above are taken).
pub fn is_valid_value(value: &str) -> bool {
    value.bytes().all(|b| b == b'\t' || (b >= 0x20 && b != 0x7f))
}

/// A header value as Go's server hands it on: without the spaces and tabs
/// around it (`textproto.Reader.ReadMIMEHeader` trims them, as RFC 9110's
/// optional whitespace).
pub fn received_value(value: &str) -> &str {
    value.trim_matches([' ', '\t'])
}

/// How Go's server answers a request itself, before the proxy's handler
/// sees it, if it does: (status, why). Checked in the order Go meets them,
/// as a Go 1.27 server answered these requests (net/http `readRequest`,
/// `readTransfer`, `conn.readRequest`, the `Expect` check in `serve`;
/// `testdata/go_http.tsv`, which Go's own server wrote with
/// `scripts/go-http-table`, holds it to every row):
/// - a header value with a control character but tab, or a name with a
///   byte that is no token byte (a space aside): 400, while the header
///   is read (`textproto`);
/// - `Transfer-Encoding` other than one `chunked`: 501;
/// - `Content-Length` that is not digits (after the spaces around it),
///   too large, or sent twice with two values: 400;
/// - `Host` sent twice (in any case) or with a byte no host has: 400 (a
///   request with no `Host` is given one: every client sends it);
/// - a name with a space: 400;
/// - `Expect` other than `100-continue`: 417.
pub fn refused_by_server(request: &Request) -> Option<(u16, String)> {
    let named = |want: &'static str| request.headers.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(want));
    let refuse =
        |status: u16, why: String| Some((status, format!("Go's HTTP server refuses the request ({status}): {why}")));
    for (name, value) in &request.headers {
        if name.is_empty() || !name.bytes().all(|b| b == b' ' || is_token_byte(b)) {
            return refuse(400, format!("header name {name:?} is no HTTP token"));
        }
        if !is_valid_value(value) {
            return refuse(400, format!("header {name} has a control character in its value"));
        }
    }
    let te: Vec<&str> = named("transfer-encoding").map(|(_, v)| received_value(v)).collect();
    if !te.is_empty() && (te.len() > 1 || !te[0].eq_ignore_ascii_case("chunked")) {
        return refuse(501, format!("Transfer-Encoding {:?} is not one chunked (501 Not Implemented)", te.join(", ")));
    }
    let lengths: Vec<&str> = named("content-length").map(|(_, v)| received_value(v)).collect();
    if let Some(first) = lengths.first() {
        if lengths.iter().any(|l| l != first) {
            return refuse(400, format!("Content-Length is sent with two values: {lengths:?}"));
        }
        if content_length(first).is_none() {
            return refuse(400, format!("Content-Length {first:?} is no length (digits only)"));
        }
    }
    let hosts: Vec<&str> = named("host").map(|(_, v)| received_value(v)).collect();
    if hosts.len() > 1 {
        return refuse(400, "Host is sent twice".to_string());
    }
    if let Some(host) = hosts.first().filter(|h| !h.bytes().all(is_host_byte)) {
        return refuse(400, format!("Host {host:?} is malformed"));
    }
    if let Some((name, _)) = request.headers.iter().find(|(n, _)| n.contains(' ')) {
        return refuse(400, format!("header name {name:?} holds a space"));
    }
    if let Some((_, expect)) = named("expect").next() {
        let expect = received_value(expect);
        if !expect.is_empty() && !has_token(expect, "100-continue") {
            return refuse(417, format!("Expect {expect:?} is not 100-continue (417 Expectation Failed)"));
        }
    }
    None
}

/// A `Content-Length` as Go reads one (`parseContentLength`): digits only,
/// at most 2^63 - 1.
pub fn content_length(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse::<u64>().ok().filter(|&n| n <= i64::MAX as u64)
}

/// The fewest bytes a JSON body carrying `model` takes: `{"model":"…"}`
/// with the string escaped as little as JSON allows.
pub fn shortest_body(model: &str) -> u64 {
    let escaped: usize = model
        .chars()
        .map(|c| match c {
            '"' | '\\' | '\u{8}' | '\u{c}' | '\n' | '\r' | '\t' => 2,
            c if (c as u32) < 0x20 => 6,
            c => c.len_utf8(),
        })
        .sum();
    (12 + escaped) as u64
}

/// Why no request is like `request`, if none is: it sends a model and a
/// `Content-Length` (the first, as Go's server reads it; a chunked body's
/// length is its chunks', so not with a `Transfer-Encoding`) too short
/// for any JSON body that carries that model. The proxy reads the model
/// from a body of that many bytes: a case like it is a request that
/// cannot be sent. The header's name as written, and why.
pub fn impossible_body(request: &Request) -> Option<(&str, String)> {
    let model = request.model.as_deref().filter(|m| !m.is_empty())?;
    // Go's server answers some requests before it reads a body at all.
    if request.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("transfer-encoding"))
        || refused_by_server(request).is_some()
    {
        return None;
    }
    let (name, value) = request.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("content-length"))?;
    let length = content_length(received_value(value))?;
    let needed = shortest_body(model);
    (needed > length).then(|| {
        (
            name.as_str(),
            format!(
                "Content-Length {length} cannot hold the model: the shortest JSON body that carries it \
                 ({{\"model\":…}}) takes {needed} bytes, and the proxy reads the model from those {length}; \
                 no request is like that: give a Content-Length of at least {needed}, or none"
            ),
        )
    })
}

/// The bytes Go's server takes in a `Host` header (`httpguts.ValidHostHeader`,
/// checked byte by byte against a Go 1.27 server): letters, digits and
/// `!$%&'()*+,-.:;=[]_~`.
fn is_host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!$%&'()*+,-.:;=[]_~".contains(&b)
}

/// Whether `token` is in `value` between boundaries (start, end, space,
/// comma, tab), in any ASCII case (net/http `hasToken`).
fn has_token(value: &str, token: &str) -> bool {
    let (v, t) = (value.as_bytes(), token.as_bytes());
    let boundary = |b: u8| b == b' ' || b == b',' || b == b'\t';
    (0..=v.len().saturating_sub(t.len())).any(|at| {
        v.len() >= t.len()
            && v[at..at + t.len()].eq_ignore_ascii_case(t)
            && (at == 0 || boundary(v[at - 1]))
            && (at + t.len() == v.len() || boundary(v[at + t.len()]))
    })
}

/// `extractFeatures`: names lower-cased (first value kept), the
/// classification and complexity headers' values lower-cased; values as
/// Go's server hands them on ([`received_value`]).
pub fn features(config: &ProxyConfig, request: &Request) -> Features {
    let mut headers = HashMap::new();
    // A chunked body's length is its chunks': Go drops `Content-Length`.
    let chunked = request.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("transfer-encoding"));
    for (name, value) in &request.headers {
        let name = name.to_ascii_lowercase();
        // Go's server takes these out of `r.Header` (into `r.Host` and
        // `r.TransferEncoding`): the proxy never sees them as headers.
        if UNSEEN_HEADERS.contains(&name.as_str()) || (name == "content-length" && chunked) {
            continue;
        }
        headers.entry(name).or_insert_with(|| received_value(value).to_string());
    }
    // Names from the config are lower-cased as Go does; request names are
    // ASCII already (Go's server refuses any other).
    let class_header = to_lower(&config.classification_header());
    let classification = headers.get(&class_header).map(|v| lower_value(v)).unwrap_or_default();
    let task_complexity = headers.get(TASK_COMPLEXITY_HEADER).map(|v| lower_value(v)).unwrap_or_default();
    Features {
        model: request.model.clone().unwrap_or_default(),
        headers,
        classification,
        task_complexity,
        refused: refused_by_server(request).is_some(),
    }
}

/// The first condition of a rule that a request fails.
enum Failure<'a> {
    Refused,
    Classification,
    Complexity,
    Models,
    NoHeader(&'a str),
    Header(&'a str, &'a str, &'a str),
    Capabilities,
}

/// `ruleMatches`: the AND of the rule's non-empty conditions, in
/// upstream's order; the first that fails, or `None`.
fn first_failure<'a>(config: &ProxyConfig, rule: &'a Rule, f: &'a Features) -> Option<Failure<'a>> {
    let m = &rule.match_;
    if f.refused {
        return Some(Failure::Refused);
    }
    if !m.data_classification.is_empty() && !m.data_classification.contains(&f.classification) {
        return Some(Failure::Classification);
    }
    if !m.task_complexity.is_empty() && m.task_complexity != f.task_complexity {
        return Some(Failure::Complexity);
    }
    if !rule.matches_model(&f.model) {
        return Some(Failure::Models);
    }
    for (name, want) in &m.headers {
        match f.headers.get(&to_lower(name)) {
            None => return Some(Failure::NoHeader(name)),
            Some(got) if got != want => return Some(Failure::Header(name, got, want)),
            Some(_) => {}
        }
    }
    if !satisfies_required_capabilities(config, rule) {
        return Some(Failure::Capabilities);
    }
    None
}

/// `satisfiesRequiredCapabilities`: a rule that requires capabilities
/// matches only when a backend of its route has all of them (its
/// backends are not filtered by them).
pub fn satisfies_required_capabilities(config: &ProxyConfig, rule: &Rule) -> bool {
    let required = &rule.match_.required_capabilities;
    required.is_empty()
        || rule
            .route
            .backends
            .iter()
            .filter_map(|b| config.backend(b))
            .any(|b| required.iter().all(|c| b.capabilities.contains(c)))
}

/// Whether `rule` takes a request with features `f`.
pub fn rule_matches(config: &ProxyConfig, rule: &Rule, f: &Features) -> bool {
    first_failure(config, rule, f).is_none()
}

/// Why `rule` does not match `f`, or `None` when it does.
pub fn rule_mismatch(config: &ProxyConfig, rule: &Rule, f: &Features) -> Option<String> {
    let m = &rule.match_;
    Some(match first_failure(config, rule, f)? {
        Failure::Refused => "Go's HTTP server answers the request 400 before the proxy sees it".to_string(),
        Failure::Classification => {
            format!("classification {:?} is not one of {:?}", f.classification, m.data_classification)
        }
        Failure::Complexity => format!("task complexity {:?} is not {:?}", f.task_complexity, m.task_complexity),
        Failure::Models => format!("model {:?} matches none of {:?}", f.model, m.models),
        Failure::NoHeader(name) => format!("no header {}", shown(name)),
        Failure::Header(name, got, want) => format!("header {} is {got:?}, not {want:?}", shown(name)),
        Failure::Capabilities => format!("no backend of the route has all of {:?}", m.required_capabilities),
    })
}

/// `matchModels`: no patterns match anything; an empty model only `*`.
pub fn match_models(patterns: &[String], model: &str) -> bool {
    if patterns.is_empty() {
        return true;
    }
    if model.is_empty() {
        return patterns.iter().any(|p| p == "*");
    }
    // A malformed pattern (ErrBadPattern) matches nothing.
    patterns.iter().any(|p| path_match(p, model) == Some(true))
}

/// What the proxy does with `request` when the backends in `unhealthy`
/// are down (quarantined, or failing with a 5xx or a connection error).
pub fn decide(config: &ProxyConfig, request: &Request, unhealthy: &[String]) -> Decision {
    decide_as(config, request, unhealthy, true)
}

/// [`decide`] without the trials (why each rule did or did not match):
/// the same decision, for callers that decide many requests and read only
/// where they go.
pub fn decide_quietly(config: &ProxyConfig, request: &Request, unhealthy: &[String]) -> Decision {
    decide_as(config, request, unhealthy, false)
}

fn decide_as(config: &ProxyConfig, request: &Request, unhealthy: &[String], explain: bool) -> Decision {
    if let Some((status, why)) = refused_by_server(request) {
        return Decision::unrouted(status, &why, Vec::new());
    }
    let f = features(config, request);
    let mut trials = Vec::new();
    let mut chosen = None;
    for rule in &config.rules {
        let hit = if explain {
            let failed = rule_mismatch(config, rule, &f);
            let hit = failed.is_none();
            trials.push(Trial { rule: rule.name.clone(), failed });
            hit
        } else {
            rule_matches(config, rule, &f)
        };
        if hit {
            chosen = Some(rule);
            break;
        }
    }
    let (matched, route, strategy, fail_closed): (Matched, Vec<String>, String, bool) = match chosen {
        Some(rule) => (
            Matched::Rule(rule.name.clone()),
            rule.route.backends.clone(),
            strategy_or_default(&rule.route.strategy),
            rule.fail_closed,
        ),
        None => match fallback(config, &f.model) {
            Some((matched, backend)) => (matched, vec![backend], "primary-fallback".into(), false),
            None => return Decision::unrouted(503, "no rule matched and no defaultRoute configured", trials),
        },
    };
    // enforceFailClosed: a sensitive class on a fail-closed rule goes only
    // to local backends the config knows.
    if fail_closed && config.is_sensitive(&f.classification) {
        for name in &route {
            let reason = match config.backend(name) {
                None => Some(format!("fail-closed: backend {name:?} not configured")),
                Some(b) if b.tier != "local" => Some(format!(
                    "fail-closed: sensitive classification {:?} cannot route to cloud-tier backend {name:?}",
                    f.classification
                )),
                Some(_) => None,
            };
            if let Some(reason) = reason {
                return Decision {
                    matched,
                    strategy,
                    candidates: Vec::new(),
                    first_try: 0,
                    status: Some(503),
                    reason: Some(reason),
                    trials,
                };
            }
        }
    }
    // dispatchWithFallback: the route in order, skipping unknown and
    // unhealthy backends.
    let candidates: Vec<(String, Option<u32>)> = route
        .iter()
        .filter(|name| !unhealthy.contains(name))
        .filter_map(|name| config.backend(name).map(|b| (b.name.clone(), None)))
        .collect();
    let (status, reason) = if !candidates.is_empty() {
        (None, None)
    } else if fail_closed {
        (Some(503), Some("fail-closed: all rule backends unhealthy".to_string()))
    } else {
        (Some(502), Some("all backends failed".to_string()))
    };
    // The route is tried in order: the first candidate takes the request.
    let first_try = candidates.len().min(1);
    Decision { matched, strategy, candidates, first_try, status, reason, trials }
}

/// Where a request no rule took goes (`Matcher.Match` after the rules):
/// with `defaultRouteStrategy: BackendNameMatch`, the backend whose
/// published id (`backendByPublishedID`: its displayName, else its name)
/// is the model; else the default route; else nowhere.
pub fn fallback(config: &ProxyConfig, model: &str) -> Option<(Matched, String)> {
    let by_name = (config.default_route_strategy == "BackendNameMatch" && !model.is_empty())
        .then(|| config.backends.iter().find(|b| published_id(b) == model))
        .flatten();
    match by_name {
        Some(b) => Some((Matched::NameMatch(b.name.clone()), b.name.clone())),
        None if !config.default_route.is_empty() => Some((Matched::Default, config.default_route.clone())),
        None => None,
    }
}

/// The model id a backend is published as (`backendByPublishedID`, and
/// `/v1/models`): its displayName, else its name.
pub fn published_id(backend: &Backend) -> &str {
    if backend.display_name.is_empty() {
        &backend.name
    } else {
        &backend.display_name
    }
}

/// The backends `matched` routes to, as configured (unknown names
/// included: the dispatch loop skips them).
pub fn route_of(config: &ProxyConfig, matched: &Matched) -> Vec<String> {
    match matched {
        Matched::Rule(name) => {
            config.rules.iter().find(|r| r.name == *name).map(|r| r.route.backends.clone()).unwrap_or_default()
        }
        Matched::NameMatch(backend) => vec![backend.clone()],
        Matched::Default => vec![config.default_route.clone()],
        Matched::Nothing => Vec::new(),
    }
}

/// `strategyOrDefault`.
fn strategy_or_default(strategy: &str) -> String {
    if strategy.is_empty() {
        "primary-fallback".to_string()
    } else {
        strategy.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Upstream's `validConfig()` (config_test.go), as JSON.
    fn valid_config() -> serde_json::Value {
        json!({
            "backends": [
                {"name": "local-qwen", "tier": "local", "address": "http://qwen.svc:8080"},
                {"name": "cloud-opus", "tier": "cloud", "address": "https://api.anthropic.com",
                 "provider": "anthropic", "model": "claude-opus-4-7"}
            ],
            "rules": [{"name": "pii-stays-local", "match": {"dataClassification": ["pii"]},
                       "route": {"backends": ["local-qwen"]}, "failClosed": true}],
            "defaultRoute": "local-qwen",
            "policy": {"classification": {"mode": "header-only"}, "auditLog": {"sink": "stdout"}}
        })
    }

    fn config(v: serde_json::Value) -> ProxyConfig {
        serde_json::from_value(v).expect("a proxy config")
    }

    fn request(model: &str, headers: &[(&str, &str)]) -> Request {
        Request {
            model: (!model.is_empty()).then(|| model.to_string()),
            headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        }
    }

    fn class(c: &str) -> Vec<(&str, &str)> {
        vec![("x-llmkube-classification", c)]
    }

    /// What Go's server does before the proxy's handler, as a Go 1.19
    /// server answered these requests: values trimmed of the spaces and
    /// tabs around them, 400 for a control character (tab aside) or a
    /// name that is no token; bytes of 0x80 and above pass.
    #[test]
    fn requests_as_go_receives_them() {
        let cfg = config(json!({
            "backends": [{"name": "l", "tier": "local"}],
            "rules": [{"name": "team", "match": {"headers": {"x-team": "a b"}}, "route": {"backends": ["l"]}},
                      {"name": "pii", "match": {"dataClassification": ["pii"]}, "route": {"backends": ["l"]}}],
        }));
        let routed = |headers: &[(&str, &str)]| {
            let d = decide(&cfg, &request("", headers), &[]);
            (d.matched.label().to_string(), d.status)
        };
        assert_eq!(routed(&[("x-team", " \ta b\t ")]), ("team".into(), None));
        assert_eq!(routed(&[("x-team", "a\tb")]), ("none".into(), Some(503)));
        assert_eq!(routed(&[("x-llmkube-classification", "  PII ")]), ("pii".into(), None));
        for refused in [("x-team", "a\u{1}b"), ("x-team", "a\u{7f}b"), ("x-team", "a\nb"), ("x team", "a b"), ("", "a")]
        {
            let d = decide(&cfg, &request("", &[refused]), &[]);
            assert_eq!((d.matched.label(), d.status), ("none", Some(400)), "{refused:?}");
            assert!(d.reason.as_deref().is_some_and(|r| r.starts_with("Go's HTTP server refuses")), "{d:?}");
        }
        assert_eq!(routed(&[("x-team", "a b\u{85}")]), ("none".into(), Some(503)), "C1 bytes pass Go's check");
        assert!(is_valid_value("caf\u{e9}\u{85}\t"));
        assert_eq!(received_value(" \t x \t"), "x");
        assert!(features(&cfg, &request("", &[("x-team", "a\u{0}")])).refused);
    }

    /// The headers Go's server reads itself, as a Go 1.27 net/http server
    /// answered each of these requests on loopback: its status, or the
    /// header the handler saw.
    #[test]
    fn headers_go_reads_itself() {
        let cfg = config(json!({
            "backends": [{"name": "l", "tier": "local"}],
            "rules": [{"name": "len", "match": {"headers": {"content-length": "013"}}, "route": {"backends": ["l"]}}],
            "defaultRoute": "l",
        }));
        let status = |headers: &[(&str, &str)]| decide(&cfg, &request("", headers), &[]).status;
        let rule = |headers: &[(&str, &str)]| decide(&cfg, &request("", headers), &[]).matched.label().to_string();
        for (headers, want) in [
            (&[("Content-Length", "abc")][..], Some(400)),
            (&[("Content-Length", "+13")], Some(400)),
            (&[("Content-Length", "")], Some(400)),
            (&[("Content-Length", "13, 13")], Some(400)),
            (&[("Content-Length", "13"), ("Content-Length", "14")], Some(400)),
            (&[("Content-Length", "9223372036854775808")], Some(400)),
            (&[("Content-Length", "13"), ("Content-Length", " 13")], None),
            (&[("Transfer-Encoding", "gzip")], Some(501)),
            (&[("Transfer-Encoding", "chunked, gzip")], Some(501)),
            (&[("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")], Some(501)),
            (&[("Transfer-Encoding", "Chunked")], None),
            (&[("Transfer-Encoding", "gzip"), ("Content-Length", "abc")], Some(501)),
            (&[("Expect", "foo"), ("Content-Length", "abc")], Some(400)),
            (&[("Expect", "foo")], Some(417)),
            (&[("Expect", "100-CONTINUE")], None),
            (&[("Host", "a"), ("HOST", "b")], Some(400)),
            (&[("Host", "a b")], Some(400)),
            (&[("Host", "a\u{e9}")], Some(400)),
            (&[("Host", "[::1]:8080")], None),
            (&[("Host", "")], None),
            (&[("X-Key ", "v")], Some(400)),
            (&[(" X-Key", "v")], Some(400)),
            (&[("X-Key ", "v"), ("Transfer-Encoding", "gzip")], Some(501)),
            (&[("X-\u{212A}ey", "v"), ("Transfer-Encoding", "gzip")], Some(400)),
            (&[("X-Key", "a\u{b}b")], Some(400)),
            (&[("X-Key", "a\u{c}b")], Some(400)),
            (&[("X-Key", "a\rb")], Some(400)),
            (&[("X-Key", "\u{85}v\u{a0}")], None),
        ] {
            assert_eq!(status(headers), want, "{headers:?}");
        }
        // The value as sent stays in the headers; a chunked body drops it.
        assert_eq!(rule(&[("Content-Length", "013")]), "len");
        assert_eq!(rule(&[("Content-Length", "013"), ("Transfer-Encoding", "chunked")]), "default");
        assert_eq!(content_length("013"), Some(13));
        assert_eq!(content_length("9223372036854775807"), Some(i64::MAX as u64));
    }

    #[test]
    fn a_content_length_too_short_for_the_model_is_no_request() {
        assert_eq!(shortest_body("m"), 13, "{{\"model\":\"m\"}}");
        assert_eq!(shortest_body("a\"\u{1}é"), 12 + 1 + 2 + 6 + 2);
        let with = |model: Option<&str>, headers: &[(&str, &str)]| Request {
            model: model.map(str::to_string),
            headers: headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
        };
        // {"model":"gpt-4o"} is 18 bytes.
        assert_eq!(
            impossible_body(&with(Some("gpt-4o"), &[("Content-Length", "17")])).map(|(n, _)| n),
            Some("Content-Length")
        );
        assert!(impossible_body(&with(Some("gpt-4o"), &[("content-length", " 17 ")])).is_some());
        for possible in [
            with(Some("gpt-4o"), &[("Content-Length", "18")]),
            with(Some("gpt-4o"), &[("Content-Length", "17"), ("Transfer-Encoding", "chunked")]),
            with(Some("gpt-4o"), &[("Content-Length", "abc")]),
            with(Some("gpt-4o"), &[("Content-Length", "17"), ("Content-Length", "18")]),
            with(None, &[("Content-Length", "0")]),
            with(Some(""), &[("Content-Length", "0")]),
            with(Some("gpt-4o"), &[]),
        ] {
            assert_eq!(impossible_body(&possible), None, "{possible:?}");
        }
    }

    // A field of `testdata/go_http.tsv`, written as the `path.Match`
    // table's: `\\` is a backslash, `\xNN` a byte.
    use crate::routing::glob::tests::{rows, unescape};

    /// Every row of the table Go's own net/http server wrote
    /// (`scripts/go-http-table`): the status it answers a request with
    /// before any handler reads it, or 200. A row whose bytes are not
    /// UTF-8 is no request a RouterTest or a proxy log can hold, and is
    /// counted apart.
    #[test]
    fn refuses_as_go_does_on_the_table() {
        let table = rows(include_str!("testdata/go_http.tsv"));
        let mut checked = 0;
        let mut wrong = Vec::new();
        for fields in &table {
            let line = fields.join("\t");
            let (status, pairs) = fields.split_last().expect("a status");
            let want: u16 = status.parse().expect("a status code");
            assert!(pairs.len() % 2 == 0, "not name, value pairs: {line:?}");
            let headers: Option<Vec<(String, String)>> = pairs
                .chunks(2)
                .map(|p| Some((String::from_utf8(unescape(p[0])).ok()?, String::from_utf8(unescape(p[1])).ok()?)))
                .collect();
            let Some(headers) = headers else { continue };
            checked += 1;
            let got = refused_by_server(&Request { model: None, headers }).map_or(200, |(status, _)| status);
            if got != want {
                wrong.push(format!("{line}\twant {want}, got {got}"));
            }
        }
        // Each byte from 0x80 up, alone in a name, a value and a Host, is
        // no UTF-8: the rest are checked.
        let rows = table.len();
        assert_eq!(rows - checked, 3 * 128, "rows checked: {checked} of {rows}");
        assert!(wrong.is_empty(), "{} of {checked} rows disagree with Go:\n{}", wrong.len(), wrong.join("\n"));
    }

    /// match_test.go, case by case (features given there as headers here).
    #[test]
    fn upstream_match_tests() {
        let base = valid_config();
        let decide_with = |cfg: &serde_json::Value, model: &str, headers: &[(&str, &str)]| {
            decide(&config(cfg.clone()), &request(model, headers), &[])
        };
        // TestMatchPIIRouteWins
        let d = decide_with(&base, "", &class("pii"));
        assert_eq!((d.matched.label(), d.strategy.as_str()), ("pii-stays-local", "primary-fallback"));
        // TestMatchFallsThroughToDefault
        let d = decide_with(&base, "", &class("public"));
        assert_eq!((d.matched.clone(), d.backends()), (Matched::Default, vec!["local-qwen"]));
        // TestMatchReturnsEmptyWhenNoDefaultAndNoRule
        let mut none = base.clone();
        none["rules"] = json!(null);
        none["defaultRoute"] = json!("");
        let d = decide_with(&none, "", &class("public"));
        assert_eq!((d.matched.clone(), d.status), (Matched::Nothing, Some(503)));
        // TestMatchModelGlob
        let mut glob = base.clone();
        glob["rules"] =
            json!([{"name": "qwen-family", "match": {"models": ["qwen3-*"]}, "route": {"backends": ["local-qwen"]}}]);
        assert_eq!(decide_with(&glob, "qwen3-coder-30b", &[]).matched.label(), "qwen-family");
        assert_eq!(decide_with(&glob, "llama-3", &[]).matched, Matched::Default);
        // TestMatchHeadersCaseInsensitive
        let mut team = base.clone();
        team["rules"] = json!([{"name": "team-rule", "match": {"headers": {"X-Team": "research"}}, "route": {"backends": ["local-qwen"]}}]);
        assert_eq!(decide_with(&team, "", &[("x-team", "research")]).matched.label(), "team-rule");
        // TestMatchTaskComplexity
        let mut complexity = base.clone();
        complexity["rules"] = json!([{"name": "complex-to-cloud", "match": {"taskComplexity": "complex"}, "route": {"backends": ["cloud-opus"]}}]);
        assert_eq!(
            decide_with(&complexity, "", &[("x-llmkube-task-complexity", "complex")]).matched.label(),
            "complex-to-cloud"
        );
        assert_eq!(decide_with(&complexity, "", &[("x-llmkube-task-complexity", "simple")]).matched, Matched::Default);
        // TestMatchRequiredCapabilities
        let mut caps = base.clone();
        caps["backends"][0]["capabilities"] = json!(["code"]);
        caps["backends"][1]["capabilities"] = json!(["vision", "long-context"]);
        caps["rules"] = json!([{"name": "vision-rule", "match": {"models": ["*"], "requiredCapabilities": ["vision"]},
                                "route": {"backends": ["local-qwen", "cloud-opus"]}}]);
        let d = decide_with(&caps, "any", &[]);
        // Capabilities gate the rule; they do not filter its backends.
        assert_eq!((d.matched.label(), d.backends()), ("vision-rule", vec!["local-qwen", "cloud-opus"]));
        caps["backends"][1]["capabilities"] = json!(["long-context"]);
        assert_eq!(decide_with(&caps, "any", &[]).matched, Matched::Default);
        // TestMatchFirstRuleWins
        let mut first = base.clone();
        first["rules"] = json!([{"name": "first", "match": {"models": ["*"]}, "route": {"backends": ["local-qwen"]}},
                                {"name": "second", "match": {"models": ["*"]}, "route": {"backends": ["cloud-opus"]}}]);
        assert_eq!(decide_with(&first, "any-model", &[]).matched.label(), "first");
        // The BackendNameMatch family.
        let mut by_name = base.clone();
        by_name["defaultRouteStrategy"] = json!("BackendNameMatch");
        let d = decide_with(&by_name, "cloud-opus", &class("public"));
        assert_eq!((d.matched.clone(), d.backends()), (Matched::NameMatch("cloud-opus".into()), vec!["cloud-opus"]));
        assert_eq!(decide_with(&by_name, "ghost-model", &class("public")).backends(), ["local-qwen"]);
        assert_eq!(decide_with(&by_name, "cloud-opus", &class("pii")).matched.label(), "pii-stays-local");
        let mut stat = base.clone();
        stat["defaultRouteStrategy"] = json!("Static");
        assert_eq!(decide_with(&stat, "cloud-opus", &class("public")).backends(), ["local-qwen"]);
        let mut no_default = by_name.clone();
        no_default["rules"] = json!(null);
        no_default["defaultRoute"] = json!("");
        assert_eq!(decide_with(&no_default, "ghost-model", &[]).status, Some(503));
        let mut empty_model = by_name.clone();
        empty_model["rules"] = json!(null);
        assert_eq!(decide_with(&empty_model, "", &[]).backends(), ["local-qwen"]);
        let mut display = empty_model.clone();
        display["backends"][1]["displayName"] = json!("claude-opus-4-20250514");
        assert_eq!(decide_with(&display, "claude-opus-4-20250514", &[]).backends(), ["cloud-opus"]);
        assert_eq!(decide_with(&display, "cloud-opus", &[]).backends(), ["local-qwen"]);
        assert_eq!(decide_with(&empty_model, "cloud-opus", &[]).backends(), ["cloud-opus"]);
    }

    /// proxy_test.go's routing outcomes on its harness config.
    #[test]
    fn upstream_proxy_tests() {
        let mut harness = valid_config();
        harness["rules"] = json!([
            {"name": "pii-stays-local", "match": {"dataClassification": ["pii"]}, "route": {"backends": ["local-qwen"]}, "failClosed": true},
            {"name": "complex-to-cloud", "match": {"taskComplexity": "complex"}, "route": {"backends": ["cloud-opus", "local-qwen"]}}
        ]);
        let cfg = config(harness);
        let down = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        // TestProxyRoutesPIIToLocal
        assert_eq!(decide(&cfg, &request("any", &class("pii")), &[]).backends(), ["local-qwen"]);
        // TestProxyRoutesComplexToCloud
        let complex = [("x-llmkube-task-complexity", "complex")];
        assert_eq!(decide(&cfg, &request("any", &complex), &[]).backends(), ["cloud-opus", "local-qwen"]);
        // TestProxyFallsThroughToDefault
        assert_eq!(decide(&cfg, &request("any", &[]), &[]).backends(), ["local-qwen"]);
        // TestProxyFailClosedOnLocalDown: 503, cloud never called.
        let d = decide(&cfg, &request("any", &class("pii")), &down(&["local-qwen"]));
        assert_eq!((d.status, d.backends()), (Some(503), vec![]));
        // TestProxyNonFailClosedReturns502OnAllBackendsDown
        assert_eq!(decide(&cfg, &request("any", &[]), &down(&["local-qwen", "cloud-opus"])).status, Some(502));
        // TestProxyPrimaryFallbackOnUpstream5xx: cloud failing, local serves.
        assert_eq!(decide(&cfg, &request("any", &complex), &down(&["cloud-opus"])).backends(), ["local-qwen"]);
        // TestProxy503WhenNoRoute
        let bare = config(json!({"backends": [{"name": "x", "tier": "local", "address": "http://nowhere.invalid"}]}));
        assert_eq!(decide(&bare, &request("any", &[]), &[]).status, Some(503));
    }

    /// The classification and complexity values are lower-cased as Go's
    /// `strings.ToLower` does (one simple mapping per char), not as Rust's
    /// `to_lowercase`: `Pİİ` is `pii` (Rust: `pi\u{307}i\u{307}`), `ΠΙΣ` is
    /// `πισ` (Rust: `πις`).
    #[test]
    fn header_values_are_lowered_the_way_go_does() {
        let base = config(valid_config());
        let f = features(&base, &request("", &class("Pİİ")));
        assert_eq!(f.classification, "pii");
        assert_eq!(decide(&base, &request("", &class("Pİİ")), &[]).matched.label(), "pii-stays-local");
        let f = features(
            &base,
            &request("", &[("X-LLMKube-Task-Complexity", "ΠΙΣ"), ("x-llmkube-classification", "\u{212A}")]),
        );
        assert_eq!((f.task_complexity.as_str(), f.classification.as_str()), ("πισ", "k"));
        let mut greek = valid_config();
        greek["rules"] =
            json!([{"name": "greek", "match": {"taskComplexity": "πισ"}, "route": {"backends": ["cloud-opus"]}}]);
        let greek = config(greek);
        assert_eq!(decide(&greek, &request("", &[("x-llmkube-task-complexity", "ΠΙΣ")]), &[]).matched.label(), "greek");
        // A header name is found in any ASCII case.
        assert_eq!(features(&base, &request("", &[("X-LLMKUBE-CLASSIFICATION", "PII")])).classification, "pii");
    }

    /// enforceFailClosed's table (pure_test.go), and upstream's case
    /// handling: classification lower-cased, rule values compared exactly.
    #[test]
    fn fail_closed_gate_and_case_handling() {
        let mut cfg = valid_config();
        let gate = |route: &[&str], fail_closed: bool, class_: &str, cfg: &mut serde_json::Value| {
            cfg["rules"] = json!([{"name": "r", "match": {}, "route": {"backends": route}, "failClosed": fail_closed}]);
            decide(&config(cfg.clone()), &request("", &class(class_)), &[]).status
        };
        assert_eq!(gate(&["ghost"], true, "pii", &mut cfg), Some(503));
        assert_eq!(gate(&["cloud-opus"], true, "pii", &mut cfg), Some(503));
        assert_eq!(gate(&["cloud-opus"], true, "public", &mut cfg), None);
        assert_eq!(gate(&["cloud-opus"], false, "pii", &mut cfg), None);
        assert_eq!(gate(&["local-qwen"], true, "pii", &mut cfg), None);
        // `PII` in the header is read as `pii`; a rule written `PII` never matches.
        let base = config(valid_config());
        assert_eq!(decide(&base, &request("", &class("PII")), &[]).matched.label(), "pii-stays-local");
        let mut upper = valid_config();
        upper["rules"][0]["match"]["dataClassification"] = json!(["PII"]);
        assert_eq!(decide(&config(upper), &request("", &class("pii")), &[]).matched, Matched::Default);
        // The policy's list replaces the defaults.
        let mut custom = valid_config();
        custom["policy"]["classification"]["sensitiveClassifications"] = json!(["secret"]);
        assert!(config(custom.clone()).is_sensitive("secret") && !config(custom).is_sensitive("pii"));
    }

    /// pure_test.go's matchModels table, and Go's path.Match rules.
    #[test]
    fn model_globs_follow_go_path_match() {
        let m = |patterns: &[&str], model: &str| {
            match_models(&patterns.iter().map(|p| p.to_string()).collect::<Vec<_>>(), model)
        };
        assert!(m(&[], "any-model"));
        assert!(m(&["*"], "") && m(&["qwen3-*", "*"], "") && !m(&["qwen3-*"], ""));
        assert!(m(&["qwen3-coder"], "qwen3-coder") && m(&["*coder"], "qwen3-coder"));
        assert!(m(&["qwen3-*"], "qwen3-coder-30b") && m(&["qwen3-*-30b"], "qwen3-coder-30b"));
        assert!(!m(&["llama-*"], "qwen3-coder") && m(&["llama-*", "qwen3-*"], "qwen3-coder"));
        assert!(!m(&["llama-*", "mistral-*"], "qwen3-coder"));
        // `*` does not cross `/`.
        assert!(!m(&["*"], "org/model") && m(&["org/*"], "org/model"));
        // Go's path.Match itself is `glob`'s to test; a malformed pattern
        // matches nothing, and does not stop the next from matching.
        assert!(!m(&["[", "a\\"], "a") && m(&["[", "a*"], "a"));
    }
}
