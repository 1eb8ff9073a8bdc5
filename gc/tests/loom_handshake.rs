//! Loom models of the soft handshake on one mutator thread: the collector
//! posts a request and completes it with [`safepoint::try_complete`] while
//! the thread polls, exits, enters or detaches, all through the functions
//! the runtime runs on a `Thread`. Each checks that the callback runs
//! exactly once per handshake, has finished when the collector takes the
//! thread as done, runs on the thread's behalf only while it is exited and
//! attached, and never races the thread's own entered work. Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p gimso-gc --release --target-dir target/loom`.

#![cfg(loom)]

use gimso_abi::{THREAD_STATE_ENTERED, THREAD_STATE_EXITED, THREAD_STATE_MODE_MASK};
use gimso_gc::primitive::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use gimso_gc::safepoint::{self, Mutator};
use loom::cell::UnsafeCell;
use loom::sync::Arc;
use loom::thread;

/// A mutator thread built from loom's types.
struct ModelThread {
    state: AtomicU64,
    /// The run lock.
    run: AtomicBool,
    detached: AtomicBool,
    /// What only the run lock's holder may touch (the allocation cache, the
    /// stack a callback scans): loom reports any unsynchronised access.
    owned: UnsafeCell<u32>,
    /// Callbacks run, by the thread or on its behalf.
    served: AtomicUsize,
}

impl ModelThread {
    /// A thread attached and entered, as `attach` leaves it.
    fn entered() -> ModelThread {
        ModelThread {
            state: AtomicU64::new(THREAD_STATE_ENTERED),
            run: AtomicBool::new(true),
            detached: AtomicBool::new(false),
            owned: UnsafeCell::new(0),
            served: AtomicUsize::new(0),
        }
    }

    fn mode(&self) -> u64 {
        self.state.load(Ordering::Acquire) & THREAD_STATE_MODE_MASK
    }

    /// Runtime work of the entered thread on what it owns.
    fn work(&self) {
        // SAFETY: the thread is entered, so it holds its run lock.
        self.owned.with_mut(|p| unsafe { *p += 1 });
    }

    /// A handshake callback: reads and writes the thread's own state.
    fn callback(&self) {
        // SAFETY: callbacks run under the thread's run lock.
        self.owned.with_mut(|p| unsafe { *p += 1 });
        self.served.fetch_add(1, Ordering::Relaxed);
    }

    /// The pollcheck's handshake branch (`thread::serve_requests`).
    fn poll(&self) {
        if safepoint::requested(self) {
            safepoint::serve(self, || {
                assert_eq!(self.mode(), THREAD_STATE_ENTERED);
                self.callback();
            });
        }
    }

    /// `thread::exit`: serve what is pending, then release the run lock.
    fn exit(&self) {
        self.poll();
        // SAFETY: the thread is entered.
        unsafe { safepoint::exit(self) };
    }

    /// `thread::enter`: take the run lock back, then poll.
    fn enter(&self) {
        safepoint::enter(self);
        self.poll();
    }

    /// `thread::detach`: serve what is pending, mark detached, exit.
    fn detach(&self) {
        self.poll();
        self.detached.store(true, Ordering::Release);
        // SAFETY: the thread is entered.
        unsafe { safepoint::exit(self) };
    }
}

// SAFETY: `run` is a spin lock: acquire on taking, release on freeing.
unsafe impl Mutator for ModelThread {
    type Word = AtomicU64;
    fn state(&self) -> &AtomicU64 {
        &self.state
    }
    fn lock_run(&self) {
        while !self.try_lock_run() {
            thread::yield_now();
        }
    }
    fn try_lock_run(&self) -> bool {
        self.run
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }
    unsafe fn unlock_run(&self) {
        self.run.store(false, Ordering::Release);
    }
    fn is_detached(&self) -> bool {
        self.detached.load(Ordering::Acquire)
    }
}

/// `handshake::soft_handshake` for one thread: post, then try to complete
/// until done (the runtime sleeps on a condition variable between tries).
fn soft_handshake(t: &ModelThread) {
    safepoint::post(t);
    while !safepoint::try_complete(t, |t| {
        safepoint::serve(t, || {
            assert_eq!(t.mode(), THREAD_STATE_EXITED);
            assert!(!t.is_detached(), "served on behalf of a detached thread");
            t.callback();
        })
    }) {
        thread::yield_now();
    }
}

/// The thread works, exits around a blocking call and comes back; the
/// collector runs one handshake meanwhile.
#[test]
fn one_handshake_while_the_thread_exits_and_enters() {
    loom::model(|| {
        let t = Arc::new(ModelThread::entered());
        let m = t.clone();
        let mutator = thread::spawn(move || {
            m.work();
            m.exit();
            m.enter();
            m.work();
            m.exit();
        });
        soft_handshake(&t);
        assert_eq!(t.served.load(Ordering::Relaxed), 1);
        mutator.join().unwrap();
        assert_eq!(t.served.load(Ordering::Relaxed), 1);
        assert!(!safepoint::requested(&*t));
    });
}

/// Two handshakes in a row (the root rounds, the one after the sweep): the
/// second request is neither merged into the first nor served twice.
#[test]
fn two_handshakes_in_a_row() {
    loom::model(|| {
        let t = Arc::new(ModelThread::entered());
        let m = t.clone();
        let mutator = thread::spawn(move || {
            m.poll();
            m.exit();
            m.enter();
            m.exit();
        });
        soft_handshake(&t);
        assert_eq!(t.served.load(Ordering::Relaxed), 1);
        soft_handshake(&t);
        assert_eq!(t.served.load(Ordering::Relaxed), 2);
        mutator.join().unwrap();
        assert_eq!(t.served.load(Ordering::Relaxed), 2);
    });
}

/// The thread detaches during the handshake: it serves the request itself
/// or owes nothing, and its (possibly gone) stack is never scanned for it.
#[test]
fn handshake_with_a_detaching_thread() {
    loom::model(|| {
        let t = Arc::new(ModelThread::entered());
        let m = t.clone();
        let mutator = thread::spawn(move || {
            m.work();
            m.detach();
        });
        soft_handshake(&t);
        let served = t.served.load(Ordering::Relaxed);
        assert!(served <= 1);
        mutator.join().unwrap();
        assert_eq!(t.served.load(Ordering::Relaxed), served);
        assert!(!safepoint::requested(&*t));
    });
}
