//! POSIX and GNU additions to `<string.h>`: `strtok_r`, `strsep`,
//! `memrchr`, `strchrnul`, `strcasestr`, `memmem`, `strerror_r` (GNU and
//! XSI), `strsignal`, `strcoll`, `strxfrm`, `rawmemchr`, `stpncpy`,
//! `strverscmp`, `memccpy` and the BSD `index`, `rindex`, `bzero`, `bcopy`. Results
//! pointing into an argument keep that argument's capability.

use gimso_abi::FlightPtr;

use crate::mem::{self, c_string, c_strlen};
use crate::{errno, wrapper};

/// Splits off the token starting at `start` (a checked C string): returns
/// the token and where the scan continues (NULL at the end of the string),
/// writing a NUL over the delimiter that ends the token.
fn split_token(start: FlightPtr, set: &[u8], skip_leading: bool) -> (FlightPtr, FlightPtr) {
    let len = c_strlen(start);
    // SAFETY: c_strlen checked len + 1 bytes at start.
    let text = unsafe { mem::bytes(start, len) };
    let skip = if skip_leading {
        text.iter().take_while(|b| set.contains(b)).count()
    } else {
        0
    };
    let token = start.offset(skip as isize);
    let n = text[skip..].iter().take_while(|b| !set.contains(b)).count();
    if skip + n == len {
        return (token, FlightPtr::NULL);
    }
    let end = token.offset(n as isize);
    mem::write_bytes(end, &[0]);
    (token, end.offset(1))
}

wrapper! {
    /// `char *strtok_r(char *s, const char *delim, char **saveptr)`.
    fn strtok_r(s: FlightPtr, delim: FlightPtr, saveptr: FlightPtr) -> FlightPtr {
        let set = c_string(delim);
        let start = if s.intval() != 0 { s } else { mem::load_ptr(saveptr) };
        if start.intval() == 0 {
            return FlightPtr::NULL;
        }
        let len = c_strlen(start);
        // SAFETY: c_strlen checked len + 1 bytes.
        let text = unsafe { mem::bytes(start, len) };
        if text.iter().all(|b| set.contains(b)) {
            mem::store_ptr(saveptr, start.offset(len as isize));
            return FlightPtr::NULL;
        }
        let (token, next) = split_token(start, &set, true);
        let next = if next.intval() == 0 {
            token.offset(c_strlen(token) as isize)
        } else {
            next
        };
        mem::store_ptr(saveptr, next);
        token
    }
}

wrapper! {
    /// `char *strsep(char **sp, const char *delim)`.
    fn strsep(sp: FlightPtr, delim: FlightPtr) -> FlightPtr {
        let start = mem::load_ptr(sp);
        if start.intval() == 0 {
            return FlightPtr::NULL;
        }
        let set = c_string(delim);
        let (token, next) = split_token(start, &set, false);
        mem::store_ptr(sp, next);
        token
    }
}

wrapper! {
    /// `void *memrchr(const void *s, int c, size_t n)`.
    fn memrchr(s: FlightPtr, c: i32, n: usize) -> FlightPtr {
        mem::check_read(s, n);
        // SAFETY: just checked n bytes.
        let window = unsafe { mem::bytes(s, n) };
        match window.iter().rposition(|&b| b == c as u8) {
            Some(i) => s.offset(i as isize),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `char *strchrnul(const char *s, int c)`.
    fn strchrnul(s: FlightPtr, c: i32) -> FlightPtr {
        let len = c_strlen(s);
        // SAFETY: c_strlen checked len + 1 bytes.
        let window = unsafe { mem::bytes(s, len) };
        let i = window.iter().position(|&b| b == c as u8).unwrap_or(len);
        s.offset(i as isize)
    }
}

/// Where `needle` first occurs in `hay`.
fn find(hay: &[u8], needle: &[u8], fold: bool) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| {
        if fold {
            w.eq_ignore_ascii_case(needle)
        } else {
            w == needle
        }
    })
}

