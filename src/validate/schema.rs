//! The ModelRouter CRD's structural schema, checked offline.
//!
//! The API server validates a custom resource against the CRD's
//! `openAPIV3Schema` before it stores it. This module carries that schema for
//! `inference.llmkube.dev/v1alpha1` ModelRouter as a small static description
//! ([`Node`]), written by hand from the CRD (plus `spec.proxy.podLabels` and
//! `spec.proxy.podAnnotations`, which are newer than the copy it was read
//! from), and walks a parsed manifest against it.
//!
//! What is refused ([`Severity::Error`]): a value of the wrong JSON type, a
//! missing required field, a value outside an enum, a string not matching a
//! pattern, a number outside its minimum/maximum or its 32/64-bit format, a
//! list shorter than its `minItems`, a duplicate key in a `map`-type list,
//! and metadata syntax the API server (or, for the pod-template maps, the
//! Deployment the operator writes) would refuse: `metadata.name`,
//! `metadata.namespace`, `metadata.labels`/`annotations`,
//! `spec.proxy.podLabels`/`podAnnotations`/`nodeSelector`.
//!
//! What is only warned about ([`Severity::Warning`]): a field the schema does
//! not know. The API server prunes those silently (or, under kubectl's strict
//! field validation, refuses them), so a typo such as `podLabel` quietly does
//! nothing; the warning names the closest known field.
//!
//! How nulls are treated follows the API server: a `null` object field is
//! pruned as if absent (so a required one is reported missing), while a
//! `null` list item or map value is an error.
//!
//! Findings come in document order as far as `serde_json::Map` keeps it
//! (insertion order with serde_json's `preserve_order` feature, key order
//! without), list items in order, and an object's own findings (missing
//! required fields) before those of its children.

use serde_json::{Map, Value};

use super::metadata;
use super::{Finding, Severity};

/// One node of the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// An object with a fixed set of fields.
    Object(&'static Object),
    /// An object with arbitrary keys (`additionalProperties`): every value
    /// has the same schema; keys may be held to a syntax.
    Map { keys: Keys, values: &'static Node },
    /// A list. `map_key` names the field that must be unique across items
    /// (`x-kubernetes-list-type: map`).
    Array { items: &'static Node, min_items: usize, map_key: Option<&'static str> },
    /// A string, with an optional rule on its content.
    Str(Text),
    /// An integer within optional bounds and a 32- or 64-bit format.
    Int { min: Option<i64>, max: Option<i64>, bits: IntBits },
    /// `true` or `false`.
    Bool,
    /// A resource quantity (`x-kubernetes-int-or-string` with the quantity
    /// pattern): a string matching the pattern, or an integer.
    Quantity,
    /// Anything: untyped, preserved, or checked elsewhere.
    Any,
}

/// An object's fields (in CRD order) and which of them are required.
#[derive(Debug, PartialEq, Eq)]
pub struct Object {
    pub fields: &'static [(&'static str, Node)],
    pub required: &'static [&'static str],
    /// Whether a field not listed is reported as unknown. `false` for the
    /// document's top level and for `metadata`, which have fields this schema
    /// does not enumerate.
    pub closed: bool,
}

/// A rule on a map's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// Any string.
    Free,
    /// A label key (qualified name).
    Label,
    /// An annotation key (qualified name, case-insensitive); the map as a
    /// whole is held to the total annotation size.
    Annotation,
}

/// A rule on a string's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// Any string.
    Any,
    /// `minLength: 1`.
    NonEmpty,
    /// `enum`: one of these values exactly.
    OneOf(&'static [&'static str]),
    /// `pattern`.
    Pattern(Pattern),
    /// A label value.
    LabelValue,
    /// An object name: a non-empty DNS-1123 subdomain.
    ObjectName,
    /// A namespace name: a DNS-1123 label, or empty for "the current one".
    NamespaceName,
}

/// The string patterns the CRD uses, matched by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// `^[a-z0-9][a-z0-9-]{0,62}$`: backend, rule and budget names.
    ShortName,
    /// `^[0-9]+(\.[0-9]+)?$`: amounts of US dollars.
    Usd,
}

/// The `format` of an integer field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntBits {
    I32,
    I64,
}

impl Pattern {
    /// Whether `s` matches the pattern.
    pub fn matches(self, s: &str) -> bool {
        match self {
            Pattern::ShortName => is_short_name(s),
            Pattern::Usd => is_usd(s),
        }
    }

    /// The pattern in words, for messages.
    pub fn rule(self) -> &'static str {
        match self {
            Pattern::ShortName => {
                "must be 1 to 63 characters of lowercase letters, digits or '-', starting with a letter or digit"
            }
            Pattern::Usd => {
                "must be an amount of US dollars written as digits, optionally followed by '.' and more digits \
                 (e.g. \"15\" or \"0.25\")"
            }
        }
    }
}

/// The quantity pattern in words.
const QUANTITY_RULE: &str = "must be a quantity: an optionally signed decimal number, then optionally a suffix \
     (Ki, Mi, Gi, Ti, Pi, Ei, n, u, m, k, M, G, T, P, E) or an exponent (e.g. \"500m\", \"1.5Gi\", \"2\", \"1e3\")";

// ---------------------------------------------------------------------------
// The schema, field by field, from crd-modelrouters.yaml (v1alpha1).

const STRING: Node = Node::Str(Text::Any);
const NON_EMPTY: Node = Node::Str(Text::NonEmpty);
const BOOL: Node = Node::Bool;
const STRINGS: Node = Node::Array { items: &STRING, min_items: 0, map_key: None };
const SHORT_NAME: Node = Node::Str(Text::Pattern(Pattern::ShortName));
const USD: Node = Node::Str(Text::Pattern(Pattern::Usd));
const INT32_MIN_1: Node = Node::Int { min: Some(1), max: None, bits: IntBits::I32 };
const INT32_MIN_0: Node = Node::Int { min: Some(0), max: None, bits: IntBits::I32 };
const QUANTITIES: Node = Node::Map { keys: Keys::Free, values: &Node::Quantity };

/// corev1.LocalObjectReference.
const LOCAL_REF: Object = Object { fields: &[("name", STRING)], required: &[], closed: true };

/// A Gateway reference (spec.gatewayRef, spec.endpoint.gateway.gatewayRef).
const GATEWAY_REF: Object =
    Object { fields: &[("name", STRING), ("namespace", STRING)], required: &["name"], closed: true };

const COST_PER_MILLION_TOKENS: Object =
    Object { fields: &[("completionUSD", USD), ("promptUSD", USD)], required: &[], closed: true };

const EXTERNAL: Object = Object {
    fields: &[
        ("credentialsSecretRef", Node::Object(&LOCAL_REF)),
        ("model", STRING),
        ("provider", Node::Str(Text::OneOf(&["anthropic", "openai", "bedrock", "vertex_ai", "litellm"]))),
        ("url", STRING),
    ],
    required: &["model", "provider"],
    closed: true,
};

const HEALTH_CHECK: Object = Object {
    fields: &[("intervalSeconds", INT32_MIN_1), ("path", STRING), ("timeoutSeconds", INT32_MIN_1)],
    required: &[],
    closed: true,
};

const BACKEND: Object = Object {
    fields: &[
        ("capabilities", STRINGS),
        ("costPerMillionTokens", Node::Object(&COST_PER_MILLION_TOKENS)),
        ("displayName", STRING),
        ("external", Node::Object(&EXTERNAL)),
        ("healthCheck", Node::Object(&HEALTH_CHECK)),
        ("inferenceServiceRef", Node::Object(&LOCAL_REF)),
        ("name", SHORT_NAME),
        ("tier", Node::Str(Text::OneOf(&["local", "cloud"]))),
        ("timeout", STRING),
        ("weight", INT32_MIN_0),
    ],
    required: &["name"],
    closed: true,
};

const ENDPOINT_GATEWAY: Object = Object {
    fields: &[("enabled", BOOL), ("gatewayRef", Node::Object(&GATEWAY_REF)), ("modelName", STRING)],
    required: &["gatewayRef"],
    closed: true,
};

const ENDPOINT: Object = Object {
    fields: &[
        ("gateway", Node::Object(&ENDPOINT_GATEWAY)),
        ("nodePort", Node::Int { min: Some(30000), max: Some(32767), bits: IntBits::I32 }),
        ("path", STRING),
        ("port", Node::Int { min: Some(1), max: Some(65535), bits: IntBits::I32 }),
        ("type", Node::Str(Text::OneOf(&["ClusterIP", "NodePort", "LoadBalancer"]))),
    ],
    required: &[],
    closed: true,
};

