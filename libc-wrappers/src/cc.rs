//! The CC buffers from a wrapper's side (ABI v1, `include/gimso.h`):
//! reading arguments, variadic arguments, and writing the return value.
//!
//! Argument `i` sits at the offset `cc_place` gives it; its payload bytes
//! are the value as C lays it out (an `int` is the low 4 bytes of its
//! 8-byte slot) and the capability word of a pointer's slot is its
//! `lower`. A wrapper first checks that `arg_bytes` covers every fixed
//! argument, and a variadic wrapper checks each variadic argument it reads:
//! a caller passing fewer bytes is an argument-size safety error.

use gimso_abi::{CC_INLINE_BYTES, FlightPtr, cc_place};
pub use gimso_abi::{EntryResult, ThreadAbi};

use crate::report;

/// The argument area of one call: base of the payload and capability
/// buffers, how many bytes the caller passed, and a cursor.
#[derive(Debug)]
pub struct Args {
    payload: *const u64,
    caps: *const usize,
    arg_bytes: u64,
    end: u64,
    name: &'static str,
}

impl Args {
    /// The arguments of a call of wrapper `name` that passed `arg_bytes`,
    /// after checking they cover the fixed arguments laid out as `layout`
    /// (`(size, align)` each).
    ///
    /// # Safety
    /// `thread` is the calling thread's ABI struct, whose CC buffers hold
    /// the call's arguments (the inline ones when `arg_bytes <=
    /// CC_INLINE_BYTES`, else the outline ones, at least `arg_bytes` long).
    pub unsafe fn new(
        thread: *mut ThreadAbi,
        arg_bytes: u64,
        name: &'static str,
        layout: &[(u64, u64)],
    ) -> Args {
        let needed = layout
            .iter()
            .fold(0, |end, &(size, align)| cc_place(end, size, align).1);
        if arg_bytes < needed {
            report::argument_size(name, needed, arg_bytes);
        }
        // SAFETY: `thread` is valid (contract); we only take field addresses.
        let (payload, caps) = unsafe {
            if arg_bytes <= CC_INLINE_BYTES as u64 {
                (
                    (&raw const (*thread).cc_payload).cast::<u64>(),
                    (&raw const (*thread).cc_caps).cast::<usize>(),
                )
            } else {
                (
                    (*thread).cc_outline_payload.cast_const(),
                    (*thread).cc_outline_caps.cast_const(),
                )
            }
        };
        Args {
            payload,
            caps,
            arg_bytes,
            end: 0,
            name,
        }
    }

    /// Places the next argument of `size` bytes aligned to `align`; returns
    /// its word index, or `None` if the caller did not pass it.
    fn place(&mut self, size: u64, align: u64) -> Option<usize> {
        let (offset, end) = cc_place(self.end, size, align);
        if end > self.arg_bytes {
            return None;
        }
        self.end = end;
        Some((offset / 8) as usize)
    }

    /// Like `place`, reporting an argument-size error for a missing one.
    fn place_checked(&mut self, size: u64, align: u64) -> usize {
        match self.place(size, align) {
            Some(w) => w,
            None => {
                let needed = cc_place(self.end, size, align).1;
                report::argument_size(self.name, needed, self.arg_bytes)
            }
        }
    }

    fn word(&self, w: usize) -> u64 {
        // SAFETY: `w` is a word below arg_bytes, inside the buffer (new).
        unsafe { self.payload.add(w).read() }
    }

    fn cap(&self, w: usize) -> usize {
        // SAFETY: as in `word`.
        unsafe { self.caps.add(w).read() }
    }

    /// The next 8-byte slot's payload word (int, long, double bits, ...).
    pub fn next_word(&mut self) -> u64 {
        let w = self.place_checked(8, 8);
        self.word(w)
    }

    /// The next pointer (payload word and its capability).
    pub fn next_ptr(&mut self) -> FlightPtr {
        let w = self.place_checked(8, 8);
        // SAFETY: the CC buffer's capability words are filled by compiled
        // code and the runtime only from capabilities (or 0).
        unsafe { FlightPtr::new(self.word(w) as usize, self.cap(w)) }
    }

    /// The next 16-byte, 16-aligned slot (an x87 `long double`).
    pub fn next_pair(&mut self) -> [u64; 2] {
        let w = self.place_checked(16, 16);
        [self.word(w), self.word(w + 1)]
    }

    /// The wrapper's name, for reports.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

/// A fixed argument type of a wrapper.
pub trait Arg: Sized {
    /// `(size, align)` of the argument in the CC buffers.
    const LAYOUT: (u64, u64);

    /// Reads the next argument.
    ///
    /// # Safety
    /// The argument is covered by `arg_bytes` (checked by [`Args::new`]).
    unsafe fn read(args: &mut Args) -> Self;
}

macro_rules! int_arg {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            const LAYOUT: (u64, u64) = (size_of::<$t>() as u64, align_of::<$t>() as u64);
            unsafe fn read(args: &mut Args) -> Self {
                // Exactly the type's size: the low bytes of the slot.
                args.next_word() as $t
            }
        }
    )*};
}
int_arg!(u16, i32, u32, i64, u64, isize, usize);