wrapper! {
    /// `char *strcasestr(const char *hay, const char *needle)`.
    fn strcasestr(hay: FlightPtr, needle: FlightPtr) -> FlightPtr {
        let n = c_string(needle);
        let len = c_strlen(hay);
        // SAFETY: c_strlen checked len + 1 bytes.
        let h = unsafe { mem::bytes(hay, len) };
        match find(h, &n, true) {
            Some(i) => hay.offset(i as isize),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `void *memmem(const void *hay, size_t hn, const void *needle, size_t nn)`.
    fn memmem(hay: FlightPtr, hn: usize, needle: FlightPtr, nn: usize) -> FlightPtr {
        mem::check_read(hay, hn);
        mem::check_read(needle, nn);
        // SAFETY: both ranges just checked.
        let (h, n) = unsafe { (mem::bytes(hay, hn), mem::bytes(needle, nn)) };
        match find(h, n, false) {
            Some(i) => hay.offset(i as isize),
            None => FlightPtr::NULL,
        }
    }
}

/// Copies `msg` into the program's buffer `buf` of `len` bytes (checked
/// for all `len`), truncated with a NUL; true if it fitted.
fn copy_message(buf: FlightPtr, len: usize, msg: &[u8]) -> bool {
    mem::check_write(buf, len);
    if len == 0 {
        return false;
    }
    let n = msg.len().min(len - 1);
    let mut out = msg[..n].to_vec();
    out.push(0);
    mem::write_bytes(buf, &out);
    n == msg.len()
}

wrapper! {
    /// GNU `char *strerror_r(int n, char *buf, size_t len)`: returns a
    /// fresh read-only message (glibc may return a static string instead
    /// of filling `buf`; programs must use the result). `buf` is still
    /// checked for `len` bytes.
    fn strerror_r(n: i32, buf: FlightPtr, len: usize) -> FlightPtr {
        mem::check_write(buf, len);
        mem::alloc_c_string(&errno::message(n), true)
    }
}

wrapper! {
    /// XSI `int strerror_r(int n, char *buf, size_t len)` (what glibc's
    /// headers name `__xpg_strerror_r`): 0, or `ERANGE` if truncated.
    fn __xpg_strerror_r(n: i32, buf: FlightPtr, len: usize) -> i32 {
        if copy_message(buf, len, &errno::message(n)) {
            0
        } else {
            libc::ERANGE
        }
    }
}

wrapper! {
    /// `char *strsignal(int sig)`: a fresh read-only string.
    fn strsignal(sig: i32) -> FlightPtr {
        // SAFETY: strsignal returns a NUL-terminated string, valid until
        // the next call on this thread.
        let s = unsafe { core::ffi::CStr::from_ptr(libc::strsignal(sig)) };
        mem::alloc_c_string(s.to_bytes(), true)
    }
}

wrapper! {
    /// `int strcoll(const char *a, const char *b)` in the current locale.
    fn strcoll(a: FlightPtr, b: FlightPtr) -> i32 {
        let (a, b) = (mem::c_string_nul(a), mem::c_string_nul(b));
        // SAFETY: NUL-terminated copies.
        unsafe { libc::strcoll(a.as_ptr().cast(), b.as_ptr().cast()) }
    }
}

wrapper! {
    /// `size_t strxfrm(char *dst, const char *src, size_t n)`: `dst` is
    /// checked for all `n` bytes (C leaves them indeterminate when the
    /// result does not fit).
    fn strxfrm(dst: FlightPtr, src: FlightPtr, n: usize) -> usize {
        let s = mem::c_string_nul(src);
        mem::check_write(dst, n);
        let mut out = vec![0u8; n.max(1)];
        // SAFETY: out has n bytes (at least one); s is NUL-terminated.
        let len = unsafe { libc::strxfrm(out.as_mut_ptr().cast(), s.as_ptr().cast(), n) };
        if len < n {
            mem::write_bytes(dst, &out[..=len]);
        }
        len
    }
}

wrapper! {
    /// `void *rawmemchr(const void *s, int c)`: `c` is known to occur, so
    /// the scan is bounded by the object instead (running off its end is an
    /// out-of-bounds read).
    fn rawmemchr(s: FlightPtr, c: i32) -> FlightPtr {
        let avail = mem::readable(s);
        // SAFETY: readable() checked `avail` bytes at s.
        let window = unsafe { mem::bytes(s, avail) };
        match window.iter().position(|&b| b == c as u8) {
            Some(i) => s.offset(i as isize),
            None => {
                // The byte is not in the object: the native scan would read
                // past its end.
                mem::check_read(s, avail + 1);
                FlightPtr::NULL
            }
        }
    }
}

wrapper! {
    /// `char *stpncpy(char *dst, const char *src, size_t n)`: `strncpy`
    /// returning the end of the copied string (or `dst + n`).
    fn stpncpy(dst: FlightPtr, src: FlightPtr, n: usize) -> FlightPtr {
        let len = mem::c_strnlen(src, n);
        crate::string::strncpy::call(dst, src, n);
        dst.offset(len as isize)
    }
}

wrapper! {
    /// `void *memccpy(void *dst, const void *src, int c, size_t n)`: copies
    /// `src` up to and including the first byte `c` among its first `n`,
    /// and returns the byte after it in `dst` (NULL when no byte matched
    /// and all `n` were copied). The copy stops at the match, so only the
    /// bytes up to it must be readable and writable.
    fn memccpy(dst: FlightPtr, src: FlightPtr, c: i32, n: usize) -> FlightPtr {
        let found = crate::string::memchr::call(src, c, n);
        let copied = if found.intval() == 0 {
            n
        } else {
            found.intval() - src.intval() + 1
        };
        mem::memmove(dst, src, copied);
        if found.intval() == 0 {
            FlightPtr::NULL
        } else {
            dst.offset(copied as isize)
        }
    }
}

wrapper! {
    /// `char *index(const char *s, int c)`: `strchr`.
    fn index(s: FlightPtr, c: i32) -> FlightPtr {
        crate::string::strchr::call(s, c)
    }
}

wrapper! {
    /// `char *rindex(const char *s, int c)`: `strrchr`.
    fn rindex(s: FlightPtr, c: i32) -> FlightPtr {
        crate::string::strrchr::call(s, c)
    }
}

wrapper! {
    /// `void bzero(void *s, size_t n)`.
    fn bzero | explicit_bzero(s: FlightPtr, n: usize) -> () {
        if n != 0 {
            mem::check_write(s, n);
            mem::memset(s, 0, n);
        }
    }
}

wrapper! {
    /// `void bcopy(const void *src, void *dst, size_t n)`: `memmove` with
    /// the arguments the other way round.
    fn bcopy(src: FlightPtr, dst: FlightPtr, n: usize) -> () {
        mem::memmove(dst, src, n);
    }
}

unsafe extern "C" {
    /// glibc's (not in the `libc` crate).
    #[link_name = "strverscmp"]
    fn native_strverscmp(a: *const core::ffi::c_char, b: *const core::ffi::c_char) -> i32;
}

/// glibc's `strverscmp` order (digit runs compare as version numbers),
/// computed by glibc itself on checked copies of both strings.
fn version_compare(a: &[u8], b: &[u8]) -> i32 {
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    x.push(0);
    y.push(0);
    // SAFETY: both are NUL-terminated private copies.
    unsafe { native_strverscmp(x.as_ptr().cast(), y.as_ptr().cast()) }
}

wrapper! {
    /// `int strverscmp(const char *a, const char *b)`.
    fn strverscmp(a: FlightPtr, b: FlightPtr) -> i32 {
        version_compare(&c_string(a), &c_string(b))
    }
}
