//! Entry points only compiled code calls (gimso.h, "Compiled code"): CC
//! buffer management, variadic argument objects, global initialisers and
//! the out-of-line failure paths of checks the pass inlines.

use gimso_abi::{
    CC_INLINE_BYTES, FLAG_READONLY, FlightPtr, MIN_ALIGN, SourceLocation, ThreadAbi, WORD_SIZE,
};
use gimso_shadow::check::{Access, check_access_at};
use gimso_shadow::report::{SafetyError, report_detail};
use gimso_shadow::{ObjRef, alloc, function, memops, pointer};

use crate::capi::location;
use crate::mutator::with_local;

/// The object of an `alloca` whose address escapes: zeroed, flagged as a
/// stack object (so `free` of it is refused).
#[unsafe(no_mangle)]
pub extern "C" fn gimso_alloc_stack(size: usize, align: usize) -> FlightPtr {
    gimso_gc::alloc(size, stack_align(align), gimso_abi::FLAG_STACK).flight_ptr()
}

/// [`gimso_alloc_stack`] for a local whose type holds pointers: its shadow
/// words come inline with it, so its first pointer store allocates nothing.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_alloc_stack_ptrs(size: usize, align: usize) -> FlightPtr {
    let obj = gimso_gc::alloc_shadowed(size, stack_align(align), gimso_abi::FLAG_STACK);
    obj.flight_ptr()
}

fn stack_align(align: usize) -> usize {
    if align.is_power_of_two() && align <= gimso_abi::MAX_ALIGN {
        align
    } else {
        MIN_ALIGN
    }
}

/// Makes the outline CC buffers of `t` hold at least `bytes` (their old
/// contents are dropped: callers fill them right after).
///
/// # Safety
/// `t` is the calling thread's ABI struct.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_cc_outline(t: *mut ThreadAbi, bytes: u64) {
    // SAFETY: `t` is the caller's own thread struct (contract); nobody else
    // touches its CC buffers while it runs compiled code (the collector reads
    // them only in this thread's handshakes or while it is exited).
    let t = unsafe { &mut *t };
    if t.cc_outline_bytes >= bytes {
        return;
    }
    let want = bytes
        .max(2 * t.cc_outline_bytes)
        .next_multiple_of(WORD_SIZE as u64);
    let words = want as usize / WORD_SIZE;
    // SAFETY: calloc of `words` zeroed words; the old buffers were allocated
    // here with calloc (or are null) and are no longer referenced.
    unsafe {
        let payload = libc::calloc(words, WORD_SIZE) as *mut u64;
        let caps = libc::calloc(words, WORD_SIZE) as *mut usize;
        if payload.is_null() || caps.is_null() {
            gimso_heap::os::fatal_oom(want as usize);
        }
        // Caps first to zero length: a scan never sees a stale pair.
        t.cc_outline_bytes = 0;
        libc::free(t.cc_outline_payload.cast());
        libc::free(t.cc_outline_caps.cast());
        t.cc_outline_payload = payload;
        t.cc_outline_caps = caps;
        t.cc_outline_bytes = want;
    }
}

/// Copies `n` bytes at `src` (checked) into CC buffer slots, capabilities
/// of whole aligned pointer words included (byval arguments).
///
/// # Safety
/// `payload`/`caps` point at `n` rounded up to 8 bytes of a CC buffer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_cc_copy_in(
    payload: *mut u64,
    caps: *mut usize,
    src: FlightPtr,
    n: usize,
    loc: *const SourceLocation,
) {
    let loc = location(loc);
    if n == 0 {
        return;
    }
    check_access_at(src, Access::read(n), loc);
    let words = n.div_ceil(WORD_SIZE);
    // SAFETY: `src` passed a read check of n bytes; the buffers hold
    // `words` words (contract).
    unsafe {
        core::ptr::copy_nonoverlapping(src.intval() as *const u8, payload.cast::<u8>(), n);
        for w in 0..words {
            let at = src.intval() + w * WORD_SIZE;
            let cap = if src.intval() % WORD_SIZE == 0 && (w + 1) * WORD_SIZE <= n {
                pointer::load_ptr(src.with_intval(at), loc).lower()
            } else {
                0
            };
            *caps.add(w) = cap;
        }
    }
}

/// A fresh object holding `n` bytes of CC buffer (payload and
/// capabilities): byval parameters.
///
/// # Safety
/// `payload`/`caps` point at `n` rounded up to 8 bytes of a CC buffer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_cc_copy_out(
    payload: *const u64,
    caps: *const usize,
    n: usize,
    align: usize,
) -> FlightPtr {
    // SAFETY: forwarded contract.
    unsafe { object_from_buffers(payload, caps, n, align.max(MIN_ALIGN), 0) }
}

