//! The KRM function's tests: the answer to whole ResourceLists (the
//! fixtures under `testdata/krm`), settings, refusals and the results they
//! make.

use serde_json::{json, Value};

use super::list::{parse_items_apart, parse_whole};
use super::{item_documents, render_all, run, settings, KrmOutcome};
use crate::diagnostic::Place;

fn fixture(name: &str) -> String {
    let path = format!("{}/testdata/krm/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What `routerctl krm` writes on stderr for `outcome`, in `human`.
fn stderr(outcome: &KrmOutcome) -> String {
    outcome.errors.iter().map(|d| format!("error: {d}\n")).collect()
}

/// `list` as kustomize hands it over: each item with kustomize's identity
/// annotation.
fn as_kustomize(list: &str) -> String {
    let (mut whole, mut items) = parse_whole(list).expect("a ResourceList");
    for item in &mut items {
        let id = format!("kind: {}\nname: {}\n", item["kind"].as_str().unwrap_or(""), item["metadata"]["name"]);
        item["metadata"]["annotations"]["kustomize.config.k8s.io/id"] = json!(id);
    }
    whole.insert("items".into(), Value::Array(items));
    serde_json::to_string(&Value::Object(whole)).expect("serializes")
}

/// Each result's message.
fn messages(outcome: &KrmOutcome) -> Vec<String> {
    let out = parse_output(outcome);
    let results = out["results"].as_array().cloned().unwrap_or_default();
    results.iter().map(|r| r["message"].as_str().unwrap_or("").to_string()).collect()
}

fn parse_output(outcome: &KrmOutcome) -> Value {
    crate::input::from_yaml_str(&outcome.output).expect("output is YAML")
}

fn input_items(text: &str) -> Vec<Value> {
    parse_whole(text).expect("fixture is a ResourceList").1
}

#[test]
fn round_trip_keeps_items_and_appends_rendered_objects() {
    let input = fixture("resource-list.yaml");
    let outcome = run(&input);
    assert!(!outcome.failed, "{}", outcome.output);
    assert_eq!(stderr(&outcome), "");
    let out = parse_output(&outcome);
    assert_eq!(out["apiVersion"], "config.kubernetes.io/v1");
    assert_eq!(out["kind"], "ResourceList");
    assert!(out.get("results").is_none(), "no results: {:?}", out.get("results"));
    let before = input_items(&input);
    let after = out["items"].as_array().expect("items");
    assert_eq!(&after[..before.len()], &before[..], "every input item kept, unchanged, in order");
    let added: Vec<(String, String)> = after[before.len()..]
        .iter()
        .map(|o| {
            (o["kind"].as_str().unwrap_or("").to_string(), o["metadata"]["name"].as_str().unwrap_or("").to_string())
        })
        .collect();
    let name = "coding-router-router-proxy".to_string();
    assert_eq!(
        added,
        [("ConfigMap".to_string(), name.clone()), ("Deployment".into(), name.clone()), ("Service".into(), name)]
    );
    for (i, obj) in after[before.len()..].iter().enumerate() {
        let a = &obj["metadata"]["annotations"];
        assert_eq!(a["config.kubernetes.io/path"], "routerctl/ml/coding-router.yaml");
        assert_eq!(a["internal.config.kubernetes.io/path"], "routerctl/ml/coding-router.yaml");
        assert_eq!(a["internal.config.kubernetes.io/index"], i.to_string());
    }
    // The functionConfig reached the pipeline.
    let deployment = &after[before.len() + 1];
    assert_eq!(
        deployment["spec"]["template"]["spec"]["containers"][0]["image"],
        "registry.example.com/router-proxy:v1"
    );
    assert_eq!(deployment["spec"]["template"]["metadata"]["annotations"]["prometheus.io/scrape"], "true");
    insta::assert_snapshot!("round_trip", outcome.output);
}

/// Items read one at a time (the layout kustomize writes) give the
/// answer the whole read gives (the same list as JSON, which is never
/// cut): passed-through items, replaced ones, results and errors.
#[test]
fn items_read_apart_answer_as_the_whole_list() {
    let first = run(&fixture("resource-list.yaml")).output;
    for text in [fixture("resource-list.yaml"), fixture("many-routers.yaml"), fixture("invalid-router.yaml"), first] {
        assert!(parse_items_apart(&text).is_some(), "cut: {text}");
        let (list, items) = parse_whole(&text).expect("a ResourceList");
        let mut whole = list;
        whole.insert("items".into(), Value::Array(items));
        let json = serde_json::to_string(&Value::Object(whole)).expect("serializes");
        assert!(parse_items_apart(&json).is_none());
        assert_eq!(run(&text), run(&json), "{text}");
    }
}

#[test]
fn running_twice_replaces_the_previous_output() {
    let first = run(&fixture("resource-list.yaml"));
    let second = run(&first.output);
    assert!(!second.failed, "{}", second.output);
    assert_eq!(second.output, first.output, "the function is idempotent");
}

#[test]
fn an_invalid_router_is_an_error_result() {
    let outcome = run(&fixture("invalid-router.yaml"));
    assert!(outcome.failed);
    let out = parse_output(&outcome);
    let before = input_items(&fixture("invalid-router.yaml"));
    assert_eq!(out["items"].as_array().expect("items"), &before, "nothing appended");
    let results = out["results"].as_array().expect("results");
    assert!(!results.is_empty());
    assert!(results.iter().all(|r| r["severity"] == "error"), "{results:?}");
    let fail_closed = &results[0];
    assert_eq!(
        fail_closed["resourceRef"],
        json!({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "name": "leaky", "namespace": "ml"})
    );
    assert_eq!(fail_closed["field"]["path"], "spec.rules[0].failClosed");
    assert_eq!(fail_closed["file"], json!({"path": "routers/leaky.yaml", "index": 0}));
    // kpt shows the results: stderr says nothing more. kustomize shows
    // stderr alone: there each error is a line.
    assert_eq!(stderr(&outcome), "");
    let kustomize = run(&as_kustomize(&fixture("invalid-router.yaml")));
    assert!(
        stderr(&kustomize).starts_with("error: routers/leaky.yaml: ModelRouter ml/leaky: spec.rules[0].failClosed: ")
    );
    assert_eq!(stderr(&kustomize).lines().count(), results.len(), "{}", stderr(&kustomize));
    insta::assert_snapshot!("invalid_router", outcome.output);
}

#[test]
fn schema_errors_name_their_fields() {
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r}\n  spec:\n    backends: [{name: a, external: {provider: openai, model: m}}]\n    proxy: {replicas: 11, podLabel: {a: b}}\n";
    let outcome = run(list);
    assert!(outcome.failed);
    let out = parse_output(&outcome);
    let fields: Vec<&str> =
        out["results"].as_array().expect("results").iter().filter_map(|r| r["field"]["path"].as_str()).collect();
    assert!(fields.contains(&"spec.proxy.replicas"), "{fields:?}");
}

#[test]
fn warnings_are_warning_results_and_do_not_fail() {
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r, namespace: ml}\n  spec:\n    backends: [{name: a, inferenceServiceRef: {name: missing}}]\n    proxy: {podLabel: {a: b}}\nfunctionConfig:\n  apiVersion: example.com/v1\n  kind: RouterctlConfig\n  metadata: {name: cfg}\n  spec: {emitScrape: true}\n";
    let outcome = run(list);
    assert!(!outcome.failed, "{}", outcome.output);
    let out = parse_output(&outcome);
    let results = out["results"].as_array().expect("results");
    assert!(results.iter().all(|r| r["severity"] == "warning"), "{results:?}");
    let fields: Vec<&str> = results.iter().filter_map(|r| r["field"]["path"].as_str()).collect();
    // The functionConfig's first, then the item's by line: `backends` is
    // written above `proxy`.
    assert_eq!(fields, ["spec.emitScrape", "spec.backends[0].inferenceServiceRef.name", "spec.proxy.podLabel"]);
    assert!(results[0]["message"].as_str().unwrap_or("").contains("did you mean emitScrapeAnnotations?"));
    assert!(results.iter().any(|r| r["message"].as_str().unwrap_or("").contains("InferenceService \"missing\"")));
    assert_eq!(out["items"].as_array().map(Vec::len), Some(4), "rendered despite the warnings");
    assert_eq!(stderr(&outcome), "", "each warning is said once, as a result");
}

