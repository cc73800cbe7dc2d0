//! The running LLMKube operator, read from the cluster: which release it is
//! and the flags that change what it writes, so that cluster mode renders
//! as the operator that will reconcile.
//!
//! The operator is the Deployment both upstream install methods label
//! `control-plane: controller-manager` (the Helm chart and the kustomize
//! manifests alike), with `app.kubernetes.io/name: llmkube` or a container
//! running an `llmkube-controller` image (a chart installed with a
//! `nameOverride` changes the name label, never the image). Its release is
//! the image's tag (`0.9.19` from the chart, `v0.9.19` by hand); a tag that
//! names no release leaves it unknown, and only an image pinned by digest
//! alone is read through the chart's `app.kubernetes.io/version` label. Its
//! flags are the words the kubelet passes the `manager` container's program
//! (`live::container`: `command` and `args`, `$(VAR)` expanded), read with
//! the rules of Go's `flag` package, which the operator parses them with.
//!
//! An image whose tag names no release (a build of upstream's main branch,
//! `dev`, `latest`) may be the unreleased operator, `next`: the cluster's
//! ModelRouter CRD then tells, as upstream installs the CRD with the
//! operator that reads it. A CRD whose schema has the fields of the
//! pod-metadata change (`spec.proxy.podLabels`), which no release has, is
//! `next`'s; one without them is some release's, which it does not name.

use std::ffi::OsString;
use std::io::Read;

use std::collections::BTreeMap;

use anyhow::{bail, Context as _, Result};
use serde::Deserialize;

use super::cluster::KubectlOptions;
use super::container::{self, Container};
use super::run::{failure, run_kubectl};
use crate::diagnostic::KubectlFailure;
use crate::kube::image::ImageReference;
use crate::kube::kinds::MODEL_ROUTER_CRD;
use crate::release::{entry, Change, Release};

/// The most of kubectl's answer to the operator lookup that is read.
const MAX_ANSWER_BYTES: u64 = 64 * 1024 * 1024;

/// The label both install methods put on the operator's Deployment.
pub const OPERATOR_SELECTOR: &str = "control-plane=controller-manager";

/// What the operator's Deployment says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator {
    pub namespace: String,
    pub name: String,
    /// The manager container's image.
    pub image: String,
    /// The release its image tag (or version label) names; `None` for a
    /// digest, `dev`, `latest` or a tag of no release routerctl knows.
    pub release: Option<Release>,
    /// Where the release was read.
    pub release_source: ReleaseSource,
    /// `--router-proxy-image`, when the operator is given one.
    pub router_proxy_image: Option<String>,
    /// `--default-litellm-url`, when the operator is given one.
    pub default_litellm_url: Option<String>,
    /// `--emit-scrape-annotations`.
    pub emit_scrape_annotations: bool,
    /// The references in the manager's command and args that the
    /// Deployment cannot resolve: each variable and where its value comes
    /// from (see `live::container`).
    pub unexpanded: Vec<(String, String)>,
    /// What the cluster's ModelRouter CRD said, when the image's tag names
    /// no release.
    pub router_crd: RouterCrd,
}

/// What the cluster's ModelRouter CRD says of the operator installed with
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouterCrd {
    /// Not asked: the image named the release.
    NotRead,
    /// Its schema has the fields no release has: the operator is `next`.
    Next,
    /// Its schema lacks them: some release's CRD.
    Released,
    /// It could not be read: why, in a line.
    Unread(String),
}

/// Where an operator's release was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseSource {
    /// The manager image's tag.
    ImageTag,
    /// The chart's `app.kubernetes.io/version` label, for an image pinned
    /// by digest alone.
    VersionLabel,
    /// The cluster's ModelRouter CRD, whose schema has fields only `next`
    /// has, for an image whose tag names no release.
    RouterCrd,
}

impl std::fmt::Display for ReleaseSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReleaseSource::ImageTag => f.write_str("image tag"),
            ReleaseSource::VersionLabel => f.write_str("app.kubernetes.io/version label"),
            ReleaseSource::RouterCrd => {
                write!(f, "installed ModelRouter CRD, whose schema has {}", next_field())
            }
        }
    }
}

