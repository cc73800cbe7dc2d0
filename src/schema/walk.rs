//! A value checked against a compiled structural schema, as the API server
//! checks a custom resource before it stores it, each finding with its
//! field path.
//!
//! Mirrors k8s.io/apiextensions-apiserver: `pkg/apiserver/validation`
//! (type, enum, pattern, format, bounds, lengths, item counts, required,
//! `x-kubernetes-int-or-string`, `anyOf`/`allOf`/`oneOf`/`not`),
//! `pkg/apiserver/schema/listtype` (`set` and `map` lists hold no
//! duplicates), and the pruning of null map values (`defaults`), said as a
//! warning where the value is. The CEL rules are `cel`'s.
//!
//! Formats checked: `int32` and `int64` (their ranges). Other formats the
//! API server knows (`date-time`, `uri`, ...) are not used by the CRDs
//! routerctl reads and pass unchecked.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::structural::{dropped_null, Schema};
use super::text::{found, quote, suggest};
use super::{Finding, Severity};
use crate::diagnostic::{rules, Rule};
use crate::input::yaml::display_path;
use crate::input::{child_path, describe, item_path, push_child, push_index};

/// Rules a caller adds to the schema's: given a path and its value, their findings.
pub type ExtraRules = dyn Fn(&str, &Value) -> Vec<Finding>;

/// What a check may consult beyond the value: the text of plain scalars
/// kubectl read as booleans or numbers (for the quote-it hint).
pub struct Walk<'w> {
    pub findings: Vec<Finding>,
    pub written: &'w dyn Fn(&str) -> Option<String>,
    /// Rules beyond the schema, asked at every value of the right type,
    /// so that their findings come in document order with the schema's.
    pub extra: Option<&'w ExtraRules>,
}

