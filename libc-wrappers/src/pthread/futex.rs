//! Futex words inside the program's own objects.
//!
//! Every synchronisation object (`pthread_mutex_t`, `pthread_cond_t`, ...)
//! lives in place in program memory, which the program may also scribble
//! on. The runtime therefore never trusts anything stored there: it only
//! performs 32-bit atomic operations and futex system calls on words whose
//! addresses passed the access check (bounds, 4-byte alignment, writable),
//! and interprets the values as plain integers. A corrupted object can
//! make a thread wait forever or get an error code, never touch memory
//! outside the checked bytes.
//!
//! The object stays mapped while a [`Word`] is in use: the word's address
//! is an interior pointer held in the wrapper's frame (or a callee-saved
//! register saved by `gimso_gc::exit`), which the collector's conservative
//! stack scan treats as a reference, and objects are never moved or
//! unmapped while referenced (a `free` only revokes access through
//! capabilities, which the runtime has already checked).

use core::cell::Cell;
use core::sync::atomic::{AtomicU32, Ordering};

use gimso_abi::FlightPtr;
use gimso_shadow::check::Access;

use crate::mem;

/// A checked, 4-byte-aligned, writable range of a program object.
#[derive(Clone, Copy, Debug)]
pub struct Region {
    base: usize,
    size: usize,
}

impl Region {
    /// Checks a `size`-byte write at `p` with 4-byte alignment (reporting
    /// a safety error otherwise) and returns the range.
    pub fn check(p: FlightPtr, size: usize) -> Region {
        mem::check_access(
            p,
            Access {
                size,
                align: 4,
                write: true,
            },
        );
        Region {
            base: p.intval(),
            size,
        }
    }

    /// The word at byte `offset` (a multiple of 4 inside the range).
    pub fn word(self, offset: usize) -> Word {
        assert!(
            offset % 4 == 0 && offset + 4 <= self.size,
            "futex word outside its checked range"
        );
        Word {
            addr: self.base + offset,
        }
    }
}

/// A 32-bit word of program memory that passed the checks of [`Region`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    addr: usize,
}

impl Word {
    /// A word at an address a [`Region`] checked earlier in a frame that is
    /// still live (used to undo a `pthread_once` abandoned by
    /// `pthread_exit`).
    ///
    /// # Safety
    /// `addr` came from [`Word::addr`] of a word whose checking frame is
    /// still on the calling thread's stack.
    pub unsafe fn from_checked_addr(addr: usize) -> Word {
        Word { addr }
    }

    /// The word's address.
    pub fn addr(self) -> usize {
        self.addr
    }

    fn atomic(&self) -> &AtomicU32 {
        // SAFETY: the address passed a 4-byte aligned write check (Region)
        // and the object stays mapped while this word is in use (module
        // documentation). The program's own accesses to it are either
        // atomic or a data race of the C program, which can only change
        // the integer we read.
        unsafe { AtomicU32::from_ptr(self.addr as *mut u32) }
    }

    /// Atomic load.
    pub fn load(self) -> u32 {
        self.atomic().load(Ordering::Acquire)
    }

    /// Atomic store.
    pub fn store(self, v: u32) {
        self.atomic().store(v, Ordering::Release);
    }

    /// Atomic exchange.
    pub fn swap(self, v: u32) -> u32 {
        self.atomic().swap(v, Ordering::AcqRel)
    }

    /// Strong compare-and-swap; `Err` holds the value found.
    pub fn cas(self, old: u32, new: u32) -> Result<u32, u32> {
        self.atomic()
            .compare_exchange(old, new, Ordering::AcqRel, Ordering::Acquire)
    }

    /// Atomic add (wrapping); returns the previous value.
    pub fn fetch_add(self, v: u32) -> u32 {
        self.atomic().fetch_add(v, Ordering::AcqRel)
    }

    /// Atomic and; returns the previous value.
    pub fn fetch_and(self, v: u32) -> u32 {
        self.atomic().fetch_and(v, Ordering::AcqRel)
    }

