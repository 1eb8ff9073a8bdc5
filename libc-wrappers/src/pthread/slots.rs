//! Pointers the thread library holds for the program between calls: a
//! thread's start routine and argument until it runs, its return value
//! until it is joined, thread-specific values, key destructors.
//!
//! `gimso_gc::Root` guards belong to one thread and must be dropped by it,
//! but these pointers outlive or change threads. So each one's capability
//! sits in a word of a runtime table registered with the collector as a
//! precise root range; the table only grows (in leaked chunks) and freed
//! words are reused. Writing a word applies the store barrier, as a
//! pointer store into the heap does: a capability stored while the
//! collector marks is marked, so handing a pointer over through the table
//! never hides it from the collector.

use core::sync::atomic::{AtomicUsize, Ordering};

use gimso_abi::FlightPtr;
use parking_lot::Mutex;

const CHUNK_WORDS: usize = 256;

/// Root words not in use.
static FREE: Mutex<Vec<&'static AtomicUsize>> = Mutex::new(Vec::new());

fn take_word() -> &'static AtomicUsize {
    let mut free = FREE.lock();
    if let Some(w) = free.pop() {
        return w;
    }
    let chunk: &'static [AtomicUsize; CHUNK_WORDS] =
        Box::leak(Box::new([const { AtomicUsize::new(0) }; CHUNK_WORDS]));
    // SAFETY: the chunk is leaked, so it stays readable for the rest of
    // the program; each word holds 0 or a capability (only `Held` writes
    // them).
    unsafe { gimso_gc::register_root_range(chunk.as_ptr().cast::<usize>(), CHUNK_WORDS) };
    free.extend(chunk.iter().skip(1));
    &chunk[0]
}

/// A pointer (address and capability) kept alive by the collector while
/// this value exists, whichever thread holds or drops it.
#[derive(Debug)]
pub struct Held {
    intval: usize,
    cap: &'static AtomicUsize,
}

impl Held {
    /// Holds `p`. The calling thread must be attached and entered (as
    /// wrappers are): the store barrier may grey the object for it.
    pub fn new(p: FlightPtr) -> Held {
        let mut h = Held {
            intval: 0,
            cap: take_word(),
        };
        h.set(p);
        h
    }

    /// Replaces the pointer held (same conditions as [`Held::new`]).
    pub fn set(&mut self, p: FlightPtr) {
        gimso_shadow::barrier::store_barrier(p.lower());
        self.cap.store(p.lower(), Ordering::Release);
        self.intval = p.intval();
    }

    /// The pointer held.
    pub fn get(&self) -> FlightPtr {
        // SAFETY: `cap` is written only by `set`, from a `FlightPtr`.
        unsafe { FlightPtr::new(self.intval, self.cap.load(Ordering::Acquire)) }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.cap.store(0, Ordering::Release);
        FREE.lock().push(self.cap);
    }
}
