//! `routerctl render` on `dataPlane: Gateway` routers, pinned as snapshots of
//! the real binary's run. Each snapshot was reviewed line by line against the
//! operator's gateway builders; the key values are also asserted here, each
//! with the operator function it comes from (Go, package
//! `internal/controller`).

use crate::common;

use common::{parse_stream, routerctl};
use serde_json::{json, Value};

fn render(name: &str, path: &str, extra: &[&str]) -> (Vec<Value>, String) {
    let mut args = vec!["render", "-f", path];
    args.extend_from_slice(extra);
    let run = routerctl(&args, None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(name, run.transcript(&args));
    (parse_stream(&run.stdout), run.stderr)
}

fn find<'a>(objects: &'a [Value], kind: &str, name: &str) -> &'a Value {
    objects
        .iter()
        .find(|o| o["kind"] == kind && o["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name}"))
}

fn kinds(objects: &[Value]) -> Vec<String> {
    objects
        .iter()
        .map(|o| format!("{}/{}", o["kind"].as_str().unwrap_or(""), o["metadata"]["name"].as_str().unwrap_or("")))
        .collect()
}

fn exact(name: &str, value: &str) -> Value {
    json!({"type": "Exact", "name": name, "value": value})
}

#[test]
fn local_backends_and_every_rule_shape() {
    let (objects, stderr) = render("gateway_local", "testdata/gateway/local.yaml", &[]);
    assert_eq!(stderr, "");
    // reconcileGatewayResources: Backend + AIServiceBackend per backend in
    // spec order, then the route, then the BackendTrafficPolicy (no
    // SecurityPolicy without policy.auth.jwt).
    assert_eq!(
        kinds(&objects),
        [
            "Backend/qwen",
            "AIServiceBackend/qwen",
            "Backend/llama",
            "AIServiceBackend/llama",
            "Backend/mistral",
            "AIServiceBackend/mistral",
            "AIGatewayRoute/coding-router",
            "BackendTrafficPolicy/coding-router"
        ]
    );
    // resolveBackends: <sanitizeDNSName(isvc)>.<ns>.svc.cluster.local, the
    // InferenceService's spec.endpoint.port or 8080; newRouterBackend: fqdn.
    assert_eq!(
        find(&objects, "Backend", "qwen")["spec"],
        json!({"endpoints": [{"fqdn": {"hostname": "qwen-coder.ml.svc.cluster.local", "port": 9000}}]})
    );
    assert_eq!(find(&objects, "Backend", "llama")["spec"]["endpoints"][0]["fqdn"]["port"], 8080);
    // newRouterAIServiceBackend: OpenAI schema over the Backend of the same name.
    assert_eq!(
        find(&objects, "AIServiceBackend", "mistral")["spec"],
        json!({"schema": {"name": "OpenAI"}, "backendRef": {"name": "mistral", "kind": "Backend", "group": "gateway.envoyproxy.io"}})
    );
    // setControllerReferenceUnblocked: controller, blockOwnerDeletion false;
    // the objects carry no labels (the builders set none).
    for o in &objects {
        assert_eq!(o["metadata"]["ownerReferences"][0]["name"], "coding.router");
        assert_eq!(o["metadata"]["ownerReferences"][0]["blockOwnerDeletion"], false);
        assert!(o["metadata"].get("labels").is_none());
    }

    let route = &find(&objects, "AIGatewayRoute", "coding-router")["spec"];
    // newRouterAIGatewayRoute: no namespace in parentRefs when gatewayRef has
    // none; no llmRequestCosts without budgets.
    assert_eq!(
        route["parentRefs"],
        json!([{"name": "ai-gateway", "kind": "Gateway", "group": "gateway.networking.k8s.io"}])
    );
    assert!(route.get("llmRequestCosts").is_none());
    let rules = route["rules"].as_array().cloned().unwrap_or_default();
    // compileRouterRules: 3 spec rules, one per backend (BackendNameMatch),
    // then the defaultRoute catch-all.
    assert_eq!(rules.len(), 7);
    // compileRuleMatches + sortedHeaderMatches: one match per model, the
    // rule's headers ANDed in, sorted by name; compileBackendRefs:
    // primary-fallback priorities 0, 1; compileRouteRule: timeouts.request
    // as Duration.String().
    assert_eq!(
        rules[0],
        json!({
            "matches": [
                {"headers": [exact("x-ai-eg-model", "qwen-coder-32b"), exact("x-env", "prod"), exact("x-team", "platform")]},
                {"headers": [exact("x-ai-eg-model", "qwen-coder-7b"), exact("x-env", "prod"), exact("x-team", "platform")]}
            ],
            "backendRefs": [{"name": "qwen", "priority": 0}, {"name": "llama", "priority": 1}],
            "timeouts": {"request": "2m0s"}
        })
    );
    // backendWeights: the declared weight, 1 when unset, 0 kept as 0.
    assert_eq!(
        rules[1]["backendRefs"],
        json!([{"name": "qwen", "weight": 3}, {"name": "llama", "weight": 1}, {"name": "mistral", "weight": 0}])
    );
    assert_eq!(rules[1]["matches"], json!([{"headers": [exact("x-spread", "yes")]}]));
    // Header-only classification (the CRD default mode): an entry per
    // (model, classification) pair on policy.classification.headerKey.
    assert_eq!(
        rules[2]["matches"],
        json!([
            {"headers": [exact("x-ai-eg-model", "llama-3"), exact("x-data-class", "pii")]},
            {"headers": [exact("x-ai-eg-model", "llama-3"), exact("x-data-class", "phi")]}
        ])
    );
    // BackendNameMatch: the displayName when set, else the name; no priority.
    assert_eq!(
        rules[3],
        json!({"matches": [{"headers": [exact("x-ai-eg-model", "qwen-coder-32b")]}], "backendRefs": [{"name": "qwen"}]})
    );
    assert_eq!(rules[4]["matches"][0]["headers"][0]["value"], "llama");
    // defaultRoute: one empty match (matches everything).
    assert_eq!(rules[6], json!({"matches": [{}], "backendRefs": [{"name": "llama"}]}));

    let btp = &find(&objects, "BackendTrafficPolicy", "coding-router")["spec"];
    // maxConfiguredRouterTimeout: the longest rule or backend timeout (2m over 90s).
    assert_eq!(btp["retry"]["perRetry"]["timeout"], "2m0s");
    // newRouterBackendTrafficPolicy: the fixed retry and health-check stanzas.
    assert_eq!(
        btp["targetRefs"],
        json!([{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "name": "coding-router"}])
    );
    assert_eq!(btp["retry"]["numRetries"], 5);
    assert_eq!(btp["retry"]["retryOn"]["httpStatusCodes"], json!([500, 503]));
    assert_eq!(btp["healthCheck"]["passive"]["consecutive5XxErrors"], 3);
    assert_eq!(
        btp["healthCheck"]["active"]["http"],
        json!({"path": "/health", "method": "GET", "expectedStatuses": [200]})
    );
    assert!(btp.get("rateLimit").is_none());
}