const MCP_SERVER: Object = Object { fields: &[("enabled", BOOL)], required: &[], closed: true };

const AUDIT_LOG: Object = Object {
    fields: &[
        ("filePath", STRING),
        ("includeRequestBody", BOOL),
        ("sink", Node::Str(Text::OneOf(&["stdout", "file", "otlp"]))),
    ],
    required: &[],
    closed: true,
};

const ALLOWLIST: Object =
    Object { fields: &[("models", STRINGS), ("team", NON_EMPTY)], required: &["team"], closed: true };

const JWT: Object = Object {
    fields: &[
        ("headerKey", STRING),
        ("issuer", NON_EMPTY),
        ("jwksURI", NON_EMPTY),
        ("provider", NON_EMPTY),
        ("teamClaim", NON_EMPTY),
    ],
    required: &["issuer", "jwksURI", "provider", "teamClaim"],
    closed: true,
};

const AUTH: Object = Object {
    fields: &[
        ("allowlists", Node::Array { items: &Node::Object(&ALLOWLIST), min_items: 0, map_key: None }),
        ("jwt", Node::Object(&JWT)),
    ],
    required: &[],
    closed: true,
};

const BUDGET: Object = Object {
    fields: &[
        ("headerKey", STRING),
        ("maxTokens", Node::Int { min: Some(1), max: None, bits: IntBits::I64 }),
        ("maxUSD", USD),
        ("name", SHORT_NAME),
        ("ruleName", STRING),
        ("scope", Node::Str(Text::OneOf(&["router", "rule", "team"]))),
        ("windowSeconds", INT32_MIN_1),
    ],
    required: &["name", "scope"],
    closed: true,
};

const CLASSIFICATION: Object = Object {
    fields: &[
        ("headerKey", STRING),
        ("mode", Node::Str(Text::OneOf(&["header-only", "detector", "hybrid"]))),
        ("sensitiveClassifications", STRINGS),
    ],
    required: &[],
    closed: true,
};

const POLICY: Object = Object {
    fields: &[
        ("auditLog", Node::Object(&AUDIT_LOG)),
        ("auth", Node::Object(&AUTH)),
        ("budgets", Node::Array { items: &Node::Object(&BUDGET), min_items: 0, map_key: None }),
        ("classification", Node::Object(&CLASSIFICATION)),
    ],
    required: &[],
    closed: true,
};

/// corev1.ResourceClaim.
const RESOURCE_CLAIM: Object =
    Object { fields: &[("name", STRING), ("request", STRING)], required: &["name"], closed: true };

/// corev1.ResourceRequirements.
const RESOURCES: Object = Object {
    fields: &[
        ("claims", Node::Array { items: &Node::Object(&RESOURCE_CLAIM), min_items: 0, map_key: Some("name") }),
        ("limits", QUANTITIES),
        ("requests", QUANTITIES),
    ],
    required: &[],
    closed: true,
};

const PROXY: Object = Object {
    fields: &[
        ("image", STRING),
        ("imagePullSecrets", Node::Array { items: &Node::Object(&LOCAL_REF), min_items: 0, map_key: None }),
        ("nodeSelector", Node::Map { keys: Keys::Label, values: &Node::Str(Text::LabelValue) }),
        ("podAnnotations", Node::Map { keys: Keys::Annotation, values: &STRING }),
        ("podLabels", Node::Map { keys: Keys::Label, values: &Node::Str(Text::LabelValue) }),
        ("quarantineDuration", STRING),
        ("replicas", Node::Int { min: Some(1), max: Some(10), bits: IntBits::I32 }),
        ("resources", Node::Object(&RESOURCES)),
        ("responseHeaderTimeout", STRING),
        ("revisionHistoryLimit", INT32_MIN_0),
    ],
    required: &[],
    closed: true,
};

const RULE_MATCH: Object = Object {
    fields: &[
        ("dataClassification", STRINGS),
        ("headers", Node::Map { keys: Keys::Free, values: &STRING }),
        ("latencySLOMs", INT32_MIN_1),
        ("models", STRINGS),
        ("requiredCapabilities", STRINGS),
        ("taskComplexity", Node::Str(Text::OneOf(&["simple", "moderate", "complex"]))),
    ],
    required: &[],
    closed: true,
};

const RULE_ROUTE: Object = Object {
    fields: &[
        ("backends", Node::Array { items: &STRING, min_items: 1, map_key: None }),
        ("strategy", Node::Str(Text::OneOf(&["primary-fallback", "weighted", "shadow"]))),
    ],
    required: &["backends"],
    closed: true,
};

const RULE: Object = Object {
    fields: &[
        ("failClosed", BOOL),
        ("match", Node::Object(&RULE_MATCH)),
        ("name", SHORT_NAME),
        ("route", Node::Object(&RULE_ROUTE)),
        ("timeout", STRING),
    ],
    required: &["name", "route"],
    closed: true,
};

const SPEC: Object = Object {
    fields: &[
        ("backends", Node::Array { items: &Node::Object(&BACKEND), min_items: 1, map_key: None }),
        ("dataPlane", Node::Str(Text::OneOf(&["Proxy", "Gateway"]))),
        ("defaultRoute", STRING),
        ("defaultRouteStrategy", Node::Str(Text::OneOf(&["Static", "BackendNameMatch"]))),
        ("endpoint", Node::Object(&ENDPOINT)),
        ("gatewayRef", Node::Object(&GATEWAY_REF)),
        ("mcpServer", Node::Object(&MCP_SERVER)),
        ("policy", Node::Object(&POLICY)),
        ("proxy", Node::Object(&PROXY)),
        ("rules", Node::Array { items: &Node::Object(&RULE), min_items: 0, map_key: None }),
    ],
    required: &["backends"],
    closed: true,
};

/// The part of ObjectMeta the API server validates on create and that
/// routerctl can check offline. Other metadata fields pass unexamined.
const METADATA: Object = Object {
    fields: &[
        ("name", Node::Str(Text::ObjectName)),
        ("generateName", STRING),
        ("namespace", Node::Str(Text::NamespaceName)),
        ("labels", Node::Map { keys: Keys::Label, values: &Node::Str(Text::LabelValue) }),
        ("annotations", Node::Map { keys: Keys::Annotation, values: &STRING }),
    ],
    required: &["name"],
    closed: false,
};

/// The whole document. `apiVersion` and `kind` are checked by the caller;
/// `status` is written by the operator and ignored on create.
const DOCUMENT: Object = Object {
    fields: &[
        ("apiVersion", Node::Any),
        ("kind", Node::Any),
        ("metadata", Node::Object(&METADATA)),
        ("spec", Node::Object(&SPEC)),
        ("status", Node::Any),
    ],
    required: &["spec"],
    closed: false,
};

/// The schema of a whole ModelRouter document (the top level is open:
/// unknown top-level fields are not reported).
pub fn document_schema() -> &'static Object {
    &DOCUMENT
}

/// Field path used for findings about the document itself.
pub const DOCUMENT_PATH: &str = "(document)";

/// Checks a whole ModelRouter document (as parsed from YAML into
/// `serde_json::Value`) against the CRD schema.
pub fn check_model_router(doc: &Value) -> Vec<Finding> {
    check_model_router_as_written(doc, &|_| None)
}

/// Like [`check_model_router`], with the text of the plain scalars kubectl
/// reads as booleans, numbers or null (`written(path)`), so that a
/// "quote it" hint quotes what the user wrote (`sync: "yes"`), not what
/// kubectl made of it.
pub fn check_model_router_as_written(doc: &Value, written: &dyn Fn(&str) -> Option<String>) -> Vec<Finding> {
    let mut checker = Checker { findings: Vec::new(), written };
    match doc.as_object() {
        Some(top) => {
            // A missing metadata block is a missing name, said where the
            // name belongs rather than as "metadata: required".
            if top.get("metadata").is_none_or(Value::is_null) {
                checker.error("metadata.name".to_string(), "required".to_string());
            }
            checker.object(top, &DOCUMENT, "");
        }
        None => {
            let message = format!("must be an object (a ModelRouter manifest), found {}", describe(doc));
            checker.error(DOCUMENT_PATH.to_string(), message);
        }
    }
    checker.findings
}

