//! Checked access to the program's memory for the wrappers: every helper
//! checks exactly the bytes it touches against the pointer's capability
//! and stops the program with the runtime's safety report otherwise.
//!
//! Reading an object's bytes while another thread of the C program writes
//! them is a data race of the C program; the bytes read may be torn, but
//! the object stays mapped (the collector never reclaims what this frame
//! references), so nothing unsafe follows from it.

use gimso_abi::{FLAG_READONLY, FlightPtr, SourceLocation};
use gimso_heap::LocalHeap;
use gimso_shadow::check::{Access, access_ok};
use gimso_shadow::{ObjRef, memops, pointer};

/// The location wrappers report (the caller's is not passed in ABI v1).
pub const UNKNOWN: &SourceLocation = &SourceLocation::UNKNOWN;

/// Runs `f` with the calling thread's allocation cache (not a safepoint).
pub fn with_local<R>(f: impl FnOnce(&mut LocalHeap) -> R) -> R {
    let t = gimso_gc::current();
    // SAFETY: the calling thread is attached and entered (wrappers run on
    // the thread of the compiled code that called them), and `f` reaches
    // no safepoint, so nobody else touches the cache meanwhile.
    f(unsafe { t.local_mut() })
}

/// Checks `access` at `p`; a failure is reported at the location of the
/// compiled code that called the wrapper.
#[inline]
pub fn check_access(p: FlightPtr, access: Access) -> ObjRef {
    if access_ok(p, access) {
        // SAFETY: access_ok established that p.lower is a capability.
        return unsafe { ObjRef::from_lower(p.lower()) };
    }
    crate::report::access(p, access)
}

/// Checks a read of `n` bytes at `p` (nothing for `n == 0`).
pub fn check_read(p: FlightPtr, n: usize) {
    if n != 0 {
        check_access(p, Access::read(n));
    }
}

/// Checks a write of `n` bytes at `p` (nothing for `n == 0`).
pub fn check_write(p: FlightPtr, n: usize) {
    if n != 0 {
        check_access(p, Access::write(n));
    }
}

/// Bytes readable from `p` to the end of its object, after checking that
/// at least one is (which reports null, freed, special and out-of-bounds
/// pointers as such).
pub fn readable(p: FlightPtr) -> usize {
    let obj = check_access(p, Access::read(1));
    obj.upper() - p.intval()
}

/// The `n` bytes at `p`, which the caller has checked.
///
/// # Safety
/// A read of `n` bytes at `p.intval` passed the access check (or `n == 0`),
/// and the caller keeps `p` on its stack while it uses the slice.
pub unsafe fn bytes<'a>(p: FlightPtr, n: usize) -> &'a [u8] {
    if n == 0 {
        return &[];
    }
    // SAFETY: the range is inside a live object's payload (contract).
    unsafe { core::slice::from_raw_parts(p.intval() as *const u8, n) }
}

/// Copies `n` bytes from `p` after checking them.
pub fn read_bytes(p: FlightPtr, n: usize) -> Vec<u8> {
    check_read(p, n);
    // SAFETY: just checked.
    unsafe { bytes(p, n) }.to_vec()
}

/// `strlen` with the check: the bytes up to and including the NUL must be
/// inside `p`'s bounds, else an out-of-bounds read of that many bytes.
pub fn c_strlen(p: FlightPtr) -> usize {
    let avail = readable(p);
    // SAFETY: readable() checked [p, p + avail).
    let window = unsafe { bytes(p, avail) };
    match find_nul(window) {
        Some(n) => n,
        None => {
            // No terminator inside the object: the first byte read outside.
            check_access(p, Access::read(avail + 1));
            unreachable_after_check()
        }
    }
}

/// The index of the first NUL in `window`: glibc's vectorised `memchr`,
/// several times a byte loop's speed on long strings.
fn find_nul(window: &[u8]) -> Option<usize> {
    if window.is_empty() {
        return None;
    }
    // SAFETY: memchr reads only the `window.len()` bytes of the slice.
    let at = unsafe { libc::memchr(window.as_ptr().cast(), 0, window.len()) };
    (!at.is_null()).then(|| at as usize - window.as_ptr() as usize)
}

/// `strnlen`: like [`c_strlen`] but reads at most `max` bytes.
pub fn c_strnlen(p: FlightPtr, max: usize) -> usize {
    if max == 0 {
        return 0;
    }
    let avail = readable(p);
    // SAFETY: readable() checked [p, p + avail).
    let window = unsafe { bytes(p, avail.min(max)) };
    match find_nul(window) {
        Some(n) => n,
        None if max <= avail => max,
        None => {
            check_access(p, Access::read(avail + 1));
            unreachable_after_check()
        }
    }
}

/// The C string at `p` (checked, without its NUL).
pub fn c_string(p: FlightPtr) -> Vec<u8> {
    let n = c_strlen(p);
    // SAFETY: c_strlen checked n + 1 bytes.
    unsafe { bytes(p, n) }.to_vec()
}

