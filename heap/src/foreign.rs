//! Objects the heap did not make that lie in address space its chunk table
//! describes.
//!
//! The chunk table has one entry per 4 MiB region. A large object owns the
//! entries of every region it touches, although the kernel may place other
//! mappings in the part of its last region the object does not use, and a
//! freed large object leaves its regions marked released for good (a stale
//! capability into them is known for a dead heap object). A mapping made
//! later — a `MAP_SHARED` file window, memory the C library maps for the
//! runtime — can land in such a region. Its objects are registered here, so
//! that [`crate::residence`] says they are outside the heap rather than
//! reclaimed heap memory (which the collector would take for dead).

use std::collections::BTreeMap;

use parking_lot::Mutex;

/// Start → end of each registered range.
static RANGES: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());

/// Registers `[start, end)` as an object made outside the heap.
pub fn register(start: usize, end: usize) {
    if start < end {
        RANGES.lock().insert(start, end);
    }
}

/// Forgets the range registered at `start` (its memory is gone, and the
/// address space may become the heap's again).
pub fn unregister(start: usize) {
    RANGES.lock().remove(&start);
}

/// Whether `addr` lies in a registered range.
pub(crate) fn contains(addr: usize) -> bool {
    RANGES
        .lock()
        .range(..=addr)
        .next_back()
        .is_some_and(|(_, &end)| addr < end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let base = 0x7000_1234_0000;
        register(base, base + 0x1000);
        assert!(contains(base) && contains(base + 0xfff));
        assert!(!contains(base - 1) && !contains(base + 0x1000));
        unregister(base);
        assert!(!contains(base));
    }
}
