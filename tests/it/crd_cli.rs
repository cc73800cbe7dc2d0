//! `--crd`: the cluster's own CRD decides what is refused, what the API
//! server drops and what it defaults, through the real binary.

use crate::common;

use common::{parse_stream, routerctl};

const ROUTER: &str = "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: r\n  namespace: ml\nspec:\n  backends:\n  - name: gpt\n    external: {provider: openai, model: gpt-4o}\n";

fn with_spec(extra: &str) -> String {
    format!("{ROUTER}{extra}")
}

#[test]
fn an_older_crd_without_pod_labels_drops_them() {
    let router = with_spec("  proxy:\n    podLabels: {team: ml}\n    podAnnotations: {example.com/owner: ml}\n");
    let crd = "testdata/crd/modelrouters-no-podmeta.yaml";
    let run = routerctl(&["render", "-f", "-", "--crd", crd], Some(&router));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("<stdin>:11:5: spec.proxy.podLabels: unknown field"), "{}", run.stderr);
    assert!(run.stderr.contains("spec.proxy.podAnnotations: unknown field"), "{}", run.stderr);
    // That cluster's API server prunes both fields, so the operator never
    // sees them: the pod template carries only the operator's own keys.
    let objects = parse_stream(&run.stdout);
    let deployment = objects.iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
    let labels = deployment["spec"]["template"]["metadata"]["labels"].as_object().expect("labels");
    assert!(labels.get("team").is_none(), "{labels:?}");
    assert!(deployment["spec"]["template"]["metadata"]["annotations"].get("example.com/owner").is_none());
    // The built-in schema of `next`, the unreleased change, keeps them.
    let built_in = routerctl(&["render", "-f", "-", "--operator-version", "next"], Some(&router));
    assert_eq!(built_in.code, 0, "{}", built_in.stderr);
    assert!(built_in.stdout.contains("team: ml"));

    let strict = routerctl(&["render", "-f", "-", "--crd", crd, "--strict"], Some(&router));
    assert_eq!(strict.code, 2);
    assert!(strict.stdout.is_empty());
    assert!(strict.stderr.contains("fields the CRD does not know (refused with --strict)"), "{}", strict.stderr);
    assert!(strict.stderr.contains("spec.proxy.podLabels: unknown field"), "{}", strict.stderr);
}

#[test]
fn a_tightened_bound_is_enforced() {
    let router = with_spec("  proxy:\n    replicas: 5\n");
    let run = routerctl(&["render", "-f", "-", "--crd", "testdata/crd/modelrouters-tight.yaml"], Some(&router));
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("<stdin>:11:5: spec.proxy.replicas: must be at most 3, found 5"), "{}", run.stderr);
    assert_eq!(routerctl(&["render", "-f", "-"], Some(&router)).code, 0, "the built-in schema allows 10");
}

#[test]
fn cel_rules_of_the_crd_are_evaluated() {
    let crd = "testdata/crd/modelrouters-cel.yaml";
    let three = format!(
        "{ROUTER}  - name: b\n    external: {{provider: openai, model: m}}\n  - name: c\n    external: {{provider: openai, model: m}}\n  proxy: {{replicas: 2}}\n"
    );
    let run = routerctl(&["render", "-f", "-", "--crd", crd], Some(&three));
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("a router may have at most two backends here"), "{}", run.stderr);
    assert!(run.stderr.contains("replicas must be odd"), "{}", run.stderr);
    let fine = with_spec("  proxy: {replicas: 3}\n");
    let run = routerctl(&["render", "-f", "-", "--crd", crd], Some(&fine));
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn an_inference_service_crd_judges_inference_services() {
    let crd = "testdata/crd/inferenceservices.yaml";
    let router = "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: r, namespace: ml}\nspec:\n  backends: [{name: local, inferenceServiceRef: {name: qwen}}]\n  proxy: {image: example.com/proxy:1}\n";
    let isvc = |spec: &str| {
        format!("apiVersion: inference.llmkube.dev/v1alpha1\nkind: InferenceService\nmetadata: {{name: qwen, namespace: ml}}\nspec: {spec}\n---\n{router}")
    };
    // The CRD's CEL rule.
    let run = routerctl(
        &["render", "-f", "-", "--crd", crd],
        Some(&isvc("{cache: {persistence: Ephemeral, claimName: models}}")),
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("InferenceService \"qwen\" does not fit the InferenceService CRD schema"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("claimName cannot be set when persistence is Ephemeral"), "{}", run.stderr);
    // A bound of the CRD.
    let run = routerctl(&["render", "-f", "-", "--crd", crd], Some(&isvc("{endpoint: {port: 70000}}")));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("<stdin>:4:19: spec.endpoint.port: must be at most 65535, found 70000"),
        "{}",
        run.stderr
    );
    // A valid one renders, its port in the backend's address.
    let run = routerctl(&["render", "-f", "-", "--crd", crd], Some(&isvc("{endpoint: {port: 9000}}")));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("http://qwen.ml.svc.cluster.local:9000"), "{}", run.stdout);
    // Together with a ModelRouter CRD, in any order.
    let both = ["render", "-f", "-", "--crd", crd, "--crd", "testdata/crd/modelrouters-tight.yaml"];
    assert_eq!(routerctl(&both, Some(&isvc("{}"))).code, 0);
}

