//! Helpers for the shadow crate's tests: a private heap per test binary.
#![allow(dead_code)]

use gimso_abi::FlightPtr;
use gimso_heap::{Heap, LocalHeap};
use gimso_shadow::pointer::{load_ptr, store_ptr};
use gimso_shadow::{SourceLocation, alloc_object};

pub const HERE: &SourceLocation = &SourceLocation::UNKNOWN;

pub fn local() -> LocalHeap {
    LocalHeap::new(Heap::new())
}

pub fn alloc(l: &mut LocalHeap, size: usize) -> FlightPtr {
    alloc_object(l, size, 16, 0).flight_ptr()
}

pub fn store(l: &mut LocalHeap, at: FlightPtr, v: FlightPtr) {
    store_ptr(l, at, v, HERE);
}

pub fn load(at: FlightPtr) -> FlightPtr {
    load_ptr(at, HERE)
}

/// Reads the 8-byte integer at `p` (test-only, unchecked).
pub fn read_u64(p: FlightPtr) -> u64 {
    // SAFETY: tests only pass in-bounds, aligned addresses of live objects.
    unsafe { (p.intval() as *const u64).read() }
}

/// Writes the 8-byte integer at `p` (test-only, unchecked).
pub fn write_u64(p: FlightPtr, v: u64) {
    // SAFETY: tests only pass in-bounds, aligned addresses of live objects.
    unsafe { (p.intval() as *mut u64).write(v) }
}

/// Reads byte `i` of the object at `p` (test-only, unchecked).
pub fn byte(p: FlightPtr, i: usize) -> u8 {
    // SAFETY: tests only pass in-bounds offsets of live objects.
    unsafe { ((p.intval() + i) as *const u8).read() }
}

/// Writes byte `i` of the object at `p` (test-only, unchecked).
pub fn set_byte(p: FlightPtr, i: usize, v: u8) {
    // SAFETY: tests only pass in-bounds offsets of live objects.
    unsafe { ((p.intval() + i) as *mut u8).write(v) }
}
