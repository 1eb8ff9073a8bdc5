//! The soft handshake on one thread's state word and run lock: the
//! collector posts a request, the thread serves it at a pollcheck, or the
//! collector serves it on the thread's behalf while it is exited.
//!
//! The functions are generic over [`Mutator`] so that the runtime runs them
//! on a [`crate::thread::Thread`] (whose state word is the ABI's, read by
//! compiled code at a fixed offset) and `tests/loom_handshake.rs`
//! model-checks the same functions on a thread built from loom's types.

use gimso_abi::{THREAD_REQUEST_HANDSHAKE, THREAD_STATE_ENTERED, THREAD_STATE_MODE_MASK};

use crate::primitive::Ordering;

/// The atomic operations the protocol uses on a state word.
pub trait StateWord {
    /// `load`.
    fn load(&self, order: Ordering) -> u64;
    /// `fetch_or`.
    fn fetch_or(&self, bits: u64, order: Ordering) -> u64;
    /// `fetch_and`.
    fn fetch_and(&self, bits: u64, order: Ordering) -> u64;
    /// `fetch_xor`.
    fn fetch_xor(&self, bits: u64, order: Ordering) -> u64;
}

macro_rules! state_word {
    ($t:ty) => {
        impl StateWord for $t {
            #[inline(always)]
            fn load(&self, order: Ordering) -> u64 {
                <$t>::load(self, order)
            }
            #[inline(always)]
            fn fetch_or(&self, bits: u64, order: Ordering) -> u64 {
                <$t>::fetch_or(self, bits, order)
            }
            #[inline(always)]
            fn fetch_and(&self, bits: u64, order: Ordering) -> u64 {
                <$t>::fetch_and(self, bits, order)
            }
            #[inline(always)]
            fn fetch_xor(&self, bits: u64, order: Ordering) -> u64 {
                <$t>::fetch_xor(self, bits, order)
            }
        }
    };
}

state_word!(core::sync::atomic::AtomicU64);
#[cfg(loom)]
state_word!(crate::primitive::AtomicU64);

/// What the protocol needs of a mutator thread.
///
/// # Safety
/// `lock_run`, `try_lock_run` and `unlock_run` must form a mutual-exclusion
/// lock whose release synchronises with the next acquisition: the protocol
/// relies on it to keep the collector out of an entered thread's state.
pub unsafe trait Mutator {
    /// The state word's type.
    type Word: StateWord;
    /// The state word (mode and request bits).
    fn state(&self) -> &Self::Word;
    /// Takes the run lock, waiting for the holder to release it.
    fn lock_run(&self);
    /// Takes the run lock if it is free.
    fn try_lock_run(&self) -> bool;
    /// Releases the run lock.
    ///
    /// # Safety
    /// The caller must hold it.
    unsafe fn unlock_run(&self);
    /// Whether the thread has detached (its stack may be gone).
    fn is_detached(&self) -> bool;
}

/// Asks `t` to serve the current handshake.
#[inline]
pub fn post<M: Mutator>(t: &M) {
    t.state()
        .fetch_or(THREAD_REQUEST_HANDSHAKE, Ordering::AcqRel);
}

/// Whether `t` has not served the current handshake yet.
#[inline]
pub fn requested<M: Mutator>(t: &M) -> bool {
    t.state().load(Ordering::Acquire) & THREAD_REQUEST_HANDSHAKE != 0
}

/// Runs `callback` for `t`, then clears its request: the collector takes
/// `t` as done only once the callback has finished. The caller holds `t`'s
/// run lock (it is `t` itself, or the collector).
#[inline]
pub fn serve<M: Mutator>(t: &M, callback: impl FnOnce()) {
    callback();
    t.state()
        .fetch_and(!THREAD_REQUEST_HANDSHAKE, Ordering::AcqRel);
}

/// Whether `t` is done with the handshake: it served it, or it is exited and
/// `on_behalf` served it for it (under its run lock), or it is detached and
/// owes nothing.
pub fn try_complete<M: Mutator>(t: &M, on_behalf: impl FnOnce(&M)) -> bool {
    if !requested(t) {
        return true;
    }
    if !t.try_lock_run() {
        return false;
    }
    // An entered thread always holds its run lock.
    debug_assert_ne!(
        t.state().load(Ordering::Acquire) & THREAD_STATE_MODE_MASK,
        THREAD_STATE_ENTERED
    );
    if requested(t) {
        if t.is_detached() {
            t.state()
                .fetch_and(!THREAD_REQUEST_HANDSHAKE, Ordering::AcqRel);
        } else {
            on_behalf(t);
        }
    }
    // SAFETY: try_lock_run succeeded above.
    unsafe { t.unlock_run() };
    true
}

/// Leaves the entered state: from here on whoever takes the run lock may
/// act for `t`.
///
/// # Safety
/// `t` must be entered, which means the caller holds its run lock.
#[inline]
pub unsafe fn exit<M: Mutator>(t: &M) {
    t.state()
        .fetch_xor(THREAD_STATE_MODE_MASK, Ordering::AcqRel);
    // SAFETY: an entered thread holds its run lock (the caller's contract).
    unsafe { t.unlock_run() };
}

