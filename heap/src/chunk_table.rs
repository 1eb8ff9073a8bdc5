//! The process-wide chunk table: one word per 4 MiB region of the user
//! address space, so `lookup` maps any address to its chunk or large object
//! with one load and no lock.
//!
//! 2^47 / 2^22 = 2^25 entries of 8 bytes is 256 MiB of address space,
//! reserved with `MAP_NORESERVE`; only the pages covering regions the heap
//! actually uses are ever written, the rest read as the shared zero page.
//! The table is shared by every `Heap` instance and never freed.

use core::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use crate::chunk::CHUNK_SHIFT;
use crate::os;

/// Number of entries: one per 4 MiB region below 2^47.
pub(crate) const ENTRIES: usize = 1 << (os::ADDRESS_BITS - CHUNK_SHIFT);

/// Tag bit marking an entry as a large-object descriptor (descriptors are
/// 64-aligned, chunk bases 4 MiB-aligned, so bit 0 is free in both).
pub(crate) const TAG_LARGE: usize = 1;

/// The entry of a range a large object occupied and gave back to the OS:
/// still heap address space as far as capabilities are concerned (a stale
/// one may name it), never a chunk base (those are chunk-aligned) nor a
/// descriptor (those carry [`TAG_LARGE`]).
pub(crate) const RELEASED: usize = 2;

static TABLE: AtomicPtr<AtomicUsize> = AtomicPtr::new(core::ptr::null_mut());

/// The table, creating it on first use. `oom_size` is the user request being
/// served, reported if the reservation fails.
fn table_or_create(oom_size: usize) -> *const AtomicUsize {
    let t = TABLE.load(Ordering::Acquire);
    if !t.is_null() {
        return t;
    }
    let bytes = ENTRIES * core::mem::size_of::<AtomicUsize>();
    let Some(fresh) = os::map_noreserve(bytes) else {
        os::fatal_oom(oom_size)
    };
    let fresh = fresh.as_ptr().cast::<AtomicUsize>();
    match TABLE.compare_exchange(
        core::ptr::null_mut(),
        fresh,
        Ordering::AcqRel,
        Ordering::Acquire,
    ) {
        Ok(_) => fresh,
        Err(winner) => {
            // SAFETY: `fresh` was mapped above and never published.
            unsafe { os::unmap(fresh as usize, bytes) };
            winner
        }
    }
}

/// The entry for the region containing `addr`, or 0. Never faults: addresses
/// outside the table's range yield 0 and the table is mapped for its whole
/// length.
#[inline]
pub(crate) fn get(addr: usize) -> usize {
    let region = addr >> CHUNK_SHIFT;
    if region >= ENTRIES {
        return 0;
    }
    let t = TABLE.load(Ordering::Acquire);
    if t.is_null() {
        return 0;
    }
    // SAFETY: `region < ENTRIES` and the table maps ENTRIES words for the
    // lifetime of the process.
    unsafe { (*t.add(region)).load(Ordering::Acquire) }
}

/// Points every region overlapping `[start, start + len)` at `value`
/// (0 clears them). The caller owns those regions exclusively.
pub(crate) fn set_range(start: usize, len: usize, value: usize, oom_size: usize) {
    debug_assert!(len > 0);
    let t = table_or_create(oom_size);
    let first = start >> CHUNK_SHIFT;
    let last = (start + len - 1) >> CHUNK_SHIFT;
    debug_assert!(last < ENTRIES, "os::map_aligned keeps mappings below 2^47");
    for region in first..=last.min(ENTRIES - 1) {
        // SAFETY: `region < ENTRIES`; see `get`.
        unsafe { (*t.add(region)).store(value, Ordering::Release) };
    }
}
