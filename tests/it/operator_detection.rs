//! Cluster mode renders as the operator that runs there: routerctl finds its
//! Deployment through kubectl (a stand-in script answering from fixtures),
//! reads its release from the image tag and its flags from the container's
//! args; and `diff --operator-version` previews an operator upgrade.

use crate::common;

use common::{parse_stream, routerctl, to_stream, FakeKubectl};
use serde_json::{json, Value};

const ROUTER: &str = "testdata/versions/proxy.yaml";

/// The operator's Deployment as the upstream Helm chart installs it: the
/// chart's labels, a `manager` container whose image tag is the bare
/// release number, every flag in `args`.
fn chart_operator(namespace: &str, tag: &str, args: &[&str]) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "llmkube-controller-manager",
            "namespace": namespace,
            "labels": {
                "app.kubernetes.io/name": "llmkube",
                "app.kubernetes.io/instance": "llmkube",
                "control-plane": "controller-manager",
                "app.kubernetes.io/version": tag,
                "helm.sh/chart": format!("llmkube-{tag}"),
            },
        },
        "spec": {"template": {"spec": {"containers": [{
            "name": "manager",
            "image": format!("ghcr.io/defilantech/llmkube-controller:{tag}"),
            "command": ["/manager"],
            "args": args,
        }]}}},
    })
}

fn containers(objects: &[Value]) -> Value {
    let deployment = objects.iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
    deployment["spec"]["template"]["spec"]["containers"][0].clone()
}

#[test]
fn the_operator_found_sets_the_release_and_the_flags() {
    let kubectl = FakeKubectl::new();
    kubectl.operators(&[chart_operator(
        "llmkube-system",
        "0.9.12",
        &["--leader-elect", "--router-proxy-image=ghcr.io/defilantech/llmkube-router-proxy:0.9.12"],
    )]);
    let run = kubectl.run(&["render", "-f", ROUTER, "--live-from-cluster"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "routerctl: operator llmkube-system/llmkube-controller-manager runs \
             ghcr.io/defilantech/llmkube-controller:0.9.12: release v0.9.12 (from its image tag); \
             --router-proxy-image=ghcr.io/defilantech/llmkube-router-proxy:0.9.12, no --default-litellm-url, \
             --emit-scrape-annotations off\n"
        ),
        "{}",
        run.stderr
    );
    // v0.9.12 knows no podLabels (a warning names the field), has no
    // metrics listener (v0.9.16) and takes its image from the flag.
    assert!(run.stderr.contains("spec.proxy.podLabels: operator v0.9.12's CRD has no such field"), "{}", run.stderr);
    let container = containers(&parse_stream(&run.stdout));
    assert_eq!(container["image"], "ghcr.io/defilantech/llmkube-router-proxy:0.9.12");
    assert_eq!(
        container["args"],
        json!(["--config", "/etc/llmkube/router/config.json", "--listen", ":8080", "--log-format", "json"])
    );
}

