//! Recipes of the docs that the examples' runner skips (they need a cluster
//! or kpt, or another page's files), run here with what they stand on
//! replaced: render.md's `kubectl apply` recipe against a kubectl stand-in
//! that keeps what it is given, krm.md's function settings through
//! `routerctl krm` on the page's own package, the README's replay example
//! on the files docs/replay.md writes, and gitops.md's comment recipes
//! (GitHub's `gh api`, GitLab's notes API through curl) against stand-ins
//! of those APIs, with the real routerctl, jq and git (`#[ignore]`d:
//! `.ci/run` runs them). A recipe as written must not warn on every run: a
//! warning a reader is told to live with hides the one that matters.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{self, FakeKubectl};
use crate::docs_examples::{console_commands, file_block, matches, run};

/// The ```sh block under `heading` of `page`.
fn shell_block_under(page: &str, heading: &str) -> String {
    let text = std::fs::read_to_string(common::root().join(page)).expect("reads the page");
    let after = text.split_once(heading).unwrap_or_else(|| panic!("{page} has a heading {heading}")).1;
    let body = after.split_once("```sh\n").expect("a ```sh block after the heading").1;
    body.split_once("\n```").expect("the block ends").0.to_string()
}

/// Every ```yaml block of `page`.
fn yaml_blocks(page: &str) -> Vec<String> {
    let text = std::fs::read_to_string(common::root().join(page)).expect("reads the page");
    text.split("```yaml\n")
        .skip(1)
        .map(|rest| rest.split_once("\n```").expect("the block ends").0.to_string())
        .collect()
}

fn documents(name: &str, text: &str) -> Vec<Value> {
    let source = routerctl::input::Source { name: name.to_string(), text: text.to_string() };
    routerctl::input::documents(&source)
        .unwrap_or_else(|e| panic!("{name}: {e:#}"))
        .into_iter()
        .map(|d| d.value)
        .collect()
}

#[test]
fn render_mds_kubectl_apply_recipe_applies_the_operators_proxy_image_with_no_warning() {
    let recipe = shell_block_under("docs/render.md", "## GitOps recipe");
    assert!(recipe.contains("kubectl apply -f -"), "{recipe}");
    // The README's router, which sets no proxy image: the one the recipe
    // is for.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let router = file_block("README.md", "router.yaml");
    assert!(!router.contains("image:"), "the README's router leaves the image to the operator");
    std::fs::write(dir.path().join("router.yaml"), router).expect("writes router.yaml");
    let kubectl = FakeKubectl::raw("cat > \"$dir/applied.yaml\"");
    let bin = Path::new(env!("CARGO_BIN_EXE_routerctl")).parent().expect("the binary's directory").to_path_buf();
    let path = std::env::join_paths(
        std::env::split_paths(&kubectl.path())
            .chain([bin])
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("a PATH");
    let image = "registry.example.com/llmkube/router-proxy:0.9.19";
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("set -eo pipefail\n{recipe}"))
        .current_dir(dir.path())
        .env("PATH", path)
        .env("ROUTER_PROXY_IMAGE", image)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("bash runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the recipe runs: {said}");
    assert_eq!(said, "", "and warns of nothing");
    assert_eq!(kubectl.calls(), ["apply -f -"], "kubectl applies what routerctl printed");
    let applied = std::fs::read_to_string(kubectl.dir.path().join("applied.yaml")).expect("kubectl got the objects");
    let objects = documents("applied.yaml", &applied);
    let deployment = objects.iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
    assert_eq!(deployment["spec"]["template"]["spec"]["containers"][0]["image"], image, "the operator's image");
}

