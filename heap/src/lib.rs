//! gimso heap: a non-moving, segregated-fit allocator for a garbage-collected
//! runtime.
//!
//! Slots (16-byte aligned, zeroed) are handed out by a per-thread
//! [`LocalHeap`] and never freed on request: [`Heap::sweep`] reclaims every
//! allocated slot whose mark bit ([`mark`]) is clear. The heap does not
//! interpret slot contents; the layer above writes a 16-byte capability
//! header at each slot start, and slot sizes include it.
//!
//! Layers, bottom up (mimalloc style):
//! - [`os`]: mmap/munmap/madvise, and [`fatal_oom`].
//! - `chunk_table`: process-wide, lock-free map from 4 MiB regions to chunks
//!   and large objects, backing [`lookup`].
//! - [`size_class`]: classes and per-class geometry (reciprocal division).
//! - `page`: 64 KiB pages with allocation and mark bitmaps.
//! - `chunk`: 4 MiB aligned chunks; page 0 holds the page descriptors.
//! - `large`: objects above 16 400 bytes, one mapping each.
//! - `local`: the per-thread cache and allocation fast path.
//! - `heap`: shared page lists, free-page pool, sweep, returning memory.

mod chunk;
mod chunk_table;
pub mod foreign;
mod heap;
mod large;
mod local;
pub mod os;
mod page;
pub mod size_class;

use core::ptr::NonNull;
use core::sync::atomic::Ordering;

pub use chunk::{CHUNK_SIZE, PAGES_PER_CHUNK};
pub use heap::{DEFAULT_RETAIN_BYTES, Heap, HeapStats, PressureHook, SweepStats};
pub use large::MAX_ALLOC_SIZE;
pub use local::{LocalHeap, allocating_black, set_allocate_black};
pub use os::fatal_oom;
pub use page::PAGE_SIZE;
pub use size_class::{
    HEADER_SIZE, MAX_SMALL_SLOT, MIN_SLOT_SIZE, NUM_CLASSES, class_slot_size, size_class_of,
};

use chunk::CHUNK_SHIFT;
use chunk_table::TAG_LARGE;
use large::LargeDesc;
use page::{PAGE_SHIFT, Page};
use size_class::CLASSES;

/// An allocated slot: where it starts and how many bytes it spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub start: NonNull<u8>,
    pub size: usize,
}

// SAFETY: `Slot` is plain data describing an address range; it grants no
// access by itself.
unsafe impl Send for Slot {}
// SAFETY: as above.
unsafe impl Sync for Slot {}