/// With `strict: "true"` a setting routerctl does not read is an error
/// result (wherever `strict` is written), so the function fails instead of
/// ignoring it; without, a warning.
#[test]
fn strict_makes_an_unknown_setting_an_error_result() {
    let list = |data: &str| {
        format!(
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {{name: r, namespace: ml}}\n  spec:\n    backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n    proxy: {{image: rp:1}}\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: cfg}}\n  data: {data}\n"
        )
    };
    for data in ["{strict: \"true\", routerProxyImg: x}", "{routerProxyImg: x, strict: \"true\"}"] {
        let outcome = run(&list(data));
        assert!(outcome.failed, "{data}: {}", outcome.output);
        let out = parse_output(&outcome);
        let results = out["results"].as_array().expect("results");
        assert_eq!(results.len(), 1, "{results:?}");
        assert_eq!(results[0]["severity"], "error", "{results:?}");
        assert_eq!(results[0]["field"]["path"], "data.routerProxyImg");
        let message = results[0]["message"].as_str().unwrap_or("");
        assert!(
            message.contains("did you mean routerProxyImage?") && message.contains("(refused with strict)"),
            "{message}"
        );
        assert_eq!(out["items"].as_array().map(Vec::len), Some(1), "nothing rendered");
    }
    let lenient = run(&list("{routerProxyImg: x}"));
    assert!(!lenient.failed, "{}", lenient.output);
    assert_eq!(parse_output(&lenient)["results"][0]["severity"], "warning");
}

