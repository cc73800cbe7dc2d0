//! A ModelRouter's rules as the gateway compiles them — `spec.rules` in
//! order, then one model-match rule per backend under
//! `defaultRouteStrategy: BackendNameMatch`, then a catch-all for
//! `defaultRoute` — and the health ejection that drops unhealthy backends
//! from each rule without ever emptying one.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use anyhow::{bail, Result};

use super::resolve::ResolvedBackend;
use crate::model::duration::parse_at;
use crate::model::{classification_header, classification_mode, ModelRouter, RuleRoute, HEADER_ONLY};

/// What in the ModelRouter a route rule was compiled from: the one record
/// of it, so that whoever reads the route (`routing::gateway`) names its
/// rules without computing the order a second time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum RuleOrigin {
    /// `spec.rules[]`, by name.
    Rule(String),
    /// The model-match rule of a backend (`BackendNameMatch`), by backend name.
    NameMatch(String),
    /// The catch-all of `defaultRoute`.
    #[default]
    Default,
}

/// One compiled route rule.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CompiledRule {
    pub origin: RuleOrigin,
    /// Exact model-header values; matches are ORed over them.
    pub models: Vec<String>,
    /// Exact header matches ANDed into every match (sorted by name).
    pub headers: BTreeMap<String, String>,
    /// Header-only classification values, crossed with the models.
    pub classifications: Vec<String>,
    /// The header the classification values are matched on.
    pub classification_header: String,
    pub backend_refs: Vec<BackendRef>,
    /// `timeouts.request`, in nanoseconds, when the rule sets a timeout.
    pub timeout_nanos: Option<i64>,
}

/// A reference from a rule to a backend: a priority for primary-fallback, a
/// weight for weighted, neither for generated rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendRef {
    pub name: String,
    pub priority: Option<i64>,
    pub weight: Option<i64>,
}

impl BackendRef {
    fn plain(name: &str) -> Self {
        BackendRef { name: name.to_string(), priority: None, weight: None }
    }
}

/// Compiles the rules of a router that passed the up-front checks.
pub fn compile_rules(mr: &ModelRouter) -> Result<Vec<CompiledRule>> {
    // Declared weights, 1 when unset; a name that is no backend weighs 0.
    let weights: HashMap<&str, i64> =
        mr.spec.backends.iter().map(|b| (b.name.as_str(), b.weight.map_or(1, i64::from))).collect();
    let header_only = classification_mode(mr) == HEADER_ONLY;
    let header = classification_header(&mr.spec);

    let mut out = Vec::new();
    for (i, rule) in mr.spec.rules.iter().flatten().enumerate() {
        let mut compiled = CompiledRule {
            origin: RuleOrigin::Rule(rule.name.clone()),
            backend_refs: backend_refs(&rule.name, &rule.route, &weights)?,
            timeout_nanos: match rule.timeout.as_deref() {
                Some(t) => Some(parse_at(&format!("spec.rules[{i}].timeout"), t)?),
                None => None,
            },
            ..CompiledRule::default()
        };
        if let Some(m) = &rule.match_ {
            compiled.models = m.models.clone().unwrap_or_default();
            compiled.headers = m.headers.clone().unwrap_or_default();
            let classes = m.data_classification.clone().unwrap_or_default();
            if header_only && !classes.is_empty() {
                compiled.classifications = classes;
                compiled.classification_header = header.to_string();
            }
        }
        out.push(compiled);
    }
    if mr.spec.default_route_strategy.as_deref() == Some("BackendNameMatch") {
        // A request naming a backend's published model id goes straight to it.
        for b in &mr.spec.backends {
            let model = b.display_name.as_deref().filter(|d| !d.is_empty()).unwrap_or(&b.name);
            out.push(CompiledRule {
                origin: RuleOrigin::NameMatch(b.name.clone()),
                models: vec![model.to_string()],
                backend_refs: vec![BackendRef::plain(&b.name)],
                ..CompiledRule::default()
            });
        }
    }
    if let Some(target) = mr.spec.default_route.as_deref().filter(|t| !t.is_empty()) {
        out.push(CompiledRule { backend_refs: vec![BackendRef::plain(target)], ..CompiledRule::default() });
    }
    Ok(out)
}

