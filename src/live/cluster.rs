//! Live objects read from the cluster through the `kubectl` on PATH, as
//! `kubectl diff` reads them: the user's kubeconfig, context and credentials
//! apply, and routerctl links no Kubernetes client of its own.
//!
//! One `kubectl get` per namespace lists the kinds the operator writes for
//! the data planes its routers use (`kube::kinds`), and for the Gateway
//! plane the InferenceServices its health comes from; the objects are then
//! picked by the names the routers own. Listing by kind
//! rather than naming each object keeps the call one per namespace however
//! many routers live there (no command line grows with the fleet), and a
//! label selector is not used because labels on live objects can be edited
//! or removed by anyone, while the names are fixed by the operator.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use anyhow::{anyhow, Result};
use serde_json::Value;

use super::files::LiveStore;
use super::objects::LiveObjects;
use super::run::{failure, request_timeout_arg, run_kubectl, Deadline};
use crate::diagnostic::KubectlFailure;
use crate::kube::kinds::Planes;
use crate::kube::ObjectKey;

/// The kubectl flags passed through: which cluster, as whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KubectlOptions {
    pub context: Option<String>,
    pub kubeconfig: Option<PathBuf>,
    /// The one deadline of the run's cluster read (`--request-timeout`,
    /// also passed to each kubectl); every kubectl still running some
    /// seconds after it is killed.
    pub deadline: Deadline,
}

impl Default for KubectlOptions {
    fn default() -> Self {
        KubectlOptions {
            context: None,
            kubeconfig: None,
            deadline: Deadline::starting_now("30s", DEFAULT_REQUEST_TIMEOUT),
        }
    }
}

/// How long the cluster read may take, unless `--request-timeout` says.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

impl KubectlOptions {
    /// The global flags, before the verb.
    pub(super) fn global_args(&self) -> Vec<OsString> {
        let mut args = vec![request_timeout_arg(&self.deadline)];
        if let Some(context) = &self.context {
            args.push("--context".into());
            args.push(context.into());
        }
        if let Some(kubeconfig) = &self.kubeconfig {
            args.push("--kubeconfig".into());
            args.push(kubeconfig.into());
        }
        args
    }

    /// The whole `kubectl get` for one namespace.
    pub fn get_args(&self, namespace: &str, planes: Planes) -> Vec<OsString> {
        let mut args = self.global_args();
        for a in ["get", &planes.resources(), "-n", namespace, "-o", "yaml"] {
            args.push(a.into());
        }
        args
    }
}

/// The live objects of the cluster, fetched a namespace at a time on first
/// use and kept for the rest of the run. Routers are reconciled on several
/// threads: the first to need a namespace runs kubectl while the others
/// that need the same namespace wait, so each namespace is read once, and
/// reads of different namespaces run side by side. A failed read is not
/// retried, and after one no other kubectl starts: the reads not yet begun
/// fail with its message.
pub struct ClusterLive {
    program: OsString,
    options: KubectlOptions,
    /// Each namespace's read, once begun: its store, or why it could not
    /// be read (the error's text).
    namespaces: Mutex<HashMap<String, Arc<NamespaceRead>>>,
    /// The first read that failed, once one has.
    failed: OnceLock<ReadError>,
    /// kubectl's stderr from calls that succeeded (deprecation and
    /// admission warnings), by namespace.
    notes: Mutex<HashMap<String, String>>,
    /// The data planes each namespace's routers use (the proxy plane where
    /// none was said).
    planes: Mutex<HashMap<String, Planes>>,
}

/// One namespace's read, done once: its store, or why it could not be read.
type NamespaceRead = OnceLock<Result<Arc<LiveStore>, ReadError>>;

/// Why a namespace could not be read, kept to be told again to every
/// router that asks: kubectl's failure as it is (its lines stay apart), or
/// any other error's text.
#[derive(Debug, Clone)]
enum ReadError {
    Kubectl(KubectlFailure),
    Other(String),
}

impl ReadError {
    fn of(error: &anyhow::Error) -> ReadError {
        match error.chain().find_map(|e| e.downcast_ref::<KubectlFailure>()) {
            Some(failure) => ReadError::Kubectl(failure.clone()),
            None => ReadError::Other(format!("{error:#}")),
        }
    }

    fn to_error(&self) -> anyhow::Error {
        match self {
            ReadError::Kubectl(failure) => failure.clone().into(),
            ReadError::Other(message) => anyhow!("{message}"),
        }
    }
}

