//! The ResourceList as text: read (checked to be one, its items apart from
//! the rest) and written back (the items one at a time, then the results).
//!
//! In the layout kustomize and kpt write, the items are read one at a time
//! (`input::items`) and an item the function only passes through is kept
//! as compact JSON beside what the function asks of it (`facts`), so that
//! a long list is never held as one tree. Any other layout is read whole.
//! An item the function reads keeps its own text (`ItemText`), for the
//! pipeline's findings to point at its lines.

use anyhow::{anyhow, bail, Result};
use serde_json::{json, Map, Value};

use crate::input::items::{self, ItemText};
use crate::kube::{annotation, group_of, str_at};
use crate::model::GROUP;
use crate::output::yaml::to_yaml;

/// The annotation kpt and kustomize record an item's file in, and its
/// pre-v1 name (both are written, equal, as the orchestrators expect).
pub(super) const PATH_ANNOTATIONS: [&str; 2] = ["internal.config.kubernetes.io/path", "config.kubernetes.io/path"];
/// The index of an item within its file, and its pre-v1 name.
pub(super) const INDEX_ANNOTATIONS: [&str; 2] = ["internal.config.kubernetes.io/index", "config.kubernetes.io/index"];
/// The identity kustomize puts on every item it hands a function (kpt puts
/// none): how the function knows kustomize runs it.
pub(super) const KUSTOMIZE_ID_ANNOTATION: &str = "kustomize.config.k8s.io/id";
/// The ResourceList's apiVersions; the first is what the function writes.
pub(super) const API_VERSIONS: [&str; 2] = ["config.kubernetes.io/v1", "config.kubernetes.io/v1beta1"];

/// A ResourceList as read.
pub(super) struct ReadList {
    /// The list without its items.
    pub list: Map<String, Value>,
    /// Each item's value; for an item passed through, only its `facts`.
    pub items: Vec<Value>,
    /// An item passed through, whole, as compact JSON.
    pub kept: Vec<Option<Box<str>>>,
    /// The text of each item the function reads, when it was read from
    /// one of its own (none when the list was read whole).
    pub texts: Vec<Option<ItemText>>,
}

/// Whether the function reads an item: ModelRouters (of any group: a
/// wrong group is reported), the rest of the LLMKube group (what backends
/// resolve against, and typos of routerctl's kinds), and what is not an
/// object (to say so).
pub(super) fn is_read(item: &Value) -> bool {
    !item.is_object()
        || item.get("kind").and_then(Value::as_str) == Some("ModelRouter")
        || group_of(str_at(item, "apiVersion")) == GROUP
}

/// Parses the input and checks it is a ResourceList.
pub(super) fn parse(text: &str) -> Result<ReadList> {
    if let Some(read) = parse_items_apart(text) {
        return Ok(read);
    }
    let (list, items) = parse_whole(text)?;
    let texts = vec![None; items.len()];
    let kept = vec![None; items.len()];
    Ok(ReadList { list, items, kept, texts })
}

/// `parse` one item at a time; `None` when the input is not in the plain
/// layout or anything in it is better said by the whole read.
pub(super) fn parse_items_apart(text: &str) -> Option<ReadList> {
    let (rest, spans) = items::cut_items(text)?;
    let (list, none) = parse_whole(&rest).ok()?;
    if !none.is_empty() {
        return None;
    }
    let mut read = ReadList {
        list,
        items: Vec::with_capacity(spans.len()),
        kept: Vec::with_capacity(spans.len()),
        texts: Vec::with_capacity(spans.len()),
    };
    for span in spans {
        let item = items::read_item(text, span)?;
        if is_read(&item) {
            read.texts.push(Some(ItemText::entry(text, span)));
            read.items.push(item);
            read.kept.push(None);
        } else {
            read.kept.push(Some(serde_json::to_string(&item).ok()?.into_boxed_str()));
            read.items.push(facts(&item));
            read.texts.push(None);
        }
    }
    Some(read)
}

