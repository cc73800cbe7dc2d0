//! A CRD's OpenAPI v3 structural schema written as JSON Schema (draft
//! 2020-12), for the tools that read JSON Schema: editors through
//! yaml-language-server, kubeconform. What the API server checks and JSON
//! Schema can say is said; what it cannot say is left in `$comment`.
//!
//! The translation, node by node:
//! - `nullable: true` adds `"null"` to the type (and to an `enum`);
//! - `x-kubernetes-int-or-string` is the type `["integer", "string"]`;
//! - an object with `properties` refuses other fields
//!   (`additionalProperties: false`) unless it is
//!   `x-kubernetes-preserve-unknown-fields` (the API server prunes unknown
//!   fields with a warning: a schema tool is told of them, as `--strict`);
//! - `exclusiveMinimum: true` (OpenAPI's flag) becomes 2020-12's bound, and
//!   `format: int32` the range of an int32 where no bound is tighter;
//! - `example` becomes `examples`; `x-kubernetes-list-type: set` becomes
//!   `uniqueItems`; the keys of a `map` list and the CEL rules
//!   (`x-kubernetes-validations`) go into `$comment`.
//!
//! Pure: a JSON tree in, a JSON tree out.

use serde_json::{json, Map, Value};

/// The JSON Schema dialect written.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The JSON Schema of one `JSONSchemaProps` node and everything below it.
pub fn from_structural(node: &Value) -> Value {
    let Some(m) = node.as_object() else { return json!({}) };
    let mut out = Map::new();
    let mut comments: Vec<String> = Vec::new();
    let flag = |k: &str| m.get(k).and_then(Value::as_bool).unwrap_or(false);
    let nullable = flag("nullable");

    // The type, with null when the field takes it.
    let mut types: Vec<Value> = if flag("x-kubernetes-int-or-string") {
        vec![json!("integer"), json!("string")]
    } else {
        m.get("type").and_then(Value::as_str).map(|t| vec![json!(t)]).unwrap_or_default()
    };
    if !types.is_empty() {
        if nullable {
            types.push(json!("null"));
        }
        out.insert("type".into(), if types.len() == 1 { types.remove(0) } else { Value::Array(types) });
    }

    for key in [
        "description",
        "title",
        "format",
        "pattern",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "multipleOf",
        "uniqueItems",
        "default",
    ] {
        if let Some(v) = m.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(Value::Array(values)) = m.get("enum") {
        let mut values = values.clone();
        if nullable && !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
        out.insert("enum".into(), Value::Array(values));
    }
    if let Some(example) = m.get("example") {
        out.insert("examples".into(), json!([example]));
    }
    bound(m, "minimum", "exclusiveMinimum", &mut out);
    bound(m, "maximum", "exclusiveMaximum", &mut out);
    // JSON Schema knows no int32 format, and the API server holds an
    // integer to its range (`walk` does too): the range is the bound where
    // the schema gives none.
    if m.get("format").and_then(Value::as_str) == Some("int32") {
        if !out.contains_key("minimum") && !out.contains_key("exclusiveMinimum") {
            out.insert("minimum".into(), json!(i32::MIN));
        }
        if !out.contains_key("maximum") && !out.contains_key("exclusiveMaximum") {
            out.insert("maximum".into(), json!(i32::MAX));
        }
    }
    if let Some(Value::Array(required)) = m.get("required") {
        if !required.is_empty() {
            out.insert("required".into(), Value::Array(required.clone()));
        }
    }

    // Fields.
    let preserve = flag("x-kubernetes-preserve-unknown-fields");
    let embedded = flag("x-kubernetes-embedded-resource");
    let mut properties: Map<String, Value> = m
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.iter().map(|(k, v)| (k.clone(), from_structural(v))).collect())
        .unwrap_or_default();
    if embedded {
        // An embedded object is a whole Kubernetes object: its apiVersion,
        // kind and metadata are kept whatever its schema lists.
        for (field, schema) in [
            ("apiVersion", json!({"type": "string"})),
            ("kind", json!({"type": "string"})),
            ("metadata", json!({"type": "object"})),
        ] {
            properties.entry(field).or_insert(schema);
        }
    }
    let has_properties = !properties.is_empty();
    if has_properties {
        out.insert("properties".into(), Value::Object(properties));
    }
    match m.get("additionalProperties") {
        Some(schema @ Value::Object(_)) => {
            out.insert("additionalProperties".into(), from_structural(schema));
        }
        Some(Value::Bool(true)) => {
            out.insert("additionalProperties".into(), Value::Bool(true));
        }
        // Unknown fields are pruned: refused here, unless kept.
        _ if has_properties && !preserve => {
            out.insert("additionalProperties".into(), Value::Bool(false));
        }
        _ => {}
    }
    if let Some(items @ Value::Object(_)) = m.get("items") {
        out.insert("items".into(), from_structural(items));
    }
    for key in ["anyOf", "allOf", "oneOf"] {
        if let Some(Value::Array(schemas)) = m.get(key) {
            out.insert(key.into(), Value::Array(schemas.iter().map(from_structural).collect()));
        }
    }
    if let Some(not @ Value::Object(_)) = m.get("not") {
        out.insert("not".into(), from_structural(not));
    }

    // What JSON Schema cannot say.
    match m.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("set") => {
            out.insert("uniqueItems".into(), Value::Bool(true));
        }
        Some("map") => {
            let keys: Vec<&str> = m
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|k| k.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            comments.push(format!(
                "x-kubernetes-list-type map: no two items have the same {} (the API server refuses them; not \
                 checked by this schema)",
                keys.join(" and ")
            ));
        }
        _ => {}
    }
    if let Some(Value::Array(rules)) = m.get("x-kubernetes-validations") {
        let listed: Vec<String> = rules
            .iter()
            .filter_map(|r| {
                let rule = r.get("rule").and_then(Value::as_str)?;
                Some(match r.get("message").and_then(Value::as_str) {
                    Some(message) => format!("{rule} ({message})"),
                    None => rule.to_string(),
                })
            })
            .collect();
        if !listed.is_empty() {
            comments.push(format!(
                "x-kubernetes-validations: CEL rules the API server checks, which JSON Schema cannot express and \
                 this schema does not check: {}",
                listed.join("; ")
            ));
        }
    }
    if !comments.is_empty() {
        out.insert("$comment".into(), Value::String(comments.join(". ")));
    }
    Value::Object(out)
}

