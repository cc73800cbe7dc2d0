//! kubectl misbehaving under routerctl, through the real binary: a kubectl
//! that hangs, floods stdout or stderr, dies half-way through a List, or
//! ignores SIGTERM when routerctl is stopped. Each run ends with a message,
//! exit 2 (or the signal's status) and nothing on stdout. How long and how
//! much memory each takes is measured in bench/faults.sh, not asserted here.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{root, FakeKubectl, Run};

const ROUTER: &str = "testdata/diff/router.yaml";

fn diff(kubectl: &FakeKubectl, extra: &[&str]) -> Run {
    let mut args = vec!["diff", "-f", ROUTER];
    args.extend_from_slice(extra);
    kubectl.run(&args, None)
}

#[test]
fn a_kubectl_that_hangs_is_stopped_after_the_request_timeout() {
    // `sleep` in the background keeps the pipes open as a stuck plugin
    // would; only a kill of the whole process group ends it.
    let kubectl = FakeKubectl::scripted("sleep 600 & wait");
    let run = diff(&kubectl, &["--request-timeout", "1s"]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(
        run.stderr.contains("no answer within 1s (--request-timeout) and 500ms more: kubectl was stopped"),
        "{}",
        run.stderr
    );
    let calls = kubectl.calls();
    assert!(calls.last().is_some_and(|c| c.starts_with("--request-timeout=1s get ")), "{calls:?}");
}

#[test]
fn a_kubectl_that_floods_stdout_is_stopped_by_the_reader_bounds() {
    // One endless line, then endless short lines: both cross a bound.
    for flood in ["tr '\\0' a < /dev/zero", "yes 'a: b'"] {
        let kubectl = FakeKubectl::scripted(&format!("exec {flood}"));
        let run = diff(&kubectl, &[]);
        assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{flood}: {}", run.stderr);
        assert!(run.stderr.contains("MiB"), "{flood}: {}", run.stderr);
    }
}

#[test]
fn a_kubectl_that_floods_stderr_is_shown_bounded() {
    let kubectl = FakeKubectl::scripted("head -c 100000000 /dev/zero | tr '\\0' x >&2; exit 1");
    let run = diff(&kubectl, &[]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.len() < 70 * 1024, "{} bytes of stderr", run.stderr.len());
    assert!(run
        .stderr
        .contains(&format!("[... {} more bytes of kubectl's stderr not shown]", 100_000_000 - 64 * 1024)));
}

#[test]
fn a_kubectl_that_dies_half_way_through_a_list_is_an_error() {
    let half = "printf 'apiVersion: v1\\nkind: List\\nitems:\\n- apiVersion: apps/v1\\n  kind: Deploy'; kill -9 $$";
    let kubectl = FakeKubectl::scripted(half);
    let run = diff(&kubectl, &[]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.contains("killed by a signal"), "{}", run.stderr);
}

/// Starts `routerctl diff` with a kubectl that ignores SIGTERM and SIGINT
/// and writes its pid once it runs; returns routerctl and kubectl's pid.
fn start_with_stubborn_kubectl(kubectl: &FakeKubectl) -> (std::process::Child, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_routerctl"))
        .args(["diff", "-f", ROUTER])
        .current_dir(root())
        .env("PATH", kubectl.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("routerctl starts");
    let pid_file = kubectl.dir.path().join("pid");
    let start = Instant::now();
    while !pid_file.exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "kubectl never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = std::fs::read_to_string(&pid_file).expect("pid").trim().to_string();
    (child, pid)
}

fn alive(pid: &str) -> bool {
    Command::new("kill").args(["-0", pid]).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

#[test]
fn a_signal_to_routerctl_stops_kubectl_with_its_process_group() {
    for (signal, code, said) in [("TERM", 143, "terminated (SIGTERM)"), ("INT", 130, "interrupted (SIGINT)")] {
        let kubectl = FakeKubectl::scripted("trap '' TERM INT; echo $$ > \"$dir/pid.tmp\"; mv \"$dir/pid.tmp\" \"$dir/pid\"; sleep 600 & wait; sleep 600");
        let (child, pid) = start_with_stubborn_kubectl(&kubectl);
        let sent =
            Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().expect("kill runs");
        assert!(sent.success());
        let out = child.wait_with_output().expect("routerctl ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        assert!(out.stdout.is_empty());
        assert!(stderr.ends_with(&format!("\nerror: {said}; the kubectl run under way was stopped\n")), "{stderr}");
        // kubectl, which ignored the polite signal, is gone (reaped by init
        // once routerctl has exited).
        let start = Instant::now();
        while alive(&pid) {
            assert!(start.elapsed() < Duration::from_secs(30), "kubectl {pid} survived SIGKILL");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