/// Calls `f` with a private copy of the C string at `p` (without its NUL):
/// on the stack when short (a format string), so the common call makes no
/// allocation.
pub fn with_c_string<R>(p: FlightPtr, f: impl FnOnce(&[u8]) -> R) -> R {
    const SHORT: usize = 256;
    let n = c_strlen(p);
    // SAFETY: c_strlen checked n + 1 bytes.
    let src = unsafe { bytes(p, n) };
    if n <= SHORT {
        // Uninitialised, not zeroed: only the `n` bytes copied are read.
        let mut buf = [core::mem::MaybeUninit::<u8>::uninit(); SHORT];
        for (d, s) in buf.iter_mut().zip(src) {
            d.write(*s);
        }
        // SAFETY: the loop initialised buf[..n] (src has n bytes, n <= SHORT).
        f(unsafe { core::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), n) })
    } else {
        // A copy, not `src`: another thread may write the string meanwhile.
        let copy: Vec<u8> = src.to_vec();
        f(&copy)
    }
}

/// The C string at `p` with its NUL, ready for a libc call.
pub fn c_string_nul(p: FlightPtr) -> Vec<u8> {
    let n = c_strlen(p);
    // SAFETY: c_strlen checked n + 1 bytes.
    unsafe { bytes(p, n + 1) }.to_vec()
}

/// The first byte, if any, at which the bytes read by a sequential scan
/// from `p` and `q` first differ or end; used by string comparisons.
/// Checks every byte it reads; `limit` bounds the scan.
pub fn compare_strings(p: FlightPtr, q: FlightPtr, limit: usize) -> i32 {
    if limit == 0 {
        return 0;
    }
    let ap = readable(p);
    let aq = readable(q);
    let mut i = 0;
    loop {
        if i == ap {
            check_access(p, Access::read(i + 1));
        }
        if i == aq {
            check_access(q, Access::read(i + 1));
        }
        // SAFETY: i < ap and i < aq, both checked by readable().
        let (a, b) = unsafe {
            (
                *(p.intval() as *const u8).add(i),
                *(q.intval() as *const u8).add(i),
            )
        };
        if a != b || a == 0 {
            return a as i32 - b as i32;
        }
        i += 1;
        if i == limit {
            return 0;
        }
    }
}

/// Writes `data` at `dst` after checking the write; the capabilities of
/// every word touched become null (as `memset` leaves them).
pub fn write_bytes(dst: FlightPtr, data: &[u8]) {
    memops::write_at(dst, data, UNKNOWN);
}

/// `memmove` with the capability rules (both ranges checked).
pub fn memmove(dst: FlightPtr, src: FlightPtr, n: usize) {
    check_read(src, n);
    check_write(dst, n);
    with_local(|l| memops::memmove_at(l, dst, src, n, UNKNOWN));
}

/// `memset` with the capability rules (the range checked).
pub fn memset(dst: FlightPtr, c: u8, n: usize) {
    check_write(dst, n);
    memops::memset_at(dst, c, n, UNKNOWN);
}

/// Allocates a zeroed object of `size` bytes aligned to `align` (a power
/// of two at most `MAX_ALIGN`) with `flags`. A safepoint.
pub fn alloc(size: usize, align: usize, flags: u64) -> FlightPtr {
    gimso_gc::alloc(size, align, flags).flight_ptr()
}

/// A fresh object holding `data` followed by a NUL; read-only if asked.
pub fn alloc_c_string(data: &[u8], readonly: bool) -> FlightPtr {
    let p = alloc(data.len() + 1, 16, 0);
    // SAFETY: the object is fresh and data.len() + 1 bytes long.
    unsafe {
        core::ptr::copy_nonoverlapping(data.as_ptr(), p.intval() as *mut u8, data.len());
    }
    if readonly {
        make_readonly(p);
    }
    p
}

/// Makes the object `p` (a fresh allocation of the caller's) read-only
/// for the program.
pub fn make_readonly(p: FlightPtr) {
    if p.lower() == 0 {
        return;
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { gimso_shadow::ObjRef::from_lower(p.lower()) };
    obj.header()
        .aux
        .fetch_or(FLAG_READONLY, core::sync::atomic::Ordering::Release);
}

/// Stores pointer `value` at `dst` (checked, through shadow storage).
pub fn store_ptr(dst: FlightPtr, value: FlightPtr) {
    check_access(dst, Access::POINTER_WRITE);
    with_local(|l| pointer::store_ptr(l, dst, value, UNKNOWN));
}

/// Loads the pointer at `src` (checked, with its capability).
pub fn load_ptr(src: FlightPtr) -> FlightPtr {
    check_access(src, Access::POINTER_READ);
    pointer::load_ptr(src, UNKNOWN)
}

/// Reads an integer of `N` bytes at `p` after checking the read.
pub fn read_int<const N: usize>(p: FlightPtr) -> [u8; N] {
    check_access(p, Access::read(N));
    let mut out = [0u8; N];
    // SAFETY: just checked N bytes at p.
    unsafe { core::ptr::copy_nonoverlapping(p.intval() as *const u8, out.as_mut_ptr(), N) };
    out
}

/// Writes `data` (an integer's bytes) at `p` after checking, without
/// touching capabilities of bytes it does not write.
pub fn write_int(p: FlightPtr, data: &[u8]) {
    write_bytes(p, data);
}

#[cold]
pub(crate) fn unreachable_after_check() -> ! {
    // A failed check never returns; a check that passes here means the
    // object grew, which bounds never do.
    crate::report::fatal("internal error: bounds changed during a string scan")
}
