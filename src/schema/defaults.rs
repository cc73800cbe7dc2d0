//! What the API server changes in a custom resource before it stores it,
//! from the structural schema: pruning (k8s.io/apiextensions-apiserver
//! `pkg/apiserver/schema/pruning`: a field the schema does not know is
//! dropped, unless `x-kubernetes-preserve-unknown-fields`, and so is a null
//! map value the field does not take and has no default for) and defaulting
//! (`pkg/apiserver/schema/defaulting`):
//!
//! - a property with a `default` that is absent — or null while the property
//!   is not `nullable` — gets a copy of the default;
//! - defaults apply only inside objects that exist: an absent parent is never
//!   created to hold a default;
//! - the walk goes through `properties`, `additionalProperties` (each value of
//!   a map) and `items` (each element of an array), including into values a
//!   default has just put in place;
//! - an explicit value always wins.

use serde_json::Value;

use super::structural::{dropped_null, non_nullable_null, Schema};

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(s: Value) -> Schema {
        Schema::compile(&s).expect("compiles")
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
}
