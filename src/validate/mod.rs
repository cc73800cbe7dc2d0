//! Validation before rendering: what the API server would refuse (CRD schema,
//! Kubernetes metadata syntax) and what the operator would refuse
//! (`validateModelRouter`). Every finding names its field path.

pub mod cel_cost;
pub mod crd;
pub mod envoy;
pub mod gateway;
pub mod metadata;
pub mod openapi;
pub mod operator;
pub mod resources;
pub mod schema;

use std::fmt;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Refused by the API server or the operator: nothing is rendered.
    Error,
    /// Accepted but probably not meant (an unknown field the API server
    /// prunes silently): a warning, an error under `--strict`.
    Warning,
}

/// One problem with one field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub severity: Severity,
    /// Dotted path with indices, e.g. `spec.rules[2].route.backends[0]`.
    pub path: String,
    pub message: String,
}

impl Finding {
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Finding { severity: Severity::Error, path: path.into(), message: message.into() }
    }

    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Finding { severity: Severity::Warning, path: path.into(), message: message.into() }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}