/// Where an address points, as far as the chunk table knows.
#[derive(Clone, Copy)]
enum Target {
    Small {
        page: &'static Page,
        class: usize,
        index: usize,
        start: usize,
    },
    Large(&'static LargeDesc),
}

/// Resolves `addr` to the slot position it falls in, without checking the
/// allocation bit. Lock-free and never faults: it reads only the chunk
/// table, chunk metadata pages and large descriptors, all never unmapped.
#[inline]
fn resolve(addr: usize) -> Option<Target> {
    let entry = chunk_table::get(addr);
    if entry == 0 || entry == chunk_table::RELEASED {
        return None;
    }
    if entry & TAG_LARGE != 0 {
        // SAFETY: large entries point at descriptors in never-unmapped slabs.
        let d = unsafe { &*((entry & !TAG_LARGE) as *const LargeDesc) };
        return Some(Target::Large(d));
    }
    let chunk = entry;
    let offset = addr.wrapping_sub(chunk);
    let page_index = offset >> PAGE_SHIFT;
    if page_index == 0 || page_index >= PAGES_PER_CHUNK {
        return None;
    }
    // SAFETY: untagged non-zero entries are chunk bases (chunks are never
    // unmapped) and `page_index` is in range.
    let page = unsafe { chunk::page_of(chunk, page_index) };
    let class = page.class()?;
    let info = CLASSES.get(class)?;
    let index = info.index_of(offset & (PAGE_SIZE - 1));
    if index >= info.slots {
        return None;
    }
    let start = chunk + (page_index << PAGE_SHIFT) + index * info.slot_size;
    Some(Target::Small {
        page,
        class,
        index,
        start,
    })
}

const _: () = assert!(CHUNK_SIZE == 1 << CHUNK_SHIFT);

/// The extent of the large object `d` if it is live and contains `addr`.
#[inline]
fn large_extent(d: &LargeDesc, addr: usize) -> Option<(usize, usize)> {
    let start = d.start.load(Ordering::Acquire);
    let size = d.size.load(Ordering::Acquire);
    (start != 0 && addr >= start && addr - start < size).then_some((start, size))
}

/// Marks a large object; true if this call marked it.
#[inline]
fn mark_large(d: &LargeDesc) -> bool {
    !d.mark.load(Ordering::Relaxed) && !d.mark.swap(true, Ordering::AcqRel)
}

/// The allocated slot containing `addr`, with where `resolve` found it.
#[inline]
fn allocated(addr: usize) -> Option<(Target, Slot)> {
    let target = resolve(addr)?;
    let (start, size) = match target {
        Target::Small {
            page,
            class,
            index,
            start,
        } => {
            let word = page.alloc[index / 64].load(Ordering::Acquire);
            if word & (1u64 << (index % 64)) == 0 {
                return None;
            }
            (start, CLASSES[class].slot_size)
        }
        Target::Large(d) => large_extent(d, addr)?,
    };
    Some((
        target,
        Slot {
            start: NonNull::new(start as *mut u8)?,
            size,
        },
    ))
}

/// Sets the mark of the slot `target` designates; true if this call did.
#[inline]
fn mark_target(target: Target) -> bool {
    match target {
        Target::Small { page, index, .. } => {
            let w = index / 64;
            let bit = 1u64 << (index % 64);
            // Test first: an object already marked costs no atomic RMW.
            page.mark[w].load(Ordering::Relaxed) & bit == 0
                && page.mark[w].fetch_or(bit, Ordering::AcqRel) & bit == 0
        }
        Target::Large(d) => mark_large(d),
    }
}

/// What the heap knows of an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residence {
    /// Inside this allocated slot.
    Allocated(Slot),
    /// Heap address space, but in no allocated slot (a reclaimed object's).
    Unallocated,
    /// Not heap memory (a global, the runtime's statics, a stack).
    Outside,
}

/// Where `addr` lives: in an allocated slot, in heap space no object holds,
/// or outside the heap (an object registered in [`foreign`] counts as
/// outside wherever it lies). Never faults (as [`lookup`]).
pub fn residence(addr: usize) -> Residence {
    let entry = chunk_table::get(addr);
    if entry == 0 {
        return Residence::Outside;
    }
    match allocated(addr) {
        Some((_, slot)) => Residence::Allocated(slot),
        None if foreign::contains(addr) => Residence::Outside,
        None => Residence::Unallocated,
    }
}

/// The allocated slot containing `addr` (any address from its start to its
/// last byte), or `None`. Lock-free, O(1), and safe for any input and
/// concurrently with allocation and sweeping on other threads; the answer may
/// be stale if the slot is being allocated or freed meanwhile.
pub fn lookup(addr: usize) -> Option<Slot> {
    allocated(addr).map(|(_, slot)| slot)
}

/// Marks the allocated slot containing `addr` (any address inside it) in one
/// lookup: returns the slot and whether this call marked it, or `None` if no
/// allocated slot contains `addr`. For the collector's tracing, which knows
/// exact object addresses and must not pay for two lookups.
pub fn mark_containing(addr: usize) -> Option<(Slot, bool)> {
    let (target, slot) = allocated(addr)?;
    Some((slot, mark_target(target)))
}

/// Like [`mark_containing`] for an address inside a slot known to be
/// allocated (the header of an object a capability refers to): skips the
/// allocation-bit check, one cache line fewer on the barrier's slow path and
/// per traced reference. Returns whether this call marked it, or `None`
/// outside the heap.
#[inline]
pub fn mark_allocated(addr: usize) -> Option<bool> {
    let target = resolve(addr)?;
    if let Target::Large(d) = target {
        large_extent(d, addr)?;
    }
    Some(mark_target(target))
}

