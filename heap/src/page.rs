//! Page descriptors: the bitmaps and ownership state of one 64 KiB page.
//!
//! Descriptors live in page 0 of their chunk, which is never decommitted or
//! unmapped, so `lookup` can read them at any time without faulting. All
//! fields are atomics and the all-zero pattern is a valid "free, no class"
//! descriptor, so fresh chunk metadata needs no initialisation.
//!
//! Who writes what:
//! - `alloc` bits: only the page's current owner — the `LocalHeap` that owns
//!   it, or the heap while it holds the page outside every list (sweep,
//!   acquisition). Ownership moves through a mutex, so plain relaxed
//!   load/store suffices and the allocation fast path needs no RMW.
//! - `mark` bits: the collector via `fetch_or` (any thread); cleared by sweep.
//! - `dirty` bits: set by sweep for the slots it frees, cleared by the owner
//!   as it zeroes a slot it hands out. Freed memory is zeroed by the thread
//!   that reuses it, not by the collector: memory the collector's core wrote
//!   would have to travel back to the allocating core, a miss per line that
//!   costs more than the zeroing (Lua's table churn spent a quarter of its
//!   allocation-heavy loops on it).
//! - `stale`: an empty page whose memory was not zeroed; its next owner
//!   zeroes it whole.
//! - `class_tag`: set by the heap when the page gets a class, cleared when
//!   it becomes empty; read by `lookup`.

use core::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, Ordering};

use crate::chunk;
use crate::size_class::{CLASSES, MIN_SLOT_SIZE};

/// Bytes per page.
pub const PAGE_SIZE: usize = 64 * 1024;
/// `log2(PAGE_SIZE)`.
pub const PAGE_SHIFT: u32 = 16;
/// Bitmap words per page: enough for the smallest class.
pub(crate) const BITMAP_WORDS: usize = 32;

const _: () = assert!(1 << PAGE_SHIFT == PAGE_SIZE);
const _: () = assert!(BITMAP_WORDS * 64 >= PAGE_SIZE / MIN_SLOT_SIZE);

/// Ownership states, kept for assertions and diagnostics: list membership is
/// what actually grants access.
pub(crate) mod state {
    /// In the free-page pool (or never used).
    pub(crate) const FREE: u32 = 0;
    /// Owned by a `LocalHeap`; sweep never sees it.
    pub(crate) const OWNED: u32 = 1;
    /// In a per-class list of the heap.
    pub(crate) const LISTED: u32 = 2;
    /// Taken out of its list by a sweep in progress.
    pub(crate) const SWEEPING: u32 = 3;
}

#[repr(C, align(64))]
pub(crate) struct Page {
    pub(crate) alloc: [AtomicU64; BITMAP_WORDS],
    pub(crate) mark: [AtomicU64; BITMAP_WORDS],
    /// Free slots whose memory still holds a dead object's bytes.
    pub(crate) dirty: [AtomicU64; BITMAP_WORDS],
    /// 0: no class (free page); otherwise class + 1.
    class_tag: AtomicU32,
    pub(crate) state: AtomicU32,
    /// Intrusive link for the heap's page lists (protected by their mutex).
    pub(crate) next: AtomicPtr<Page>,
    /// 1: an empty page whose memory is not zero (see the module comment).
    pub(crate) stale: AtomicU32,
}

/// What sweeping one page found.
pub(crate) struct PageSweep {
    pub(crate) freed: usize,
    pub(crate) live: usize,
}

impl Page {
    /// Address of the first byte of the page this descriptor describes.
    #[inline]
    pub(crate) fn start(&self) -> usize {
        chunk::page_start_of(self)
    }

    #[inline]
    pub(crate) fn class(&self) -> Option<usize> {
        match self.class_tag.load(Ordering::Acquire) {
            0 => None,
            t => Some(t as usize - 1),
        }
    }

    /// Gives a free page its class. The caller owns the page.
    pub(crate) fn set_class(&self, class: usize) {
        self.class_tag.store(class as u32 + 1, Ordering::Release);
    }

