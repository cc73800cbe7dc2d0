//! Running the real `routerctl` binary from tests.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// A readable record of the run for snapshots.
    pub fn transcript(&self, args: &[&str]) -> String {
        format!(
            "$ routerctl {}\nexit: {}\n--- stderr\n{}--- stdout\n{}",
            args.join(" "),
            self.code,
            self.stderr,
            self.stdout
        )
    }
}

/// The crate root, so testdata paths in snapshots stay relative.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary from the crate root with `args`, feeding `stdin`.
pub fn routerctl(args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_routerctl"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("routerctl binary starts");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // A run that fails before reading stdin closes it: not a test failure.
        if let Err(e) = pipe.write_all(text.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writing stdin: {e}");
        }
    }
    let out = child.wait_with_output().expect("routerctl finishes");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// The objects of a YAML stream (the binary's output), parsed back.
pub fn parse_stream(yaml: &str) -> Vec<serde_json::Value> {
    routerctl::input::parse_stream("output", yaml).expect("output is YAML").into_iter().map(|(_, _, v)| v).collect()
}
