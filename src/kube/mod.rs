//! Kubernetes vocabulary every stage speaks: an object's identity (group,
//! version, kind, namespace, name), reading its metadata out of a JSON
//! tree, the kinds each data plane writes (`kinds`), the names and keys the
//! operator puts on its objects (`names`), image references (`image`), the JSON bytes Go's
//! `encoding/json` writes (`gojson`), how Go quotes a string in a
//! message (`goquote`), how Go lower-cases one (`golower`), and how a
//! value from the input is shown so that it cannot start a CI log line
//! (`shown`). It sits at
//! the bottom: it imports nothing of routerctl, so no stage has to reach
//! into a sibling stage for these words.

pub mod count;
pub mod gojson;
pub mod golower;
pub mod goquote;
pub mod image;
pub mod kinds;
pub mod names;
pub mod shown;

use std::fmt;

use serde_json::Value;

/// An object's identity: what matches a rendered object to its live one,
/// and what a message or a result names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectKey {
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

impl ObjectKey {
    /// The key of `obj`, with `default_namespace` for objects that name none.
    pub fn of(obj: &Value, default_namespace: &str) -> ObjectKey {
        let namespace = meta_str(obj, "namespace").unwrap_or(default_namespace);
        ObjectKey {
            api_version: str_at(obj, "apiVersion").to_string(),
            kind: str_at(obj, "kind").to_string(),
            namespace: namespace.to_string(),
            name: meta_str(obj, "name").unwrap_or("").to_string(),
        }
    }

    /// The API group (empty for the core group).
    pub fn group(&self) -> &str {
        group_of(&self.api_version)
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}/{}", self.api_version, self.kind, self.namespace, self.name)
    }
}

/// The group of an `apiVersion`: `apps` of `apps/v1`, empty for `v1`.
pub fn group_of(api_version: &str) -> &str {
    match api_version.split_once('/') {
        Some((group, _)) => group,
        None => "",
    }
}

/// The value at `path`, if every step before it is an object.
pub fn get<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |cur, key| cur.get(key))
}

/// A top-level string field (`apiVersion`, `kind`), empty when absent or
/// not a string.
pub fn str_at<'a>(obj: &'a Value, key: &str) -> &'a str {
    obj.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A non-empty string under `metadata` (`name`, `namespace`, `uid`).
pub fn meta_str<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    obj.get("metadata").and_then(|m| m.get(key)).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// One annotation's value.
pub fn annotation<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    obj.get("metadata").and_then(|m| m.get("annotations")).and_then(|a| a.get(key)).and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn identity_reads_the_object_and_defaults_its_namespace() {
        let obj = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "r", "namespace": ""}});
        let key = ObjectKey::of(&obj, "team");
        assert_eq!(key.to_string(), "apps/v1 Deployment team/r");
        assert_eq!(key.group(), "apps");
        assert_eq!(group_of("v1"), "");
        assert_eq!(meta_str(&obj, "namespace"), None, "an empty namespace is none");
        assert_eq!(str_at(&json!({"kind": 3}), "kind"), "", "a kind that is not a string is none");
    }
}