#[test]
fn strict_from_the_function_config_turns_assumptions_into_errors() {
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r}\n  spec:\n    backends: [{name: a, inferenceServiceRef: {name: missing}}]\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cfg}\n  data: {strict: \"true\"}\n";
    let outcome = run(list);
    assert!(outcome.failed);
    assert!(messages(&outcome).iter().any(|m| m.contains("InferenceService \"missing\"")), "{}", outcome.output);
}

#[test]
fn the_operator_version_comes_from_the_function_config() {
    let list = |version: &str| {
        format!(
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {{name: r}}\n  spec:\n    backends: [{{name: a, external: {{provider: openai, model: m}}}}]\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: cfg}}\n  data: {{routerProxyImage: rp, operatorVersion: {version:?}}}\n"
        )
    };
    let args = |outcome: &KrmOutcome| -> Value {
        let out = parse_output(outcome);
        let items = out["items"].as_array().cloned().unwrap_or_default();
        let deployment = items.iter().find(|o| o["kind"] == "Deployment").cloned().unwrap_or_default();
        deployment["spec"]["template"]["spec"]["containers"][0]["args"].clone()
    };
    // v0.9.15 has no metrics listener (#1457 came with v0.9.16).
    let old = run(&list("0.9.15"));
    assert!(!old.failed, "{}", old.output);
    assert_eq!(
        args(&old),
        json!(["--config", "/etc/llmkube/router/config.json", "--listen", ":8080", "--log-format", "json"])
    );
    let new = run(&list("v0.9.16"));
    assert_eq!(args(&new).as_array().map(Vec::len), Some(8));
    let bad = run(&list("v9"));
    assert!(bad.failed);
    let out = parse_output(&bad);
    assert_eq!(out["results"][0]["field"]["path"], "data.operatorVersion");
    assert!(out["results"][0]["message"].as_str().unwrap_or("").contains("is not an LLMKube release"), "{out}");
}