fn backend_refs(rule: &str, route: &RuleRoute, weights: &HashMap<&str, i64>) -> Result<Vec<BackendRef>> {
    match route.strategy.as_deref().unwrap_or("") {
        "" | "primary-fallback" => Ok(route
            .backends
            .iter()
            .zip(0i64..)
            .map(|(name, priority)| BackendRef { name: name.clone(), priority: Some(priority), weight: None })
            .collect()),
        "weighted" => Ok(route
            .backends
            .iter()
            .map(|name| BackendRef {
                name: name.clone(),
                priority: None,
                weight: Some(weights.get(name.as_str()).copied().unwrap_or(0)),
            })
            .collect()),
        other => bail!("rule {rule:?} uses strategy {other:?} which has no gateway equivalent"),
    }
}

/// Drops unhealthy backends from every rule, keeping order (and so the
/// priorities as compiled). A rule whose backends are all unhealthy keeps
/// them all: an empty rule is invalid and there is nothing to fail over to.
/// Names that are no resolved backend count as healthy. Returns the rules
/// and the sorted names removed from at least one rule.
pub fn eject_unhealthy(rules: Vec<CompiledRule>, backends: &[ResolvedBackend]) -> (Vec<CompiledRule>, Vec<String>) {
    let unhealthy: BTreeSet<&str> = backends.iter().filter(|b| !b.healthy).map(|b| b.name.as_str()).collect();
    let mut ejected = BTreeSet::new();
    let rules = rules
        .into_iter()
        .map(|mut rule| {
            let (removed, kept): (Vec<BackendRef>, Vec<BackendRef>) =
                rule.backend_refs.iter().cloned().partition(|r| unhealthy.contains(r.name.as_str()));
            if !kept.is_empty() {
                ejected.extend(removed.into_iter().map(|r| r.name));
                rule.backend_refs = kept;
            }
            rule
        })
        .collect();
    (rules, ejected.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backend(name: &str, healthy: bool) -> ResolvedBackend {
        ResolvedBackend {
            name: name.into(),
            host: format!("{name}.ns.svc.cluster.local"),
            port: 8080,
            healthy,
            is_ip: false,
        }
    }

    fn rule(names: &[&str]) -> CompiledRule {
        let refs =
            names.iter().zip(0i64..).map(|(n, p)| BackendRef { name: n.to_string(), priority: Some(p), weight: None });
        CompiledRule { backend_refs: refs.collect(), ..CompiledRule::default() }
    }

    fn names(rule: &CompiledRule) -> Vec<(&str, Option<i64>)> {
        rule.backend_refs.iter().map(|r| (r.name.as_str(), r.priority)).collect()
    }

    #[test]
    fn ejection_keeps_order_and_priorities_and_never_empties_a_rule() {
        let backends = [backend("a", false), backend("b", true), backend("c", false)];
        let (rules, ejected) =
            eject_unhealthy(vec![rule(&["a", "b", "ghost"]), rule(&["c", "a"]), rule(&["b"])], &backends);
        assert_eq!(names(&rules[0]), [("b", Some(1)), ("ghost", Some(2))]);
        // Both unhealthy: the rule keeps both, and neither counts as ejected from it.
        assert_eq!(names(&rules[1]), [("c", Some(0)), ("a", Some(1))]);
        assert_eq!(names(&rules[2]), [("b", Some(0))]);
        assert_eq!(ejected, ["a"]);
    }

    #[test]
    fn weights_default_to_one_and_unknown_names_weigh_nothing() {
        let mr: ModelRouter = crate::input::from_yaml_str(
            "spec:\n  backends: [{name: a, weight: 3}, {name: b}]\n  rules: [{name: r, route: {backends: [a, b, z], strategy: weighted}}]\n",
        )
        .expect("fixture");
        let rules = compile_rules(&mr).expect("compiles");
        let weights: Vec<_> = rules[0].backend_refs.iter().map(|r| (r.name.as_str(), r.weight, r.priority)).collect();
        assert_eq!(weights, [("a", Some(3), None), ("b", Some(1), None), ("z", Some(0), None)]);
    }
}
