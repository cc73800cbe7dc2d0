//! Running the real `routerctl` binary from tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// A readable record of the run for snapshots.
    pub fn transcript(&self, args: &[&str]) -> String {
        format!(
            "$ routerctl {}\nexit: {}\n--- stderr\n{}--- stdout\n{}",
            args.join(" "),
            self.code,
            self.stderr,
            self.stdout
        )
    }
}

/// Panics unless `program` runs (`program args...` exits 0): a test that
/// needs a tool routerctl does not install is `#[ignore]`d with the reason,
/// and asking for it (`--ignored`, as `.ci/run` does where the tool is
/// installed) promises the tool, so a missing one fails rather than passes.
pub fn require_tool(program: &str, args: &[&str], what: &str) {
    let ran = Command::new(program).args(args).output().is_ok_and(|o| o.status.success());
    assert!(ran, "{program} is not on PATH, and {what} needs it (install it, or leave out --ignored)");
}

/// The crate root, so testdata paths in snapshots stay relative.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether the tests run from the published crate (`cargo package` writes
/// `Cargo.toml.orig` beside the manifest it rewrites) rather than from the
/// repository: the crate leaves out the benchmarks, CI and release files
/// (Cargo.toml's `include`), so the tests that check those stand aside.
pub fn packaged() -> bool {
    root().join("Cargo.toml.orig").is_file()
}

/// Runs the binary from the crate root with `args`, feeding `stdin`.
pub fn routerctl(args: &[&str], stdin: Option<&str>) -> Run {
    routerctl_env(args, stdin, &[])
}

/// As `routerctl`, with environment variables set (PATH for a kubectl
/// stand-in, KUBECTL_EXTERNAL_DIFF).
pub fn routerctl_env(args: &[&str], stdin: Option<&str>, env: &[(&str, std::ffi::OsString)]) -> Run {
    run_binary(&root(), args, stdin, env)
}

/// As `routerctl`, from `dir` (a `scratch` directory: messages then name
/// its files as given).
pub fn routerctl_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Run {
    run_binary(dir, args, stdin, &[])
}

/// A temporary directory holding each `(name, text)` as a file.
pub fn scratch(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("writes a file");
    }
    dir
}

fn run_binary(dir: &Path, args: &[&str], stdin: Option<&str>, env: &[(&str, std::ffi::OsString)]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_routerctl"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("KUBECTL_EXTERNAL_DIFF")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("routerctl binary starts");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // A run that fails before reading stdin closes it: not a test failure.
        if let Err(e) = pipe.write_all(text.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writing stdin: {e}");
        }
    }
    let out = child.wait_with_output().expect("routerctl finishes");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// A `kubectl` stand-in: a shell script in a temporary directory, put first
/// on PATH. It appends its arguments to `calls.log`, one call a line, and
/// answers `get ... -n NS` with `NS.yaml` from its directory (an empty List
/// when there is none), or, when `fail` exists, prints that file on stderr
/// and exits 1 as kubectl does; `warn` is printed on stderr by a call that
/// succeeds. The operator lookup (`get ... --all-namespaces`) is answered
/// with `operators.json` (an empty JSON List when there is none), or fails
/// with `operators-fail`. The ModelRouter CRD's (`get
/// customresourcedefinitions...`) with `crd.json`, or kubectl's NotFound
/// when there is none; `crd-fail` makes it fail with that file on stderr.
pub struct FakeKubectl {
    pub dir: tempfile::TempDir,
}

