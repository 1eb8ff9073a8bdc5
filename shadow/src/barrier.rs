//! The store barrier's mutator side (Dijkstra insertion barrier).
//!
//! While the collector marks, every pointer stored into the heap has its
//! target marked and handed to the collector as grey. The flag
//! `gimso_gc_marking` is 0 outside marking and the cycle's *marking epoch*
//! (1..=15, the next one each cycle) during it.
//!
//! Barrier epochs spare most stores the runtime call: each object header
//! carries (aux word, [`BARRIER_EPOCH_MASK`]) the epoch in which the object
//! was last seen marked. A store of a capability whose header carries the
//! current epoch skips the barrier: the object is already marked. The
//! epoch is written only after the mark bit is set: by the barrier's slow
//! path (which marks or finds marked) and by the collector for every object
//! it traces ([`stamp`]). Every object that survives a cycle is traced in
//! it (or allocated black, whose header starts at epoch 0), so a live
//! object never carries an epoch older than the previous cycle's, and
//! consecutive epochs differ: a stale epoch is never taken for the current
//! one. (A racing `free` may put back the epoch it read, at most one cycle
//! older; 15 epochs leave room for that.) Headers outside the heap are
//! never stamped: globals may sit in read-only memory, and they never need
//! the barrier anyway.
//!
//! Compiled code inlines the same test (one byte load of the flag and a
//! branch; while marking, a load of the stored capability's aux word and a
//! comparison). The collector (crate `gimso-gc`) sets the flag and installs
//! the grey hook.

use core::sync::atomic::{AtomicPtr, AtomicU8, Ordering};

use gimso_abi::{
    BARRIER_EPOCH_MASK, BARRIER_EPOCH_SHIFT, HEADER_SIZE, MAX_BARRIER_EPOCH, ObjectHeader,
};

/// The marking flag, alone on its cache lines: every pointer store reads
/// it, so a neighbour written by the collector (a mark counter, say) would
/// make each of those reads a cache miss.
#[repr(C, align(128))]
pub struct MarkingFlag {
    /// 0, or the marking epoch while the collector marks.
    pub flag: AtomicU8,
}

/// 0, or the marking epoch while the collector marks. Part of the ABI: C
/// sees the first byte as `extern volatile uint8_t gimso_gc_marking`
/// (`gimso.h`).
#[allow(non_upper_case_globals)]
#[unsafe(no_mangle)]
pub static gimso_gc_marking: MarkingFlag = MarkingFlag {
    flag: AtomicU8::new(0),
};

/// The epoch the last marking phase used (only the collector writes it).
static LAST_EPOCH: AtomicU8 = AtomicU8::new(0);

/// Turns the store barrier on (with the next marking epoch) or off (the
/// collector's switch; one collector, so no two calls race).
pub fn set_marking(on: bool) {
    let value = if on {
        let next = next_epoch(LAST_EPOCH.load(Ordering::Relaxed));
        LAST_EPOCH.store(next, Ordering::Relaxed);
        next
    } else {
        0
    };
    gimso_gc_marking.flag.store(value, Ordering::SeqCst);
}

/// The epoch after `last`: 1, 2, ..., 15, 1, ... (never 0, never `last`).
const fn next_epoch(last: u8) -> u8 {
    last % MAX_BARRIER_EPOCH + 1
}

/// The epoch of the latest marking phase (0 before the first).
pub fn last_epoch() -> u8 {
    LAST_EPOCH.load(Ordering::Relaxed)
}

/// Receives each object the barrier newly marked (its `lower`).
pub type GreyHook = fn(usize);

static GREY_HOOK: AtomicPtr<()> = AtomicPtr::new(core::ptr::null_mut());

/// Installs the collector's grey-object sink (or removes it with `None`).
pub fn set_grey_hook(hook: Option<GreyHook>) {
    let raw = hook.map_or(core::ptr::null_mut(), |h| h as *mut ());
    GREY_HOOK.store(raw, Ordering::Release);
}

