//! `routerctl explain` for a `dataPlane: Gateway` router: each object the
//! gateway reconciler writes, what its update does (create, replace `spec`,
//! nothing), which `spec` fields change, what of the live object is kept,
//! and which backends the route leaves out as unready.
//!
//! The after-state is the gateway update path's own result
//! (`reconcile::gateway`); this module only compares it with the live object.

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use super::Explanation;
use crate::diff::normalize;
use crate::reconcile::tree::string_map;
use crate::reconcile::Reconciled;

/// At most this many changed spec fields are named per object.
const MAX_CHANGES: usize = 12;

/// What the next reconcile does to one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectAction {
    /// No live object: the operator creates it.
    Create,
    /// The live `spec` differs and is replaced (or the controller reference
    /// is added): these are the changed spec paths.
    Update { changed: Vec<String>, owner_added: bool },
    /// Already what the operator would write.
    Unchanged,
}

/// One gateway object, explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectRow {
    pub kind: String,
    pub name: String,
    pub action: ObjectAction,
    /// Live label and annotation keys the update keeps (the operator owns
    /// none of them).
    pub kept_metadata: Vec<String>,
}

/// Every object of one Gateway-mode router, explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayExplanation {
    /// `namespace/name` of the ModelRouter.
    pub router: String,
    pub objects: Vec<ObjectRow>,
    /// Backends left out of the route's rules as unready.
    pub ejected: Vec<String>,
}

/// An explanation of either data plane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouterExplanation {
    Proxy(Explanation),
    Gateway(GatewayExplanation),
}

impl RouterExplanation {
    pub fn to_table(&self) -> String {
        match self {
            RouterExplanation::Proxy(e) => e.to_table(),
            RouterExplanation::Gateway(e) => e.to_table(),
        }
    }

    pub fn to_json(&self) -> Value {
        match self {
            RouterExplanation::Proxy(e) => e.to_json(),
            RouterExplanation::Gateway(e) => e.to_json(),
        }
    }
}

/// Explains the reconciled gateway objects of `router` (`namespace/name`).
pub fn explain_gateway(router: &str, items: &[Reconciled], ejected: &[String]) -> GatewayExplanation {
    let objects = items
        .iter()
        .map(|item| {
            let Some(live) = &item.live else {
                return ObjectRow {
                    kind: item.key.kind.clone(),
                    name: item.key.name.clone(),
                    action: ObjectAction::Create,
                    kept_metadata: Vec::new(),
                };
            };
            // Compared as the API server holds them, so that its defaults
            // are no change.
            let (before, after) = (normalize(live, Some(live)), normalize(&item.merged, Some(live)));
            let mut changed = Vec::new();
            changed_paths(before.get("spec"), after.get("spec"), "spec", &mut changed);
            let owner_added =
                live.pointer("/metadata/ownerReferences") != item.merged.pointer("/metadata/ownerReferences");
            let action = if changed.is_empty() && !owner_added {
                ObjectAction::Unchanged
            } else {
                ObjectAction::Update { changed, owner_added }
            };
            let labels = string_map(live, &["metadata", "labels"]).into_keys().map(|k| format!("label {k}"));
            let annotations =
                string_map(live, &["metadata", "annotations"]).into_keys().map(|k| format!("annotation {k}"));
            ObjectRow {
                kind: item.key.kind.clone(),
                name: item.key.name.clone(),
                action,
                kept_metadata: labels.chain(annotations).collect(),
            }
        })
        .collect();
    GatewayExplanation { router: router.to_string(), objects, ejected: ejected.to_vec() }
}

/// The paths under which `a` and `b` differ: down through objects and
/// equally long lists, a whole value where the shapes part.
fn changed_paths(a: Option<&Value>, b: Option<&Value>, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                changed_paths(x.get(k), y.get(k), &format!("{path}.{k}"), out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                changed_paths(Some(p), Some(q), &format!("{path}[{i}]"), out);
            }
        }
        (a, b) if a != b => out.push(path.to_string()),
        _ => {}
    }
}