/// A functionConfig whose settings would go unread is an error, with
/// a resourceRef when it names itself fully and none (never one of
/// empty strings) when it cannot.
#[test]
fn a_function_config_that_is_not_read_is_an_error() {
    let head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n";
    let misspelt = run(&format!(
        "{head}  apiVersion: v1\n  kind: Configmap\n  metadata: {{name: cfg}}\n  data: {{strict: \"true\"}}\n"
    ));
    assert!(misspelt.failed);
    let r = &parse_output(&misspelt)["results"][0];
    assert_eq!(r["severity"], "error");
    assert_eq!(r["resourceRef"], json!({"apiVersion": "v1", "kind": "Configmap", "name": "cfg"}));
    assert!(
        r["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("functionConfig is apiVersion: \"v1\", kind: \"Configmap\" with no spec"),
        "{r}"
    );
    let other_version = run(&format!(
        "{head}  apiVersion: v2\n  kind: ConfigMap\n  metadata: {{name: cfg}}\n  data: {{strict: \"true\"}}\n"
    ));
    assert!(other_version.failed);
    let list = run(&format!("{head}  [1, 2]\n"));
    assert!(list.failed);
    let r = &parse_output(&list)["results"][0];
    assert_eq!((r["severity"].as_str(), r.get("resourceRef")), (Some("error"), None), "{r}");
    // Any other kind is read through its spec, as before.
    let custom = run(&format!(
        "{head}  apiVersion: example.com/v1\n  kind: RouterctlConfig\n  metadata: {{name: cfg}}\n  spec: {{strict: true}}\n"
    ));
    assert!(!custom.failed, "{}", stderr(&custom));
}

/// The release rules of the flags are the pipeline's: the KRM function
/// warns as the command line does. Upstream's cmd/main.go defines
/// --emit-scrape-annotations from v0.9.14 (#1366), for InferenceService
/// pods; v0.9.13's manager has no such flag.
#[test]
fn the_function_warns_of_what_its_release_does_not_do() {
    let warning = |release: &str| {
        let list = format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {{name: r, namespace: ml}}\n  spec:\n    backends: [{{name: a, external: {{provider: openai, model: m}}}}]\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: cfg}}\n  data: {{routerProxyImage: rp, operatorVersion: \"{release}\", emitScrapeAnnotations: \"true\"}}\n");
        let outcome = run(&list);
        assert!(!outcome.failed, "{}", stderr(&outcome));
        let out = parse_output(&outcome);
        let results = out["results"].as_array().cloned().unwrap_or_default();
        let warnings: Vec<String> = results
            .iter()
            .filter(|r| r["severity"] == "warning" && r["message"].as_str().unwrap_or("").starts_with("--emit-scrape"))
            .map(|r| r["message"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(warnings.len(), 1, "{out}");
        warnings[0].clone()
    };
    let v0914 = warning("0.9.14");
    assert!(v0914.contains("operator v0.9.14 puts scrape annotations on InferenceService pods only"), "{v0914}");
    let v0913 = warning("0.9.13");
    assert!(v0913.contains("operator v0.9.13 has no such flag (it came in v0.9.14"), "{v0913}");
    assert!(v0913.contains("flag provided but not defined"), "{v0913}");
    let v085 = warning("v0.8.5");
    assert!(v085.contains("operator v0.8.5 has no such flag"), "{v085}");
}

#[test]
fn bad_settings_are_errors_on_the_function_config() {
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cfg}\n  data: {emitScrapeAnnotations: \"yes\"}\n";
    let outcome = run(list);
    assert!(outcome.failed);
    let out = parse_output(&outcome);
    let r = &out["results"][0];
    assert_eq!(r["severity"], "error");
    assert_eq!(r["resourceRef"], json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "cfg"}));
    assert_eq!(r["field"]["path"], "data.emitScrapeAnnotations");
    assert_eq!(r["message"], "emitScrapeAnnotations must be \"true\" or \"false\", found \"yes\"");
}

