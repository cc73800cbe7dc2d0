//! "Why is this label on my pods?": every pod-template label and annotation
//! of a router's Deployment, and the two applied-key records on the
//! Deployment itself, with who owns each key and what the operator's next
//! reconcile does to it.
//!
//! The after-state is the operator's own update path
//! (`reconcile::deployment::update`); this module only compares it with the
//! before-state and the ModelRouter's spec to say why. `gateway` explains a
//! `dataPlane: Gateway` router's objects the same way.

pub mod gateway;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use crate::kube::names::{APPLIED_POD_ANNOTATIONS_ANNOTATION, APPLIED_POD_LABELS_ANNOTATION, SCRAPE_ANNOTATIONS};
use crate::kube::shown::one_line;
use crate::reconcile::deployment::{parse_record, update};
use crate::reconcile::tree::string_map;
use crate::render::{string_object, RenderedRouter, RouterInput};

/// Where a key lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// `spec.template.metadata.labels`
    TemplateLabel,
    /// `spec.template.metadata.annotations`
    TemplateAnnotation,
    /// `metadata.annotations` of the Deployment (only the applied-key records).
    DeploymentAnnotation,
}

impl Place {
    /// The name the table and the JSON both print.
    fn json_name(self) -> &'static str {
        match self {
            Place::TemplateLabel => "templateLabel",
            Place::TemplateAnnotation => "templateAnnotation",
            Place::DeploymentAnnotation => "deploymentAnnotation",
        }
    }
}

/// Who a key belongs to, as the operator sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Owner {
    /// The selector labels, the config hash, the scrape annotations (when the
    /// operator emits them or cleans them up) and the applied-key records.
    Operator,
    /// Set by `spec.proxy.podLabels` / `podAnnotations`, or recorded as such
    /// in the live Deployment's applied-key record.
    User,
    /// Anyone else: `kubectl rollout restart`, GitOps tools, injectors...
    OtherTool,
}

impl Owner {
    /// The name the table and the JSON both print.
    fn json_name(self) -> &'static str {
        match self {
            Owner::Operator => "operator",
            Owner::User => "user",
            Owner::OtherTool => "otherTool",
        }
    }
}

/// What the next reconcile does to a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Present before and after with the same value.
    Kept,
    /// Absent before (or no live Deployment at all).
    Added,
    /// Present before with another value.
    Changed { from: String },
    /// Removed: a user key recorded as applied that the spec no longer sets,
    /// or an applied-key record that became empty.
    Pruned,
    /// The spec sets a key the operator owns; the operator's value wins and
    /// the key is not recorded as the user's.
    OperatorOverridesUser { user_value: String },
    /// A `prometheus.io/*` annotation at the operator's value, removed because
    /// the operator runs without `--emit-scrape-annotations`.
    ScrapeCleanup,
}

impl Action {
    fn json_name(&self) -> &'static str {
        match self {
            Action::Kept => "kept",
            Action::Added => "added",
            Action::Changed { .. } => "changed",
            Action::Pruned => "pruned",
            Action::OperatorOverridesUser { .. } => "operatorOverridesUser",
            Action::ScrapeCleanup => "scrapeCleanup",
        }
    }

    /// The JSON name, with the value it replaces where there is one: the
    /// table speaks the JSON contract's words.
    fn table_text(&self) -> String {
        match self {
            Action::Changed { from } => format!("{} (was {})", self.json_name(), quoted(from)),
            Action::OperatorOverridesUser { user_value } => {
                format!("{} (spec sets {})", self.json_name(), quoted(user_value))
            }
            _ => self.json_name().into(),
        }
    }
}

/// One key in one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub place: Place,
    pub key: String,
    /// The value after this reconcile; `None` when the key is removed.
    pub value: Option<String>,
    pub owner: Owner,
    pub action: Action,
}

/// The Deployment's selector: what is live, what the operator would write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorInfo {
    /// The live `spec.selector.matchLabels`, when a live Deployment is given.
    pub live: Option<BTreeMap<String, String>>,
    /// The operator's selector labels.
    pub operator: BTreeMap<String, String>,
    /// Whether the selector can still be chosen: only before the Deployment
    /// exists, since a Deployment's selector is immutable.
    pub can_change: bool,
}

/// Every pod-template key of one router's Deployment, explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// `namespace/name` of the ModelRouter.
    pub router: String,
    /// Sorted by place, then key.
    pub rows: Vec<Row>,
    pub selector: SelectorInfo,
}