impl FakeKubectl {
    pub fn new() -> FakeKubectl {
        let dir = tempfile::tempdir().expect("temp dir");
        let script = format!(
            r#"#!/bin/sh
dir='{}'
printf '%s\n' "$*" >> "$dir/calls.log"
case "$*" in
  *customresourcedefinitions.apiextensions.k8s.io*)
    if [ -f "$dir/crd-fail" ]; then cat "$dir/crd-fail" >&2; exit 1; fi
    if [ -f "$dir/crd.json" ]; then cat "$dir/crd.json"; exit 0; fi
    printf 'Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "modelrouters.inference.llmkube.dev" not found\n' >&2
    exit 1 ;;
esac
for a in "$@"; do
  if [ "$a" = "--all-namespaces" ]; then
    if [ -f "$dir/operators-fail" ]; then cat "$dir/operators-fail" >&2; exit 1; fi
    if [ -f "$dir/fail" ]; then cat "$dir/fail" >&2; exit 1; fi
    if [ -f "$dir/operators.json" ]; then cat "$dir/operators.json"; exit 0; fi
    printf '{{"apiVersion": "v1", "items": [], "kind": "List"}}\n'; exit 0
  fi
done
ns=""
prev=""
for a in "$@"; do
  if [ "$prev" = "-n" ]; then ns="$a"; fi
  prev="$a"
done
if [ -f "$dir/fail" ]; then cat "$dir/fail" >&2; exit 1; fi
if [ -f "$dir/warn" ]; then cat "$dir/warn" >&2; fi
if [ -f "$dir/$ns.yaml" ]; then cat "$dir/$ns.yaml"; exit 0; fi
printf 'apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: ""\n'
"#,
            dir.path().display()
        );
        let path = dir.path().join("kubectl");
        std::fs::write(&path, script).expect("writes the stand-in");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("makes it executable");
        FakeKubectl { dir }
    }

    /// A stand-in that answers the operator lookup with an empty List and
    /// runs the shell `body` for every other call (`$dir` is its
    /// directory): a kubectl that hangs, floods or dies.
    pub fn scripted(body: &str) -> FakeKubectl {
        FakeKubectl::raw(&format!(
            "case \"$*\" in\n  *--all-namespaces*) printf '{{\"apiVersion\": \"v1\", \"items\": [], \"kind\": \"List\"}}\\n'; exit 0 ;;\nesac\n{body}"
        ))
    }

    /// A stand-in that records its arguments in `calls.log` and runs the
    /// shell `body` for every call, the operator look-up included (`$dir`
    /// is its directory).
    pub fn raw(body: &str) -> FakeKubectl {
        let kubectl = FakeKubectl::new();
        let dir = kubectl.dir.path().display();
        let script = format!("#!/bin/sh\ndir='{dir}'\nprintf '%s\\n' \"$*\" >> \"$dir/calls.log\"\n{body}\n");
        std::fs::write(kubectl.dir.path().join("kubectl"), script).expect("writes the stand-in");
        kubectl
    }

    /// What `kubectl get -n NS` answers.
    pub fn namespace(&self, ns: &str, yaml: &str) -> &FakeKubectl {
        std::fs::write(self.dir.path().join(format!("{ns}.yaml")), yaml).expect("writes the answer");
        self
    }

    /// Every call fails with `message` on stderr.
    pub fn fail_with(&self, message: &str) -> &FakeKubectl {
        std::fs::write(self.dir.path().join("fail"), message).expect("writes the failure");
        self
    }

    /// What the operator lookup answers: Deployments as a JSON List.
    pub fn operators(&self, deployments: &[serde_json::Value]) -> &FakeKubectl {
        let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": deployments});
        std::fs::write(self.dir.path().join("operators.json"), list.to_string()).expect("writes the answer");
        self
    }

    /// What the look-up of the ModelRouter CRD answers: the CRD as JSON.
    pub fn router_crd(&self, crd: &serde_json::Value) -> &FakeKubectl {
        std::fs::write(self.dir.path().join("crd.json"), crd.to_string()).expect("writes the answer");
        self
    }

    /// The look-up of the ModelRouter CRD fails with `message` on stderr.
    pub fn router_crd_fails_with(&self, message: &str) -> &FakeKubectl {
        std::fs::write(self.dir.path().join("crd-fail"), message).expect("writes the failure");
        self
    }

    /// The operator lookup fails with `message` on stderr.
    pub fn operators_fail_with(&self, message: &str) -> &FakeKubectl {
        std::fs::write(self.dir.path().join("operators-fail"), message).expect("writes the failure");
        self
    }

    /// Every call succeeds but first prints `message` on stderr.
    pub fn warn_with(&self, message: &str) -> &FakeKubectl {
        std::fs::write(self.dir.path().join("warn"), message).expect("writes the warning");
        self
    }

    /// The calls made, one line of arguments each.
    pub fn calls(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("calls.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// PATH with the stand-in first.
    pub fn path(&self) -> std::ffi::OsString {
        let mut dirs = vec![self.dir.path().to_path_buf()];
        dirs.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
        std::env::join_paths(dirs).expect("a valid PATH")
    }

    /// Runs routerctl with the stand-in on PATH.
    pub fn run(&self, args: &[&str], stdin: Option<&str>) -> Run {
        routerctl_env(args, stdin, &[("PATH", self.path())])
    }
}

/// A testdata file's text.
pub fn fixture(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).expect("fixture")
}

/// The objects of a YAML stream (the binary's output), parsed back.
pub fn parse_stream(yaml: &str) -> Vec<serde_json::Value> {
    routerctl::input::parse_stream("output", yaml).expect("output is YAML").into_iter().map(|(_, _, v)| v).collect()
}

/// Objects as `kubectl get -o json` writes them: one JSON List.
pub fn to_stream(objects: &[serde_json::Value]) -> String {
    let list =
        serde_json::json!({"apiVersion": "v1", "items": objects, "kind": "List", "metadata": {"resourceVersion": ""}});
    serde_json::to_string_pretty(&list).expect("serializable") + "\n"
}
