//! The integration tests: one binary, a module per area, each running the
//! real `routerctl` binary or the library as a user of it would
//! (CONTRIBUTING.md lists what each covers). One binary links the library
//! once, where a binary per file linked it once each.

mod common;

mod case_roundtrip;
mod cluster_cli;
mod config_json;
mod conventions_cli;
mod crd_cli;
mod diff_cli;
mod docs_examples;
mod docs_recipes;
mod drift_cli;
mod emitter_roundtrip;
mod every_problem;
mod faults_cli;
mod field_reference;
mod fuzz_seeds;
mod gateway_cluster;
mod gateway_lifecycle;
mod gateway_props;
mod gateway_render;
mod generated_files;
mod gitops_recipes;
mod invalid_corpus;
mod jobs;
mod junit_report;
mod kpt_fn;
mod kubectl_faults;
mod layout;
mod lifecycle;
mod live_json;
mod markdown_report;
mod mermaid_pictures;
mod mermaid_render;
mod message_format;
mod operator_detection;
mod operator_versions;
mod packaging;
mod plan_cli;
mod reconcile_props;
mod reference_fields;
mod render_cli;
mod render_snapshots;
mod replay_cli;
mod replay_engines;
mod replay_props;
mod routing_props;
mod schema_cli;
mod test_cli;
mod toolbox_cli;
mod verify_budgets;
mod verify_cli;
mod verify_soundness;
mod yaml_reading;
