//! A schema's CEL rules (`x-kubernetes-validations`) evaluated on a whole
//! object with kube-cel, which implements Kubernetes' CEL libraries, once
//! the API server's cost budgets (`cost`) allow them to run. The rules are
//! compiled once per schema ([`CompiledRules`], kept by `crd::CrdSchema`),
//! not on every object checked.

use std::collections::HashMap;

use serde_json::Value;

use super::cost;
use super::Finding;
use crate::input::yaml::display_path;

/// A schema's CEL rules, compiled: kube-cel's tree of them for evaluation,
/// and each rule's program by its text for the cost model (`None` when it
/// does not compile: the API server refuses such a CRD, and the rule is
/// not costed).
pub struct CompiledRules {
    tree: kube_cel::CompiledSchema,
    programs: cost::Programs,
}

impl std::fmt::Debug for CompiledRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledRules").field("rules", &self.programs.len()).finish()
    }
}

impl CompiledRules {
    pub fn compile(schema_json: &Value) -> CompiledRules {
        let mut programs = HashMap::new();
        cost::compile_rules(schema_json, &mut programs);
        CompiledRules { tree: kube_cel::compile_schema(schema_json), programs }
    }
}

thread_local! {
    /// kube-cel's evaluator with Kubernetes' CEL functions registered: made
    /// once per thread (it may move between threads, not be shared).
    static VALIDATOR: kube_cel::Validator = kube_cel::Validator::new();
}

/// Evaluates the schema's CEL rules (`x-kubernetes-validations`) on a
/// whole object, as the API server does after the structural checks; rules
/// that would run past the API server's cost budgets on this object are
/// refused instead of run (`cost`).
pub fn check_rules(schema_json: &Value, rules: &CompiledRules, object: &Value) -> Vec<Finding> {
    let over_budget = cost::check_object(schema_json, &rules.programs, object);
    if !over_budget.is_empty() {
        return over_budget.into_iter().map(|f| Finding { path: shown_path(&f.path), ..f }).collect();
    }
    match VALIDATOR.with(|validator| validator.validate_compiled(&rules.tree, object, None)) {
        Ok(()) => Vec::new(),
        Err(errors) => errors
            .into_vec()
            .into_iter()
            .map(|e| {
                Finding::error(
                    shown_path(&e.field_path).to_string(),
                    format!("{} (x-kubernetes-validations rule)", e.message),
                )
            })
            .collect(),
    }
}

fn shown_path(path: &str) -> String {
    display_path(path).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::structural::Schema;
    use serde_json::json;

    #[test]
    fn cel_rules() {
        let s = json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"replicas": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.replicas >= 2", "message": "at least two replicas"}]}}});
        let rules = CompiledRules::compile(&s);
        assert!(check_rules(&s, &rules, &json!({"spec": {"replicas": 2}})).is_empty());
        let found = check_rules(&s, &rules, &json!({"spec": {"replicas": 1}}));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, "spec");
        assert!(found[0].message.starts_with("at least two replicas"), "{}", found[0].message);
        assert!(Schema::compile(&s).expect("compiles").has_rules);
    }
}
