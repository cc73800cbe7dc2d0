//! kubectl's conventions, each through the real binary: KUBECTL_EXTERNAL_DIFF,
//! `version`, `completion`, `-R`, `-o name`; and no silent default image.

use crate::common;

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;

use common::{routerctl, routerctl_env};
use serde_json::Value;

const ROUTER: &str = "testdata/diff/router.yaml";
const DEV_IMAGE: &str = "ghcr.io/defilantech/llmkube-router-proxy:dev";

/// A diff program that lists both directories and its own extra arguments,
/// and exits with `$EXIT_WITH`.
fn external_diff(dir: &std::path::Path) -> OsString {
    let path = dir.join("show-dirs");
    let script = r#"#!/bin/sh
echo "live: $(basename "$1" | cut -c1-5)"
ls "$1"
echo "merged: $(basename "$2" | cut -c1-7)"
ls "$2"
shift 2
echo "extra: $*"
exit "${EXIT_WITH:-0}"
"#;
    std::fs::write(&path, script).expect("writes the diff program");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("executable");
    path.into_os_string()
}

fn with_external(program: OsString, extra: &str, exit_with: &str) -> Vec<(&'static str, OsString)> {
    let mut value = program;
    value.push(extra);
    vec![("KUBECTL_EXTERNAL_DIFF", value), ("EXIT_WITH", exit_with.into())]
}

#[test]
fn kubectl_external_diff_gets_live_and_merged_directories_named_as_kubectl_names_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let env = with_external(external_diff(dir.path()), " -N --label=x $(rm) a;b", "1");
    let args = [
        "diff",
        "-f",
        "testdata/render/pooled.yaml",
        "--live",
        "testdata/diff/live-unchanged.yaml",
        "--router-proxy-image",
        DEV_IMAGE,
    ];
    let run = routerctl_env(&args, None, &env);
    assert_eq!(run.code, 1, "the program's exit status: {}", run.stderr);
    let files = "apps.v1.Deployment.gpu.pooled-router-proxy\n\
                 rbac.authorization.k8s.io.v1.Role.gpu.pooled-router-proxy\n\
                 rbac.authorization.k8s.io.v1.RoleBinding.gpu.pooled-router-proxy\n\
                 v1.ConfigMap.gpu.pooled-router-proxy\n\
                 v1.Service.gpu.pooled-router-proxy\n\
                 v1.ServiceAccount.gpu.pooled-router-proxy\n";
    assert_eq!(run.stdout, format!("live: LIVE-\n{files}merged: MERGED-\n{files}extra: -N --label=x\n"));
}

#[test]
fn kubectl_external_diff_exit_status_is_passed_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = external_diff(dir.path());
    let args = ["diff", "-f", ROUTER, "--live", "testdata/diff/live-unchanged.yaml", "--router-proxy-image", DEV_IMAGE];
    let same = routerctl_env(&args, None, &with_external(program.clone(), "", "0"));
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert!(same.stdout.contains("apps.v1.Deployment.ml.coding-router-router-proxy"), "{}", same.stdout);
    let differs = routerctl_env(&args, None, &with_external(program.clone(), "", "1"));
    assert_eq!(differs.code, 1);
    // Above 1 the program failed: an error, as in kubectl.
    let broken = routerctl_env(&args, None, &with_external(program, "", "3"));
    assert_eq!(broken.code, 2);
    assert_eq!(broken.stdout, "");
    assert!(
        broken.stderr.contains("KUBECTL_EXTERNAL_DIFF program") && broken.stderr.contains("exit status 3"),
        "{}",
        broken.stderr
    );
}

#[test]
fn kubectl_external_diff_sees_the_normalized_objects() {
    // diff(1) itself, as kubectl users set it; `-u` comes after the directories.
    let env = vec![("KUBECTL_EXTERNAL_DIFF", OsString::from("diff -u"))];
    let args = ["diff", "-f", ROUTER, "--live", "testdata/diff/live-drift.yaml", "--router-proxy-image", DEV_IMAGE];
    let run = routerctl_env(&args, None, &env);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("apps.v1.Deployment.ml.coding-router-router-proxy"), "{}", run.stdout);
    assert!(
        run.stdout.contains("-    replicas: 3\n+    replicas: 1\n")
            || run.stdout.contains("-  replicas: 3\n+  replicas: 1\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("managedFields"), "server fields are dropped: {}", run.stdout);
}

#[test]
fn a_missing_external_diff_program_is_an_error() {
    let env = vec![("KUBECTL_EXTERNAL_DIFF", OsString::from("no-such-diff-program"))];
    let run = routerctl_env(&["diff", "-f", ROUTER, "--live", "testdata/diff/live-unchanged.yaml"], None, &env);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("cannot run KUBECTL_EXTERNAL_DIFF program \"no-such-diff-program\""), "{}", run.stderr);
}

