//! The ConfigMap holding the compiled proxy config.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap;

use super::names::{CONFIG_HASH_ANNOTATION, CONFIG_KEY};
use super::{owned_metadata, Compiled, RouterInput};

pub fn build(input: &RouterInput, compiled: &Compiled) -> ConfigMap {
    let mut metadata = owned_metadata(input);
    metadata.annotations = Some(BTreeMap::from([(CONFIG_HASH_ANNOTATION.to_string(), compiled.hash.clone())]));
    ConfigMap {
        metadata,
        data: Some(BTreeMap::from([(CONFIG_KEY.to_string(), compiled.json.clone())])),
        ..ConfigMap::default()
    }
}
