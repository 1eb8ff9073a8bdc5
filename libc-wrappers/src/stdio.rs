//! `<stdio.h>`: the standard streams and the output functions.
//!
//! `stdin`, `stdout` and `stderr` are global variables of the program
//! (`gimso.obj.stdin`, ...) holding pointers to `FILE` special objects,
//! whose payload names the real libc stream. All output goes through
//! libc's own streams, so buffering and ordering are those of a normal C
//! program; the exit path flushes them.

use core::ffi::c_int;

use gimso_abi::{FlightPtr, SpecialKind};
use gimso_shadow::ObjRef;
use gimso_shadow::report::SafetyError;

use crate::cc::VarArgs;
use crate::format::{ArgSource, VaList, format};
use crate::mem;
use crate::object::{PointerGlobal, SpecialObject};
use crate::{errno, report, wrapper};

unsafe extern "C" {
    #[link_name = "stdin"]
    static mut C_STDIN: *mut libc::FILE;
    #[link_name = "stdout"]
    static mut C_STDOUT: *mut libc::FILE;
    #[link_name = "stderr"]
    static mut C_STDERR: *mut libc::FILE;
}

/// Payload word of the standard streams' `FILE` objects: which stream.
const STDIN_WORD: u64 = 0;
const STDOUT_WORD: u64 = 1;
const STDERR_WORD: u64 = 2;

/// The `FILE` object of `stdin`.
pub static STDIN_FILE: SpecialObject =
    SpecialObject::new(&raw const STDIN_FILE, SpecialKind::File, STDIN_WORD);
/// The `FILE` object of `stdout`.
pub static STDOUT_FILE: SpecialObject =
    SpecialObject::new(&raw const STDOUT_FILE, SpecialKind::File, STDOUT_WORD);
/// The `FILE` object of `stderr`.
pub static STDERR_FILE: SpecialObject =
    SpecialObject::new(&raw const STDERR_FILE, SpecialKind::File, STDERR_WORD);

/// `extern FILE *stdin`.
#[unsafe(export_name = "gimso.obj.stdin")]
pub static STDIN: PointerGlobal = PointerGlobal::new(
    &raw const STDIN,
    SpecialObject::payload_address(&raw const STDIN_FILE),
);
/// `extern FILE *stdout`.
#[unsafe(export_name = "gimso.obj.stdout")]
pub static STDOUT: PointerGlobal = PointerGlobal::new(
    &raw const STDOUT,
    SpecialObject::payload_address(&raw const STDOUT_FILE),
);
/// `extern FILE *stderr`.
#[unsafe(export_name = "gimso.obj.stderr")]
pub static STDERR: PointerGlobal = PointerGlobal::new(
    &raw const STDERR,
    SpecialObject::payload_address(&raw const STDERR_FILE),
);

/// Registers the stream variables with the collector (the program may
/// store other streams in them). Idempotent.
pub fn register_streams() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for g in [&STDIN, &STDOUT, &STDERR] {
            gimso_gc::register_global_object(g.lower());
        }
    });
}

/// A libc stream (`FILE *` of the C library the runtime links against).
/// Only this module makes them, from `FILE` objects that passed the check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stream(*mut libc::FILE);

impl Stream {
    /// The libc `FILE *`.
    pub fn as_ptr(self) -> *mut libc::FILE {
        self.0
    }
}

/// libc's stream behind a standard stream's payload word.
fn libc_stream(word: u64) -> Stream {
    // SAFETY: reading libc's stream pointers (set before main, never
    // changed by the runtime).
    Stream(unsafe {
        match word {
            STDIN_WORD => (&raw const C_STDIN).read(),
            STDOUT_WORD => (&raw const C_STDOUT).read(),
            STDERR_WORD => (&raw const C_STDERR).read(),
            other => other as usize as *mut libc::FILE,
        }
    })
}

/// The libc stream behind the program's `FILE *` `p`, after checking it
/// is a `FILE` object (null, freed and other objects are safety errors).
pub fn stream(p: FlightPtr) -> Stream {
    if p.lower == 0 {
        report::pointer_error(SafetyError::NullCapability, p, "use as FILE *");
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower) };
    if obj.is_free() {
        report::pointer_error(SafetyError::UseAfterFree, p, "use as FILE *");
    }
    if obj.kind() != Some(SpecialKind::File) || p.intval != p.lower {
        report::pointer_error(SafetyError::InvalidFile, p, "use as FILE *");
    }
    // SAFETY: FILE objects have a one-word runtime-private payload.
    let word = unsafe { (p.lower as *const u64).read() };
    libc_stream(word)
}

