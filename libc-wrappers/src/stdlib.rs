//! `<stdlib.h>` (besides allocation and exit): number parsing, `qsort`,
//! `bsearch`, `getenv`, `rand`, `abs`.
//!
//! Number parsing runs glibc's own functions on a checked, NUL-terminated
//! copy of the part of the program's string a number can span, so results
//! and `endptr` positions are glibc's.

use core::ffi::{c_char, c_int};

use gimso_abi::FlightPtr;

use crate::call::{Callee, CcArg};
use gimso_shadow::check::Access;

use crate::mem::{self, c_string_nul};
use crate::{errno, wrapper};

/// The prefix of the C string at `p` that a number parser (`strtod`,
/// `strtol`, `atoi`, ...) may read, NUL-terminated: leading white space,
/// then the bytes numbers are written with (letters and digits for every
/// base, `inf`, `nan(...)` and hex floats, signs, the decimal point), up to
/// and checking the first byte that cannot continue a number. A parser
/// reads that far and no further, so the result is the same as on the
/// whole string, and a number at the front of a large buffer (a JSON
/// text, a file read whole) costs its own length: copying the whole rest
/// made QuickJS's `JSON.parse` quadratic. A number running to the end of
/// its object without such a byte is an out-of-bounds read, as before.
fn number_prefix(p: FlightPtr) -> Vec<u8> {
    // A locale's decimal point other than '.' (glibc parsers use it).
    // SAFETY: localeconv returns glibc's static, valid lconv.
    let point = unsafe { core::ffi::CStr::from_ptr((*libc::localeconv()).decimal_point) };
    number_prefix_in(p, point.to_bytes())
}

/// [`number_prefix`] for a locale whose decimal point is `point`.
fn number_prefix_in(p: FlightPtr, point: &[u8]) -> Vec<u8> {
    let avail = mem::readable(p);
    // SAFETY: readable() checked [p, p + avail).
    let window = unsafe { mem::bytes(p, avail) };
    let in_number = |b: u8| {
        b.is_ascii_alphanumeric()
            || matches!(b, b'.' | b'+' | b'-' | b'(' | b')' | b'_')
            || (b != 0 && point.contains(&b))
    };
    let spaces = window
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
        .count();
    match window[spaces..].iter().position(|&b| !in_number(b)) {
        Some(n) => {
            let mut copy = window[..spaces + n].to_vec();
            copy.push(0);
            copy
        }
        None => {
            // The parser would read the byte after the object.
            mem::check_access(p, Access::read(avail + 1));
            mem::unreachable_after_check()
        }
    }
}

/// Runs libc parser `parse` on the string at `nptr`; stores the end
/// position into `*endptr` (when non-null) with `nptr`'s capability and
/// copies a failure's errno into the program's.
pub(crate) fn parse_with<T>(
    nptr: FlightPtr,
    endptr: FlightPtr,
    parse: impl FnOnce(*const c_char, *mut *mut c_char) -> T,
) -> T {
    finish_parse(number_prefix(nptr), nptr, endptr, parse)
}

/// [`parse_with`] for a parser of a locale whose decimal point is `point`
/// (the `_l` functions).
pub fn parse_in<T>(
    nptr: FlightPtr,
    endptr: FlightPtr,
    point: &[u8],
    parse: impl FnOnce(*const c_char, *mut *mut c_char) -> T,
) -> T {
    finish_parse(number_prefix_in(nptr, point), nptr, endptr, parse)
}

/// Runs `parse` on `s`, the checked prefix of the string at `nptr`.
fn finish_parse<T>(
    s: Vec<u8>,
    nptr: FlightPtr,
    endptr: FlightPtr,
    parse: impl FnOnce(*const c_char, *mut *mut c_char) -> T,
) -> T {
    let mut end: *mut c_char = core::ptr::null_mut();
    // SAFETY: __errno_location returns the calling thread's errno.
    unsafe { *libc::__errno_location() = 0 };
    let v = parse(s.as_ptr().cast(), &mut end);
    // SAFETY: as above.
    let e = unsafe { *libc::__errno_location() };
    if e != 0 {
        errno::set(e);
    }
    if endptr.intval() != 0 || endptr.lower() != 0 {
        let consumed = (end as usize).wrapping_sub(s.as_ptr() as usize);
        let consumed = if end.is_null() { 0 } else { consumed };
        mem::store_ptr(endptr, nptr.offset(consumed as isize));
    }
    v
}

