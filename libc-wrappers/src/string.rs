//! `<string.h>`: the `mem*` and `str*` functions. Each checks exactly the
//! bytes it reads or writes; returned pointers keep the capability of the
//! argument they point into.

use gimso_abi::FlightPtr;
use parking_lot::Mutex;

use crate::mem::{
    c_string, c_strlen, c_strnlen, check_read, check_write, compare_strings, memmove, readable,
};
use crate::wrapper;

/// The byte value `c` converted to `unsigned char`, as the functions use it.
fn byte(c: i32) -> u8 {
    c as u8
}

wrapper! {
    /// `void *memcpy(void *dst, const void *src, size_t n)`: a `memmove`
    /// (overlap is harmless), capabilities copied with the bytes.
    fn memcpy(dst: FlightPtr, src: FlightPtr, n: usize) -> FlightPtr {
        memmove(dst, src, n);
        dst
    }
}

wrapper! {
    /// `void *memmove(void *dst, const void *src, size_t n)`.
    fn memmove(dst: FlightPtr, src: FlightPtr, n: usize) -> FlightPtr {
        crate::mem::memmove(dst, src, n);
        dst
    }
}

wrapper! {
    /// `void *memset(void *s, int c, size_t n)`: nulls the capabilities.
    fn memset(s: FlightPtr, c: i32, n: usize) -> FlightPtr {
        crate::mem::memset(s, byte(c), n);
        s
    }
}

wrapper! {
    /// `int memcmp(const void *a, const void *b, size_t n)`: both `n`
    /// bytes must be readable.
    fn memcmp(a: FlightPtr, b: FlightPtr, n: usize) -> i32 {
        check_read(a, n);
        check_read(b, n);
        // SAFETY: both ranges were just checked; libc's vectorised compare
        // reads exactly those bytes (and gives the plain build's values).
        unsafe { libc::memcmp(a.intval() as *const _, b.intval() as *const _, n) }
    }
}

wrapper! {
    /// `void *memchr(const void *s, int c, size_t n)`: reads sequentially
    /// and stops at the first match (C11 7.24.5.1), so only the bytes up
    /// to the match are checked.
    fn memchr(s: FlightPtr, c: i32, n: usize) -> FlightPtr {
        if n == 0 {
            return FlightPtr::NULL;
        }
        let avail = readable(s);
        // SAFETY: readable() checked avail bytes.
        let window = unsafe { crate::mem::bytes(s, avail.min(n)) };
        match window.iter().position(|&b| b == byte(c)) {
            Some(i) => s.offset(i as isize),
            None => {
                check_read(s, n);
                FlightPtr::NULL
            }
        }
    }
}

wrapper! {
    /// `size_t strlen(const char *s)`.
    fn strlen(s: FlightPtr) -> usize {
        c_strlen(s)
    }
}

wrapper! {
    /// `size_t strnlen(const char *s, size_t max)`.
    fn strnlen(s: FlightPtr, max: usize) -> usize {
        c_strnlen(s, max)
    }
}

wrapper! {
    /// `int strcmp(const char *a, const char *b)`.
    fn strcmp(a: FlightPtr, b: FlightPtr) -> i32 {
        compare_strings(a, b, usize::MAX)
    }
}

wrapper! {
    /// `int strncmp(const char *a, const char *b, size_t n)`.
    fn strncmp(a: FlightPtr, b: FlightPtr, n: usize) -> i32 {
        compare_strings(a, b, n)
    }
}

wrapper! {
    /// `char *strcpy(char *dst, const char *src)`: `dst` must hold
    /// `strlen(src) + 1` bytes.
    fn strcpy(dst: FlightPtr, src: FlightPtr) -> FlightPtr {
        let n = c_strlen(src) + 1;
        check_write(dst, n);
        crate::mem::memmove(dst, src, n);
        dst
    }
}

