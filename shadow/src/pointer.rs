//! Pointer loads and stores through shadow storage: the spec's non-atomic
//! and atomic rules, with bounds checks, lazy aux creation, heap-allocated
//! atomic boxes and the store barrier around the slot protocol of
//! `gimso-atomics`.

use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use gimso_abi::{CmpxchgResult, FlightPtr, SourceLocation, SpecialKind, WORD_SIZE};
use gimso_atomics::{AbiBoxReader, BoxAlloc, BoxRead, Ptr, Slot};
use gimso_heap::LocalHeap;

use crate::alloc::{alloc_special, ensure_aux};
use crate::barrier::store_barrier;
use crate::check::{Access, check_access_at};
use crate::object::ObjRef;
use crate::report::{Operation, SafetyError, report};

/// Atomic boxes as GC objects of special kind ATOMIC_BOX, allocated from
/// the calling thread's cache.
pub struct HeapBoxes<'a>(pub &'a mut LocalHeap);

impl BoxRead for HeapBoxes<'_> {
    #[inline]
    unsafe fn read_box(addr: usize) -> Ptr {
        // SAFETY: forwarded contract: `addr` is a live, published box payload.
        unsafe { AbiBoxReader::read_box(addr) }
    }
}

// SAFETY: new_box returns the 16-byte-aligned payload of a fresh box object
// holding exactly `v`, laid out as AtomicBoxPayload (what AbiBoxReader
// reads); the collector keeps boxes alive while a shadow word refers to them.
unsafe impl BoxAlloc for HeapBoxes<'_> {
    #[inline]
    fn new_box(&mut self, v: Ptr) -> usize {
        let obj = alloc_special(
            self.0,
            SpecialKind::AtomicBox,
            gimso_abi::ATOMIC_BOX_SIZE,
            0,
        );
        // SAFETY: the box payload is 16 fresh bytes laid out as AtomicBoxPayload.
        let payload = unsafe { &*(obj.lower() as *const gimso_abi::AtomicBoxPayload) };
        payload.intval.store(v.intval, Ordering::Relaxed);
        payload.lower.store(v.lower, Ordering::Relaxed);
        // A box is a new heap reference to `v.lower`, and publishing the
        // box is a new heap reference to the box (which may come out white
        // while the slot's object is already black): both go through the
        // barrier.
        store_barrier(v.lower);
        store_barrier(obj.lower());
        obj.lower()
    }
}

/// The slot at checked address `at` of `obj`, whose shadow words are `aux`.
#[inline(always)]
fn slot<'a, B: BoxRead>(obj: ObjRef, aux: *const AtomicUsize, at: usize) -> Slot<'a, B> {
    // SAFETY: `at` passed an aligned 8-byte access check against `obj`, so
    // it is a payload word and its shadow word exists in `aux`; shadow
    // words are only written through gimso-atomics with boxes that
    // AbiBoxReader reads, published with Release.
    unsafe {
        let payload = &*(at as *const AtomicU64);
        let shadow = &*aux.add((at - obj.lower()) / WORD_SIZE);
        Slot::new(payload, shadow)
    }
}

#[inline(always)]
fn payload_word<'a>(at: usize) -> &'a AtomicU64 {
    // SAFETY: `at` passed an aligned 8-byte access check.
    unsafe { &*(at as *const AtomicU64) }
}

/// Non-atomic pointer store of `value` at `dst`.
#[inline]
pub fn store_ptr(local: &mut LocalHeap, dst: FlightPtr, value: FlightPtr, loc: &SourceLocation) {
    let obj = check_access_at(dst, Access::POINTER_WRITE, loc);
    // SAFETY: `dst` passed an aligned 8-byte write check against `obj`.
    unsafe { init_ptr(local, obj, dst.intval(), value) }
}

/// Stores `value` at the aligned word `at` inside `obj` without any check:
/// for initialising objects the runtime itself built or owns (argument
/// objects, global initialisers, read-only or not).
///
/// # Safety
/// `obj` is a live, non-special object and `at` an 8-aligned address with
/// `obj.lower() <= at` and `at + 8 <= obj.upper()`.
#[inline]
pub unsafe fn init_ptr(local: &mut LocalHeap, obj: ObjRef, at: usize, value: FlightPtr) {
    store_barrier(value.lower());
    let aux = match obj.aux_words() {
        Some(aux) => Some(aux),
        None if value.lower() == 0 => None,
        None => ensure_aux(local, obj),
    };
    match aux {
        Some(aux) => {
            gimso_atomics::plain_store(slot::<AbiBoxReader>(obj, aux, at), Ptr::from(value))
        }
        // No aux and none can be made (freed since the caller's check): the
        // capability is moot because every later access traps.
        None => payload_word(at).store(value.intval() as u64, Ordering::Relaxed),
    }
}