#[test]
fn external_backends() {
    let (objects, stderr) = render("gateway_external", "testdata/gateway/external.yaml", &[]);
    assert_eq!(stderr, "");
    // resolveExternalBackend: host and port of the url (the scheme's port
    // when it has none); newRouterBackend: `ip` for a literal address.
    let endpoint = |name: &str| find(&objects, "Backend", name)["spec"]["endpoints"][0].clone();
    assert_eq!(endpoint("mac-studio"), json!({"fqdn": {"hostname": "mac-studio.lan", "port": 8080}}));
    assert_eq!(endpoint("workstation"), json!({"ip": {"address": "192.168.1.20", "port": 80}}));
    assert_eq!(endpoint("lab-v6"), json!({"ip": {"address": "fd00::20", "port": 11434}}));
    assert_eq!(endpoint("openai"), json!({"fqdn": {"hostname": "api.openai.com", "port": 443}}));
    let route = &find(&objects, "AIGatewayRoute", "edge")["spec"];
    // The Gateway's namespace when gatewayRef names one.
    assert_eq!(route["parentRefs"][0]["namespace"], "envoy-gateway-system");
    // External backends are always healthy: nothing is ejected.
    let refs: Vec<&str> =
        route["rules"][0]["backendRefs"].as_array().into_iter().flatten().filter_map(|r| r["name"].as_str()).collect();
    assert_eq!(refs, ["mac-studio", "workstation", "lab-v6", "openai"]);
    // No timeouts anywhere: maxConfiguredRouterTimeout's literal default.
    assert_eq!(find(&objects, "BackendTrafficPolicy", "edge")["spec"]["retry"]["perRetry"]["timeout"], "60s");
    // No uid on the router or live objects: no owner reference yet.
    assert!(objects.iter().all(|o| o["metadata"].get("ownerReferences").is_none()));
}

