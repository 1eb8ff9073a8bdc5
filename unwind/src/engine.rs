//! Phase 1, phase 2 and the per-thread stack of exceptions in flight.
//!
//! An exception is in flight from the moment phase 1 finds a handler (or
//! a forced unwind starts) until the handler frame's landing pad is
//! entered. Exceptions nest: a cleanup may raise and catch its own
//! exception while an outer one waits to be resumed, so each thread keeps
//! a stack of them; the innermost is the one every landing pad and
//! `resume` concerns.

use core::any::Any;
use core::cell::RefCell;
use core::fmt;

use gimso_abi::{
    FlightPtr, FrameRecord, UA_CLEANUP_PHASE, UA_END_OF_STACK, UA_FORCE_UNWIND, UA_HANDLER_FRAME,
    UA_SEARCH_PHASE, URC_CONTINUE_UNWIND, URC_END_OF_STACK, URC_FATAL_PHASE1_ERROR,
    URC_HANDLER_FOUND, URC_INSTALL_CONTEXT, URC_NO_REASON,
};

use crate::frames::{Frame, walk};

/// What a personality (or stop function) sees through its
/// `_Unwind_Context`, and the two unwind registers it may set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextData {
    /// `_Unwind_GetLanguageSpecificData`.
    pub lsda: FlightPtr,
    /// `_Unwind_GetGR`/`_Unwind_SetGR` registers 0 and 1; the landing pad
    /// receives them.
    pub regs: [FlightPtr; 2],
}

impl ContextData {
    fn of(frame: Option<&Frame>) -> ContextData {
        ContextData {
            lsda: frame.map_or(FlightPtr::NULL, |f| f.lsda),
            regs: [FlightPtr::NULL; 2],
        }
    }
}

/// Calls into personality and stop functions.
pub trait Personalities {
    /// Calls `frame`'s personality as
    /// `personality(1, actions, class, exc, context)`; returns its reason
    /// code. `ctx` is what the context shows and collects.
    fn personality(
        &mut self,
        frame: &Frame,
        actions: u64,
        class: u64,
        exc: FlightPtr,
        ctx: &mut ContextData,
    ) -> u64;

    /// Calls a forced unwind's stop function as
    /// `stop(1, actions, class, exc, context, stop_arg)` for `frame` (none
    /// at the end of the stack); returns its reason code.
    #[allow(clippy::too_many_arguments)]
    fn stop(
        &mut self,
        stop: FlightPtr,
        stop_arg: FlightPtr,
        frame: Option<&Frame>,
        actions: u64,
        class: u64,
        exc: FlightPtr,
        ctx: &mut ContextData,
    ) -> u64;
}

/// How `_Unwind_RaiseException` / `_Unwind_ForcedUnwind` end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Raise {
    /// Phase 2 has begun: return to the caller with the exception flag.
    Unwind,
    /// Return this reason code to the caller normally (no handler:
    /// `_URC_END_OF_STACK`; a personality failed: `_URC_FATAL_PHASE1_ERROR`).
    Return(u64),
}

/// What an `invoke` whose callee returned with the exception flag does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pad {
    /// Run the landing pad with these register values.
    Enter([FlightPtr; 2]),
    /// No landing pad work here: keep unwinding (return with the flag).
    Continue,
}

/// Phase 2 cannot go on; the runtime reports these as fatal errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnwindError {
    /// A return carried the exception flag but no exception is in flight.
    NothingInFlight,
    /// The landing-pad routine ran in a function without a frame record.
    NoFrame,
    /// The personality declined the frame it chose in phase 1.
    HandlerDeclined,
    /// A personality answered phase 2 with this code.
    Phase2(u64),
    /// A forced unwind's stop function answered with this code.
    Stop(u64),
    /// The exception reached compiled code's caller in the C library (a
    /// barrier) although phase 1 found its handler further out.
    ReachedBarrier,
    /// A forced unwind reached the end of the stack and its stop function
    /// returned (with this code).
    ForcedEndOfStack(u64),
    /// `_Unwind_Resume` with an exception that is not the one in flight.
    ResumeMismatch,
}