/// The stream the program's `stdout` variable currently names (it may
/// have been assigned or closed: the check applies as for any `FILE *`).
pub fn program_stdout() -> Stream {
    stream(mem::load_ptr(STDOUT.pointer()))
}

/// The stream the program's `stderr` variable currently names.
pub fn program_stderr() -> Stream {
    stream(mem::load_ptr(STDERR.pointer()))
}

/// The stream the program's `stdin` variable currently names.
pub fn program_stdin() -> Stream {
    stream(mem::load_ptr(STDIN.pointer()))
}

/// libc's own `stdout` (for the runtime's messages and flushing).
pub fn c_stdout() -> Stream {
    libc_stream(STDOUT_WORD)
}

/// libc's own `stderr` (for the runtime's messages).
pub fn c_stderr() -> Stream {
    libc_stream(STDERR_WORD)
}

/// Writes `bytes` to `f` (exited: the write may block); true if all went.
pub fn write_stream(f: Stream, bytes: &[u8]) -> bool {
    if bytes.is_empty() {
        return true;
    }
    let n = gimso_gc::exited(|| {
        // SAFETY: `f` is a libc stream and `bytes` a live Rust buffer.
        unsafe { libc::fwrite(bytes.as_ptr().cast(), 1, bytes.len(), f.0) }
    });
    if n != bytes.len() {
        errno::sync_from_libc();
        return false;
    }
    true
}

/// Formats and writes to `f`: the `printf` result (count or -1).
fn print_to(f: Stream, fmt: FlightPtr, src: &mut impl ArgSource) -> i32 {
    let fmt = mem::c_string(fmt);
    match format(&fmt, src) {
        Ok(out) => {
            if !write_stream(f, &out) {
                return -1;
            }
            count(out.len())
        }
        Err(e) => {
            errno::set(e.errno);
            -1
        }
    }
}

/// A byte count as `printf`'s `int` result (EOVERFLOW beyond INT_MAX).
fn count(n: usize) -> i32 {
    match i32::try_from(n) {
        Ok(n) => n,
        Err(_) => {
            errno::set(libc::EOVERFLOW);
            -1
        }
    }
}

/// `sprintf`/`snprintf` into `buf` of `cap` bytes (None: unbounded).
fn print_into(buf: FlightPtr, cap: Option<usize>, fmt: FlightPtr, src: &mut impl ArgSource) -> i32 {
    let fmt = mem::c_string(fmt);
    let mut out = match format(&fmt, src) {
        Ok(out) => out,
        Err(e) => {
            errno::set(e.errno);
            return -1;
        }
    };
    let n = out.len();
    let keep = match cap {
        Some(0) => return count(n),
        Some(c) => n.min(c - 1),
        None => n,
    };
    out.truncate(keep);
    out.push(0);
    mem::write_bytes(buf, &out);
    count(n)
}

wrapper! {
    /// `int printf(const char *fmt, ...)`.
    fn printf(fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        print_to(program_stdout(), fmt, &mut va)
    }
}

wrapper! {
    /// `int fprintf(FILE *f, const char *fmt, ...)`.
    fn fprintf(f: FlightPtr, fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        print_to(stream(f), fmt, &mut va)
    }
}

wrapper! {
    /// `int sprintf(char *buf, const char *fmt, ...)`: `buf` must hold the
    /// whole output and its NUL.
    fn sprintf(buf: FlightPtr, fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        print_into(buf, None, fmt, &mut va)
    }
}

wrapper! {
    /// `int snprintf(char *buf, size_t n, const char *fmt, ...)`.
    fn snprintf(buf: FlightPtr, n: usize, fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        print_into(buf, Some(n), fmt, &mut va)
    }
}

wrapper! {
    /// `int vprintf(const char *fmt, va_list ap)`.
    fn vprintf(fmt: FlightPtr, ap: FlightPtr) -> i32 {
        print_to(program_stdout(), fmt, &mut VaList::open(ap))
    }
}

wrapper! {
    /// `int vfprintf(FILE *f, const char *fmt, va_list ap)`.
    fn vfprintf(f: FlightPtr, fmt: FlightPtr, ap: FlightPtr) -> i32 {
        let f = stream(f);
        print_to(f, fmt, &mut VaList::open(ap))
    }
}

wrapper! {
    /// `int vsprintf(char *buf, const char *fmt, va_list ap)`.
    fn vsprintf(buf: FlightPtr, fmt: FlightPtr, ap: FlightPtr) -> i32 {
        print_into(buf, None, fmt, &mut VaList::open(ap))
    }
}

wrapper! {
    /// `int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)`.
    fn vsnprintf(buf: FlightPtr, n: usize, fmt: FlightPtr, ap: FlightPtr) -> i32 {
        print_into(buf, Some(n), fmt, &mut VaList::open(ap))
    }
}

