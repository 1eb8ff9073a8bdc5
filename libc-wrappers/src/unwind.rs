//! The unwinder's binding (docs/architecture.md, "Exceptions and the unwinder"): the `_Unwind_*` functions compiled
//! code calls, `__gcc_personality_v0`, and the entry points the translated
//! `invoke`/`landingpad` call. The algorithm is `gimso_unwind::engine`;
//! this module calls personality and stop functions through the call ABI
//! and hands them an `_Unwind_Context`.
//!
//! A context is a special object (`GIMSO_SPECIAL_UNWIND_CONTEXT`: program
//! code cannot read or write it) made for one personality or stop call and
//! valid only during it: its payload holds a generation number that must
//! match the call in progress on the calling thread.

use core::cell::{Cell, RefCell};
use core::sync::atomic::{AtomicU64, Ordering};

use gimso_abi::{
    FlightPtr, SourceLocation, SpecialKind, ThreadAbi, UA_CLEANUP_PHASE, UA_SEARCH_PHASE,
    URC_CONTINUE_UNWIND, URC_FOREIGN_EXCEPTION_CAUGHT, URC_INSTALL_CONTEXT,
};
use gimso_gc::Root;
use gimso_shadow::ObjRef;
use gimso_shadow::report::SafetyError;
use gimso_unwind::engine::{self, ContextData, Pad, Personalities, Raise, UnwindError};
use gimso_unwind::frames::Frame;

use crate::call::{Callee, CcArg};
use crate::cc::Unwinding;
use crate::{mem, report, wrapper};

/// The personality or stop call in progress on this thread.
struct Active {
    generation: u64,
    ctx: *mut ContextData,
    exc: FlightPtr,
}

thread_local! {
    static ACTIVE: RefCell<Vec<Active>> = const { RefCell::new(Vec::new()) };
    /// The registers the last landing pad entered with.
    static LANDING: Cell<[FlightPtr; 2]> = const { Cell::new([FlightPtr::NULL; 2]) };
}

static GENERATION: AtomicU64 = AtomicU64::new(1);

/// Calls personalities and stop functions compiled code provides.
struct Calls;

impl Calls {
    /// Runs `f` with a fresh context for `ctx`, passing the context object.
    fn with_context(
        ctx: &mut ContextData,
        exc: FlightPtr,
        f: impl FnOnce(FlightPtr) -> u64,
    ) -> u64 {
        let generation = GENERATION.fetch_add(1, Ordering::Relaxed);
        let obj =
            mem::with_local(|l| gimso_shadow::alloc_special(l, SpecialKind::UnwindContext, 8, 0));
        // SAFETY: a fresh UnwindContext special with an 8-byte private payload.
        unsafe { (obj.lower() as *mut u64).write(generation) };
        let ctx_ptr = obj.flight_ptr();
        ACTIVE.with(|a| {
            a.borrow_mut().push(Active {
                generation,
                ctx,
                exc,
            })
        });
        let r = f(ctx_ptr);
        ACTIVE.with(|a| a.borrow_mut().pop());
        r
    }
}

impl Personalities for Calls {
    fn personality(
        &mut self,
        frame: &Frame,
        actions: u64,
        class: u64,
        exc: FlightPtr,
        ctx: &mut ContextData,
    ) -> u64 {
        let callee = Callee::check(frame.personality);
        Calls::with_context(ctx, exc, |c| {
            let args = [
                CcArg::I32(1),
                CcArg::I32(actions as i32),
                CcArg::I64(class as i64),
                CcArg::Ptr(exc),
                CcArg::Ptr(c),
            ];
            callee.call(&args, 4, "a personality function").i32() as u32 as u64
        })
    }

    fn stop(
        &mut self,
        stop: FlightPtr,
        stop_arg: FlightPtr,
        _frame: Option<&Frame>,
        actions: u64,
        class: u64,
        exc: FlightPtr,
        ctx: &mut ContextData,
    ) -> u64 {
        let callee = Callee::check(stop);
        Calls::with_context(ctx, exc, |c| {
            let args = [
                CcArg::I32(1),
                CcArg::I32(actions as i32),
                CcArg::I64(class as i64),
                CcArg::Ptr(exc),
                CcArg::Ptr(c),
                CcArg::Ptr(stop_arg),
            ];
            callee
                .call(&args, 4, "a forced unwind's stop function")
                .i32() as u32 as u64
        })
    }
}