/// The name in `known` closest to `unknown`, if any is close enough to be a
/// likely typo: the "did you mean" of unknown-field warnings and enum errors
/// (exposed for tests and other callers; see [`known_fields`] for the names
/// the schema knows at a path).
///
/// A case-insensitive exact match wins; otherwise the nearest by
/// (optimal-string-alignment) Damerau–Levenshtein distance, compared without
/// case, within a third of the unknown name's length (at least 1, at most 3).
/// Ties go to the earlier name in `known`.
pub fn suggest(unknown: &str, known: &[&str]) -> Option<String> {
    if let Some(same) = known.iter().find(|name| name.eq_ignore_ascii_case(unknown)) {
        return Some((*same).to_string());
    }
    let unknown_lower = unknown.to_lowercase();
    let limit = (unknown.chars().count() / 3).clamp(1, 3);
    known
        .iter()
        .map(|name| (edit_distance(&unknown_lower, &name.to_lowercase()), *name))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, name)| name.to_string())
}

/// The field names the schema knows at `path` (e.g. `spec.proxy`,
/// `spec.rules[0].route`, `spec.rules.route`; list indices and map keys are
/// optional), or `None` when the path does not lead to an object with a fixed
/// set of fields. The empty path is the document's top level.
pub fn known_fields(path: &str) -> Option<Vec<&'static str>> {
    let mut node = Node::Object(&DOCUMENT);
    for segment in path.split('.').filter(|segment| !segment.is_empty()) {
        let name = segment.split('[').next().unwrap_or(segment);
        node = list_items(node);
        if name.is_empty() {
            continue;
        }
        node = match node {
            Node::Object(object) => object.fields.iter().find(|(field, _)| *field == name).map(|(_, node)| *node)?,
            // A segment below a map is one of its keys.
            Node::Map { values, .. } => *values,
            _ => return None,
        };
    }
    match list_items(node) {
        Node::Object(object) => Some(object.fields.iter().map(|(field, _)| *field).collect()),
        _ => None,
    }
}

/// The item schema of a (possibly nested) list, or the node itself.
fn list_items(mut node: Node) -> Node {
    while let Node::Array { items, .. } = node {
        node = *items;
    }
    node
}

// ---------------------------------------------------------------------------
// The walk.

/// Where a value sits, for the "quote it" hint.
#[derive(Clone, Copy)]
enum Slot<'a> {
    /// An object field or a map entry, with its key.
    Keyed(&'a str),
    /// A list item.
    Item,
}

struct Checker<'w> {
    findings: Vec<Finding>,
    written: &'w dyn Fn(&str) -> Option<String>,
}

impl Checker<'_> {
    fn push(&mut self, severity: Severity, path: String, message: String) {
        self.findings.push(Finding { severity, path, message });
    }

    fn error(&mut self, path: String, message: String) {
        self.push(Severity::Error, path, message);
    }

    fn check(&mut self, value: &Value, node: &Node, path: &str, slot: Slot<'_>) {
        match node {
            Node::Any => {}
            Node::Object(object) => match value.as_object() {
                Some(map) => self.object(map, object, path),
                None => self.wrong_type(node, value, path, slot),
            },
            Node::Map { keys, values } => match value.as_object() {
                Some(map) => self.map(map, *keys, values, path),
                None => self.wrong_type(node, value, path, slot),
            },
            Node::Array { items, min_items, map_key } => match value.as_array() {
                Some(list) => self.array(list, items, *min_items, *map_key, path),
                None => self.wrong_type(node, value, path, slot),
            },
            Node::Str(text) => match value.as_str() {
                Some(s) => {
                    for message in text_errors(s, *text) {
                        self.error(path.to_string(), message);
                    }
                }
                None => self.wrong_type(node, value, path, slot),
            },
            Node::Int { min, max, bits } => match integer_value(value) {
                Some(number) => {
                    if let Some(message) = range_error(number, *min, *max, *bits) {
                        self.error(path.to_string(), message);
                    }
                }
                None => self.wrong_type(node, value, path, slot),
            },
            Node::Bool => {
                if !value.is_boolean() {
                    self.wrong_type(node, value, path, slot);
                }
            }
            Node::Quantity => match value {
                Value::String(s) => {
                    if !is_quantity(s) {
                        self.error(path.to_string(), format!("{QUANTITY_RULE}, found {}", quote(s)));
                    }
                }
                Value::Number(number) if is_whole(number) => {}
                _ => self.wrong_type(node, value, path, slot),
            },
        }
    }

    fn object(&mut self, map: &Map<String, Value>, object: &Object, path: &str) {
        for required in object.required {
            match map.get(*required) {
                None => self.error(child(path, required), "required".to_string()),
                Some(Value::Null) => self.error(child(path, required), "required, found null".to_string()),
                Some(_) => {}
            }
        }
        for (key, value) in map {
            match object.fields.iter().find(|(name, _)| name == key) {
                // The API server prunes a null field as if it were absent.
                Some(_) if value.is_null() => {}
                Some((_, node)) => self.check(value, node, &child(path, key), Slot::Keyed(key)),
                None if object.closed => {
                    let known: Vec<&str> = object.fields.iter().map(|(name, _)| *name).collect();
                    let message = match suggest(key, &known) {
                        Some(name) => format!("unknown field; did you mean {name}?"),
                        None => format!("unknown field; known fields here: {}", known.join(", ")),
                    };
                    self.push(Severity::Warning, child(path, key), message);
                }
                None => {}
            }
        }
    }

    fn map(&mut self, map: &Map<String, Value>, keys: Keys, values: &Node, path: &str) {
        for (key, value) in map {
            let entry = child(path, key);
            let key_errors = match keys {
                Keys::Free => Vec::new(),
                Keys::Label => metadata::qualified_name_errors(key),
                Keys::Annotation => metadata::annotation_key_errors(key),
            };
            for message in key_errors {
                self.error(entry.clone(), format!("invalid key: {message}"));
            }
            self.check(value, values, &entry, Slot::Keyed(key));
        }
        if keys == Keys::Annotation {
            let strings = map.iter().filter_map(|(key, value)| value.as_str().map(|value| (key.as_str(), value)));
            if let Some(message) = metadata::annotations_size_error(strings) {
                self.error(path.to_string(), message);
            }
        }
    }

    fn array(&mut self, list: &[Value], items: &Node, min_items: usize, map_key: Option<&str>, path: &str) {
        if list.len() < min_items {
            let plural = if min_items == 1 { "" } else { "s" };
            self.error(path.to_string(), format!("must have at least {min_items} item{plural}"));
        }
        for (index, item) in list.iter().enumerate() {
            self.check(item, items, &format!("{path}[{index}]"), Slot::Item);
        }
        if let Some(key) = map_key {
            let mut seen: Vec<(&str, usize)> = Vec::new();
            for (index, item) in list.iter().enumerate() {
                let Some(value) = item.get(key).and_then(Value::as_str) else { continue };
                match seen.iter().find(|(earlier, _)| *earlier == value) {
                    Some((_, first)) => self.error(
                        format!("{path}[{index}]"),
                        format!("duplicate entry: {key} {} is already used by item {first}", quote(value)),
                    ),
                    None => seen.push((value, index)),
                }
            }
        }
    }

    /// A value of the wrong JSON type. Where a scalar's text would be
    /// acceptable as a string (YAML reads `true`, `3` and `~` as non-strings),
    /// the message shows the quoted form.
    fn wrong_type(&mut self, node: &Node, value: &Value, path: &str, slot: Slot<'_>) {
        let expected = expectation(node);
        let found = describe(value);
        let text = match value {
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(number) => Some(number.to_string()),
            Value::Null => Some(String::new()),
            _ => None,
        };
        let acceptable = |text: &String| match node {
            Node::Str(rule) => text_errors(text, *rule).is_empty(),
            Node::Quantity => is_quantity(text),
            _ => false,
        };
        if let Some(written) = (self.written)(path).filter(|_| value.is_boolean() || value.is_number()) {
            // kubectl made a boolean, number or null of a plain scalar.
            // `yes` read as true is worth explaining; `true` read as true is not.
            let reading = match value {
                Value::Bool(b) if written != b.to_string() => format!(" (kubectl reads the unquoted {written} as {b})"),
                Value::Number(n) if written != n.to_string() => {
                    format!(" (kubectl reads the unquoted {written} as {})", kubectl_reading(value))
                }
                _ => String::new(),
            };
            let message = if matches!(node, Node::Str(_) | Node::Quantity) {
                format!("must be {expected}, found {found}{reading}; quote it: {}", snippet(slot, &written))
            } else {
                format!("must be {expected}, found {found}{reading}")
            };
            self.error(path.to_string(), message);
            return;
        }
        let message = match text.filter(acceptable) {
            Some(_) if value.is_null() => format!(
                "must be {expected}, found null, which is not allowed here; use \"\" for an empty value: {}",
                snippet(slot, "")
            ),
            Some(text) => format!("must be {expected}, found {found}; quote it: {}", snippet(slot, &text)),
            None => format!("must be {expected}, found {found}"),
        };
        self.error(path.to_string(), message);
    }
}