wrapper! {
    /// `int puts(const char *s)`: the string and a newline.
    fn puts(s: FlightPtr) -> i32 {
        let mut line = mem::c_string(s);
        line.push(b'\n');
        if !write_stream(program_stdout(), &line) {
            return libc::EOF;
        }
        line.len().min(i32::MAX as usize) as i32
    }
}

wrapper! {
    /// `int fputs(const char *s, FILE *f)`.
    fn fputs(s: FlightPtr, f: FlightPtr) -> i32 {
        let text = mem::c_string(s);
        if !write_stream(stream(f), &text) {
            return libc::EOF;
        }
        1
    }
}

/// `fputc` on a libc stream (exited), returning libc's result.
fn put_char(c: c_int, f: Stream) -> i32 {
    let r = gimso_gc::exited(|| {
        // SAFETY: `f` is a libc stream.
        unsafe { libc::fputc(c, f.0) }
    });
    if r == libc::EOF {
        errno::sync_from_libc();
    }
    r
}

wrapper! {
    /// `int putchar(int c)`.
    fn putchar(c: i32) -> i32 {
        put_char(c, program_stdout())
    }
}

wrapper! {
    /// `int fputc(int c, FILE *f)`.
    fn fputc(c: i32, f: FlightPtr) -> i32 {
        put_char(c, stream(f))
    }
}

wrapper! {
    /// `int putc(int c, FILE *f)`.
    fn putc(c: i32, f: FlightPtr) -> i32 {
        put_char(c, stream(f))
    }
}

wrapper! {
    /// `size_t fwrite(const void *p, size_t size, size_t n, FILE *f)`:
    /// `size * n` bytes of `p` must be readable.
    fn fwrite(p: FlightPtr, size: usize, n: usize, f: FlightPtr) -> usize {
        let f = stream(f);
        if size == 0 || n == 0 {
            return 0;
        }
        let Some(total) = size.checked_mul(n) else {
            mem::check_read(p, usize::MAX);
            return 0;
        };
        let bytes = mem::read_bytes(p, total);
        let written = gimso_gc::exited(|| {
            // SAFETY: `f` is a libc stream and `bytes` a live Rust buffer.
            unsafe { libc::fwrite(bytes.as_ptr().cast(), size, n, f.0) }
        });
        if written != n {
            errno::sync_from_libc();
        }
        written
    }
}

wrapper! {
    /// `int fflush(FILE *f)`: NULL flushes every stream.
    fn fflush(f: FlightPtr) -> i32 {
        let f = if f.intval == 0 && f.lower == 0 {
            core::ptr::null_mut()
        } else {
            stream(f).0
        };
        let r = gimso_gc::exited(|| {
            // SAFETY: `f` is a libc stream or NULL.
            unsafe { libc::fflush(f) }
        });
        if r != 0 {
            errno::sync_from_libc();
        }
        r
    }
}

wrapper! {
    /// `void perror(const char *s)`: "s: message\n" on stderr.
    fn perror(s: FlightPtr) -> () {
        let mut line = Vec::new();
        if s.intval != 0 {
            let prefix = mem::c_string(s);
            if !prefix.is_empty() {
                line.extend_from_slice(&prefix);
                line.extend_from_slice(b": ");
            }
        }
        line.extend_from_slice(&errno::message(errno::get()));
        line.push(b'\n');
        write_stream(program_stderr(), &line);
    }
}

/// Reads from libc stream `f` while exited (the read may block).
fn exited_io<R>(f: impl FnOnce() -> R) -> R {
    gimso_gc::exited(f)
}

wrapper! {
    /// `FILE *fopen(const char *path, const char *mode)`: a new `FILE`
    /// object (NULL and errno on failure).
    fn fopen(path: FlightPtr, mode: FlightPtr) -> FlightPtr {
        let path = mem::c_string_nul(path);
        let mode = mem::c_string_nul(mode);
        let f = exited_io(|| {
            // SAFETY: both strings are NUL-terminated copies.
            unsafe { libc::fopen(path.as_ptr().cast(), mode.as_ptr().cast()) }
        });
        if f.is_null() {
            errno::sync_from_libc();
            return FlightPtr::NULL;
        }
        let obj = mem::with_local(|l| gimso_shadow::alloc_special(l, SpecialKind::File, 8, 0));
        // SAFETY: FILE objects have a one-word runtime-private payload.
        unsafe { (obj.lower() as *mut u64).write(f as usize as u64) };
        FlightPtr::from_lower(obj.lower())
    }
}

