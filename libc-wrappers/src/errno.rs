//! `errno` and `strerror`.
//!
//! The program's `errno` is a per-thread `int` object whose capability
//! `__errno_location` returns; wrappers that fail set it (and libc's own
//! errno, which the runtime's calls into libc use).

use core::cell::Cell;

use gimso_abi::FlightPtr;

use crate::mem;
use crate::wrapper;

thread_local! {
    /// The calling thread's errno object (`lower`), or 0 before first use.
    static ERRNO: Cell<usize> = const { Cell::new(0) };
}

/// The calling thread's errno object. A safepoint the first time.
pub fn location() -> FlightPtr {
    let lower = ERRNO.with(Cell::get);
    if lower != 0 {
        // SAFETY: `ERRNO` only ever holds the payload address of the errno
        // object allocated below.
        return unsafe { FlightPtr::from_lower(lower) };
    }
    // Global: it lives as long as the program (threads are few, and C code
    // may keep `&errno` anywhere) and `free(&errno)` is an invalid free.
    let p = mem::alloc(4, 16, gimso_abi::FLAG_GLOBAL);
    gimso_gc::register_global_object(p.lower());
    ERRNO.with(|c| c.set(p.lower()));
    p
}

/// The program's errno value.
pub fn get() -> i32 {
    let p = location();
    i32::from_ne_bytes(mem::read_int::<4>(p))
}

/// Sets the program's (and libc's) errno.
pub fn set(value: i32) {
    let p = location();
    // SAFETY: the object is a live 8-byte int object this module made.
    unsafe { (p.intval() as *mut i32).write(value) };
    // SAFETY: __errno_location returns the calling thread's errno.
    unsafe { *libc::__errno_location() = value };
}

/// Copies libc's errno (after a failed libc call) into the program's.
pub fn sync_from_libc() {
    // SAFETY: __errno_location returns the calling thread's errno.
    set(unsafe { *libc::__errno_location() });
}

/// The text of error `n`, as glibc's `strerror` gives it.
pub fn message(n: i32) -> Vec<u8> {
    let mut buf = [0u8; 256];
    // SAFETY: the GNU strerror_r returns a pointer to a NUL-terminated
    // string: either `buf` (filled within its length) or a static message.
    unsafe {
        let s = gnu_strerror_r(n, buf.as_mut_ptr().cast(), buf.len());
        core::ffi::CStr::from_ptr(s).to_bytes().to_vec()
    }
}

unsafe extern "C" {
    /// glibc's GNU `strerror_r` (the `libc` crate binds the XSI one).
    #[link_name = "strerror_r"]
    fn gnu_strerror_r(n: i32, buf: *mut libc::c_char, len: usize) -> *const libc::c_char;
}

wrapper! {
    /// `int *__errno_location(void)`: what `errno` expands to.
    fn __errno_location() -> FlightPtr {
        location()
    }
}

wrapper! {
    /// `char *strerror(int n)`: a fresh read-only string.
    fn strerror(n: i32) -> FlightPtr {
        mem::alloc_c_string(&message(n), true)
    }
}
