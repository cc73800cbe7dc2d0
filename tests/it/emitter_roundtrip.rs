//! What routerctl prints is read back to the same tree: every key and
//! value, whatever characters it holds and however long it is, through
//! routerctl's reader (which reads as kubectl's goyaml.v2 does). Keys that
//! a plain or quoted implicit key cannot hold are the point: a line break,
//! a trailing newline, more than 1,024 characters (libyaml's limit for a
//! key written without `?`).

use proptest::prelude::*;
use routerctl::input::parse_stream;
use routerctl::output::yaml::to_yaml;
use serde_json::{json, Map, Value};

fn round_trip(v: &Value) -> Value {
    let text = to_yaml(v);
    let docs = parse_stream("out.yaml", &text).unwrap_or_else(|e| panic!("{e:#}\n{text}"));
    assert_eq!(docs.len(), 1, "{text}");
    docs.into_iter().next().map(|(_, _, v)| v).unwrap_or(Value::Null)
}

#[test]
fn keys_no_implicit_key_can_hold() {
    let long = "k".repeat(1100);
    let long_quoted = format!("{}'", "q".repeat(1030));
    let v = json!({
        "a\nb": "v",
        "ends\n": {"x": 1},
        "\u{85}nel\u{2028}ls": "v",
        "": "empty",
        "- dash": ["one", {"z": null}],
        long.clone(): {"nested": ["a", "b"]},
        long_quoted.clone(): ["x"],
        "list": [{"a\nb": 1, long.clone(): "in an item"}],
    });
    assert_eq!(round_trip(&v), v);
    let text = to_yaml(&v);
    assert!(text.contains(&format!("? {long}\n:\n  nested:\n")), "{text}");
    assert!(text.contains("\"a\\nb\": v\n"), "{text}");
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z]{1,8}", "\\PC{0,12}", "[ -~\\n\\t\\u{85}\\u{2028}]{0,16}", ".{1000,1100}",]
}

fn tree() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "\\PC{0,20}".prop_map(Value::from),
        "[ -~\\n]{0,20}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn any_tree_reads_back_as_itself(entries in prop::collection::vec((key(), tree()), 1..4)) {
        let v = Value::Object(entries.into_iter().collect());
        prop_assert_eq!(round_trip(&v), v);
    }
}
