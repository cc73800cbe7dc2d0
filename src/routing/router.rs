//! One ModelRouter as routing asks it, on one data plane: what decides (the
//! proxy's compiled `config.json`, or the rendered AIGatewayRoute with
//! what each of its rules was compiled from), the routes a request can
//! take, and the facts about its backends and classifications that the
//! checks read (tier, external, the sensitive set). Built from what
//! `render` wrote; nothing here computes the operator's output again.

use std::collections::HashMap;

use anyhow::Result;
use serde_json::Value;

use super::gateway::{self, RouteRule};
use super::proxy::{self, ProxyConfig};
use super::{Decision, Matched, Request};
use crate::diagnostic::Place;
use crate::input::Document;
use crate::kube::names::gateway_backend_name;
use crate::model::{classification_header, sensitive_classifications, DataPlane, ModelRouterSpec};
use crate::render::gateway::rules::RuleOrigin;

/// What the checks need to know of a backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendFacts {
    pub name: String,
    /// As stored: the CRD defaults an absent tier to `local`, external
    /// backends included.
    pub tier: String,
    /// The provider of an external backend.
    pub provider: Option<String>,
}

impl BackendFacts {
    /// Whether a request dispatched here leaves the cluster: a backend
    /// whose tier is not `local` (the proxy's own test), or any external
    /// one, whatever tier it says.
    pub fn leaves_cluster(&self) -> bool {
        self.tier != "local" || self.provider.is_some()
    }
}

/// How one data plane decides.
#[derive(Debug, Clone)]
pub enum Plane {
    Proxy(Box<ProxyConfig>),
    Gateway {
        rules: Vec<RouteRule>,
        /// Backend names as the route writes them → as the ModelRouter does.
        names: HashMap<String, String>,
    },
}

/// One router on one data plane.
#[derive(Debug, Clone)]
pub struct Router {
    /// `namespace/name`.
    pub id: String,
    pub name: String,
    pub plane: Plane,
    /// Every route a request may take: the rules' names, then `name-match`
    /// and `default` when configured.
    pub routes: Vec<String>,
    /// The backends, in the ModelRouter's order.
    pub backends: Vec<BackendFacts>,
    /// The classification header, lower-cased.
    pub class_header: String,
    /// The sensitive classifications (the policy's, or `pii`, `phi`).
    pub sensitive: Vec<String>,
    /// Where the ModelRouter was read, when it was.
    pub origin: Option<Place>,
    /// Where the fields a finding may name are written, when the router
    /// was read from a document (`Places::of`).
    pub places: Option<Places>,
    /// `spec.rules` as written, in order (empty for a router known only by
    /// its compiled config): where a finding about a rule is placed.
    pub spec_rules: Vec<SpecRule>,
}

/// Where the fields a finding of `verify` may name are written: `spec`,
/// its default route and strategy, and every field under `spec.rules`.
/// Kept instead of the document, whose positions of every field a fleet
/// of routers would hold until the last is verified.
#[derive(Debug, Clone)]
pub struct Places {
    at: HashMap<String, Place>,
    /// The document's first line, for a path not written.
    document: Place,
}

impl Places {
    pub fn of(document: &Document) -> Places {
        let mut at = HashMap::new();
        for path in ["spec", "spec.defaultRoute", "spec.defaultRouteStrategy"] {
            at.insert(path.to_string(), document.place(path));
        }
        at.extend(document.places_under("spec.rules"));
        Places { at, document: document.place("") }
    }

    /// Where `path` is written, or its nearest written ancestor's place.
    fn place(&self, path: &str) -> Place {
        self.at.get(path).cloned().unwrap_or_else(|| self.document.clone())
    }
}

/// A rule of `spec.rules` as written: its name and its route's backends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecRule {
    pub name: String,
    pub backends: Vec<String>,
}

/// Facts read off a (defaulted) ModelRouter spec.
fn spec_facts(spec: &ModelRouterSpec) -> (Vec<BackendFacts>, String, Vec<String>) {
    let backends = spec
        .backends
        .iter()
        .map(|b| BackendFacts {
            name: b.name.clone(),
            tier: b.tier.clone().unwrap_or_else(|| "local".to_string()),
            provider: b.external.as_ref().map(|e| e.provider.clone()),
        })
        .collect();
    // Looked up as the proxy does: lower-cased by Go's `strings.ToLower`.
    let header = proxy::lower_value(classification_header(spec));
    let sensitive = sensitive_classifications(spec).into_iter().map(str::to_string).collect();
    (backends, header, sensitive)
}

/// `spec.rules`, in order.
fn rule_names(spec: &ModelRouterSpec) -> Vec<SpecRule> {
    spec.rules.iter().flatten().map(|r| SpecRule { name: r.name.clone(), backends: r.route.backends.clone() }).collect()
}

impl Router {
    /// A Proxy-plane router from its compiled `config.json` and its spec.
    pub fn proxy(id: String, name: String, config_json: &str, spec: &ModelRouterSpec) -> Result<Router> {
        let config = ProxyConfig::from_json(config_json)?;
        let (backends, _, _) = spec_facts(spec);
        let mut router = Router::from_config(id, name, config);
        router.backends = backends;
        router.spec_rules = rule_names(spec);
        Ok(router)
    }

