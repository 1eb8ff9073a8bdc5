//! Soft handshakes: run a callback in every thread at its next pollcheck,
//! or on its behalf while it is exited. No thread waits for another.

use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use crate::safepoint;
use crate::thread::{Thread, threads};

/// Where a handshake callback runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// In the thread itself, at a pollcheck (its own stack is live).
    Own,
    /// In the collector, holding the run lock of the exited thread (its
    /// registers and stack pointer were saved by `exit`).
    OnBehalf,
}

/// A handshake callback.
pub type Callback = fn(&Thread, Context);

static CALLBACK: AtomicUsize = AtomicUsize::new(0);
static SERIAL: Mutex<()> = Mutex::new(());
static DONE_LOCK: Mutex<()> = Mutex::new(());
static DONE_CV: Condvar = Condvar::new();
/// Longest time a thread spent in a callback since the last reset (ns).
static MAX_PAUSE_NS: AtomicU64 = AtomicU64::new(0);
static PAUSE_LOG: Mutex<Option<Vec<u64>>> = Mutex::new(None);
/// Callbacks run by threads themselves / on their behalf, since the start.
static SERVED_OWN: AtomicU64 = AtomicU64::new(0);
static SERVED_ON_BEHALF: AtomicU64 = AtomicU64::new(0);

/// How many handshake callbacks threads ran themselves, and how many the
/// collector ran on behalf of exited threads, since the start.
pub fn served() -> (u64, u64) {
    (
        SERVED_OWN.load(Ordering::Relaxed),
        SERVED_ON_BEHALF.load(Ordering::Relaxed),
    )
}

/// Runs the current callback for `t` and clears its request bit.
///
/// The caller holds `t`'s run lock (it is `t` itself, or the collector).
pub(crate) fn serve(t: &Thread, ctx: Context) {
    safepoint::serve(t, || {
        let raw = CALLBACK.load(Ordering::Acquire);
        if raw != 0 {
            // SAFETY: only `soft_handshake` stores here, always a `Callback`.
            let cb: Callback = unsafe { core::mem::transmute::<usize, Callback>(raw) };
            let start = Instant::now();
            cb(t, ctx);
            match ctx {
                Context::Own => SERVED_OWN.fetch_add(1, Ordering::Relaxed),
                Context::OnBehalf => SERVED_ON_BEHALF.fetch_add(1, Ordering::Relaxed),
            };
            if ctx == Context::Own {
                record_pause(start.elapsed());
            }
        }
    });
    notify_done();
}

fn record_pause(d: Duration) {
    let ns = d.as_nanos() as u64;
    MAX_PAUSE_NS.fetch_max(ns, Ordering::Relaxed);
    if let Some(log) = PAUSE_LOG.lock().as_mut() {
        log.push(ns);
    }
}

/// Wakes the collector waiting for handshake progress.
pub(crate) fn notify_done() {
    let _g = DONE_LOCK.lock();
    DONE_CV.notify_all();
}

/// Runs `cb` once for every registered thread; returns when all have run.
pub fn soft_handshake(cb: Callback) {
    let _serial = SERIAL.lock();
    CALLBACK.store(cb as usize, Ordering::Release);
    let mut pending = threads();
    for t in &pending {
        safepoint::post(&**t);
    }
    loop {
        pending.retain(|t| !safepoint::try_complete(&**t, |t| serve(t, Context::OnBehalf)));
        if pending.is_empty() {
            break;
        }
        let mut g = DONE_LOCK.lock();
        // Re-check under the lock so a notification cannot slip between.
        if pending.iter().all(|t| safepoint::requested(&**t)) {
            DONE_CV.wait_for(&mut g, Duration::from_micros(200));
        }
    }
    CALLBACK.store(0, Ordering::Release);
}

/// Longest handshake pause since the last call, and resets it.
pub fn take_max_pause() -> Duration {
    Duration::from_nanos(MAX_PAUSE_NS.swap(0, Ordering::Relaxed))
}

/// Starts (or with `false` stops and returns) recording every pause a
/// thread spends in a handshake callback, for the pause benchmark.
pub fn record_pauses(on: bool) -> Vec<Duration> {
    let mut log = PAUSE_LOG.lock();
    let old = if on {
        log.replace(Vec::new())
    } else {
        log.take()
    };
    old.unwrap_or_default()
        .into_iter()
        .map(Duration::from_nanos)
        .collect()
}
