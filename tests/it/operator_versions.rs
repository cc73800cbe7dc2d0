//! `--operator-version`: for each change in routerctl's table of upstream
//! changes, the real binary renders the same input as the release before
//! and the release that brought the change, and the snapshot holds the
//! unified diff between the two outputs (with both stderrs). Each diff was
//! checked against the upstream source at those two tags
//! (github.com/defilantech/LLMKube), named in the test.

use crate::common;

use common::{parse_stream, routerctl, to_stream};
use serde_json::Value;

const PROXY: &str = "testdata/versions/proxy.yaml";
const GATEWAY: &str = "testdata/versions/gateway.yaml";
const GATEWAY_EXTERNAL: &str = "testdata/versions/gateway-external.yaml";
/// Keeps the built-in default image's warning out of every diff.
const IMAGE: &str = "registry.example.com/router-proxy:1";

fn render_args<'a>(file: &'a str, release: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["render", "-f", file, "--router-proxy-image", IMAGE, "--operator-version", release];
    args.extend_from_slice(extra);
    args
}

/// The two runs and the diff of their stdout.
fn compare(file: &str, before: &str, at: &str, extra: &[&str]) -> String {
    let (a_args, b_args) = (render_args(file, before, extra), render_args(file, at, extra));
    let (a, b) = (routerctl(&a_args, None), routerctl(&b_args, None));
    let diff = similar::TextDiff::from_lines(&a.stdout, &b.stdout)
        .unified_diff()
        .context_radius(2)
        .header(before, at)
        .to_string();
    format!(
        "$ routerctl {}\nexit: {}\n$ routerctl {}\nexit: {}\n--- stderr {before}\n{}--- stderr {at}\n{}--- stdout, {before} -> {at}\n{diff}",
        a_args.join(" "),
        a.code,
        b_args.join(" "),
        b.code,
        a.stderr,
        b.stderr,
    )
}

/// v0.8.8, #693 (2842634b): before it `dataPlane` is not in the CRD, so a
/// Gateway router is pruned back to a proxy router and gets a proxy.
#[test]
fn gateway_data_plane_arrives_in_v0_8_8() {
    insta::assert_snapshot!("v0_8_8_gateway_data_plane", compare(GATEWAY, "v0.8.7", "v0.8.8", &["-o", "name"]));
}

/// v0.8.9, #748 (1978a722): route rules gain `timeouts.request`.
#[test]
fn gateway_rule_timeouts_arrive_in_v0_8_9() {
    insta::assert_snapshot!("v0_8_9_gateway_rule_timeouts", compare(GATEWAY, "v0.8.8", "v0.8.9", &[]));
}

/// v0.8.9, #737 (a6c1a030): `endpoint.nodePort` enters the CRD; the proxy
/// objects do not change (the operator never reads it).
#[test]
fn endpoint_node_port_arrives_in_v0_8_9() {
    insta::assert_snapshot!("v0_8_9_endpoint_node_port", compare(PROXY, "v0.8.8", "v0.8.9", &[]));
}

/// v0.8.14, #791 (b7da779b) and #798 (2e5f9764): config.json gains
/// `defaultRouteStrategy: Static` (the CRD default), so the hash changes;
/// the Deployment gets `revisionHistoryLimit`.
#[test]
fn default_route_strategy_and_revision_history_limit_arrive_in_v0_8_14() {
    insta::assert_snapshot!("v0_8_14_proxy", compare(PROXY, "v0.8.13", "v0.8.14", &[]));
}

/// v0.8.14, #791 (b7da779b): `BackendNameMatch` adds a route rule per
/// backend, matched on its name, before the default route.
#[test]
fn backend_name_match_rules_arrive_in_v0_8_14() {
    insta::assert_snapshot!("v0_8_14_gateway", compare(GATEWAY, "v0.8.13", "v0.8.14", &[]));
}

/// v0.8.16, #818 (5c41d1e4): the per-retry timeout becomes the longest
/// rule or backend timeout instead of a fixed 60s.
#[test]
fn per_retry_timeout_follows_the_timeouts_from_v0_8_16() {
    insta::assert_snapshot!("v0_8_16_gateway_retry_timeout", compare(GATEWAY, "v0.8.15", "v0.8.16", &[]));
}