    /// A Proxy-plane router from a `config.json` alone (a live ConfigMap's):
    /// backends are external when the config names a provider.
    pub fn from_config(id: String, name: String, config: ProxyConfig) -> Router {
        let mut routes: Vec<String> = config.rules.iter().map(|r| r.name.clone()).collect();
        if config.default_route_strategy == "BackendNameMatch" {
            routes.push("name-match".into());
        }
        if !config.default_route.is_empty() {
            routes.push("default".into());
        }
        let backends = config
            .backends
            .iter()
            .map(|b| BackendFacts {
                name: b.name.clone(),
                tier: if b.tier.is_empty() { "local".into() } else { b.tier.clone() },
                provider: (!b.provider.is_empty()).then(|| b.provider.clone()),
            })
            .collect();
        let class_header = proxy::lower_value(&config.classification_header());
        let sensitive = config.sensitive_set();
        Router {
            id,
            name,
            plane: Plane::Proxy(Box::new(config)),
            routes,
            backends,
            class_header,
            sensitive,
            origin: None,
            places: None,
            spec_rules: Vec::new(),
        }
    }

    /// A Gateway-plane router from its rendered AIGatewayRoute and what
    /// each of its rules was compiled from (`GatewayRendered::origins`).
    pub fn gateway(
        id: String,
        name: String,
        route: &Value,
        origins: &[RuleOrigin],
        spec: &ModelRouterSpec,
    ) -> Result<Router> {
        let (backends, class_header, sensitive) = spec_facts(spec);
        let mut routes: Vec<String> = Vec::new();
        for origin in origins {
            let route = match origin {
                RuleOrigin::Rule(name) => name.as_str(),
                RuleOrigin::NameMatch(_) => "name-match",
                RuleOrigin::Default => "default",
            };
            if !routes.iter().any(|r| r == route) {
                routes.push(route.to_string());
            }
        }
        let names = backends.iter().map(|b| (gateway_backend_name(&b.name), b.name.clone())).collect();
        let rules = gateway::route_rules(route, origins)?;
        Ok(Router {
            id,
            name,
            plane: Plane::Gateway { rules, names },
            routes,
            backends,
            class_header,
            sensitive,
            origin: None,
            places: None,
            spec_rules: rule_names(spec),
        })
    }

    pub fn data_plane(&self) -> DataPlane {
        match self.plane {
            Plane::Proxy(_) => DataPlane::Proxy,
            Plane::Gateway { .. } => DataPlane::Gateway,
        }
    }

    /// Where `request` goes with the backends in `unhealthy` down.
    pub fn decide(&self, request: &Request, unhealthy: &[String]) -> Decision {
        match &self.plane {
            Plane::Proxy(config) => proxy::decide(config, request, unhealthy),
            Plane::Gateway { rules, names } => {
                let unhealthy: Vec<String> = unhealthy.iter().map(|b| gateway_backend_name(b)).collect();
                let mut decision = gateway::decide(rules, request, &unhealthy);
                for (name, _) in &mut decision.candidates {
                    if let Some(original) = names.get(name) {
                        name.clone_from(original);
                    }
                }
                decision
            }
        }
    }

    /// [`Router::decide`] without the trials: the same decision, cheaper,
    /// for deciding many requests.
    pub fn decide_quietly(&self, request: &Request, unhealthy: &[String]) -> Decision {
        match &self.plane {
            Plane::Proxy(config) => proxy::decide_quietly(config, request, unhealthy),
            Plane::Gateway { .. } => {
                let mut decision = self.decide(request, unhealthy);
                decision.trials = Vec::new();
                decision
            }
        }
    }

    pub fn backend(&self, name: &str) -> Option<&BackendFacts> {
        self.backends.iter().find(|b| b.name == name)
    }

    pub fn has_backend(&self, name: &str) -> bool {
        self.backend(name).is_some()
    }

    /// The classification the proxy reads from a request (the header's
    /// first value as Go's server hands it on, lower-cased as Go's
    /// `strings.ToLower` does), whatever
    /// the plane: what the request *is* does not depend on who routes it.
    pub fn classification(&self, request: &Request) -> String {
        request
            .headers
            .iter()
            .find(|(name, _)| proxy::lower_value(name) == self.class_header)
            .map(|(_, value)| proxy::lower_value(proxy::received_value(value)))
            .unwrap_or_default()
    }

    pub fn is_sensitive(&self, class: &str) -> bool {
        self.sensitive.iter().any(|s| s == class)
    }

    /// The field path of the rule named `rule` in the ModelRouter
    /// (`spec.rules[2]`), when its spec is known.
    pub fn rule_field(&self, rule: &str) -> Option<String> {
        self.spec_rules.iter().position(|r| r.name == rule).map(|i| format!("spec.rules[{i}]"))
    }

    /// The field that sends a request taken by `matched` to `backend`: the
    /// rule's reference to it (`spec.rules[2].route.backends[1]`), the
    /// default route, or `defaultRouteStrategy` for a backend found by name.
    pub fn dispatch_field(&self, matched: &Matched, backend: &str) -> Option<String> {
        if let Matched::Rule(rule) = matched {
            let i = self.spec_rules.iter().position(|r| &r.name == rule)?;
            return match self.spec_rules[i].backends.iter().position(|b| b == backend) {
                Some(k) => Some(format!("spec.rules[{i}].route.backends[{k}]")),
                None => Some(format!("spec.rules[{i}]")),
            };
        }
        self.route_field(matched)
    }

    /// The field that sends a request where `matched` says: the rule, the
    /// default route, or `defaultRouteStrategy` for a backend found by name.
    pub fn route_field(&self, matched: &Matched) -> Option<String> {
        match matched {
            Matched::Rule(rule) => self.rule_field(rule),
            Matched::NameMatch(_) => Some("spec.defaultRouteStrategy".to_string()),
            Matched::Default => Some("spec.defaultRoute".to_string()),
            Matched::Nothing => None,
        }
    }

    /// Where the field at `path` of the ModelRouter is written: its
    /// `file:line:col` (or the document's first line when the path is not
    /// written there), when the router was read from a document.
    pub fn place(&self, path: &str) -> Option<Place> {
        match &self.places {
            Some(places) => Some(places.place(path)),
            None => self.origin.clone(),
        }
    }
}