    /// Sleeps while the word holds `expected`, until `deadline` if any.
    /// Returns false only on a timeout; wake-ups may be spurious.
    /// Call it exited (`gimso_gc::exited`): it blocks.
    pub fn wait(self, expected: u32, deadline: Option<&Deadline>) -> bool {
        let (op, ts) = match deadline {
            None => (libc::FUTEX_WAIT_BITSET, core::ptr::null()),
            Some(d) => {
                if d.ts.tv_sec < 0 {
                    // Before the epoch: already past (and the kernel would
                    // refuse the negative time).
                    return false;
                }
                let clock = if d.realtime {
                    libc::FUTEX_CLOCK_REALTIME
                } else {
                    0
                };
                (
                    libc::FUTEX_WAIT_BITSET | clock,
                    &d.ts as *const libc::timespec,
                )
            }
        };
        // SAFETY: the word is a valid aligned u32 (see `atomic`); `ts` is
        // null or a valid absolute timespec. FUTEX_WAIT_BITSET only reads
        // the word.
        let r = unsafe {
            libc::syscall(
                libc::SYS_futex,
                self.addr as *const u32,
                op | libc::FUTEX_PRIVATE_FLAG,
                expected,
                ts,
                core::ptr::null::<u32>(),
                libc::FUTEX_BITSET_MATCH_ANY,
            )
        };
        // SAFETY: reading the calling thread's errno.
        r == 0 || unsafe { *libc::__errno_location() } != libc::ETIMEDOUT
    }

    /// Wakes up to `n` threads waiting on the word.
    pub fn wake(self, n: i32) {
        // SAFETY: as in `wait`; FUTEX_WAKE does not access the word.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                self.addr as *const u32,
                libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
                n,
            );
        }
    }

    /// Wakes every waiter.
    pub fn wake_all(self) {
        self.wake(i32::MAX);
    }
}

/// An absolute timeout read from the program's `struct timespec`.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    ts: libc::timespec,
    /// Measured on `CLOCK_REALTIME` (else `CLOCK_MONOTONIC`).
    realtime: bool,
}

impl Deadline {
    /// Reads the `struct timespec` at `p` (a checked 16-byte read);
    /// `Err(EINVAL)` if its nanoseconds are out of range, as POSIX asks.
    pub fn read(p: FlightPtr, realtime: bool) -> Result<Deadline, i32> {
        let ts = read_timespec(p);
        if !(0..1_000_000_000).contains(&ts.tv_nsec) {
            return Err(libc::EINVAL);
        }
        Ok(Deadline { ts, realtime })
    }
}

/// Reads a `struct timespec` (checked 16-byte read).
pub fn read_timespec(p: FlightPtr) -> libc::timespec {
    let b = mem::read_int::<16>(p);
    let mut sec = [0u8; 8];
    let mut nsec = [0u8; 8];
    sec.copy_from_slice(&b[..8]);
    nsec.copy_from_slice(&b[8..]);
    libc::timespec {
        tv_sec: i64::from_ne_bytes(sec),
        tv_nsec: i64::from_ne_bytes(nsec),
    }
}

/// Writes a `struct timespec` (checked 16-byte write).
pub fn write_timespec(p: FlightPtr, ts: &libc::timespec) {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&ts.tv_sec.to_ne_bytes());
    b[8..].copy_from_slice(&ts.tv_nsec.to_ne_bytes());
    mem::write_int(p, &b);
}

thread_local! {
    static TID: Cell<u32> = const { Cell::new(0) };
}

/// The calling thread's kernel thread id: what a mutex's `__owner` field
/// holds, as in glibc. Never 0.
pub fn tid() -> u32 {
    TID.with(|t| {
        if t.get() == 0 {
            // SAFETY: gettid has no preconditions.
            t.set(unsafe { libc::gettid() } as u32);
        }
        t.get()
    })
}

/// Spins briefly waiting for `ready` before a caller goes to sleep: most
/// critical sections are short, and sleeping costs two system calls and a
/// collector hand-over.
pub fn spin_until(mut ready: impl FnMut() -> bool) -> bool {
    for _ in 0..100 {
        if ready() {
            return true;
        }
        core::hint::spin_loop();
    }
    false
}
