//! What CEL rules (`x-kubernetes-validations`) may cost, as the API server
//! bounds it: a CRD whose rule could cost too much is refused when it is
//! created, and an object whose rules would cost too much to check is
//! refused without them being run to the end.
//!
//! The limits are the API server's (k8s.io/apiextensions-apiserver
//! `pkg/apis/apiextensions/validation`: `StaticEstimatedCostLimit`,
//! `StaticEstimatedCRDCostLimit`; k8s.io/apiserver `pkg/apis/cel/config.go`:
//! `PerCallLimit`, `RuntimeCELCostBudget`). The cost model is cel-go's
//! (`checker/cost.go`, `common/cost.go`): an identifier or a select costs
//! 1, a constant 0, a list literal 10, a map 30, a call 1 plus its
//! arguments, `&&`, `||` and `?:` their operands only, a string traversal
//! a tenth of the string's length, a regex match that times a quarter of
//! the pattern's length, and a comprehension (`all`, `exists`, `map`,
//! `filter`, ...) its range plus the range's size times its body.
//!
//! Sizes come from the schema at CRD load (`maxItems`, `maxLength`,
//! `maxProperties`, or else how many of the smallest element fit in a
//! 3 MiB request, as apiextensions' `estimateMaxArrayItemsFromMinSize`
//! does), and from the object itself when it is checked: the runtime
//! budget is judged before evaluation, from the sizes the object has, so
//! that a rule that would run for minutes is refused at once. This is a
//! model of the estimator for the functions CRD rules use, not a port of
//! every function's cost: a call it does not know costs 1 plus its
//! arguments.

use std::collections::HashMap;

use cel::common::ast::{Expr, LiteralValue};
use serde_json::Value;

use super::Finding;
use crate::input::{child_path, item_path};

/// The largest estimated cost of one rule, times the times it may run
/// (StaticEstimatedCostLimit).
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;
/// The largest estimated cost of all a CRD's rules together
/// (StaticEstimatedCRDCostLimit).
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;
/// The cost one evaluation of one rule may reach (PerCallLimit).
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// The cost all the rules checking one object may reach together
/// (RuntimeCELCostBudget).
pub const RUNTIME_COST_BUDGET: u64 = 10_000_000;
/// The largest request the API server takes: what bounds a list, a map or
/// a string the schema leaves unbounded.
const MAX_REQUEST_SIZE_BYTES: u64 = 3 * 1024 * 1024;

const SELECT_AND_IDENT_COST: u64 = 1;
const LIST_CREATE_BASE_COST: u64 = 10;
const MAP_CREATE_BASE_COST: u64 = 30;
const STRUCT_CREATE_BASE_COST: u64 = 40;
const CALL_COST: u64 = 1;
const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;