#[test]
fn krm_mds_function_settings_render_the_pages_router_with_no_warning() {
    let items = documents("routers/coding-router.yaml", &file_block("docs/krm.md", "routers/coding-router.yaml"));
    let settings: Vec<Value> = yaml_blocks("docs/krm.md")
        .iter()
        .filter(|block| block.contains("config.kubernetes.io/function"))
        .map(|block| documents("settings", block).remove(0))
        .collect();
    assert_eq!(settings.len(), 2, "the exec and the container function's settings");
    for config in settings {
        let list = json!({
            "apiVersion": "config.kubernetes.io/v1",
            "kind": "ResourceList",
            "functionConfig": config,
            "items": items,
        });
        let run = common::routerctl(&["krm"], Some(&list.to_string()));
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stderr, "", "nothing on stderr");
        let out: Value = routerctl::input::from_yaml_str(&run.stdout).expect("a ResourceList");
        let results = out["results"].as_array().cloned().unwrap_or_default();
        assert!(results.is_empty(), "no result, warning or other, for {}: {results:#?}", config["metadata"]);
        let deployment = out["items"]
            .as_array()
            .expect("items")
            .iter()
            .find(|o| o["kind"] == "Deployment")
            .expect("the rendered Deployment");
        assert_eq!(
            deployment["spec"]["template"]["spec"]["containers"][0]["image"], config["data"]["routerProxyImage"],
            "the settings' image"
        );
    }
}

/// What a comment recipe of docs/gitops.md is run against: a repository
/// whose branch makes `change` to a router (`origin/main` its base), with
/// the real routerctl, and the
/// platform's API client (`gh`, `curl`) as a stand-in that answers the
/// list of comments from `listed` (through the real jq, with the filter it
/// is given) and keeps what it is asked to write.
struct CommentRun {
    dir: tempfile::TempDir,
    change: Change,
}

/// What the branch under review does to its router, and so what `verify`
/// exits with.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Change {
    /// `failClosed` on a rule (testdata/verify/internal-*.yaml): verified,
    /// exit 0.
    Verified,
    /// A rule that sends `gpt-*` to the cloud, pii too
    /// (testdata/verify/sample-with-gpt.yaml): exit 1.
    Leaks,
    /// A router that does not parse: exit 2.
    Unreadable,
}

impl Change {
    /// The router before the change and after it.
    fn files(self) -> (String, String) {
        let fixture = common::fixture;
        match self {
            Change::Verified => {
                (fixture("testdata/verify/internal-open.yaml"), fixture("testdata/verify/internal-closed.yaml"))
            }
            Change::Leaks => (fixture("testdata/render/sample.yaml"), fixture("testdata/verify/sample-with-gpt.yaml")),
            Change::Unreadable => (
                fixture("testdata/render/sample.yaml"),
                "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nspec:\n  rules: [\n".to_string(),
            ),
        }
    }

    fn status(self) -> i32 {
        match self {
            Change::Verified => 0,
            Change::Leaks => 1,
            Change::Unreadable => 2,
        }
    }
}

/// The RouterTest of the repository's `router-tests/`, for every router.
const ROUTER_TESTS: &str = "apiVersion: routerctl.llmkube.dev/v1alpha1
kind: RouterTest
invariants:
  - name: sensitive requests never go to the cloud
    when: {classification: [pii, phi]}
    never: {tier: cloud}
";

/// The gh stand-in: `api [--paginate] [--method M] [--input F] [--jq Q] PATH`.
const FAKE_GH: &str = r#"#!/usr/bin/env bash
printf '%s\n' "$*" >> "$FAKE/calls"
method=GET input= filter=. path=
while [ $# -gt 0 ]; do
  case $1 in
    api|--paginate) ;;
    --method) method=$2; shift ;;
    --input) input=$2; shift ;;
    --jq) filter=$2; shift ;;
    *) path=$1 ;;
  esac
  shift
done
if [ "$method" = GET ]; then jq -r "$filter" "$FAKE/listed.json"; exit; fi
cp "$input" "$FAKE/$method.json"; printf '%s\n' "$path" > "$FAKE/$method.path"; echo '{}'
"#;

/// The curl stand-in: `-sSf [--request M] [--header H]… [--data @F] URL`.
const FAKE_CURL: &str = r#"#!/usr/bin/env bash
printf '%s\n' "$*" >> "$FAKE/calls"
method=GET data= url=
while [ $# -gt 0 ]; do
  case $1 in
    -sSf) ;;
    --request) method=$2; shift ;;
    --header) printf '%s\n' "$2" >> "$FAKE/headers"; shift ;;
    --data) data=${2#@}; shift ;;
    *) url=$1 ;;
  esac
  shift
done
if [ "$method" = GET ]; then cat "$FAKE/listed.json"; exit; fi
cp "$data" "$FAKE/$method.json"; printf '%s\n' "$url" > "$FAKE/$method.path"; echo '{}'
"#;