/// The calling thread's ABI struct.
fn thread() -> *mut ThreadAbi {
    gimso_gc::current().abi_ptr().cast_mut()
}

/// The calling thread's innermost frame record.
fn top_record() -> *mut gimso_abi::FrameRecord {
    // SAFETY: our own thread's ABI struct; only this thread writes it.
    unsafe { (*thread()).unwind_frames }
}

fn unwind_error(e: UnwindError) -> ! {
    engine::abandon();
    report::fatal(&format!("exception handling: {e}"))
}

/// Phase 2 reached compiled code's caller in the runtime (see
/// [`crate::call`]): a forced unwind ends, anything else is fatal.
pub fn exception_at_barrier(what: &str) -> ! {
    match engine::at_barrier(&mut Calls) {
        UnwindError::ReachedBarrier => {
            engine::abandon();
            report::fatal(&format!(
                "an exception unwound out of {what} into the C library, which cannot unwind"
            ))
        }
        e => unwind_error(e),
    }
}

/// The context `p` names, which must be the one of the personality or
/// stop call in progress on this thread; `f` gets its data and the
/// exception.
fn with_ctx<R>(
    p: FlightPtr,
    what: &'static str,
    f: impl FnOnce(&mut ContextData, FlightPtr) -> R,
) -> R {
    if p.lower() == 0 {
        report::pointer_error(SafetyError::NullCapability, p, what);
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    if obj.kind() != Some(SpecialKind::UnwindContext) || p.intval() != p.lower() {
        report::fatal(&format!(
            "{what}: {:#x} is not an unwind context",
            p.intval()
        ));
    }
    // SAFETY: UnwindContext objects have an 8-byte private payload.
    let generation = unsafe { (p.lower() as *const u64).read() };
    let active = ACTIVE.with(|a| {
        a.borrow()
            .iter()
            .rev()
            .find(|x| x.generation == generation)
            .map(|x| (x.ctx, x.exc))
    });
    let Some((ctx, exc)) = active else {
        report::fatal(&format!(
            "{what}: the unwind context is no longer valid (it lives only during its \
             personality or stop call)"
        ));
    };
    // SAFETY: the ContextData lives in the engine's frame for the duration
    // of the personality call, which is still in progress (it is on this
    // thread's ACTIVE stack).
    f(unsafe { &mut *ctx }, exc)
}

/// The exception class: the first 8 bytes of the exception object.
fn exception_class(exc: FlightPtr) -> u64 {
    u64::from_ne_bytes(mem::read_int::<8>(exc))
}

wrapper! {
    /// `_Unwind_Reason_Code _Unwind_RaiseException(struct _Unwind_Exception *)`:
    /// phase 1, then (if a handler was found) phase 2 by returning with the
    /// exception flag; otherwise `_URC_END_OF_STACK` (or
    /// `_URC_FATAL_PHASE1_ERROR`) is returned and no cleanup has run.
    fn _Unwind_RaiseException(exc: FlightPtr) -> Unwinding {
        let class = exception_class(exc);
        let keep = Box::new(Root::new(exc.lower()));
        // SAFETY: the chain of our own thread.
        match unsafe { engine::raise(&mut Calls, top_record(), exc, class, keep) } {
            Raise::Unwind => Unwinding::Unwind,
            Raise::Return(code) => Unwinding::Code(code as i32),
        }
    }
}

wrapper! {
    /// `void _Unwind_Resume(struct _Unwind_Exception *)`: goes on with the
    /// exception in flight after a cleanup.
    fn _Unwind_Resume(exc: FlightPtr) -> Unwinding {
        match engine::resume(exc) {
            Ok(()) => Unwinding::Unwind,
            Err(e) => unwind_error(e),
        }
    }
}

wrapper! {
    /// `_Unwind_Reason_Code _Unwind_Resume_or_Rethrow(struct _Unwind_Exception *)`:
    /// resumes the exception in flight, or raises it anew.
    fn _Unwind_Resume_or_Rethrow(exc: FlightPtr) -> Unwinding {
        if engine::resume(exc).is_ok() {
            return Unwinding::Unwind;
        }
        _Unwind_RaiseException::call(exc)
    }
}

wrapper! {
    /// `_Unwind_Reason_Code _Unwind_ForcedUnwind(struct _Unwind_Exception *,
    /// _Unwind_Stop_Fn, void *)`: phase 2 only; `stop` is called at every
    /// frame with a personality and at the end of the stack.
    fn _Unwind_ForcedUnwind(exc: FlightPtr, stop: FlightPtr, stop_arg: FlightPtr) -> Unwinding {
        let class = exception_class(exc);
        // The stop function must be callable: checked now, not mid-unwind.
        let _ = Callee::check(stop);
        let keep = Box::new((Root::new(exc.lower()), Root::new(stop_arg.lower())));
        match engine::force(exc, class, stop, stop_arg, keep) {
            Raise::Unwind => Unwinding::Unwind,
            Raise::Return(code) => Unwinding::Code(code as i32),
        }
    }
}

wrapper! {
    /// `void _Unwind_DeleteException(struct _Unwind_Exception *)`: calls the
    /// object's `exception_cleanup` (if any) with
    /// `_URC_FOREIGN_EXCEPTION_CAUGHT`.
    fn _Unwind_DeleteException(exc: FlightPtr) -> () {
        let cleanup = mem::load_ptr(exc.offset(8));
        if cleanup.intval() != 0 {
            let args = [CcArg::I32(URC_FOREIGN_EXCEPTION_CAUGHT as i32), CcArg::Ptr(exc)];
            Callee::check(cleanup).call(&args, 0, "an exception cleanup function");
        }
    }
}

/// Register `index` of a context, or a fatal error for any other register.
fn register(index: i32, what: &'static str) -> usize {
    match index {
        0 | 1 => index as usize,
        _ => report::fatal(&format!(
            "{what}: register {index} has no meaning under gimso (only 0 and 1, the values \
             the landing pad receives)"
        )),
    }
}

wrapper! {
    /// `_Unwind_Word _Unwind_GetGR(struct _Unwind_Context *, int)`.
    fn _Unwind_GetGR(ctx: FlightPtr, index: i32) -> FlightPtr {
        let i = register(index, "_Unwind_GetGR");
        with_ctx(ctx, "_Unwind_GetGR", |c, _| c.regs[i])
    }
}

wrapper! {
    /// `void _Unwind_SetGR(struct _Unwind_Context *, int, _Unwind_Word)`.
    /// The register is a pointer: an integer that points into the exception
    /// object being unwound (C personalities pass it as `uintptr_t`) gets
    /// that object's capability back.
    fn _Unwind_SetGR(ctx: FlightPtr, index: i32, value: FlightPtr) -> () {
        let i = register(index, "_Unwind_SetGR");
        with_ctx(ctx, "_Unwind_SetGR", |c, exc| {
            let mut v = value;
            if v.lower() == 0 && exc.lower() != 0 {
                // SAFETY: the exception's capability is runtime-issued.
                let obj = unsafe { ObjRef::from_lower(exc.lower()) };
                if (obj.lower()..obj.upper()).contains(&v.intval()) {
                    v = exc.with_intval(v.intval());
                }
            }
            c.regs[i] = v;
        })
    }
}

wrapper! {
    /// `void *_Unwind_GetLanguageSpecificData(struct _Unwind_Context *)`:
    /// the landing-pad object of the frame's current call (`gimso.h`,
    /// `gimso_eh_landing_pad`), or NULL.
    fn _Unwind_GetLanguageSpecificData(ctx: FlightPtr) -> FlightPtr {
        with_ctx(ctx, "_Unwind_GetLanguageSpecificData", |c, _| c.lsda)
    }
}

wrapper! {
    /// `_Unwind_Ptr _Unwind_GetRegionStart(struct _Unwind_Context *)`: 0
    /// (gimso's LSDA has no code addresses).
    fn _Unwind_GetRegionStart(ctx: FlightPtr) -> usize {
        with_ctx(ctx, "_Unwind_GetRegionStart", |_, _| 0)
    }
}

wrapper! {
    /// `_Unwind_Word _Unwind_GetIP(struct _Unwind_Context *)`: 0 (the
    /// landing pad is found from the LSDA, not from an address).
    fn _Unwind_GetIP(ctx: FlightPtr) -> usize {
        with_ctx(ctx, "_Unwind_GetIP", |_, _| 0)
    }
}

wrapper! {
    /// `void _Unwind_SetIP(struct _Unwind_Context *, _Unwind_Word)`: a
    /// fatal error: a personality chooses the landing pad by returning
    /// `_URC_INSTALL_CONTEXT` for the frame's own `landingpad`.
    fn _Unwind_SetIP(ctx: FlightPtr, _ip: usize) -> () {
        with_ctx(ctx, "_Unwind_SetIP", |_, _| ());
        report::fatal(
            "_Unwind_SetIP has no meaning under gimso: return _URC_INSTALL_CONTEXT to enter \
             the frame's landing pad",
        )
    }
}

wrapper! {
    /// `_Unwind_Reason_Code __gcc_personality_v0(int, _Unwind_Action,
    /// _Unwind_Exception_Class, struct _Unwind_Exception *, struct
    /// _Unwind_Context *)`: the personality of C compiled with
    /// `-fexceptions`. C has no handlers, so phase 1 passes every frame;
    /// phase 2 enters landing pads that have the cleanup flag
    /// (`__attribute__((cleanup))`).
    fn __gcc_personality_v0(
        version: i32,
        actions: i32,
        _class: u64,
        exc: FlightPtr,
        ctx: FlightPtr
    ) -> i32 {
        if version != 1 {
            return gimso_abi::URC_FATAL_PHASE1_ERROR as i32;
        }
        let actions = actions as u32 as u64;
        let lsda = with_ctx(ctx, "__gcc_personality_v0", |c, _| c.lsda);
        if actions & UA_SEARCH_PHASE != 0 || actions & UA_CLEANUP_PHASE == 0 || lsda.intval() == 0 {
            return URC_CONTINUE_UNWIND as i32;
        }
        let cleanup = u64::from_ne_bytes(mem::read_int::<8>(lsda));
        if cleanup == 0 {
            return URC_CONTINUE_UNWIND as i32;
        }
        with_ctx(ctx, "__gcc_personality_v0", |c, _| {
            c.regs = [exc, FlightPtr::NULL];
        });
        URC_INSTALL_CONTEXT as i32
    }
}

/// An `invoke` whose callee returned with the exception flag: 1 if its
/// landing pad runs (its `landingpad` then reads
/// [`gimso_landing_register`]), 0 if the exception goes on unwinding.
///
/// # Safety
/// `thread` is the calling thread's ABI struct; its innermost frame record
/// is the invoking function's.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_landing_pad(thread: *mut ThreadAbi) -> u64 {
    // SAFETY: our own thread's struct (contract).
    let top = unsafe { (*thread).unwind_frames };
    // SAFETY: the chain of our own thread.
    match unsafe { engine::landing_pad(&mut Calls, top) } {
        Ok(Pad::Enter(regs)) => {
            LANDING.with(|l| l.set(regs));
            1
        }
        Ok(Pad::Continue) => 0,
        Err(e) => unwind_error(e),
    }
}

/// Register `index` (0 or 1) the current landing pad was entered with.
#[unsafe(no_mangle)]
pub extern "C" fn gimso_landing_register(index: u64) -> FlightPtr {
    LANDING.with(|l| l.get()[(index & 1) as usize])
}

/// An exception unwound into a function that cannot unwind (C compiled
/// without `-fexceptions`, a `nounwind` call): the program stops.
///
/// # Safety
/// `loc` is null or a location record.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_unwind_into_nounwind(loc: *const SourceLocation) -> ! {
    let loc = if loc.is_null() {
        &SourceLocation::UNKNOWN
    } else {
        // SAFETY: compiled code passes its static location record.
        unsafe { &*loc }
    };
    engine::abandon();
    report::fatal(&format!(
        "an exception unwound into {}, which cannot unwind (compiled without -fexceptions, \
         or a nounwind call)",
        gimso_shadow::report::describe_location(loc)
    ))
}
