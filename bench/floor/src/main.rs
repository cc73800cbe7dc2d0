//! `floor --output EXPECTED --configs CONFIGS INPUT...`: the least work any
//! correct `routerctl render` or `routerctl diff` must do, and nothing else.
//!
//! 1. Read every INPUT whole (the ModelRouters and, for diff, the live
//!    objects) and parse it with an event-level YAML parser, consuming every
//!    event; each scalar's length is folded into a checksum.
//! 2. Read CONFIGS, the compiled proxy configs separated by NUL bytes, and
//!    compute the hex SHA-256 of each, as the operator hashes every config
//!    into its Deployment; the digests are folded into the checksum.
//! 3. Read EXPECTED, routerctl's own output for the same inputs (rendered
//!    YAML, or diff's unified diff), and write those exact bytes to stdout.
//!
//! The checksum goes to stderr, so none of the work can be optimised away.
//! Whatever routerctl does beyond this (building objects, validating,
//! defaulting, merging, comparing, formatting) is its own cost: a routerctl
//! within 2x of this floor spends at most as long on its logic as on reading,
//! parsing, hashing and writing. No tree is built and no YAML is emitted,
//! because an implementation could avoid both; it cannot avoid parsing the
//! bytes it reads, writing the bytes it prints, or hashing each config.
//!
//! The parser is yaml-rust2 0.13 (without its encoding feature), the fastest
//! of the event-level parsers measured, with saphyr-parser level with it.
//! Each parsed the 10,000-router inputs of diff (routers.yaml and the ten
//! live files, 94 MB) consuming every event and folding scalar lengths, in
//! release builds with this profile, on 2 shared cores:
//!
//! | parser                | wall, median of 10 | hyperfine, 5 runs | 6 paired runs, user |
//! |-----------------------|--------------------|-------------------|---------------------|
//! | yaml-rust2 0.13.2     | 2.07 s             | 2.15 s            | 2.17 s              |
//! | saphyr-parser 0.3.4   | 2.13 s             | 2.01 s            | 2.21 s              |
//! | unsafe-libyaml 0.2.11 | 2.76 s             | 2.60 s            | —                   |
//! | libyaml-safer 0.3.0   | 2.89 s             | 2.95 s            | —                   |
//!
//! yaml-rust2 and saphyr-parser differ by less than the noise (a few per
//! cent either way); in the paired runs (the two alternating) yaml-rust2 was
//! faster in 5 of 6. Both libyaml ports are 25-40% slower. On routers.yaml
//! alone (9 MB): yaml-rust2 0.29 s, saphyr-parser 0.30 s, unsafe-libyaml
//! 0.31 s, libyaml-safer 0.41 s.
//!
//! Errors: a message on stderr, exit status 2, nothing on stdout (all input
//! is read, parsed and hashed before the first byte is written).

use std::fs;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use sha2::{Digest, Sha256};
use yaml_rust2::parser::{Event, Parser};

const USAGE: &str = "usage: floor --output EXPECTED --configs CONFIGS INPUT...";

/// What the command line names.
struct Args {
    output: String,
    configs: String,
    inputs: Vec<String>,
}

fn parse_args(mut argv: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut output, mut configs, mut inputs) = (None, None, Vec::new());
    while let Some(arg) = argv.next() {
        let slot = match arg.as_str() {
            "--output" => &mut output,
            "--configs" => &mut configs,
            "--" => {
                inputs.extend(argv.by_ref());
                break;
            }
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'\n{USAGE}")),
            _ => {
                inputs.push(arg);
                continue;
            }
        };
        let value = argv.next().ok_or_else(|| format!("'{arg}' needs a value\n{USAGE}"))?;
        if slot.replace(value).is_some() {
            return Err(format!("'{arg}' given twice\n{USAGE}"));
        }
    }
    let output = output.ok_or_else(|| format!("--output is required\n{USAGE}"))?;
    let configs = configs.ok_or_else(|| format!("--configs is required\n{USAGE}"))?;
    if inputs.is_empty() {
        return Err(format!("no INPUT given\n{USAGE}"));
    }
    Ok(Args { output, configs, inputs })
}

/// Folds one value into the checksum (order-dependent, cheap).
fn fold(sum: u64, value: u64) -> u64 {
    (sum.rotate_left(7) ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Parses every event of the YAML stream `text`, folding each event's kind
/// and each scalar's length into `sum`.
fn parse(path: &str, text: &str, mut sum: u64) -> Result<u64, String> {
    let mut parser = Parser::new_from_str(text);
    loop {
        let (event, _) = parser.next_token().map_err(|e| format!("{path}: {e}"))?;
        sum = match event {
            Event::StreamEnd => return Ok(fold(sum, 1)),
            Event::Scalar(value, ..) => fold(sum, value.len() as u64 + 2),
            _ => fold(sum, 0),
        };
    }
}

/// Hashes each NUL-separated config (a trailing NUL ends the last one; an
/// empty file holds none) and folds each hex digest into `sum`.
fn hash_configs(data: &[u8], mut sum: u64) -> (u64, usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let data = data.strip_suffix(b"\0").unwrap_or(data);
    if data.is_empty() {
        return (sum, 0);
    }
    let mut count = 0;
    for config in data.split(|&b| b == 0) {
        let digest = Sha256::digest(config);
        let mut hex = [0u8; 64];
        for (i, byte) in digest.iter().enumerate() {
            hex[2 * i] = HEX[usize::from(byte >> 4)];
            hex[2 * i + 1] = HEX[usize::from(byte & 0xf)];
        }
        for chunk in hex.chunks_exact(8) {
            sum = fold(sum, u64::from_le_bytes(chunk.try_into().unwrap()));
        }
        count += 1;
    }
    (sum, count)
}

fn run(args: &Args) -> Result<(), String> {
    let mut sum = 0u64;
    for path in &args.inputs {
        let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        sum = parse(path, &text, sum)?;
    }

    let configs = fs::read(&args.configs).map_err(|e| format!("{}: {e}", args.configs))?;
    let (sum, count) = hash_configs(&configs, sum);
    drop(configs);

    let expected = fs::read(&args.output).map_err(|e| format!("{}: {e}", args.output))?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    out.write_all(&expected)
        .and_then(|()| out.flush())
        .map_err(|e| format!("stdout: {e}"))?;

    eprintln!("floor: {count} configs hashed, checksum {sum:016x}");
    Ok(())
}

fn main() -> ExitCode {
    let result = parse_args(std::env::args().skip(1)).and_then(|args| run(&args));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("floor: {e}");
            ExitCode::from(2)
        }
    }
}
