//! Every file under testdata/invalid/ is refused: exit code 2, nothing on
//! stdout, and the exact message pinned as a snapshot. Files whose name ends
//! in `-strict` run with `--strict`; files whose name starts with `live-`
//! hold live objects too and are also given as `--live`. Files refused for
//! what they put in `spec.proxy.podLabels` or `podAnnotations` run as
//! `--operator-version next` ([`AS_NEXT`]): no release has those fields, so
//! the default release prunes them with a warning instead.

use crate::common;

use common::routerctl;

/// The files refused for their pod labels or annotations (or, with
/// `--strict`, a misspelt `podLabels`): rendered as `next`, the one that
/// has those fields.
const AS_NEXT: [&str; 9] = [
    "annotations-oversized",
    "label-key-invalid",
    "label-value-64-chars",
    "label-value-characters",
    "unknown-field-strict",
    "unquoted-bool",
    "unquoted-int",
    "yaml11-octal-annotation",
    "yaml11-yes-label",
];

#[test]
fn every_invalid_input_is_refused_with_its_message() {
    let dir = common::root().join("testdata/invalid");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("testdata/invalid exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 35, "the corpus lost files: {names:?}");
    for name in names {
        let path = format!("testdata/invalid/{name}");
        let mut args = vec!["render", "-f", path.as_str()];
        let stem = name.trim_end_matches(".yaml");
        if stem.ends_with("-strict") {
            args.push("--strict");
        }
        if stem.starts_with("live-") {
            args.extend(["--live", path.as_str()]);
        }
        if AS_NEXT.contains(&stem) {
            args.extend(["--operator-version", "next"]);
        }
        let run = routerctl(&args, None);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{name} printed to stdout");
        // With --live files that load, the release rendered as (the
        // default) is named first.
        let note = "routerctl: rendering as operator release v0.9.19 (routerctl's default; files say nothing of the operator: give --operator-version)\n";
        let error =
            if stem.starts_with("live-") { run.stderr.strip_prefix(note).unwrap_or(&run.stderr) } else { &run.stderr };
        assert!(error.starts_with("error: "), "{name}: {}", run.stderr);
        // Large inputs make large messages; the snapshot keeps their start.
        let mut transcript = run.transcript(&args);
        if transcript.len() > 4000 {
            let cut = (0..=4000).rev().find(|i| transcript.is_char_boundary(*i)).unwrap_or(0);
            transcript.truncate(cut);
            transcript.push_str("\n[... truncated]\n");
        }
        insta::assert_snapshot!(format!("invalid_{stem}"), transcript);
    }
}

#[test]
fn an_unknown_field_is_a_warning_without_strict() {
    let args = ["render", "-f", "testdata/invalid/unknown-field-strict.yaml", "--operator-version", "next"];
    let run = routerctl(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("spec.proxy.podLabel: unknown field; did you mean podLabels?"), "{}", run.stderr);
}

/// Under the default release (v0.9.19) the pod-metadata fields are in no
/// CRD: each is pruned with a warning at its place, which names the change
/// and `--operator-version next`; nothing of them reaches the pod, so the
/// bad label is not refused. With `--strict` the field is refused.
#[test]
fn pod_metadata_under_the_default_release_is_pruned_with_a_hint() {
    let path = "testdata/invalid/label-key-invalid.yaml";
    let run = routerctl(&["render", "-f", path, "--router-proxy-image", "rp:1"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The other warning is the InferenceService missing from the inputs.
    let lines: Vec<&str> = run.stderr.lines().filter(|l| l.contains("podLabels")).collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(lines[0].starts_with(&format!("warning: {path}:15:5: ")), "{}", lines[0]);
    for words in [
        "spec.proxy.podLabels: operator v0.9.19's CRD has no such field (in no release yet",
        "the API server drops it",
        "(--operator-version next renders with the unreleased change that adds it)",
    ] {
        assert!(lines[0].contains(words), "{words}: {}", lines[0]);
    }
    let deployment = common::parse_stream(&run.stdout).into_iter().find(|o| o["kind"] == "Deployment");
    let labels = deployment.expect("a Deployment")["spec"]["template"]["metadata"]["labels"].clone();
    assert_eq!(labels.as_object().map(|l| l.len()), Some(2), "only the operator's labels: {labels}");
    let strict = routerctl(&["render", "-f", path, "--router-proxy-image", "rp:1", "--strict"], None);
    assert_eq!((strict.code, strict.stdout.as_str()), (2, ""), "{}", strict.stderr);
    assert!(strict.stderr.contains("--operator-version next renders with"), "{}", strict.stderr);
    let json = routerctl(&["render", "-f", path, "--router-proxy-image", "rp:1", "--message-format", "json"], None);
    let finding: serde_json::Value = json
        .stderr
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .find(|f: &serde_json::Value| f["field"] == "spec.proxy.podLabels")
        .expect("the podLabels finding");
    assert_eq!(finding["rule"], "release-newer-field", "{finding}");
    assert!(finding["hint"].as_str().is_some_and(|h| h.contains("--operator-version next")), "{finding}");
}

#[test]
fn a_50_mb_input_is_refused_without_reading_it_all() {
    let big = "#".repeat(50 * 1024 * 1024);
    let run = routerctl(&["render", "-f", "-"], Some(&big));
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: <stdin>: larger than 32 MiB; routerctl reads manifests, not bulk data (split it into several files)\n"
    );
}

#[test]
fn only_distinct_routers_sharing_object_names_collide() {
    let router = |name: &str, data_plane: &str| {
        format!(
            "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {{name: {name}, namespace: ml}}\n\
             spec:\n  dataPlane: {data_plane}\n  gatewayRef: {{name: gw}}\n  backends:\n  - name: gpt\n    \
             external: {{provider: openai, model: gpt-4o, url: \"https://api.openai.com\"}}\n  \
             proxy: {{image: ghcr.io/defilantech/llmkube-router-proxy:v0.1.0}}\n"
        )
    };
    // A Gateway data plane gets no router-proxy objects, so nothing collides.
    let gateway = format!("{}---\n{}", router("a.b", "Gateway"), router("a-b", "Proxy"));
    let run = routerctl(&["render", "-f", "-"], Some(&gateway));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Other namespaces, other names.
    let apart = format!("{}---\n{}", router("a.b", "Proxy"), router("a-b", "Proxy").replace("ml", "ops"));
    let run = routerctl(&["render", "-f", "-"], Some(&apart));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let both = format!("{}---\n{}", router("a.b", "Proxy"), router("a-b", "Proxy"));
    let run = routerctl(&["render", "-f", "-"], Some(&both));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("as are those of ModelRouter ml/a.b (<stdin>: document 1"), "{}", run.stderr);
}
