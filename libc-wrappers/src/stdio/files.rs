//! Opening, closing, positioning and buffering streams: `fopen`,
//! `fdopen`, `freopen`, `tmpfile`, `fclose`, `popen`/`pclose`, `fseek`
//! and friends, `fgetpos`/`fsetpos`, `setvbuf` and friends, `remove`,
//! `rename`.
//!
//! `setvbuf`/`setbuf` never give libc the program's buffer: libc would
//! write it later, from any stream call, outside every check (and the
//! collector could reclaim it while libc still uses it). The buffer's
//! bounds are checked as the program promises them (`size` bytes,
//! `BUFSIZ` for `setbuf`) and libc keeps its own buffer; only the mode
//! and the size are honoured.

use gimso_abi::FlightPtr;
use gimso_shadow::report::SafetyError;

use super::streams::{add_pipe, exited_io, free_file, is_pipe, new_file, set_file, stream};
use crate::{errno, mem, report, wrapper};

/// A `FILE` object for libc's result `f`, or NULL with errno.
fn opened(f: *mut libc::FILE) -> FlightPtr {
    if f.is_null() {
        errno::sync_from_libc();
        return FlightPtr::NULL;
    }
    new_file(f)
}

/// `fopen` on checked copies of the strings.
fn open(path: FlightPtr, mode: FlightPtr) -> FlightPtr {
    let path = mem::c_string_nul(path);
    let mode = mem::c_string_nul(mode);
    opened(exited_io(|| {
        // SAFETY: both strings are NUL-terminated copies.
        unsafe { libc::fopen(path.as_ptr().cast(), mode.as_ptr().cast()) }
    }))
}

wrapper! {
    /// `FILE *fopen(const char *path, const char *mode)`: a new `FILE`
    /// object (NULL and errno on failure).
    fn fopen | fopen64(path: FlightPtr, mode: FlightPtr) -> FlightPtr {
        open(path, mode)
    }
}

wrapper! {
    /// `FILE *fdopen(int fd, const char *mode)`.
    fn fdopen(fd: i32, mode: FlightPtr) -> FlightPtr {
        let mode = mem::c_string_nul(mode);
        // SAFETY: the mode is a NUL-terminated copy.
        opened(unsafe { libc::fdopen(fd, mode.as_ptr().cast()) })
    }
}

/// `freopen`: the program's `FILE` object keeps its identity and names
/// the reopened stream; if libc fails, the old stream is closed anyway
/// (as C says) and the object is freed.
fn reopen(path: FlightPtr, mode: FlightPtr, f: FlightPtr) -> FlightPtr {
    let path = if path.intval() == 0 {
        None
    } else {
        Some(mem::c_string_nul(path))
    };
    let mode = mem::c_string_nul(mode);
    let old = stream(f);
    let path_ptr = path
        .as_ref()
        .map_or(core::ptr::null(), |p| p.as_ptr().cast());
    let new = exited_io(|| {
        // SAFETY: the strings are NUL-terminated copies (or NULL for the
        // path, which freopen accepts); `old` is a libc stream.
        unsafe { libc::freopen(path_ptr, mode.as_ptr().cast(), old.as_ptr()) }
    });
    if new.is_null() {
        errno::sync_from_libc();
        free_file(f);
        return FlightPtr::NULL;
    }
    set_file(f, new);
    f
}

wrapper! {
    /// `FILE *freopen(const char *path, const char *mode, FILE *f)`.
    fn freopen | freopen64(path: FlightPtr, mode: FlightPtr, f: FlightPtr) -> FlightPtr {
        reopen(path, mode, f)
    }
}

wrapper! {
    /// `FILE *tmpfile(void)`.
    fn tmpfile | tmpfile64() -> FlightPtr {
        // SAFETY: no arguments.
        opened(exited_io(|| unsafe { libc::tmpfile() }))
    }
}

wrapper! {
    /// `int fclose(FILE *f)`: the `FILE` object is freed: any later use is
    /// a use after free.
    fn fclose(f: FlightPtr) -> i32 {
        let s = stream(f);
        free_file(f);
        let r = exited_io(|| {
            // SAFETY: a libc stream, closed once (its object is now freed).
            unsafe { libc::fclose(s.as_ptr()) }
        });
        if r != 0 {
            errno::sync_from_libc();
        }
        r
    }
}