/// The object of a stack local that holds pointers, made when its address
/// first leaves the function on a path that never returns (an error path
/// ending in `longjmp` or `abort`): a copy of the frame's slot, values and
/// capabilities, flagged as a stack object (so `free` of it is refused).
///
/// # Safety
/// `payload`/`caps` point at `n` rounded up to 8 bytes, 8-aligned.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_stack_copy_out(
    payload: *const u64,
    caps: *const usize,
    n: usize,
    align: usize,
) -> FlightPtr {
    // SAFETY: forwarded contract.
    unsafe {
        object_from_buffers(
            payload,
            caps,
            n,
            align.max(MIN_ALIGN),
            gimso_abi::FLAG_STACK,
        )
    }
}

/// # Safety
/// `payload`/`caps` point at `n` rounded up to 8 bytes; each word of `caps`
/// is 0 or a capability the runtime made (compiled code's CC buffers).
unsafe fn object_from_buffers(
    payload: *const u64,
    caps: *const usize,
    n: usize,
    align: usize,
    flags: u64,
) -> FlightPtr {
    let align = if align.is_power_of_two() && align <= gimso_abi::MAX_ALIGN {
        align
    } else {
        MIN_ALIGN
    };
    with_local(|local| {
        // Read-only is set after the copy; the stack flag from birth.
        let obj = alloc::alloc_object(local, n, align, flags & gimso_abi::FLAG_STACK);
        let words = n.div_ceil(WORD_SIZE);
        // SAFETY: the object has at least `n` bytes (rounded to 8) of fresh
        // payload; the buffers hold `words` words, whose capability words
        // are capabilities or 0 (contract).
        unsafe {
            core::ptr::copy_nonoverlapping(payload.cast::<u8>(), obj.lower() as *mut u8, n);
            for w in 0..words {
                let cap = *caps.add(w);
                if cap != 0 && (w + 1) * WORD_SIZE <= n {
                    let at = obj.lower() + w * WORD_SIZE;
                    let value = FlightPtr::new(*payload.add(w) as usize, cap);
                    pointer::init_ptr(local, obj, at, value);
                }
            }
        }
        if flags & FLAG_READONLY != 0 {
            obj.set_readonly();
        }
        obj.flight_ptr()
    })
}

/// The read-only argument object of a variadic function: a copy of bytes
/// `skip_bytes..arg_bytes` of the current CC buffers, its variadic
/// arguments. The fixed ones stay out: a caller may pass a capability it
/// keeps in its frame to a parameter the callee never captures, and this
/// object may outlive the call.
///
/// # Safety
/// `t` is the calling thread's ABI struct and its CC buffers hold the
/// current call's `arg_bytes` of arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_va_start(
    t: *mut ThreadAbi,
    arg_bytes: u64,
    skip_bytes: u64,
) -> FlightPtr {
    // SAFETY: `t` is the caller's own thread struct.
    let t = unsafe { &*t };
    let n = arg_bytes as usize;
    let skip = (skip_bytes as usize).min(n) / WORD_SIZE;
    let (payload, caps) = if n <= CC_INLINE_BYTES {
        (t.cc_payload.as_ptr(), t.cc_caps.as_ptr())
    } else {
        (
            t.cc_outline_payload.cast_const(),
            t.cc_outline_caps.cast_const(),
        )
    };
    // SAFETY: the chosen buffers hold the call's arguments (contract), of
    // which the first `skip` words are skipped.
    unsafe {
        object_from_buffers(
            payload.add(skip),
            caps.add(skip),
            n - skip * WORD_SIZE,
            MIN_ALIGN,
            FLAG_READONLY,
        )
    }
}

/// Module start-up: stores `value` at `at` inside a global object,
/// read-only or not.
///
/// # Safety
/// `at.lower` is a global object's capability.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_global_init_ptr(at: FlightPtr, value: FlightPtr) {
    if at.lower() == 0 {
        return;
    }
    // SAFETY: a non-zero lower is a runtime-issued (here: global) capability.
    let obj = unsafe { ObjRef::from_lower(at.lower()) };
    let inside = at.intval() % WORD_SIZE == 0
        && at.intval() >= obj.lower()
        && at
            .intval()
            .checked_add(WORD_SIZE)
            .is_some_and(|e| e <= obj.upper());
    if !inside {
        // The pass only emits offsets inside the initialiser.
        check_access_at(at, Access::POINTER_WRITE, &SourceLocation::UNKNOWN);
        return;
    }
    // SAFETY: `at` is an aligned word inside the live global object.
    with_local(|local| unsafe { pointer::init_ptr(local, obj, at.intval(), value) });
}