#[test]
fn input_that_is_not_a_resource_list_is_an_error_result() {
    for (input, message) in [
        ("", "the input is empty; expected a ResourceList"),
        ("a: [1\n", "the input is not valid YAML"),
        ("apiVersion: v1\nkind: List\nitems: []\n", "the input is apiVersion \"v1\" kind \"List\""),
        ("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: {}\n", "ResourceList.items is not a list"),
        ("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n---\na: 1\n", "the input holds more than one"),
    ] {
        let outcome = run(input);
        assert!(outcome.failed, "{input:?}");
        let out = parse_output(&outcome);
        assert_eq!(out["items"], json!([]));
        let got = out["results"][0]["message"].as_str().unwrap_or("");
        assert!(got.starts_with(message), "{input:?}: {got}");
    }
}

#[test]
fn a_v1beta1_list_and_a_trailing_document_marker_are_accepted() {
    let outcome = run("apiVersion: config.kubernetes.io/v1beta1\nkind: ResourceList\nitems: []\n---\n");
    assert!(!outcome.failed, "{}", outcome.output);
    assert_eq!(parse_output(&outcome)["apiVersion"], "config.kubernetes.io/v1beta1");
}

#[test]
fn no_router_is_an_info_result() {
    let outcome = run("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n");
    assert!(!outcome.failed);
    let out = parse_output(&outcome);
    assert_eq!(
        out["results"],
        json!([{"message": "no ModelRouter among the items; nothing to render", "severity": "info"}])
    );
    assert_eq!(out["items"].as_array().map(Vec::len), Some(1));
}

#[test]
fn a_foreign_object_with_a_rendered_identity_is_an_error() {
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r}\n  spec:\n    backends: [{name: a, external: {provider: openai, model: m}}]\n- apiVersion: v1\n  kind: Service\n  metadata: {name: r-router-proxy, annotations: {config.kubernetes.io/path: hand-written.yaml}}\n";
    let outcome = run(list);
    assert!(outcome.failed);
    let found = messages(&outcome);
    let said = "renders Service default/r-router-proxy, but items[1] already is an object";
    assert!(found.iter().any(|m| m.contains(said)), "{found:?}");
}

/// One pipeline run for all items: a collision between two routers'
/// objects is found (each router alone renders fine), and a refused
/// router does not hide the others' findings. Each result's field and
/// file are pinned: the fixture's annotations give the file and index,
/// the findings the field.
#[test]
fn one_run_for_all_routers_finds_collisions_and_every_finding() {
    let outcome = run(&fixture("many-routers.yaml"));
    assert!(outcome.failed);
    let out = parse_output(&outcome);
    assert_eq!(out["items"].as_array().map(Vec::len), Some(4), "nothing appended");
    let results = out["results"].as_array().expect("results");
    let pinned: Vec<(&str, &str, &str, &str, u64)> = results
        .iter()
        .map(|r| {
            (
                r["severity"].as_str().unwrap_or(""),
                r["resourceRef"]["name"].as_str().unwrap_or(""),
                r["field"]["path"].as_str().unwrap_or(""),
                r["file"]["path"].as_str().unwrap_or(""),
                r["file"]["index"].as_u64().unwrap_or(99),
            )
        })
        .collect();
    assert_eq!(
        pinned,
        [
            ("error", "a-b", "metadata.name", "routers/team.yaml", 1),
            ("error", "leaky", "spec.rules[0].failClosed", "routers/leaky.yaml", 0),
            ("error", "leaky", "spec.rules[0].route.backends", "routers/leaky.yaml", 0),
            ("warning", "warned", "spec.proxy.podLabel", "routers/team.yaml", 2),
        ]
    );
    let message = |i: usize| results[i]["message"].as_str().unwrap_or("");
    assert!(
        message(0).starts_with("its objects are named \"a-b-router-proxy\", as are those of ModelRouter ml/a.b"),
        "{}",
        message(0)
    );
    assert!(message(1).starts_with("the operator refuses this ModelRouter: "), "{}", message(1));
    assert!(message(3).starts_with("unknown field"), "{}", message(3));
    assert!(message(3).ends_with("(the API server drops unknown fields)"), "{}", message(3));
    // kustomize reads stderr only: each error once, named by its file.
    let stderr = stderr(&run(&as_kustomize(&fixture("many-routers.yaml"))));
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
    assert!(stderr.starts_with("error: routers/team.yaml: ModelRouter ml/a-b: metadata.name: its objects"), "{stderr}");
}

