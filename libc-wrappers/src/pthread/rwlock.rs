//! Read-write locks in place in the program's `pthread_rwlock_t` (56
//! bytes; all zeros is `PTHREAD_RWLOCK_INITIALIZER`): a state word at
//! offset 0 (reader count in the low 30 bits, a writer bit, a "sleepers"
//! bit) and the writer's kernel thread id at offset 4, to refuse a writer
//! that locks again (`EDEADLK`), as glibc does. Readers are preferred, as
//! by glibc's default.
//!
//! A thread that must wait sets the sleepers bit and sleeps on the state
//! word; whoever makes the lock available clears the bit and wakes every
//! sleeper, which then competes again. Only atomics and futex calls touch
//! the words (see [`super::futex`]).

use gimso_abi::FlightPtr;

use super::futex::{self, Region, Word};
use crate::{mem, wrapper};

const SIZE: usize = 56;
const TOUCHED: usize = 8;
const WRITER_TID: usize = 4;

const READERS: u32 = (1 << 30) - 1;
const WRITER: u32 = 1 << 30;
const SLEEPERS: u32 = 1 << 31;

#[derive(Clone, Copy, Debug)]
struct RwLock {
    state: Word,
    writer: Word,
}

impl RwLock {
    fn check(p: FlightPtr) -> RwLock {
        let r = Region::check(p, TOUCHED);
        RwLock {
            state: r.word(0),
            writer: r.word(WRITER_TID),
        }
    }

    /// Whether the caller holds the write lock.
    fn mine(self, s: u32) -> bool {
        s & WRITER != 0 && self.writer.load() == futex::tid()
    }

    /// Sleeps until the state word may have changed from `s`.
    fn sleep(self, s: u32) {
        let s2 = s | SLEEPERS;
        if s2 == s || self.state.cas(s, s2).is_ok() {
            let state = self.state;
            gimso_gc::exited(|| state.wait(s2, None));
        }
    }

    fn read_lock(self, try_only: bool) -> i32 {
        loop {
            let s = self.state.load();
            if s & WRITER == 0 {
                if s & READERS == READERS {
                    return libc::EAGAIN;
                }
                if self.state.cas(s, s + 1).is_ok() {
                    return 0;
                }
                continue;
            }
            if self.mine(s) {
                return libc::EDEADLK;
            }
            if try_only {
                return libc::EBUSY;
            }
            self.sleep(s);
        }
    }

    fn write_lock(self, try_only: bool) -> i32 {
        loop {
            let s = self.state.load();
            if s & (WRITER | READERS) == 0 {
                if self.state.cas(s, s | WRITER).is_ok() {
                    self.writer.store(futex::tid());
                    return 0;
                }
                continue;
            }
            if self.mine(s) {
                return libc::EDEADLK;
            }
            if try_only {
                return libc::EBUSY;
            }
            self.sleep(s);
        }
    }

    fn unlock(self) -> i32 {
        loop {
            let s = self.state.load();
            let next = if s & WRITER != 0 {
                self.writer.store(0);
                0
            } else if s & READERS != 0 {
                let n = s - 1;
                if n & READERS == 0 { 0 } else { n }
            } else {
                return libc::EPERM;
            };
            if self.state.cas(s, next).is_ok() {
                if s & SLEEPERS != 0 && next & SLEEPERS == 0 {
                    self.state.wake_all();
                }
                return 0;
            }
        }
    }
}

wrapper! {
    /// `int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr)`.
    fn pthread_rwlock_init(l: FlightPtr, _attr: FlightPtr) -> i32 {
        mem::write_bytes(l, &[0; SIZE]);
        0
    }
}

wrapper! {
    /// `int pthread_rwlock_destroy(pthread_rwlock_t *l)`: `EBUSY` while held.
    fn pthread_rwlock_destroy(l: FlightPtr) -> i32 {
        if RwLock::check(l).state.load() & (WRITER | READERS) != 0 {
            libc::EBUSY
        } else {
            0
        }
    }
}

wrapper! {
    /// `int pthread_rwlock_rdlock(pthread_rwlock_t *l)`.
    fn pthread_rwlock_rdlock(l: FlightPtr) -> i32 {
        RwLock::check(l).read_lock(false)
    }
}

wrapper! {
    /// `int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)`.
    fn pthread_rwlock_tryrdlock(l: FlightPtr) -> i32 {
        RwLock::check(l).read_lock(true)
    }
}

wrapper! {
    /// `int pthread_rwlock_wrlock(pthread_rwlock_t *l)`.
    fn pthread_rwlock_wrlock(l: FlightPtr) -> i32 {
        RwLock::check(l).write_lock(false)
    }
}

wrapper! {
    /// `int pthread_rwlock_trywrlock(pthread_rwlock_t *l)`.
    fn pthread_rwlock_trywrlock(l: FlightPtr) -> i32 {
        RwLock::check(l).write_lock(true)
    }
}

wrapper! {
    /// `int pthread_rwlock_unlock(pthread_rwlock_t *l)`.
    fn pthread_rwlock_unlock(l: FlightPtr) -> i32 {
        RwLock::check(l).unlock()
    }
}

wrapper! {
    /// `int pthread_rwlockattr_init(pthread_rwlockattr_t *a)` (8 bytes).
    fn pthread_rwlockattr_init(a: FlightPtr) -> i32 {
        mem::write_bytes(a, &[0; 8]);
        0
    }
}

wrapper! {
    /// `int pthread_rwlockattr_destroy(pthread_rwlockattr_t *a)`.
    fn pthread_rwlockattr_destroy(_a: FlightPtr) -> i32 {
        0
    }
}
