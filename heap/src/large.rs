//! Large objects: requests above the largest size class get their own
//! mapping, 4 MiB-aligned so that chunk-table entries can point at them, and
//! rounded up to 4 KiB. The slot starts at the mapping start.
//!
//! Descriptors live in a process-wide pool of never-unmapped slabs, not in
//! the mapping: `lookup` may read a descriptor while another thread unmaps
//! the object, and must not fault. A recycled descriptor only makes such a
//! lookup stale.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

use parking_lot::Mutex;

use crate::chunk::CHUNK_SIZE;
use crate::chunk_table::{self, TAG_LARGE};
use crate::os;

/// Largest request served at all; anything above is reported as out of
/// memory without asking the OS.
pub const MAX_ALLOC_SIZE: usize = 1 << 46;

#[repr(C, align(64))]
pub(crate) struct LargeDesc {
    /// Slot start; 0 while the descriptor is unused.
    pub(crate) start: AtomicUsize,
    /// Slot size = mapping length.
    pub(crate) size: AtomicUsize,
    pub(crate) mark: AtomicBool,
    /// Link for the owning heap's list or the free pool (under their mutex).
    next: AtomicPtr<LargeDesc>,
}

const _: () = assert!(core::mem::align_of::<LargeDesc>() > TAG_LARGE);

/// A singly linked list of descriptors, used under a mutex.
#[derive(Default)]
pub(crate) struct LargeList {
    head: Option<&'static LargeDesc>,
}

impl LargeList {
    pub(crate) const fn new() -> Self {
        LargeList { head: None }
    }

    pub(crate) fn push(&mut self, d: &'static LargeDesc) {
        let next = self
            .head
            .map_or(core::ptr::null_mut(), |p| p as *const _ as *mut _);
        d.next.store(next, Ordering::Relaxed);
        self.head = Some(d);
    }

    /// Calls `f` on every descriptor in the list.
    pub(crate) fn for_each(&self, mut f: impl FnMut(&'static LargeDesc)) {
        let mut cur = self.head;
        while let Some(d) = cur {
            f(d);
            // SAFETY: links only point at descriptors in never-unmapped slabs.
            cur = unsafe { d.next.load(Ordering::Relaxed).as_ref() };
        }
    }

    pub(crate) fn pop(&mut self) -> Option<&'static LargeDesc> {
        let d = self.head?;
        // SAFETY: links only point at descriptors in never-unmapped slabs.
        self.head = unsafe { d.next.load(Ordering::Relaxed).as_ref() };
        Some(d)
    }
}

static FREE_DESCS: Mutex<LargeList> = Mutex::new(LargeList::new());

const SLAB_SIZE: usize = 64 * 1024;

fn alloc_desc(oom_size: usize) -> &'static LargeDesc {
    let mut free = FREE_DESCS.lock();
    if let Some(d) = free.pop() {
        return d;
    }
    let Some(slab) = os::map_aligned(SLAB_SIZE, os::OS_PAGE) else {
        os::fatal_oom(oom_size)
    };
    let base = slab.as_ptr() as usize;
    let n = SLAB_SIZE / core::mem::size_of::<LargeDesc>();
    for i in 1..n {
        // SAFETY: the slab is fresh, zeroed, never unmapped, and suitably
        // aligned; zeroed memory is a valid `LargeDesc`.
        free.push(unsafe {
            &*((base + i * core::mem::size_of::<LargeDesc>()) as *const LargeDesc)
        });
    }
    // SAFETY: as above, for slot 0 of the slab.
    unsafe { &*(base as *const LargeDesc) }
}

/// Maps a large object of at least `size` bytes and publishes it in the
/// chunk table. Exits via `fatal_oom(size)` on failure.
pub(crate) fn alloc(size: usize) -> (&'static LargeDesc, NonNull<u8>) {
    if size > MAX_ALLOC_SIZE {
        os::fatal_oom(size);
    }
    let len = size.next_multiple_of(os::OS_PAGE);
    let Some(ptr) = os::map_aligned(len, CHUNK_SIZE) else {
        os::fatal_oom(size)
    };
    let start = ptr.as_ptr() as usize;
    let d = alloc_desc(size);
    d.mark.store(false, Ordering::Relaxed);
    d.size.store(len, Ordering::Relaxed);
    d.start.store(start, Ordering::Release);
    chunk_table::set_range(start, len, d as *const LargeDesc as usize | TAG_LARGE, size);
    (d, ptr)
}

/// Unpublishes and unmaps a large object and recycles its descriptor.
/// Returns the mapping length.
///
/// # Safety
/// `d` must describe a live large object that is unreachable and removed
/// from its heap's list, so that nobody but racing `lookup`s can see it.
pub(crate) unsafe fn free(d: &'static LargeDesc) -> usize {
    let start = d.start.load(Ordering::Relaxed);
    let len = d.size.load(Ordering::Relaxed);
    // Mark the range released before unmapping, so a mapping that later
    // reuses the range can register itself without being overwritten, and
    // a stale capability into it is known for a dead heap object rather
    // than taken for a global.
    chunk_table::set_range(start, len, chunk_table::RELEASED, 0);
    d.start.store(0, Ordering::Release);
    d.mark.store(false, Ordering::Relaxed);
    // SAFETY: the caller guarantees the object is dead; lookups never touch
    // the mapping itself, only the descriptor.
    unsafe { os::unmap(start, len) };
    FREE_DESCS.lock().push(d);
    len
}
