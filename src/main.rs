//! The `routerctl` binary: parse arguments, run, print once, exit.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use routerctl::app::Terminal;
use routerctl::cli::Cli;

fn main() -> ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // kustomize's exec functions take a path and no arguments: a link named
    // `routerctl-krm` (or anything ending in `-krm`) runs the KRM function.
    let invoked_as_krm = args
        .first()
        .and_then(|a| std::path::Path::new(a).file_stem())
        .is_some_and(|stem| stem.to_string_lossy().ends_with("-krm"));
    if invoked_as_krm {
        args.insert(1, "krm".into());
    }
    let cli = Cli::parse_from(args);
    let mut stderr = std::io::stderr();
    let terminal = Terminal {
        stdout_is_tty: std::io::stdout().is_terminal(),
        stderr_is_tty: std::io::stderr().is_terminal(),
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
    };
    match routerctl::app::run(&cli, &mut std::io::stdin().lock(), &mut stderr, terminal) {
        Ok(outcome) => {
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
        Err(e) => {
            let _ = writeln!(stderr, "error: {e:#}");
            ExitCode::from(2)
        }
    }
}
