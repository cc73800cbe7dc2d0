//! The JSON Schema (draft 2020-12) of a RouterTest document
//! (`routerctl schema routertest`): what `suite::read` accepts, field by
//! field — unknown fields refused where the reader refuses them, null taken
//! where the reader takes it (an optional scalar or object), not where it
//! does not (a list or a map) — and the reader's two rules beyond the
//! fields: at least one case or invariant, and an invariant that says
//! something. Tests hold the schema to the reader: a table of documents,
//! and a property that any generated document gets the same verdict from
//! both.

use serde_json::{json, Value};

use super::suite::{API_VERSION, KIND};
use crate::model::DataPlane;

/// The RouterTest format as a JSON Schema document.
pub fn router_test() -> Value {
    let strings = json!({"type": "array", "items": {"type": "string"}});
    let header_map = json!({"type": "object", "additionalProperties": {"type": "string"}});
    let optional_string = json!({"type": ["string", "null"]});
    // What the reader takes as a status code: RFC 9110's 100 to 599.
    let codes = super::suite::STATUS_CODES;
    let status = json!({"type": ["integer", "null"], "minimum": codes.start(), "maximum": codes.end(), "description": "An HTTP status code the data plane answers with itself."});
    let data_plane = json!({
        "enum": [DataPlane::Proxy.label(), DataPlane::Gateway.label(), null],
        "description": "Judged on this data plane only (on the other one, when the run renders it, the case is still decided, for coverage and to compare the planes; a run that renders only the other one skips the case, which then counts toward no coverage)."
    });
    let backends = json!({
        "type": ["object", "null"],
        "additionalProperties": false,
        "description": "Backends named, or described: any one that fits is meant.",
        "properties": {
            "backends": strings,
            "tier": optional_string,
            "external": {"type": ["boolean", "null"]}
        }
    });
    let case = json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name"],
        "properties": {
            "name": {"type": "string"},
            "request": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "model": {"type": ["string", "null"], "description": "The body's model (absent: the proxy reads \"\")."},
                    "headers": header_map
                }
            },
            "unhealthy": {"type": "array", "items": {"type": "string"}, "description": "Backends that are down."},
            "expect": {
                "type": "object",
                "additionalProperties": false,
                "description": "Every field optional; each one given must hold.",
                "properties": {
                    "rule": {"type": ["string", "null"], "description": "A rule's name, default, name-match or none."},
                    "backends": {"type": ["array", "null"], "items": {"type": "string"}, "description": "The candidates, in dispatch order."},
                    "strategy": optional_string,
                    "status": status
                }
            },
            "dataPlane": data_plane
        }
    });
    let says_something = |field: &str| json!({"required": [field], "properties": {field: {"not": {"type": "null"}}}});
    let invariant = json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name"],
        "description": "For all requests that match when, in the health states unhealthy allows: the dispatch never reaches a never backend, reaches only only backends, and the data plane answers itself with no status but status.",
        "anyOf": [says_something("never"), says_something("only"), says_something("status")],
        "properties": {
            "name": {"type": "string"},
            "when": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "classification": strings,
                    "complexity": strings,
                    "models": {"type": "array", "items": {"type": "string"}, "description": "Model globs (Go's path.Match)."},
                    "headers": header_map
                }
            },
            "unhealthy": {"enum": ["any", "none"], "default": "any", "description": "any: every health state; none: all backends up."},
            "never": backends,
            "only": backends,
            "status": status,
            "dataPlane": data_plane
        }
    });
    let non_empty = |field: &str| json!({"required": [field], "properties": {field: {"minItems": 1}}});
    json!({
        "$schema": crate::schema::json_schema::DRAFT_2020_12,
        "title": format!("{KIND} ({API_VERSION})"),
        "description": format!(
            "A RouterTest file of routerctl {}: cases of requests and where each must go (tests, run by routerctl test), and properties of every request (invariants, proved by routerctl verify).",
            env!("CARGO_PKG_VERSION")
        ),
        "type": "object",
        "additionalProperties": false,
        "required": ["apiVersion", "kind"],
        "anyOf": [non_empty("tests"), non_empty("invariants")],
        "properties": {
            "apiVersion": {"const": API_VERSION},
            "kind": {"const": KIND},
            "metadata": {"description": "Any value; not read."},
            "router": {"type": ["string", "null"], "description": "namespace/name (or a name) of the router tested; optional when the inputs hold one router."},
            "tests": {"type": "array", "items": case},
            "invariants": {"type": "array", "items": invariant}
        }
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::input::{documents, Source};
    use crate::routing::suite::read;

    /// The schema and the reader agree on each document: both take it or
    /// both refuse it.
    fn agree(body: &str) -> bool {
        let text = format!("apiVersion: {API_VERSION}\nkind: {KIND}\n{body}");
        let source = Source { name: "t.yaml".into(), text };
        let doc = documents(&source).expect("YAML").remove(0);
        let validator = jsonschema::draft202012::new(&router_test()).expect("compiles");
        let by_schema = validator.is_valid(&doc.value);
        let by_reader = read(&doc).is_ok();
        assert_eq!(by_schema, by_reader, "schema {by_schema}, reader {by_reader}:\n{body}");
        by_reader
    }

    /// A field of a generated document: absent or a good value mostly, now
    /// and then a bad one, so that about half the documents read.
    fn field(good: Vec<Value>, bad: Vec<Value>) -> BoxedStrategy<Option<Value>> {
        let mut fine = vec![None];
        fine.extend(good.into_iter().map(Some));
        let wrong: Vec<Option<Value>> = bad.into_iter().map(Some).collect();
        prop_oneof![25 => proptest::sample::select(fine), 1 => proptest::sample::select(wrong)].boxed()
    }

    /// Now and then an object gets a field no reader knows.
    fn extra() -> impl Strategy<Value = bool> {
        proptest::bool::weighted(0.02)
    }

    /// An object of the fields given, the absent ones left out.
    fn object(fields: Vec<(&'static str, Option<Value>)>, extra: bool) -> Value {
        let mut m = serde_json::Map::new();
        for (name, value) in fields {
            if let Some(v) = value {
                m.insert(name.into(), v);
            }
        }
        if extra {
            m.insert("extra".into(), json!(1));
        }
        Value::Object(m)
    }

    /// An object field: absent, the object, or now and then null.
    fn nested(object: impl Strategy<Value = Value> + 'static) -> BoxedStrategy<Option<Value>> {
        prop_oneof![10 => Just(None), 30 => object.prop_map(Some), 1 => Just(Some(Value::Null))].boxed()
    }

    fn backends() -> BoxedStrategy<Option<Value>> {
        let described = (
            field(vec![json!(["a"]), json!([])], vec![json!(null), json!("a")]),
            field(vec![json!("cloud"), json!(null)], vec![json!(1)]),
            field(vec![json!(true), json!(null)], vec![json!("yes")]),
            extra(),
        )
            .prop_map(|(b, tier, external, extra)| {
                object(vec![("backends", b), ("tier", tier), ("external", external)], extra)
            });
        // A null never or only is as good as none: the invariant may then
        // say nothing.
        prop_oneof![2 => Just(None), 1 => Just(Some(Value::Null)), 2 => described.prop_map(Some)].boxed()
    }

    fn case() -> impl Strategy<Value = Value> {
        let request = (
            field(vec![json!("m"), json!(null)], vec![json!(5)]),
            field(vec![json!({"x": "v"}), json!({})], vec![json!({"x": 1}), json!(null)]),
            extra(),
        )
            .prop_map(|(model, headers, extra)| object(vec![("model", model), ("headers", headers)], extra));
        let expect = (
            field(vec![json!("r"), json!(null)], vec![json!(1)]),
            field(vec![json!(["a"]), json!(null)], vec![json!("a")]),
            field(vec![json!("primary-fallback"), json!(null)], vec![json!(true)]),
            field(
                vec![json!(503), json!(100), json!(599), json!(null)],
                vec![json!(600), json!(99), json!(0), json!(65536), json!(-1), json!("503"), json!(5.5)],
            ),
            extra(),
        )
            .prop_map(|(rule, b, strategy, status, extra)| {
                object(vec![("rule", rule), ("backends", b), ("strategy", strategy), ("status", status)], extra)
            });
        (
            field(vec![json!("a")], vec![json!(5), json!(null)]),
            nested(request),
            field(vec![json!(["b"]), json!([])], vec![json!([1]), json!(null)]),
            nested(expect),
            field(vec![json!("Proxy"), json!("Gateway"), json!(null)], vec![json!("proxy")]),
            extra(),
        )
            .prop_map(|(name, request, unhealthy, expect, plane, extra)| {
                // A case without a name is refused: mostly give one.
                let name = name.or(Some(json!("a")));
                object(
                    vec![
                        ("name", name),
                        ("request", request),
                        ("unhealthy", unhealthy),
                        ("expect", expect),
                        ("dataPlane", plane),
                    ],
                    extra,
                )
            })
    }

    fn invariant() -> impl Strategy<Value = Value> {
        let when = (
            field(vec![json!(["pii"]), json!([])], vec![json!(null), json!("pii")]),
            field(vec![json!(["high"])], vec![json!([1])]),
            field(vec![json!(["gpt-*"])], vec![json!(null)]),
            field(vec![json!({"x": "v"})], vec![json!(null)]),
            extra(),
        )
            .prop_map(|(c, x, m, h, extra)| {
                object(vec![("classification", c), ("complexity", x), ("models", m), ("headers", h)], extra)
            });
        (
            field(vec![json!("i")], vec![json!(null)]),
            nested(when),
            field(vec![json!("any"), json!("none")], vec![json!("some"), json!(null)]),
            backends(),
            backends(),
            prop_oneof![
                Just(None),
                Just(Some(json!(503))),
                Just(Some(json!(null))),
                Just(Some(json!("503"))),
                Just(Some(json!(0)))
            ],
            field(vec![json!("Gateway"), json!(null)], vec![json!("envoy")]),
            extra(),
        )
            .prop_map(|(name, when, unhealthy, never, only, status, plane, extra)| {
                let name = name.or(Some(json!("i")));
                object(
                    vec![
                        ("name", name),
                        ("when", when),
                        ("unhealthy", unhealthy),
                        ("never", never),
                        ("only", only),
                        ("status", status),
                        ("dataPlane", plane),
                    ],
                    extra,
                )
            })
    }

    fn router_test_document() -> impl Strategy<Value = Value> {
        let list = |items: BoxedStrategy<Value>| {
            prop_oneof![
                40 => proptest::collection::vec(items, 0..3).prop_map(|v| Some(Value::Array(v))),
                10 => Just(None),
                1 => Just(Some(json!(null))),
                1 => Just(Some(json!("x"))),
            ]
        };
        (
            field(vec![json!("ml/r"), json!(null)], vec![json!(5)]),
            field(vec![json!({}), json!(null), json!("x")], vec![json!(5)]),
            list(case().boxed()),
            list(invariant().boxed()),
            extra(),
        )
            .prop_map(|(router, metadata, tests, invariants, extra)| {
                let mut doc = object(
                    vec![("router", router), ("metadata", metadata), ("tests", tests), ("invariants", invariants)],
                    extra,
                );
                doc["apiVersion"] = json!(API_VERSION);
                doc["kind"] = json!(KIND);
                doc
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Whatever the document, the schema and the reader give the same
        /// verdict.
        #[test]
        fn the_schema_and_the_reader_agree(doc in router_test_document()) {
            static VALIDATOR: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
            let validator = VALIDATOR.get_or_init(|| jsonschema::draft202012::new(&router_test()).expect("compiles"));
            let source = Source { name: "t.json".into(), text: doc.to_string() };
            let read_back = documents(&source).expect("JSON").remove(0);
            prop_assert_eq!(validator.is_valid(&read_back.value), read(&read_back).is_ok(), "{}", doc);
        }
    }

    #[test]
    fn the_schema_is_draft_2020_12() {
        assert!(jsonschema::draft202012::meta::is_valid(&router_test()));
    }

    #[test]
    fn the_schema_takes_what_the_reader_takes() {
        let taken = [
            "tests: [{name: a}]",
            "router: ml/r\nmetadata: {name: x}\ntests:\n- name: a\n  request: {model: m, headers: {x-team: a}}\n  unhealthy: [b]\n  dataPlane: Gateway\n  expect: {rule: r1, backends: [a, b], strategy: primary-fallback, status: 503}",
            "router: null\nmetadata: 5\ntests: [{name: a, request: {model: null}, dataPlane: null, expect: {rule: null, backends: null, strategy: null, status: null}}]",
            "invariants: [{name: i, never: {tier: cloud}}]",
            "invariants: [{name: i, only: {backends: [a], external: false}, unhealthy: none, dataPlane: Proxy}]",
            "invariants: [{name: i, status: 100, when: {classification: [pii], complexity: [high], models: ['gpt-*'], headers: {x: v}}}]",
            "tests: []\ninvariants: [{name: i, never: {}, status: null}]",
            "tests: [{name: a, expect: {status: 599}}]",
        ];
        for body in taken {
            assert!(agree(body), "refused:\n{body}");
        }
    }

    #[test]
    fn the_schema_refuses_what_the_reader_refuses() {
        let refused = [
            "router: ml/r",
            "tests: []\ninvariants: []",
            "tests: [{request: {model: m}}]",
            "tests: [{name: a, expected: {rule: r}}]",
            "tests: [{name: a, expect: {rule: r, status: '503'}}]",
            "tests: [{name: a, expect: {status: 65536}}]",
            "tests: [{name: a, expect: {status: -1}}]",
            "tests: [{name: a, expect: {status: 99}}]",
            "tests: [{name: a, expect: {status: 600}}]",
            "invariants: [{name: i, status: 0}]",
            "tests: [{name: a, expect: {backends: a}}]",
            "tests: [{name: a, request: null}]",
            "tests: [{name: a, request: {headers: {x: 1}}}]",
            "tests: [{name: a, request: {body: x}}]",
            "tests: [{name: a, unhealthy: null}]",
            "tests: [{name: a, dataPlane: proxy}]",
            "tests: [{name: 5}]",
            "tests: {name: a}",
            "tests: null\ninvariants: [{name: i, status: 503}]",
            "invariants: [{name: i}]",
            "invariants: [{name: i, never: null, only: null}]",
            "invariants: [{name: i, status: 503, unhealthy: some}]",
            "invariants: [{name: i, status: 503, unhealthy: null}]",
            "invariants: [{name: i, never: {tier: cloud, name: a}}]",
            "invariants: [{name: i, never: {external: 'yes'}}]",
            "invariants: [{name: i, status: 503, when: {model: [a]}}]",
            "tests: [{name: a}]\nextra: 1",
        ];
        for body in refused {
            assert!(!agree(body), "taken:\n{body}");
        }
    }
}
