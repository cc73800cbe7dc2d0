//! The LLMKube resources a router's backends resolve against, reduced to
//! what the operator reads of them: InferenceServices (port, readiness) and
//! ModelPools (members, swap budget).

use serde::Deserialize;

use super::object::{LocalRef, Metadata};

/// An InferenceService, reduced to what a router backend resolves against.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct InferenceService {
    #[serde(default)]
    pub metadata: Metadata,
    #[serde(default)]
    pub spec: InferenceServiceSpec,
    /// Present only when the document was read from a cluster.
    #[serde(default)]
    pub status: Option<InferenceServiceStatus>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct InferenceServiceStatus {
    /// Omitted by the API when zero (Go's omitempty).
    #[serde(default)]
    pub ready_replicas: Option<i32>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct InferenceServiceSpec {
    #[serde(default)]
    pub endpoint: Option<InferenceServiceEndpoint>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct InferenceServiceEndpoint {
    #[serde(default)]
    pub port: Option<i32>,
}

impl InferenceService {
    /// The port the operator dials: `spec.endpoint.port` when positive, else
    /// 8080 (the CRD default, and the operator's own fallback).
    pub fn port(&self) -> i32 {
        match self.spec.endpoint.as_ref().and_then(|e| e.port) {
            Some(p) if p > 0 => p,
            _ => 8080,
        }
    }

    /// Whether the InferenceService has a ready replica, as its status says;
    /// `None` when the document carries no status at all.
    pub fn ready(&self) -> Option<bool> {
        self.status.as_ref().map(|s| s.ready_replicas.unwrap_or(0) > 0)
    }
}

/// A ModelPool, reduced to its membership and swap budget.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct ModelPool {
    #[serde(default)]
    pub metadata: Metadata,
    #[serde(default)]
    pub spec: ModelPoolSpec,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ModelPoolSpec {
    #[serde(default)]
    pub members: Vec<ModelPoolMember>,
    /// A Go duration string; the CRD defaults it to `300s`.
    #[serde(default)]
    pub swap_budget: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ModelPoolMember {
    #[serde(default)]
    pub inference_service_ref: LocalRef,
}
