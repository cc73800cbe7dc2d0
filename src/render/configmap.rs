//! The ConfigMap holding the compiled proxy config.

use serde_json::{json, Value};

use super::config::Compiled;
use super::input::RouterInput;
use super::object::{object, owned_metadata};
use crate::kube::names::{CONFIG_HASH_ANNOTATION, CONFIG_KEY};

pub fn build(input: &RouterInput, compiled: &Compiled) -> Value {
    let mut metadata = owned_metadata(input);
    metadata.insert("annotations".into(), json!({ CONFIG_HASH_ANNOTATION: compiled.hash }));
    let mut configmap = object("v1", "ConfigMap", metadata);
    configmap.insert("data".into(), json!({ CONFIG_KEY: compiled.json }));
    Value::Object(configmap)
}