/// Returns to the entered state, waiting while the collector acts for `t`.
#[inline]
pub fn enter<M: Mutator>(t: &M) {
    t.lock_run();
    t.state()
        .fetch_xor(THREAD_STATE_MODE_MASK, Ordering::AcqRel);
}

#[cfg(all(test, not(loom)))]
mod tests {
    use core::cell::Cell;
    use core::sync::atomic::AtomicU64;

    use gimso_abi::{
        THREAD_REQUEST_COLLECT, THREAD_REQUEST_STOP, THREAD_STATE_ENTERED, THREAD_STATE_EXITED,
    };

    use super::*;

    /// A single-threaded thread: the lock is a flag, so a test can hold it
    /// (an entered thread) and see whether the protocol takes it.
    struct Fake {
        state: AtomicU64,
        locked: Cell<bool>,
        detached: bool,
        locks_taken: Cell<u32>,
    }

    impl Fake {
        fn new(state: u64, locked: bool) -> Fake {
            Fake {
                state: AtomicU64::new(state),
                locked: Cell::new(locked),
                detached: false,
                locks_taken: Cell::new(0),
            }
        }

        fn bits(&self) -> u64 {
            self.state.load(Ordering::Relaxed)
        }
    }

    // SAFETY: one thread only; the flag is a lock for it.
    unsafe impl Mutator for Fake {
        type Word = AtomicU64;
        fn state(&self) -> &AtomicU64 {
            &self.state
        }
        fn lock_run(&self) {
            assert!(self.try_lock_run(), "would wait forever");
        }
        fn try_lock_run(&self) -> bool {
            if self.locked.get() {
                return false;
            }
            self.locked.set(true);
            self.locks_taken.set(self.locks_taken.get() + 1);
            true
        }
        unsafe fn unlock_run(&self) {
            assert!(self.locked.replace(false), "unlocking a free lock");
        }
        fn is_detached(&self) -> bool {
            self.detached
        }
    }

    fn entered() -> Fake {
        Fake::new(THREAD_STATE_ENTERED, true)
    }

    fn exited() -> Fake {
        Fake::new(THREAD_STATE_EXITED, false)
    }

    #[test]
    fn post_sets_only_the_handshake_bit() {
        let t = Fake::new(THREAD_STATE_ENTERED | THREAD_REQUEST_STOP, true);
        assert!(!requested(&t));
        post(&t);
        assert!(requested(&t));
        assert_eq!(
            t.bits(),
            THREAD_STATE_ENTERED | THREAD_REQUEST_STOP | THREAD_REQUEST_HANDSHAKE
        );
    }

    #[test]
    fn serving_clears_the_request_after_the_callback() {
        let t = Fake::new(THREAD_STATE_ENTERED | THREAD_REQUEST_COLLECT, true);
        post(&t);
        let mut ran = false;
        serve(&t, || {
            // The collector must still see the request while the callback
            // runs, or it would take the thread as done too early.
            assert!(requested(&t));
            ran = true;
        });
        assert!(ran);
        assert!(!requested(&t));
        assert_eq!(t.bits(), THREAD_STATE_ENTERED | THREAD_REQUEST_COLLECT);
    }

    #[test]
    fn a_thread_without_request_is_done_untouched() {
        let t = entered();
        assert!(try_complete(&t, |_| panic!("served")));
        let t = exited();
        assert!(try_complete(&t, |_| panic!("served")));
        assert_eq!(t.locks_taken.get(), 0);
    }

    #[test]
    fn an_entered_thread_is_left_to_serve_itself() {
        let t = entered();
        post(&t);
        assert!(!try_complete(&t, |_| panic!(
            "served on behalf of an entered thread"
        )));
        assert!(requested(&t));
        serve(&t, || {});
        assert!(try_complete(&t, |_| panic!("served twice")));
    }

    #[test]
    fn an_exited_thread_is_served_on_its_behalf_under_its_lock() {
        let t = exited();
        post(&t);
        let mut served = 0;
        assert!(try_complete(&t, |t| {
            assert!(t.locked.get());
            serve(t, || served += 1);
        }));
        assert_eq!(served, 1);
        assert!(!requested(&t));
        assert!(!t.locked.get(), "the run lock is released");
        assert!(try_complete(&t, |_| panic!("served twice")));
    }

    #[test]
    fn a_detached_thread_owes_nothing() {
        let mut t = exited();
        t.detached = true;
        post(&t);
        assert!(try_complete(&t, |_| panic!(
            "a detached thread's stack may be gone"
        )));
        assert!(!requested(&t));
        assert!(!t.locked.get());
    }

    #[test]
    fn exit_and_enter_flip_the_mode_and_the_lock() {
        let t = Fake::new(THREAD_STATE_ENTERED | THREAD_REQUEST_HANDSHAKE, true);
        // SAFETY: `t` is entered and holds its lock.
        unsafe { exit(&t) };
        assert_eq!(t.bits(), THREAD_STATE_EXITED | THREAD_REQUEST_HANDSHAKE);
        assert!(!t.locked.get());
        enter(&t);
        assert_eq!(t.bits(), THREAD_STATE_ENTERED | THREAD_REQUEST_HANDSHAKE);
        assert!(t.locked.get());
    }
}
