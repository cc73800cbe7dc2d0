//! The KRM function's settings: `functionConfig` read as a ConfigMap's
//! `data` or any other kind's `spec`, each setting checked (a bad value is
//! an error, an unknown key a warning with the name it is near, an error
//! with `strict: "true"`), and the
//! pipeline's `Options` they make.

use anyhow::{anyhow, Result};
use serde_json::Value;

use crate::diagnostic::{rules, Diagnostic};
use crate::input;
use crate::pipeline::{self, Options};
use crate::release::Release;
use crate::schema::text::suggest;

const CONFIG_KEYS: [&str; 6] =
    ["routerProxyImage", "defaultLitellmUrl", "emitScrapeAnnotations", "namespace", "strict", "operatorVersion"];

/// The pipeline's `Options` from `functionConfig`, through their one
/// constructor; what is wrong in it goes to `findings`, a namespace that is
/// no namespace name on the field that says it.
pub(super) fn options(function_config: Option<&Value>, findings: &mut Vec<Diagnostic>) -> Options {
    let mut namespace_field = None;
    let settings = read(function_config, findings, &mut namespace_field);
    let (options, problems) = Options::new(settings);
    let field = namespace_field.unwrap_or_else(|| "namespace".to_string());
    findings.extend(problems.into_iter().map(|d| Diagnostic { rule: rules::KRM, ..d }.field(field.clone())));
    options
}

/// The settings `functionConfig` gives, each checked as it is read;
/// `namespace_field` is where it set the namespace (`data.namespace`).
fn read(
    function_config: Option<&Value>,
    findings: &mut Vec<Diagnostic>,
    namespace_field: &mut Option<String>,
) -> pipeline::Settings {
    // One run for all the items: a refused router's findings are reported
    // and the others go on.
    let mut s = pipeline::Settings {
        namespace_named: "functionConfig namespace",
        keep_going: true,
        ..pipeline::Settings::default()
    };
    let Some(fc) = function_config else { return s };
    let Some(fc_map) = fc.as_object() else {
        findings.push(Diagnostic::error(rules::KRM, "functionConfig is not an object"));
        return s;
    };
    let kind = fc_map.get("kind").and_then(Value::as_str).unwrap_or("");
    let api_version = fc_map.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let is_config_map = kind == "ConfigMap" && api_version == "v1";
    let section = if is_config_map { "data" } else { "spec" };
    // What is not a v1 ConfigMap is read through its spec: one without a
    // spec (a misspelt kind, a ConfigMap of another apiVersion, its
    // settings under data) would be a setting ignored in silence.
    if !is_config_map && !fc_map.contains_key("spec") {
        let msg = format!(
            "functionConfig is {} with no spec, so none of its settings is read; routerctl reads the data of an \
             apiVersion: v1, kind: ConfigMap, or the spec of any other kind",
            if kind.is_empty() && api_version.is_empty() {
                "an object without apiVersion and kind".to_string()
            } else {
                format!("apiVersion: {api_version:?}, kind: {kind:?}")
            }
        );
        findings.push(Diagnostic::error(rules::KRM, msg));
        return s;
    }
    let values = match fc_map.get(section) {
        None | Some(Value::Null) => return s,
        Some(Value::Object(m)) => m,
        Some(_) => {
            let msg = format!("functionConfig {section} is not a mapping");
            findings.push(Diagnostic::error(rules::KRM, msg).field(section));
            return s;
        }
    };
    // Unknown settings are said once `strict` is known, wherever it is.
    let mut unknown = Vec::new();
    for (key, value) in values {
        let field = format!("{section}.{key}");
        let string = || -> Result<Option<String>> {
            match value {
                Value::String(v) if v.is_empty() => Ok(None),
                Value::String(v) => Ok(Some(v.clone())),
                other => Err(anyhow!("must be a string, found {}", input::describe(other))),
            }
        };
        let boolean = || -> Result<bool> {
            match value {
                Value::Bool(b) => Ok(*b),
                Value::String(v) if v == "true" => Ok(true),
                Value::String(v) if v == "false" || v.is_empty() => Ok(false),
                Value::String(v) => Err(anyhow!("must be \"true\" or \"false\", found {v:?}")),
                other => Err(anyhow!("must be \"true\" or \"false\", found {}", input::describe(other))),
            }
        };
        let outcome = match key.as_str() {
            "routerProxyImage" => string().map(|v| s.router_proxy_image = v),
            "defaultLitellmUrl" => string().map(|v| s.default_litellm_url = v),
            // Its syntax is judged where every way in's is, `Options::new`.
            "namespace" => string().map(|v| {
                s.namespace = v;
                *namespace_field = Some(field.clone());
            }),
            "emitScrapeAnnotations" => boolean().map(|v| s.emit_scrape_annotations = v),
            "strict" => boolean().map(|v| s.strict = v),
            "operatorVersion" => string().and_then(|v| match v {
                None => Ok(()),
                Some(v) => Release::parse(&v).map(|r| s.release = Some(r)).map_err(|e| anyhow!("{e}")),
            }),
            other => {
                let lower = other.to_lowercase();
                let near = suggest(other, &CONFIG_KEYS).or_else(|| {
                    let prefix = |k: &&&str| lower.len() >= 3 && k.to_lowercase().starts_with(&lower);
                    CONFIG_KEYS.iter().find(prefix).map(|k| k.to_string())
                });
                let hint = match near {
                    Some(near) => format!("did you mean {near}?"),
                    None => format!("routerctl reads {}", CONFIG_KEYS.join(", ")),
                };
                unknown.push((format!("unknown setting {other:?}; {hint}"), field));
                continue;
            }
        };
        if let Err(e) = outcome {
            findings.push(Diagnostic::error(rules::KRM, format!("{key} {e}")).field(field));
        }
    }
    // With strict: "true", a setting routerctl does not read is an error,
    // as an unknown field of a ModelRouter is.
    for (message, field) in unknown {
        let finding = match s.strict {
            true => Diagnostic::error(rules::KRM, format!("{message} (refused with strict)")),
            false => Diagnostic::warning(rules::KRM, message),
        };
        findings.push(finding.field(field));
    }
    s
}
