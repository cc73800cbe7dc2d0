//! A CRD's OpenAPI v3 structural schema, compiled once from its
//! `JSONSchemaProps` tree into the one node type the check (`walk`), the
//! pruning and the defaults (`defaults`) all read, and the two rules of
//! how the API server reads a null against it.

use std::collections::BTreeMap;
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::{Arc, OnceLock};

use regex::Regex;
use regex_automata::nfa::thompson::{self, pikevm, pikevm::PikeVM};
use regex_automata::util::pool::Pool;
use serde_json::Value;

use crate::input::child_path;

/// One compiled schema node.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    /// `type`: object, array, string, integer, number, boolean (or none).
    pub type_: Option<String>,
    pub format: Option<String>,
    pub enum_: Option<Vec<Value>>,
    pub pattern: Option<Pattern>,
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
        Self::compile_at(schema, "", true)
    }

    /// Compiles one of the schemas routerctl carries, without checking
    /// the syntax of its patterns: a test checks each of them with
    /// `compile`, and the check costs more than the rest of a small run.
    pub fn compile_built_in(schema: &Value) -> Result<Schema, String> {
        Self::compile_at(schema, "", false)
    }

    fn compile_at(schema: &Value, path: &str, check: bool) -> Result<Schema, String> {
        let Some(m) = schema.as_object() else { return Ok(Schema::default()) };
        let list = |v: &Value| -> Result<Vec<Schema>, String> {
            v.as_array().map(|v| v.iter().map(|s| Self::compile_at(s, path, check)).collect()).unwrap_or(Ok(Vec::new()))
        };
        let strings = |v: &Value| -> Vec<String> {
            v.as_array().map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect()).unwrap_or_default()
        };
        // A node's path only names a pattern that does not compile: the
        // built-in schemas' patterns are not checked, so their paths are
        // not built (a string for each of their nodes at every start).
        let below = |step: &str| if check { child_path(path, step) } else { String::new() };
        let items_path = || if check { format!("{path}[*]") } else { String::new() };
        let string = |v: &Value| v.as_str().map(str::to_string);
        let count = |v: &Value| v.as_u64().map(|n| n as usize);
        let flag = |v: &Value| v.as_bool().unwrap_or(false);
        // One pass over the node's keys: a CRD has thousands of nodes and
        // most set three or four of the thirty keys read here.
        let mut compiled = Schema::default();
        for (key, v) in m {
            match key.as_str() {
                "type" => compiled.type_ = string(v),
                "format" => compiled.format = string(v),
                "enum" => compiled.enum_ = v.as_array().cloned(),
                "pattern" => {
                    if let Some(p) = v.as_str() {
                        let pattern = Pattern::new(p.to_string(), check)
                            .map_err(|(p, e)| format!("{}: pattern {p:?} does not compile: {e}", shown(path)))?;
                        compiled.pattern = Some(pattern);
                    }
                }
                "minimum" => compiled.minimum = v.as_f64(),
                "maximum" => compiled.maximum = v.as_f64(),
                "exclusiveMinimum" => compiled.exclusive_minimum = flag(v),
                "exclusiveMaximum" => compiled.exclusive_maximum = flag(v),
                "minLength" => compiled.min_length = count(v),
                "maxLength" => compiled.max_length = count(v),
                "minItems" => compiled.min_items = count(v),
                "maxItems" => compiled.max_items = count(v),
                "minProperties" => compiled.min_properties = count(v),
                "maxProperties" => compiled.max_properties = count(v),
                "required" => compiled.required = strings(v),
                "properties" => {
                    if let Some(props) = v.as_object() {
                        for (k, v) in props {
                            compiled.properties.insert(k.clone(), Self::compile_at(v, &below(k), check)?);
                        }
                    }
                }
                "additionalProperties" => match v {
                    Value::Object(_) => {
                        let additional = Self::compile_at(v, &below("*"), check)?;
                        compiled.additional_properties = Some(Box::new(additional));
                    }
                    Value::Bool(b) => compiled.additional_any = *b,
                    _ => {}
                },
                "items" if v.is_object() => {
                    compiled.items = Some(Box::new(Self::compile_at(v, &items_path(), check)?));
                }
                "nullable" => compiled.nullable = flag(v),
                "default" => compiled.default = Some(v.clone()),
                "x-kubernetes-int-or-string" => compiled.int_or_string = flag(v),
                "x-kubernetes-preserve-unknown-fields" => compiled.preserve_unknown_fields = flag(v),
                "x-kubernetes-list-type" => compiled.list_type = string(v),
                "x-kubernetes-list-map-keys" => compiled.list_map_keys = strings(v),
                "anyOf" => compiled.any_of = list(v)?,
                "allOf" => compiled.all_of = list(v)?,
                "oneOf" => compiled.one_of = list(v)?,
                "not" => compiled.not = Some(Box::new(Self::compile_at(v, path, check)?)),
                "x-kubernetes-validations" => compiled.has_rules = v.as_array().is_some_and(|r| !r.is_empty()),
                _ => {}
            }
        }
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

