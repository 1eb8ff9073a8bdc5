//! Input: `getc` and friends, `ungetc`, `fgets`, `fread`, `getline`,
//! `getdelim`, the stream state queries, and their `_unlocked` variants
//! (the same functions: each wrapper call takes libc's stream lock).
//! Data is read by libc into Rust buffers and then written to the
//! program's memory, checked.

use gimso_abi::FlightPtr;

use super::streams::{Stream, exited_io, program_stdin, stream};
use crate::{errno, mem, wrapper};

unsafe extern "C" {
    fn ftrylockfile(f: *mut libc::FILE) -> i32;
    fn funlockfile(f: *mut libc::FILE);
    fn getc_unlocked(f: *mut libc::FILE) -> i32;
}

/// The start of glibc's `struct _IO_FILE`: its flags and read window.
#[repr(C)]
struct ReadWindow {
    flags: i32,
    read_ptr: *const u8,
    read_end: *const u8,
}

/// The next byte of `f` if it is already in the stream's buffer: no I/O
/// and no waiting (the stream's lock is only tried), so the thread need
/// not exit. Reading character by character (libc++'s `std::cin`) then
/// costs what a native `getc` costs.
fn buffered_char(f: Stream) -> Option<i32> {
    let fp = f.as_ptr();
    // SAFETY: `fp` is a libc stream; its read window is only read while
    // this thread holds the stream's lock, and getc_unlocked is called
    // under that lock only when a byte is buffered, so it does no I/O.
    unsafe {
        if ftrylockfile(fp) != 0 {
            return None;
        }
        let w = fp.cast::<ReadWindow>();
        let ready = (*w).read_ptr < (*w).read_end;
        let c = ready.then(|| getc_unlocked(fp));
        funlockfile(fp);
        c
    }
}

/// `fgetc` on a libc stream.
pub(super) fn get_char(f: Stream) -> i32 {
    if let Some(c) = buffered_char(f) {
        return c;
    }
    let r = exited_io(|| {
        // SAFETY: `f` is a libc stream.
        unsafe { libc::fgetc(f.as_ptr()) }
    });
    if r == libc::EOF {
        errno::sync_from_libc();
    }
    r
}

wrapper! {
    /// `int fgetc(FILE *f)` (and `getc`).
    fn fgetc | getc | fgetc_unlocked | getc_unlocked(f: FlightPtr) -> i32 {
        get_char(stream(f))
    }
}

wrapper! {
    /// `int getchar(void)`.
    fn getchar | getchar_unlocked() -> i32 {
        get_char(program_stdin())
    }
}

wrapper! {
    /// `int ungetc(int c, FILE *f)`.
    fn ungetc(c: i32, f: FlightPtr) -> i32 {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        unsafe { libc::ungetc(c, f.as_ptr()) }
    }
}

/// `fgets`: the bytes it stores (the line and its NUL) must fit in `buf`.
fn get_line(buf: FlightPtr, n: i32, f: FlightPtr) -> FlightPtr {
    let f = stream(f);
    if n <= 0 {
        return FlightPtr::NULL;
    }
    let mut line = vec![0u8; n as usize];
    let r = exited_io(|| {
        // SAFETY: `line` has n bytes; `f` is a libc stream.
        unsafe { libc::fgets(line.as_mut_ptr().cast(), n, f.as_ptr()) }
    });
    if r.is_null() {
        errno::sync_from_libc();
        return FlightPtr::NULL;
    }
    let len = line.iter().position(|&b| b == 0).unwrap_or(line.len() - 1);
    mem::write_bytes(buf, &line[..len + 1]);
    buf
}

wrapper! {
    /// `char *fgets(char *buf, int n, FILE *f)`.
    fn fgets | fgets_unlocked(buf: FlightPtr, n: i32, f: FlightPtr) -> FlightPtr {
        get_line(buf, n, f)
    }
}

/// `fread`: `p` must hold `size * n` bytes.
fn read(p: FlightPtr, size: usize, n: usize, f: FlightPtr) -> usize {
    let f = stream(f);
    if size == 0 || n == 0 {
        return 0;
    }
    mem::check_write(p, size.saturating_mul(n));
    let mut data = vec![0u8; size * n];
    let got = exited_io(|| {
        // SAFETY: `data` holds size * n bytes; `f` is a libc stream.
        unsafe { libc::fread(data.as_mut_ptr().cast(), size, n, f.as_ptr()) }
    });
    if got < n {
        errno::sync_from_libc();
    }
    mem::write_bytes(p, &data[..got * size]);
    got
}

