//! Invariants of the gateway update path over random live objects: `spec`
//! becomes the desired one, everything else of the live object passes
//! through, the controller reference is set, and a second reconcile changes
//! nothing.

use proptest::prelude::*;
use routerctl::live::LiveIndex;
use routerctl::model::ModelRouter;
use routerctl::reconcile::gateway::reconcile_gateway;
use routerctl::render::RouterInput;
use serde_json::{json, Map, Value};

/// Small JSON values, nested a little.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        "[a-z]{0,4}".prop_map(Value::String),
    ]
}

fn tree() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn string_map() -> impl Strategy<Value = Value> {
    prop::collection::btree_map("[a-z./]{1,6}", "[a-z0-9]{0,4}", 0..4)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k, Value::String(v))).collect()))
}

fn input() -> RouterInput {
    let mr: ModelRouter = serde_json::from_value(json!({"spec": {"backends": []}})).expect("router");
    RouterInput { router: mr, name: "r".into(), namespace: "ns".into(), uid: Some("u-1".into()) }
}

fn desired(spec: Value) -> Value {
    json!({"apiVersion": "aigateway.envoyproxy.io/v1beta1", "kind": "AIGatewayRoute",
           "metadata": {"name": "r", "namespace": "ns"}, "spec": spec})
}

proptest! {
    #[test]
    fn only_spec_and_the_controller_reference_change(
        live_spec in tree(),
        want_spec in tree(),
        labels in string_map(),
        annotations in string_map(),
        status in tree(),
        extra in tree(),
    ) {
        let live_obj = json!({"apiVersion": "aigateway.envoyproxy.io/v1beta1", "kind": "AIGatewayRoute",
            "metadata": {"name": "r", "namespace": "ns", "labels": labels, "annotations": annotations, "resourceVersion": "7"},
            "spec": live_spec, "status": status, "x-extra": extra});
        let mut live = LiveIndex::default();
        live.insert(live_obj.clone(), "ns");
        let want = desired(want_spec.clone());
        let items = reconcile_gateway(&input(), vec![want.clone()], live).expect("reconciles");
        let merged = items[0].merged.clone();
        prop_assert_eq!(&merged["spec"], &want_spec);
        prop_assert_eq!(&merged["metadata"]["ownerReferences"][0]["uid"], "u-1");
        let (mut a, mut b) = (merged.clone(), live_obj.clone());
        for v in [&mut a, &mut b] {
            if let Some(m) = v.as_object_mut() { m.remove("spec"); }
            if let Some(m) = v["metadata"].as_object_mut() { m.remove("ownerReferences"); }
        }
        prop_assert_eq!(a, b);

        let mut again_live = LiveIndex::default();
        again_live.insert(merged.clone(), "ns");
        let again = reconcile_gateway(&input(), vec![want], again_live).expect("reconciles");
        prop_assert_eq!(&again[0].merged, &merged);
    }
}

/// A Gateway router of random shape, with the InferenceServices it names.
fn gateway_router() -> impl Strategy<Value = String> {
    let backends = prop::collection::vec(("b[a-z]{0,5}", prop::option::of(1u32..200)), 1..5);
    let rule = (
        prop::collection::vec("[a-z0-9-]{1,8}", 0..4),
        prop::collection::btree_map("x-[a-z]{1,4}", "[a-z0-9]{1,5}", 0..4),
        prop::option::of(prop_oneof![Just("20s"), Just("2m"), Just("1h30m"), Just("250ms")]),
        any::<bool>(),
    );
    (
        backends,
        prop::collection::vec(rule, 0..18),
        any::<bool>(),
        prop::option::of((1i64..5_000_000_000, 1i32..200_000)),
        any::<bool>(),
    )
        .prop_map(|(backends, rules, by_name, budget, jwt)| {
            let mut names: Vec<String> = Vec::new();
            for (name, _) in &backends {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
            let mut out = String::new();
            for name in &names {
                out.push_str(&format!(
                    "apiVersion: inference.llmkube.dev/v1alpha1\nkind: InferenceService\nmetadata: {{name: {name}, namespace: ml}}\nstatus: {{readyReplicas: 1}}\n---\n"
                ));
            }
            out.push_str("apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata: {name: edge, namespace: ml}\nspec:\n  dataPlane: Gateway\n  gatewayRef: {name: ai-gateway}\n");
            if by_name {
                out.push_str("  defaultRouteStrategy: BackendNameMatch\n");
            }
            out.push_str(&format!("  defaultRoute: {}\n  backends:\n", names[0]));
            for (i, name) in names.iter().enumerate() {
                let timeout = backends.get(i).and_then(|(_, t)| *t).map(|t| format!(", timeout: {t}s")).unwrap_or_default();
                out.push_str(&format!("  - {{name: {name}, inferenceServiceRef: {{name: {name}}}{timeout}}}\n"));
            }
            if !rules.is_empty() {
                out.push_str("  rules:\n");
            }
            for (i, (models, headers, timeout, weighted)) in rules.iter().enumerate() {
                let models = models.iter().map(|m| format!("'{m}'")).collect::<Vec<_>>().join(", ");
                let headers =
                    headers.iter().map(|(k, v)| format!("{k}: '{v}'")).collect::<Vec<_>>().join(", ");
                let strategy = if *weighted { "weighted" } else { "primary-fallback" };
                out.push_str(&format!(
                    "  - name: r{i}\n    match: {{models: [{models}], headers: {{{headers}}}}}\n    route: {{backends: [{}], strategy: {strategy}}}\n",
                    names.join(", ")
                ));
                if let Some(t) = timeout {
                    out.push_str(&format!("    timeout: {t}\n"));
                }
            }
            if budget.is_some() || jwt {
                out.push_str("  policy:\n");
            }
            if let Some((tokens, window)) = budget {
                out.push_str(&format!(
                    "    budgets: [{{name: b, scope: team, maxTokens: {tokens}, windowSeconds: {window}}}]\n"
                ));
            }
            if jwt {
                out.push_str("    auth:\n      jwt: {provider: idp, issuer: https://idp.example.com, jwksURI: https://idp.example.com/jwks, teamClaim: team}\n      allowlists: [{team: a, models: [m1]}]\n");
            }
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Every Gateway object routerctl renders for a router it accepts
    /// passes the Envoy CRDs, and their schemas know every field the
    /// renderer writes; what they refuse, routerctl refuses (no output).
    #[test]
    fn rendered_gateway_objects_pass_the_envoy_crds(text in gateway_router()) {
        let options = routerctl::pipeline::Options::default();
        let source = routerctl::input::Source { name: "gen.yaml".into(), text: text.clone() };
        match routerctl::pipeline::reconcile_sources(&options, &[source], &[], &mut std::io::sink()) {
            Ok(items) => {
                prop_assert!(!items.is_empty());
                for item in &items {
                    let findings = routerctl::validate::envoy::schema_findings(&item.merged);
                    prop_assert!(findings.is_empty(), "{}: {findings:?}\n{text}", item.key);
                }
            }
            Err(e) => {
                let message = format!("{e:#}");
                prop_assert!(
                    message.contains("Envoy refuses Gateway objects") || message.contains("operator refuses"),
                    "{message}\n{text}"
                );
            }
        }
    }
}
