//! The exported C ABI (`include/gimso.h`). Thin shims: each decodes its
//! arguments and calls into the member crates.
//!
//! # Safety (for all functions here)
//! Capabilities (`lower` fields) must be values the runtime handed out or
//! 0: compiled code cannot forge one, and hand-written C must not either.

use gimso_abi::{ABI_VERSION, CmpxchgResult, FlightPtr, MAX_ALIGN, SourceLocation, ThreadAbi};
use gimso_shadow::check::{Access, access_failed, check_access_at};
use gimso_shadow::{free, function, lookup, memops, pointer};

use crate::mutator::with_local;

pub(crate) fn location<'a>(loc: *const SourceLocation) -> &'a SourceLocation {
    if loc.is_null() {
        &SourceLocation::UNKNOWN
    } else {
        // SAFETY: compiled code passes a pointer to a static location record.
        unsafe { &*loc }
    }
}

/// The ABI version of this runtime.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_abi_version() -> u32 {
    ABI_VERSION
}

/// Allocates a zeroed object of `size` bytes. A safepoint.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_alloc(size: usize) -> FlightPtr {
    gimso_gc::alloc(size, 16, 0).flight_ptr()
}

/// Allocates a zeroed object of `size` bytes aligned to `align`; null for an
/// alignment that is not a power of two or exceeds `GIMSO_MAX_ALIGN`.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_alloc_aligned(size: usize, align: usize) -> FlightPtr {
    if !align.is_power_of_two() || align > MAX_ALIGN {
        return FlightPtr::NULL;
    }
    gimso_gc::alloc(size, align, 0).flight_ptr()
}

/// `free`.
///
/// # Safety
/// `p.lower` is 0 or a runtime-issued capability.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_free(p: FlightPtr) {
    free::free(p);
}

/// Bytes accessible from the start of `p`'s object.
///
/// # Safety
/// `p.lower` is 0 or a runtime-issued capability.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_object_size(p: FlightPtr) -> usize {
    if p.lower() == 0 {
        return 0;
    }
    // SAFETY: the caller passes a runtime-issued capability.
    let obj = unsafe { gimso_shadow::ObjRef::from_lower(p.lower()) };
    obj.upper() - obj.lower()
}

/// Checks an access; reports and stops on failure.
///
/// # Safety
/// `p.lower` is 0 or a runtime-issued capability.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_check_access(p: FlightPtr, size: usize, access: u32) {
    check_access_at(p, Access::from_abi(size, access), &SourceLocation::UNKNOWN);
}

/// The out-of-line failure path of an inlined access check. Never returns:
/// an access the runtime finds valid here means the inline check and the
/// runtime disagree, which is reported as an internal error rather than
/// letting the program go on past a check it failed.
///
/// # Safety
/// `p.lower` is 0 or a runtime-issued capability; `loc` is null or points
/// at a valid location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_access_failed(
    p: FlightPtr,
    size: usize,
    access: u32,
    loc: *const SourceLocation,
) -> ! {
    let loc = location(loc);
    access_failed(p, Access::from_abi(size, access), loc);
    gimso_shadow::report::fatal(&format!(
        "internal error: an inline check of {size} bytes at {:#x} failed, yet the access is valid ({})",
        p.intval(),
        gimso_shadow::report::describe_location(loc)
    ))
}

/// The failure path of an inline check that covered several accesses
/// through one capability (the pass widens the first check of a block to
/// the later ones): reports this access if it fails, else returns so the
/// compiled code rechecks the next one.
///
/// # Safety
/// As [`gimso_access_failed`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_access_recheck(
    p: FlightPtr,
    size: usize,
    access: u32,
    loc: *const SourceLocation,
) {
    access_failed(p, Access::from_abi(size, access), location(loc));
}

/// Non-atomic pointer store.
///
/// # Safety
/// Both capabilities are 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_store_ptr(dst: FlightPtr, value: FlightPtr) {
    with_local(|l| pointer::store_ptr(l, dst, value, &SourceLocation::UNKNOWN));
}

/// Non-atomic pointer load.
///
/// # Safety
/// `src.lower` is 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_load_ptr(src: FlightPtr) -> FlightPtr {
    pointer::load_ptr(src, &SourceLocation::UNKNOWN)
}

/// Atomic pointer store.
///
/// # Safety
/// Both capabilities are 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_atomic_store_ptr(dst: FlightPtr, value: FlightPtr) {
    with_local(|l| pointer::atomic_store_ptr(l, dst, value, &SourceLocation::UNKNOWN));
}