wrapper! {
    /// `int atoi(const char *s)`.
    fn atoi(s: FlightPtr) -> i32 {
        let s = number_prefix(s);
        // SAFETY: `s` is NUL-terminated.
        unsafe { libc::atoi(s.as_ptr().cast()) }
    }
}

wrapper! {
    /// `long atol(const char *s)`.
    fn atol(s: FlightPtr) -> i64 {
        let s = number_prefix(s);
        // SAFETY: `s` is NUL-terminated.
        unsafe { libc::atol(s.as_ptr().cast()) }
    }
}

wrapper! {
    /// `long long atoll(const char *s)`.
    fn atoll(s: FlightPtr) -> i64 {
        let s = number_prefix(s);
        // SAFETY: `s` is NUL-terminated.
        unsafe { libc::atoll(s.as_ptr().cast()) }
    }
}

wrapper! {
    /// `double atof(const char *s)`.
    fn atof(s: FlightPtr) -> f64 {
        let s = number_prefix(s);
        // SAFETY: `s` is NUL-terminated.
        unsafe { libc::atof(s.as_ptr().cast()) }
    }
}

wrapper! {
    /// `long strtol(const char *s, char **end, int base)`.
    fn strtol(s: FlightPtr, end: FlightPtr, base: i32) -> i64 {
        // SAFETY: parse_with passes a NUL-terminated string and a valid
        // end pointer.
        parse_with(s, end, |p, e| unsafe { libc::strtol(p, e, base as c_int) })
    }
}

wrapper! {
    /// `unsigned long strtoul(const char *s, char **end, int base)`.
    fn strtoul(s: FlightPtr, end: FlightPtr, base: i32) -> u64 {
        // SAFETY: as for strtol.
        parse_with(s, end, |p, e| unsafe { libc::strtoul(p, e, base as c_int) })
    }
}

wrapper! {
    /// `long long strtoll(const char *s, char **end, int base)`.
    fn strtoll(s: FlightPtr, end: FlightPtr, base: i32) -> i64 {
        // SAFETY: as for strtol.
        parse_with(s, end, |p, e| unsafe { libc::strtoll(p, e, base as c_int) })
    }
}

wrapper! {
    /// `unsigned long long strtoull(const char *s, char **end, int base)`.
    fn strtoull(s: FlightPtr, end: FlightPtr, base: i32) -> u64 {
        // SAFETY: as for strtol.
        parse_with(s, end, |p, e| unsafe { libc::strtoull(p, e, base as c_int) })
    }
}

wrapper! {
    /// `double strtod(const char *s, char **end)`.
    fn strtod(s: FlightPtr, end: FlightPtr) -> f64 {
        // SAFETY: as for strtol.
        parse_with(s, end, |p, e| unsafe { libc::strtod(p, e) })
    }
}

wrapper! {
    /// `float strtof(const char *s, char **end)`.
    fn strtof(s: FlightPtr, end: FlightPtr) -> f32 {
        // SAFETY: as for strtol.
        parse_with(s, end, |p, e| unsafe { libc::strtof(p, e) })
    }
}

wrapper! {
    /// `intmax_t strtoimax(const char *s, char **end, int base)`.
    fn strtoimax(s: FlightPtr, end: FlightPtr, base: i32) -> i64 {
        strtoll::call(s, end, base)
    }
}

wrapper! {
    /// `uintmax_t strtoumax(const char *s, char **end, int base)`.
    fn strtoumax(s: FlightPtr, end: FlightPtr, base: i32) -> u64 {
        strtoull::call(s, end, base)
    }
}

