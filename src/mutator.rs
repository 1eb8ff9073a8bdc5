//! The calling thread's allocation cache.
//!
//! Until the collector's thread registry exists (issue 3), every thread that
//! calls into the runtime gets a `LocalHeap` in a thread-local on first use;
//! its pages go back to the heap when the thread exits.

use core::cell::UnsafeCell;

use gimso_heap::{Heap, LocalHeap};

thread_local! {
    static LOCAL: UnsafeCell<Option<LocalHeap>> = const { UnsafeCell::new(None) };
}

/// Runs `f` with the calling thread's allocation cache.
///
/// Works during thread teardown too (a C destructor allocating after the
/// thread-local was destroyed): it then uses a temporary cache.
#[inline]
pub fn with_local<R>(f: impl FnOnce(&mut LocalHeap) -> R) -> R {
    let mut f = Some(f);
    let done = LOCAL.try_with(|cell| {
        // SAFETY: the cell is only reached from its own thread, and `f` never
        // re-enters `with_local`, so this is the only live reference.
        let slot = unsafe { &mut *cell.get() };
        let local = slot.get_or_insert_with(|| LocalHeap::new(Heap::global()));
        (f.take().expect("called once"))(local)
    });
    match done {
        Ok(r) => r,
        Err(_) => {
            let mut local = LocalHeap::new(Heap::global());
            (f.take().expect("not yet called"))(&mut local)
        }
    }
}
