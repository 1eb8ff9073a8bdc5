//! `<time.h>` and friends: clocks and sleeping (sleeping is a blocking
//! call, made exited so the collector never waits for it).

use gimso_abi::FlightPtr;

use crate::{errno, mem, wrapper};

unsafe extern "C" {
    /// `clock` (not bound by the `libc` crate).
    #[link_name = "clock"]
    fn c_clock() -> libc::clock_t;
}

wrapper! {
    /// `time_t time(time_t *t)`: also stored at `t` unless it is NULL.
    fn time(t: FlightPtr) -> i64 {
        // SAFETY: time(NULL) has no preconditions.
        let now = unsafe { libc::time(core::ptr::null_mut()) };
        if t.intval() != 0 {
            mem::write_int(t, &now.to_ne_bytes());
        }
        now
    }
}

wrapper! {
    /// `clock_t clock(void)`.
    fn clock() -> i64 {
        // SAFETY: clock has no preconditions.
        unsafe { c_clock() }
    }
}

wrapper! {
    /// `int clock_gettime(clockid_t clock, struct timespec *ts)`.
    fn clock_gettime(clock: i32, ts: FlightPtr) -> i32 {
        let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `now` is a local timespec.
        let r = unsafe { libc::clock_gettime(clock, &mut now) };
        if r != 0 {
            errno::sync_from_libc();
            return r;
        }
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&now.tv_sec.to_ne_bytes());
        bytes[8..].copy_from_slice(&now.tv_nsec.to_ne_bytes());
        mem::write_int(ts, &bytes);
        0
    }
}

wrapper! {
    /// `int gettimeofday(struct timeval *tv, void *tz)` (`tz` ignored, as
    /// glibc does for a non-NULL one in practice).
    fn gettimeofday(tv: FlightPtr, _tz: FlightPtr) -> i32 {
        let mut now = libc::timeval { tv_sec: 0, tv_usec: 0 };
        // SAFETY: `now` is a local timeval.
        unsafe { libc::gettimeofday(&mut now, core::ptr::null_mut()) };
        if tv.intval() != 0 {
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&now.tv_sec.to_ne_bytes());
            bytes[8..].copy_from_slice(&now.tv_usec.to_ne_bytes());
            mem::write_int(tv, &bytes);
        }
        0
    }
}

wrapper! {
    /// `unsigned sleep(unsigned s)`.
    fn sleep(s: u32) -> u32 {
        // SAFETY: sleep has no preconditions.
        let left = gimso_gc::exited(|| unsafe { libc::sleep(s) });
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { crate::signal::deliver_pending_leavable() };
        left
    }
}

wrapper! {
    /// `int usleep(useconds_t us)`.
    fn usleep(us: u32) -> i32 {
        // SAFETY: usleep has no preconditions.
        let r = gimso_gc::exited(|| unsafe { libc::usleep(us) });
        if r != 0 {
            errno::sync_from_libc();
        }
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { crate::signal::deliver_pending_leavable() };
        r
    }
}