/// A division by zero in `div` and its kind: natively SIGFPE.
fn divide_by_zero(what: &str) -> ! {
    crate::report::fatal(&format!("{what}: integer division by zero"))
}

wrapper! {
    /// `div_t div(int n, int d)`: `{quot, rem}` packed in one word, as the
    /// x86-64 ABI returns the 8-byte struct.
    fn div(n: i32, d: i32) -> u64 {
        if d == 0 {
            divide_by_zero("div");
        }
        let (q, r) = (n.wrapping_div(d), n.wrapping_rem(d));
        u64::from(q as u32) | (u64::from(r as u32) << 32)
    }
}

wrapper! {
    /// `ldiv_t ldiv(long n, long d)` (and `lldiv`, `imaxdiv`).
    fn ldiv | lldiv | imaxdiv(n: i64, d: i64) -> [u64; 2] {
        if d == 0 {
            divide_by_zero("ldiv");
        }
        [n.wrapping_div(d) as u64, n.wrapping_rem(d) as u64]
    }
}

wrapper! {
    /// `int ffs(int i)`: the 1-based index of the lowest set bit, or 0.
    fn ffs(i: i32) -> i32 {
        if i == 0 { 0 } else { i.trailing_zeros() as i32 + 1 }
    }
}

wrapper! {
    /// `int ffsl(long i)` (and `ffsll`).
    fn ffsl | ffsll(i: i64) -> i32 {
        if i == 0 { 0 } else { i.trailing_zeros() as i32 + 1 }
    }
}

/// glibc functions the `libc` crate does not declare.
mod native {
    unsafe extern "C" {
        pub fn random() -> i64;
        pub fn srandom(seed: u32);
    }
}

wrapper! {
    /// `long random(void)`: glibc's generator, so sequences match.
    fn random() -> i64 {
        // SAFETY: random has no preconditions.
        unsafe { native::random() }
    }
}

wrapper! {
    /// `void srandom(unsigned seed)`.
    fn srandom(seed: u32) -> () {
        // SAFETY: srandom has no preconditions.
        unsafe { native::srandom(seed) }
    }
}

wrapper! {
    /// `double drand48(void)`.
    fn drand48() -> f64 {
        // SAFETY: no preconditions; glibc's own state.
        unsafe { libc::drand48() }
    }
}

wrapper! {
    /// `long lrand48(void)`.
    fn lrand48() -> i64 {
        // SAFETY: as for drand48.
        unsafe { libc::lrand48() }
    }
}

wrapper! {
    /// `long mrand48(void)`.
    fn mrand48() -> i64 {
        // SAFETY: as for drand48.
        unsafe { libc::mrand48() }
    }
}

wrapper! {
    /// `void srand48(long seed)`.
    fn srand48(seed: i64) -> () {
        // SAFETY: as for drand48.
        unsafe { libc::srand48(seed) }
    }
}

/// Runs a `*rand48` function with an explicit state on a copy of the
/// program's `unsigned short[3]` (checked both ways).
fn with_state48<T>(state: FlightPtr, f: impl FnOnce(*mut u16) -> T) -> T {
    mem::check_write(state, 6);
    let raw = mem::read_int::<6>(state);
    let mut xsubi = [
        u16::from_ne_bytes([raw[0], raw[1]]),
        u16::from_ne_bytes([raw[2], raw[3]]),
        u16::from_ne_bytes([raw[4], raw[5]]),
    ];
    let r = f(xsubi.as_mut_ptr());
    let mut out = [0u8; 6];
    for (i, w) in xsubi.iter().enumerate() {
        out[2 * i..2 * i + 2].copy_from_slice(&w.to_ne_bytes());
    }
    mem::write_int(state, &out);
    r
}

wrapper! {
    /// `double erand48(unsigned short xsubi[3])`.
    fn erand48(xsubi: FlightPtr) -> f64 {
        // SAFETY: a private three-element state.
        with_state48(xsubi, |x| unsafe { libc::erand48(x) })
    }
}

