//! Waiting for file descriptors: `poll`, `ppoll`, `select`, `pselect`.
//!
//! The program's arrays and sets are checked for the bytes the kernel
//! reads and writes (a `pollfd` array of `nfds` entries; the words of an
//! `fd_set` that hold descriptors below `nfds`), copied into private
//! buffers, waited on exited (the collector never waits for a sleeping
//! thread), and copied back; the capabilities of the words written are
//! nulled, as for `read`.

use gimso_abi::FlightPtr;

use super::{fail, sys32};
use crate::{mem, wrapper};

/// Bytes of one `struct pollfd`.
const POLLFD: usize = core::mem::size_of::<libc::pollfd>();
/// Bytes of an `fd_set`, and the descriptors it holds.
const FD_SET_BYTES: usize = core::mem::size_of::<libc::fd_set>();
const FD_SET_BITS: usize = FD_SET_BYTES * 8;

/// The program's `pollfd` array of `nfds` entries, checked for reading and
/// writing and copied.
fn pollfds_in(fds: FlightPtr, nfds: u64) -> Option<Vec<libc::pollfd>> {
    let n = usize::try_from(nfds).ok()?;
    let bytes = n.checked_mul(POLLFD)?;
    mem::check_write(fds, bytes);
    let raw = mem::read_bytes(fds, bytes);
    Some(
        raw.chunks_exact(POLLFD)
            .map(|c| libc::pollfd {
                fd: i32::from_ne_bytes([c[0], c[1], c[2], c[3]]),
                events: i16::from_ne_bytes([c[4], c[5]]),
                revents: 0,
            })
            .collect(),
    )
}

/// Writes each entry's `revents` back (the only field the call changes).
fn pollfds_out(fds: FlightPtr, entries: &[libc::pollfd]) {
    for (i, e) in entries.iter().enumerate() {
        mem::write_int(
            fds.offset((i * POLLFD + 6) as isize),
            &e.revents.to_ne_bytes(),
        );
    }
}

wrapper! {
    /// `int poll(struct pollfd *fds, nfds_t nfds, int timeout)`.
    fn poll(fds: FlightPtr, nfds: u64, timeout: i32) -> i32 {
        let Some(mut entries) = pollfds_in(fds, nfds) else { return fail(libc::EINVAL) };
        let r = sys32(|| {
            // SAFETY: `entries` is a private array of `nfds` entries.
            unsafe { libc::poll(entries.as_mut_ptr(), entries.len() as libc::nfds_t, timeout) }
        });
        if r >= 0 {
            pollfds_out(fds, &entries);
        }
        r
    }
}

/// A `struct timespec` argument (null allowed).
pub(super) fn timespec_in(p: FlightPtr) -> Option<libc::timespec> {
    (p.intval() != 0).then(|| {
        let secs = i64::from_ne_bytes(mem::read_int::<8>(p));
        let nanos = i64::from_ne_bytes(mem::read_int::<8>(p.offset(8)));
        libc::timespec {
            tv_sec: secs,
            tv_nsec: nanos,
        }
    })
}

/// A `sigset_t` argument (null allowed), checked whole and copied.
pub(super) fn sigset_in(p: FlightPtr) -> Option<libc::sigset_t> {
    (p.intval() != 0).then(|| {
        let raw = mem::read_bytes(p, core::mem::size_of::<libc::sigset_t>());
        // SAFETY: sigset_t is plain bytes; `raw` has exactly its size.
        unsafe { core::ptr::read_unaligned(raw.as_ptr().cast::<libc::sigset_t>()) }
    })
}

pub(super) fn opt_ptr<T>(v: &Option<T>) -> *const T {
    v.as_ref().map_or(core::ptr::null(), |v| v as *const T)
}

wrapper! {
    /// `int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec
    /// *timeout, const sigset_t *sigmask)`.
    fn ppoll(fds: FlightPtr, nfds: u64, timeout: FlightPtr, sigmask: FlightPtr) -> i32 {
        let Some(mut entries) = pollfds_in(fds, nfds) else { return fail(libc::EINVAL) };
        let (t, m) = (timespec_in(timeout), sigset_in(sigmask));
        let r = sys32(|| {
            // SAFETY: private array, timespec and mask (or null).
            unsafe {
                libc::ppoll(entries.as_mut_ptr(), entries.len() as libc::nfds_t, opt_ptr(&t), opt_ptr(&m))
            }
        });
        if r >= 0 {
            pollfds_out(fds, &entries);
        }
        r
    }
}