/// The field of the CRD that only `next` has: the first of the
/// pod-metadata change's.
fn next_field() -> &'static str {
    entry(Change::PodMetadata).fields.first().copied().unwrap_or("spec.proxy.podLabels")
}

/// The outcome of looking for the operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detection {
    Found(Box<Operator>),
    /// No Deployment looks like the operator.
    NotFound,
    /// Several do (two installs, or one per tenant).
    Several(Vec<Operator>),
    /// kubectl could not be run, or its answer could not be read: why.
    Failed(String),
    /// kubectl failed (no permission to list Deployments in every
    /// namespace, no cluster): how, and what it said.
    KubectlFailed(KubectlFailure),
    /// The cluster did not answer before the run's deadline: the look-up's
    /// kubectl was stopped (or not started). The whole message.
    Unanswered(String),
}

impl KubectlOptions {
    /// The whole `kubectl get` that lists operator candidates.
    pub fn operator_args(&self) -> Vec<OsString> {
        let mut args = self.global_args();
        for a in ["get", "deployments.apps", "--all-namespaces", "-l", OPERATOR_SELECTOR, "-o", "json"] {
            args.push(a.into());
        }
        args
    }

    /// The whole `kubectl get` of the ModelRouter CRD.
    pub fn router_crd_args(&self) -> Vec<OsString> {
        let mut args = self.global_args();
        for a in ["get", MODEL_ROUTER_CRD.0, MODEL_ROUTER_CRD.1, "-o", "json"] {
            args.push(a.into());
        }
        args
    }
}

/// Looks for the operator through the `kubectl` on PATH.
pub fn detect(options: &KubectlOptions) -> Detection {
    detect_with(OsString::from("kubectl"), options)
}

fn detect_with(program: OsString, options: &KubectlOptions) -> Detection {
    let args = options.operator_args();
    let deadline = &options.deadline;
    let shown = format!(
        "{} {}",
        program.to_string_lossy(),
        args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ")
    );
    // The answer is parsed as it arrives, keeping only the fields read
    // here, so memory follows what is kept, not what kubectl sends. Past
    // the bound the reader fails, and kubectl is stopped; an answer that
    // does not parse is told once kubectl has ended (its own failure, if
    // it failed, is the one to tell).
    let read = |stdout: &mut dyn Read| -> Result<Result<Vec<Operator>, String>> {
        let mut counted = Counted { inner: stdout.take(MAX_ANSWER_BYTES + 1), bytes: 0 };
        let parsed = operators_from(&mut counted);
        if counted.bytes > MAX_ANSWER_BYTES {
            bail!("kubectl's answer is larger than {} MiB", MAX_ANSWER_BYTES >> 20);
        }
        Ok(parsed.map_err(|e| format!("{e:#}")))
    };
    let unanswered = |what: &str| {
        Detection::Unanswered(format!(
            "the operator look-up `{shown}` {what}: the cluster read had no answer within {:?} (--request-timeout, \
             for every kubectl of the run); check --context and --kubeconfig, or give a longer --request-timeout",
            deadline.timeout
        ))
    };
    let finished = match run_kubectl(&program, &args, deadline, read) {
        Ok(finished) => finished,
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return unanswered("was not started"),
        Err(e) => return Detection::Failed(format!("cannot run kubectl: {e}")),
    };
    if let (true, Err(e)) = (finished.stopped_by_reader, &finished.read) {
        return Detection::Failed(format!("{e:#}"));
    }
    if finished.timed_out {
        return unanswered("was stopped");
    }
    if !finished.status.success() {
        return Detection::KubectlFailed(KubectlFailure {
            command: shown,
            status: failure(finished.status, finished.timed_out, deadline).to_string(),
            reading: "the operator look-up".to_string(),
            stderr: finished.stderr,
            hint: "check --context and --kubeconfig, or give --operator-version".to_string(),
        });
    }
    let parsed = match finished.read {
        Ok(parsed) => parsed,
        Err(e) => return Detection::Failed(format!("{e:#}")),
    };
    match parsed {
        Ok(mut found) => match found.len() {
            0 => Detection::NotFound,
            1 => {
                let mut operator = found.remove(0);
                // A tag of no release: the CRD installed with the operator
                // may say `next`.
                if operator.release.is_none() {
                    operator.router_crd = read_router_crd(&program, options);
                    if operator.router_crd == RouterCrd::Next {
                        operator.release = Some(Release::NEXT);
                        operator.release_source = ReleaseSource::RouterCrd;
                    }
                }
                Detection::Found(Box::new(operator))
            }
            _ => Detection::Several(found),
        },
        Err(e) => Detection::Failed(e),
    }
}

