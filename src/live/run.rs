//! Running kubectl with bounds: one [`Deadline`] for the whole cluster
//! read (each kubectl gets `--request-timeout` as given, and every one
//! still running some seconds after the deadline is killed; none starts
//! after it), stdout handed to a reader as it arrives (so a flood is
//! stopped by the reader's own bounds, and kubectl is killed), and stderr
//! kept to its first lines.
//!
//! kubectl runs in a process group of its own, so that it and whatever it
//! starts (an exec credential plugin) can be stopped together: by the
//! deadline, and by [`stop_all`] when routerctl itself is interrupted,
//! terminated or hung up (the binary's signal handler calls it). A
//! terminal's Ctrl-C or hang-up then reaches kubectl through routerctl, not
//! beside it. Once [`stop_all`] has begun no kubectl starts (the check and
//! the start are one step under the same lock), and the thread that ran a
//! stopped kubectl parks in [`park_if_stopping`] rather than report its
//! failure: the signal handler says what happened and ends the process.
//! Windows has no process groups to signal: there kubectl's process tree
//! is ended with `taskkill /T /F` ([`group`]).

use std::ffi::OsString;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};

/// How much of kubectl's stderr is kept.
pub const MAX_STDERR_BYTES: usize = 64 * 1024;

/// How long after kubectl's own deadline it is killed, at most: kubectl
/// gets half its deadline again (a short deadline is a short wait).
const GRACE: Duration = Duration::from_secs(10);

/// The kubectl runs under way, and whether routerctl is stopping.
struct Running {
    /// Their process groups.
    groups: Vec<u32>,
    /// [`stop_all`] has begun: nothing starts any more.
    stopping: bool,
}

static RUNNING: Mutex<Running> = Mutex::new(Running { groups: Vec::new(), stopping: false });

fn running() -> std::sync::MutexGuard<'static, Running> {
    RUNNING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether routerctl is being stopped by a signal.
pub fn stopping() -> bool {
    running().stopping
}

/// When routerctl is being stopped, never returns: the signal handler ends
/// the process, with its own message and status, and nothing the stopped
/// run would say (a kubectl "killed by a signal") is written.
pub fn park_if_stopping() {
    if stopping() {
        loop {
            std::thread::park();
        }
    }
}

/// What to do before the first kubectl starts: the binary installs its
/// signal handler there, so a run that starts no kubectl pays nothing for
/// it (and keeps the default signal actions, which stop it at once).
static BEFORE_FIRST_RUN: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Sets what runs once, before the first kubectl starts.
pub fn before_first_run(hook: fn()) {
    let _ = BEFORE_FIRST_RUN.set(hook);
}

fn grace(timeout: Duration) -> Duration {
    (timeout / 2).clamp(Duration::from_millis(500), GRACE)
}

/// The one deadline of a run's cluster read: `--request-timeout` from the
/// moment the read begins, for every kubectl together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadline {
    /// `--request-timeout` as the user wrote it, passed to kubectl as is.
    pub text: String,
    /// Its length.
    pub timeout: Duration,
    /// When it passes; `None` when it is too far to be represented.
    at: Option<Instant>,
}

impl Deadline {
    /// A deadline `timeout` (written `text`) from now.
    pub fn starting_now(text: &str, timeout: Duration) -> Deadline {
        Deadline { text: text.to_string(), timeout, at: Instant::now().checked_add(timeout) }
    }

    /// Whether it has passed.
    pub fn passed(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
    }

    /// How long from now a kubectl still running is killed: the deadline
    /// and a grace for kubectl to give up by itself.
    fn kill_in(&self) -> Duration {
        let left = self.at.map_or(self.timeout, |at| at.saturating_duration_since(Instant::now()));
        left.saturating_add(grace(self.timeout))
    }
}

