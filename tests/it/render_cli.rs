//! `routerctl render` as a user runs it: inputs from files, directories and
//! stdin, exit codes, and an empty stdout whenever a run fails.

use crate::common;

use common::{parse_stream, routerctl};
use serde_json::Value;
use sha2::{Digest, Sha256};

const ROUTER: &str = "\
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata:
  name: piped
spec:
  backends:
  - name: gpt
    external: {provider: openai, model: gpt-4o}
";

#[test]
fn reads_stdin() {
    let run = routerctl(&["render", "-f", "-"], Some(ROUTER));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let kinds: Vec<_> =
        parse_stream(&run.stdout).iter().map(|o| o["kind"].as_str().unwrap_or("").to_string()).collect();
    assert_eq!(kinds, ["ConfigMap", "Deployment", "Service"]);
    assert_eq!(parse_stream(&run.stdout)[0]["metadata"]["namespace"], "default");
}

#[test]
fn namespace_flag_applies_to_objects_without_one() {
    let run = routerctl(&["render", "-f", "-", "-n", "team-x"], Some(ROUTER));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(parse_stream(&run.stdout).iter().all(|o| o["metadata"]["namespace"] == "team-x"));
}

#[test]
fn namespace_conflict_is_an_error_like_kubectl() {
    let run = routerctl(&["render", "-f", "testdata/render/sample.yaml", "-n", "other"], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("is in namespace \"ml\", which does not match -n \"other\""), "{}", run.stderr);
    // The first object to disagree is the InferenceService (document 2, from
    // line 12); its namespace field is on line 16.
    assert!(
        run.stderr.contains("testdata/render/sample.yaml:16:3: InferenceService \"qwen3-coder\""),
        "{}",
        run.stderr
    );
}

