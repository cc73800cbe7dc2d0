//! A CRD's OpenAPI v3 structural schema, compiled once from its
//! `JSONSchemaProps` tree into the one node type the check (`walk`), the
//! pruning and the defaults (`defaults`) all read, and the two rules of
//! how the API server reads a null against it.

use std::collections::BTreeMap;

use regex::Regex;
use serde_json::Value;

use crate::input::child_path;

/// One compiled schema node.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    /// `type`: object, array, string, integer, number, boolean (or none).
    pub type_: Option<String>,
    pub format: Option<String>,
    pub enum_: Option<Vec<Value>>,
    pub pattern: Option<(String, Regex)>,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub exclusive_minimum: bool,
    pub exclusive_maximum: bool,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
    pub required: Vec<String>,
    /// In schema order (serde_json keeps keys sorted, as the CRD lists them).
    pub properties: BTreeMap<String, Schema>,
    pub additional_properties: Option<Box<Schema>>,
    /// `additionalProperties: true` (with no schema): any value.
    pub additional_any: bool,
    pub items: Option<Box<Schema>>,
    pub nullable: bool,
    pub default: Option<Value>,
    pub int_or_string: bool,
    pub preserve_unknown_fields: bool,
    pub list_type: Option<String>,
    pub list_map_keys: Vec<String>,
    pub any_of: Vec<Schema>,
    pub all_of: Vec<Schema>,
    pub one_of: Vec<Schema>,
    pub not: Option<Box<Schema>>,
    /// Whether this node or one below it carries `x-kubernetes-validations`.
    pub has_rules: bool,
    /// Whether a node below this one has a default (else defaulting can
    /// skip the whole value).
    pub defaults_below: bool,
}

impl Schema {
    /// Compiles a `JSONSchemaProps` tree. A pattern that does not compile
    /// is an error: the API server would refuse such a CRD.
    pub fn compile(schema: &Value) -> Result<Schema, String> {
        Self::compile_at(schema, "")
    }

    fn compile_at(schema: &Value, path: &str) -> Result<Schema, String> {
        let Some(m) = schema.as_object() else { return Ok(Schema::default()) };
        let str_of = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
        let num = |k: &str| m.get(k).and_then(Value::as_f64);
        let count = |k: &str| m.get(k).and_then(Value::as_u64).map(|n| n as usize);
        let flag = |k: &str| m.get(k).and_then(Value::as_bool).unwrap_or(false);
        let list = |k: &str| -> Result<Vec<Schema>, String> {
            m.get(k)
                .and_then(Value::as_array)
                .map(|v| v.iter().map(|s| Self::compile_at(s, path)).collect())
                .unwrap_or(Ok(Vec::new()))
        };
        let pattern = match str_of("pattern") {
            Some(p) => {
                let re = Regex::new(&p).map_err(|e| format!("{}: pattern {p:?} does not compile: {e}", shown(path)))?;
                Some((p, re))
            }
            None => None,
        };
        let mut properties = BTreeMap::new();
        if let Some(props) = m.get("properties").and_then(Value::as_object) {
            for (k, v) in props {
                properties.insert(k.clone(), Self::compile_at(v, &child_path(path, k))?);
            }
        }
        let (additional_properties, additional_any) = match m.get("additionalProperties") {
            Some(Value::Object(_)) => {
                (Some(Box::new(Self::compile_at(&m["additionalProperties"], &child_path(path, "*"))?)), false)
            }
            Some(Value::Bool(b)) => (None, *b),
            _ => (None, false),
        };
        let items = match m.get("items") {
            Some(v @ Value::Object(_)) => Some(Box::new(Self::compile_at(v, &format!("{path}[*]"))?)),
            _ => None,
        };
        let mut compiled = Schema {
            type_: str_of("type"),
            format: str_of("format"),
            enum_: m.get("enum").and_then(Value::as_array).cloned(),
            pattern,
            minimum: num("minimum"),
            maximum: num("maximum"),
            exclusive_minimum: flag("exclusiveMinimum"),
            exclusive_maximum: flag("exclusiveMaximum"),
            min_length: count("minLength"),
            max_length: count("maxLength"),
            min_items: count("minItems"),
            max_items: count("maxItems"),
            min_properties: count("minProperties"),
            max_properties: count("maxProperties"),
            required: m
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
                .unwrap_or_default(),
            properties,
            additional_properties,
            additional_any,
            items,
            nullable: flag("nullable"),
            default: m.get("default").cloned(),
            int_or_string: flag("x-kubernetes-int-or-string"),
            preserve_unknown_fields: flag("x-kubernetes-preserve-unknown-fields"),
            list_type: str_of("x-kubernetes-list-type"),
            list_map_keys: m
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
                .unwrap_or_default(),
            any_of: list("anyOf")?,
            all_of: list("allOf")?,
            one_of: list("oneOf")?,
            not: match m.get("not") {
                Some(v) => Some(Box::new(Self::compile_at(v, path)?)),
                None => None,
            },
            has_rules: m.get("x-kubernetes-validations").and_then(Value::as_array).is_some_and(|r| !r.is_empty()),
            defaults_below: false,
        };
        compiled.has_rules |= compiled.properties.values().any(|p| p.has_rules)
            || compiled.additional_properties.as_ref().is_some_and(|p| p.has_rules)
            || compiled.items.as_ref().is_some_and(|p| p.has_rules);
        let defaults_in = |s: &Schema| s.default.is_some() || s.defaults_below;
        compiled.defaults_below = compiled.properties.values().any(defaults_in)
            || compiled.additional_properties.as_deref().is_some_and(defaults_in)
            || compiled.items.as_deref().is_some_and(defaults_in);
        Ok(compiled)
    }

    /// The node at a `a.b[].c` path (`[]` steps into list items).
    pub fn at(&self, path: &str) -> Option<&Schema> {
        let mut node = self;
        for step in path.split('.') {
            let (name, into_items) = match step.strip_suffix("[]") {
                Some(name) => (name, true),
                None => (step, false),
            };
            node = node.properties.get(name)?;
            if into_items {
                node = node.items.as_deref()?;
            }
        }
        Some(node)
    }

    /// The field names an object node knows, for "did you mean".
    pub fn field_names(&self) -> Vec<&str> {
        self.properties.keys().map(String::as_str).collect()
    }
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "(schema root)"
    } else {
        path
    }
}

/// `x` is null where the schema does not allow null.
pub(super) fn non_nullable_null(x: &Value, s: &Schema) -> bool {
    x.is_null() && !s.nullable
}

/// A map value the API server drops before defaulting: null where the
/// field is not nullable and has no default to take its place
/// (`PruneNonNullableNullsWithoutDefaults`, which runs before defaulting).
pub(super) fn dropped_null(x: &Value, s: &Schema) -> bool {
    non_nullable_null(x, s) && s.default.is_none()
}
