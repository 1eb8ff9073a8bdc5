//! Address → object: which capability object contains an address.
//!
//! Used by conservative stack scanning, the store barrier and reports. The
//! heap finds the slot in O(1); the slot starts either with the object's
//! header or, for an over-aligned object, with a pad header pointing at
//! the real payload.

use core::sync::atomic::Ordering;

use gimso_abi::{FLAG_PAD, HEADER_SIZE, ObjectHeader};

use crate::object::ObjRef;

/// The object whose slot contains `addr`, if any. Never faults, whatever
/// `addr` is.
pub fn object_containing(addr: usize) -> Option<ObjRef> {
    let slot = gimso_heap::lookup(addr)?;
    let start = slot.start.as_ptr() as usize;
    // SAFETY: an allocated slot is at least 32 bytes, 16-aligned, and
    // mapped while it is allocated; header words are atomics.
    let header = unsafe { &*(start as *const ObjectHeader) };
    let lower = if header.aux.load(Ordering::Acquire) & FLAG_PAD != 0 {
        header.upper.load(Ordering::Acquire)
    } else {
        start + HEADER_SIZE
    };
    // A pad not yet written by a racing allocation reads as zero.
    if lower < start + HEADER_SIZE || lower > start + slot.size {
        return None;
    }
    // SAFETY: lower is the payload of the object occupying this slot.
    Some(unsafe { ObjRef::from_lower(lower) })
}