wrapper! {
    /// `char *strncpy(char *dst, const char *src, size_t n)`: copies at
    /// most `n` bytes of `src` and pads `dst` with NULs to `n` bytes.
    fn strncpy(dst: FlightPtr, src: FlightPtr, n: usize) -> FlightPtr {
        if n == 0 {
            return dst;
        }
        let len = c_strnlen(src, n);
        let copied = if len < n { len + 1 } else { n };
        check_write(dst, n);
        crate::mem::memmove(dst, src, copied);
        if copied < n {
            crate::mem::memset(dst.offset(copied as isize), 0, n - copied);
        }
        dst
    }
}

wrapper! {
    /// `char *strcat(char *dst, const char *src)`.
    fn strcat(dst: FlightPtr, src: FlightPtr) -> FlightPtr {
        let d = c_strlen(dst);
        let n = c_strlen(src) + 1;
        let at = dst.offset(d as isize);
        check_write(at, n);
        crate::mem::memmove(at, src, n);
        dst
    }
}

wrapper! {
    /// `char *strncat(char *dst, const char *src, size_t n)`: appends at
    /// most `n` bytes of `src` and a NUL.
    fn strncat(dst: FlightPtr, src: FlightPtr, n: usize) -> FlightPtr {
        let d = c_strlen(dst);
        let len = c_strnlen(src, n);
        let at = dst.offset(d as isize);
        check_write(at, len + 1);
        crate::mem::memmove(at, src, len);
        crate::mem::write_bytes(at.offset(len as isize), &[0]);
        dst
    }
}

wrapper! {
    /// `char *strdup(const char *s)`: a fresh heap object.
    fn strdup(s: FlightPtr) -> FlightPtr {
        let bytes = c_string(s);
        crate::mem::alloc_c_string(&bytes, false)
    }
}

wrapper! {
    /// `char *strndup(const char *s, size_t n)`.
    fn strndup(s: FlightPtr, n: usize) -> FlightPtr {
        let len = c_strnlen(s, n);
        let bytes = crate::mem::read_bytes(s, len);
        crate::mem::alloc_c_string(&bytes, false)
    }
}

