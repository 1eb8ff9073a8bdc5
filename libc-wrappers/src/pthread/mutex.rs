//! Mutexes in place in the program's `pthread_mutex_t` (40 bytes), with
//! glibc's field positions: the lock word (`__lock`, 0 unlocked, 1 locked,
//! 2 locked with sleepers) at 0, the recursion count (`__count`) at 4, the
//! owner's kernel thread id (`__owner`) at 8 and the type (`__kind`) at 16.
//! All zeros is `PTHREAD_MUTEX_INITIALIZER`; glibc's recursive and
//! error-checking initialisers set `__kind` to 1 and 2, as here.
//!
//! Only 32-bit atomics and futex calls touch those words (see
//! [`super::futex`]); a program that corrupts a mutex can make it deadlock
//! or fail with an error code, nothing more.

use gimso_abi::FlightPtr;

use super::futex::{self, Deadline, Region, Word};
use crate::{mem, wrapper};

const SIZE: usize = 40;
/// Bytes an operation touches: `__lock` .. `__kind`.
const TOUCHED: usize = 20;
const COUNT: usize = 4;
const OWNER: usize = 8;
const KIND: usize = 16;

const NORMAL: u32 = libc::PTHREAD_MUTEX_NORMAL as u32;
const RECURSIVE: u32 = libc::PTHREAD_MUTEX_RECURSIVE as u32;
const ERRORCHECK: u32 = libc::PTHREAD_MUTEX_ERRORCHECK as u32;
/// glibc's `PTHREAD_MUTEX_KIND_MASK_NP`; kind 3 (adaptive) acts as normal.
const KIND_MASK: u32 = 3;

/// How a lock operation waits.
#[derive(Clone, Copy, Debug)]
pub enum Wait {
    /// Until the mutex is free.
    Block,
    /// Not at all (`EBUSY`).
    Try,
    /// Until the `CLOCK_REALTIME` time at this `struct timespec`.
    Until(FlightPtr),
}

/// Takes the lock word: 1 if free, else marks it 2 and sleeps (Drepper's
/// "mutexes are tricky" design 2). Spins briefly before sleeping exited.
fn acquire(lock: Word, wait: Wait) -> Result<(), i32> {
    if lock.cas(0, 1).is_ok() {
        return Ok(());
    }
    let deadline = match wait {
        Wait::Try => return Err(libc::EBUSY),
        Wait::Block => None,
        Wait::Until(p) => Some(Deadline::read(p, true)?),
    };
    if futex::spin_until(|| lock.load() == 0 && lock.cas(0, 1).is_ok()) {
        return Ok(());
    }
    gimso_gc::exited(|| acquire_blocking(lock, deadline.as_ref()))
}

/// The sleeping part of [`acquire`]: atomics and futex calls only, so it
/// may run exited.
fn acquire_blocking(lock: Word, deadline: Option<&Deadline>) -> Result<(), i32> {
    while lock.swap(2) != 0 {
        if !lock.wait(2, deadline) {
            return Err(libc::ETIMEDOUT);
        }
    }
    Ok(())
}

/// Frees the lock word, waking one sleeper if there may be any.
fn release(lock: Word) {
    if lock.swap(0) == 2 {
        lock.wake(1);
    }
}

/// A program mutex whose touched bytes passed the access check.
#[derive(Clone, Copy, Debug)]
pub struct Mutex {
    lock: Word,
    count: Word,
    owner: Word,
    kind: Word,
}

impl Mutex {
    /// Checks the bytes operations touch (20, 4-aligned, writable).
    pub fn check(p: FlightPtr) -> Mutex {
        let r = Region::check(p, TOUCHED);
        Mutex {
            lock: r.word(0),
            count: r.word(COUNT),
            owner: r.word(OWNER),
            kind: r.word(KIND),
        }
    }

    fn kind(self) -> u32 {
        self.kind.load() & KIND_MASK
    }

    /// Whether the type checks ownership (recursive and error-checking).
    fn checks_owner(kind: u32) -> bool {
        kind == RECURSIVE || kind == ERRORCHECK
    }

    /// `pthread_mutex_lock` / `trylock` / `timedlock`.
    pub fn lock(self, wait: Wait) -> i32 {
        let kind = self.kind();
        let me = futex::tid();
        if Self::checks_owner(kind) && self.owner.load() == me {
            if kind == ERRORCHECK {
                return libc::EDEADLK;
            }
            let c = self.count.load();
            if c == u32::MAX {
                return libc::EAGAIN;
            }
            self.count.store(c + 1);
            return 0;
        }
        if let Err(e) = acquire(self.lock, wait) {
            return e;
        }
        self.owner.store(me);
        self.count.store(u32::from(kind == RECURSIVE));
        0
    }

