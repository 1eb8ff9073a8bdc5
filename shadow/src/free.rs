//! `free`: every error case of docs/architecture.md, "Flight pointers and objects", then `upper = lower` and `FREE`.
//!
//! A double free from one thread, or from threads ordered by
//! synchronisation, is always reported; see `free_at` for the one race in
//! which it may not be.
//!
//! Memory is not reused here: the collector reclaims a freed object once
//! nothing references it, and redirects heap references to the free
//! singleton, so every later access through an old pointer still traps.

use core::sync::atomic::Ordering;

use gimso_abi::{FLAG_FREE, FLAG_GLOBAL, FLAG_STACK, FlightPtr, SourceLocation, SpecialKind};

use crate::object::ObjRef;
use crate::report::{Operation, SafetyError, report};

/// Why a `free` is refused.
pub fn classify_free(p: FlightPtr) -> Option<SafetyError> {
    if p.intval() == 0 {
        return None;
    }
    if p.lower() == 0 {
        return Some(SafetyError::InvalidFreeNoCapability);
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    let aux = obj.aux_word();
    if SpecialKind::from_aux(aux) != Some(SpecialKind::None) {
        return Some(SafetyError::InvalidFreeSpecial);
    }
    if aux & FLAG_GLOBAL != 0 {
        return Some(SafetyError::InvalidFreeGlobal);
    }
    if aux & FLAG_STACK != 0 {
        return Some(SafetyError::InvalidFreeStack);
    }
    if p.intval() != p.lower() {
        return Some(SafetyError::InvalidFreeInterior);
    }
    if aux & FLAG_FREE != 0 {
        return Some(SafetyError::DoubleFree);
    }
    None
}

/// Frees the object `p` points to; `free(NULL)` is a no-op. Any misuse is
/// reported as a safety error at `loc`.
pub fn free_at(p: FlightPtr, loc: &SourceLocation) {
    if p.intval() == 0 {
        return;
    }
    if let Some(err) = classify_free(p) {
        report(err, p, Operation::Free, loc);
    }
    // SAFETY: classify_free accepted p.
    unsafe { mark_freed(p) }
}

/// Frees `p`'s object, which the caller has just had [`classify_free`]
/// accept (a wrapper that reports misuse at its caller's location itself).
///
/// # Safety
/// `classify_free(p)` returned `None` and `p.intval != 0`: `p.lower` is a
/// runtime-issued capability of a heap object.
pub unsafe fn mark_freed(p: FlightPtr) {
    debug_assert!(p.intval() != 0 && p.lower() != 0);
    // SAFETY: by the contract, p.lower is a capability.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    let header = obj.header();
    // A plain store, not a CAS: a locked RMW would cost a third of the
    // alloc+free pair. What a racing writer can do to the aux word meanwhile
    // is harmless: a pointer store installing the aux allocation may lose it
    // (its capabilities go to an orphan the collector reclaims, and the
    // object is freed, so nothing can read them), and two threads freeing
    // the same object at the same instant may both succeed without a
    // double-free report. Neither lets any access through: `free` never
    // reuses memory, and `upper = lower` below makes every access trap.
    let aux = header.aux.load(Ordering::Acquire);
    let upper = header.upper.load(Ordering::Acquire);
    header.aux.store(aux | FLAG_FREE, Ordering::Release);
    header.upper.store(p.lower(), Ordering::Release);
    // SAFETY: the object was freed just above (upper = lower: every checked
    // access traps from now on) and `p` keeps it from being reclaimed.
    unsafe { gimso_heap::discard_freed_payload(p.lower(), upper) };
    if aux & gimso_abi::FLAG_EXPOSED != 0 {
        crate::exposed::unpin(p.lower());
    }
}

/// [`free_at`] without a source location.
pub fn free(p: FlightPtr) {
    free_at(p, &SourceLocation::UNKNOWN)
}
