//! The shared heap: per-class page lists, the free-page pool, large objects,
//! and sweeping.
//!
//! Pages a `LocalHeap` owns are in no list. Every other page with a class is
//! in its class's `avail` (has free slots) or `full` list; empty pages are in
//! the pool, split into committed-but-dirty pages (retained up to
//! `retain_bytes`, zeroed by the thread that takes one) and clean ones (fresh
//! or decommitted, zero from the OS). Membership moves only under the owning mutex, which is
//! what makes the `LocalHeap`'s unsynchronised bitmap writes safe.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use parking_lot::Mutex;

use crate::chunk::{self, PAGES_PER_CHUNK};
use crate::large::{self, LargeList};
use crate::os;
use crate::page::{PAGE_SIZE, Page, PageList, state};
use crate::size_class::{CLASSES, NUM_CLASSES};

/// Default amount of empty committed pages a heap keeps for reuse.
pub const DEFAULT_RETAIN_BYTES: usize = 4 << 20;

/// Result of [`Heap::sweep`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepStats {
    /// Slots (small and large) freed.
    pub freed_slots: usize,
    /// Bytes of the freed slots (slot sizes, mapping length for large ones).
    pub freed_bytes: usize,
    /// Bytes of surviving slots in the swept pages and large objects.
    pub live_bytes: usize,
    /// Small pages that became empty and went back to the free-page pool.
    pub pages_released: usize,
}

/// Snapshot of a heap's memory use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapStats {
    /// Small pages in use or retained, plus large-object mappings.
    pub committed_bytes: usize,
    /// Part of `committed_bytes` that is empty pages kept for reuse.
    pub retained_bytes: usize,
    /// Live large objects.
    pub large_objects: usize,
    /// Bytes mapped for large objects.
    pub large_bytes: usize,
    /// Chunks mapped (never unmapped).
    pub chunks: usize,
}

#[derive(Default)]
struct ClassLists {
    avail: PageList,
    full: PageList,
}

struct PagePool {
    /// Empty, committed, zeroed when released.
    retained: PageList,
    /// Empty, zero (fresh or decommitted).
    clean: PageList,
}

/// A segregated-fit heap. See the crate documentation.
pub struct Heap {
    classes: [Mutex<ClassLists>; NUM_CLASSES],
    pool: Mutex<PagePool>,
    large: Mutex<LargeList>,
    retain_bytes: AtomicUsize,
    committed: AtomicUsize,
    retained: AtomicUsize,
    chunks: AtomicUsize,
    large_objects: AtomicUsize,
    large_bytes: AtomicUsize,
    /// Every chunk of this heap, for `clear_marks`.
    chunk_bases: Mutex<Vec<usize>>,
    /// Bytes handed to allocators since the last `take_allocated`.
    allocated: AtomicUsize,
    /// `allocated` at which the pressure hook runs.
    trigger: AtomicUsize,
    /// Called (from allocation slow paths) once `allocated >= trigger`.
    pressure_hook: AtomicUsize,
}

/// What a heap calls when allocation since the last collection crosses its
/// trigger: the collector installs one that wakes its thread.
pub type PressureHook = fn(&'static Heap);

const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Heap>();
};

