//! `docs/fields/modelrouter.md` is generated from routerctl's own data: the
//! path, type, default and bounds of each field from the built-in CRD schema
//! (`src/validate/schemas/modelrouter-v1alpha1.yaml`), the release that
//! brought it from `release::CHANGES` (a field no change names is in every
//! release, from the first with ModelRouter), and what the operator does with
//! it from the table below, written from the operator's source. A field of
//! the schema without a line here, or a line for a field the schema lacks,
//! fails the test. To refresh the page after changing either:
//! `ROUTERCTL_REGENERATE=1 cargo test --test it field_reference::`.

use crate::common;

use routerctl::release::{Release, RELEASES};
use serde_json::Value;

/// What the operator does with each field (Proxy and Gateway data planes).
const WHAT: &[(&str, &str)] = &[
    ("spec", "The router's desired state; `spec.backends` is required."),
    ("spec.backends", "Where requests can go. Each becomes a backend of `config.json` in this order; on the Gateway data plane a `Backend` and an `AIServiceBackend` named after it."),
    ("spec.backends[].capabilities", "Copied into `config.json`; a rule's `match.requiredCapabilities` matches when one of its backends lists them all (it does not filter the backends)."),
    ("spec.backends[].costPerMillionTokens", "Informational: stored, not read by the reconcile (not in `config.json`)."),
    ("spec.backends[].costPerMillionTokens.completionUSD", "As its parent: USD per million completion tokens, a decimal string."),
    ("spec.backends[].costPerMillionTokens.promptUSD", "As its parent: USD per million prompt tokens, a decimal string."),
    ("spec.backends[].displayName", "The model id published for the backend and matched by `defaultRouteStrategy: BackendNameMatch` (else `name`); names the BackendNameMatch Gateway rules. In `config.json` from v0.8.18."),
    ("spec.backends[].external", "An out-of-cluster provider; exactly one of `external` and `inferenceServiceRef` must be set (`validateModelRouter`)."),
    ("spec.backends[].external.credentialsSecretRef", "The Secret with the provider's key: the proxy gets it through `envFrom` (one `secretRef`, `optional: true`, per distinct name), and `config.json` names its variable in `credentialsEnv`."),
    ("spec.backends[].external.credentialsSecretRef.name", "The Secret's name."),
    ("spec.backends[].external.model", "The provider's model id, copied into `config.json`."),
    ("spec.backends[].external.provider", "Copied into `config.json`; picks the default URL (`anthropic`, `openai`; `litellm` takes `--default-litellm-url`) and the credential variable."),
    ("spec.backends[].external.url", "The backend's address in `config.json`, else the provider's default. On the Gateway data plane (external backends from v0.9.14) its host and port (80/443 from the scheme) make the `Backend`; a usable `url` is required there."),
    ("spec.backends[].healthCheck", "Stored, not read by the reconcile: the proxy's probing is not configured from it, and the Gateway's `BackendTrafficPolicy` always probes `GET /health`."),
    ("spec.backends[].healthCheck.intervalSeconds", "As its parent."),
    ("spec.backends[].healthCheck.path", "As its parent."),
    ("spec.backends[].healthCheck.timeoutSeconds", "As its parent."),
    ("spec.backends[].inferenceServiceRef", "An InferenceService in the router's namespace: the address `http://<name, dots as dashes>.<namespace>.svc.cluster.local:<its spec.endpoint.port, 8080 by default>`, and the ModelPool it is a member of (from v0.9.16)."),
    ("spec.backends[].inferenceServiceRef.name", "The InferenceService's name."),
    ("spec.backends[].name", "The backend's id in rules, `defaultRoute` and `config.json`; unique within the router. Gateway objects are named after it."),
    ("spec.backends[].tier", "`local` or `cloud`, copied into `config.json`. The CRD defaults it to `local` on every backend, external ones too; `cloud` with `inferenceServiceRef` is refused, and a sensitive-data rule may route only to non-cloud backends."),
    ("spec.backends[].timeout", "A Go duration (100ms to 30m), in `config.json` as nanoseconds: how long the proxy waits for response headers from this backend, unless the rule sets its own."),
    ("spec.backends[].weight", "Copied into `config.json` (the proxy reads no weights); on the Gateway data plane the backend's weight under a `weighted` rule."),
    ("spec.dataPlane", "`Proxy`: the router-proxy ConfigMap, Deployment and Service. `Gateway`: the Envoy AI Gateway objects instead, and no proxy. Before v0.8.8 pruned, and every router gets a proxy."),
    ("spec.defaultRoute", "The backend that takes a request no rule matches; must name a backend. Without it (and no name match) the proxy answers 503; on the Gateway data plane it is the route's catch-all rule."),
    ("spec.defaultRouteStrategy", "`Static`: unmatched requests take `defaultRoute`. `BackendNameMatch`: first the backend whose published id is the request's model (a Gateway rule per backend). In `config.json` from v0.8.14, which rolls every proxy once."),
    ("spec.endpoint", "The proxy's Service."),
    ("spec.endpoint.gateway", "Stored, not read by the reconcile."),
    ("spec.endpoint.gateway.enabled", "As its parent."),
    ("spec.endpoint.gateway.gatewayRef", "As its parent."),
    ("spec.endpoint.gateway.gatewayRef.name", "As its parent."),
    ("spec.endpoint.gateway.gatewayRef.namespace", "As its parent."),
    ("spec.endpoint.gateway.modelName", "As its parent."),
    ("spec.endpoint.nodePort", "In the CRD, never read by the operator: a NodePort Service gets a port the API server allocates."),
    ("spec.endpoint.path", "Defaulted by the CRD; not used by the objects the operator writes."),
    ("spec.endpoint.port", "The Service's `http` port and its `targetPort` (8080 when unset or 0)."),
    ("spec.endpoint.type", "The Service's `type` (`NodePort`, `LoadBalancer`, else `ClusterIP`)."),
    ("spec.gatewayRef", "The Gateway the `AIGatewayRoute` attaches to (`parentRefs`); required on the Gateway data plane, ignored on Proxy."),
    ("spec.gatewayRef.name", "The Gateway's name; not empty."),
    ("spec.gatewayRef.namespace", "The Gateway's namespace; empty means the router's."),
    ("spec.mcpServer", "Reserved upstream for a later feature: stored, not read by the reconcile."),
    ("spec.mcpServer.enabled", "As its parent."),
    ("spec.policy", "Classification, audit log, budgets and auth."),
    ("spec.policy.auditLog", "Copied into `config.json` (the sink defaulted to `stdout`); refused on the Gateway data plane."),
    ("spec.policy.auditLog.filePath", "Copied into `config.json`."),
    ("spec.policy.auditLog.includeRequestBody", "Copied into `config.json`."),
    ("spec.policy.auditLog.sink", "Copied into `config.json`."),
    ("spec.policy.auth", "Gateway data plane only: a `SecurityPolicy`. Not in `config.json`."),
    ("spec.policy.auth.allowlists", "With `jwt`, a default-deny authorization with one Allow rule per team; without `jwt`, refused. Teams must be distinct and neither blank nor padded."),
    ("spec.policy.auth.allowlists[].models", "The models the team may ask for; none listed means any."),
    ("spec.policy.auth.allowlists[].team", "The team, as the JWT's team claim carries it."),
    ("spec.policy.auth.jwt", "The `SecurityPolicy`'s JWT provider; the team claim is copied onto a header. Every field of it must be set."),
    ("spec.policy.auth.jwt.headerKey", "The header the team claim is copied onto; `x-llmkube-team` when empty."),
    ("spec.policy.auth.jwt.issuer", "The JWT provider's issuer."),
    ("spec.policy.auth.jwt.jwksURI", "Where the provider's keys are fetched."),
    ("spec.policy.auth.jwt.provider", "The provider's name in the `SecurityPolicy`."),
    ("spec.policy.auth.jwt.teamClaim", "The claim that names the team."),
    ("spec.policy.budgets", "Not in `config.json`. On the Gateway data plane the token-cost metadata of the route and a global token rate limit in the `BackendTrafficPolicy`; `maxUSD` and `scope: rule` are refused there. Each budget needs `maxTokens` or `maxUSD`."),
    ("spec.policy.budgets[].headerKey", "`scope: team`: the header whose value keys one bucket per team."),
    ("spec.policy.budgets[].maxTokens", "Tokens per window, scaled to the largest of Second/Minute/Hour/Day within it."),
    ("spec.policy.budgets[].maxUSD", "A cap in USD; refused on the Gateway data plane."),
    ("spec.policy.budgets[].name", "The budget's name."),
    ("spec.policy.budgets[].ruleName", "`scope: rule`: the rule it caps; required then, and must name a rule."),
    ("spec.policy.budgets[].scope", "`router`, `rule` or `team`."),
    ("spec.policy.budgets[].windowSeconds", "The budget's window."),
    ("spec.policy.classification", "How a request's data classification is read; copied into `config.json` (the mode defaulted)."),
    ("spec.policy.classification.headerKey", "The header the proxy reads the classification from (`x-llmkube-classification` by default); its value is lower-cased before rules compare it."),
    ("spec.policy.classification.mode", "`header-only`, `detector` or `hybrid`; the Gateway data plane matches `dataClassification` only in `header-only`."),
    ("spec.policy.classification.sensitiveClassifications", "The classes a rule must keep local and fail-closed (`pii` and `phi` when empty): a rule matching one must set `failClosed` and route to no cloud backend."),
    ("spec.proxy", "The router-proxy Deployment."),
    ("spec.proxy.image", "The proxy container's image; else the operator's `--router-proxy-image`, else its built-in default (routerctl warns; `--strict` refuses)."),
    ("spec.proxy.imagePullSecrets", "The pod's `imagePullSecrets`."),
    ("spec.proxy.imagePullSecrets[].name", "A Secret's name."),
    ("spec.proxy.nodeSelector", "The pod's `nodeSelector`."),
    ("spec.proxy.podAnnotations", "Pod-template annotations; the operator's keys (the config hash, scrape annotations) win. The keys applied are recorded in `inference.llmkube.dev/applied-pod-annotations`, so a key removed here leaves the pods."),
    ("spec.proxy.podLabels", "Pod-template labels; the selector labels win. Recorded in `inference.llmkube.dev/applied-pod-labels`, so a key removed here leaves the pods; never in the selector."),
    ("spec.proxy.quarantineDuration", "A Go duration: the proxy's `--quarantine-duration`, written as Go prints durations (`90s` as `1m30s`)."),
    ("spec.proxy.replicas", "The Deployment's `replicas` (1 when unset, and always 1 for a pooled router)."),
    ("spec.proxy.resources", "The proxy container's resources, canonical quantities; with neither requests nor limits, requests cpu 50m / memory 64Mi and limits cpu 500m / memory 256Mi."),
    ("spec.proxy.resources.claims", "Resource claims of the container; only claims the pod declares are valid."),
    ("spec.proxy.resources.claims[].name", "The claim's name."),
    ("spec.proxy.resources.claims[].request", "The request within the claim."),
    ("spec.proxy.resources.limits", "Limits, as the API server stores them (`0.5` as `500m`, `1024Mi` as `1Gi`)."),
    ("spec.proxy.resources.requests", "Requests; no request above its limit."),
    ("spec.proxy.responseHeaderTimeout", "A Go duration: the proxy's `--response-header-timeout`, the default wait for response headers."),
    ("spec.proxy.revisionHistoryLimit", "The Deployment's `revisionHistoryLimit`, set again on every update."),
    ("spec.rules", "Tried in order by the proxy, the first match wins; on the Gateway data plane one route rule each, ordered by Gateway API precedence."),
    ("spec.rules[].failClosed", "A matched request goes only to this rule's backends: 503 rather than another route when they are down. Required on a rule matching a sensitive classification."),
    ("spec.rules[].match", "Conditions, all of which must hold; none means every request."),
    ("spec.rules[].match.dataClassification", "The request's classification (lower-cased header value) is one of these; write them lower-case."),
    ("spec.rules[].match.headers", "Headers that must have exactly these values."),
    ("spec.rules[].match.latencySLOMs", "Not in `config.json`; refused on the Gateway data plane."),
    ("spec.rules[].match.models", "The request's model matches one of these Go `path.Match` globs (`*` does not cross `/`); globs are refused on the Gateway data plane."),
    ("spec.rules[].match.requiredCapabilities", "One of the rule's backends lists them all; refused on the Gateway data plane."),
    ("spec.rules[].match.taskComplexity", "The `x-llmkube-task-complexity` header, lower-cased, is this; refused on the Gateway data plane."),
    ("spec.rules[].name", "The rule's id in `config.json`, logs and budgets."),
    ("spec.rules[].route", "Where a matched request goes."),
    ("spec.rules[].route.backends", "Candidates in dispatch order; each must name a backend."),
    ("spec.rules[].route.strategy", "`primary-fallback` (priorities on the Gateway data plane), `weighted` (the backends' weights there; a label to the proxy) or `shadow` (a label to the proxy; refused on the Gateway data plane)."),
    ("spec.rules[].timeout", "A Go duration (100ms to 30m), in `config.json` as nanoseconds; overrides the backends' timeouts; on the Gateway data plane the rule's `timeouts.request` (from v0.8.9)."),
];

