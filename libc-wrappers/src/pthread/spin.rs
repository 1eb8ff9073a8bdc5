//! Spin locks (`pthread_spinlock_t`, an `int`: 0 free, 1 held) and
//! barriers (`pthread_barrier_t`, 32 bytes: the thread count at 0, the
//! arrivals of the current round at 4, the round number at 8, a futex).
//!
//! A thread that finds a spin lock held spins a little, then yields the
//! processor exited, so a spinner never keeps the collector waiting for
//! its handshake while the holder waits for a collection.

use gimso_abi::FlightPtr;

use super::futex::{self, Region};
use crate::{mem, wrapper};

wrapper! {
    /// `int pthread_spin_init(pthread_spinlock_t *l, int pshared)`.
    fn pthread_spin_init(l: FlightPtr, _pshared: i32) -> i32 {
        Region::check(l, 4).word(0).store(0);
        0
    }
}

wrapper! {
    /// `int pthread_spin_destroy(pthread_spinlock_t *l)`.
    fn pthread_spin_destroy(_l: FlightPtr) -> i32 {
        0
    }
}

wrapper! {
    /// `int pthread_spin_lock(pthread_spinlock_t *l)`.
    fn pthread_spin_lock(l: FlightPtr) -> i32 {
        let w = Region::check(l, 4).word(0);
        while w.cas(0, 1).is_err() {
            if !futex::spin_until(|| w.load() == 0) {
                // SAFETY: sched_yield has no preconditions.
                gimso_gc::exited(|| unsafe { libc::sched_yield() });
            }
        }
        0
    }
}

wrapper! {
    /// `int pthread_spin_trylock(pthread_spinlock_t *l)`.
    fn pthread_spin_trylock(l: FlightPtr) -> i32 {
        match Region::check(l, 4).word(0).cas(0, 1) {
            Ok(_) => 0,
            Err(_) => libc::EBUSY,
        }
    }
}

wrapper! {
    /// `int pthread_spin_unlock(pthread_spinlock_t *l)`.
    fn pthread_spin_unlock(l: FlightPtr) -> i32 {
        Region::check(l, 4).word(0).store(0);
        0
    }
}

const BARRIER_SIZE: usize = 32;
const BARRIER_TOUCHED: usize = 12;

wrapper! {
    /// `int pthread_barrier_init(pthread_barrier_t *b,
    /// const pthread_barrierattr_t *attr, unsigned count)`.
    fn pthread_barrier_init(b: FlightPtr, _attr: FlightPtr, count: u32) -> i32 {
        if count == 0 {
            return libc::EINVAL;
        }
        let mut bytes = [0u8; BARRIER_SIZE];
        bytes[..4].copy_from_slice(&count.to_ne_bytes());
        mem::write_bytes(b, &bytes);
        0
    }
}

wrapper! {
    /// `int pthread_barrier_destroy(pthread_barrier_t *b)`.
    fn pthread_barrier_destroy(_b: FlightPtr) -> i32 {
        0
    }
}

wrapper! {
    /// `int pthread_barrier_wait(pthread_barrier_t *b)`: the last thread
    /// to arrive returns `PTHREAD_BARRIER_SERIAL_THREAD` (-1), the others 0.
    fn pthread_barrier_wait(b: FlightPtr) -> i32 {
        let r = Region::check(b, BARRIER_TOUCHED);
        let (count, arrived, round) = (r.word(0), r.word(4), r.word(8));
        let n = count.load();
        if n == 0 {
            return libc::EINVAL;
        }
        // Read before arriving: the round cannot end without us.
        let mine = round.load();
        if arrived.fetch_add(1).wrapping_add(1) >= n {
            arrived.store(0);
            round.fetch_add(1);
            round.wake_all();
            return -1;
        }
        gimso_gc::exited(|| {
            while round.load() == mine {
                round.wait(mine, None);
            }
        });
        0
    }
}

wrapper! {
    /// `int pthread_barrierattr_init(pthread_barrierattr_t *a)` (4 bytes).
    fn pthread_barrierattr_init(a: FlightPtr) -> i32 {
        mem::write_int(a, &0u32.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int pthread_barrierattr_destroy(pthread_barrierattr_t *a)`.
    fn pthread_barrierattr_destroy(_a: FlightPtr) -> i32 {
        0
    }
}
