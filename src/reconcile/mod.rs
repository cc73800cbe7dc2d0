//! The update path: merging what the operator wants into what is live, the
//! way the operator's reconcile does it, on generic JSON trees so that every
//! field routerctl does not own passes through unchanged.
//!
//! Pure: live objects come in as values, merged objects go out as values.

pub mod deployment;
pub mod gateway;
mod owner;
pub mod server_fields;
pub mod tree;

use anyhow::{bail, Result};
use serde_json::Value;

use crate::diagnostic::{rules, Diagnostic};
use crate::kube::get;
use crate::kube::names::{CONFIG_HASH_ANNOTATION, CONFIG_KEY};
use crate::kube::ObjectKey;
use crate::live::LiveIndex;
use crate::render::{RenderedRouter, RouterInput};
pub use owner::controller_uid;
use tree::{map_at, set_string_map, string_map};

/// One rendered object next to its live counterpart.
#[derive(Debug, Clone, PartialEq)]
pub struct Reconciled {
    pub key: ObjectKey,
    /// The live object, when there is one.
    pub live: Option<Value>,
    /// What the operator would store: the merge, or the desired object when
    /// nothing is live.
    pub merged: Value,
    /// The desired object as rendered, when something is live (when nothing
    /// is, `merged` is the desired object).
    pub desired: Option<Value>,
}

impl Reconciled {
    /// The object as the operator renders it, before any merge.
    pub fn desired(&self) -> &Value {
        self.desired.as_ref().unwrap_or(&self.merged)
    }
}

/// Reconciles every object of one rendered router against its `live`
/// objects; the rendered and the live objects move into the result
/// (`rendered.objects` is left empty). Drift the operator never repairs (a
/// selector, a RoleBinding's roleRef: fields its update leaves alone) is
/// pushed to `drift`, one message each.
pub fn reconcile_router(
    input: &RouterInput,
    rendered: &mut RenderedRouter,
    live: LiveIndex,
    drift: &mut Vec<Diagnostic>,
) -> Result<Vec<Reconciled>> {
    let objects = std::mem::take(&mut rendered.objects);
    let rendered = &*rendered;
    each_object(&input.namespace, objects, live, |key, live, desired| {
        update_object(input, rendered, key, live, desired, drift)
    })
}

/// Each desired object with the live object of its key, merged by `update`
/// where one is live and kept as rendered where none is: the loop both data
/// planes' update paths share.
fn each_object(
    namespace: &str,
    objects: Vec<Value>,
    mut live: LiveIndex,
    mut update: impl FnMut(&ObjectKey, &Value, &Value) -> Result<Value>,
) -> Result<Vec<Reconciled>> {
    let mut out = Vec::with_capacity(objects.len());
    for desired in objects {
        let key = ObjectKey::of(&desired, namespace);
        let Some(live_obj) = live.take(&key) else {
            out.push(Reconciled { key, live: None, merged: desired, desired: None });
            continue;
        };
        let merged = update(&key, &live_obj, &desired)?;
        out.push(Reconciled { key, live: Some(live_obj), merged, desired: Some(desired) });
    }
    Ok(out)
}