/// A field's type as a reader of YAML writes it.
fn type_of(node: &Value) -> String {
    if node.get("x-kubernetes-int-or-string").is_some() {
        return "quantity (int or string)".into();
    }
    match node.get("type").and_then(Value::as_str) {
        Some("array") => format!("[]{}", node.get("items").map(type_of).unwrap_or_default()),
        Some("object") => match node.get("additionalProperties") {
            Some(values) => format!("map[string]{}", type_of(values)),
            None => "object".into(),
        },
        Some("integer") => node.get("format").and_then(Value::as_str).unwrap_or("integer").into(),
        Some(other) => other.into(),
        None => "any".into(),
    }
}

/// What the schema bounds: enum, pattern, minimum and maximum, item counts.
fn bounds(node: &Value) -> String {
    let mut out = Vec::new();
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = values.iter().filter_map(Value::as_str).map(|v| format!("`{v}`")).collect();
        out.push(format!("one of {}", names.join(", ")));
    }
    if let Some(p) = node.get("pattern").and_then(Value::as_str) {
        out.push(format!("matches `{}`", p.replace('|', "\\|")));
    }
    for (key, word) in [("minimum", "≥"), ("maximum", "≤"), ("minItems", "items ≥"), ("minLength", "length ≥")]
    {
        if let Some(n) = node.get(key) {
            out.push(format!("{word} {n}"));
        }
    }
    out.join("; ")
}