/// Non-atomic pointer load from `src`.
#[inline]
pub fn load_ptr(src: FlightPtr, loc: &SourceLocation) -> FlightPtr {
    let obj = check_access_at(src, Access::POINTER_READ, loc);
    match obj.aux_words() {
        Some(aux) => {
            let p = gimso_atomics::plain_load(slot::<AbiBoxReader>(obj, aux, src.intval()));
            // SAFETY: read from a slot whose capability word the runtime wrote
            // from a `FlightPtr` (`store_ptr` and the atomic stores).
            unsafe { p.into_flight() }
        }
        None => FlightPtr::from_int(payload_word(src.intval()).load(Ordering::Relaxed) as usize),
    }
}

fn aux_for_atomic(
    local: &mut LocalHeap,
    obj: ObjRef,
    at: FlightPtr,
    loc: &SourceLocation,
) -> *const AtomicUsize {
    match ensure_aux(local, obj) {
        Some(aux) => aux,
        // Freed between the check and now: a racing free, reported as the
        // use after free it is.
        None => report(
            SafetyError::UseAfterFree,
            at,
            Operation::Access(Access::POINTER_WRITE),
            loc,
        ),
    }
}

/// Atomic pointer store (intval and capability never tear).
pub fn atomic_store_ptr(
    local: &mut LocalHeap,
    dst: FlightPtr,
    value: FlightPtr,
    loc: &SourceLocation,
) {
    let obj = check_access_at(dst, Access::POINTER_WRITE, loc);
    let aux = aux_for_atomic(local, obj, dst, loc);
    let mut boxes = HeapBoxes(local);
    gimso_atomics::atomic_store(slot(obj, aux, dst.intval()), Ptr::from(value), &mut boxes);
    // The protocol's stores are Release; the fence makes the C ABI's atomic
    // store sequentially consistent (the x86 mapping of a seq_cst store).
    core::sync::atomic::fence(Ordering::SeqCst);
}

/// Atomic pointer load.
pub fn atomic_load_ptr(src: FlightPtr, loc: &SourceLocation) -> FlightPtr {
    let obj = check_access_at(src, Access::POINTER_READ, loc);
    match obj.aux_words() {
        Some(aux) => {
            let p = gimso_atomics::atomic_load(slot::<AbiBoxReader>(obj, aux, src.intval()));
            // SAFETY: read from a slot whose capability word the runtime wrote
            // from a `FlightPtr` (`store_ptr` and the atomic stores).
            unsafe { p.into_flight() }
        }
        None => FlightPtr::from_int(payload_word(src.intval()).load(Ordering::Acquire) as usize),
    }
}

/// Atomic compare-exchange on the intval: stores `value` iff the current
/// intval equals `expected`.
pub fn cmpxchg_ptr(
    local: &mut LocalHeap,
    dst: FlightPtr,
    expected: usize,
    value: FlightPtr,
    weak: bool,
    loc: &SourceLocation,
) -> CmpxchgResult {
    let obj = check_access_at(dst, Access::POINTER_WRITE, loc);
    let aux = aux_for_atomic(local, obj, dst, loc);
    let mut boxes = HeapBoxes(local);
    let (old, ok) = gimso_atomics::cmpxchg(
        slot(obj, aux, dst.intval()),
        expected as u64,
        Ptr::from(value),
        weak,
        &mut boxes,
    );
    CmpxchgResult {
        // SAFETY: the value found in the slot, whose capability word the
        // runtime wrote from a `FlightPtr`.
        old: unsafe { old.into_flight() },
        success: ok as u64,
    }
}

/// Atomic exchange: stores `value`, returns what it replaced.
pub fn xchg_ptr(
    local: &mut LocalHeap,
    dst: FlightPtr,
    value: FlightPtr,
    loc: &SourceLocation,
) -> FlightPtr {
    let obj = check_access_at(dst, Access::POINTER_WRITE, loc);
    let aux = aux_for_atomic(local, obj, dst, loc);
    let mut boxes = HeapBoxes(local);
    let old = gimso_atomics::xchg(slot(obj, aux, dst.intval()), Ptr::from(value), &mut boxes);
    // SAFETY: the value found in the slot, whose capability word the
    // runtime wrote from a `FlightPtr`.
    unsafe { old.into_flight() }
}
