//! Everything between a command's flags and the pipeline: reading the `-f`
//! inputs, where the live objects come from (files, or the cluster and the
//! operator found there, settled against the flags), the pipeline's
//! `Options` from the common flags, and streaming each router's result.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Result};
use serde_json::Value;

use crate::cli::{ClusterArgs, CommonArgs};
use crate::input::inputs::Inputs;
use crate::live::operator::{self, Detection};
use crate::live::run::Deadline;
use crate::live::settle::{settle, Given, Said};
use crate::live::{ClusterLive, KubectlOptions, LiveObjects, LiveStore};
use crate::model::duration::parse_at;
use crate::model::DataPlane;
use crate::pipeline::{Options, RouterResult, Settings};
use crate::reconcile::server_fields::strip;
use crate::release::Release;
use crate::report::Reporter;
use crate::validate::crd::ClusterCrds;

/// Where a command's live objects come from.
#[derive(Clone, Copy)]
pub(super) enum LiveInput<'a> {
    Files(&'a [PathBuf]),
    Cluster(&'a ClusterArgs),
}

impl<'a> LiveInput<'a> {
    /// For `render` and `explain`: files (maybe none), or the cluster with
    /// --live-from-cluster; kubectl's flags mean nothing without it.
    pub(super) fn choose(files: &'a [PathBuf], from_cluster: bool, cluster: &'a ClusterArgs) -> Result<LiveInput<'a>> {
        if from_cluster {
            return Ok(LiveInput::Cluster(cluster));
        }
        if cluster.context.is_some() || cluster.kubeconfig.is_some() {
            bail!(
                "--context and --kubeconfig choose the cluster the live objects are read from; add --live-from-cluster"
            );
        }
        Ok(LiveInput::Files(files))
    }
}

pub(super) fn apply_ready(mut obj: Value) -> Value {
    strip(&mut obj);
    obj
}

/// Reads the inputs of a command and streams every router's result through
/// `finish` (on the pipeline's threads) to `sink` (in input order).
pub(super) fn stream<T: Send>(
    common: &CommonArgs,
    live: LiveInput,
    inputs: &mut Inputs,
    reporter: &mut Reporter,
    finish: &(dyn Fn(RouterResult) -> Result<T> + Sync),
    sink: &mut dyn FnMut(T) -> Result<()>,
) -> Result<RenderedAs> {
    stream_as(common, live, inputs, reporter, RenderAs::default(), finish, sink)
}

/// Which release a run's output follows, and where that came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RenderedAs {
    pub release: Release,
    /// In words: `--operator-version`, the operator's image tag, or why
    /// routerctl's default was used.
    pub from: String,
}

impl RenderedAs {
    /// One line for people.
    pub fn line(&self) -> String {
        format!("rendered as operator release {} (from {})", self.release, self.from)
    }
}

/// How the routers are rendered, beyond the command line's flags.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct RenderAs {
    /// Every router as this data plane, when given.
    pub data_plane: Option<DataPlane>,
    /// Nothing is printed but where requests go (no image note).
    pub routing_only: bool,
    /// Input without a ModelRouter is no mistake (`render --pass-through`).
    pub routers_optional: bool,
    /// The command closes its output with the release it rendered as
    /// (`diff`'s last line in `human`): no note says it first, only if the
    /// run fails and so never gets there.
    pub release_said_last: bool,
}

/// [`stream`], every router rendered as `how` says.
pub(super) fn stream_as<T: Send>(
    common: &CommonArgs,
    live: LiveInput,
    inputs: &mut Inputs,
    reporter: &mut Reporter,
    how: RenderAs,
    finish: &(dyn Fn(RouterResult) -> Result<T> + Sync),
    sink: &mut dyn FnMut(T) -> Result<()>,
) -> Result<RenderedAs> {
    let mut options = options(common, inputs)?;
    options.data_plane = how.data_plane;
    options.flags.routing_only = how.routing_only;
    options.routers_optional = how.routers_optional;
    // The inputs are read (and kubectl's flags checked) before the cluster
    // is asked anything: a missing file costs no cluster round trip.
    let router_sources = inputs.sources(&common.files, common.recursive)?;
    let given = "--operator-version".to_string();
    // The release no file names, said now, or when the run fails (a command
    // that closes with it says it there).
    let mut untold: Option<String> = None;
    let (live, from): (Box<dyn LiveObjects>, String) = match live {
        LiveInput::Files(paths) => {
            let store = LiveStore::from_paths(paths, common.recursive, inputs, options.default_namespace())?;
            let from = match common.operator_version {
                Some(_) => given,
                None => {
                    let from = "routerctl's default; files say nothing of the operator: give --operator-version";
                    // Live objects from files are the cluster's, read as an
                    // operator whose release nothing says: say it.
                    if !paths.is_empty() {
                        let note = format!("rendering as operator release {} ({from})", options.flags.release);
                        match how.release_said_last {
                            true => untold = Some(note),
                            false => reporter.note(&note),
                        }
                    }
                    from.to_string()
                }
            };
            (Box::new(store), from)
        }
        LiveInput::Cluster(cluster) => {
            // The run's one deadline starts here, with its first kubectl.
            let kubectl = kubectl_options(cluster)?;
            let detection = operator::detect(&kubectl);
            // A look-up a signal stopped is no failed look-up to warn about.
            crate::live::run::park_if_stopping();
            let from = settle_operator(&mut options, common, detection, reporter)?;
            (Box::new(ClusterLive::new(kubectl)), from)
        }
    };
    let run = crate::pipeline::run(&options, &router_sources, live.as_ref(), reporter, finish, sink);
    if let (Err(_), Some(note)) = (&run, untold) {
        reporter.note(&note);
    }
    run?;
    Ok(RenderedAs { release: options.flags.release, from })
}

