//! Small operations on JSON trees (`serde_json::Value`) that the update path
//! needs: reaching into nested maps and reading and writing string maps.
//! Live objects are handled as trees so that fields routerctl does not know
//! pass through.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::kube::get;
use crate::render::string_object;

/// The map at `path`, created (replacing non-objects) where missing.
pub fn map_at<'a>(v: &'a mut Value, path: &[&str]) -> &'a mut Map<String, Value> {
    let mut cur = v;
    for key in path {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let Value::Object(m) = cur else { unreachable!("just made an object") };
        cur = m.entry(key.to_string()).or_insert_with(|| Value::Object(Map::new()));
    }
    if !cur.is_object() {
        *cur = Value::Object(Map::new());
    }
    match cur {
        Value::Object(m) => m,
        _ => unreachable!("just made an object"),
    }
}

/// Removes the entry at `path`, if present.
pub fn remove(v: &mut Value, path: &[&str]) -> Option<Value> {
    let (last, parents) = path.split_last()?;
    let mut cur = v;
    for key in parents {
        cur = cur.get_mut(key)?;
    }
    cur.as_object_mut()?.remove(*last)
}

/// The string entries of the map at `path` (labels, annotations). Entries
/// whose value is not a string are skipped: the API server never stores them.
pub fn string_map(v: &Value, path: &[&str]) -> BTreeMap<String, String> {
    get(v, path)
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string()))).collect())
        .unwrap_or_default()
}

/// Sets the map at `path` to `m`, or removes it when `m` is empty — Go's
/// omitempty on `map[string]string`.
pub fn set_string_map(v: &mut Value, path: &[&str], m: &BTreeMap<String, String>) {
    if m.is_empty() {
        remove(v, path);
        return;
    }
    let (last, parents) = path.split_last().expect("a non-empty path");
    let parent = map_at(v, parents);
    parent.insert(last.to_string(), string_object(m));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn map_at_creates_missing_levels() {
        let mut v = json!({"a": {"keep": 1}});
        map_at(&mut v, &["a", "b"]).insert("c".into(), json!(2));
        assert_eq!(v, json!({"a": {"keep": 1, "b": {"c": 2}}}));
    }

    #[test]
    fn empty_string_maps_are_removed() {
        let mut v = json!({"metadata": {"labels": {"a": "1"}, "name": "x"}});
        set_string_map(&mut v, &["metadata", "labels"], &BTreeMap::new());
        assert_eq!(v, json!({"metadata": {"name": "x"}}));
    }

    #[test]
    fn string_map_skips_non_strings() {
        let v = json!({"m": {"a": "1", "b": 2}});
        assert_eq!(string_map(&v, &["m"]), BTreeMap::from([("a".to_string(), "1".to_string())]));
    }
}