/// What an expression is known to be, for the sizes of what it yields.
#[derive(Clone)]
enum Shape<'a> {
    /// A value the schema node describes (at CRD load).
    Schema(&'a Value),
    /// The values it takes on the object being checked.
    Values(Vec<&'a Value>),
    /// A list the rule builds: its size and its elements.
    List(u64, Box<Shape<'a>>),
    /// A string of at most this length.
    Str(u64),
    Unknown,
}

/// Estimates with sizes from the schema, or from an object.
struct Coster<'a> {
    /// The size of what nothing bounds: a 3 MiB request at CRD load, the
    /// number of values under `self` on an object.
    unknown_size: u64,
    scope: Vec<(String, Shape<'a>)>,
}

impl<'a> Coster<'a> {
    fn size(&self, shape: &Shape<'a>) -> u64 {
        match shape {
            Shape::Schema(s) => schema_size(s),
            Shape::Values(values) => values.iter().map(|v| value_size(v)).max().unwrap_or(0),
            Shape::List(n, _) | Shape::Str(n) => *n,
            Shape::Unknown => self.unknown_size,
        }
    }

    fn field(&self, shape: &Shape<'a>, name: &str) -> Shape<'a> {
        match shape {
            Shape::Schema(s) => match s.get("properties").and_then(|p| p.get(name)) {
                Some(field) => Shape::Schema(field),
                None => match s.get("additionalProperties") {
                    Some(field @ Value::Object(_)) => Shape::Schema(field),
                    _ => Shape::Unknown,
                },
            },
            Shape::Values(values) => Shape::Values(values.iter().filter_map(|v| v.get(name)).collect()),
            _ => Shape::Unknown,
        }
    }

    /// What a comprehension over `shape` binds its variable to: a list's
    /// elements, a map's keys.
    fn element(&self, shape: &Shape<'a>) -> Shape<'a> {
        match shape {
            Shape::Schema(s) => match s.get("items") {
                Some(items) => Shape::Schema(items),
                None => Shape::Str(self.unknown_size),
            },
            Shape::Values(values) => {
                let mut elements = Vec::new();
                let mut longest_key = 0;
                for v in values {
                    match v {
                        Value::Array(items) => elements.extend(items.iter()),
                        Value::Object(map) => {
                            longest_key =
                                map.keys().map(|k| k.chars().count() as u64).max().unwrap_or(0).max(longest_key)
                        }
                        _ => {}
                    }
                }
                if elements.is_empty() && longest_key > 0 {
                    Shape::Str(longest_key)
                } else {
                    Shape::Values(elements)
                }
            }
            Shape::List(_, element) => (**element).clone(),
            _ => Shape::Unknown,
        }
    }

    fn lookup(&self, name: &str) -> Shape<'a> {
        self.scope.iter().rev().find(|(n, _)| n == name).map(|(_, s)| s.clone()).unwrap_or(Shape::Unknown)
    }

    /// The largest cost of `expr`, and what it yields.
    fn cost(&mut self, expr: &Expr) -> (u64, Shape<'a>) {
        match expr {
            Expr::Unspecified => (0, Shape::Unknown),
            Expr::Literal(LiteralValue::String(s)) => (0, Shape::Str(s.chars().count() as u64)),
            Expr::Literal(_) => (0, Shape::Unknown),
            Expr::Ident(name) => (SELECT_AND_IDENT_COST, self.lookup(name)),
            Expr::Select(select) => {
                let (cost, shape) = self.cost(&select.operand.expr);
                (cost.saturating_add(SELECT_AND_IDENT_COST), self.field(&shape, &select.field))
            }
            Expr::List(list) => {
                let mut cost = LIST_CREATE_BASE_COST;
                let mut element = Shape::Unknown;
                for (i, e) in list.elements.iter().enumerate() {
                    let (c, shape) = self.cost(&e.expr);
                    cost = cost.saturating_add(c);
                    if i == 0 {
                        element = shape;
                    }
                }
                (cost, Shape::List(list.elements.len() as u64, Box::new(element)))
            }
            Expr::Map(map) => (self.entries_cost(MAP_CREATE_BASE_COST, &map.entries), Shape::Unknown),
            Expr::Struct(structure) => (self.entries_cost(STRUCT_CREATE_BASE_COST, &structure.entries), Shape::Unknown),
            Expr::Call(call) => self.call(call),
            Expr::Comprehension(comprehension) => self.comprehension(comprehension),
        }
    }

    /// A map or struct literal: its base cost and its entries'.
    fn entries_cost(&mut self, base: u64, entries: &[cel::common::ast::IdedEntryExpr]) -> u64 {
        entries.iter().fold(base, |sum, entry| {
            let cost = match &entry.expr {
                cel::common::ast::EntryExpr::MapEntry(e) => {
                    self.cost(&e.key.expr).0.saturating_add(self.cost(&e.value.expr).0)
                }
                cel::common::ast::EntryExpr::StructField(f) => self.cost(&f.value.expr).0,
            };
            sum.saturating_add(cost)
        })
    }

    fn call(&mut self, call: &cel::common::ast::CallExpr) -> (u64, Shape<'a>) {
        let target = call.target.as_ref().map(|t| self.cost(&t.expr));
        let args: Vec<(u64, Shape<'a>)> = call.args.iter().map(|a| self.cost(&a.expr)).collect();
        let operands = target.iter().chain(args.iter()).fold(0u64, |sum, (c, _)| sum.saturating_add(*c));
        // The receiver: `s.contains(x)`'s `s`, or `size(s)`'s `s`.
        let subject = target.as_ref().map(|(_, s)| s).or_else(|| args.first().map(|(_, s)| s));
        let traversal = |coster: &Self, shape: Option<&Shape<'a>>| {
            shape.map_or(0, |s| by_factor(coster.size(s), STRING_TRAVERSAL_COST_FACTOR))
        };
        let (own, shape) = match call.func_name.as_str() {
            // Only the operands (cel-go: logical operators add no call cost).
            "_&&_" | "_||_" => (0, Shape::Unknown),
            // The condition and the dearer branch.
            "_?_:_" => {
                let condition = args.first().map_or(0, |(c, _)| *c);
                let branch = args.iter().skip(1).map(|(c, _)| *c).max().unwrap_or(0);
                let shape = args.get(1).map(|(_, s)| s.clone()).unwrap_or(Shape::Unknown);
                return (condition.saturating_add(branch), shape);
            }
            "_[_]" => {
                let container = args.first().map(|(_, s)| s.clone()).unwrap_or(Shape::Unknown);
                let shape = match (&container, args.get(1).map(|(_, s)| s)) {
                    (Shape::Schema(s), _) if s.get("items").is_some() => self.element(&container),
                    (Shape::Values(values), _) if values.iter().any(|v| v.is_array()) => self.element(&container),
                    _ => Shape::Unknown,
                };
                (CALL_COST, shape)
            }
            "contains" | "startsWith" | "endsWith" | "lowerAscii" | "upperAscii" | "trim" | "indexOf"
            | "lastIndexOf" | "replace" | "substring" | "charAt" | "reverse" => {
                (CALL_COST.saturating_add(traversal(self, subject)), Shape::Str(subject.map_or(0, |s| self.size(s))))
            }
            "split" => {
                let length = subject.map_or(0, |s| self.size(s));
                (CALL_COST.saturating_add(traversal(self, subject)), Shape::List(length, Box::new(Shape::Str(length))))
            }
            "matches" | "find" | "findAll" => {
                let text = traversal(self, subject).max(1);
                let pattern = if target.is_some() { args.first() } else { args.get(1) };
                let pattern =
                    pattern.map_or(1, |(_, s)| by_factor(self.size(s), REGEX_STRING_LENGTH_COST_FACTOR).max(1));
                (CALL_COST.saturating_add(text.saturating_mul(pattern)), Shape::Unknown)
            }
            // Membership in a list is a scan of it; in a map, one look-up.
            "@in" => {
                let container = args.get(1).map(|(_, s)| s);
                let scan = match container {
                    Some(Shape::Schema(s)) if s.get("items").is_some() => self.size(&Shape::Schema(s)),
                    Some(shape @ (Shape::List(..) | Shape::Values(_))) => self.size(shape),
                    _ => 0,
                };
                (CALL_COST.saturating_add(scan), Shape::Unknown)
            }
            // Kubernetes' list library walks its receiver.
            "isSorted" | "sum" | "min" | "max" | "join" => {
                (CALL_COST.saturating_add(subject.map_or(0, |s| self.size(s))), Shape::Unknown)
            }
            "_+_" => {
                let sizes: u64 = args.iter().map(|(_, s)| self.size(s)).fold(0, u64::saturating_add);
                let shape = match args.first().map(|(_, s)| s) {
                    Some(Shape::Str(_)) => Shape::Str(sizes),
                    Some(first) => Shape::List(sizes, Box::new(self.element(first))),
                    None => Shape::Unknown,
                };
                (CALL_COST, shape)
            }
            _ => (CALL_COST, Shape::Unknown),
        };
        (operands.saturating_add(own), shape)
    }

    fn comprehension(&mut self, c: &cel::common::ast::ComprehensionExpr) -> (u64, Shape<'a>) {
        let (range_cost, range) = self.cost(&c.iter_range.expr);
        let (init_cost, init) = self.cost(&c.accu_init.expr);
        let count = self.size(&range);
        let element = self.element(&range);
        let scoped = self.scope.len();
        match &c.iter_var2 {
            // Two variables: a list's index and element, a map's key and value.
            Some(second) => {
                self.scope.push((c.iter_var.clone(), Shape::Unknown));
                self.scope.push((second.clone(), element.clone()));
            }
            None => self.scope.push((c.iter_var.clone(), element.clone())),
        }
        self.scope.push((c.accu_var.clone(), init.clone()));
        let (condition, _) = self.cost(&c.loop_cond.expr);
        let (step, _) = self.cost(&c.loop_step.expr);
        let (result_cost, result) = self.cost(&c.result.expr);
        self.scope.truncate(scoped);
        let cost = range_cost
            .saturating_add(init_cost)
            .saturating_add(count.saturating_mul(condition.saturating_add(step)))
            .saturating_add(result_cost);
        // `map` and `filter` build a list no longer than their range (its
        // elements taken as the range's: close enough for sizes).
        let shape = match (&c.accu_init.expr, result) {
            (Expr::List(_), _) => Shape::List(count, Box::new(element)),
            (_, result) => result,
        };
        (cost, shape)
    }
}

/// `ceil(n × factor)`, as cel-go multiplies a size by a cost factor.
fn by_factor(n: u64, factor: f64) -> u64 {
    let product = (n as f64 * factor).ceil();
    if product >= u64::MAX as f64 {
        u64::MAX
    } else {
        product as u64
    }
}

/// How many values a schema node holds at most: its bound, or how many of
/// its smallest elements fit in one request.
fn schema_size(s: &Value) -> u64 {
    let bound = |key: &str| s.get(key).and_then(Value::as_u64);
    match s.get("type").and_then(Value::as_str) {
        Some("array") => bound("maxItems").unwrap_or_else(|| {
            // estimateMaxArrayItemsFromMinSize: `[`, `]`, a comma each.
            (MAX_REQUEST_SIZE_BYTES - 2) / (min_json_size(s.get("items")) + 1)
        }),
        Some("string") => bound("maxLength").unwrap_or_else(|| max_string_length(s)),
        Some("object") if s.get("additionalProperties").is_some_and(Value::is_object) => {
            bound("maxProperties").unwrap_or_else(|| {
                // estimateMaxAdditionalPropertiesFromMinSize: a key's quotes,
                // the colon and the comma around the smallest value.
                (MAX_REQUEST_SIZE_BYTES - 2) / (min_json_size(s.get("additionalProperties")) + 6)
            })
        }
        Some("object") => s.get("properties").and_then(Value::as_object).map_or(0, |p| p.len() as u64),
        _ if s.get("x-kubernetes-int-or-string").and_then(Value::as_bool) == Some(true) => MAX_REQUEST_SIZE_BYTES - 2,
        _ => 1,
    }
}

/// The longest a string the schema leaves unbounded can be (the API
/// server's estimateMaxStringLengthPerRequest; an enum's longest value).
fn max_string_length(s: &Value) -> u64 {
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        return values.iter().filter_map(Value::as_str).map(|v| v.len() as u64).max().unwrap_or(0);
    }
    match s.get("format").and_then(Value::as_str) {
        // MaxDurationSizeJSON, JSONDateSize, MaxDatetimeSizeJSON.
        Some("duration") => 32,
        Some("date") => 12,
        Some("date-time") => 42,
        _ => MAX_REQUEST_SIZE_BYTES - 2,
    }
}

/// The fewest bytes a value of the schema takes as JSON (the API server's
/// estimateMinSizeJSON): what a request full of them holds most of.
fn min_json_size(s: Option<&Value>) -> u64 {
    let Some(s) = s else { return 1 };
    match s.get("type").and_then(Value::as_str) {
        Some("boolean") => 4,
        Some("number" | "integer") => 1,
        Some("string") => 2,
        Some("array") => 2,
        Some("object") => {
            let properties = s.get("properties");
            let required = s.get("required").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            required.iter().filter_map(Value::as_str).fold(2, |size, name| {
                match properties.and_then(|p| p.get(name)) {
                    // A field with a default is filled in by the server.
                    Some(field) if field.get("default").is_none() => {
                        size + name.len() as u64 + min_json_size(Some(field)) + 4
                    }
                    _ => size,
                }
            })
        }
        _ => 1,
    }
}

/// How many values `v` holds, for a comprehension over it or a string
/// traversal of it.
fn value_size(v: &Value) -> u64 {
    match v {
        Value::Array(items) => items.len() as u64,
        Value::Object(map) => map.len() as u64,
        Value::String(s) => s.chars().count() as u64,
        _ => 1,
    }
}

/// Every value under `v`, itself included: what an expression the model
/// cannot size could range over on this object.
fn values_under(v: &Value) -> u64 {
    match v {
        Value::Array(items) => items.iter().map(values_under).fold(1, u64::saturating_add),
        Value::Object(map) => map.values().map(values_under).fold(1, u64::saturating_add),
        Value::String(s) => (s.len() as u64).max(1),
        _ => 1,
    }
}

fn compile(rule: &str) -> Option<cel::Program> {
    cel::Program::compile(rule).ok()
}

/// Each rule's program by its text (`None` when it does not compile).
pub type Programs = HashMap<String, Option<cel::Program>>;

/// Compiles every rule of a schema (its properties, items and map values
/// too) into `programs`, each text once.
pub fn compile_rules(schema: &Value, programs: &mut Programs) {
    for (_, rule) in rules(schema) {
        if !programs.contains_key(rule) {
            programs.insert(rule.to_string(), compile(rule));
        }
    }
    let properties = schema.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.values());
    let items = schema.get("items").into_iter();
    let values = schema.get("additionalProperties").filter(|v| v.is_object()).into_iter();
    for child in properties.chain(items).chain(values) {
        compile_rules(child, programs);
    }
}

/// The `rule` strings of a schema node's `x-kubernetes-validations`.
fn rules(schema: &Value) -> impl Iterator<Item = (usize, &str)> {
    schema
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, r)| Some((i, r.get("rule")?.as_str()?)))
}