/// A lock whose holder panicked still guards whole values (each is
/// inserted in one step).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl ClusterLive {
    /// Reads through `kubectl` as found on PATH.
    pub fn new(options: KubectlOptions) -> ClusterLive {
        ClusterLive {
            program: "kubectl".into(),
            options,
            namespaces: Mutex::new(HashMap::new()),
            failed: OnceLock::new(),
            notes: Mutex::new(HashMap::new()),
            planes: Mutex::new(HashMap::new()),
        }
    }

    /// Runs one `kubectl get` for `namespace`; its output goes to a
    /// temporary file and is indexed from there, so memory stays bounded
    /// however large the namespace.
    fn fetch(&self, namespace: &str) -> Result<LiveStore> {
        let args = self.options.get_args(namespace, self.planes_of(namespace));
        let shown = format!(
            "{} {}",
            self.program.to_string_lossy(),
            args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ")
        );
        let deadline = &self.options.deadline;
        // The answer is indexed as it arrives (spooled to a temporary file
        // to be read back), so the bounds on an object stop a flood.
        let finished = run_kubectl(&self.program, &args, deadline, |stdout| {
            LiveStore::from_stream(&format!("`{shown}`"), stdout, namespace)
        })
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => anyhow!(
                "cannot run kubectl: it is not on PATH; install kubectl, or give the live objects with --live FILE"
            ),
            std::io::ErrorKind::TimedOut => anyhow!(
                "`{shown}` was not started: the cluster read had no answer within {:?} (--request-timeout, for \
                 every kubectl of the run); check --context and --kubeconfig, give a longer --request-timeout, or \
                 give the live objects with --live FILE",
                deadline.timeout
            ),
            _ => anyhow!("cannot run `{shown}`: {e}"),
        })?;
        if finished.stopped_by_reader {
            return finished.read;
        }
        if !finished.status.success() || finished.timed_out {
            // kubectl's lines travel apart from the error's words, so that
            // they are shown as kubectl's, not as the router's.
            return Err(KubectlFailure {
                command: shown,
                status: failure(finished.status, finished.timed_out, deadline).to_string(),
                reading: format!("namespace {namespace}"),
                stderr: finished.stderr,
                hint: "check --context and --kubeconfig, or give the live objects with --live FILE".to_string(),
            }
            .into());
        }
        let store = finished.read?;
        if !finished.stderr.trim().is_empty() {
            lock(&self.notes).insert(namespace.to_string(), finished.stderr);
        }
        Ok(store)
    }
}

impl ClusterLive {
    fn planes_of(&self, namespace: &str) -> Planes {
        lock(&self.planes).get(namespace).copied().unwrap_or(Planes { proxy: true, gateway: false })
    }
}

impl LiveObjects for ClusterLive {
    fn wants_planes(&self) -> bool {
        true
    }

    fn expect(&self, namespace: &str, planes: Planes) {
        let mut all = lock(&self.planes);
        let entry = all.entry(namespace.to_string()).or_default();
        entry.proxy |= planes.proxy;
        entry.gateway |= planes.gateway;
    }

    fn lists(&self, key: &ObjectKey) -> bool {
        self.planes_of(&key.namespace).lists(&key.api_version, &key.kind)
    }

    fn get(&self, key: &ObjectKey) -> Result<Option<Value>> {
        // The map is held only to find the namespace's cell; its read runs
        // outside it.
        let cell = Arc::clone(lock(&self.namespaces).entry(key.namespace.clone()).or_default());
        let read = cell.get_or_init(|| {
            if let Some(first) = self.failed.get() {
                return Err(first.clone());
            }
            let read = self.fetch(&key.namespace).map(Arc::new).map_err(|e| ReadError::of(&e));
            if let Err(error) = &read {
                let _ = self.failed.set(error.clone());
            }
            read
        });
        match read {
            Ok(store) => store.get(key),
            Err(error) => Err(error.to_error()),
        }
    }

    fn take_notes(&self, namespace: &str) -> Option<String> {
        lock(&self.notes).remove(namespace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_come_before_the_verb_and_the_namespace_is_explicit() {
        let proxy = Planes { proxy: true, gateway: false };
        let resources = proxy.resources();
        let options = KubectlOptions {
            context: Some("prod".into()),
            kubeconfig: Some("kc".into()),
            deadline: Deadline::starting_now("1m30s", Duration::from_secs(90)),
        };
        let args: Vec<String> =
            options.get_args("ml", proxy).iter().map(|a| a.to_string_lossy().into_owned()).collect();
        let want = ["--request-timeout=1m30s", "--context", "prod", "--kubeconfig", "kc", "get", &resources];
        assert_eq!(args, [&want[..], &["-n", "ml", "-o", "yaml"]].concat());
        let bare: Vec<String> =
            KubectlOptions::default().get_args("a", proxy).iter().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(bare, ["--request-timeout=30s", "get", &resources, "-n", "a", "-o", "yaml"]);
    }
}
