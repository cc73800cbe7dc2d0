//! `KUBECTL_EXTERNAL_DIFF`, honoured the way `kubectl diff` honours it: the
//! program is called once with two directories, `LIVE-*` and `MERGED-*`,
//! holding one file per object named `group.version.Kind.namespace.name`
//! (`apps.v1.Deployment.ml.r-router-proxy`, `v1.Service.ml.r-router-proxy`);
//! an object not yet live has an empty file under LIVE. The variable is
//! split on spaces; the words after the program are kept only when made of
//! letters, digits, `-` and `=` (kubectl's guard against shell tricks) and
//! come after the two directories. Exit status 0 and 1 are the program's
//! answer; anything else is an error.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::Value;
use tempfile::TempDir;

use crate::kube::ObjectKey;
use crate::output::yaml::to_yaml;

/// The environment variable kubectl reads.
pub const VARIABLE: &str = "KUBECTL_EXTERNAL_DIFF";

/// Two directories being filled, and the program that will compare them.
pub struct ExternalDiff {
    program: String,
    extra_args: Vec<String>,
    live: TempDir,
    merged: TempDir,
}

/// What the program printed and how it exited (0 or 1).
pub struct ExternalOutcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub code: i32,
}

impl ExternalDiff {
    /// From the variable's value (not empty).
    pub fn new(value: &str) -> Result<ExternalDiff> {
        let mut words = value.split(' ');
        let program = words.next().unwrap_or_default().to_string();
        let extra_args = words.filter(|w| is_safe_word(w)).map(str::to_string).collect();
        let dir = |prefix: &str| {
            tempfile::Builder::new()
                .prefix(&format!("{prefix}-"))
                .tempdir()
                .with_context(|| format!("cannot create the {prefix} directory for {VARIABLE}"))
        };
        Ok(ExternalDiff { program, extra_args, live: dir("LIVE")?, merged: dir("MERGED")? })
    }

    /// Writes one object's two sides; `before` is `None` when it is not live.
    pub fn add(&mut self, key: &ObjectKey, before: Option<&Value>, after: &Value) -> Result<()> {
        let name = file_name(key);
        let write = |dir: &Path, text: &str| {
            let path = dir.join(&name);
            std::fs::write(&path, text).map_err(|e| anyhow!("cannot write {}: {e}", path.display()))
        };
        write(self.live.path(), &before.map(to_yaml).unwrap_or_default())?;
        write(self.merged.path(), &to_yaml(after))
    }

    /// Runs the program on the two directories, which are removed after.
    pub fn run(self) -> Result<ExternalOutcome> {
        let output = Command::new(&self.program)
            .arg(self.live.path())
            .arg(self.merged.path())
            .args(&self.extra_args)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| anyhow!("cannot run {VARIABLE} program {:?}: {e}", self.program))?;
        match output.status.code() {
            Some(code @ (0 | 1)) => Ok(ExternalOutcome { stdout: output.stdout, stderr: output.stderr, code }),
            other => {
                let status = other.map_or_else(|| "killed by a signal".to_string(), |c| format!("exit status {c}"));
                let stderr = String::from_utf8_lossy(&output.stderr);
                let detail = if stderr.trim().is_empty() { String::new() } else { format!(":\n{}", stderr.trim_end()) };
                bail!("{VARIABLE} program {:?} failed ({status}){detail}", self.program)
            }
        }
    }
}

/// kubectl's `InfoObject.Name()`: `[group.]version.Kind.namespace.name`.
pub fn file_name(key: &ObjectKey) -> String {
    format!("{}.{}.{}.{}", key.api_version.replace('/', "."), key.kind, key.namespace, key.name)
}

/// kubectl keeps an extra word only when it matches `^[a-zA-Z0-9-=]+$`.
fn is_safe_word(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '=')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_follow_kubectl() {
        let key = |api_version: &str, kind: &str| ObjectKey {
            api_version: api_version.into(),
            kind: kind.into(),
            namespace: "ml".into(),
            name: "r-router-proxy".into(),
        };
        assert_eq!(file_name(&key("apps/v1", "Deployment")), "apps.v1.Deployment.ml.r-router-proxy");
        assert_eq!(file_name(&key("v1", "ConfigMap")), "v1.ConfigMap.ml.r-router-proxy");
        assert_eq!(
            file_name(&key("rbac.authorization.k8s.io/v1", "Role")),
            "rbac.authorization.k8s.io.v1.Role.ml.r-router-proxy"
        );
    }

    #[test]
    fn only_plain_words_pass_as_arguments() {
        let d = ExternalDiff::new("colordiff -u  -N --label=x $(rm) a;b").expect("temp dirs");
        assert_eq!(d.program, "colordiff");
        assert_eq!(d.extra_args, ["-u", "-N", "--label=x"]);
    }
}
