//! Invariants of the Deployment update path, over random live template
//! maps, random (often garbage) previous records and random specs.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use routerctl::kube::names::{
    selector_labels, APPLIED_POD_ANNOTATIONS_ANNOTATION, APPLIED_POD_LABELS_ANNOTATION, CONFIG_HASH_ANNOTATION,
    SCRAPE_ANNOTATIONS,
};
use routerctl::model::{apply_router_defaults, ModelRouter};
use routerctl::reconcile::deployment::{parse_record, update};
use routerctl::release::Release;
use routerctl::render::{pod_metadata, OperatorFlags, PodMetadata, RouterInput};
use serde_json::{json, Value};

const HASH: &str = "0123abcd";

/// A small key space so that live keys, records and spec keys collide often,
/// operator keys included.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("team".to_string()),
        Just("example.com/x".to_string()),
        Just("app".to_string()),
        Just("inference.llmkube.dev/model-router".to_string()),
        Just(CONFIG_HASH_ANNOTATION.to_string()),
        Just("prometheus.io/scrape".to_string()),
        Just("prometheus.io/port".to_string()),
        Just("kubectl.kubernetes.io/restartedAt".to_string()),
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![Just("true".to_string()), Just("9090".to_string()), "[a-z0-9]{0,3}"]
}

fn string_map() -> impl Strategy<Value = BTreeMap<String, String>> {
    prop::collection::btree_map(key(), value(), 0..6)
}

/// Records as people and tools leave them: spaces, empty items, duplicates.
fn record() -> impl Strategy<Value = Option<String>> {
    let item = prop_oneof![key(), Just(String::new()), Just(" ".to_string()), key().prop_map(|k| format!(" {k} "))];
    prop::option::of(prop::collection::vec(item, 0..6).prop_map(|items| items.join(",")))
}

fn router(labels: &BTreeMap<String, String>, annotations: &BTreeMap<String, String>) -> RouterInput {
    let mut mr: ModelRouter = serde_json::from_value(json!({
        "metadata": {"name": "r"},
        "spec": {
            "backends": [{"name": "g", "external": {"provider": "openai", "model": "m"}}],
            "proxy": {"podLabels": labels, "podAnnotations": annotations}
        }
    }))
    .expect("a router");
    apply_router_defaults(&mut mr);
    RouterInput { router: mr, name: "r".into(), namespace: "ns".into(), uid: None }
}

fn desired(plan: &PodMetadata) -> Value {
    let mut annotations = serde_json::Map::new();
    if !plan.applied_labels.is_empty() {
        annotations.insert(APPLIED_POD_LABELS_ANNOTATION.into(), json!(plan.applied_labels.join(",")));
    }
    if !plan.applied_annotations.is_empty() {
        annotations.insert(APPLIED_POD_ANNOTATIONS_ANNOTATION.into(), json!(plan.applied_annotations.join(",")));
    }
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "r-router-proxy", "labels": {"app": "r-router-proxy"}, "annotations": annotations},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": selector_labels("r")},
            "template": {"metadata": {"labels": plan.labels, "annotations": plan.annotations}, "spec": {"containers": []}}
        }
    })
}

fn live(
    labels: &BTreeMap<String, String>,
    annotations: &BTreeMap<String, String>,
    label_record: &Option<String>,
    annotation_record: &Option<String>,
    selector: &BTreeMap<String, String>,
) -> Value {
    let mut meta = serde_json::Map::new();
    if let Some(r) = label_record {
        meta.insert(APPLIED_POD_LABELS_ANNOTATION.into(), json!(r));
    }
    if let Some(r) = annotation_record {
        meta.insert(APPLIED_POD_ANNOTATIONS_ANNOTATION.into(), json!(r));
    }
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "r-router-proxy", "annotations": meta},
        "spec": {
            "selector": {"matchLabels": selector},
            "strategy": {"type": "Recreate"},
            "template": {"metadata": {"labels": labels, "annotations": annotations}}
        }
    })
}