#[test]
fn budgets_and_jwt_with_allowlists() {
    let (objects, _) = render("gateway_budgets_auth", "testdata/gateway/budgets-auth.yaml", &[]);
    // The SecurityPolicy goes before the route (reconcileGatewayResources).
    assert_eq!(
        kinds(&objects),
        [
            "Backend/llama",
            "AIServiceBackend/llama",
            "SecurityPolicy/metered",
            "AIGatewayRoute/metered",
            "BackendTrafficPolicy/metered"
        ]
    );
    // routerLLMRequestCosts: present once there are budgets.
    assert_eq!(
        find(&objects, "AIGatewayRoute", "metered")["spec"]["llmRequestCosts"],
        json!([{"metadataKey": "llm_total_token", "type": "TotalToken"}])
    );
    let rate = &find(&objects, "BackendTrafficPolicy", "metered")["spec"]["rateLimit"];
    assert_eq!(rate["type"], "Global");
    let limits: Vec<Value> =
        rate["global"]["rules"].as_array().into_iter().flatten().map(|r| r["limit"].clone()).collect();
    // compileBudgetRule + budgetWindowUnit: the largest unit within the
    // window, maxTokens * unit / window, at least 1; windowSeconds defaults
    // to 3600 (CRD).
    assert_eq!(
        limits,
        [
            json!({"requests": 5_000_000, "unit": "Hour"}),
            json!({"requests": 3_333_333, "unit": "Minute"}),
            json!({"requests": 500, "unit": "Day"}),
            json!({"requests": 1, "unit": "Second"})
        ]
    );
    let rules = &rate["global"]["rules"];
    assert_eq!(
        rules[0]["cost"],
        json!({"request": {"from": "Number", "number": 0},
               "response": {"from": "Metadata", "metadata": {"namespace": "io.envoy.ai_gateway", "key": "llm_total_token"}}})
    );
    // Router scope: no clientSelectors; team scope: a Distinct bucket on
    // headerKey, x-llmkube-team by default (teamHeaderKey).
    assert!(rules[0].get("clientSelectors").is_none());
    assert_eq!(rules[2]["clientSelectors"], json!([{"headers": [{"name": "x-llmkube-team", "type": "Distinct"}]}]));
    assert_eq!(rules[3]["clientSelectors"][0]["headers"][0]["name"], "x-tenant");

    let sp = &find(&objects, "SecurityPolicy", "metered")["spec"];
    // newRouterSecurityPolicy: one provider, the team claim onto the default header.
    assert_eq!(
        sp["jwt"],
        json!({"providers": [{
            "name": "keycloak",
            "issuer": "https://sso.example.com/realms/llm",
            "remoteJWKS": {"uri": "https://sso.example.com/realms/llm/protocol/openid-connect/certs"},
            "claimToHeaders": [{"claim": "team", "header": "x-llmkube-team"}]
        }]})
    );
    // compileRouterAuthorization / compileAllowlistRule / allowlistRuleName:
    // default Deny, an Allow per entry, models as an x-ai-eg-model header.
    assert_eq!(
        sp["authorization"],
        json!({"defaultAction": "Deny", "rules": [
            {"name": "allow-platform-team-0", "action": "Allow", "principal": {
                "jwt": {"provider": "keycloak", "claims": [{"name": "team", "values": ["Platform.Team"]}]},
                "headers": [{"name": "x-ai-eg-model", "values": ["llama-3", "qwen"]}]}},
            {"name": "allow-research-1", "action": "Allow", "principal": {
                "jwt": {"provider": "keycloak", "claims": [{"name": "team", "values": ["research"]}]}}}
        ]})
    );
}

#[test]
fn jwt_without_allowlists() {
    let (objects, _) = render("gateway_jwt_only", "testdata/gateway/jwt-only.yaml", &[]);
    let sp = &find(&objects, "SecurityPolicy", "authn")["spec"];
    // No allowlists: no authorization key at all; routerJWTHeaderKey: the
    // configured headerKey.
    assert!(sp.get("authorization").is_none());
    assert_eq!(sp["jwt"]["providers"][0]["claimToHeaders"], json!([{"claim": "groups", "header": "x-verified-team"}]));
}

