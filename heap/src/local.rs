//! The per-thread allocation cache.
//!
//! A `LocalHeap` owns at most one page per class. While it owns a page it is
//! the only writer of that page's allocation bits (sweep skips owned pages,
//! and ownership is handed over under the heap's mutexes), so the fast path
//! sets a bit with a relaxed load and store: no read-modify-write, no lock,
//! no TLS lookup (the runtime passes the cache explicitly).

use core::cell::Cell;
use core::marker::PhantomData;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU64, Ordering};

use crate::heap::Heap;
use crate::page::{PAGE_SIZE, Page};
use crate::size_class::{CLASSES, NUM_CLASSES, size_class_of};

/// Whether new slots are allocated marked ("black"), as a collection in
/// progress needs: 0 when not, else `generation << 8 | epoch`, a value
/// never used twice (see [`set_allocate_black`]). Read on every cache
/// refill and by [`LocalHeap::alloc_stamped`].
static ALLOCATE_BLACK: BlackFlag = BlackFlag(AtomicU64::new(0));

/// Number of times black allocation was turned on.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Read on every cache refill: kept off cache lines others write.
#[repr(align(128))]
struct BlackFlag(AtomicU64);

impl core::ops::Deref for BlackFlag {
    type Target = AtomicU64;
    fn deref(&self) -> &AtomicU64 {
        &self.0
    }
}

/// Turns black allocation on (`epoch` non-zero: the collector's marking
/// epoch, which [`LocalHeap::alloc_stamped`] hands back with each black
/// slot) or off (`epoch == 0`) for every `LocalHeap` of the process. Only
/// the collector calls it (never concurrently).
pub fn set_allocate_black(epoch: u8) {
    let value = if epoch == 0 {
        0
    } else {
        let generation = GENERATION.fetch_add(1, Ordering::Relaxed) + 1;
        generation << 8 | u64::from(epoch)
    };
    ALLOCATE_BLACK.store(value, Ordering::SeqCst);
}

/// Whether black allocation is on.
pub fn allocating_black() -> bool {
    ALLOCATE_BLACK.load(Ordering::Relaxed) != 0
}

/// The epoch black allocation currently stamps (0 when it is off).
pub(crate) fn black_epoch() -> u8 {
    ALLOCATE_BLACK.load(Ordering::Relaxed) as u8
}

/// Stand-in bitmap word for empty bins, so the fast path needs no `Option`.
static NO_WORD: AtomicU64 = AtomicU64::new(0);

struct Bin {
    /// Free slots of the current bitmap word not yet handed out.
    free: u64,
    /// Address of slot `64 * word_index` of the current page.
    group_base: usize,
    slot_size: usize,
    /// The current page's allocation-bitmap word `word_index`.
    word: &'static AtomicU64,
    page: Option<&'static Page>,
    word_index: usize,
    /// [`ALLOCATE_BLACK`] when the current word was loaded: its free slots
    /// were marked then if non-zero.
    black: u64,
    /// Free slots of the current word still holding a dead object's bytes
    /// (a copy of the page's `dirty` word, which only the owner clears).
    dirty: u64,
    dirty_word: &'static AtomicU64,
}

impl Bin {
    const EMPTY: Bin = Bin {
        free: 0,
        group_base: 0,
        slot_size: 0,
        word: &NO_WORD,
        page: None,
        word_index: 0,
        black: 0,
        dirty: 0,
        dirty_word: &NO_WORD,
    };

    /// Loads word `w` of `page` into the bin if it has free slots.
    fn load_word(&mut self, page: &'static Page, class: usize, w: usize) -> bool {
        let free = page.free_mask(class, w);
        self.word_index = w;
        if free == 0 {
            return false;
        }
        let slot_size = CLASSES[class].slot_size;
        self.black = ALLOCATE_BLACK.load(Ordering::Relaxed);
        if self.black != 0 {
            // Black allocation a word at a time: every slot this bin will
            // hand out is marked now, so the fast path never looks at the
            // flag. Unallocated marked slots mean nothing to the sweep.
            page.mark[w].fetch_or(free, Ordering::AcqRel);
        }
        self.free = free;
        self.slot_size = slot_size;
        self.group_base = page.start() + w * 64 * slot_size;
        self.word = &page.alloc[w];
        self.dirty_word = &page.dirty[w];
        self.dirty = self.dirty_word.load(Ordering::Relaxed) & free;
        true
    }

    #[inline(always)]
    fn take(&mut self) -> NonNull<u8> {
        debug_assert!(self.free != 0);
        let i = self.free.trailing_zeros();
        let bit = 1u64 << i;
        self.free &= self.free - 1;
        let addr = self.group_base + i as usize * self.slot_size;
        if self.dirty & bit != 0 {
            self.clean(addr, bit);
        }
        // Release: whoever finds the slot allocated (a conservative scan,
        // an address lookup) sees it zeroed.
        let w = self.word.load(Ordering::Relaxed);
        self.word.store(w | bit, Ordering::Release);
        // SAFETY: `group_base` is inside a mapped chunk, hence non-zero.
        unsafe { NonNull::new_unchecked(addr as *mut u8) }
    }