/// The first release whose CRD has the field at `path`.
fn since(path: &str) -> &'static str {
    Release::all().find(|r| r.missing_field(path).is_none()).map(|r| r.name()).unwrap_or(RELEASES[0])
}

fn row(path: &str, node: &Value, required: bool, out: &mut Vec<String>, described: &mut Vec<String>) {
    let what = WHAT.iter().find(|(p, _)| *p == path).map(|(_, w)| *w);
    let what = what.unwrap_or_else(|| panic!("{path}: the schema has it, and WHAT says nothing of it: add a line"));
    described.push(path.to_string());
    let default = node.get("default").map(|d| format!("`{d}`")).unwrap_or_else(|| "—".into());
    let mut kind = type_of(node);
    if required {
        kind.push_str(", required");
    }
    let bounds = bounds(node);
    let what = if bounds.is_empty() { what.to_string() } else { format!("{what} Schema: {bounds}.") };
    out.push(format!("| `{path}` | {kind} | {default} | {} | {what} |", since(path)));
    let children = match node.get("type").and_then(Value::as_str) {
        Some("array") => node.get("items").filter(|i| i.get("properties").is_some()).map(|i| (i, format!("{path}[]"))),
        _ => node.get("properties").map(|_| (node, path.to_string())),
    };
    if let Some((holder, prefix)) = children {
        let required: Vec<&str> = holder
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(props) = holder.get("properties").and_then(Value::as_object) {
            let mut names: Vec<&String> = props.keys().collect();
            names.sort();
            for name in names {
                row(&format!("{prefix}.{name}"), &props[name], required.contains(&name.as_str()), out, described);
            }
        }
    }
}

