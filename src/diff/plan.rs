//! The plan of one ModelRouter: which of its objects applying would create,
//! update or leave alone, and whether the proxy pods would roll and why —
//! the questions a reviewer asks of a change before the unified diff. The
//! report layer writes it (`report::human::plan`, `report::json::diff`).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::diff::Comparison;
use crate::kube::names::{CONFIG_HASH_ANNOTATION, CONTAINER_NAME};
use crate::kube::ObjectKey;
use crate::reconcile::Reconciled;

/// What applying does to one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Create,
    Update,
    Unchanged,
    /// A live object of the data plane the router left: the operator
    /// neither updates nor deletes it.
    Orphaned,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::Update => "update",
            Action::Unchanged => "unchanged",
            Action::Orphaned => "orphaned",
        }
    }
}

/// One object of a router's plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectPlan {
    pub kind: String,
    pub name: String,
    pub action: Action,
}

/// The plan of one router.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouterPlan {
    pub namespace: String,
    pub name: String,
    /// The live Deployment's pod template would change, so every replica
    /// is replaced. A Deployment being created rolls nothing.
    pub rolls_pods: bool,
    /// What differs in the pod template, when the pods roll (`roll_reasons`).
    pub roll_reasons: Vec<String>,
    /// In the operator's order.
    pub objects: Vec<ObjectPlan>,
    /// What the live objects hold where the operator never repairs them.
    pub drift: Vec<String>,
}

impl RouterPlan {
    /// Whether anything would be created or updated (an orphaned object is
    /// left as it is).
    pub fn changed(&self) -> bool {
        self.objects.iter().any(|o| matches!(o.action, Action::Create | Action::Update))
    }
}

/// The plan of the router `namespace/name` from its reconciled objects and
/// their comparisons (same order, one each), then its `orphans`.
pub fn plan_router(
    namespace: &str,
    name: &str,
    items: &[Reconciled],
    comparisons: &[Comparison],
    orphans: &[ObjectKey],
    drift: &[String],
) -> RouterPlan {
    let mut rolls_pods = false;
    let mut reasons = Vec::new();
    let objects = items
        .iter()
        .zip(comparisons)
        .map(|(item, cmp)| {
            let action = match (&cmp.before, cmp.changed()) {
                (None, _) => Action::Create,
                (Some(_), true) => Action::Update,
                (Some(_), false) => Action::Unchanged,
            };
            if item.key.kind == "Deployment" && action == Action::Update {
                // Both sides are normalized with the API server's defaults,
                // so a template that only differs by a default does not roll.
                let template = |v: &Value| v.get("spec").and_then(|s| s.get("template")).cloned();
                rolls_pods = cmp.before.as_ref().map(template) != Some(template(&cmp.after));
                if rolls_pods {
                    let before = cmp.before.as_ref().and_then(template);
                    reasons = roll_reasons(before.as_ref(), template(&cmp.after).as_ref());
                }
            }
            ObjectPlan { kind: item.key.kind.clone(), name: item.key.name.clone(), action }
        })
        .chain(orphans.iter().map(|key| ObjectPlan {
            kind: key.kind.clone(),
            name: key.name.clone(),
            action: Action::Orphaned,
        }))
        .collect();
    RouterPlan {
        namespace: namespace.to_string(),
        name: name.to_string(),
        rolls_pods,
        roll_reasons: reasons,
        objects,
        drift: drift.to_vec(),
    }
}

