//! Shared helpers for the criterion benchmarks in `benches/benches/`.
//!
//! gimso's `free` never reuses memory on the spot: the collector reclaims it.
//! The benchmarks do not run the collector: they stand in for it by
//! sweeping the benchmark's private heap as often as the collector's default
//! trigger would run (every 1 MiB allocated with nothing live), re-marking
//! the objects the benchmark keeps, and count that cost in the timings.

use std::ptr::NonNull;

use gimso_abi::HEADER_SIZE;
use gimso_heap::{Heap, LocalHeap};
use gimso_shadow::ObjRef;

/// Bytes allocated between two sweeps: the collector's minimum trigger.
pub const SWEEP_EVERY_BYTES: usize = 1 << 20;

/// A private heap and its cache, plus objects that must survive sweeps.
pub struct BenchHeap {
    /// The heap the benchmark allocates from.
    pub heap: &'static Heap,
    /// The benchmark thread's cache.
    pub local: LocalHeap,
    keep: Vec<ObjRef>,
}

impl Default for BenchHeap {
    fn default() -> Self {
        Self::new()
    }
}

impl BenchHeap {
    /// A fresh heap.
    pub fn new() -> BenchHeap {
        let heap = Heap::new();
        BenchHeap {
            heap,
            local: LocalHeap::new(heap),
            keep: Vec::new(),
        }
    }

    /// Keeps `obj` (and its aux allocation) alive across [`BenchHeap::collect`].
    pub fn keep(&mut self, obj: ObjRef) {
        self.keep.push(obj);
    }

    /// What a collection with the kept objects as the only roots does:
    /// mark them, sweep everything else.
    pub fn collect(&mut self) {
        self.local.flush();
        for obj in &self.keep {
            mark_object(*obj);
            if let Some(aux) = obj.aux_words() {
                // SAFETY: a non-null aux pointer is the payload of a live
                // aux object.
                mark_object(unsafe { ObjRef::from_lower(aux as usize) });
            }
        }
        self.heap.sweep();
    }
}

fn mark_object(obj: ObjRef) {
    if let Some(slot) = gimso_heap::lookup(obj.lower() - HEADER_SIZE) {
        let start: NonNull<u8> = slot.start;
        // SAFETY: lookup returned the start of an allocated slot.
        unsafe { gimso_heap::mark(start) };
    }
}
