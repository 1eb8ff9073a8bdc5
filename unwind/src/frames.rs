//! The thread's chain of frame records, innermost first.

use gimso_abi::{FlightPtr, FrameRecord, ThreadAbi};

/// What the unwinder reads of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The record itself (its identity marks the handler frame).
    pub record: *mut FrameRecord,
    /// The personality; a null capability marks a barrier.
    pub personality: FlightPtr,
    /// The landing-pad object of the call the frame is in, or null.
    pub lsda: FlightPtr,
}

/// `personality.intval` of a barrier that a `longjmp` may cross (see
/// [`BarrierKind::LeavableByJump`]); other barriers have 0. Compiled code's
/// own records never have a null-capability personality with this value
/// (theirs are 1, `FRAME_NO_PERSONALITY`, or a real function).
const LEAVABLE_BARRIER: usize = 2;

/// What a barrier record guards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierKind {
    /// Compiled code called from the middle of a C library function (a
    /// `qsort` comparator, an `atexit` handler): neither an exception nor
    /// a `longjmp` may leave it, as the library's frames would never finish.
    Closed,
    /// Compiled code the runtime runs at a point where nothing of its own
    /// is left to finish (a signal handler, run at a safepoint): an
    /// exception still stops there, but a `longjmp` may leave it, as POSIX
    /// allows leaving a signal handler.
    LeavableByJump,
}

impl Frame {
    /// Whether this is a runtime barrier (compiled code called from
    /// runtime code, which cannot be unwound).
    pub fn is_barrier(&self) -> bool {
        self.personality.lower() == 0
            && (self.personality.intval() == 0 || self.personality.intval() == LEAVABLE_BARRIER)
    }

    /// Whether this is a barrier a `longjmp` must not cross.
    pub fn stops_jumps(&self) -> bool {
        self.personality.lower() == 0 && self.personality.intval() == 0
    }

    /// Whether the frame has a personality to consult.
    pub fn has_personality(&self) -> bool {
        self.personality.lower() != 0
    }

    /// Whether the frame is in a call with a landing pad.
    pub fn has_landing_pad(&self) -> bool {
        self.lsda.intval() != 0 || self.lsda.lower() != 0
    }

    /// Reads record `record`.
    ///
    /// # Safety
    /// `record` points at a live frame record.
    pub unsafe fn read(record: *mut FrameRecord) -> Frame {
        // SAFETY: live record (contract).
        let r = unsafe { &*record };
        Frame {
            record,
            personality: r.personality,
            lsda: r.lsda,
        }
    }
}

/// The records from `top` outwards.
///
/// # Safety
/// Every record in the chain is live while the iterator is used: compiled
/// code unlinks its record before its frame goes away, and the runtime's
/// barriers live in frames below everything they call.
pub unsafe fn walk(top: *mut FrameRecord) -> impl Iterator<Item = Frame> {
    let mut next = top;
    core::iter::from_fn(move || {
        if next.is_null() {
            return None;
        }
        // SAFETY: a live record of the chain (contract).
        let frame = unsafe { Frame::read(next) };
        // SAFETY: as above.
        next = unsafe { (*next).prev };
        Some(frame)
    })
}

/// Runs `f` with a barrier record of `kind` linked on `thread`'s chain: an
/// exception raised by compiled code `f` calls cannot be caught beyond it
/// (phase 1 ends there with `_URC_END_OF_STACK`).
///
/// # Safety
/// `thread` is the calling thread's ABI struct. With
/// [`BarrierKind::LeavableByJump`], the frames between the caller and `f`
/// hold nothing that must be dropped or released: a `longjmp` may leave
/// them without returning.
pub unsafe fn with_barrier<R>(
    thread: *mut ThreadAbi,
    kind: BarrierKind,
    f: impl FnOnce() -> R,
) -> R {
    let intval = match kind {
        BarrierKind::Closed => 0,
        BarrierKind::LeavableByJump => LEAVABLE_BARRIER,
    };
    // SAFETY: `thread` is the caller's own ABI struct (contract); the record
    // lives in this frame, below everything `f` runs, and is unlinked
    // before the frame returns.
    unsafe {
        let mut record = FrameRecord {
            prev: (*thread).unwind_frames,
            personality: FlightPtr::from_int(intval),
            lsda: FlightPtr::NULL,
            epoch: 0,
        };
        (*thread).unwind_frames = &raw mut record;
        let r = f();
        (*thread).unwind_frames = record.prev;
        r
    }
}