/// Atomically sets the mark bit of the slot at `slot_start`; returns `true`
/// if it was not set before. Returns `false` for addresses that are not in
/// the heap.
///
/// # Safety
/// `slot_start` must be the start of a slot returned by [`lookup`] or
/// [`LocalHeap::alloc`] that has not been swept since. Violations cannot
/// corrupt memory outside the heap's metadata, but may keep an unrelated
/// slot alive for a cycle.
pub unsafe fn mark(slot_start: NonNull<u8>) -> bool {
    match resolve(slot_start.as_ptr() as usize) {
        Some(Target::Small { page, index, .. }) => {
            let bit = 1u64 << (index % 64);
            page.mark[index / 64].fetch_or(bit, Ordering::AcqRel) & bit == 0
        }
        Some(Target::Large(d)) => {
            // A stale descriptor (object freed, descriptor recycled) must
            // not have its mark set on behalf of an unrelated address.
            d.start.load(Ordering::Acquire) == slot_start.as_ptr() as usize
                && !d.mark.swap(true, Ordering::AcqRel)
        }
        None => false,
    }
}

/// Whether the slot at `slot_start` is marked.
///
/// # Safety
/// Same contract as [`mark`].
pub unsafe fn is_marked(slot_start: NonNull<u8>) -> bool {
    match resolve(slot_start.as_ptr() as usize) {
        Some(Target::Small { page, index, .. }) => {
            page.mark[index / 64].load(Ordering::Acquire) & (1u64 << (index % 64)) != 0
        }
        Some(Target::Large(d)) => d.mark.load(Ordering::Acquire),
        None => false,
    }
}

/// Smallest payload whose pages [`discard_freed_payload`] gives back: below
/// it the `madvise` costs more than holding the pages until the sweep.
pub const DISCARD_MIN: usize = 64 * 1024;

/// Gives the physical pages of a freed large object's payload back to the OS
/// at once, rather than when the collector reclaims the object. A freed
/// object stays allocated while anything may still refer to it, and a stale
/// copy of its address left in a dead stack slot (which the conservative
/// stack scan cannot tell from a live one) can hold it for cycles: this way
/// it holds a header page, not the whole buffer. Small objects and payloads
/// under [`DISCARD_MIN`] are left alone; pages the header shares are kept.
///
/// # Safety
/// `[lower, upper)` must be the payload of a heap object that has just been
/// freed: no checked access can reach its bytes any more, and the caller
/// holds a capability to it (so it is not reclaimed meanwhile). An access
/// racing with the free may read zeroes, never another object's bytes: the
/// slot is not reused until the collector reclaims it.
#[inline]
pub unsafe fn discard_freed_payload(lower: usize, upper: usize) {
    // Inline so that every `free` of a small object pays only this test.
    if upper.saturating_sub(lower) >= DISCARD_MIN {
        // SAFETY: the caller's contract.
        unsafe { discard_large_payload(lower, upper) }
    }
}

/// [`discard_freed_payload`] for a payload of at least `DISCARD_MIN` bytes.
///
/// # Safety
/// As [`discard_freed_payload`].
#[cold]
#[inline(never)]
unsafe fn discard_large_payload(lower: usize, upper: usize) {
    let Some(Target::Large(d)) = resolve(lower) else {
        return;
    };
    let Some((start, size)) = large_extent(d, lower) else {
        return;
    };
    let from = lower.next_multiple_of(os::OS_PAGE);
    let to = upper.min(start + size) & !(os::OS_PAGE - 1);
    if to > from {
        // SAFETY: [from, to) is page-aligned, inside the large object's own
        // mapping, and holds only the payload of a freed object (the caller's
        // contract), which nothing may read as data any more.
        unsafe { os::decommit(from, to - from) };
    }
}

/// Whether the slot containing `addr` is marked, from the mark bitmaps and
/// large descriptors alone: no object header is read. For the collector's
/// tracing, which needs nothing more of a reference to an object it has
/// already marked, and whose cost is the cache miss on each target's
/// header. False outside the heap; never faults (as [`lookup`]). During
/// marking a marked slot is allocated (nothing is swept until marking ends).
#[inline]
pub fn marked_at(addr: usize) -> bool {
    match resolve(addr) {
        Some(Target::Small { page, index, .. }) => {
            page.mark[index / 64].load(Ordering::Relaxed) & (1u64 << (index % 64)) != 0
        }
        Some(Target::Large(d)) => large_extent(d, addr).is_some() && d.mark.load(Ordering::Relaxed),
        None => false,
    }
}