/// The most of kubectl's answer to the CRD look-up that is read: a CRD
/// is a few hundred KiB at most.
const MAX_CRD_BYTES: u64 = 16 * 1024 * 1024;

/// Reads the cluster's ModelRouter CRD and says whether its schema is
/// `next`'s.
fn read_router_crd(program: &OsString, options: &KubectlOptions) -> RouterCrd {
    let args = options.router_crd_args();
    let read = |stdout: &mut dyn Read| -> Result<serde_json::Value> {
        let mut counted = Counted { inner: stdout.take(MAX_CRD_BYTES + 1), bytes: 0 };
        let parsed = serde_json::from_reader(std::io::BufReader::new(&mut counted));
        if counted.bytes > MAX_CRD_BYTES {
            bail!("kubectl's answer is larger than {} MiB", MAX_CRD_BYTES >> 20);
        }
        parsed.context("kubectl's answer is not the JSON asked for")
    };
    let finished = match run_kubectl(program, &args, &options.deadline, read) {
        Ok(finished) => finished,
        Err(e) => return RouterCrd::Unread(format!("cannot run kubectl: {e}")),
    };
    if finished.timed_out || !finished.status.success() {
        let status = failure(finished.status, finished.timed_out, &options.deadline);
        let said = finished.stderr.lines().map(str::trim).find(|l| !l.is_empty());
        return RouterCrd::Unread(match said {
            Some(line) => format!("{status}: {line}"),
            None => status.to_string(),
        });
    }
    match finished.read {
        Ok(crd) => router_crd_of(&crd),
        Err(e) => RouterCrd::Unread(format!("{e:#}")),
    }
}

/// Whether a ModelRouter CRD's schema, in any version it serves, has the
/// field only `next` has.
pub fn router_crd_of(crd: &serde_json::Value) -> RouterCrd {
    let Some(versions) = crd.pointer("/spec/versions").and_then(serde_json::Value::as_array) else {
        return RouterCrd::Unread("the answer is no CustomResourceDefinition with versions".to_string());
    };
    let mut pointer = String::from("/schema/openAPIV3Schema");
    for part in next_field().split('.') {
        pointer.push_str("/properties/");
        pointer.push_str(part);
    }
    let served = |v: &&serde_json::Value| v.get("served").and_then(serde_json::Value::as_bool) != Some(false);
    match versions.iter().filter(served).any(|v| v.pointer(&pointer).is_some()) {
        true => RouterCrd::Next,
        false => RouterCrd::Released,
    }
}

/// A reader that counts the bytes through it.
struct Counted<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// The fields of a `kubectl get -o json` answer read here: a List's items,
/// or a Deployment's own fields. Every other field is skipped as it is
/// parsed.
#[derive(Deserialize)]
struct Answer {
    kind: Option<String>,
    items: Option<Vec<Deployment>>,
    #[serde(default)]
    metadata: Metadata,
    spec: Option<DeploymentSpec>,
}

/// What is read of a Deployment.
#[derive(Deserialize, Default)]
struct Deployment {
    #[serde(default)]
    metadata: Metadata,
    spec: Option<DeploymentSpec>,
}

