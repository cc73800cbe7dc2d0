//! `routerctl version`: which routerctl this is, the API it reads and the
//! operator behaviour it reproduces — what to compare with a cluster before
//! trusting a diff.

use anyhow::Result;
use serde_json::{json, Value};

use super::outcome::{text_outcome, Outcome};
use crate::cli::VersionFormat;
use crate::kube::gojson::{marshal_indent, GoJson};
use crate::kube::kinds::{GATEWAY_KINDS, PROXY_KINDS};
use crate::kube::names::DEFAULT_PROXY_IMAGE;
use crate::model::GROUP;
use crate::release::{Release, CHANGES, NEXT, RELEASES};
use crate::validate::crd::{BUILT_FOR_VERSION, CRD_NAME};

/// `routerctl version`, as text or JSON.
pub(super) fn run(output: Option<VersionFormat>) -> Result<Outcome> {
    match output {
        None => text_outcome(&text(), 0),
        Some(VersionFormat::Json) => text_outcome(&json(), 0),
        Some(VersionFormat::Yaml) => text_outcome(&crate::output::yaml::to_yaml(&info()), 0),
    }
}

/// The version report as a tree (the `-o json` form).
pub fn info() -> Value {
    let releases: Vec<Value> = Release::all()
        .map(|r| {
            let changes: Vec<&str> = CHANGES.iter().filter(|e| e.since == r).map(|e| e.upstream).collect();
            json!({"version": r.name(), "changes": changes})
        })
        .collect();
    let changes: Vec<Value> = CHANGES
        .iter()
        .map(|e| json!({"since": e.since.name(), "upstream": e.upstream, "summary": e.summary, "crdFields": e.fields}))
        .collect();
    json!({
        "routerctl": env!("CARGO_PKG_VERSION"),
        "api": {"group": GROUP, "version": BUILT_FOR_VERSION, "kind": "ModelRouter", "crd": CRD_NAME},
        "operator": {
            "project": "LLMKube",
            "reconcile": "ModelRouter, router-proxy and Gateway data planes",
            "objects": PROXY_KINDS.map(|k| k.kind),
            "gatewayObjects": GATEWAY_KINDS.map(|k| k.kind),
            "pooledOnly": ["ServiceAccount", "Role", "RoleBinding"],
            "defaultProxyImage": DEFAULT_PROXY_IMAGE,
            "defaultRelease": Release::default().name(),
            "releases": releases,
            "changes": changes,
        },
    })
}

/// Plain text, one fact a line, then the releases and the changes.
pub fn text() -> String {
    let mut out = format!(
        "routerctl {}\n\
         API: {GROUP}/{BUILT_FOR_VERSION} ModelRouter (CRD {CRD_NAME})\n\
         Operator: LLMKube ModelRouter reconcile, router-proxy data plane: ConfigMap, Deployment, Service; \
         ServiceAccount, Role, RoleBinding for pooled routers\n\
         Gateway data plane: Backend and AIServiceBackend per backend, SecurityPolicy (JWT), AIGatewayRoute, \
         BackendTrafficPolicy\n\
         Built-in proxy image: {DEFAULT_PROXY_IMAGE} (the operator's default without --router-proxy-image)\n\
         Operator releases (--operator-version): {} … {}, and {NEXT} (the newest release with the changes in \
         no release yet)\n\
         Default release: {} (the newest; {NEXT} only when asked for or found in the cluster)\n\
         \n\
         Changes by release (upstream github.com/defilantech/LLMKube):\n",
        env!("CARGO_PKG_VERSION"),
        RELEASES[0],
        RELEASES[RELEASES.len() - 1],
        Release::default(),
    );
    for e in &CHANGES {
        out.push_str(&format!("  {:<8} {:<17} {}\n", e.since.name(), e.upstream, e.summary));
    }
    out
}

/// The JSON form, indented as kubectl indents JSON.
pub fn json() -> String {
    marshal_indent(&GoJson::from(&info()), "", "    ") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_say_the_same() {
        let v: Value = serde_json::from_str(&json()).expect("JSON");
        assert_eq!(v["routerctl"], env!("CARGO_PKG_VERSION"));
        assert!(text().contains(&format!(
            "API: {}/{} ModelRouter",
            v["api"]["group"].as_str().unwrap_or(""),
            BUILT_FOR_VERSION
        )));
        let releases = v["operator"]["releases"].as_array().expect("releases");
        assert_eq!(releases.len(), RELEASES.len() + 1);
        // Each change is listed once, under its release, in both forms.
        let listed: usize = releases.iter().map(|r| r["changes"].as_array().map_or(0, Vec::len)).sum();
        assert_eq!(listed, CHANGES.len());
        for e in &CHANGES {
            assert!(text().contains(e.summary), "{}", e.upstream);
        }
    }

    /// The default is the newest release, named in both forms; `next` is
    /// listed, never the default.
    #[test]
    fn both_forms_name_the_newest_release_as_the_default() {
        let v: Value = serde_json::from_str(&json()).expect("JSON");
        assert_eq!(v["operator"]["defaultRelease"], "v0.9.19");
        assert!(text().contains("Default release: v0.9.19 (the newest;"), "{}", text());
        assert!(!text().contains("next (the default"), "{}", text());
    }
}