wrapper! {
    /// `size_t fread(void *p, size_t size, size_t n, FILE *f)`.
    fn fread | fread_unlocked(p: FlightPtr, size: usize, n: usize, f: FlightPtr) -> usize {
        read(p, size, n, f)
    }
}

unsafe extern "C" {
    /// glibc's `getdelim` (not bound by the `libc` crate).
    #[link_name = "getdelim"]
    fn c_getdelim(
        line: *mut *mut libc::c_char,
        cap: *mut usize,
        delim: libc::c_int,
        f: *mut libc::FILE,
    ) -> isize;
}

/// `getdelim`: reads up to and including `delim` into `*lineptr`, a
/// buffer of `*n` bytes: an existing buffer must really be `*n` bytes
/// big (checked for writing before anything is read); a NULL one, or one
/// too small for the line, is replaced by a fresh GC object (the old one
/// stays valid: the collector reclaims it).
fn get_delim(lineptr: FlightPtr, n: FlightPtr, delim: i32, f: FlightPtr) -> i64 {
    let f = stream(f);
    let buf = mem::load_ptr(lineptr);
    let size = u64::from_ne_bytes(mem::read_int::<8>(n)) as usize;
    let has_buf = buf.intval() != 0;
    if has_buf {
        mem::check_write(buf, size);
    }
    let mut line: *mut libc::c_char = core::ptr::null_mut();
    let mut cap: usize = 0;
    let len = exited_io(|| {
        // SAFETY: getdelim allocates `line` with libc's malloc; `f` is a
        // libc stream.
        unsafe { c_getdelim(&mut line, &mut cap, delim, f.as_ptr()) }
    });
    let data = if len >= 0 && !line.is_null() {
        // SAFETY: getdelim stored `len` bytes at `line`.
        unsafe { core::slice::from_raw_parts(line.cast::<u8>(), len as usize) }.to_vec()
    } else {
        Vec::new()
    };
    // SAFETY: `line` came from libc's malloc (or is NULL).
    unsafe { libc::free(line.cast()) };
    if len < 0 {
        errno::sync_from_libc();
        if !has_buf {
            // glibc allocates the buffer even when nothing is read.
            let fresh = mem::alloc(120, 16, 0);
            mem::store_ptr(lineptr, fresh);
            mem::write_int(n, &120u64.to_ne_bytes());
        }
        return -1;
    }
    let needed = data.len() + 1;
    let mut out = data;
    out.push(0);
    if has_buf && needed <= size {
        mem::write_bytes(buf, &out);
    } else {
        let fresh_size = needed.next_power_of_two().max(120);
        let fresh = mem::alloc(fresh_size, 16, 0);
        mem::write_bytes(fresh, &out);
        mem::store_ptr(lineptr, fresh);
        mem::write_int(n, &(fresh_size as u64).to_ne_bytes());
    }
    len as i64
}

wrapper! {
    /// `ssize_t getline(char **lineptr, size_t *n, FILE *f)`.
    fn getline(lineptr: FlightPtr, n: FlightPtr, f: FlightPtr) -> i64 {
        get_delim(lineptr, n, b'\n' as i32, f)
    }
}

wrapper! {
    /// `ssize_t getdelim(char **lineptr, size_t *n, int delim, FILE *f)`.
    fn getdelim | __getdelim(lineptr: FlightPtr, n: FlightPtr, delim: i32, f: FlightPtr) -> i64 {
        get_delim(lineptr, n, delim, f)
    }
}

macro_rules! stream_query {
    ($($name:ident | $unlocked:ident),*) => {$(
        wrapper! {
            #[doc = concat!("`int ", stringify!($name), "(FILE *f)`.")]
            fn $name | $unlocked(f: FlightPtr) -> i32 {
                let f = stream(f);
                // SAFETY: `f` is a libc stream.
                unsafe { libc::$name(f.as_ptr()) }
            }
        }
    )*};
}

stream_query!(
    feof | feof_unlocked,
    ferror | ferror_unlocked,
    fileno | fileno_unlocked
);

wrapper! {
    /// `void clearerr(FILE *f)`.
    fn clearerr | clearerr_unlocked(f: FlightPtr) -> () {
        let f = stream(f);
        // SAFETY: `f` is a libc stream.
        unsafe { libc::clearerr(f.as_ptr()) }
    }
}