#[derive(Deserialize, Default)]
struct Metadata {
    name: Option<String>,
    namespace: Option<String>,
    #[serde(default)]
    labels: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct DeploymentSpec {
    template: Option<PodTemplate>,
}

#[derive(Deserialize)]
struct PodTemplate {
    spec: Option<PodSpec>,
}

#[derive(Deserialize)]
struct PodSpec {
    #[serde(default)]
    containers: Vec<Container>,
}

/// The operators among the Deployments of a `kubectl get -o json` answer,
/// read from `json` as it arrives.
fn operators_from(json: &mut dyn Read) -> Result<Vec<Operator>> {
    let answer: Answer =
        serde_json::from_reader(std::io::BufReader::new(json)).context("kubectl's answer is not the JSON asked for")?;
    let deployments = match (answer.items, answer.kind.as_deref()) {
        (Some(items), _) => items,
        (None, Some("Deployment")) => vec![Deployment { metadata: answer.metadata, spec: answer.spec }],
        _ => bail!("kubectl's answer is neither a List nor a Deployment"),
    };
    Ok(deployments.iter().filter_map(operator_of).collect())
}

/// The operators among the Deployments of a `kubectl get -o json` answer.
pub fn operators_in(json: &[u8]) -> Result<Vec<Operator>> {
    operators_from(&mut &json[..])
}

/// The image's repository name without registry and tag:
/// `ghcr.io/defilantech/llmkube-controller:0.9.19` → `llmkube-controller`.
fn image_name(image: &str) -> &str {
    ImageReference::split(image).repository()
}

/// The image's tag, if it has one (a registry's port is not a tag).
pub fn image_tag(image: &str) -> Option<&str> {
    ImageReference::split(image).tag.filter(|t| !t.is_empty())
}

/// The operator's image, without registry, tag or digest.
const CONTROLLER_IMAGE: &str = "llmkube-controller";

/// The manager container's name in both install methods.
const MANAGER: &str = "manager";

/// The operator a Deployment is, if it is one: its manager container is the
/// one named `manager` running the `llmkube-controller` image, else the one
/// container running that image (renamed), else, in a Deployment labelled
/// `app.kubernetes.io/name: llmkube`, the one named `manager` (a custom
/// image). Names and images are compared exactly: a sidecar whose name or
/// image only starts like them is not the manager.
fn operator_of(deployment: &Deployment) -> Option<Operator> {
    let containers = &deployment.spec.as_ref()?.template.as_ref()?.spec.as_ref()?.containers;
    let image_of = |c: &Container| c.image.clone().unwrap_or_default();
    let runs_controller = |c: &&Container| image_name(&image_of(c)) == CONTROLLER_IMAGE;
    let named_manager = |c: &&Container| c.name.as_deref() == Some(MANAGER);
    let labels = &deployment.metadata.labels;
    let labelled = labels.get("app.kubernetes.io/name").map(String::as_str) == Some("llmkube");
    let manager = containers
        .iter()
        .find(|c| named_manager(c) && runs_controller(c))
        .or_else(|| {
            let mut running = containers.iter().filter(runs_controller);
            running.next().filter(|_| running.next().is_none())
        })
        .or_else(|| containers.iter().find(named_manager).filter(|_| labelled))?;
    let image = image_of(manager);
    let (release, release_source) = release_of(&image, labels.get(VERSION_LABEL).map(String::as_str));
    let launch = container::launch(manager);
    let flags = go_flags(&launch.args);
    let string_flag = |name: &str| flags.iter().rev().find(|(n, _)| n == name).and_then(|(_, v)| v.clone());
    let emit = flags
        .iter()
        .rev()
        .find(|(n, _)| n == "emit-scrape-annotations")
        .is_some_and(|(_, v)| v.as_deref().is_none_or(|v| parse_go_bool(v) == Some(true)));
    Some(Operator {
        namespace: deployment.metadata.namespace.clone().unwrap_or_default(),
        name: deployment.metadata.name.clone().unwrap_or_default(),
        image,
        release,
        release_source,
        router_proxy_image: string_flag("router-proxy-image").filter(|v| !v.is_empty()),
        default_litellm_url: string_flag("default-litellm-url").filter(|v| !v.is_empty()),
        emit_scrape_annotations: emit,
        unexpanded: launch.unknown,
        router_crd: RouterCrd::NotRead,
    })
}

/// The chart's version label, which it writes from the chart's appVersion.
const VERSION_LABEL: &str = "app.kubernetes.io/version";

/// The release an image runs, and where that was read. A tag names a
/// release (`0.9.19` from the chart, `v0.9.19` by hand) or none (`latest`,
/// `dev`, `next`, a candidate, a custom build): routerctl does not guess
/// then. Only an image pinned by digest alone is read through the chart's
/// version label, which the chart writes from its appVersion (when a tag
/// is given instead, the label says nothing about it).
fn release_of(image: &str, version_label: Option<&str>) -> (Option<Release>, ReleaseSource) {
    let released = |text: &str| Release::parse(text).ok().filter(|r| *r != Release::NEXT);
    match image_tag(image) {
        Some(tag) => (released(tag), ReleaseSource::ImageTag),
        None if image.contains('@') => (version_label.and_then(released), ReleaseSource::VersionLabel),
        // No tag is `latest`.
        None => (None, ReleaseSource::ImageTag),
    }
}

/// Go's `strconv.ParseBool`.
fn parse_go_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// The operator's booleans among the flags routerctl reads: the only ones
/// that take no separate value.
const BOOL_FLAGS: [&str; 1] = ["emit-scrape-annotations"];

/// The operator's other boolean flags (cmd/main.go): a bare one takes no
/// value, so the next word is not its value.
const OTHER_BOOL_FLAGS: [&str; 5] = ["leader-elect", "metrics-secure", "enable-http2", "enable-pyrra-slo", "zap-devel"];

/// The flags of `args` as Go's `flag` package reads them: `-x` or `--x`,
/// `=value` or the next word (booleans take only `=value`); parsing stops at
/// the first word that is not a flag, at `-` and after `--`. Each flag with
/// its value (`None` for a bare boolean), in order; a repeated flag's last
/// value is the one that counts.
pub fn go_flags(args: &[String]) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            break;
        }
        let Some(body) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else { break };
        if body.is_empty() || body.starts_with('-') || body.starts_with('=') {
            break;
        }
        match body.split_once('=') {
            Some((name, value)) => out.push((name.to_string(), Some(value.to_string()))),
            None if BOOL_FLAGS.contains(&body) || OTHER_BOOL_FLAGS.contains(&body) => {
                out.push((body.to_string(), None))
            }
            None => {
                let value = args.get(i).cloned();
                i += 1;
                out.push((body.to_string(), value));
            }
        }
    }
    out
}

