//! `routerctl render` on every testdata scenario, pinned as snapshots of the
//! real binary's run (arguments, exit code, stderr, stdout).

use crate::common;

use common::routerctl;

fn snapshot(name: &str, args: &[&str]) {
    let run = routerctl(args, None);
    insta::assert_snapshot!(name, run.transcript(args));
}

#[test]
fn sample_router() {
    snapshot("render_sample", &["render", "-f", "testdata/render/sample.yaml"]);
}

/// The pod-metadata change, in no release yet: rendered as `next`.
#[test]
fn pod_labels_and_annotations() {
    snapshot("render_podmeta", &["render", "-f", "testdata/render/podmeta.yaml", "--operator-version", "next"]);
}

#[test]
fn pod_labels_and_annotations_with_scrape_emission() {
    snapshot(
        "render_podmeta_scrape",
        &["render", "-f", "testdata/render/podmeta.yaml", "--emit-scrape-annotations", "--operator-version", "next"],
    );
}

/// The same router as the default release, v0.9.19, renders it: its CRD
/// has neither field, so both are pruned with a warning that names
/// `--operator-version next`, the pods get the operator's keys alone and
/// no applied-key record is written; scrape annotations are for
/// InferenceService pods only.
#[test]
fn pod_labels_and_annotations_under_the_default_release() {
    snapshot("render_podmeta_default", &["render", "-f", "testdata/render/podmeta.yaml"]);
    snapshot(
        "render_podmeta_scrape_default",
        &["render", "-f", "testdata/render/podmeta.yaml", "--emit-scrape-annotations"],
    );
}

#[test]
fn pooled_router() {
    snapshot("render_pooled", &["render", "-f", "testdata/render/pooled.yaml"]);
}

#[test]
fn every_proxy_field() {
    snapshot(
        "render_every_proxy_field",
        &[
            "render",
            "-f",
            "testdata/render/every-proxy-field.yaml",
            "--default-litellm-url",
            "http://litellm.llm-gateway.svc:4000",
            "--router-proxy-image",
            "registry.example.com/unused:1",
        ],
    );
}

#[test]
fn multi_router_stream_in_a_namespace() {
    snapshot("render_multi", &["render", "-f", "testdata/render/multi.yaml"]);
}

#[test]
fn operator_image_flag_applies_without_spec_image() {
    snapshot(
        "render_image_flag",
        &[
            "render",
            "-f",
            "testdata/render/multi.yaml",
            "--router-proxy-image",
            "registry.example.com/router-proxy:v1.2.3",
            "-o",
            "json",
        ],
    );
}
