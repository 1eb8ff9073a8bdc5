//! The store barrier's mutator side (Dijkstra insertion barrier).
//!
//! While the collector marks, every pointer stored into the heap has its
//! target marked and handed to the collector as grey. The fast path is one
//! byte load of the exported flag and a branch; compiled code inlines the
//! same test against the symbol `gimso_gc_marking`. The collector (crate
//! `gimso-gc`) sets the flag and installs the grey hook.

use core::sync::atomic::{AtomicPtr, AtomicU8, Ordering};

use gimso_abi::HEADER_SIZE;

/// The marking flag, alone on its cache lines: every pointer store reads
/// it, so a neighbour written by the collector (a mark counter, say) would
/// make each of those reads a cache miss.
#[repr(C, align(128))]
pub struct MarkingFlag {
    /// Non-zero while the collector marks.
    pub flag: AtomicU8,
}

/// Non-zero while the collector marks. Part of the ABI: C sees the first
/// byte as `extern volatile uint8_t gimso_gc_marking` (`gimso.h`).
#[allow(non_upper_case_globals)]
#[unsafe(no_mangle)]
pub static gimso_gc_marking: MarkingFlag = MarkingFlag {
    flag: AtomicU8::new(0),
};

/// Turns the store barrier on or off (the collector's switch).
pub fn set_marking(on: bool) {
    gimso_gc_marking.flag.store(on as u8, Ordering::SeqCst);
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
    gimso_gc_marking.flag.load(Ordering::Relaxed) != 0
}

/// The barrier for a pointer whose capability `lower` is being stored.
#[inline(always)]
pub fn store_barrier(lower: usize) {
    if marking() && lower != 0 {
        barrier_slow(lower);
    }
}

#[cold]
#[inline(never)]
fn barrier_slow(lower: usize) {
    // The header's address is inside the object's slot even for
    // over-aligned objects, whose slot starts with a pad.
    // One lookup; an object already marked (the common case once marking
    // has run a while) costs no atomic read-modify-write. Non-heap objects
    // (globals, the free singleton) are roots or immortal.
    // The object a capability refers to is allocated (the collector never
    // frees what is referenced), so the allocation bit need not be checked.
    if gimso_heap::mark_allocated(lower - HEADER_SIZE) == Some(true) {
        let raw = GREY_HOOK.load(Ordering::Acquire);
        if !raw.is_null() {
            // SAFETY: only set_grey_hook stores here, always a GreyHook.
            let hook: GreyHook = unsafe { core::mem::transmute::<*mut (), GreyHook>(raw) };
            hook(lower);
        }
    }
}