const TEMPLATE_LABELS: [&str; 4] = ["spec", "template", "metadata", "labels"];
const TEMPLATE_ANNOTATIONS: [&str; 4] = ["spec", "template", "metadata", "annotations"];
const DEPLOYMENT_ANNOTATIONS: [&str; 2] = ["metadata", "annotations"];
const RECORDS: [&str; 2] = [APPLIED_POD_LABELS_ANNOTATION, APPLIED_POD_ANNOTATIONS_ANNOTATION];

/// Explains the pod-template keys of `rendered`'s Deployment (`desired`)
/// as the next reconcile would leave them, against `live_deployment` when
/// there is one.
pub fn explain(
    rendered: &RenderedRouter,
    router: &RouterInput,
    desired: &Value,
    live_deployment: Option<&Value>,
) -> Explanation {
    let empty = json!({});
    let plan = &rendered.pod_metadata;
    let after = match live_deployment {
        Some(live) => update(live, desired, plan, rendered.release),
        None => desired.clone(),
    };
    let before = live_deployment.unwrap_or(&empty);
    let before_records = string_map(before, &DEPLOYMENT_ANNOTATIONS);

    let proxy = router.router.spec.proxy.as_ref();
    let spec_labels = proxy.and_then(|p| p.pod_labels.clone()).unwrap_or_default();
    let spec_annotations = proxy.and_then(|p| p.pod_annotations.clone()).unwrap_or_default();

    let mut rows = Vec::new();
    let template_places = [
        (Place::TemplateLabel, &TEMPLATE_LABELS, &spec_labels, &plan.operator_labels, APPLIED_POD_LABELS_ANNOTATION),
        (
            Place::TemplateAnnotation,
            &TEMPLATE_ANNOTATIONS,
            &spec_annotations,
            &plan.operator_annotations,
            APPLIED_POD_ANNOTATIONS_ANNOTATION,
        ),
    ];
    for (place, path, spec, operator, record) in template_places {
        // A released operator keeps no records: a recorded key is nobody's
        // to it, and nothing is pruned by one.
        let old_record = match plan.tracks_user_keys {
            true => parse_record(before_records.get(record).map(String::as_str)),
            false => BTreeSet::new(),
        };
        let keys = Keys { spec, operator, old_record: &old_record };
        let (before_map, after_map) = (string_map(before, path), string_map(&after, path));
        for key in union(&before_map, &after_map) {
            let (old, new) = (before_map.get(key), after_map.get(key));
            let owner = keys.owner(key);
            let action = match (old, new) {
                (_, Some(new)) => keys.present_action(key, old, new),
                // Only two steps remove a template key: the prune of recorded
                // keys (first), and the scrape cleanup.
                (Some(old), None) => {
                    let scrape = place == Place::TemplateAnnotation && is_operator_scrape_value(key, old);
                    if scrape && !old_record.contains(key) {
                        Action::ScrapeCleanup
                    } else {
                        Action::Pruned
                    }
                }
                (None, None) => continue,
            };
            let owner = if action == Action::ScrapeCleanup { Owner::Operator } else { owner };
            rows.push(Row { place, key: key.clone(), value: new.cloned(), owner, action });
        }
    }

    let after_records = string_map(&after, &DEPLOYMENT_ANNOTATIONS);
    for record in RECORDS {
        let (old, new) = (before_records.get(record), after_records.get(record));
        let action = match (old, new) {
            (None, None) => continue,
            (None, Some(_)) => Action::Added,
            (Some(old), Some(new)) if old == new => Action::Kept,
            (Some(old), Some(_)) => Action::Changed { from: old.clone() },
            (Some(_), None) => Action::Pruned,
        };
        let place = Place::DeploymentAnnotation;
        let owner = if plan.tracks_user_keys { Owner::Operator } else { Owner::OtherTool };
        rows.push(Row { place, key: record.to_string(), value: new.cloned(), owner, action });
    }
    rows.sort_by(|a, b| (a.place, &a.key).cmp(&(b.place, &b.key)));

    let live_selector = live_deployment.map(|live| string_map(live, &["spec", "selector", "matchLabels"]));
    Explanation {
        router: format!("{}/{}", router.namespace, router.name),
        rows,
        selector: SelectorInfo {
            can_change: live_selector.is_none(),
            live: live_selector,
            operator: plan.operator_labels.clone(),
        },
    }
}

