//! POSIX I/O, file system and process functions.
//!
//! - [`fd`]: file descriptors (`open`, `read`, `write`, `fcntl`, `pipe`, ...).
//! - [`fs`]: the file system (`stat`, `mkdir`, `getcwd`, `realpath`,
//!   `mkstemp`, ...).
//! - [`dir`]: directory streams; `DIR *` is a special object
//!   (`SpecialKind::Dir`) and `readdir` results live in a GC object the
//!   stream owns, freed by `closedir`.
//! - [`mman`]: `mmap`/`munmap`/`mprotect` as page-aligned GC objects.
//! - [`poll`]: `poll`, `ppoll`, `select`, `pselect` on private copies.
//! - [`epoll`]: epoll instances; the capabilities of registered data are
//!   kept beside the kernel's copy.
//! - [`eventfds`]: `eventfd`, `timerfd_*`, `signalfd`.
//! - [`pty`]: pseudo-terminals (`posix_openpt`, `openpty`, `forkpty`, ...).
//! - [`process`]: ids, `sysconf`, `uname`, `fork`, `exec*`, `wait*`,
//!   `system`, resource limits, and the refused `dl*` functions.
//! - [`credentials`]: `setuid`/`setgid` and their forms, `getresuid`,
//!   `getgroups`/`setgroups`.
//!
//! Every pointer argument is checked for exactly the bytes the call reads
//! or writes, *before* the call does anything (a short buffer passed to
//! `read` is reported before a byte is read). Reads land in the program's
//! object directly and leave its capabilities as integer stores would
//! ([`fd`]'s `read_into`); other data moves through private buffers. Every
//! call that may block runs exited ([`sys`]), so the collector never waits
//! for it; errno is taken inside the exited section (re-entering may
//! itself touch libc's errno) and copied into the program's.

use gimso_abi::FlightPtr;

use crate::{errno, mem};

pub mod credentials;
pub mod dir;
pub mod epoll;
pub mod eventfds;
pub mod extras;
pub mod fd;
pub mod fs;
pub mod mman;
pub mod poll;
pub mod process;
pub mod pty;
pub mod socket;
pub mod spawn;
pub mod syscall;
pub mod termios;
pub mod users;

/// Runs the system call `f` exited and returns its result; a result of -1
/// sets the program's errno from libc's. Signals caught meanwhile are
/// delivered before errno is set (as a native handler runs before the
/// interrupted call returns).
pub fn sys(f: impl FnOnce() -> i64) -> i64 {
    let (r, e) = gimso_gc::exited(|| {
        let r = f();
        // SAFETY: __errno_location returns the calling thread's errno.
        (r, unsafe { *libc::__errno_location() })
    });
    crate::signal::deliver_pending();
    if r == -1 {
        errno::set(e);
    }
    r
}

/// [`sys`] for calls returning `int`.
pub fn sys32(f: impl FnOnce() -> i32) -> i32 {
    sys(|| i64::from(f())) as i32
}

/// Fails with `e`: sets errno and returns -1.
pub fn fail(e: i32) -> i32 {
    errno::set(e);
    -1
}

/// A path argument: the checked C string with its NUL.
pub fn path(p: FlightPtr) -> Vec<u8> {
    mem::c_string_nul(p)
}

/// An 8-aligned byte image of a C struct of `N` bytes, passed to libc in
/// place of the struct: program bytes are copied in and out of it, never
/// reinterpreted as Rust values.
#[repr(C, align(8))]
#[derive(Clone, Copy, Debug)]
pub struct Raw<const N: usize>(pub [u8; N]);

impl<const N: usize> Raw<N> {
    /// All zeros.
    pub fn zeroed() -> Self {
        Raw([0; N])
    }

    /// The `N` bytes at `p` (a checked read).
    pub fn read(p: FlightPtr) -> Self {
        let mut r = Raw([0; N]);
        r.0.copy_from_slice(&mem::read_bytes(p, N));
        r
    }

    /// Writes the `N` bytes at `p` (a checked write).
    pub fn write(&self, p: FlightPtr) {
        mem::write_bytes(p, &self.0);
    }

    /// The image as a pointer to the libc struct `T`, which must be
    /// exactly `N` bytes with alignment at most 8.
    pub fn as_mut<T>(&mut self) -> *mut T {
        assert!(size_of::<T>() == N && align_of::<T>() <= 8);
        self.0.as_mut_ptr().cast()
    }

    /// As [`Raw::as_mut`], for reading.
    pub fn as_const<T>(&self) -> *const T {
        assert!(size_of::<T>() == N && align_of::<T>() <= 8);
        self.0.as_ptr().cast()
    }
}

/// The bytes of `buf` before its first NUL (all of them if it has none).
pub fn until_nul(buf: &[u8]) -> &[u8] {
    match buf.iter().position(|&b| b == 0) {
        Some(n) => &buf[..n],
        None => buf,
    }
}
