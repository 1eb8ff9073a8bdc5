//! `free`: every error case of DESIGN §2, then `upper = lower` and `FREE`.
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
    if p.intval == 0 {
        return None;
    }
    if p.lower == 0 {
        return Some(SafetyError::InvalidFreeNoCapability);
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower) };
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
    if p.intval != p.lower {
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
    if p.intval == 0 {
        return;
    }
    if let Some(err) = classify_free(p) {
        report(err, p, Operation::Free, loc);
    }
    // SAFETY: classify_free accepted p, so p.lower is a capability.
    let obj = unsafe { ObjRef::from_lower(p.lower) };
    let header = obj.header();
    // The FREE bit decides the winner among racing frees; the CAS also keeps
    // an aux pointer installed concurrently by a pointer store.
    let mut aux = header.aux.load(Ordering::Acquire);
    loop {
        if aux & FLAG_FREE != 0 {
            report(SafetyError::DoubleFree, p, Operation::Free, loc);
        }
        match header.aux.compare_exchange_weak(
            aux,
            aux | FLAG_FREE,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => break,
            Err(now) => aux = now,
        }
    }
    header.upper.store(p.lower, Ordering::Release);
}

/// [`free_at`] without a source location.
pub fn free(p: FlightPtr) {
    free_at(p, &SourceLocation::UNKNOWN)
}
