//! `setjmp` / `longjmp` (and the `sig` forms) over the call ABI.
//!
//! The translation turns a direct `setjmp(env)` into
//! [`gimso_setjmp_prepare`] plus glibc's `_setjmp` on a native `jmp_buf`
//! kept in the calling frame (out of the program's reach, and scanned with
//! the stack). The program's `jmp_buf` receives, in its first word, the
//! capability of a `JMP_BUF` special object naming that native buffer, the
//! frame's record (linked on the thread's chain while the function runs)
//! and the record's epoch. `longjmp` checks the record is still on the
//! calling thread's chain with the same epoch (else the frame has returned:
//! a safety error), unlinks the records of the frames it leaves, drops any
//! exception in flight, restores a saved signal mask and jumps.

use core::ffi::{c_int, c_void};
use core::sync::atomic::{AtomicU64, Ordering};

use gimso_abi::{FlightPtr, FrameRecord, SourceLocation, SpecialKind, ThreadAbi};
use gimso_shadow::ObjRef;
use gimso_shadow::report::SafetyError;

use crate::{mem, report, wrapper};

unsafe extern "C" {
    /// glibc's `longjmp` (the runtime's own symbol: the program's
    /// `longjmp` is `gimso.fn.longjmp`).
    #[link_name = "longjmp"]
    fn native_longjmp(env: *mut c_void, val: c_int) -> !;
}

/// The payload of a `JMP_BUF` special object.
#[repr(C)]
struct JmpTarget {
    native: usize,
    record: usize,
    epoch: u64,
    thread: usize,
    mask_saved: u64,
    mask: libc::sigset_t,
}

static EPOCH: AtomicU64 = AtomicU64::new(1);

/// The first half of a translated `setjmp(env)` / `sigsetjmp(env, save)`:
/// numbers the frame's record, makes the `JMP_BUF` object and stores its
/// capability in `env`'s first word (a checked pointer store).
///
/// # Safety
/// `thread` is the calling thread's ABI struct; `native` is the caller's
/// native `jmp_buf`; `record` is the caller's linked frame record; `loc` is
/// null or a location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_setjmp_prepare(
    thread: *mut ThreadAbi,
    env: FlightPtr,
    native: *mut c_void,
    record: *mut FrameRecord,
    savemask: c_int,
    _loc: *const SourceLocation,
) {
    // SAFETY: the caller's own record (contract).
    let rec = unsafe { &mut *record };
    if rec.epoch == 0 {
        rec.epoch = EPOCH.fetch_add(1, Ordering::Relaxed);
    }
    let obj = mem::with_local(|l| {
        gimso_shadow::alloc_special(l, SpecialKind::JmpBuf, size_of::<JmpTarget>(), 0)
    });
    let target = obj.lower() as *mut JmpTarget;
    // SAFETY: a fresh JMP_BUF special with a payload of JmpTarget's size
    // (16-aligned); the mask is filled by sigprocmask when asked for.
    unsafe {
        target.write(JmpTarget {
            native: native as usize,
            record: record as usize,
            epoch: rec.epoch,
            thread: thread as usize,
            mask_saved: u64::from(savemask != 0),
            mask: core::mem::zeroed(),
        });
        if savemask != 0 {
            libc::sigprocmask(libc::SIG_BLOCK, core::ptr::null(), &raw mut (*target).mask);
        }
    }
    mem::store_ptr(env, obj.flight_ptr());
}

/// Jumps to the `setjmp` that filled `env`.
fn jump(env: FlightPtr, val: i32, what: &'static str) -> ! {
    let p = mem::load_ptr(env);
    if p.lower() == 0 {
        report::pointer_error(SafetyError::InvalidJmpBuf, env, what);
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    if obj.kind() != Some(SpecialKind::JmpBuf) || obj.is_free() {
        report::pointer_error(SafetyError::InvalidJmpBuf, env, what);
    }
    // SAFETY: JMP_BUF objects hold a JmpTarget written by setjmp_prepare.
    let t = unsafe { &*(p.lower() as *const JmpTarget) };
    let thread = gimso_gc::current().abi_ptr().cast_mut();
    if t.thread != thread as usize {
        report::pointer_error(SafetyError::LongjmpDeadFrame, env, what);
    }
    // The target frame must still be on this thread's chain, with the
    // epoch its record had at setjmp, and no C library frame in between.
    let mut crossed_barrier = false;
    let mut found = false;
    // SAFETY: our own thread's chain of live records.
    for f in unsafe { gimso_unwind::frames::walk((*thread).unwind_frames) } {
        // SAFETY: records on the chain are live.
        if f.record as usize == t.record && unsafe { (*f.record).epoch } == t.epoch {
            found = true;
            break;
        }
        crossed_barrier |= f.stops_jumps();
    }
    if !found {
        report::pointer_error(SafetyError::LongjmpDeadFrame, env, what);
    }
    if crossed_barrier {
        report::fatal(&format!(
            "{what}: the jump would leave a C library call into compiled code (a qsort \
             comparator, an atexit handler); that is not supported"
        ));
    }
    gimso_unwind::engine::abandon_all();
    // A signal handler left by this jump skipped the rest of its delivery.
    crate::signal::rearm();
    // SAFETY: the record is live (found above): the frames inside it are
    // left by the jump, so their records are unlinked first. The native
    // buffer lives in that frame; glibc's longjmp restores its registers.
    // No Rust value with a destructor is alive in this frame.
    unsafe {
        (*thread).unwind_frames = t.record as *mut FrameRecord;
        if t.mask_saved != 0 {
            libc::sigprocmask(libc::SIG_SETMASK, &t.mask, core::ptr::null_mut());
        }
        native_longjmp(t.native as *mut c_void, if val == 0 { 1 } else { val })
    }
}

wrapper! {
    /// `void longjmp(jmp_buf env, int val)`.
    fn longjmp(env: FlightPtr, val: i32) -> () {
        jump(env, val, "longjmp")
    }
}

wrapper! {
    /// `void _longjmp(jmp_buf env, int val)`.
    fn _longjmp(env: FlightPtr, val: i32) -> () {
        jump(env, val, "_longjmp")
    }
}

wrapper! {
    /// `void siglongjmp(sigjmp_buf env, int val)`: also restores the signal
    /// mask `sigsetjmp` saved.
    fn siglongjmp(env: FlightPtr, val: i32) -> () {
        jump(env, val, "siglongjmp")
    }
}

wrapper! {
    /// `int setjmp(jmp_buf env)` called through a pointer: the translation
    /// handles direct calls only.
    fn _setjmp(_env: FlightPtr) -> i32 {
        report::fatal("setjmp called through a function pointer is not supported")
    }
}