#[test]
fn the_command_line_wins_and_the_difference_is_said() {
    let kubectl = FakeKubectl::new();
    kubectl.operators(&[chart_operator(
        "llmkube-system",
        "0.9.16",
        &[
            "--router-proxy-image",
            "ghcr.io/defilantech/llmkube-router-proxy:dev",
            "--default-litellm-url=http://litellm:4000",
        ],
    )]);
    let args = [
        "render",
        "-f",
        ROUTER,
        "--live-from-cluster",
        "--operator-version",
        "v0.9.19",
        "--router-proxy-image",
        "registry.example.com/rp:1",
    ];
    let run = kubectl.run(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "warning: --operator-version v0.9.19 is used, but operator llmkube-system/llmkube-controller-manager is v0.9.16\n"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            "warning: --router-proxy-image registry.example.com/rp:1 is used, but operator \
             llmkube-system/llmkube-controller-manager runs with \
             --router-proxy-image=ghcr.io/defilantech/llmkube-router-proxy:dev\n"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(containers(&parse_stream(&run.stdout))["image"], "registry.example.com/rp:1");
}

#[test]
fn a_tag_of_no_known_release_is_a_warning_and_an_error_with_strict() {
    let kubectl = FakeKubectl::new();
    let mut operator = chart_operator("ops", "my-build", &[]);
    operator["metadata"]["labels"].as_object_mut().expect("labels").remove("app.kubernetes.io/version");
    kubectl.operators(&[operator]);
    // The CRD installed with it is a release's, which names none.
    kubectl.router_crd(&router_crd(false));
    let args = ["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "-o", "json"];
    let run = kubectl.run(&args, None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "warning: operator ops/llmkube-controller-manager runs ghcr.io/defilantech/llmkube-controller:my-build: \
             its image tag \"my-build\" names no LLMKube release and the cluster's ModelRouter CRD has no \
             spec.proxy.podLabels (a released CRD, which does not say which release), so which release reconciles \
             is not known; give --operator-version; rendering as v0.9.19\n"
        ),
        "{}",
        run.stderr
    );
    let strict = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "--strict"], None);
    assert_eq!(strict.code, 2);
    assert_eq!(strict.stdout, "");
    assert!(strict.stderr.contains("(refused with --strict)"), "{}", strict.stderr);
    // A known release given on the command line settles it.
    let given = kubectl
        .run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "--strict", "--operator-version", "next"], None);
    assert_ne!(given.code, 2, "{}", given.stderr);
}

/// The chart writes `app.kubernetes.io/version` from its appVersion even
/// when the image tag is overridden: a tag that names no release is not
/// read through the label, and `next` (routerctl's own name) is no release.
#[test]
fn a_tag_of_no_release_is_never_read_through_the_label() {
    for image in [
        "ghcr.io/defilantech/llmkube-controller:latest",
        "ghcr.io/defilantech/llmkube-controller:v0.9.19-rc1",
        "ghcr.io/defilantech/llmkube-controller:0.9.20",
        "ghcr.io/defilantech/llmkube-controller:next",
        "ghcr.io/defilantech/llmkube-controller",
    ] {
        let kubectl = FakeKubectl::new();
        let mut operator = chart_operator("llmkube-system", "0.9.12", &[]);
        operator["spec"]["template"]["spec"]["containers"][0]["image"] = json!(image);
        kubectl.operators(&[operator]);
        let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "--strict"], None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{image}: {}", run.stderr);
        assert!(run.stderr.contains("so which release reconciles is not known"), "{image}: {}", run.stderr);
        assert!(!run.stderr.contains("v0.9.12"), "{image}: the label is not read: {}", run.stderr);
    }
}

/// A namespace-scoped CI may not list Deployments cluster-wide, and a
/// cluster may hold no operator: the release is then not known, and
/// `--strict` refuses rather than render as routerctl's default; the
/// release given on the command line settles it.
#[test]
fn strict_refuses_when_the_operator_cannot_be_read() {
    let forbidden = FakeKubectl::new();
    forbidden.operators_fail_with("Error from server (Forbidden): deployments.apps is forbidden\n");
    let none = FakeKubectl::new();
    for kubectl in [&forbidden, &none] {
        let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "--strict"], None);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
        assert!(
            run.stderr.ends_with(
                ", so which release reconciles is not known; give --operator-version (refused with --strict)\n"
            ),
            "{}",
            run.stderr
        );
        let given = kubectl.run(
            &["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "--strict", "--operator-version", "next"],
            None,
        );
        assert_eq!(given.code, 1, "creates: {}", given.stderr);
        assert!(given.stderr.contains("rendering as --operator-version next"), "{}", given.stderr);
    }
}

