//! A generic engine for the OpenAPI v3 structural schemas of
//! CustomResourceDefinitions: what the API server does with a custom
//! resource's schema before it stores an object, for any CRD.
//!
//! - `structural`: a schema compiled once from its `JSONSchemaProps` tree;
//! - `walk`: a value checked against it, each finding with its field path;
//! - `defaults`: the API server's pruning and defaulting;
//! - `cel`: the schema's CEL rules (`x-kubernetes-validations`) evaluated,
//!   after `cost`, the API server's CEL cost model and budgets;
//! - `crd`: a CustomResourceDefinition read for one version's schema;
//! - `text`: how values and names are shown in findings ("did you mean");
//! - `json_schema`: a structural schema written as JSON Schema 2020-12, for
//!   editors and kubeconform.
//!
//! It knows Kubernetes' rules for CRDs and nothing of the resources routerctl
//! renders: which CRDs to read, and the rules beyond the schema, are
//! `validate`'s.

pub mod cel;
pub mod cost;
pub mod crd;
pub mod defaults;
pub mod json_schema;
pub mod structural;
pub mod text;
pub mod walk;

use std::fmt;

/// How bad a finding is: an error (refused, by the API server or by a
/// caller's own rules) or a warning (accepted but probably not meant, as an
/// unknown field the API server prunes silently); the engine makes no
/// notes.
pub use crate::diagnostic::Severity;
use crate::diagnostic::{rules, Rule};

/// One problem with one field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub severity: Severity,
    /// What kind of finding it is, as data (no caller reads it off the
    /// message): `schema` for an error, `schema-unknown-field` or
    /// `schema-null-dropped` for what pruning drops. A caller that judges
    /// with rules of its own (the operator's) reports under those.
    pub rule: &'static Rule,
    /// Dotted path with indices, e.g. `spec.containers[2].ports[0]`.
    pub path: String,
    pub message: String,
}

impl Finding {
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Finding { severity: Severity::Error, rule: rules::SCHEMA, path: path.into(), message: message.into() }
    }

    pub fn warning(rule: &'static Rule, path: impl Into<String>, message: impl Into<String>) -> Self {
        Finding { severity: Severity::Warning, rule, path: path.into(), message: message.into() }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}
