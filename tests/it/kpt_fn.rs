//! The KRM function through the real `kpt fn eval --exec`: objects written
//! into the package, a re-run changing nothing, `--fn-config` honoured, an
//! invalid router an error result, each warning and each error said once.
//!
//! kpt is not part of every machine this suite runs on; without it on PATH
//! each test says so and passes without running.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A package directory holding `files` (testdata paths), and the function
/// as kpt runs it: a `routerctl-krm` link to the binary.
struct Package {
    dir: tempfile::TempDir,
}

impl Package {
    fn new(files: &[&str]) -> Package {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("pkg")).expect("mkdir");
        for file in files {
            let name = Path::new(file).file_name().expect("a file name");
            std::fs::copy(common::root().join(file), dir.path().join("pkg").join(name)).expect("copy");
        }
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_routerctl"), dir.path().join("routerctl-krm")).expect("link");
        Package { dir }
    }

    fn pkg(&self) -> PathBuf {
        self.dir.path().join("pkg")
    }

    /// `kpt fn eval pkg --exec routerctl-krm ARGS`: exit code and all output.
    fn eval(&self, args: &[&str]) -> (i32, String) {
        let out = Command::new("kpt")
            .args(["fn", "eval", "pkg", "--exec"])
            .arg(self.dir.path().join("routerctl-krm"))
            .arg("--truncate-output=false")
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("kpt runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        (out.status.code().unwrap_or(-1), text)
    }

    /// Every file of the package with its text, in path order.
    fn snapshot(&self) -> Vec<(PathBuf, String)> {
        fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
            let mut entries: Vec<PathBuf> =
                std::fs::read_dir(dir).expect("reads").filter_map(|e| e.ok().map(|e| e.path())).collect();
            entries.sort();
            for path in entries {
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    let text = std::fs::read_to_string(&path).expect("reads");
                    out.push((path, text));
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.pkg(), &mut out);
        out
    }
}

/// The tests run the real kpt, which this project does not install.
fn require_kpt() {
    common::require_tool("kpt", &["version"], "running the KRM function through kpt");
}

/// Scrape annotations on router pods are the pod-metadata change's, in no
/// release yet: the settings ask for `next`.
const FN_CONFIG: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: routerctl
data:
  routerProxyImage: registry.example.com/router-proxy:v1
  emitScrapeAnnotations: \"true\"
  operatorVersion: next
";

#[test]
#[ignore = "needs kpt on PATH; .ci/run runs these with --ignored where kpt is installed"]
fn kpt_writes_the_objects_and_a_rerun_changes_nothing() {
    require_kpt();
    let package = Package::new(&["testdata/diff/router.yaml"]);
    std::fs::write(package.dir.path().join("fn-config.yaml"), FN_CONFIG).expect("writes");
    let (code, output) = package.eval(&["--fn-config", "fn-config.yaml"]);
    assert_eq!(code, 0, "{output}");
    let written = std::fs::read_to_string(package.pkg().join("routerctl/ml/coding-router.yaml")).expect("written");
    for kind in ["kind: ConfigMap", "kind: Deployment", "kind: Service"] {
        assert!(written.contains(kind), "{written}");
    }
    assert!(written.contains("image: registry.example.com/router-proxy:v1"), "--fn-config honoured: {written}");
    // kpt writes the value back in its own quoting.
    assert!(written.contains("prometheus.io/scrape: 'true'"), "--fn-config honoured: {written}");
    assert!(!output.contains("[warning]") && !output.contains("Stderr"), "{output}");

    let first = package.snapshot();
    let (code, output) = package.eval(&["--fn-config", "fn-config.yaml"]);
    assert_eq!(code, 0, "{output}");
    assert_eq!(package.snapshot(), first, "a second run leaves the package as it was");
}

#[test]
#[ignore = "needs kpt on PATH; .ci/run runs these with --ignored where kpt is installed"]
fn kpt_reports_an_invalid_router_as_an_error_result() {
    require_kpt();
    let package = Package::new(&["testdata/invalid/op-sensitive-to-cloud.yaml"]);
    let before = package.snapshot();
    let (code, output) = package.eval(&[]);
    assert_ne!(code, 0, "{output}");
    assert!(output.contains("[error] inference.llmkube.dev/v1alpha1/ModelRouter/"), "{output}");
    assert_eq!(package.snapshot(), before, "nothing written when a router is refused");
}

#[test]
#[ignore = "needs kpt on PATH; .ci/run runs these with --ignored where kpt is installed"]
fn kpt_shows_each_error_once() {
    require_kpt();
    let package = Package::new(&["testdata/invalid/op-sensitive-to-cloud.yaml"]);
    let (code, output) = package.eval(&[]);
    assert_ne!(code, 0, "{output}");
    assert_eq!(output.matches("sensitive-data rule cannot route to cloud-tier backend").count(), 1, "{output}");
    assert!(!output.contains("Stderr"), "{output}");
}

#[test]
#[ignore = "needs kpt on PATH; .ci/run runs these with --ignored where kpt is installed"]
fn kpt_shows_each_warning_once() {
    require_kpt();
    // No image anywhere: the built-in default draws a warning.
    let package = Package::new(&["testdata/diff/router.yaml"]);
    let (code, output) = package.eval(&[]);
    assert_eq!(code, 0, "{output}");
    assert_eq!(output.matches("built-in default image").count(), 1, "{output}");
    assert!(output.contains("[warning]"), "{output}");
    assert!(!output.contains("Stderr"), "{output}");
}