fn map_at(v: &Value, path: &[&str]) -> BTreeMap<String, String> {
    let mut cur = v;
    for k in path {
        cur = &cur[*k];
    }
    cur.as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn update_keeps_the_invariants(
        live_labels in string_map(),
        live_annotations in string_map(),
        label_record in record(),
        annotation_record in record(),
        spec_labels in string_map(),
        spec_annotations in string_map(),
        live_selector in string_map(),
        emit_scrape in any::<bool>(),
    ) {
        let input = router(&spec_labels, &spec_annotations);
        // The pod-metadata change's update path: `next`, the one that has it.
        let flags = OperatorFlags { emit_scrape_annotations: emit_scrape, release: Release::NEXT, ..OperatorFlags::default() };
        let plan = pod_metadata(&input, HASH, &flags);
        let want = desired(&plan);
        let before = live(&live_labels, &live_annotations, &label_record, &annotation_record, &live_selector);
        let after = update(&before, &want, &plan, Release::NEXT);

        // The selector is never touched.
        prop_assert_eq!(&after["spec"]["selector"], &before["spec"]["selector"]);
        // Fields the update path does not own pass through.
        prop_assert_eq!(&after["spec"]["strategy"], &before["spec"]["strategy"]);

        let labels = map_at(&after, &["spec", "template", "metadata", "labels"]);
        let annotations = map_at(&after, &["spec", "template", "metadata", "annotations"]);
        // Operator keys hold operator values.
        for (k, v) in selector_labels("r") {
            prop_assert_eq!(labels.get(&k), Some(&v));
        }
        prop_assert_eq!(annotations.get(CONFIG_HASH_ANNOTATION).map(String::as_str), Some(HASH));
        if emit_scrape {
            for (k, v) in SCRAPE_ANNOTATIONS {
                prop_assert_eq!(annotations.get(k).map(String::as_str), Some(v));
            }
        }

        // The new records are exactly the applied user keys.
        let record_of = |key: &str| map_at(&after, &["metadata", "annotations"]).get(key).cloned();
        let applied_labels: Vec<String> = spec_labels.keys().filter(|k| !selector_labels("r").contains_key(*k)).cloned().collect();
        prop_assert_eq!(record_of(APPLIED_POD_LABELS_ANNOTATION), (!applied_labels.is_empty()).then(|| applied_labels.join(",")));
        prop_assert_eq!(record_of(APPLIED_POD_ANNOTATIONS_ANNOTATION), (!plan.applied_annotations.is_empty()).then(|| plan.applied_annotations.join(",")));

        // Foreign keys (never recorded, not in the spec, not the operator's) are unchanged.
        let old_labels_record = parse_record(label_record.as_deref());
        for (k, v) in &live_labels {
            if !old_labels_record.contains(k) && !plan.labels.contains_key(k) {
                prop_assert_eq!(labels.get(k), Some(v), "foreign label {} changed", k);
            }
        }
        // A label that left was recorded before and is no longer applied.
        for k in live_labels.keys() {
            if !labels.contains_key(k) {
                prop_assert!(old_labels_record.contains(k) && !plan.applied_labels.contains(k), "label {} pruned without cause", k);
            }
        }
        // A recorded key the spec no longer sets is gone (unless the
        // operator sets it itself).
        for k in &old_labels_record {
            if !plan.labels.contains_key(k) {
                prop_assert!(!labels.contains_key(k), "recorded label {} was not pruned", k);
            }
        }
        for k in parse_record(annotation_record.as_deref()) {
            if !plan.annotations.contains_key(&k) {
                prop_assert!(!annotations.contains_key(&k), "recorded annotation {} was not pruned", k);
            }
        }
        // An annotation that left was recorded and left the spec, or was an
        // operator scrape leftover the user does not set.
        let old_annotations_record = parse_record(annotation_record.as_deref());
        let scrape: BTreeSet<&str> = SCRAPE_ANNOTATIONS.iter().map(|(k, _)| *k).collect();
        for (k, v) in &live_annotations {
            if !annotations.contains_key(k) {
                let pruned = old_annotations_record.contains(k) && !plan.applied_annotations.contains(k);
                let cleaned = !emit_scrape && scrape.contains(k.as_str()) && !spec_annotations.contains_key(k)
                    && SCRAPE_ANNOTATIONS.iter().any(|(sk, sv)| sk == k && sv == v);
                prop_assert!(pruned || cleaned, "annotation {} removed without cause", k);
            }
        }

        // Applying twice equals applying once.
        prop_assert_eq!(update(&after, &want, &plan, Release::NEXT), after);
    }
}

#[test]
fn records_parse_like_people_write_them() {
    let parsed = parse_record(Some(" a, ,b,,a , c"));
    assert_eq!(parsed, BTreeSet::from(["a".to_string(), "b".to_string(), "c".to_string()]));
    assert!(parse_record(None).is_empty());
    assert!(parse_record(Some(" , ")).is_empty());
}