impl fmt::Display for UnwindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UnwindError::NothingInFlight => {
                f.write_str("a function returned unwinding, but no exception is in flight")
            }
            UnwindError::NoFrame => {
                f.write_str("a landing pad was reached in a frame the unwinder does not know")
            }
            UnwindError::HandlerDeclined => {
                f.write_str("the personality declined, in phase 2, the handler it found in phase 1")
            }
            UnwindError::Phase2(code) => {
                write!(f, "a personality returned reason code {code} in phase 2")
            }
            UnwindError::Stop(code) => {
                write!(
                    f,
                    "the forced unwind's stop function returned reason code {code}"
                )
            }
            UnwindError::ReachedBarrier => f.write_str(
                "an exception unwound into the C library, which cannot unwind (phase 1 found a \
                 handler beyond it)",
            ),
            UnwindError::ForcedEndOfStack(code) => write!(
                f,
                "a forced unwind reached the end of the stack and its stop function returned \
                 (reason code {code})"
            ),
            UnwindError::ResumeMismatch => {
                f.write_str("_Unwind_Resume was given an exception that is not in flight")
            }
        }
    }
}

/// One exception in flight.
struct InFlight {
    exc: FlightPtr,
    class: u64,
    /// The handler frame phase 1 chose (null for a forced unwind).
    handler: *mut FrameRecord,
    /// `(stop, stop_arg)` of a forced unwind.
    forced: Option<(FlightPtr, FlightPtr)>,
    /// Keeps the exception object alive while only the runtime holds it.
    _keep: Box<dyn Any>,
}

thread_local! {
    static IN_FLIGHT: RefCell<Vec<InFlight>> = const { RefCell::new(Vec::new()) };
}

/// The innermost exception in flight: `(exc, class, handler, forced)`.
type Top = (
    FlightPtr,
    u64,
    *mut FrameRecord,
    Option<(FlightPtr, FlightPtr)>,
);

fn top() -> Option<Top> {
    IN_FLIGHT.with(|s| {
        s.borrow()
            .last()
            .map(|t| (t.exc, t.class, t.handler, t.forced))
    })
}

fn pop() {
    let done = IN_FLIGHT.with(|s| s.borrow_mut().pop());
    drop(done);
}

/// How many exceptions the calling thread has in flight.
pub fn in_flight() -> usize {
    IN_FLIGHT.with(|s| s.borrow().len())
}

/// The innermost exception in flight on the calling thread.
pub fn current_exception() -> Option<FlightPtr> {
    top().map(|t| t.0)
}

/// `_Unwind_RaiseException`: phase 1 from `top_record` outwards. Nothing
/// runs but personalities in search mode. `keep` is dropped when the
/// exception stops being in flight.
///
/// # Safety
/// `top_record` is null or the calling thread's innermost live record.
pub unsafe fn raise(
    p: &mut impl Personalities,
    top_record: *mut FrameRecord,
    exc: FlightPtr,
    class: u64,
    keep: Box<dyn Any>,
) -> Raise {
    let mut handler = None;
    // SAFETY: the chain is live (contract).
    for frame in unsafe { walk(top_record) } {
        if frame.is_barrier() {
            break;
        }
        if !frame.has_personality() || !frame.has_landing_pad() {
            continue;
        }
        let mut ctx = ContextData::of(Some(&frame));
        match p.personality(&frame, UA_SEARCH_PHASE, class, exc, &mut ctx) {
            URC_HANDLER_FOUND => {
                handler = Some(frame.record);
                break;
            }
            URC_CONTINUE_UNWIND => {}
            _ => return Raise::Return(URC_FATAL_PHASE1_ERROR),
        }
    }
    let Some(handler) = handler else {
        return Raise::Return(URC_END_OF_STACK);
    };
    IN_FLIGHT.with(|s| {
        s.borrow_mut().push(InFlight {
            exc,
            class,
            handler,
            forced: None,
            _keep: keep,
        })
    });
    Raise::Unwind
}

