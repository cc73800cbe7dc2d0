//! The commands, one module each: turn a command's arguments into calls of
//! the stages, and the results into an `Outcome` (what goes to stdout and the
//! exit code). Reads and writes nothing itself but the streams it is handed,
//! so tests can drive it; `main.rs` alone touches the process's streams.
//!
//! Output is spooled and reaches stdout only when the whole run has
//! succeeded (`outcome`). What the commands share between their flags and
//! the pipeline is in `stream`; here are only the dispatch, the one place
//! a failed run's error is written, and the fuzz entry point.

pub mod completion;
mod diff;
mod explain;
pub mod krm;
mod logs;
mod outcome;
mod render;
mod replay;
mod route;
mod routers;
mod schema;
mod stream;
mod test;
mod verify;
pub mod version;

pub use outcome::{Outcome, Terminal};

use std::io::{Read, Write};

use anyhow::Result;
use serde_json::Value;

use crate::cli::{Cli, Command, CommonArgs, SuiteFormat};
use crate::diff::{diff_object, Palette};
use crate::input::inputs::Inputs;
use crate::input::select::Selection;
use crate::input::Source;
use crate::output::{print_objects, Format};
use crate::pipeline::{reconcile_sources, Options};
use crate::render::OperatorFlags;
use crate::report::Reporter;
use outcome::text_outcome;
use stream::apply_ready;

/// Runs one command. Warnings go to `stderr` as they arise, in the
/// `--message-format` asked for, and so does the error that ends a failed
/// run (`None`, exit 2): it is written once, here. stdout is spooled and
/// handed back, so a failing run prints nothing there.
pub fn run(cli: &Cli, stdin: &mut dyn Read, stderr: &mut dyn Write, terminal: Terminal) -> Option<Outcome> {
    let reporter = &mut Reporter::new(stderr, cli.quiet, cli.verbose, terminal.stderr_is_tty)
        .with_format(cli.message_format.into());
    // Every -f, -t, --against, --crd and --live is read through one owner;
    // the KRM function's ResourceList is its stdin.
    let mut inputs = Inputs::new(stdin);
    if common_args(&cli.command).is_some_and(|common| common.skip_other_files) {
        inputs.select(Selection::of_kinds(&READ_KINDS));
    }
    let outcome = run_command(cli, &mut inputs, reporter, terminal);
    reporter.raw_names(inputs.raw_names());
    // A signal stopped the kubectl runs: the handler reports it and ends
    // the process; what the stopped run came to is not said.
    crate::live::run::park_if_stopping();
    // A JUnit report is read by a CI system whatever the exit code: a run
    // that could not judge writes one errored testcase rather than no file.
    let errored = match (&outcome, &cli.command) {
        (Err(e), Command::Test(args)) if args.output == SuiteFormat::Junit => Some(("test", e)),
        (Err(e), Command::Verify(args)) if args.output == SuiteFormat::Junit => Some(("verify", e)),
        _ => None,
    }
    .map(|(command, e)| crate::report::junit::errored(command, &reporter.errors(e)));
    if let Err(e) = &outcome {
        reporter.failed(e);
    }
    reporter.finish();
    match errored {
        Some(xml) => text_outcome(&xml, 2).ok(),
        None => outcome.ok(),
    }
}

/// The kinds whose files `--skip-other-files` reads: the routers, what
/// their backends resolve against, and the RouterTest files.
const READ_KINDS: [&str; 4] = ["ModelRouter", "InferenceService", "ModelPool", crate::routing::suite::KIND];

/// The inputs and operator settings of a command that reads manifests.
fn common_args(command: &Command) -> Option<&CommonArgs> {
    match command {
        Command::Render(args) => Some(&args.common),
        Command::Explain(args) => Some(&args.common),
        Command::Diff(args) => Some(&args.common),
        Command::Test(args) => Some(&args.common),
        Command::Route(args) => Some(&args.common),
        Command::Verify(args) => Some(&args.common),
        Command::Replay(args) => Some(&args.common),
        Command::Krm
        | Command::Schema(_)
        | Command::Version { .. }
        | Command::Completions { .. }
        | Command::Man { .. } => None,
    }
}