impl<'w> Walk<'w> {
    pub fn new(written: &'w dyn Fn(&str) -> Option<String>) -> Walk<'w> {
        Walk { findings: Vec::new(), written, extra: None }
    }

    fn error(&mut self, path: &str, message: String) {
        self.findings.push(Finding::error(shown_path(path), message));
    }

    fn warning(&mut self, rule: &'static Rule, path: &str, message: String) {
        self.findings.push(Finding::warning(rule, shown_path(path), message));
    }

    /// Checks `value` at `path` against `s`. `key` is the field or map key
    /// the value sits under (for the quote-it hint), `None` for list items.
    pub fn check(&mut self, value: &Value, s: &Schema, path: &str, key: Option<&str>) {
        if value.is_null() {
            // A null object field is pruned as absent (the parent's
            // `required` then reports it); the caller refuses a null item.
            return;
        }
        if !self.type_ok(value, s, path, key) {
            return;
        }
        self.value_rules(value, s, path);
        for sub in &s.all_of {
            self.check_quietly(value, sub, path);
        }
        if !s.any_of.is_empty() && !s.any_of.iter().any(|sub| self.passes(value, sub, path)) {
            self.error(path, "matches none of the schemas it may take (anyOf)".to_string());
        }
        if !s.one_of.is_empty() {
            let n = s.one_of.iter().filter(|sub| self.passes(value, sub, path)).count();
            if n != 1 {
                self.error(path, format!("must match exactly one of its schemas (oneOf), matches {n}"));
            }
        }
        if let Some(not) = &s.not {
            if self.passes(value, not, path) {
                self.error(path, "matches a schema it must not match (not)".to_string());
            }
        }
        match value {
            Value::Object(map) => self.object(map, s, path),
            Value::Array(items) => self.array(items, s, path),
            _ => {}
        }
        if let Some(extra) = self.extra {
            self.findings.extend(extra(path, value));
        }
    }

    /// Whether `value` passes `s` (for anyOf/oneOf/not), without findings.
    fn passes(&self, value: &Value, s: &Schema, path: &str) -> bool {
        let mut probe = Walk::new(self.written);
        probe.extra = self.extra;
        probe.check(value, s, path, None);
        !probe.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// allOf branches: their errors are the value's, their unknown-field
    /// warnings are not (value validation does not prune).
    fn check_quietly(&mut self, value: &Value, s: &Schema, path: &str) {
        let mut probe = Walk::new(self.written);
        probe.check(value, s, path, None);
        self.findings.extend(probe.findings.into_iter().filter(|f| f.severity == Severity::Error));
    }

    /// A map value that is null where the field is not nullable: the API
    /// server drops the key (a warning; an error with --strict).
    fn null_dropped(&mut self, path: &str, s: &Schema, key: &str) {
        let instead = if s.type_.as_deref() == Some("string") {
            format!(", or write {} for an empty value", snippet(Some(key), ""))
        } else {
            String::new()
        };
        self.warning(
            rules::NULL_DROPPED,
            path,
            format!("null, which this field does not take: the API server drops the key; remove it{instead}"),
        );
    }

    /// A null list item, where the schema does not allow null.
    fn null_refused(&mut self, path: &str, s: &Schema, key: Option<&str>) {
        let message = if s.type_.as_deref() == Some("string") {
            format!(
                "must be a string, found null, which is not allowed here; use \"\" for an empty value: {}",
                snippet(key, "")
            )
        } else {
            "must not be null".to_string()
        };
        self.error(path, message);
    }

    fn type_ok(&mut self, value: &Value, s: &Schema, path: &str, key: Option<&str>) -> bool {
        let ok = match (s.type_.as_deref(), value) {
            _ if s.int_or_string => matches!(value, Value::String(_)) || is_integer(value),
            (None, _) => true,
            (Some("object"), Value::Object(_)) => true,
            (Some("array"), Value::Array(_)) => true,
            (Some("string"), Value::String(_)) => true,
            (Some("boolean"), Value::Bool(_)) => true,
            (Some("number"), Value::Number(_)) => true,
            (Some("integer"), v) => is_integer(v),
            _ => false,
        };
        if !ok {
            let expected = match (s.int_or_string, s.type_.as_deref()) {
                (true, _) => "an integer or a string",
                (_, Some("object")) => "an object",
                (_, Some("array")) => "a list",
                (_, Some("string")) => "a string",
                (_, Some("boolean")) => "a boolean",
                (_, Some("number")) => "a number",
                (_, Some("integer")) => "an integer",
                _ => "of its declared type",
            };
            let message = self.wrong_type(value, expected, s, path, key);
            self.error(path, message);
        }
        ok
    }

    fn wrong_type(&self, value: &Value, expected: &str, s: &Schema, path: &str, key: Option<&str>) -> String {
        let found = found(value);
        let wants_text = s.int_or_string || s.type_.as_deref() == Some("string");
        let text = match value {
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        let written = (self.written)(path).filter(|_| value.is_boolean() || value.is_number());
        let reading = match (&written, &text) {
            (Some(w), Some(t)) if w != t => format!(" (kubectl reads the unquoted {w} as {})", reading(value)),
            _ => String::new(),
        };
        match written.or(text) {
            // The quote-it hint, only where the quoted text would pass.
            Some(t) if wants_text && self.passes(&Value::String(t.clone()), s, path) => {
                format!("must be {expected}, found {found}{reading}; quote it: {}", snippet(key, &t))
            }
            _ => format!("must be {expected}, found {found}{reading}"),
        }
    }

    fn value_rules(&mut self, value: &Value, s: &Schema, path: &str) {
        if let Some(options) = &s.enum_ {
            if !options.contains(value) {
                let shown = |v: &Value| match v {
                    Value::String(s) => quote(s),
                    other => other.to_string(),
                };
                let listed: Vec<String> = options.iter().map(shown).collect();
                let mut message = format!("unsupported value {}; must be one of {}", shown(value), listed.join(", "));
                if let Value::String(v) = value {
                    let names: Vec<&str> = options.iter().filter_map(Value::as_str).collect();
                    if let Some(near) = suggest(v, &names) {
                        message.push_str(&format!("; did you mean {near:?}?"));
                    }
                }
                self.error(path, message);
                return;
            }
        }
        match value {
            Value::String(text) => {
                let chars = text.chars().count();
                if let Some(min) = s.min_length.filter(|m| chars < *m) {
                    let what = if min == 1 {
                        "must not be empty".to_string()
                    } else {
                        format!("must be at least {min} characters long")
                    };
                    self.error(path, what);
                }
                if let Some(max) = s.max_length.filter(|m| chars > *m) {
                    self.error(path, format!("must be at most {max} characters long, found {chars}"));
                }
                if let Some(pattern) = &s.pattern {
                    if !pattern.is_match(text) {
                        self.error(path, format!("{} does not match the pattern {:?}", quote(text), pattern.source()));
                    }
                }
            }
            Value::Number(n) => {
                let as_f = n.as_f64().unwrap_or(f64::NAN);
                let shown = n.to_string();
                if let Some(min) = s.minimum {
                    if as_f < min || (s.exclusive_minimum && as_f <= min) {
                        let op = if s.exclusive_minimum { "greater than" } else { "at least" };
                        self.error(path, format!("must be {op} {}, found {shown}", fmt_bound(min)));
                    }
                }
                if let Some(max) = s.maximum {
                    if as_f > max || (s.exclusive_maximum && as_f >= max) {
                        let op = if s.exclusive_maximum { "less than" } else { "at most" };
                        self.error(path, format!("must be {op} {}, found {shown}", fmt_bound(max)));
                    }
                }
                let range = match s.format.as_deref() {
                    Some("int32") => Some((i128::from(i32::MIN), i128::from(i32::MAX), 32)),
                    Some("int64") => Some((i128::from(i64::MIN), i128::from(i64::MAX), 64)),
                    _ => None,
                };
                if let (Some((low, high, bits)), Some(i)) = (range, integer(value)) {
                    if i < low || i > high {
                        self.error(path, format!("{shown} does not fit a {bits}-bit integer (format int{bits})"));
                    }
                }
            }
            Value::Array(items) => {
                if let Some(min) = s.min_items.filter(|m| items.len() < *m) {
                    let plural = if min == 1 { "item" } else { "items" };
                    self.error(path, format!("must have at least {min} {plural}"));
                }
                if let Some(max) = s.max_items.filter(|m| items.len() > *m) {
                    self.error(path, format!("must have at most {max} items, found {}", items.len()));
                }
            }
            Value::Object(map) => {
                if let Some(min) = s.min_properties.filter(|m| map.len() < *m) {
                    self.error(path, format!("must have at least {min} entries"));
                }
                if let Some(max) = s.max_properties.filter(|m| map.len() > *m) {
                    self.error(path, format!("must have at most {max} entries, found {}", map.len()));
                }
            }
            _ => {}
        }
    }

    fn object(&mut self, map: &Map<String, Value>, s: &Schema, path: &str) {
        for name in &s.required {
            match map.get(name) {
                None => self.error(&child_path(path, name), "required".to_string()),
                Some(Value::Null) => self.error(&child_path(path, name), "required, found null".to_string()),
                Some(_) => {}
            }
        }
        // One buffer for every child's path, rather than one string each.
        let mut child = String::with_capacity(path.len() + 32);
        for (key, v) in map {
            // ObjectMeta is the API server's own (a caller checks it apart), and a
            // user's `status` never reaches the object through the status
            // subresource: neither is the CRD schema's business.
            if path.is_empty() && matches!(key.as_str(), "apiVersion" | "kind" | "metadata" | "status") {
                continue;
            }
            child.clear();
            child.push_str(path);
            push_child(&mut child, key);
            let field = s.properties.get(key).or(s.additional_properties.as_deref());
            // ObjectMeta is not pruned by the CRD's schema: a null there is
            // refused (in a list or a map) or absent (a field), as before.
            let in_metadata = path == "metadata" || path.starts_with("metadata.");
            if let Some(field) = field {
                // A required field's null is the `required` error above.
                if in_metadata && v.is_null() && !s.properties.contains_key(key) && !field.nullable {
                    self.null_refused(&child, field, Some(key));
                } else if !in_metadata && dropped_null(v, field) && !s.required.iter().any(|r| r == key) {
                    self.null_dropped(&child, field, key);
                } else {
                    self.check(v, field, &child, Some(key));
                }
            } else if !s.additional_any && !s.preserve_unknown_fields && s.type_.as_deref() == Some("object") {
                let known = s.field_names();
                let message = match suggest(key, &known) {
                    Some(near) => format!("unknown field; did you mean {near}?"),
                    None if path.is_empty() || known.is_empty() => "unknown field".to_string(),
                    None => format!("unknown field; known fields here: {}", known.join(", ")),
                };
                self.warning(rules::UNKNOWN_FIELD, &child, message);
            }
        }
    }

    fn array(&mut self, items: &[Value], s: &Schema, path: &str) {
        if let Some(item_schema) = s.items.as_deref() {
            let mut child = String::with_capacity(path.len() + 8);
            for (i, item) in items.iter().enumerate() {
                child.clear();
                child.push_str(path);
                push_index(&mut child, i);
                if item.is_null() && !item_schema.nullable {
                    self.null_refused(&child, item_schema, None);
                } else {
                    self.check(item, item_schema, &child, None);
                }
            }
        }
        match s.list_type.as_deref() {
            Some("set") => {
                let mut seen = HashSet::new();
                for (i, item) in items.iter().enumerate() {
                    if !seen.insert(item.to_string()) {
                        self.error(&item_path(path, i), format!("duplicate value {item} in a set"));
                    }
                }
            }
            Some("map") if !s.list_map_keys.is_empty() => {
                let mut seen = HashSet::new();
                for (i, item) in items.iter().enumerate() {
                    let key: Vec<String> =
                        s.list_map_keys.iter().map(|k| item.get(k).map(Value::to_string).unwrap_or_default()).collect();
                    if !seen.insert(key.clone()) {
                        let named: Vec<String> =
                            s.list_map_keys.iter().zip(&key).map(|(k, v)| format!("{k}={v}")).collect();
                        self.error(&item_path(path, i), format!("duplicate entry with key {}", named.join(", ")));
                    }
                }
            }
            _ => {}
        }
    }
}

fn shown_path(path: &str) -> String {
    display_path(path).to_string()
}

fn is_integer(v: &Value) -> bool {
    integer(v).is_some()
}

fn integer(v: &Value) -> Option<i128> {
    let n = v.as_number()?;
    n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))
}

fn fmt_bound(b: f64) -> String {
    if b.fract() == 0.0 && b.abs() < 1e15 {
        format!("{}", b as i64)
    } else {
        b.to_string()
    }
}

fn reading(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.is_f64() => format!("the number {n}"),
        Value::Number(n) => format!("the integer {n}"),
        other => describe(other).to_string(),
    }
}