wrapper! {
    /// `long nrand48(unsigned short xsubi[3])`.
    fn nrand48(xsubi: FlightPtr) -> i64 {
        // SAFETY: as for erand48.
        with_state48(xsubi, |x| unsafe { libc::nrand48(x) })
    }
}

wrapper! {
    /// `long jrand48(unsigned short xsubi[3])`.
    fn jrand48(xsubi: FlightPtr) -> i64 {
        // SAFETY: as for erand48.
        with_state48(xsubi, |x| unsafe { libc::jrand48(x) })
    }
}

wrapper! {
    /// `int abs(int x)` (wraps for INT_MIN, as the hardware does).
    fn abs(x: i32) -> i32 {
        x.wrapping_abs()
    }
}

wrapper! {
    /// `long labs(long x)`.
    fn labs | llabs | imaxabs(x: i64) -> i64 {
        x.wrapping_abs()
    }
}

wrapper! {
    /// `int rand(void)`: glibc's generator, so sequences match.
    fn rand() -> i32 {
        // SAFETY: rand has no preconditions.
        unsafe { libc::rand() }
    }
}

wrapper! {
    /// `int rand_r(unsigned *seed)`: the state is a checked 4-byte word.
    fn rand_r(seed: FlightPtr) -> i32 {
        let mut state = u32::from_ne_bytes(mem::read_int::<4>(seed));
        // glibc's generator (three steps of its LCG, 11 + 10 + 10 bits), so
        // a seeded sequence is the one the program gets natively.
        let mut step = |bits: u32| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (state / 65_536) % (1 << bits)
        };
        let mut r = step(11);
        r = (r << 10) ^ step(10);
        r = (r << 10) ^ step(10);
        mem::write_int(seed, &state.to_ne_bytes());
        r as i32
    }
}

wrapper! {
    /// `void srand(unsigned seed)`.
    fn srand(seed: u32) -> () {
        // SAFETY: srand has no preconditions.
        unsafe { libc::srand(seed) }
    }
}

wrapper! {
    /// `char *getenv(const char *name)`: a fresh copy of the value (the
    /// program may read it; it is never shared with libc's environment).
    fn getenv(name: FlightPtr) -> FlightPtr {
        lookup_env(name, |n| {
            // SAFETY: `n` is NUL-terminated.
            unsafe { libc::getenv(n) }
        })
    }
}

unsafe extern "C" {
    #[link_name = "secure_getenv"]
    fn native_secure_getenv(name: *const c_char) -> *mut c_char;
}

/// A fresh copy of the value `get` finds for `name` in libc's environment.
fn lookup_env(name: FlightPtr, get: impl FnOnce(*const c_char) -> *mut c_char) -> FlightPtr {
    let name = c_string_nul(name);
    let value = crate::environ::reading(|| {
        let v = get(name.as_ptr().cast());
        // SAFETY: a non-null result is a C string of libc's environment,
        // copied while the environment lock is held.
        (!v.is_null()).then(|| unsafe { core::ffi::CStr::from_ptr(v) }.to_bytes().to_vec())
    });
    match value {
        Some(v) => mem::alloc_c_string(&v, false),
        None => FlightPtr::NULL,
    }
}

wrapper! {
    /// `char *secure_getenv(const char *name)`: as `getenv`, NULL in a
    /// set-user-ID or set-group-ID program.
    fn secure_getenv(name: FlightPtr) -> FlightPtr {
        lookup_env(name, |n| {
            // SAFETY: `n` is NUL-terminated.
            unsafe { native_secure_getenv(n) }
        })
    }
}

wrapper! {
    /// `int setenv(const char *name, const char *value, int overwrite)`:
    /// libc's environment gets copies of both strings.
    fn setenv(name: FlightPtr, value: FlightPtr, overwrite: i32) -> i32 {
        let name = c_string_nul(name);
        let value = c_string_nul(value);
        crate::environ::changing(|| {
            // SAFETY: both are NUL-terminated copies, which libc copies again.
            errno_result(unsafe { libc::setenv(name.as_ptr().cast(), value.as_ptr().cast(), overwrite) })
        })
    }
}