/// kubectl's flags from ours. An empty one is refused: kubectl would take
/// `--context=` for the current context, silently, and the run would read
/// another cluster than the one named.
pub(super) fn kubectl_options(cluster: &ClusterArgs) -> Result<KubectlOptions> {
    if cluster.context.as_deref() == Some("") {
        bail!("--context is empty (an unset variable?); name a kubeconfig context, or leave the flag out for the current one");
    }
    if cluster.kubeconfig.as_ref().is_some_and(|p| p.as_os_str().is_empty()) {
        bail!("--kubeconfig is empty (an unset variable?); name a kubeconfig file, or leave the flag out for kubectl's own");
    }
    let nanos = parse_at("--request-timeout", &cluster.request_timeout)?;
    if nanos <= 0 {
        bail!("--request-timeout {:?}: must be longer than 0; write it like 30s or 2m", cluster.request_timeout);
    }
    let timeout = std::time::Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX));
    Ok(KubectlOptions {
        context: cluster.context.clone(),
        kubeconfig: cluster.kubeconfig.clone(),
        deadline: Deadline::starting_now(&cluster.request_timeout, timeout),
    })
}

/// Settles the run's operator against the look-up (`live::settle`) and
/// reports what settling says, also when it refuses.
fn settle_operator(
    options: &mut Options,
    common: &CommonArgs,
    detection: Detection,
    reporter: &mut Reporter,
) -> Result<String> {
    let flags = &mut options.flags;
    let given = Given {
        release: common.operator_version,
        router_proxy_image: flags.router_proxy_image.clone(),
        default_litellm_url: flags.default_litellm_url.clone(),
        emit_scrape_annotations: flags.emit_scrape_annotations,
        strict: common.strict,
    };
    let mut said = Vec::new();
    let settled = settle(detection, &given, &mut said);
    for s in said {
        match s {
            Said::Note(note) => reporter.note(&note),
            Said::Warning(warning) => reporter.warn(*warning),
            // kubectl's words explain a refusal, so -q keeps them then.
            Said::Kubectl { reading, stderr } if settled.is_err() => reporter.kubectl_explains(&reading, &stderr),
            Said::Kubectl { reading, stderr } => reporter.kubectl_said(&reading, &stderr),
        }
    }
    let settled = settled?;
    flags.release = settled.release;
    flags.router_proxy_image = settled.router_proxy_image;
    flags.default_litellm_url = settled.default_litellm_url;
    flags.emit_scrape_annotations = settled.emit_scrape_annotations;
    Ok(settled.from)
}

/// The pipeline's options from the flags every command shares, the
/// `--crd` files read through the run's inputs.
pub(super) fn options(common: &CommonArgs, inputs: &mut Inputs) -> Result<Options> {
    let crd_files = inputs.sources(&common.crd, false)?;
    let (options, problems) = Options::new(Settings {
        namespace: common.namespace.clone(),
        namespace_named: "-n",
        crds: Arc::new(ClusterCrds::read(&crd_files)?),
        router_proxy_image: common.router_proxy_image.clone(),
        default_litellm_url: common.default_litellm_url.clone(),
        emit_scrape_annotations: common.emit_scrape_annotations,
        strict: common.strict,
        release: common.operator_version,
        jobs: common.jobs,
        // Every broken router of every file in one run.
        keep_going: true,
    });
    if let Some(problem) = problems.into_iter().next() {
        bail!("{}", problem.message);
    }
    Ok(options)
}
