//! `sched_yield` and `nanosleep`/`clock_nanosleep` (`sleep` and `usleep`
//! are in [`crate::time`]): blocking calls, made exited so the collector
//! never waits for a sleeping thread.

use gimso_abi::FlightPtr;

use super::futex::{read_timespec, write_timespec};
use crate::{errno, wrapper};

/// libc's errno (read inside the exited closure, before re-entering can
/// make other system calls).
fn libc_errno() -> i32 {
    // SAFETY: reading the calling thread's errno.
    unsafe { *libc::__errno_location() }
}

wrapper! {
    /// `int sched_yield(void)`.
    fn sched_yield() -> i32 {
        // SAFETY: sched_yield has no preconditions.
        gimso_gc::exited(|| unsafe { libc::sched_yield() })
    }
}

wrapper! {
    /// `int nanosleep(const struct timespec *req, struct timespec *rem)`:
    /// `rem` (unless NULL) gets the time left when a signal interrupts.
    fn nanosleep(req: FlightPtr, rem: FlightPtr) -> i32 {
        let ts = read_timespec(req);
        let mut left = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: both timespecs are locals.
        let (r, e) = gimso_gc::exited(|| unsafe {
            (libc::nanosleep(&ts, &mut left), libc_errno())
        });
        if r != 0 {
            errno::set(e);
            if e == libc::EINTR && rem.intval() != 0 {
                write_timespec(rem, &left);
            }
        }
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { crate::signal::deliver_pending_leavable() };
        r
    }
}

wrapper! {
    /// `int clock_nanosleep(clockid_t clock, int flags,
    /// const struct timespec *req, struct timespec *rem)`: returns the
    /// error number (errno untouched); `rem` is written only for a
    /// relative sleep interrupted by a signal.
    fn clock_nanosleep(clock: i32, flags: i32, req: FlightPtr, rem: FlightPtr) -> i32 {
        let ts = read_timespec(req);
        let mut left = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: both timespecs are locals.
        let r = gimso_gc::exited(|| unsafe {
            libc::clock_nanosleep(clock, flags, &ts, &mut left)
        });
        if r == libc::EINTR && flags & libc::TIMER_ABSTIME == 0 && rem.intval() != 0 {
            write_timespec(rem, &left);
        }
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { crate::signal::deliver_pending_leavable() };
        r
    }
}