/// What classifies the keys of one place.
struct Keys<'a> {
    /// What `spec.proxy.podLabels` / `podAnnotations` sets.
    spec: &'a BTreeMap<String, String>,
    /// The operator's keys and values for this place.
    operator: &'a BTreeMap<String, String>,
    /// The live record of applied user keys.
    old_record: &'a BTreeSet<String>,
}

impl Keys<'_> {
    fn owner(&self, key: &str) -> Owner {
        if self.operator.contains_key(key) {
            Owner::Operator
        } else if self.spec.contains_key(key) || self.old_record.contains(key) {
            Owner::User
        } else {
            Owner::OtherTool
        }
    }

    /// The action for a key present after the reconcile.
    fn present_action(&self, key: &str, old: Option<&String>, new: &str) -> Action {
        if self.operator.contains_key(key) {
            if let Some(user_value) = self.spec.get(key) {
                return Action::OperatorOverridesUser { user_value: user_value.clone() };
            }
        }
        match old {
            None => Action::Added,
            Some(old) if old == new => Action::Kept,
            Some(old) => Action::Changed { from: old.clone() },
        }
    }
}

fn union<'a>(a: &'a BTreeMap<String, String>, b: &'a BTreeMap<String, String>) -> BTreeSet<&'a String> {
    a.keys().chain(b.keys()).collect()
}

fn is_operator_scrape_value(key: &str, value: &str) -> bool {
    SCRAPE_ANNOTATIONS.iter().any(|(k, v)| *k == key && *v == value)
}

/// Table cells longer than this are cut (the JSON form keeps every byte).
const MAX_CELL: usize = 100;

/// A value as one table cell: what could end the line escaped, long
/// values cut.
fn cell(s: &str) -> String {
    let out = one_line(s).into_owned();
    if out.chars().count() > MAX_CELL {
        let cut: String = out.chars().take(MAX_CELL - 3).collect();
        return format!("{cut}...");
    }
    out
}

fn quoted(s: &str) -> String {
    format!("\"{}\"", cell(s))
}

/// `k=v,k=v`, as `kubectl describe` prints a selector.
fn selector_text(m: &BTreeMap<String, String>) -> String {
    if m.is_empty() {
        return "<none>".into();
    }
    m.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}

impl Explanation {
    /// Aligned columns (PLACE KEY VALUE OWNER ACTION), then the selector, in
    /// the manner of kubectl's human-readable output.
    pub fn to_table(&self) -> String {
        let header = ["PLACE", "KEY", "VALUE", "OWNER", "ACTION"].map(String::from);
        let mut lines = vec![header];
        for row in &self.rows {
            lines.push([
                row.place.json_name().to_string(),
                cell(&row.key),
                row.value.as_deref().map(cell).unwrap_or_else(|| "<none>".into()),
                row.owner.json_name().to_string(),
                row.action.table_text(),
            ]);
        }
        let mut widths = [0usize; 5];
        for line in &lines {
            for (w, c) in widths.iter_mut().zip(line) {
                *w = (*w).max(c.chars().count());
            }
        }
        let mut out = format!("ModelRouter {}\n\n", self.router);
        for line in &lines {
            let mut text = String::new();
            for (i, (c, w)) in line.iter().zip(widths).enumerate() {
                if i + 1 == line.len() {
                    text.push_str(c);
                } else {
                    let _ = write!(text, "{c:<w$}   ");
                }
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }

        let s = &self.selector;
        out.push_str("\nSelector:\n");
        let live = match &s.live {
            Some(live) => selector_text(live),
            None => "<none> (no live Deployment)".into(),
        };
        let _ = writeln!(out, "  Live:        {live}");
        let _ = writeln!(out, "  Operator:    {}", selector_text(&s.operator));
        let change = if s.can_change {
            "yes (set once, when the Deployment is created)"
        } else {
            "no (a Deployment's selector is immutable; the live one is kept)"
        };
        let _ = writeln!(out, "  Can change:  {change}");
        if s.live.as_ref().is_some_and(|live| *live != s.operator) {
            out.push_str(
                "  Note:        the live selector is not the operator's; delete and recreate the Deployment to change it\n",
            );
        }
        out
    }

    /// The same as JSON for machines: object keys sorted, rows in table
    /// order, optional fields present only when they apply.
    pub fn to_json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|row| {
                let mut m = Map::new();
                m.insert("place".into(), json!(row.place.json_name()));
                m.insert("key".into(), json!(row.key));
                m.insert("value".into(), row.value.as_ref().map_or(Value::Null, |v| json!(v)));
                m.insert("owner".into(), json!(row.owner.json_name()));
                m.insert("action".into(), json!(row.action.json_name()));
                match &row.action {
                    Action::Changed { from } => {
                        m.insert("from".into(), json!(from));
                    }
                    Action::OperatorOverridesUser { user_value } => {
                        m.insert("userValue".into(), json!(user_value));
                    }
                    _ => {}
                }
                Value::Object(sort_keys(m))
            })
            .collect();
        let selector = Map::from_iter([
            ("canChange".to_string(), json!(self.selector.can_change)),
            ("live".to_string(), self.selector.live.as_ref().map_or(Value::Null, string_object)),
            ("operator".to_string(), string_object(&self.selector.operator)),
        ]);
        let top = Map::from_iter([
            ("router".to_string(), json!(self.router)),
            ("rows".to_string(), Value::Array(rows)),
            ("selector".to_string(), Value::Object(sort_keys(selector))),
        ]);
        Value::Object(sort_keys(top))
    }
}