/// Why a Deployment's pods roll: what differs between the live pod
/// template and the one applying writes, each named as the Deployment API
/// and the operator name it — `config hash annotation` (the operator's
/// `inference.llmkube.dev/router-config-hash`: config.json changed), `pod
/// label KEY`, `pod annotation KEY` (`spec.proxy.podLabels` and
/// `podAnnotations`, or the operator's own), the proxy container's fields
/// (`image`, `args`, `env`, `resources`, …; another container's as
/// `container NAME FIELD`), then the pod's (`serviceAccountName`,
/// `imagePullSecrets`, …). Both templates are normalized alike, so a key
/// only the API server's defaults fill in is no reason.
pub fn roll_reasons(before: Option<&Value>, after: Option<&Value>) -> Vec<String> {
    let at = |template: Option<&Value>, pointer: &str| template.and_then(|t| t.pointer(pointer)).cloned();
    let mut reasons = Vec::new();
    let annotations =
        differing_keys(at(before, "/metadata/annotations").as_ref(), at(after, "/metadata/annotations").as_ref());
    if annotations.iter().any(|k| k == CONFIG_HASH_ANNOTATION) {
        reasons.push("config hash annotation".to_string());
    }
    let labels = differing_keys(at(before, "/metadata/labels").as_ref(), at(after, "/metadata/labels").as_ref());
    reasons.extend(labels.iter().map(|k| format!("pod label {k}")));
    reasons.extend(annotations.iter().filter(|k| *k != CONFIG_HASH_ANNOTATION).map(|k| format!("pod annotation {k}")));
    let metadata = differing_keys(at(before, "/metadata").as_ref(), at(after, "/metadata").as_ref());
    reasons.extend(
        metadata.iter().filter(|k| !matches!(k.as_str(), "labels" | "annotations")).map(|k| format!("pod {k}")),
    );
    let (spec_before, spec_after) = (at(before, "/spec"), at(after, "/spec"));
    for key in differing_keys(spec_before.as_ref(), spec_after.as_ref()) {
        if matches!(key.as_str(), "containers" | "initContainers") {
            let list = |spec: &Option<Value>| spec.as_ref().and_then(|s| s.get(&key)).cloned();
            let found = reasons.len();
            container_reasons(list(&spec_before).as_ref(), list(&spec_after).as_ref(), &mut reasons);
            // The same containers in another order.
            if reasons.len() == found {
                reasons.push(key);
            }
        } else {
            reasons.push(key);
        }
    }
    let rest = differing_keys(before, after);
    reasons.extend(rest.into_iter().filter(|k| !matches!(k.as_str(), "metadata" | "spec")));
    reasons
}

/// The keys of two objects (a missing one is empty) whose values differ,
/// sorted.
fn differing_keys(before: Option<&Value>, after: Option<&Value>) -> Vec<String> {
    let empty = Map::new();
    let (before, after) =
        (before.and_then(Value::as_object).unwrap_or(&empty), after.and_then(Value::as_object).unwrap_or(&empty));
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    keys.into_iter().filter(|k| before.get(*k) != after.get(*k)).cloned().collect()
}