    /// Marks an empty page as classless so `lookup` stops early.
    pub(crate) fn clear_class(&self) {
        self.class_tag.store(0, Ordering::Release);
    }

    /// Free slots in bitmap word `w`. Only meaningful to the page's owner.
    #[inline]
    pub(crate) fn free_mask(&self, class: usize, w: usize) -> u64 {
        !self.alloc[w].load(Ordering::Relaxed) & CLASSES[class].word_mask(w)
    }

    pub(crate) fn has_free(&self, class: usize) -> bool {
        (0..CLASSES[class].words).any(|w| self.free_mask(class, w) != 0)
    }

    /// Frees every allocated, unmarked slot and clears all mark bits.
    /// Freed slots are only marked dirty: whoever hands one out again
    /// zeroes it (an empty page is zeroed whole by its next owner, or
    /// decommitted).
    ///
    /// # Safety
    /// The caller must own the page exclusively (it is in no list and not
    /// owned by a `LocalHeap`), the page must be committed with class
    /// `class`, and no thread may be marking concurrently.
    pub(crate) unsafe fn sweep(&self, class: usize) -> PageSweep {
        let info = &CLASSES[class];
        let mut dead = [0u64; BITMAP_WORDS];
        let mut freed = 0;
        let mut live = 0;
        for (w, dead_w) in dead.iter_mut().enumerate().take(info.words) {
            let a = self.alloc[w].load(Ordering::Relaxed);
            let m = self.mark[w].load(Ordering::Relaxed);
            if m != 0 {
                self.mark[w].store(0, Ordering::Relaxed);
            }
            let d = a & !m;
            if d != 0 {
                self.alloc[w].store(a & m, Ordering::Relaxed);
            }
            *dead_w = d;
            freed += d.count_ones() as usize;
            live += (a & m).count_ones() as usize;
        }
        if live != 0 && freed != 0 {
            for (w, &d) in dead.iter().enumerate().take(info.words) {
                if d != 0 {
                    self.dirty[w].fetch_or(d, Ordering::Relaxed);
                }
            }
        }
        PageSweep { freed, live }
    }

    /// Zeroes the whole page before a retained page is reused.
    ///
    /// # Safety
    /// The caller must own the page exclusively and it must be committed.
    pub(crate) unsafe fn zero(&self) {
        // SAFETY: the page's 64 KiB are mapped read-write (chunks are never
        // unmapped) and the caller owns them.
        unsafe { core::ptr::write_bytes(self.start() as *mut u8, 0, PAGE_SIZE) };
        self.forget_dirt();
    }

    /// Records that the page's memory is all zero (zeroed or decommitted).
    pub(crate) fn forget_dirt(&self) {
        for d in &self.dirty {
            d.store(0, Ordering::Relaxed);
        }
        self.stale.store(0, Ordering::Relaxed);
    }
}

/// A singly linked list of pages through `Page::next`, used under a mutex.
#[derive(Default)]
pub(crate) struct PageList {
    head: Option<&'static Page>,
    pub(crate) len: usize,
}

impl PageList {
    pub(crate) const fn new() -> Self {
        PageList { head: None, len: 0 }
    }

    pub(crate) fn push(&mut self, page: &'static Page) {
        let next = self
            .head
            .map_or(core::ptr::null_mut(), |p| p as *const Page as *mut Page);
        page.next.store(next, Ordering::Relaxed);
        self.head = Some(page);
        self.len += 1;
    }

    pub(crate) fn pop(&mut self) -> Option<&'static Page> {
        let page = self.head?;
        let next = page.next.load(Ordering::Relaxed);
        // SAFETY: list links only ever point at page descriptors, which live
        // in never-unmapped chunk metadata.
        self.head = unsafe { next.as_ref() };
        self.len -= 1;
        Some(page)
    }

    pub(crate) fn take(&mut self) -> PageList {
        core::mem::take(self)
    }
}
