//! Every problem of a run in one run: `render`, `diff`, `verify` and
//! `test` report each broken router of each file (and each document that
//! does not read), then exit 2 with nothing on stdout; a good router among
//! them changes nothing of that.

use serde_json::Value;

use crate::common::{self, routerctl, routerctl_in, scratch};

/// A ModelRouter `ml/$name` whose one backend, gpt, is OpenAI's gpt-4o of
/// tier `$tier`, then `$rest` (the rest of its spec).
macro_rules! gpt_router {
    ($name:literal, $tier:literal, $rest:literal) => {
        concat!(
            "apiVersion: inference.llmkube.dev/v1alpha1\n",
            "kind: ModelRouter\n",
            "metadata:\n",
            "  name: ",
            $name,
            "\n",
            "  namespace: ml\n",
            "spec:\n",
            "  backends:\n",
            "  - name: gpt\n",
            "    tier: ",
            $tier,
            "\n",
            "    external: {provider: openai, model: gpt-4o}\n",
            $rest
        )
    };
}

/// A backend's tier the CRD does not list (`local` or `cloud`): the API
/// server refuses it.
const TYPO: &str = gpt_router!("typo", "clod", "");

/// A rule that routes to a backend the router does not have: the
/// operator's validateModelRouter refuses it.
const MISSING_BACKEND: &str =
    gpt_router!("missing-backend", "cloud", "  rules:\n  - name: to-ghost\n    route: {backends: [ghost]}\n");

const GOOD: &str = gpt_router!("good", "cloud", "");

/// YAML that does not parse: an unclosed flow sequence.
const UNREADABLE: &str = "\
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata: {name: unreadable, namespace: ml}
spec:
  backends: [
";

/// The 1-based line of the first line of `text` holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1).unwrap_or_else(|| panic!("no {needle:?}"))
}

/// The error findings of a `--message-format json` run: (file, line).
fn errors(run: &common::Run) -> Vec<(String, u64)> {
    run.stderr
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .filter(|f| f["severity"] == "error")
        .map(|f| (f["file"].as_str().unwrap_or("").to_string(), f["line"].as_u64().unwrap_or(0)))
        .collect()
}

/// `render -f typo.yaml -f missing-backend.yaml` names both files' errors,
/// each at its line, whatever good router sits between them and however
/// many threads; `diff`, `verify` and `test` read the routers the same
/// way.
#[test]
fn every_broken_router_of_every_file_is_reported_in_one_run() {
    let dir = scratch(&[
        ("typo.yaml", TYPO),
        ("good.yaml", GOOD),
        ("missing-backend.yaml", MISSING_BACKEND),
        ("live.yaml", "apiVersion: v1\nkind: List\nitems: []\n"),
        (
            "cases.yaml",
            "apiVersion: routerctl.llmkube.dev/v1alpha1\nkind: RouterTest\nrouter: ml/good\ntests:\n- name: a\n  expect: {rule: default}\n",
        ),
    ]);
    let inputs = ["-f", "typo.yaml", "-f", "good.yaml", "-f", "missing-backend.yaml"];
    let want = vec![
        ("missing-backend.yaml".to_string(), line_of(MISSING_BACKEND, "[ghost]") as u64),
        ("typo.yaml".to_string(), line_of(TYPO, "tier: clod") as u64),
    ];
    let commands: [&[&str]; 5] = [
        &["render"],
        &["render", "-j", "1"],
        &["diff", "--live", "live.yaml"],
        &["verify"],
        &["test", "-t", "cases.yaml"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.extend(inputs);
        args.extend(["--router-proxy-image", "rp:1", "--message-format", "json"]);
        let run = routerctl_in(dir.path(), &args, None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{args:?}: {}", run.stderr);
        let mut found = errors(&run);
        found.sort();
        assert_eq!(found, want, "{args:?}: {}", run.stderr);

        // People read the same two, the last one closing the run.
        args.truncate(args.len() - 2);
        let human = routerctl_in(dir.path(), &args, None);
        assert_eq!((human.code, human.stdout.as_str()), (2, ""), "{args:?}: {}", human.stderr);
        let lines: Vec<&str> = human.stderr.lines().filter(|l| l.starts_with("error: ")).collect();
        assert_eq!(lines.len(), 2, "{args:?}: {}", human.stderr);
        assert!(human.stderr.contains("\"clod\""), "{args:?}: {}", human.stderr);
        assert!(human.stderr.contains("references undefined backend \"ghost\""), "{args:?}: {}", human.stderr);
    }
}

/// A document that does not parse is one problem among the others: the
/// routers after it are still read and checked.
#[test]
fn a_file_that_does_not_parse_does_not_hide_the_next_files_routers() {
    let dir = scratch(&[("unreadable.yaml", UNREADABLE), ("typo.yaml", TYPO), ("good.yaml", GOOD)]);
    let run = routerctl_in(
        dir.path(),
        &["render", "-f", "unreadable.yaml", "-f", "typo.yaml", "-f", "good.yaml", "--message-format", "json"],
        None,
    );
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    let files: Vec<String> = errors(&run).into_iter().map(|(file, _)| file).collect();
    assert!(files.contains(&"unreadable.yaml".to_string()), "{}", run.stderr);
    assert!(files.contains(&"typo.yaml".to_string()), "{}", run.stderr);
}

/// An InferenceService that is refused may be the one a router names: the
/// routers are then checked, and nothing is said of a backend whose
/// InferenceService is "not in the inputs" (it is, refused).
#[test]
fn a_refused_inference_service_is_not_also_missing() {
    let isvc = "\
apiVersion: inference.llmkube.dev/v1alpha1
kind: InferenceService
metadata:
  name: qwen
  namespace: ml
spec:
  endpoint:
    port: \"8080\"
";
    let router = "\
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata:
  name: local
  namespace: ml
spec:
  backends:
  - name: qwen
    inferenceServiceRef: {name: qwen}
";
    let dir = scratch(&[("isvc.yaml", isvc), ("router.yaml", router), ("typo.yaml", TYPO)]);
    for strict in [false, true] {
        let mut args = vec!["render", "-f", "isvc.yaml", "-f", "router.yaml", "-f", "typo.yaml"];
        if strict {
            args.push("--strict");
        }
        let run = routerctl_in(dir.path(), &args, None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
        assert!(run.stderr.contains("isvc.yaml:8:"), "the InferenceService's port: {}", run.stderr);
        assert!(run.stderr.contains("typo.yaml:9:"), "the other router is checked: {}", run.stderr);
        assert!(!run.stderr.contains("not in the inputs"), "{}", run.stderr);
        assert!(!run.stderr.contains("router.yaml"), "the good router says nothing: {}", run.stderr);
    }
}

/// The same problems read the same from stdin and from a file: stdin is a
/// source like the others.
#[test]
fn stdin_is_one_of_the_files() {
    let run =
        routerctl(&["render", "-f", "-", "--message-format", "json"], Some(&format!("{TYPO}---\n{MISSING_BACKEND}")));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    let lines: Vec<u64> = errors(&run).into_iter().map(|(_, line)| line).collect();
    let second = TYPO.lines().count() as u64 + 1;
    assert_eq!(
        lines,
        [line_of(TYPO, "tier: clod") as u64, second + line_of(MISSING_BACKEND, "[ghost]") as u64],
        "{}",
        run.stderr
    );
}
