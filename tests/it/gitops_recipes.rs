//! `render --pass-through` and the GitOps recipes of docs/gitops.md, each
//! taken from the page and run: the Argo CD plugin's generate command and
//! the Flux script on an application directory with an object unrelated to
//! routing, which must come out as it went in; the GitHub Actions
//! workflow's routerctl steps on a pull request in a git repository.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;
use crate::docs_examples::file_block;

use common::{parse_stream, routerctl};
use serde_json::{json, Value};

const PROXY_IMAGE: &str = "registry.example.com/router-proxy:0.9.19";

/// The router and its InferenceService (`testdata/diff/router.yaml`).
fn router_file() -> String {
    common::fixture("testdata/diff/router.yaml")
}

/// An object that has nothing to do with routing, with values a YAML 1.1
/// reader could take for others (kept as strings: they are quoted).
const UNRELATED: &str = "\
# Not the router's.
apiVersion: v1
kind: ConfigMap
metadata:
  name: dashboards
  namespace: ml
  labels: {team: ml}
data:
  enabled: \"yes\"
  port: \"8080\"
";

/// The same object, as JSON written out by hand.
fn unrelated() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "dashboards", "namespace": "ml", "labels": {"team": "ml"}},
        "data": {"enabled": "yes", "port": "8080"}
    })
}

/// What is for no cluster: a functionConfig marked local, and a RouterTest.
const LOCAL_ONLY: &str = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  annotations: {config.kubernetes.io/local-config: \"true\"}
data: {strict: \"true\"}
---
apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
router: ml/coding-router
tests:
- name: pii stays local
  request: {headers: {x-llmkube-classification: pii}}
  expect: {backends: [local-qwen]}
";

/// An application directory: the router in one file, the unrelated object
/// and the local-only documents in a subdirectory.
fn app(dir: &Path) {
    std::fs::create_dir_all(dir.join("extra")).expect("creates the app");
    std::fs::write(dir.join("router.yaml"), router_file()).expect("writes");
    std::fs::write(dir.join("extra/dashboards.yaml"), UNRELATED).expect("writes");
    std::fs::write(dir.join("extra/local.yaml"), LOCAL_ONLY).expect("writes");
}

fn kinds(objects: &[Value]) -> Vec<(String, String)> {
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    objects.iter().map(|o| (s(&o["kind"]), s(&o["metadata"]["name"]))).collect()
}

/// The directory's objects as read, in the order `-R` reads them (kubectl's:
/// the entries in name order, `extra/` before `router.yaml`, each file top
/// to bottom), then what the operator writes.
fn expected_kinds() -> Vec<(String, String)> {
    let pairs = [
        ("ConfigMap", "dashboards"),
        ("InferenceService", "qwen3-coder"),
        ("ModelRouter", "coding-router"),
        ("ConfigMap", "coding-router-router-proxy"),
        ("Deployment", "coding-router-router-proxy"),
        ("Service", "coding-router-router-proxy"),
    ];
    pairs.iter().map(|(k, n)| (k.to_string(), n.to_string())).collect()
}

/// Each input object comes out as it was read, and the rendered objects
/// are those `render` prints without the flag.
fn check_output(objects: &[Value], app: &Path) {
    assert_eq!(kinds(objects), expected_kinds());
    assert_eq!(objects[0], unrelated(), "the unrelated object comes out unchanged");
    let inputs = parse_stream(&router_file());
    assert_eq!(&objects[1..3], &inputs[..], "the InferenceService and the ModelRouter as written");
    let plain = routerctl(
        &[
            "render",
            "-f",
            &app.to_string_lossy(),
            "-R",
            "--operator-version",
            "v0.9.19",
            "--router-proxy-image",
            PROXY_IMAGE,
        ],
        None,
    );
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert_eq!(&objects[3..], &parse_stream(&plain.stdout)[..], "the rendered objects are render's");
}

#[test]
fn pass_through_prints_every_input_object_then_the_rendered_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    app(dir.path());
    let path = dir.path().to_string_lossy().into_owned();
    let args = ["render", "--pass-through", "-f", &path, "-R", "--router-proxy-image", PROXY_IMAGE];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "", "nothing to say");
    check_output(&parse_stream(&run.stdout), dir.path());

    // The same in JSON and as names.
    let json = routerctl(&[&args[..], &["-o", "json"]].concat(), None);
    let list: Value = serde_json::from_str(&json.stdout).expect("a JSON List");
    assert_eq!(list["items"].as_array().map(Vec::as_slice), Some(&parse_stream(&run.stdout)[..]));
    let names = routerctl(&[&args[..], &["-o", "name"]].concat(), None);
    assert_eq!(
        names.stdout,
        "configmap/dashboards\ninferenceservice.inference.llmkube.dev/qwen3-coder\n\
         modelrouter.inference.llmkube.dev/coding-router\nconfigmap/coding-router-router-proxy\ndeployment.apps/coding-router-router-proxy\n\
         service/coding-router-router-proxy\n"
    );
}