/// The manager's words as the kubelet passes them: `args` without
/// `command` all reach the image's ENTRYPOINT (the first is no program
/// name); `$(VAR)` comes from the container's literal env and `$$` is a
/// `$`; a value from a Secret is not read, and a warning names it.
#[test]
fn the_manager_container_is_read_as_the_kubelet_runs_it() {
    let kubectl = FakeKubectl::new();
    let mut operator = chart_operator("llmkube-system", "0.9.12", &[]);
    let container = &mut operator["spec"]["template"]["spec"]["containers"][0];
    container.as_object_mut().expect("a container").remove("command");
    container["args"] = json!([
        "--router-proxy-image=$(REGISTRY)/llmkube-router-proxy:$$v1",
        "--default-litellm-url",
        "$(LITELLM)",
        "--leader-elect"
    ]);
    container["env"] = json!([
        {"name": "REGISTRY", "value": "registry.example.com/mirror"},
        {"name": "LITELLM", "valueFrom": {"secretKeyRef": {"name": "litellm", "key": "url"}}},
    ]);
    kubectl.operators(&[operator]);
    let run = kubectl.run(&["render", "-f", ROUTER, "--live-from-cluster"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "--router-proxy-image=registry.example.com/mirror/llmkube-router-proxy:$v1, \
                             --default-litellm-url=$(LITELLM),"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            "warning: operator llmkube-system/llmkube-controller-manager: its manager container's command or args use \
             $(LITELLM), whose value comes from key url of Secret litellm, which routerctl does not read: the word is \
             read as written; give the flag it sets on the command line\n"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(containers(&parse_stream(&run.stdout))["image"], "registry.example.com/mirror/llmkube-router-proxy:$v1");
}

/// A sidecar whose name or image only begins like the manager's is not
/// the manager, wherever it is listed.
#[test]
fn a_helper_listed_first_is_not_the_manager() {
    let kubectl = FakeKubectl::new();
    let mut operator = chart_operator("llmkube-system", "0.9.12", &["--router-proxy-image=rp:manager"]);
    let manager = operator["spec"]["template"]["spec"]["containers"][0].clone();
    operator["spec"]["template"]["spec"]["containers"] = json!([
        {"name": "llmkube-controller-helper", "image": "ghcr.io/defilantech/llmkube-controller-helper:0.9.1",
         "command": ["/helper"], "args": ["--router-proxy-image=rp:helper"]},
        manager,
    ]);
    kubectl.operators(&[operator]);
    let run = kubectl.run(&["render", "-f", ROUTER, "--live-from-cluster"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("runs ghcr.io/defilantech/llmkube-controller:0.9.12: release v0.9.12"),
        "{}",
        run.stderr
    );
    assert_eq!(containers(&parse_stream(&run.stdout))["image"], "rp:manager");
}

#[test]
fn a_digest_falls_back_to_the_charts_version_label() {
    let kubectl = FakeKubectl::new();
    let mut operator = chart_operator("llmkube-system", "0.8.14", &[]);
    operator["spec"]["template"]["spec"]["containers"][0]["image"] =
        json!("ghcr.io/defilantech/llmkube-controller@sha256:0123456789abcdef");
    kubectl.operators(&[operator]);
    let run = kubectl.run(&["render", "-f", ROUTER, "--live-from-cluster", "--router-proxy-image", "x:1"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("release v0.8.14 (from its app.kubernetes.io/version label)"), "{}", run.stderr);
}

#[test]
fn no_permission_to_list_says_so_and_goes_on_with_the_defaults() {
    let kubectl = FakeKubectl::new();
    kubectl.operators_fail_with(
        "Error from server (Forbidden): deployments.apps is forbidden: User \"ci\" cannot list resource \
         \"deployments\" in API group \"apps\" at the cluster scope\n",
    );
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "-o", "json"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    // kubectl's answer as kubectl's, then what routerctl makes of it.
    assert!(
        run.stderr.starts_with(
            "kubectl said (the operator look-up):\n  Error from server (Forbidden): deployments.apps is forbidden: User \
             \"ci\" cannot list resource \"deployments\" in API group \"apps\" at the cluster scope\n\
             warning: could not look for the LLMKube operator (`kubectl --request-timeout=30s get deployments.apps \
             --all-namespaces -l control-plane=controller-manager -o json` failed (exit status 1)); rendering as v0.9.19 \
             with the operator flags given here\n"
        ),
        "{}",
        run.stderr
    );
}

/// With `-q --strict` a failed look-up refuses the run, and kubectl's
/// words are why: `-q` drops what a good run says, never that.
#[test]
fn a_quiet_strict_refusal_keeps_what_kubectl_said() {
    let kubectl = FakeKubectl::new();
    kubectl.operators_fail_with("error: You must be logged in to the server (Unauthorized)\n");
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "-q", "--strict"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "kubectl said (the operator look-up):\n  error: You must be logged in to the server (Unauthorized)\n"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("(refused with --strict)"), "{}", run.stderr);
    // Not refused, the same words are a warning's reason, which -q drops.
    let quiet = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "-q"], None);
    assert!(!quiet.stderr.contains("Unauthorized"), "{}", quiet.stderr);
}

#[test]
fn two_operators_are_refused_by_name() {
    let kubectl = FakeKubectl::new();
    let mut second = chart_operator("tenant-b", "0.9.19", &[]);
    second["metadata"]["name"] = json!("llmkube-b-controller-manager");
    kubectl.operators(&[chart_operator("tenant-a", "0.9.12", &[]), second]);
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1"], None);
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: found 2 LLMKube operators: tenant-a/llmkube-controller-manager \
         (ghcr.io/defilantech/llmkube-controller:0.9.12), tenant-b/llmkube-b-controller-manager \
         (ghcr.io/defilantech/llmkube-controller:0.9.19); which one reconciles these ModelRouters cannot be known: \
         give --operator-version and the operator's flags (--router-proxy-image, --default-litellm-url, \
         --emit-scrape-annotations)\n"
    );
    let chosen =
        kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "--operator-version", "v0.9.12"], None);
    assert_eq!(chosen.code, 1, "{}", chosen.stderr);
    assert!(chosen.stderr.starts_with("warning: found 2 LLMKube operators:"), "{}", chosen.stderr);
}

