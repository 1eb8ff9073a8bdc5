//! Output: the `printf` family (`dprintf`, `asprintf` included), `puts`,
//! `fputs`, `putc`, `fwrite`, `fflush`, `perror` and the `_unlocked`
//! variants (the same functions: every wrapper call takes libc's stream
//! lock anyway).

use core::ffi::c_int;

use gimso_abi::FlightPtr;

use super::streams::{Stream, program_stderr, program_stdout, stream, write_stream};
use crate::cc::VarArgs;
use crate::format::{ArgSource, VaList, format};
use crate::{errno, mem, wrapper};

/// Formats and writes to `f`: the `printf` result (count or -1).
fn print_to(f: Stream, fmt: FlightPtr, src: &mut impl ArgSource) -> i32 {
    match mem::with_c_string(fmt, |fmt| format(fmt, src)) {
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
    let mut out = match mem::with_c_string(fmt, |fmt| format(fmt, src)) {
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
    fn fputs | fputs_unlocked(s: FlightPtr, f: FlightPtr) -> i32 {
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
        unsafe { libc::fputc(c, f.as_ptr()) }
    });
    if r == libc::EOF {
        errno::sync_from_libc();
    }
    r
}

wrapper! {
    /// `int putchar(int c)`.
    fn putchar | putchar_unlocked(c: i32) -> i32 {
        put_char(c, program_stdout())
    }
}

wrapper! {
    /// `int fputc(int c, FILE *f)`.
    fn fputc | putc | fputc_unlocked | putc_unlocked(c: i32, f: FlightPtr) -> i32 {
        put_char(c, stream(f))
    }
}

wrapper! {
    /// `size_t fwrite(const void *p, size_t size, size_t n, FILE *f)`:
    /// `size * n` bytes of `p` must be readable.
    fn fwrite | fwrite_unlocked(p: FlightPtr, size: usize, n: usize, f: FlightPtr) -> usize {
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
            unsafe { libc::fwrite(bytes.as_ptr().cast(), size, n, f.as_ptr()) }
        });
        if written != n {
            errno::sync_from_libc();
        }
        written
    }
}

wrapper! {
    /// `int fflush(FILE *f)`: NULL flushes every stream.
    fn fflush | fflush_unlocked(f: FlightPtr) -> i32 {
        let f = if f.intval() == 0 && f.lower() == 0 {
            core::ptr::null_mut()
        } else {
            stream(f).as_ptr()
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
        if s.intval() != 0 {
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

/// Formats and writes to file descriptor `fd` (`dprintf`).
fn print_fd(fd: i32, fmt: FlightPtr, src: &mut impl ArgSource) -> i32 {
    let fmt = mem::c_string(fmt);
    let out = match format(&fmt, src) {
        Ok(out) => out,
        Err(e) => {
            errno::set(e.errno);
            return -1;
        }
    };
    let mut done = 0;
    while done < out.len() {
        let rest = &out[done..];
        let n = gimso_gc::exited(|| {
            // SAFETY: `rest` is a live Rust buffer.
            unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) }
        });
        if n < 0 {
            // SAFETY: __errno_location returns the calling thread's errno.
            if unsafe { *libc::__errno_location() } == libc::EINTR {
                continue;
            }
            errno::sync_from_libc();
            return -1;
        }
        done += n as usize;
    }
    count(out.len())
}

wrapper! {
    /// `int dprintf(int fd, const char *fmt, ...)`.
    fn dprintf(fd: i32, fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        print_fd(fd, fmt, &mut va)
    }
}

wrapper! {
    /// `int vdprintf(int fd, const char *fmt, va_list ap)`.
    fn vdprintf(fd: i32, fmt: FlightPtr, ap: FlightPtr) -> i32 {
        print_fd(fd, fmt, &mut VaList::open(ap))
    }
}

/// `asprintf`: the output in a fresh GC object stored at `*strp`
/// (checked as a pointer write); `*strp` is untouched on failure.
fn print_alloc(strp: FlightPtr, fmt: FlightPtr, src: &mut impl ArgSource) -> i32 {
    mem::check_access(strp, gimso_shadow::check::Access::POINTER_WRITE);
    let fmt = mem::c_string(fmt);
    let out = match format(&fmt, src) {
        Ok(out) => out,
        Err(e) => {
            errno::set(e.errno);
            return -1;
        }
    };
    let n = count(out.len());
    if n < 0 {
        return -1;
    }
    let p = mem::alloc_c_string(&out, false);
    mem::store_ptr(strp, p);
    n
}

wrapper! {
    /// `int asprintf(char **strp, const char *fmt, ...)`.
    fn asprintf(strp: FlightPtr, fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        print_alloc(strp, fmt, &mut va)
    }
}

wrapper! {
    /// `int vasprintf(char **strp, const char *fmt, va_list ap)`.
    fn vasprintf(strp: FlightPtr, fmt: FlightPtr, ap: FlightPtr) -> i32 {
        print_alloc(strp, fmt, &mut VaList::open(ap))
    }
}
