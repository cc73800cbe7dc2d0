//! `floor FILE...`: for each file, parse every YAML document with serde_yaml
//! into a `serde_yaml::Value` and emit it again with serde_yaml, writing to
//! /dev/null. No validation, no rendering, no merge: the cost of reading and
//! writing the bytes routerctl reads and writes, and nothing else.
//!
//! The benchmark passes routerctl's inputs (the ModelRouters and, for diff,
//! the live objects) followed by its output.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use serde::{Deserialize, Serialize};

fn run(paths: &[String]) -> Result<(), String> {
    let sink = File::create("/dev/null").map_err(|e| format!("/dev/null: {e}"))?;
    let mut out = BufWriter::new(sink);
    for path in paths {
        let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let mut ser = serde_yaml::Serializer::new(&mut out);
        for doc in serde_yaml::Deserializer::from_str(&text) {
            let value = serde_yaml::Value::deserialize(doc).map_err(|e| format!("{path}: {e}"))?;
            value.serialize(&mut ser).map_err(|e| format!("{path}: {e}"))?;
        }
    }
    out.flush().map_err(|e| format!("/dev/null: {e}"))
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: floor FILE...");
        return ExitCode::from(2);
    }
    match run(&paths) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("floor: {e}");
            ExitCode::from(2)
        }
    }
}