/// An `fd_set` argument of a `select` over descriptors `0..nfds`: the words
/// holding those bits, checked for reading and writing and copied into a
/// whole private set (null allowed).
fn fd_set_in(p: FlightPtr, words: usize) -> Option<libc::fd_set> {
    if p.intval() == 0 {
        return None;
    }
    mem::check_write(p, words * 8);
    // SAFETY: fd_set is plain bits; all-zero is the empty set.
    let mut set: libc::fd_set = unsafe { core::mem::zeroed() };
    let raw = mem::read_bytes(p, words * 8);
    // SAFETY: `raw` is at most FD_SET_BYTES (nfds was bounded).
    unsafe { core::ptr::copy_nonoverlapping(raw.as_ptr(), (&raw mut set).cast::<u8>(), raw.len()) };
    Some(set)
}

fn fd_set_out(p: FlightPtr, set: &Option<libc::fd_set>, words: usize) {
    if let Some(set) = set {
        // SAFETY: fd_set is plain bits of FD_SET_BYTES >= words * 8 bytes.
        let bits = unsafe {
            core::slice::from_raw_parts((set as *const libc::fd_set).cast::<u8>(), words * 8)
        };
        mem::write_bytes(p, bits);
    }
}

/// `select` and `pselect`: `wait` runs the call on the private sets.
fn select_with(
    nfds: i32,
    sets: [FlightPtr; 3],
    wait: impl FnOnce(*mut libc::fd_set, *mut libc::fd_set, *mut libc::fd_set) -> i32,
) -> i32 {
    if nfds < 0 || nfds as usize > FD_SET_BITS {
        return fail(libc::EINVAL);
    }
    let words = (nfds as usize).div_ceil(64);
    let mut copies = sets.map(|p| fd_set_in(p, words));
    let [r, w, e] = &mut copies;
    let ptr =
        |s: &mut Option<libc::fd_set>| s.as_mut().map_or(core::ptr::null_mut(), |s| s as *mut _);
    let (pr, pw, pe) = (ptr(r), ptr(w), ptr(e));
    let n = sys32(|| wait(pr, pw, pe));
    if n >= 0 {
        for (p, s) in sets.iter().zip(&copies) {
            fd_set_out(*p, s, words);
        }
    }
    n
}

wrapper! {
    /// `int select(int nfds, fd_set *r, fd_set *w, fd_set *e, struct
    /// timeval *timeout)`: Linux writes the time left back into `timeout`.
    fn select(nfds: i32, r: FlightPtr, w: FlightPtr, e: FlightPtr, timeout: FlightPtr) -> i32 {
        let mut tv = (timeout.intval() != 0).then(|| {
            mem::check_write(timeout, 16);
            libc::timeval {
                tv_sec: i64::from_ne_bytes(mem::read_int::<8>(timeout)),
                tv_usec: i64::from_ne_bytes(mem::read_int::<8>(timeout.offset(8))),
            }
        });
        let ptv = tv.as_mut().map_or(core::ptr::null_mut(), |t| t as *mut libc::timeval);
        let n = select_with(nfds, [r, w, e], |pr, pw, pe| {
            // SAFETY: private sets and timeval (or null).
            unsafe { libc::select(nfds, pr, pw, pe, ptv) }
        });
        if let Some(tv) = tv {
            mem::write_int(timeout, &tv.tv_sec.to_ne_bytes());
            mem::write_int(timeout.offset(8), &tv.tv_usec.to_ne_bytes());
        }
        n
    }
}

wrapper! {
    /// `int pselect(int nfds, fd_set *r, fd_set *w, fd_set *e, const struct
    /// timespec *timeout, const sigset_t *sigmask)`.
    fn pselect(nfds: i32, r: FlightPtr, w: FlightPtr, e: FlightPtr, timeout: FlightPtr, sigmask: FlightPtr) -> i32 {
        let (t, m) = (timespec_in(timeout), sigset_in(sigmask));
        select_with(nfds, [r, w, e], |pr, pw, pe| {
            // SAFETY: private sets, timespec and mask (or null).
            unsafe { libc::pselect(nfds, pr, pw, pe, opt_ptr(&t), opt_ptr(&m)) }
        })
    }
}
