//! The one view the pipeline has of live objects: `LiveObjects`, looked up
//! by identity, and `LiveIndex`, a few of them held in memory.

use std::collections::HashMap;

use anyhow::Result;
use serde_json::Value;

use crate::kube::kinds::Planes;
use crate::kube::ObjectKey;

/// Live objects by identity. Looking one up may read and parse it, which can
/// fail. Routers are reconciled on several threads at once, all reading
/// the same live objects.
pub trait LiveObjects: Sync {
    fn get(&self, key: &ObjectKey) -> Result<Option<Value>>;

    /// What the source had to say about `namespace` besides its objects
    /// (kubectl's stderr from a read that succeeded), taken once, for the
    /// caller to report as kubectl's.
    fn take_notes(&self, _namespace: &str) -> Option<String> {
        None
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
