//! A container's process as the kubelet starts it, read off the pod
//! template: which words reach the program, per the Container API.
//!
//! - `command`, when it is not empty, replaces the image's ENTRYPOINT: its
//!   first word is the program and the rest are arguments, followed by
//!   `args` (the image's CMD is dropped).
//! - Without `command` the image's ENTRYPOINT runs, and `args` (when not
//!   empty) replaces its CMD: every word of `args` is an argument. (The
//!   operator's image has ENTRYPOINT `/manager` and no CMD.)
//! - `$(NAME)` in `command` and `args` is replaced by the container's
//!   variable `NAME`; a reference to a variable that is not defined stays as
//!   written; `$$` is one `$`; any other `$` is kept. Each `env` value is
//!   expanded the same way, from the variables defined before it.
//!
//! routerctl reads only what the Deployment holds: a variable whose value
//! comes from a ConfigMap, a Secret or a field of the pod (`valueFrom`,
//! `envFrom`) is not known, and every reference to one is reported.

use std::collections::HashMap;

use serde_json::Value;

/// What the kubelet would run, as far as the Deployment says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Launch {
    /// The arguments the program receives, after its name.
    pub args: Vec<String>,
    /// Each reference in `command` or `args` to a variable whose value
    /// the Deployment does not hold: the variable and where its value
    /// comes from. The word keeps the reference unexpanded.
    pub unknown: Vec<(String, String)>,
}

/// A variable of the container.
#[derive(Debug, Clone)]
enum Var {
    Known(String),
    /// Set by the cluster at start: where from.
    Unknown(String),
}

/// The arguments `container` (a pod template's container) starts its
/// program with.
pub fn launch(container: &Value) -> Launch {
    let words = |key: &str| -> Vec<&str> {
        match container.get(key) {
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        }
    };
    let (command, args) = (words("command"), words("args"));
    let vars = variables(container);
    let from_env = env_from(container);
    let mut unknown: Vec<(String, String)> = Vec::new();
    let mut lookup = |name: &str| -> Option<String> {
        let from = match vars.get(name) {
            Some(Var::Known(value)) => return Some(value.clone()),
            Some(Var::Unknown(from)) => from.clone(),
            None => from_env.clone()?,
        };
        if !unknown.iter().any(|(n, _)| n == name) {
            unknown.push((name.to_string(), from));
        }
        None
    };
    // The program's name is not an argument; without a command it is the
    // image's ENTRYPOINT, which the Deployment does not show.
    let passed = command.iter().skip(1).chain(args.iter());
    let args = passed.map(|word| expand(word, &mut lookup)).collect();
    Launch { args, unknown }
}

/// The container's `env`, in order, each value expanded from the ones
/// before it (and unknown when it names an unknown one).
fn variables(container: &Value) -> HashMap<String, Var> {
    let mut vars: HashMap<String, Var> = HashMap::new();
    let from_env = env_from(container);
    let Some(Value::Array(env)) = container.get("env") else { return vars };
    for entry in env {
        let Some(name) = entry.get("name").and_then(Value::as_str) else { continue };
        let var = match (entry.get("value").and_then(Value::as_str), entry.get("valueFrom")) {
            (_, Some(source)) => Var::Unknown(value_from(source)),
            (Some(value), None) => {
                let mut through: Option<String> = None;
                let expanded = expand(value, &mut |n: &str| {
                    let from = match vars.get(n) {
                        Some(Var::Known(v)) => return Some(v.clone()),
                        Some(Var::Unknown(from)) => from.clone(),
                        None => from_env.clone()?,
                    };
                    through.get_or_insert_with(|| format!("{from}, through $({n}) in env {name}"));
                    None
                });
                match through {
                    Some(from) => Var::Unknown(from),
                    None => Var::Known(expanded),
                }
            }
            (None, None) => Var::Known(String::new()),
        };
        vars.insert(name.to_string(), var);
    }
    vars
}

/// Where a `valueFrom` takes its value, in words.
fn value_from(source: &Value) -> String {
    let at = |key: &str, field: &str| source.get(key).and_then(|s| s.get(field)).and_then(Value::as_str);
    if let Some(key) = at("configMapKeyRef", "key") {
        return format!("key {key} of ConfigMap {}", at("configMapKeyRef", "name").unwrap_or("?"));
    }
    if let Some(key) = at("secretKeyRef", "key") {
        return format!("key {key} of Secret {}", at("secretKeyRef", "name").unwrap_or("?"));
    }
    if let Some(path) = at("fieldRef", "fieldPath") {
        return format!("the pod's field {path}");
    }
    if let Some(resource) = at("resourceFieldRef", "resource") {
        return format!("the container's resource {resource}");
    }
    "a valueFrom routerctl does not know".to_string()
}

