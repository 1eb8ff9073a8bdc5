//! Chunks: 4 MiB, 4 MiB-aligned mappings of 64 pages. Page 0 holds the chunk
//! header and the descriptors of all pages; pages 1..63 hold slots.
//!
//! Chunks are never unmapped, so a chunk-table entry, once set, stays valid
//! and `lookup` may read descriptors without synchronising with anyone.
//! Empty pages inside are decommitted instead.

use core::sync::atomic::{AtomicUsize, Ordering};

use crate::chunk_table;
use crate::os;
use crate::page::{PAGE_SIZE, Page};

/// Bytes per chunk.
pub const CHUNK_SIZE: usize = 4 << 20;
/// `log2(CHUNK_SIZE)`.
pub const CHUNK_SHIFT: u32 = 22;
/// Pages per chunk, including the metadata page 0.
pub const PAGES_PER_CHUNK: usize = CHUNK_SIZE / PAGE_SIZE;
/// Offset of the page-descriptor array within the chunk.
const DESCRIPTORS_OFFSET: usize = 64;

#[repr(C, align(64))]
struct ChunkHeader {
    /// Address of the owning `Heap`, for diagnostics.
    heap: AtomicUsize,
}

const _: () = assert!(1 << CHUNK_SHIFT == CHUNK_SIZE);
const _: () = assert!(core::mem::size_of::<ChunkHeader>() <= DESCRIPTORS_OFFSET);
const _: () = assert!(DESCRIPTORS_OFFSET & (core::mem::align_of::<Page>() - 1) == 0);
const _: () =
    assert!(DESCRIPTORS_OFFSET + PAGES_PER_CHUNK * core::mem::size_of::<Page>() <= PAGE_SIZE);

/// Descriptor of page `index` of the chunk at `chunk`.
///
/// # Safety
/// `chunk` must be the base of a chunk created by [`new_chunk`] (chunk-table
/// entries without the large tag are exactly those) and `index` must be below
/// [`PAGES_PER_CHUNK`].
#[inline]
pub(crate) unsafe fn page_of(chunk: usize, index: usize) -> &'static Page {
    debug_assert!(index < PAGES_PER_CHUNK);
    let addr = chunk + DESCRIPTORS_OFFSET + index * core::mem::size_of::<Page>();
    // SAFETY: page 0 of a chunk stays mapped read-write forever and zeroed
    // memory is a valid `Page` (all fields are atomics); the caller
    // guarantees the address lies in that descriptor array.
    unsafe { &*(addr as *const Page) }
}

/// Start address of the page a descriptor describes.
#[inline]
pub(crate) fn page_start_of(page: &Page) -> usize {
    let addr = page as *const Page as usize;
    let chunk = addr & !(CHUNK_SIZE - 1);
    let index = (addr - chunk - DESCRIPTORS_OFFSET) / core::mem::size_of::<Page>();
    chunk + index * PAGE_SIZE
}

/// Maps a fresh chunk for `heap`, registers it in the chunk table, and
/// returns its base. `oom_size` is reported if the mapping fails.
pub(crate) fn new_chunk(heap: usize, oom_size: usize) -> usize {
    let Some(base) = os::map_aligned(CHUNK_SIZE, CHUNK_SIZE) else {
        os::fatal_oom(oom_size)
    };
    let base = base.as_ptr() as usize;
    // SAFETY: the header sits at the start of the fresh, zeroed, read-write
    // chunk; zeroed memory is a valid `ChunkHeader`.
    let header = unsafe { &*(base as *const ChunkHeader) };
    header.heap.store(heap, Ordering::Relaxed);
    chunk_table::set_range(base, CHUNK_SIZE, base, oom_size);
    base
}