fn generate() -> String {
    let yaml = std::fs::read_to_string(common::root().join("src/validate/schemas/modelrouter-v1alpha1.yaml"))
        .expect("reads the schema");
    let schema: Value = routerctl::input::from_yaml_str(&yaml).expect("the schema is YAML");
    let spec = &schema["properties"]["spec"];
    let mut rows = Vec::new();
    let mut described = Vec::new();
    row("spec", spec, true, &mut rows, &mut described);
    for (path, _) in WHAT {
        assert!(described.iter().any(|d| d == path), "WHAT describes {path}, which the schema does not have");
    }
    format!(
        "<!-- Generated by tests/it/field_reference.rs from the built-in CRD schema, the release table and its own notes: `ROUTERCTL_REGENERATE=1 cargo test --test it field_reference::` -->\n\
         # ModelRouter fields\n\n\
         `inference.llmkube.dev/v1alpha1` `ModelRouter`, as routerctl's built-in CRD schema has it (the newest \
         the project knows; `--operator-version` and `--crd` judge by another). Per field: its path (`[]` is \
         each item of a list), type, the default the API server applies (only where the parent object is \
         present), the first release whose CRD has it (`{first}` is the first with ModelRouter; `next` is in \
         no release yet), and what the operator does with it. The release table is in \
         [../render.md](../render.md#which-operator-release---operator-version); what the API server and the \
         operator refuse, in [../validation.md](../validation.md).\n\n\
         | path | type | default | since | what the operator does |\n\
         | --- | --- | --- | --- | --- |\n\
         {}\n",
        rows.join("\n"),
        first = RELEASES[0],
    )
}

#[test]
fn the_modelrouter_field_reference_is_current() {
    let generated = generate();
    let path = common::root().join("docs/fields/modelrouter.md");
    if std::env::var_os("ROUTERCTL_REGENERATE").is_some() {
        std::fs::write(&path, &generated).expect("writes the page");
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "docs/fields/modelrouter.md is stale; run `ROUTERCTL_REGENERATE=1 cargo test --test it field_reference::` and commit the result"
    );
}

#[test]
fn a_field_of_a_change_is_dated_by_it() {
    // The release table's rows: #798 in v0.8.14, #826 in v0.8.17, #693 in v0.8.8;
    // a field in no change is in the first release's CRD (upstream's v0.7.8 has
    // rules[].timeout).
    assert_eq!(since("spec.proxy.revisionHistoryLimit"), "v0.8.14");
    assert_eq!(since("spec.backends[].displayName"), "v0.8.17");
    assert_eq!(since("spec.proxy.podLabels"), "next");
    assert_eq!(since("spec.policy.auth.jwt.issuer"), "v0.8.8");
    assert_eq!(since("spec.rules[].timeout"), "v0.7.8");
}
