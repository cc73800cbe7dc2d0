//! The config compiler: a defaulted ModelRouter spec → the router-proxy's
//! JSON config (`config.json` in the ConfigMap) and its SHA-256 hash.
//!
//! The wire structs mirror the proxy's Go structs field for field, in
//! declaration order, with their `omitempty` rules; `to_gojson` is where that
//! order lives. The bytes are Go's `json.MarshalIndent(cfg, "", "  ")`.

use std::collections::BTreeMap;

use anyhow::{bail, Context as _, Result};
use sha2::{Digest, Sha256};

use super::input::{Inventory, OperatorFlags};
use crate::diagnostic::{rules, Diagnostic};
use crate::kube::gojson::{marshal_indent, GoJson};
use crate::kube::names::inference_service_host;
use crate::model::duration::parse_at;
use crate::model::{
    router_key, ModelRouter, RouterBackend, RouterPolicy, RouterRule, DEFAULT_SWAP_BUDGET, HEADER_ONLY,
};
use crate::release::Change;

/// The proxy config, as the proxy's `router.Config` declares it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Config {
    pub backends: Vec<Backend>,
    pub rules: Vec<Rule>,
    pub default_route: String,
    pub default_route_strategy: String,
    pub policy: Policy,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Backend {
    pub name: String,
    pub display_name: String,
    pub tier: String,
    pub address: String,
    pub provider: String,
    pub model: String,
    pub capabilities: Vec<String>,
    pub weight: i64,
    pub credentials_env: String,
    /// Nanoseconds.
    pub timeout: i64,
    pub pool: Option<BackendPool>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct BackendPool {
    pub name: String,
    pub namespace: String,
    pub member: String,
    pub members: Vec<String>,
    /// Nanoseconds.
    pub swap_budget: i64,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rule {
    pub name: String,
    pub match_: RuleMatch,
    pub route: RuleRoute,
    pub fail_closed: bool,
    /// Nanoseconds.
    pub timeout: i64,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RuleMatch {
    pub data_classification: Vec<String>,
    pub task_complexity: String,
    pub required_capabilities: Vec<String>,
    pub headers: BTreeMap<String, String>,
    pub models: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RuleRoute {
    pub backends: Vec<String>,
    pub strategy: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Policy {
    pub classification_mode: String,
    pub classification_header_key: String,
    pub sensitive_classifications: Vec<String>,
    pub audit_sink: String,
    pub audit_file_path: String,
    pub audit_include_request_body: bool,
}

/// Builds a Go struct's JSON object: fields in declaration order, with the
/// `omitempty` ones left out when they hold their zero value.
struct GoStruct(Vec<(String, GoJson)>);

impl GoStruct {
    fn new() -> Self {
        GoStruct(Vec::new())
    }
    fn field(mut self, key: &str, v: GoJson) -> Self {
        self.0.push((key.to_string(), v));
        self
    }
    fn str(self, key: &str, s: &str) -> Self {
        self.field(key, GoJson::Str(s.to_string()))
    }
    fn str_omitempty(self, key: &str, s: &str) -> Self {
        if s.is_empty() {
            self
        } else {
            self.str(key, s)
        }
    }
    fn int_omitempty(self, key: &str, n: i64) -> Self {
        if n == 0 {
            self
        } else {
            self.field(key, GoJson::Int(n))
        }
    }
    fn bool_omitempty(self, key: &str, b: bool) -> Self {
        if b {
            self.field(key, GoJson::Bool(true))
        } else {
            self
        }
    }
    fn strings_omitempty(self, key: &str, v: &[String]) -> Self {
        if v.is_empty() {
            self
        } else {
            self.field(key, strings(v))
        }
    }
    fn build(self) -> GoJson {
        GoJson::Object(self.0)
    }
}

/// A Go `[]string` without omitempty: a nil slice encodes as `null`.
fn strings_or_null(v: &[String]) -> GoJson {
    if v.is_empty() {
        GoJson::Null
    } else {
        strings(v)
    }
}

fn strings(v: &[String]) -> GoJson {
    GoJson::Array(v.iter().map(|s| GoJson::Str(s.clone())).collect())
}

impl Config {
    pub fn to_gojson(&self) -> GoJson {
        // `backends` has no omitempty and the compiler always allocates it, so
        // it is `[]` rather than `null` even when empty.
        let backends = GoJson::Array(self.backends.iter().map(Backend::to_gojson).collect());
        let mut s = GoStruct::new().field("backends", backends);
        if !self.rules.is_empty() {
            s = s.field("rules", GoJson::Array(self.rules.iter().map(Rule::to_gojson).collect()));
        }
        s.str_omitempty("defaultRoute", &self.default_route)
            .str_omitempty("defaultRouteStrategy", &self.default_route_strategy)
            .field("policy", self.policy.to_gojson())
            .build()
    }

    /// The exact bytes the operator writes into the ConfigMap.
    pub fn to_json(&self) -> String {
        marshal_indent(&self.to_gojson(), "", "  ")
    }

    /// The proxy's own `Config.Validate`: a config failing it is a compile
    /// failure, and the operator changes nothing.
    pub fn validate(&self) -> Result<()> {
        if self.backends.is_empty() {
            bail!("backends must be non-empty");
        }
        let mut names = std::collections::HashSet::new();
        for (i, b) in self.backends.iter().enumerate() {
            if b.name.is_empty() {
                bail!("backends[{i}]: name is required");
            }
            if !names.insert(b.name.as_str()) {
                bail!("backends[{i}]: duplicate name {:?}", b.name);
            }
            if b.tier != "local" && b.tier != "cloud" {
                bail!("backends[{i}] {}: tier must be local or cloud, got {:?}", b.name, b.tier);
            }
            if b.address.is_empty() {
                bail!("backends[{i}] {}: address is required", b.name);
            }
        }
        if !self.default_route.is_empty() && !names.contains(self.default_route.as_str()) {
            bail!("defaultRoute {:?} does not name an existing backend", self.default_route);
        }
        match self.default_route_strategy.as_str() {
            "" | "Static" | "BackendNameMatch" => {}
            other => {
                bail!("defaultRouteStrategy {other:?} must be \"Static\" or \"BackendNameMatch\"")
            }
        }
        for (i, r) in self.rules.iter().enumerate() {
            if r.name.is_empty() {
                bail!("rules[{i}]: name is required");
            }
            if r.route.backends.is_empty() {
                bail!("rules[{i}] {}: route.backends must be non-empty", r.name);
            }
            for (j, name) in r.route.backends.iter().enumerate() {
                if !names.contains(name.as_str()) {
                    bail!("rules[{i}] {}: route.backends[{j}] {name:?} does not name an existing backend", r.name);
                }
            }
        }
        Ok(())
    }
}

impl Backend {
    fn to_gojson(&self) -> GoJson {
        let mut s = GoStruct::new()
            .str("name", &self.name)
            .str_omitempty("displayName", &self.display_name)
            .str("tier", &self.tier)
            .str("address", &self.address)
            .str_omitempty("provider", &self.provider)
            .str_omitempty("model", &self.model)
            .strings_omitempty("capabilities", &self.capabilities)
            .int_omitempty("weight", self.weight)
            .str_omitempty("credentialsEnv", &self.credentials_env)
            .int_omitempty("timeout", self.timeout);
        if let Some(pool) = &self.pool {
            s = s.field("pool", pool.to_gojson());
        }
        s.build()
    }
}

impl BackendPool {
    fn to_gojson(&self) -> GoJson {
        GoStruct::new()
            .str("name", &self.name)
            .str("namespace", &self.namespace)
            .str("member", &self.member)
            .strings_omitempty("members", &self.members)
            .int_omitempty("swapBudget", self.swap_budget)
            .build()
    }
}

impl Rule {
    fn to_gojson(&self) -> GoJson {
        // omitempty never drops a struct in Go, so `match` is at least `{}`.
        let m = &self.match_;
        let mut ms = GoStruct::new()
            .strings_omitempty("dataClassification", &m.data_classification)
            .str_omitempty("taskComplexity", &m.task_complexity)
            .strings_omitempty("requiredCapabilities", &m.required_capabilities);
        if !m.headers.is_empty() {
            let headers = m.headers.iter().map(|(k, v)| (k.clone(), GoJson::Str(v.clone()))).collect();
            ms = ms.field("headers", GoJson::Object(headers));
        }
        let ms = ms.strings_omitempty("models", &m.models);
        let route = GoStruct::new()
            .field("backends", strings_or_null(&self.route.backends))
            .str_omitempty("strategy", &self.route.strategy)
            .build();
        GoStruct::new()
            .str("name", &self.name)
            .field("match", ms.build())
            .field("route", route)
            .bool_omitempty("failClosed", self.fail_closed)
            .int_omitempty("timeout", self.timeout)
            .build()
    }
}

impl Policy {
    fn to_gojson(&self) -> GoJson {
        let classification = GoStruct::new()
            .str("mode", &self.classification_mode)
            .str_omitempty("headerKey", &self.classification_header_key)
            .strings_omitempty("sensitiveClassifications", &self.sensitive_classifications)
            .build();
        let audit = GoStruct::new()
            .str("sink", &self.audit_sink)
            .str_omitempty("filePath", &self.audit_file_path)
            .bool_omitempty("includeRequestBody", self.audit_include_request_body)
            .build();
        GoStruct::new().field("classification", classification).field("auditLog", audit).build()
    }
}

/// The compiled config, with everything the other builders need from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    pub config: Config,
    /// `config.json`, byte for byte.
    pub json: String,
    /// Lowercase hex SHA-256 of `json`.
    pub hash: String,
    /// True when a backend resolved to a ModelPool member: activation RBAC,
    /// one replica and `--enable-activation` follow.
    pub has_pools: bool,
    /// Things the operator would only know on a cluster (a missing
    /// InferenceService assumed to exist, for one): errors with `--strict`.
    pub warnings: Vec<Diagnostic>,
}

/// Lowercase hex SHA-256.
pub fn config_hash(json: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(json.as_bytes());
    digest.iter().flat_map(|b| [char::from(HEX[usize::from(b >> 4)]), char::from(HEX[usize::from(b & 15)])]).collect()
}

/// Compiles a defaulted, namespaced ModelRouter as the operator's
/// `compileRouterConfig` does, resolving backends against `inventory`.
pub fn compile(mr: &ModelRouter, namespace: &str, inventory: &Inventory, flags: &OperatorFlags) -> Result<Compiled> {
    let spec = &mr.spec;
    let router_name = mr.metadata.name.as_deref().unwrap_or_default();
    let mut warnings = Vec::new();
    let mut backends = Vec::with_capacity(spec.backends.len());
    for (i, b) in spec.backends.iter().enumerate() {
        backends.push(resolve_backend(i, b, router_name, namespace, inventory, flags, &mut warnings)?);
    }
    let mut rules = Vec::new();
    for (i, r) in spec.rules.iter().flatten().enumerate() {
        rules.push(translate_rule(i, r)?);
    }
    let config = Config {
        backends,
        rules,
        default_route: spec.default_route.clone().unwrap_or_default(),
        default_route_strategy: spec.default_route_strategy.clone().unwrap_or_default(),
        policy: translate_policy(spec.policy.as_ref()),
    };
    config.validate().context("compiled router config failed validation")?;
    let json = config.to_json();
    let hash = config_hash(&json);
    let has_pools = config.backends.iter().any(|b| b.pool.is_some());
    Ok(Compiled { config, json, hash, has_pools, warnings })
}

fn duration_field(path: &str, value: Option<&String>) -> Result<i64> {
    match value {
        None => Ok(0),
        Some(s) => parse_at(path, s),
    }
}

/// The assumption a backend's InferenceService reference makes offline:
/// one not in the inputs is assumed to exist on port 8080, with a warning
/// (an error with `--strict`, said with every other finding of the run;
/// the render goes on as without the flag). `None` when it is in them.
pub fn missing_inference_service(
    i: usize,
    b: &RouterBackend,
    router_name: &str,
    namespace: &str,
    inventory: &Inventory,
    flags: &OperatorFlags,
) -> Option<Diagnostic> {
    let isr = b.inference_service_ref.as_ref()?;
    if inventory.inference_service(namespace, &isr.name).is_some() {
        return None;
    }
    let msg = format!("backend {:?} references InferenceService {:?}, which is not in the inputs", b.name, isr.name);
    let finding = if flags.strict {
        Diagnostic::error(rules::RENDER, msg)
            .hint("add its YAML with -f, or drop --strict to assume it exists on port 8080")
    } else {
        Diagnostic::warning(rules::RENDER, format!("{msg}; assuming it exists with the default port 8080"))
    };
    let field = format!("spec.backends[{i}].inferenceServiceRef.name");
    Some(finding.on(router_key(namespace, router_name)).field(field))
}

fn resolve_backend(
    i: usize,
    b: &RouterBackend,
    router_name: &str,
    namespace: &str,
    inventory: &Inventory,
    flags: &OperatorFlags,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Backend> {
    let release = flags.release;
    let mut wire = Backend {
        name: b.name.clone(),
        // v0.8.17 had the field in the CRD and the wire struct but left it
        // empty; v0.8.18 (#849) fills it.
        display_name: match release.has(Change::DisplayNameInConfig) {
            true => b.display_name.clone().unwrap_or_default(),
            false => String::new(),
        },
        tier: b.tier.clone().unwrap_or_default(),
        capabilities: b.capabilities.clone().unwrap_or_default(),
        weight: b.weight.map(i64::from).unwrap_or(0),
        timeout: duration_field(&format!("spec.backends[{i}].timeout"), b.timeout.as_ref())?,
        ..Backend::default()
    };
    if let Some(isr) = &b.inference_service_ref {
        if wire.tier.is_empty() {
            wire.tier = "local".into();
        }
        let port = match inventory.inference_service(namespace, &isr.name) {
            Some(isvc) => isvc.port(),
            None => {
                warnings.extend(missing_inference_service(i, b, router_name, namespace, inventory, flags));
                8080
            }
        };
        wire.address = format!("http://{}:{port}", inference_service_host(&isr.name, namespace));
        // Before v0.9.16 (#1393) the operator knows no ModelPools.
        if release.has(Change::ModelPoolActivation) {
            wire.pool = resolve_pool(namespace, &isr.name, inventory)?;
        }
    } else if let Some(ext) = &b.external {
        if wire.tier.is_empty() {
            wire.tier = "cloud".into();
        }
        wire.provider = ext.provider.clone();
        wire.model = ext.model.clone();
        wire.address = match ext.url.as_deref().filter(|u| !u.is_empty()) {
            Some(url) => url.to_string(),
            None => match ext.provider.as_str() {
                "anthropic" => "https://api.anthropic.com".into(),
                "openai" => "https://api.openai.com".into(),
                "litellm" => flags.default_litellm_url.clone().unwrap_or_default(),
                _ => String::new(),
            },
        };
        if wire.address.is_empty() {
            // Without an address the operator records the backend unhealthy
            // and Validate then refuses the whole config.
            let hint = if ext.provider == "litellm" {
                "set spec.backends[].external.url or pass --default-litellm-url"
            } else {
                "set spec.backends[].external.url (this provider has no built-in default)"
            };
            bail!("spec.backends[{i}] {:?}: external provider {:?} has no url; {hint}", b.name, ext.provider);
        }
        if ext.credentials_secret_ref.is_some() {
            wire.credentials_env = well_known_credentials_env(&ext.provider).to_string();
        }
    }
    Ok(wire)
}

/// The environment variable the proxy reads a provider's key from.
fn well_known_credentials_env(provider: &str) -> &'static str {
    match provider {
        "anthropic" => "ANTHROPIC_API_KEY",
        "openai" => "OPENAI_API_KEY",
        "litellm" => "LITELLM_MASTER_KEY",
        "bedrock" => "AWS_ACCESS_KEY_ID",
        "vertex_ai" => "GOOGLE_APPLICATION_CREDENTIALS",
        _ => "",
    }
}

/// The first ModelPool in `namespace` (input order) listing `member`.
fn resolve_pool(namespace: &str, member: &str, inventory: &Inventory) -> Result<Option<BackendPool>> {
    for pool in inventory.pools_in(namespace) {
        let members: Vec<String> = pool.spec.members.iter().map(|m| m.inference_service_ref.name.clone()).collect();
        if !members.iter().any(|m| m == member) {
            continue;
        }
        let pool_name = pool.metadata.name.clone().unwrap_or_default();
        let budget = pool.spec.swap_budget.as_deref().unwrap_or(DEFAULT_SWAP_BUDGET);
        let swap_budget = parse_at(&format!("ModelPool {namespace}/{pool_name}: spec.swapBudget"), budget)?;
        return Ok(Some(BackendPool {
            name: pool_name,
            namespace: namespace.to_string(),
            member: member.to_string(),
            members,
            swap_budget,
        }));
    }
    Ok(None)
}

fn translate_rule(i: usize, r: &RouterRule) -> Result<Rule> {
    let match_ = match &r.match_ {
        None => RuleMatch::default(),
        Some(m) => RuleMatch {
            data_classification: m.data_classification.clone().unwrap_or_default(),
            task_complexity: m.task_complexity.clone().unwrap_or_default(),
            required_capabilities: m.required_capabilities.clone().unwrap_or_default(),
            headers: m.headers.clone().unwrap_or_default(),
            models: m.models.clone().unwrap_or_default(),
        },
    };
    Ok(Rule {
        name: r.name.clone(),
        match_,
        route: RuleRoute { backends: r.route.backends.clone(), strategy: r.route.strategy.clone().unwrap_or_default() },
        fail_closed: r.fail_closed.unwrap_or(false),
        timeout: duration_field(&format!("spec.rules[{i}].timeout"), r.timeout.as_ref())?,
    })
}

/// Budgets and auth are enforced elsewhere and are not part of the config.
fn translate_policy(p: Option<&RouterPolicy>) -> Policy {
    let mut out = Policy { classification_mode: HEADER_ONLY.into(), audit_sink: "stdout".into(), ..Policy::default() };
    let Some(p) = p else { return out };
    if let Some(c) = &p.classification {
        out.classification_mode = c.mode.clone().filter(|m| !m.is_empty()).unwrap_or_else(|| HEADER_ONLY.into());
        out.classification_header_key = c.header_key.clone().unwrap_or_default();
        out.sensitive_classifications = c.sensitive_classifications.clone().unwrap_or_default();
    }
    if let Some(a) = &p.audit_log {
        out.audit_sink = a.sink.clone().filter(|s| !s.is_empty()).unwrap_or_else(|| "stdout".into());
        out.audit_file_path = a.file_path.clone().unwrap_or_default();
        out.audit_include_request_body = a.include_request_body.unwrap_or(false);
    }
    out
}