/// The containers of two lists, matched by name (as the API server merges
/// them): the fields that differ, a container added or removed.
fn container_reasons(before: Option<&Value>, after: Option<&Value>, reasons: &mut Vec<String>) {
    let named = |list: Option<&Value>| -> Vec<(String, Value)> {
        list.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|c| (c.get("name").and_then(Value::as_str).unwrap_or_default().to_string(), c.clone()))
            .collect()
    };
    let (before, after) = (named(before), named(after));
    let find = |list: &[(String, Value)], name: &str| list.iter().find(|(n, _)| n == name).map(|(_, c)| c.clone());
    for (name, container) in &after {
        match find(&before, name) {
            None => reasons.push(format!("container {name} added")),
            Some(old) => {
                for field in differing_keys(Some(&old), Some(container)) {
                    match name == CONTAINER_NAME {
                        true => reasons.push(field),
                        false => reasons.push(format!("container {name} {field}")),
                    }
                }
            }
        }
    }
    for (name, _) in before.iter().filter(|(n, _)| find(&after, n).is_none()) {
        reasons.push(format!("container {name} removed"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::compare;
    use serde_json::json;

    fn deployment(replicas: i64, image: &str, pod_label: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "r-router-proxy", "namespace": "ns"},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "r"}},
                "template": {"metadata": {"labels": {"app": "r", "team": pod_label}},
                    "spec": {"containers": [{"name": "router-proxy", "image": image}]}}}})
    }

    fn service(port: i64) -> Value {
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "r-router-proxy", "namespace": "ns"},
            "spec": {"selector": {"app": "r"}, "ports": [{"name": "http", "port": port}]}})
    }

    fn item(live: Option<Value>, merged: Value) -> Reconciled {
        Reconciled { key: ObjectKey::of(&merged, "ns"), live, merged, desired: None }
    }

    fn actions(p: &RouterPlan) -> Vec<Action> {
        p.objects.iter().map(|o| o.action).collect()
    }

    fn plan(items: Vec<Reconciled>) -> RouterPlan {
        let comparisons: Vec<Comparison> = items.iter().map(compare).collect();
        plan_router("ns", "r", &items, &comparisons, &[], &[])
    }

    #[test]
    fn a_template_change_rolls_the_pods_and_says_why() {
        let live = deployment(1, "proxy:v1", "a");
        let cases = [(deployment(1, "proxy:v2", "a"), "image"), (deployment(1, "proxy:v1", "b"), "pod label team")];
        for (changed, why) in cases {
            let p = plan(vec![item(Some(live.clone()), changed)]);
            assert!(p.rolls_pods);
            assert_eq!(p.objects[0].action, Action::Update);
            assert_eq!(p.roll_reasons, [why]);
        }
    }

    #[test]
    fn roll_reasons_name_what_differs_in_the_pod_template() {
        let template = |hash: &str, scrape: Option<&str>, cpu: &str, sidecar: bool| {
            let mut annotations = json!({CONFIG_HASH_ANNOTATION: hash});
            if let Some(scrape) = scrape {
                annotations["prometheus.io/scrape"] = json!(scrape);
            }
            let mut containers = vec![json!({"name": CONTAINER_NAME, "image": "proxy:v1", "args": ["--config"],
                "resources": {"requests": {"cpu": cpu}}})];
            if sidecar {
                containers.push(json!({"name": "log-shipper", "image": "shipper:v1"}));
            }
            json!({"metadata": {"labels": {"app": "r"}, "annotations": annotations},
                "spec": {"containers": containers, "serviceAccountName": "r-router-proxy"}})
        };
        let live = template("aaa", None, "100m", true);
        assert!(roll_reasons(Some(&live), Some(&live)).is_empty());
        // A new config.json reaches the pods only through its hash.
        assert_eq!(roll_reasons(Some(&live), Some(&template("bbb", None, "100m", true))), ["config hash annotation"]);
        assert_eq!(
            roll_reasons(Some(&live), Some(&template("bbb", Some("true"), "200m", false))),
            [
                "config hash annotation",
                "pod annotation prometheus.io/scrape",
                "resources",
                "container log-shipper removed"
            ]
        );
        let mut other = template("aaa", None, "100m", true);
        other["spec"]["containers"][1]["image"] = json!("shipper:v2");
        other["spec"]["serviceAccountName"] = json!("default");
        assert_eq!(roll_reasons(Some(&live), Some(&other)), ["container log-shipper image", "serviceAccountName"]);
        let mut swapped = live.clone();
        if let Some(containers) = swapped["spec"]["containers"].as_array_mut() {
            containers.reverse();
        }
        assert_eq!(roll_reasons(Some(&live), Some(&swapped)), ["containers"], "the same containers in another order");
    }

    #[test]
    fn replicas_or_service_changes_do_not_roll() {
        let p = plan(vec![
            item(Some(deployment(1, "proxy:v1", "a")), deployment(3, "proxy:v1", "a")),
            item(Some(service(80)), service(8080)),
        ]);
        assert!(!p.rolls_pods);
        assert_eq!(actions(&p), [Action::Update, Action::Update]);
        let p = plan(vec![
            item(Some(deployment(1, "proxy:v1", "a")), deployment(1, "proxy:v1", "a")),
            item(Some(service(80)), service(8080)),
        ]);
        assert!(!p.rolls_pods);
        assert_eq!(actions(&p), [Action::Unchanged, Action::Update]);
    }

    #[test]
    fn new_objects_are_creates_and_roll_nothing() {
        let p = plan(vec![item(None, service(80)), item(None, deployment(1, "proxy:v1", "a"))]);
        assert!(!p.rolls_pods);
        assert!(p.changed());
        assert_eq!(actions(&p), [Action::Create, Action::Create]);
    }

    #[test]
    fn only_the_deployments_template_rolls_the_pods() {
        let p = plan(vec![
            item(Some(service(80)), service(80)),
            item(Some(deployment(1, "proxy:v1", "a")), deployment(1, "proxy:v2", "a")),
        ]);
        assert_eq!(actions(&p), [Action::Unchanged, Action::Update]);
        assert!(p.rolls_pods);
        assert_eq!(p.roll_reasons, ["image"]);
    }
}
