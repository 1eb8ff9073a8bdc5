//! Exposed provenance (`-fgimso-exposed-provenance`, ISO/IEC TS 6010's
//! PNVI-ae model): converting a pointer to an integer *exposes* its object;
//! an integer converted back to a pointer that carries no capability of its
//! own (it went through a call as an `unsigned long`, or was hashed and
//! restored) takes the capability of the exposed object containing its
//! address, if there is one, and none otherwise.
//!
//! Heap objects are found by the heap's address lookup and carry
//! `FLAG_EXPOSED` in their header (a fresh allocation starts without it).
//! An integer keeps nothing alive (the collector finds references through
//! capabilities only), so an exposed heap object is pinned: a root until
//! `free`, as C's own `malloc` memory lives until then. Exposed locals
//! (`alloca`s on the heap, `FLAG_STACK`) are not pinned: like a C local,
//! they are gone once nothing holds their capability (after their frame,
//! typically), and an integer to them then finds nothing. Global objects
//! are outside the heap: exposing one records its bounds in a table.
//! Objects in a native frame are never exposed: their storage dies with
//! the frame, so no integer may lead back to it.
//!
//! What this gives up: an integer the program computed (not derived from
//! the object's pointer) that happens to fall inside an exposed object
//! reaches it, bounds-checked against that object. Objects never converted
//! to integers stay out of reach, as do unexposed neighbours.

use core::sync::atomic::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, RwLock};

use gimso_abi::{FLAG_EXPOSED, FLAG_FREE, FLAG_GLOBAL, FLAG_STACK};

use crate::lookup::object_containing;
use crate::object::ObjRef;

/// Exposed heap objects not yet freed: roots of the collector.
static PINNED: Mutex<BTreeSet<usize>> = Mutex::new(BTreeSet::new());

/// Ends the pin of an exposed heap object being freed.
pub(crate) fn unpin(lower: usize) {
    PINNED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&lower);
}

/// The pinned objects (exposed heap objects not freed): the collector
/// marks them with the globals.
pub fn pinned() -> Vec<usize> {
    PINNED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .copied()
        .collect()
}

/// Exposed global objects: `lower` → `upper`.
static EXPOSED_GLOBALS: RwLock<BTreeMap<usize, usize>> = RwLock::new(BTreeMap::new());

/// Exposes the object of capability `lower` (0: nothing to expose).
///
/// # Safety
/// `lower` is 0 or a runtime-issued capability.
pub unsafe fn expose(lower: usize) {
    if lower == 0 {
        return;
    }
    // SAFETY: non-zero lower is a runtime-issued capability (contract).
    let obj = unsafe { ObjRef::from_lower(lower) };
    let aux = obj.aux_word();
    if aux & FLAG_EXPOSED != 0 {
        return;
    }
    let in_heap = gimso_heap::lookup(lower).is_some();
    if !in_heap && (aux & FLAG_GLOBAL == 0 || aux & FLAG_STACK != 0) {
        // A frame's object (or a runtime-private one): never reachable from
        // an integer.
        return;
    }
    if in_heap && aux & FLAG_STACK == 0 {
        PINNED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(lower);
    }
    if !in_heap {
        EXPOSED_GLOBALS
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(lower, obj.upper());
    }
    obj.header().aux.fetch_or(FLAG_EXPOSED, Ordering::AcqRel);
}

/// The capability an integer `addr` converted to a pointer takes: that of
/// the exposed object whose payload contains it (one past the end
/// included), else 0.
pub fn exposed_lower(addr: usize) -> usize {
    if let Some(obj) = object_containing(addr) {
        let aux = obj.aux_word();
        // A freed object (until the collector reuses its slot) gives its
        // capability, which traps: a use after free reported as one.
        let inside = obj.lower() <= addr && (addr <= obj.upper() || aux & FLAG_FREE != 0);
        if aux & FLAG_EXPOSED != 0 && inside {
            return obj.lower();
        }
        return 0;
    }
    let globals = EXPOSED_GLOBALS.read().unwrap_or_else(|e| e.into_inner());
    match globals.range(..=addr).next_back() {
        Some((&lower, &upper)) if addr <= upper => lower,
        _ => 0,
    }
}
