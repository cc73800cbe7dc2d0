//! The ServiceAccount, Role and RoleBinding a pooled router's proxy runs
//! under, so it can scale pooled InferenceServices (ModelPool activation).

use k8s_openapi::api::core::v1::ServiceAccount;
use k8s_openapi::api::rbac::v1::{PolicyRule, Role, RoleBinding, RoleRef, Subject};

use super::names::resource_name;
use super::{owned_metadata, RouterInput};
use crate::model::GROUP;

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

pub fn build(input: &RouterInput) -> (ServiceAccount, Role, RoleBinding) {
    let name = resource_name(&input.name);
    let sa = ServiceAccount { metadata: owned_metadata(input), ..ServiceAccount::default() };
    let role = Role {
        metadata: owned_metadata(input),
        rules: Some(vec![
            PolicyRule {
                api_groups: Some(strings(&[GROUP])),
                resources: Some(strings(&["inferenceservices"])),
                verbs: strings(&["get", "list", "watch", "update", "patch"]),
                ..PolicyRule::default()
            },
            PolicyRule {
                api_groups: Some(strings(&[GROUP])),
                resources: Some(strings(&["inferenceservices/status"])),
                verbs: strings(&["get"]),
                ..PolicyRule::default()
            },
        ]),
    };
    let binding = RoleBinding {
        metadata: owned_metadata(input),
        role_ref: RoleRef { api_group: "rbac.authorization.k8s.io".into(), kind: "Role".into(), name: name.clone() },
        subjects: Some(vec![Subject {
            kind: "ServiceAccount".into(),
            name,
            namespace: Some(input.namespace.clone()),
            ..Subject::default()
        }]),
    };
    (sa, role, binding)
}