/// Stops every kubectl under way, with its process group: SIGTERM, and
/// SIGKILL for what is still there a moment later (a program may ignore
/// SIGTERM); from the first moment no other kubectl starts. Called when
/// routerctl is interrupted, terminated or hung up; says how many were
/// stopped.
pub fn stop_all() -> usize {
    let groups: Vec<u32> = {
        let mut running = running();
        running.stopping = true;
        running.groups.clone()
    };
    if groups.is_empty() {
        return 0;
    }
    for group in &groups {
        group::terminate(*group);
    }
    std::thread::sleep(Duration::from_millis(200));
    // Every group, its kubectl reaped or not: what kubectl started (a
    // credential plugin) may outlive it in the group, and a group's id is
    // not given to another process while a member lives.
    for group in &groups {
        group::kill(*group);
    }
    groups.len()
}

/// kubectl and what it starts, stopped together.
#[cfg(unix)]
mod group {
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// kubectl leads a process group of its own: its pid names the group.
    pub fn own(command: &mut Command) {
        command.process_group(0);
    }

    pub fn terminate(group: u32) {
        signal(group, libc::SIGTERM);
    }

    pub fn kill(group: u32) {
        signal(group, libc::SIGKILL);
    }

    fn signal(group: u32, signal: libc::c_int) {
        if let Ok(pid) = libc::pid_t::try_from(group) {
            // SAFETY: kill(2) with a negative pid signals a process group; it
            // touches no memory of this process. The group is kubectl's own
            // (process_group(0) at spawn), never routerctl's.
            unsafe {
                libc::kill(-pid, signal);
            }
        }
    }
}

/// kubectl and what it starts, stopped together: Windows has no process
/// groups nor SIGTERM, so kubectl's process tree (by its pid, which its
/// `Child` handle keeps from reuse until it is dropped) is ended at once.
#[cfg(windows)]
mod group {
    use std::process::{Command, Stdio};

    pub fn own(_: &mut Command) {}

    pub fn terminate(pid: u32) {
        kill(pid);
    }

