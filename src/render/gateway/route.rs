//! The one multi-rule `AIGatewayRoute` of a ModelRouter, attached to
//! `spec.gatewayRef`. Its HTTPRoute shares its name; the policies target it.

use anyhow::{anyhow, Result};
use serde_json::{json, Map, Value};

use super::object::object;
use super::rules::{BackendRef, CompiledRule};
use crate::kube::kinds::{AI_GATEWAY_API, GATEWAY_API_GROUP};
use crate::kube::names::{gateway_backend_name, gateway_resource_name, MODEL_HEADER};
use crate::model::duration::format_go_duration;
use crate::render::RouterInput;

/// The route. With budgets, it also records each response's total tokens
/// under the metadata key the traffic policy's rate limit charges.
pub fn ai_gateway_route(input: &RouterInput, rules: &[CompiledRule], has_budgets: bool) -> Result<Value> {
    let gateway = input
        .router
        .spec
        .gateway_ref
        .as_ref()
        .ok_or_else(|| anyhow!("spec.gatewayRef: a Gateway-mode router needs one to attach its route"))?;
    let mut parent = Map::new();
    parent.insert("name".into(), json!(gateway.name));
    parent.insert("kind".into(), json!("Gateway"));
    parent.insert("group".into(), json!(GATEWAY_API_GROUP));
    if let Some(ns) = gateway.namespace.as_deref().filter(|ns| !ns.is_empty()) {
        parent.insert("namespace".into(), json!(ns));
    }
    let mut spec = Map::new();
    spec.insert("parentRefs".into(), json!([parent]));
    spec.insert("rules".into(), Value::Array(rules.iter().map(route_rule).collect()));
    if has_budgets {
        spec.insert("llmRequestCosts".into(), json!([{"metadataKey": "llm_total_token", "type": "TotalToken"}]));
    }
    Ok(object(input, AI_GATEWAY_API, "AIGatewayRoute", gateway_resource_name(&input.name), Value::Object(spec)))
}

fn route_rule(rule: &CompiledRule) -> Value {
    let mut out = Map::new();
    out.insert("matches".into(), Value::Array(matches(rule)));
    out.insert("backendRefs".into(), Value::Array(rule.backend_refs.iter().map(backend_ref).collect()));
    if let Some(nanos) = rule.timeout_nanos.filter(|n| *n > 0) {
        out.insert("timeouts".into(), json!({"request": format_go_duration(nanos)}));
    }
    Value::Object(out)
}

fn exact(name: &str, value: &str) -> Value {
    json!({"type": "Exact", "name": name, "value": value})
}

/// One match per (model, classification) pair — an absent dimension counts
/// once — each carrying the rule's own header matches. A rule with none of
/// the three is a catch-all: a single empty match.
fn matches(rule: &CompiledRule) -> Vec<Value> {
    let models: Vec<Option<Value>> = if rule.models.is_empty() {
        vec![None]
    } else {
        rule.models.iter().map(|m| Some(exact(MODEL_HEADER, m))).collect()
    };
    let classes: Vec<Option<Value>> = if rule.classifications.is_empty() {
        vec![None]
    } else {
        rule.classifications.iter().map(|c| Some(exact(&rule.classification_header, c))).collect()
    };
    let headers: Vec<Value> = rule.headers.iter().map(|(k, v)| exact(k, v)).collect();
    let mut out = Vec::with_capacity(models.len() * classes.len());
    for model in &models {
        for class in &classes {
            let all: Vec<Value> = model.iter().chain(class).chain(&headers).cloned().collect();
            out.push(if all.is_empty() { json!({}) } else { json!({"headers": all}) });
        }
    }
    out
}

fn backend_ref(r: &BackendRef) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(gateway_backend_name(&r.name)));
    if let Some(p) = r.priority {
        out.insert("priority".into(), json!(p));
    }
    if let Some(w) = r.weight {
        out.insert("weight".into(), json!(w));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification_without_models_and_the_catch_all() {
        let rule = CompiledRule {
            classifications: vec!["pii".into(), "phi".into()],
            classification_header: "x-c".into(),
            headers: [("x-a".to_string(), "1".to_string())].into(),
            ..CompiledRule::default()
        };
        assert_eq!(
            matches(&rule),
            [
                json!({"headers": [exact("x-c", "pii"), exact("x-a", "1")]}),
                json!({"headers": [exact("x-c", "phi"), exact("x-a", "1")]})
            ]
        );
        assert_eq!(matches(&CompiledRule::default()), [json!({})]);
    }

    #[test]
    fn backend_refs_carry_only_what_the_strategy_sets_and_sanitized_names() {
        let r = BackendRef { name: "a.b".into(), priority: None, weight: Some(2) };
        assert_eq!(backend_ref(&r), json!({"name": "a-b", "weight": 2}));
    }
}
