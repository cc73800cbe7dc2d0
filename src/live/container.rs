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

use serde::Deserialize;

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

/// What is read of a pod template's container (every other field is
/// skipped as it is parsed).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    pub name: Option<String>,
    pub image: Option<String>,
    #[serde(default)]
    pub command: Vec<String>,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: Vec<EnvVar>,
    #[serde(default)]
    pub env_from: Vec<EnvFromSource>,
}

/// One `env` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvVar {
    pub name: String,
    pub value: Option<String>,
    pub value_from: Option<ValueFrom>,
}

/// Where a `valueFrom` takes its value.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValueFrom {
    pub config_map_key_ref: Option<KeyRef>,
    pub secret_key_ref: Option<KeyRef>,
    pub field_ref: Option<FieldRef>,
    pub resource_field_ref: Option<ResourceRef>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct KeyRef {
    pub name: Option<String>,
    pub key: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldRef {
    pub field_path: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct ResourceRef {
    pub resource: Option<String>,
}

/// One `envFrom` entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvFromSource {
    pub config_map_ref: Option<NameRef>,
    pub secret_ref: Option<NameRef>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct NameRef {
    pub name: Option<String>,
}

/// The arguments `container` starts its program with.
pub fn launch(container: &Container) -> Launch {
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
    let passed = container.command.iter().skip(1).chain(container.args.iter());
    let args = passed.map(|word| expand(word, &mut lookup)).collect();
    Launch { args, unknown }
}

/// The container's `env`, in order, each value expanded from the ones
/// before it (and unknown when it names an unknown one).
fn variables(container: &Container) -> HashMap<String, Var> {
    let mut vars: HashMap<String, Var> = HashMap::new();
    let from_env = env_from(container);
    for entry in &container.env {
        let name = &entry.name;
        let var = match (&entry.value, &entry.value_from) {
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
        vars.insert(name.clone(), var);
    }
    vars
}

/// Where a `valueFrom` takes its value, in words.
fn value_from(source: &ValueFrom) -> String {
    let or_unknown = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".to_string());
    if let Some(r) = &source.config_map_key_ref {
        return format!("key {} of ConfigMap {}", or_unknown(&r.key), or_unknown(&r.name));
    }
    if let Some(r) = &source.secret_key_ref {
        return format!("key {} of Secret {}", or_unknown(&r.key), or_unknown(&r.name));
    }
    if let Some(r) = &source.field_ref {
        return format!("the pod's field {}", or_unknown(&r.field_path));
    }
    if let Some(r) = &source.resource_field_ref {
        return format!("the container's resource {}", or_unknown(&r.resource));
    }
    "a valueFrom routerctl does not know".to_string()
}

/// The ConfigMaps and Secrets of `envFrom`, in words, when there are any:
/// a variable `env` does not define may come from them.
fn env_from(container: &Container) -> Option<String> {
    let name = |r: &NameRef| r.name.clone().unwrap_or_else(|| "?".to_string());
    let named: Vec<String> = container
        .env_from
        .iter()
        .filter_map(|s| {
            let config_map = s.config_map_ref.as_ref().map(|r| format!("ConfigMap {}", name(r)));
            config_map.or_else(|| s.secret_ref.as_ref().map(|r| format!("Secret {}", name(r))))
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

    /// `launch` of a container written as JSON.
    fn launch(container: serde_json::Value) -> Launch {
        super::launch(&serde_json::from_value(container).expect("a container"))
    }

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
        assert_eq!(launch(only_args).args, ["--router-proxy-image=rp:1", "--leader-elect"]);
        let both = json!({"command": ["/manager", "--a"], "args": ["--b"]});
        assert_eq!(launch(both).args, ["--a", "--b"]);
        let empty_command = json!({"command": [], "args": ["--b"]});
        assert_eq!(launch(empty_command).args, ["--b"]);
        assert!(launch(json!({})).args.is_empty());
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
        let run = launch(container);
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
            launch(with_env_from).unknown,
            [("UNSET".to_string(), "perhaps envFrom (ConfigMap flags)".to_string())]
        );
    }
}