impl CommentRun {
    fn new(listed: &Value, change: Change) -> CommentRun {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let fake = dir.path().join("fake");
        std::fs::create_dir_all(fake.join("bin")).expect("mkdir");
        for (name, body) in [("gh", FAKE_GH), ("curl", FAKE_CURL)] {
            let path = fake.join("bin").join(name);
            std::fs::write(&path, body).expect("writes a stand-in");
            let mut permissions = std::fs::metadata(&path).expect("stat").permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
            std::fs::set_permissions(&path, permissions).expect("chmod");
        }
        std::fs::write(fake.join("listed.json"), listed.to_string()).expect("writes the comments");
        let repo = dir.path().join("repo");
        for sub in ["routers", "router-tests"] {
            std::fs::create_dir_all(repo.join(sub)).expect("mkdir");
        }
        std::fs::write(repo.join("router-tests/invariants.yaml"), ROUTER_TESTS).expect("writes");
        let (before, after) = change.files();
        let git = |args: &[&str]| {
            let out = Command::new("git")
                .args(["-c", "user.name=ci", "-c", "user.email=ci@example.com"])
                .args(args)
                .current_dir(&repo)
                .output()
                .expect("git runs");
            assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        std::fs::write(repo.join("routers/router.yaml"), before).expect("writes");
        git(&["init", "-q", "-b", "main"]);
        git(&["add", "."]);
        git(&["commit", "-q", "-m", "base"]);
        git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
        git(&["remote", "add", "origin", "."]);
        git(&["checkout", "-q", "-b", "change"]);
        std::fs::write(repo.join("routers/router.yaml"), after).expect("writes");
        git(&["commit", "-q", "-am", "the change"]);
        CommentRun { dir, change }
    }

    fn fake(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.dir.path().join("fake").join(name)).ok()
    }

    /// Runs `script` as the CI runs a step (bash, -e, pipefail), with
    /// `env`, the stand-ins and the built routerctl first on PATH: its exit
    /// code, which must be routerctl's.
    fn run(&self, script: &str, env: &[(&str, &str)]) -> i32 {
        let fake = self.dir.path().join("fake");
        let bin = Path::new(env!("CARGO_BIN_EXE_routerctl")).parent().expect("the binary's directory").to_path_buf();
        let path = std::env::join_paths(
            [fake.join("bin"), bin]
                .into_iter()
                .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
        )
        .expect("a PATH");
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(self.dir.path().join("repo"))
            .envs(env.iter().copied())
            .env("FAKE", &fake)
            .env("PATH", path)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("bash runs");
        let code = out.status.code().unwrap_or(-1);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(code, self.change.status(), "the recipe ends as verify does:\n{stderr}");
        code
    }

    /// The comment a recipe writes: the marker, then what routerctl writes
    /// for the change, run as the recipes run it (in the repository, the
    /// base branch in `../base`); it opens with `verdict`, and draws.
    fn comment(&self, env: &[(&str, &str)], verdict: &str) -> String {
        let get = |name: &str| env.iter().find(|(k, _)| *k == name).map(|(_, v)| *v).expect("in the environment");
        let args = [
            "verify",
            "-f",
            "routers/",
            "-R",
            "-t",
            "router-tests/",
            "--against",
            "../base/routers/",
            "-o",
            "markdown",
            "--operator-version",
            get("LLMKUBE_VERSION"),
            "--router-proxy-image",
            get("ROUTER_PROXY_IMAGE"),
        ];
        let out = Command::new(env!("CARGO_BIN_EXE_routerctl"))
            .args(args)
            .current_dir(self.dir.path().join("repo"))
            .output()
            .expect("routerctl runs");
        assert_eq!(out.status.code(), Some(self.change.status()), "{}", String::from_utf8_lossy(&out.stderr));
        let markdown = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(markdown.starts_with(verdict), "{markdown}");
        assert!(markdown.contains("\n```mermaid\nflowchart TD\n"), "the router drawn: {markdown}");
        format!("<!-- routerctl -->\n{markdown}")
    }