    /// Zeroes the dead object's bytes in the slot at `addr` (bit `bit` of
    /// the current word) and records that it is clean.
    #[inline(never)]
    fn clean(&mut self, addr: usize, bit: u64) {
        // SAFETY: the slot lies in a committed page this bin's cache owns,
        // and it is free: nothing else reads or writes it.
        unsafe { core::ptr::write_bytes(addr as *mut u8, 0, self.slot_size) };
        self.dirty &= !bit;
        self.dirty_word.store(self.dirty, Ordering::Relaxed);
    }

    /// The marking epoch the last slot taken is black in, or 0. A word
    /// loaded black in an earlier collection (its marks cleared since)
    /// counts as white: the value compared is never reused.
    #[inline(always)]
    fn black_epoch(&self) -> u8 {
        if self.black != 0 && self.black == ALLOCATE_BLACK.load(Ordering::Relaxed) {
            self.black as u8
        } else {
            0
        }
    }
}

/// A thread's allocation cache over a shared [`Heap`]. `Send` (the pages it
/// owns move with it) but not `Sync`. Dropping it flushes.
pub struct LocalHeap {
    heap: &'static Heap,
    bins: [Bin; NUM_CLASSES],
    _not_sync: PhantomData<Cell<()>>,
}

const _: () = {
    const fn assert_send<T: Send>() {}
    assert_send::<LocalHeap>();
};
const _: () = assert!(PAGE_SIZE / 64 >= 1);

impl LocalHeap {
    pub fn new(heap: &'static Heap) -> LocalHeap {
        LocalHeap {
            heap,
            bins: [Bin::EMPTY; NUM_CLASSES],
            _not_sync: PhantomData,
        }
    }

    pub fn heap(&self) -> &'static Heap {
        self.heap
    }

    /// Returns a zeroed, 16-aligned slot of at least `size` bytes (`size`
    /// includes the header the caller writes; 0 is treated as 32). Exits via
    /// [`crate::fatal_oom`] for sizes above 2^46 or when the OS refuses memory.
    ///
    /// While [`set_allocate_black`] is on, slots come out marked, so a
    /// collection in progress treats them as live: a cache marks a whole
    /// bitmap word of free slots when it starts handing them out, and large
    /// objects are marked before they join the heap's list. A word taken
    /// before black allocation was turned on keeps giving white slots until
    /// the collector's first handshake flushes the cache; the collector finds
    /// those through the roots and the store barrier (which every new heap
    /// reference, aux allocations and atomic boxes included, goes through).
    #[inline]
    pub fn alloc(&mut self, size: usize) -> NonNull<u8> {
        match size_class_of(size) {
            Some(class) => self.alloc_small(class, size),
            None => self.heap.alloc_large(size),
        }
    }

    /// [`LocalHeap::alloc`], also returning the marking epoch in which the
    /// slot is already marked (black allocation), or 0 if it is not known
    /// to be marked. The collector uses the epoch only while that
    /// collection lasts, so a stale one is harmless (see `gimso-shadow`'s
    /// barrier epochs).
    #[inline]
    pub fn alloc_stamped(&mut self, size: usize) -> (NonNull<u8>, u8) {
        match size_class_of(size) {
            Some(class) => {
                let slot = self.alloc_small(class, size);
                // SAFETY: as in `alloc_small`.
                (
                    slot,
                    unsafe { self.bins.get_unchecked(class) }.black_epoch(),
                )
            }
            None => self.heap.alloc_large_stamped(size),
        }
    }

    /// A slot of size class `class` (as returned by `size_class_of`).
    #[inline(always)]
    fn alloc_small(&mut self, class: usize, size: usize) -> NonNull<u8> {
        debug_assert!(class < NUM_CLASSES);
        // SAFETY: `size_class_of` only returns classes below NUM_CLASSES
        // (asserted at compile time over its whole table), and `bins` has
        // NUM_CLASSES entries; this keeps a bounds check off the fast path.
        let bin = unsafe { self.bins.get_unchecked_mut(class) };
        if bin.free != 0 {
            return bin.take();
        }
        self.alloc_slow(class, size)
    }

    #[cold]
    #[inline(never)]
    fn alloc_slow(&mut self, class: usize, size: usize) -> NonNull<u8> {
        let words = CLASSES[class].words;
        let bin = &mut self.bins[class];
        loop {
            if let Some(page) = bin.page {
                while bin.word_index + 1 < words {
                    if bin.load_word(page, class, bin.word_index + 1) {
                        self.heap
                            .note_allocation(bin.free.count_ones() as usize * bin.slot_size);
                        return bin.take();
                    }
                }
                *bin = Bin::EMPTY;
                self.heap.release_page(page, class);
            }
            let page = self.heap.acquire_page(class, size);
            bin.page = Some(page);
            if bin.load_word(page, class, 0) {
                self.heap
                    .note_allocation(bin.free.count_ones() as usize * bin.slot_size);
                return bin.take();
            }
            // Word 0 is full; the loop scans the rest of the page.
        }
    }

    /// Returns every owned page to the heap, so a sweep can see them.
    pub fn flush(&mut self) {
        for (class, bin) in self.bins.iter_mut().enumerate() {
            if let Some(page) = bin.page {
                *bin = Bin::EMPTY;
                self.heap.release_page(page, class);
            }
        }
    }
}

impl Drop for LocalHeap {
    fn drop(&mut self) {
        self.flush();
    }
}
