//! Descriptors for events: `eventfd` (with `eventfd_read`/`eventfd_write`),
//! `timerfd_create`/`timerfd_settime`/`timerfd_gettime` and `signalfd`.
//! What they deliver is read with the checked `read`; the structures passed
//! here are checked and copied.

use gimso_abi::FlightPtr;

use super::poll::sigset_in;
use super::{Raw, fail, sys32};
use crate::{mem, wrapper};

/// Bytes of `struct itimerspec`.
const ITIMERSPEC: usize = size_of::<libc::itimerspec>();
const _: () = assert!(ITIMERSPEC == 32);

wrapper! {
    /// `int eventfd(unsigned int initval, int flags)`.
    fn eventfd(initval: u32, flags: i32) -> i32 {
        // SAFETY: no memory arguments.
        sys32(|| unsafe { libc::eventfd(initval, flags) })
    }
}

wrapper! {
    /// `int eventfd_read(int fd, eventfd_t *value)`: the 8-byte counter
    /// is checked writable before the (possibly blocking) read.
    fn eventfd_read(fd: i32, value: FlightPtr) -> i32 {
        mem::check_write(value, 8);
        let mut v: u64 = 0;
        // SAFETY: `v` is a private 8-byte counter.
        let n = crate::posix::sys(|| unsafe { libc::read(fd, (&raw mut v).cast(), 8) as i64 });
        if n != 8 {
            return -1;
        }
        mem::write_int(value, &v.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int eventfd_write(int fd, eventfd_t value)`.
    fn eventfd_write(fd: i32, value: u64) -> i32 {
        // SAFETY: `value` is a private 8-byte counter.
        let n = crate::posix::sys(|| unsafe { libc::write(fd, (&raw const value).cast(), 8) as i64 });
        if n == 8 { 0 } else { -1 }
    }
}

wrapper! {
    /// `int timerfd_create(int clockid, int flags)`.
    fn timerfd_create(clockid: i32, flags: i32) -> i32 {
        // SAFETY: no memory arguments.
        sys32(|| unsafe { libc::timerfd_create(clockid, flags) })
    }
}

/// Writes a timer's setting to the program's `struct itimerspec *` at `p`.
fn itimerspec_out(p: FlightPtr, t: &Raw<ITIMERSPEC>) {
    t.write(p);
}

wrapper! {
    /// `int timerfd_settime(int fd, int flags, const struct itimerspec
    /// *new, struct itimerspec *old)`: `old` (may be null) is checked
    /// before the timer changes.
    fn timerfd_settime(fd: i32, flags: i32, new: FlightPtr, old: FlightPtr) -> i32 {
        let mut setting = Raw::<ITIMERSPEC>::read(new);
        if old.intval() != 0 {
            mem::check_write(old, ITIMERSPEC);
        }
        let mut previous = Raw::<ITIMERSPEC>::zeroed();
        let (s, p) = (setting.as_mut::<libc::itimerspec>(), previous.as_mut::<libc::itimerspec>());
        // SAFETY: private itimerspec images.
        let r = sys32(|| unsafe { libc::timerfd_settime(fd, flags, s, p) });
        if r == 0 && old.intval() != 0 {
            itimerspec_out(old, &previous);
        }
        r
    }
}

wrapper! {
    /// `int timerfd_gettime(int fd, struct itimerspec *curr)`.
    fn timerfd_gettime(fd: i32, curr: FlightPtr) -> i32 {
        mem::check_write(curr, ITIMERSPEC);
        let mut now = Raw::<ITIMERSPEC>::zeroed();
        let p = now.as_mut::<libc::itimerspec>();
        // SAFETY: a private itimerspec image.
        let r = sys32(|| unsafe { libc::timerfd_gettime(fd, p) });
        if r == 0 {
            itimerspec_out(curr, &now);
        }
        r
    }
}

wrapper! {
    /// `int signalfd(int fd, const sigset_t *mask, int flags)`: the mask
    /// is read whole (a null mask fails with `EFAULT`, the kernel's answer).
    fn signalfd(fd: i32, mask: FlightPtr, flags: i32) -> i32 {
        let Some(set) = sigset_in(mask) else { return fail(libc::EFAULT) };
        // SAFETY: a private signal set.
        sys32(|| unsafe { libc::signalfd(fd, &set, flags) })
    }
}
