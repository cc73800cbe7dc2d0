//! Live objects: what is in the cluster now, behind one trait. `files`
//! reads them from `--live` manifests (a `kubectl get -o yaml` dump),
//! `cluster` asks `kubectl get`; `LiveIndex` holds a few in memory;
//! `operator` reads the running operator's release and flags. The
//! reconcile stage only ever sees `LiveObjects`.

mod cluster;
mod files;
mod json_stream;
pub mod kinds;
pub mod operator;
pub mod run;

use std::collections::HashMap;

use anyhow::Result;
use serde_json::Value;

pub use cluster::{ClusterLive, KubectlOptions};
pub use files::LiveStore;
pub use kinds::Planes;

/// An object's identity for matching rendered to live objects.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ObjectKey {
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

impl ObjectKey {
    /// The key of `obj`, with `default_namespace` for objects that name none.
    pub fn of(obj: &Value, default_namespace: &str) -> ObjectKey {
        let s = |path: &[&str]| {
            path.iter().try_fold(obj, |v, k| v.get(k)).and_then(Value::as_str).unwrap_or("").to_string()
        };
        let namespace = s(&["metadata", "namespace"]);
        ObjectKey {
            api_version: s(&["apiVersion"]),
            kind: s(&["kind"]),
            namespace: if namespace.is_empty() { default_namespace.to_string() } else { namespace },
            name: s(&["metadata", "name"]),
        }
    }
}

impl std::fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}/{}", self.api_version, self.kind, self.namespace, self.name)
    }
}

/// Live objects by identity. Looking one up may read and parse it, which can
/// fail. Routers are reconciled on several threads at once, all reading
/// the same live objects.
pub trait LiveObjects: Sync {
    fn get(&self, key: &ObjectKey) -> Result<Option<Value>>;

    /// What the source had to say about `namespace` besides its objects
    /// (kubectl's warnings), taken once, for the caller to report.
    fn take_notes(&self, _namespace: &str) -> Vec<String> {
        Vec::new()
    }

    /// Whether the source wants [`LiveObjects::expect`] called.
    fn wants_planes(&self) -> bool {
        false
    }

    /// Says, before any look-up, which data planes the routers of
    /// `namespace` use: a source that lists by kind lists theirs.
    fn expect(&self, _namespace: &str, _planes: Planes) {}

    /// Whether the source holds every object of `key`'s kind in its
    /// namespace, so that one missing is missing from the cluster (true for
    /// what the cluster reader listed; live files may hold any part).
    fn lists(&self, _key: &ObjectKey) -> bool {
        false
    }
}

/// Live objects held in memory, indexed once by identity. A later object with
/// the same identity replaces an earlier one (the newest `kubectl get` wins).
#[derive(Debug, Clone, Default)]
pub struct LiveIndex {
    objects: HashMap<ObjectKey, Value>,
}

impl LiveIndex {
    pub fn insert(&mut self, obj: Value, default_namespace: &str) {
        let key = ObjectKey::of(&obj, default_namespace);
        self.objects.insert(key, obj);
    }

    pub fn insert_keyed(&mut self, key: ObjectKey, obj: Value) {
        self.objects.insert(key, obj);
    }

    /// Takes the object with this identity out of the index.
    pub fn take(&mut self, key: &ObjectKey) -> Option<Value> {
        self.objects.remove(key)
    }
}

impl LiveObjects for LiveIndex {
    fn get(&self, key: &ObjectKey) -> Result<Option<Value>> {
        Ok(self.objects.get(key).cloned())
    }
}