impl Arg for f64 {
    const LAYOUT: (u64, u64) = (8, 8);
    unsafe fn read(args: &mut Args) -> Self {
        f64::from_bits(args.next_word())
    }
}

impl Arg for f32 {
    const LAYOUT: (u64, u64) = (4, 4);
    unsafe fn read(args: &mut Args) -> Self {
        f32::from_bits(args.next_word() as u32)
    }
}

impl Arg for FlightPtr {
    const LAYOUT: (u64, u64) = (8, 8);
    unsafe fn read(args: &mut Args) -> Self {
        args.next_ptr()
    }
}

/// The variadic arguments of a call (`...`): the rest of the CC buffers,
/// read in order by promoted C type. Must be the last argument.
#[derive(Debug)]
pub struct VarArgs(Args);

impl VarArgs {
    /// The underlying cursor.
    pub fn args(&mut self) -> &mut Args {
        &mut self.0
    }
}

impl Arg for VarArgs {
    const LAYOUT: (u64, u64) = (0, 1);
    unsafe fn read(args: &mut Args) -> Self {
        VarArgs(Args {
            payload: args.payload,
            caps: args.caps,
            arg_bytes: args.arg_bytes,
            end: args.end,
            name: args.name,
        })
    }
}

/// Where a return value goes: word 0.. of the inline CC buffers.
#[derive(Debug)]
pub struct RetBuf {
    payload: *mut u64,
    caps: *mut usize,
}

impl RetBuf {
    /// Writes word `i` of the return value and its capability.
    pub fn set(&mut self, i: usize, word: u64, cap: usize) {
        debug_assert!(i < gimso_abi::CC_INLINE_WORDS);
        // SAFETY: the inline buffers hold CC_INLINE_WORDS words; wrappers
        // return at most two.
        unsafe {
            self.payload.add(i).write(word);
            self.caps.add(i).write(cap);
        }
    }
}

/// A wrapper's return type.
pub trait Ret {
    /// Whether the call returns with the exception flag (phase 2 of an
    /// unwind starts or goes on at the caller).
    fn unwinds(&self) -> bool {
        false
    }

    /// Writes the value into the return buffers; returns `ret_bytes`.
    fn write(self, out: &mut RetBuf) -> u64;
}

/// The return of `_Unwind_RaiseException` and friends: a reason code
/// returned normally, or the exception flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unwinding {
    /// Return this `_Unwind_Reason_Code`.
    Code(i32),
    /// Return with the exception flag set (no return value).
    Unwind,
}

impl Ret for Unwinding {
    fn unwinds(&self) -> bool {
        *self == Unwinding::Unwind
    }

    fn write(self, out: &mut RetBuf) -> u64 {
        match self {
            Unwinding::Code(c) => c.write(out),
            Unwinding::Unwind => 0,
        }
    }
}

impl Ret for () {
    fn write(self, _: &mut RetBuf) -> u64 {
        0
    }
}

macro_rules! int_ret {
    ($($t:ty => $wide:ty),*) => {$(
        impl Ret for $t {
            fn write(self, out: &mut RetBuf) -> u64 {
                // Extended to the slot as the C promotion would.
                out.set(0, self as $wide as u64, 0);
                8
            }
        }
    )*};
}
int_ret!(i32 => i64, u32 => u64, i64 => i64, u64 => u64, isize => i64, usize => u64);

impl Ret for f64 {
    fn write(self, out: &mut RetBuf) -> u64 {
        out.set(0, self.to_bits(), 0);
        8
    }
}

impl Ret for f32 {
    fn write(self, out: &mut RetBuf) -> u64 {
        out.set(0, self.to_bits() as u64, 0);
        8
    }
}

/// A 16-byte integer struct returned in two registers (`ldiv_t`).
impl Ret for [u64; 2] {
    fn write(self, out: &mut RetBuf) -> u64 {
        out.set(0, self[0], 0);
        out.set(1, self[1], 0);
        16
    }
}

impl Ret for FlightPtr {
    fn write(self, out: &mut RetBuf) -> u64 {
        out.set(0, self.intval() as u64, self.lower());
        8
    }
}

/// Writes `value` as the return value of the current call and builds the
/// entry's result.
///
/// # Safety
/// `thread` is the calling thread's ABI struct.
pub unsafe fn ret<R: Ret>(thread: *mut ThreadAbi, value: R) -> EntryResult {
    // SAFETY: `thread` is valid (contract); we only take field addresses.
    let mut out = unsafe {
        RetBuf {
            payload: (&raw mut (*thread).cc_payload).cast::<u64>(),
            caps: (&raw mut (*thread).cc_caps).cast::<usize>(),
        }
    };
    let has_exception = u64::from(value.unwinds());
    let ret_bytes = value.write(&mut out);
    EntryResult {
        has_exception,
        ret_bytes,
    }
}