fn run_command(cli: &Cli, inputs: &mut Inputs, reporter: &mut Reporter, terminal: Terminal) -> Result<Outcome> {
    match &cli.command {
        Command::Render(args) => render::run(args, inputs, reporter),
        Command::Explain(args) => explain::run(args, inputs, reporter),
        Command::Diff(args) => diff::run(args, inputs, reporter, terminal),
        Command::Krm => krm::command(inputs.stdin(), reporter),
        Command::Test(args) => test::run(args, inputs, reporter),
        Command::Route(args) => route::run(args, inputs, reporter),
        Command::Verify(args) => verify::run(args, inputs, reporter),
        Command::Replay(args) => replay::run(args, inputs, reporter),
        Command::Schema(args) => schema::run(args),
        Command::Version { output } => version::run(*output),
        Command::Completions { shell } => text_outcome(&completion::completions(*shell), 0),
        Command::Man { command } => text_outcome(&completion::man_page(command.as_deref())?, 0),
    }
}

/// Feeds arbitrary bytes through every stage — the part before the first NUL
/// byte as ModelRouter input, the rest as live objects — and, when that
/// succeeds, through both printers and the differ. Errors are expected;
/// a panic or a hang is a bug. Shared by the fuzz target and its seed test.
pub fn exercise(data: &[u8]) {
    let (routers, live) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &data[..0]),
    };
    // Raw bytes reach the same decoding as files do (BOMs, invalid UTF-8).
    let source = |name: &str, bytes: &[u8]| {
        crate::input::decode(name, bytes.to_vec()).map(|text| Source { name: name.into(), text })
    };
    let Ok(router_source) = source("routers", routers) else { return };
    let live_sources: Vec<Source> = match source("live", live) {
        Ok(s) if !live.is_empty() => vec![s],
        Ok(_) => Vec::new(),
        Err(_) => return,
    };
    let _ = crate::krm::run(&router_source.text);
    for emit_scrape_annotations in [false, true] {
        let options = Options {
            flags: OperatorFlags {
                default_litellm_url: Some("http://litellm:4000".into()),
                emit_scrape_annotations,
                ..OperatorFlags::default()
            },
            ..Options::default()
        };
        let Ok(items) =
            reconcile_sources(&options, std::slice::from_ref(&router_source), &live_sources, &mut std::io::sink())
        else {
            continue;
        };
        let objects: Vec<Value> = items.iter().map(|i| apply_ready(i.merged.clone())).collect();
        let _ = print_objects(&objects, Format::Yaml);
        let _ = print_objects(&objects, Format::Json);
        for item in &items {
            let _ = diff_object(item, Palette { color: false });
        }
        // Where requests go, on whichever plane was rendered.
        let requests = [
            crate::routing::Request::default(),
            crate::routing::Request {
                model: Some("gpt-4o".into()),
                headers: vec![("x-llmkube-classification".into(), "pii".into())],
            },
        ];
        for object in &objects {
            let kind = object.get("kind").and_then(Value::as_str);
            if kind == Some("ConfigMap") {
                let json = object.pointer("/data/config.json").and_then(Value::as_str).unwrap_or("{}");
                if let Ok(config) = crate::routing::proxy::ProxyConfig::from_json(json) {
                    for request in &requests {
                        let _ = crate::routing::proxy::decide(&config, request, &[]);
                    }
                }
            } else if kind == Some("AIGatewayRoute") {
                // Any names will do for the rules: the fuzz target asks where
                // requests go, not what the rules are called.
                let count = object.pointer("/spec/rules").and_then(Value::as_array).map_or(0, Vec::len);
                let origins = vec![crate::render::gateway::rules::RuleOrigin::Default; count];
                if let Ok(rules) = crate::routing::gateway::route_rules(object, &origins) {
                    for request in &requests {
                        let _ = crate::routing::gateway::decide(&rules, request, &[]);
                    }
                }
            }
        }
    }
}