    /// What was written: (method, path, body).
    fn written(&self) -> Vec<(String, String, String)> {
        ["POST", "PATCH", "PUT"]
            .into_iter()
            .filter_map(|method| {
                let body: Value = serde_json::from_str(&self.fake(&format!("{method}.json"))?).expect("JSON");
                let path = self.fake(&format!("{method}.path")).expect("the path").trim().to_string();
                Some((method.to_string(), path, body["body"].as_str().expect("a body").to_string()))
            })
            .collect()
    }
}

/// The GitHub Actions step of docs/gitops.md and its environment.
fn github_step() -> (String, Vec<(String, String)>) {
    let workflow: Value =
        routerctl::input::from_yaml_str(&file_block("docs/gitops.md", ".github/workflows/routers-comment.yaml"))
            .expect("YAML");
    let job = &workflow["jobs"]["comment"];
    let step = job["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["run"].as_str().is_some_and(|r| r.contains("routerctl ")))
        .expect("the step that runs routerctl");
    let mut env: Vec<(String, String)> = Vec::new();
    for scope in [&job["env"], &step["env"]] {
        for (k, v) in scope.as_object().expect("an environment") {
            env.push((k.clone(), v.as_str().expect("a string").to_string()));
        }
    }
    // What the runner gives the expressions.
    for (k, v) in &mut env {
        match k.as_str() {
            "BASE_REF" => *v = "main".into(),
            "PR" => *v = "7".into(),
            "GH_TOKEN" => *v = "token".into(),
            _ => {}
        }
    }
    env.push(("GITHUB_REPOSITORY".into(), "acme/routers".into()));
    (step["run"].as_str().expect("a script").to_string(), env)
}

fn as_env(env: &[(String, String)]) -> Vec<(&str, &str)> {
    env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// The GitHub recipe adds routerctl's comment once, then edits the bot's
/// comment that starts with the marker (not a person's that quotes it, nor
/// the bot's others), byte for byte what `verify -o markdown` writes; a
/// failing verify still comments and fails the step; an input routerctl
/// cannot read comments nothing.
#[test]
#[ignore = "needs jq and git: .ci/run installs jq where it is missing"]
fn the_github_comment_recipe_edits_its_comment_on_each_push() {
    common::require_tool("jq", &["--version"], "the comment recipes");
    let (script, env) = github_step();
    let env = as_env(&env);
    let verified =
        "✅ 1 router verified, no sensitive class leaves the cluster; the change moves 1 group of requests\n";

    let first = CommentRun::new(&json!([]), Change::Verified);
    assert_eq!(first.run(&script, &env), 0);
    let comment = first.comment(&env, verified);
    assert_eq!(first.written(), [("POST".into(), "repos/acme/routers/issues/7/comments".into(), comment)]);

    let listed = json!([
        {"id": 40, "user": {"type": "User"}, "body": "<!-- routerctl --> quoted by a person"},
        {"id": 41, "user": {"type": "Bot"}, "body": "another bot's comment"},
        {"id": 42, "user": {"type": "Bot"}, "body": "<!-- routerctl -->\nthe comment of the last push"},
        {"id": 43, "user": {"type": "Bot"}, "body": "<!-- routerctl -->\na later one"}
    ]);
    let again = CommentRun::new(&listed, Change::Verified);
    assert_eq!(again.run(&script, &env), 0);
    let comment = again.comment(&env, verified);
    assert_eq!(again.written(), [("PATCH".into(), "repos/acme/routers/issues/comments/42".into(), comment)]);

    let failing = CommentRun::new(&listed, Change::Leaks);
    assert_eq!(failing.run(&script, &env), 1, "verify's exit 1 fails the step");
    let comment = failing.comment(&env, "❌ 1 of 1 router fails verify: 2 sensitive classes leave the cluster");
    assert_eq!(failing.written(), [("PATCH".into(), "repos/acme/routers/issues/comments/42".into(), comment)]);

    let unreadable = CommentRun::new(&listed, Change::Unreadable);
    assert_eq!(unreadable.run(&script, &env), 2);
    assert_eq!(unreadable.written(), [], "nothing is posted");
    assert_eq!(unreadable.fake("calls"), None, "the API is not asked");
}

/// The GitLab job of docs/gitops.md: the same, through the notes API with
/// the project token.
#[test]
#[ignore = "needs jq and git: .ci/run installs jq where it is missing"]
fn the_gitlab_note_recipe_edits_its_note_on_each_push() {
    common::require_tool("jq", &["--version"], "the comment recipes");
    let ci: Value = routerctl::input::from_yaml_str(&file_block("docs/gitops.md", ".gitlab-ci.yml")).expect("YAML");
    let job = &ci["routerctl-comment"];
    let script: Vec<&str> = job["script"].as_array().expect("a script").iter().filter_map(Value::as_str).collect();
    let script = script.join("\n");
    let env = [
        ("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main"),
        ("CI_API_V4_URL", "https://gitlab.example.com/api/v4"),
        ("CI_PROJECT_ID", "12"),
        ("CI_MERGE_REQUEST_IID", "7"),
        ("ROUTERCTL_NOTE_TOKEN", "secret"),
        ("LLMKUBE_VERSION", "v0.9.19"),
        ("ROUTER_PROXY_IMAGE", "registry.example.com/router-proxy:0.9.19"),
    ];
    let notes = "https://gitlab.example.com/api/v4/projects/12/merge_requests/7/notes";
    let verified =
        "✅ 1 router verified, no sensitive class leaves the cluster; the change moves 1 group of requests\n";

    let first = CommentRun::new(&json!([]), Change::Verified);
    assert_eq!(first.run(&script, &env), 0);
    let comment = first.comment(&env, verified);
    assert_eq!(first.written(), [("POST".into(), notes.to_string(), comment)]);
    let headers = first.fake("headers").expect("headers");
    assert!(headers.lines().all(|h| h != "PRIVATE-TOKEN: ") && headers.contains("PRIVATE-TOKEN: secret"), "{headers}");

    let listed = json!([
        {"id": 40, "body": "a review note"},
        {"id": 42, "body": "<!-- routerctl -->\nthe note of the last push"},
        {"id": 43, "body": "<!-- routerctl -->\na later one"}
    ]);
    let again = CommentRun::new(&listed, Change::Verified);
    assert_eq!(again.run(&script, &env), 0);
    let comment = again.comment(&env, verified);
    assert_eq!(again.written(), [("PUT".into(), format!("{notes}/42"), comment)]);

    let failing = CommentRun::new(&listed, Change::Leaks);
    assert_eq!(failing.run(&script, &env), 1);
    let comment = failing.comment(&env, "❌ 1 of 1 router fails verify: 2 sensitive classes leave the cluster");
    assert_eq!(failing.written(), [("PUT".into(), format!("{notes}/42"), comment)]);

    let unreadable = CommentRun::new(&listed, Change::Unreadable);
    assert_eq!(unreadable.run(&script, &env), 2);
    assert_eq!(unreadable.written(), []);
    assert_eq!(unreadable.fake("calls"), None);
}

/// The README's replay example reads the three files docs/replay.md writes,
/// which are `testdata/replay/`'s in the source tree; run in a directory
/// that holds them, it prints what the README shows, and exits 1 (a
/// sensitive request would leave the cluster).
#[test]
fn the_readmes_replay_example_runs_on_the_files_docs_replay_md_writes() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("reads the README");
    let after = readme.split_once("**Replay**").expect("the README's replay paragraph").1;
    let block = after.split_once("```console\n").expect("a console block").1.split_once("\n```").expect("ends").0;
    let commands = console_commands(block);
    assert_eq!(commands.len(), 1, "{block}");
    let (command, shown) = &commands[0];
    let dir = tempfile::tempdir().expect("a temporary directory");
    for name in ["router.yaml", "reordered.yaml", "access.log"] {
        assert!(command.contains(name), "{command} reads {name}");
        let text = file_block("docs/replay.md", name);
        let source = common::fixture(&format!("testdata/replay/{name}"));
        assert_eq!(text, source, "docs/replay.md's {name} is testdata/replay/{name}");
        std::fs::write(dir.path().join(name), text).expect("writes the file");
    }
    let (code, output) = run(dir.path(), command);
    let actual: Vec<&str> = output.trim_end().lines().collect();
    assert_eq!(code, 1, "{output}");
    assert!(matches(shown, &actual), "the README shows:\n{}\nthe command prints:\n{output}", shown.join("\n"));
}