    /// `pthread_mutex_unlock`.
    pub fn unlock(self) -> i32 {
        let kind = self.kind();
        if Self::checks_owner(kind) {
            if self.owner.load() != futex::tid() || self.lock.load() == 0 {
                return libc::EPERM;
            }
            let c = self.count.load();
            if kind == RECURSIVE && c > 1 {
                self.count.store(c - 1);
                return 0;
            }
        }
        self.owner.store(0);
        self.count.store(0);
        release(self.lock);
        0
    }

    /// Releases the mutex entirely for a condition wait; returns the
    /// recursion count to restore, or `EPERM` if a checking mutex is not
    /// the caller's.
    pub fn release_for_wait(self) -> Result<u32, i32> {
        if Self::checks_owner(self.kind()) && self.owner.load() != futex::tid() {
            return Err(libc::EPERM);
        }
        let count = self.count.load();
        self.owner.store(0);
        self.count.store(0);
        release(self.lock);
        Ok(count)
    }

    /// Takes the mutex back after a condition wait, sleeping if needed
    /// (atomics and futex calls only: may run exited).
    pub fn reacquire_blocking(self) {
        if self.lock.cas(0, 1).is_err() {
            // Without a deadline the wait cannot time out.
            let _ = acquire_blocking(self.lock, None);
        }
    }

    /// Records the caller as owner again after [`Mutex::reacquire_blocking`].
    pub fn restore_owner(self, count: u32) {
        self.owner.store(futex::tid());
        self.count.store(count);
    }

    /// `pthread_mutex_destroy`: `EBUSY` while locked.
    pub fn destroy(self) -> i32 {
        if self.lock.load() != 0 {
            libc::EBUSY
        } else {
            0
        }
    }
}

wrapper! {
    /// `int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)`.
    fn pthread_mutex_init(m: FlightPtr, attr: FlightPtr) -> i32 {
        let kind = if attr.intval() == 0 {
            NORMAL
        } else {
            u32::from_ne_bytes(mem::read_int::<4>(attr)) & KIND_MASK
        };
        let mut bytes = [0u8; SIZE];
        bytes[KIND..KIND + 4].copy_from_slice(&kind.to_ne_bytes());
        mem::write_bytes(m, &bytes);
        0
    }
}

wrapper! {
    /// `int pthread_mutex_destroy(pthread_mutex_t *m)`.
    fn pthread_mutex_destroy(m: FlightPtr) -> i32 {
        Mutex::check(m).destroy()
    }
}

wrapper! {
    /// `int pthread_mutex_lock(pthread_mutex_t *m)`.
    fn pthread_mutex_lock(m: FlightPtr) -> i32 {
        Mutex::check(m).lock(Wait::Block)
    }
}

wrapper! {
    /// `int pthread_mutex_trylock(pthread_mutex_t *m)`.
    fn pthread_mutex_trylock(m: FlightPtr) -> i32 {
        Mutex::check(m).lock(Wait::Try)
    }
}

wrapper! {
    /// `int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime)`.
    fn pthread_mutex_timedlock(m: FlightPtr, abstime: FlightPtr) -> i32 {
        Mutex::check(m).lock(Wait::Until(abstime))
    }
}

wrapper! {
    /// `int pthread_mutex_unlock(pthread_mutex_t *m)`.
    fn pthread_mutex_unlock(m: FlightPtr) -> i32 {
        Mutex::check(m).unlock()
    }
}

wrapper! {
    /// `int pthread_mutexattr_init(pthread_mutexattr_t *a)` (4 bytes: the type).
    fn pthread_mutexattr_init(a: FlightPtr) -> i32 {
        mem::write_int(a, &NORMAL.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int pthread_mutexattr_destroy(pthread_mutexattr_t *a)`.
    fn pthread_mutexattr_destroy(_a: FlightPtr) -> i32 {
        0
    }
}

wrapper! {
    /// `int pthread_mutexattr_settype(pthread_mutexattr_t *a, int type)`.
    fn pthread_mutexattr_settype(a: FlightPtr, kind: i32) -> i32 {
        if !(0..=KIND_MASK as i32).contains(&kind) {
            return libc::EINVAL;
        }
        mem::write_int(a, &(kind as u32).to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type)`.
    fn pthread_mutexattr_gettype(a: FlightPtr, out: FlightPtr) -> i32 {
        let kind = u32::from_ne_bytes(mem::read_int::<4>(a)) & KIND_MASK;
        mem::write_int(out, &kind.to_ne_bytes());
        0
    }
}
