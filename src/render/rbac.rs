//! The ServiceAccount, Role and RoleBinding a pooled router's proxy runs
//! under, so it can scale pooled InferenceServices (ModelPool activation).

use serde_json::{json, Value};

use super::input::RouterInput;
use super::object::{object, owned_metadata};
use crate::kube::kinds::RBAC_API_VERSION;
use crate::kube::names::resource_name;
use crate::model::GROUP;

/// ServiceAccount, Role, RoleBinding.
pub fn build(input: &RouterInput) -> [Value; 3] {
    let name = resource_name(&input.name);
    let service_account = object("v1", "ServiceAccount", owned_metadata(input));
    let mut role = object(RBAC_API_VERSION, "Role", owned_metadata(input));
    role.insert(
        "rules".into(),
        json!([
            {
                "apiGroups": [GROUP],
                "resources": ["inferenceservices"],
                "verbs": ["get", "list", "watch", "update", "patch"],
            },
            {"apiGroups": [GROUP], "resources": ["inferenceservices/status"], "verbs": ["get"]},
        ]),
    );
    let mut binding = object(RBAC_API_VERSION, "RoleBinding", owned_metadata(input));
    binding.insert("roleRef".into(), json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name}));
    binding.insert("subjects".into(), json!([{"kind": "ServiceAccount", "name": name, "namespace": input.namespace}]));
    [Value::Object(service_account), Value::Object(role), Value::Object(binding)]
}
