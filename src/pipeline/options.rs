//! What a pipeline run needs besides its inputs: the namespace, the CRDs,
//! the operator's flags, the number of threads and how a refusal is taken;
//! and the one way to make it, from the settings every way in (the command
//! line, a KRM functionConfig) gives.

use std::num::NonZeroUsize;
use std::sync::Arc;

use crate::diagnostic::{rules, Diagnostic};
use crate::model::DataPlane;
use crate::release::Release;
use crate::render::OperatorFlags;
use crate::validate::crd::ClusterCrds;
use crate::validate::metadata::dns1123_label_errors;

/// What the pipeline needs besides its inputs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// `-n`: the namespace of objects that name none; an object that names
    /// another one is refused.
    pub namespace: Option<String>,
    /// The cluster's CRDs (`--crd`, read by the caller), judged by in place
    /// of the built-in schemas.
    pub crds: Arc<ClusterCrds>,
    /// The operator's flags; `strict` also refuses fields the CRD does not
    /// know.
    pub flags: OperatorFlags,
    /// `--jobs`: routers reconciled at once; `None` for one per core.
    pub jobs: Option<NonZeroUsize>,
    /// Every router rendered as this `spec.dataPlane` instead of its own:
    /// `routerctl test --data-plane`.
    pub data_plane: Option<DataPlane>,
    /// A refused document or router does not stop the run: its findings
    /// go to the reporter as errors and the others are still read and
    /// reconciled; the last refusal is the run's error, returned at its
    /// end. Every router's findings come at once (the KRM function's
    /// results; the command line's `render`, `diff`, `verify`, ...).
    pub keep_going: bool,
    /// Input that holds no ModelRouter is no mistake: `render
    /// --pass-through`, which then prints the input as it is (as the KRM
    /// function passes its items through).
    pub routers_optional: bool,
}

impl Options {
    /// The namespace of objects that name none.
    pub fn default_namespace(&self) -> &str {
        self.namespace.as_deref().unwrap_or("default")
    }

    pub(super) fn threads(&self) -> usize {
        match self.jobs {
            Some(n) => n.get(),
            None => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        }
    }
}

/// What a way in to the pipeline says, as it says it: the command line's
/// flags, or a KRM function's settings.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The namespace of objects that name none, and how the input names
    /// the setting in messages (`-n`, `functionConfig namespace`).
    pub namespace: Option<String>,
    pub namespace_named: &'static str,
    /// The cluster's CRDs, read.
    pub crds: Arc<ClusterCrds>,
    pub router_proxy_image: Option<String>,
    pub default_litellm_url: Option<String>,
    pub emit_scrape_annotations: bool,
    pub strict: bool,
    /// `--operator-version`; `None` for routerctl's default.
    pub release: Option<Release>,
    pub jobs: Option<NonZeroUsize>,
    pub keep_going: bool,
}

impl Options {
    /// The one constructor: `Options` from a way in's settings, with what
    /// is wrong in them (a namespace that is no namespace name) as errors.
    pub fn new(settings: Settings) -> (Options, Vec<Diagnostic>) {
        let mut problems = Vec::new();
        if let Some(namespace) = &settings.namespace {
            let errors = dns1123_label_errors(namespace);
            if !errors.is_empty() {
                let named = if settings.namespace_named.is_empty() { "namespace" } else { settings.namespace_named };
                problems.push(Diagnostic::error(
                    rules::ERROR,
                    format!("{named} {namespace:?}: not a namespace name: {}", errors.join("; ")),
                ));
            }
        }
        let options = Options {
            namespace: settings.namespace,
            crds: settings.crds,
            flags: OperatorFlags {
                router_proxy_image: settings.router_proxy_image,
                default_litellm_url: settings.default_litellm_url,
                emit_scrape_annotations: settings.emit_scrape_annotations,
                strict: settings.strict,
                release: settings.release.unwrap_or_default(),
                routing_only: false,
            },
            jobs: settings.jobs,
            data_plane: None,
            keep_going: settings.keep_going,
            routers_optional: false,
        };
        (options, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_namespace_that_is_no_namespace_name_is_an_error_naming_its_setting() {
        let settings = Settings { namespace: Some("Team_A".into()), namespace_named: "-n", ..Settings::default() };
        let (options, problems) = Options::new(settings);
        assert_eq!(options.namespace.as_deref(), Some("Team_A"));
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.starts_with("-n \"Team_A\": not a namespace name: "), "{}", problems[0].message);
        let (options, problems) = Options::new(Settings { namespace: Some("team-a".into()), ..Settings::default() });
        assert!(problems.is_empty());
        assert_eq!(options.default_namespace(), "team-a");
        assert_eq!(options.flags.release, Release::default());
    }
}
