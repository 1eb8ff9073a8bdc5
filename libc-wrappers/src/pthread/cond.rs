//! Condition variables in place in the program's `pthread_cond_t` (48
//! bytes; all zeros is `PTHREAD_COND_INITIALIZER`): a futex sequence word
//! at offset 0 that every signal and broadcast advances, and the clock of
//! timed waits at offset 4 (0 `CLOCK_REALTIME`, 1 `CLOCK_MONOTONIC`).
//!
//! A waiter reads the sequence before releasing the mutex and sleeps only
//! while it is unchanged, so no signal sent after the release is lost;
//! wake-ups may be spurious, as POSIX allows. The layout is gimso's own:
//! programs only use condition variables through these functions. A
//! recursive mutex locked several times is released entirely during the
//! wait and relocked to the same depth (glibc only undoes one level, so
//! such a wait deadlocks there).

use gimso_abi::FlightPtr;

use super::futex::{Deadline, Region};
use super::mutex::Mutex;
use crate::{mem, wrapper};

const SIZE: usize = 48;
const TOUCHED: usize = 8;
const CLOCK: usize = 4;

/// `pthread_cond_wait` / `timedwait` / `clockwait`: `clock` overrides the
/// clock the condition variable was made with.
fn wait(c: FlightPtr, m: FlightPtr, abstime: Option<FlightPtr>, clock: Option<i32>) -> i32 {
    let r = Region::check(c, TOUCHED);
    let seq = r.word(0);
    let realtime = match clock {
        Some(clock) => clock != libc::CLOCK_MONOTONIC,
        None => r.word(CLOCK).load() != libc::CLOCK_MONOTONIC as u32,
    };
    let m = Mutex::check(m);
    let deadline = match abstime.map(|p| Deadline::read(p, realtime)).transpose() {
        Ok(d) => d,
        Err(e) => return e,
    };
    let observed = seq.load();
    let count = match m.release_for_wait() {
        Ok(count) => count,
        Err(e) => return e,
    };
    let woken = gimso_gc::exited(|| {
        let woken = seq.wait(observed, deadline.as_ref());
        m.reacquire_blocking();
        woken
    });
    m.restore_owner(count);
    if woken { 0 } else { libc::ETIMEDOUT }
}

wrapper! {
    /// `int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)`.
    fn pthread_cond_init(c: FlightPtr, attr: FlightPtr) -> i32 {
        let clock = if attr.intval() == 0 {
            libc::CLOCK_REALTIME as u32
        } else {
            u32::from_ne_bytes(mem::read_int::<4>(attr))
        };
        let mut bytes = [0u8; SIZE];
        bytes[CLOCK..CLOCK + 4].copy_from_slice(&clock.to_ne_bytes());
        mem::write_bytes(c, &bytes);
        0
    }
}

wrapper! {
    /// `int pthread_cond_destroy(pthread_cond_t *c)`: nothing to free.
    fn pthread_cond_destroy(_c: FlightPtr) -> i32 {
        0
    }
}

wrapper! {
    /// `int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)`.
    fn pthread_cond_wait(c: FlightPtr, m: FlightPtr) -> i32 {
        wait(c, m, None, None)
    }
}

wrapper! {
    /// `int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
    /// const struct timespec *abstime)`.
    fn pthread_cond_timedwait(c: FlightPtr, m: FlightPtr, abstime: FlightPtr) -> i32 {
        wait(c, m, Some(abstime), None)
    }
}

wrapper! {
    /// `int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
    /// clockid_t clock, const struct timespec *abstime)`: the deadline on
    /// `CLOCK_MONOTONIC` or `CLOCK_REALTIME` (others are `EINVAL`).
    fn pthread_cond_clockwait(c: FlightPtr, m: FlightPtr, clock: i32, abstime: FlightPtr) -> i32 {
        if clock != libc::CLOCK_MONOTONIC && clock != libc::CLOCK_REALTIME {
            return libc::EINVAL;
        }
        wait(c, m, Some(abstime), Some(clock))
    }
}

wrapper! {
    /// `int pthread_cond_signal(pthread_cond_t *c)`.
    fn pthread_cond_signal(c: FlightPtr) -> i32 {
        let seq = Region::check(c, TOUCHED).word(0);
        seq.fetch_add(1);
        seq.wake(1);
        0
    }
}

wrapper! {
    /// `int pthread_cond_broadcast(pthread_cond_t *c)`.
    fn pthread_cond_broadcast(c: FlightPtr) -> i32 {
        let seq = Region::check(c, TOUCHED).word(0);
        seq.fetch_add(1);
        seq.wake_all();
        0
    }
}

wrapper! {
    /// `int pthread_condattr_init(pthread_condattr_t *a)` (4 bytes: the clock).
    fn pthread_condattr_init(a: FlightPtr) -> i32 {
        mem::write_int(a, &(libc::CLOCK_REALTIME as u32).to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int pthread_condattr_destroy(pthread_condattr_t *a)`.
    fn pthread_condattr_destroy(_a: FlightPtr) -> i32 {
        0
    }
}

wrapper! {
    /// `int pthread_condattr_setclock(pthread_condattr_t *a, clockid_t clock)`.
    fn pthread_condattr_setclock(a: FlightPtr, clock: i32) -> i32 {
        if clock != libc::CLOCK_REALTIME && clock != libc::CLOCK_MONOTONIC {
            return libc::EINVAL;
        }
        mem::write_int(a, &(clock as u32).to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int pthread_condattr_getclock(const pthread_condattr_t *a, clockid_t *clock)`.
    fn pthread_condattr_getclock(a: FlightPtr, clock: FlightPtr) -> i32 {
        let c = mem::read_int::<4>(a);
        mem::write_int(clock, &c);
        0
    }
}
