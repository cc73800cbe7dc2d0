//! Owner references on live objects: finding the ModelRouter's uid on them,
//! and setting the controller reference the way controller-runtime does.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use serde_json::Value;

use crate::kube::get;
use crate::kube::group_of;
use crate::model::GROUP;

/// Whether an owner reference points at the ModelRouter `name` (any version
/// of the group: references compare group, kind and name).
fn refers_to_router(r: &Value, name: &str) -> bool {
    r.get("kind").and_then(Value::as_str) == Some("ModelRouter")
        && r.get("name").and_then(Value::as_str) == Some(name)
        && group_of(r.get("apiVersion").and_then(Value::as_str).unwrap_or("")) == GROUP
}

/// The uid of the controller reference to the ModelRouter `name` on `obj`.
pub fn controller_uid(obj: &Value, name: &str) -> Option<String> {
    get(obj, &["metadata", "ownerReferences"])?
        .as_array()?
        .iter()
        .filter(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
        .find(|r| refers_to_router(r, name))
        .and_then(|r| r.get("uid").and_then(Value::as_str))
        .filter(|uid| !uid.is_empty())
        .map(str::to_string)
}

/// The controller of `obj`, as `Kind "name"`, when it is not the
/// ModelRouter `name`: whether or not the router's uid is known, the
/// operator would fail to adopt such an object.
fn foreign_controller(obj: &Value, name: &str) -> Option<String> {
    get(obj, &["metadata", "ownerReferences"])?
        .as_array()?
        .iter()
        .filter(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
        .find(|r| !refers_to_router(r, name))
        .map(|r| {
            let kind = r.get("kind").and_then(Value::as_str).unwrap_or("?");
            let name = r.get("name").and_then(Value::as_str).unwrap_or("?");
            format!("{kind} {name:?}")
        })
}

/// What the operator's update path does with the controller reference of
/// the live object `live`, now `merged`: with the router's uid known, set
/// it as controller-runtime's SetControllerReference does; without it, write
/// nothing, but an object another controller owns is still not the
/// router's to take over (the operator, which knows its uid, would refuse
/// it). The error says who controls it.
pub fn claim(merged: &mut Value, live: &Value, name: &str, uid: Option<&str>) -> Result<(), String> {
    match uid {
        Some(uid) => set_controller_reference(merged, &crate::render::owner_reference(name, uid)),
        None => match foreign_controller(live, name) {
            Some(other) => Err(format!("it is controlled by {other}")),
            None => Ok(()),
        },
    }
}

/// controller-runtime's SetControllerReference, then the operator's
/// `blockOwnerDeletion: false`: refuse an object another controller owns,
/// replace a reference to the same owner, append otherwise; other owner
/// references stay.
pub fn set_controller_reference(obj: &mut Value, owner: &OwnerReference) -> Result<(), String> {
    let new_ref = serde_json::to_value(owner).map_err(|e| e.to_string())?;
    let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
        return Err("the live object has no metadata".into());
    };
    let refs = meta.entry("ownerReferences").or_insert_with(|| Value::Array(Vec::new()));
    if !refs.is_array() {
        *refs = Value::Array(Vec::new());
    }
    let Value::Array(refs) = refs else { return Err("ownerReferences is not a list".into()) };
    for r in refs.iter() {
        let is_controller = r.get("controller").and_then(Value::as_bool) == Some(true);
        if is_controller && !refers_to_router(r, &owner.name) {
            let kind = r.get("kind").and_then(Value::as_str).unwrap_or("?");
            let name = r.get("name").and_then(Value::as_str).unwrap_or("?");
            return Err(format!("it is controlled by {kind} {name:?}"));
        }
    }
    match refs.iter().position(|r| refers_to_router(r, &owner.name)) {
        Some(i) => refs[i] = new_ref,
        None => refs.push(new_ref),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn owner(uid: &str) -> OwnerReference {
        crate::render::owner_reference("r", uid)
    }

    #[test]
    fn appends_beside_other_owners_and_replaces_its_own() {
        let mut obj = json!({"metadata": {"ownerReferences": [
            {"apiVersion": "v1", "kind": "ConfigMap", "name": "other", "uid": "1"},
            {"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": "r", "uid": "old", "controller": true, "blockOwnerDeletion": true}
        ]}});
        set_controller_reference(&mut obj, &owner("u")).expect("same owner");
        let refs = obj["metadata"]["ownerReferences"].as_array().cloned().unwrap_or_default();
        assert_eq!(refs.len(), 2);
        assert_eq!(refs[0]["name"], "other");
        assert_eq!(refs[1]["uid"], "u");
        assert_eq!(refs[1]["blockOwnerDeletion"], false);
    }

    #[test]
    fn adds_a_missing_reference() {
        let mut obj = json!({"metadata": {"name": "x"}});
        set_controller_reference(&mut obj, &owner("u")).expect("no owner yet");
        assert_eq!(controller_uid(&obj, "r").as_deref(), Some("u"));
    }

    #[test]
    fn another_controller_is_named_and_the_router_itself_is_not() {
        let obj = json!({"metadata": {"ownerReferences": [
            {"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": "other", "uid": "1", "controller": true}
        ]}});
        assert_eq!(foreign_controller(&obj, "r").as_deref(), Some("ModelRouter \"other\""));
        assert_eq!(foreign_controller(&obj, "other"), None);
        assert_eq!(foreign_controller(&json!({"metadata": {}}), "r"), None);
    }

    #[test]
    fn refuses_another_controller() {
        let mut obj = json!({"metadata": {"ownerReferences": [
            {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs", "uid": "9", "controller": true}
        ]}});
        let err = set_controller_reference(&mut obj, &owner("u")).expect_err("owned elsewhere");
        assert_eq!(err, "it is controlled by ReplicaSet \"rs\"");
    }
}
