//! Validation: what the API server would refuse (the CRD schemas routerctl
//! judges LLMKube's and Envoy's objects by, checked with the generic engine
//! in `schema`; Kubernetes metadata syntax and resource requirements; and,
//! after the merge, each object about to be written, `object`) and what the
//! operator would refuse (`validateModelRouter`, the gateway reconciler's
//! rules). Every finding names its field path. The same rules, as far as
//! JSON Schema says them, are written for editors and kubeconform by
//! `json_schema`.

pub mod crd;
pub mod custom_resource;
pub mod envoy;
pub mod gateway;
pub mod json_schema;
pub mod metadata;
pub mod object;
pub mod operator;
pub mod resources;

pub use crate::schema::{Finding, Severity};