/// What kubectl made of a plain scalar, for the quote-it hint.
fn kubectl_reading(value: &Value) -> String {
    match value {
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) if n.is_f64() => format!("the number {n}"),
        Value::Number(n) => format!("the integer {n}"),
        Value::Null => "null".to_string(),
        other => describe(other).to_string(),
    }
}

/// An integer's value, whatever its JSON width; `None` for anything else,
/// fractional or whole-valued floats (`3.0`) included, which routerctl's
/// typed model cannot read as an integer.
fn integer_value(value: &Value) -> Option<i128> {
    let number = value.as_number()?;
    number.as_i64().map(i128::from).or_else(|| number.as_u64().map(i128::from))
}

/// A bound or format an integer breaks: the schema's minimum and maximum
/// first, then the 32/64-bit range of its format.
fn range_error(number: i128, min: Option<i64>, max: Option<i64>, bits: IntBits) -> Option<String> {
    let (low, high, width) = match bits {
        IntBits::I32 => (i128::from(i32::MIN), i128::from(i32::MAX), 32),
        IntBits::I64 => (i128::from(i64::MIN), i128::from(i64::MAX), 64),
    };
    match (min, max) {
        (Some(min), _) if number < i128::from(min) => Some(format!("must be at least {min}, found {number}")),
        (_, Some(max)) if number > i128::from(max) => Some(format!("must be at most {max}, found {number}")),
        _ if number < low || number > high => {
            Some(format!("must fit in a {width}-bit integer ({low} to {high}), found {number}"))
        }
        _ => None,
    }
}

/// Whether a number satisfies the quantity's `integer` branch: an integer,
/// or a float with no fractional part (the API server's validator reads 2.0
/// as an integer).
fn is_whole(number: &serde_json::Number) -> bool {
    number.is_i64()
        || number.is_u64()
        || number.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0 && f.abs() <= MAX_SAFE_FLOAT)
}

/// ±(2^53 − 1): beyond this a float is not read as an integer.
const MAX_SAFE_FLOAT: f64 = 9_007_199_254_740_991.0;

/// Everything wrong with a string under a text rule.
fn text_errors(s: &str, text: Text) -> Vec<String> {
    match text {
        Text::Any => Vec::new(),
        Text::NonEmpty if s.is_empty() => vec!["must not be empty".to_string()],
        Text::NonEmpty => Vec::new(),
        Text::OneOf(allowed) if allowed.contains(&s) => Vec::new(),
        Text::OneOf(allowed) => {
            let list: Vec<String> = allowed.iter().map(|value| quote(value)).collect();
            let mut message = format!("unsupported value {}; must be one of {}", quote(s), list.join(", "));
            if let Some(close) = suggest(s, allowed) {
                message.push_str(&format!("; did you mean {}?", quote(&close)));
            }
            vec![message]
        }
        Text::Pattern(pattern) if pattern.matches(s) => Vec::new(),
        Text::Pattern(pattern) => vec![format!("{}, found {}", pattern.rule(), quote(s))],
        Text::LabelValue => metadata::label_value_errors(s)
            .into_iter()
            .map(|message| format!("invalid value {}: {message}", quote(s)))
            .collect(),
        Text::ObjectName if s.is_empty() => vec!["must not be empty".to_string()],
        Text::ObjectName => metadata::dns1123_subdomain_errors(s)
            .into_iter()
            .map(|message| format!("invalid name {}: {message}", quote(s)))
            .collect(),
        Text::NamespaceName if s.is_empty() => Vec::new(),
        Text::NamespaceName => metadata::dns1123_label_errors(s)
            .into_iter()
            .map(|message| format!("invalid namespace {}: {message}", quote(s)))
            .collect(),
    }
}

/// What a node wants, after "must be".
fn expectation(node: &Node) -> &'static str {
    match node {
        Node::Object(_) => "an object",
        Node::Map { .. } => "a map",
        Node::Array { .. } => "a list",
        Node::Str(_) => "a string",
        Node::Int { .. } => "an integer",
        Node::Bool => "a boolean",
        Node::Quantity => "a quantity (a string such as \"500m\" or an integer)",
        Node::Any => "any value",
    }
}

/// What a value is, after "found".
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(number) => format!("the number {number}"),
        Value::String(s) => format!("a string {}", quote(s)),
        Value::Array(list) if list.is_empty() => "an empty list".to_string(),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

/// Longest string shown whole in a message.
const QUOTE_LIMIT: usize = 80;

/// A string in double quotes with escapes; a long one is cut short and its
/// length given.
fn quote(s: &str) -> String {
    let count = s.chars().count();
    if count <= QUOTE_LIMIT {
        return format!("{s:?}");
    }
    let head: String = s.chars().take(QUOTE_LIMIT / 2).collect();
    format!("{head:?}... ({count} characters)")
}

/// How to write a value as a quoted YAML string where it sits.
fn snippet(slot: Slot<'_>, text: &str) -> String {
    let value = format!("{text:?}");
    match slot {
        Slot::Keyed(key) if is_plain_yaml_key(key) => format!("{key}: {value}"),
        Slot::Keyed(key) => format!("{key:?}: {value}"),
        Slot::Item => format!("- {value}"),
    }
}

fn is_plain_yaml_key(key: &str) -> bool {
    key.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
}

/// `parent.key`, or `parent["key"]` when the key is not a plain identifier
/// (label keys with dots and slashes, for instance).
fn child(parent: &str, key: &str) -> String {
    let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    match (parent.is_empty(), plain) {
        (true, true) => key.to_string(),
        (false, true) => format!("{parent}.{key}"),
        (_, false) => format!("{parent}[{key:?}]"),
    }
}

// ---------------------------------------------------------------------------
// Patterns, by hand.

/// `^[a-z0-9][a-z0-9-]{0,62}$`
fn is_short_name(s: &str) -> bool {
    let bytes = s.as_bytes();
    let lower_alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    bytes.len() <= 63 && bytes.first().is_some_and(lower_alnum) && bytes.iter().all(|b| lower_alnum(b) || *b == b'-')
}

/// `^[0-9]+(\.[0-9]+)?$`
fn is_usd(s: &str) -> bool {
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    match s.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(s),
    }
}

/// The CRD's quantity pattern:
/// `^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`
///
/// No suffix starts with a digit or '.', so taking the longest number first
/// never rejects a string the regular expression would accept.
pub fn is_quantity(s: &str) -> bool {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let Some(suffix) = strip_decimal(unsigned) else { return false };
    match suffix {
        "" | "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" => true,
        "n" | "u" | "m" | "k" | "M" | "G" | "T" | "P" | "E" => true,
        _ => match suffix.strip_prefix(['e', 'E']) {
            Some(exponent) => strip_decimal(exponent.strip_prefix(['+', '-']).unwrap_or(exponent)) == Some(""),
            None => false,
        },
    }
}

/// Takes `[0-9]+(\.[0-9]*)?` or `\.[0-9]+` off the front of `s`, returning
/// what follows, or `None` when `s` does not start with a number.
fn strip_decimal(s: &str) -> Option<&str> {
    let whole = s.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &s[whole..];
    match rest.strip_prefix('.') {
        Some(after_point) => {
            let fraction = after_point.bytes().take_while(u8::is_ascii_digit).count();
            (whole > 0 || fraction > 0).then(|| &after_point[fraction..])
        }
        None => (whole > 0).then_some(rest),
    }
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions
/// and swaps of adjacent characters each cost one.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before_previous = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let substitution = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = substitution.min(previous[j] + 1).min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before_previous[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before_previous, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn yaml(text: &str) -> Value {
        crate::input::from_yaml_str(text).expect("test YAML parses")
    }

    /// Findings as `path: message` lines, errors and warnings marked.
    fn lines(doc: &Value) -> Vec<String> {
        check_model_router(doc)
            .into_iter()
            .map(|finding| {
                let mark = match finding.severity {
                    Severity::Error => "E",
                    Severity::Warning => "W",
                };
                format!("{mark} {finding}")
            })
            .collect()
    }

    /// A minimal valid router with `extra` spliced into its spec.
    fn router(extra_spec: &str) -> Value {
        let mut spec = String::from("  backends:\n  - name: local-a\n    inferenceServiceRef: {name: qwen}\n");
        for line in extra_spec.lines() {
            spec.push_str("  ");
            spec.push_str(line);
            spec.push('\n');
        }
        yaml(&format!(
            "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: r\nspec:\n{spec}"
        ))
    }

    const FULL: &str = r#"