/// `key: "text"`, `"odd key": "text"` or `- "text"`: the line to write.
fn snippet(key: Option<&str>, text: &str) -> String {
    let value = format!("{text:?}");
    let plain = |k: &str| {
        k.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
            && k.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
    };
    match key {
        Some(k) if plain(k) => format!("{k}: {value}"),
        Some(k) => format!("{k:?}: {value}"),
        None => format!("- {value}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::defaults::prune;
    use serde_json::json;

    fn schema(s: Value) -> Schema {
        Schema::compile(&s).expect("compiles")
    }

    /// Findings of `value` against `s`, as `E path: message` lines.
    fn check(s: &Schema, value: Value) -> Vec<String> {
        let mut walk = Walk::new(&|_| None);
        walk.check(&value, s, "x", Some("x"));
        walk.findings
            .iter()
            .map(|f| format!("{} {}", if f.severity == Severity::Error { "E" } else { "W" }, f))
            .collect()
    }

    // One keyword at a time; expectations from the keyword's meaning in
    // JSON Schema as apiextensions-apiserver applies it.

    #[test]
    fn type_keyword() {
        let s = schema(json!({"type": "integer"}));
        assert!(check(&s, json!(3)).is_empty());
        assert_eq!(check(&s, json!(3.5)), ["E x: must be an integer, found the number 3.5"]);
        assert_eq!(check(&s, json!("3")), ["E x: must be an integer, found a string \"3\""]);
        let s = schema(json!({"type": "string"}));
        assert_eq!(check(&s, json!(true)), ["E x: must be a string, found the boolean true; quote it: x: \"true\""]);
        let s = schema(json!({"type": "boolean"}));
        assert_eq!(check(&s, json!("yes")), ["E x: must be a boolean, found a string \"yes\""]);
        let s = schema(json!({"type": "number"}));
        assert!(check(&s, json!(1.5)).is_empty());
    }

    #[test]
    fn required_and_unknown_fields() {
        let s = schema(json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {}}}));
        assert_eq!(check(&s, json!({})), ["E x.a: required"]);
        assert_eq!(check(&s, json!({"a": null})), ["E x.a: required, found null"]);
        assert_eq!(check(&s, json!({"a": "v", "zzz": 1})), ["W x.zzz: unknown field; known fields here: a, b"]);
        assert_eq!(check(&s, json!({"a": "v", "bb": 1})), ["W x.bb: unknown field; did you mean b?"]);
        let open = schema(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
        assert!(check(&open, json!({"anything": 1})).is_empty());
    }

    #[test]
    fn enum_keyword() {
        let s = schema(json!({"type": "string", "enum": ["Static", "Dynamic"]}));
        assert!(check(&s, json!("Static")).is_empty());
        assert_eq!(
            check(&s, json!("static")),
            ["E x: unsupported value \"static\"; must be one of \"Static\", \"Dynamic\"; did you mean \"Static\"?"]
        );
    }

    #[test]
    fn pattern_and_lengths() {
        let s = schema(json!({"type": "string", "pattern": "^[a-z]+$", "minLength": 2, "maxLength": 3}));
        assert!(check(&s, json!("ab")).is_empty());
        assert_eq!(check(&s, json!("a")), ["E x: must be at least 2 characters long"]);
        assert_eq!(check(&s, json!("abcd")), ["E x: must be at most 3 characters long, found 4"]);
        assert_eq!(check(&s, json!("A1")), ["E x: \"A1\" does not match the pattern \"^[a-z]+$\""]);
        assert!(Schema::compile(&json!({"pattern": "("})).is_err(), "a pattern that does not compile");
    }

    #[test]
    fn bounds_and_formats() {
        let s = schema(json!({"type": "integer", "minimum": 1, "maximum": 10, "format": "int32"}));
        assert_eq!(check(&s, json!(0)), ["E x: must be at least 1, found 0"]);
        assert_eq!(check(&s, json!(11)), ["E x: must be at most 10, found 11"]);
        let s = schema(json!({"type": "number", "minimum": 0, "exclusiveMinimum": true}));
        assert_eq!(check(&s, json!(0)), ["E x: must be greater than 0, found 0"]);
        let s = schema(json!({"type": "integer", "format": "int32"}));
        assert_eq!(check(&s, json!(2147483648_i64)), ["E x: 2147483648 does not fit a 32-bit integer (format int32)"]);
        let s = schema(json!({"type": "integer", "format": "int64"}));
        assert_eq!(
            check(&s, json!(u64::MAX)),
            ["E x: 18446744073709551615 does not fit a 64-bit integer (format int64)"]
        );
    }

    #[test]
    fn item_and_property_counts() {
        let s = schema(json!({"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string"}}));
        assert_eq!(check(&s, json!([])), ["E x: must have at least 1 item"]);
        assert_eq!(check(&s, json!(["a", "b", "c"])), ["E x: must have at most 2 items, found 3"]);
        assert_eq!(check(&s, json!(["a", 1])), ["E x[1]: must be a string, found the number 1; quote it: - \"1\""]);
        let s = schema(json!({"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}}));
        assert_eq!(check(&s, json!({})), ["E x: must have at least 1 entries"]);
    }

    /// Each finding says what it is as data: a reader of findings never
    /// tells an unknown field from a dropped null by its wording.
    #[test]
    fn findings_carry_their_rule() {
        let s = schema(json!({"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": "integer"}}}));
        let mut walk = Walk::new(&|_| None);
        walk.check(&json!({"a": null, "b": 1, "n": "x"}), &s, "", None);
        let mut rules: Vec<(&str, &str)> = walk.findings.iter().map(|f| (f.path.as_str(), f.rule.id)).collect();
        rules.sort_unstable();
        assert_eq!(rules, [("a", "schema-null-dropped"), ("b", "schema-unknown-field"), ("n", "schema")]);
    }

    #[test]
    fn additional_properties_and_nulls() {
        let s = schema(json!({"type": "object", "additionalProperties": {"type": "string"}}));
        assert!(check(&s, json!({"a": "b"})).is_empty());
        // Dropped by the API server (a warning), not refused.
        assert_eq!(
            check(&s, json!({"a": null})),
            ["W x.a: null, which this field does not take: the API server drops the key; remove it, or write a: \"\" for an empty value"]
        );
        let mut dropped = json!({"a": null, "b": "c"});
        prune(&mut dropped, &s);
        assert_eq!(dropped, json!({"b": "c"}));
        // A null list item is not a key: it is refused.
        let list = schema(json!({"type": "array", "items": {"type": "string"}}));
        assert_eq!(
            check(&list, json!([null])),
            ["E x[0]: must be a string, found null, which is not allowed here; use \"\" for an empty value: - \"\""]
        );
        let nullable = schema(json!({"type": "object", "additionalProperties": {"type": "string", "nullable": true}}));
        assert!(check(&nullable, json!({"a": null})).is_empty());
        let any = schema(json!({"type": "object", "additionalProperties": true}));
        assert!(check(&any, json!({"a": [1]})).is_empty());
    }

    #[test]
    fn int_or_string() {
        let s = schema(json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}));
        assert!(check(&s, json!(3)).is_empty());
        assert!(check(&s, json!("3Gi")).is_empty());
        assert_eq!(
            check(&s, json!(0.5)),
            ["E x: must be an integer or a string, found the number 0.5; quote it: x: \"0.5\""]
        );
    }

    #[test]
    fn list_types() {
        let set = schema(json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}));
        assert_eq!(check(&set, json!(["a", "b", "a"])), ["E x[2]: duplicate value \"a\" in a set"]);
        let map = schema(json!({
            "type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "properties": {"name": {"type": "string"}}}
        }));
        assert_eq!(check(&map, json!([{"name": "a"}, {"name": "a"}])), ["E x[1]: duplicate entry with key name=\"a\""]);
        let atomic = schema(json!({"type": "array", "items": {"type": "string"}}));
        assert!(check(&atomic, json!(["a", "a"])).is_empty(), "atomic lists may repeat");
    }

    #[test]
    fn combinators() {
        let any = schema(json!({"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "integer"}]}));
        assert!(check(&any, json!("abc")).is_empty());
        assert_eq!(check(&any, json!("b")), ["E x: matches none of the schemas it may take (anyOf)"]);
        let one = schema(json!({"oneOf": [{"minimum": 1}, {"maximum": 5}]}));
        assert_eq!(check(&one, json!(3)), ["E x: must match exactly one of its schemas (oneOf), matches 2"]);
        let not = schema(json!({"not": {"enum": ["forbidden"]}}));
        assert_eq!(check(&not, json!("forbidden")), ["E x: matches a schema it must not match (not)"]);
        let all = schema(json!({"allOf": [{"minimum": 1}, {"maximum": 5}]}));
        assert_eq!(check(&all, json!(9)), ["E x: must be at most 5, found 9"]);
    }
}
