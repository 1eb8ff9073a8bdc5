//! `<termios.h>`: terminal attributes as a plain 60-byte `struct termios`
//! (checked and copied both ways), speeds, `cfmakeraw`, and the line
//! control calls.

use gimso_abi::FlightPtr;

use super::{Raw, sys32};
use crate::wrapper;

/// Bytes of `struct termios` (glibc, x86-64).
const TERMIOS: usize = size_of::<libc::termios>();
const _: () = assert!(TERMIOS == 60);

/// Runs `f` on a private copy of the program's `struct termios` at `t`
/// (checked for reading, and for writing when `write`), copying it back
/// when `write` and `f` succeeded.
fn with_termios(t: FlightPtr, write: bool, f: impl FnOnce(*mut libc::termios) -> i32) -> i32 {
    if write {
        crate::mem::check_write(t, TERMIOS);
    }
    let mut image = Raw::<TERMIOS>::read(t);
    let r = f(image.as_mut::<libc::termios>());
    if write && r == 0 {
        image.write(t);
    }
    r
}

wrapper! {
    /// `int tcgetattr(int fd, struct termios *t)`.
    fn tcgetattr(fd: i32, t: FlightPtr) -> i32 {
        crate::mem::check_write(t, TERMIOS);
        let mut image = Raw::<TERMIOS>::zeroed();
        let out = image.as_mut::<libc::termios>();
        // SAFETY: a private struct termios image.
        let r = sys32(|| unsafe { libc::tcgetattr(fd, out) });
        if r == 0 {
            image.write(t);
        }
        r
    }
}

wrapper! {
    /// `int tcsetattr(int fd, int actions, const struct termios *t)`.
    fn tcsetattr(fd: i32, actions: i32, t: FlightPtr) -> i32 {
        // SAFETY: a private copy of the program's struct termios.
        with_termios(t, false, |p| sys32(|| unsafe { libc::tcsetattr(fd, actions, p) }))
    }
}

wrapper! {
    /// `void cfmakeraw(struct termios *t)`.
    fn cfmakeraw(t: FlightPtr) -> () {
        with_termios(t, true, |p| {
            // SAFETY: a private copy.
            unsafe { libc::cfmakeraw(p) };
            0
        });
    }
}

wrapper! {
    /// `speed_t cfgetispeed(const struct termios *t)`.
    fn cfgetispeed(t: FlightPtr) -> u32 {
        let mut image = Raw::<TERMIOS>::read(t);
        // SAFETY: a private copy.
        unsafe { libc::cfgetispeed(image.as_mut::<libc::termios>()) }
    }
}

wrapper! {
    /// `speed_t cfgetospeed(const struct termios *t)`.
    fn cfgetospeed(t: FlightPtr) -> u32 {
        let mut image = Raw::<TERMIOS>::read(t);
        // SAFETY: a private copy.
        unsafe { libc::cfgetospeed(image.as_mut::<libc::termios>()) }
    }
}

wrapper! {
    /// `int cfsetispeed(struct termios *t, speed_t speed)`.
    fn cfsetispeed(t: FlightPtr, speed: u32) -> i32 {
        // SAFETY: a private copy.
        with_termios(t, true, |p| unsafe { libc::cfsetispeed(p, speed) })
    }
}

wrapper! {
    /// `int cfsetospeed(struct termios *t, speed_t speed)`.
    fn cfsetospeed(t: FlightPtr, speed: u32) -> i32 {
        // SAFETY: a private copy.
        with_termios(t, true, |p| unsafe { libc::cfsetospeed(p, speed) })
    }
}

wrapper! {
    /// `int cfsetspeed(struct termios *t, speed_t speed)`.
    fn cfsetspeed(t: FlightPtr, speed: u32) -> i32 {
        // SAFETY: a private copy.
        with_termios(t, true, |p| unsafe { libc::cfsetspeed(p, speed) })
    }
}

wrapper! {
    /// `int tcflush(int fd, int queue)`.
    fn tcflush(fd: i32, queue: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::tcflush(fd, queue) })
    }
}

wrapper! {
    /// `int tcdrain(int fd)`: may wait for output, exited.
    fn tcdrain(fd: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::tcdrain(fd) })
    }
}

wrapper! {
    /// `int tcflow(int fd, int action)`.
    fn tcflow(fd: i32, action: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::tcflow(fd, action) })
    }
}

wrapper! {
    /// `int tcsendbreak(int fd, int duration)`.
    fn tcsendbreak(fd: i32, duration: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::tcsendbreak(fd, duration) })
    }
}

wrapper! {
    /// `pid_t tcgetpgrp(int fd)`.
    fn tcgetpgrp(fd: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::tcgetpgrp(fd) })
    }
}