#[test]
fn an_input_object_the_operator_writes_is_replaced_by_its_rendered_form() {
    let dir = tempfile::tempdir().expect("temp dir");
    app(dir.path());
    // A stale Service committed beside the router, in a file read before it.
    let stale = "apiVersion: v1\nkind: Service\nmetadata: {name: coding-router-router-proxy, namespace: ml}\n\
                 spec: {type: NodePort, ports: [{port: 9999}]}\n";
    std::fs::write(dir.path().join("a-stale.yaml"), stale).expect("writes");
    let path = dir.path().to_string_lossy().into_owned();
    let run = routerctl(&["render", "--pass-through", "-f", &path, "-R", "--router-proxy-image", PROXY_IMAGE], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let objects = parse_stream(&run.stdout);
    let services: Vec<&Value> = objects.iter().filter(|o| o["kind"] == "Service").collect();
    assert_eq!(services.len(), 1, "one Service, in the stale one's place: {:?}", kinds(&objects));
    assert_eq!(objects[0]["kind"], "Service", "{:?}", kinds(&objects));
    assert_eq!(objects[0]["spec"]["type"], "ClusterIP");
    let stale_file = dir.path().join("a-stale.yaml").to_string_lossy().into_owned();
    assert_eq!(
        run.stderr,
        format!(
            "warning: {stale_file}: document 1 (line 1): Service ml/coding-router-router-proxy is an object the \
             operator writes for ModelRouter ml/coding-router: its rendered form is printed in its place (remove \
             it from the inputs: applied beside the ModelRouter, the two would fight)\n"
        )
    );
}

#[test]
fn a_document_that_is_no_object_fails_the_run_with_nothing_on_stdout() {
    let input = format!("{}---\njust: a map\n", router_file());
    let run = routerctl(&["render", "--pass-through", "-f", "-", "--router-proxy-image", PROXY_IMAGE], Some(&input));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(run.stderr.contains("<stdin>: document 3 (line 38): is no Kubernetes object"), "{}", run.stderr);
    // A refused router prints nothing either, its inputs included.
    let broken = router_file().replace("defaultRoute: local-qwen", "defaultRoute: nowhere");
    let run = routerctl(&["render", "--pass-through", "-f", "-", "--router-proxy-image", PROXY_IMAGE], Some(&broken));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
}

/// PATH with the built binary first.
fn path_with_routerctl() -> std::ffi::OsString {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_routerctl"));
    let dir = bin.parent().expect("the binary's directory").to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&rest))).expect("a PATH")
}