impl Operator {
    /// `namespace/name`.
    pub fn id(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// Why the release is not known, in words.
    pub fn unknown_release(&self) -> String {
        let image = match (image_tag(&self.image), self.release_source) {
            (Some(tag), _) => format!("its image tag {tag:?} names no LLMKube release"),
            (None, ReleaseSource::VersionLabel) => {
                format!("its image is pinned by digest and no {VERSION_LABEL} label names a release")
            }
            (None, _) => "its image has no tag (kubelet pulls latest)".to_string(),
        };
        let crd = match &self.router_crd {
            RouterCrd::NotRead | RouterCrd::Next => String::new(),
            RouterCrd::Released => format!(
                " and the cluster's ModelRouter CRD has no {} (a released CRD, which does not say which release)",
                next_field()
            ),
            RouterCrd::Unread(why) => format!(" and the cluster's ModelRouter CRD could not be read ({why})"),
        };
        image + &crd
    }

    /// One line on what was found.
    pub fn describe(&self) -> String {
        let release = match self.release {
            Some(r) => format!("release {r} (from its {})", self.release_source),
            None => format!("no release routerctl knows ({})", self.unknown_release()),
        };
        let flag = |name: &str, v: &Option<String>| match v {
            Some(v) => format!("--{name}={v}"),
            None => format!("no --{name}"),
        };
        format!(
            "operator {} runs {}: {release}; {}, {}, --emit-scrape-annotations {}",
            self.id(),
            self.image,
            flag("router-proxy-image", &self.router_proxy_image),
            flag("default-litellm-url", &self.default_litellm_url),
            if self.emit_scrape_annotations { "on" } else { "off" },
        )
    }
}

/// Several operators in words, for the refusal.
pub fn describe_several(found: &[Operator]) -> String {
    found.iter().map(|o| format!("{} ({})", o.id(), o.image)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The operator a Deployment written as JSON is.
    fn operator_of(deployment: &Value) -> Option<Operator> {
        let typed: Deployment = serde_json::from_value(deployment.clone()).expect("a Deployment");
        super::operator_of(&typed)
    }

    fn words(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn flags_are_read_as_go_reads_them() {
        let flags = go_flags(&words(&[
            "--leader-elect",
            "--router-proxy-image=ghcr.io/x/rp:1",
            "-default-litellm-url",
            "http://litellm:4000",
            "--emit-scrape-annotations",
            "--router-proxy-image",
            "ghcr.io/x/rp:2",
        ]));
        assert_eq!(
            flags,
            vec![
                ("leader-elect".into(), None),
                ("router-proxy-image".into(), Some("ghcr.io/x/rp:1".into())),
                ("default-litellm-url".into(), Some("http://litellm:4000".into())),
                ("emit-scrape-annotations".into(), None),
                ("router-proxy-image".into(), Some("ghcr.io/x/rp:2".into())),
            ]
        );
        // A bare word ends the flags: what follows it is never parsed.
        let stopped = go_flags(&words(&["--leader-elect", "false", "--router-proxy-image=x"]));
        assert_eq!(stopped, vec![("leader-elect".into(), None)]);
        assert_eq!(go_flags(&words(&["--", "--router-proxy-image=x"])), vec![]);
    }

    #[test]
    fn tags_are_read_past_registry_ports_and_digests() {
        assert_eq!(image_tag("ghcr.io/defilantech/llmkube-controller:0.9.19"), Some("0.9.19"));
        assert_eq!(image_tag("registry:5000/llmkube-controller"), None);
        assert_eq!(image_tag("registry:5000/llmkube-controller:v0.8.14@sha256:ab"), Some("v0.8.14"));
        assert_eq!(image_tag("llmkube-controller@sha256:ab"), None);
        assert_eq!(image_name("registry:5000/team/llmkube-controller:1@sha256:ab"), "llmkube-controller");
    }

    fn deployment(labels: Value, container: Value) -> Value {
        json!({"kind": "Deployment", "metadata": {"name": "op", "namespace": "llmkube-system", "labels": labels},
               "spec": {"template": {"spec": {"containers": [{"name": "kube-rbac-proxy", "image": "rbac:1"}, container]}}}})
    }

    #[test]
    fn the_release_comes_from_the_tag_or_the_version_label() {
        let chart = deployment(
            json!({"app.kubernetes.io/name": "llmkube", "app.kubernetes.io/version": "0.9.12"}),
            json!({"name": "manager", "image": "ghcr.io/defilantech/llmkube-controller@sha256:00",
                   "command": ["/manager"], "args": ["--emit-scrape-annotations=false", "--router-proxy-image=rp:dev"]}),
        );
        let op = operator_of(&chart).expect("an operator");
        assert_eq!(op.release.map(|r| r.name()), Some("v0.9.12"));
        assert_eq!(op.release_source, ReleaseSource::VersionLabel);
        assert!(!op.emit_scrape_annotations);
        assert_eq!(op.router_proxy_image.as_deref(), Some("rp:dev"));

        let custom = deployment(json!({}), json!({"name": "manager", "image": "me/llmkube-controller:my-build"}));
        let op = operator_of(&custom).expect("found by its image");
        assert_eq!(op.release, None);

        // A tag that names no release is not read through the label, which
        // the chart writes from its appVersion whatever the tag.
        let label = json!({"app.kubernetes.io/name": "llmkube", "app.kubernetes.io/version": "0.9.19"});
        for image in [
            "ghcr.io/defilantech/llmkube-controller:latest",
            "ghcr.io/defilantech/llmkube-controller:v0.9.19-rc1",
            "ghcr.io/defilantech/llmkube-controller:0.9.20",
            "ghcr.io/defilantech/llmkube-controller:next",
            "ghcr.io/defilantech/llmkube-controller",
        ] {
            let op =
                operator_of(&deployment(label.clone(), json!({"name": "manager", "image": image}))).expect("found");
            assert_eq!(op.release, None, "{image}");
        }
        let tagged = "ghcr.io/defilantech/llmkube-controller:v0.9.13@sha256:00";
        let op = operator_of(&deployment(label, json!({"name": "manager", "image": tagged}))).expect("found");
        assert_eq!((op.release.map(|r| r.name()), op.release_source), (Some("v0.9.13"), ReleaseSource::ImageTag));

        // Another controller-manager (some other operator) is not ours.
        let other =
            deployment(json!({"app.kubernetes.io/name": "foreman"}), json!({"name": "manager", "image": "x:1"}));
        assert_eq!(operator_of(&other), None);
    }

    /// A CRD is `next`'s when a version it serves has
    /// `spec.proxy.podLabels`; a version it no longer serves does not
    /// count, and an answer that is no CRD is said to be one.
    #[test]
    fn the_crd_tells_next_by_its_schema() {
        let version = |served: bool, proxy: Value| {
            json!({"name": "v1alpha1", "served": served, "schema": {"openAPIV3Schema": {"properties": {"spec":
                {"properties": {"proxy": {"properties": proxy}}}}}}})
        };
        let crd = |versions: Vec<Value>| json!({"kind": "CustomResourceDefinition", "spec": {"versions": versions}});
        let next = json!({"replicas": {"type": "integer"}, "podLabels": {"type": "object"}});
        let released = json!({"replicas": {"type": "integer"}});
        assert_eq!(router_crd_of(&crd(vec![version(true, next.clone())])), RouterCrd::Next);
        assert_eq!(router_crd_of(&crd(vec![version(true, released.clone())])), RouterCrd::Released);
        assert_eq!(
            router_crd_of(&crd(vec![version(false, next.clone()), version(true, released)])),
            RouterCrd::Released
        );
        // `served` left out is read as served.
        let mut unsaid = version(true, next);
        unsaid.as_object_mut().expect("a version").remove("served");
        assert_eq!(router_crd_of(&crd(vec![unsaid])), RouterCrd::Next);
        assert!(matches!(router_crd_of(&json!({"kind": "List", "items": []})), RouterCrd::Unread(_)));
    }

    #[test]
    fn the_manager_is_found_by_its_exact_name_and_image() {
        let pod = json!({"kind": "Deployment", "metadata": {"name": "op", "namespace": "ns",
            "labels": {"app.kubernetes.io/name": "llmkube"}},
            "spec": {"template": {"spec": {"containers": [
                {"name": "llmkube-controller-helper", "image": "ghcr.io/defilantech/llmkube-controller-helper:0.9.1",
                 "args": ["--router-proxy-image=helper"]},
                {"name": "manager-sidecar", "image": "ghcr.io/defilantech/llmkube-controller:0.9.1",
                 "args": ["--router-proxy-image=sidecar"]},
                {"name": "manager", "image": "ghcr.io/defilantech/llmkube-controller:0.9.12",
                 "args": ["--router-proxy-image=rp:1"]}]}}}});
        let op = operator_of(&pod).expect("an operator");
        assert_eq!(
            (op.image.as_str(), op.router_proxy_image.as_deref()),
            ("ghcr.io/defilantech/llmkube-controller:0.9.12", Some("rp:1"))
        );
        // Not labelled, and no container runs the controller's image
        // exactly: not the operator.
        let helper_only = json!({"kind": "Deployment", "metadata": {"name": "h", "namespace": "ns"},
            "spec": {"template": {"spec": {"containers": [
                {"name": "manager", "image": "ghcr.io/defilantech/llmkube-controller-helper:0.9.1"}]}}}});
        assert_eq!(operator_of(&helper_only), None);
    }
}