apiVersion: inference.llmkube.dev/v1alpha1
kind: ModelRouter
metadata:
  name: coding-router
  namespace: llm-prod
  labels:
    app.kubernetes.io/part-of: llm-platform
    team: ml-infra
  annotations:
    Example.COM/Owner: "ml-infra@example.com"
    argocd.argoproj.io/sync-wave: "2"
  uid: 0d6bd3f6-2f3c-4a55-9d1c-3a1d0f4c0a11
spec:
  dataPlane: Proxy
  defaultRoute: qwen-local
  defaultRouteStrategy: BackendNameMatch
  backends:
  - name: qwen-local
    displayName: qwen3-coder-30b
    inferenceServiceRef:
      name: qwen3-coder
    tier: local
    capabilities: [tools, long-context]
    weight: 3
    timeout: 45s
    healthCheck:
      path: /health
      intervalSeconds: 10
      timeoutSeconds: 2
    costPerMillionTokens:
      promptUSD: "0"
      completionUSD: "0"
  - name: claude-opus
    displayName: claude-opus-4-20250514
    external:
      provider: anthropic
      model: claude-opus-4-20250514
      url: https://api.anthropic.com
      credentialsSecretRef:
        name: anthropic-key
    tier: cloud
    capabilities: [tools, vision]
    weight: 0
    costPerMillionTokens:
      promptUSD: "15"
      completionUSD: "75.00"
  - name: litellm-gpt
    external:
      provider: litellm
      model: gpt-5
      url: http://litellm.llm-prod.svc:4000
    tier: cloud
  rules:
  - name: pii-stays-local
    failClosed: true
    timeout: 8s
    match:
      dataClassification: [pii, phi]
      headers:
        x-tenant: acme
        X-Region: eu-west-1
      models: ["qwen3-*"]
    route:
      backends: [qwen-local]
      strategy: primary-fallback
  - name: hard-tasks
    match:
      taskComplexity: complex
      requiredCapabilities: [tools]
      latencySLOMs: 1500
    route:
      backends: [claude-opus, litellm-gpt]
      strategy: weighted
  - name: catch-all
    route:
      backends: [qwen-local, claude-opus]
      strategy: shadow
  policy:
    classification:
      mode: hybrid
      headerKey: x-llmkube-classification
      sensitiveClassifications: [pii, phi]
    auditLog:
      sink: file
      filePath: /var/log/mlx-router/audit.log
      includeRequestBody: false
    budgets:
    - name: monthly-cloud
      scope: router
      maxUSD: "500.50"
      maxTokens: 20000000000
      windowSeconds: 2592000
    - name: per-team
      scope: team
      headerKey: x-llmkube-team
      maxTokens: 1000000
    - name: hard-rule
      scope: rule
      ruleName: hard-tasks
      maxUSD: "25"
    auth:
      jwt:
        provider: keycloak
        issuer: https://sso.example.com/realms/llm
        jwksURI: https://sso.example.com/realms/llm/protocol/openid-connect/certs
        teamClaim: team
        headerKey: x-llmkube-team
      allowlists:
      - team: ml-infra
        models: [qwen3-coder-30b, claude-opus-4-20250514]
      - team: interns
  endpoint:
    type: NodePort
    port: 8080
    nodePort: 30080
    path: /v1/chat/completions
    gateway:
      enabled: false
      modelName: coding
      gatewayRef:
        name: ai-gateway
        namespace: envoy-gateway-system
  gatewayRef:
    name: ai-gateway
    namespace: envoy-gateway-system
  mcpServer:
    enabled: false
  proxy:
    replicas: 2
    revisionHistoryLimit: 0
    image: registry.internal/llmkube/router-proxy@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    imagePullSecrets:
    - name: internal-registry
    quarantineDuration: 500ms
    responseHeaderTimeout: 2m
    nodeSelector:
      kubernetes.io/arch: amd64
      node-role.example.com/inference: ""
    podLabels:
      netpol.example.com/apiserver: allow
      inject: "true"
    podAnnotations:
      example.com/team: llm
      prometheus.io/scrape: "true"
      description: "Routes coding traffic: local first, then cloud."
    resources:
      requests:
        cpu: 250m
        memory: 128Mi
        ephemeral-storage: 1
      limits:
        cpu: 2
        memory: 1.5Gi
        example.com/fpga: "1e3"
      claims:
      - name: gpu
        request: small
      - name: nic
status:
  phase: Ready
  anything: [goes, here]
