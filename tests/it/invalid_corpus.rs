//! Every file under testdata/invalid/ is refused: exit code 2, nothing on
//! stdout, and the exact message pinned as a snapshot. Files whose name ends
//! in `-strict` run with `--strict`; files whose name starts with `live-`
//! hold live objects too and are also given as `--live`.

use crate::common;

use common::routerctl;

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
        let run = routerctl(&args, None);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{name} printed to stdout");
        // With --live files that load, the release rendered as (the
        // default) is named first.
        let note = "routerctl: rendering as operator release next (routerctl's default; files say nothing of the operator: give --operator-version)\n";
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
    let run = routerctl(&["render", "-f", "testdata/invalid/unknown-field-strict.yaml"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("spec.proxy.podLabel: unknown field; did you mean podLabels?"), "{}", run.stderr);
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