/// An Envoy CRD given with `--crd` replaces the built-in Envoy schema of
/// its kind, its CEL rules included.
#[test]
fn an_envoy_crd_checks_the_gateway_objects() {
    let crd = "testdata/crd/aigatewayroutes-two-rules.yaml";
    let two_rules = "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: edge, namespace: ml}\n\
                     spec:\n  dataPlane: Gateway\n  gatewayRef: {name: ai-gateway}\n  backends:\n  \
                     - {name: qwen, inferenceServiceRef: {name: qwen}}\n  rules:\n  \
                     - {name: a, match: {headers: {x-a: '1'}}, route: {backends: [qwen]}}\n---\n\
                     apiVersion: inference.llmkube.dev/v1alpha1\nkind: InferenceService\nmetadata: {name: qwen, namespace: ml}\n\
                     status: {readyReplicas: 1}\n";
    let fine = routerctl(&["render", "-f", "-", "--crd", crd, "-o", "name"], Some(two_rules));
    assert_eq!(fine.code, 0, "{}", fine.stderr);
    // The catch-all of a defaultRoute has no header match: the CEL rule refuses it.
    let with_default = two_rules.replace("  rules:\n", "  defaultRoute: qwen\n  rules:\n");
    let run = routerctl(&["render", "-f", "-", "--crd", crd], Some(&with_default));
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(
        run.stderr.contains("AIGatewayRoute ml/edge: spec.rules[1]: every rule needs a header match (x-kubernetes-validations rule) (the CRD given with --crd;"),
        "{}",
        run.stderr
    );
    // A third rule is over the CRD's bound; the built-in schema takes 15.
    let three = with_default
        .replace("  rules:\n", "  rules:\n  - {name: b, match: {headers: {x-b: '1'}}, route: {backends: [qwen]}}\n");
    let run = routerctl(&["render", "-f", "-", "--crd", crd], Some(&three));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("spec.rules: must have at most 2 items, found 3 (the CRD given with --crd;"),
        "{}",
        run.stderr
    );
    assert_eq!(routerctl(&["render", "-f", "-"], Some(&three)).code, 0);
}

/// The CEL CRD with one rule that compares every three backends, and
/// `maxItems` on the backends when given.
fn cubic_crd(max_items: Option<u32>) -> tempfile::NamedTempFile {
    let text = std::fs::read_to_string(common::root().join("testdata/crd/modelrouters-cel.yaml")).expect("fixture");
    let rules = "            - rule: self.backends.size() <= 2\n              message: a router may have at most two backends here\n            - rule: '!has(self.proxy) || !has(self.proxy.replicas) || self.proxy.replicas % 2 == 1'\n              message: replicas must be odd\n";
    assert!(text.contains(rules), "the fixture's rules moved");
    let cubic = "            - rule: self.backends.all(a, self.backends.all(b, self.backends.all(c, a.name != b.name || b.name != c.name || a.name == c.name)))\n";
    let mut text = text.replace(rules, cubic);
    if let Some(n) = max_items {
        text = text.replacen(
            "                minItems: 1\n",
            &format!("                minItems: 1\n                maxItems: {n}\n"),
            1,
        );
    }
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), text).expect("writes the CRD");
    file
}

fn router_with_backends(n: usize) -> String {
    let mut text = ROUTER.to_string();
    for i in 1..n {
        text.push_str(&format!("  - name: b{i}\n    external: {{provider: openai, model: m}}\n"));
    }
    text
}

#[test]
fn a_crd_whose_rule_could_cost_too_much_is_refused_as_the_api_server_refuses_it() {
    for bound in [None, Some(1000)] {
        let crd = cubic_crd(bound);
        let path = crd.path().to_string_lossy().into_owned();
        let run = routerctl(&["render", "-f", "-", "--crd", &path], Some(ROUTER));
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{bound:?}");
        assert!(
            run.stderr.contains(
                "CustomResourceDefinition modelrouters.inference.llmkube.dev: the API server refuses this CRD for the cost of its CEL rules:\n  spec: x-kubernetes-validations[0] \"self.backends.all(a,"
            ),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains("estimated rule cost exceeds budget by factor of more than 100x"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn a_rule_that_would_run_past_its_budget_on_this_router_is_refused_unrun() {
    // 50 backends at most: the estimate (50³ comparisons) stays under the
    // CRD limit, but a router with all 50 passes the per-rule limit when it
    // is checked.
    let crd = cubic_crd(Some(50));
    let path = crd.path().to_string_lossy().into_owned();
    let few = routerctl(&["render", "-f", "-", "--crd", &path], Some(&router_with_backends(20)));
    assert_eq!(few.code, 0, "{}", few.stderr);
    let many = routerctl(&["render", "-f", "-", "--crd", &path], Some(&router_with_backends(50)));
    assert_eq!((many.code, many.stdout.as_str()), (2, ""));
    assert!(
        many.stderr.contains("spec: the rule \"self.backends.all(a,")
            && many.stderr.contains("past the API server's limit of 1000000 for one rule (PerCallLimit): it stops the rule and refuses the object"),
        "{}",
        many.stderr
    );
}