#[test]
fn directory_input_reads_manifests_in_name_order() {
    let run = routerctl(&["render", "-f", "testdata/render", "--default-litellm-url", "http://l:4000"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let names: Vec<String> = parse_stream(&run.stdout)
        .iter()
        .filter(|o| o["kind"] == "ConfigMap")
        .map(|o| o["metadata"]["name"].as_str().unwrap_or("").to_string())
        .collect();
    // every-proxy-field, multi (alpha, beta), podmeta, pooled, sample.
    assert_eq!(
        names,
        [
            "team-a-router-router-proxy",
            "alpha-router-proxy",
            "beta-router-proxy",
            "coding-router-router-proxy",
            "pooled-router-proxy",
            "coding-router-router-proxy"
        ]
    );
}

#[test]
fn json_output_is_one_v1_list() {
    let run = routerctl(&["render", "-f", "-", "-o", "json"], Some(ROUTER));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let list: Value = serde_json::from_str(&run.stdout).expect("stdout is JSON");
    assert_eq!(list["apiVersion"], "v1");
    assert_eq!(list["kind"], "List");
    assert_eq!(list["items"].as_array().map(Vec::len), Some(3));
    // The same objects as the YAML stream.
    let yaml = routerctl(&["render", "-f", "-"], Some(ROUTER));
    assert_eq!(list["items"].as_array().cloned().unwrap_or_default(), parse_stream(&yaml.stdout));
}

#[test]
fn config_hash_annotation_is_sha256_of_the_config_as_read_back() {
    // What kubectl will apply is the YAML as parsed back: the block scalar
    // must reproduce the config bytes exactly for the hash to hold.
    for file in ["testdata/render/sample.yaml", "testdata/render/every-proxy-field.yaml", "testdata/render/pooled.yaml"]
    {
        let run = routerctl(&["render", "-f", file, "--default-litellm-url", "http://l:4000"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let objs = parse_stream(&run.stdout);
        let cm = objs.iter().find(|o| o["kind"] == "ConfigMap").expect("a ConfigMap");
        let config = cm["data"]["config.json"].as_str().expect("config.json");
        let hash: String = Sha256::digest(config.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(cm["metadata"]["annotations"]["inference.llmkube.dev/router-config-hash"], hash.as_str());
        let dep = objs.iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
        assert_eq!(
            dep["spec"]["template"]["metadata"]["annotations"]["inference.llmkube.dev/router-config-hash"],
            hash.as_str()
        );
    }
}

#[test]
fn missing_inference_service_warns_and_assumes_port_8080() {
    let input = ROUTER.replace("external: {provider: openai, model: gpt-4o}", "inferenceServiceRef: {name: llama}");
    let run = routerctl(&["render", "-f", "-", "--router-proxy-image", "registry.example.com/proxy:1"], Some(&input));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        // At the reference: line 8 is `    inferenceServiceRef: {name: llama}`,
        // whose `name` starts at column 27.
        "warning: <stdin>:8:27: spec.backends[0].inferenceServiceRef.name: backend \"gpt\" references InferenceService \"llama\", which is not in the inputs; assuming it exists with the default port 8080\n"
    );
    assert!(run.stdout.contains("http://llama.default.svc.cluster.local:8080"));
}

#[test]
fn missing_inference_service_is_an_error_with_strict() {
    let input = ROUTER.replace("external: {provider: openai, model: gpt-4o}", "inferenceServiceRef: {name: llama}");
    let run = routerctl(&["render", "-f", "-", "--strict", "--router-proxy-image", "rp:1"], Some(&input));
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.starts_with("error: <stdin>: document 1 (line 1): ModelRouter default/piped: "),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("drop --strict"), "{}", run.stderr);
    // Placed at the reference, under the render's rule.
    let json = routerctl(
        &["render", "-f", "-", "--strict", "--router-proxy-image", "rp:1", "--message-format", "json"],
        Some(&input),
    );
    let finding: Value = serde_json::from_str(json.stderr.trim()).expect("one JSON line");
    assert_eq!(
        (&finding["rule"], &finding["line"], &finding["column"], &finding["field"]),
        (
            &Value::from("render"),
            &Value::from(8),
            &Value::from(27),
            &Value::from("spec.backends[0].inferenceServiceRef.name")
        ),
        "{finding}"
    );
}

#[test]
fn failures_exit_2_with_nothing_on_stdout() {
    let cases: &[(&[&str], Option<&str>, &str)] = &[
        (&["render", "-f", "testdata/does-not-exist.yaml"], None, "cannot read file"),
        (
            &["render", "-f", "-"],
            Some("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"),
            "no ModelRouter among the input documents",
        ),
        (&["render", "-f", "-"], Some(""), "the inputs hold no documents"),
        (&["render", "-f", "-"], Some("a: [1\n"), "<stdin>:2:1: document 1: "),
        (
            &["render", "-f", "-"],
            Some(&ROUTER.replace("v1alpha1", "v1beta1")),
            "routerctl reads inference.llmkube.dev/v1alpha1",
        ),
        (&["render", "-f", "-"], Some(&ROUTER.replace("  name: piped\n", "  labels: {}\n")), "metadata.name: required"),
        // A good router followed by a broken one: no half stream.
        (
            &["render", "-f", "testdata/render/sample.yaml", "-f", "-"],
            Some(&ROUTER.replace("gpt-4o}", "gpt-4o}\n    timeout: 5x")),
            "spec.backends[0].timeout",
        ),
        (&["render"], None, "--filename"),
        (&["render", "-f", "-", "-o", "xml"], Some(ROUTER), "invalid value 'xml'"),
    ];
    for (args, stdin, needle) in cases {
        let run = routerctl(args, *stdin);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?} printed to stdout");
        assert!(run.stderr.contains(needle), "{args:?}: {:?} lacks {needle:?}", run.stderr);
    }
}

/// `--pass-through` on input that holds no ModelRouter prints it as it is
/// and exits 0, as the KRM function passes such items through; without
/// the flag there is nothing to render, which is an error.
#[test]
fn pass_through_of_input_without_a_router_prints_it_as_it_is() {
    let secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ml}\nstringData: {k: v}\n";
    let run = routerctl(&["render", "--pass-through", "-f", "-", "--strict"], Some(secret));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(parse_stream(&run.stdout), parse_stream(secret));
    assert_eq!(run.stderr, "routerctl: no ModelRouter among the input documents: every object is printed as it is\n");
    let quiet = routerctl(&["render", "--pass-through", "-f", "-", "-q", "-o", "name"], Some(secret));
    assert_eq!((quiet.code, quiet.stdout.as_str(), quiet.stderr.as_str()), (0, "secret/s\n", ""));
    // A document that is no object still fails the run.
    let run = routerctl(&["render", "--pass-through", "-f", "-"], Some("just: a map\n"));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    let plain = routerctl(&["render", "-f", "-"], Some(secret));
    assert_eq!((plain.code, plain.stdout.as_str()), (2, ""));
    assert!(plain.stderr.contains("no ModelRouter among the input documents (<stdin>)"), "{}", plain.stderr);
}

/// A Helm chart's template does not read as a manifest: the refusal comes
/// with a note at its first template action (not the one in a comment
/// above it) that says to run `helm template` first. A manifest that only
/// mentions `{{ }}` in a comment, or renders, gets no such note.
#[test]
fn a_helm_template_is_told_to_go_through_helm_template() {
    let template = "\
# name: {{ .Values.name }} is set by the chart
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata:
  name: \"{{ include \"router.fullname\" . }}\"
spec:
  replicas: {{ .Values.replicas }}
  backends:
  - name: gpt
    external: {provider: openai, model: gpt-4o}
";
    let run = routerctl(&["render", "-f", "-", "--message-format", "json"], Some(template));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    let findings: Vec<Value> = run.stderr.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let note = findings.iter().find(|f| f["severity"] == "note").expect("a note");
    assert_eq!(
        (note["file"].as_str(), note["line"].as_u64(), note["column"].as_u64()),
        (Some("<stdin>"), Some(5), Some(10))
    );
    assert!(note["message"].as_str().is_some_and(|m| m.contains("run `helm template` first")), "{note}");
    assert!(findings.iter().any(|f| f["severity"] == "error"), "{}", run.stderr);

    // Broken, with `{{ }}` only in comments: no note.
    let commented =
        ROUTER.replace("kind: ModelRouter", "kind: ModelRouter # from {{ .Values.kind }}") + "    timeout: 5x\n";
    let run = routerctl(&["render", "-f", "-"], Some(&commented));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("helm template"), "{}", run.stderr);
    // A manifest whose values hold `{{ }}` and that renders: nothing said.
    let literal = format!("{ROUTER}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: alerts}}\ndata: {{summary: \"{{{{ $labels.job }}}}\"}}\n");
    let run = routerctl(&["render", "-f", "-", "--router-proxy-image", "rp:1"], Some(&literal));
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{}", run.stderr);
}

#[test]
fn other_groups_kinds_are_ignored() {
    let kserve = "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: llama}\n---\n";
    let run = routerctl(&["render", "-f", "-"], Some(&format!("{kserve}{ROUTER}")));
    assert_eq!(run.code, 0, "{}", run.stderr);
}