/// A callee needed `needed` argument bytes, its caller passed `given`.
///
/// # Safety
/// `loc` is null or a location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_arg_size_failed(
    needed: u64,
    given: u64,
    loc: *const SourceLocation,
) -> ! {
    let detail = format!("  arguments:  callee needs {needed} bytes, caller passed {given}\n");
    report_detail(SafetyError::ArgumentSize, &detail, location(loc))
}

/// A caller expected `expected` return bytes, its callee returned `given`.
///
/// # Safety
/// `loc` is null or a location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_ret_size_failed(
    expected: u64,
    given: u64,
    loc: *const SourceLocation,
) -> ! {
    let detail =
        format!("  returns:    caller expects {expected} bytes, callee returned {given}\n");
    report_detail(SafetyError::ReturnSize, &detail, location(loc))
}

/// Control reached an LLVM `unreachable`.
///
/// # Safety
/// `loc` is null or a location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_unreachable(loc: *const SourceLocation) -> ! {
    report_detail(SafetyError::Unreachable, "", location(loc))
}

/// `indirectbr` to an address that is none of the function's labels.
///
/// # Safety
/// `loc` is null or a location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_indirectbr_failed(target: usize, loc: *const SourceLocation) -> ! {
    let detail = format!("  target:     {target:#x}\n");
    report_detail(SafetyError::BadIndirectBranch, &detail, location(loc))
}

/// The call check with the call's location: the entry to call through `f`.
///
/// # Safety
/// `f.lower` is 0 or runtime-issued; `loc` is null or a location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_check_call_at(f: FlightPtr, loc: *const SourceLocation) -> usize {
    function::check_call_at(f, location(loc))
}

/// memmove (and memcpy) with the calling operation's location.
///
/// # Safety
/// Both capabilities are 0 or runtime-issued; `loc` is null or a record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_memmove_at(
    dst: FlightPtr,
    src: FlightPtr,
    n: usize,
    loc: *const SourceLocation,
) {
    if n.wrapping_sub(1) < memops::SMALL_MOVE_MAX && memops::memmove_small(dst, src, n) {
        return;
    }
    let loc = location(loc);
    with_local(|l| memops::memmove_at(l, dst, src, n, loc));
}

/// memset with the calling operation's location.
///
/// # Safety
/// `dst.lower` is 0 or runtime-issued; `loc` is null or a record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_memset_at(
    dst: FlightPtr,
    c: i32,
    n: usize,
    loc: *const SourceLocation,
) {
    memops::memset_at(dst, c as u8, n, location(loc));
}

/// The check of a masked vector access (`llvm.masked.load` / `store`,
/// `expandload` / `compressstore`): lane `i` of `elem` bytes at
/// `p + i * elem` is accessed when bit `i` of `lanes` is set. The span from
/// the first to the last enabled lane must be accessible; with no lane
/// enabled nothing is accessed and nothing is checked. (A disabled lane
/// between two enabled ones lies inside the span, hence inside the object.)
///
/// # Safety
/// `p.lower` is 0 or runtime-issued; `loc` is null or a location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_check_lanes_at(
    p: FlightPtr,
    lanes: u64,
    elem: usize,
    access: u32,
    loc: *const SourceLocation,
) {
    if lanes == 0 {
        return;
    }
    let first = lanes.trailing_zeros() as usize;
    let last = 63 - lanes.leading_zeros() as usize;
    let at = p.with_intval(p.intval().wrapping_add(first.wrapping_mul(elem)));
    let size = (last - first + 1).wrapping_mul(elem);
    check_access_at(at, Access::from_abi(size, access), location(loc));
}

/// `ptrtoint` under `-fgimso-exposed-provenance`: exposes the object of
/// `lower` ([`gimso_shadow::exposed`]). Compiled code calls this only when
/// the object's header lacks `FLAG_EXPOSED`.
///
/// # Safety
/// `lower` is 0 or runtime-issued.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_expose(lower: usize) {
    // SAFETY: forwarded contract.
    unsafe { gimso_shadow::exposed::expose(lower) }
}

/// `inttoptr` under `-fgimso-exposed-provenance`: `lower` if the integer
/// carries a capability already, else that of the exposed object
/// containing `addr` (or none).
#[unsafe(no_mangle)]
pub extern "C" fn gimso_exposed_lower(lower: usize, addr: usize) -> usize {
    if lower != 0 {
        return lower;
    }
    gimso_shadow::exposed::exposed_lower(addr)
}