#[test]
fn version_says_what_routerctl_mirrors() {
    let text = routerctl(&["version"], None);
    assert_eq!(text.code, 0);
    assert!(text.stdout.starts_with(&format!("routerctl {}\n", env!("CARGO_PKG_VERSION"))), "{}", text.stdout);
    assert!(text.stdout.contains("API: inference.llmkube.dev/v1alpha1 ModelRouter"), "{}", text.stdout);
    assert!(text.stdout.contains("Operator: LLMKube"), "{}", text.stdout);
    assert!(text.stdout.contains("Gateway data plane: Backend and AIServiceBackend per backend"), "{}", text.stdout);
    let json = routerctl(&["version", "-o", "json"], None);
    assert_eq!(json.code, 0);
    let v: Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(v["routerctl"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["api"]["group"], "inference.llmkube.dev");
    assert_eq!(v["api"]["version"], "v1alpha1");
    assert_eq!(v["operator"]["defaultProxyImage"], DEV_IMAGE);
    assert_eq!(v["operator"]["gatewayObjects"][3], "AIGatewayRoute");
    // As kubectl version takes it: -o yaml, the same report.
    let yaml = routerctl(&["version", "-o", "yaml"], None);
    assert_eq!(yaml.code, 0, "{}", yaml.stderr);
    let own = yaml.stdout.lines().find(|l| l.starts_with("routerctl: ")).expect("routerctl's version");
    assert!(own.contains(env!("CARGO_PKG_VERSION")), "{own}");
    assert!(yaml.stdout.contains("  group: inference.llmkube.dev\n"), "{}", yaml.stdout);
}

#[test]
fn jobs_zero_is_refused_in_plain_words() {
    let run = routerctl(&["render", "-j", "0", "-f", "testdata/render/sample.yaml"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("0 routers at once would reconcile none; give 1 or more"), "{}", run.stderr);
    assert!(!run.stderr.contains("non-zero type"), "{}", run.stderr);
}

#[test]
fn completion_is_an_alias_of_completions() {
    let singular = routerctl(&["completion", "bash"], None);
    let plural = routerctl(&["completions", "bash"], None);
    assert_eq!(singular.code, 0, "{}", singular.stderr);
    assert_eq!(singular.stdout, plural.stdout);
    assert!(singular.stdout.contains("routerctl"));
}

#[test]
fn recursive_reads_subdirectories() {
    let dir = tempfile::tempdir().expect("temp dir");
    let nested = dir.path().join("team-a/routers");
    std::fs::create_dir_all(&nested).expect("mkdir");
    std::fs::copy(common::root().join("testdata/render/sample.yaml"), nested.join("sample.yaml")).expect("copy");
    std::fs::write(dir.path().join("README.md"), "not a manifest").expect("write");
    let path = dir.path().to_string_lossy().into_owned();
    let flat = routerctl(&["render", "-f", &path, "--router-proxy-image", DEV_IMAGE], None);
    assert_eq!(flat.code, 2, "without -R the top directory holds no manifests");
    assert_eq!(flat.stdout, "");
    assert_eq!(
        flat.stderr,
        format!("error: {path}: directory holds no *.yaml, *.yml or *.json files; -R reads its subdirectories too (team-a)\n")
    );
    for flag in ["-R", "--recursive"] {
        let run = routerctl(&["render", "-f", &path, flag, "--router-proxy-image", DEV_IMAGE, "-o", "name"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, "configmap/coding-router-router-proxy\ndeployment.apps/coding-router-router-proxy\nservice/coding-router-router-proxy\n");
    }
}

#[test]
fn render_o_name_prints_kubectl_names() {
    let run = routerctl(
        &["render", "-f", "testdata/render/pooled.yaml", "-o", "name", "--router-proxy-image", DEV_IMAGE],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "configmap/pooled-router-proxy\n\
         serviceaccount/pooled-router-proxy\n\
         role.rbac.authorization.k8s.io/pooled-router-proxy\n\
         rolebinding.rbac.authorization.k8s.io/pooled-router-proxy\n\
         deployment.apps/pooled-router-proxy\n\
         service/pooled-router-proxy\n"
    );
}

#[test]
fn the_default_image_is_never_silent() {
    // Placed at the ModelRouter, the file's second document.
    let warning = "warning: testdata/diff/router.yaml: document 2 (line 12): ModelRouter ml/coding-router: no \
                   spec.proxy.image and no --router-proxy-image";
    for args in [&["render", "-f", ROUTER][..], &["render", "-f", ROUTER, "--router-proxy-image", ""][..]] {
        let run = routerctl(args, None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stderr.starts_with(warning), "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains(&format!("image: {DEV_IMAGE}")));
    }
    let strict = routerctl(&["render", "-f", ROUTER, "--strict", "--router-proxy-image", ""], None);
    assert_eq!(strict.code, 2);
    assert_eq!(strict.stdout, "");
    assert!(strict.stderr.contains("refused with --strict"), "{}", strict.stderr);
    assert_eq!(strict.stderr.matches("ModelRouter ml/coding-router:").count(), 1, "named once: {}", strict.stderr);
    let set =
        routerctl(&["render", "-f", ROUTER, "--strict", "--router-proxy-image", "registry.example.com/p:1"], None);
    assert_eq!((set.code, set.stderr.as_str()), (0, ""));
    let quiet = routerctl(&["render", "-f", ROUTER, "-q"], None);
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""));
}

#[test]
fn a_file_given_without_f_gets_the_hint() {
    let run = routerctl(&["render", "testdata/render/sample.yaml"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(
        run.stderr.contains("tip: routerctl reads files given with -f: `-f testdata/render/sample.yaml`"),
        "{}",
        run.stderr
    );
    // Another unexpected word gets clap's message alone.
    let other = routerctl(&["render", "-f", "testdata/render/sample.yaml", "extra"], None);
    assert_eq!(other.code, 2);
    assert!(!other.stderr.contains("reads files given with -f"), "{}", other.stderr);
}

/// Every command routerctl has, as `routerctl --help` lists them.
const COMMANDS: [&str; 11] =
    ["render", "diff", "explain", "test", "route", "verify", "krm", "schema", "completions", "version", "man"];

/// Each command's `--help` ends with an `Examples:` section as kubectl's
/// do (a `#` line saying what, then the command), lists the global options
/// under a heading of their own, apart from the command's; and every
/// example's arguments are ones the command takes (each parses, with
/// `--help` added).
#[test]
fn every_commands_help_ends_with_examples_and_shows_global_options_apart() {
    let listed = routerctl(&["--help"], None);
    for command in COMMANDS {
        assert!(listed.stdout.contains(&format!("\n  {command} ")), "{command} is listed: {}", listed.stdout);
        let help = routerctl(&[command, "--help"], None);
        assert_eq!(help.code, 0, "{command}: {}", help.stderr);
        let (body, examples) =
            help.stdout.rsplit_once("\nExamples:\n").unwrap_or_else(|| panic!("{command}: no Examples"));
        let lines: Vec<&str> = examples.lines().filter(|l| !l.trim().is_empty()).collect();
        assert!(lines.len() >= 2, "{command}: {examples}");
        assert!(lines.iter().all(|l| l.starts_with("  ")), "{command}: examples are indented: {examples}");
        for pair in lines.chunks(2) {
            assert!(pair[0].trim_start().starts_with("# "), "{command}: a comment says what: {pair:?}");
            assert!(pair.len() == 2 && !pair[1].trim_start().starts_with('#'), "{command}: then the command: {pair:?}");
        }
        // The global options under their own heading, not among the command's.
        let (own, global) = body.split_once("\nGlobal options:\n").unwrap_or_else(|| panic!("{command}: {body}"));
        for flag in ["--quiet", "--verbose", "--message-format"] {
            assert!(global.contains(flag) && !own.contains(&format!("  {flag}")), "{command}: {flag}");
        }
        // Each example a routerctl command line whose arguments parse.
        for line in lines.iter().map(|l| l.trim()).filter(|l| l.starts_with("routerctl ")) {
            let words: Vec<&str> =
                line.split(['|', '<', '>']).next().unwrap_or("").split_whitespace().skip(1).collect();
            let run = routerctl(&[&words[..], &["--help"]].concat(), None);
            assert_eq!(run.code, 0, "{command}: `{line}` does not parse: {}", run.stderr);
        }
    }
}
