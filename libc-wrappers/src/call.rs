//! Calling compiled code from the runtime (`main`, `atexit` handlers,
//! `qsort`/`bsearch` comparators) through its generic entry.
//!
//! The function pointer passes the call check (a FUNCTION capability whose
//! entry is the pointer's address); the arguments go into the inline CC
//! buffers with their capabilities (every other capability word zeroed);
//! the call runs behind an unwind barrier (an exception raised inside can
//! only be caught inside), an exception reaching the runtime anyway ends
//! a forced unwind or is a fatal error, and fewer return bytes than the
//! caller expects is a safety error.

use gimso_abi::{CC_INLINE_BYTES, EntryFn, FlightPtr, ThreadAbi, cc_place};
use gimso_shadow::function::classify_call;

use gimso_unwind::frames::BarrierKind;

use crate::report;

/// An argument passed to compiled code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CcArg {
    /// An `int` (low 4 bytes of its slot, sign-extended).
    I32(i32),
    /// A `long` / `size_t` (8 bytes).
    I64(i64),
    /// A `double`.
    F64(f64),
    /// A pointer with its capability.
    Ptr(FlightPtr),
}

/// What compiled code returned: the first return word, its capability and
/// the byte count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcReturn {
    /// Payload word 0 of the return value.
    pub word: u64,
    /// Capability word 0 of the return value, as compiled code left it in
    /// the CC buffer (private: it becomes a pointer only through
    /// [`CcReturn::ptr`]).
    cap: usize,
    /// `ret_bytes` the callee reported.
    pub bytes: u64,
}

impl CcReturn {
    /// The value as an `int`.
    pub fn i32(self) -> i32 {
        self.word as i32
    }

    /// The value as a pointer, with its capability.
    pub fn ptr(self) -> FlightPtr {
        // SAFETY: `cap` was read from the CC buffer's capability word, which
        // compiled code and the runtime only ever fill from capabilities
        // (or 0).
        unsafe { FlightPtr::new(self.word as usize, self.cap) }
    }
}

/// A checked callee: entry address and capability.
#[derive(Clone, Copy, Debug)]
pub struct Callee {
    entry: EntryFn,
    lower: usize,
}

impl Callee {
    /// Applies the call check to function pointer `f` (reports a
    /// non-function, a wrong address or a null capability).
    pub fn check(f: FlightPtr) -> Callee {
        let entry = match classify_call(f) {
            Ok(entry) => entry,
            Err(err) => report::call(err, f),
        };
        // SAFETY: the call check proved `entry` is the entry address stored
        // in a FUNCTION object, i.e. a generic entry (ABI v1).
        let entry = unsafe { core::mem::transmute::<usize, EntryFn>(entry) };
        Callee {
            entry,
            lower: f.lower(),
        }
    }

    /// A callee from an entry and capability compiled code handed over
    /// directly (`gimso_start_main`), with the same check.
    ///
    /// # Safety
    /// `lower` is 0 or a capability the runtime made ([`FlightPtr`]'s
    /// invariant).
    pub unsafe fn from_parts(entry: EntryFn, lower: usize) -> Callee {
        // SAFETY: as the caller promises.
        Callee::check(unsafe { FlightPtr::new(entry as usize, lower) })
    }

    /// Calls with `args`; `expect` bytes of return value are required.
    /// `what` names the call in reports ("qsort comparator", ...). Neither
    /// an exception nor a `longjmp` may leave the callee.
    pub fn call(self, args: &[CcArg], expect: u64, what: &str) -> CcReturn {
        self.call_behind(BarrierKind::Closed, args, expect, what)
    }

    /// [`Callee::call`] for a callee a `longjmp` may leave (a signal
    /// handler).
    ///
    /// # Safety
    /// No frame of the caller's, up to the compiled code it returns to,
    /// holds anything that must be dropped or released after the call.
    pub unsafe fn call_leavable(self, args: &[CcArg], expect: u64, what: &str) -> CcReturn {
        self.call_behind(BarrierKind::LeavableByJump, args, expect, what)
    }

    fn call_behind(self, kind: BarrierKind, args: &[CcArg], expect: u64, what: &str) -> CcReturn {
        let thread = gimso_gc::current().abi_ptr().cast_mut();
        // SAFETY: `thread` is the calling thread's ABI struct, which only
        // this thread touches while entered.
        let arg_bytes = unsafe { write_args(thread, args) };
        // SAFETY: the entry passed the call check; the arguments are in
        // the CC buffers of the calling thread as ABI v1 lays them out. The
        // barrier keeps exceptions from being caught beyond this call.
        let result = unsafe {
            gimso_unwind::frames::with_barrier(thread, kind, || {
                (self.entry)(thread, self.lower, arg_bytes)
            })
        };
        if result.has_exception != 0 {
            crate::unwind::exception_at_barrier(what);
        }
        if result.ret_bytes < expect {
            report::return_size(what, expect, result.ret_bytes);
        }
        if result.ret_bytes == 0 {
            return CcReturn {
                word: 0,
                cap: 0,
                bytes: 0,
            };
        }
        // SAFETY: `thread` is valid; a non-zero return small enough for us
        // to read (<= 8 bytes expected) sits in the inline buffers unless it
        // is larger than they are, in which case word 0 is in the outline.
        let (word, cap) = unsafe {
            if result.ret_bytes <= CC_INLINE_BYTES as u64 {
                ((*thread).cc_payload[0], (*thread).cc_caps[0])
            } else {
                (
                    (*thread).cc_outline_payload.read(),
                    (*thread).cc_outline_caps.read(),
                )
            }
        };
        CcReturn {
            word,
            cap,
            bytes: result.ret_bytes,
        }
    }
}

/// Lays `args` out in the inline CC buffers; returns `arg_bytes`.
///
/// # Safety
/// `thread` is the calling thread's ABI struct.
unsafe fn write_args(thread: *mut ThreadAbi, args: &[CcArg]) -> u64 {
    let mut end = 0;
    for a in args {
        let (offset, next) = cc_place(end, 8, 8);
        assert!(next as usize <= CC_INLINE_BYTES, "too many arguments");
        let w = (offset / 8) as usize;
        let (word, cap) = match *a {
            CcArg::I32(v) => (v as i64 as u64, 0),
            CcArg::I64(v) => (v as u64, 0),
            CcArg::F64(v) => (v.to_bits(), 0),
            CcArg::Ptr(p) => (p.intval() as u64, p.lower()),
        };
        // SAFETY: w < CC_INLINE_WORDS (asserted); thread is valid.
        unsafe {
            (*thread).cc_payload[w] = word;
            (*thread).cc_caps[w] = cap;
        }
        end = next;
    }
    end
}