/// What the function asks of an item it passes through: apiVersion, kind,
/// name, namespace, the file annotations and kustomize's identity, as the
/// item has them.
fn facts(item: &Value) -> Value {
    let mut out = Map::new();
    for key in ["apiVersion", "kind"] {
        if let Some(v) = item.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(metadata) = item.get("metadata") {
        let mut meta = Map::new();
        for key in ["name", "namespace"] {
            if let Some(v) = metadata.get(key) {
                meta.insert(key.into(), v.clone());
            }
        }
        let mut annotations = Map::new();
        for key in PATH_ANNOTATIONS.iter().chain(&INDEX_ANNOTATIONS).chain(&[KUSTOMIZE_ID_ANNOTATION]) {
            if let Some(v) = metadata.get("annotations").and_then(|a| a.get(*key)) {
                annotations.insert((*key).into(), v.clone());
            }
        }
        if !annotations.is_empty() {
            meta.insert("annotations".into(), Value::Object(annotations));
        }
        out.insert("metadata".into(), Value::Object(meta));
    }
    Value::Object(out)
}

/// Reads the whole input at once and checks it is a ResourceList.
pub(super) fn parse_whole(text: &str) -> Result<(Map<String, Value>, Vec<Value>)> {
    let mut docs = crate::input::parse_stream("ResourceList", text)
        .map_err(|e| anyhow!("the input is not valid YAML: {e}"))?
        .into_iter();
    let Some((_, _, list)) = docs.next() else { bail!("the input is empty; expected a ResourceList") };
    if docs.next().is_some() {
        bail!("the input holds more than one YAML document; a KRM function reads one ResourceList");
    }
    if list.is_null() {
        bail!("the input is empty; expected a ResourceList");
    }
    let kind = list.get("kind").and_then(Value::as_str).unwrap_or("");
    let api_version = list.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if !list.is_object() {
        bail!("the input is not a mapping; expected a ResourceList");
    }
    if kind != "ResourceList" || !API_VERSIONS.contains(&api_version) {
        bail!(
            "the input is apiVersion {api_version:?} kind {kind:?}; a KRM function reads {} ResourceList",
            API_VERSIONS[0]
        );
    }
    let Value::Object(mut list) = list else { bail!("the input is not a mapping; expected a ResourceList") };
    match list.remove("items") {
        None | Some(Value::Null) => Ok((list, Vec::new())),
        Some(Value::Array(items)) => Ok((list, items)),
        Some(_) => bail!("ResourceList.items is not a list"),
    }
}

/// The file an item was read from (its path annotation), and its index
/// within that file.
pub(super) fn item_file(obj: &Value) -> Option<(&str, Option<usize>)> {
    let path = PATH_ANNOTATIONS.iter().find_map(|k| annotation(obj, k)).filter(|p| !p.is_empty())?;
    let index = INDEX_ANNOTATIONS.iter().find_map(|k| annotation(obj, k)).and_then(|i| i.trim().parse().ok());
    Some((path, index))
}

/// Files an object at `path`, `index`: both annotations, and their pre-v1
/// names.
pub(super) fn annotate(obj: &mut Value, path: &str, index: usize) {
    let Some(meta) = obj.as_object_mut().map(|m| m.entry("metadata").or_insert_with(|| json!({}))) else {
        return;
    };
    let Some(meta) = meta.as_object_mut() else { return };
    let annotations = meta.entry("annotations").or_insert_with(|| json!({}));
    if let Some(a) = annotations.as_object_mut() {
        for key in PATH_ANNOTATIONS {
            a.insert(key.into(), json!(path));
        }
        for key in INDEX_ANNOTATIONS {
            a.insert(key.into(), json!(index.to_string()));
        }
    }
}

/// Writes the output list: `list` (apiVersion, kind, functionConfig) with
/// `out_items` and the results, keys in order. An item kept as JSON
/// (`kept`) is read back and written one at a time, as the whole list would
/// write it.
pub(super) fn write(
    mut list: Map<String, Value>,
    out_items: Vec<Value>,
    kept: &[Option<Box<str>>],
    results: Vec<Value>,
) -> String {
    if !results.is_empty() {
        list.insert("results".into(), Value::Array(results));
    }
    list.insert("items".into(), Value::Array(Vec::new()));
    let mut output = String::new();
    let mut out_items = Some(out_items);
    for (key, value) in &list {
        match out_items.take_if(|items| key == "items" && !items.is_empty()) {
            Some(items) => {
                output.push_str("items:\n");
                for (item, json) in items.into_iter().zip(kept.iter().chain(std::iter::repeat(&None))) {
                    let item = match json {
                        Some(json) => serde_json::from_str(json).unwrap_or(Value::Null),
                        None => item,
                    };
                    output.push_str(&to_yaml(&Value::Array(vec![item])));
                }
            }
            None => {
                let mut entry = Map::new();
                entry.insert(key.clone(), value.clone());
                output.push_str(&to_yaml(&Value::Object(entry)));
            }
        }
    }
    output
}
