//! The plan of one ModelRouter: which of its objects applying would create,
//! update or leave alone, and whether the proxy pods would roll — the
//! questions a reviewer asks of a change before the unified diff.

use serde::Serialize;
use serde_json::Value;

use crate::diff::Comparison;
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
    /// In the operator's order.
    pub objects: Vec<ObjectPlan>,
    /// What the live objects hold where the operator never repairs them.
    pub drift: Vec<String>,
    /// Requests the new config.json sends elsewhere than the live one does:
    /// a line for people and an object for `-o json` each (the caller
    /// works them out; the plan only carries them).
    pub routing: Vec<(String, Value)>,
}

impl RouterPlan {
    /// Whether anything would be created or updated (an orphaned object is
    /// left as it is).
    pub fn changed(&self) -> bool {
        self.objects.iter().any(|o| matches!(o.action, Action::Create | Action::Update))
    }

    /// `ml/coding-router: Deployment update (rolls pods), ConfigMap update,
    /// Service unchanged`: the Deployment first, as the object whose change
    /// matters most; the others in the operator's order.
    pub fn summary(&self) -> String {
        let deployment_first = self
            .objects
            .iter()
            .filter(|o| o.kind == "Deployment")
            .chain(self.objects.iter().filter(|o| o.kind != "Deployment"));
        let parts: Vec<String> = deployment_first
            .map(|o| {
                let rolls = if o.kind == "Deployment" && self.rolls_pods { " (rolls pods)" } else { "" };
                format!("{} {}{rolls}", o.kind, o.action.as_str())
            })
            .collect();
        let mut line = format!("{}/{}: {}", self.namespace, self.name, parts.join(", "));
        for (text, _) in &self.routing {
            line.push_str("\n  ");
            line.push_str(text);
        }
        line
    }
}

/// The report's shape, fields in the order a reader wants them.
#[derive(Serialize)]
struct Report<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    release: Option<ReleaseEntry<'a>>,
    routers: Vec<RouterEntry<'a>>,
}

/// Which operator release the plan follows, and where that came from.
#[derive(Serialize)]
struct ReleaseEntry<'a> {
    name: &'a str,
    from: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RouterEntry<'a> {
    namespace: &'a str,
    name: &'a str,
    rolls_pods: bool,
    objects: Vec<ObjectEntry<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    drift: &'a [String],
    #[serde(skip_serializing_if = "<[Value]>::is_empty")]
    routing_changes: Vec<Value>,
}

#[derive(Serialize)]
struct ObjectEntry<'a> {
    kind: &'a str,
    name: &'a str,
    action: &'static str,
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
        objects,
        drift: drift.to_vec(),
        routing: Vec::new(),
    }
}

/// `{"release": {"name", "from"}, "routers": [{"namespace", "name",
/// "rollsPods", "objects": [{"kind", "name", "action"}]}]}`, indented by
/// four spaces as kubectl indents JSON; `release` (the operator release
/// the plan follows, and where that came from) when given.
pub fn report_json(plans: &[RouterPlan], release: Option<(&str, &str)>) -> String {
    let report = Report {
        release: release.map(|(name, from)| ReleaseEntry { name, from }),
        routers: plans
            .iter()
            .map(|p| RouterEntry {
                namespace: &p.namespace,
                name: &p.name,
                rolls_pods: p.rolls_pods,
                objects: p
                    .objects
                    .iter()
                    .map(|o| ObjectEntry { kind: &o.kind, name: &o.name, action: o.action.as_str() })
                    .collect(),
                drift: &p.drift,
                routing_changes: p.routing.iter().map(|(_, json)| json.clone()).collect(),
            })
            .collect(),
    };
    let mut out = Vec::new();
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut out, serde_json::ser::PrettyFormatter::with_indent(b"    "));
    // Plain strings and booleans: serializing into a Vec cannot fail.
    let _ = report.serialize(&mut serializer);
    String::from_utf8_lossy(&out).into_owned() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::compare;
    use serde_json::{json, Value};

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

    fn plan(items: Vec<Reconciled>) -> RouterPlan {
        let comparisons: Vec<Comparison> = items.iter().map(compare).collect();
        plan_router("ns", "r", &items, &comparisons, &[], &[])
    }

    #[test]
    fn a_template_change_rolls_the_pods() {
        let live = deployment(1, "proxy:v1", "a");
        for changed in [deployment(1, "proxy:v2", "a"), deployment(1, "proxy:v1", "b")] {
            let p = plan(vec![item(Some(live.clone()), changed)]);
            assert!(p.rolls_pods);
            assert_eq!(p.objects[0].action, Action::Update);
        }
    }

    #[test]
    fn replicas_or_service_changes_do_not_roll() {
        let p = plan(vec![
            item(Some(deployment(1, "proxy:v1", "a")), deployment(3, "proxy:v1", "a")),
            item(Some(service(80)), service(8080)),
        ]);
        assert!(!p.rolls_pods);
        assert_eq!(p.summary(), "ns/r: Deployment update, Service update");
        let p = plan(vec![
            item(Some(deployment(1, "proxy:v1", "a")), deployment(1, "proxy:v1", "a")),
            item(Some(service(80)), service(8080)),
        ]);
        assert!(!p.rolls_pods);
        assert_eq!(p.summary(), "ns/r: Deployment unchanged, Service update");
    }

    #[test]
    fn new_objects_are_creates_and_roll_nothing() {
        let p = plan(vec![item(None, service(80)), item(None, deployment(1, "proxy:v1", "a"))]);
        assert!(!p.rolls_pods);
        assert!(p.changed());
        assert_eq!(p.summary(), "ns/r: Deployment create, Service create");
    }

    #[test]
    fn the_report_keeps_its_field_order() {
        let p = plan(vec![item(None, service(80))]);
        assert_eq!(
            report_json(&[p], None),
            "{\n    \"routers\": [\n        {\n            \"namespace\": \"ns\",\n            \"name\": \"r\",\n            \"rollsPods\": false,\n            \"objects\": [\n                {\n                    \"kind\": \"Service\",\n                    \"name\": \"r-router-proxy\",\n                    \"action\": \"create\"\n                }\n            ]\n        }\n    ]\n}\n"
        );
        assert_eq!(report_json(&[], None), "{\n    \"routers\": []\n}\n");
        assert_eq!(
            report_json(&[], Some(("v0.9.12", "--operator-version"))),
            "{\n    \"release\": {\n        \"name\": \"v0.9.12\",\n        \"from\": \"--operator-version\"\n    },\n    \"routers\": []\n}\n"
        );
    }

    #[test]
    fn the_summary_puts_the_deployment_first_and_says_when_pods_roll() {
        let p = plan(vec![
            item(Some(service(80)), service(80)),
            item(Some(deployment(1, "proxy:v1", "a")), deployment(1, "proxy:v2", "a")),
        ]);
        assert_eq!(p.summary(), "ns/r: Deployment update (rolls pods), Service unchanged");
    }
}