wrapper! {
    /// `FILE *popen(const char *command, const char *mode)`.
    fn popen(command: FlightPtr, mode: FlightPtr) -> FlightPtr {
        let command = mem::c_string_nul(command);
        let mode = mem::c_string_nul(mode);
        // The command's shell gets the program's `environ`.
        crate::environ::sync_to_libc();
        let p = opened(exited_io(|| {
            // SAFETY: both strings are NUL-terminated copies.
            unsafe { libc::popen(command.as_ptr().cast(), mode.as_ptr().cast()) }
        }));
        if p.lower() != 0 {
            add_pipe(p);
        }
        p
    }
}

wrapper! {
    /// `int pclose(FILE *f)`: the command's status; the `FILE` object is
    /// freed. A stream that `popen` did not open is an invalid `FILE`
    /// pointer here (glibc would close it as if by `fclose`).
    fn pclose(f: FlightPtr) -> i32 {
        let s = stream(f);
        if !is_pipe(f) {
            report::pointer_error(SafetyError::InvalidFile, f, "pclose of a stream popen did not open");
        }
        free_file(f);
        let r = exited_io(|| {
            // SAFETY: a popen'd libc stream, closed once.
            unsafe { libc::pclose(s.as_ptr()) }
        });
        if r == -1 {
            errno::sync_from_libc();
        }
        r
    }
}

wrapper! {
    /// `int remove(const char *path)`.
    fn remove(path: FlightPtr) -> i32 {
        let path = mem::c_string_nul(path);
        // SAFETY: a NUL-terminated copy.
        let r = unsafe { libc::remove(path.as_ptr().cast()) };
        if r != 0 {
            errno::sync_from_libc();
        }
        r
    }
}

wrapper! {
    /// `int rename(const char *old, const char *new)`.
    fn rename(old: FlightPtr, new: FlightPtr) -> i32 {
        let old = mem::c_string_nul(old);
        let new = mem::c_string_nul(new);
        // SAFETY: NUL-terminated copies.
        let r = unsafe { libc::rename(old.as_ptr().cast(), new.as_ptr().cast()) };
        if r != 0 {
            errno::sync_from_libc();
        }
        r
    }
}

/// `fseeko` on the stream behind `f`.
fn seek(f: FlightPtr, off: i64, whence: i32) -> i32 {
    let f = stream(f);
    // SAFETY: `f` is a libc stream.
    let r = exited_io(|| unsafe { libc::fseeko(f.as_ptr(), off, whence) });
    if r != 0 {
        errno::sync_from_libc();
    }
    r
}

/// `ftello` on the stream behind `f`.
fn tell(f: FlightPtr) -> i64 {
    let f = stream(f);
    // SAFETY: `f` is a libc stream.
    let r = unsafe { libc::ftello(f.as_ptr()) };
    if r < 0 {
        errno::sync_from_libc();
    }
    r
}

macro_rules! seek_tell {
    ($($seek:ident, $tell:ident, $ty:literal;)*) => {$(
        wrapper! {
            #[doc = concat!("`int ", stringify!($seek), "(FILE *f, ", $ty, " off, int whence)`.")]
            fn $seek(f: FlightPtr, off: i64, whence: i32) -> i32 {
                seek(f, off, whence)
            }
        }
        wrapper! {
            #[doc = concat!("`", $ty, " ", stringify!($tell), "(FILE *f)`.")]
            fn $tell(f: FlightPtr) -> i64 {
                tell(f)
            }
        }
    )*};
}

seek_tell! {
    fseek, ftell, "long";
    fseeko, ftello, "off_t";
    fseeko64, ftello64, "off64_t";
}

wrapper! {
    /// `void rewind(FILE *f)`.
    fn rewind(f: FlightPtr) -> () {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        exited_io(|| unsafe { libc::rewind(f.as_ptr()) })
    }
}

/// `sizeof(fpos_t)` on x86-64 glibc (`{off_t pos; mbstate_t state;}`).
const FPOS_SIZE: usize = 16;

/// `fgetpos`: the position is written to the program's `fpos_t`
/// (16 bytes, checked).
fn get_pos(f: FlightPtr, pos: FlightPtr) -> i32 {
    let f = stream(f);
    mem::check_write(pos, FPOS_SIZE);
    let mut out = [0u8; FPOS_SIZE];
    // SAFETY: `out` is an fpos_t-sized buffer; `f` is a libc stream.
    let r = unsafe { libc::fgetpos(f.as_ptr(), out.as_mut_ptr().cast()) };
    if r != 0 {
        errno::sync_from_libc();
        return r;
    }
    mem::write_bytes(pos, &out);
    r
}