/// `_Unwind_ForcedUnwind`: phase 2 only; `stop` is consulted at every
/// frame before its personality, and at the end of the stack.
pub fn force(
    exc: FlightPtr,
    class: u64,
    stop: FlightPtr,
    stop_arg: FlightPtr,
    keep: Box<dyn Any>,
) -> Raise {
    IN_FLIGHT.with(|s| {
        s.borrow_mut().push(InFlight {
            exc,
            class,
            handler: core::ptr::null_mut(),
            forced: Some((stop, stop_arg)),
            _keep: keep,
        })
    });
    Raise::Unwind
}

/// Phase 2 at an `invoke` whose callee returned with the exception flag;
/// `top_record` is the invoking function's own record.
///
/// # Safety
/// `top_record` is null or the calling thread's innermost live record.
pub unsafe fn landing_pad(
    p: &mut impl Personalities,
    top_record: *mut FrameRecord,
) -> Result<Pad, UnwindError> {
    let (exc, class, handler, forced) = top().ok_or(UnwindError::NothingInFlight)?;
    if top_record.is_null() {
        return Err(UnwindError::NoFrame);
    }
    // SAFETY: live record (contract).
    let frame = unsafe { Frame::read(top_record) };
    if frame.is_barrier() {
        return Err(UnwindError::NoFrame);
    }
    let mut actions = UA_CLEANUP_PHASE;
    if let Some((stop, arg)) = forced {
        actions |= UA_FORCE_UNWIND;
        let mut ctx = ContextData::of(Some(&frame));
        let r = p.stop(stop, arg, Some(&frame), actions, class, exc, &mut ctx);
        if r != URC_NO_REASON {
            return Err(UnwindError::Stop(r));
        }
    }
    if !frame.has_personality() || !frame.has_landing_pad() {
        return Ok(Pad::Continue);
    }
    let is_handler = frame.record == handler;
    if is_handler {
        actions |= UA_HANDLER_FRAME;
    }
    let mut ctx = ContextData::of(Some(&frame));
    match p.personality(&frame, actions, class, exc, &mut ctx) {
        URC_INSTALL_CONTEXT => {
            if is_handler {
                pop();
            }
            Ok(Pad::Enter(ctx.regs))
        }
        URC_CONTINUE_UNWIND if is_handler => Err(UnwindError::HandlerDeclined),
        URC_CONTINUE_UNWIND => Ok(Pad::Continue),
        other => Err(UnwindError::Phase2(other)),
    }
}

/// `_Unwind_Resume(exc)` called explicitly: `exc` must be the exception
/// in flight; the caller then returns with the exception flag.
pub fn resume(exc: FlightPtr) -> Result<(), UnwindError> {
    match top() {
        None => Err(UnwindError::NothingInFlight),
        Some((e, ..)) if e.intval() != exc.intval() => Err(UnwindError::ResumeMismatch),
        Some(_) => Ok(()),
    }
}

/// The exception flag reached a barrier (the runtime called compiled code,
/// which returned unwinding). A forced unwind's stop function sees the end
/// of the stack; anything that comes back is an error, as is a normal
/// exception (phase 1 never chooses a handler beyond a barrier).
pub fn at_barrier(p: &mut impl Personalities) -> UnwindError {
    let Some((exc, class, _, forced)) = top() else {
        return UnwindError::NothingInFlight;
    };
    let Some((stop, arg)) = forced else {
        return UnwindError::ReachedBarrier;
    };
    let actions = UA_CLEANUP_PHASE | UA_FORCE_UNWIND | UA_END_OF_STACK;
    let mut ctx = ContextData::of(None);
    let r = p.stop(stop, arg, None, actions, class, exc, &mut ctx);
    UnwindError::ForcedEndOfStack(r)
}

/// Drops the innermost exception in flight (the program is about to stop
/// with a fatal error, or a forced unwind's stop function ended it).
pub fn abandon() {
    pop();
}

/// Drops every exception in flight (a `longjmp` left their frames).
pub fn abandon_all() {
    let all = IN_FLIGHT.with(|s| core::mem::take(&mut *s.borrow_mut()));
    drop(all);
}