/// A `pattern`, its syntax checked when the schema is compiled and its
/// matchers built on the first value they judge: building every pattern of
/// a CRD up front was half of a one-router run's instructions, and most
/// runs judge one or two of them. A value of at most [`SHORT_VALUE`] bytes
/// (a name, a quantity: nearly every value a pattern meets) is judged by a
/// PikeVM alone, built from one NFA in about a third of the instructions of
/// a full regex (which compiles a forward and a reverse NFA for its lazy
/// DFA; a name's `{0,62}` is 62 states in each); a longer value by the full
/// regex, built on the first such value, whose lazy DFA keeps a long value
/// fast. Both read the pattern with the same syntax and limits, and say
/// the same of every value (a property test holds them to it).
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    /// `None` inside: past the size limit, the pattern matches nothing.
    short: OnceLock<Option<Arc<ShortMatcher>>>,
    matcher: OnceLock<Regex>,
}

/// The longest value the PikeVM judges: its time grows with the value's
/// length times the pattern's states, where the full regex's lazy DFA is
/// linear in the value alone.
const SHORT_VALUE: usize = 256;

/// The `regex` crate's own limit on a pattern's compiled size, which the
/// PikeVM keeps too: a pattern past it matches nothing with either.
const SIZE_LIMIT: usize = 10 * (1 << 20);

type CacheFn = Box<dyn Fn() -> pikevm::Cache + Send + Sync + UnwindSafe + RefUnwindSafe>;

/// A PikeVM and the search caches of the threads that use it.
struct ShortMatcher {
    vm: PikeVM,
    caches: Pool<pikevm::Cache, CacheFn>,
}

impl std::fmt::Debug for ShortMatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShortMatcher").field("vm", &self.vm).finish_non_exhaustive()
    }
}

impl ShortMatcher {
    /// `None` past the size limit.
    fn new(source: &str) -> Option<Arc<ShortMatcher>> {
        // No capture groups: whether a value matches is all a schema asks.
        let config =
            thompson::Config::new().which_captures(thompson::WhichCaptures::None).nfa_size_limit(Some(SIZE_LIMIT));
        let vm = PikeVM::builder().thompson(config).build(source).ok()?;
        let for_cache = vm.clone();
        let caches = Pool::new(Box::new(move || for_cache.create_cache()) as CacheFn);
        Some(Arc::new(ShortMatcher { vm, caches }))
    }

    fn is_match(&self, text: &str) -> bool {
        self.vm.is_match(&mut self.caches.get(), text)
    }
}

