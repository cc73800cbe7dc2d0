//! Work on several threads, results in input order: the workers take items
//! a few at a time and the calling thread consumes each result as soon as
//! those before it are in, so printing overlaps the work. At most about
//! `window` results wait for their turn, which bounds memory however
//! uneven the items are.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex, MutexGuard, PoisonError};

use anyhow::Result;

/// Items a worker takes at once: few enough to share the work out evenly,
/// enough that handing them over costs little (one message, one wake-up).
const MAX_CHUNK: usize = 16;

/// Where the consuming thread is, for workers that wait to stay within
/// the window.
#[derive(Default)]
struct Progress {
    consumed: usize,
    /// Workers waiting on the condition variable (only they need a wake-up).
    sleepers: usize,
}

/// Calls `work` on every item, on `threads` threads (on the calling thread
/// alone when that is one), and `consume` on the results in item order.
/// The first error of `consume` ends the run: no new item is started, and
/// the error is returned once the items under way have finished.
pub fn for_each_ordered<I: Sync, R: Send>(
    items: &[I],
    threads: usize,
    window: usize,
    work: impl Fn(&I) -> R + Sync,
    mut consume: impl FnMut(R) -> Result<()>,
) -> Result<()> {
    if threads <= 1 || items.len() <= 1 {
        return items.iter().try_for_each(|item| consume(work(item)));
    }
    let window = window.max(1);
    let chunk = (items.len() / (threads * 8)).clamp(1, MAX_CHUNK);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let progress = Mutex::new(Progress::default());
    let turn = Condvar::new();
    let (sender, results) = mpsc::channel::<(usize, Vec<R>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(items.len()) {
            let sender = sender.clone();
            let (next, stop, progress, turn, work) = (&next, &stop, &progress, &turn, &work);
            scope.spawn(move || {
                // A panic in `work` must not leave the others waiting for its
                // result; the scope then re-raises it.
                let _wake = WakeOnPanic { stop, progress, turn };
                loop {
                    let first = next.fetch_add(chunk, Ordering::Relaxed);
                    if first >= items.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let mut state = lock(progress);
                    while first >= state.consumed + window && !stop.load(Ordering::Relaxed) {
                        state.sleepers += 1;
                        state = turn.wait(state).unwrap_or_else(PoisonError::into_inner);
                        state.sleepers -= 1;
                    }
                    drop(state);
                    let mut done = Vec::with_capacity(chunk);
                    for item in &items[first..(first + chunk).min(items.len())] {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        done.push(work(item));
                    }
                    if sender.send((first, done)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut expected = 0;
        let outcome = results.iter().try_for_each(|(first, done)| {
            waiting.insert(first, done);
            while let Some(done) = waiting.remove(&expected) {
                expected += done.len();
                let mut state = lock(&progress);
                state.consumed = expected;
                if state.sleepers > 0 {
                    turn.notify_all();
                }
                drop(state);
                done.into_iter().try_for_each(&mut consume)?;
            }
            Ok(())
        });
        if outcome.is_err() {
            stop_all(&stop, &progress, &turn);
        }
        outcome
    })
}

/// A lock whose holder panicked still guards a consistent count.
fn lock(progress: &Mutex<Progress>) -> MutexGuard<'_, Progress> {
    progress.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Tells every worker to stop, waking those waiting for their turn.
fn stop_all(stop: &AtomicBool, progress: &Mutex<Progress>, turn: &Condvar) {
    stop.store(true, Ordering::Relaxed);
    // Taking the lock orders the store before any worker's next check, so
    // none sleeps through the wake-up.
    drop(lock(progress));
    turn.notify_all();
}

struct WakeOnPanic<'a> {
    stop: &'a AtomicBool,
    progress: &'a Mutex<Progress>,
    turn: &'a Condvar,
}

impl Drop for WakeOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            stop_all(self.stop, self.progress, self.turn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::bail;

    fn run(items: &[u64], threads: usize, window: usize, fail_at: Option<u64>) -> (Vec<u64>, Result<()>) {
        let mut seen = Vec::new();
        let outcome = for_each_ordered(
            items,
            threads,
            window,
            |&n| {
                // Uneven work, so later items often finish first.
                std::thread::sleep(std::time::Duration::from_micros((n * 7919) % 300));
                n * 2
            },
            |r| {
                if Some(r / 2) == fail_at {
                    bail!("failed at {}", r / 2);
                }
                seen.push(r);
                Ok(())
            },
        );
        (seen, outcome)
    }

    #[test]
    fn results_come_in_item_order_for_any_thread_count_and_window() {
        let items: Vec<u64> = (0..200).collect();
        let expected: Vec<u64> = items.iter().map(|n| n * 2).collect();
        for threads in [1, 2, 3, 8] {
            for window in [1, 2, 16, 1000] {
                let (seen, outcome) = run(&items, threads, window, None);
                assert!(outcome.is_ok());
                assert_eq!(seen, expected, "{threads} threads, window {window}");
            }
        }
    }

    #[test]
    fn the_first_error_in_item_order_ends_the_run() {
        let items: Vec<u64> = (0..200).collect();
        for threads in [1, 2, 4] {
            let (seen, outcome) = run(&items, threads, 8, Some(57));
            assert_eq!(seen, (0..57).map(|n| n * 2).collect::<Vec<_>>());
            assert_eq!(outcome.map_err(|e| e.to_string()), Err("failed at 57".to_string()));
        }
    }

    #[test]
    fn a_panicking_item_is_raised_not_waited_for() {
        // On a thread of its own, so that a hang fails the test instead of
        // stalling the suite.
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            let items: Vec<u64> = (0..100).collect();
            let outcome = std::panic::catch_unwind(|| {
                for_each_ordered(
                    &items,
                    2,
                    2,
                    |&n| {
                        assert!(n != 5, "item 5 fails");
                        n
                    },
                    |_| Ok(()),
                )
            });
            let _ = done.send(outcome.is_err());
        });
        let raised = finished.recv_timeout(std::time::Duration::from_secs(30));
        assert_eq!(raised, Ok(true), "the panic reaches the caller");
    }

    #[test]
    fn no_items_and_one_item() {
        assert_eq!(run(&[], 4, 4, None).0, Vec::<u64>::new());
        assert_eq!(run(&[21], 4, 4, None).0, vec![42]);
    }
}
