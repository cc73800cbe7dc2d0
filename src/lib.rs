//! routerctl: the LLMKube operator's ModelRouter render path, offline.
//!
//! The stages, in the order data flows: `input` reads manifests into
//! positioned documents, `model` types and defaults the custom resources,
//! `validate` refuses what the API server or the operator would (with
//! `schema`, a generic engine for CRD schemas), `render` builds the objects
//! the operator would write, `reconcile` merges them with the `live`
//! objects, and `diff`, `explain` and `output` present the result.
//! `pipeline` drives them one ModelRouter at a time; `commands` turns each
//! command's arguments into a pipeline run (or a `routing` question) and
//! picks the emitter of `report` that writes its result in the format
//! asked for. Under them all, `kube` is the Kubernetes vocabulary every
//! stage speaks and `diagnostic` the findings every stage reports, which
//! `report` writes in each `--message-format`. ARCHITECTURE.md at the top of the repository
//! has the map.

/// A 256-entry table of `test` over every byte value, built at compile
/// time (byte scanners look bytes up rather than test them one by one).
macro_rules! byte_table {
    (|$b:ident| $test:expr) => {{
        let mut table = [false; 256];
        let mut i = 0;
        while i < 256 {
            let $b = i as u8;
            table[i] = $test;
            i += 1;
        }
        table
    }};
}

pub mod cli;
pub mod commands;
pub mod diagnostic;
pub mod diff;
pub mod explain;
pub mod input;
pub mod krm;
pub mod kube;
pub mod live;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod reconcile;
pub mod release;
pub mod render;
pub mod report;
pub mod routing;
pub mod schema;
pub mod validate;