/// The Argo CD plugin of docs/gitops.md: its generate command, run as the
/// CMP server runs it (in the application's directory, the Application's
/// plugin environment as `ARGOCD_ENV_*`), prints the directory's objects
/// and the rendered ones; an unset release fails the sync.
#[test]
fn the_argo_cd_plugins_generate_command_passes_the_directory_through() {
    let plugin: Value = routerctl::input::from_yaml_str(&file_block("docs/gitops.md", "plugin.yaml")).expect("YAML");
    assert_eq!(plugin["kind"], "ConfigManagementPlugin");
    let words: Vec<String> = [&plugin["spec"]["generate"]["command"], &plugin["spec"]["generate"]["args"]]
        .iter()
        .flat_map(|v| v.as_array().cloned().unwrap_or_default())
        .map(|w| w.as_str().expect("a word").to_string())
        .collect();
    let dir = tempfile::tempdir().expect("temp dir");
    app(dir.path());
    let generate = |env: &[(&str, &str)]| {
        let mut command = Command::new(&words[0]);
        command.args(&words[1..]).current_dir(dir.path()).env("PATH", path_with_routerctl());
        for (k, v) in env {
            command.env(k, v);
        }
        command.output().expect("the generate command runs")
    };
    let env = [("ARGOCD_ENV_LLMKUBE_VERSION", "v0.9.19"), ("ARGOCD_ENV_ROUTER_PROXY_IMAGE", PROXY_IMAGE)];
    let out = generate(&env);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    check_output(&parse_stream(&String::from_utf8_lossy(&out.stdout)), dir.path());

    let unset = generate(&env[1..]);
    assert_eq!(unset.status.code(), Some(2), "an unset release fails the sync");
    assert!(unset.stdout.is_empty());

    // An application that holds no ModelRouter syncs as it is, as the KRM
    // function passes such items through: its objects, and a note.
    let plain = tempfile::tempdir().expect("temp dir");
    std::fs::write(plain.path().join("dashboards.yaml"), UNRELATED).expect("writes");
    let mut command = Command::new(&words[0]);
    command.args(&words[1..]).current_dir(plain.path()).env("PATH", path_with_routerctl());
    let out = command.envs(env).output().expect("the generate command runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(parse_stream(&String::from_utf8_lossy(&out.stdout)), [unrelated()]);
    assert_eq!(stderr, "routerctl: no ModelRouter among the input documents: every object is printed as it is\n");
}

/// The Flux script of docs/gitops.md: each application directory rendered
/// into the file a Flux Kustomization applies, its objects passed through.
#[test]
fn the_flux_script_renders_each_app_with_its_objects() {
    let script = file_block("docs/gitops.md", "render-for-flux.sh");
    let dir = tempfile::tempdir().expect("temp dir");
    app(&dir.path().join("apps/coding"));
    // An application without a router, which the script renders too.
    std::fs::create_dir_all(dir.path().join("apps/grafana")).expect("creates the app");
    std::fs::write(dir.path().join("apps/grafana/dashboards.yaml"), UNRELATED).expect("writes");
    std::fs::write(dir.path().join("render-for-flux.sh"), script).expect("writes the script");
    let out = Command::new("sh")
        .arg("render-for-flux.sh")
        .current_dir(dir.path())
        .env("PATH", path_with_routerctl())
        .env("LLMKUBE_VERSION", "v0.9.19")
        .env("ROUTER_PROXY_IMAGE", PROXY_IMAGE)
        .output()
        .expect("sh runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read_to_string(dir.path().join("deploy/coding/manifests.yaml")).expect("written");
    check_output(&parse_stream(&written), &dir.path().join("apps/coding"));
    let plain = std::fs::read_to_string(dir.path().join("deploy/grafana/manifests.yaml")).expect("written");
    assert_eq!(parse_stream(&plain), [unrelated()], "passed through as it is");
}

/// The RouterTest cases the CI recipe runs: the sample router's.
const CASES: &str = "\
apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
router: ml/coding-router
tests:
- name: pii stays on the cluster
  request: {headers: {x-llmkube-classification: pii}}
  expect: {rule: pii-stays-local, backends: [local-qwen]}
- name: complex tasks go to the cloud first
  request: {headers: {x-llmkube-task-complexity: complex}}
  expect: {rule: complex-to-cloud, backends: [cloud-opus, local-qwen]}
- name: everything else takes the default route
  request: {}
  expect: {rule: default, backends: [local-qwen]}
";

/// The GitHub Actions workflow of docs/gitops.md: each step that runs
/// routerctl, run as the runner runs it (bash, the job's environment) in a
/// repository whose pull request adds a rule: the routers render, the
/// cases pass into a JUnit report, and `verify --against` the base branch
/// names what the new rule moves.
#[test]
fn the_github_actions_workflow_runs_on_a_pull_request() {
    let workflow: Value =
        routerctl::input::from_yaml_str(&file_block("docs/gitops.md", ".github/workflows/routers.yaml")).expect("YAML");
    let job = &workflow["jobs"]["routers"];
    let env: Vec<(String, String)> = job["env"]
        .as_object()
        .expect("the job's environment")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a string").to_string()))
        .collect();
    let steps: Vec<&str> = job["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["run"].as_str())
        .filter(|run| run.contains("routerctl ") && !run.contains("cargo install"))
        .collect();
    assert_eq!(steps.len(), 3, "render, test and verify: {steps:?}");

    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join("routers")).expect("mkdir");
    std::fs::create_dir_all(repo.join("router-tests")).expect("mkdir");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=ci", "-c", "user.email=ci@example.com"])
            .args(args)
            .current_dir(&repo)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let sample = common::fixture("testdata/render/sample.yaml");
    std::fs::write(repo.join("routers/coding-router.yaml"), &sample).expect("writes");
    std::fs::write(repo.join("router-tests/coding-router.yaml"), CASES).expect("writes");
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "base"]);
    // The base branch as a checkout with fetch-depth 0 has it.
    git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
    git(&["checkout", "-q", "-b", "simple-stays-local"]);
    let changed = sample.replace(
        "  defaultRoute: local-qwen\n",
        "    - name: simple-stays-local\n      match:\n        taskComplexity: simple\n      route:\n        \
         backends: [local-qwen]\n  defaultRoute: local-qwen\n",
    );
    assert_ne!(changed, sample);
    std::fs::write(repo.join("routers/coding-router.yaml"), &changed).expect("writes");
    // With its case: a rule no case reaches would take coverage under 80%.
    let case = "- name: simple tasks stay local\n  request: {headers: {x-llmkube-task-complexity: simple}}\n  \
                expect: {rule: simple-stays-local, backends: [local-qwen]}\n";
    std::fs::write(repo.join("router-tests/coding-router.yaml"), format!("{CASES}{case}")).expect("writes");
    git(&["commit", "-q", "-am", "simple tasks stay local"]);

    let mut outputs = Vec::new();
    for step in steps {
        let out = Command::new("bash")
            .args(["-e", "-c", step])
            .current_dir(&repo)
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env("BASE_REF", "main")
            .env("PATH", path_with_routerctl())
            .output()
            .expect("bash runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{step}\n{text}");
        outputs.push(text);
    }
    // The JUnit report holds the four cases, passing.
    let xml = std::fs::read_to_string(repo.join("routerctl-test.xml")).expect("the report");
    let doc = roxmltree::Document::parse(&xml).expect("XML");
    let cases = doc.descendants().filter(|n| n.has_tag_name("testcase") && n.attribute("file").is_some()).count();
    assert_eq!(cases, 4, "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
    // verify names what the new rule moves.
    assert!(outputs[2].contains("moved:") && outputs[2].contains("simple-stays-local"), "{}", outputs[2]);
}
