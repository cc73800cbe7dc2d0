//! A CRD's OpenAPI v3 structural schema, walked generically: the checks the
//! API server makes before it stores a custom resource, and the defaults it
//! applies, from one compiled tree.
//!
//! Mirrors k8s.io/apiextensions-apiserver: `pkg/apiserver/validation`
//! (type, enum, pattern, format, bounds, lengths, item counts, required,
//! `x-kubernetes-int-or-string`, `anyOf`/`allOf`/`oneOf`/`not`),
//! `pkg/apiserver/schema/pruning` (a field the schema does not know is
//! dropped, unless `x-kubernetes-preserve-unknown-fields`),
//! `pkg/apiserver/schema/defaulting` (defaults only inside objects that
//! exist; a null that is not `nullable` counts as absent, and is dropped
//! when the field has no default: `PruneNonNullableNullsWithoutDefaults`,
//! which runs before defaulting) and
//! `pkg/apiserver/schema/listtype` (`set` and `map` lists hold no
//! duplicates). CEL rules (`x-kubernetes-validations`) are evaluated with
//! kube-cel, which implements Kubernetes' CEL libraries.
//!
//! Formats checked: `int32` and `int64` (their ranges). Other formats the
//! API server knows (`date-time`, `uri`, ...) are not used by the CRDs
//! routerctl reads and pass unchecked.

use std::collections::{BTreeMap, HashSet};

use regex::Regex;
use serde_json::{Map, Value};

use super::{Finding, Severity};
use crate::input::yaml::display_path;
use crate::input::{child_path, describe, item_path, push_child, push_index};

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

// ---------------------------------------------------------------------------
// Defaults.

/// `x` is null where the schema does not allow null.
fn non_nullable_null(x: &Value, s: &Schema) -> bool {
    x.is_null() && !s.nullable
}

/// A map value the API server drops before defaulting: null where the
/// field is not nullable and has no default to take its place.
fn dropped_null(x: &Value, s: &Schema) -> bool {
    non_nullable_null(x, s) && s.default.is_none()
}

/// The API server's defaulting walk over `x` with schema `s`.
pub fn apply_defaults(x: &mut Value, s: &Schema) {
    if !s.defaults_below {
        return;
    }
    match x {
        Value::Object(m) => {
            for (key, prop) in &s.properties {
                let Some(default) = &prop.default else { continue };
                if m.get(key).is_none_or(|v| non_nullable_null(v, prop)) {
                    m.insert(key.clone(), default.clone());
                }
            }
            for (key, v) in m.iter_mut() {
                if let Some(prop) = s.properties.get(key) {
                    apply_defaults(v, prop);
                } else if let Some(extra) = s.additional_properties.as_deref() {
                    if non_nullable_null(v, extra) {
                        if let Some(default) = &extra.default {
                            *v = default.clone();
                        }
                    }
                    apply_defaults(v, extra);
                }
            }
        }
        Value::Array(items) => {
            let Some(item_schema) = s.items.as_deref() else { return };
            for v in items {
                if non_nullable_null(v, item_schema) {
                    if let Some(default) = &item_schema.default {
                        *v = default.clone();
                    }
                }
                apply_defaults(v, item_schema);
            }
        }
        _ => {}
    }
}

/// The API server's pruning: every field the schema does not know is
/// dropped (kept under `x-kubernetes-preserve-unknown-fields` or a schema
/// for additional properties). `metadata` and `status` at the top are not
/// the schema's.
pub fn prune(x: &mut Value, s: &Schema) {
    prune_at(x, s, true);
}