wrapper! {
    /// `char *strchr(const char *s, int c)`: `c == 0` finds the terminator.
    fn strchr(s: FlightPtr, c: i32) -> FlightPtr {
        let len = c_strlen(s);
        // SAFETY: c_strlen checked len + 1 bytes.
        let window = unsafe { crate::mem::bytes(s, len + 1) };
        match window.iter().position(|&b| b == byte(c)) {
            Some(i) => s.offset(i as isize),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `char *strrchr(const char *s, int c)`.
    fn strrchr(s: FlightPtr, c: i32) -> FlightPtr {
        let len = c_strlen(s);
        // SAFETY: c_strlen checked len + 1 bytes.
        let window = unsafe { crate::mem::bytes(s, len + 1) };
        match window.iter().rposition(|&b| b == byte(c)) {
            Some(i) => s.offset(i as isize),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `char *strstr(const char *haystack, const char *needle)`.
    fn strstr(haystack: FlightPtr, needle: FlightPtr) -> FlightPtr {
        let h = c_string(haystack);
        let n = c_string(needle);
        if n.is_empty() {
            return haystack;
        }
        match h.windows(n.len()).position(|w| w == n.as_slice()) {
            Some(i) => haystack.offset(i as isize),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `size_t strspn(const char *s, const char *accept)`.
    fn strspn(s: FlightPtr, accept: FlightPtr) -> usize {
        let set = c_string(accept);
        c_string(s).iter().take_while(|b| set.contains(b)).count()
    }
}

wrapper! {
    /// `size_t strcspn(const char *s, const char *reject)`.
    fn strcspn(s: FlightPtr, reject: FlightPtr) -> usize {
        let set = c_string(reject);
        c_string(s).iter().take_while(|b| !set.contains(b)).count()
    }
}

/// The position `strtok` continues from (a pointer into the program's
/// string). Kept reachable for the collector by [`STRTOK_ROOT`].
static STRTOK: Mutex<FlightPtr> = Mutex::new(FlightPtr::NULL);

/// The capability `strtok` holds, as a precise root word.
static STRTOK_ROOT: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

fn strtok_keep(p: FlightPtr) {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        // SAFETY: the root word is a static, readable for the whole program.
        unsafe { gimso_gc::register_root_range(STRTOK_ROOT.as_ptr().cast_const(), 1) };
    });
    // A new root while the collector marks goes through the barrier.
    gimso_shadow::barrier::store_barrier(p.lower());
    STRTOK_ROOT.store(p.lower(), core::sync::atomic::Ordering::Release);
}

wrapper! {
    /// `char *strtok(char *s, const char *delim)`: one saved position for
    /// the whole program, as in glibc.
    fn strtok(s: FlightPtr, delim: FlightPtr) -> FlightPtr {
        let set = c_string(delim);
        let mut saved = STRTOK.lock();
        let start = if s.intval() != 0 { s } else { *saved };
        if start.intval() == 0 {
            return FlightPtr::NULL;
        }
        // Scan only as far as this token ends (not the whole rest of the
        // string each call, which made tokenising quadratic).
        let avail = crate::mem::readable(start);
        // SAFETY: readable() checked [start, start + avail).
        let text = unsafe { crate::mem::bytes(start, avail) };
        let skip = text.iter().take_while(|&&b| b != 0 && set.contains(&b)).count();
        if skip == avail {
            crate::mem::c_strlen(start); // no NUL inside: reports the overread
        }
        if text[skip] == 0 {
            *saved = FlightPtr::NULL;
            strtok_keep(FlightPtr::NULL);
            return FlightPtr::NULL;
        }
        let token = start.offset(skip as isize);
        let len = text[skip..]
            .iter()
            .take_while(|&&b| b != 0 && !set.contains(&b))
            .count();
        if skip + len == avail {
            crate::mem::c_strlen(start);
        }
        let end = token.offset(len as isize);
        if text[skip + len] == 0 {
            *saved = FlightPtr::NULL;
        } else {
            crate::mem::write_bytes(end, &[0]);
            *saved = end.offset(1);
        }
        strtok_keep(*saved);
        token
    }
}

wrapper! {
    /// `int bcmp(const void *a, const void *b, size_t n)` (what clang turns
    /// `memcmp(...) == 0` into): 0 when equal.
    fn bcmp(a: FlightPtr, b: FlightPtr, n: usize) -> i32 {
        memcmp::call(a, b, n)
    }
}

wrapper! {
    /// `char *stpcpy(char *dst, const char *src)`: returns the end of `dst`.
    fn stpcpy(dst: FlightPtr, src: FlightPtr) -> FlightPtr {
        let n = c_strlen(src);
        strcpy::call(dst, src);
        dst.offset(n as isize)
    }
}

wrapper! {
    /// `char *strpbrk(const char *s, const char *accept)`.
    fn strpbrk(s: FlightPtr, accept: FlightPtr) -> FlightPtr {
        let set = c_string(accept);
        match c_string(s).iter().position(|b| set.contains(b)) {
            Some(i) => s.offset(i as isize),
            None => FlightPtr::NULL,
        }
    }
}

/// Case-insensitive comparison of at most `limit` bytes (C locale).
fn compare_nocase(a: FlightPtr, b: FlightPtr, limit: usize) -> i32 {
    let x = c_string(a);
    let y = c_string(b);
    let xs = x.iter().chain(core::iter::once(&0));
    let ys = y.iter().chain(core::iter::once(&0));
    for (&p, &q) in xs.zip(ys).take(limit) {
        let (p, q) = (p.to_ascii_lowercase(), q.to_ascii_lowercase());
        if p != q || p == 0 {
            return p as i32 - q as i32;
        }
    }
    0
}

wrapper! {
    /// `int strcasecmp(const char *a, const char *b)`.
    fn strcasecmp(a: FlightPtr, b: FlightPtr) -> i32 {
        compare_nocase(a, b, usize::MAX)
    }
}

wrapper! {
    /// `int strncasecmp(const char *a, const char *b, size_t n)`.
    fn strncasecmp(a: FlightPtr, b: FlightPtr, n: usize) -> i32 {
        if n == 0 {
            return 0;
        }
        compare_nocase(a, b, n)
    }
}