/// The ConfigMaps and Secrets of `envFrom`, in words, when there are any:
/// a variable `env` does not define may come from them.
fn env_from(container: &Value) -> Option<String> {
    let Some(Value::Array(sources)) = container.get("envFrom") else { return None };
    let named: Vec<String> = sources
        .iter()
        .filter_map(|s| {
            let of = |key: &str| s.get(key).and_then(|r| r.get("name")).and_then(Value::as_str);
            of("configMapRef")
                .map(|n| format!("ConfigMap {n}"))
                .or_else(|| of("secretRef").map(|n| format!("Secret {n}")))
        })
        .collect();
    (!named.is_empty()).then(|| format!("perhaps envFrom ({})", named.join(", ")))
}

/// The Container API's expansion of `$(NAME)` references: `lookup` gives a
/// variable's value, or `None` to keep the reference as written. `$$` is a
/// `$`; a `$` before anything else, an unclosed `$(` and a final `$` stay.
pub fn expand(input: &str, lookup: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let bytes = input.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' || i + 1 == bytes.len() {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        match bytes[i + 1] {
            b'$' => {
                out.push(b'$');
                i += 2;
            }
            b'(' => match bytes[i + 2..].iter().position(|b| *b == b')') {
                Some(len) => {
                    let name = &input[i + 2..i + 2 + len];
                    match lookup(name) {
                        Some(value) => out.extend_from_slice(value.as_bytes()),
                        None => out.extend_from_slice(&bytes[i..i + 3 + len]),
                    }
                    i += 3 + len;
                }
                None => {
                    out.extend_from_slice(b"$(");
                    i += 2;
                }
            },
            other => {
                out.push(b'$');
                out.push(other);
                i += 2;
            }
        }
    }
    // Only ASCII bytes were replaced, and every other byte is copied in
    // order: the result is UTF-8 as the input was.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn vars<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl FnMut(&str) -> Option<String> + 'a {
        move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn references_escapes_and_stray_dollars_expand_as_the_kubelet_does() {
        let mut known = vars(&[("A", "x"), ("EMPTY", "")]);
        let cases = [
            ("$(A)", "x"),
            ("pre-$(A)-post", "pre-x-post"),
            ("$(EMPTY)", ""),
            ("$(MISSING)", "$(MISSING)"),
            ("$$(A)", "$(A)"),
            ("$$$(A)", "$x"),
            ("$$", "$"),
            ("$", "$"),
            ("a$", "a$"),
            ("$A", "$A"),
            ("$(A", "$(A"),
            ("$()", "$()"),
            ("€$(A)€", "€x€"),
            ("--x=$(A)$(A)", "--x=xx"),
        ];
        for (input, want) in cases {
            assert_eq!(expand(input, &mut known), want, "{input}");
        }
    }

    #[test]
    fn args_alone_all_reach_the_images_entrypoint() {
        let only_args = json!({"args": ["--router-proxy-image=rp:1", "--leader-elect"]});
        assert_eq!(launch(&only_args).args, ["--router-proxy-image=rp:1", "--leader-elect"]);
        let both = json!({"command": ["/manager", "--a"], "args": ["--b"]});
        assert_eq!(launch(&both).args, ["--a", "--b"]);
        let empty_command = json!({"command": [], "args": ["--b"]});
        assert_eq!(launch(&empty_command).args, ["--b"]);
        assert!(launch(&json!({})).args.is_empty());
    }

    #[test]
    fn env_values_expand_in_order_and_unknown_sources_are_named() {
        let container = json!({
            "env": [
                {"name": "LATE_REF", "value": "$(REPO)"},
                {"name": "REPO", "value": "ghcr.io/me"},
                {"name": "IMAGE", "value": "$(REPO)/rp:$$1"},
                {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
                {"name": "VIA", "value": "x-$(TOKEN)"},
                {"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
            ],
            "command": ["/manager"],
            "args": ["--router-proxy-image=$(IMAGE)", "--late=$(LATE_REF)", "--t=$(TOKEN)", "--v=$(VIA)", "--n=$(NODE)",
                     "--u=$(UNSET)"],
        });
        let run = launch(&container);
        assert_eq!(
            run.args,
            [
                "--router-proxy-image=ghcr.io/me/rp:$1",
                "--late=$(REPO)",
                "--t=$(TOKEN)",
                "--v=$(VIA)",
                "--n=$(NODE)",
                "--u=$(UNSET)"
            ]
        );
        assert_eq!(
            run.unknown,
            [
                ("TOKEN".to_string(), "key k of Secret s".to_string()),
                ("VIA".to_string(), "key k of Secret s, through $(TOKEN) in env VIA".to_string()),
                ("NODE".to_string(), "the pod's field spec.nodeName".to_string()),
            ]
        );
        let with_env_from = json!({"envFrom": [{"configMapRef": {"name": "flags"}}], "args": ["--x=$(UNSET)"]});
        assert_eq!(
            launch(&with_env_from).unknown,
            [("UNSET".to_string(), "perhaps envFrom (ConfigMap flags)".to_string())]
        );
    }
}
