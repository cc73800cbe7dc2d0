//! Running kubectl with bounds: a deadline (kubectl's own
//! `--request-timeout`, and a kill when it has not ended some seconds after
//! it), stdout handed to a reader as it arrives (so a flood is stopped by
//! the reader's own bounds, and kubectl is killed), and stderr kept to its
//! first lines.

use std::ffi::OsString;
use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use anyhow::{anyhow, Result};

/// How much of kubectl's stderr is kept.
pub const MAX_STDERR_BYTES: usize = 64 * 1024;

/// How long after kubectl's own deadline it is killed.
const GRACE: Duration = Duration::from_secs(10);

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
}

/// Runs `program args`, hands its stdout to `read`, and waits for it,
/// killing it `timeout` plus a grace after the start, or as soon as `read`
/// fails.
pub fn run_kubectl<T>(
    program: &OsString,
    args: &[OsString],
    timeout: Duration,
    read: impl FnOnce(&mut dyn Read) -> Result<T>,
) -> std::io::Result<Finished<T>> {
    let mut child =
        Command::new(program).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let mut stdout = child.stdout.take().ok_or_else(|| std::io::Error::other("kubectl's stdout"))?;
    let stderr = child.stderr.take().ok_or_else(|| std::io::Error::other("kubectl's stderr"))?;
    let child = Arc::new(Mutex::new(child));
    let done = Arc::new((Mutex::new(false), Condvar::new()));
    let timed_out = Arc::new(Mutex::new(false));

    // The watchdog: at the deadline, kill kubectl (its pipes then close).
    let watchdog = {
        let (child, done, timed_out) = (Arc::clone(&child), Arc::clone(&done), Arc::clone(&timed_out));
        std::thread::spawn(move || {
            let (lock, wake) = &*done;
            let finished = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let (finished, _) = wake
                .wait_timeout_while(finished, timeout + GRACE, |f| !*f)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if !*finished {
                *timed_out.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = true;
                let _ = kill(&child);
            }
        })
    };
    let stderr_reader = std::thread::spawn(move || keep_start(stderr));

    let read_result = read(&mut stdout);
    if read_result.is_err() {
        // The reader gave up (a flood, a bad answer): kubectl is not waited for.
        let _ = kill(&child);
    }
    // Whatever is left unread is drained, so that kubectl can finish.
    let _ = std::io::copy(&mut stdout, &mut std::io::sink());
    let status = {
        let mut guard = child.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        guard.wait()?
    };
    {
        let (lock, wake) = &*done;
        *lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        wake.notify_all();
    }
    let _ = watchdog.join();
    let stderr = stderr_reader.join().unwrap_or_default();
    let timed_out = *timed_out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Finished { status, stderr, read: read_result, timed_out })
}

fn kill(child: &Mutex<Child>) -> std::io::Result<()> {
    child.lock().unwrap_or_else(std::sync::PoisonError::into_inner).kill()
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

/// kubectl's `--request-timeout` for a deadline.
pub fn request_timeout_arg(timeout: Duration) -> OsString {
    format!("--request-timeout={}s", timeout.as_secs().max(1)).into()
}

/// Says why a kubectl run failed, for messages.
pub fn failure(finished_status: ExitStatus, timed_out: bool, timeout: Duration) -> anyhow::Error {
    if timed_out {
        return anyhow!(
            "no answer within {}s (--request-timeout) and {}s more: kubectl was stopped",
            timeout.as_secs(),
            GRACE.as_secs()
        );
    }
    match finished_status.code() {
        Some(code) => anyhow!("exit status {code}"),
        None => anyhow!("killed by a signal"),
    }
}
