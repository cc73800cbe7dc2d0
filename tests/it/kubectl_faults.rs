//! kubectl misbehaving under routerctl, through the real binary: a kubectl
//! that hangs, floods stdout or stderr, dies half-way through a List, or
//! ignores SIGTERM when routerctl is stopped. Each run ends with a message,
//! exit 2 (or the signal's status) and nothing on stdout. How long and how
//! much memory each takes is measured in bench/faults.sh, not asserted here.

use crate::common;

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
        run.stderr.contains(
            "the cluster read had no answer within 1s (--request-timeout, for every kubectl of the run) and 500ms \
             more: kubectl was stopped"
        ),
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
    let pid = pid_in(kubectl, "pid");
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
        // What the stopped run came to is not said: its findings, written
        // when a run ends, never are.
        assert_eq!(stderr, format!("error: {said}; the kubectl run under way was stopped\n"));
        // kubectl, which ignored the polite signal, is gone (reaped by init
        // once routerctl has exited).
        let start = Instant::now();
        while alive(&pid) {
            assert!(start.elapsed() < Duration::from_secs(30), "kubectl {pid} survived SIGKILL");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A stand-in whose operator look-up writes its pid to `lookup-pid` and
/// hangs, and whose namespace read writes its pid to `ns-pid` and hangs;
/// both honour SIGTERM, as every real kubectl does.
fn hanging_in_every_phase() -> FakeKubectl {
    FakeKubectl::raw(
        r#"case "$*" in
  *--all-namespaces*) name=lookup-pid ;;
  *) name=ns-pid ;;
esac
echo $$ > "$dir/$name.tmp"; mv "$dir/$name.tmp" "$dir/$name"
sleep 600 & wait"#,
    )
}

/// Waits for `file` in the stand-in's directory and returns the pid in it.
fn pid_in(kubectl: &FakeKubectl, file: &str) -> String {
    let path = kubectl.dir.path().join(file);
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "{file} never written");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::read_to_string(&path).expect("pid").trim().to_string()
}

