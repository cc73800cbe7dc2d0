//! What a pipeline run needs besides its inputs: the namespace, the CRDs,
//! the operator's flags, the number of threads and how a refusal is taken.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use crate::render::OperatorFlags;

/// What the pipeline needs besides its inputs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// `-n`: the namespace of objects that name none; an object that names
    /// another one is refused.
    pub namespace: Option<String>,
    /// The cluster's CRD files (`--crd`), judged by in place of the built-in
    /// schema.
    pub crd: Vec<PathBuf>,
    /// The operator's flags; `strict` also refuses fields the CRD does not
    /// know.
    pub flags: OperatorFlags,
    /// `--jobs`: routers reconciled at once; `None` for one per core.
    pub jobs: Option<NonZeroUsize>,
    /// Every router rendered as this `spec.dataPlane` (`Proxy` or
    /// `Gateway`) instead of its own: `routerctl test --data-plane`.
    pub data_plane: Option<String>,
    /// A refused router does not end the run: its findings go to the
    /// reporter as errors, and the other routers are still reconciled (the
    /// KRM function answers with every router's findings at once).
    pub keep_going: bool,
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