    pub fn kill(pid: u32) {
        let _ = Command::new("taskkill")
            .args(["/T", "/F", "/PID", &pid.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// Keeps a kubectl's process group in [`RUNNING`] while it runs.
struct Registered(u32);

impl Registered {
    /// Starts `command` and registers its process group, unless routerctl
    /// is stopping: both under the lock [`stop_all`] takes, so that no
    /// kubectl starts unseen by it.
    fn spawn(command: &mut Command) -> std::io::Result<(std::process::Child, Registered)> {
        let mut running = running();
        if running.stopping {
            return Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "routerctl is stopping"));
        }
        let child = command.spawn()?;
        running.groups.push(child.id());
        let registered = Registered(child.id());
        Ok((child, registered))
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        running().groups.retain(|g| *g != self.0);
    }
}

/// What a finished kubectl said.
pub struct Finished<T> {
    pub status: ExitStatus,
    /// The first [`MAX_STDERR_BYTES`] of stderr, and a note when more was
    /// cut.
    pub stderr: String,
    /// What the reader made of stdout.
    pub read: Result<T>,
    /// It was killed at the deadline.
    pub timed_out: bool,
    /// routerctl stopped it, still running, because the reader gave up (a
    /// bound crossed, a bad answer): the reader's error is the one to tell,
    /// not the kill that followed it.
    pub stopped_by_reader: bool,
}

/// Runs `program args`, hands its stdout to `read`, and waits for it,
/// killing it a grace after the `deadline`, or as soon as `read` fails.
/// Past the deadline it does not start (a `TimedOut` error).
pub fn run_kubectl<T>(
    program: &OsString,
    args: &[OsString],
    deadline: &Deadline,
    read: impl FnOnce(&mut dyn Read) -> Result<T>,
) -> std::io::Result<Finished<T>> {
    if deadline.passed() {
        return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the cluster read's deadline has passed"));
    }
    static FIRST: std::sync::Once = std::sync::Once::new();
    FIRST.call_once(|| {
        if let Some(hook) = BEFORE_FIRST_RUN.get() {
            hook();
        }
    });
    let mut command = Command::new(program);
    command.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    group::own(&mut command);
    let (mut child, registered) = Registered::spawn(&mut command)?;
    // kubectl leads its group: its pid names the group. The pid stays
    // kubectl's until the wait below reaps it, and the watchdog is stopped
    // right after that.
    let group = child.id();
    let mut stdout = child.stdout.take().ok_or_else(|| std::io::Error::other("kubectl's stdout"))?;
    let stderr = child.stderr.take().ok_or_else(|| std::io::Error::other("kubectl's stderr"))?;
    let done = Arc::new((Mutex::new(false), Condvar::new()));
    let timed_out = Arc::new(Mutex::new(false));

    // The watchdog: at the deadline, kill kubectl (its pipes then close).
    let kill_in = deadline.kill_in();
    let watchdog = {
        let (done, timed_out) = (Arc::clone(&done), Arc::clone(&timed_out));
        std::thread::spawn(move || {
            let (lock, wake) = &*done;
            let finished = lock.lock().unwrap_or_else(PoisonError::into_inner);
            let (finished, _) =
                wake.wait_timeout_while(finished, kill_in, |f| !*f).unwrap_or_else(PoisonError::into_inner);
            if !*finished {
                *timed_out.lock().unwrap_or_else(PoisonError::into_inner) = true;
                group::kill(group);
            }
        })
    };
    let stderr_reader = std::thread::spawn(move || keep_start(stderr));

    let read_result = read(&mut stdout);
    let mut stopped_by_reader = false;
    if read_result.is_err() && matches!(child.try_wait(), Ok(None)) {
        // The reader gave up (a flood, a bad answer): kubectl is not waited for.
        group::kill(group);
        stopped_by_reader = true;
    }
    // Whatever is left unread is drained, so that kubectl can finish.
    let _ = std::io::copy(&mut stdout, &mut std::io::sink());
    let status = child.wait();
    drop(registered);
    let status = status?;
    {
        let (lock, wake) = &*done;
        *lock.lock().unwrap_or_else(PoisonError::into_inner) = true;
        wake.notify_all();
    }
    let _ = watchdog.join();
    let stderr = stderr_reader.join().unwrap_or_default();
    let timed_out = *timed_out.lock().unwrap_or_else(PoisonError::into_inner);
    Ok(Finished { status, stderr, read: read_result, timed_out, stopped_by_reader })
}

/// The first [`MAX_STDERR_BYTES`] of a stream, read to its end.
fn keep_start(mut from: impl Read) -> String {
    let mut kept = Vec::new();
    let _ = (&mut from).take(MAX_STDERR_BYTES as u64).read_to_end(&mut kept);
    let cut = std::io::copy(&mut from, &mut std::io::sink()).unwrap_or(0);
    let mut text = String::from_utf8_lossy(&kept).into_owned();
    if cut > 0 {
        text.push_str(&format!("\n[... {cut} more bytes of kubectl's stderr not shown]"));
    }
    text
}

/// kubectl's `--request-timeout`, as the user gave it (kubectl reads Go
/// durations as routerctl does).
pub fn request_timeout_arg(deadline: &Deadline) -> OsString {
    format!("--request-timeout={}", deadline.text).into()
}

/// Says why a kubectl run failed, for messages.
pub fn failure(finished_status: ExitStatus, timed_out: bool, deadline: &Deadline) -> anyhow::Error {
    if timed_out {
        return anyhow!(
            "the cluster read had no answer within {:?} (--request-timeout, for every kubectl of the run) and {:?} \
             more: kubectl was stopped",
            deadline.timeout,
            grace(deadline.timeout)
        );
    }
    match finished_status.code() {
        Some(code) => anyhow!("exit status {code}"),
        None => anyhow!("killed by a signal"),
    }
}