/// A signal during the operator look-up: the look-up's kubectl is stopped,
/// no namespace read starts after it (it would outlive routerctl in its own
/// process group), and routerctl exits with the signal's status and a
/// message that says so, never a warning that the look-up failed.
#[test]
fn a_signal_during_the_operator_lookup_starts_nothing_more() {
    for (signal, code, said) in
        [("TERM", 143, "terminated (SIGTERM)"), ("INT", 130, "interrupted (SIGINT)"), ("HUP", 129, "hung up (SIGHUP)")]
    {
        let kubectl = hanging_in_every_phase();
        let child = Command::new(env!("CARGO_BIN_EXE_routerctl"))
            .args(["diff", "-f", ROUTER, "--router-proxy-image", "x:1"])
            .current_dir(root())
            .env("PATH", kubectl.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("routerctl starts");
        let lookup = pid_in(&kubectl, "lookup-pid");
        let sent =
            Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().expect("kill runs");
        assert!(sent.success());
        let out = child.wait_with_output().expect("routerctl ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), out.stdout.is_empty()), (Some(code), true), "{signal}: {stderr}");
        assert_eq!(stderr, format!("error: {said}; the kubectl run under way was stopped\n"), "{signal}");
        // Give a namespace read that would start late the time to show.
        std::thread::sleep(Duration::from_millis(300));
        assert!(!kubectl.dir.path().join("ns-pid").exists(), "{signal}: a namespace read started after the signal");
        let start = Instant::now();
        while alive(&lookup) {
            assert!(start.elapsed() < Duration::from_secs(30), "{signal}: the look-up's kubectl {lookup} survived");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A signal during a namespace read is the signal, not a kubectl failure.
#[test]
fn a_signal_during_a_namespace_read_exits_with_its_status() {
    let kubectl =
        FakeKubectl::scripted("echo $$ > \"$dir/pid.tmp\"; mv \"$dir/pid.tmp\" \"$dir/pid\"; sleep 600 & wait");
    let (child, pid) = start_with_stubborn_kubectl(&kubectl);
    let sent = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().expect("routerctl ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), out.stdout.is_empty()), (Some(143), true), "{stderr}");
    assert_eq!(stderr, "error: terminated (SIGTERM); the kubectl run under way was stopped\n");
    assert!(!stderr.contains("killed by a signal"), "{stderr}");
    let start = Instant::now();
    while alive(&pid) {
        assert!(start.elapsed() < Duration::from_secs(30), "kubectl {pid} survived");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Eight routers, each in its own namespace.
fn eight_namespaces() -> String {
    (0..8)
        .map(|i| {
            format!(
                "apiVersion: inference.llmkube.dev/v1alpha1\nkind: ModelRouter\nmetadata:\n  name: r\n  namespace: \
                 ns{i}\nspec:\n  backends:\n  - name: b\n    external:\n      provider: openai\n      model: m\n"
            )
        })
        .collect::<Vec<_>>()
        .join("---\n")
}

/// Whether any process still runs the stand-in's script.
fn stand_ins_left(kubectl: &FakeKubectl) -> Vec<String> {
    let out = Command::new("pgrep").args(["-f", &kubectl.dir.path().display().to_string()]).output().expect("pgrep");
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

/// A cluster that never answers costs one deadline for the whole read,
/// however many namespaces: the look-up and the reads share it, the reads
/// of different namespaces run side by side, and once it has passed no
/// kubectl starts. routerctl exits 2 once, naming what did not answer.
#[test]
fn a_cluster_that_never_answers_costs_one_deadline() {
    // The look-up hangs: nothing else is started after it.
    let kubectl = FakeKubectl::new();
    let script =
        format!("#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}/calls.log'\nsleep 600 & wait\n", kubectl.dir.path().display());
    std::fs::write(kubectl.dir.path().join("kubectl"), script).expect("writes the stand-in");
    let start = Instant::now();
    let run = kubectl.run(&["diff", "-f", "-", "-j", "8", "--request-timeout", "1s"], Some(&eight_namespaces()));
    let took = start.elapsed();
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(
        run.stderr.starts_with("error: the operator look-up `kubectl --request-timeout=1s get deployments.apps"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("was stopped: the cluster read had no answer within 1s"), "{}", run.stderr);
    assert_eq!(run.stderr.matches("error:").count(), 1, "{}", run.stderr);
    assert_eq!(kubectl.calls().len(), 1, "only the look-up ran: {:?}", kubectl.calls());
    assert_eq!(stand_ins_left(&kubectl), Vec::<String>::new());

    // The look-up answers and every namespace hangs: eight reads side by
    // side, one deadline for all of them.
    let kubectl = FakeKubectl::scripted("sleep 600 & wait");
    let start = Instant::now();
    let run = kubectl.run(
        &["diff", "-f", "-", "-j", "8", "--request-timeout", "2s", "--router-proxy-image", "x:1"],
        Some(&eight_namespaces()),
    );
    let took = start.elapsed();
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    // The deadline and its grace (1s), not eight of them.
    assert!(took < Duration::from_secs(6), "took {took:?}");
    assert_eq!(run.stderr.matches("error:").count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("had no answer within 2s"), "{}", run.stderr);
    assert_eq!(stand_ins_left(&kubectl), Vec::<String>::new());
}

/// An input that cannot be read is refused before the cluster is asked.
#[test]
fn inputs_are_read_before_the_cluster_is_asked() {
    let kubectl = FakeKubectl::new();
    let run = kubectl.run(&["diff", "-f", "testdata/no-such-file.yaml"], None);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(run.stderr.contains("testdata/no-such-file.yaml"), "{}", run.stderr);
    assert_eq!(kubectl.calls(), Vec::<String>::new());
}

/// `--request-timeout` reaches kubectl as written: kubectl reads Go
/// durations too, so `1.5s` stays `1.5s` and `2m` stays `2m`.
#[test]
fn the_request_timeout_is_passed_as_given() {
    for given in ["1.5s", "2m", "250ms"] {
        let kubectl = FakeKubectl::new();
        let run = diff(&kubectl, &["--request-timeout", given, "--router-proxy-image", "x:1", "-q"]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        let calls = kubectl.calls();
        assert_eq!(calls.len(), 2, "{calls:?}");
        assert!(calls.iter().all(|c| c.starts_with(&format!("--request-timeout={given} get "))), "{calls:?}");
    }
}

/// A `--request-timeout` that is not a duration is refused before kubectl
/// runs, in the wording every duration field has (Go's own error for
/// `time.ParseDuration("30")` is `missing unit in duration "30"`); a zero
/// one, which kubectl reads as "no timeout", is refused as such.
#[test]
fn a_request_timeout_that_is_no_duration_is_refused_as_every_duration_is() {
    let kubectl = FakeKubectl::new();
    let run = diff(&kubectl, &["--request-timeout", "30", "--router-proxy-image", "x:1"]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "--request-timeout: not a Go duration (missing unit in duration \"30\"); write it like 30s, 5m or 1h30m"
        ),
        "{}",
        run.stderr
    );
    let run = diff(&kubectl, &["--request-timeout", "0s", "--router-proxy-image", "x:1"]);
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(run.stderr.contains("--request-timeout \"0s\": must be longer than 0"), "{}", run.stderr);
    assert_eq!(kubectl.calls(), Vec::<String>::new());
}

/// A credential plugin that ignores SIGTERM outlives a kubectl that honours
/// it: the whole group is killed all the same.
#[test]
fn a_plugin_that_ignores_sigterm_is_stopped_with_its_group() {
    let kubectl = FakeKubectl::scripted(
        "(trap '' TERM INT; echo $(exec sh -c 'echo $PPID') > \"$dir/pid.tmp\"; mv \"$dir/pid.tmp\" \"$dir/pid\"; \
         exec sleep 600 >/dev/null 2>&1) & wait",
    );
    let (child, plugin) = start_with_stubborn_kubectl(&kubectl);
    let sent = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().expect("routerctl ends");
    assert_eq!(out.status.code(), Some(143), "{}", String::from_utf8_lossy(&out.stderr));
    let start = Instant::now();
    while alive(&plugin) {
        assert!(start.elapsed() < Duration::from_secs(30), "the plugin {plugin} survived");
        std::thread::sleep(Duration::from_millis(20));
    }
}
