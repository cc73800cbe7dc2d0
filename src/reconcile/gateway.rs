//! The gateway reconciler's update path: on an existing object it replaces
//! `spec` wholesale with the desired one and sets its controller reference;
//! labels, annotations, other owner references and every other field of
//! the live object stay as they are. An object another controller owns is
//! refused whether or not the router's uid is known, as on the Proxy plane.

use anyhow::{anyhow, Result};
use serde_json::Value;

use super::{each_object, owner, Reconciled};
use crate::kube::ObjectKey;
use crate::live::LiveIndex;
use crate::render::RouterInput;

/// Reconciles the gateway objects of one router against its `live`
/// objects; both move into the result.
pub fn reconcile_gateway(input: &RouterInput, objects: Vec<Value>, live: LiveIndex) -> Result<Vec<Reconciled>> {
    each_object(&input.namespace, objects, live, |key, live, desired| update(input, key, live, desired))
}

fn update(input: &RouterInput, key: &ObjectKey, live: &Value, desired: &Value) -> Result<Value> {
    let mut merged = live.clone();
    if let (Value::Object(m), Some(spec)) = (&mut merged, desired.get("spec")) {
        m.insert("spec".into(), spec.clone());
    }
    owner::claim(&mut merged, live, &input.name, input.uid.as_deref())
        .map_err(|e| anyhow!("{key}: {e}; the operator refuses to update an object another controller owns"))?;
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ModelRouter;
    use serde_json::json;

    fn input(uid: Option<&str>) -> RouterInput {
        let mr: ModelRouter = serde_json::from_value(json!({"spec": {"backends": []}})).expect("router");
        RouterInput { router: mr, name: "r".into(), namespace: "ns".into(), uid: uid.map(str::to_string) }
    }

    fn desired() -> Value {
        json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "Backend",
               "metadata": {"name": "a", "namespace": "ns"}, "spec": {"endpoints": [{"fqdn": {"hostname": "h", "port": 1}}]}})
    }

    #[test]
    fn spec_is_replaced_and_everything_else_kept() {
        let live_obj = json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "Backend",
            "metadata": {"name": "a", "namespace": "ns", "labels": {"team": "x"}, "annotations": {"note": "y"}},
            "spec": {"endpoints": [{"fqdn": {"hostname": "old", "port": 2}}], "tls": {"insecure": true}},
            "status": {"conditions": []}});
        let mut live = LiveIndex::default();
        live.insert(live_obj, "ns");
        let items = reconcile_gateway(&input(Some("u-1")), vec![desired()], live).expect("reconciles");
        let merged = &items[0].merged;
        assert_eq!(merged["spec"], desired()["spec"], "spec replaced wholesale, unknown spec fields included");
        assert_eq!(merged["metadata"]["labels"], json!({"team": "x"}));
        assert_eq!(merged["metadata"]["annotations"], json!({"note": "y"}));
        assert_eq!(merged["status"], json!({"conditions": []}));
        assert_eq!(merged["metadata"]["ownerReferences"][0]["uid"], "u-1");
    }

    #[test]
    fn another_controller_is_refused_and_absent_objects_are_new() {
        let live_obj = json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "Backend",
            "metadata": {"name": "a", "namespace": "ns", "ownerReferences": [
                {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d", "uid": "9", "controller": true}]}});
        let mut live = LiveIndex::default();
        live.insert(live_obj, "ns");
        let err = reconcile_gateway(&input(Some("u")), vec![desired()], live).expect_err("owned elsewhere");
        assert!(err.to_string().contains("it is controlled by Deployment \"d\""), "{err}");
        let fresh = reconcile_gateway(&input(None), vec![desired()], LiveIndex::default()).expect("new");
        assert_eq!((fresh[0].live.is_none(), &fresh[0].merged), (true, &desired()));
    }

    /// A router read from git has no uid: another router's object is still
    /// not its own to take, and one it controls is updated without a
    /// reference written.
    #[test]
    fn without_the_uid_another_routers_object_is_still_refused() {
        let owned_by = |router: &str| {
            json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "Backend",
                "metadata": {"name": "a", "namespace": "ns", "ownerReferences": [
                    {"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": router,
                     "uid": "u-other", "controller": true}]}})
        };
        let mut live = LiveIndex::default();
        live.insert(owned_by("r1"), "ns");
        let err = reconcile_gateway(&input(None), vec![desired()], live).expect_err("r1's Backend");
        assert!(err.to_string().contains("it is controlled by ModelRouter \"r1\""), "{err}");
        let mut live = LiveIndex::default();
        live.insert(owned_by("r"), "ns");
        let items = reconcile_gateway(&input(None), vec![desired()], live).expect("its own");
        assert_eq!(items[0].merged["metadata"]["ownerReferences"], owned_by("r")["metadata"]["ownerReferences"]);
    }
}