#[test]
fn another_controller_manager_is_not_the_operator() {
    let kubectl = FakeKubectl::new();
    let mut other = chart_operator("cert-manager", "1.2.3", &[]);
    other["metadata"]["labels"] = json!({"control-plane": "controller-manager", "app.kubernetes.io/name": "foreman"});
    other["spec"]["template"]["spec"]["containers"][0]["image"] = json!("quay.io/foreman/manager:1.2.3");
    kubectl.operators(&[other]);
    let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "-o", "json"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.starts_with("warning: found no LLMKube operator"), "{}", run.stderr);
}

/// "Which of my routers roll when I upgrade the operator?": the cluster
/// holds what v0.9.12 wrote; `diff` as found says nothing changes, and
/// `diff --operator-version v0.9.19` shows the upgrade (v0.9.16's metrics
/// listener and pool activation roll the pods).
#[test]
fn an_upgrade_preview_names_the_routers_that_roll() {
    let flags = ["--router-proxy-image", "ghcr.io/defilantech/llmkube-router-proxy:0.9.12"];
    let written =
        routerctl(&[&["render", "-f", ROUTER, "--operator-version", "v0.9.12", "-q"][..], &flags[..]].concat(), None);
    assert_eq!(written.code, 0, "{}", written.stderr);
    let mut live = parse_stream(&written.stdout);
    for object in &mut live {
        object["metadata"]["uid"] = json!("live-uid");
    }
    let kubectl = FakeKubectl::new();
    kubectl.namespace("ml", &to_stream(&live));
    kubectl.operators(&[chart_operator("llmkube-system", "0.9.12", &[&format!("--router-proxy-image={}", flags[1])])]);

    let now = kubectl.run(&["diff", "-f", ROUTER, "-q"], None);
    assert_eq!((now.code, now.stdout.as_str()), (0, ""), "as the running operator, nothing changes: {}", now.stderr);

    let upgrade = kubectl.run(&["diff", "-f", ROUTER, "-q", "--operator-version", "v0.9.19", "-o", "json"], None);
    assert_eq!(upgrade.code, 1, "{}", upgrade.stderr);
    let plan: Value = serde_json::from_str(&upgrade.stdout).expect("the plan as JSON");
    // The plan says which release it follows, and where that came from.
    assert_eq!(plan["release"], json!({"name": "v0.9.19", "from": "--operator-version"}));
    let as_found = kubectl.run(&["diff", "-f", ROUTER, "-q", "-o", "json"], None);
    let found: Value = serde_json::from_str(&as_found.stdout).expect("the plan as JSON");
    assert_eq!(
        found["release"],
        json!({"name": "v0.9.12", "from": "operator llmkube-system/llmkube-controller-manager's image tag"})
    );
    let router = &plan["routers"][0];
    assert_eq!(router["name"], "coding");
    assert_eq!(router["rollsPods"], true, "{}", upgrade.stdout);
    let actions: Vec<(String, String)> = router["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .map(|o| (o["kind"].as_str().unwrap_or("").to_string(), o["action"].as_str().unwrap_or("").to_string()))
        .collect();
    let pairs: Vec<(&str, &str)> = actions.iter().map(|(k, a)| (k.as_str(), a.as_str())).collect();
    // The pool activation RBAC is new; the config gains the pool block.
    assert_eq!(
        pairs,
        [
            ("ConfigMap", "update"),
            ("ServiceAccount", "create"),
            ("Role", "create"),
            ("RoleBinding", "create"),
            ("Deployment", "update"),
            ("Service", "unchanged"),
        ]
    );
}

/// The ModelRouter CRD as upstream installs it, its schema routerctl's own
/// (which has the pod-metadata fields, `next`'s) or, for a release's, the
/// same without them.
fn router_crd(next: bool) -> Value {
    let text = common::fixture("src/validate/schemas/modelrouter-v1alpha1.yaml");
    let mut schema: Value = routerctl::input::from_yaml_str(&text).expect("the built-in schema is YAML");
    let proxy = schema["properties"]["spec"]["properties"]["proxy"]["properties"].as_object_mut().expect("proxy");
    assert!(proxy.contains_key("podLabels") && proxy.contains_key("podAnnotations"), "the schema is next's");
    if !next {
        proxy.remove("podLabels");
        proxy.remove("podAnnotations");
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "modelrouters.inference.llmkube.dev"},
        "spec": {
            "group": "inference.llmkube.dev",
            "names": {"kind": "ModelRouter", "listKind": "ModelRouterList", "plural": "modelrouters", "singular": "modelrouter"},
            "scope": "Namespaced",
            "versions": [{"name": "v1alpha1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}],
        },
    })
}

/// The call that reads the ModelRouter CRD.
const CRD_CALL: &str =
    "--request-timeout=30s get customresourcedefinitions.apiextensions.k8s.io modelrouters.inference.llmkube.dev -o json";

/// An operator built from upstream's main branch runs an image whose tag
/// names no release; the CRD installed with it has `spec.proxy.podLabels`,
/// which no release has: the operator is `next`, and cluster mode renders
/// as `--operator-version next` does, `--strict` or not.
#[test]
fn an_image_of_no_release_beside_next_s_crd_renders_as_next() {
    let kubectl = FakeKubectl::new();
    kubectl.operators(&[chart_operator("llmkube-system", "main-3f2a1b0", &["--router-proxy-image=rp:main"])]);
    kubectl.router_crd(&router_crd(true));
    let run = kubectl.run(&["render", "-f", ROUTER, "--live-from-cluster", "--strict"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "routerctl: operator llmkube-system/llmkube-controller-manager runs \
             ghcr.io/defilantech/llmkube-controller:main-3f2a1b0: release next (from its installed ModelRouter CRD, \
             whose schema has spec.proxy.podLabels); --router-proxy-image=rp:main,"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("spec.proxy.podLabels: operator"), "next has the field: {}", run.stderr);
    let calls = kubectl.calls();
    assert_eq!(calls.len(), 3, "{calls:?}");
    assert_eq!(calls[1], CRD_CALL);
    // What `--operator-version next` renders from the files.
    let offline = common::routerctl(
        &["render", "-f", ROUTER, "--operator-version", "next", "--router-proxy-image", "rp:main", "--strict"],
        None,
    );
    assert_eq!(offline.code, 0, "{}", offline.stderr);
    assert_eq!(run.stdout, offline.stdout);
    let objects = parse_stream(&run.stdout);
    let deployment = objects.iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
    assert!(
        deployment["metadata"]["annotations"].get("inference.llmkube.dev/applied-pod-labels").is_some(),
        "next records the pod labels it applied: {deployment}"
    );
}

/// A release's CRD says the operator is some release, not which: the
/// release stays unknown, and the warning (an error with `--strict`) says
/// what the CRD did not tell; so does a CRD that cannot be read.
#[test]
fn an_image_of_no_release_beside_a_release_s_crd_is_still_unknown() {
    let released = FakeKubectl::new();
    released.router_crd(&router_crd(false));
    let forbidden = FakeKubectl::new();
    forbidden.router_crd_fails_with(
        "Error from server (Forbidden): customresourcedefinitions.apiextensions.k8s.io \"modelrouters.inference.llmkube.dev\" is forbidden\n",
    );
    let cases = [
        (&released, "the cluster's ModelRouter CRD has no spec.proxy.podLabels (a released CRD, which does not say which release)"),
        (&forbidden, "the cluster's ModelRouter CRD could not be read (exit status 1: Error from server (Forbidden): customresourcedefinitions.apiextensions.k8s.io \"modelrouters.inference.llmkube.dev\" is forbidden)"),
    ];
    for (kubectl, said) in cases {
        kubectl.operators(&[chart_operator("ops", "dev", &[])]);
        let run = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "-o", "json"], None);
        assert_eq!(run.code, 1, "{}", run.stderr);
        let warning = format!(
            "warning: operator ops/llmkube-controller-manager runs ghcr.io/defilantech/llmkube-controller:dev: its \
             image tag \"dev\" names no LLMKube release and {said}, so which release reconciles is not known; give \
             --operator-version; rendering as v0.9.19\n"
        );
        assert!(run.stderr.contains(&warning), "{}", run.stderr);
        let strict = kubectl.run(&["diff", "-f", ROUTER, "--router-proxy-image", "x:1", "--strict"], None);
        assert_eq!((strict.code, strict.stdout.as_str()), (2, ""), "{}", strict.stderr);
        assert!(strict.stderr.contains("(refused with --strict)"), "{}", strict.stderr);
    }
}

/// A tag that names a release settles it: the CRD is not read, whatever
/// it holds.
#[test]
fn a_tag_of_a_release_is_not_overruled_by_the_crd() {
    let kubectl = FakeKubectl::new();
    kubectl.operators(&[chart_operator("llmkube-system", "0.9.12", &["--router-proxy-image=rp:1"])]);
    kubectl.router_crd(&router_crd(true));
    let run = kubectl.run(&["render", "-f", ROUTER, "--live-from-cluster"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(": release v0.9.12 (from its image tag)"), "{}", run.stderr);
    assert!(!kubectl.calls().iter().any(|c| c.contains("customresourcedefinitions")), "{:?}", kubectl.calls());
}