/// `exceeds budget by factor of …`, worded as the API server words it.
fn exceeds(what: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_string()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{what} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, \
         and maxLength where arrays, maps, and strings are declared)"
    )
}

/// The rules of a CRD's schema whose estimated cost the API server would
/// refuse at CRD creation, each as `path: message`.
pub fn check_schema(schema: &Value) -> Vec<String> {
    let mut refusals = Vec::new();
    let mut total = 0u64;
    estimate_node(schema, "", 1, &mut total, &mut refusals);
    if total > STATIC_ESTIMATED_CRD_COST_LIMIT {
        refusals.push(format!(
            "x-kubernetes-validations: {}",
            exceeds("total CRD cost", total, STATIC_ESTIMATED_CRD_COST_LIMIT)
        ));
    }
    refusals
}

fn estimate_node(schema: &Value, path: &str, cardinality: u64, total: &mut u64, refusals: &mut Vec<String>) {
    for (i, rule) in rules(schema) {
        let Some(program) = compile(rule) else { continue };
        let mut coster = Coster {
            unknown_size: MAX_REQUEST_SIZE_BYTES,
            scope: vec![("self".to_string(), Shape::Schema(schema)), ("oldSelf".to_string(), Shape::Schema(schema))],
        };
        let (cost, _) = coster.cost(&program.expression().expr);
        let cost = cost.saturating_mul(cardinality);
        *total = total.saturating_add(cost);
        if cost > STATIC_ESTIMATED_COST_LIMIT {
            let shown = if path.is_empty() { "<root>" } else { path };
            refusals.push(format!(
                "{shown}: x-kubernetes-validations[{i}] {rule:?}: {}",
                exceeds("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT)
            ));
        }
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, field) in properties {
            estimate_node(field, &child_path(path, name), cardinality, total, refusals);
        }
    }
    if let Some(items) = schema.get("items") {
        let times = cardinality.saturating_mul(schema_size(schema));
        estimate_node(items, &format!("{path}[*]"), times, total, refusals);
    }
    if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
        let times = cardinality.saturating_mul(schema_size(schema));
        estimate_node(values, &format!("{path}[*]"), times, total, refusals);
    }
}