impl Heap {
    /// Creates a new, independent heap. It is leaked: heaps live as long as
    /// the process because their chunks are registered in the process-wide
    /// chunk table. Costs one small allocation; memory is mapped lazily.
    pub fn new() -> &'static Heap {
        Box::leak(Box::new(Heap {
            classes: core::array::from_fn(|_| Mutex::new(ClassLists::default())),
            pool: Mutex::new(PagePool {
                retained: PageList::new(),
                clean: PageList::new(),
            }),
            large: Mutex::new(LargeList::new()),
            retain_bytes: AtomicUsize::new(DEFAULT_RETAIN_BYTES),
            committed: AtomicUsize::new(0),
            retained: AtomicUsize::new(0),
            chunks: AtomicUsize::new(0),
            large_objects: AtomicUsize::new(0),
            large_bytes: AtomicUsize::new(0),
            chunk_bases: Mutex::new(Vec::new()),
            allocated: AtomicUsize::new(0),
            trigger: AtomicUsize::new(usize::MAX),
            pressure_hook: AtomicUsize::new(0),
        }))
    }

    /// The runtime's heap, created on first use.
    pub fn global() -> &'static Heap {
        static GLOBAL: OnceLock<&'static Heap> = OnceLock::new();
        GLOBAL.get_or_init(Heap::new)
    }

    /// Sets how many bytes of empty committed pages the heap keeps for
    /// reuse; the surplus is decommitted immediately.
    pub fn set_retain_bytes(&self, bytes: usize) {
        self.retain_bytes.store(bytes, Ordering::Relaxed);
        let mut pool = self.pool.lock();
        while self.retained.load(Ordering::Relaxed) > bytes {
            let Some(page) = pool.retained.pop() else {
                break;
            };
            self.decommit_free_page(page);
            pool.clean.push(page);
        }
    }

    /// Decommits every retained empty page.
    pub fn trim(&self) {
        let mut pool = self.pool.lock();
        while let Some(page) = pool.retained.pop() {
            self.decommit_free_page(page);
            pool.clean.push(page);
        }
    }

    pub fn stats(&self) -> HeapStats {
        HeapStats {
            committed_bytes: self.committed.load(Ordering::Relaxed),
            retained_bytes: self.retained.load(Ordering::Relaxed),
            large_objects: self.large_objects.load(Ordering::Relaxed),
            large_bytes: self.large_bytes.load(Ordering::Relaxed),
            chunks: self.chunks.load(Ordering::Relaxed),
        }
    }

    /// Frees every allocated slot whose mark bit is clear, clears all mark
    /// bits, and returns pages that became empty to the pool.
    ///
    /// Pages owned by a `LocalHeap` at the time are skipped entirely (neither
    /// freed nor unmarked): the collector flushes thread caches by handshake
    /// before sweeping, so those are only pages taken after that flush.
    ///
    /// Safe to run while other threads allocate from their own `LocalHeap`s
    /// (they get other pages) and call `lookup` (which may see stale
    /// results). Marking must not run concurrently with the sweep: a mark set
    /// during it may be cleared or may come too late to save the object.
    ///
    /// Large objects join the heap's list when allocated, not when a cache is
    /// flushed, so one allocated after marking finished is freed by the next
    /// sweep unless the caller marks it (allocates black) before that sweep.
    pub fn sweep(&self) -> SweepStats {
        let mut stats = SweepStats::default();
        for class in 0..NUM_CLASSES {
            self.sweep_class(class, &mut stats);
        }
        self.sweep_large(&mut stats);
        stats
    }

    fn sweep_class(&self, class: usize, stats: &mut SweepStats) {
        let slot_size = CLASSES[class].slot_size;
        let (mut avail, mut full) = {
            let mut lists = self.classes[class].lock();
            (lists.avail.take(), lists.full.take())
        };
        if avail.len == 0 && full.len == 0 {
            return;
        }
        // Swept pages are held here, in no list, so no LocalHeap can take
        // them mid-sweep; allocators meanwhile fall back to the pool.
        let mut keep_avail = PageList::new();
        let mut keep_full = PageList::new();
        while let Some(page) = avail.pop().or_else(|| full.pop()) {
            page.state.store(state::SWEEPING, Ordering::Relaxed);
            // SAFETY: the page was in this heap's class list, now taken out
            // under the lock, so we own it; list pages are committed and have
            // this class; the collector does not mark during sweep.
            let r = unsafe { page.sweep(class) };
            stats.freed_slots += r.freed;
            stats.freed_bytes += r.freed * slot_size;
            stats.live_bytes += r.live * slot_size;
            if r.live == 0 {
                stats.pages_released += 1;
                page.clear_class();
                self.release_empty_page(page);
            } else if page.has_free(class) {
                keep_avail.push(page);
            } else {
                keep_full.push(page);
            }
        }
        let mut lists = self.classes[class].lock();
        while let Some(page) = keep_avail.pop() {
            page.state.store(state::LISTED, Ordering::Relaxed);
            lists.avail.push(page);
        }
        while let Some(page) = keep_full.pop() {
            page.state.store(state::LISTED, Ordering::Relaxed);
            lists.full.push(page);
        }
    }

    fn sweep_large(&self, stats: &mut SweepStats) {
        let mut list = self.large.lock();
        let mut keep = LargeList::new();
        while let Some(d) = list.pop() {
            let size = d.size.load(Ordering::Relaxed);
            if d.mark.swap(false, Ordering::Relaxed) {
                stats.live_bytes += size;
                keep.push(d);
            } else {
                // SAFETY: unmarked means unreachable, and `d` is now out of
                // the heap's list.
                let len = unsafe { large::free(d) };
                stats.freed_slots += 1;
                stats.freed_bytes += len;
                self.committed.fetch_sub(len, Ordering::Relaxed);
                self.large_bytes.fetch_sub(len, Ordering::Relaxed);
                self.large_objects.fetch_sub(1, Ordering::Relaxed);
            }
        }
        *list = keep;
    }

    /// Puts an empty page (class already cleared) into the pool, keeping it
    /// committed if under the retention limit.
    fn release_empty_page(&self, page: &'static Page) {
        page.state.store(state::FREE, Ordering::Relaxed);
        let mut pool = self.pool.lock();
        let limit = self.retain_bytes.load(Ordering::Relaxed);
        if self.retained.load(Ordering::Relaxed) + PAGE_SIZE <= limit {
            // Zeroed by the thread that takes it ([`Page`]'s `stale`): not
            // here, on the collector's core.
            page.stale.store(1, Ordering::Relaxed);
            self.retained.fetch_add(PAGE_SIZE, Ordering::Relaxed);
            pool.retained.push(page);
        } else {
            // SAFETY: the page is empty, in no list, and owned by us.
            unsafe { os::decommit(page.start(), PAGE_SIZE) };
            page.forget_dirt();
            self.committed.fetch_sub(PAGE_SIZE, Ordering::Relaxed);
            pool.clean.push(page);
        }
    }

    /// Decommits a page just popped from the retained list (pool locked).
    fn decommit_free_page(&self, page: &'static Page) {
        // SAFETY: pages in the pool are empty and owned by the pool, whose
        // lock the caller holds.
        unsafe { os::decommit(page.start(), PAGE_SIZE) };
        page.forget_dirt();
        self.retained.fetch_sub(PAGE_SIZE, Ordering::Relaxed);
        self.committed.fetch_sub(PAGE_SIZE, Ordering::Relaxed);
    }

    /// Hands a page with free slots of `class` to a `LocalHeap`: a partially
    /// used page of the class, else an empty page from the pool (retained
    /// committed ones first), else a page of a new chunk.
    pub(crate) fn acquire_page(&self, class: usize, oom_size: usize) -> &'static Page {
        if let Some(page) = self.classes[class].lock().avail.pop() {
            page.state.store(state::OWNED, Ordering::Relaxed);
            return page;
        }
        // Retained pages are zeroed here, by the allocating thread; clean
        // ones are zero from the OS.
        let page = self.take_empty_page(oom_size);
        if page.stale.load(Ordering::Relaxed) != 0 {
            // SAFETY: the page is empty, committed (retained) and ours: it
            // is in no list and not yet handed out.
            unsafe { page.zero() };
        }
        page.set_class(class);
        page.state.store(state::OWNED, Ordering::Relaxed);
        page
    }

    fn take_empty_page(&self, oom_size: usize) -> &'static Page {
        let mut pool = self.pool.lock();
        if let Some(page) = pool.retained.pop() {
            self.retained.fetch_sub(PAGE_SIZE, Ordering::Relaxed);
            return page;
        }
        self.committed.fetch_add(PAGE_SIZE, Ordering::Relaxed);
        if let Some(page) = pool.clean.pop() {
            return page;
        }
        let base = chunk::new_chunk(self as *const Heap as usize, oom_size);
        self.chunks.fetch_add(1, Ordering::Relaxed);
        self.chunk_bases.lock().push(base);
        // Pushed in reverse so pages are handed out in address order.
        for index in (2..PAGES_PER_CHUNK).rev() {
            // SAFETY: `base` is a fresh chunk and `index` is in range.
            pool.clean.push(unsafe { chunk::page_of(base, index) });
        }
        // SAFETY: as above.
        unsafe { chunk::page_of(base, 1) }
    }

    /// Takes back a page from a `LocalHeap`.
    pub(crate) fn release_page(&self, page: &'static Page, class: usize) {
        let has_free = page.has_free(class);
        let mut lists = self.classes[class].lock();
        page.state.store(state::LISTED, Ordering::Relaxed);
        if has_free {
            lists.avail.push(page);
        } else {
            lists.full.push(page);
        }
    }

    pub(crate) fn alloc_large(&'static self, size: usize) -> NonNull<u8> {
        self.alloc_large_stamped(size).0
    }

    /// A large object, and the marking epoch it was allocated black in (or
    /// 0).
    pub(crate) fn alloc_large_stamped(&'static self, size: usize) -> (NonNull<u8>, u8) {
        let (d, ptr) = large::alloc(size);
        let len = d.size.load(Ordering::Relaxed);
        self.note_allocation(len);
        self.committed.fetch_add(len, Ordering::Relaxed);
        self.large_bytes.fetch_add(len, Ordering::Relaxed);
        self.large_objects.fetch_add(1, Ordering::Relaxed);
        // A large object is in the swept list from birth, unlike a small
        // slot (safe in its owned page): allocated black, it must be marked
        // before a concurrent sweep can see it.
        let epoch = crate::local::black_epoch();
        if epoch != 0 {
            d.mark.store(true, Ordering::Release);
        }
        self.large.lock().push(d);
        (ptr, epoch)
    }

    /// Clears every mark bit of the heap (small pages and large objects), so
    /// a collection starts from all-white. Must not run concurrently with
    /// `sweep` or with marking; black allocation racing it only makes a new
    /// object white, which marking then finds through the roots.
    pub fn clear_marks(&self) {
        let bases = self.chunk_bases.lock().clone();
        for base in bases {
            for index in 1..PAGES_PER_CHUNK {
                // SAFETY: `base` is a chunk of this heap and index in range.
                let page = unsafe { chunk::page_of(base, index) };
                for w in &page.mark {
                    if w.load(Ordering::Relaxed) != 0 {
                        w.store(0, Ordering::Relaxed);
                    }
                }
            }
        }
        self.large
            .lock()
            .for_each(|d| d.mark.store(false, Ordering::Relaxed));
    }

    /// Counts `bytes` as allocated and runs the pressure hook if the total
    /// since the last [`Heap::take_allocated`] reached the trigger.
    #[inline]
    pub(crate) fn note_allocation(&'static self, bytes: usize) {
        let total = self.allocated.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if total >= self.trigger.load(Ordering::Relaxed) {
            let hook = self.pressure_hook.load(Ordering::Acquire);
            if hook != 0 {
                // SAFETY: only `set_pressure_hook` stores here, always a
                // `PressureHook`.
                let hook: PressureHook =
                    unsafe { core::mem::transmute::<usize, PressureHook>(hook) };
                hook(self);
            }
        }
    }

    /// Bytes handed out since the last call (counted when allocation caches
    /// refill, so up to 64 slots ahead of the program), and restarts the count.
    pub fn take_allocated(&self) -> usize {
        self.allocated.swap(0, Ordering::Relaxed)
    }

    /// Bytes handed out since the last [`Heap::take_allocated`].
    pub fn allocated(&self) -> usize {
        self.allocated.load(Ordering::Relaxed)
    }

    /// Sets the allocation volume at which the pressure hook runs.
    pub fn set_trigger(&self, bytes: usize) {
        self.trigger.store(bytes, Ordering::Relaxed);
    }

    /// Installs (or with `None` removes) the pressure hook.
    pub fn set_pressure_hook(&self, hook: Option<PressureHook>) {
        self.pressure_hook
            .store(hook.map_or(0, |h| h as usize), Ordering::Release);
    }
}