impl Pattern {
    /// Checks the syntax (a pattern that does not parse is refused as the
    /// API server refuses such a CRD), leaving the matchers to `is_match`.
    fn new(source: String, check: bool) -> Result<Pattern, (String, String)> {
        if check {
            if let Err(e) = regex_syntax::Parser::new().parse(&source) {
                return Err((source, e.to_string()));
            }
        }
        Ok(Pattern { source, short: OnceLock::new(), matcher: OnceLock::new() })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether `text` matches. A pattern whose syntax parsed but whose
    /// matcher cannot be built (past the regex size limit) matches
    /// nothing, so the value is refused with the pattern named.
    pub fn is_match(&self, text: &str) -> bool {
        if text.len() <= SHORT_VALUE {
            let short = self.short.get_or_init(|| ShortMatcher::new(&self.source));
            return short.as_ref().is_some_and(|m| m.is_match(text));
        }
        self.long_is_match(text)
    }

    /// The full regex's answer, whatever the value's length.
    fn long_is_match(&self, text: &str) -> bool {
        self.matcher
            .get_or_init(|| {
                Regex::new(&self.source).unwrap_or_else(|_| Regex::new("[^\\s\\S]").expect("an empty class compiles"))
            })
            .is_match(text)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The patterns of the built-in ModelRouter schema, and others of the
    /// shapes CRDs use (anchored or not, classes, alternation, counted
    /// repetition, Unicode classes, an empty match).
    const PATTERNS: [&str; 10] = [
        r"^[a-z0-9][a-z0-9-]{0,62}$",
        r"^[0-9]+(\.[0-9]+)?$",
        r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
        r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
        r"[A-Z]{2}",
        r"^\w+$",
        r"^(https?|grpc)://[^/]+(/.*)?$",
        r"\d{3}-\d{4}",
        r"x*",
        r"^$",
    ];

    fn pattern(source: &str) -> Pattern {
        Pattern::new(source.to_string(), true).expect("the pattern parses")
    }

    /// Values near what the patterns take: their own alphabet, some noise,
    /// on both sides of the PikeVM's length bound.
    fn value() -> impl Strategy<Value = String> {
        let short = "[a-z0-9.+\\-A-Z_:/ éß]{0,70}";
        let long = "[a-z0-9.-]{250,300}";
        prop_oneof![short, long, Just("a".repeat(SHORT_VALUE)), Just("a".repeat(SHORT_VALUE + 1))]
    }

    proptest! {
        #[test]
        fn the_short_and_the_full_matcher_agree_on_every_value(index in 0..PATTERNS.len(), text in value()) {
            let p = pattern(PATTERNS[index]);
            let full = Regex::new(PATTERNS[index]).expect("compiles").is_match(&text);
            prop_assert_eq!(p.is_match(&text), full, "{} on {:?}", PATTERNS[index], text);
            prop_assert_eq!(p.long_is_match(&text), full);
        }
    }

    #[test]
    fn a_name_pattern_judges_short_and_long_values() {
        let p = pattern(r"^[a-z0-9][a-z0-9-]{0,62}$");
        assert!(p.is_match("local-qwen"));
        assert!(!p.is_match("Local-Qwen"));
        assert!(p.is_match(&"a".repeat(63)));
        assert!(!p.is_match(&"a".repeat(64)));
        // Past the PikeVM's bound, the full regex answers.
        assert!(!p.is_match(&"a".repeat(SHORT_VALUE + 1)));
        assert!(p.matcher.get().is_some(), "the full regex was built for the long value");
        let digits = pattern(r"^[0-9]+$");
        assert!(digits.is_match(&"7".repeat(SHORT_VALUE + 1)));
        assert!(digits.matcher.get().is_some());
        assert!(digits.is_match("42") && digits.short.get().is_some());
    }

    #[test]
    fn a_pattern_that_does_not_parse_is_named_by_its_path_in_a_checked_schema() {
        let crd = serde_json::json!({"properties": {"spec": {"properties": {"names": {
            "items": {"properties": {"x": {"type": "string", "pattern": "(("}}}
        }}}}});
        let error = Schema::compile(&crd).expect_err("the pattern does not parse");
        assert!(error.starts_with("spec.names[*].x: pattern \"((\" does not compile"), "{error}");
        // The built-in schemas' patterns are not checked, so nothing is refused.
        assert!(Schema::compile_built_in(&crd).is_ok());
        let crd = serde_json::json!({"properties": {"labels": {"additionalProperties": {"pattern": "[z-a]"}}}});
        let error = Schema::compile(&crd).expect_err("the pattern does not parse");
        assert!(error.starts_with("labels[\"*\"]: pattern \"[z-a]\" does not compile"), "{error}");
    }

    #[test]
    fn a_pattern_past_the_size_limit_matches_nothing_short_or_long() {
        // Parses, but compiles past 10 MiB; "a" would match it otherwise.
        let source = r"(\w{100}){30}|a";
        assert!(Regex::new(source).is_err(), "the regex crate refuses it too");
        let p = pattern(source);
        assert!(!p.is_match("a"));
        assert!(!p.is_match(&"a".repeat(SHORT_VALUE + 1)));
    }
}