/// v0.8.17, #826 (7090f832): `displayName` enters the CRD and the config's
/// wire struct, but nothing fills it: the proxy objects are unchanged.
#[test]
fn display_name_is_known_but_unused_by_the_proxy_in_v0_8_17() {
    insta::assert_snapshot!("v0_8_17_proxy_display_name", compare(PROXY, "v0.8.16", "v0.8.17", &[]));
}

/// v0.8.17, #826 (7090f832): backend-name rules match the displayName.
#[test]
fn backend_name_rules_match_the_display_name_from_v0_8_17() {
    insta::assert_snapshot!("v0_8_17_gateway_display_name", compare(GATEWAY, "v0.8.16", "v0.8.17", &[]));
}

/// v0.8.18, #849 (9f3b360b): config.json carries `displayName`.
#[test]
fn display_name_reaches_the_config_in_v0_8_18() {
    insta::assert_snapshot!("v0_8_18_display_name_in_config", compare(PROXY, "v0.8.17", "v0.8.18", &[]));
}

/// v0.9.14, #1396 (5045dd03): external backends compile on the Gateway
/// plane; before, the reconcile fails on the first one.
#[test]
fn external_gateway_backends_arrive_in_v0_9_14() {
    insta::assert_snapshot!("v0_9_14_gateway_external", compare(GATEWAY_EXTERNAL, "v0.9.13", "v0.9.14", &[]));
}

/// v0.9.16, #1457 (ca3730d1) and #1393 (ba7777d4): the metrics listener;
/// the pool block, activation RBAC, one replica, ROUTER_NAME, the service
/// account; `nodeSelector`.
#[test]
fn metrics_and_model_pools_arrive_in_v0_9_16() {
    insta::assert_snapshot!("v0_9_16_proxy", compare(PROXY, "v0.9.15", "v0.9.16", &[]));
}

/// The pod-metadata change (in no release): podLabels and the applied-key
/// record.
#[test]
fn pod_metadata_arrives_after_v0_9_19() {
    insta::assert_snapshot!("next_pod_metadata", compare(PROXY, "v0.9.19", "next", &[]));
}