fn update_object(
    input: &RouterInput,
    rendered: &RenderedRouter,
    key: &ObjectKey,
    live: &Value,
    desired: &Value,
    drift: &mut Vec<Diagnostic>,
) -> Result<Value> {
    let mut merged = match key.kind.as_str() {
        "Deployment" => {
            if let Some(w) = deployment::selector_warning(live, desired) {
                drift.push(Diagnostic::warning(rules::DRIFT, w).on(key.clone()));
            }
            deployment::update(live, desired, &rendered.pod_metadata, rendered.release)
        }
        "Service" => {
            let mut out = live.clone();
            for field in ["type", "ports"] {
                if let Some(v) = get(desired, &["spec", field]) {
                    map_at(&mut out, &["spec"]).insert(field.to_string(), v.clone());
                }
            }
            set_string_map(&mut out, &["metadata", "labels"], &string_map(desired, &["metadata", "labels"]));
            // The selector is never touched: a live one that is not the
            // operator's sends traffic elsewhere for good.
            let (live_sel, want_sel) = (get(live, &["spec", "selector"]), get(desired, &["spec", "selector"]));
            if live_sel != want_sel {
                let show = |v: Option<&Value>| v.map(Value::to_string).unwrap_or_else(|| "none".into());
                drift.push(
                    Diagnostic::warning(
                        rules::DRIFT,
                        format!(
                            "its selector {} is not the operator's {}, and the operator never updates it: the Service \
                     may not reach the proxy pods; delete the Service (the operator recreates it)",
                            show(live_sel),
                            show(want_sel)
                        ),
                    )
                    .on(key.clone()),
                );
            }
            out
        }
        "ConfigMap" => {
            let same_data = get(live, &["data", CONFIG_KEY]) == get(desired, &["data", CONFIG_KEY]);
            let same_hash = get(live, &["metadata", "annotations", CONFIG_HASH_ANNOTATION])
                == get(desired, &["metadata", "annotations", CONFIG_HASH_ANNOTATION]);
            if same_data && same_hash {
                // The operator returns before touching anything else.
                return Ok(live.clone());
            }
            if get(live, &["immutable"]) == Some(&Value::Bool(true)) {
                bail!(
                    "{key}: it is immutable (immutable: true), so the API server refuses the operator's update of \
                     its config.json and the reconcile fails: delete it (kubectl delete configmap -n {} {}) and the \
                     operator recreates it",
                    key.namespace,
                    key.name
                );
            }
            let mut out = live.clone();
            if let (Some(data), Value::Object(m)) = (desired.get("data"), &mut out) {
                m.insert("data".into(), data.clone());
            }
            let mut annotations = string_map(live, &["metadata", "annotations"]);
            annotations.insert(CONFIG_HASH_ANNOTATION.into(), rendered.compiled.hash.clone());
            set_string_map(&mut out, &["metadata", "annotations"], &annotations);
            set_string_map(&mut out, &["metadata", "labels"], &string_map(desired, &["metadata", "labels"]));
            out
        }
        // An existing ServiceAccount is left exactly as it is.
        "ServiceAccount" => return Ok(live.clone()),
        "Role" | "RoleBinding" => {
            let field = if key.kind == "Role" { "rules" } else { "subjects" };
            // roleRef is immutable: the operator updates the subjects only,
            // so a changed roleRef keeps granting what it names.
            let (live_ref, want_ref) = (get(live, &["roleRef"]), get(desired, &["roleRef"]));
            if key.kind == "RoleBinding" && live_ref != want_ref {
                let name = |v: Option<&Value>, k: &str| {
                    v.and_then(|r| r.get(k)).and_then(Value::as_str).unwrap_or("?").to_string()
                };
                drift.push(
                    Diagnostic::warning(
                        rules::DRIFT,
                        format!(
                    "its roleRef is {} {:?}, not the operator's {} {:?}; roleRef is immutable and the operator \
                     updates only the subjects, so the proxy's ServiceAccount keeps what {} {:?} grants: delete the \
                     RoleBinding (the operator recreates it)",
                    name(live_ref, "kind"),
                    name(live_ref, "name"),
                    name(want_ref, "kind"),
                    name(want_ref, "name"),
                    name(live_ref, "kind"),
                    name(live_ref, "name"),
                ),
                    )
                    .on(key.clone()),
                );
            }
            let mut out = live.clone();
            if let (Some(v), Value::Object(m)) = (desired.get(field), &mut out) {
                m.insert(field.to_string(), v.clone());
            }
            out
        }
        other => bail!("{key}: routerctl does not know how the operator updates a {other}"),
    };
    owner::claim(&mut merged, live, &input.name, input.uid.as_deref())
        .map_err(|e| anyhow::anyhow!("{key}: {e}; the operator refuses to update an object another controller owns"))?;
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ModelRouter;
    use crate::render::{render_router, Inventory, OperatorFlags};
    use serde_json::json;

    fn rendered(pooled: bool) -> (RouterInput, RenderedRouter) {
        let backend = if pooled {
            json!({"name": "m", "inferenceServiceRef": {"name": "m"}})
        } else {
            json!({"name": "g", "external": {"provider": "openai", "model": "x"}})
        };
        let mut mr: ModelRouter =
            serde_json::from_value(json!({"metadata": {"name": "r"}, "spec": {"backends": [backend]}}))
                .expect("router");
        crate::model::apply_router_defaults(&mut mr);
        let input = RouterInput { router: mr, name: "r".into(), namespace: "ns".into(), uid: Some("u-1".into()) };
        let mut inventory = Inventory::default();
        if pooled {
            let pool = serde_json::from_value(
                json!({"metadata": {"name": "p"}, "spec": {"members": [{"inferenceServiceRef": {"name": "m"}}]}}),
            )
            .expect("pool");
            inventory.add_pool("ns", pool);
        }
        let rendered = render_router(&input, &inventory, &OperatorFlags::default()).expect("renders");
        (input, rendered)
    }

    fn merged_of(live_objects: Vec<Value>, pooled: bool) -> Vec<Reconciled> {
        let (input, rendered) = rendered(pooled);
        let mut live = LiveIndex::default();
        for obj in live_objects {
            live.insert(obj, "ns");
        }
        reconcile_router(&input, &mut rendered.clone(), live, &mut Vec::new()).expect("reconciles")
    }

    fn find<'a>(items: &'a [Reconciled], kind: &str) -> &'a Value {
        &items.iter().find(|i| i.key.kind == kind).expect("object of kind").merged
    }

    #[test]
    fn service_update_replaces_type_ports_and_labels_and_keeps_the_selector() {
        let live = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "r-router-proxy", "namespace": "ns",
            "labels": {"old": "x"}, "annotations": {"keep": "me"}},
            "spec": {"type": "NodePort", "selector": {"legacy": "sel"}, "clusterIP": "10.0.0.1",
                     "ports": [{"name": "http", "port": 1, "nodePort": 30001}]}});
        let items = merged_of(vec![live], false);
        let svc = find(&items, "Service");
        assert_eq!(svc["spec"]["type"], "ClusterIP");
        assert_eq!(svc["spec"]["ports"][0]["port"], 8080);
        assert_eq!(svc["spec"]["selector"], json!({"legacy": "sel"}), "never touched");
        assert_eq!(svc["spec"]["clusterIP"], "10.0.0.1");
        assert!(svc["metadata"]["labels"].get("old").is_none(), "labels replaced wholesale");
        assert_eq!(svc["metadata"]["annotations"]["keep"], "me");
        assert_eq!(svc["metadata"]["ownerReferences"][0]["uid"], "u-1");
    }

    #[test]
    fn configmap_update_replaces_data_and_sets_the_hash_keeping_other_annotations() {
        let live = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "r-router-proxy", "namespace": "ns",
            "annotations": {"inference.llmkube.dev/router-config-hash": "stale", "keep": "me"}, "labels": {"x": "y"}},
            "data": {"config.json": "{}", "extra": "gone"}});
        let items = merged_of(vec![live], false);
        let cm = find(&items, "ConfigMap");
        let (_, rendered) = rendered(false);
        assert_eq!(cm["data"], json!({"config.json": rendered.compiled.json}));
        assert_eq!(cm["metadata"]["annotations"]["inference.llmkube.dev/router-config-hash"], rendered.compiled.hash);
        assert_eq!(cm["metadata"]["annotations"]["keep"], "me");
        assert!(cm["metadata"]["labels"].get("x").is_none());
    }

    #[test]
    fn rbac_updates_follow_the_operator() {
        let meta = json!({"name": "r-router-proxy", "namespace": "ns", "labels": {"custom": "1"}});
        let sa = json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta, "secrets": [{"name": "t"}]});
        let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta, "rules": []});
        let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": meta,
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r-router-proxy"}, "subjects": []});
        let items = merged_of(vec![sa.clone(), role, binding], true);
        // An existing ServiceAccount is left exactly as it is.
        assert_eq!(find(&items, "ServiceAccount"), &sa);
        let role = find(&items, "Role");
        assert_eq!(role["rules"].as_array().map(Vec::len), Some(2));
        assert_eq!(role["metadata"]["labels"], json!({"custom": "1"}), "the operator does not touch Role labels");
        let binding = find(&items, "RoleBinding");
        assert_eq!(binding["subjects"][0]["name"], "r-router-proxy");
        assert_eq!(binding["metadata"]["ownerReferences"][0]["uid"], "u-1");
    }

    #[test]
    fn another_owner_is_refused_even_when_the_uid_is_unknown() {
        let (mut input, rendered) = rendered(false);
        input.uid = None;
        let mut live = LiveIndex::default();
        live.insert(
            json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "r-router-proxy", "namespace": "ns",
                "ownerReferences": [{"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease", "name": "h",
                    "uid": "9", "controller": true}]}}),
            "ns",
        );
        let err = reconcile_router(&input, &mut rendered.clone(), live, &mut Vec::new()).expect_err("refused");
        assert!(err.to_string().contains("it is controlled by HelmRelease \"h\""), "{err}");
    }

    #[test]
    fn unmatched_objects_are_new_and_foreign_live_objects_are_ignored() {
        let other =
            json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "something-else", "namespace": "ns"}});
        let items = merged_of(vec![other], false);
        assert!(items.iter().all(|i| i.live.is_none()));
        assert_eq!(items.len(), 3);
    }
}