/// Atomic pointer load.
///
/// # Safety
/// `src.lower` is 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_atomic_load_ptr(src: FlightPtr) -> FlightPtr {
    pointer::atomic_load_ptr(src, &SourceLocation::UNKNOWN)
}

/// Atomic pointer compare-exchange on the intval.
///
/// # Safety
/// Both capabilities are 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_atomic_cmpxchg_ptr(
    dst: FlightPtr,
    expected: usize,
    value: FlightPtr,
    weak: i32,
) -> CmpxchgResult {
    with_local(|l| {
        pointer::cmpxchg_ptr(l, dst, expected, value, weak != 0, &SourceLocation::UNKNOWN)
    })
}

/// Atomic pointer exchange.
///
/// # Safety
/// Both capabilities are 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_atomic_xchg_ptr(dst: FlightPtr, value: FlightPtr) -> FlightPtr {
    with_local(|l| pointer::xchg_ptr(l, dst, value, &SourceLocation::UNKNOWN))
}

/// `memmove` with capability rules.
///
/// # Safety
/// Both capabilities are 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_memmove(dst: FlightPtr, src: FlightPtr, n: usize) {
    with_local(|l| memops::memmove_at(l, dst, src, n, &SourceLocation::UNKNOWN));
}

/// `memcpy`: a `memmove`.
///
/// # Safety
/// Both capabilities are 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_memcpy(dst: FlightPtr, src: FlightPtr, n: usize) {
    with_local(|l| memops::memmove_at(l, dst, src, n, &SourceLocation::UNKNOWN));
}

/// `memset` with capability rules.
///
/// # Safety
/// `dst.lower` is 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_memset(dst: FlightPtr, c: i32, n: usize) {
    memops::memset_at(dst, c as u8, n, &SourceLocation::UNKNOWN);
}

/// A function capability for `entry`.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_function_new(entry: usize) -> FlightPtr {
    with_local(|l| function::new_function(l, entry))
}

/// The call check: the entry to call through `f`.
///
/// # Safety
/// `f.lower` is 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_check_call(f: FlightPtr) -> usize {
    function::check_call_at(f, &SourceLocation::UNKNOWN)
}

/// Attaches the calling thread to the runtime (idempotent; threads also
/// attach on their first runtime call) and returns its ABI struct.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_thread_attach() -> *const ThreadAbi {
    gimso_gc::attach().abi_ptr()
}

/// Detaches the calling thread (also done automatically at thread exit).
#[unsafe(no_mangle)]
pub extern "C" fn gimso_thread_detach() {
    gimso_gc::detach();
}

/// Leaves the entered state before something that may block.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_exit() {
    gimso_gc::exit(gimso_gc::current());
}

/// Returns to the entered state after `gimso_exit`.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_enter() {
    gimso_gc::enter(gimso_gc::current());
}

/// A safepoint: serves pending collector requests.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_pollcheck() {
    gimso_gc::pollcheck(gimso_gc::current());
}

/// The slow path of an inlined pollcheck on `thread`'s state word.
///
/// # Safety
/// `thread` is the calling thread's ABI struct from `gimso_thread_attach`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_pollcheck_slow(thread: *const ThreadAbi) {
    // SAFETY: a Thread starts with its ThreadAbi (repr(C), offset 0).
    let t = unsafe { &*(thread as *const gimso_gc::Thread) };
    gimso_gc::thread::poll_slow(t);
    // Signals are delivered here, in compiled code, never inside the
    // runtime (where a handler could find a lock held).
    if t.state().load(core::sync::atomic::Ordering::Acquire) & gimso_abi::THREAD_REQUEST_SIGNAL != 0
    {
        // SAFETY: called from compiled code's pollcheck; `poll_slow` has
        // returned, and this frame holds nothing but `t`.
        unsafe { gimso_libc_wrappers::signal::deliver_pending_leavable() };
    }
}

/// Runs a full collection and waits for it.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_gc_collect() {
    gimso_gc::collect();
}

/// Completed collection cycles.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_gc_cycles() -> u64 {
    gimso_gc::collector::cycles_completed()
}

/// Registers a global object as a root for the rest of the program.
///
/// # Safety
/// `p.lower` is 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_register_global(p: FlightPtr) {
    gimso_gc::register_global_object(p.lower());
}

/// The object containing `addr`, as a pointer to `addr` with its capability.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_lookup(addr: usize) -> FlightPtr {
    match lookup::object_containing(addr) {
        Some(obj) => obj.flight_ptr_at(addr),
        None => FlightPtr::NULL,
    }
}
