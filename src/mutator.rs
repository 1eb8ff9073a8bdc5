//! The calling thread's allocation cache, through the collector's thread
//! registry (the thread attaches on first use and detaches when it exits).

use gimso_heap::LocalHeap;

/// Runs `f` with the calling thread's allocation cache.
///
/// Not a safepoint: `f` must not poll or exit.
#[inline]
pub fn with_local<R>(f: impl FnOnce(&mut LocalHeap) -> R) -> R {
    let t = gimso_gc::current();
    // SAFETY: the calling thread is entered (attached threads are entered
    // except inside `gimso_exit`/`gimso_enter` pairs, where compiled code
    // makes no runtime calls) and `f` does not reach a safepoint, so nobody
    // else touches the cache meanwhile.
    f(unsafe { t.local_mut() })
}
