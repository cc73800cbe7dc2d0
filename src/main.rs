//! The `routerctl` binary: parse arguments, run, print once, exit.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, ValueEnum};
use routerctl::cli::{Cli, MessageChoice};
use routerctl::commands::Terminal;

#[global_allocator]
static ALLOCATOR: Counted = Counted;

/// mimalloc, with the bytes held counted (`routing::heap`), so that
/// `verify`'s search stops under `--max-memory` whatever grows.
struct Counted;

// SAFETY: every call is mimalloc's own, with its arguments as given; the
// count is only added to and read.
unsafe impl std::alloc::GlobalAlloc for Counted {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc(layout) };
        if !p.is_null() {
            routerctl::routing::heap::add(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            routerctl::routing::heap::add(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) };
        routerctl::routing::heap::sub(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            routerctl::routing::heap::add(new_size);
            routerctl::routing::heap::sub(layout.size());
        }
        p
    }
}

fn main() -> ExitCode {
    routerctl::live::run::before_first_run(stop_on_signals);
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let stem = args
        .first()
        .and_then(|a| std::path::Path::new(a).file_stem())
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    // kustomize's exec functions take a path and no arguments: a link named
    // `routerctl-krm` (or anything ending in `-krm`) runs the KRM function.
    if stem.ends_with("-krm") {
        args.insert(1, "krm".into());
    }
    // kubectl runs `kubectl-routerctl` for `kubectl routerctl`; usage and
    // errors then name the command the user typed.
    let mut command = Cli::command();
    if stem == "kubectl-routerctl" {
        command = command.bin_name("kubectl routerctl");
    }
    let parsed = command
        .try_get_matches_from_mut(args.iter())
        .and_then(|matches| Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command)));
    let mut stderr = std::io::stderr();
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage_error(&file_hint(e), &args, &mut stderr),
    };
    let terminal = Terminal {
        stdout_is_tty: std::io::stdout().is_terminal(),
        stderr_is_tty: std::io::stderr().is_terminal(),
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
    };
    match routerctl::commands::run(&cli, &mut std::io::stdin().lock(), &mut stderr, terminal) {
        Some(outcome) => {
            let mut stdout = std::io::stdout().lock();
            if let Err(e) = outcome.stdout.copy_to(&mut stdout).and_then(|()| stdout.flush()) {
                // A closed pipe (`| head`) is the reader's choice, not an error.
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    let _ = writeln!(stderr, "error: cannot write output: {e}");
                    return ExitCode::from(2);
                }
            }
            // The plan lines close a diff, after it.
            let _ = stderr.write_all(outcome.notes.as_bytes());
            ExitCode::from(u8::try_from(outcome.code).unwrap_or(2))
        }
        // The error is written already, in the --message-format asked for.
        None => ExitCode::from(2),
    }
}

/// A command line clap refuses: as clap writes it (help and `--version`
/// too, on stdout), unless `--message-format` asks CI for a finding.
fn usage_error(e: &clap::Error, args: &[std::ffi::OsString], stderr: &mut dyn Write) -> ExitCode {
    use clap::error::ErrorKind;
    let format = message_format(args).filter(|f| *f != MessageChoice::Human);
    let shown = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand;
    let Some(format) = format.filter(|_| !shown) else { e.exit() };
    let mut reporter = routerctl::report::Reporter::new(stderr, false, false, false).with_format(format.into());
    let text = e.render().to_string();
    reporter.failed(&anyhow::anyhow!("{}", text.strip_prefix("error: ").unwrap_or(&text).trim_end()));
    reporter.finish();
    ExitCode::from(2)
}

/// An argument clap does not expect that names a file (helm takes its
/// chart as a positional argument; routerctl takes files with `-f`): the
/// refusal says how to give it.
fn file_hint(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return e;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else { return e };
    let path = std::path::Path::new(arg);
    let looks_like_file =
        path.exists() || [".yaml", ".yml", ".json"].iter().any(|ext| arg.to_ascii_lowercase().ends_with(ext));
    if !arg.starts_with('-') && looks_like_file {
        let tip = format!("routerctl reads files given with -f: `-f {arg}`");
        e.insert(ContextKind::Suggested, ContextValue::StyledStrs(vec![tip.into()]));
    }
    e
}

/// `--message-format`'s value, read off the raw arguments when clap could
/// not read them.
fn message_format(args: &[std::ffi::OsString]) -> Option<MessageChoice> {
    // Up to `--`, after which nothing is a flag; the value's case as clap
    // takes it.
    let args: Vec<&str> = args.iter().filter_map(|a| a.to_str()).take_while(|a| *a != "--").collect();
    let value = args.iter().enumerate().find_map(|(i, a)| match a.strip_prefix("--message-format") {
        Some("") => args.get(i + 1).copied(),
        Some(rest) => rest.strip_prefix('='),
        None => None,
    })?;
    MessageChoice::from_str(value, false).ok()
}

/// SIGINT, SIGTERM and SIGHUP stop the kubectl runs under way with their
/// process groups (and keep any other from starting), then end routerctl
/// with a message and the status shells give a process ended by that
/// signal (130, 143, 129). stdout is written only after a run succeeds, so
/// an interrupted run has printed nothing there. Installed before the
/// first kubectl starts; until then the signals' default actions stop
/// routerctl at once.
#[cfg(unix)]
fn stop_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        // Without a handler the signals keep their default action.
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let stopped = routerctl::live::run::stop_all();
            let name = match signal {
                SIGINT => "interrupted (SIGINT)",
                SIGHUP => "hung up (SIGHUP)",
                _ => "terminated (SIGTERM)",
            };
            let kubectl = match stopped {
                0 => String::new(),
                1 => "; the kubectl run under way was stopped".to_string(),
                n => format!("; the {n} kubectl runs under way were stopped"),
            };
            let _ = writeln!(std::io::stderr(), "error: {name}{kubectl}");
            std::process::exit(128 + signal);
        }
    });
}

/// On Windows a console's Ctrl-C reaches every process attached to it,
/// kubectl too, and ends routerctl by its default action.
#[cfg(not(unix))]
fn stop_on_signals() {}
