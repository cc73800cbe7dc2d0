//! routerctl: the LLMKube operator's ModelRouter render path, offline.
//!
//! `input` reads manifests, `model` types and defaults the custom resources,
//! `render` builds the objects the operator would write, `output` prints
//! them, and `app` wires those into commands.

pub mod cli;
pub mod commands;
pub mod diff;
pub mod explain;
pub mod input;
pub mod live;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod reconcile;
pub mod render;
pub mod report;
pub mod validate;