/// The Deployment the operator of `release` writes over `live`.
fn merged_deployment(release: &str, live: &Value) -> Value {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("live.yaml");
    std::fs::write(&path, to_stream(std::slice::from_ref(live))).expect("writes live");
    let live_arg = path.to_string_lossy().into_owned();
    let run = routerctl(&render_args(PROXY, release, &["--live", &live_arg, "-q"]), None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    parse_stream(&run.stdout).into_iter().find(|o| o["kind"] == "Deployment").expect("a Deployment")
}

/// The update path by release: before v0.8.14 (#798) a live
/// revisionHistoryLimit stays; released operators keep no applied-key
/// records, so they neither prune by one nor touch it; the pod-metadata
/// change prunes a recorded key the spec dropped.
#[test]
fn the_update_path_is_the_releases_own() {
    let rendered = routerctl(&render_args(PROXY, "next", &["-q"]), None);
    let mut live =
        parse_stream(&rendered.stdout).into_iter().find(|o| o["kind"] == "Deployment").expect("a Deployment");
    live["spec"]["revisionHistoryLimit"] = Value::from(7);
    live["spec"]["template"]["metadata"]["labels"]["old"] = Value::from("x");
    live["metadata"]["annotations"]["inference.llmkube.dev/applied-pod-labels"] = Value::from("old,team");

    let v0813 = merged_deployment("v0.8.13", &live);
    assert_eq!(v0813["spec"]["revisionHistoryLimit"], 7, "before #798 the live value stays");
    let v0814 = merged_deployment("v0.8.14", &live);
    assert_eq!(v0814["spec"]["revisionHistoryLimit"], 3, "from #798 the spec's value is written");

    for release in ["v0.8.13", "v0.9.19"] {
        let merged = merged_deployment(release, &live);
        let labels = &merged["spec"]["template"]["metadata"]["labels"];
        assert_eq!(labels["old"], "x", "{release}: no record is read, nothing pruned");
        assert_eq!(labels["team"], "ml", "{release}: merged labels keep the live user label");
        assert_eq!(
            merged["metadata"]["annotations"]["inference.llmkube.dev/applied-pod-labels"], "old,team",
            "{release}: the record is not the operator's to change"
        );
    }
    let next = merged_deployment("next", &live);
    let labels = &next["spec"]["template"]["metadata"]["labels"];
    assert_eq!(labels.get("old"), None, "next prunes the recorded key the spec dropped");
    assert_eq!(next["metadata"]["annotations"]["inference.llmkube.dev/applied-pod-labels"], "team");
}

/// The default is the newest release, v0.9.19: every render scenario in
/// testdata is the same byte for byte without the flag and with
/// `--operator-version v0.9.19`; `next` is only rendered when asked for.
#[test]
fn the_default_is_the_newest_release_for_every_testdata_file() {
    for dir in ["testdata/render", "testdata/gateway", "testdata/versions", "testdata/lifecycle"] {
        let mut files: Vec<_> = std::fs::read_dir(common::root().join(dir))
            .expect("reads testdata")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{dir} has scenarios");
        for file in files {
            let file = file.to_string_lossy().into_owned();
            let plain = routerctl(&["render", "-f", &file], None);
            let newest = routerctl(&["render", "-f", &file, "--operator-version", "v0.9.19"], None);
            assert_eq!(
                (plain.code, &plain.stdout, &plain.stderr),
                (newest.code, &newest.stdout, &newest.stderr),
                "{file}"
            );
        }
    }
}

/// Every release renders every scenario the way its CRD allows: no release
/// panics or fails where the newest succeeds, except where upstream fails
/// too (external Gateway backends before v0.9.14).
#[test]
fn every_release_renders_the_scenarios() {
    let releases = routerctl(&["version", "-o", "json"], None);
    let info: Value = serde_json::from_str(&releases.stdout).expect("version JSON");
    let names: Vec<String> = info["operator"]["releases"]
        .as_array()
        .expect("a list of releases")
        .iter()
        .map(|r| r["version"].as_str().expect("a name").to_string())
        .collect();
    assert_eq!(names.first().map(String::as_str), Some("v0.7.8"));
    assert_eq!(names.last().map(String::as_str), Some("next"));
    for release in &names {
        for file in [PROXY, GATEWAY, "testdata/render/sample.yaml", "testdata/render/pooled.yaml"] {
            let run = routerctl(&render_args(file, release, &["-q"]), None);
            assert_eq!(run.code, 0, "{release} {file}: {}", run.stderr);
            assert!(run.stderr.is_empty(), "{release} {file}: -q prints no warnings: {}", run.stderr);
        }
        // Before v0.8.8 the router is a proxy router (dataPlane is pruned);
        // from v0.8.8 the gateway reconcile fails on the external backend,
        // until v0.9.14 (#1396) compiles it.
        let external = routerctl(&render_args(GATEWAY_EXTERNAL, release, &["-q"]), None);
        let index = |name: &str| names.iter().position(|n| n == name).expect("listed");
        let fails = (index("v0.8.8")..index("v0.9.14")).contains(&index(release));
        assert_eq!(external.code, if fails { 2 } else { 0 }, "{release}: {}", external.stderr);
        assert_eq!(external.stderr.contains("external backends are not supported in dataPlane: Gateway yet"), fails);
    }
}

/// `explain` replays the release's own update path: to a released operator
/// a recorded key is nobody's (it keeps no records), and the record is
/// another writer's annotation; to `next` both are the user's and its own.
#[test]
fn explain_follows_the_release() {
    let rendered = routerctl(&render_args(PROXY, "next", &["-q"]), None);
    let dir = tempfile::tempdir().expect("temp dir");
    let live = dir.path().join("live.yaml");
    std::fs::write(&live, &rendered.stdout).expect("writes live");
    let live = live.to_string_lossy().into_owned();
    let owners = |release: &str| -> Vec<(String, String)> {
        let args = ["explain", "-f", PROXY, "--router-proxy-image", IMAGE, "--operator-version", release, "-q"];
        let run = routerctl(&[&args[..], &["--live", &live, "-o", "json"]].concat(), None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).expect("JSON");
        v[0]["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .filter(|r| r["key"] == "team" || r["key"] == "inference.llmkube.dev/applied-pod-labels")
            .map(|r| (r["key"].as_str().unwrap_or("").to_string(), r["owner"].as_str().unwrap_or("").to_string()))
            .collect()
    };
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    };
    assert_eq!(
        owners("v0.9.19"),
        pairs(&[("team", "otherTool"), ("inference.llmkube.dev/applied-pod-labels", "otherTool")])
    );
    assert_eq!(owners("next"), pairs(&[("team", "user"), ("inference.llmkube.dev/applied-pod-labels", "operator")]));
}