wrapper! {
    /// `int fclose(FILE *f)`: the `FILE` object is freed: any later use is
    /// a use after free.
    fn fclose(f: FlightPtr) -> i32 {
        let stream = stream(f);
        // SAFETY: stream() checked that f.lower is a live FILE object.
        let obj = unsafe { ObjRef::from_lower(f.lower) };
        obj.header()
            .aux
            .fetch_or(gimso_abi::FLAG_FREE, core::sync::atomic::Ordering::AcqRel);
        let r = exited_io(|| {
            // SAFETY: a libc stream, closed once (its object is now freed).
            unsafe { libc::fclose(stream.0) }
        });
        if r != 0 {
            errno::sync_from_libc();
        }
        r
    }
}

/// `fgetc` on a libc stream.
fn get_char(f: Stream) -> i32 {
    let r = exited_io(|| {
        // SAFETY: `f` is a libc stream.
        unsafe { libc::fgetc(f.0) }
    });
    if r == libc::EOF {
        errno::sync_from_libc();
    }
    r
}

wrapper! {
    /// `int getchar(void)`.
    fn getchar() -> i32 {
        get_char(program_stdin())
    }
}

wrapper! {
    /// `int fgetc(FILE *f)`.
    fn fgetc(f: FlightPtr) -> i32 {
        get_char(stream(f))
    }
}

wrapper! {
    /// `int getc(FILE *f)`.
    fn getc(f: FlightPtr) -> i32 {
        get_char(stream(f))
    }
}

wrapper! {
    /// `int ungetc(int c, FILE *f)`.
    fn ungetc(c: i32, f: FlightPtr) -> i32 {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        unsafe { libc::ungetc(c, f.0) }
    }
}

wrapper! {
    /// `char *fgets(char *buf, int n, FILE *f)`: the bytes it stores (the
    /// line and its NUL) must fit in `buf`.
    fn fgets(buf: FlightPtr, n: i32, f: FlightPtr) -> FlightPtr {
        let f = stream(f);
        if n <= 0 {
            return FlightPtr::NULL;
        }
        let mut line = vec![0u8; n as usize];
        let r = exited_io(|| {
            // SAFETY: `line` has n bytes; `f` is a libc stream.
            unsafe { libc::fgets(line.as_mut_ptr().cast(), n, f.0) }
        });
        if r.is_null() {
            errno::sync_from_libc();
            return FlightPtr::NULL;
        }
        let len = line.iter().position(|&b| b == 0).unwrap_or(line.len() - 1);
        mem::write_bytes(buf, &line[..len + 1]);
        buf
    }
}

wrapper! {
    /// `size_t fread(void *p, size_t size, size_t n, FILE *f)`: `p` must
    /// hold `size * n` bytes.
    fn fread(p: FlightPtr, size: usize, n: usize, f: FlightPtr) -> usize {
        let f = stream(f);
        if size == 0 || n == 0 {
            return 0;
        }
        mem::check_write(p, size.saturating_mul(n));
        let mut data = vec![0u8; size * n];
        let got = exited_io(|| {
            // SAFETY: `data` holds size * n bytes; `f` is a libc stream.
            unsafe { libc::fread(data.as_mut_ptr().cast(), size, n, f.0) }
        });
        if got < n {
            errno::sync_from_libc();
        }
        mem::write_bytes(p, &data[..got * size]);
        got
    }
}

macro_rules! stream_query {
    ($($name:ident),*) => {$(
        wrapper! {
            #[doc = concat!("`int ", stringify!($name), "(FILE *f)`.")]
            fn $name(f: FlightPtr) -> i32 {
                let f = stream(f);
                // SAFETY: `f` is a libc stream.
                unsafe { libc::$name(f.0) }
            }
        }
    )*};
}

stream_query!(feof, ferror, fileno);

wrapper! {
    /// `void clearerr(FILE *f)`.
    fn clearerr(f: FlightPtr) -> () {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        unsafe { libc::clearerr(f.0) }
    }
}

wrapper! {
    /// `int fseek(FILE *f, long off, int whence)`.
    fn fseek(f: FlightPtr, off: i64, whence: i32) -> i32 {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        let r = exited_io(|| unsafe { libc::fseek(f.0, off, whence) });
        if r != 0 {
            errno::sync_from_libc();
        }
        r
    }
}

wrapper! {
    /// `long ftell(FILE *f)`.
    fn ftell(f: FlightPtr) -> i64 {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        let r = unsafe { libc::ftell(f.0) };
        if r < 0 {
            errno::sync_from_libc();
        }
        r
    }
}

wrapper! {
    /// `void rewind(FILE *f)`.
    fn rewind(f: FlightPtr) -> () {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        exited_io(|| unsafe { libc::rewind(f.0) })
    }
}