wrapper! {
    /// `int unsetenv(const char *name)`.
    fn unsetenv(name: FlightPtr) -> i32 {
        let name = c_string_nul(name);
        crate::environ::changing(|| {
            // SAFETY: a NUL-terminated copy.
            errno_result(unsafe { libc::unsetenv(name.as_ptr().cast()) })
        })
    }
}

wrapper! {
    /// `int putenv(char *string)`: `NAME=VALUE` is set as `setenv` would
    /// (libc gets a copy, so later changes to `string` do not reach the
    /// environment, unlike natively); `NAME` alone removes it, as glibc's
    /// does.
    fn putenv(string: FlightPtr) -> i32 {
        let text = c_string_nul(string);
        let body = &text[..text.len() - 1];
        crate::environ::changing(|| {
            let r = match body.iter().position(|&b| b == b'=') {
                Some(eq) => {
                    let mut name = body[..eq].to_vec();
                    name.push(0);
                    let value = &text[eq + 1..];
                    // SAFETY: NUL-terminated copies.
                    unsafe { libc::setenv(name.as_ptr().cast(), value.as_ptr().cast(), 1) }
                }
                // SAFETY: a NUL-terminated copy.
                None => unsafe { libc::unsetenv(text.as_ptr().cast()) },
            };
            errno_result(r)
        })
    }
}

wrapper! {
    /// `int clearenv(void)`.
    fn clearenv() -> i32 {
        crate::environ::changing(|| {
            // SAFETY: no arguments; the environment is libc's own.
            unsafe { libc::clearenv() }
        })
    }
}

/// A libc call's `int` result; -1 copies libc's errno into the program's.
fn errno_result(r: i32) -> i32 {
    if r == -1 {
        // SAFETY: __errno_location returns the calling thread's errno.
        crate::errno::set(unsafe { *libc::__errno_location() });
    }
    r
}

/// A comparator call: `cmp(a, b)` as an `int`.
fn compare(cmp: Callee, a: FlightPtr, b: FlightPtr, what: &str) -> i32 {
    cmp.call(&[CcArg::Ptr(a), CcArg::Ptr(b)], 4, what).i32()
}

/// Stable merge sort of `n` elements of `size` bytes at `b`, through
/// `tmp` (at least as large), moving elements with their capabilities.
fn merge_sort(
    b: FlightPtr,
    n: usize,
    size: usize,
    tmp: FlightPtr,
    cmp: &dyn Fn(FlightPtr, FlightPtr) -> i32,
) {
    if n <= 1 {
        return;
    }
    let n1 = n / 2;
    let n2 = n - n1;
    let b2 = b.offset((n1 * size) as isize);
    merge_sort(b, n1, size, tmp, cmp);
    merge_sort(b2, n2, size, tmp, cmp);
    let at = |p: FlightPtr, i: usize| p.offset((i * size) as isize);
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < n1 && j < n2 {
        if cmp(at(b, i), at(b2, j)) <= 0 {
            mem::memmove(at(tmp, k), at(b, i), size);
            i += 1;
        } else {
            mem::memmove(at(tmp, k), at(b2, j), size);
            j += 1;
        }
        k += 1;
    }
    if i < n1 {
        mem::memmove(at(tmp, k), at(b, i), (n1 - i) * size);
        k += n1 - i;
    }
    // The rest of the second half is already in place.
    mem::memmove(b, tmp, k * size);
}

wrapper! {
    /// `void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))`:
    /// the whole array must be readable and writable; a stable merge sort
    /// (as glibc's) that moves capabilities with the elements.
    fn qsort(base: FlightPtr, n: usize, size: usize, cmp: FlightPtr) -> () {
        if n <= 1 || size == 0 {
            return;
        }
        let total = n.saturating_mul(size);
        mem::check_read(base, total);
        mem::check_write(base, total);
        let cmp = Callee::check(cmp);
        sort(base, n, size, &|a, b| compare(cmp, a, b, "qsort comparator"));
    }
}