/// The rules that checking `object` would run past the API server's
/// runtime budgets: one finding per rule over the per-call limit, and one
/// for the object when all together pass the budget. When this is not
/// empty the rules are not evaluated: the API server stops them too.
pub fn check_object(schema: &Value, programs: &Programs, object: &Value) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut total = 0u64;
    runtime_node(schema, programs, object, "", &mut total, &mut findings);
    if total > RUNTIME_COST_BUDGET && findings.is_empty() {
        findings.push(Finding::error(
            "",
            format!(
                "checking the x-kubernetes-validations rules would cost about {total}, past the API server's budget of \
                 {RUNTIME_COST_BUDGET} for one object (RuntimeCELCostBudget): it stops and refuses the object; \
                 make the lists the rules walk shorter, or the rules simpler"
            ),
        ));
    }
    findings
}

fn runtime_node<'a>(
    schema: &'a Value,
    programs: &Programs,
    value: &'a Value,
    path: &str,
    total: &mut u64,
    findings: &mut Vec<Finding>,
) {
    for (_, rule) in rules(schema) {
        let compiled;
        let program = match programs.get(rule) {
            Some(program) => program.as_ref(),
            // A schema compiled apart from its rules: compiled here.
            None => {
                compiled = compile(rule);
                compiled.as_ref()
            }
        };
        let Some(program) = program else { continue };
        let mut coster = Coster {
            unknown_size: values_under(value),
            scope: vec![
                ("self".to_string(), Shape::Values(vec![value])),
                ("oldSelf".to_string(), Shape::Values(vec![value])),
            ],
        };
        let (cost, _) = coster.cost(&program.expression().expr);
        *total = total.saturating_add(cost);
        if cost > PER_CALL_LIMIT {
            findings.push(Finding::error(
                path,
                format!(
                    "the rule {rule:?} would cost about {cost} on this object, past the API server's limit of \
                     {PER_CALL_LIMIT} for one rule (PerCallLimit): it stops the rule and refuses the object; make \
                     the lists the rule walks shorter"
                ),
            ));
        }
    }
    match value {
        Value::Object(map) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            for (key, child) in map {
                let Some(child_schema) = properties.and_then(|p| p.get(key)).or(additional) else { continue };
                // `labels["app.kubernetes.io/name"]` where a key is no plain
                // name: the paths every other finding is placed by.
                runtime_node(child_schema, programs, child, &child_path(path, key), total, findings);
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    runtime_node(item_schema, programs, item, &item_path(path, i), total, findings);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A schema whose `spec.backends` (maxItems `max`, none when `None`)
    /// carries `rule` on `spec`.
    fn schema(rule: &str, max: Option<u64>) -> Value {
        let mut backends = json!({"type": "array", "items": {"type": "object", "required": ["name"],
            "properties": {"name": {"type": "string", "maxLength": 63}}}});
        if let Some(max) = max {
            backends["maxItems"] = json!(max);
        }
        json!({"type": "object", "properties": {"spec": {"type": "object",
            "x-kubernetes-validations": [{"rule": rule}],
            "properties": {"backends": backends}}}})
    }

    fn cost_of(rule: &str, schema: &Value) -> u64 {
        let program = compile(rule).expect("compiles");
        let mut coster =
            Coster { unknown_size: MAX_REQUEST_SIZE_BYTES, scope: vec![("self".to_string(), Shape::Schema(schema))] };
        coster.cost(&program.expression().expr).0
    }

    #[test]
    fn costs_follow_cel_go_for_the_simple_forms() {
        let spec = schema("true", Some(10));
        let spec = &spec["properties"]["spec"];
        // An identifier and a select: 1 each; a constant: 0; a call: 1.
        assert_eq!(cost_of("self", spec), 1);
        assert_eq!(cost_of("size(self.backends) <= 3", spec), 1 + 1 + 1 + 1);
        // `&&` adds nothing of its own.
        assert_eq!(cost_of("true && false", spec), 0);
        // A list literal: 10 and its elements.
        assert_eq!(cost_of("[1, 2]", spec), 10);
        // A string traversal: a tenth of maxLength (63 → 7), and the call.
        assert_eq!(cost_of("self.backends[0].name.startsWith('a')", spec), 1 + 1 + 1 + 1 + 7 + 1);
    }

    #[test]
    fn a_comprehension_costs_its_body_times_its_range() {
        let spec = schema("true", Some(10));
        let spec = &spec["properties"]["spec"];
        let one = cost_of("self.backends.all(b, b.name != '')", spec);
        let nested = cost_of("self.backends.all(a, self.backends.all(b, a.name != b.name))", spec);
        assert!(nested > 9 * one, "{one} {nested}");
        assert!((10..100).contains(&one), "{one}");
    }

    #[test]
    fn a_crd_rule_over_the_estimate_limit_is_refused_as_the_api_server_refuses_it() {
        let rule =
            "self.backends.all(a, self.backends.all(b, self.backends.all(c, a.name != b.name || b.name != c.name)))";
        // Bounded: 50³ iterations of a few steps, under 10,000,000.
        assert!(check_schema(&schema(rule, Some(50))).is_empty());
        // Unbounded: as many backends as fit in 3 MiB, cubed.
        let refused = check_schema(&schema(rule, None));
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(
            refused[0].starts_with("spec: x-kubernetes-validations[0] \"self.backends.all(a,")
                && refused[0].ends_with(
                    "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or \
                     adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
                ),
            "{}",
            refused[0]
        );
        assert!(refused[1].starts_with("x-kubernetes-validations: total CRD cost exceeds budget"), "{}", refused[1]);
    }

    #[test]
    fn a_rule_under_a_list_counts_once_for_each_item_it_may_run_on() {
        let mut s = schema("true", Some(1000));
        s["properties"]["spec"]["properties"]["backends"]["items"]["x-kubernetes-validations"] =
            json!([{"rule": "self.name.matches('^[a-z]+(-[a-z]+)*$')"}]);
        // Each run: 7 (a tenth of 63) × 5 (a quarter of the 18-byte
        // pattern) and change; a thousand runs stay far under the limit.
        assert!(check_schema(&s).is_empty());
        s["properties"]["spec"]["properties"]["backends"]["items"]["properties"]["name"] = json!({"type": "string"});
        // Unbounded names: a tenth of 3 MiB each, times items.
        let refused = check_schema(&s);
        assert!(refused.iter().any(|r| r.starts_with("spec.backends[*]: x-kubernetes-validations[0]")), "{refused:?}");
    }

    #[test]
    fn the_runtime_budget_is_judged_on_the_object_before_evaluation() {
        let rule =
            "self.backends.all(a, self.backends.all(b, self.backends.all(c, a.name != b.name || b.name != c.name)))";
        let s = schema(rule, Some(500));
        let object = |n: usize| {
            let backends: Vec<Value> = (0..n).map(|i| json!({"name": format!("b{i}")})).collect();
            json!({"spec": {"backends": backends}})
        };
        assert!(check_object(&s, &Programs::new(), &object(20)).is_empty());
        let refused = check_object(&s, &Programs::new(), &object(200));
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert_eq!(refused[0].path, "spec");
        assert!(refused[0].message.contains("past the API server's limit of 1000000 for one rule"), "{}", refused[0]);
    }

    /// A finding under a map key that is no plain name (a label key) has
    /// the path every other finding has, `labels["app.kubernetes.io/x"]`,
    /// so it can be placed in the document.
    #[test]
    fn a_finding_under_a_label_key_has_a_placeable_path() {
        let rule = "self.all(a, self.all(b, self.all(c, a != b || b != c)))";
        let s = json!({"type": "object", "properties": {"labels": {"type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"},
                "x-kubernetes-validations": [{"rule": rule}]}}}});
        let items: Vec<Value> = (0..200).map(|i| json!(format!("v{i}"))).collect();
        let object = json!({"labels": {"app.kubernetes.io/x": items}});
        let refused = check_object(&s, &Programs::new(), &object);
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert_eq!(refused[0].path, "labels[\"app.kubernetes.io/x\"]");
    }

    /// A schema's rules are compiled once, each text once, wherever they
    /// sit; checking an object with them compiles nothing again.
    #[test]
    fn rules_are_compiled_once_per_schema() {
        let s = schema("size(self.backends) <= 3", Some(10));
        let mut programs = Programs::new();
        compile_rules(&s, &mut programs);
        assert_eq!(programs.keys().map(String::as_str).collect::<Vec<_>>(), ["size(self.backends) <= 3"]);
        assert!(programs.values().all(Option::is_some));
        let items: Vec<Value> = (0..3).map(|i| json!({"name": format!("b{i}")})).collect();
        assert!(check_object(&s, &programs, &json!({"spec": {"backends": items}})).is_empty());
    }
}