/// Every testdata file, as the input and as the items of a list: results,
/// never a panic.
#[test]
fn never_panics_on_the_testdata_corpus() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("testdata is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"), &mut paths);
    for path in paths {
        let text = String::from_utf8_lossy(&std::fs::read(&path).expect("readable")).into_owned();
        let _ = run(&text);
        let items: Vec<Value> = crate::input::parse_stream("fixture", &text)
            .map(|docs| docs.into_iter().map(|(_, _, v)| v).collect())
            .unwrap_or_default();
        let list = json!({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items});
        let outcome = run(&serde_json::to_string(&list).expect("serializes"));
        assert!(crate::input::from_yaml_str::<Value>(&outcome.output).is_ok(), "{}", path.display());
    }
}

/// An item goes to the pipeline read from its own text: a finding in it
/// is placed at its line and column within the item (the unknown field on
/// the entry's sixth line, after `    proxy: {`), under the item's name.
#[test]
fn a_finding_in_an_item_is_placed_within_the_items_own_text() {
    let text = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: x}\n- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {name: r}\n  spec:\n    backends: [{name: a, external: {provider: openai, model: m}}]\n    proxy: {podLabel: {a: b}}\n";
    let read = super::list::parse(text).expect("a ResourceList");
    assert!(read.kept[0].is_some() && read.texts[1].is_some(), "read an item at a time");
    let documents = item_documents(&[1], &read.items, &read.texts);
    let mut problems = Vec::new();
    let options = settings::options(None, &mut problems);
    assert!(problems.is_empty());
    let (rendered, diagnostics) = render_all(&options, &documents);
    assert_eq!(rendered.len(), 1);
    let unknown: Vec<Option<&Place>> = diagnostics
        .iter()
        .filter(|d| d.field.as_deref() == Some("spec.proxy.podLabel"))
        .map(|d| d.place.as_ref())
        .collect();
    assert_eq!(unknown, [Some(&Place::at("ResourceList.items[1]", 6, 13))], "{diagnostics:?}");
}

/// Results come in the order of the items they are about, by number:
/// `items[2]` before `items[10]`, which a sort of their names would swap.
#[test]
fn results_follow_the_items_by_number() {
    let router = |name: &str| {
        format!(
            "- apiVersion: inference.llmkube.dev/v1alpha1\n  kind: ModelRouter\n  metadata: {{name: {name}}}\n  spec:\n    \
             backends: [{{name: a, external: {{provider: openai, model: m}}}}]\n    proxy: {{podLabel: {{a: b}}}}\n"
        )
    };
    let mut list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n".to_string();
    for i in 0..11 {
        match i {
            2 => list.push_str(&router("two")),
            10 => list.push_str(&router("ten")),
            _ => list.push_str(&format!("- apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: c{i}}}\n")),
        }
    }
    let outcome = run(&list);
    let out = parse_output(&outcome);
    let named: Vec<&str> = out["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["field"]["path"] == "spec.proxy.podLabel")
        .filter_map(|r| r["resourceRef"]["name"].as_str())
        .collect();
    assert_eq!(named, ["two", "ten"], "{}", outcome.output);
}
