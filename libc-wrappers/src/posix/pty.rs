//! Pseudo-terminals: `posix_openpt`, `grantpt`, `unlockpt`, `ptsname`,
//! `ptsname_r`, `openpty`, `forkpty`, `login_tty`.
//!
//! `ptsname` returns a fresh string (glibc's is a static buffer the next
//! call overwrites; a fresh one is what a program may safely keep).
//! `openpty` and `forkpty` write the terminal's name into the program's
//! buffer, which (as natively) must be large enough: it is checked for the
//! name and its NUL.

use core::ffi::{c_char, c_int};

use gimso_abi::FlightPtr;

use super::{Raw, fail, sys32};
use crate::{mem, wrapper};

/// Bytes of `struct termios` and `struct winsize`.
const TERMIOS: usize = size_of::<libc::termios>();
const WINSIZE: usize = size_of::<libc::winsize>();

unsafe extern "C" {
    fn openpty(
        master: *mut c_int,
        slave: *mut c_int,
        name: *mut c_char,
        termp: *const libc::termios,
        winp: *const libc::winsize,
    ) -> c_int;
    fn login_tty(fd: c_int) -> c_int;
}

wrapper! {
    /// `int posix_openpt(int flags)`.
    fn posix_openpt(flags: i32) -> i32 {
        // SAFETY: no memory arguments.
        sys32(|| unsafe { libc::posix_openpt(flags) })
    }
}

wrapper! {
    /// `int grantpt(int fd)`.
    fn grantpt(fd: i32) -> i32 {
        // SAFETY: no memory arguments.
        sys32(|| unsafe { libc::grantpt(fd) })
    }
}

wrapper! {
    /// `int unlockpt(int fd)`.
    fn unlockpt(fd: i32) -> i32 {
        // SAFETY: no memory arguments.
        sys32(|| unsafe { libc::unlockpt(fd) })
    }
}

/// The name of the slave of master `fd`, or the errno.
fn slave_name(fd: c_int) -> Result<Vec<u8>, c_int> {
    let mut buf = [0u8; 128];
    // SAFETY: `buf` is a private buffer of the length passed.
    let r = unsafe { libc::ptsname_r(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return Err(r);
    }
    Ok(crate::posix::until_nul(&buf).to_vec())
}

wrapper! {
    /// `char *ptsname(int fd)`: a fresh string, or NULL with errno.
    fn ptsname(fd: i32) -> FlightPtr {
        match slave_name(fd) {
            Ok(name) => mem::alloc_c_string(&name, false),
            Err(e) => {
                fail(e);
                FlightPtr::NULL
            }
        }
    }
}

wrapper! {
    /// `int ptsname_r(int fd, char *buf, size_t len)`: `buf` is checked
    /// for `len` bytes; `ERANGE` when the name does not fit.
    fn ptsname_r(fd: i32, buf: FlightPtr, len: u64) -> i32 {
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        mem::check_write(buf, len);
        match slave_name(fd) {
            Ok(name) if name.len() < len => {
                let mut out = name;
                out.push(0);
                mem::write_bytes(buf, &out);
                0
            }
            Ok(_) => {
                crate::errno::set(libc::ERANGE);
                libc::ERANGE
            }
            Err(e) => {
                crate::errno::set(e);
                e
            }
        }
    }
}

/// The optional `termios` and `winsize` arguments, checked and copied.
fn terminal_setup(
    termp: FlightPtr,
    winp: FlightPtr,
) -> (Option<Raw<TERMIOS>>, Option<Raw<WINSIZE>>) {
    (
        (termp.intval() != 0).then(|| Raw::read(termp)),
        (winp.intval() != 0).then(|| Raw::read(winp)),
    )
}

/// `openpty` into private descriptors, the name written to `name` (if not
/// null, checked for its length and NUL).
fn open_pair(name: FlightPtr, termp: FlightPtr, winp: FlightPtr) -> Result<(c_int, c_int), ()> {
    let (t, w) = terminal_setup(termp, winp);
    let tp = t
        .as_ref()
        .map_or(core::ptr::null(), |t| t.as_const::<libc::termios>());
    let wp = w
        .as_ref()
        .map_or(core::ptr::null(), |w| w.as_const::<libc::winsize>());
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: private descriptors, termios and winsize (or null); the name
    // is fetched separately into a bounded buffer.
    let r = sys32(|| unsafe { openpty(&mut master, &mut slave, core::ptr::null_mut(), tp, wp) });
    if r != 0 {
        return Err(());
    }
    if name.intval() != 0 {
        let mut text = slave_name(master).unwrap_or_default();
        text.push(0);
        mem::check_write(name, text.len());
        mem::write_bytes(name, &text);
    }
    Ok((master, slave))
}

wrapper! {
    /// `int openpty(int *amaster, int *aslave, char *name, const struct
    /// termios *termp, const struct winsize *winp)`.
    fn openpty(amaster: FlightPtr, aslave: FlightPtr, name: FlightPtr, termp: FlightPtr, winp: FlightPtr) -> i32 {
        mem::check_write(amaster, 4);
        mem::check_write(aslave, 4);
        let Ok((master, slave)) = open_pair(name, termp, winp) else { return -1 };
        mem::write_int(amaster, &master.to_ne_bytes());
        mem::write_int(aslave, &slave.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int login_tty(int fd)`.
    fn login_tty(fd: i32) -> i32 {
        // SAFETY: no memory arguments.
        sys32(|| unsafe { self::login_tty(fd) })
    }
}

wrapper! {
    /// `pid_t forkpty(int *amaster, char *name, const struct termios
    /// *termp, const struct winsize *winp)`: `openpty`, then `fork` (by
    /// its rules), the child logging in on the slave.
    fn forkpty(amaster: FlightPtr, name: FlightPtr, termp: FlightPtr, winp: FlightPtr) -> i32 {
        mem::check_write(amaster, 4);
        let Ok((master, slave)) = open_pair(name, termp, winp) else { return -1 };
        let pid = crate::posix::process::fork_process();
        // SAFETY: closing and logging in on descriptors this call opened.
        unsafe {
            match pid {
                -1 => {
                    libc::close(master);
                    libc::close(slave);
                }
                0 => {
                    libc::close(master);
                    if self::login_tty(slave) == -1 {
                        libc::_exit(1);
                    }
                }
                _ => {
                    libc::close(slave);
                    mem::write_int(amaster, &master.to_ne_bytes());
                }
            }
        }
        pid
    }
}