/// Sorts `n` elements of `size` bytes at `base` (checked) with `cmp`.
fn sort(base: FlightPtr, n: usize, size: usize, cmp: &dyn Fn(FlightPtr, FlightPtr) -> i32) {
    let total = n.saturating_mul(size);
    let tmp = mem::alloc(total, 16, 0);
    let _keep = gimso_gc::Root::new(tmp.lower());
    merge_sort(base, n, size, tmp, cmp);
}

wrapper! {
    /// `void qsort_r(void *base, size_t n, size_t size, int (*cmp)(const
    /// void *, const void *, void *), void *arg)`: `qsort` passing `arg`
    /// to every comparison.
    fn qsort_r(base: FlightPtr, n: usize, size: usize, cmp: FlightPtr, arg: FlightPtr) -> () {
        if n <= 1 || size == 0 {
            return;
        }
        let total = n.saturating_mul(size);
        mem::check_read(base, total);
        mem::check_write(base, total);
        let cmp = Callee::check(cmp);
        sort(base, n, size, &|a, b| {
            cmp.call(&[CcArg::Ptr(a), CcArg::Ptr(b), CcArg::Ptr(arg)], 4, "qsort_r comparator")
                .i32()
        });
    }
}

/// `lfind`/`lsearch`: the first of `*n` elements at `base` equal to `key`
/// by `cmp` (which returns 0 for equal), reading `*n` through its pointer.
fn linear_find(key: FlightPtr, base: FlightPtr, n: usize, size: usize, cmp: Callee) -> FlightPtr {
    for i in 0..n {
        let p = base.offset(i.wrapping_mul(size) as isize);
        if compare(cmp, key, p, "lfind comparator") == 0 {
            return p;
        }
    }
    FlightPtr::NULL
}

wrapper! {
    /// `void *lfind(const void *key, const void *base, size_t *nmemb,
    /// size_t size, int (*cmp)(const void *, const void *))`.
    fn lfind(key: FlightPtr, base: FlightPtr, nmemb: FlightPtr, size: usize, cmp: FlightPtr) -> FlightPtr {
        let n = u64::from_ne_bytes(mem::read_int::<8>(nmemb)) as usize;
        let cmp = Callee::check(cmp);
        linear_find(key, base, n, size, cmp)
    }
}

wrapper! {
    /// `void *lsearch(const void *key, void *base, size_t *nmemb, size_t
    /// size, int (*cmp)(const void *, const void *))`: `lfind`, appending
    /// `key` (with any capabilities it holds) when it is missing; the array
    /// must have room for it.
    fn lsearch(key: FlightPtr, base: FlightPtr, nmemb: FlightPtr, size: usize, cmp: FlightPtr) -> FlightPtr {
        let n = u64::from_ne_bytes(mem::read_int::<8>(nmemb)) as usize;
        let cmp = Callee::check(cmp);
        let found = linear_find(key, base, n, size, cmp);
        if found.intval() != 0 || found.lower() != 0 {
            return found;
        }
        let slot = base.offset(n.wrapping_mul(size) as isize);
        mem::memmove(slot, key, size);
        mem::write_int(nmemb, &((n + 1) as u64).to_ne_bytes());
        slot
    }
}

wrapper! {
    /// `void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))`.
    fn bsearch(key: FlightPtr, base: FlightPtr, n: usize, size: usize, cmp: FlightPtr) -> FlightPtr {
        if n == 0 {
            return FlightPtr::NULL;
        }
        let cmp = Callee::check(cmp);
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let p = base.offset(mid.wrapping_mul(size) as isize);
            let r = compare(cmp, key, p, "bsearch comparator");
            if r < 0 {
                hi = mid;
            } else if r > 0 {
                lo = mid + 1;
            } else {
                return p;
            }
        }
        FlightPtr::NULL
    }
}