#[test]
fn an_unready_backend_is_ejected_but_no_rule_is_emptied() {
    let (objects, stderr) = render("gateway_ejection", "testdata/gateway/ejection.yaml", &[]);
    // Every backend keeps its Backend and AIServiceBackend.
    assert_eq!(objects.iter().filter(|o| o["kind"] == "Backend").count(), 4);
    let rules = &find(&objects, "AIGatewayRoute", "degraded")["spec"]["rules"];
    // ejectUnhealthyBackends: b (status without readyReplicas, so zero)
    // leaves, order and priorities stay as compiled.
    assert_eq!(rules[0]["backendRefs"], json!([{"name": "a", "priority": 1}]));
    // c alone, or c and b both down: the rule keeps its backends.
    assert_eq!(rules[1]["backendRefs"], json!([{"name": "c", "priority": 0}]));
    assert_eq!(rules[2]["backendRefs"], json!([{"name": "c", "weight": 1}, {"name": "b", "weight": 1}]));
    // d has no status: assumed ready, with a warning.
    assert_eq!(rules[3]["backendRefs"], json!([{"name": "d", "priority": 0}]));
    assert_eq!(rules[4]["backendRefs"], json!([{"name": "b"}]));
    assert!(
        stderr.contains("InferenceService \"d\" (backend \"d\") carries no status; assuming it has a ready replica"),
        "{stderr}"
    );
    // Only b counts as ejected: c was never removed from a rule.
    assert!(stderr.contains("backend b has no ready replica"), "{stderr}");
}

#[test]
fn strict_refuses_to_assume_readiness() {
    let run = routerctl(&["render", "-f", "testdata/gateway/ejection.yaml", "--strict"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(
        run.stderr.contains("spec.backends[3].inferenceServiceRef.name: InferenceService \"d\" carries no status"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_missing_inference_service_is_assumed_with_a_warning() {
    let router = "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: r, namespace: ml}\nspec:\n  dataPlane: Gateway\n  gatewayRef: {name: gw}\n  backends: [{name: a, inferenceServiceRef: {name: ghost}}]\n  defaultRoute: a\n";
    let run = routerctl(&["render", "-f", "-"], Some(router));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("backend \"a\" references InferenceService \"ghost\", which is not in the inputs; assuming it exists with the default port 8080 and a ready replica"), "{}", run.stderr);
    assert!(run.stdout.contains("hostname: ghost.ml.svc.cluster.local"));
}

/// The Envoy CRDs' limits are limits, not off by one: 15 route rules (14
/// of the router's and the defaultRoute catch-all) and 16 header conditions in a match
/// render; one more of either is refused (testdata/invalid/envoy-*).
#[test]
fn the_envoy_limits_themselves_are_accepted() {
    let rules: String = (0..13)
        .map(|i| format!("  - {{name: r{i}, match: {{models: [m{i}]}}, route: {{backends: [qwen]}}}}\n"))
        .collect();
    let headers: String = (0..16).map(|i| format!("x-h{i}: v")).collect::<Vec<_>>().join(", ");
    let text = format!(
        "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {{name: edge, namespace: ml}}\nspec:\n  \
         dataPlane: Gateway\n  gatewayRef: {{name: ai-gateway}}\n  defaultRoute: qwen\n  backends:\n  \
         - {{name: qwen, inferenceServiceRef: {{name: qwen}}}}\n  rules:\n{rules}  - name: many\n    \
         match: {{headers: {{{headers}}}}}\n    route: {{backends: [qwen]}}\n---\n\
         apiVersion: inference.llmkube.dev/v1alpha1\nkind: InferenceService\nmetadata: {{name: qwen, namespace: ml}}\n\
         status: {{readyReplicas: 1}}\n"
    );
    let run = common::routerctl(&["render", "-f", "-", "-o", "json"], Some(&text));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let list: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let route = list["items"].as_array().expect("items").iter().find(|o| o["kind"] == "AIGatewayRoute").cloned();
    let route = route.expect("a route");
    assert_eq!(route["spec"]["rules"].as_array().map(Vec::len), Some(15));
    assert_eq!(route["spec"]["rules"][14]["matches"][0].get("headers"), None, "the catch-all is last");
    assert_eq!(route["spec"]["rules"][13]["matches"][0]["headers"].as_array().map(Vec::len), Some(16));
}