/// `minimum` with OpenAPI's `exclusiveMinimum: true` is 2020-12's
/// `exclusiveMinimum: <bound>`.
fn bound(m: &Map<String, Value>, key: &str, exclusive: &str, out: &mut Map<String, Value>) {
    let Some(value) = m.get(key) else { return };
    if m.get(exclusive).and_then(Value::as_bool) == Some(true) {
        out.insert(exclusive.into(), value.clone());
    } else {
        out.insert(key.into(), value.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validator(openapi: Value) -> jsonschema::Validator {
        let mut schema = from_structural(&openapi);
        schema["$schema"] = json!(DRAFT_2020_12);
        assert!(jsonschema::draft202012::meta::is_valid(&schema), "{schema}");
        jsonschema::draft202012::new(&schema).expect("compiles")
    }

    #[test]
    fn nullable_adds_null_to_the_type_and_the_enum() {
        let v = validator(json!({"type": "string", "nullable": true, "enum": ["a", "b"]}));
        assert!(v.is_valid(&json!("a")) && v.is_valid(&Value::Null));
        assert!(!v.is_valid(&json!("c")) && !v.is_valid(&json!(1)));
        let strict = validator(json!({"type": "string", "enum": ["a"]}));
        assert!(!strict.is_valid(&Value::Null));
    }

    #[test]
    fn int_or_string_takes_both_and_nothing_else() {
        let v =
            validator(json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}));
        assert!(v.is_valid(&json!(8080)) && v.is_valid(&json!("http")));
        assert!(!v.is_valid(&json!(1.5)) && !v.is_valid(&json!(true)) && !v.is_valid(&Value::Null));
    }

    #[test]
    fn unknown_fields_are_refused_unless_preserved() {
        let closed = validator(json!({"type": "object", "properties": {"a": {"type": "integer"}}}));
        assert!(closed.is_valid(&json!({"a": 1})));
        assert!(!closed.is_valid(&json!({"a": 1, "b": 2})));
        let open = validator(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true,
            "properties": {"a": {"type": "integer"}}}));
        assert!(open.is_valid(&json!({"a": 1, "b": {"c": []}})));
        assert!(!open.is_valid(&json!({"a": "x"})));
        let map = validator(json!({"type": "object", "additionalProperties": {"type": "string"}}));
        assert!(map.is_valid(&json!({"x": "y"})) && !map.is_valid(&json!({"x": 1})));
        let embedded = validator(json!({"type": "object", "x-kubernetes-embedded-resource": true,
            "properties": {"spec": {"type": "object"}}}));
        assert!(embedded.is_valid(&json!({"apiVersion": "v1", "kind": "Pod", "metadata": {}, "spec": {}})));
        assert!(!embedded.is_valid(&json!({"status": {}})));
    }

    #[test]
    fn bounds_lengths_patterns_and_exclusive_bounds() {
        let v = validator(json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true, "maximum": 10}));
        assert!(v.is_valid(&json!(1)) && v.is_valid(&json!(10)));
        assert!(!v.is_valid(&json!(0)) && !v.is_valid(&json!(11)));
        let s = validator(json!({"type": "string", "minLength": 2, "pattern": "^[a-z]+$"}));
        assert!(s.is_valid(&json!("ab")));
        assert!(!s.is_valid(&json!("a")) && !s.is_valid(&json!("AB")));
        let list = validator(json!({"type": "array", "minItems": 1, "items": {"type": "string"},
            "x-kubernetes-list-type": "set"}));
        assert!(list.is_valid(&json!(["a", "b"])));
        assert!(!list.is_valid(&json!([])) && !list.is_valid(&json!(["a", "a"])) && !list.is_valid(&json!([1])));
    }

    #[test]
    fn an_int32_is_held_to_its_range() {
        let v = validator(json!({"type": "integer", "format": "int32", "minimum": 0}));
        assert!(v.is_valid(&json!(2147483647)));
        assert!(!v.is_valid(&json!(2147483648_i64)) && !v.is_valid(&json!(-1)));
        let v = validator(json!({"type": "integer", "format": "int32"}));
        assert!(v.is_valid(&json!(-2147483648_i64)) && !v.is_valid(&json!(-2147483649_i64)));
    }

    #[test]
    fn defaults_examples_and_required_are_kept() {
        let schema = from_structural(&json!({"type": "object", "required": ["a"], "properties": {
            "a": {"type": "string", "default": "x", "example": "y", "description": "A."}}}));
        assert_eq!(schema["required"], json!(["a"]));
        assert_eq!(
            schema["properties"]["a"],
            json!({"type": "string", "default": "x", "examples": ["y"], "description": "A."})
        );
    }

    #[test]
    fn what_json_schema_cannot_say_is_a_comment() {
        let schema = from_structural(&json!({"type": "array",
            "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "x-kubernetes-validations": [{"rule": "self.size() < 5", "message": "at most 4"}],
            "items": {"type": "object", "properties": {"name": {"type": "string"}}}}));
        let comment = schema["$comment"].as_str().unwrap_or_default();
        assert!(comment.contains("no two items have the same name"), "{comment}");
        assert!(comment.contains("self.size() < 5 (at most 4)"), "{comment}");
        assert!(schema.get("x-kubernetes-validations").is_none());
    }
}
