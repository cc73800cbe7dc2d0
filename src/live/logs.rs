//! The router-proxy's log read from the cluster, every replica, through
//! the `kubectl` on PATH, within the run's one `Deadline` (`live::run`).
//!
//! One `kubectl logs -l SELECTOR` reads the pods the operator's Deployment
//! selects (`kube::names::selector_labels`), the pods of an older
//! ReplicaSet still serving during a rollout among them. One call rather
//! than `get pods` and a `logs` per pod: a pod that is replaced between
//! the two calls cannot be lost, the deadline bounds one process, and the
//! command line does not grow with the replicas. What makes it read every
//! replica whole: `--tail=-1`, since with a selector kubectl keeps only the
//! last 10 lines of each pod by default; `--max-log-requests` bounds only
//! `--follow`, which is not used, so kubectl reads the pods one after the
//! other whatever their number (kubectl's `RunLogs`, `sequentialConsumeRequest`);
//! and kubectl fails (nothing is replayed) when one pod's log cannot be
//! read, rather than leave a replica out (no `--ignore-errors`).
//! `--prefix` says each line's pod, which `input::log` reads past; `-c`
//! names the proxy container, so a sidecar a mesh injects adds no lines.

use std::ffi::OsString;
use std::io::Read;

use anyhow::{anyhow, Result};

use super::cluster::KubectlOptions;
use super::run::{failure, run_kubectl};
use crate::diagnostic::KubectlFailure;
use crate::kube::names::{selector_labels, CONTAINER_NAME};

/// Which proxy's log, and how far back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyLogs {
    /// The ModelRouter's namespace and name.
    pub namespace: String,
    pub router: String,
    /// `--since` as the user wrote it (a Go duration, which kubectl reads);
    /// `None` for all that the pods still hold.
    pub since: Option<String>,
}

impl ProxyLogs {
    /// `app=NAME-router-proxy,inference.llmkube.dev/model-router=NAME`.
    pub fn selector(&self) -> String {
        selector_labels(&self.router).iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
    }
}

impl KubectlOptions {
    /// The whole `kubectl logs` for a proxy's pods.
    pub fn logs_args(&self, logs: &ProxyLogs) -> Vec<OsString> {
        let mut args = self.global_args();
        let selector = logs.selector();
        let container = format!("--container={CONTAINER_NAME}");
        for a in ["logs", "-n", &logs.namespace, "-l", &selector, &container, "--prefix", "--tail=-1"] {
            args.push(a.into());
        }
        if let Some(since) = &logs.since {
            args.push(format!("--since={since}").into());
        }
        args
    }
}

/// What kubectl said on stderr when it succeeded (`No resources found`, a
/// deprecation warning); empty when nothing.
pub struct Said(pub String);

/// Reads the proxy's logs through `kubectl` as found on PATH, handing its
/// stdout to `read` as it arrives; kubectl's failure is a
/// [`KubectlFailure`].
pub fn read_proxy_logs(
    options: &KubectlOptions,
    logs: &ProxyLogs,
    read: impl FnOnce(&mut dyn Read) -> Result<()>,
) -> Result<Said> {
    let program = OsString::from("kubectl");
    let args = options.logs_args(logs);
    let shown = format!(
        "{} {}",
        program.to_string_lossy(),
        args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ")
    );
    let deadline = &options.deadline;
    let finished = run_kubectl(&program, &args, deadline, read).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            anyhow!("cannot run kubectl: it is not on PATH; install kubectl, or give the log with --log FILE")
        }
        std::io::ErrorKind::TimedOut => anyhow!(
            "`{shown}` was not started: the cluster read had no answer within {:?} (--request-timeout)",
            deadline.timeout
        ),
        _ => anyhow!("cannot run `{shown}`: {e}"),
    })?;
    // A signal stopped kubectl: the handler says so and ends the run.
    super::run::park_if_stopping();
    if finished.stopped_by_reader {
        // The reader's error, not the kill that followed it.
        return finished.read.map(|()| Said(String::new()));
    }
    if !finished.status.success() || finished.timed_out {
        return Err(KubectlFailure {
            command: shown,
            status: failure(finished.status, finished.timed_out, deadline).to_string(),
            reading: format!("the router-proxy logs of {}/{}", logs.namespace, logs.router),
            stderr: finished.stderr,
            hint: "check --context and --kubeconfig, give a longer --request-timeout for a long --since, or give \
                   the log with --log FILE"
                .to_string(),
        }
        .into());
    }
    finished.read?;
    Ok(Said(finished.stderr))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::live::run::Deadline;

    #[test]
    fn every_replica_is_read_whole_by_the_deployments_selector() {
        let options = KubectlOptions {
            context: Some("prod".into()),
            kubeconfig: None,
            deadline: Deadline::starting_now("2m", Duration::from_secs(120)),
        };
        let logs = ProxyLogs { namespace: "ml".into(), router: "chat.v2".into(), since: Some("24h".into()) };
        let args: Vec<String> = options.logs_args(&logs).iter().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(
            args,
            [
                "--request-timeout=2m",
                "--context",
                "prod",
                "logs",
                "-n",
                "ml",
                "-l",
                "app=chat-v2-router-proxy,inference.llmkube.dev/model-router=chat.v2",
                "--container=router-proxy",
                "--prefix",
                "--tail=-1",
                "--since=24h"
            ]
        );
        let all = ProxyLogs { since: None, ..logs };
        assert!(!options.logs_args(&all).iter().any(|a| a.to_string_lossy().starts_with("--since")));
    }
}
