//! Recipes of the docs that the examples' runner skips (they need a cluster
//! or kpt, or another page's files), run here with what they stand on
//! replaced: render.md's `kubectl apply` recipe against a kubectl stand-in
//! that keeps what it is given, krm.md's function settings through
//! `routerctl krm` on the page's own package, and the README's replay
//! example on the files docs/replay.md writes. A recipe as written must not warn on every run: a
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
