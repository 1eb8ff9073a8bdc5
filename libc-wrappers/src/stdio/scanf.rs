//! The `scanf` family on the engine in [`super::scan`]: `scanf`,
//! `fscanf`, `sscanf`, their `va_list` forms, and the `__isoc99_` names
//! glibc's headers redirect them to in C99 mode (what clang-16 emits on
//! Debian 12).

use gimso_abi::FlightPtr;

use super::input::get_char;
use super::scan::{Input, StrInput, scan};
use super::streams::{Stream, program_stdin, stream};
use crate::cc::VarArgs;
use crate::format::{ArgSource, VaList};
use crate::{mem, wrapper};

/// A libc stream read a character at a time (`fgetc`/`ungetc`), so that
/// what the scan does not consume stays in the stream.
struct StreamInput {
    f: Stream,
    consumed: usize,
}

impl Input for StreamInput {
    fn get(&mut self) -> Option<u8> {
        let c = get_char(self.f);
        if c == libc::EOF {
            return None;
        }
        self.consumed += 1;
        Some(c as u8)
    }
    fn unget(&mut self, c: u8) {
        // SAFETY: `f` is a libc stream; one character of pushback is
        // always possible right after a read.
        unsafe { libc::ungetc(c_int_of(c), self.f.as_ptr()) };
        self.consumed -= 1;
    }
    fn consumed(&self) -> usize {
        self.consumed
    }
}

fn c_int_of(c: u8) -> i32 {
    i32::from(c)
}

/// `fscanf` on a libc stream.
fn scan_stream(f: Stream, fmt: FlightPtr, args: &mut impl ArgSource) -> i32 {
    let fmt = mem::c_string(fmt);
    scan(&fmt, &mut StreamInput { f, consumed: 0 }, args)
}

/// `sscanf` on the string `s` (checked up to its NUL).
fn scan_string(s: FlightPtr, fmt: FlightPtr, args: &mut impl ArgSource) -> i32 {
    let s = mem::c_string(s);
    let fmt = mem::c_string(fmt);
    scan(&fmt, &mut StrInput::new(s), args)
}

wrapper! {
    /// `int scanf(const char *fmt, ...)`.
    fn scanf | __isoc99_scanf(fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        scan_stream(program_stdin(), fmt, &mut va)
    }
}

wrapper! {
    /// `int fscanf(FILE *f, const char *fmt, ...)`.
    fn fscanf | __isoc99_fscanf(f: FlightPtr, fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        scan_stream(stream(f), fmt, &mut va)
    }
}

wrapper! {
    /// `int sscanf(const char *s, const char *fmt, ...)`.
    fn sscanf | __isoc99_sscanf(s: FlightPtr, fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        scan_string(s, fmt, &mut va)
    }
}

wrapper! {
    /// `int vscanf(const char *fmt, va_list ap)`.
    fn vscanf | __isoc99_vscanf(fmt: FlightPtr, ap: FlightPtr) -> i32 {
        scan_stream(program_stdin(), fmt, &mut VaList::open(ap))
    }
}

wrapper! {
    /// `int vfscanf(FILE *f, const char *fmt, va_list ap)`.
    fn vfscanf | __isoc99_vfscanf(f: FlightPtr, fmt: FlightPtr, ap: FlightPtr) -> i32 {
        let f = stream(f);
        scan_stream(f, fmt, &mut VaList::open(ap))
    }
}

wrapper! {
    /// `int vsscanf(const char *s, const char *fmt, va_list ap)`.
    fn vsscanf | __isoc99_vsscanf(s: FlightPtr, fmt: FlightPtr, ap: FlightPtr) -> i32 {
        scan_string(s, fmt, &mut VaList::open(ap))
    }
}