/// `fsetpos` from the program's `fpos_t` (16 bytes, checked).
fn set_pos(f: FlightPtr, pos: FlightPtr) -> i32 {
    let f = stream(f);
    let data = mem::read_int::<FPOS_SIZE>(pos);
    // SAFETY: `data` is an fpos_t-sized copy; `f` is a libc stream.
    let r = exited_io(|| unsafe { libc::fsetpos(f.as_ptr(), data.as_ptr().cast()) });
    if r != 0 {
        errno::sync_from_libc();
    }
    r
}

wrapper! {
    /// `int fgetpos(FILE *f, fpos_t *pos)`.
    fn fgetpos | fgetpos64(f: FlightPtr, pos: FlightPtr) -> i32 {
        get_pos(f, pos)
    }
}

wrapper! {
    /// `int fsetpos(FILE *f, const fpos_t *pos)`.
    fn fsetpos | fsetpos64(f: FlightPtr, pos: FlightPtr) -> i32 {
        set_pos(f, pos)
    }
}

/// `setvbuf` without handing libc the program's buffer (module docs).
fn set_buffer(f: FlightPtr, buf: FlightPtr, mode: i32, size: usize) -> i32 {
    let f = stream(f);
    if buf.intval() != 0 || buf.lower() != 0 {
        mem::check_write(buf, size);
    }
    // SAFETY: `f` is a libc stream; a NULL buffer lets libc allocate its
    // own of `size` bytes.
    let r = unsafe { libc::setvbuf(f.as_ptr(), core::ptr::null_mut(), mode, size) };
    if r != 0 {
        errno::sync_from_libc();
    }
    r
}

wrapper! {
    /// `int setvbuf(FILE *f, char *buf, int mode, size_t size)`: `buf`
    /// must hold `size` bytes but is not used (module docs).
    fn setvbuf(f: FlightPtr, buf: FlightPtr, mode: i32, size: usize) -> i32 {
        set_buffer(f, buf, mode, size)
    }
}

wrapper! {
    /// `void setbuf(FILE *f, char *buf)`: fully buffered with a
    /// `BUFSIZ`-byte buffer, or unbuffered for NULL.
    fn setbuf(f: FlightPtr, buf: FlightPtr) -> () {
        if buf.intval() == 0 && buf.lower() == 0 {
            set_buffer(f, buf, libc::_IONBF, 0);
        } else {
            set_buffer(f, buf, libc::_IOFBF, libc::BUFSIZ as usize);
        }
    }
}

wrapper! {
    /// `void setbuffer(FILE *f, char *buf, size_t size)`.
    fn setbuffer(f: FlightPtr, buf: FlightPtr, size: usize) -> () {
        if buf.intval() == 0 && buf.lower() == 0 {
            set_buffer(f, buf, libc::_IONBF, 0);
        } else {
            set_buffer(f, buf, libc::_IOFBF, size);
        }
    }
}

wrapper! {
    /// `void setlinebuf(FILE *f)`.
    fn setlinebuf(f: FlightPtr) -> () {
        set_buffer(f, FlightPtr::NULL, libc::_IOLBF, 0);
    }
}

unsafe extern "C" {
    /// glibc's stream locks (not bound by the `libc` crate).
    #[link_name = "flockfile"]
    fn c_flockfile(f: *mut libc::FILE);
    #[link_name = "ftrylockfile"]
    fn c_ftrylockfile(f: *mut libc::FILE) -> libc::c_int;
    #[link_name = "funlockfile"]
    fn c_funlockfile(f: *mut libc::FILE);
}

wrapper! {
    /// `void flockfile(FILE *f)`: libc's recursive stream lock (exited:
    /// it may wait for another thread).
    fn flockfile(f: FlightPtr) -> () {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        exited_io(|| unsafe { c_flockfile(f.as_ptr()) })
    }
}

wrapper! {
    /// `int ftrylockfile(FILE *f)`.
    fn ftrylockfile(f: FlightPtr) -> i32 {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        unsafe { c_ftrylockfile(f.as_ptr()) }
    }
}

wrapper! {
    /// `void funlockfile(FILE *f)`.
    fn funlockfile(f: FlightPtr) -> () {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        unsafe { c_funlockfile(f.as_ptr()) }
    }
}