fn prune_at(x: &mut Value, s: &Schema, top: bool) {
    match x {
        Value::Object(m) => {
            if s.preserve_unknown_fields && s.properties.is_empty() && s.additional_properties.is_none() {
                return;
            }
            let keep_unknown = s.preserve_unknown_fields || s.additional_any || s.type_.is_none();
            m.retain(|key, v| {
                if top && (key == "metadata" || key == "status" || key == "apiVersion" || key == "kind") {
                    return true;
                }
                match s.properties.get(key).or(s.additional_properties.as_deref()) {
                    Some(field) => !dropped_null(v, field),
                    None => keep_unknown,
                }
            });
            for (key, v) in m.iter_mut() {
                // As in the check: the top-level identity fields, metadata
                // and status are not the schema's to prune inside.
                if top && matches!(key.as_str(), "metadata" | "status" | "apiVersion" | "kind") {
                    continue;
                }
                if let Some(prop) = s.properties.get(key) {
                    prune_at(v, prop, false);
                } else if let Some(extra) = s.additional_properties.as_deref() {
                    prune_at(v, extra, false);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for v in items {
                    prune_at(v, item_schema, false);
                }
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// Checks.

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
        self.findings.push(Finding { severity: Severity::Error, path: shown_path(path), message });
    }

    fn warning(&mut self, path: &str, message: String) {
        self.findings.push(Finding { severity: Severity::Warning, path: shown_path(path), message });
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
                    if let Some(near) = super::schema::suggest(v, &names) {
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
                if let Some((source, re)) = &s.pattern {
                    if !re.is_match(text) {
                        self.error(path, format!("{} does not match the pattern {source:?}", quote(text)));
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
            // ObjectMeta is the API server's own (see `metadata`), and a
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
                let message = match super::schema::suggest(key, &known) {
                    Some(near) => format!("unknown field; did you mean {near}?"),
                    None if path.is_empty() || known.is_empty() => "unknown field".to_string(),
                    None => format!("unknown field; known fields here: {}", known.join(", ")),
                };
                self.warning(&child, message);
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

/// Evaluates the schema's CEL rules (`x-kubernetes-validations`) on a
/// whole object, as the API server does after the structural checks; rules
/// that would run past the API server's cost budgets on this object are
/// refused instead of run (`cel_cost`).
pub fn check_rules(schema_json: &Value, object: &Value) -> Vec<Finding> {
    let over_budget = super::cel_cost::check_object(schema_json, object);
    if !over_budget.is_empty() {
        return over_budget.into_iter().map(|f| Finding { path: shown_path(&f.path), ..f }).collect();
    }
    let validator = kube_cel::Validator::new();
    match validator.validate(schema_json, object, None) {
        Ok(()) => Vec::new(),
        Err(errors) => errors
            .into_vec()
            .into_iter()
            .map(|e| {
                Finding::error(
                    shown_path(&e.field_path).to_string(),
                    format!("{} (x-kubernetes-validations rule)", e.message),
                )
            })
            .collect(),
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

pub fn found(v: &Value) -> String {
    match v {
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("a string {}", quote(s)),
        Value::Array(a) if a.is_empty() => "an empty list".to_string(),
        Value::Object(_) => "an object".to_string(),
        Value::Null => "null".to_string(),
        other => describe(other).to_string(),
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

fn quote(s: &str) -> String {
    super::schema::quote(s)
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
        let s = schema(json!({"type": "string", "enum": ["Static", "BackendNameMatch"]}));
        assert!(check(&s, json!("Static")).is_empty());
        assert_eq!(
            check(&s, json!("static")),
            ["E x: unsupported value \"static\"; must be one of \"Static\", \"BackendNameMatch\"; did you mean \"Static\"?"]
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

    #[test]
    fn defaults_only_inside_objects_that_exist() {
        let s = schema(json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "integer", "default": 5}}},
            "c": {"type": "string", "default": "d"},
            "n": {"type": "string", "nullable": true, "default": "e"}
        }}));
        let mut v = json!({"n": null});
        apply_defaults(&mut v, &s);
        assert_eq!(v, json!({"c": "d", "n": null}), "no `a` is created; a nullable null stays");
        let mut v = json!({"a": {}, "c": "mine"});
        apply_defaults(&mut v, &s);
        assert_eq!(v, json!({"a": {"b": 5}, "c": "mine", "n": "e"}), "an absent field gets its default");
    }

    #[test]
    fn pruning_drops_what_the_schema_does_not_know() {
        let s = schema(json!({"type": "object", "properties": {
            "apiVersion": {"type": "string"},
            "spec": {"type": "object", "properties": {"keep": {"type": "string"},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "map": {"type": "object", "additionalProperties": {"type": "object", "properties": {"k": {}}}}}}
        }}));
        let mut v = json!({"apiVersion": "v", "kind": "K", "metadata": {"name": "n", "odd": 1}, "extra": 1,
            "spec": {"keep": "a", "drop": "b", "free": {"x": 1}, "map": {"m": {"k": 1, "gone": 2}}}});
        prune(&mut v, &s);
        assert_eq!(
            v,
            json!({"apiVersion": "v", "kind": "K", "metadata": {"name": "n", "odd": 1},
                "spec": {"keep": "a", "free": {"x": 1}, "map": {"m": {"k": 1}}}})
        );
    }

    #[test]
    fn cel_rules() {
        let s = json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"replicas": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.replicas >= 2", "message": "at least two replicas"}]}}});
        assert!(check_rules(&s, &json!({"spec": {"replicas": 2}})).is_empty());
        let found = check_rules(&s, &json!({"spec": {"replicas": 1}}));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, "spec");
        assert!(found[0].message.starts_with("at least two replicas"), "{}", found[0].message);
        assert!(Schema::compile(&s).expect("compiles").has_rules);
    }
}