/// A map with its keys in byte order, whatever map type serde_json was
/// built with (a dependency could turn on `preserve_order`).
fn sort_keys(m: Map<String, Value>) -> Map<String, Value> {
    let sorted: BTreeMap<String, Value> = m.into_iter().collect();
    sorted.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::names::CONFIG_HASH_ANNOTATION;
    use crate::model::{apply_router_defaults, ModelRouter};
    use crate::reconcile::tree::map_at;
    use crate::release::Release;
    use crate::render::{render_router, Inventory, OperatorFlags};

    fn input(yaml: &str) -> RouterInput {
        let mut router: ModelRouter = crate::input::from_yaml_str(yaml).expect("router parses");
        apply_router_defaults(&mut router);
        let name = router.metadata.name.clone().expect("a name");
        let namespace = router.metadata.namespace.clone().unwrap_or_else(|| "default".into());
        RouterInput { router, name, namespace, uid: None }
    }

    /// Rendered as `next`: these tests are about the pod-metadata change's
    /// records, which no release keeps yet.
    fn render(input: &RouterInput, emit_scrape: bool) -> RenderedRouter {
        let flags =
            OperatorFlags { emit_scrape_annotations: emit_scrape, release: Release::NEXT, ..OperatorFlags::default() };
        render_router(input, &Inventory::default(), &flags).expect("renders")
    }

    fn deployment(rendered: &RenderedRouter) -> Value {
        rendered.objects.iter().find(|o| o["kind"] == "Deployment").expect("a Deployment").clone()
    }

    fn set(obj: &mut Value, path: &[&str], key: &str, value: &str) {
        map_at(obj, path).insert(key.into(), json!(value));
    }

    fn router_yaml(proxy: &str) -> String {
        format!(
            "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: coding-router\n  namespace: default\nspec:\n  backends:\n  - name: gpt\n    external: {{provider: openai, model: gpt-4o}}\n{proxy}"
        )
    }

    fn lifecycle(step: &str) -> RouterInput {
        let path = format!("{}/testdata/lifecycle/{step}", env!("CARGO_MANIFEST_DIR"));
        input(&std::fs::read_to_string(path).expect("lifecycle fixture"))
    }

    fn row<'a>(e: &'a Explanation, place: Place, key: &str) -> &'a Row {
        e.rows.iter().find(|r| r.place == place && r.key == key).unwrap_or_else(|| panic!("no row {key}"))
    }

    #[test]
    fn without_a_live_deployment_everything_is_added() {
        let router = input(&router_yaml(
            "  proxy:\n    podLabels: {team: search}\n    podAnnotations: {sidecar.istio.io/inject: \"false\"}\n",
        ));
        let rendered = render(&router, false);
        let e = explain(&rendered, &router, &deployment(&rendered), None);
        assert!(e.rows.iter().all(|r| r.action == Action::Added), "{:#?}", e.rows);
        assert_eq!(row(&e, Place::TemplateLabel, "team").owner, Owner::User);
        assert_eq!(row(&e, Place::TemplateLabel, "app").owner, Owner::Operator);
        assert_eq!(row(&e, Place::DeploymentAnnotation, APPLIED_POD_LABELS_ANNOTATION).value.as_deref(), Some("team"));
        assert!(e.selector.can_change);
        assert_eq!(e.selector.live, None);
        insta::assert_snapshot!("no_live", e.to_table());
    }

    /// The spec's §6, step 3: `a` changes, `b` and `x` leave, another tool's
    /// keys stay, and a spoofed hash in the spec never wins.
    #[test]
    fn lifecycle_step_3() {
        let step1 = lifecycle("1-add.yaml");
        let mut live = deployment(&render(&step1, false));
        set(&mut live, &TEMPLATE_LABELS, "gitops.example.com/sync", "yes");
        set(&mut live, &TEMPLATE_ANNOTATIONS, "kubectl.kubernetes.io/restartedAt", "now");
        let step3 = lifecycle("3-change.yaml");
        let rendered = render(&step3, false);
        let e = explain(&rendered, &step3, &deployment(&rendered), Some(&live));

        let label = |k: &str| row(&e, Place::TemplateLabel, k).clone();
        let annotation = |k: &str| row(&e, Place::TemplateAnnotation, k).clone();
        assert_eq!(label("a").action, Action::Changed { from: "1".into() });
        assert_eq!((label("a").owner, label("a").value.as_deref()), (Owner::User, Some("changed")));
        assert_eq!((label("b").owner, label("b").action, label("b").value), (Owner::User, Action::Pruned, None));
        assert_eq!(annotation("x").action, Action::Pruned);
        for (r, key) in
            [(label("gitops.example.com/sync"), "yes"), (annotation("kubectl.kubernetes.io/restartedAt"), "now")]
        {
            assert_eq!((r.owner, r.action, r.value.as_deref()), (Owner::OtherTool, Action::Kept, Some(key)));
        }
        let hash = annotation(CONFIG_HASH_ANNOTATION);
        assert_eq!(hash.action, Action::OperatorOverridesUser { user_value: "spoofed".into() });
        assert_eq!(hash.value.as_deref(), Some(rendered.compiled.hash.as_str()));
        let records = |k: &str| row(&e, Place::DeploymentAnnotation, k).clone();
        assert_eq!(records(APPLIED_POD_LABELS_ANNOTATION).action, Action::Changed { from: "a,b".into() });
        assert_eq!(records(APPLIED_POD_ANNOTATIONS_ANNOTATION).action, Action::Pruned);
        assert!(!e.selector.can_change);
        assert_eq!(e.selector.live.as_ref(), Some(&e.selector.operator));
        insta::assert_snapshot!("lifecycle_step_3", e.to_table());
    }

    #[test]
    fn a_user_key_the_operator_owns_is_overridden() {
        let router = input(&router_yaml(
            "  proxy:\n    podLabels:\n      app: mine\n      inference.llmkube.dev/model-router: other\n      tier: web\n",
        ));
        let rendered = render(&router, false);
        let mut live = deployment(&rendered);
        set(&mut live, &TEMPLATE_LABELS, "tier", "api");
        let e = explain(&rendered, &router, &deployment(&rendered), Some(&live));
        let app = row(&e, Place::TemplateLabel, "app");
        assert_eq!(app.owner, Owner::Operator);
        assert_eq!(app.action, Action::OperatorOverridesUser { user_value: "mine".into() });
        assert_eq!(app.value.as_deref(), Some("coding-router-router-proxy"));
        assert_eq!(row(&e, Place::TemplateLabel, "tier").action, Action::Changed { from: "api".into() });
        // Only the key the operator does not own is recorded as the user's.
        assert_eq!(row(&e, Place::DeploymentAnnotation, APPLIED_POD_LABELS_ANNOTATION).value.as_deref(), Some("tier"));
        insta::assert_snapshot!("operator_overrides_user", e.to_table());
    }

    #[test]
    fn scrape_annotations_left_from_emission_are_cleaned_up() {
        let router = input(&router_yaml("  proxy:\n    podAnnotations:\n      prometheus.io/path: /metrics\n"));
        // Live: written while the operator emitted scrape annotations, then a
        // tool moved the port.
        let mut live = deployment(&render(&router, true));
        set(&mut live, &TEMPLATE_ANNOTATIONS, "prometheus.io/port", "8080");
        let rendered = render(&router, false);
        let e = explain(&rendered, &router, &deployment(&rendered), Some(&live));
        let scrape = row(&e, Place::TemplateAnnotation, "prometheus.io/scrape");
        assert_eq!((scrape.owner, &scrape.action, &scrape.value), (Owner::Operator, &Action::ScrapeCleanup, &None));
        // The user's own prometheus.io/path survives; a value other than the
        // operator's is not the operator's to clean up.
        let path = row(&e, Place::TemplateAnnotation, "prometheus.io/path");
        assert_eq!((path.owner, &path.action), (Owner::User, &Action::Kept));
        let port = row(&e, Place::TemplateAnnotation, "prometheus.io/port");
        assert_eq!((port.owner, &port.action, port.value.as_deref()), (Owner::OtherTool, &Action::Kept, Some("8080")));
        insta::assert_snapshot!("scrape_cleanup", e.to_table());
    }

    #[test]
    fn with_emission_on_scrape_annotations_are_the_operators() {
        let router = input(&router_yaml("  proxy:\n    podAnnotations:\n      prometheus.io/port: \"1234\"\n"));
        let rendered = render(&router, true);
        let e = explain(&rendered, &router, &deployment(&rendered), None);
        let port = row(&e, Place::TemplateAnnotation, "prometheus.io/port");
        assert_eq!((port.owner, port.value.as_deref()), (Owner::Operator, Some("9090")));
        assert_eq!(port.action, Action::OperatorOverridesUser { user_value: "1234".into() });
        assert_eq!(row(&e, Place::TemplateAnnotation, "prometheus.io/scrape").action, Action::Added);
    }

    #[test]
    fn a_foreign_live_selector_is_reported_and_kept() {
        let router = input(&router_yaml(""));
        let rendered = render(&router, false);
        let mut live = deployment(&rendered);
        live["spec"]["selector"] = json!({"matchLabels": {"app": "legacy"}});
        let e = explain(&rendered, &router, &deployment(&rendered), Some(&live));
        assert_eq!(e.selector.live, Some(BTreeMap::from([("app".to_string(), "legacy".to_string())])));
        assert!(!e.selector.can_change);
        assert!(e.to_table().contains("Note:        the live selector is not the operator's"));
    }

    #[test]
    fn a_record_key_the_operator_now_owns_ends_at_the_operators_value() {
        let router = input(&router_yaml(""));
        let rendered = render(&router, false);
        let mut live = deployment(&rendered);
        set(&mut live, &TEMPLATE_LABELS, "app", "user-set-once");
        set(&mut live, &DEPLOYMENT_ANNOTATIONS, APPLIED_POD_LABELS_ANNOTATION, " app, ,old");
        set(&mut live, &TEMPLATE_LABELS, "old", "1");
        let e = explain(&rendered, &router, &deployment(&rendered), Some(&live));
        let app = row(&e, Place::TemplateLabel, "app");
        assert_eq!((app.owner, &app.action), (Owner::Operator, &Action::Changed { from: "user-set-once".into() }));
        assert_eq!(row(&e, Place::TemplateLabel, "old").action, Action::Pruned);
        assert_eq!(row(&e, Place::DeploymentAnnotation, APPLIED_POD_LABELS_ANNOTATION).action, Action::Pruned);
    }

    #[test]
    fn json_is_sorted_and_complete() {
        let step1 = lifecycle("1-add.yaml");
        let live = deployment(&render(&step1, false));
        let step3 = lifecycle("3-change.yaml");
        let rendered = render(&step3, false);
        let json = explain(&rendered, &step3, &deployment(&rendered), Some(&live)).to_json();
        let text = serde_json::to_string(&json).expect("serializes");
        assert!(text.starts_with("{\"router\":\"default/coding-router\",\"rows\":[{\"action\":\"changed\","), "{text}");
        let rows = json["rows"].as_array().expect("rows");
        let b = rows.iter().find(|r| r["key"] == "b").expect("row b");
        assert_eq!(
            b,
            &json!({"action": "pruned", "key": "b", "owner": "user", "place": "templateLabel", "value": null})
        );
        let hash = rows.iter().find(|r| r["key"] == CONFIG_HASH_ANNOTATION).expect("hash row");
        assert_eq!(hash["userValue"], "spoofed");
        assert_eq!(json["selector"]["canChange"], false);
        assert_eq!(json["selector"]["live"], json["selector"]["operator"]);
    }

    #[test]
    fn cells_escape_control_characters_and_cut_long_values() {
        assert_eq!(cell("a\nb\tc"), "a\\nb\\tc");
        let long = "x".repeat(150);
        let c = cell(&long);
        assert_eq!(c.chars().count(), MAX_CELL);
        assert!(c.ends_with("..."));
    }
}