"#;

    #[test]
    fn a_full_valid_router_has_no_findings() {
        assert_eq!(lines(&yaml(FULL)), Vec::<String>::new());
    }

    #[test]
    fn the_minimal_router_has_no_findings() {
        assert_eq!(lines(&router("")), Vec::<String>::new());
    }

    #[test]
    fn wrong_types() {
        let doc = router(
            "mcpServer:\n  enabled: \"yes\"\nproxy:\n  image: 7\n  imagePullSecrets: {name: x}\n  replicas: \"3\"\n  \
             resources: []\nrules: nope",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.mcpServer.enabled: must be a boolean, found a string \"yes\"",
                "E spec.proxy.image: must be a string, found the number 7; quote it: image: \"7\"",
                "E spec.proxy.imagePullSecrets: must be a list, found an object",
                "E spec.proxy.replicas: must be an integer, found a string \"3\"",
                "E spec.proxy.resources: must be an object, found an empty list",
                "E spec.rules: must be a list, found a string \"nope\"",
            ]
        );
    }

    #[test]
    fn fractional_numbers_are_not_integers() {
        // kubectl reads YAML's `3.0` as a float and sends it as JSON `3`
        // (Go's encoder drops the fraction of an integral float): accepted.
        let doc = router("proxy:\n  replicas: 2.5\n  revisionHistoryLimit: 3.0");
        assert_eq!(lines(&doc), ["E spec.proxy.replicas: must be an integer, found the number 2.5"]);
        assert_eq!(doc["spec"]["proxy"]["revisionHistoryLimit"], 3);
        // A JSON float that reached the tree as one is still not an integer.
        let mut doc = doc;
        doc["spec"]["proxy"]["revisionHistoryLimit"] = json!(3.0);
        assert_eq!(
            lines(&doc),
            [
                "E spec.proxy.replicas: must be an integer, found the number 2.5",
                "E spec.proxy.revisionHistoryLimit: must be an integer, found the number 3.0",
            ]
        );
    }

    #[test]
    fn non_strings_in_string_maps_suggest_quotes() {
        let doc = router(
            "proxy:\n  nodeSelector:\n    gpu: false\n  podAnnotations:\n    example.com/ratio: 0.5\n    \
             nested: {a: b}\n  podLabels:\n    inject: true\n    replicas: 3\n    tier: ~\n\
             rules:\n- name: r\n  match:\n    headers:\n      x-priority: 1\n  route: {backends: [local-a]}",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.proxy.nodeSelector.gpu: must be a string, found the boolean false; quote it: gpu: \"false\"",
                "E spec.proxy.podAnnotations[\"example.com/ratio\"]: must be a string, found the number 0.5; \
                 quote it: example.com/ratio: \"0.5\"",
                "E spec.proxy.podAnnotations.nested: must be a string, found an object",
                "E spec.proxy.podLabels.inject: must be a string, found the boolean true; quote it: inject: \"true\"",
                "E spec.proxy.podLabels.replicas: must be a string, found the number 3; quote it: replicas: \"3\"",
                "E spec.proxy.podLabels.tier: must be a string, found null, which is not allowed here; \
                 use \"\" for an empty value: tier: \"\"",
                "E spec.rules[0].match.headers.x-priority: must be a string, found the number 1; \
                 quote it: x-priority: \"1\"",
            ]
        );
    }

    #[test]
    fn non_strings_in_string_lists_suggest_quotes() {
        let doc = router("rules:\n- name: r\n  match:\n    models: [1.5, null, [x]]\n  route: {backends: [local-a]}");
        assert_eq!(
            lines(&doc),
            [
                "E spec.rules[0].match.models[0]: must be a string, found the number 1.5; quote it: - \"1.5\"",
                "E spec.rules[0].match.models[1]: must be a string, found null, which is not allowed here; \
                 use \"\" for an empty value: - \"\"",
                "E spec.rules[0].match.models[2]: must be a string, found a list",
            ]
        );
    }

    #[test]
    fn no_quote_hint_when_the_quoted_text_would_still_be_wrong() {
        let doc = router("dataPlane: true\npolicy:\n  budgets:\n  - {name: 12, scope: 1}");
        assert_eq!(
            lines(&doc),
            [
                "E spec.dataPlane: must be a string, found the boolean true",
                "E spec.policy.budgets[0].name: must be a string, found the number 12; quote it: name: \"12\"",
                "E spec.policy.budgets[0].scope: must be a string, found the number 1",
            ]
        );
    }

    #[test]
    fn missing_required_fields() {
        let doc = yaml(
            "metadata: {namespace: x}\nspec:\n  backends:\n  - displayName: a\n  - external: {url: u}\n    name: b\n\
             \x20 endpoint:\n    gateway: {gatewayRef: {namespace: gw}}\n  gatewayRef: {}\n  policy:\n    auth:\n      \
             allowlists: [{models: []}]\n      jwt: {}\n    budgets: [{}]\n  proxy:\n    resources:\n      \
             claims: [{request: x}]\n  rules:\n  - {}\n  - name: c\n    route: {}",
        );
        assert_eq!(
            lines(&doc),
            [
                "E metadata.name: required",
                "E spec.backends[0].name: required",
                "E spec.backends[1].external.model: required",
                "E spec.backends[1].external.provider: required",
                "E spec.endpoint.gateway.gatewayRef.name: required",
                "E spec.gatewayRef.name: required",
                "E spec.policy.auth.allowlists[0].team: required",
                "E spec.policy.auth.jwt.issuer: required",
                "E spec.policy.auth.jwt.jwksURI: required",
                "E spec.policy.auth.jwt.provider: required",
                "E spec.policy.auth.jwt.teamClaim: required",
                "E spec.policy.budgets[0].name: required",
                "E spec.policy.budgets[0].scope: required",
                "E spec.proxy.resources.claims[0].name: required",
                "E spec.rules[0].name: required",
                "E spec.rules[0].route: required",
                "E spec.rules[1].route.backends: required",
            ]
        );
    }

    #[test]
    fn missing_spec_metadata_and_backends() {
        assert_eq!(
            lines(&json!({"apiVersion": "v", "kind": "ModelRouter"})),
            ["E metadata.name: required", "E spec: required"]
        );
        assert_eq!(
            lines(&json!({"metadata": {"name": "r"}, "spec": {"backends": null, "rules": null}})),
            ["E spec.backends: required, found null"]
        );
        assert_eq!(lines(&json!({"metadata": {"name": "r"}, "spec": {}})), ["E spec.backends: required"]);
        assert_eq!(
            lines(&json!({"metadata": null, "spec": null})),
            ["E metadata.name: required", "E spec: required, found null"]
        );
    }

    #[test]
    fn null_optional_fields_are_pruned_like_absent_ones() {
        let doc = router("proxy:\n  replicas: null\n  podLabels: ~\nendpoint:\n  type: null\npolicy: null");
        assert_eq!(lines(&doc), Vec::<String>::new());
    }

    #[test]
    fn enum_violations() {
        let doc = router(
            "dataPlane: proxy\nendpoint: {type: Ingress}\nrules:\n- name: r\n  match: {taskComplexity: \"\"}\n  \
             route: {backends: [local-a], strategy: round-robin}",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.dataPlane: unsupported value \"proxy\"; must be one of \"Proxy\", \"Gateway\"; \
                 did you mean \"Proxy\"?",
                "E spec.endpoint.type: unsupported value \"Ingress\"; must be one of \"ClusterIP\", \"NodePort\", \
                 \"LoadBalancer\"",
                "E spec.rules[0].match.taskComplexity: unsupported value \"\"; must be one of \"simple\", \
                 \"moderate\", \"complex\"",
                "E spec.rules[0].route.strategy: unsupported value \"round-robin\"; must be one of \
                 \"primary-fallback\", \"weighted\", \"shadow\"",
            ]
        );
        let external = router("policy:\n  auditLog: {sink: stderr}");
        assert_eq!(
            lines(&external),
            ["E spec.policy.auditLog.sink: unsupported value \"stderr\"; must be one of \"stdout\", \"file\", \
              \"otlp\""]
        );
    }

    #[test]
    fn provider_and_tier_enums() {
        let doc = yaml(
            "metadata: {name: r}\nspec:\n  backends:\n  - external: {model: m, provider: OpenAI}\n    name: a\n    \
             tier: Cloud",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.backends[0].external.provider: unsupported value \"OpenAI\"; must be one of \"anthropic\", \
                 \"openai\", \"bedrock\", \"vertex_ai\", \"litellm\"; did you mean \"openai\"?",
                "E spec.backends[0].tier: unsupported value \"Cloud\"; must be one of \"local\", \"cloud\"; \
                 did you mean \"cloud\"?",
            ]
        );
    }

    #[test]
    fn name_patterns() {
        let long = "n".repeat(64);
        let doc = json!({
            "metadata": {"name": "r"},
            "spec": {
                "backends": [
                    {"name": "Qwen"}, {"name": "-qwen"}, {"name": "qwen_local"}, {"name": ""},
                    {"name": "0-ok-"}, {"name": long.clone()}, {"name": "n".repeat(63)}
                ],
                "policy": {"budgets": [{"name": "Budget 1", "scope": "router"}]},
                "rules": [{"name": "Route.A", "route": {"backends": ["x"]}}]
            }
        });
        let rule = "must be 1 to 63 characters of lowercase letters, digits or '-', starting with a letter or digit";
        assert_eq!(
            lines(&doc),
            [
                format!("E spec.backends[0].name: {rule}, found \"Qwen\""),
                format!("E spec.backends[1].name: {rule}, found \"-qwen\""),
                format!("E spec.backends[2].name: {rule}, found \"qwen_local\""),
                format!("E spec.backends[3].name: {rule}, found \"\""),
                format!("E spec.backends[5].name: {rule}, found \"{long}\""),
                format!("E spec.policy.budgets[0].name: {rule}, found \"Budget 1\""),
                format!("E spec.rules[0].name: {rule}, found \"Route.A\""),
            ]
        );
    }

    #[test]
    fn usd_patterns() {
        let doc = yaml(
            "metadata: {name: r}\nspec:\n  backends:\n  - name: a\n    costPerMillionTokens:\n      \
             completionUSD: \"$15\"\n      promptUSD: \"1.\"\n  - name: b\n    costPerMillionTokens:\n      \
             completionUSD: \".5\"\n      promptUSD: \"3.25\"\n  policy:\n    budgets:\n    - name: x\n      \
             scope: router\n      maxUSD: \"1,000\"",
        );
        let rule = "must be an amount of US dollars written as digits, optionally followed by '.' and more digits \
                    (e.g. \"15\" or \"0.25\")";
        assert_eq!(
            lines(&doc),
            [
                format!("E spec.backends[0].costPerMillionTokens.completionUSD: {rule}, found \"$15\""),
                format!("E spec.backends[0].costPerMillionTokens.promptUSD: {rule}, found \"1.\""),
                format!("E spec.backends[1].costPerMillionTokens.completionUSD: {rule}, found \".5\""),
                format!("E spec.policy.budgets[0].maxUSD: {rule}, found \"1,000\""),
            ]
        );
    }

    #[test]
    fn usd_as_a_bare_number_suggests_quotes() {
        let doc = router("policy:\n  budgets:\n  - {name: b, scope: router, maxUSD: 500}");
        assert_eq!(
            lines(&doc),
            ["E spec.policy.budgets[0].maxUSD: must be a string, found the number 500; quote it: maxUSD: \"500\""]
        );
    }

    #[test]
    fn quantities() {
        let doc = router(
            "proxy:\n  resources:\n    limits:\n      a: \"1e\"\n      b: true\n      c: 2.0\n      cpu: 0.5\n      \
             d: -1\n      memory: 1.5 GB\n    requests:\n      cpu: \"+.5\"\n      e: \"1E\"\n      f: \"1e-3\"\n      \
             g: \"1.5e+2.5\"\n      h: \".\"\n      i: \"1Mi5\"\n      memory: 1Ki",
        );
        let rule = QUANTITY_RULE;
        assert_eq!(
            lines(&doc),
            [
                format!("E spec.proxy.resources.limits.a: {rule}, found \"1e\""),
                "E spec.proxy.resources.limits.b: must be a quantity (a string such as \"500m\" or an integer), \
                 found the boolean true"
                    .to_string(),
                "E spec.proxy.resources.limits.cpu: must be a quantity (a string such as \"500m\" or an integer), \
                 found the number 0.5; quote it: cpu: \"0.5\""
                    .to_string(),
                format!("E spec.proxy.resources.limits.memory: {rule}, found \"1.5 GB\""),
                format!("E spec.proxy.resources.requests.h: {rule}, found \".\""),
                format!("E spec.proxy.resources.requests.i: {rule}, found \"1Mi5\""),
            ]
        );
    }

    #[test]
    fn quantity_pattern_by_hand() {
        for ok in ["0", "1", "+1", "-1", "1.", ".5", "1.5", "500m", "1Ki", "2Ei", "3E", "1e3", "1E+3", "1e-3", "1.5e.5"]
        {
            assert!(is_quantity(ok), "{ok:?} should match");
        }
        for bad in ["", "+", ".", "m", "1 m", "1KI", "1ki", "1e", "1e+", "1Mi5", "--1", "1.2.3", "1b", "1Kii", "0x10"] {
            assert!(!is_quantity(bad), "{bad:?} should not match");
        }
    }

    #[test]
    fn numeric_bounds() {
        let doc = router(
            "endpoint:\n  nodePort: 32768\n  port: 0\npolicy:\n  budgets:\n  \
             - {maxTokens: 0, name: b, scope: router, windowSeconds: 3000000000}\n\
             proxy:\n  replicas: 11\n  revisionHistoryLimit: -1",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.endpoint.nodePort: must be at most 32767, found 32768",
                "E spec.endpoint.port: must be at least 1, found 0",
                "E spec.policy.budgets[0].maxTokens: must be at least 1, found 0",
                "E spec.policy.budgets[0].windowSeconds: must fit in a 32-bit integer (-2147483648 to \
                 2147483647), found 3000000000",
                "E spec.proxy.replicas: must be at most 10, found 11",
                "E spec.proxy.revisionHistoryLimit: must be at least 0, found -1",
            ]
        );
        let huge = json!({"metadata": {"name": "r"}, "spec": {"backends": [{"name": "a", "weight": u64::MAX}]}});
        assert_eq!(
            lines(&huge),
            ["E spec.backends[0].weight: must fit in a 32-bit integer (-2147483648 to 2147483647), found \
              18446744073709551615"]
        );
    }

    #[test]
    fn min_items_and_min_length() {
        let doc = yaml(
            "metadata: {name: r}\nspec:\n  backends: []\n  policy:\n    auth:\n      allowlists: [{team: \"\"}]\n      \
             jwt: {issuer: \"\", jwksURI: u, provider: p, teamClaim: t}\n  rules:\n  - name: r\n    \
             route: {backends: []}",
        );
        assert_eq!(
            lines(&doc),
            [
                "E spec.backends: must have at least 1 item",
                "E spec.policy.auth.allowlists[0].team: must not be empty",
                "E spec.policy.auth.jwt.issuer: must not be empty",
                "E spec.rules[0].route.backends: must have at least 1 item",
            ]
        );
    }

    #[test]
    fn duplicate_claims() {
        let doc = router("proxy:\n  resources:\n    claims: [{name: gpu}, {name: nic}, {name: gpu, request: big}]");
        assert_eq!(
            lines(&doc),
            ["E spec.proxy.resources.claims[2]: duplicate entry: name \"gpu\" is already used by item 0"]
        );
    }

    #[test]
    fn unknown_fields_are_warnings_with_suggestions() {
        let doc = yaml(
            "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nextra: ignored\n\
             metadata: {name: r, finalizers: [x], whatever: 1}\nspec:\n  backend: []\n  backends:\n  \
             - name: a\n    inferenceServiceref: {name: q}\n    zzz: 1\n  proxy:\n    podLabel: {a: b}\n    \
             replica: 2\n",
        );
        assert_eq!(
            lines(&doc),
            [
                "W spec.backend: unknown field; did you mean backends?",
                "W spec.backends[0].inferenceServiceref: unknown field; did you mean inferenceServiceRef?",
                "W spec.backends[0].zzz: unknown field; known fields here: capabilities, costPerMillionTokens, \
                 displayName, external, healthCheck, inferenceServiceRef, name, tier, timeout, weight",
                "W spec.proxy.podLabel: unknown field; did you mean podLabels?",
                "W spec.proxy.replica: unknown field; did you mean replicas?",
            ]
        );
    }

    #[test]
    fn suggestions() {
        let proxy = known_fields("spec.proxy").expect("spec.proxy is an object");
        let backend = known_fields("spec.backends[0]").expect("a backend is an object");
        let spec = known_fields("spec").expect("spec is an object");
        let cases: &[(&str, &[&str], Option<&str>)] = &[
            ("podLabel", &proxy, Some("podLabels")),
            ("replica", &proxy, Some("replicas")),
            ("backend", &spec, Some("backends")),
            ("inferenceServiceref", &backend, Some("inferenceServiceRef")),
            ("INFERENCESERVICEREF", &backend, Some("inferenceServiceRef")),
            ("zzz", &proxy, None),
            ("zzz", &spec, None),
            ("nodeselector", &proxy, Some("nodeSelector")),
            ("imagePulSecrets", &proxy, Some("imagePullSecrets")),
            ("reqeusts", &["limits", "requests", "claims"], Some("requests")),
            ("defualtRoute", &spec, Some("defaultRoute")),
            ("capability", &backend, Some("capabilities")),
            ("nmae", &backend, Some("name")),
            ("x", &backend, None),
            ("", &backend, None),
            ("endpoints", &spec, Some("endpoint")),
            ("polcy", &spec, Some("policy")),
            ("image", &[], None),
        ];
        for (unknown, known, expected) in cases {
            assert_eq!(suggest(unknown, known).as_deref(), *expected, "suggest({unknown:?})");
        }
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("reqeusts", "requests"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
    }

    #[test]
    fn known_fields_by_path() {
        assert_eq!(known_fields("spec.rules[3].route"), Some(vec!["backends", "strategy"]));
        assert_eq!(known_fields("spec.rules.route"), Some(vec!["backends", "strategy"]));
        assert_eq!(known_fields("spec.policy.budgets"), known_fields("spec.policy.budgets[0]"));
        assert_eq!(known_fields("spec.backends[0].external.credentialsSecretRef"), Some(vec!["name"]));
        assert_eq!(known_fields(""), Some(vec!["apiVersion", "kind", "metadata", "spec", "status"]));
        assert_eq!(known_fields("spec.proxy.podLabels"), None);
        assert_eq!(known_fields("spec.proxy.replicas"), None);
        assert_eq!(known_fields("spec.nope"), None);
        let proxy = known_fields("spec.proxy").unwrap_or_default();
        assert!(proxy.contains(&"podLabels") && proxy.contains(&"podAnnotations"));
    }

    #[test]
    fn label_and_annotation_syntax() {
        let doc = yaml(
            "metadata:\n  annotations:\n    Example.com/ok: x\n  labels:\n    bad key: v\n  name: r\nspec:\n  \
             backends: [{name: a}]\n  proxy:\n    nodeSelector:\n      kubernetes.io/hostname: node_1.\n    \
             podAnnotations:\n      Example.com/fine: \"any value at all, spaces and: colons\"\n      bad_/x: z\n    \
             podLabels:\n      Example.com/team: \"has space\"\n      a/b/c: x\n      example.com/: x\n      \
             ok: \"-dash\"\n",
        );
        let three = "invalid key: a qualified name must consist of alphanumeric characters, '-', '_' or '.', and \
                     must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', \
                     regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS \
                     subdomain prefix and '/' (e.g. 'example.com/MyName')";
        let name_part = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end \
                         with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for \
                         validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        let prefix_part = "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
                           characters, '-' or '.', and must start and end with an alphanumeric character (e.g. \
                           'example.com', regex used for validation is \
                           '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
        let value_rule = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or \
                          '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or \
                          'my_value',  or '12345', regex used for validation is \
                          '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
        assert_eq!(
            lines(&doc),
            [
                format!("E metadata.labels[\"bad key\"]: invalid key: {name_part}"),
                format!(
                    "E spec.proxy.nodeSelector[\"kubernetes.io/hostname\"]: invalid value \"node_1.\": {value_rule}"
                ),
                format!("E spec.proxy.podAnnotations[\"bad_/x\"]: invalid key: {prefix_part}"),
                format!("E spec.proxy.podLabels[\"Example.com/team\"]: invalid key: {prefix_part}"),
                format!("E spec.proxy.podLabels[\"Example.com/team\"]: invalid value \"has space\": {value_rule}"),
                format!("E spec.proxy.podLabels[\"a/b/c\"]: {three}"),
                "E spec.proxy.podLabels[\"example.com/\"]: invalid key: name part must be non-empty".to_string(),
                format!("E spec.proxy.podLabels.ok: invalid value \"-dash\": {value_rule}"),
            ]
        );
    }

    #[test]
    fn long_label_values() {
        let ok = "v".repeat(63);
        let too_long = "v".repeat(64);
        let doc = json!({
            "metadata": {"name": "r"},
            "spec": {"backends": [{"name": "a"}], "proxy": {"podLabels": {"a": ok, "b": too_long}}}
        });
        assert_eq!(
            lines(&doc),
            [format!(
                "E spec.proxy.podLabels.b: invalid value \"{too_long}\": must be no more than 63 characters (found 64)"
            )]
        );
    }

    #[test]
    fn annotation_total_size() {
        let big = "x".repeat(metadata::TOTAL_ANNOTATION_SIZE_LIMIT);
        let doc = json!({
            "metadata": {"name": "r", "annotations": {"a": big.clone()}},
            "spec": {"backends": [{"name": "a"}], "proxy": {"podAnnotations": {"k": big, "ok": 1}}}
        });
        let found = lines(&doc);
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(
            found[0],
            "E metadata.annotations: too long: keys and values together must be no more than 262144 bytes \
             (256 KiB), found 262145"
        );
        assert!(found[1].starts_with("E spec.proxy.podAnnotations.ok: must be a string, found the number 1"));
        assert_eq!(
            found[2],
            "E spec.proxy.podAnnotations: too long: keys and values together must be no more than 262144 bytes \
             (256 KiB), found 262145"
        );
    }

    #[test]
    fn long_strings_are_shortened_in_messages() {
        let long = "Q".repeat(200);
        let doc = json!({"metadata": {"name": "r"}, "spec": {"backends": [{"name": "a", "tier": long}]}});
        let found = lines(&doc);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with(&format!(
                "E spec.backends[0].tier: unsupported value \"{}\"... (200 characters);",
                "Q".repeat(40)
            )),
            "{found:?}"
        );
    }

    #[test]
    fn metadata_name_and_namespace() {
        let doc = json!({"metadata": {"name": "Coding_Router", "namespace": "llm.prod"}, "spec": {"backends": [{"name": "a"}]}});
        assert_eq!(
            lines(&doc),
            [
                "E metadata.name: invalid name \"Coding_Router\": a lowercase RFC 1123 subdomain must consist of \
                 lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric \
                 character (e.g. 'example.com', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "E metadata.namespace: invalid namespace \"llm.prod\": must not contain dots",
            ]
        );
        let empty = json!({"metadata": {"name": "", "namespace": ""}, "spec": {"backends": [{"name": "a"}]}});
        assert_eq!(lines(&empty), ["E metadata.name: must not be empty"]);
        let wrong = json!({"metadata": {"labels": ["a"], "name": 5}, "spec": {"backends": [{"name": "a"}]}});
        assert_eq!(
            lines(&wrong),
            [
                "E metadata.labels: must be a map, found a list",
                "E metadata.name: must be a string, found the number 5; quote it: name: \"5\"",
            ]
        );
        let dotted = json!({"metadata": {"name": "my.router"}, "spec": {"backends": [{"name": "a"}]}});
        assert_eq!(lines(&dotted), Vec::<String>::new());
    }

    #[test]
    fn not_an_object_at_all() {
        assert_eq!(lines(&json!([1, 2])), ["E (document): must be an object (a ModelRouter manifest), found a list"]);
        assert_eq!(lines(&Value::Null), ["E (document): must be an object (a ModelRouter manifest), found null"]);
        assert_eq!(
            lines(&json!({"metadata": "r", "spec": 3})),
            ["E metadata: must be an object, found a string \"r\"", "E spec: must be an object, found the number 3"]
        );
    }

    #[test]
    fn odd_keys_get_bracketed_paths() {
        let doc = json!({"metadata": {"name": "r"}, "spec": {"backends": [{"": 2, "name": "a", "we ight": 1}]}});
        let found = lines(&doc);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("W spec.backends[0][\"\"]: unknown field;"), "{found:?}");
        assert!(found[1].starts_with("W spec.backends[0][\"we ight\"]: unknown field; did you mean weight?"));
    }

    #[test]
    fn severities() {
        let findings = check_model_router(&router("proxy:\n  replica: 1\n  replicas: 0"));
        let severities: Vec<Severity> = findings.iter().map(|finding| finding.severity).collect();
        assert_eq!(severities, [Severity::Warning, Severity::Error]);
    }

    /// Field names the schema knows, so that random documents reach deep.
    const VOCABULARY: &[&str] = &[
        "apiVersion",
        "kind",
        "metadata",
        "name",
        "namespace",
        "labels",
        "annotations",
        "spec",
        "status",
        "backends",
        "rules",
        "policy",
        "proxy",
        "endpoint",
        "gateway",
        "gatewayRef",
        "mcpServer",
        "enabled",
        "external",
        "provider",
        "model",
        "url",
        "credentialsSecretRef",
        "healthCheck",
        "intervalSeconds",
        "inferenceServiceRef",
        "tier",
        "weight",
        "timeout",
        "capabilities",
        "costPerMillionTokens",
        "promptUSD",
        "completionUSD",
        "displayName",
        "match",
        "route",
        "strategy",
        "headers",
        "models",
        "taskComplexity",
        "latencySLOMs",
        "failClosed",
        "budgets",
        "scope",
        "maxUSD",
        "maxTokens",
        "auth",
        "jwt",
        "allowlists",
        "team",
        "issuer",
        "auditLog",
        "sink",
        "classification",
        "mode",
        "replicas",
        "resources",
        "limits",
        "requests",
        "claims",
        "cpu",
        "podLabels",
        "podAnnotations",
        "nodeSelector",
        "imagePullSecrets",
        "port",
        "nodePort",
        "type",
        "dataPlane",
        "example.com/x",
        "a/b/c",
        "",
    ];

    fn arbitrary_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            prop::sample::select(VOCABULARY).prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
            "[0-9.+eEKMGi-]{0,6}".prop_map(Value::from),
        ];
        let key = prop_oneof![3 => prop::sample::select(VOCABULARY).prop_map(str::to_string), 1 => ".{0,10}"];
        leaf.prop_recursive(6, 96, 8, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((key.clone(), inner), 0..8)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<String, Value>>())),
            ]
        })
    }

    proptest! {
        #[test]
        fn never_panics_on_arbitrary_json(doc in arbitrary_json()) {
            let _ = check_model_router(&doc);
        }

        #[test]
        fn never_panics_with_arbitrary_spec_and_metadata(spec in arbitrary_json(), meta in arbitrary_json()) {
            let doc = json!({"apiVersion": "inference.llmkube.dev/v1alpha1", "kind": "ModelRouter", "metadata": meta, "spec": spec});
            for finding in check_model_router(&doc) {
                prop_assert!(finding.path.starts_with("spec") || finding.path.starts_with("metadata"), "{}", finding);
                prop_assert!(!finding.message.is_empty());
            }
        }

        #[test]
        fn arbitrary_strings_never_panic_in_text_rules(s in "\\PC{0,80}") {
            let _ = is_quantity(&s);
            let _ = is_usd(&s);
            let _ = is_short_name(&s);
            let _ = suggest(&s, &["podLabels", "replicas"]);
        }
    }
}
