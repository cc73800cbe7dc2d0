//! `replay-floor LOG`: the least work any correct `routerctl replay` must
//! do on a log of JSON lines, and nothing else: read every line and parse
//! it with serde_json into the fields replay reads (`msg`, `model`,
//! `classification`, `taskComplexity`, `rule`, `backend`, `outcome`),
//! borrowed where no escape forces a copy, the others skipped. The lengths
//! of the fields of each `router.dispatch` line are folded into a checksum
//! written to stderr, so none of the work can be optimised away.
//!
//! Whatever routerctl does beyond this (kubectl's prefixes, grouping the
//! requests, deciding each distinct one, the report) is its own cost.

use std::borrow::Cow;
use std::io::{BufRead, BufReader};

use serde::Deserialize;

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow, default)]
    msg: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    model: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    classification: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "taskComplexity")]
    task_complexity: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    rule: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    backend: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    outcome: Option<Cow<'a, str>>,
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: replay-floor LOG");
    let file = std::fs::File::open(&path).expect("reads the log");
    let mut reader = BufReader::with_capacity(256 * 1024, file);
    let mut line = String::new();
    let (mut requests, mut checksum) = (0u64, 0u64);
    loop {
        line.clear();
        if reader.read_line(&mut line).expect("reads a line") == 0 {
            break;
        }
        let Ok(fields) = serde_json::from_str::<Line>(line.trim_end()) else { continue };
        if fields.msg.as_deref() != Some("router.dispatch") {
            continue;
        }
        requests += 1;
        let len = |v: &Option<Cow<str>>| v.as_ref().map_or(0, |s| s.len() as u64);
        checksum = checksum.wrapping_mul(31).wrapping_add(
            len(&fields.model)
                + len(&fields.classification)
                + len(&fields.task_complexity)
                + len(&fields.rule)
                + len(&fields.backend)
                + len(&fields.outcome),
        );
    }
    eprintln!("{requests} requests, checksum {checksum}");
}
