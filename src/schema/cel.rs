//! A schema's CEL rules (`x-kubernetes-validations`) evaluated on a whole
//! object with kube-cel, which implements Kubernetes' CEL libraries, once
//! the API server's cost budgets (`cost`) allow them to run.

use serde_json::Value;

use super::cost;
use super::Finding;
use crate::input::yaml::display_path;

/// Evaluates the schema's CEL rules (`x-kubernetes-validations`) on a
/// whole object, as the API server does after the structural checks; rules
/// that would run past the API server's cost budgets on this object are
/// refused instead of run (`cost`).
pub fn check_rules(schema_json: &Value, object: &Value) -> Vec<Finding> {
    let over_budget = cost::check_object(schema_json, object);
    if !over_budget.is_empty() {
        return over_budget.into_iter().map(|f| Finding { path: shown_path(&f.path), ..f }).collect();
    }
    let validator = kube_cel::Validator::new();
    match validator.validate(schema_json, object, None) {
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
        assert!(check_rules(&s, &json!({"spec": {"replicas": 2}})).is_empty());
        let found = check_rules(&s, &json!({"spec": {"replicas": 1}}));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, "spec");
        assert!(found[0].message.starts_with("at least two replicas"), "{}", found[0].message);
        assert!(Schema::compile(&s).expect("compiles").has_rules);
    }
}
