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