impl ObjectAction {
    fn name(&self) -> &'static str {
        match self {
            ObjectAction::Create => "create",
            ObjectAction::Update { .. } => "replace-spec",
            ObjectAction::Unchanged => "unchanged",
        }
    }

    fn details(&self) -> Vec<String> {
        match self {
            ObjectAction::Update { changed, owner_added } => {
                let mut out: Vec<String> = changed.iter().take(MAX_CHANGES).cloned().collect();
                if changed.len() > MAX_CHANGES {
                    out.push(format!("... {} more", changed.len() - MAX_CHANGES));
                }
                if *owner_added {
                    out.push("metadata.ownerReferences (controller reference set)".into());
                }
                out
            }
            _ => Vec::new(),
        }
    }
}

impl GatewayExplanation {
    /// Aligned columns (KIND NAME ACTION), each object's changed fields and
    /// kept metadata below it, then the ejected backends.
    pub fn to_table(&self) -> String {
        let kind_w = self.objects.iter().map(|o| o.kind.len()).max().unwrap_or(0).max(4);
        let name_w = self.objects.iter().map(|o| o.name.chars().count()).max().unwrap_or(0).max(4);
        let mut out = format!("ModelRouter {} (dataPlane: Gateway)\n\n", self.router);
        let _ = writeln!(out, "{:<kind_w$}   {:<name_w$}   ACTION", "KIND", "NAME");
        for o in &self.objects {
            let _ = writeln!(out, "{:<kind_w$}   {:<name_w$}   {}", o.kind, o.name, o.action.name());
            for d in o.action.details() {
                let _ = writeln!(out, "    changes: {d}");
            }
            for k in &o.kept_metadata {
                let _ = writeln!(out, "    kept:    {k}");
            }
        }
        out.push_str("\nUpdate path: spec is replaced as a whole; labels, annotations, status and other owners' references stay.\n");
        if self.ejected.is_empty() {
            out.push_str("Ejected backends: <none>\n");
        } else {
            let _ = writeln!(
                out,
                "Ejected backends: {} (no ready replica; still have their Backend and AIServiceBackend)",
                self.ejected.join(", ")
            );
        }
        out
    }

    /// The same as JSON for machines, keys sorted.
    pub fn to_json(&self) -> Value {
        let objects: Vec<Value> = self
            .objects
            .iter()
            .map(|o| {
                let mut m = Map::new();
                m.insert("action".into(), json!(o.action.name()));
                if let ObjectAction::Update { changed, owner_added } = &o.action {
                    m.insert("changed".into(), json!(changed));
                    m.insert("ownerReferenceSet".into(), json!(owner_added));
                }
                m.insert("keptMetadata".into(), json!(o.kept_metadata));
                m.insert("kind".into(), json!(o.kind));
                m.insert("name".into(), json!(o.name));
                Value::Object(m)
            })
            .collect();
        json!({"dataPlane": "Gateway", "ejected": self.ejected, "objects": objects, "router": self.router})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::ObjectKey;

    fn item(live: Option<Value>, merged: Value) -> Reconciled {
        let key = ObjectKey {
            api_version: "aigateway.envoyproxy.io/v1beta1".into(),
            kind: "AIGatewayRoute".into(),
            namespace: "ns".into(),
            name: "r".into(),
        };
        Reconciled { key, live, merged, desired: None }
    }

    #[test]
    fn names_the_changed_spec_fields_and_the_kept_metadata() {
        let live = json!({"metadata": {"labels": {"team": "a"}}, "spec": {"rules": [{"backendRefs": [{"name": "x", "priority": 0}]}], "extra": 1}});
        let merged = json!({"metadata": {"labels": {"team": "a"}}, "spec": {"rules": [{"backendRefs": [{"name": "y", "priority": 0}]}]}});
        let e = explain_gateway("ns/r", &[item(Some(live), merged.clone()), item(None, merged)], &["b".into()]);
        assert_eq!(
            e.objects[0].action,
            ObjectAction::Update {
                changed: vec!["spec.extra".into(), "spec.rules[0].backendRefs[0].name".into()],
                owner_added: false
            }
        );
        assert_eq!(e.objects[0].kept_metadata, ["label team"]);
        assert_eq!(e.objects[1].action, ObjectAction::Create);
        let table = e.to_table();
        assert!(table.contains("    changes: spec.rules[0].backendRefs[0].name\n"), "{table}");
        assert!(table.contains("Ejected backends: b "), "{table}");
    }
}