/// Whether the collector is marking.
#[inline(always)]
pub fn marking() -> bool {
    epoch() != 0
}

/// The current marking epoch, 0 when the collector is not marking.
#[inline(always)]
pub fn epoch() -> u8 {
    gimso_gc_marking.flag.load(Ordering::Relaxed)
}

/// The header of the object `lower`.
///
/// # Safety
/// `lower` is a non-zero capability whose object stays allocated while the
/// reference is used.
#[inline(always)]
unsafe fn header(lower: usize) -> &'static ObjectHeader {
    // SAFETY: per the contract, the header below `lower` is readable.
    unsafe { &*((lower - HEADER_SIZE) as *const ObjectHeader) }
}

/// The barrier epoch in the header of the object `lower`.
///
/// # Safety
/// `lower` is a non-zero capability (its header is readable).
#[inline(always)]
pub unsafe fn epoch_of(lower: usize) -> u8 {
    // SAFETY: per the contract.
    let aux = unsafe { header(lower) }.aux.load(Ordering::Relaxed);
    (aux >> BARRIER_EPOCH_SHIFT) as u8
}

/// The barrier for a pointer whose capability `lower` (0 or
/// runtime-issued) is being stored.
#[inline(always)]
pub fn store_barrier(lower: usize) {
    let m = epoch();
    // SAFETY: a non-zero lower is a runtime-issued capability.
    if m != 0 && lower != 0 && unsafe { epoch_of(lower) } != m {
        barrier_slow(lower, m);
    }
}

/// Records in the header of heap object `lower` that it is marked in epoch
/// `m`.
///
/// # Safety
/// `lower` is the capability of a heap object (headers outside the heap may
/// be read-only) whose mark bit is set in the cycle of epoch `m`.
pub unsafe fn stamp(lower: usize, m: u8) {
    // SAFETY: per the contract, a heap object's header: writable memory of
    // its slot.
    let header = unsafe { header(lower) };
    let want = u64::from(m) << BARRIER_EPOCH_SHIFT;
    let mut cur = header.aux.load(Ordering::Relaxed);
    // A CAS, not a byte store: the owner may be installing the aux pointer
    // (CAS) or freeing (plain store) in the same word.
    while cur & BARRIER_EPOCH_MASK != want {
        match header.aux.compare_exchange_weak(
            cur,
            (cur & !BARRIER_EPOCH_MASK) | want,
            Ordering::Release,
            Ordering::Relaxed,
        ) {
            Ok(_) => return,
            Err(now) => cur = now,
        }
    }
}

#[cold]
#[inline(never)]
fn barrier_slow(lower: usize, m: u8) {
    // The header's address is inside the object's slot even for
    // over-aligned objects, whose slot starts with a pad.
    // One lookup; an object already marked (the common case once marking
    // has run a while) costs no atomic read-modify-write. Non-heap objects
    // (globals, the free singleton) are roots or immortal.
    // The object a capability refers to is allocated (the collector never
    // frees what is referenced), so the allocation bit need not be checked.
    let Some(newly) = gimso_heap::mark_allocated(lower - HEADER_SIZE) else {
        return;
    };
    if newly {
        let raw = GREY_HOOK.load(Ordering::Acquire);
        if !raw.is_null() {
            // SAFETY: only set_grey_hook stores here, always a GreyHook.
            let hook: GreyHook = unsafe { core::mem::transmute::<*mut (), GreyHook>(raw) };
            hook(lower);
        }
    }
    // SAFETY: mark_allocated found a heap object, now marked.
    unsafe { stamp(lower, m) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epochs_cycle_through_1_to_15_and_never_repeat_back_to_back() {
        let mut e = 0;
        let mut seen = [0u32; 16];
        for _ in 0..150 {
            let n = next_epoch(e);
            assert!((1..=MAX_BARRIER_EPOCH).contains(&n));
            assert_ne!(n, e);
            seen[n as usize] += 1;
            e = n;
        }
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&c| c == 10));
    }
}
