//! Size classes and per-class page geometry.
//!
//! Slot sizes include the 16-byte capability header the layer above writes at
//! the slot start. Payload classes are 16..=256 in 16-byte steps, then four
//! classes per doubling up to 16384, so internal fragmentation above 256 bytes
//! stays under 25 %.

use crate::page::PAGE_SIZE;

/// Bytes the layer above reserves at the start of every slot.
pub const HEADER_SIZE: usize = 16;
/// Smallest slot: a header plus 16 payload bytes.
pub const MIN_SLOT_SIZE: usize = 32;
/// Largest payload served from pages; larger requests are large objects.
pub const MAX_SMALL_PAYLOAD: usize = 16384;
/// Largest slot served from pages.
pub const MAX_SMALL_SLOT: usize = MAX_SMALL_PAYLOAD + HEADER_SIZE;
/// Number of small size classes.
pub const NUM_CLASSES: usize = 40;

const LINEAR_CLASSES: usize = 16;

const fn payload_of(class: usize) -> usize {
    if class < LINEAR_CLASSES {
        (class + 1) * 16
    } else {
        let k = class - LINEAR_CLASSES;
        let base = 256 << (k / 4);
        base + (k % 4 + 1) * (base / 4)
    }
}

/// Geometry of the pages of one class, precomputed so the allocator and
/// `lookup` never divide.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClassInfo {
    pub(crate) slot_size: usize,
    pub(crate) slots: usize,
    /// Bitmap words in use.
    pub(crate) words: usize,
    /// Valid bits of the last bitmap word.
    pub(crate) last_mask: u64,
    /// `offset / slot_size == (offset * magic) >> 32` for every in-page offset.
    pub(crate) magic: u64,
}

impl ClassInfo {
    /// Slot index of an offset within a page, without a division.
    #[inline(always)]
    pub(crate) fn index_of(&self, offset_in_page: usize) -> usize {
        ((offset_in_page as u64 * self.magic) >> 32) as usize
    }

    /// Bits of bitmap word `w` that correspond to real slots.
    #[inline(always)]
    pub(crate) fn word_mask(&self, w: usize) -> u64 {
        if w + 1 < self.words {
            !0
        } else if w + 1 == self.words {
            self.last_mask
        } else {
            0
        }
    }
}

const fn build_classes() -> [ClassInfo; NUM_CLASSES] {
    let mut out = [ClassInfo {
        slot_size: 0,
        slots: 0,
        words: 0,
        last_mask: 0,
        magic: 0,
    }; NUM_CLASSES];
    let mut c = 0;
    while c < NUM_CLASSES {
        let slot_size = payload_of(c) + HEADER_SIZE;
        let slots = PAGE_SIZE / slot_size;
        let words = slots.div_ceil(64);
        let rem = slots % 64;
        out[c] = ClassInfo {
            slot_size,
            slots,
            words,
            last_mask: if rem == 0 { !0 } else { (1u64 << rem) - 1 },
            // Rounding 2^32/s up makes the error of `off * magic / 2^32` at most
            // off / 2^32 < 2^16 / 2^32, below 1/s for every s < 2^16, so the
            // floor is exact for all in-page offsets (checked exhaustively in
            // tests/magic_division.rs).
            magic: (1u64 << 32) / slot_size as u64 + 1,
        };
        c += 1;
    }
    out
}

pub(crate) static CLASSES: [ClassInfo; NUM_CLASSES] = build_classes();

const GRANULES: usize = MAX_SMALL_SLOT / 16 + 1;

const fn build_class_by_granule() -> [u8; GRANULES] {
    let mut out = [0u8; GRANULES];
    let mut g = 0;
    let mut c = 0;
    while g < GRANULES {
        while payload_of(c) + HEADER_SIZE < g * 16 {
            c += 1;
        }
        out[g] = c as u8;
        g += 1;
    }
    out
}

/// Class of every slot size rounded up to 16, so `size_class_of` is one load.
static CLASS_BY_GRANULE: [u8; GRANULES] = build_class_by_granule();

// `LocalHeap::alloc` indexes its bins with these values unchecked.
const _: () = {
    let table = build_class_by_granule();
    let mut g = 0;
    while g < GRANULES {
        assert!((table[g] as usize) < NUM_CLASSES);
        g += 1;
    }
};

const _: () = assert!(payload_of(NUM_CLASSES - 1) == MAX_SMALL_PAYLOAD);
const _: () = assert!(payload_of(0) + HEADER_SIZE == MIN_SLOT_SIZE);
const _: () = assert!(NUM_CLASSES <= u8::MAX as usize);
// Slots are 16-aligned because pages are and every slot size is a multiple of 16.
const _: () = {
    let mut c = 0;
    while c < NUM_CLASSES {
        assert!((payload_of(c) + HEADER_SIZE) & 15 == 0);
        assert!(PAGE_SIZE / (payload_of(c) + HEADER_SIZE) >= 1);
        c += 1;
    }
};

/// The smallest class whose slots hold `slot_size` bytes (header included),
/// or `None` if the request is a large object. Size 0 maps to class 0.
#[inline(always)]
pub fn size_class_of(slot_size: usize) -> Option<usize> {
    if slot_size > MAX_SMALL_SLOT {
        None
    } else {
        Some(CLASS_BY_GRANULE[slot_size.div_ceil(16)] as usize)
    }
}

/// Slot size of `class` (header included).
///
/// Panics if `class >= NUM_CLASSES`.
#[inline]
pub fn class_slot_size(class: usize) -> usize {
    CLASSES[class].slot_size
}

/// Number of slots in a page of `class`.
///
/// Panics if `class >= NUM_CLASSES`.
#[inline]
pub fn class_slots_per_page(class: usize) -> usize {
    CLASSES[class].slots
}

/// `offset / class_slot_size(class)` computed the way `lookup` computes it
/// (multiply by a reciprocal and shift), exposed so tests can check it
/// against a real division. Valid for `offset < PAGE_SIZE`.
///
/// Panics if `class >= NUM_CLASSES`.
#[inline]
pub fn class_magic_div(class: usize, offset: usize) -> usize {
    CLASSES[class].index_of(offset)
}
