//! The operator's update path for the proxy Deployment: prune the user keys
//! that left the spec, merge while keeping other tools' keys, clean up stale
//! scrape annotations, sync the applied-key records, replace the pod spec,
//! and never touch the selector.

use std::collections::BTreeSet;

use serde_json::Value;

use super::tree::{map_at, remove, set_string_map, string_map};
use crate::kube::get;
use crate::kube::names::{APPLIED_POD_ANNOTATIONS_ANNOTATION, APPLIED_POD_LABELS_ANNOTATION, SCRAPE_ANNOTATIONS};
use crate::release::{Change, Release};
use crate::render::PodMetadata;

/// Reads an applied-key record as people and tools leave it: split on `,`,
/// trimmed, empty items skipped.
pub fn parse_record(record: Option<&str>) -> BTreeSet<String> {
    record.unwrap_or("").split(',').map(str::trim).filter(|k| !k.is_empty()).map(str::to_string).collect()
}

/// Updates the live Deployment `live` towards `desired` as the operator of
/// `release` does. `plan` is the desired pod-template metadata with its
/// records.
pub fn update(live: &Value, desired: &Value, plan: &PodMetadata, release: Release) -> Value {
    let mut out = live.clone();
    let live_annotations = string_map(live, &["metadata", "annotations"]);
    let tpl_labels = ["spec", "template", "metadata", "labels"];
    let tpl_annotations = ["spec", "template", "metadata", "annotations"];
    let mut labels = string_map(live, &tpl_labels);
    let mut annotations = string_map(live, &tpl_annotations);

    // 1. Prune recorded keys the spec no longer sets. Released operators
    // keep no records: they only merge.
    if plan.tracks_user_keys {
        let new_labels: BTreeSet<&String> = plan.applied_labels.iter().collect();
        let new_annotations: BTreeSet<&String> = plan.applied_annotations.iter().collect();
        for key in parse_record(live_annotations.get(APPLIED_POD_LABELS_ANNOTATION).map(String::as_str)) {
            if !new_labels.contains(&key) {
                labels.remove(&key);
            }
        }
        for key in parse_record(live_annotations.get(APPLIED_POD_ANNOTATIONS_ANNOTATION).map(String::as_str)) {
            if !new_annotations.contains(&key) {
                annotations.remove(&key);
            }
        }
    }
    // 2. Merge, desired wins.
    labels.extend(plan.labels.clone());
    annotations.extend(plan.annotations.clone());

    // 3. Without scrape emission, the operator's old scrape annotations go —
    // but never a key the user sets in podAnnotations.
    if plan.tracks_user_keys && !plan.emit_scrape {
        for (key, value) in SCRAPE_ANNOTATIONS {
            if !plan.user_annotation_keys.contains(key) && annotations.get(key).map(String::as_str) == Some(value) {
                annotations.remove(key);
            }
        }
    }
    set_string_map(&mut out, &tpl_labels, &labels);
    set_string_map(&mut out, &tpl_annotations, &annotations);

    // Deployment labels: live overlaid by the operator's.
    let mut meta_labels = string_map(live, &["metadata", "labels"]);
    meta_labels.extend(string_map(desired, &["metadata", "labels"]));
    set_string_map(&mut out, &["metadata", "labels"], &meta_labels);

    // 4. The records follow the new spec; every other annotation stays.
    if plan.tracks_user_keys {
        let mut meta_annotations = live_annotations;
        for (key, keys) in [
            (APPLIED_POD_LABELS_ANNOTATION, &plan.applied_labels),
            (APPLIED_POD_ANNOTATIONS_ANNOTATION, &plan.applied_annotations),
        ] {
            if keys.is_empty() {
                meta_annotations.remove(key);
            } else {
                meta_annotations.insert(key.to_string(), keys.join(","));
            }
        }
        set_string_map(&mut out, &["metadata", "annotations"], &meta_annotations);
    }

    // 5. Replacements, not merges: a live field the spec does not set is
    // gone. revisionHistoryLimit is the operator's from v0.8.14 (#798);
    // before, the live value stays.
    let mut replaced = vec!["replicas"];
    if release.has(Change::RevisionHistoryLimit) {
        replaced.push("revisionHistoryLimit");
    }
    for field in replaced {
        match get(desired, &["spec", field]) {
            Some(v) => {
                map_at(&mut out, &["spec"]).insert(field.to_string(), v.clone());
            }
            None => {
                remove(&mut out, &["spec", field]);
            }
        }
    }
    match get(desired, &["spec", "template", "spec"]) {
        Some(pod_spec) => {
            map_at(&mut out, &["spec", "template"]).insert("spec".into(), pod_spec.clone());
        }
        None => {
            remove(&mut out, &["spec", "template", "spec"]);
        }
    }
    // 6. The selector stays as live; 7. everything else passes through.
    out
}

/// A warning when the live selector is not the operator's selector labels:
/// the operator cannot fix it (selectors are immutable).
pub fn selector_warning(live: &Value, desired: &Value) -> Option<String> {
    let live_sel = get(live, &["spec", "selector"]);
    let want = get(desired, &["spec", "selector"]);
    if live_sel == want {
        return None;
    }
    let show = |v: Option<&Value>| v.map(Value::to_string).unwrap_or_else(|| "none".into());
    Some(format!(
        "its selector {} is not the operator's {}; selectors are immutable, so it is kept — delete and recreate the Deployment to change it",
        show(live_sel),
        show(want)
    ))
}
